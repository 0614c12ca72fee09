"""Real-looking clutter at the tiles' scale: chrome table frames, plastic bags, printed paper, fingers.

`props` draws flat shapes (a slipper, a card, a rod of one colour). The things a detector still boxes
as tiles in photos of real tables are shinier and busier than that: a chrome leg or frame under a glass
top (bands of light and dark along a bar, as on the edge of a face-down tile), a crumpled plastic bag
(translucent, with creases and glints), a score sheet or receipt (small print in rows, ruled lines).
Each is drawn upright on a patch of its own, then turned and placed, so its shape is exact and its box
known; the boxes go into the scene's meta (`props`, kind "clutter:" + the kind) like any prop's.

Two kinds came later, from what detectors still boxed in real photos: the fingers or toes of whoever
holds the phone, coming in at the frame's edge (`finger`), and the crossing of a table's or chair's
chrome frame, bars meeting at a round hub (`hub`; under a glass top, seen through it).

Clutter is asked for (`render_scene(clutter=share, clutter_kinds=...)`, `datasets.synth --clutter`)
and uses its own random stream, so a scene asked for without it renders as it always did; the first
three kinds (DEFAULT_KINDS) are the default, so scenes asked for with them render as they did before
the later kinds were drawn.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.props import Prop, cast_shadow, mask_box, soften

DEFAULT_KINDS = ("chrome", "bag", "paper")
KINDS = (*DEFAULT_KINDS, "finger", "hub")
METAL = ("chrome", "hub")  # a glass top shows these below it
MAX_CLUTTER = 3


def clutter_rng(seed: int) -> np.random.Generator:
    return np.random.default_rng([seed, 4747])


def _bar(rng: np.random.Generator, length: int, width: int) -> np.ndarray:
    """A round metal bar seen from above, (length, width, 3): the world's light and dark reflected in
    bands along it."""
    across = np.linspace(-1.0, 1.0, width)
    bands = rng.uniform(1.0, 3.0)
    shade = 0.35 + 0.35 * np.abs(np.sin(np.pi * (bands * across + rng.uniform(0, 1))))
    glint = rng.uniform(-0.6, 0.6)
    shade += 0.6 * np.exp(-(((across - glint) / rng.uniform(0.05, 0.15)) ** 2))
    shade *= 1 - 0.45 * across**4  # the bar's sides turn away from the light
    tint = rng.uniform(0.9, 1.1, 3) * rng.uniform(150, 235)
    return np.clip(shade[None, :, None] * tint[None, None, :], 0, 255) * np.ones((length, 1, 1))


def _chrome(rng: np.random.Generator, tile_px: float) -> tuple[np.ndarray, np.ndarray]:
    """A chrome leg or bar, now and then with a foot or joint across one end."""
    length = int(max(8, tile_px * rng.uniform(1.5, 8.0)))
    width = int(max(3, tile_px * rng.uniform(0.15, 0.7)))
    patch = _bar(rng, length, width)
    mask = np.ones((length, width), np.float32)
    if rng.random() < 0.5:  # a foot or joint: a wider cap across one end
        cap = int(max(2, width * rng.uniform(0.3, 1.0)))
        patch[:cap] *= rng.uniform(0.6, 0.9)
    return patch.astype(np.float32), mask


def _hub(rng: np.random.Generator, tile_px: float) -> tuple[np.ndarray, np.ndarray]:
    """Where a frame's bars meet: 2-4 chrome arms out of a round hub, the hub's rings light and dark."""
    arm = int(max(6, tile_px * rng.uniform(1.5, 5.0)))
    width = int(max(3, tile_px * rng.uniform(0.2, 0.6)))
    radius = max(2.0, width * rng.uniform(0.7, 1.8))
    side = 2 * arm + 2
    covered = np.zeros((side, side, 3), np.float32)  # premultiplied, as `place` gives
    mask: np.ndarray = np.zeros((side, side), np.float32)
    n = int(rng.integers(2, 5))
    first = rng.uniform(0, 360)
    for k in range(n):
        angle = first + k * 360 / n + rng.uniform(-15, 15)
        towards = np.deg2rad(angle)
        centre = (side / 2 + arm / 2 * np.sin(towards), side / 2 - arm / 2 * np.cos(towards))
        # the bar is drawn upright (along y), so turning it by -angle points it along `towards`
        layer, arm_mask = place(
            _bar(rng, arm, width), np.ones((arm, width), np.float32), centre, -angle, (side, side)
        )
        covered = covered * (1 - arm_mask[..., None]) + layer
        mask = mask + arm_mask * (1 - mask)
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32) - side / 2
    r = np.sqrt(xx**2 + yy**2) / radius
    disc = np.clip((1.25 - r) / 0.5, 0, 1)  # soft-edged, about `radius` across
    rings = 0.45 + 0.3 * np.cos(np.pi * rng.uniform(1.5, 3.5) * r + rng.uniform(0, np.pi))
    spot = rng.uniform(-0.5, 0.5, 2)
    rings += 0.6 * np.exp(-((xx / radius - spot[0]) ** 2 + (yy / radius - spot[1]) ** 2) / 0.05)
    tint = rng.uniform(0.9, 1.1, 3) * rng.uniform(150, 235)
    hub = np.clip(rings[..., None] * tint, 0, 255)
    covered = covered * (1 - disc[..., None]) + hub * disc[..., None]
    mask = mask + disc * (1 - mask)
    patch = covered / np.maximum(mask, 1e-6)[..., None]
    return np.clip(patch, 0, 255).astype(np.float32), mask.astype(np.float32)


def _finger(rng: np.random.Generator, tile_px: float) -> tuple[np.ndarray, np.ndarray]:
    """1-4 fingers (or toes) side by side, tips up (row 0) and bases at the patch's bottom: skin shaded
    round across each, a nail at the tip, creases at the knuckles. Near the camera, so often bigger
    than a tile."""
    n = int(rng.integers(1, 5))
    finger_w = max(4.0, tile_px * rng.uniform(0.5, 1.6))
    length = int(max(12, finger_w * rng.uniform(2.0, 5.0)))
    gap = finger_w * rng.uniform(0.0, 0.15)
    half = finger_w / 2
    w = int(n * finger_w + (n - 1) * gap) + 2
    dark, light = np.array([95, 60, 40], np.float32), np.array([250, 215, 185], np.float32)
    skin = dark + (light - dark) * rng.uniform(0, 1)
    patch = np.zeros((length, w, 3), np.float32)
    mask = np.zeros((length, w), np.float32)
    for k in range(n):
        x0 = 1 + k * (finger_w + gap)
        tip = int(length * rng.uniform(0.0, 0.3))  # fingers differ in length
        own = np.zeros((length, w), np.float32)
        cv2.rectangle(own, (int(x0), int(tip + half)), (int(x0 + finger_w) - 1, length), 1.0, -1)
        cv2.circle(own, (int(x0 + half), int(tip + half)), int(half), 1.0, -1, cv2.LINE_AA)
        across = np.clip((np.arange(w) - x0 - half) / half, -1, 1)
        shade = (0.55 + 0.45 * np.sqrt(1 - across**2))[None, :, None]
        tone = skin * rng.uniform(0.92, 1.05) * shade * np.ones((length, 1, 1))
        nail_len = int(finger_w * rng.uniform(0.35, 0.6))
        nail = np.zeros((length, w), np.float32)
        cv2.ellipse(
            nail,
            (int(x0 + half), int(tip + half * 0.8 + nail_len / 2)),
            (int(half * 0.6), max(1, nail_len // 2)),
            0,
            0,
            360,
            1.0,
            -1,
            cv2.LINE_AA,
        )
        tone = tone * (1 - 0.5 * nail[..., None]) + (0.5 * nail[..., None]) * np.minimum(skin * 1.2 + 20, 255)
        for _ in range(int(rng.integers(1, 3))):  # knuckle creases
            y = int(tip + finger_w * rng.uniform(1.2, 3.0))
            cv2.line(
                tone,
                (int(x0 + half * 0.4), y),
                (int(x0 + finger_w - half * 0.4), y),
                tuple(float(c) for c in skin * 0.7),
                1,
                cv2.LINE_AA,
            )
        patch = patch * (1 - own[..., None]) + tone * own[..., None]
        mask = np.maximum(mask, own)
    return np.clip(patch, 0, 255).astype(np.float32), mask


def _from_an_edge(
    rng: np.random.Generator, patch: np.ndarray, patch_mask: np.ndarray, hw: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, tuple[float, float], float]:
    """A patch drawn tip up, turned to come in at one of the frame's edges with 30-90% of its length
    inside: (patch, mask, centre, angle) for `place`."""
    h, w = hw
    edge = int(rng.integers(4))  # 0 bottom, 1 right, 2 top, 3 left
    turns = (0, 1, 2, -1)[edge]  # np.rot90 by these quarter turns points the tip inward
    patch, patch_mask = np.rot90(patch, turns).copy(), np.rot90(patch_mask, turns).copy()
    length = patch_mask.shape[0] if edge in (0, 2) else patch_mask.shape[1]
    inside = length * rng.uniform(0.3, 0.9)
    along = float(rng.uniform(0.1, 0.9))
    centre = (
        (w * along, h + length / 2 - inside),
        (w + length / 2 - inside, h * along),
        (w * along, inside - length / 2),
        (inside - length / 2, h * along),
    )[edge]
    return patch, patch_mask, (float(centre[0]), float(centre[1])), float(rng.uniform(-25, 25))


def _blob(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A lumpy closed outline filling most of a (h, w) patch: the bag's shape."""
    h, w = size
    n = int(rng.integers(7, 13))
    angles = np.sort(rng.uniform(0, 2 * np.pi, n))
    radii = rng.uniform(0.6, 1.0, n)
    xs = w / 2 * (1 + np.cos(angles) * radii)
    ys = h / 2 * (1 + np.sin(angles) * radii)
    points = np.stack([xs, ys], axis=1)
    mask = np.zeros((h, w), np.float32)
    cv2.fillPoly(mask, [np.round(points).astype(np.int32)], 1.0, cv2.LINE_AA)
    return mask


def _bag(rng: np.random.Generator, tile_px: float) -> tuple[np.ndarray, np.ndarray]:
    """A crumpled plastic bag: a lumpy translucent shape, creases, glints, now and then a printed word."""
    h = int(max(12, tile_px * rng.uniform(1.5, 5.0)))
    w = int(max(12, h * rng.uniform(0.6, 1.4)))
    colours = ((235, 235, 230), (200, 40, 40), (40, 70, 170), (230, 230, 120), (30, 30, 30), (230, 150, 180))
    base = np.array(colours[int(rng.integers(len(colours)))], np.float32) * rng.uniform(0.8, 1.05)
    patch = np.ones((h, w, 3), np.float32) * base
    folds = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), max(1.0, h / 12))
    patch *= (1 + 0.35 * folds / max(float(np.abs(folds).max()), 1e-6))[..., None]
    for _ in range(int(rng.integers(3, 9))):  # creases: thin light and dark lines
        p1 = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        p2 = (int(p1[0] + rng.uniform(-0.5, 0.5) * w), int(p1[1] + rng.uniform(-0.5, 0.5) * h))
        light = float(rng.choice([0.6, 1.4]))
        cv2.line(patch, p1, p2, tuple(float(c) for c in np.clip(base * light, 0, 255)), 1, cv2.LINE_AA)
    for _ in range(int(rng.integers(1, 5))):  # glints
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(max(1, w * rng.uniform(0.02, 0.1))), int(max(1, h * rng.uniform(0.01, 0.04))))
        cv2.ellipse(patch, centre, axes, float(rng.uniform(0, 180)), 0, 360, (255, 255, 255), -1, cv2.LINE_AA)
    patch = np.clip(patch, 0, 255).astype(np.uint8)  # cv2.putText draws on 8-bit images only
    if rng.random() < 0.4:
        word = "".join(rng.choice(list("ABCDEFGHKLMNPRSTUVWXYZ"), int(rng.integers(3, 8))))
        scale = max(0.3, w / 220)
        at = (int(w * 0.15), int(h * 0.55))
        cv2.putText(patch, word, at, cv2.FONT_HERSHEY_DUPLEX, scale, (20, 20, 20), 1)
    mask = _blob(rng, (h, w)) * rng.uniform(0.55, 0.95)  # the bag lets the table show through
    return patch.astype(np.float32), mask


def _paper(rng: np.random.Generator, tile_px: float) -> tuple[np.ndarray, np.ndarray]:
    """A sheet of printed paper: a score sheet's ruled columns or a receipt's rows of small print."""
    h = int(max(16, tile_px * rng.uniform(2.0, 6.0)))
    w = int(max(12, h * rng.uniform(0.3, 0.8)))
    paper = np.array([rng.uniform(225, 255), rng.uniform(220, 250), rng.uniform(200, 240)], np.float32)
    patch = np.empty((h, w, 3), np.uint8)  # cv2.putText draws on 8-bit images only
    patch[:] = paper
    ink = tuple(float(c) for c in rng.uniform(0, 90, 3))
    row = max(4, int(tile_px * rng.uniform(0.12, 0.3)))
    scale = max(0.2, row / 30)
    ruled = rng.random() < 0.5
    for y in range(row, h - row // 2, row):
        if ruled:
            cv2.line(patch, (0, y), (w, y), ink, 1, cv2.LINE_AA)
        text = "".join(rng.choice(list("0123456789ABCDEFGHKLMNPRSTX .:$-"), int(rng.integers(4, 18))))
        at = (int(w * rng.uniform(0.02, 0.2)), y - 2)
        cv2.putText(patch, text, at, cv2.FONT_HERSHEY_PLAIN, scale, ink, 1)
    if ruled:
        for x in np.sort(rng.uniform(0.15, 0.9, int(rng.integers(1, 5)))) * w:
            cv2.line(patch, (int(x), 0), (int(x), h), ink, 1, cv2.LINE_AA)
    bend = 1 - 0.12 * np.linspace(0, 1, w)[None, :, None] * rng.uniform(-1, 1)  # the sheet bends a little
    return np.clip(patch * bend, 0, 255).astype(np.float32), np.ones((h, w), np.float32)


_DRAW = {"chrome": _chrome, "bag": _bag, "paper": _paper, "finger": _finger, "hub": _hub}


def place(
    patch: np.ndarray, patch_mask: np.ndarray, centre: tuple[float, float], angle: float, hw: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """`patch` (its mask beside it) turned `angle` degrees about its middle and set at `centre` on an
    (h, w) frame: the frame-sized layer times its mask (premultiplied, so blurring and blending leave no
    dark fringe) and the mask, both zero outside it."""
    ph, pw = patch_mask.shape
    turn = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, 1.0)
    turn[:, 2] += (centre[0] - pw / 2, centre[1] - ph / 2)
    h, w = hw
    covered = patch.astype(np.float32) * patch_mask[..., None]
    layer = cv2.warpAffine(covered, turn, (w, h), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(patch_mask.astype(np.float32), turn, (w, h), flags=cv2.INTER_LINEAR)
    return np.asarray(layer, np.float32), np.asarray(mask, np.float32)


def draw_clutter(
    img: np.ndarray,
    surface: str,
    rng: np.random.Generator,
    tile_px: float,
    share: float,
    kinds: tuple[str, ...] = DEFAULT_KINDS,
) -> list[Prop]:
    """In `share` of scenes, draw 1..MAX_CLUTTER pieces of clutter of `kinds` onto `img` (H, W, 3)
    float32 in place, before the tiles (which lie on top); returns their boxes (kind "clutter:" + the
    kind).

    On a glass top the chrome and hubs are the table's frame below it: seen through the glass, softer
    and fainter. Fingers come in at the frame's edge, a little out of focus, and cast no shadow on the
    table (they are held above it).
    """
    if share <= 0 or rng.random() >= share:
        return []
    h, w = img.shape[:2]
    found = []
    for _ in range(int(rng.integers(1, MAX_CLUTTER + 1))):
        kind = str(rng.choice(kinds))
        patch, patch_mask = _DRAW[kind](rng, tile_px)
        if kind == "finger":
            patch, patch_mask, centre, angle = _from_an_edge(rng, patch, patch_mask, (h, w))
        else:
            centre, angle = (float(rng.uniform(0, w)), float(rng.uniform(0, h))), float(rng.uniform(0, 360))
        layer, mask = place(patch, patch_mask, centre, angle, (h, w))
        box = mask_box(mask, above=0.25)  # a bag lets through up to 0.45 of the table
        if box is None:
            continue
        if kind == "finger":
            layer, mask = soften(layer, mask, max(0.5, rng.uniform(0.0, 0.05) * tile_px))
        elif kind in METAL and surface == "glass":
            sigma = max(0.5, rng.uniform(0.01, 0.04) * tile_px)
            through = rng.uniform(0.5, 0.9)  # the glass lets this much through
            layer, mask = soften(layer, mask, sigma)
            layer, mask = layer * through, mask * through
        elif kind != "bag":  # a bag lies loose and casts little shadow; a sheet or bar lies flat
            offset = max(1, min(int(tile_px * 0.04), h - 1, w - 1))
            cast_shadow(img, mask, offset, max(1.0, tile_px * 0.05), 0.3)
        img[:] = img * (1 - mask[..., None]) + layer
        found.append(Prop("clutter:" + kind, box))
    return found
