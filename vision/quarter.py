"""Rows across: a hand whose rows run up and down the photo is read turned a quarter.

The generator lays most training hands in rows across the frame (the camera mostly on the player's
side, the phone mostly held level), and the models read a hand best as they were shown it most:
HELDOUT3's first 100 scenes, each turned so its tiles stand upright, upside down or on their sides,
read F1 0.8575 / 0.8576 with rows across against 0.8544 / 0.8556 with rows up and down; the real
photos turned a quarter read 0.918 / 0.926 against 0.960 / 0.937 with rows across. A photo a phone
saved without its EXIF turn, or taken from the side of the table, shows rows up and down.

The detector's boxes say which way the rows run before any tile is read: each box's nearest touching
neighbour lies along its row (`vision.square.neighbour_directions`), and a tile lying in a row up and
down the photo fills a box wider than tall. Where both say so, the photo is turned a quarter
counter-clockwise and read from the start; the boxes are taken back into the photo's pixels. Which
of the two quarter turns stands the faces upright the boxes cannot tell; the held-out scenes read
upright and upside down alike. Measured (docs/vision.md, "A hand whose rows run up and down"): a tie
on the generated sets, stored and turned; the real photos turned 90 / 270 degrees 0.918 / 0.926 ->
0.949 / 0.933.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.square import LEAST_AGREEMENT, LEAST_TILES, folded_mean, neighbour_directions

# rows within this many degrees of straight up and down are turned across; a hand lying nearer the
# diagonal is left to vision.square, which reads it turned square by its slant
ROWS_WITHIN = 30.0


def rows_direction(xyxy: np.ndarray) -> tuple[float, float, int]:
    """(degrees in [0, 180): 0 across, 90 up and down; agreement in [0, 1]; how many boxes lie beside
    a touching neighbour) of the rows of boxes `xyxy`: the directions to each box's nearest neighbour
    taken twice round (a direction and its reverse are one row, `folded_mean`)."""
    directions = neighbour_directions(xyxy)
    return (*folded_mean(directions, 2), len(directions))


def rows_up_and_down(xyxy: np.ndarray) -> bool:
    """Whether the boxes `xyxy` lie in rows up and down the photo: LEAST_TILES or more beside a
    touching neighbour, their directions agreeing LEAST_AGREEMENT or more on one within ROWS_WITHIN
    degrees of upright, and the boxes wider than tall (their median), as tiles lying across such a
    row are."""
    boxes = np.asarray(xyxy, np.float64).reshape(-1, 4)
    degrees, agreement, beside = rows_direction(boxes)
    if beside < LEAST_TILES or agreement < LEAST_AGREEMENT or abs(degrees - 90.0) > ROWS_WITHIN:
        return False
    widths, heights = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    return bool(np.median(widths) > np.median(heights))


def turned_quarter(rgb: np.ndarray) -> np.ndarray:
    """`rgb` turned a quarter counter-clockwise (a contiguous copy: `np.rot90`'s, made contiguous, costs
    a 12 MP photo 100-300 ms against 30)."""
    return cv2.rotate(np.ascontiguousarray(rgb), cv2.ROTATE_90_COUNTERCLOCKWISE)


def quarter_back(xyxy: np.ndarray, hw: tuple[int, int]) -> np.ndarray:
    """(N, 4) float32: boxes read on `turned_quarter` of a photo of `hw` (height, width), in that
    photo's own pixels."""
    return unturned_xyxy(xyxy, 270, hw)  # a quarter counter-clockwise is three clockwise


def unturned_xyxy(xyxy: np.ndarray, turn: int, hw: tuple[int, int]) -> np.ndarray:
    """(N, 4) float32: boxes read on a photo turned `turn` degrees clockwise (0, 90, 180 or 270), in
    the pixels of the photo as it was (`hw`: its height and width). `turned_quarter` is 270."""
    x1, y1, x2, y2 = np.asarray(xyxy, np.float32).reshape(-1, 4).T
    h, w = hw
    if turn == 90:  # the turned photo's (x, y) was (y, h - x)
        return np.stack([y1, h - x2, y2, h - x1], axis=1)
    if turn == 180:
        return np.stack([w - x2, h - y2, w - x1, h - y1], axis=1)
    if turn == 270:  # (x, y) was (w - y, x)
        return np.stack([w - y2, x1, w - y1, x2], axis=1)
    return np.asarray(xyxy, np.float32).reshape(-1, 4)
