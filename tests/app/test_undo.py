"""The undo list's steps as pure values (`app_ui.undo`), without Streamlit."""

from __future__ import annotations

from app_ui.case import Base, TableState, TileRow
from app_ui.undo import (
    SeenTable,
    restored,
    step_before,
    ticks_changed,
    with_newest_winning_tile,
    with_step,
    with_winning_tile,
)

ROWS = (TileRow("1m"), TileRow("2m"), TileRow("3m"))
BASE = Base(rows=ROWS, source="typed")
NO_EDITS: dict[str, object] = {"edited_rows": {}, "added_rows": [], "deleted_rows": []}
ONE_EDIT = {"edited_rows": {1: {"tile": "9m"}}, "added_rows": [], "deleted_rows": []}


def test_a_run_that_changed_the_table_keeps_it_as_it_was_before() -> None:
    seen, now = SeenTable(3, NO_EDITS, {}), SeenTable(3, ONE_EDIT, {})
    assert step_before(seen, now, BASE) == TableState(BASE, NO_EDITS, {})


def test_a_run_that_changed_nothing_or_started_another_table_keeps_no_step() -> None:
    assert step_before(SeenTable(3, ONE_EDIT, {}), SeenTable(3, ONE_EDIT, {}), BASE) is None
    assert step_before(SeenTable(2, NO_EDITS, {}), SeenTable(3, ONE_EDIT, {}), BASE) is None  # a new table
    assert step_before(None, SeenTable(3, ONE_EDIT, {}), BASE) is None  # the first run


def test_a_kong_tick_changed_is_a_step_too() -> None:
    seen, now = SeenTable(3, NO_EDITS, {}), SeenTable(3, NO_EDITS, {"meld 1": True})
    assert step_before(seen, now, BASE) == TableState(BASE, NO_EDITS, {})


def test_only_ticks_set_otherwise_than_the_hand_has_them_are_changes() -> None:
    as_read = {"meld 1": True, "meld 2": False}
    now = {"meld 1": True, "meld 2": True, "meld 3": False}  # meld 3: a tick first drawn, as read
    assert ticks_changed(as_read, now) == {"meld 2": True}


def test_the_list_keeps_the_newest_steps_only() -> None:
    steps: list[TableState] = []
    for n in range(7):
        steps = with_step(steps, TableState(BASE, {"edited_rows": {0: {"tile": f"{n + 1}p"}}}, {}), at_most=5)
    assert len(steps) == 5
    assert [s.edits["edited_rows"][0]["tile"] for s in steps] == ["3p", "4p", "5p", "6p", "7p"]


def test_a_step_back_folds_the_edits_then_standing_into_the_rows() -> None:
    back = restored(TableState(BASE, ONE_EDIT, {}))
    assert [r.code for r in back.rows] == ["1m", "9m", "3m"]
    assert back.earlier == ({"action": "change", "tile": 2, "from": "2m", "to": "9m"},)
    assert restored(TableState(BASE, NO_EDITS, {})) == BASE


def test_a_step_may_bring_back_the_winning_tile() -> None:
    state = with_winning_tile(TableState(BASE, NO_EDITS, {}), ("5s", None))
    assert state.winning_tile == ("5s", None) and state.base == BASE


def test_a_re_read_after_the_newest_step_leaves_it_the_winning_tile_of_its_names() -> None:
    older, newest = TableState(BASE, ONE_EDIT, {}), TableState(BASE, NO_EDITS, {})
    steps = with_newest_winning_tile([older, newest], ("5s", None))
    assert steps == [older, with_winning_tile(newest, ("5s", None))]
    # a step that brings one back already keeps its own; an empty list stays empty
    assert with_newest_winning_tile(steps, ("5p", None))[-1].winning_tile == ("5s", None)
    assert with_newest_winning_tile([], ("5s", None)) == []
