"""The photo as the page shows it: the whole photo, and the part of it around the tiles in more detail.

The session keeps these copies, never the photo itself (a 12-megapixel photo is 36 MB). A hand shot
from across the table fills a small part of the photo: at the whole photo's display size its tiles
are about 20 px wide, too small for a label each. So the part around the tiles is cut from the
full-resolution photo and kept at up to the same display size: the tiles come out two or three times
larger, and so do the labels that fit beside them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image

DISPLAY_MAX_SIDE = 1280  # px, the longer side of each copy kept
# A copy whose longer side is under this is enlarged to it before the labels are drawn: the page
# stretches a small picture to its column, and labels drawn a few pixels high came out a blur (an
# audit's 200 x 150 photo).
DISPLAY_MIN_SIDE = 800
# The photo is cropped to its tiles where they fill less than this share of it: on a phone the whole
# photo is a few hundred pixels wide, and tiles in a third of it leave their labels unreadable.
CROP_BELOW_AREA = 0.6

Box = tuple[float, float, float, float]  # x1, y1, x2, y2


@dataclass(frozen=True, eq=False)  # eq=False: arrays do not compare as values
class PhotoView:
    """Copies of one photo to draw on. `whole`: the whole photo, `whole_scale` its pixels per photo
    pixel; `tiles`: the part around the tiles (None where they fill most of the photo), `tiles_xyxy`
    that part in photo pixels, `tiles_scale` its pixels per photo pixel; `gain`: what both copies were
    brightened by (a dark photo is shown as the reader read it, its tiles then visible)."""

    whole: np.ndarray
    whole_scale: float
    tiles: np.ndarray | None = None
    tiles_xyxy: tuple[int, int, int, int] | None = None
    tiles_scale: float = 1.0
    gain: float = 1.0  # a dark photo is shown brightened as it was read (`vision.exposure`)

    def picture(self, cropped: bool) -> tuple[np.ndarray, tuple[float, float], float]:
        """The copy to draw on (the tiles' part where `cropped` and there is one), the photo point at
        its top left corner, and its pixels per photo pixel."""
        if cropped and self.tiles is not None and self.tiles_xyxy is not None:
            return self.tiles, (float(self.tiles_xyxy[0]), float(self.tiles_xyxy[1])), self.tiles_scale
        return self.whole, (0.0, 0.0), self.whole_scale


def in_picture(box: Box, origin: tuple[float, float], scale: float) -> Box:
    """A box in photo pixels, in the pixels of a copy whose top left is the photo's `origin`."""
    x1, y1, x2, y2 = box
    return (
        (x1 - origin[0]) * scale,
        (y1 - origin[1]) * scale,
        (x2 - origin[0]) * scale,
        (y2 - origin[1]) * scale,
    )


def tiles_window(boxes: Sequence[Box], image_size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The part of the picture to show (x1, y1, x2, y2): the tiles' `boxes` with a margin of a tile's
    long side (room for their labels, and for a tile the reader missed beside them), or None where
    that is most of the picture anyway."""
    width, height = image_size
    # boxes clipped to the picture (a tile cut by the photo's edge), and those left with no area dropped
    clipped = [
        (max(0.0, x1), max(0.0, y1), min(float(width), x2), min(float(height), y2))
        for x1, y1, x2, y2 in boxes
    ]
    boxes = [b for b in clipped if b[2] > b[0] and b[3] > b[1]]
    if not boxes:
        return None
    long_sides = sorted(max(b[2] - b[0], b[3] - b[1]) for b in boxes)
    margin = max(long_sides[len(long_sides) // 2], 0.05 * max(width, height))
    x1 = max(0, int(min(b[0] for b in boxes) - margin))
    y1 = max(0, int(min(b[1] for b in boxes) - margin))
    x2 = min(width, int(max(b[2] for b in boxes) + margin + 1))
    y2 = min(height, int(max(b[3] for b in boxes) + margin + 1))
    if (x2 - x1) * (y2 - y1) >= CROP_BELOW_AREA * width * height:
        return None
    return x1, y1, x2, y2


def _display_copy(rgb: np.ndarray) -> tuple[np.ndarray, float]:
    """`rgb` at a size to draw on and show: its longer side at most DISPLAY_MAX_SIDE and at least
    DISPLAY_MIN_SIDE; and its pixels per `rgb` pixel."""
    height, width = rgb.shape[:2]
    longest = max(height, width, 1)
    scale = (
        min(1.0, DISPLAY_MAX_SIDE / longest) if longest >= DISPLAY_MIN_SIDE else DISPLAY_MIN_SIDE / longest
    )
    if scale == 1.0:
        return rgb, 1.0
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    # enlarged smoothly (bicubic): a blocky enlargement would read as a blur of another kind
    how = Image.Resampling.BILINEAR if scale < 1.0 else Image.Resampling.BICUBIC
    return np.asarray(Image.fromarray(rgb).resize(size, how)), scale


def photo_view(rgb: np.ndarray, boxes: Sequence[Box], gain: float = 1.0) -> PhotoView:
    """The copies of the photo `rgb` (H, W, 3) the page draws on, its tiles at `boxes` (photo pixels),
    brightened by the `gain` the reader read it with (`vision.pipeline.Seen.gain`)."""
    from vision.exposure import with_gain

    rgb = with_gain(rgb, gain)
    whole, whole_scale = _display_copy(rgb)
    window = tiles_window(boxes, (int(rgb.shape[1]), int(rgb.shape[0])))
    if window is None:
        return PhotoView(whole, whole_scale, gain=gain)
    x1, y1, x2, y2 = window
    tiles, tiles_scale = _display_copy(np.ascontiguousarray(rgb[y1:y2, x1:x2]))
    return PhotoView(whole, whole_scale, tiles, window, tiles_scale, gain)
