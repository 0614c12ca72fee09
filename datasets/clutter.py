"""Real-looking clutter at the tiles' scale: chrome table frames, plastic bags, printed paper.

`props` draws flat shapes (a slipper, a card, a rod of one colour). The things a detector still boxes
as tiles in photos of real tables are shinier and busier than that: a chrome leg or frame under a glass
top (bands of light and dark along a bar, as on the edge of a face-down tile), a crumpled plastic bag
(translucent, with creases and glints), a score sheet or receipt (small print in rows, ruled lines).
Each is drawn upright on a patch of its own, then turned and placed, so its shape is exact and its box
known; the boxes go into the scene's meta (`props`, kind "clutter:" + the kind) like any prop's.

Clutter is asked for (`render_scene(clutter=share)`, `datasets.synth --clutter`) and uses its own
random stream, so a scene asked for without it renders as it always did.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.props import Prop, cast_shadow, mask_box, soften

KINDS = ("chrome", "bag", "paper")
MAX_CLUTTER = 3


def clutter_rng(seed: int) -> np.random.Generator:
    return np.random.default_rng([seed, 4747])


def _chrome(rng: np.random.Generator, tile_px: float) -> tuple[np.ndarray, np.ndarray]:
    """A round metal bar seen from above: the world's light and dark reflected in bands along it."""
    length = int(max(8, tile_px * rng.uniform(1.5, 8.0)))
    width = int(max(3, tile_px * rng.uniform(0.15, 0.7)))
    across = np.linspace(-1.0, 1.0, width)
    bands = rng.uniform(1.0, 3.0)
    shade = 0.35 + 0.35 * np.abs(np.sin(np.pi * (bands * across + rng.uniform(0, 1))))
    glint = rng.uniform(-0.6, 0.6)
    shade += 0.6 * np.exp(-(((across - glint) / rng.uniform(0.05, 0.15)) ** 2))
    shade *= 1 - 0.45 * across**4  # the bar's sides turn away from the light
    tint = rng.uniform(0.9, 1.1, 3) * rng.uniform(150, 235)
    patch = np.clip(shade[None, :, None] * tint[None, None, :], 0, 255) * np.ones((length, 1, 1))
    mask = np.ones((length, width), np.float32)
    if rng.random() < 0.5:  # a foot or joint: a wider cap across one end
        cap = int(max(2, width * rng.uniform(0.3, 1.0)))
        patch[:cap] *= rng.uniform(0.6, 0.9)
    return patch.astype(np.float32), mask


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


_DRAW = {"chrome": _chrome, "bag": _bag, "paper": _paper}


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
    img: np.ndarray, surface: str, rng: np.random.Generator, tile_px: float, share: float
) -> list[Prop]:
    """In `share` of scenes, draw 1..MAX_CLUTTER pieces of clutter onto `img` (H, W, 3) float32 in
    place, before the tiles (which lie on top); returns their boxes (kind "clutter:" + the kind).

    On a glass top the chrome is the table's frame below it: seen through the glass, softer and fainter.
    """
    if share <= 0 or rng.random() >= share:
        return []
    h, w = img.shape[:2]
    found = []
    for _ in range(int(rng.integers(1, MAX_CLUTTER + 1))):
        kind = str(rng.choice(KINDS))
        patch, patch_mask = _DRAW[kind](rng, tile_px)
        centre = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        layer, mask = place(patch, patch_mask, centre, float(rng.uniform(0, 360)), (h, w))
        box = mask_box(mask, above=0.25)  # a bag lets through up to 0.45 of the table
        if box is None:
            continue
        if kind == "chrome" and surface == "glass":
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
