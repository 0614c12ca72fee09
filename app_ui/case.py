"""The case the user is scoring, as values: its tile rows, the base they start from (a photo's reading
or a typed hand), how the hand was won, and the tile table's groups and codes.

The tile table is the single source of truth for the hand. A photo reading or a typed hand gives the
*base* rows; the user's edits (the data editor's edit state: edited, added and deleted rows) are kept
separately so they can be shown, undone, and written into the case JSON as the corrections.

What is done with these values lives beside them, a module per concept: the table's edits and
corrections (`table_edits`), the rows built into a hand (`hand_build`), a photo's reading as rows
(`photo_rows`), the tile set read (`tile_sets`), the case file written (`case_file`) and opened again
(`case_open`).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.hand import MAX_MELDS as MAX_MELDS
from vision.classes import BONUS_CODES, CLASSES
from vision.detections import UNSURE_BELOW

HAND = "hand"
BONUS = "bonus"
IGNORE = "ignore"
MELD_GROUPS: tuple[str, ...] = tuple(f"meld {k}" for k in range(1, MAX_MELDS + 1))
# What the "group" column may say: concealed hand tiles, declared melds, bonus row, or not part of the hand.
GROUPS: tuple[str, ...] = (HAND, *MELD_GROUPS, BONUS, IGNORE)
# Every tile code a user can pick; `back` is kept so a face-down kong tile read from a photo stays valid.
TILE_CODES: tuple[str, ...] = CLASSES
# Below this confidence (box score x reading probability) a tile is flagged for the user to check.
LOW_CONFIDENCE = UNSURE_BELOW
WIND_LABELS = {"E": "East", "S": "South", "W": "West", "N": "North"}


@dataclass(frozen=True)
class TileRow:
    """One tile of the case: its code, which group it belongs to, and where it came from on the photo."""

    code: str
    group: str = HAND
    confidence: float | None = None
    box: tuple[float, float, float, float] | None = None
    # The reader's second guess for this tile, offered when it is unsure.
    alternative: str | None = None
    # The tile's number in the table and on the photo where it is not its place in the rows: rows
    # deleted or added before it were folded in (an undo, a way taken, a reload), and the photo's
    # labels and the corrections still name it by the number it was read with (stage 55). Where a
    # tile sits, not what it is: rows compare without it.
    number: int | None = field(default=None, compare=False)

    @property
    def low_confidence(self) -> bool:
        return self.confidence is not None and self.confidence < LOW_CONFIDENCE

    @property
    def to_check(self) -> bool:
        """Whether the page asks the user to check this tile: unsure, and counted. A tile left out of
        the hand (`IGNORE`, "not counted") scores nothing whatever its face (a walkthrough: a stray
        tile away from the hand was marked "?" and its second guess offered, and taking it kept a
        rule-set switch from reading the tiles again)."""
        return self.low_confidence and self.group != IGNORE


@dataclass(frozen=True)
class Context:
    """What a photo cannot show: how the hand was won."""

    seat_wind: str = "E"
    prevailing_wind: str = "E"
    self_drawn: bool = False
    winning_tile: str | None = None
    circumstances: tuple[str, ...] = ()
    pay_all: bool = False
    # the seat that discarded the winning tile, or under pay-all the liable player's: names the payers
    discarder_wind: str | None = None
    # bonus tiles held from the deal (doubling their instant payouts), of the hand's bonus row
    bonus_from_deal: tuple[str, ...] = ()
    # where the winning discard went, as the table agreed: "hand" or "meld"; None: not said (the place
    # that scores more counts)
    winning_tile_into: str | None = None


@dataclass(frozen=True)
class HandBuild:
    """The scoring input built from the tile rows, or the problems that stop it being built."""

    hand: dict[str, Any]
    problems: tuple[str, ...] = ()
    meld_groups: tuple[str, ...] = ()
    # the tiles of each group laid as a meld that is no chow, pong or kong (or lies face down), left
    # out of `hand`: a case file keeps them among its melds, so that replayed it is refused as the page
    # refused it, every tile there
    unfinished: tuple[tuple[str, ...], ...] = ()
    # the meld groups laid with a face-down tile: a kong there is concealed unless the user says otherwise
    face_down_groups: tuple[str, ...] = ()


@dataclass(frozen=True)
class MeldOffer:
    """Melds at one end of a photo's hand that the reader read one way and asks about the other
    (`vision.layout.MeldRival`), by tile number: `laid` True, read as concealed tiles and offered as
    exposed melds; False, read as exposed melds and offered as part of the concealed hand. `kinds`:
    each meld's kind (chow, pong)."""

    laid: bool
    melds: tuple[tuple[int, ...], ...]
    kinds: tuple[str, ...]
    line: str = ""  # the reader's line asking about them (`meld_offer.offer_line`), dropped once answered


@dataclass(frozen=True)
class Base:
    """Where the base rows came from (a photo or a typed hand) and the rows themselves."""

    rows: tuple[TileRow, ...] = ()
    source: str = "none"  # "photo", "typed" or "none"
    name: str = ""
    sha256: str = ""
    size: tuple[int, int] | None = None
    meld_concealed: Mapping[str, bool] = field(default_factory=dict)
    layout_hand: Mapping[str, Any] | None = None
    warnings: tuple[str, ...] = ()
    timings: Mapping[str, float] = field(default_factory=dict)
    # The ways the reader found, about as likely, that one or two tiles read otherwise make a win:
    # each (tile number, code) pairs, numbered as the photo's reading; offered, never taken unasked.
    win_ways: tuple[tuple[tuple[int, str], ...], ...] = ()
    # Once the user takes a way, `rows` are no longer the photo's reading: that stays in `as_read`, and
    # the corrections folded into `rows` (theirs and the way's, numbered as the table was) in `earlier`.
    as_read: AsRead | None = None
    earlier: tuple[Mapping[str, Any], ...] = ()
    # True once a way is taken: the ways are offered no more. Edits folded into `rows` leave them open,
    # as every tile keeps its number (`TileRow.number`); a way naming a tile deleted since goes alone.
    ways_closed: bool = False
    # An opened case's record as it was saved (its `source`, `photo_tiles` and `corrections`): saved
    # again with it, so a case opened and downloaded again keeps its trail to the photo.
    history: Mapping[str, Any] | None = None
    # True for a case a reloaded page brought back (`app_ui.kept_case`): the same case as before the
    # reload, so it is saved with its own `source`, not as a case opened from a file, and its saved
    # corrections are work the page alone holds (replacing them asks first)
    restored: bool = False
    # A photo's tiles are read as one set's faces (`tile_sets.tiles_in_set`): that set's name
    # (`tile_sets.set_name`), and what the models saw (`vision.pipeline.Seen`), to read them again when
    # the user switches rule set.
    read_as: str = ""
    seen: Any = field(default=None, compare=False)
    # Melds at the hand's end the reader could as well have read the other way: offered with a button
    # (`app_ui.meld_offer`) while their tiles lie in the groups the photo was read in.
    meld_offer: MeldOffer | None = None
    # the numbers of the tiles read otherwise than the models read them because they look like tiles the
    # set was taught (`vision.pipeline.Reading.recalled`): named before the hand is taught in turn, as a
    # few lessons can misread a face they never taught (docs/vision.md)
    recalled: tuple[int, ...] = ()
    # The highest tile number this case has given, kept where the rows and corrections may no longer
    # name it: a step undone (*Undo the last tile change*, *Undo my corrections*, a re-read dropping the
    # corrections) brings back a base from before a tile was added, but that tile's number stays given
    # (the corrections, the photo's labels and a case file downloaded since name it). Raised as a table
    # starts again on the same case (`table_edits.numbering_kept`), never lowered; a new case starts
    # at 0. `table_edits.last_number` numbers a tile added after it.
    numbered_up_to: int = 0

    @property
    def photo_rows(self) -> tuple[TileRow, ...]:
        """The tiles as the photo was read, before any correction."""
        return self.rows if self.as_read is None else self.as_read.rows

    @property
    def flags_as_read(self) -> Mapping[str, bool]:
        """The kongs' ticks as the photo (or typed hand) was read, before any correction: what a tick
        is a correction against. Not `meld_concealed`, which a table rebuilt with the ticks as they
        stand takes over (an audit, stage 77: a kong set exposed, then a tile added, was said "undone"
        and left the case's corrections)."""
        return self.meld_concealed if self.as_read is None else self.as_read.meld_concealed

    @property
    def open_ways(self) -> tuple[tuple[tuple[int, str], ...], ...]:
        """The ways to a win still on offer: none once one is taken, and none naming a tile deleted."""
        if self.ways_closed:
            return ()
        present = set(row_numbers(self.rows))
        return tuple(way for way in self.win_ways if all(number in present for number, _ in way))

    @property
    def notes(self) -> tuple[str, ...]:
        """The reader's warnings as shown now: the offer names the ways still open (none once one is
        taken, or when a single one is left: its button alone offers it)."""
        ways = self.open_ways
        if ways == self.win_ways:
            return self.warnings
        offer, now = win_ways_line(self.win_ways), win_ways_line(ways)
        if now is None:
            return tuple(w for w in self.warnings if w != offer)
        return tuple(now if w == offer else w for w in self.warnings)

    def undone(self) -> Base:
        """The base as it was read: every correction, folded or not, undone."""
        if self.as_read is None:
            return self
        return dataclasses.replace(
            self,
            rows=self.as_read.rows,
            meld_concealed=self.as_read.meld_concealed,
            as_read=None,
            earlier=(),
            ways_closed=False,
        )


@dataclass(frozen=True)
class TableState:
    """The tile table as it stood: its base, the user's edits in it, the kong ticks they changed from
    the base's, and, where the change moved the winning tile with its tiles (a re-read), the winning
    tile (as chosen, and any set aside) to go back to."""

    base: Base
    edits: Mapping[str, Any]
    meld_concealed: Mapping[str, bool]
    winning_tile: tuple[str, str | None] | None = None


@dataclass(frozen=True)
class AsRead:
    """A photo's reading, kept once corrections are folded into the base: its rows and kong flags."""

    rows: tuple[TileRow, ...]
    meld_concealed: Mapping[str, bool] = field(default_factory=dict)


# Where a case file keeps `Base.numbered_up_to`: in its `source` record, which `python -m scoring`
# leaves alone (a field of its own at the top level would be an "ignored unknown field" there)
NUMBERED_UP_TO = "numbered_up_to"


def photo_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def positive_int(value: object) -> int | None:
    """`value` where it is a whole number above 0 (a tile number, the numbers a case gave), else None:
    a file edited by hand may hold anything there, and Python takes True for the int 1."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


# More tile numbers than any table gives: a file edited by hand may hold thousands of digits, which
# the next number added after them could not be written with (an audit, stage 78: Python writes no
# integer of over 4,300 digits)
MAX_TILE_NUMBER = 10**18


def file_number(value: object) -> int | None:
    """A tile number as a file gives it (`positive_int`), None past `MAX_TILE_NUMBER`; the numbers the
    app gives after it are its own, and may pass that."""
    number = positive_int(value)
    return number if number is not None and number <= MAX_TILE_NUMBER else None


def row_numbers(rows: Sequence[TileRow]) -> list[int]:
    """Each row's number in the tile table and on the photo: its own where it has one (`TileRow.number`),
    else its place (a photo's reading, a typed hand)."""
    return [row.number if row.number is not None else place for place, row in enumerate(rows, start=1)]


def win_ways_line(ways: Sequence[Sequence[tuple[int, str]]]) -> str | None:
    """One line offering the ways (each (tile number, code) pairs) one or two tiles read otherwise would
    make a winning hand, when the reader found several about as likely and took none."""
    if len(ways) < 2:
        return None
    spelled = [way_label(way) for way in ways]
    return (
        "The tiles are one or two away from a winning hand in more than one way, about as likely, "
        f"so none was changed: {'; or '.join(spelled)}. Take one with its button, or correct those "
        "tiles in Check the tiles."
    )


def way_label(way: Sequence[tuple[int, str]]) -> str:
    return " and ".join(f"#{number} as {code}" for number, code in way)


def default_group(code: str) -> str:
    return BONUS if code in BONUS_CODES else HAND
