"""The corrections as each tile's net change from the photo's reading (`table_edits.net_corrections`):
a face change is folded into the table as it is made (`session.settle_corrected_tiles`), so the
record holds each step, and the line, the case file and the change note must say the net of them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from app_ui.change_note import correction_changes
from app_ui.summary import correction_words, corrections_line
from app_ui.table_edits import (
    RENUMBERED,
    corrections_so_far,
    net_corrections,
    tile_number,
    well_formed,
)
from tests.app.fakes import FakeReader, photo_bytes

Install = Callable[[FakeReader | None], None]


def change(tile: int, was: str, to: str, by: str | None = None) -> dict[str, Any]:
    return {"action": "change", "tile": tile, "from": was, "to": to} | ({"by": by} if by else {})


def regroup(tile: int, code: str, was: str, to: str, by: str | None = None) -> dict[str, Any]:
    out = {"action": "regroup", "tile": tile, "code": code, "from": was, "to": to}
    return out | ({"by": by} if by else {})


def delete(tile: int, code: str) -> dict[str, Any]:
    return {"action": "delete", "tile": tile, "code": code}


def kong(group: str, code: str, concealed: bool) -> dict[str, Any]:
    return {"action": "kong", "group": group, "code": code, "concealed": concealed}


ADD = {"action": "add", "code": "cat", "group": "bonus"}
MARK = {"action": RENUMBERED}


@pytest.mark.parametrize(
    ("steps", "net"),
    [
        pytest.param([], [], id="empty"),
        pytest.param([change(5, "5p", "4m")], [change(5, "5p", "4m")], id="one-step"),
        pytest.param(
            [change(5, "5p", "4m"), change(5, "4m", "4s")], [change(5, "5p", "4s")], id="change-twice"
        ),
        pytest.param([change(5, "5p", "4m"), change(5, "4m", "5p")], [], id="change-back"),
        pytest.param(
            [change(5, "5p", "4m"), change(5, "4m", "4s"), change(5, "4s", "5p")], [], id="twice-then-back"
        ),
        pytest.param(
            [change(7, "C", "P"), change(2, "2m", "3m"), change(7, "P", "F")],
            [change(2, "2m", "3m"), change(7, "C", "F")],
            id="two-tiles-by-number",
        ),
        pytest.param(
            [change(5, "5p", "4m"), delete(5, "4m")], [delete(5, "5p")], id="changed-then-deleted-as-read"
        ),
        pytest.param(
            [regroup(3, "3m", "hand", "meld 1"), regroup(3, "3m", "meld 1", "hand")], [], id="regroup-back"
        ),
        pytest.param(
            [change(3, "3m", "4m"), regroup(3, "4m", "hand", "meld 1"), change(3, "4m", "5m")],
            [change(3, "3m", "5m"), regroup(3, "5m", "hand", "meld 1")],
            id="regroup-names-the-face-now",
        ),
        pytest.param(
            [change(11, "5m", "4m"), change(11, "4m", "2m", "win option")],
            [change(11, "5m", "2m", "win option")],
            id="a-way-taken-last",
        ),
        pytest.param(
            [change(11, "5m", "2m", "win option"), change(11, "2m", "3m")],
            [change(11, "5m", "3m")],
            id="user-last",
        ),
        pytest.param(
            [delete(4, "F1"), ADD, change(2, "2m", "3m"), delete(1, "1m")],
            [delete(1, "1m"), change(2, "2m", "3m"), delete(4, "F1"), ADD],
            id="by-number-then-rows-added",
        ),
        pytest.param([kong("meld 2", "7m", False), kong("meld 2", "7m", True)], [], id="kong-ticked-back"),
        pytest.param(
            [kong("meld 2", "7m", False), change(1, "1m", "2m")],
            [change(1, "1m", "2m"), kong("meld 2", "7m", False)],
            id="kongs-last",
        ),
        pytest.param(
            [change(3, "5s", "4s"), delete(3, "4s"), MARK, change(3, "2s", "9s"), change(3, "9s", "2s")],
            [delete(3, "5s")],
            id="a-mark-with-nothing-after-it-goes",
        ),
        pytest.param(
            [change(3, "5s", "4s"), delete(1, "1m"), MARK, change(3, "2s", "9s")],
            [delete(1, "1m"), change(3, "5s", "4s"), MARK, change(3, "2s", "9s")],
            id="numbers-after-a-mark-are-another-tables",
        ),
        pytest.param(
            [delete(15, "F1"), change(15, "3m", "4m")],
            [delete(15, "F1"), change(15, "3m", "4m")],
            id="a-number-deleted-then-given-again",
        ),
        pytest.param(
            [{"action": "change", "tile": "five"}, change(1, "1m", "2m")],
            [change(1, "1m", "2m"), {"action": "change", "tile": "five"}],
            id="a-record-edited-by-hand-kept",
        ),
    ],
)
def test_each_tile_is_written_down_by_its_net_change(
    steps: list[dict[str, Any]], net: list[dict[str, Any]]
) -> None:
    assert net_corrections(steps) == net
    assert net_corrections(net) == net  # a net list is its own net


def test_the_line_says_the_net_change_not_each_step() -> None:
    earlier = [change(5, "5p", "4m")]  # folded into the table when the face was first changed
    assert corrections_line(corrections_so_far(earlier, [change(5, "4m", "4s")])) == (
        "Your corrections: #5 5p → 4s"
    )
    assert corrections_line(corrections_so_far(earlier, [change(5, "4m", "5p")])) is None
    two = corrections_so_far([change(7, "C", "P"), change(2, "2m", "3m")], [change(7, "P", "F")])
    assert corrections_line(two) == "Your corrections: #2 2m → 3m; #7 C → F"


@pytest.mark.parametrize(
    ("before", "now", "said"),
    [
        pytest.param([change(5, "5p", "4m")], [change(5, "5p", "4s")], ["#5 4m → 4s"], id="the-last-step"),
        pytest.param([change(5, "5p", "4m")], [], ["#5 5p → 4m undone"], id="back-as-read"),
        pytest.param(
            [change(5, "5p", "4m")],
            [change(5, "5p", "4s", "win option")],
            ["#5 4m → 4s (way to a win taken)"],
            id="a-way",
        ),
        pytest.param(
            [change(5, "5p", "4s")],
            [change(5, "5p", "4s", "win option")],
            ["#5 5p → 4s (way to a win taken)"],
            id="the-same-face-by-a-way",
        ),
        pytest.param(
            [change(5, "5p", "4m"), regroup(5, "4m", "hand", "meld 1")],
            [change(5, "5p", "4s"), regroup(5, "4s", "hand", "meld 1")],
            ["#5 4m → 4s"],
            id="a-regroup-moved-only-by-the-face",
        ),
        pytest.param(
            [regroup(5, "4m", "hand", "meld 1")],
            [regroup(5, "4m", "hand", "meld 2")],
            ["#5 4m meld 1 → meld 2"],
            id="regroup",
        ),
        pytest.param(
            [change(5, "5p", "4m"), regroup(5, "4m", "hand", "meld 1")],
            [regroup(5, "5p", "hand", "meld 1")],
            ["#5 5p → 4m undone"],
            id="the-face-back-the-group-kept",
        ),
        pytest.param(
            [change(5, "5p", "4m")], [delete(5, "5p")], ["#5 5p deleted"], id="deleted-after-a-change"
        ),
        pytest.param(
            [delete(5, "5p")],
            [change(5, "5p", "4m")],
            ["#5 5p → 4m", "#5 5p deleted undone"],
            id="back-from-deleted",
        ),
        pytest.param(
            [change(5, "5p", "4m")],
            [change(5, "5p", "4m"), change(7, "C", "P")],
            ["#7 C → P"],
            id="another-tile",
        ),
        pytest.param(
            [kong("meld 2", "7m", False)],
            [change(1, "1m", "2m")],
            ["#1 1m → 2m", "marked the 7m kong concealed again"],
            id="a-kong-tick-undone",
        ),
        pytest.param([], [kong("meld 1", "5p", True)], ["marked the 5p kong concealed"], id="a-kong-ticked"),
        pytest.param(
            [change(1, "1m", "2m")],
            [change(1, "1m", "2m"), kong("meld 1", "5p", False)],
            ["marked the 5p kong exposed"],
            id="a-kong-unticked-beside-a-standing-change",
        ),
        pytest.param(
            [change(3, "5s", "4s")],
            [change(3, "5s", "4s"), MARK, change(3, "2s", "9s")],
            ["#3 2s → 9s"],
            id="numbers-after-a-mark-are-another-tables",
        ),
        pytest.param(
            [delete(15, "F1")],
            [delete(15, "F1"), change(15, "3m", "4m")],
            ["#15 3m → 4m"],
            id="a-number-deleted-then-given-again",
        ),
    ],
)
def test_the_change_note_tells_a_tile_corrected_again_by_its_last_step(
    before: list[dict[str, Any]], now: list[dict[str, Any]], said: list[str]
) -> None:
    assert correction_changes(before, now) == said


def _edit(at: AppTest, edits: dict[str, Any]) -> None:
    at.session_state[f"tiles_{at.session_state['version']}"] = {"added_rows": [], "deleted_rows": [], **edits}
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def _said(at: AppTest) -> list[str]:
    return [str(c.value) for c in at.caption if str(c.value).startswith("Your corrections")]


def _saved(at: AppTest) -> list[dict[str, Any]]:
    return list(json.loads(json.dumps(at.session_state["case_json"]))["corrections"])


def test_a_tile_corrected_twice_and_back_in_the_app(app: AppTest, install: Install) -> None:
    install(FakeReader())
    app.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    app.run()
    rows = app.session_state["base"].rows
    assert (rows[4].code, rows[14].code) == ("5p", "F1") and rows[14].confidence is not None
    _edit(app, {"edited_rows": {"14": {"tile": "F2"}}})  # a read tile: folded into the table at once
    assert _said(app) == ["Your corrections: #15 F1 → F2"]
    _edit(app, {"edited_rows": {"14": {"tile": "cat"}}})
    assert _said(app) == ["Your corrections: #15 F1 → cat"]  # not "#15 F1 → F2; #15 F2 → cat"
    assert _saved(app) == [change(15, "F1", "cat")]
    changed = [str(i.value) for i in app.info if str(i.value).startswith("Changed:")]
    assert changed == ["Changed: 1 tai → 2 tai after: #15 F2 → cat."], changed  # the step just made
    _edit(app, {"edited_rows": {"4": {"tile": "4m"}, "14": {"tile": "cat"}}})  # and #5, read too
    assert _said(app) == ["Your corrections: #5 5p → 4m; #15 F1 → cat"]  # by tile number
    _edit(app, {"edited_rows": {"4": {"tile": "5p"}, "14": {"tile": "F1"}}})  # both back as read
    assert _said(app) == [] and _saved(app) == []
    # nothing is corrected, so a new photo replaces the hand without asking
    app.file_uploader(key="upload").upload("second.jpg", photo_bytes(shade=30), "image/jpeg")
    app.run()
    assert app.session_state["base"].name == "second.jpg"


# a correction as a hand-edited file may write it: each field of a kind the app writes, or not
_FIELD_VALUES = {
    "tile": st.sampled_from([None, 1, 3, 0, -2, True, "3", 2.0]),
    "from": st.sampled_from(["5p", "hand", "zz", None, 5]),
    "to": st.sampled_from(["6p", "meld 1", "bonus", "meld 9", ""]),
    "code": st.sampled_from(["5p", "back", "cat", "<b>", None]),
    "group": st.sampled_from(["hand", "meld 2", "ignore", "table", None]),
    "concealed": st.sampled_from([True, False, "yes", None]),
}
_RECORDS = st.fixed_dictionaries(
    {"action": st.sampled_from(["change", "regroup", "delete", "add", "kong", "swap"])},
    optional=_FIELD_VALUES,
)


@settings(max_examples=400, deadline=None)
@given(_RECORDS)
def test_one_check_says_what_a_correction_is_for_every_reader(record: dict[str, Any]) -> None:
    """The netting, the change note and the corrections line read a correction by one check
    (`table_edits.well_formed`): a tile the netting and the note follow is one the line can say, and a
    record of no form written here is kept as written and said nowhere (stage 78 left three checks
    that disagreed: the note followed `#3 5p → zz` as tile 3, the line could not say it)."""
    number = tile_number(record)
    words = correction_words(record)
    if number is not None:
        assert words is not None and words.startswith(f"#{number} ")
    if not well_formed(record):
        assert words is None and tile_number(record) is None
        assert net_corrections([record]) == [record]
        assert correction_changes([], [record]) == []
