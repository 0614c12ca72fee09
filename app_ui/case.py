"""The case the user is scoring: tiles (read or typed), the user's corrections, context, rules, result.

The tile table is the single source of truth for the hand. A photo reading or a typed hand gives the
*base* rows; the user's edits (the data editor's edit state: edited, added and deleted rows) are kept
separately so they can be shown, undone, and written into the case JSON as the corrections.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vision.classes import BONUS_CODES, CLASSES
from vision.detections import UNSURE_BELOW

HAND = "hand"
BONUS = "bonus"
IGNORE = "ignore"
MAX_MELDS = 4
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
    # A photo's tiles are read as one set's faces (`tiles_in_set`): that set's name (`set_name`), and
    # what the models saw (`vision.pipeline.Seen`), to read them again when the user switches rule set.
    read_as: str = ""
    seen: Any = field(default=None, compare=False)

    @property
    def photo_rows(self) -> tuple[TileRow, ...]:
        """The tiles as the photo was read, before any correction."""
        return self.rows if self.as_read is None else self.as_read.rows

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


def photo_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _index_key(key: object) -> int | None:
    """The data editor stores row positions as ints in Python and as strings after a JSON round trip."""
    try:
        return int(str(key))
    except ValueError:
        return None


def row_numbers(rows: Sequence[TileRow]) -> list[int]:
    """Each row's number in the tile table and on the photo: its own where it has one (`TileRow.number`),
    else its place (a photo's reading, a typed hand)."""
    return [row.number if row.number is not None else place for place, row in enumerate(rows, start=1)]


def apply_edits(base: Sequence[TileRow], edits: Mapping[str, Any] | None) -> list[TileRow]:
    """Apply a data-editor edit state (`edited_rows`, `added_rows`, `deleted_rows`) to the base rows.

    Rows keep their photo box and confidence unless their code is changed (then the user has
    checked the tile, so it is no longer low confidence). Blank added rows are skipped. Every row
    comes numbered (`TileRow.number`): a base row as in the table, an added one after every base row's
    number, so that folded in, no tile takes another's number.
    """
    numbered = numbered_edits(base, edits)
    after = max(row_numbers(base), default=0)
    out = []
    for number, row in numbered:
        if number is None:
            after += 1
            number = after
        out.append(dataclasses.replace(row, number=number))
    return out


def numbered_edits(
    base: Sequence[TileRow], edits: Mapping[str, Any] | None
) -> list[tuple[int | None, TileRow]]:
    """`apply_edits` with each row's number in the tile table (its base row's, which a deletion above
    it does not change), None for a row the user added: the photo's labels and the reader's doubts
    name tiles by these numbers, so they must stay the table's."""
    edits = edits or {}
    edited: dict[int, Mapping[str, Any]] = {}
    for key, change in dict(edits.get("edited_rows") or {}).items():
        index = _index_key(key)
        if index is not None and isinstance(change, Mapping):
            edited[index] = change
    deleted = {i for i in (_index_key(k) for k in edits.get("deleted_rows") or []) if i is not None}
    rows: list[tuple[int | None, TileRow]] = []
    numbers = row_numbers(base)
    for index, row in enumerate(base):
        if index in deleted:
            continue
        change = edited.get(index, {})
        code = change.get("tile") or row.code
        group = change.get("group") or row.group
        if code not in TILE_CODES:
            code = row.code
        if group not in GROUPS:
            group = row.group
        checked = code != row.code
        rows.append(
            (
                numbers[index],
                dataclasses.replace(
                    row,
                    code=code,
                    group=group,
                    confidence=None if checked else row.confidence,
                    alternative=None if checked else row.alternative,
                    number=numbers[index],
                ),
            )
        )
    for added in edits.get("added_rows") or []:
        code = _added_code(added)
        if code is None:
            continue
        group = added.get("group") if added.get("group") in GROUPS else default_group(code)
        rows.append((None, TileRow(code=code, group=str(group))))
    return rows


# Marks, in a list of corrections, where the table was numbered afresh: a case saved before stage 55
# folded rows added or deleted into a table numbered 1, 2, ... again, and the numbers after the mark
# are that table's, those before it as it was then. Tiles keep their numbers now (`TileRow.number`).
RENUMBERED = "renumbered"


def corrections_so_far(earlier: list[dict[str, Any]], now: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The corrections folded into the table (`earlier`) and those in it `now`: a mark that ends
    `earlier` says how the later ones are numbered, so it stays only where some follow it."""
    if earlier and earlier[-1].get("action") == RENUMBERED and not now:
        earlier = earlier[:-1]
    return [*earlier, *now]


def numbered_afresh(saved: Sequence[Mapping[str, Any]], rows: Sequence[TileRow]) -> bool:
    """Whether a saved table (`rows`) was numbered afresh after its `saved` corrections: numbered 1, 2,
    ... though a tile it holds was deleted from before its place (a case saved before stage 55; since,
    every tile keeps its number). Only the corrections since the last `RENUMBERED` mark count."""
    since: list[Mapping[str, Any]] = []
    for change in saved:
        since = [] if change.get("action") == RENUMBERED else [*since, change]
    numbers = row_numbers(rows)
    deleted = [c.get("tile") for c in since if c.get("action") == "delete"]
    shifted = any(isinstance(n, int) and n <= len(rows) for n in deleted)
    return shifted and numbers == list(range(1, len(rows) + 1))


def kong_corrections(build: HandBuild, flags_as_read: Mapping[str, bool]) -> list[dict[str, Any]]:
    """The kongs the user set concealed or exposed against the reading (`flags_as_read`, by group), as
    corrections: whether a kong was concealed is a dispute of its own (2 units or 1 from each player)."""
    out: list[dict[str, Any]] = []
    for group, meld in zip(build.meld_groups, build.hand["melds"], strict=False):
        if meld["kind"] == "kong" and meld["concealed"] != bool(flags_as_read.get(group, False)):
            out.append(
                {"action": "kong", "group": group, "code": meld["tiles"][0], "concealed": meld["concealed"]}
            )
    return out


def _added_code(added: Any) -> str | None:
    """The tile of a row the user added, or None while it has none (such a row does not count yet)."""
    if isinstance(added, Mapping) and added.get("tile") in TILE_CODES:
        return str(added["tile"])
    return None


def blank_added_rows(edits: Mapping[str, Any] | None) -> int:
    """How many rows the user added and has not yet given a tile."""
    return sum(_added_code(added) is None for added in (edits or {}).get("added_rows") or [])


def corrections(base: Sequence[TileRow], edits: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The user's edits as a readable list (for the case JSON and the summary): what changed and how."""
    edits = edits or {}
    numbers = row_numbers(base)
    out: list[dict[str, Any]] = []
    for key, change in sorted(
        dict(edits.get("edited_rows") or {}).items(), key=lambda kv: _index_key(kv[0]) or 0
    ):
        index = _index_key(key)
        if index is None or not 0 <= index < len(base) or not isinstance(change, Mapping):
            continue
        row = base[index]
        if change.get("tile") and change["tile"] != row.code:
            out.append({"action": "change", "tile": numbers[index], "from": row.code, "to": change["tile"]})
        if change.get("group") and change["group"] != row.group:
            out.append(
                {
                    "action": "regroup",
                    "tile": numbers[index],
                    # the tile as it now reads, where the same edit changed its code too
                    "code": change["tile"] if change.get("tile") in TILE_CODES else row.code,
                    "from": row.group,
                    "to": change["group"],
                }
            )
    for key in sorted(i for i in (_index_key(k) for k in edits.get("deleted_rows") or []) if i is not None):
        if 0 <= key < len(base):
            out.append({"action": "delete", "tile": numbers[key], "code": base[key].code})
    for added in edits.get("added_rows") or []:
        if _added_code(added) is not None:
            out.append(
                {
                    "action": "add",
                    "code": added["tile"],
                    "group": added.get("group") or default_group(str(added["tile"])),
                }
            )
    return out


def take_way(
    base: Base,
    edits: Mapping[str, Any] | None,
    way: Sequence[tuple[int, str]],
    meld_concealed: Mapping[str, bool] | None = None,
) -> Base:
    """`base` with one of the reader's ways to a win taken and the user's table edits kept.

    The table restarts after this (Streamlit cannot set an editor's edits), so the edits are folded
    into the rows and written down in `earlier`, beside the way's own changes ("by": "win option"),
    and the concealed-kong flags as they stand now (`meld_concealed`, default the base's) are kept.
    Where the user had changed a tile the way names, the way (the newer choice) wins; a tile the user
    deleted stays deleted.
    """
    edits = dict(edits or {})
    deleted = {i for i in (_index_key(k) for k in edits.get("deleted_rows") or []) if i is not None}
    numbers = row_numbers(base.rows)
    index_of = {number: index for index, number in enumerate(numbers)}
    chosen = {index_of[number]: code for number, code in way if number in index_of and code in TILE_CODES}
    chosen = {i: code for i, code in chosen.items() if i not in deleted}
    edited = {
        key: {column: value for column, value in dict(change).items() if column != "tile"}
        if _index_key(key) in chosen and isinstance(change, Mapping)
        else change
        for key, change in dict(edits.get("edited_rows") or {}).items()
    }
    kept = {**edits, "edited_rows": edited}
    rows = [
        dataclasses.replace(row, code=chosen[i], confidence=None, alternative=None) if i in chosen else row
        for i, row in enumerate(base.rows)
    ]
    taken = [
        {"action": "change", "tile": numbers[i], "from": base.rows[i].code, "to": code, "by": "win option"}
        for i, code in sorted(chosen.items())
        if base.rows[i].code != code
    ]
    return dataclasses.replace(
        base,
        rows=tuple(apply_edits(rows, kept)),
        meld_concealed=dict(base.meld_concealed if meld_concealed is None else meld_concealed),
        as_read=base.as_read or AsRead(base.rows, base.meld_concealed),
        earlier=(*base.earlier, *corrections(base.rows, kept), *taken),
        ways_closed=base.ways_closed or bool(way),
    )


def fold_edits(base: Base, edits: Mapping[str, Any] | None) -> Base:
    """`base` with the table's `edits` folded into its rows and written down in `earlier` (for a table
    started again with them standing); `base` itself where there are none."""
    return take_way(base, edits, ()) if has_edits(edits) else base


def win_ways_line(ways: Sequence[Sequence[tuple[int, str]]]) -> str | None:
    """One line offering the ways (each (tile number, code) pairs) one or two tiles read otherwise would
    make a winning hand, when the reader found several about as likely and took none."""
    if len(ways) < 2:
        return None
    spelled = [way_label(way) for way in ways]
    return (
        "The tiles are one or two away from a winning hand in more than one way, about as likely, "
        f"so none was changed: {'; or '.join(spelled)}. Take one with its button, or check those "
        "tiles below."
    )


def way_label(way: Sequence[tuple[int, str]]) -> str:
    return " and ".join(f"#{number} as {code}" for number, code in way)


def normal_edits(edits: Mapping[str, Any] | None) -> dict[str, Any]:
    """A data-editor edit state with its three parts, each given (an untouched table has none)."""
    edits = edits or {}
    return {
        "edited_rows": dict(edits.get("edited_rows") or {}),
        "added_rows": list(edits.get("added_rows") or []),
        "deleted_rows": list(edits.get("deleted_rows") or []),
    }


def has_edits(edits: Mapping[str, Any] | None) -> bool:
    if not edits:
        return False
    return bool(edits.get("edited_rows") or edits.get("added_rows") or edits.get("deleted_rows"))


def default_group(code: str) -> str:
    return BONUS if code in BONUS_CODES else HAND


def meld_kind(codes: Sequence[str]) -> tuple[str | None, str]:
    """The kind (kong, pong or chow) the engine takes an exposed meld of `codes` for, or None and the
    engine's reason why it is none. The engine's own check (`scoring.hand.check_meld`) decides, so the
    table never calls a meld what the scoring then refuses (`5p fly fly` is a pong: an exposed chow
    holds at most one fly)."""
    from scoring.errors import MeldError  # the scoring's own rule, imported as open_case does
    from scoring.hand import Meld
    from scoring.tiles import is_suited

    kinds: tuple[str, ...] = ("kong",) if len(codes) == 4 else ("pong", "chow") if len(codes) == 3 else ()
    reasons: dict[str, str] = {}
    for kind in kinds:
        try:
            Meld(kind, tuple(codes))
        except MeldError as error:
            reasons[kind] = str(error).removesuffix(f": {kind} {' '.join(codes)}")
            continue
        return kind, ""
    if not reasons:
        return None, f"a meld has 3 or 4 tiles, not {len(codes)}"
    real = set(codes) - {"fly"}
    # the reason of the kind the tiles come nearest: a chow's for unequal suited tiles, else the first's
    nearest = "chow" if "chow" in reasons and len(real) > 1 and all(map(is_suited, real)) else kinds[0]
    return None, reasons[nearest]


def resolve_backs(codes: list[str]) -> list[str]:
    """A concealed kong shows two faces and two backs: the backs are copies of the face-up tile."""
    faces = [c for c in codes if c != "back"]
    if faces and len(set(faces)) == 1:
        return [faces[0] if c == "back" else c for c in codes]
    return codes


def build_hand(rows: Sequence[TileRow], meld_concealed: Mapping[str, bool]) -> HandBuild:
    """Turn tile rows into the scoring input fields `concealed`, `melds`, `bonus`, or say what is wrong."""
    problems: list[str] = []
    concealed = [r.code for r in rows if r.group == HAND]
    bonus = [r.code for r in rows if r.group == BONUS]
    if "back" in concealed:
        problems.append("A face-down tile is in the hand: set its face in the tile table, or delete it.")
    wrong_bonus = [c for c in bonus if c not in BONUS_CODES and c != "fly"]
    if wrong_bonus:
        problems.append(f"{', '.join(wrong_bonus)} cannot be a bonus tile: move it to the hand or a meld.")
    melds: list[dict[str, Any]] = []
    meld_groups: list[str] = []
    unfinished: list[tuple[str, ...]] = []
    for group in MELD_GROUPS:
        laid = [r.code for r in rows if r.group == group]
        codes = resolve_backs(laid)
        if not codes:
            continue
        if "back" in codes:
            problems.append(f"{group.capitalize()} is face-down: set one of its tiles to the kong's tile.")
            unfinished.append(tuple(laid))
            continue
        kind, why = meld_kind(codes)
        if kind is None:
            problems.append(
                f"{group.capitalize()} ({' '.join(codes)}) is not a chow, pong or kong ({why}): "
                "change a tile or move it to another group."
            )
            unfinished.append(tuple(laid))
            continue
        melds.append(
            {
                "kind": kind,
                "tiles": codes,
                # a tile laid face down is a concealed kong's (an exposed kong lies face up), unless
                # the user says otherwise
                "concealed": bool(meld_concealed.get(group, "back" in laid)) and kind == "kong",
            }
        )
        meld_groups.append(group)
    # bonus tiles alone are a hand to score: eight flowers wins whatever the rest (RULES.md)
    if not concealed and not melds and not bonus:
        problems.append("No tiles in the hand yet: upload a photo, try a sample, or type a hand.")
    return HandBuild(
        hand={"concealed": concealed, "melds": melds, "bonus": bonus},
        problems=tuple(problems),
        meld_groups=tuple(meld_groups),
        unfinished=tuple(unfinished),
    )


def hand_tile_choices(hand: Mapping[str, Any]) -> list[str]:
    """Distinct codes that can be the winning tile, in order: the concealed tiles' and the chows' and
    pongs' (a discard that completes a set lays it out with the melds). Not a kong's alone: no win
    completes a kong, so the scoring refuses one there. A `fly` among the concealed tiles may be the
    tile drawn last (seeds/004: a fly is a tile of the hand like any other until it stands in a set);
    one in a laid-out meld is not offered, as the discard claimed for it was the tile it stands beside."""
    from scoring.hand import may_hold_winning_tile  # the scoring's own rule, imported as open_case does

    seen: list[str] = []
    concealed = [code for code in hand.get("concealed") or [] if code != "back"]
    laid: list[str] = []
    for meld in hand.get("melds") or []:
        if may_hold_winning_tile(str(meld.get("kind"))):
            laid.extend(code for code in meld.get("tiles") or [] if code not in ("back", "fly"))
    for code in [*concealed, *laid]:
        if code not in seen:
            seen.append(code)
    return seen


def scoring_input(
    hand: Mapping[str, Any], context: Context, rules: str, options: Mapping[str, Any]
) -> dict[str, Any]:
    """The scoring JSON input (issue 2 fields), in the order a reader expects."""
    data: dict[str, Any] = {
        "rules": rules,
        "options": dict(options),
        "concealed": list(hand.get("concealed") or []),
        "melds": [dict(m) for m in hand.get("melds") or []],
        "bonus": list(hand.get("bonus") or []),
        "self_drawn": context.self_drawn,
        "seat_wind": context.seat_wind,
        "prevailing_wind": context.prevailing_wind,
        "circumstances": list(context.circumstances),
        "pay_all": context.pay_all,
    }
    if context.winning_tile:
        data["winning_tile"] = context.winning_tile
    if context.discarder_wind:
        data["discarder_wind"] = context.discarder_wind
    held = [code for code in context.bonus_from_deal if code in data["bonus"]]
    if held:
        data["bonus_from_deal"] = held
    return data


def saved_box(box: Sequence[float]) -> tuple[float, ...]:
    """A tile's box as a case file keeps it: to 0.1 px."""
    return tuple(round(float(v), 1) for v in box)


def rows_to_json(rows: Sequence[TileRow]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for number, row in zip(row_numbers(rows), rows, strict=True):
        item: dict[str, Any] = {"tile": number, "code": row.code, "group": row.group}
        if row.confidence is not None:
            item["confidence"] = round(float(row.confidence), 4)
        if row.alternative is not None:  # so a case opened without its photo still names both faces
            item["runner_up"] = row.alternative
        if row.box is not None:
            item["box"] = list(saved_box(row.box))
        out.append(item)
    return out


def codes_and_groups(items: object) -> list[tuple[object, object]]:
    """Each record's (code, group) in a saved list of tiles (`rows_to_json`'s form; anything else is
    no tile): what a reading's record says, its confidences and boxes aside."""
    records = items if isinstance(items, list) else []
    return [(item.get("code"), item.get("group")) for item in records if isinstance(item, Mapping)]


def with_reading_of(rows: Sequence[TileRow], read: Sequence[TileRow]) -> list[TileRow]:
    """Saved table `rows` (confidences rounded, no runner-up) with each uncorrected tile's confidence,
    box and runner-up as the photo's reading `read` gives them: the same tile is the one at the same
    box (as saved, to 0.1 px) read as the same code. A corrected tile keeps none, as the user checked it."""
    by_box = {saved_box(row.box): row for row in read if row.box is not None}
    out = []
    for row in rows:
        same = None if row.box is None else by_box.get(tuple(row.box))
        if same is not None and same.code == row.code:
            row = dataclasses.replace(
                row, confidence=same.confidence, box=same.box, alternative=same.alternative
            )
        out.append(row)
    return out


def case_json(
    scoring_in: Mapping[str, Any],
    base: Base,
    rows: Sequence[TileRow],
    edits: Mapping[str, Any] | None,
    result: Mapping[str, Any] | None,
    kong_changes: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The whole case for a dispute: scoring input at the top level (so `python -m scoring case.json`
    replays it), then the photo's reading, the user's corrections (the table's, then `kong_changes`:
    `kong_corrections`), the final tiles and the result."""
    data = dict(scoring_in)
    data["source"] = {
        "kind": base.source,
        "name": base.name,
        "sha256": base.sha256,
        "size": list(base.size) if base.size else None,
    }
    if base.read_as:
        data["source"]["read_as"] = base.read_as
    data["photo_tiles"] = rows_to_json(base.photo_rows) if base.source == "photo" else []
    # the mark where folded corrections added or deleted rows stays in the record: the numbers after it
    # are the table's as saved (`tiles`), not the photo's (`photo_tiles`)
    table = corrections_so_far(list(map(dict, base.earlier)), corrections(base.rows, edits))
    data["corrections"] = [*table, *map(dict, kong_changes)]
    if base.history is not None:
        # the trail the opened file carried comes first: its photo's reading and earlier corrections,
        # the table numbered afresh after them where they added or deleted rows
        if base.restored:
            data["source"] = base.history.get("source")
        else:
            data["source"]["opened_from"] = base.history.get("source")
        data["photo_tiles"] = list(base.history.get("photo_tiles") or [])
        data["corrections"] = corrections_so_far(
            list(map(dict, base.history.get("corrections") or [])), data["corrections"]
        )
    data["tiles"] = rows_to_json(rows)
    data["result"] = dict(result) if result is not None else None
    return data


def case_bytes(case: Mapping[str, Any]) -> bytes:
    return json.dumps(case, indent=2, ensure_ascii=False).encode("utf-8")


def rows_from_hand_strings(
    concealed: Sequence[str], melds: Sequence[Sequence[str]], bonus: Sequence[str]
) -> list[TileRow]:
    """Rows for a typed hand: concealed tiles, then each meld in its own group, then bonus tiles."""
    rows = [TileRow(code=c, group=HAND) for c in concealed]
    for index, meld in enumerate(melds[:MAX_MELDS]):
        rows.extend(TileRow(code=c, group=MELD_GROUPS[index]) for c in meld)
    rows.extend(TileRow(code=c, group=BONUS) for c in bonus)
    return rows


# The options that change which faces a set holds (RULES.md: a Malaysian set may leave out North).
SET_OPTIONS: tuple[str, ...] = ("north_wind",)
_WITHOUT = " without "


def set_name(rules: str, options: Mapping[str, Any] | None = None) -> str:
    """The name of the set a photo's tiles are read as: the rule set's, and the faces its `options`
    leave out of its usual set ("malaysian without N"). Options that change no face are not read."""
    from vision.tile_set import rule_set_faces

    given = {name: value for name, value in (options or {}).items() if name in SET_OPTIONS}
    try:
        left_out = sorted(rule_set_faces(rules) - rule_set_faces(rules, given))
    except ValueError:  # a bad option value: the usual set (the scoring says what is wrong with it)
        left_out = []
    return rules + (_WITHOUT + " ".join(left_out) if left_out else "")


def tiles_in_set(name: str) -> frozenset[str]:
    """Every code the set `name` (`set_name`; a rule set's name) holds, a face-down tile too."""
    from vision.tile_set import rule_set_faces

    rules, _, left_out = name.partition(_WITHOUT)
    return (rule_set_faces(rules) - set(left_out.split())) | {"back"}


def set_words(name: str, labels: Mapping[str, str]) -> str:
    """The set `name` in words, its rule set by `labels`: "Malaysian (3 players) tiles without N"."""
    rules, _, left_out = name.partition(_WITHOUT)
    return f"{labels.get(rules, rules)} tiles" + (_WITHOUT + left_out if left_out else "")


def reread_changes(before: Sequence[TileRow], after: Sequence[TileRow]) -> list[tuple[str, str]]:
    """(code before, code after) for each tile of a photo (matched by its box) read otherwise after."""
    was = {row.box: row.code for row in before if row.box is not None}
    return [(was[row.box], row.code) for row in after if row.box in was and was[row.box] != row.code]


def renamed_by_reread(code: str, before: Sequence[TileRow], after: Sequence[TileRow]) -> str | None:
    """The code every tile read `code` before a re-read is read as after it, where they all agree and
    no tile reads `code` any more (a winning tile E whose tiles now read `fly`); else None."""
    now = {after_code for was, after_code in reread_changes(before, after) if was == code}
    if len(now) != 1 or any(row.code == code for row in after):
        return None
    return now.pop()


def unsure_tiles(numbered: Sequence[tuple[int | None, TileRow]], in_set: Collection[str]) -> list[str]:
    """The unsure tiles by number, each with the reader's runner-up where the set holds it ("12 (1s or
    F2?)"): a face under Singapore rules is no answer to offer."""
    return [
        f"{number}" + (f" ({row.code} or {row.alternative}?)" if row.alternative in in_set else "")
        for number, row in numbered
        if row.low_confidence
    ]


def _second_guesses(detections: Any, probabilities: Any | None) -> list[str | None]:
    """Per detection, the likeliest class other than the one it is read as (from the classifier's
    distribution), if known: the runner-up, or the first choice when the reader moved the tile off it
    to keep within one set."""
    n = len(detections.codes)
    if probabilities is None or len(probabilities) != n:
        return [None] * n
    out: list[str | None] = []
    for code, row in zip(detections.codes, probabilities, strict=True):
        order = sorted(range(len(row)), key=lambda k: -float(row[k]))
        others = [CLASSES[k] for k in order if CLASSES[k] != code]
        out.append(others[0] if others else None)
    return out


def _reading_order(detections: Any, layout: Any | None) -> tuple[list[int], dict[int, str], dict[str, bool]]:
    """Detection indices in the layout's reading order (the numbers drawn on the photo), the table
    group of each, and whether each meld group is concealed."""
    count = len(detections.codes)
    group_of: dict[int, str] = {}
    order: list[int] = []
    meld_concealed: dict[str, bool] = {}
    melds_seen = 0
    for group in getattr(layout, "groups", ()) or ():
        if group.kind == "concealed":
            name = HAND
        elif group.kind == "meld":
            melds_seen += 1
            name = MELD_GROUPS[melds_seen - 1] if melds_seen <= MAX_MELDS else IGNORE
            if name != IGNORE:
                meld_concealed[name] = bool(group.concealed)
        elif group.kind == "bonus":
            name = BONUS
        else:
            name = IGNORE
        for index in group.indices:
            index = int(index)
            if 0 <= index < count and index not in group_of:
                group_of[index] = name
                order.append(index)
    if layout is None:
        # No layout step: every tile goes to the hand or the bonus row, for the user to regroup.
        group_of = {i: default_group(code) for i, code in enumerate(detections.codes)}
        order = list(range(count))
    order.extend(i for i in range(count) if i not in group_of)
    return order, group_of, meld_concealed


def tile_numbers(detections: Any, layout: Any | None) -> dict[int, int]:
    """The number the app gives each detection (its row in the tile table, drawn on the photo)."""
    order, _, _ = _reading_order(detections, layout)
    return {index: number for number, index in enumerate(order, start=1)}


def rows_from_reading(
    detections: Any, layout: Any | None, probabilities: Any | None = None
) -> tuple[list[TileRow], dict[str, bool]]:
    """Rows from a photo reading, in the layout's reading order (the numbers drawn on the photo).

    Each layout group maps to a table group: the concealed row to `hand`, the n-th meld to `meld n`,
    the bonus row to `bonus`; tiles the layout left out (or a fifth meld) are `ignore`, so the user
    sees them and can move them in.
    """
    codes = list(detections.codes)
    order, group_of, meld_concealed = _reading_order(detections, layout)
    second = _second_guesses(detections, probabilities)
    rows = [
        TileRow(
            code=codes[i],
            group=group_of.get(i, IGNORE),
            confidence=float(detections.confidence[i]),
            box=tuple(float(v) for v in detections.xyxy[i]),  # type: ignore[arg-type]
            alternative=second[i],
        )
        for i in order
    ]
    return rows, meld_concealed


# ---------------------------------------------------------------------------- a saved case, opened again

# A case the app writes is a few kilobytes; anything this large is not one.
MAX_CASE_BYTES = 2_000_000


class CaseFileError(ValueError):
    """A file that cannot be opened as a case (one line, naming the file)."""


@dataclass(frozen=True)
class OpenedCase:
    """A downloaded case read back: its tiles as the base rows, and the rules, options and context."""

    base: Base
    rules: str
    options: Mapping[str, Any]
    context: Context
    # False for a file naming no options (a typed hand, a photo's reading, a scene): it opens with the
    # sidebar's house rules as they are, not the rule set's defaults
    options_said: bool = True
    # what of the file the page holds otherwise than the file says it, in a sentence each
    notes: tuple[str, ...] = ()


def open_case(name: str, data: bytes, rules_unsaid: str = "singapore") -> OpenedCase:
    """Read a case file (the app's download, or any scoring JSON input) back; CaseFileError if it is not one.
    A file that names no rule set (a hand typed for `python -m scoring`, a photo's reading) opens under
    `rules_unsaid` (the app's: the sidebar's); one that names no options, with the app's house rules
    (`options_said` False).

    The scoring fields at the top level are what `python -m scoring` replays, so they are what is opened:
    the hand as scored, in its groups, with the rules, options and how it was won."""
    import scoring  # the app's dependency; imported here so the case model stays importable on its own
    from scoring.api import hand_of, reading_warning_lines, unused_beside, unused_beside_warning
    from scoring.errors import json_kind, json_object
    from scoring.options import options_from_mapping

    if len(data) > MAX_CASE_BYTES:
        raise CaseFileError(
            f"{name} is too large to be a case file ({len(data):,} bytes; a case file is at most "
            f"{MAX_CASE_BYTES:,})"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise CaseFileError(f"{name} is not UTF-8 text") from None
    try:
        # a photo's reading (`python -m vision --json`) or a generated scene opens as its hand, as
        # `python -m scoring` scores it
        given = json_object(text, name, "a case")
        case = hand_of(given)
    except scoring.MalformedHandError as error:
        raise CaseFileError(str(error)) from None  # the message names the file already
    try:
        rules = case.get("rules", rules_unsaid)
        if not isinstance(rules, str):
            raise scoring.RulesetError(f"rules must be a rule set's name, got {rules!r}")
        ruleset = scoring.get_ruleset(rules)
        # null is "not said"; any other non-object (false, 0, "") is refused, as python -m scoring
        # refuses it: read as no options here, the case's own scoring would fail later
        overrides = {} if case.get("options") is None else case["options"]
        if not isinstance(overrides, Mapping):
            raise scoring.OptionError(f"options must be an object, not {json_kind(overrides)}")
        options = options_from_mapping(scoring.default_options(rules), overrides)
    except scoring.MalformedHandError as error:
        raise CaseFileError(f"{name}: {error}") from None
    # The app's own download keeps its tile table, problems and all (a bonus tile left in the hand,
    # a face-down kong, a fifth copy): it opens as it was saved, for the user to finish correcting.
    saved = _saved_table(case)
    try:
        hand, won = scoring.hand_from_json(case)
        bonus_row, held = list(hand.bonus), won.bonus_from_deal
    except scoring.MalformedHandError as error:
        if saved is None:
            raise CaseFileError(f"{name}: {error}") from None
        # the saved table holds the tiles: the bonus tiles held from the deal are those of its bonus
        # row (an empty row here would refuse them, and the file would not open)
        aside: dict[str, list[str]] = {"concealed": [], "melds": [], "bonus": [], "bonus_from_deal": []}
        try:
            hand, won = scoring.hand_from_json({**case, **aside})
        except scoring.MalformedHandError:
            raise CaseFileError(f"{name}: {error}") from None
        listed = case.get("bonus_from_deal")
        bonus_row = [row.code for row in saved[0] if row.group == BONUS]
        held = (
            frozenset(code for code in listed if isinstance(code, str))
            if isinstance(listed, list)
            else frozenset()
        )
    if won.seat_wind not in ruleset.seats:
        raise CaseFileError(f"{name}: {won.seat_wind} is not a seat in the {rules} rules")
    offered = scoring.circumstances_for(rules)
    # left out and said, as `python -m scoring` warns and scores without them
    unknown = sorted(set(won.circumstances) - set(offered))
    if len(hand.melds) > MAX_MELDS:
        raise CaseFileError(f"{name}: {len(hand.melds)} melds, at most {MAX_MELDS}")
    # the tile table marks only kongs concealed: a chow or pong formed in the hand is the hand's tiles,
    # read at their best (RULES.md: the best of all decompositions counts), which may be other sets
    in_hand = [m for m in hand.melds if m.concealed and m.kind != "kong"]
    laid = [m for m in hand.melds if m not in in_hand]
    concealed = [*hand.concealed, *(tile for meld in in_hand for tile in meld.tiles)]
    rows = rows_from_hand_strings(concealed, [m.tiles for m in laid], hand.bonus)
    named = ", ".join(f"{meld.kind} {' '.join(meld.tiles)}" for meld in in_hand)
    notes = (
        [
            f"The concealed {named} open{'s' if len(in_hand) == 1 else ''} among the hand's tiles, which "
            "score at their best reading (python -m scoring keeps the file's sets, so its tai may be lower)."
        ]
        if in_hand
        else []
    )
    if not rows and saved is None:
        raise CaseFileError(f"{name} holds no tiles")
    impossible = impossible_count(dict(case)) if saved is None else None
    if impossible:
        raise CaseFileError(f"{name}: {impossible}")
    discarder, discarder_note = won.discarder_wind, None
    plays_discarder = not won.self_drawn or won.pay_all  # a self-draw ignores it, as python -m scoring does
    if (
        discarder is not None
        and plays_discarder
        and (discarder == won.seat_wind or discarder not in ruleset.seats)
    ):
        # python -m scoring refuses such a case as impossible; the app opens it with the discarder
        # unsaid, for the user to set, and says why
        why = (
            "the winner's own seat"
            if discarder == won.seat_wind
            else f"no seat in the {rules.capitalize()} rules"
        )
        discarder_note = (
            f"The case names {WIND_LABELS.get(discarder, discarder)} as the discarder, {why}: who discarded "
            "is not said "
            "(python -m scoring calls such a case impossible)."
        )
        discarder = None
    context = Context(
        seat_wind=won.seat_wind,
        prevailing_wind=won.prevailing_wind,
        self_drawn=won.self_drawn,
        winning_tile=won.winning_tile,
        circumstances=tuple(c for c in offered if c in won.circumstances),
        pay_all=won.pay_all,
        discarder_wind=discarder,
        bonus_from_deal=tuple(dict.fromkeys(code for code in bonus_row if code in held)),
    )
    kongs = {MELD_GROUPS[i]: True for i, meld in enumerate(laid) if meld.concealed}
    if saved is not None:
        rows, kongs = saved
        notes = []
    notes.extend(_sentence(line) for line in reading_warning_lines(given))
    notes.extend(_sentence(unused_beside_warning(key)) for key in unused_beside(given))
    if discarder_note:
        notes.append(discarder_note)
    if unknown:
        notes.append(f"The {rules.capitalize()} rules know no {', '.join(unknown)}: left out.")
    winning = won.winning_tile
    if winning is not None and winning not in hand_tile_choices(build_hand(rows, kongs).hand):
        refused = (
            ""
            if scoring.flowers_win(hand.bonus, won.circumstances, rules)
            else " (python -m scoring calls such a case no valid win)"
        )
        why = not_winning_why(winning, [meld.tiles for meld in hand.melds])
        notes.append(f"The case names {winning} as the winning tile, which {why}: it is set aside{refused}.")
    history = _saved_history(case)
    if history is not None and numbered_afresh(history["corrections"], rows):
        # the later corrections are numbered as this table, not as those saved
        history["corrections"].append({"action": RENUMBERED})
    base = Base(
        rows=tuple(rows),
        source="case",
        name=name,
        sha256=photo_digest(data),
        meld_concealed=kongs,
        history=history,
    )
    return OpenedCase(
        base=base,
        rules=rules,
        options=dataclasses.asdict(options),
        context=context,
        options_said="options" in case,
        notes=tuple(notes),
    )


def _sentence(line: str) -> str:
    """A warning line as a note's sentence: capitalised, one full stop."""
    return f"{line[:1].upper()}{line[1:]}" + ("" if line.endswith((".", "?", "!")) else ".")


def not_winning_why(tile: str, melds: Sequence[Sequence[str]]) -> str:
    """Why `tile`, not among a hand's winning-tile choices (`hand_tile_choices`), cannot be its winning
    tile, as a clause after "which": a hand whose `melds` (their tiles) hold it holds it only in a kong."""
    if any(tile in meld for meld in melds):
        return "lies only in a kong, and no win completes a kong"
    return "the hand does not hold"


def impossible_count(scoring_in: Mapping[str, Any]) -> str | None:
    """Why no table could hold these tiles (more copies of a face than a set has), or None. Such a hand
    is refused where it comes in (a typed hand, a case file), keeping the hand on screen; tiles the
    user corrects into it are scored and the reason shown, as the table is theirs to fix."""
    import scoring

    result = scoring.score_json(dict(scoring_in))
    if result.get("reason") != "too_many_copies":
        return None
    return str(result.get("message") or "").removeprefix("Not a valid win: ").rstrip(".")


def _saved_row(item: object) -> TileRow | None:
    """One row of a saved `tiles` list, or None where it is not one this app writes."""
    if not isinstance(item, Mapping) or item.get("code") not in TILE_CODES or item.get("group") not in GROUPS:
        return None
    confidence, box = _finite(item.get("confidence")), item.get("box")
    corners: tuple[float, float, float, float] | None = None
    if isinstance(box, list) and len(box) == 4:
        x1, y1, x2, y2 = (_finite(v) for v in box)
        if x1 is not None and y1 is not None and x2 is not None and y2 is not None:
            corners = (x1, y1, x2, y2)
    number, runner_up = item.get("tile"), item.get("runner_up")
    return TileRow(
        code=str(item["code"]),
        group=str(item["group"]),
        confidence=confidence,
        box=corners,
        alternative=runner_up if runner_up in TILE_CODES and runner_up != item["code"] else None,
        number=number if isinstance(number, int) and not isinstance(number, bool) and number > 0 else None,
    )


def _finite(value: object) -> float | None:
    """A saved number as a float, or None: a file edited by hand may hold an integer too large for a
    float (OverflowError) or NaN and Infinity (Python's JSON reads them), none a confidence or a box."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _as_written(value: object) -> list[Any] | None:
    """A list field as this app writes it (null or absent: empty), or None for anything else (a file
    edited by hand: a number where the tiles were)."""
    if value is None:
        return []
    return value if isinstance(value, list) else None


def _saved_table(case: Mapping[str, Any]) -> tuple[list[TileRow], dict[str, bool]] | None:
    """The tile table a case was saved with (`tiles`: numbers, groups, confidences, boxes) and its
    concealed-kong flags, when it builds exactly the hand the case scores (what the table could not
    build, a face-down kong or a group that is no meld, left out of the hand, or written without a
    kind); else None (a hand-written
    file, or one edited by hand), and the table is rebuilt from the scoring fields. Kept, the tile
    numbers its corrections name still point at the same tiles."""
    items = case.get("tiles")
    if not isinstance(items, list) or not items:
        return None
    rows = [_saved_row(item) for item in items]
    if any(row is None for row in rows):
        return None
    table = [row for row in rows if row is not None]
    if len(set(row_numbers(table))) < len(table):  # a file edited by hand: numbered by place
        table = [dataclasses.replace(row, number=None) for row in table]
    concealed, bonus, written = (_as_written(case.get(key)) for key in ("concealed", "bonus", "melds"))
    if concealed is None or bonus is None or written is None:
        return None  # not as the app writes it: the scoring fields say what is wrong
    melds = [m for m in written if isinstance(m, Mapping)]
    if any(_as_written(m.get("tiles")) is None for m in melds):
        return None
    groups = build_hand(table, {}).meld_groups
    said = {group: bool(meld.get("concealed")) for group, meld in zip(groups, melds, strict=False)}
    # a tile face down makes a kong concealed unless said otherwise (`build_hand`): an exposed one is
    # kept as said; and a kong lying all face down is in no meld of the case (its face unsaid): flagged
    # concealed, it stays so once the user names its face
    face_down = {row.group for row in table if row.code == "back" and row.group in MELD_GROUPS}
    flags = {group: concealed for group, concealed in said.items() if concealed or group in face_down}
    flags.update({group: True for group in face_down if group not in flags})
    built = build_hand(table, flags)
    saved = {
        "concealed": concealed,
        "melds": [
            {
                "kind": m.get("kind"),
                "tiles": _as_written(m.get("tiles")),
                "concealed": bool(m.get("concealed")),
            }
            for m in melds
            if "kind" in m
        ],
        "bonus": bonus,
    }
    # the groups the table could not make a meld of, written without a kind (stage 51; none before)
    unfinished = tuple(tuple(m.get("tiles") or ()) for m in melds if "kind" not in m)
    return (table, flags) if built.hand == saved and unfinished in ((), built.unfinished) else None


def _saved_history(case: Mapping[str, Any]) -> dict[str, Any] | None:
    """The record of where an opened case came from, as saved, when it has one worth keeping."""
    source = case.get("source")
    photo_tiles = case.get("photo_tiles")
    saved_corrections = case.get("corrections")
    if not isinstance(source, Mapping):
        return None
    return {
        "source": dict(source),
        "photo_tiles": _records(photo_tiles),
        "corrections": _records(saved_corrections),
    }


def _records(items: object) -> list[dict[str, Any]]:
    return [dict(item) for item in items if isinstance(item, Mapping)] if isinstance(items, list) else []
