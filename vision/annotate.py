"""Draw what was read onto the photo: a labelled box per tile, an outline per layout group."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import cv2
import numpy as np

from vision.detections import UNSURE_BELOW, Detections

# RGB colours. Tiles: green when sure, orange when not; groups by kind.
SURE = (40, 200, 40)
UNSURE = (255, 140, 0)
NO_TILE = (160, 160, 160)  # boxes the classifier judged to hold no tile (left out of the reading)
GROUP_COLOURS: dict[str, tuple[int, int, int]] = {
    "concealed": (30, 120, 255),
    "meld": (200, 40, 200),
    "bonus": (230, 200, 0),
    "unused": (128, 128, 128),
}


class GroupLike(Protocol):
    """The fields of vision.layout.TileGroup used here (kept structural: no import cycle)."""

    @property
    def kind(self) -> str: ...
    @property
    def meld(self) -> str | None: ...
    @property
    def box(self) -> tuple[float, float, float, float]: ...


def _label(image: np.ndarray, text: str, x: int, y: int, colour: tuple[int, int, int], scale: float) -> None:
    thickness = max(1, round(scale * 2))
    (width, height), baseline = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    top = max(0, y - height - baseline - 2)
    cv2.rectangle(image, (x, top), (x + width + 4, top + height + baseline + 2), colour, -1)
    cv2.putText(
        image,
        text,
        (x + 2, top + height + 1),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        (0, 0, 0),
        thickness,
        cv2.LINE_AA,
    )


def annotate(
    rgb: np.ndarray,
    detections: Detections,
    groups: Sequence[GroupLike] = (),
    scale: float = 1.0,
    rejected_xyxy: np.ndarray | None = None,
) -> np.ndarray:
    """A copy of `rgb` with the tiles and groups drawn on it, and the left-out boxes in grey ("no tile").

    `scale` maps detection coordinates to `rgb` pixels (for boxes given in another resolution).
    """
    out = np.ascontiguousarray(rgb.copy())
    size = max(out.shape[:2])
    line = max(2, size // 500)
    font = max(0.5, size / 1600)
    for group in groups:
        x1, y1, x2, y2 = (round(v * scale) for v in group.box)
        pad = 3 * line
        colour = GROUP_COLOURS.get(group.kind, (255, 255, 255))
        cv2.rectangle(out, (x1 - pad, y1 - pad), (x2 + pad, y2 + pad), colour, line)
        name = group.kind if group.meld is None else f"{group.meld}"
        _label(out, name, x1 - pad, y2 + pad + round(30 * font), colour, font)
    for box in () if rejected_xyxy is None else rejected_xyxy:
        x1, y1, x2, y2 = (round(float(v) * scale) for v in box)
        cv2.rectangle(out, (x1, y1), (x2, y2), NO_TILE, max(1, line // 2))
        _label(out, "no tile", x1, y1, NO_TILE, font * 0.8)
    for code, conf, box in zip(detections.codes, detections.confidence, detections.xyxy, strict=True):
        x1, y1, x2, y2 = (round(float(v) * scale) for v in box)
        colour = SURE if conf >= UNSURE_BELOW else UNSURE
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, line)
        _label(out, f"{code} {conf:.2f}", x1, y1, colour, font)
    return out


def save_png(rgb: np.ndarray, path: str) -> None:
    """Write RGB as an image file (format from the extension); OSError if it cannot be written."""
    try:
        ok = cv2.imwrite(path, cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    except cv2.error as error:  # an extension OpenCV has no writer for raises, not returns False
        raise OSError("no image format for that extension") from error
    if not ok:
        raise OSError("cannot write an image there (check the folder and the extension)")
