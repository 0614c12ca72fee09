"""The page's scripts (`app_ui.page_script`), as the server draws them: Enter in a typed field presses
*Use this hand* (drawn with the fields on every run). What they do in a browser: tests/app/test_browser.py."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from app_ui import page_script
from app_ui.typed_tab import TYPED_FIELDS
from tests.app.test_app import no_problem, typed_hand


def scripts(at: AppTest, kind: str) -> list[str]:
    """The bodies of the page's scripts of one kind ('enter:')."""
    return [str(element.proto.body) for element in at.get("html") if kind in str(element.proto.body)]


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
