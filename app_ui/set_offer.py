"""A correction that breaks the set, settled by the set's own rule: the offer to read again the tiles
it leaves holding one copy too many.

A set holds one of each flower, season and animal and four of any other tile (`vision.tile_set`). The
reader keeps to that, so where it took tile A for S2 because a surer tile B took the one S1, a user
who corrects A to S1 leaves two S1 in the table. The tiles still as the photo read them are then read
again as the reader reads a photo, with the user's tiles held as they set them: the assignment with
the largest product of the reader's probabilities that keeps to the set (`assign_within_set`), moving
only tiles of the faces held too often. The moves are offered with a button, never made unasked: the
user, who sees the tiles, decides.

Pure functions of the table's rows and the reader's probabilities (no Streamlit).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from app_ui.case import IGNORE, MELD_GROUPS, Base, TileRow, row_numbers
from app_ui.hand_build import resolve_backs
from app_ui.tile_sets import tiles_in_set
from vision.classes import BACK, CLASS_INDEX, CLASSES
from vision.tile_set import COPIES_IN_SET, assign_within_set, copies_left, within_faces

Box = tuple[float, float, float, float]
# A face the reader gives a tile less than this is no reading to offer: with nothing likelier left,
# the table's count is the user's to settle.
LEAST_OFFERED = 0.05


@dataclass(frozen=True)
class Move:
    """A tile read again: its number, the face it reads now and the face offered, with the reader's
    probability of each."""

    number: int
    code_now: str
    code: str
    p_now: float
    p_offered: float


@dataclass(frozen=True)
class SetOffer:
    """The faces the table holds more often than a set has (`over`: face -> count now), and the tiles
    read again to keep to the set (`moves`); `backs`: of those copies, how many are a concealed kong's
    face-down tiles (face -> count)."""

    over: tuple[tuple[str, int], ...]
    moves: tuple[Move, ...]
    backs: tuple[tuple[str, int], ...] = ()

    @property
    def codes(self) -> dict[int, str]:
        """Tile number -> face offered, as the table edit that takes the offer names them."""
        return {move.number: move.code for move in self.moves}


def counted(rows: Sequence[TileRow]) -> list[int]:
    """The rows whose faces a set must hold: every tile of the hand, its melds and bonus row that lies
    face up (tiles left out of the hand may be another player's)."""
    return [i for i, row in enumerate(rows) if row.group != IGNORE and row.code != BACK]


def kong_backs(rows: Sequence[TileRow]) -> Counter[str]:
    """The faces a concealed kong's face-down tiles stand for: two backs beside two faces are two more
    copies of that face (`hand_build.resolve_backs`), held by the user as the kong is laid."""
    backs: Counter[str] = Counter()
    for group in MELD_GROUPS:
        laid = [row.code for row in rows if row.group == group]
        backs.update(face for was, face in zip(laid, resolve_backs(laid), strict=True) if was == BACK != face)
    return backs


def held_too_often(rows: Sequence[TileRow]) -> dict[str, int]:
    """Face -> how many copies the counted rows and the kongs' backs hold, for faces held more often
    than a set has."""
    return _too_often(rows, kong_backs(rows))


def _too_often(rows: Sequence[TileRow], backs: Counter[str]) -> dict[str, int]:
    counts = Counter(rows[i].code for i in counted(rows)) + backs
    return {code: n for code, n in counts.items() if n > COPIES_IN_SET.get(code, n)}


def set_offer(
    rows: Sequence[TileRow],
    read: Mapping[Box, tuple[str, np.ndarray]],
    faces: Collection[str] | None = None,
) -> SetOffer | None:
    """The tiles of `rows` to read again so that the table keeps to one set of `faces` (None: any),
    or None where it keeps to it already or nothing likely can. `read`: for each box the photo's
    reader read, the face it gave and its probabilities (len(CLASSES),). A row still so read, of a
    face held too often, may move; every other row (the user's: corrected, added, or of a face within
    the set's count) is held."""
    backs = kong_backs(rows)
    over = _too_often(rows, backs)
    if not over:
        return None
    indices = counted(rows)
    free = [i for i in indices if rows[i].code in over and _as_read(rows[i], read)]
    held = Counter(rows[i].code for i in indices if i not in free) + backs
    if not free or any(n > COPIES_IN_SET[code] for code, n in held.items()):
        return None  # the user's own tiles break the set: theirs to settle
    probabilities = np.stack([read[_box(rows[i])][1] for i in free]).astype(np.float64)
    probabilities[:, CLASS_INDEX[BACK]] = 0.0  # a face-up tile is not read again as face down
    # the copies the set has left for them, face down aside (`back` takes any number)
    limits = copies_left(len(free), faces, held)
    if int(limits.sum() - limits[CLASS_INDEX[BACK]]) < len(free):
        return None
    assigned = assign_within_set(probabilities, faces, dict(held))
    numbers = row_numbers(rows)
    moves = []
    for k, (i, j) in enumerate(zip(free, assigned, strict=True)):
        code = CLASSES[int(j)]
        if code != rows[i].code:
            now, offered = probabilities[k, CLASS_INDEX[rows[i].code]], probabilities[k, int(j)]
            if offered < LEAST_OFFERED:
                return None
            moves.append(Move(numbers[i], rows[i].code, code, float(now), float(offered)))
    if not moves:
        return None
    return SetOffer(
        over=tuple(sorted(over.items())),
        moves=tuple(moves),
        backs=tuple(sorted((code, n) for code, n in backs.items() if code in over)),
    )


def _box(row: TileRow) -> Box:
    assert row.box is not None
    return row.box


def _as_read(row: TileRow, read: Mapping[Box, tuple[str, np.ndarray]]) -> bool:
    """Whether `row` is a tile of the photo as the reader read it (not corrected by the user)."""
    return row.box is not None and row.box in read and read[row.box][0] == row.code


def offer_line(offer: SetOffer) -> str:
    """The offer in words: what breaks the set, the tiles to check, and what the reader would read
    them as, with its odds."""
    backs = dict(offer.backs)
    held = "; ".join(
        f"{n} tiles read {code}{_of_them(backs.get(code, 0))} (a set has {_copies(code)})"
        for code, n in offer.over
    )
    checks = " and ".join(
        f"#{m.number} (the reader took it for {m.code_now}, {m.p_now:.2f})" for m in offer.moves
    )
    would = " and ".join(f"#{m.number} as {m.code} ({m.p_offered:.2f})" for m in offer.moves)
    return (
        f"The tiles no longer keep to one set: {held}. Check {checks}: read again with your tiles as you "
        f"set them, the reader would take {would}."
    )


def over_line(rows: Sequence[TileRow]) -> str | None:
    """Where the table holds a face more often than a set has and nothing is offered (the user's own
    tiles break the set, or no reading is at hand), the tiles that hold it, by number, for the user to
    find and correct: the scoring's "2 copies of S1" alone names none. None where the table keeps to a set."""
    backs = kong_backs(rows)
    over = _too_often(rows, backs)
    if not over:
        return None
    numbers = row_numbers(rows)
    held = []
    for code, n in sorted(over.items()):
        tiles = [f"#{numbers[i]}" for i in counted(rows) if rows[i].code == code]
        tiles += [f"a concealed kong's {backs[code]} face-down tiles"] if backs.get(code) else []
        named = f"{', '.join(tiles[:-1])} and {tiles[-1]}" if len(tiles) > 1 else tiles[0]
        held.append(f"{named} are {code} ({n} tiles; a set has {_copies(code)})")
    return f"The tiles do not keep to one set: {'; '.join(held)}. Check them and correct the misread ones."


def button_label(offer: SetOffer) -> str:
    return "Take " + " and ".join(f"#{m.number} as {m.code}" for m in offer.moves)


def _of_them(backs: int) -> str:
    return f", {backs} of them a concealed kong's face-down tiles" if backs else ""


def _copies(code: str) -> str:
    copies = COPIES_IN_SET[code]
    return "one" if copies == 1 else f"{copies}"


def read_of(
    photo_rows: Sequence[TileRow],
    xyxy: np.ndarray,
    probabilities: np.ndarray,
    faces: Collection[str] | None = None,
) -> dict[Box, tuple[str, np.ndarray]]:
    """For each tile of the photo's reading (`photo_rows`, boxes as read), its face and the reader's
    probabilities over the set's `faces` (`within_faces`, as the photo was read), found by its box
    among what the models saw (`xyxy` (N, 4), `probabilities` (N, len(CLASSES))); rows whose box the
    models' boxes do not hold are left out."""
    rows_of_box = {tuple(float(v) for v in box): k for k, box in enumerate(np.asarray(xyxy, np.float32))}
    within = within_faces(np.asarray(probabilities, np.float32).reshape(-1, len(CLASSES)), faces)
    out: dict[Box, tuple[str, np.ndarray]] = {}
    for row in photo_rows:
        if row.box is not None and row.box in rows_of_box:
            out[row.box] = (row.code, within[rows_of_box[row.box]].astype(np.float64))
    return out


def offer_for(base: Base, rows: Sequence[TileRow]) -> SetOffer | None:
    """The offer for the table `rows` (the user's edits applied) of a photo case whose reading is at
    hand (`base.seen`, what the models saw); None for a typed hand or an opened case without it."""
    probabilities = getattr(base.seen, "probabilities", None)
    if base.source != "photo" or probabilities is None or not held_too_often(rows):
        return None  # nothing to offer: the photo's reading is not looked up on every rerun
    faces = tiles_in_set(base.read_as) if base.read_as else None
    return set_offer(rows, read_of(base.photo_rows, base.seen.xyxy, probabilities, faces), faces)
