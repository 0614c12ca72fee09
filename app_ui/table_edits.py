"""The user's edits to the tile table: the data editor's edit state applied to the base rows, written
down as corrections, and folded into the rows when the table starts again (a way to a win taken).

Kept apart from the case's values (`app_ui.case`): this is the one place that reads Streamlit's edit
state (`edited_rows`, `added_rows`, `deleted_rows`) and numbers the tiles through it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from app_ui.case import (
    GROUPS,
    MELD_GROUPS,
    TILE_CODES,
    AsRead,
    Base,
    HandBuild,
    TileRow,
    default_group,
    positive_int,
    row_numbers,
)


def _index_key(key: object) -> int | None:
    """The data editor stores row positions as ints in Python and as strings after a JSON round trip."""
    try:
        return int(str(key))
    except ValueError:
        return None


def apply_edits(base: Sequence[TileRow], edits: Mapping[str, Any] | None, after: int = 0) -> list[TileRow]:
    """Apply a data-editor edit state (`edited_rows`, `added_rows`, `deleted_rows`) to the base rows.

    Rows keep their photo box and confidence unless their code is changed (then the user has
    checked the tile, so it is no longer low confidence). Blank added rows are skipped. Every row
    comes numbered (`TileRow.number`): a base row as in the table, an added one after every base row's
    number and after `after` (`last_number`: the highest the case gave, a tile deleted since
    included), so that folded in, no tile takes a number another tile had.
    """
    numbered = numbered_edits(base, edits)
    given = _first_added(base, after)
    out = []
    for number, row in numbered:
        if number is None:
            given += 1
            number = given
        out.append(dataclasses.replace(row, number=number))
    return out


def _first_added(base: Sequence[TileRow], after: int) -> int:
    """The number after which the rows added to `base` are numbered: its highest, or `after`."""
    return max([*row_numbers(base), after])


def last_number(base: Base) -> int:
    """The highest tile number the case has given: of its rows, the photo's reading, the corrections
    folded in (a tile deleted, one added), the record an opened case carried, and the case's own count
    (`Base.numbered_up_to`: a tile added and then undone, which none of those names any more). A
    number names one tile in a case, for good (the corrections, the photo's labels, a case file
    downloaded earlier name it): a tile added is numbered after this (`apply_edits`), not after the
    table's last row, which may be a tile deleted since (stage 74: "#4 F1 deleted", then a cat added
    as #4)."""
    history = base.history or {}
    records = [
        *base.earlier,
        *(item for key in ("photo_tiles", "corrections") for item in _listed(history.get(key))),
    ]
    named = [positive_int(record.get("tile")) for record in records]
    return max(
        [
            0,  # no number given yet: the first tile added is #1, whatever a bad count said (#-4)
            *row_numbers(base.rows),
            *row_numbers(base.photo_rows),
            *(n for n in named if n is not None),
            base.numbered_up_to,
        ],
    )


def numbers_given(base: Base, edits: Mapping[str, Any] | None) -> int:
    """The highest tile number the table on screen has given: the case's (`last_number`), or a row's
    added in the table and not yet folded in (the photo's labels and the case file name it already)."""
    given = last_number(base)
    return max([given, *row_numbers(apply_edits(base.rows, edits, given))])


def numbering_kept(base: Base, given: int) -> Base:
    """`base`, a table started again on the same case (a step undone, the corrections undone or
    dropped by a re-read), with every number up to `given` (`numbers_given` of the table it replaces)
    still given: the base it brings back may name none of the tiles added since, yet their numbers
    are theirs (the corrections, the photo's labels, a case file downloaded name them), so a tile
    added next is numbered after them. `base` itself where it names that number already (a tile
    added, a way taken: the steps of *Undo the last tile change* are kept by the very object, `undo_kept`)."""
    if given <= last_number(base):
        return base
    return dataclasses.replace(base, numbered_up_to=given)


def _listed(items: object) -> list[Mapping[str, Any]]:
    """The records of a saved list (an opened case's `photo_tiles`, `corrections`); none for another."""
    return [item for item in items if isinstance(item, Mapping)] if isinstance(items, list) else []


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
    """The corrections folded into the table (`earlier`) and those in it `now`, each tile's net of them
    (`net_corrections`): a mark says how the later ones are numbered, so it stays only where some
    follow it."""
    return net_corrections([*earlier, *now])


def net_corrections(changes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Corrections written down step by step (a face change is folded into the table as it is made,
    `session.settle_corrected_tiles`) as each tile's net change from what it was read as to what it is
    now: "#5 5p → 4m", then "#5 4m → 4s" is "#5 5p → 4s"; a tile back to its reading has no entry; a
    tile deleted is named by the face it was read as; a kong's tick set back as read has none. The last
    step's `by` stays (who set the face it has now). A tile added with its number is its addition as
    it is now ("3m added", "#16 3m → 4m" is "#16 4m added"), or, deleted since, its addition and its
    deletion. By tile number (a tile's change, then its regroup; or its deletion), then the rows added
    without a number and the kongs' ticks; each stretch between
    `RENUMBERED` marks apart (its numbers are another table's), and a mark with nothing after it
    dropped. The net of a net list is itself."""
    out: list[dict[str, Any]] = []
    stretch: list[Mapping[str, Any]] = []
    for change in changes:
        if change.get("action") != RENUMBERED:
            stretch.append(change)
            continue
        out.extend(_net_stretch(stretch))
        stretch = []
        if not out or out[-1].get("action") != RENUMBERED:
            out.append(dict(change))
    out.extend(_net_stretch(stretch))
    while out and out[-1].get("action") == RENUMBERED:
        out.pop()
    return out


@dataclasses.dataclass
class _NetTile:
    """One tile's corrections so far, in `net_corrections`: its number, the face and group it was read
    with and has now (None: not changed or regrouped), who set them last, and whether it is deleted."""

    number: int
    read_code: str
    code: str
    read_group: str | None = None
    group: str | None = None
    code_by: Any = None
    group_by: Any = None
    deleted: bool = False
    added: bool = False  # a tile the user added (read as: added with), numbered as it was added

    def entries(self) -> list[dict[str, Any]]:
        """Its net entries: its change and regroup, or its deletion; a tile added, its addition with the
        face and group it has now ("#16 4m added to hand"), or, deleted since, as it was added and its
        deletion (its number stays named, so that no later tile is given it)."""
        if self.added:
            if self.deleted:
                add = {"action": "add", "tile": self.number, "code": self.read_code, "group": self.read_group}
                return [add, {"action": "delete", "tile": self.number, "code": self.read_code}]
            group = self.read_group if self.group is None else self.group
            return [{"action": "add", "tile": self.number, "code": self.code, "group": group}]
        if self.deleted:
            return [{"action": "delete", "tile": self.number, "code": self.read_code}]
        out: list[dict[str, Any]] = []
        if self.code != self.read_code:
            change = {"action": "change", "tile": self.number, "from": self.read_code, "to": self.code}
            out.append(change | ({"by": self.code_by} if self.code_by else {}))
        if self.group is not None and self.group != self.read_group:
            regroup = {"action": "regroup", "tile": self.number, "code": self.code}
            regroup |= {"from": self.read_group, "to": self.group}
            out.append(regroup | ({"by": self.group_by} if self.group_by else {}))
        return out


# what each correction is written with (`corrections`, `kong_corrections`): its faces by code, its
# groups by name, a tile's number (None here) a whole number above 0. A file edited by hand may lack a
# field or hold anything there (an audit, stage 78: `{"action": "delete"}` in a case's corrections
# broke every run of the page), so one check says what a correction is for every reader of them.
CORRECTION_FIELDS: dict[str, dict[str, Collection[str] | None]] = {
    "change": {"tile": None, "from": TILE_CODES, "to": TILE_CODES},
    "regroup": {"tile": None, "code": TILE_CODES, "from": GROUPS, "to": GROUPS},
    "delete": {"tile": None, "code": TILE_CODES},
    "add": {"code": TILE_CODES, "group": GROUPS},  # its number optional: a row not folded in yet has none
    "kong": {"group": MELD_GROUPS, "code": TILE_CODES},
}


def well_formed(change: Mapping[str, Any]) -> bool:
    """Whether a correction holds the fields its kind is written with (`CORRECTION_FIELDS`), each a
    value of its kind; a kong's tick says `concealed` as true or false."""
    fields = CORRECTION_FIELDS.get(str(change.get("action")))
    if fields is None or (change.get("action") == "kong" and not isinstance(change.get("concealed"), bool)):
        return False
    numbered = change.get("tile") is None or positive_int(change.get("tile")) is not None
    return numbered and all(
        positive_int(change.get(name)) is not None if values is None else change.get(name) in values
        for name, values in fields.items()
    )


def tile_number(change: Mapping[str, Any]) -> int | None:
    """The number of the tile a well-formed correction names: a face change, a regroup, a deletion or
    a row added with its number; None for a row added without one, a kong's tick, a mark, or a record
    of no form written here (kept as written wherever corrections are read)."""
    if change.get("action") == "kong" or not well_formed(change):
        return None
    return positive_int(change.get("tile"))


def _net_stretch(changes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`net_corrections` of corrections all numbered as one table (no `RENUMBERED` mark among them).
    A number names one tile until it is deleted (a later entry naming it is another tile's); an entry
    of a form not known here is kept as written, after the rows added."""
    tiles: list[_NetTile] = []
    live: dict[int, _NetTile] = {}
    added: list[dict[str, Any]] = []
    kongs: dict[str, tuple[dict[str, Any], bool]] = {}  # by group: the last tick, and the tick as read
    other: list[dict[str, Any]] = []
    for change in changes:
        action, at = change.get("action"), tile_number(change)
        if action == "add" and at is not None:
            # numbered as it was added: a tile of its own from here, as if read so
            code, group = str(change["code"]), str(change["group"])
            tiles.append(_NetTile(at, code, code, read_group=group, added=True))
            live[at] = tiles[-1]
        elif action == "add":
            added.append(dict(change))
        elif action == "kong" and well_formed(change):
            group = str(change["group"])
            as_read = kongs[group][1] if group in kongs else not change.get("concealed")
            kongs[group] = (dict(change), as_read)
        elif at is not None:
            face = change.get("from") if action == "change" else change.get("code")
            tile = live.get(at)
            if tile is None:
                tile = _NetTile(at, str(face), str(face))
                tiles.append(tile)
                live[tile.number] = tile
            if action == "change":
                tile.code, tile.code_by = str(change.get("to")), change.get("by")
            elif action == "regroup":
                if tile.read_group is None:
                    tile.read_group = str(change.get("from"))
                tile.group, tile.group_by = str(change.get("to")), change.get("by")
            else:
                tile.deleted = True
                del live[tile.number]
        else:
            other.append(dict(change))
    # stable: a number deleted and then given again (a case saved before stage 74 numbered a tile
    # added after the table's last row) names its tiles in the order they came, so the net of this
    # list is itself
    numbered = [entry for tile in sorted(tiles, key=lambda t: t.number) for entry in tile.entries()]
    ticks = [kong for kong, as_read in kongs.values() if bool(kong.get("concealed")) != as_read]
    return [*numbered, *added, *other, *ticks]


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
        # a group with no flag is read as the hand was built: concealed where laid face down (a kong
        # regrouped face down into a new group was written "set concealed" on every fold)
        as_read = bool(flags_as_read.get(group, group in build.face_down_groups))
        if meld["kind"] == "kong" and meld["concealed"] != as_read:
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


def gives_an_added_row_its_tile(edits: Mapping[str, Any] | None) -> bool:
    """Whether `edits` hold a row the user added with its tile given: its *Sure?* cell, drawn empty while
    it had none, must then say the tile is the user's (`session.settle_corrected_tiles`)."""
    return any(_added_code(added) is not None for added in (edits or {}).get("added_rows") or [])


def changes_a_read_tile(base: Sequence[TileRow], edits: Mapping[str, Any] | None) -> bool:
    """Whether `edits` give another face to a tile that carries the reader's word on it (a confidence,
    a runner-up): the user has checked that tile, and the reader's doubt no longer stands."""
    for key, change in dict((edits or {}).get("edited_rows") or {}).items():
        index = _index_key(key)
        if index is None or not 0 <= index < len(base):
            continue
        row = base[index]
        read = row.confidence is not None or row.alternative is not None
        if read and _code_as_edited(row, change) != row.code:
            return True
    return False


def _code_as_edited(row: TileRow, change: Any) -> str:
    """The tile `row` reads as with its table edit `change` (a mapping, or None): a code the edit set,
    else the row's own."""
    code = change.get("tile") if isinstance(change, Mapping) else None
    return str(code) if code in TILE_CODES else row.code


def corrections(
    base: Sequence[TileRow], edits: Mapping[str, Any] | None, after: int | None = None
) -> list[dict[str, Any]]:
    """The user's edits as a readable list (for the case JSON and the summary): what changed and how.
    Given `after` (`last_number`), a row added is named by the number `apply_edits` gives it with
    the same `after`; without, by its face alone (the table shows it as "new" until it is folded in)."""
    edits = edits or {}
    given = None if after is None else _first_added(base, after)
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
                    "code": _code_as_edited(row, change),
                    "from": row.group,
                    "to": change["group"],
                }
            )
    for key in sorted(i for i in (_index_key(k) for k in edits.get("deleted_rows") or []) if i is not None):
        if 0 <= key < len(base):
            out.append({"action": "delete", "tile": numbers[key], "code": base[key].code})
    for added in edits.get("added_rows") or []:
        if _added_code(added) is None:
            continue
        # the group as `numbered_edits` reads it: one not in the table's list is the face's own
        group = added.get("group") if added.get("group") in GROUPS else default_group(str(added["tile"]))
        entry: dict[str, Any] = {"action": "add"}
        if given is not None:
            given += 1
            entry["tile"] = given
        out.append(entry | {"code": added["tile"], "group": group})
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
    folded = take_codes(base, edits, dict(way), "win option", meld_concealed)
    return dataclasses.replace(folded, ways_closed=base.ways_closed or bool(way))


def take_codes(
    base: Base,
    edits: Mapping[str, Any] | None,
    codes: Mapping[int, str],
    by: str,
    meld_concealed: Mapping[str, bool] | None = None,
) -> Base:
    """`base` with the tiles numbered in `codes` read as the faces it names, written down as changes
    made `by` the reader's offer that named them ("win option", "set offer"), the user's table edits
    kept as `take_way` says."""
    numbers = row_numbers(base.rows)
    faces = {n: c for n, c in codes.items() if c in TILE_CODES}
    chosen, kept = _chosen_over_edits(base, edits, "tile", faces)
    rows = [
        dataclasses.replace(row, code=chosen[i], confidence=None, alternative=None) if i in chosen else row
        for i, row in enumerate(base.rows)
    ]
    taken = [
        {"action": "change", "tile": numbers[i], "from": base.rows[i].code, "to": code, "by": by}
        for i, code in sorted(chosen.items())
        if base.rows[i].code != code
    ]
    return _folded(base, rows, kept, taken, meld_concealed)


def take_regroup(
    base: Base,
    edits: Mapping[str, Any] | None,
    moves: Mapping[int, str],
    meld_concealed: Mapping[str, bool] | None = None,
) -> Base:
    """`base` with the tiles numbered in `moves` in the groups it names (the reader's offer of a meld at
    the hand's end read the other way, `app_ui.meld_offer`), written down as regroups ("by": "meld
    offer"), the user's table edits kept as `take_way` keeps them (the offer wins over an edit of the
    same tile's group)."""
    numbers = row_numbers(base.rows)
    chosen, kept = _chosen_over_edits(base, edits, "group", {n: g for n, g in moves.items() if g in GROUPS})
    # each tile as it reads now: the user's edit of its code stands
    edited_at = {_index_key(key): change for key, change in kept["edited_rows"].items()}
    code_now = {i: _code_as_edited(base.rows[i], edited_at.get(i)) for i in chosen}
    rows = [
        dataclasses.replace(row, group=chosen[i]) if i in chosen else row for i, row in enumerate(base.rows)
    ]
    taken = [
        {
            "action": "regroup",
            "tile": numbers[i],
            "code": code_now[i],
            "from": base.rows[i].group,
            "to": group,
            "by": "meld offer",
        }
        for i, group in sorted(chosen.items())
        if base.rows[i].group != group
    ]
    return _folded(base, rows, kept, taken, meld_concealed)


def _chosen_over_edits(
    base: Base, edits: Mapping[str, Any] | None, column: str, by_number: Mapping[int, str]
) -> tuple[dict[int, str], dict[str, Any]]:
    """The choices `by_number` by row index (a row the user deleted stays deleted), and the user's
    `edits` less their own edits of `column` on those rows (the newer choice wins)."""
    edits = dict(edits or {})
    deleted = {i for i in (_index_key(k) for k in edits.get("deleted_rows") or []) if i is not None}
    index_of = {number: index for index, number in enumerate(row_numbers(base.rows))}
    chosen = {index_of[n]: value for n, value in by_number.items() if n in index_of}
    chosen = {i: value for i, value in chosen.items() if i not in deleted}
    edited = {
        key: {c: value for c, value in dict(change).items() if c != column}
        if _index_key(key) in chosen and isinstance(change, Mapping)
        else change
        for key, change in dict(edits.get("edited_rows") or {}).items()
    }
    return chosen, {**edits, "edited_rows": edited}


def _folded(
    base: Base,
    rows: Sequence[TileRow],
    kept: Mapping[str, Any],
    taken: Sequence[Mapping[str, Any]],
    meld_concealed: Mapping[str, bool] | None,
) -> Base:
    """`base` with `rows` and the user's `kept` edits folded in, written down in `earlier` beside the
    choices `taken`, the photo's reading kept in `as_read`. The kongs' ticks as they stand now
    (`meld_concealed`) become the base's; the page weighs them against the reading's
    (`Base.flags_as_read`), so a tick the user changed stays a correction while its kong is one."""
    given = last_number(base)  # a row added is numbered after every number given, named so
    return dataclasses.replace(
        base,
        rows=tuple(apply_edits(rows, kept, given)),
        meld_concealed=dict(base.meld_concealed if meld_concealed is None else meld_concealed),
        as_read=base.as_read or AsRead(base.rows, base.meld_concealed),
        earlier=(*base.earlier, *corrections(base.rows, kept, given), *taken),
    )


def with_added_tile(
    base: Base,
    edits: Mapping[str, Any] | None,
    code: str,
    meld_concealed: Mapping[str, bool] | None = None,
) -> Base:
    """`base` with the table's `edits` folded in and one more tile `code`, in the group its kind goes
    to (a flower to `bonus`, a 5p to the hand), written down as the table writes a row added in it;
    the concealed-kong ticks as they stand now (`meld_concealed`, default the base's) kept."""
    return with_added_tiles(base, edits, [code], meld_concealed)


def with_added_tiles(
    base: Base,
    edits: Mapping[str, Any] | None,
    codes: Sequence[str],
    meld_concealed: Mapping[str, bool] | None = None,
) -> Base:
    """`with_added_tile` for several tiles at once, in the order given: one change, which one *Undo*
    takes back (an audit, stage 82: five tiles a photo missed cost twenty taps one by one)."""
    for code in codes:
        if code not in TILE_CODES:
            raise ValueError(f"not a tile code: {code!r}")
    added = normal_edits(edits)
    added["added_rows"].extend({"tile": code, "group": default_group(code)} for code in codes)
    return take_way(base, added, (), meld_concealed)


def fold_edits(base: Base, edits: Mapping[str, Any] | None) -> Base:
    """`base` with the table's `edits` folded into its rows and written down in `earlier` (for a table
    started again with them standing); `base` itself where there are none."""
    return take_way(base, edits, ()) if has_edits(edits) else base


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
