"""*Open a case* says when the file its uploader holds is no longer the hand on the page (a photo or a
typed hand took its place), or was not opened, and offers to open it again, asking first where that
would replace corrections, as the *Photo* tab does of its photo (an audit: the tab listed the file with
no word on it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from streamlit.testing.v1 import AppTest

from app_ui.case import Base
from app_ui.case_tab import OPEN_AGAIN, OPEN_NOW, held_file_line
from tests.app.conftest import APP, captions
from tests.app.fakes import FakeReader, photo_bytes
from tests.app.test_kept_case import typed
from tests.app.test_undo_kept import edit_tiles

NO_LONGER = "my.json is no longer the hand on the page: {} took its place."
KEPT = "my.json was not opened: you kept your corrections to the typed hand."
KEPT_AGAIN = "my.json was not opened again: you kept your corrections to the typed hand."
NEWER = "my.json was not opened: a newer question took the place of its own."


def open_again_button(at: AppTest) -> Any:
    """The *Open a case* tab's button that opens its file again (there is at most one)."""
    buttons = [b for b in at.button if b.key and b.key.startswith("open_again_")]
    assert len(buttons) == 1, [b.key for b in at.button]
    return buttons[0]


def no_open_again(at: AppTest) -> bool:
    return not any(b.key and b.key.startswith("open_again_") for b in at.button)


def page_with_a_case() -> AppTest:
    """A page with my.json (a typed hand's case) opened from the *Open a case* tab."""
    first = typed(AppTest.from_file(str(APP), default_timeout=60).run(), "123m 456p 22m 789s", melds="CCC")
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="case_upload").upload(
        "my.json", json.dumps(first.session_state["case_json"]).encode(), "application/json"
    )
    at.run()
    assert not at.exception and at.session_state["base"].name == "my.json"
    assert not any("my.json" in caption for caption in captions(at)) and no_open_again(at)
    return at


def test_a_case_replaced_by_a_typed_hand_says_so_and_opens_again_at_a_press() -> None:
    at = page_with_a_case()
    typed(at, "111m 456p 22m 789s", melds="CCC")
    said = NO_LONGER.format("the typed hand")
    assert said in captions(at), captions(at)
    assert open_again_button(at).label == OPEN_AGAIN
    open_again_button(at).click().run()  # no corrections to ask about: opened at once
    assert not at.exception and at.session_state["base"].source == "case"
    assert at.session_state["base"].name == "my.json" and said not in captions(at) and no_open_again(at)
    # corrected, the case is still its file's hand: nothing said
    edit_tiles(at, {"0": {"tile": "9m"}})
    assert not any("my.json" in caption for caption in captions(at)) and no_open_again(at)


def test_opening_it_again_over_corrections_asks_first_and_kept_it_is_still_offered() -> None:
    at = page_with_a_case()
    typed(at, "111m 456p 22m 789s", melds="CCC")
    edit_tiles(at, {"0": {"tile": "9m"}})
    open_again_button(at).click().run()
    assert any("Opening **my.json** will replace them" in w.value for w in at.warning), at.warning
    assert at.session_state["base"].source == "typed"
    assert not any("my.json" in caption for caption in captions(at))  # the question says it all
    at.button(key="case_keep").click().run()
    assert not at.exception and at.session_state["base"].source == "typed"
    # it was the hand once: its second opening alone was kept off (it had said "was not opened")
    assert KEPT_AGAIN in captions(at) and KEPT not in captions(at), captions(at)
    assert open_again_button(at).label == OPEN_AGAIN
    open_again_button(at).click().run()
    at.button(key="case_replace").click().run()
    assert not at.exception and at.session_state["base"].name == "my.json"
    assert KEPT_AGAIN not in captions(at) and no_open_again(at)


def test_a_case_replaced_by_a_photo_names_the_photo(install: Callable[[FakeReader | None], None]) -> None:
    install(FakeReader())
    at = page_with_a_case()
    at.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    at.run()
    assert at.session_state["base"].source == "photo"
    assert NO_LONGER.format("hand.jpg") in captions(at), captions(at)
    open_again_button(at).click().run()
    assert at.session_state["base"].name == "my.json"
    # and the photo tab now says its photo is no longer the hand
    assert "hand.jpg is no longer the hand on the page: the case my.json took its place." in captions(at)


def test_a_file_that_does_not_open_gets_its_error_alone() -> None:
    at = typed(AppTest.from_file(str(APP), default_timeout=60).run(), "123m 456p 22m 789s", melds="CCC")
    at.file_uploader(key="case_upload").upload("bad.json", b"{not json", "application/json")
    at.run()
    assert any("bad.json" in error.value for error in at.error)
    assert not any("bad.json" in caption for caption in captions(at)) and no_open_again(at)


def test_the_line_for_each_state_of_the_file() -> None:
    case = Base(source="case", name="my.json", sha256="abc")
    typed_hand = Base(source="typed", name="typed hand")
    assert held_file_line("my.json", "abc", False, case) is None
    assert held_file_line("my.json", "abc", True, case) is None  # its tiles are the hand
    assert held_file_line("my.json", "abc", False, typed_hand) == (
        NO_LONGER.format("the typed hand"),
        OPEN_AGAIN,
    )
    other = Base(source="case", name="other.json", sha256="def")
    assert held_file_line("my.json", "abc", False, other) == (
        NO_LONGER.format("the case other.json"),
        OPEN_AGAIN,
    )
    assert held_file_line("my.json", None, True, typed_hand) == (KEPT, OPEN_NOW)
    # opened once, replaced, then kept off when offered again: it was opened, not again
    assert held_file_line("my.json", "abc", True, typed_hand) == (KEPT_AGAIN, OPEN_AGAIN)
    assert held_file_line("my.json", None, False, typed_hand) == (NEWER, OPEN_NOW)


def _corrected_page_asked_to_open_a_case() -> AppTest:
    """A typed hand with a tile corrected, and another hand's case file uploaded onto it: the page asks
    before the file replaces the corrections."""
    first = typed(AppTest.from_file(str(APP), default_timeout=60).run(), "123m 456p 22m 789s", melds="CCC")
    at = typed(AppTest.from_file(str(APP), default_timeout=60).run(), "111m 456p 22m 789s", melds="CCC")
    edit_tiles(at, {"0": {"tile": "9m"}})
    at.file_uploader(key="case_upload").upload(
        "my.json", json.dumps(first.session_state["case_json"]).encode(), "application/json"
    )
    return at.run()


def test_a_case_whose_question_gave_way_to_a_newer_one_is_offered_once_that_is_answered() -> None:
    at = _corrected_page_asked_to_open_a_case()
    assert at.session_state["pending_case"] is not None
    typed(at, "111m 456p 22m 789s", melds="FFF")  # a newer question, about the typed hand
    assert at.session_state["pending_case"] is None and at.session_state["pending_typed"] is not None
    assert NEWER in captions(at) and open_again_button(at).disabled  # nothing dropped unasked
    at.button(key="typed_keep").click().run()
    assert not open_again_button(at).disabled and open_again_button(at).label == OPEN_NOW
    open_again_button(at).click().run()
    at.button(key="case_replace").click().run()
    assert not at.exception and at.session_state["base"].name == "my.json" and no_open_again(at)


def test_a_kept_off_case_asked_about_again_and_withdrawn_is_not_said_kept_off() -> None:
    # pressed *Open it now*, the user's earlier *Keep my corrections* answers nothing: where a newer
    # question then takes the new one's place, the user kept nothing, and the line must not say so
    at = _corrected_page_asked_to_open_a_case()
    at.button(key="case_keep").click().run()
    assert KEPT in captions(at) and open_again_button(at).label == OPEN_NOW
    open_again_button(at).click().run()
    assert at.session_state["pending_case"] is not None  # asked again: the corrections stand
    typed(at, "111m 456p 22m 789s", melds="FFF")  # a newer question, about the typed hand
    assert at.session_state["pending_case"] is None and at.session_state["pending_typed"] is not None
    assert NEWER in captions(at) and KEPT not in captions(at), captions(at)
