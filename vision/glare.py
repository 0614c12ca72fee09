"""A glare spot that hides a tile is told.

A lamp's glint whites out a spot of the photo; over a tile, the detector finds no box there, and the
hand read without that tile may still be a hand: an audit's generated photo with a spot over a bonus
tile (its rooster) scored 1 tai instead of 2, and the reader said nothing (the overexposed line wants
40% of the photo white). `glare_look` finds white-out patches (grey `WHITE_OUT` or more) about a tile
in size (GLARE_LEAST to GLARE_MOST of the typical tile's box), lying mostly outside the boxes' middles
(GLARE_ON_TILES) and not wholly within the boxes (GLARE_IN_BOXES), within GLARE_REACH tile lengths of a
box, where the table by the tiles is not white-out elsewhere (GLARE_ELSEWHERE): a white cloth, or a
bright table white-out in patches, is no spot; nor is one beside a row, in line with no boxes by it
(`beside_a_row`): the row's spacing is whole there. Chosen and measured in docs/vision.md (A glare spot).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.box_filters import long_short_sides, typical_sides
from vision.exposure import WHITE_OUT
from vision.lines import FACE_GLARE, GLARE, PHOTO, TILES, Line
from vision.places import box_place, first_places, point_place

# the photo is looked at shrunk to this long side (nearest pixels: a 12 MP photo's strided copy
# took 4 times as long): a tile of 2.5% of the long side is still 20 px
GLARE_SAMPLE_PX = 800
# the white-out opened by a disc of this share of the typical tile's short side first: a noisy
# bright table's speckle, and a tile face's white between its strokes, go; a spot stays
GLARE_SMOOTH = 0.1
# a spot's size, in typical tile boxes (long side by short): a third of a tile hides one (the
# audit's rooster: 1.0 box), more than a few is a cloth or a window, not a glint
GLARE_LEAST = 0.3
GLARE_MOST = 6.0
# a box's middle, this share of its sides about its centre, is its tile's at any angle (a box round a
# tile at a slant also holds its neighbours' corners) ...
GLARE_CORE = 0.6
# ... and a spot more than this share of which lies in the boxes' middles is a lit tile face, as is
# one more than GLARE_IN_BOXES of which lies within the boxes (a face white-out where its box is loose)
GLARE_ON_TILES = 0.45
GLARE_IN_BOXES = 0.9
# a spot this many typical tile lengths from every box is not by the tiles
GLARE_REACH = 1.0
# where the white-out outside the boxes by the tiles (within GLARE_REACH), besides the spot's, covers
# more than this many typical tile boxes, the table itself is white-out in places: no spot is told
GLARE_ELSEWHERE = 2.0
# a spot beside a row leaves the row's spacing whole, and hides none of its tiles (HELDOUT3's scene 174:
# a glint off the side of a column of tiles); a hidden tile leaves a place in line with the boxes by it,
# at a row's end or in a gap. Boxes this share of a tile's short side apart or closer touch (a row's
# neighbours); a spot is beside two that touch where its centre lies alongside them (from half their
# spacing before the first to half after the second) and more than GLARE_BESIDE of their half breadth
# off their line, and in line with two boxes by it where its centre lies within GLARE_IN_LINE of their
# half breadth of their line; told only where it is beside no row, or in line with two boxes
GLARE_TOUCH = 0.25
GLARE_BESIDE = 1.2
GLARE_IN_LINE = 0.6
# a found box's face is whited out where this share of its middle (GLARE_CORE of each side) is white-out,
# opened as the spots are (a face's white between its strokes goes): glare over a tile the detector still
# finds leaves its face blank, read as the white dragon or unsure (of 55 tiles under a spot on generated
# scenes and still found, 48 were misread and 4 read unsure). A white dragon's blank middle is as white:
# its reading, sure, tells it apart (`vision.pipeline` tells a whited-out face only where it reads unsure)
FACE_WHITE = 0.6


def _masks(boxes: np.ndarray, shape: tuple[int, int], core: float) -> tuple[np.ndarray, np.ndarray]:
    """(H, W) bool masks of `boxes` (K, 4, in the sample's pixels): their middles (`core` of each side
    about the centre) and their whole."""
    middle, whole = np.zeros(shape, bool), np.zeros(shape, bool)
    centre, half = (boxes[:, :2] + boxes[:, 2:]) / 2.0, (boxes[:, 2:] - boxes[:, :2]) / 2.0
    for mask, share in ((middle, core), (whole, 1.0)):
        low = np.clip(np.floor(centre - half * share), 0, None).astype(int)
        high = np.clip(np.ceil(centre + half * share), 0, None).astype(int)
        for (x1, y1), (x2, y2) in zip(low.tolist(), high.tolist(), strict=True):
            mask[y1:y2, x1:x2] = True  # a slice past the edge stops at it
    return middle, whole


@dataclass(frozen=True)
class WhitePatch:
    """A white-out patch of a photo, measured against its typical tile: its size in typical tile boxes,
    the share of it in the boxes' middles, its gap to the nearest box in tile lengths, the white-out
    outside the boxes besides its own in tile boxes, its centre (x, y) in the photo's pixels, and whether
    it lies beside a row of the boxes within GLARE_REACH of it, in line with none (`beside_a_row`)."""

    size: float
    on_tiles: float
    in_boxes: float
    gap: float
    elsewhere: float
    centre: tuple[float, float]
    beside_row: bool = False

    def is_glare(self) -> bool:
        """Whether the patch is a glare spot by the tiles that may hide one (the module's rule)."""
        return (
            GLARE_LEAST <= self.size <= GLARE_MOST
            and self.on_tiles <= GLARE_ON_TILES
            and self.in_boxes <= GLARE_IN_BOXES
            and self.gap <= GLARE_REACH
            and self.elsewhere <= GLARE_ELSEWHERE
            and not self.beside_row
        )


def white_patches(
    rgb: np.ndarray,
    xyxy: np.ndarray,
    det_score: np.ndarray,
    covered: np.ndarray | None = None,
    least: float = 0.1,
) -> list[WhitePatch]:
    """The white-out patches of the (H, W, 3) uint8 RGB photo `rgb` (as given, before any brightening)
    of at least `least` typical tile boxes, measured against its boxes `xyxy` (the typical tile judged
    on 3 or more, `det_score` their scores; none under 3) and the boxes `covered` (judged to hold no
    tile: a patch there is told as such). Worked on the photo's grey shrunk to GLARE_SAMPLE_PX on its
    long side, the white-out opened by GLARE_SMOOTH of the tile's short side."""
    boxes = _boxes(xyxy)
    return _patches(white_out_of(rgb, boxes, det_score), boxes, covered, least)


def _patches(
    white_out: WhiteOut | None, boxes: np.ndarray, covered: np.ndarray | None, least: float
) -> list[WhitePatch]:
    """`white_patches` of the photo's `white_out` (`white_out_of`; None: no typical tile)."""
    if white_out is None or not white_out.mask.any():
        return []
    white, shrink, typical = white_out.mask, white_out.shrink, white_out.typical
    long_side, short_side = float(typical[0]) * shrink, float(typical[1]) * shrink
    tile_area = max(long_side * short_side, 1.0)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(white, connectivity=8)
    if count <= 1:
        return []
    others = np.asarray(covered if covered is not None else (), np.float32).reshape(-1, 4)
    middle, whole = _masks(np.concatenate([boxes, others]) * shrink, white.shape, GLARE_CORE)
    # each patch's pixels in the boxes' middles and outside every box, its gap to the nearest box
    lit = np.flatnonzero(white)  # a few percent of the photo, as a rule
    lit_labels = labels.ravel()[lit]
    in_middles = np.bincount(lit_labels[middle.ravel()[lit]], minlength=count)
    outside = np.bincount(lit_labels[~whole.ravel()[lit]], minlength=count)
    rects = stats[:, :4].astype(np.float32)
    rects[:, 2:] += rects[:, :2]
    each_gap = _gap_matrix(rects, boxes * shrink) / long_side  # (count, N) in tile lengths
    gaps = each_gap.min(axis=1)
    # the white-out outside the boxes by the tiles (within GLARE_REACH), each patch's own included
    near = gaps <= GLARE_REACH
    near[0] = False  # the background
    by_tiles = float(outside[near].sum())
    patches = []
    for label in np.flatnonzero(stats[:, 4] >= least * tile_area):
        if label == 0:
            continue
        area = float(stats[label, 4])
        own = float(outside[label]) if near[label] else 0.0
        cx, cy = centroids[label]
        beside = beside_a_row(centroids[label], boxes[each_gap[label] <= GLARE_REACH] * shrink, short_side)
        patches.append(
            WhitePatch(
                size=area / tile_area,
                on_tiles=float(in_middles[label]) / area,
                in_boxes=1.0 - float(outside[label]) / area,
                gap=float(gaps[label]),
                elsewhere=(by_tiles - own) / tile_area,
                centre=(float((cx + 0.5) / shrink), float((cy + 0.5) / shrink)),
                beside_row=beside,
            )
        )
    return patches


def glare_look(
    rgb: np.ndarray, xyxy: np.ndarray, det_score: np.ndarray, covered: np.ndarray | None = None
) -> tuple[tuple[tuple[float, float], ...], tuple[int, ...]]:
    """The glare spots and the whited faces of the photo `rgb`, its white-out shrunk and opened once for
    both (the reader's one look for glare: each had made its own, 6-8 ms of a 12 MP photo).

    The spots: the centres (x, y), in the pixels of `rgb`, of its glare spots by the tiles that may hide
    one (`white_patches` of GLARE_LEAST, `WhitePatch.is_glare`): patches of GLARE_LEAST to GLARE_MOST
    typical tile boxes, at most GLARE_ON_TILES of them in the boxes' middles and GLARE_IN_BOXES within the
    boxes, within GLARE_REACH tile lengths of a box, where the white-out outside the boxes by the tiles
    besides theirs is at most GLARE_ELSEWHERE tile boxes; none in the boxes `covered` (judged to hold no
    tile: that line says where they are). The whited faces: the indices of the boxes `xyxy` (N, 4, in
    the pixels of `rgb`) whose middle (GLARE_CORE of each side) is FACE_WHITE or more white-out (`_whited`).
    Both want a typical tile judged on 3 boxes or more (`det_score` their scores): none under 3."""
    boxes = _boxes(xyxy)
    white_out = white_out_of(rgb, boxes, det_score)
    return _spots(_patches(white_out, boxes, covered, GLARE_LEAST)), _whited(white_out, boxes)


def _spots(patches: Sequence[WhitePatch]) -> tuple[tuple[float, float], ...]:
    return tuple(patch.centre for patch in patches if patch.is_glare())


def _boxes(xyxy: np.ndarray) -> np.ndarray:
    return np.asarray(xyxy, np.float32).reshape(-1, 4)


@dataclass(frozen=True, eq=False)
class WhiteOut:
    """A photo's white-out as the glare checks read it: `mask` (h, w) uint8, the photo's grey shrunk by
    `shrink` and opened (`_white_out`), and the typical tile's (long, short) sides in the photo's pixels."""

    mask: np.ndarray
    shrink: float
    typical: np.ndarray


def white_out_of(rgb: np.ndarray, boxes: np.ndarray, det_score: np.ndarray) -> WhiteOut | None:
    """The white-out of the photo `rgb` measured against its `boxes` (N, 4): None where no typical tile
    is judged (under 3 boxes, `det_score` their scores)."""
    typical = typical_sides(long_short_sides(boxes), np.asarray(det_score, np.float32).reshape(-1))
    if typical is None:
        return None
    mask, shrink = _white_out(rgb, float(typical[1]))
    return WhiteOut(mask, shrink, typical)


def _white_out(rgb: np.ndarray, short_side: float) -> tuple[np.ndarray, float]:
    """The (h, w) uint8 white-out (1) of the photo `rgb`'s grey shrunk to GLARE_SAMPLE_PX on its long
    side, opened by a disc of GLARE_SMOOTH of the typical tile's `short_side` (in the photo's pixels),
    and the shrink."""
    height, width = rgb.shape[:2]
    shrink = min(1.0, GLARE_SAMPLE_PX / max(height, width))
    small: np.ndarray = rgb
    if shrink < 1.0:
        size = (max(1, round(width * shrink)), max(1, round(height * shrink)))
        small = cv2.resize(rgb, size, interpolation=cv2.INTER_NEAREST)
    white_out = (cv2.cvtColor(small, cv2.COLOR_RGB2GRAY) >= WHITE_OUT).astype(np.uint8)
    if not white_out.any():  # most photos: no opening to do
        return white_out, shrink
    radius = max(1, round(GLARE_SMOOTH * short_side * shrink))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    return cv2.morphologyEx(white_out, cv2.MORPH_OPEN, disc), shrink


def _whited(white_out: WhiteOut | None, boxes: np.ndarray) -> tuple[int, ...]:
    """The indices of `boxes` whose middle (GLARE_CORE of each side) is FACE_WHITE or more of the
    photo's `white_out` (`white_out_of`, opened as the spots' is; None: no typical tile)."""
    if white_out is None or not white_out.mask.any():
        return ()
    white, shrink = white_out.mask, white_out.shrink
    middle = (boxes[:, :2] + boxes[:, 2:]) / 2.0 * shrink
    half = (boxes[:, 2:] - boxes[:, :2]) / 2.0 * shrink * GLARE_CORE
    low = np.clip(np.floor(middle - half), 0, None).astype(int)
    high = np.clip(np.ceil(middle + half), 0, None).astype(int)
    shares = [
        float(white[y1:y2, x1:x2].mean()) if y2 > y1 and x2 > x1 else 0.0
        for (x1, y1), (x2, y2) in zip(low.tolist(), high.tolist(), strict=True)
    ]
    return tuple(i for i, share in enumerate(shares) if share >= FACE_WHITE)


def face_glare_lines(xyxy: np.ndarray, whited: Sequence[int], scale: float = 1.0) -> list[Line]:
    """The reader's line about the tiles `whited` (indices of the boxes `xyxy`), read unsure, whose faces
    glare whites out (`glare_look`), naming them by place (`vision.places.box_place`, `scale` as there),
    and by tile number where a UI numbers them (`Line.by_number`)."""
    if not len(whited):
        return []
    places = [box_place(xyxy[i], scale) for i in whited]
    if len(places) == 1:
        what, named, so = "the face of a tile", "the face of tile", "its reading may be wrong; check it"
    else:
        what, named = f"the faces of {len(places)} tiles", "the faces of tiles"
        so = "their readings may be wrong; check them"
    rest = f", read unsure: {so}, or tilt the phone or shade the light and take it again"
    return [
        Line(
            f"glare whites out {what} at {first_places(places)}{rest}",
            PHOTO,
            tiles=tuple(int(i) for i in whited),
            unplaced=f"glare whites out {what}{rest}",
            by_number=f"glare whites out {named} {TILES}{rest}",
            about=FACE_GLARE,
        )
    ]


def _gap_matrix(rects: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(K, N) the gap between each of `rects` (K, 4) and each of `boxes` (N, 4); 0 where they overlap."""
    a, b = rects[:, None, :], boxes[None, :, :]
    dx = np.maximum(0.0, np.maximum(a[..., 0] - b[..., 2], b[..., 0] - a[..., 2]))
    dy = np.maximum(0.0, np.maximum(a[..., 1] - b[..., 3], b[..., 1] - a[..., 3]))
    return np.hypot(dx, dy)


def beside_a_row(centre: np.ndarray, boxes: np.ndarray, short_side: float) -> bool:
    """Whether a spot centred at `centre` (x, y) lies beside two of `boxes` (N, 4, the boxes by it) that
    touch, and in line with no two of them (GLARE_TOUCH, GLARE_BESIDE, GLARE_IN_LINE; `short_side`: the
    typical tile's, in the same pixels): off the side of a row whose spacing is whole, where no tile of
    it can lie."""
    if len(boxes) < 2:
        return False
    middle, size = (boxes[:, :2] + boxes[:, 2:]) / 2.0, boxes[:, 2:] - boxes[:, :2]
    first, second = np.nonzero(~np.eye(len(boxes), dtype=bool))  # each ordered pair of two boxes
    step = middle[second] - middle[first]
    spacing = np.hypot(step[:, 0], step[:, 1])
    apart = spacing >= 0.5 * short_side  # two boxes round one tile are no pair
    first, second, step, spacing = first[apart], second[apart], step[apart], spacing[apart]
    along = step / spacing[:, None]
    across = np.stack([-along[:, 1], along[:, 0]], axis=1)
    # the first box's half breadth across the pair's line (the box is upright, the line at any slant)
    breadth = (np.abs(across) * size[first]).sum(axis=1) / 2.0
    offset = np.asarray(centre, np.float64) - middle[first]
    ahead, aside = (offset * along).sum(axis=1), np.abs((offset * across).sum(axis=1))
    gap = _gap_matrix(boxes, boxes)[first, second]
    in_line = aside <= GLARE_IN_LINE * breadth
    beside = (
        (gap <= GLARE_TOUCH * short_side)
        & (aside > GLARE_BESIDE * breadth)
        & (ahead >= -0.5 * spacing)
        & (ahead <= 1.5 * spacing)
    )
    return bool(beside.any() and not in_line.any())


def glare_lines(spots: Sequence[Sequence[float]], scale: float = 1.0) -> list[Line]:
    """The reader's line about the glare spots `spots` (`glare_look`, in the pixels of the photo as
    read; `scale`: that photo is that many times the user's, as `vision.imageio` shrinks large ones)."""
    if not len(spots):
        return []
    places = first_places([point_place(x, y, scale) for x, y in spots])
    if len(spots) == 1:
        what, under = "a glare spot whites out part of the photo", "a tile under it"
    else:
        what, under = f"{len(spots)} glare spots white out parts of the photo", "a tile under them"
    rest = f"by the tiles: {under} cannot be read; tilt the phone or shade the light and take it again"
    centres = tuple((float(x), float(y)) for x, y in spots)
    return [Line(f"{what} at {places}, {rest}", PHOTO, spots=centres, unplaced=f"{what} {rest}", about=GLARE)]
