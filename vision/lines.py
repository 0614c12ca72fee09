"""The reader's warnings as facts: each line's words and what it names, for a UI that names them its way.

`python -m vision` prints a line's words as they are (`Line.text`: a tile, a glare spot or a box left out
named by its pixel place). The app names a tile by its number in its table and shows spots and boxes on
the photo, so it reads what a line names from the line's fields (`tiles`, `spots`, `left_out`), its
words without places from `unplaced` and by tile number from `by_number`, where it stands on the page
from `kind`, and what it is about, where a UI says that its own way, from `about`: never from the words,
which a reworded line would change (the page had parsed the places back out of the text, and a reworded
line had silently lost its tile numbers).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Kind = Literal["photo", "tile", "layout"]
# the photo's own faults (a damaged file; a small, dark, white, blurred or shaken photo; tiles small in it;
# glare): each may explain the lines on the tiles, and its remedy (take it again) mends them all
PHOTO: Kind = "photo"
# the reader's lines on tiles and on the boxes it found or left out
TILE: Kind = "tile"
# the layout's lines on the hand it laid out (its groups, tiles away from it, a second hand)
LAYOUT: Kind = "layout"

About = Literal[
    "unsure",
    "set_copies",
    "win_moved",
    "win_ways",
    "other_set",
    "second_hand",
    "meld_rival",
    "recalled",
    "damaged",
    "dark",
    "face_glare",
    "glare",
    "blurred",
    "shaken",
    "whole_blurred",
    "whole_shaken",
    "small_photo",
    "small_tiles",
    "white_out",
    "edge",
]
# a tile read unsurely (its face or the runner-up), from the reading's own probabilities
UNSURE: About = "unsure"
# a tile read as its runner-up because a set holds only so many of its first choice
SET_COPIES: About = "set_copies"
# a tile read as its runner-up because only so do the tiles make a win (`Reading.win_moved`)
WIN_MOVED: About = "win_moved"
# the ways, about as likely, that one or two tiles read otherwise would make a win (`Reading.win_options`)
WIN_WAYS: About = "win_ways"
# the reader's lines on a tile's reading: a UI that marks each tile with its reading and runner-up
# (from `Reading.probabilities`, `win_moved`, `win_options`) says these its own way, by tile number
TILE_READINGS: frozenset[About] = frozenset({UNSURE, SET_COPIES, WIN_MOVED, WIN_WAYS})
# the question whether the photo is of another rule set's tiles (`Reading.strangers`)
OTHER_SET: About = "other_set"
# the photo seems to hold more than one hand: every other line is in doubt
SECOND_HAND: About = "second_hand"
# melds at the hand's end about as likely read the other way (`vision.layout.Layout.rival`)
MELD_RIVAL: About = "meld_rival"
# a tile read otherwise than the models read it: it looks like a face of this set the user confirmed in
# an earlier photo (`vision.set_memory`)
RECALLED: About = "recalled"

# The photo's own faults (its PHOTO lines), one each, so that what fires can be counted (`python -m
# vision.bench` tallies them per set) and told apart without reading the words:
# the photo's file damaged part-way (decoded flat grey)
DAMAGED: About = "damaged"
# a dark photo, read brightened
DARK: About = "dark"
# glare whites out the faces of tiles read unsure
FACE_GLARE: About = "face_glare"
# glare spots white out parts of the photo by the tiles
GLARE: About = "glare"
# the tiles' faces blurred (a missed focus) or smeared one way (a shake)
BLURRED: About = "blurred"
SHAKEN: About = "shaken"
# too few faces to judge, and the whole photo blurred or shaken
WHOLE_BLURRED: About = "whole_blurred"
WHOLE_SHAKEN: About = "whole_shaken"
# a small photo (a thumbnail, a screenshot), and tiles small in the photo
SMALL_PHOTO: About = "small_photo"
SMALL_TILES: About = "small_tiles"
# a photo overexposed, or all white
WHITE_OUT: About = "white_out"
# the photo's edge cuts the hand, or may: its tiles there may be misread, or part of it lie outside
EDGE: About = "edge"
# the photo's faults in the order the reader says them (a tally lists each, fired or not)
PHOTO_FAULTS: tuple[About, ...] = (
    DAMAGED,
    DARK,
    FACE_GLARE,
    GLARE,
    BLURRED,
    SHAKEN,
    WHOLE_BLURRED,
    WHOLE_SHAKEN,
    SMALL_PHOTO,
    SMALL_TILES,
    WHITE_OUT,
    EDGE,
)
# the lines on tiles and on the layout that say what they are about, in the order above
TILE_ABOUTS: tuple[About, ...] = (
    UNSURE,
    SET_COPIES,
    WIN_MOVED,
    WIN_WAYS,
    OTHER_SET,
    SECOND_HAND,
    MELD_RIVAL,
    RECALLED,
)

# where a line's `by_number` names its `tiles`, as the UI numbers them ("7", "7, 9" or "3, 7–9")
TILES = "{tiles}"


def count_of(count: int, noun: str, plural: str | None = None) -> str:
    """`count` of `noun` in words a player reads ("1 box", "2 boxes"; `plural` where an s is not it),
    not "2 box(es)", which an audit found in a reader's line."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def tiles_slot(count: int) -> str:
    """Where `by_number` names `count` tiles: "tile {tiles}" or "tiles {tiles}"."""
    return f"tile {TILES}" if count == 1 else f"tiles {TILES}"


# a run's dash, held to its numbers by word joiners: a phone broke "28–31" after the dash (an en dash
# allows a line break after it), leaving "28–" at a line's end
SPAN_DASH = "\u2060–\u2060"


def number_spans(numbers: Iterable[int]) -> str:
    """Tile numbers in order, a run of three or more as its ends ("14, 15, 17–19"): a layout's line names
    up to a hand's worth of tiles, which listed one by one read as a wall of digits."""
    ordered = sorted(set(numbers))
    spans: list[list[int]] = []
    for n in ordered:
        if spans and n == spans[-1][-1] + 1:
            spans[-1].append(n)
        else:
            spans.append([n])
    return ", ".join(
        f"{span[0]}{SPAN_DASH}{span[-1]}" if len(span) >= 3 else ", ".join(str(n) for n in span)
        for span in spans
    )


@dataclass(frozen=True)
class Line:
    """One warning of the reader: `text`, its words; `kind` (PHOTO, TILE or LAYOUT); the detections it
    names by place (`tiles`, indices in its order), the glare spots' centres (`spots`, in the pixels of
    the photo as read) and the boxes left out (`left_out`, indices into `Reading.rejected_xyxy`);
    `unplaced`, its words without the places (None: it names none), and `by_number`, its words with
    TILES where a UI's numbers for `tiles` go (None: it has no such words); `about`, what it tells where a
    UI may say that its own way (UNSURE ... MELD_RIVAL) or, on a PHOTO line, which fault of the photo it
    names (`PHOTO_FAULTS`; None: nothing such)."""

    text: str
    kind: Kind = TILE
    tiles: tuple[int, ...] = ()
    spots: tuple[tuple[float, float], ...] = ()
    left_out: tuple[int, ...] = ()
    unplaced: str | None = None
    by_number: str | None = None
    about: About | None = None

    def without_places(self) -> str:
        """The line as a UI that shows its places on the photo says it."""
        return self.text if self.unplaced is None else self.unplaced

    def numbered(self, number: Mapping[int, int]) -> str | None:
        """The line naming its `tiles` by `number` (detection index: the UI's tile number), in order and a
        run as its ends (`number_spans`); None where it has no such words or a tile it names has none."""
        if self.by_number is None or not self.tiles or any(i not in number for i in self.tiles):
            return None
        return self.by_number.replace(TILES, number_spans(number[i] for i in self.tiles))


def lines_of(words: Iterable[str], kind: Kind, about: About | None = None) -> list[Line]:
    """Lines of `kind` (about `about`) naming nothing by place, one for each of `words`."""
    return [Line(text, kind, about=about) for text in words]


def lines_saying(lines: Iterable[Line], warnings: Iterable[str], kind: Kind) -> tuple[Line, ...]:
    """`lines` where they say `warnings`, one for each in their order; else each of `warnings` as a line
    of `kind` naming nothing (a reading or a layout made by hand, or a stand-in, has warnings alone)."""
    own, said = tuple(lines), tuple(warnings)
    return own if texts(own) == said else tuple(lines_of(said, kind))


def first_of_each(lines: Sequence[Line]) -> tuple[Line, ...]:
    """`lines` with each text kept once, where it first stands (the reader's warnings are de-duplicated)."""
    kept: dict[str, Line] = {}
    for line in lines:
        kept.setdefault(line.text, line)
    return tuple(kept.values())


def texts(lines: Iterable[Line]) -> tuple[str, ...]:
    """The words of `lines`, in their order."""
    return tuple(line.text for line in lines)
