"""A typed hand, or a case opened from a file, brought back by a reload as it stood: the hand as typed
(or the case as opened) the base *Undo my corrections* returns to, the user's corrections theirs, the
typed fields filled again, and *Undo the last tile change* naming the step it undoes (an audit: after a
reload the corrections read "Corrected before the case was saved", *Undo my corrections* was gone, the
fields were empty and the undo said "after: the tiles")."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from app_ui import kept_case
from tests.app.conftest import APP, captions, pressable
from tests.app.test_kept_case import reloaded
from tests.app.test_undo_kept import edit_tiles, has_undo_last, table_codes, undo_last

CONCEALED, MELDS, BONUS = "123m 456p 55p", "CCC 789s", "F1 cat"
YOURS = "Your corrections: #1 1m → 2m"
SAVED_BEFORE = "Corrected before the case was saved"


def changed_notes(at: AppTest) -> list[str]:
    return [info.value for info in at.info if info.value.startswith("Changed:")]


def typed_hand(at: AppTest) -> AppTest:
    """The audit's hand typed and used (3 tai), won on 5p."""
    at.text_input(key="typed_concealed").set_value(CONCEALED)
    at.text_input(key="typed_melds").set_value(MELDS)
    at.text_input(key="typed_bonus").set_value(BONUS)
    at.button(key="typed_use").click().run()
    at.selectbox(key="winning_tile").set_value("5p").run()
    assert not at.exception and at.session_state["case_json"]["result"]["tai"] == 3
    return at


def corrected(at: AppTest) -> AppTest:
    """Tile #1 changed from 1m to 2m: no win now."""
    edit_tiles(at, {"0": {"tile": "2m"}})
    assert any(caption.startswith(YOURS) for caption in captions(at)), captions(at)
    assert not at.session_state["case_json"]["result"]["valid"]
    return at


def as_before_the_reload(again: AppTest, before: AppTest) -> None:
    """The reloaded page shows the corrections as the user's own, with both undo buttons, and would
    save the very case the page saved before."""
    assert not again.exception
    notes = captions(again)
    assert any(caption.startswith(YOURS) for caption in notes), notes
    assert not any(caption.startswith(SAVED_BEFORE) for caption in notes), notes
    assert has_undo_last(again) and pressable(again, "undo")
    assert again.session_state["case_json"] == before.session_state["case_json"]
    assert again.selectbox(key="winning_tile").value == "5p"


def test_a_typed_hand_reloaded_keeps_its_corrections_its_fields_and_both_undos(
    _own_case_folder: Path,
) -> None:
    at = corrected(typed_hand(AppTest.from_file(str(APP), default_timeout=60).run()))
    again = reloaded(at)
    as_before_the_reload(again, at)
    fields = ("typed_concealed", "typed_melds", "typed_bonus")
    assert [again.text_input(key=key).value for key in fields] == [CONCEALED, MELDS, BONUS]
    # the fields are the hand used: no note that the typed hand is not the one scored
    assert not any("not the one scored" in warning.value for warning in again.warning)
    undo_last(again)
    assert changed_notes(again) == ["Changed: not a valid win → 3 tai after: #1 1m → 2m undone."]
    assert table_codes(again)[0] == "1m" and again.session_state["case_json"]["corrections"] == []


def test_undo_my_corrections_after_a_reload_returns_to_the_hand_as_typed(_own_case_folder: Path) -> None:
    at = corrected(typed_hand(AppTest.from_file(str(APP), default_timeout=60).run()))
    again = reloaded(reloaded(at))  # twice: the second page keeps the hand as typed too
    as_before_the_reload(again, at)
    again.button(key="undo").click().run()
    case = again.session_state["case_json"]
    assert not again.exception and case["corrections"] == [] and case["result"]["tai"] == 3
    assert case["source"]["kind"] == "typed" and table_codes(again)[0] == "1m"
    # and that too is a step back
    undo_last(again)
    assert table_codes(again)[0] == "2m" and changed_notes(again) == [
        "Changed: 3 tai → not a valid win after: #1 1m → 2m."
    ]


def opened_case(first: AppTest) -> AppTest:
    """The first page's case (typed, won on 5p, uncorrected) opened in a page of its own."""
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="case_upload").upload(
        "my.json", json.dumps(first.session_state["case_json"]).encode(), "application/json"
    )
    at.run()
    assert not at.exception and at.session_state["base"].source == "case"
    return at


def test_an_opened_case_reloaded_keeps_its_corrections_and_both_undos(_own_case_folder: Path) -> None:
    at = corrected(opened_case(typed_hand(AppTest.from_file(str(APP), default_timeout=60).run())))
    again = reloaded(at)
    as_before_the_reload(again, at)
    assert again.session_state["case_json"]["source"]["opened_from"]["kind"] == "typed"
    undo_last(again)
    assert changed_notes(again) == ["Changed: not a valid win → 3 tai after: #1 1m → 2m undone."]
    redo = reloaded(reloaded(at))  # twice: the second page keeps the case as opened too
    as_before_the_reload(redo, at)
    redo.button(key="undo").click().run()  # back to the case as opened
    case = redo.session_state["case_json"]
    assert not redo.exception and case["corrections"] == [] and case["result"]["tai"] == 3
    assert case["source"]["kind"] == "case" and case["source"]["name"] == "my.json"


def test_an_opened_case_s_own_corrections_stay_saved_before_and_the_page_s_stay_its_own(
    _own_case_folder: Path,
) -> None:
    first = corrected(typed_hand(AppTest.from_file(str(APP), default_timeout=60).run()))
    at = opened_case(first)  # saved with #1 1m → 2m: corrected before the case was saved
    edit_tiles(at, {"3": {"tile": "5p"}})  # and 4p → 5p in this page
    before = captions(at)
    again = reloaded(at)
    assert not again.exception and captions(again) == before
    assert again.session_state["case_json"] == at.session_state["case_json"]
    again.button(key="undo").click().run()  # the page's own correction alone: the file's stays
    case = again.session_state["case_json"]
    assert case["tiles"] == first.session_state["case_json"]["tiles"]
    assert case["corrections"] == first.session_state["case_json"]["corrections"]


def test_a_kept_case_whose_page_file_says_another_table_opens_as_saved(_own_case_folder: Path) -> None:
    at = corrected(typed_hand(AppTest.from_file(str(APP), default_timeout=60).run()))
    name = at.query_params[kept_case.QUERY_KEY]
    page = kept_case.load_json(name, kept_case.PAGE)
    assert "table" in page
    # a table other than the case's (a file written by hand, or not ours): the case opens as saved
    other = corrected(typed_hand(AppTest.from_file(str(APP), default_timeout=60).run()))
    edit_tiles(other, {"0": {"tile": "9m"}})
    foreign = kept_case.load_json(other.query_params[kept_case.QUERY_KEY], kept_case.PAGE)
    kept_case.save(name, json.dumps({**page, "table": foreign["table"]}).encode(), kept_case.PAGE)
    again = reloaded(at)
    assert not again.exception
    assert again.session_state["case_json"]["corrections"] == at.session_state["case_json"]["corrections"]
    assert any(caption.startswith(SAVED_BEFORE) for caption in captions(again))
    for garbage in ({"table": 7}, {"table": {"format": 1, "steps": "x"}}, {"typed": [1, None]}):
        kept_case.save(name, json.dumps(garbage).encode(), kept_case.PAGE)
        page_again = reloaded(at)
        assert not page_again.exception
        assert page_again.session_state["case_json"]["tiles"] == at.session_state["case_json"]["tiles"]


def test_a_kong_s_tick_comes_back_as_the_user_s_correction(_own_case_folder: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.text_input(key="typed_concealed").set_value("123m 456p 22m")
    at.text_input(key="typed_melds").set_value("CCC")
    at.text_input(key="typed_kongs").set_value("5555s")
    at.button(key="typed_use").click().run()
    key = f"concealed_{at.session_state['version']}_meld_2"
    assert at.checkbox(key=key).value is True
    at.checkbox(key=key).uncheck().run()  # the kong was exposed after all
    kong = {"action": "kong", "group": "meld 2", "code": "5s", "concealed": False}
    assert at.session_state["case_json"]["corrections"] == [kong]
    again = reloaded(at)
    assert not again.exception and again.session_state["case_json"] == at.session_state["case_json"]
    assert again.checkbox(key=f"concealed_{again.session_state['version']}_meld_2").value is False
    assert pressable(again, "undo")
    undo_last(again)  # the tick back as typed
    assert again.session_state["case_json"]["corrections"] == []
    assert again.checkbox(key=f"concealed_{again.session_state['version']}_meld_2").value is True
