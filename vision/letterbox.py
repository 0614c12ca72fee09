"""Letterbox an image into a model's fixed input size, and map boxes back.

The forward transform (`letterbox`) and its inverse (`Letterbox.to_source`) live in
one frozen value so they cannot drift apart; the tests check the round trip on
square and non-square inputs.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# ultralytics pads with grey 114 in training; inference must match.
PAD_VALUE = 114


@dataclass(frozen=True)
class Letterbox:
    """How a (src_height, src_width) image was placed in a (dst_height, dst_width) canvas.

    The image is scaled by `scale_x`, `scale_y` (equal up to rounding of the resized
    size) and its top-left corner put at (`pad_left`, `pad_top`).
    """

    src_height: int
    src_width: int
    dst_height: int
    dst_width: int
    scale_x: float
    scale_y: float
    pad_left: int
    pad_top: int

    @property
    def resized_width(self) -> int:
        return round(self.src_width * self.scale_x)

    @property
    def resized_height(self) -> int:
        return round(self.src_height * self.scale_y)

    def to_target(self, xyxy: np.ndarray) -> np.ndarray:
        """Source-image boxes -> model-input boxes."""
        boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
        scale = np.array([self.scale_x, self.scale_y] * 2, np.float32)
        offset = np.array([self.pad_left, self.pad_top] * 2, np.float32)
        return boxes * scale + offset

    def to_source(self, xyxy: np.ndarray, *, clip: bool = True) -> np.ndarray:
        """Model-input boxes -> source-image boxes (the inverse of `to_target`), clipped to the image."""
        boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
        scale = np.array([self.scale_x, self.scale_y] * 2, np.float32)
        offset = np.array([self.pad_left, self.pad_top] * 2, np.float32)
        out = (boxes - offset) / scale
        if clip:
            limits = np.array([self.src_width, self.src_height] * 2, np.float32)
            out = np.clip(out, 0.0, limits)
        return out.astype(np.float32)


def plan_letterbox(src_height: int, src_width: int, dst_height: int, dst_width: int) -> Letterbox:
    """The placement ultralytics uses at validation time: scale to fit, centre, pad the rest."""
    if min(src_height, src_width, dst_height, dst_width) < 1:
        raise ValueError(
            f"sizes must be positive, got source {src_height}x{src_width} target {dst_height}x{dst_width}"
        )
    gain = min(dst_height / src_height, dst_width / src_width)
    new_width = max(1, min(dst_width, round(src_width * gain)))
    new_height = max(1, min(dst_height, round(src_height * gain)))
    # Same rounding as ultralytics' LetterBox (the -0.1 biases odd padding to the bottom/right).
    pad_left = round((dst_width - new_width) / 2 - 0.1)
    pad_top = round((dst_height - new_height) / 2 - 0.1)
    return Letterbox(
        src_height=src_height,
        src_width=src_width,
        dst_height=dst_height,
        dst_width=dst_width,
        scale_x=new_width / src_width,
        scale_y=new_height / src_height,
        pad_left=max(0, pad_left),
        pad_top=max(0, pad_top),
    )


def letterbox(rgb: np.ndarray, dst_height: int, dst_width: int) -> tuple[np.ndarray, Letterbox]:
    """Resize `rgb` (H, W, 3) uint8 to fit (dst_height, dst_width), pad with grey 114."""
    if rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ValueError(f"expected an (H, W, 3) image, got shape {rgb.shape}")
    plan = plan_letterbox(rgb.shape[0], rgb.shape[1], dst_height, dst_width)
    size = (plan.resized_width, plan.resized_height)
    if size == (rgb.shape[1], rgb.shape[0]):
        resized = rgb
    else:
        # INTER_AREA when shrinking a big photo: INTER_LINEAR would alias fine tile strokes.
        shrinking = plan.scale_x < 1.0
        interpolation = cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR
        resized = cv2.resize(rgb, size, interpolation=interpolation)
    canvas = np.full((dst_height, dst_width, 3), PAD_VALUE, np.uint8)
    canvas[
        plan.pad_top : plan.pad_top + plan.resized_height,
        plan.pad_left : plan.pad_left + plan.resized_width,
    ] = resized
    return canvas, plan
