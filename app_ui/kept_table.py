"""What a page keeps beside its case for a reload (`kept_case.PAGE`) that the case file cannot say: the
tile table as it stood (its base, the hand as typed or the case as opened, with the user's edits and
kong ticks) and the typed hand's fields.

The case file holds the table as corrected and every correction as one list: reopened from it alone, a
typed hand has nothing to go back to (*Undo my corrections*), and an opened case cannot tell the
corrections made before its file was saved from those made in this page. The table kept here is
brought back where it is the very table the case file saved (`table_back`); else the case opens as
saved. A photo's table is not kept: a reload reads the photo again for its base (`app_ui.reload`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app_ui import case_file, hand_build, table_edits, undo_kept
from app_ui.case import Base, HandBuild, TableState
from app_ui.case_open import OpenedCase
from app_ui.undo import restored

# the page file's keys (beside `context_panel.set_aside_choices`' own)
TABLE, TYPED = "table", "typed"
# the sources whose base a reload cannot make again from the case file
KEPT_SOURCES = ("typed", "case")
# a typed field longer than this is no hand a user typed: not written back into the page
FIELD_AT_MOST = 2_000


@dataclass(frozen=True)
class TableBack:
    """A reloaded page's tile table: its base with the edits then standing folded in (Streamlit cannot
    set a table's edits), and the kong ticks set otherwise than its hand (widget values)."""

    base: Base
    ticks: Mapping[str, bool]


@dataclass(frozen=True)
class TypedBack:
    """The typed hand's fields as they stood (`typed_tab.TYPED_FIELDS`' order), and the fields of the
    hand last used from them (None: none used), for the page to say as before whether they differ."""

    fields: tuple[str, ...]
    used: tuple[str, ...] | None


def table_json(state: TableState) -> dict[str, Any] | None:
    """The table as it stands (`session.table_now`) as plain JSON, written as an undo step is; None for
    a photo's (read again on a reload) or a table that does not write (then the case opens as saved)."""
    if state.base.source not in KEPT_SOURCES:
        return None
    written = undo_kept.steps_json([state])
    return written if written["steps"] else None


def table_back(data: object, opened: OpenedCase) -> TableBack | None:
    """The table `table_json` kept, where it is the table of the case the reload `opened` (the same
    record, tiles, melds and corrections); else None (no table kept, a file that does not read, or
    written for another case), and the case opens as saved."""
    steps = undo_kept.steps_from_json(data, at_most=1)
    if len(steps) != 1 or steps[0].base.source not in KEPT_SOURCES:
        return None
    state = steps[0]
    back = TableBack(restored(state), dict(state.meld_concealed))
    return back if _is_the_case(back, opened) else None


def _is_the_case(back: TableBack, opened: OpenedCase) -> bool:
    """Whether the table brought `back` would save the case `opened` holds: where it came from, its
    tiles by number, its hand (kongs' ticks and all) and its corrections, each tile's net of them."""
    kept = opened.base.history or {}
    if undo_kept.case_record(back.base) != undo_kept.record_of(kept):
        return False
    base, saved = back.base, opened.base
    if _tiles(base.rows) != _tiles(saved.rows):
        return False
    build = hand_build.build_hand(list(base.rows), {**base.meld_concealed, **back.ticks})
    if build.hand != hand_build.build_hand(list(saved.rows), saved.meld_concealed).hand:
        return False
    return table_edits.net_corrections(page_corrections(back, build)) == table_edits.net_corrections(
        kept.get("corrections") or []
    )


def page_corrections(back: TableBack, build: HandBuild) -> list[dict[str, Any]]:
    """The corrections the table brought `back` saves, as the case file writes them
    (`case_file.case_corrections`; its edits are folded into its base, its kongs' ticks from `build`)."""
    kongs = table_edits.kong_corrections(build, back.base.flags_as_read)
    return case_file.case_corrections(back.base, None, kongs)


def _tiles(rows: Sequence[Any]) -> list[tuple[object, ...]]:
    """Each tile's number, code and group, as a case file saves them (confidences and boxes aside)."""
    return [(item["tile"], item["code"], item["group"]) for item in case_file.rows_to_json(rows)]


def typed_json(fields: Sequence[str], used: Sequence[str] | None) -> dict[str, Any]:
    return {"fields": list(fields), "used": None if used is None else list(used)}


def typed_back(data: object, count: int) -> TypedBack | None:
    """The typed fields `typed_json` kept (`count` of them), or None where it is not that (a file of an
    older app, or not ours)."""
    if not isinstance(data, Mapping):
        return None
    fields, used = _texts(data.get("fields"), count), data.get("used")
    used_fields = None if used is None else _texts(used, count)
    if fields is None or (used is not None and used_fields is None):
        return None
    return TypedBack(fields, used_fields)


def _texts(value: object, count: int) -> tuple[str, ...] | None:
    if not isinstance(value, list) or len(value) != count:
        return None
    if not all(isinstance(text, str) and len(text) <= FIELD_AT_MOST for text in value):
        return None
    return tuple(value)


def with_table(opened: OpenedCase, back: TableBack) -> OpenedCase:
    """The case a reload opened, with the table it held in place of the one its file saved."""
    return dataclasses.replace(opened, base=back.base, reloaded=True)
