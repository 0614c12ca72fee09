"""The empty page's prompt ("Upload a photo, try a sample, or type a hand to start.") is hidden while a
photo is read: the page drawn before keeps its elements on screen until the run reaches them, and the
prompt, drawn after the tabs whose uploader starts the reading, stood under the reader's spinner asking
for the photo being read (an audit). The browser test (`test_browser.py`) sees it hidden; this one, that
the page draws the rule that hides it and the prompt where the rule finds it."""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest

from app_ui.hand_view import START_PROMPT, START_PROMPT_CSS, START_PROMPT_KEY
from tests.app.test_app import typed_hand


def _keyed_blocks(node: Any, key: str) -> list[Any]:
    """The page's containers given `key` (Streamlit writes it at the end of the block's id)."""
    children = getattr(node, "children", None)
    if not isinstance(children, dict):
        return []
    own = [node] if str(getattr(getattr(node, "proto", None), "id", "")).endswith(f"-{key}") else []
    return own + [block for child in children.values() for block in _keyed_blocks(child, key)]


def _texts(node: Any) -> list[str]:
    children = getattr(node, "children", None)
    if not isinstance(children, dict):
        return [str(getattr(node, "value", ""))]
    return [text for child in children.values() for text in _texts(child)]


def test_the_empty_pages_prompt_is_hidden_while_a_spinner_shows(app: AppTest) -> None:
    (prompt,) = _keyed_blocks(app.main, START_PROMPT_KEY)
    assert _texts(prompt) == [START_PROMPT]
    styles = [str(element.proto.body) for element in app.get("html") if "<style>" in str(element.proto.body)]
    assert any(START_PROMPT_CSS in style for style in styles), styles
    assert "[data-testid='stSpinner']" in START_PROMPT_CSS and "display: none" in START_PROMPT_CSS
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    assert not _keyed_blocks(app.main, START_PROMPT_KEY)  # a hand on the page: no prompt
