"""One toast a run (`app_ui.toasts`): two raised by one change stacked on a phone's screen."""

from __future__ import annotations

from app_ui.toasts import toast_text


def test_lines_queued_in_a_run_make_one_toast_in_their_order_with_the_first_icon() -> None:
    lines = [("South is the winner's seat now.", None), ("Changed: 2 tai → 1 tai.", "🔁")]
    assert toast_text(lines) == ("South is the winner's seat now.\n\nChanged: 2 tai → 1 tai.", "🔁")


def test_no_line_no_toast() -> None:
    assert toast_text([]) is None
    assert toast_text([("Pay-all off.", None)]) == ("Pay-all off.", None)
