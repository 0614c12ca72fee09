"""Photo -> tiles -> layout, in one straight line of small steps.

    rgb --letterbox--> detector --NMS, inverse letterbox--> boxes in full-resolution pixels
        --square crops from the FULL-RES photo--> classifier (batched) --> Seen    (`TileReader.see`)
        --the rule set's faces, one set, the win check--> Detections
        --vision.layout.layout_hand--> Layout                                     (`TileReader.settle`)

A photo read once is settled again for another rule set without the models (`Reading.seen`).

Confidence of a tile = detector score x classifier probability of the class it is read as
(its top class, unless more tiles read as one face than a set holds: vision.tile_set, or one or two
unsure tiles' runner-up makes the photo a winning hand: vision.winning_read): a tile
is only as sure as the weaker of "there is a tile here" and "it is this tile". Both
factors and the full class distribution stay in the `Reading` for the UI.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.box_filters import (
    doubted_inside_surer,
    long_short_sides,
    odd_and_unsure,
    surely_read,
    typical_sides,
    unsure_inside_surer,
)
from vision.canvas import content_xyxy
from vision.classes import BACK, CLASSES
from vision.crops import crop_tiles
from vision.deskew import box_angles
from vision.detections import UNSURE_BELOW, Detections
from vision.exposure import dark_warning, gains, lit_boxes, overexposed_warning, white_share, with_gain
from vision.glare import face_glare_lines, glare_lines, glare_look
from vision.glyphs import GlyphReader, glyph_session
from vision.imageio import FILLED_SHARE, decoder_filled_share
from vision.layout_read import HAND_SIZE, hand_tiles
from vision.lines import (
    DAMAGED,
    DARK,
    EDGE,
    LAYOUT,
    OTHER_SET,
    PHOTO,
    RECALLED,
    SET_COPIES,
    SMALL_PHOTO,
    SMALL_TILES,
    TILE,
    TILES,
    UNSURE,
    WHITE_OUT,
    WIN_MOVED,
    WIN_WAYS,
    Line,
    count_of,
    first_of_each,
    lines_of,
    lines_saying,
    texts,
    tiles_slot,
)
from vision.onnx_models import (
    DEFAULT_PROVIDERS,
    DEFAULT_THREADS,
    SecondLook,
    TileClassifier,
    TileDetector,
    make_session,
)
from vision.pip_look import PipLook
from vision.places import box_place, first_places
from vision.quarter import quarter_back, rows_up_and_down, turned_quarter
from vision.rank_look import RankLook
from vision.set_memory import Recall, SetMemory, look_key, recalled
from vision.sharpness import blur_lines, photo_blur, whole_blur_lines, whole_photo_blur
from vision.sidecar import ModelError, load_config
from vision.square import (
    around_boxes,
    boxes_back,
    fits_closer,
    slant_to_square,
    turn_for,
    turned_photo,
    turned_scale,
    with_square_reading,
)
from vision.text_look import TextLook
from vision.tile_set import (
    ANOTHER_SET_QUESTION,
    COPIES_IN_SET,
    assign_within_set,
    face_mask,
    keeps_to_set,
    tiles_in_words,
    within_faces,
)
from vision.winning_read import complete_to_win

if TYPE_CHECKING:
    from vision.layout import Layout

__all__ = ["DEFAULT_MODELS_DIR", "ModelError", "Reading", "Seen", "TileReader"]

DEFAULT_MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
# A tile whose probabilities outside the rule set's faces sum to this or more looks like another set's.
OUTSIDE_SET_AT_LEAST = 0.5
# A photo whose typical tile is narrower than this (pixels as read) gets a warning: synthetic scenes
# shrunk to 24 px wide tiles lose 0.05 F1 against their own size, at 20 px 0.07, at 16 px 0.11
# (`python -m vision.bench --tile-sizes`, docs/vision.md), so a misread there is more likely the
# photo's size than the tile's art, and the user can fix that.
SMALL_TILE_PX = 24
# ... or whose typical tile's long side is under this share of the photo's long side: 30 generated
# scenes padded with their table, so their tiles kept their pixels but shrank in the frame, had a box
# for 97% of the tiles at 3-4% of the long side, 92% at 2.5-3%, 84% at 2-2.5%, 76% at 1.5-2% and 48% at
# 1-1.5% (stage 53, ~/.cache/mj/s53/relsize.py; docs/vision.md, Small tiles).
SMALL_TILE_SHARE = 0.025
# A photo whose long side is under this many pixels (its own, before any shrinking) gets a warning of its
# own, whatever its boxes say: generated scenes read F1 0.870 / 0.855 / 0.768 / 0.645 at a long side of
# 1920 / 1280 / 640 / 360 px (stage 57, docs/vision.md, Webcam frames), and a thumbnail of 100 px had its
# row read as two large tiles with nothing said (an audit, stage 71: too few boxes to judge a tile's size).
SMALL_PHOTO_PX = 640
# A photo whose long side is under this many pixels is read enlarged to it (INTER_CUBIC), its boxes
# mapped back to its own pixels; 0: every photo as given. Off: generated scenes at 640 px (a webcam
# frame) enlarged to 1280 read 0.834 F1 against 0.808 on the decision set (seeds 73000-73039), but
# only 0.774 against 0.768 on the measurement set (seeds 61000-61059), with 13 exact photos and 8
# hands against 15 and 9 (docs/vision.md, Webcam frames); `vision.bench --enlarge-to` measures it.
ENLARGE_TO = 0


def enlarged(rgb: np.ndarray, long_side: int | None) -> tuple[np.ndarray, float]:
    """`rgb` enlarged (INTER_CUBIC) so that its long side is `long_side`, and the factor; `rgb` itself
    and 1.0 where it is that long already (or `long_side` is None or 0)."""
    longest = max(rgb.shape[:2])
    if not long_side or longest >= long_side:
        return rgb, 1.0
    factor = long_side / longest
    size = (max(1, round(rgb.shape[1] * factor)), max(1, round(rgb.shape[0] * factor)))
    return cv2.resize(rgb, size, interpolation=cv2.INTER_CUBIC), factor


@dataclass(frozen=True)
class Seen:
    """What the models made of one photo, before any rule of a set: the boxes taken for tiles
    (N, 4) in the photo's pixels, their detector scores (N,), class probabilities (N, 49) with every
    look applied, angles (N,; NaN where unmeasured, `vision.deskew.box_angles`) and the boxes judged
    to hold no tile (K, 4)."""

    xyxy: np.ndarray
    det_score: np.ndarray
    probabilities: np.ndarray
    angle: np.ndarray
    rejected_xyxy: np.ndarray
    # the photo's (height, width) as read, to tell tiles cut by its edge; None where not known
    image_hw: tuple[int, int] | None = None
    gain: float = 1.0  # what a dark photo was brightened by before it was read (`vision.exposure`)
    white: float = 0.0  # the share of the photo that is white-out, as given (`vision.exposure.white_share`)
    # how deep the decoder's flat grey reaches in from an edge (`vision.imageio.decoder_filled_share`)
    filled: float = 0.0
    # how sharp the tiles' faces are (`vision.sharpness.photo_blur`); None where too few to judge
    sharpness: float | None = None
    # how evenly their gradients run every way (`vision.sharpness.Blur.even`: low where shaken); None too
    evenness: float | None = None
    # where too few faces are judged, the whole photo's (`vision.sharpness.whole_photo_blur`): a strong
    # shake or a missed focus leaves (almost) no tile found; None where judged on the faces, or flat
    whole_sharpness: float | None = None
    whole_evenness: float | None = None
    # the photo (x1, y1, x2, y2) on a screenshot's canvas, read alone (`vision.canvas`); None: all of it
    content_xyxy: tuple[int, int, int, int] | None = None
    # the centres (x, y), in the photo's pixels, of the glare spots by its tiles that may hide one
    # (`vision.glare.glare_look`); none in a reading saved before they were looked for
    glare: tuple[tuple[float, float], ...] = ()
    # the indices of the boxes whose faces are whited out (`vision.glare.glare_look`): a glare spot over a
    # tile still found; none in a reading saved before they were looked for
    whited: tuple[int, ...] = ()
    # each box's look (N, D) (`TileClassifier.describe`), to tell it by a set's tiles confirmed before
    # (`vision.set_memory`); None where not described (no memory asked for, or a model without features)
    descriptors: np.ndarray | None = None

    def frame(self) -> tuple[tuple[int, int, int, int], tuple[int, int]] | None:
        """The photo's own frame within the image as (x1, y1, x2, y2) and its (height, width): where
        its edge cuts tiles, and how large it is; None where the image's size is not known."""
        if self.content_xyxy is not None:
            x1, y1, x2, y2 = self.content_xyxy
            return self.content_xyxy, (y2 - y1, x2 - x1)
        if self.image_hw is None:
            return None
        height, width = self.image_hw
        return (0, 0, width, height), self.image_hw


@dataclass(frozen=True)
class Reading:
    """What one photo holds.

    `detections.confidence` = `det_score` * `class_prob`; `probabilities` is (N, 49), rows
    in detection order, for offering alternatives. `warnings` holds the pipeline's and the
    layout's warnings, in that order; `lines` the same warnings as facts (`vision.lines.Line`: each
    one's kind and the tiles, glare spots or boxes it names by place), one for each, for a UI that
    names them its own way (none in a reading made by hand). `timings_ms` maps stage name -> milliseconds.
    `rejected_xyxy` (K, 4) holds the boxes the classifier judged to hold no tile (left out).
    The lines on a tile's reading (`Line.about` in `vision.lines.TILE_READINGS`: unsure, or read off its
    first choice to keep within one set or to make a win, or the ways to a win) name tiles by pixel
    position: a UI that names tiles its own way shows the rest and reads those cases from
    `probabilities`, `detections`, `win_moved` (the tiles moved off their reading so that the photo
    shows a win) and `win_options`.
    `win_options`: when moving one or two tiles would make a win in more than one way, about as
    likely (so no tile was moved), each way as ((tile index, class index), ...), likeliest first.
    """

    detections: Detections
    layout: Layout | None
    warnings: tuple[str, ...]
    timings_ms: dict[str, float]
    det_score: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.float32))
    class_prob: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.float32))
    probabilities: np.ndarray = field(default_factory=lambda: np.zeros((0, len(CLASSES)), np.float32))
    rejected_xyxy: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    win_moved: tuple[int, ...] = ()
    win_options: tuple[tuple[tuple[int, int], ...], ...] = ()
    # What the models saw, to settle the photo again for another set (`TileReader.settle`), and the
    # faces this reading kept to (None: any face the classifier knows).
    seen: Seen | None = None
    faces: frozenset[str] | None = None
    # for each tile that looks most like a face outside `faces`, that face (the warning's question
    # whether the photo is of another rule set's tiles names them)
    strangers: tuple[str, ...] = ()
    lines: tuple[Line, ...] = ()
    # the tiles read otherwise than the models read them because they look like a face of this set
    # confirmed before (`vision.set_memory`; read with a memory only)
    recalled: tuple[int, ...] = ()
    # each tile's look (N, D), rows in detection order (`TileClassifier.describe`), to teach a set memory
    # the tiles once the user confirms them; None where the photo was not described
    descriptors: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.lines and texts(self.lines) != tuple(self.warnings):
            raise ValueError("a reading's lines must say its warnings, one for each, in their order")

    @property
    def hand(self) -> dict[str, Any] | None:
        """Scoring JSON input fields (`concealed`, `melds`, `bonus`), or None without a layout."""
        return None if self.layout is None else dict(self.layout.hand)


def _default_layout(detections: Detections) -> tuple[Layout | None, tuple[str, ...]]:
    """Run vision.layout if it is importable; the pipeline still returns tiles without it."""
    try:
        from vision.layout import layout_hand
    except ImportError:
        return None, ("layout step not available: tiles found but not grouped",)
    try:
        layout = layout_hand(detections)
    except Exception as error:  # a layout bug must not lose the tiles the user photographed
        return None, (f"could not group the tiles ({type(error).__name__}): enter the hand by hand",)
    return layout, tuple(layout.warnings)


def layout_lines(layout: Layout | None, warnings: Sequence[str]) -> tuple[Line, ...]:
    """The layout's `warnings` as lines: its own (`Layout.lines`: what each is about, a second hand or
    melds read either way) where they say them, else lines naming nothing (a layout made otherwise)."""
    return lines_saying(getattr(layout, "lines", ()) or (), warnings, LAYOUT)


LayoutFn = Callable[[Detections], "tuple[Layout | None, tuple[str, ...]]"]
# the detector's output for one photo (`TileDetector.detect_with_candidates`): boxes, scores and the
# second-chance candidates' boxes and scores
Detected = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
# a photo's gains (`vision.exposure.gains`) and the detector's output at the first of them
FirstLook = tuple[tuple[float, ...], Detected]


def _whited_unsure(probabilities: np.ndarray, whited: Sequence[int]) -> list[int]:
    """The boxes of `whited` (faces whited out by glare) whose reading gives its face under
    UNSURE_BELOW: a white dragon read surely is not named."""
    return [i for i in whited if i < len(probabilities) and probabilities[i].max() < UNSURE_BELOW]


def _uncertain_lines(detections: Detections, probabilities: np.ndarray, scale: float = 1.0) -> list[Line]:
    """A line naming the runner-up of each tile whose reading gives its face under UNSURE_BELOW: the
    orange mark's bar, on the reading alone (the mark also weighs the box's score)."""
    out = []
    for i, row in enumerate(probabilities):
        top2 = np.argsort(-row)[:2]
        if row[top2[0]] < UNSURE_BELOW and top2[0] == detections.class_id[i]:
            # the reading's own probabilities: the tile's confidence counts its box's score too
            text = (
                f"unsure tile at {box_place(detections.xyxy[i], scale)}: {CLASSES[top2[0]]} or "
                f"{CLASSES[top2[1]]} (its reading gives them {row[top2[0]]:.2f} and {row[top2[1]]:.2f})"
            )
            out.append(Line(text, TILE, tiles=(i,), about=UNSURE))
    return out


def _win_lines(
    detections: Detections, probabilities: np.ndarray, moved: Sequence[int], scale: float = 1.0
) -> list[Line]:
    """One line per tile moved to its runner-up so that the photo shows a winning hand."""
    return [
        Line(
            _moved_line(detections, probabilities, i, int(probabilities[i].argmax()), scale)
            + ": only so do the tiles make a winning hand",
            TILE,
            tiles=(int(i),),
            about=WIN_MOVED,
        )
        for i in moved
    ]


def _moved_line(detections: Detections, probabilities: np.ndarray, i: int, was: int, scale: float) -> str:
    """ "tile at (x, y) read as X (p), not Y (p)": tile `i` read otherwise than its class `was`."""
    now, place = int(detections.class_id[i]), box_place(detections.xyxy[i], scale)
    return (
        f"tile at {place} read as {CLASSES[now]} ({probabilities[i, now]:.2f}),"
        f" not {CLASSES[was]} ({probabilities[i, was]:.2f})"
    )


def _win_option_lines(
    detections: Detections, options: Sequence[tuple[tuple[int, int], ...]], scale: float = 1.0
) -> list[Line]:
    """One line offering the ways, about as likely, that one or two tiles read otherwise make a win."""
    if not options:
        return []
    ways = [
        " and ".join(f"tile at {box_place(detections.xyxy[i], scale)} as {CLASSES[j]}" for i, j in moves)
        for moves in options
    ]
    text = (
        "one or two tiles read otherwise would make a winning hand, in ways about as likely "
        f"(none taken, check them): {'; or '.join(ways)}"
    )
    return [Line(text, TILE, tiles=tuple(int(i) for moves in options for i, _ in moves), about=WIN_WAYS)]


def _set_lines(
    detections: Detections, probabilities: np.ndarray, skip: Sequence[int] = (), scale: float = 1.0
) -> list[Line]:
    """One line per tile read as other than its first choice because a set has too few copies
    (the tiles in `skip` were moved for another reason)."""
    out = []
    first = probabilities.argmax(axis=1)
    for i in np.flatnonzero(first != detections.class_id):
        if i in skip:
            continue
        was = int(first[i])
        copies = COPIES_IN_SET[CLASSES[was]]
        held, them = ("one", "it") if copies == 1 else (str(copies), "them")
        text = (
            _moved_line(detections, probabilities, int(i), was, scale)
            + f": a set has {held} {CLASSES[was]} and surer tiles are read as {them}"
        )
        out.append(Line(text, TILE, tiles=(int(i),), about=SET_COPIES))
    return out


def _recall(memory: SetMemory | None, seen: Seen) -> Recall | None:
    """What `memory` makes of `seen`'s tiles; None without a memory or the tiles' looks."""
    if memory is None or seen.descriptors is None or not memory.tiles:
        return None
    return recalled(memory, seen.probabilities, seen.descriptors)


def _recalled(before: np.ndarray, after: np.ndarray, class_id: np.ndarray) -> tuple[int, ...]:
    """The tiles the memory moved off the models' first choice (`before`: their probabilities, `after`:
    with the memory's help, both within the set read) and that are read as it has them."""
    first = after.argmax(axis=1)
    moved = (first != before.argmax(axis=1)) & (class_id == first)
    return tuple(int(i) for i in np.flatnonzero(moved))


def _recalled_lines(
    detections: Detections, before: np.ndarray, recalled_tiles: Sequence[int], scale: float = 1.0
) -> list[Line]:
    """One line per tile read otherwise than the models read it (`before`, their probabilities) because
    it looks like a face of this set confirmed before."""
    out = []
    for i in recalled_tiles:
        now, was = CLASSES[int(detections.class_id[i])], CLASSES[int(before[i].argmax())]
        why = f"it looks like the {now} tiles taught from earlier photos of this set"
        out.append(
            Line(
                f"tile at {box_place(detections.xyxy[i], scale)} read as {now}, not {was}: {why}",
                TILE,
                tiles=(int(i),),
                unplaced=f"a tile read as {now}, not {was}: {why}",
                by_number=f"tile {TILES} read as {now}, not {was}: {why}",
                about=RECALLED,
            )
        )
    return out


def hidden_copies(layout: Layout | None) -> Counter[str]:
    """Copies of each face that a laid-out photo holds face down: the backs of each kong whose other
    tiles show its face (`S back back S`)."""
    hidden: Counter[str] = Counter()
    for group in layout.groups if layout is not None else ():
        if group.kind != "meld" or group.meld != "kong":
            continue
        shown = {code for code in group.codes if code != BACK}
        if len(shown) == 1:
            hidden[shown.pop()] += sum(1 for code in group.codes if code == BACK)
    return hidden


def damaged_warning(filled: float) -> list[str]:
    """The reader's line about a photo file damaged part-way: its decoder painted the rest flat grey,
    and the tiles there cannot be read (it decodes without an error, so nothing else would say so)."""
    if filled < FILLED_SHARE:
        return []
    return [
        f"the photo's file is damaged: {filled:.0%} of it decoded as flat grey, and no tile there can be "
        "read; send the photo again from the phone"
    ]


def small_photo_warning(image_hw: tuple[int, int] | None, scale: float = 1.0) -> list[str]:
    """A line when the photo (`image_hw` as read; `scale` from its own pixels to those) is under
    SMALL_PHOTO_PX on its long side: a thumbnail, a screenshot or a small webcam frame."""
    if not image_hw:
        return []
    height, width = (round(side / scale) for side in image_hw)
    if max(height, width) >= SMALL_PHOTO_PX:
        return []
    return [
        f"the photo is small ({width} x {height} px; under {SMALL_PHOTO_PX} px on its long side tiles are "
        "misread more often): send the phone's full-size photo, not a thumbnail or a screenshot"
    ]


def small_tiles_warning(
    xyxy: np.ndarray, det_score: np.ndarray, scale: float = 1.0, image_long: int | None = None
) -> list[str]:
    """A line when the photo's typical tile (judged on 3 boxes or more) is under SMALL_TILE_PX wide,
    or its long side under SMALL_TILE_SHARE of the photo's long side `image_long` (pixels as read).

    The widths are given in the pixels of the photo as the user has it (`scale` as in `read`), so the
    advice holds for the file they took, even when a large photo was read shrunk. Tiles small in the
    frame are missed, however many pixels they have: the detector sees the photo shrunk to its input.
    """
    typical = typical_sides(long_short_sides(np.asarray(xyxy, np.float32).reshape(-1, 4)), det_score)
    if typical is None:
        return []
    narrow = float(typical[1]) < SMALL_TILE_PX
    share = float(typical[0]) / image_long if image_long else 1.0
    if share < SMALL_TILE_SHARE:
        # rounded down, to one place of a percent: rounded, 2.49% had read "about 2.5%; under 2.5%"
        shown = math.floor(share * 1000.0) / 1000.0
        return [
            f"the tiles are small in this photo (each about {shown:.1%} of its long side; under "
            f"{SMALL_TILE_SHARE:.1%} tiles are missed more often): take it closer, or crop it to the hand"
        ]
    if not narrow:
        return []
    # the width rounded down, as the share is: 23.6 px had read "about 24 px wide; under 24 px"
    width, reliable = math.floor(float(typical[1]) / scale), SMALL_TILE_PX / scale
    return [
        f"the tiles are small in this photo (about {width} px wide; under {reliable:.0f} px tiles are "
        "misread more often): if a tile is wrong, take the photo closer or at full resolution"
    ]


def _strangers(probabilities: np.ndarray, faces: Collection[str] | None) -> list[str]:
    """For each tile that looks most like faces the set does not hold (their probabilities outside it
    sum to OUTSIDE_SET_AT_LEAST or more), the likeliest of those: a Malaysian `fly` under Singapore
    rules, bamboo under Malaysian ones. The photo may be of another rule set's tiles."""
    if faces is None or not len(probabilities):
        return []
    outside = ~face_mask(faces)
    held = np.where(outside, probabilities, 0.0)
    return [CLASSES[int(row.argmax())] for row in held[held.sum(axis=1) >= OUTSIDE_SET_AT_LEAST]]


def _outside_set_warning(strangers: Sequence[str]) -> list[str]:
    """A line asking whether the photo is of another rule set's tiles, where tiles look most like the
    faces `strangers` (`_strangers`), named in a player's words: each is read as the set's likeliest
    face."""
    if not strangers:
        return []
    look, each = ("looks", "it") if len(strangers) == 1 else ("look", "each")
    return [
        f"{count_of(len(strangers), 'tile')} {look} like {tiles_in_words(strangers)}, not in this set: "
        f"{each} is read as this set's likeliest tile. {ANOTHER_SET_QUESTION}"
    ]


# a box this share of the photo's long side from an edge, or nearer, is cut by it or about to be
EDGE_SHARE = 0.004
# A tile showing less than this share of itself gets no box: the detector learned so (the generator
# labels a tile when half of it shows, `datasets.render.MIN_VISIBLE`). A hand ending nearer the edge
# than this share of a tile's width may have lost its next tile beyond it, unboxed; one further off
# would have shown it (stage 56: a whole tile's width told 8 of the 12 real photos, rows well inside).
UNBOXED_SHARE = 0.5


def _hand_short(layout: Layout) -> bool:
    """Whether the hand laid out holds fewer tiles than a winning hand (a kong counting three)."""
    return hand_tiles(len(layout.hand["concealed"]), len(layout.hand["melds"])) < HAND_SIZE


def _at_edge(boxes: np.ndarray, image_hw: tuple[int, int]) -> np.ndarray:
    """Which boxes (K, 4) come within EDGE_SHARE of the photo's long side of its edge: cut by it."""
    height, width = image_hw
    margin = EDGE_SHARE * max(height, width)
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    at_edge = (boxes[:, 0] <= margin) | (boxes[:, 1] <= margin)
    return at_edge | (boxes[:, 2] >= width - margin) | (boxes[:, 3] >= height - margin)


def _box_gaps(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """For each of `boxes` (K, 4), the least gap (pixels; 0 where they overlap) to any of `others`."""
    if not len(others):
        return np.full(len(boxes), np.inf)
    a, b = boxes[:, None, :], others[None, :, :]
    dx = np.maximum(0.0, np.maximum(a[..., 0] - b[..., 2], b[..., 0] - a[..., 2]))
    dy = np.maximum(0.0, np.maximum(a[..., 1] - b[..., 3], b[..., 1] - a[..., 3]))
    return np.hypot(dx, dy).min(axis=1)


def _edge_gaps(boxes: np.ndarray, image_hw: tuple[int, int]) -> np.ndarray:
    """Each box's (K, 4) least distance, in pixels, to the photo's edge."""
    height, width = image_hw
    return np.minimum.reduce([boxes[:, 0], boxes[:, 1], width - boxes[:, 2], height - boxes[:, 3]])


def _edge_lines(
    xyxy: np.ndarray,
    image_hw: tuple[int, int] | None,
    layout: Layout | None,
    rejected_xyxy: np.ndarray | None = None,
) -> list[Line]:
    """A line when the photo's edge may cut the hand: a tile laid out in it (concealed, in a meld or
    a bonus tile) touches the edge, or a box left out as no tile does within a tile of the hand's
    (a tile cut in half reads as no tile, or as a flower: stage 55), or the hand is short of a winning
    hand's tiles and one of its tiles lies within half a tile's width of the edge (a tile showing less
    than half of itself gets no box: UNBOXED_SHARE). A short hand is told that part of it may lie
    outside the photo (the count alone reads as tiles misread); a whole one that a tile there may be
    misread. It names the hand's tiles there (`Line.tiles`, by number where a UI numbers them); none
    where only a box left out is (it has no number)."""
    if image_hw is None or layout is None or not len(xyxy):
        return []
    held = sorted({i for g in layout.groups if g.kind in ("concealed", "meld") for i in g.indices})
    laid = sorted(set(held) | {i for g in layout.groups if g.kind == "bonus" for i in g.indices})
    if not held:
        return []
    boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
    sides = np.sort(boxes[laid, 2:] - boxes[laid, :2], axis=1)
    tile_short, tile_long = (float(v) for v in np.median(sides, axis=0))
    rejected = np.asarray(rejected_xyxy if rejected_xyxy is not None else (), np.float32).reshape(-1, 4)
    dropped = rejected[_at_edge(rejected, image_hw)]
    touching = [i for i, at in zip(laid, _at_edge(boxes[laid], image_hw), strict=True) if at]
    cut = bool(touching) or bool((_box_gaps(dropped, boxes[laid]) <= tile_long).any())
    short = _hand_short(layout)
    close = _edge_gaps(boxes[held], image_hw) <= UNBOXED_SHARE * tile_short
    near = [i for i, at in zip(held, close, strict=True) if at]
    again = "take the photo again with the whole hand in it"
    if short and (cut or near):
        return [
            _edge_line(
                "part of the hand may lie outside the photo (take it again with the whole hand in it)",
                sorted({*touching, *near}),
                f": part of the hand may lie outside the photo; {again}",
            )
        ]
    if cut:
        them = "it" if len(touching) == 1 else "them"
        return [
            _edge_line(
                "a tile cut by it may be misread; check the tiles there (or take it again with the whole "
                "hand in it)",
                touching,
                # the numbers say which tiles: "a tile cut by it ... the tiles there" went
                f" and may be misread: check {them}, or {again}",
            )
        ]
    return []


def _edge_line(rest: str, tiles: Sequence[int], numbered_rest: str) -> Line:
    """The edge's line saying `rest`, naming `tiles` (the hand's tiles at the edge) by number, then
    `numbered_rest`."""
    touch = "touches" if len(tiles) == 1 else "touch"
    by_number = f"{tiles_slot(len(tiles))} {touch} the photo's edge{numbered_rest}" if tiles else None
    # a fault of the photo's framing (kind PHOTO): it explains a short hand's count, so the page says it
    # above the lines on tiles (an audit's page put it under the hand's size line, stage 85)
    return Line(
        f"tiles touch the photo's edge: {rest}",
        PHOTO,
        tiles=tuple(int(i) for i in tiles),
        by_number=by_number,
        about=EDGE,
    )


def _rejected_lines(
    rejected_xyxy: np.ndarray,
    scale: float = 1.0,
    image_hw: tuple[int, int] | None = None,
    frame_xy: np.ndarray | None = None,
) -> list[Line]:
    """Lines naming where boxes were left out: as holding no tile, or, at the photo's edge, as cut
    too much to read (a half tile there is a tile: stage 55, an audit's photo said it held none).
    `image_hw`: the photo's size; `frame_xy`: where it lies in the image, as (x1, y1, x1, y1) (a
    photo on a screenshot's canvas), the boxes named in the image's pixels."""
    if not len(rejected_xyxy):
        return []
    within = rejected_xyxy - (0.0 if frame_xy is None else frame_xy)
    edge = _at_edge(within, image_hw) if image_hw is not None else np.zeros(len(rejected_xyxy), bool)
    out = []
    for which, what in ((np.flatnonzero(~edge), "that hold no tile"), (np.flatnonzero(edge), _CUT_BOXES)):
        if len(which):
            places = first_places([box_place(rejected_xyxy[i], scale) for i in which])
            what = "that holds no tile" if len(which) == 1 and what == "that hold no tile" else what
            said = f"left out {count_of(len(which), 'box', 'boxes')} {what}"
            left_out = tuple(int(i) for i in which)
            out.append(Line(f"{said}, at {places}", TILE, left_out=left_out, unplaced=said))
    return out


_CUT_BOXES = "at the photo's edge, too cut to read as a tile"


def _detections(
    boxes: np.ndarray,
    det_score: np.ndarray,
    probabilities: np.ndarray,
    class_id: np.ndarray,
    angle: np.ndarray | None = None,
) -> Detections:
    """The tiles read as `class_id`, each as sure as the weaker of its box and its reading."""
    class_prob = probabilities[np.arange(len(class_id)), class_id]
    return Detections(
        xyxy=boxes.astype(np.float32),
        confidence=(det_score * class_prob).astype(np.float32),
        class_id=np.asarray(class_id, np.int64),
        angle=angle,
    )


# A tile the layout reads as face-down on weak evidence (`Layout.doubtful`) is at most this sure, under
# UNSURE_BELOW, so that the app and `--annotate` mark it for the user to check: a covered or oddly lit
# face-up tile reads as a back with the classifier quite sure of it (an audit's photos, stage 55).
DOUBTFUL_AT_MOST = 0.5


def with_doubtful(detections: Detections, doubtful: Sequence[int]) -> Detections:
    """`detections` with the tiles `doubtful` made no surer than DOUBTFUL_AT_MOST."""
    if not len(doubtful):
        return detections
    confidence = detections.confidence.copy()
    rows = np.asarray(doubtful, np.int64)
    confidence[rows] = np.minimum(confidence[rows], DOUBTFUL_AT_MOST)
    return replace(detections, confidence=confidence)


# A box whose likeliest face is under INSIDE_UNSURE_BELOW and that lies INSIDE_SHARE or more of its own
# area within a box the detector scores higher and the classifier reads surer is dropped when the
# reading is settled (`kept_boxes`): a box straddling two tiles, or a second box on a tile read
# already, was the commonest false box on generated scenes (stage 84's probe), and such a box reads no
# face surely where a tile's own box does. Chosen on HELDOUT3 and a pool of 80 scenes (seed 7171) over
# bars 0.3-0.6 and shares 0.4-0.7: a bar of 0.5 or 0.6 lost more tiles read right (4 and 6 on HELDOUT3), a
# share of 0.4 lost 6 and an exact photo there, one of 0.6 or more dropped little (docs/vision.md).
INSIDE_UNSURE_BELOW = 0.4
INSIDE_SHARE = 0.5
# A box the detector scores under DOUBTED_BELOW that lies DOUBTED_SHARE or more of its own area within a
# box the classifier reads surer is dropped too (`box_filters.doubted_inside_surer`): the second boxes
# on a tile and the boxes slid half onto a neighbour left by the rule above, read 0.4 or surer (stage
# 84). Chosen on HELDOUT3 and the seed-7171 pool: a share of 0.6-0.62 lost 4-7 tiles read right on
# HELDOUT3, 0.68 dropped fewer false boxes, 0.7 none; with the share at 0.65 a bar of 0.7-0.8 read the
# same, and no bar at all lost a pool tile the detector scored 0.8 (docs/vision.md).
DOUBTED_BELOW = 0.75
DOUBTED_SHARE = 0.65


def kept_boxes(seen: Seen) -> Seen:
    """`seen` less its boxes read unsurely inside a box both models prefer
    (`box_filters.unsure_inside_surer`) and its boxes the detector doubts deep inside a box read
    surer (`box_filters.doubted_inside_surer`), dropped as the detector's own filters drop a box
    (not left out as holding no tile); `seen` itself where none is."""
    likeliest = seen.probabilities.max(axis=1, initial=0.0)
    drop = unsure_inside_surer(seen.xyxy, seen.det_score, likeliest, INSIDE_UNSURE_BELOW, INSIDE_SHARE)
    drop |= doubted_inside_surer(seen.xyxy, seen.det_score, likeliest, DOUBTED_BELOW, DOUBTED_SHARE)
    if not drop.any():
        return seen
    kept = np.flatnonzero(~drop)
    renumbered = {int(old): new for new, old in enumerate(kept)}
    return replace(
        seen,
        xyxy=seen.xyxy[kept],
        det_score=seen.det_score[kept],
        probabilities=seen.probabilities[kept],
        angle=seen.angle[kept],
        whited=tuple(renumbered[i] for i in seen.whited if i in renumbered),
        descriptors=None if seen.descriptors is None else seen.descriptors[kept],
    )


@dataclass(frozen=True)
class TileReader:
    """The loaded models; `read` is safe to call from many threads at once (no mutable state)."""

    detector: TileDetector
    classifier: TileClassifier
    layout: LayoutFn = _default_layout
    grid: int | None = None  # detector windows per side; None = the sidecar's `grid` (default 1)
    # Read no face more often than one set holds it (vision.tile_set); False: each tile's first choice.
    within_set: bool = True
    # Photos show winning hands: move one or two unsure tiles to a runner-up when only that makes a win.
    complete_wins: bool = True
    # A photo with a shorter long side is read enlarged to this many pixels (`enlarged`); 0: as given.
    enlarge_to: int = ENLARGE_TO
    # A hand photographed at a slant is read again turned square (vision.square); False: as it lies.
    square: bool = True
    # A hand whose rows run up and down the photo is read turned a quarter (vision.quarter).
    rows_across: bool = True

    @classmethod
    def load(
        cls,
        models_dir: str | Path | None = None,
        *,
        providers: Sequence[str] = DEFAULT_PROVIDERS,
        threads: int = DEFAULT_THREADS,
        grid: int | None = None,
    ) -> TileReader:
        """Load both models from `models_dir` (default: the repository's models/); ModelError if unusable."""
        directory = Path(models_dir) if models_dir is not None else DEFAULT_MODELS_DIR
        config = load_config(directory)
        detector = TileDetector.from_session(
            make_session(directory / config.detector.file, providers, threads), config.detector
        )
        classifier = TileClassifier.from_session(
            make_session(directory / config.classifier.file, providers, threads), config.classifier
        )
        if classifier.describes:
            classifier = replace(classifier, look_key=look_key(directory / config.classifier.file))
        if config.second_look is not None:
            second_look = SecondLook.from_session(
                make_session(directory / config.second_look.file, providers, threads),
                config.second_look,
                config.classifier.imgsz,
                classifier.turns,
            )
            classifier = replace(classifier, second_look=second_look)
        if config.text_look is not None:
            text_look = TextLook.from_session(
                make_session(directory / config.text_look.file, providers, threads), config.text_look
            )
            classifier = replace(classifier, text_look=text_look)
        if config.glyphs is not None:
            glyphs = GlyphReader.from_session(glyph_session(config.glyphs, providers, threads), config.glyphs)
            classifier = replace(classifier, glyphs=glyphs)
        if config.rank_look is not None:
            rank_look = RankLook.from_session(
                make_session(directory / config.rank_look.file, providers, threads), config.rank_look
            )
            classifier = replace(classifier, rank_look=rank_look)
        if config.pip_look is not None:
            pip_look = PipLook.from_session(
                make_session(directory / config.pip_look.file, providers, threads), config.pip_look
            )
            classifier = replace(classifier, pip_look=pip_look)
        return cls(detector=detector, classifier=classifier, grid=grid)

    def read_tiles(
        self,
        rgb: np.ndarray,
        lap: Callable[[str], None] = lambda stage: None,
        detected: Detected | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The boxes taken for tiles in a contiguous (H, W, 3) uint8 RGB photo, their detector scores
        and class probabilities (every look applied, no set or win rule yet), and the boxes
        rejected as no tile; `lap(stage)` is called after detect, crop and classify. `detected`: the
        detector's output for this photo where it has been run already (`detect_with_candidates`)."""
        if detected is None:
            detected = self.detector.detect_with_candidates(rgb, self.grid)
        boxes, det_score, candidates, candidate_score = detected
        lap("detect")
        config = self.classifier.config
        crops = crop_tiles(rgb, boxes, config.imgsz, config.crop_margin)
        lap("crop")
        probabilities, not_tile = self.classifier.read_boxes(rgb, boxes, crops)
        if len(candidates):
            # read apart: the looks that pick boxes among the photo's (the names' at most eight)
            # then choose among the sure boxes as they would without the second chance
            more, more_not_tile = self.classifier.read_boxes(rgb, candidates)
            sure = surely_read(more, more_not_tile, self.detector.config)
            boxes = np.concatenate([boxes, candidates[sure]])
            det_score = np.concatenate([det_score, candidate_score[sure]])
            probabilities = np.concatenate([probabilities, more[sure]])
            not_tile = np.concatenate([not_tile, more_not_tile[sure]])
        lap("classify")
        tile = not_tile <= config.reject_above
        if config.odd_shape is not None:
            tile &= ~odd_and_unsure(
                boxes,
                det_score,
                probabilities.max(axis=1),
                config.odd_shape,
                config.odd_shape_below,
                config.odd_shape_unsure,
            )
        rejected_xyxy = boxes[~tile].astype(np.float32)
        return boxes[tile], det_score[tile], probabilities[tile], rejected_xyxy

    def _read_at_best_gain(
        self, given: np.ndarray, lap: Callable[[str], None], first: FirstLook | None = None
    ) -> tuple[float, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """(gain, the photo brightened by it, `read_tiles` of it) at the gain of `exposure.gains` whose
        reading finds the most tiles: one read, or two where a light in the frame leaves it unclear.
        `first`: the photo's gains and the detector's output at the first, where already worked out."""
        photo_gains, first_detected = first if first is not None else (gains(given), None)
        best: tuple[float, np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] | None = None
        for k, gain in enumerate(photo_gains):
            rgb = with_gain(given, gain)
            tiles = self.read_tiles(rgb, lap, first_detected if k == 0 else None)
            if best is None or len(tiles[0]) > len(best[2][0]):
                best = (gain, rgb, tiles)
        assert best is not None  # gains() gives at least one
        return best

    def _rows_across(
        self, given: np.ndarray, big: np.ndarray
    ) -> tuple[bool, np.ndarray, np.ndarray, FirstLook | None]:
        """(turned, `given`, `big` (`given` as read: enlarged or itself), `big`'s gains and the
        detector's output at the first, to read on): both turned a quarter where the detector's boxes
        lie in rows up and down (`vision.quarter`), to be read from the start; as they are otherwise,
        with what told it."""
        if not self.rows_across:
            return False, given, big, None
        photo_gains = gains(big)
        detected = self.detector.detect_with_candidates(with_gain(big, photo_gains[0]), self.grid)
        if not rows_up_and_down(detected[0]):
            return False, given, big, (photo_gains, detected)
        turned = turned_quarter(given)
        return True, turned, turned if big is given else turned_quarter(big), None

    def see(self, rgb: np.ndarray, lap: Callable[[str], None] = lambda stage: None) -> Seen:
        """What the models make of one upright (H, W, 3) uint8 RGB photo, before any rule of a set
        (`read_tiles` and each box's angle); `lap` as in `read_tiles`. A photo shown on a screenshot's
        canvas (`vision.canvas`) is read alone, its boxes given in the whole image's pixels."""
        if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
            raise ValueError(f"expected an (H, W, 3) uint8 RGB image, got {rgb.shape} {rgb.dtype}")
        frame = content_xyxy(rgb)
        if frame is None:
            return self._see(rgb, lap)
        x1, y1, x2, y2 = frame
        inner = self._see(rgb[y1:y2, x1:x2], lap)
        shift = np.array([x1, y1, x1, y1], np.float32)
        return replace(
            inner,
            xyxy=(inner.xyxy + shift).astype(np.float32),
            rejected_xyxy=(inner.rejected_xyxy.reshape(-1, 4) + shift).astype(np.float32),
            image_hw=(int(rgb.shape[0]), int(rgb.shape[1])),
            content_xyxy=frame,
            # a damaged file's flat grey is the decoder's, wherever it lies in the image
            filled=decoder_filled_share(rgb),
            glare=tuple((x + x1, y + y1) for x, y in inner.glare),
        )

    def _see(self, rgb: np.ndarray, lap: Callable[[str], None]) -> Seen:
        """`see` of the photo itself (no canvas round it)."""
        rgb = np.ascontiguousarray(rgb)  # OpenCV needs it; a flipped or sliced view is not
        photo = rgb  # as given: a glare spot is looked for here, the boxes mapped back to it
        white = white_share(rgb)
        filled = decoder_filled_share(rgb)
        given = rgb
        given_hw = (int(given.shape[0]), int(given.shape[1]))
        big, factor = enlarged(given, self.enlarge_to)
        across, given, big, first = self._rows_across(given, big)
        gain, rgb, (boxes, det_score, probabilities, rejected_xyxy) = self._read_at_best_gain(big, lap, first)
        slant = slant_to_square(boxes, probabilities) if self.square else None
        if slant is not None:  # each box read again on the photo turned square (vision.square)
            turn = around_boxes(turn_for(rgb.shape[:2], slant, turned_scale(boxes)), boxes)
            turned_xyxy, _, turned_probabilities, _ = self.read_tiles(turned_photo(rgb, turn), lap)
            if fits_closer(boxes, turned_xyxy, turn.scale):
                back_xyxy = boxes_back(turned_xyxy, turn, rgb.shape[:2])
                probabilities = with_square_reading(probabilities, boxes, turned_probabilities, back_xyxy)
        if factor != 1.0:  # the boxes in the photo's own pixels, and the rest judged there
            boxes, rejected_xyxy = boxes / factor, rejected_xyxy / factor
            rgb = with_gain(given, gain)
        # in a dark photo, a box of white-out where the tile faces are not holds a light
        # (vision.exposure.lit_boxes); a lit photo's tiles may be white-out where the light falls
        lit = lit_boxes(given, boxes) if gain > 1.0 else np.zeros(len(boxes), bool)
        if lit.any():
            rejected_xyxy = np.concatenate([rejected_xyxy.reshape(-1, 4), boxes[lit]])
            boxes, det_score, probabilities = boxes[~lit], det_score[~lit], probabilities[~lit]
        # each tile's angle, for the layout to tell a bonus tile laid down from one dropped askew
        angle = box_angles(rgb, boxes)
        lap("angles")
        blur = photo_blur(rgb, boxes, probabilities, angle)
        whole = whole_photo_blur(rgb, boxes) if blur is None else None
        lap("sharpness")
        if across:  # back into the photo's own pixels; a box's angle, up to a quarter turn, is the same
            boxes, rejected_xyxy = quarter_back(boxes, given_hw), quarter_back(rejected_xyxy, given_hw)
        glare, whited = glare_look(photo, boxes, det_score, rejected_xyxy)
        lap("glare")
        return Seen(
            xyxy=boxes.astype(np.float32),
            det_score=det_score.astype(np.float32),
            probabilities=probabilities.astype(np.float32),
            angle=np.asarray(angle, np.float32),
            rejected_xyxy=rejected_xyxy.astype(np.float32),
            image_hw=given_hw,
            gain=gain,
            white=white,
            filled=filled,
            sharpness=None if blur is None else blur.sharpness,
            evenness=None if blur is None else blur.even,
            whole_sharpness=None if whole is None else whole.sharpness,
            whole_evenness=None if whole is None else whole.even,
            glare=glare,
            whited=whited,
        )

    def read(
        self,
        rgb: np.ndarray,
        source_scale: float = 1.0,
        faces: Collection[str] | None = None,
        memory: SetMemory | None = None,
        describe: bool = False,
    ) -> Reading:
        """Tiles and layout of one upright (H, W, 3) uint8 RGB photo. Boxes are in `rgb`'s pixels;
        the warnings name places in the pixels of the photo as the user has it, `rgb` being
        `source_scale` times its size (`LoadedImage.scale`: large photos are read shrunk).
        `faces`: the faces of the set the photo shows (a rule set's `set_tiles`), each tile read as
        one of them (`back` always allowed); None: any face the classifier knows. `memory`: the set's
        tiles confirmed before, each tile looking like one read with its help (`vision.set_memory`);
        `describe`: keep each box's look in `Reading.seen` (to teach a memory once the user confirms
        the hand) where no memory is given."""
        timings: dict[str, float] = {}
        clock = time.perf_counter()

        def lap(stage: str) -> None:
            nonlocal clock
            now = time.perf_counter()
            # a stage run twice (a second gain, the photo turned square) counts both times
            timings[stage] = round(timings.get(stage, 0.0) + (now - clock) * 1000.0, 2)
            clock = now

        seen = self.see(rgb, lap)
        if (describe or memory is not None) and self.classifier.describes:
            seen = replace(seen, descriptors=self.classifier.describe(rgb, seen.xyxy))
            lap("describe")
        return self.settle(seen, faces, source_scale, timings, memory)

    def settle(
        self,
        seen: Seen,
        faces: Collection[str] | None = None,
        source_scale: float = 1.0,
        timings: Mapping[str, float] | None = None,
        memory: SetMemory | None = None,
    ) -> Reading:
        """The tiles `seen` read as one set of `faces` (None: any face), kept to its copies, moved to
        a win where only that makes one, and laid out (`read` without the models: a photo read once
        can be settled again for another rule set). `timings`: the stages already timed."""
        timings = dict(timings or {})
        clock = time.perf_counter()
        given = seen  # what the models saw, kept whole in the reading (settled again, it drops the same)
        seen = kept_boxes(seen)
        boxes, det_score, angle, rejected_xyxy = seen.xyxy, seen.det_score, seen.angle, seen.rejected_xyxy
        recall = _recall(memory, seen)
        probabilities = within_faces(seen.probabilities if recall is None else recall.probabilities, faces)
        strangers = _strangers(seen.probabilities, faces)
        class_id = (
            assign_within_set(probabilities, faces) if self.within_set else probabilities.argmax(axis=1)
        ).astype(np.int64)
        # The win check lays the tiles out as it tries readings; each reading is laid out once.
        laid_out: dict[bytes, tuple[Layout | None, tuple[str, ...]]] = {}

        def lay_out(read_as: np.ndarray) -> tuple[Layout | None, tuple[str, ...]]:
            key = np.asarray(read_as, np.int64).tobytes()
            if key not in laid_out:
                laid_out[key] = self.layout(_detections(boxes, det_score, probabilities, read_as, angle))
            return laid_out[key]

        hidden = hidden_copies(lay_out(class_id)[0]) if self.within_set else Counter()
        if hidden and not keeps_to_set(class_id, faces, hidden):
            # a concealed kong's backs are copies of its face too: the tiles read face up keep to
            # what the set has left (an audit's photo had read 6 S beside an S kong laid S back back S),
            # where the kongs still lie so read (a kong's own face tiles re-read would undo them)
            settled = assign_within_set(probabilities, faces, hidden).astype(np.int64)
            if hidden_copies(lay_out(settled)[0]) == hidden:
                class_id = settled
        win_moved: tuple[int, ...] = ()
        win_options: tuple[tuple[tuple[int, int], ...], ...] = ()
        if self.complete_wins:
            fix = complete_to_win(probabilities, class_id, lambda read_as: lay_out(read_as)[0])
            class_id, win_moved, win_options = fix.class_id, fix.moved, fix.rivals
        detections = _detections(boxes, det_score, probabilities, class_id, angle)
        class_prob = probabilities[np.arange(len(class_id)), class_id].astype(np.float32)
        lines: list[Line] = [] if len(detections) else lines_of(["no tiles found"], TILE)
        lines += lines_of(damaged_warning(seen.filled), PHOTO, DAMAGED)  # first: it explains every other line
        # before the unsure tiles: it may explain them
        lines += lines_of(dark_warning(seen.gain), PHOTO, DARK)
        lines += face_glare_lines(boxes, _whited_unsure(probabilities, seen.whited), source_scale)
        lines += glare_lines(seen.glare, source_scale)  # so may a glare spot, and a tile short
        lines += blur_lines(seen.sharpness, seen.evenness)  # so may a blur or a shake
        # and where too few faces are left to judge, the whole photo's: why (almost) no tile was found
        lines += whole_blur_lines(seen.whole_sharpness, seen.whole_evenness)
        # the photo's own frame: on a screenshot's canvas, the photo shown there (its edge cuts tiles)
        frame = seen.frame()
        frame_xy = np.zeros(4, np.float32) if frame is None else np.array(frame[0][:2] * 2, np.float32)
        frame_hw = None if frame is None else frame[1]
        # first: it explains the unsure tiles named after it
        image_long = max(frame_hw) if frame_hw else None
        lines += lines_of(small_photo_warning(frame_hw, source_scale), PHOTO, SMALL_PHOTO)
        # a fault of the photo, as a small one is: its remedy is to take it again, closer
        lines += lines_of(
            small_tiles_warning(detections.xyxy, det_score, source_scale, image_long), PHOTO, SMALL_TILES
        )
        lines += _uncertain_lines(detections, probabilities, source_scale)
        lines += _set_lines(detections, probabilities, win_moved, source_scale)
        lines += _win_lines(detections, probabilities, win_moved, source_scale)
        lines += _win_option_lines(detections, win_options, source_scale)
        recalled_tiles: tuple[int, ...] = ()
        if recall is not None:
            # compared within the set, as the models alone would have read it: a face outside the set
            # was never theirs to read, nor is a move within it to be left unsaid
            models_read = within_faces(seen.probabilities, faces)
            recalled_tiles = _recalled(models_read, probabilities, class_id)
            lines += _recalled_lines(detections, models_read, recalled_tiles, source_scale)
        lines += _rejected_lines(rejected_xyxy, source_scale, frame_hw, frame_xy)
        lines += lines_of(_outside_set_warning(strangers), TILE, OTHER_SET)
        layout, layout_warnings = lay_out(class_id)
        detections = with_doubtful(detections, layout.doubtful if layout is not None else ())
        edge = _edge_lines(
            detections.xyxy - frame_xy, frame_hw, layout, rejected_xyxy.reshape(-1, 4) - frame_xy
        )
        if layout is None or _hand_short(layout):
            lines += lines_of(overexposed_warning(seen.white), PHOTO, WHITE_OUT)
        # then the layout's lines, and the edge's (it judges the hand laid out)
        lines += [*layout_lines(layout, layout_warnings), *edge]
        said = first_of_each(lines)
        timings["layout"] = round((time.perf_counter() - clock) * 1000.0, 2)
        timings["total"] = round(sum(v for k, v in timings.items() if k != "total"), 2)
        return Reading(
            detections=detections,
            layout=layout,
            warnings=texts(said),
            timings_ms=timings,
            det_score=det_score.astype(np.float32),
            class_prob=class_prob,
            probabilities=probabilities.astype(np.float32),
            rejected_xyxy=rejected_xyxy,
            win_moved=win_moved,
            win_options=win_options,
            seen=given,
            faces=None if faces is None else frozenset(faces),
            strangers=tuple(strangers),
            lines=said,
            recalled=recalled_tiles,
            descriptors=seen.descriptors,
        )
