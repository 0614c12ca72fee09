"""A row the user adds in the tile table: its group cell showed the word "None" (Streamlit's mark of a
cell with no value); it starts with a group none of the column's options, drawn empty, and its tile goes
where its kind goes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from streamlit.testing.v1 import AppTest

from app_ui.case import GROUPS
from app_ui.table_edits import apply_edits, blank_added_rows
from app_ui.tile_editor import CHOSEN_LABEL, GROUP_BY_TILE, table_columns


def test_an_added_row_starts_with_a_group_drawn_empty_that_its_tile_decides() -> None:
    group = table_columns()["group"]
    by_tile = group["default"]
    # None, or "", is drawn "None"; a value none of the options is drawn as an empty cell
    assert by_tile and by_tile not in group["type_config"]["options"]
    added = {"added_rows": [{"tile": "F1", "group": by_tile}, {"tile": "5p", "group": by_tile}]}
    assert [(row.code, row.group) for row in apply_edits([], added)] == [("F1", "bonus"), ("5p", "hand")]
    # the user's own pick stands
    moved = {"added_rows": [{"tile": "5p", "group": "meld 2"}]}
    assert [row.group for row in apply_edits([], moved)] == ["meld 2"]
    assert "meld 2" in GROUPS


def _typed(app: AppTest) -> None:
    """A typed hand of 13 tiles used: the table the rows are added to."""
    app.text_input(key="typed_concealed").input("123m 456p 789s 2m").run()
    app.text_input(key="typed_melds").input("CCC").run()
    app.button(key="typed_use").click().run()


def _add_rows(app: AppTest, rows: list[dict[str, Any]]) -> None:
    """`rows` added at the table's foot, as the browser sends them, and the page run with them."""
    app.session_state[f"tiles_{app.session_state['version']}"] = {
        "edited_rows": {},
        "added_rows": rows,
        "deleted_rows": [],
    }
    app.run()
    assert not app.exception, [e.value for e in app.exception]


def test_rows_added_with_the_default_group_score_as_the_user_expects(app: AppTest) -> None:
    _typed(app)
    by_tile = table_columns()["group"]["default"]
    rows = [{"n": "new", "tile": "2m", "group": by_tile}, {"n": "new", "tile": "F1", "group": by_tile}]
    _add_rows(app, rows)
    said = [str(c.value) for c in app.caption if str(c.value).startswith("Your corrections")]
    # given their tiles, the rows are folded into the table, numbered after its 13 tiles
    assert said == ["Your corrections: #14 2m added to hand; #15 F1 added to bonus"], said
    # dragon pong 1 + East's own flower 1
    assert [str(s.value) for s in app.success] == ["**2 tai**"], [s.value for s in app.success]


def _drawn(node: Any) -> Iterator[Any]:
    """The page's elements in the order drawn."""
    children = getattr(node, "children", None)
    if not isinstance(children, dict):
        yield node
        return
    for key in sorted(children):
        yield from _drawn(children[key])


def test_an_added_row_starts_with_a_tile_cell_drawn_empty_and_asked_for_under_the_table(app: AppTest) -> None:
    # its Tile cell read a grey "None" under the required mark, and the line asking for the tile lay
    # above the add boxes, a screen from the row on a phone
    tile = table_columns()["tile"]
    not_picked = tile["default"]
    assert not_picked and not_picked not in tile["type_config"]["options"]
    assert blank_added_rows({"added_rows": [{"tile": not_picked, "group": GROUP_BY_TILE}]}) == 1
    _typed(app)
    added = {"n": "new", "tile": not_picked, "group": GROUP_BY_TILE, "check": ""}
    _add_rows(app, [added])
    kinds = [(node.type, str(getattr(node, "value", ""))) for node in _drawn(app.main)]
    table = max(i for i, (kind, _) in enumerate(kinds) if kind == "dataframe")
    asked = [i for i, (kind, text) in enumerate(kinds) if kind == "info" and "has no tile yet" in text]
    assert asked and asked[0] > table, kinds[table:]
    assert "empty Tile cell" in kinds[asked[0]][1]
    assert not [c for c in app.caption if str(c.value).startswith("Your corrections")]


def test_an_added_row_says_nothing_in_sure_until_it_has_a_tile_and_is_then_the_users(app: AppTest) -> None:
    # an audit: a row added in the table said "yours" in its *Sure?* cell before it held any tile; the
    # browser fills an added row's cells with the columns' defaults, and the page cannot redraw one cell
    assert table_columns()["check"]["default"] == ""
    _typed(app)
    blank = {"n": "new", "tile": table_columns()["tile"]["default"], "group": GROUP_BY_TILE, "check": ""}
    _add_rows(app, [blank])
    assert len(app.dataframe[0].value) == 13  # it waits for its tile, in the table's edits
    picked = {**blank, "tile": "2m"}
    _add_rows(app, [picked])
    frame = app.dataframe[0].value
    # folded into the table as soon as it has its tile: numbered, grouped and the user's
    assert list(frame.iloc[-1]) == ["14", "2m", "hand", CHOSEN_LABEL], frame.tail(2)
    assert [str(s.value) for s in app.success] == ["**1 tai**"], [s.value for s in app.success]
    app.button(key="undo_last").click().run()  # one step back: the table without it
    assert len(app.dataframe[0].value) == 13 and not app.exception
