"""The case file the page offers for download: the scoring input at the top level, then the photo's
reading, the corrections, the final tiles and the result; and the saved tile records read against a
fresh reading of the photo.

Writing the file is kept apart from opening one (`app_ui.case_open`), which validates what it reads.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import Any

from app_ui.case import NUMBERED_UP_TO, Base, TileRow, row_numbers
from app_ui.table_edits import corrections, corrections_so_far, last_number, numbers_given


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
    replays it), then where it came from (`source`, with the highest tile number the case has given,
    `Base.numbered_up_to`), the photo's reading, the user's corrections (the table's, then
    `kong_changes`: `table_edits.kong_corrections`), the final tiles and the result."""
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
    data["corrections"] = case_corrections(base, edits, kong_changes)
    if base.history is not None:
        # the trail the opened file carried comes first: its photo's reading and earlier corrections
        if base.restored:
            data["source"] = base.history.get("source")
        else:
            data["source"]["opened_from"] = base.history.get("source")
        data["photo_tiles"] = list(base.history.get("photo_tiles") or [])
    if isinstance(data["source"], Mapping):
        # the highest tile number the case has given, a tile added and then undone included, which its
        # tiles and corrections no longer name: opened again, a tile added is numbered after it
        data["source"] = {**data["source"], NUMBERED_UP_TO: numbers_given(base, edits)}
    data["tiles"] = rows_to_json(rows)
    data["result"] = dict(result) if result is not None else None
    return data


def case_corrections(
    base: Base, edits: Mapping[str, Any] | None, kong_changes: Sequence[Mapping[str, Any]] = ()
) -> list[dict[str, Any]]:
    """The corrections a case file saves (`case_json`): those folded into the table, the table's `edits`,
    then `kong_changes` (`table_edits.kong_corrections`), after those the opened file carried, where
    it was opened from one (the table numbered afresh after them where they added or deleted rows)."""
    # the mark where folded corrections added or deleted rows stays in the record: the numbers after it
    # are the table's as saved (`tiles`), not the photo's (`photo_tiles`)
    # a row added names the number its tile has in `tiles` (`last_number`, as the page numbers it)
    now = corrections(base.rows, edits, last_number(base))
    # the kongs' ticks netted with those folded in: a tick set back after a fold leaves no entry
    saved = corrections_so_far(list(map(dict, base.earlier)), [*now, *map(dict, kong_changes)])
    if base.history is None:
        return saved
    return corrections_so_far(list(map(dict, base.history.get("corrections") or [])), saved)


def case_bytes(case: Mapping[str, Any]) -> bytes:
    return json.dumps(case, indent=2, ensure_ascii=False).encode("utf-8")


DOWNLOAD_PREFIX = "mahjong-case"
# a name this page gave a case file (its stem): opened again, its hand is named as at first, not
# "mahjong-case-mahjong-case-IMG_1-20260101-1200"; the bare name every download had before, and a
# browser's copy of either (" (1)" where the folder held one of that name already), alike
_OWN_NAME = re.compile(rf"^{DOWNLOAD_PREFIX}(?:-(?P<stem>.*?))?(?:-\d{{8}}-\d{{4}})?(?: \(\d+\))?$")


def download_name(case: Mapping[str, Any], when: datetime.datetime) -> str:
    """The downloaded case's file name: the hand's source (a photo's stem, "typed", or an opened file's
    own source, back to where its hand first came from) and `when`, to the minute, in safe characters
    only: every download had been `mahjong-case.json`, and several hands piled up as "(1)", "(2)"."""
    source = case.get("source")
    # an opened case names where it came from; a case saved from an opened one, where that came from
    while isinstance(source, Mapping) and isinstance(source.get("opened_from"), Mapping):
        source = source["opened_from"]
    kind = str(source.get("kind") or "") if isinstance(source, Mapping) else ""
    name = str(source.get("name") or "") if isinstance(source, Mapping) else ""
    stem = "typed" if kind == "typed" else PurePath(name).stem
    own = _OWN_NAME.match(stem)
    if own is not None:
        stem = own["stem"] or ""  # the bare old name says nothing of the hand: named by its kind
    # letters, digits, - and _ alone: no path, quote or space for a browser or a shell to trip on
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-_")[:40].strip("-_")
    fallback = kind if kind in ("typed", "photo") else "hand"  # not "mahjong-case-case-..."
    return f"{DOWNLOAD_PREFIX}-{safe or fallback}-{when:%Y%m%d-%H%M}.json"
