"""Chinese numerals 一 二 三 四 painted with a brush, as many sets print their seasons' numbers.

A font's 二 is two even hairlines; a maker's brush lays a short, heavy upper stroke over a long lower
one, each pressed thick where the brush lands and lifts, and bowed a little. A reader that only saw
fonts does not read the brush's 二 (stage 73: the rank look heard the real photos' 一 and 三 and
never their 二). Each stroke is a quadratic curve whose width swells at both ends; a set keeps its
own hand (lengths, tilts, weights) from its seed.
"""

from __future__ import annotations

import numpy as np
from PIL import ImageDraw

Point = tuple[float, float]
RGB = tuple[int, int, int]

# strokes of each numeral in its box (0..1): start, end, and the share of the box's height its width
# takes at the thickest; 四's are the frame and its two legs
STROKES: dict[int, tuple[tuple[Point, Point, float], ...]] = {
    1: (((0.04, 0.52), (0.96, 0.46), 0.26),),
    2: (((0.26, 0.3), (0.72, 0.26), 0.2), ((0.04, 0.76), (0.96, 0.72), 0.2)),
    3: (
        ((0.2, 0.17), (0.8, 0.14), 0.14),
        ((0.28, 0.5), (0.72, 0.47), 0.13),
        ((0.04, 0.84), (0.96, 0.8), 0.15),
    ),
    4: (
        ((0.08, 0.16), (0.1, 0.9), 0.11),
        ((0.1, 0.16), (0.9, 0.14), 0.11),
        ((0.9, 0.14), (0.9, 0.88), 0.11),
        ((0.1, 0.88), (0.9, 0.88), 0.11),
        ((0.4, 0.16), (0.3, 0.62), 0.09),
        ((0.6, 0.16), (0.62, 0.56), 0.09),
    ),
}
SAMPLES = 24  # points along each stroke


def draw_brush_numeral(
    draw: ImageDraw.ImageDraw,
    rank: int,
    box_px: tuple[float, float, float, float],
    colour: RGB,
    seed: list[int],
) -> None:
    """Paint numeral `rank` (1-4) into pixel box `box_px` in `colour`, in the hand `seed` draws."""
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = box_px
    width, height = x1 - x0, y1 - y0
    weight = float(rng.uniform(0.75, 1.3))
    for start, end, thickness in STROKES[rank]:
        (sx, sy), (ex, ey) = _jittered(start, rng), _jittered(end, rng)
        bow = float(rng.normal(0.0, 0.04))
        outline = stroke_outline(
            (x0 + sx * width, y0 + sy * height),
            (x0 + ex * width, y0 + ey * height),
            bow * max(width, height),
            thickness * weight * height,
            float(rng.uniform(1.0, 1.5)),
            float(rng.uniform(1.1, 1.7)),
        )
        draw.polygon(outline, fill=colour)


def _jittered(point: Point, rng: np.random.Generator) -> Point:
    return (point[0] + float(rng.normal(0.0, 0.03)), point[1] + float(rng.normal(0.0, 0.025)))


def stroke_outline(
    start: Point, end: Point, bow_px: float, width_px: float, press_start: float, press_end: float
) -> list[Point]:
    """The outline of one brush stroke from `start` to `end`: a quadratic curve bowed `bow_px` off the
    straight line, `width_px` wide at its thinnest point's neighbours, pressed `press_start` and
    `press_end` times wider where the brush lands and lifts, rounded at both ends."""
    p0, p2 = np.array(start), np.array(end)
    along = p2 - p0
    length = float(np.hypot(*along)) or 1.0
    normal = np.array([-along[1], along[0]]) / length
    p1 = (p0 + p2) / 2 + normal * bow_px
    t = np.linspace(0.0, 1.0, SAMPLES)[:, None]
    centre = (1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t**2 * p2
    tangent = 2 * (1 - t) * (p1 - p0) + 2 * t * (p2 - p1)
    tangent /= np.maximum(np.hypot(tangent[:, 0], tangent[:, 1])[:, None], 1e-6)
    normals = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1)
    s = t[:, 0]
    # thick where the brush presses (both ends), thinnest just past the middle; round ends
    landing = np.exp(-((s / 0.14) ** 2))
    lifting = np.exp(-(((1 - s) / 0.14) ** 2))
    swell = 0.75 + (press_start - 0.75) * landing + (press_end - 0.75) * lifting
    half = (width_px / 2) * swell * np.sqrt(np.clip(1 - (2 * s - 1) ** 16, 0.15, 1.0))
    left = centre + normals * half[:, None]
    right = centre - normals * half[:, None]
    return [(float(p[0]), float(p[1])) for p in (*left, *right[::-1])]
