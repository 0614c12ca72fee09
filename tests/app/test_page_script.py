"""The page's two scripts (`app_ui.page_script`), as the server draws them: Enter in a typed field
presses *Use this hand* (drawn with the fields on every run), and a photo read or a typed hand used
takes a phone to its result (drawn once per hand, never on the runs after it). What they do in a browser:
tests/app/test_browser.py."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app import HALVES
from app_ui import page_script
from app_ui.typed_tab import TYPED_FIELDS
from tests.app.fakes import FakeReader, photo_bytes
from tests.app.test_app import Install, edit_tiles, no_problem, open_case_file, typed_hand, upload


def scripts(at: AppTest, kind: str) -> list[str]:
    """The bodies of the page's scripts of one kind ('scroll:' or 'enter:')."""
    return [str(element.proto.body) for element in at.get("html") if kind in str(element.proto.body)]


def scrolls(at: AppTest) -> list[str]:
    return scripts(at, "scroll:")


def test_a_photo_read_draws_the_scroll_to_its_result_once(app: AppTest, install: Install) -> None:
    install(FakeReader())
    assert not scrolls(app)
    upload(app, photo_bytes())
    no_problem(app)
    first = scrolls(app)
    assert len(first) == 1 and '"result"' in first[0]
    # the runs after it, a correction's among them, leave the page where the user is
    app.selectbox(key="seat_wind").set_value("S").run()
    assert not scrolls(app)
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    assert not scrolls(app)
    app.run()
    assert not scrolls(app)


def test_each_new_photo_is_scrolled_to_once_and_a_sample_too(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes(shade=90))
    first = scrolls(app)
    upload(app, photo_bytes(shade=120, fmt="PNG"), name="other.png")
    second = scrolls(app)
    assert len(second) == 1 and second != first  # its own token: the browser runs it though it ran one
    app.run()
    assert not scrolls(app)
    sample = next(button for button in app.button if str(button.key).startswith("sample_"))
    sample.click().run()
    no_problem(app)
    assert len(scrolls(app)) == 1
    app.run()
    assert not scrolls(app)


def test_a_photo_read_after_its_question_is_scrolled_to_on_the_run_that_shows_it(
    app: AppTest, install: Install
) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    upload(app, photo_bytes(shade=120, fmt="PNG"), name="other.png")
    assert app.session_state["pending"] is not None and not scrolls(app)  # asked first: not read yet
    app.button(key="pending_replace").click().run()  # read, then the page runs again to show it
    no_problem(app)
    assert len(scrolls(app)) == 1
    app.run()
    assert not scrolls(app)


def test_a_photo_not_read_draws_no_scroll(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, b"this is not a photo", name="notes.png")
    no_problem(app)
    assert app.session_state["photo_error"] and not scrolls(app)


def test_a_typed_hand_used_is_scrolled_to_once_and_a_refused_one_not(app: AppTest) -> None:
    """On a phone the result lay two screens under *Use this hand*: a typed hand used scrolls to it once,
    as a photo read does; a refused one leaves the refusal in sight by the fields."""
    typed_hand(app, "123m 456p 789s CCC 55p")
    no_problem(app)
    first = scrolls(app)
    assert len(first) == 1 and '"result"' in first[0]
    app.selectbox(key="seat_wind").set_value("S").run()
    assert not scrolls(app)
    app.run()
    assert not scrolls(app)
    typed_hand(app, "123m 456p 789s CCC 55p")  # used again: a hand of its own, its own token
    second = scrolls(app)
    assert len(second) == 1 and second != first
    app.run()
    assert not scrolls(app)
    app.text_input(key="typed_concealed").input("99").run()
    app.button(key="typed_use").click().run()
    assert app.error and not scrolls(app)
    app.run()
    assert not scrolls(app)


def test_a_typed_hand_that_kept_the_last_ones_fields_stays_by_their_note(app: AppTest) -> None:
    # the note on fields kept from the last hand stands by the fields: scrolled away, it is missed
    typed_hand(app, "123m 456p 789s 55p", melds="CCC")
    assert len(scrolls(app)) == 1
    app.text_input(key="typed_concealed").input("123p 456p 789s 55p").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert any(t.startswith("Kept as typed for the last typed hand") for t in [i.value for i in app.info])
    assert not scrolls(app)


def test_a_typed_hand_used_after_its_question_is_scrolled_to_once(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    typed_hand(app, "123m 456p 789s CCC 55p")
    assert app.session_state["pending_typed"] is not None and not scrolls(app)  # asked first: not used yet
    app.button(key="typed_replace").click().run()
    no_problem(app)
    assert len(scrolls(app)) == 1
    app.run()
    assert not scrolls(app)


def test_enter_presses_use_this_hand_on_every_run(app: AppTest) -> None:
    for _ in range(2):
        (enter,) = scripts(app, "enter:")
        assert json.dumps(list(TYPED_FIELDS)) in enter and '"typed_use"' in enter
        typed_hand(app, "123m 456p 789s CCC 55p")
    # a refusal returns early from the tab: the script is drawn before it
    app.text_input(key="typed_concealed").input("99").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert len(scripts(app, "enter:")) == 1


@pytest.mark.parametrize("value", ["7", "</script><b>", "a'b\"c"])
def test_the_scripts_values_are_written_as_json_that_cannot_end_them(value: str) -> None:
    assert json.loads(page_script.js(value)) == value
    assert "</" not in page_script.enter_presses([value], value)
    assert "</" not in page_script.scroll_to(value, value, value)


def test_the_toast_keeps_off_the_table_rows_being_edited(app: AppTest) -> None:
    # an audit: on a phone a correction's toast, at the top of the screen, lay over the tile table's first
    # rows; a tap on the table's half in the screen's upper half marks the page, and the mark sends the
    # toast to the bottom (what the browser does: tests/app/test_browser.py)
    drawn = scripts(app, '"toast-away"')
    assert len(drawn) == 1
    assert json.dumps(HALVES) in drawn[0] and json.dumps(page_script.TOAST_LOW) in drawn[0]
    styles = " ".join(
        str(element.proto.body) for element in app.get("html") if "<style>" in str(element.proto.body)
    )
    assert (
        f"body[{page_script.TOAST_LOW}] .stToastContainer {{ top: auto !important; bottom: 1rem; }}" in styles
    )
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    edit_tiles(app, {"edited_rows": {"0": {"tile": "4m"}}, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    assert len(scripts(app, '"toast-away"')) == 1  # drawn on every run, alike: the browser runs it once


def test_an_opened_case_is_scrolled_to_once_unless_a_note_on_the_sidebar_stands_by_its_box(
    app: AppTest,
) -> None:
    # a walkthrough: a photo read and a typed hand took a phone to the result, an opened case did not;
    # its result lay two screens below the file box
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    saved = json.dumps(app.session_state["case_json"]).encode()
    app.run()
    assert not scrolls(app)
    open_case_file(app, saved)
    no_problem(app)
    first = scrolls(app)
    assert len(first) == 1 and '"result"' in first[0]
    app.run()
    assert not scrolls(app)
    # a case that sets the sidebar otherwise says so by the box: the page stays there to be read
    other = json.loads(saved)
    other["options"] = {**other.get("options", {}), "max_tai": 8}
    open_case_file(app, json.dumps(other).encode(), name="other.json")
    no_problem(app)
    assert any("See the sidebar" in str(note.value) for note in app.info)
    assert not scrolls(app)
