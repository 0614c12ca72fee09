"""Every number reproducible: the case the page offers, replayed by `python -m scoring` and opened in
the app again, gives the tai, patterns and payouts the page showed."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from scoring import __main__ as cli
from tests.app.conftest import APP

# the fields `python -m scoring` scores (the case's record of its photo and corrections aside)
SCORING_FIELDS = (
    "rules",
    "options",
    "concealed",
    "melds",
    "bonus",
    "self_drawn",
    "seat_wind",
    "prevailing_wind",
    "circumstances",
    "pay_all",
    "winning_tile",
    "discarder_wind",
    "bonus_from_deal",
)


def fresh() -> AppTest:
    return AppTest.from_file(str(APP), default_timeout=60).run()


def typed(at: AppTest, concealed: str, melds: str = "", kongs: str = "", bonus: str = "") -> AppTest:
    for key, value in (
        ("typed_concealed", concealed),
        ("typed_melds", melds),
        ("typed_kongs", kongs),
        ("typed_bonus", bonus),
    ):
        at.text_input(key=key).set_value(value)
    return at.button(key="typed_use").click().run()


def opened(case: dict[str, Any]) -> AppTest:
    """The case opened in a new session, as a user opens a file downloaded earlier."""
    at = fresh()
    data = json.dumps(case, indent=2, ensure_ascii=False).encode()
    at.file_uploader(key="case_upload").upload("mahjong-case.json", data, "application/json")
    return at.run()


def replayed(case: dict[str, Any], tmp_path: Path) -> tuple[int, dict[str, Any] | None]:
    """`python -m scoring CASE.json --json` (in process): its exit status and its output."""
    path = tmp_path / "mahjong-case.json"
    path.write_text(json.dumps(case, indent=2, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = cli.main([str(path), "--json"])
    return status, (json.loads(out.getvalue()) if out.getvalue().strip() else None)


def scored(case: dict[str, Any]) -> dict[str, Any]:
    """The scoring fields as the file has them (JSON: a payout table's pairs are lists)."""
    out = json.loads(json.dumps({key: case.get(key) for key in SCORING_FIELDS}))
    out["circumstances"] = sorted(out["circumstances"] or [])  # the order they were ticked in is no fact
    return out


def test_a_case_with_an_unfinished_meld_and_bonus_tiles_held_from_the_deal_opens_again(
    tmp_path: Path,
) -> None:
    # the file opened with an empty bonus row while it still named the tiles held from the deal: the
    # scoring refused them ("bonus_from_deal lists F1, which is not in the bonus row") and the app's
    # own download did not open
    at = typed(fresh(), "123m 456p 22m", melds="CCC 789s", bonus="F1 cat")
    at.multiselect(key="bonus_from_deal").set_value(["F1", "cat"]).run()
    rows = len(at.session_state["base"].rows)
    last_of_789s = 12  # 123m 456p 22m are rows 0-7, CCC 8-10, 789s 11-13
    assert rows == 16 and at.session_state["base"].rows[last_of_789s].code == "8s"
    at.session_state[f"tiles_{at.session_state['version']}"] = {
        "edited_rows": {},
        "added_rows": [],
        "deleted_rows": [last_of_789s],
    }
    at.run()
    case = at.session_state["case_json"]
    assert case["result"] is None and case["bonus_from_deal"] == ["F1", "cat"]
    assert replayed(case, tmp_path)[0] == 2  # refused, as the page scored nothing
    again = opened(case)
    assert not again.exception and not [e.value for e in again.error]
    assert scored(again.session_state["case_json"]) == scored(case)
    # and once the meld is whole again, the tiles held from the deal still count
    assert again.multiselect(key="bonus_from_deal").value == ["F1", "cat"]
