"""A case file keeps the result the page showed when it was saved (`result`). Opened again, or replayed
by `python -m scoring`, a hand that settles otherwise now (a rule or this program changed since) says
both, and a house rule the scoring no longer takes opens at its default rather than keeping the whole
case out (an audit, stage 79, opened 305 cases saved by five older versions of the app)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import scoring
from app_ui.case_open import open_case
from scoring.api import saved_result_change
from tests.app.conftest import APP
from tests.app.test_kept_case import typed

SAVED_AS = "was saved as"


@pytest.fixture(scope="module")
def saved_case() -> dict[str, Any]:
    """The case the page offers for download for a typed hand of 3 tai, won on a discard."""
    at = typed(AppTest.from_file(str(APP), default_timeout=60).run(), "123m 456p 22m 789s", melds="CCC")
    assert not at.exception
    case = at.session_state["case_json"]
    assert case["result"]["valid"] is True
    return dict(case)


def _scored_otherwise(case: dict[str, Any]) -> dict[str, Any]:
    """`case` as an older app would have saved it had it scored the hand 5 tai."""
    older = copy.deepcopy(case)
    older["result"]["tai"] = 5
    older["result"]["message"] = "Valid win: 5 tai; discarder pays 32; winner receives 32."
    for player in older["result"]["payout"]["players"]:
        player["amount"] *= 4
    return older


def _opened_notes(case: dict[str, Any]) -> list[str]:
    return list(open_case("my.json", json.dumps(case).encode()).notes)


def _changes_said(case: dict[str, Any]) -> list[str]:
    """What opening the case and replaying it (`score_json`, as `python -m scoring` does) say of its
    saved result settling otherwise."""
    warnings = scoring.score_json(copy.deepcopy(case))["warnings"]
    return [line for line in [*_opened_notes(case), *warnings] if SAVED_AS in line]


def test_a_case_the_page_saved_replays_without_a_word_on_its_result(saved_case: dict[str, Any]) -> None:
    assert _changes_said(saved_case) == []


def test_a_result_that_settles_otherwise_now_is_said_on_opening_and_on_replay(
    saved_case: dict[str, Any],
) -> None:
    older = _scored_otherwise(saved_case)
    now = scoring.score_json(copy.deepcopy(saved_case))["message"]
    said = f'saved as "Valid win: 5 tai; discarder pays 32; winner receives 32." and scores now as "{now}"'
    assert [note for note in _opened_notes(older) if said in note], _opened_notes(older)
    assert [w for w in scoring.score_json(copy.deepcopy(older))["warnings"] if said in w]


def test_a_result_said_in_other_words_settling_the_same_is_no_change(saved_case: dict[str, Any]) -> None:
    reworded = copy.deepcopy(saved_case)
    reworded["result"]["message"] = "Won: 3 tai."
    reworded["result"]["patterns"] = []
    assert saved_result_change(reworded["result"], scoring.score_json(copy.deepcopy(saved_case))) is None
    # a win that became no win is a change, however worded; a result written by hand is not compared
    lost = reworded["result"] | {"valid": False}
    assert saved_result_change(lost, scoring.score_json(copy.deepcopy(saved_case))) is not None
    assert saved_result_change({"tai": 9}, scoring.score_json(copy.deepcopy(saved_case))) is None
    assert saved_result_change("3 tai", scoring.score_json(copy.deepcopy(saved_case))) is None


def test_an_instant_payout_paid_otherwise_now_is_a_change(saved_case: dict[str, Any]) -> None:
    now = scoring.score_json(copy.deepcopy(saved_case))
    paid = copy.deepcopy(now)
    paid["payout"]["instant_payouts"] = [{"name": "exposed kong of C", "total": 3}]
    said = saved_result_change(paid, now)
    assert said is not None and "instant payouts: exposed kong of C: 3 in all" in said


def test_a_house_rule_the_scoring_refuses_opens_the_case_at_the_rule_set_s_default(
    saved_case: dict[str, Any],
) -> None:
    # the sidebar lets a user set a minimum of 0 tai with the table payout, which the scoring refuses:
    # its download had been refused whole, tiles and corrections with it
    odd = copy.deepcopy(saved_case)
    odd["options"] |= {"min_tai": 0, "payout_scheme": "table", "renamed_since": 2}
    with pytest.raises(scoring.OptionError):
        scoring.score_json(copy.deepcopy(odd))  # python -m scoring still refuses it, as the note says
    opened = open_case("my.json", json.dumps(odd).encode())
    defaults = scoring.default_options("singapore")
    # the way money is paid is kept (as the case paid it), the minimum set aside, whatever the order
    assert opened.options["payout_scheme"] == "table" and opened.options["min_tai"] == defaults.min_tai
    assert [row.code for row in opened.base.rows] == [row["code"] for row in saved_case["tiles"]]
    notes = "\n".join(opened.notes)
    assert "house rule Min tai cannot be used" in notes and "set to the rule set's default" in notes
    assert "option 'renamed_since' is no house rule of this app: left out" in notes


def test_the_command_line_compares_the_saved_result_only_with_the_case_as_saved(
    saved_case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scoring.__main__ import main

    older = _scored_otherwise(saved_case)
    path = tmp_path / "case.json"
    path.write_text(json.dumps(older), encoding="utf-8")
    main([str(path)])
    assert SAVED_AS in capsys.readouterr().out
    # asked to score it otherwise (another seat), it is another hand's score: nothing to compare
    main([str(path), "--seat", "N" if saved_case["seat_wind"] != "N" else "S"])
    assert SAVED_AS not in capsys.readouterr().out
    main([str(path), "--seat", saved_case["seat_wind"]])  # the seat it has: the case as saved
    assert SAVED_AS in capsys.readouterr().out
    # flags that name what the file leaves to its default read the case as saved too (before stage 81
    # they dropped the comparison): East for a file naming no seat, a house rule at its default
    no_seat = {key: value for key, value in older.items() if key != "seat_wind"}
    path.write_text(json.dumps(no_seat), encoding="utf-8")
    main([str(path), "--seat", "E", "--option", "max_tai=5"])
    assert SAVED_AS in capsys.readouterr().out
    main([str(path), "--seat", "E", "--option", "max_tai=6"])
    assert SAVED_AS not in capsys.readouterr().out


def test_a_result_saved_before_the_players_had_seats_settles_the_same(saved_case: dict[str, Any]) -> None:
    # results saved before 2026-12-01 name no player's seat (a review, stage 79: every such case was
    # said to score otherwise, quoting the same words twice)
    older = copy.deepcopy(saved_case)
    for player in older["result"]["payout"]["players"]:
        player.pop("seat", None)
    assert _changes_said(older) == []


def test_a_file_naming_no_house_rules_is_compared_under_the_defaults_and_says_so(
    saved_case: dict[str, Any],
) -> None:
    # an older app's file names none (the audit's one silent change was such a file); the page opens it
    # with the sidebar's house rules, so the note says which rules it was compared under
    bare = _scored_otherwise(saved_case)
    del bare["options"]
    (said,) = [note for note in _opened_notes(bare) if SAVED_AS in note]
    assert "with the rule set's default house rules, as python -m scoring scores it" in said
    assert [w for w in scoring.score_json(copy.deepcopy(bare))["warnings"] if SAVED_AS in w]
