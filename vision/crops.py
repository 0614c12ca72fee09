"""Square tile crops for the second-stage classifier.

The SAME functions cut the classifier's training crops (vision/train.py) and its
inputs at run time, so a crop seen in training looks exactly like one seen in use.
"""

from __future__ import annotations

import cv2
import numpy as np

# Grey used by ultralytics letterboxing; reused for crop padding so both stages see one fill value.
PAD_VALUE = 114


def square_crop_boxes(xyxy: np.ndarray, margin: float) -> np.ndarray:
    """(N, 4) float32 squares centred on each box, side = max(w, h) * (1 + margin).

    The squares may extend past the image; `crop_tiles` pads the outside.
    A square (not the box's aspect) keeps a tile's shape undistorted whether it
    stands upright or lies sideways in a meld.
    """
    boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
    if margin < 0:
        raise ValueError(f"margin must be >= 0, got {margin}")
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2.0
    sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) * (1.0 + margin)
    half = (sides / 2.0)[:, None]
    return np.concatenate([centres - half, centres + half], axis=1).astype(np.float32)


def _crop_one(rgb: np.ndarray, square: np.ndarray, size: int) -> np.ndarray:
    height, width = rgb.shape[:2]
    x1, y1, x2, y2 = (round(float(v)) for v in square)
    # A degenerate box still yields a (grey) crop so batch shapes stay fixed.
    x2, y2 = max(x2, x1 + 1), max(y2, y1 + 1)
    canvas = np.full((y2 - y1, x2 - x1, 3), PAD_VALUE, np.uint8)
    sx1, sy1, sx2, sy2 = max(x1, 0), max(y1, 0), min(x2, width), min(y2, height)
    if sx2 > sx1 and sy2 > sy1:
        canvas[sy1 - y1 : sy2 - y1, sx1 - x1 : sx2 - x1] = rgb[sy1:sy2, sx1:sx2]
    # INTER_AREA when shrinking (anti-aliased, the common case for 12 MP photos); it also upsamples fine.
    return cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)


def crop_tiles(rgb: np.ndarray, xyxy: np.ndarray, size: int, margin: float) -> np.ndarray:
    """(N, size, size, 3) uint8 square crops of each box from `rgb` (H, W, 3) uint8.

    Parts of a square outside the image are filled with grey 114.
    """
    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        raise ValueError(f"rgb must be (H, W, 3) uint8, got {rgb.shape} {rgb.dtype}")
    if size < 1:
        raise ValueError(f"size must be >= 1, got {size}")
    squares = square_crop_boxes(xyxy, margin)
    out = np.empty((len(squares), size, size, 3), np.uint8)
    for i, square in enumerate(squares):
        out[i] = _crop_one(rgb, square, size)
    return out
