"""The 1 of bamboo as a bird no set prints: body, head, beak, tail, wings and perch drawn from a seed.

Every maker draws its own bird (a peacock, a sparrow, a crane, a phoenix, in colour or as one-ink
outlines). A reader that saw one bird mirrored and recoloured read an unseen set's bird as a flower
(every one of them, on two unseen sets), so the randomised style draws a different bird per set.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from datasets.faces import Palette, Pen

RGB = tuple[int, int, int]
Point = tuple[float, float]

TAILS = ("fan", "streamers", "wedge")


def oval(cx: float, cy: float, rx: float, ry: float, angle: float, n: int = 28) -> list[Point]:
    """Points round an ellipse turned by `angle` radians; rx, ry in face widths (y scaled to the 3:4 face)."""
    c, s = math.cos(angle), math.sin(angle)
    pts = []
    for k in range(n):
        t = 2 * math.pi * k / n
        x, y = rx * math.cos(t), ry * math.sin(t)
        pts.append((cx + x * c - y * s, cy + (x * s + y * c) * 0.75))
    return pts


def _inks(rng: np.random.Generator, p: Palette) -> tuple[RGB, RGB, RGB, RGB]:
    """Body, wing, tail and head colours: the set's own inks shuffled, or one ink for all."""
    keys = [p.red, p.green, p.blue, p.black]
    if rng.random() < 0.35:
        one = keys[int(rng.integers(4))]
        return one, one, one, one
    picks = rng.permutation(4)
    return keys[picks[0]], keys[picks[1]], keys[picks[2]], keys[picks[3]]


def _shape(pen: Pen, pts: list[Point], fill: RGB, outline: float) -> None:
    """A closed shape, filled or (outline > 0) drawn as a line of that width."""
    if outline > 0:
        pen.line([*pts, pts[0]], fill, outline)
    else:
        pen.poly(pts, fill=fill)


def draw_random_bird(pen: Pen, rng: np.random.Generator, p: Palette) -> None:
    """One bird from `rng`, facing right (`datasets.faces.picture` mirrors it for some sets)."""
    body_ink, wing_ink, tail_ink, head_ink = _inks(rng, p)
    outline = float(rng.uniform(0.012, 0.03)) if rng.random() < 0.3 else 0.0
    cx, cy = float(rng.uniform(0.38, 0.55)), float(rng.uniform(0.42, 0.6))
    rx, ry = float(rng.uniform(0.16, 0.28)), float(rng.uniform(0.09, 0.16))
    tilt = float(rng.uniform(-0.7, 0.2))  # head up and to the right
    head_dist = rx * float(rng.uniform(0.9, 1.3))
    hx, hy = cx + head_dist * math.cos(tilt), cy + head_dist * math.sin(tilt) * 0.75 - 0.06
    head_r = float(rng.uniform(0.06, 0.1))
    rear_x, rear_y = cx - rx * math.cos(tilt), cy - rx * math.sin(tilt) * 0.75

    tail = TAILS[int(rng.integers(len(TAILS)))]
    if tail == "fan":  # a peacock's spread, behind the body
        feathers = int(rng.integers(5, 12))
        spread, length = float(rng.uniform(1.2, 2.6)), float(rng.uniform(0.22, 0.38))
        centre = math.pi + tilt + float(rng.uniform(-0.4, 0.4))
        for k in range(feathers):
            a = centre - spread / 2 + spread * k / max(1, feathers - 1)
            tip = (rear_x + length * math.cos(a), rear_y + length * math.sin(a) * 0.75)
            pen.line([(rear_x, rear_y), tip], tail_ink, float(rng.uniform(0.012, 0.03)))
            if rng.random() < 0.7:
                pen.circle(*tip, float(rng.uniform(0.025, 0.045)), fill=head_ink)
    elif tail == "streamers":  # long plumes trailing down and back
        for _ in range(int(rng.integers(2, 5))):
            pts = [(rear_x, rear_y)]
            for _ in range(3):
                x0, y0 = pts[-1]
                pts.append((x0 - float(rng.uniform(0.03, 0.1)), y0 + float(rng.uniform(0.04, 0.12))))
            pen.line(pts, tail_ink, float(rng.uniform(0.015, 0.035)))
    else:  # a short wedge
        spread = float(rng.uniform(0.05, 0.1))
        back = (rear_x - float(rng.uniform(0.12, 0.22)), rear_y + float(rng.uniform(-0.02, 0.1)))
        _shape(
            pen,
            [
                (rear_x, rear_y - spread / 2),
                (back[0], back[1] - spread),
                (back[0], back[1] + spread),
                (rear_x, rear_y + spread / 2),
            ],
            tail_ink,
            outline,
        )

    if rng.random() < 0.6:  # legs down to a branch or a stick of bamboo
        foot_y = min(0.95, cy + ry * 0.75 + float(rng.uniform(0.08, 0.16)))
        for dx in (-0.04, 0.03):
            pen.line([(cx + dx, cy + ry * 0.5), (cx + dx - 0.01, foot_y)], p.black, 0.012)
        perch = p.green if rng.random() < 0.5 else (110, 75, 45)
        pen.line(
            [(0.08, foot_y + 0.01), (0.92, foot_y - float(rng.uniform(-0.04, 0.04)))],
            perch,
            float(rng.uniform(0.015, 0.04)),
        )

    _shape(pen, oval(cx, cy, rx, ry, tilt), body_ink, outline)
    if rng.random() < 0.7:  # a wing: folded on the body, or raised as in flight
        if rng.random() < 0.6:
            _shape(pen, oval(cx - rx * 0.15, cy - 0.01, rx * 0.65, ry * 0.55, tilt + 0.25), wing_ink, outline)
        else:
            lift = float(rng.uniform(0.15, 0.3))
            _shape(
                pen,
                [
                    (cx - rx * 0.4, cy - 0.02),
                    (cx - rx * 0.2, cy - lift),
                    (cx + rx * 0.4, cy - lift * 0.8),
                    (cx + rx * 0.3, cy - 0.02),
                ],
                wing_ink,
                outline,
            )
    # neck, head, beak, eye, perhaps a crest
    pen.line(
        [(cx + rx * 0.6 * math.cos(tilt), cy + rx * 0.6 * math.sin(tilt) * 0.75), (hx, hy)],
        body_ink,
        head_r * 1.2,
    )
    pen.circle(
        hx,
        hy,
        head_r,
        fill=None if outline else head_ink,
        outline=head_ink if outline else None,
        width=outline,
    )
    beak = float(rng.uniform(0.04, 0.13))
    drop = float(rng.uniform(-0.02, 0.05))
    _shape(
        pen,
        [(hx + head_r * 0.8, hy - 0.015), (hx + head_r + beak, hy + drop), (hx + head_r * 0.8, hy + 0.02)],
        p.black if rng.random() < 0.5 else p.red,
        outline,
    )
    pen.circle(
        hx + head_r * 0.25, hy - head_r * 0.2, head_r * 0.22, fill=p.ground if not outline else head_ink
    )
    if rng.random() < 0.4:
        for k in range(int(rng.integers(2, 5))):
            a = -math.pi / 2 - 0.5 + 0.35 * k
            pen.line(
                [(hx, hy - head_r * 0.6), (hx + 0.07 * math.cos(a), hy - head_r * 0.6 + 0.07 * math.sin(a))],
                head_ink,
                0.01,
            )


def _bezier(a: Point, b: Point, c: Point, n: int) -> list[Point]:
    """n points along the quadratic curve from a to c pulled toward b."""
    return [
        (
            (1 - t) ** 2 * a[0] + 2 * (1 - t) * t * b[0] + t**2 * c[0],
            (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * b[1] + t**2 * c[1],
        )
        for t in (k / (n - 1) for k in range(n))
    ]


def brush_stroke(pen: Pen, a: Point, b: Point, c: Point, widths: tuple[float, float], ink: RGB) -> None:
    """One stroke of a brush from a to c, bent toward b, its width going from widths[0] to widths[1]
    (face widths): thick where the brush lands, thin where it lifts off."""
    spine = _bezier(a, b, c, 18)
    left, right = [], []
    for k, (x, y) in enumerate(spine):
        nx0, ny0 = spine[max(0, k - 1)]
        nx1, ny1 = spine[min(len(spine) - 1, k + 1)]
        dx, dy = nx1 - nx0, (ny1 - ny0) / 0.75  # in face widths both ways, so the width stays true
        norm = math.hypot(dx, dy) or 1.0
        t = k / (len(spine) - 1)
        half = (widths[0] * (1 - t) + widths[1] * t) / 2
        ox, oy = -dy / norm * half, dx / norm * half * 0.75
        left.append((x + ox, y + oy))
        right.append((x - ox, y - oy))
    pen.poly(left + right[::-1], fill=ink)


def _brush_inks(rng: np.random.Generator, p: Palette) -> tuple[RGB, RGB, RGB]:
    """Body, wing and tail inks: red leads in most brush-painted birds, then the set's others."""
    body = p.red if rng.random() < 0.55 else (p.blue, p.green, p.black)[int(rng.integers(3))]
    others = [p.red, p.green, p.blue, p.black]
    if rng.random() < 0.3:
        return body, body, body
    return body, others[int(rng.integers(4))], others[int(rng.integers(4))]


def draw_brush_bird(pen: Pen, rng: np.random.Generator, p: Palette) -> None:
    """A bird painted in a few strokes of a brush, facing right: a curved body stroke, a round head
    with a beak, wings swept back in strokes of another ink, a tail of long tapering plumes. Many
    sets paint their 1 of bamboo so, in red with blue or green; a reader that never saw one takes
    that red brushwork for the red dragon."""
    body_ink, wing_ink, tail_ink = _brush_inks(rng, p)
    scale = float(rng.uniform(0.9, 1.3))
    cx, cy = float(rng.uniform(0.42, 0.58)), float(rng.uniform(0.4, 0.58))
    head = (cx + 0.17 * scale, cy - 0.17 * scale)
    rear = (cx - 0.16 * scale, cy + 0.08 * scale)

    plumes = int(rng.integers(2, 6))  # the tail first, under the body
    for k in range(plumes):
        drop = float(rng.uniform(0.15, 0.38)) * scale
        end = (rear[0] - float(rng.uniform(0.12, 0.3)) * scale, rear[1] + drop - 0.05 * k * scale)
        bend = ((rear[0] + end[0]) / 2 + float(rng.uniform(-0.08, 0.08)), (rear[1] + end[1]) / 2 - 0.06)
        brush_stroke(
            pen,
            rear,
            bend,
            (max(0.05, end[0]), min(0.95, end[1])),
            (float(rng.uniform(0.04, 0.08)), 0.006),
            tail_ink,
        )

    belly = (cx + float(rng.uniform(-0.05, 0.08)), cy + float(rng.uniform(0.08, 0.16)) * scale)
    brush_stroke(
        pen,
        head,
        belly,
        rear,
        (float(rng.uniform(0.1, 0.16)) * scale, float(rng.uniform(0.05, 0.1))),
        body_ink,
    )
    if rng.random() < 0.7:  # the back: a second, thinner stroke over the top
        back = (cx, cy - float(rng.uniform(0.02, 0.1)) * scale)
        brush_stroke(pen, head, back, rear, (0.06 * scale, 0.02), body_ink)

    for k in range(int(rng.integers(1, 4))):  # wings: strokes laid back from the shoulder
        shoulder = (cx + 0.05 * scale, cy - 0.04 * scale + 0.03 * k)
        lift = float(rng.uniform(-0.25, 0.05)) * scale
        tip = (cx - float(rng.uniform(0.15, 0.3)) * scale, cy + lift)
        bend = ((shoulder[0] + tip[0]) / 2, min(shoulder[1], tip[1]) - float(rng.uniform(0.0, 0.08)))
        brush_stroke(pen, shoulder, bend, tip, (float(rng.uniform(0.05, 0.1)) * scale, 0.008), wing_ink)

    head_r = float(rng.uniform(0.06, 0.09)) * scale
    pen.circle(head[0], head[1], head_r, fill=body_ink)
    beak = float(rng.uniform(0.05, 0.11))
    pen.poly(
        [
            (head[0] + head_r * 0.7, head[1] - 0.02),
            (head[0] + head_r + beak, head[1] + 0.01),
            (head[0] + head_r * 0.7, head[1] + 0.03),
        ],
        fill=p.black if rng.random() < 0.5 else wing_ink,
    )
    pen.circle(head[0] + head_r * 0.2, head[1] - head_r * 0.25, head_r * 0.25, fill=p.ground)
    if rng.random() < 0.5:  # legs
        for dx in (-0.03, 0.03):
            foot = (cx + dx, min(0.95, cy + 0.28 * scale))
            pen.line([(cx + dx, cy + 0.12 * scale), foot], p.black, 0.012)
