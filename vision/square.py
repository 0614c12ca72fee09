"""Square the photo: a hand photographed at a slant is read again turned so its tiles stand square.

The detector draws axis-aligned boxes. A tile turned 30-45 degrees fills a box 1.9-2 times its
own area, and the classifier's square crop around it holds as much of its neighbours as of it: the
real photos slanted 15, 30 and 45 degrees read F1 0.949, 0.932 and 0.907 against 0.960 level (the
generator's scenes, slanted in training, read as well either way). The tiles of one hand lie along
two directions a quarter turn apart, so the direction from each box to its nearest touching
neighbour, up to a quarter turn, tells the photo's slant. (The boxes' own angles,
`vision.deskew.box_angles`, are no guide: a face's strokes and a tile's sides seen in perspective
pull them 10-30 degrees off on real photos.) Where those directions agree on a slant of more than
SQUARE_ABOVE degrees and some tile is unsure, the photo is turned back by it and read again around
the first reading's boxes. The boxes stay the first reading's (read turned, the detector lost tiles
on held-out scenes); each box's reading becomes the mean of its own and that of the turned box
that, taken back into the photo, overlaps it most (docs/vision.md, "A hand photographed at a slant").
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.box_filters import box_areas, iou_matrix, long_short_sides

# a box's nearest neighbour further than this many times the box's shorter side is not beside it
# in a row or meld (touching tiles lie about one side apart at any angle): tiles strewn apart say
# nothing of the slant
NEIGHBOUR_REACH = 1.3
# a hand slanted less than this is read as it lies: its boxes already fit its tiles closely
SQUARE_ABOVE = 12.0
# the directions must agree this well (the length of their folded mean, 0..1)
LEAST_AGREEMENT = 0.7
# and there must be this many boxes beside a touching neighbour
LEAST_TILES = 3
# the turned reading is kept only where its boxes' median area is under this share of the first
# reading's: tiles that stood slanted fill boxes 1.4 times their own area at 12 degrees, 1.8 at 25;
# tiles strewn at every angle, whose neighbours' directions agree by chance, fit no better turned
CLOSER_FIT = 0.85
# a photo whose every box the models read this surely is not read again (the mean of two readings
# hardly moves a sure one: on the real photos slanted 30 and 45 degrees and 45 slanted held-out
# scenes, leaving such photos unread again changed no count)
UNSURE_BELOW = 0.9
# a box of the turned reading, taken back, is the same tile as a first box it overlaps this much
SAME_TILE_IOU = 0.5
# the turned photo is shrunk until its tiles' boxes are at most this long (median): every look cuts
# its crops smaller (the classifier 128 px, the glyph look's faces 256), and a 12 MP photo's
# tiles of 400 px and more cost only time to turn and to cut
TURNED_TILE_PX = 320.0
# the turned photo is read only this many tiles' lengths around the first reading's boxes
AROUND_MARGIN = 2.0


@dataclass(frozen=True)
class Turn:
    """A photo turned `degrees` counter-clockwise on the screen about its centre and shrunk by
    `scale` onto a canvas `size` (width, height) that holds all of it: `matrix` (2, 3) takes the
    photo's pixels to the canvas's, `inverse` the canvas's back."""

    degrees: float
    matrix: np.ndarray
    inverse: np.ndarray
    size: tuple[int, int]
    scale: float = 1.0


def folded_mean(angles: np.ndarray, times: int) -> tuple[float, float]:
    """(degrees in [0, 360 / times), agreement in [0, 1]) of directions `angles` (NaN: unknown) that
    matter only up to a turn of 360 / `times` degrees: the direction of the mean of the angles taken
    `times` times round, divided by `times`, and that mean's length. (0.0, 0.0) when none is known."""
    known = np.asarray(angles, np.float64)
    known = known[np.isfinite(known)]
    if not len(known):
        return 0.0, 0.0
    folded = np.radians(known) * times
    mean = complex(float(np.cos(folded).mean()), float(np.sin(folded).mean()))
    period = 360.0 / times
    degrees = float(np.degrees(np.angle(mean)) / times) % period
    # a direction a hair under 0 wraps to `period` itself in floating point: that is 0
    return (0.0 if degrees >= period else degrees), abs(mean)


def photo_slant(angles: np.ndarray) -> tuple[float, float]:
    """(degrees in [-45, 45), agreement in [0, 1]) of directions `angles` (NaN: unknown) that
    matter only up to a quarter turn (`folded_mean` four times round). (0.0, 0.0) when no angle is
    known."""
    degrees, agreement = folded_mean(angles, 4)
    return (degrees + 45.0) % 90.0 - 45.0, agreement


def neighbour_directions(xyxy: np.ndarray) -> np.ndarray:
    """(M,) degrees: the direction from each box's centre to its nearest neighbour's, for the boxes
    whose nearest neighbour lies within NEIGHBOUR_REACH times the box's shorter side."""
    boxes = np.asarray(xyxy, np.float64).reshape(-1, 4)
    if len(boxes) < 2:
        return np.zeros(0)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2.0
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(distance, np.inf)
    nearest = distance.argmin(axis=1)
    nearest_distance = distance[np.arange(len(boxes)), nearest]
    close = nearest_distance <= NEIGHBOUR_REACH * long_short_sides(boxes)[:, 1]
    step = centres[nearest[close]] - centres[close]
    return np.degrees(np.arctan2(step[:, 1], step[:, 0]))


def slant_to_square(xyxy: np.ndarray, probabilities: np.ndarray) -> float | None:
    """The slant by which to turn the photo back before reading its boxes `xyxy` again, or None:
    every box read surely (its likeliest face at UNSURE_BELOW or more in `probabilities`), too few
    boxes, their rows' directions disagree, or the slant is under SQUARE_ABOVE degrees."""
    if not len(probabilities) or float(np.asarray(probabilities).max(axis=1).min()) >= UNSURE_BELOW:
        return None
    directions = neighbour_directions(xyxy)
    if len(directions) < LEAST_TILES:
        return None
    degrees, agreement = photo_slant(directions)
    if agreement < LEAST_AGREEMENT or abs(degrees) < SQUARE_ABOVE:
        return None
    return degrees


def fits_closer(
    first_xyxy: np.ndarray, turned_xyxy: np.ndarray, scale: float = 1.0, share: float = CLOSER_FIT
) -> bool:
    """Whether the boxes read on the turned photo (shrunk by `scale`) fit their tiles closer than the
    first reading's: their median area, in the photo's pixels, under `share` of the first's."""
    first, turned = (np.asarray(xyxy, np.float64).reshape(-1, 4) for xyxy in (first_xyxy, turned_xyxy))
    if not len(first) or not len(turned):
        return False
    first_area, turned_area = float(np.median(box_areas(first))), float(np.median(box_areas(turned)))
    return turned_area < share * first_area * scale * scale


def turned_scale(xyxy: np.ndarray, longest: float = TURNED_TILE_PX) -> float:
    """How much to shrink the photo as it is turned so that the boxes `xyxy`'s median longer side
    is at most `longest` pixels (1.0: as it is)."""
    boxes = np.asarray(xyxy, np.float64).reshape(-1, 4)
    if not len(boxes):
        return 1.0
    typical = float(np.median(long_short_sides(boxes)[:, 0]))
    return min(1.0, longest / typical) if typical > 0 else 1.0


def turn_for(hw: tuple[int, int], degrees: float, scale: float = 1.0) -> Turn:
    """The turn of an (H, W) photo by `degrees` (as `cv2.getRotationMatrix2D` counts them), shrunk
    by `scale`, onto a canvas that holds all of it."""
    h, w = hw
    matrix = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), degrees, scale)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    width, height = int(np.ceil(h * sin + w * cos)), int(np.ceil(h * cos + w * sin))
    matrix[0, 2] += width / 2.0 - w / 2.0
    matrix[1, 2] += height / 2.0 - h / 2.0
    return Turn(degrees, matrix, cv2.invertAffineTransform(matrix), (width, height), scale)


def around_boxes(turn: Turn, xyxy: np.ndarray, margin: float = AROUND_MARGIN) -> Turn:
    """`turn` onto only the part of its canvas that holds the boxes `xyxy` of the photo (the first
    reading's), `margin` times their median longer side beyond them on every side: the detector
    then sees the tiles no smaller than in the photo, where the whole canvas (up to 1.4 times the
    photo's size at 45 degrees) would shrink them in its view."""
    boxes = np.asarray(xyxy, np.float64).reshape(-1, 4)
    if not len(boxes):
        return turn
    corners = _corners(boxes) @ turn.matrix[:, :2].T + turn.matrix[:, 2]
    reach = margin * float(np.median(long_short_sides(boxes)[:, 0])) * turn.scale
    width, height = turn.size
    left = int(max(0.0, np.floor(corners[..., 0].min() - reach)))
    top = int(max(0.0, np.floor(corners[..., 1].min() - reach)))
    right = int(min(float(width), np.ceil(corners[..., 0].max() + reach)))
    bottom = int(min(float(height), np.ceil(corners[..., 1].max() + reach)))
    matrix = turn.matrix.copy()
    matrix[:, 2] -= (left, top)
    size = (right - left, bottom - top)
    return Turn(turn.degrees, matrix, cv2.invertAffineTransform(matrix), size, turn.scale)


def _corners(boxes: np.ndarray) -> np.ndarray:
    """(N, 4, 2): the four corners of each of (N, 4) boxes x1, y1, x2, y2."""
    x1, y1, x2, y2 = boxes.T
    return np.stack([np.stack(corner, axis=1) for corner in ((x1, y1), (x2, y1), (x2, y2), (x1, y2))], axis=1)


def edge_colour(rgb: np.ndarray) -> tuple[int, int, int]:
    """The median colour of the photo's outermost pixels: the table, to fill the turned canvas's
    corners with (a mirrored border would copy tiles into them)."""
    rim = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]])
    r, g, b = (int(v) for v in np.median(rim, axis=0))
    return r, g, b


def turned_photo(rgb: np.ndarray, turn: Turn) -> np.ndarray:
    """`rgb` turned by `turn`, its corners filled with the table's colour."""
    return cv2.warpAffine(
        rgb,
        turn.matrix,
        turn.size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=edge_colour(rgb),
    )


def boxes_back(xyxy: np.ndarray, turn: Turn, hw: tuple[int, int]) -> np.ndarray:
    """(N, 4) float32: boxes of the turned canvas as boxes of the photo (`hw`: its height, width):
    the box around each box's four corners taken back, cut to the photo."""
    back = _corners(np.asarray(xyxy, np.float64).reshape(-1, 4)) @ turn.inverse[:, :2].T + turn.inverse[:, 2]
    h, w = hw
    out = np.concatenate([back.min(axis=1), back.max(axis=1)], axis=1)
    out[:, [0, 2]] = out[:, [0, 2]].clip(0, w)
    out[:, [1, 3]] = out[:, [1, 3]].clip(0, h)
    return out.astype(np.float32)


def same_tiles(
    first_xyxy: np.ndarray, back_xyxy: np.ndarray, least_iou: float = SAME_TILE_IOU
) -> list[tuple[int, int]]:
    """(i, j) pairs of a first box i and a turned box j taken back (`boxes_back`) that are one tile:
    the pair that overlaps most first, then the most among the boxes left, down to `least_iou`."""
    overlap = iou_matrix(first_xyxy, back_xyxy)
    pairs: list[tuple[int, int]] = []
    while overlap.size and overlap.max() >= least_iou:
        i, j = np.unravel_index(int(overlap.argmax()), overlap.shape)
        pairs.append((int(i), int(j)))
        overlap[i, :] = 0.0
        overlap[:, j] = 0.0
    return pairs


def with_square_reading(
    probabilities: np.ndarray, first_xyxy: np.ndarray, turned_probabilities: np.ndarray, back_xyxy: np.ndarray
) -> np.ndarray:
    """The first reading's (N, C) `probabilities`, each box's averaged with the turned reading's of
    the same tile (`same_tiles`); a box the turned reading did not find keeps its own."""
    out = np.array(probabilities, np.float32, copy=True)
    for i, j in same_tiles(first_xyxy, back_xyxy):
        out[i] = (out[i] + turned_probabilities[j]) / 2.0
    return out
