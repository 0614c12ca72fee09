"""A row the user adds in the tile table: its group cell showed the word "None" (Streamlit's mark of a
cell with no value); it starts with a group none of the column's options, drawn empty, and its tile goes
where its kind goes."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from app_ui.case import GROUPS
from app_ui.table_edits import apply_edits
from app_ui.tile_editor import table_columns


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


def test_rows_added_with_the_default_group_score_as_the_user_expects(app: AppTest) -> None:
    app.text_input(key="typed_concealed").input("123m 456p 789s 2m").run()
    app.text_input(key="typed_melds").input("CCC").run()
    app.button(key="typed_use").click().run()
    by_tile = table_columns()["group"]["default"]
    rows = [{"n": "new", "tile": "2m", "group": by_tile}, {"n": "new", "tile": "F1", "group": by_tile}]
    app.session_state[f"tiles_{app.session_state['version']}"] = {
        "edited_rows": {},
        "added_rows": rows,
        "deleted_rows": [],
    }
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    said = [str(c.value) for c in app.caption if str(c.value).startswith("Your corrections")]
    assert said == ["Your corrections: 2m added to hand; F1 added to bonus"], said
    # dragon pong 1 + East's own flower 1
    assert [str(s.value) for s in app.success] == ["**2 tai**"], [s.value for s in app.success]
