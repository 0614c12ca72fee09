"""A synthetic photo with coloured 'tiles' at known boxes, and the detector rows that find them."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.letterbox import plan_letterbox

COLOURS = {"1m": (220, 30, 30), "1p": (30, 200, 30), "1s": (30, 30, 220)}


@dataclass(frozen=True)
class Scene:
    rgb: np.ndarray
    boxes: np.ndarray  # (N, 4) source pixels
    codes: tuple[str, ...]
    scores: tuple[float, ...]


def scene(height: int, width: int) -> Scene:
    """Three tiles spread over the photo: red (1m), green (1p), blue (1s)."""
    rgb = np.full((height, width, 3), 128, np.uint8)
    tile_w, tile_h = width // 10, height // 6
    spots = [(width // 10, height // 5), (width // 2, height // 2), (width - 3 * tile_w, height - 2 * tile_h)]
    boxes, codes = [], []
    for (x, y), code in zip(spots, COLOURS, strict=True):
        rgb[y : y + tile_h, x : x + tile_w] = COLOURS[code]
        boxes.append([x, y, x + tile_w, y + tile_h])
        codes.append(code)
    return Scene(rgb, np.array(boxes, np.float32), tuple(codes), (0.9, 0.8, 0.7))


def table_texture(height: int, width: int, seed: int = 0) -> np.ndarray:
    """A photo's table: lit unevenly and noisy, no row or column of one colour (a rendered picture's
    flat ground has them, and is no photo on a screenshot's canvas: `vision.canvas`)."""
    rng = np.random.default_rng(seed)
    ramp = np.linspace(60, 140, width)[None, :, None] + np.linspace(0, 40, height)[:, None, None]
    noisy = ramp + rng.normal(0.0, 6.0, (height, width, 3)) + np.array([0.0, 20.0, 0.0])
    return np.clip(noisy, 0, 255).astype(np.uint8)


def textured(sc: Scene) -> np.ndarray:
    """`sc`'s photo with its flat grey table textured (`table_texture`), its tiles as they were."""
    table = (sc.rgb == 128).all(axis=2)
    rgb = sc.rgb.copy()
    rgb[table] = table_texture(*sc.rgb.shape[:2])[table]
    return rgb


def detector_rows(sc: Scene, det_hw: tuple[int, int]) -> np.ndarray:
    """Rows (cx, cy, w, h, score) in model-input pixels that a perfect detector would output,
    plus a near-duplicate (NMS must drop it), a weak box (conf must drop it) and a box in the
    letterbox padding (must be dropped once mapped back)."""
    plan = plan_letterbox(sc.rgb.shape[0], sc.rgb.shape[1], *det_hw)
    target = plan.to_target(sc.boxes)
    rows = [
        [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2, b[2] - b[0], b[3] - b[1], s]
        for b, s in zip(target, sc.scores, strict=True)
    ]
    first = rows[0]
    rows.append([first[0] + 1.0, first[1] + 1.0, first[2], first[3], 0.5])  # duplicate
    rows.append([first[0], first[1] + 40, 10, 10, 0.1])  # below conf
    if plan.pad_top >= 8:
        rows.append([det_hw[1] / 2, plan.pad_top / 2, 20, 4, 0.95])  # inside the top padding
    if plan.pad_left >= 8:
        rows.append([plan.pad_left / 2, det_hw[0] / 2, 4, 20, 0.95])  # inside the left padding
    return np.array(rows, np.float32)


def shaded_tiles(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tiles drawn as shaded blobs (fill 120 + 14 k in red, over 150 in blue, on a table and inside
    an outline that are not): each one's box, outline included (N, 4), the k its shade stands for
    (0-8), and how much of its box the fill covers (1.0 for a tile standing square in it)."""
    mask = (rgb[:, :, 2] > 150).astype(np.uint8)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(mask)
    boxes, shades, filled = [], [], []
    for label in range(1, count):
        x, y, w, h, area = stats[label]
        if area < 500:
            continue
        boxes.append([x - 2, y - 2, x + w + 2, y + h + 2])
        cx, cy = (round(v) for v in centroids[label])
        shade = float(np.median(rgb[cy - 2 : cy + 3, cx - 2 : cx + 3, 0]))
        shades.append(int(np.clip(round((shade - 120) / 14), 0, 8)))
        filled.append(area / (w * h))
    return np.array(boxes, np.float32).reshape(-1, 4), np.array(shades, int), np.array(filled, float)
