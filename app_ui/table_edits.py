"""The user's edits to the tile table: the data editor's edit state applied to the base rows, written
down as corrections, and folded into the rows when the table starts again (a way to a win taken).

Kept apart from the case's values (`app_ui.case`): this is the one place that reads Streamlit's edit
state (`edited_rows`, `added_rows`, `deleted_rows`) and numbers the tiles through it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from app_ui.case import GROUPS, TILE_CODES, AsRead, Base, HandBuild, TileRow, default_group, row_numbers


def _index_key(key: object) -> int | None:
    """The data editor stores row positions as ints in Python and as strings after a JSON round trip."""
    try:
        return int(str(key))
    except ValueError:
        return None


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
                    "code": _code_as_edited(row, change),
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
    choices `taken`, the photo's reading kept in `as_read`."""
    return dataclasses.replace(
        base,
        rows=tuple(apply_edits(rows, kept)),
        meld_concealed=dict(base.meld_concealed if meld_concealed is None else meld_concealed),
        as_read=base.as_read or AsRead(base.rows, base.meld_concealed),
        earlier=(*base.earlier, *corrections(base.rows, kept), *taken),
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
    if code not in TILE_CODES:
        raise ValueError(f"not a tile code: {code!r}")
    added = normal_edits(edits)
    added["added_rows"].append({"tile": code, "group": default_group(code)})
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
