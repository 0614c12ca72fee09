"""`app_ui.winning_hint.photo_score_words`: the score line beside a photo's reading time."""

from __future__ import annotations

from typing import Any

import scoring
from app_ui import hand_build
from app_ui.summary import summary_text
from app_ui.winning_hint import (
    Outcome,
    photo_score_words,
    winning_tile_note,
    winning_tile_outcomes,
    winning_tile_ways,
)


def test_a_hand_no_win_only_for_want_of_the_winning_tile_asks_for_it() -> None:
    outcomes = [Outcome(tiles=("2m",), valid=True, tai=2)]
    said = photo_score_words({"valid": False}, outcomes, corrected=False)
    assert said == "Set the winning tile to score it"


def test_a_hand_below_the_minimum_says_the_scoring_s_message() -> None:
    result = {"valid": False, "reason": "below_minimum", "message": "Below the 1 tai minimum."}
    assert photo_score_words(result, [], corrected=True) == "Below the 1 tai minimum"


def test_no_valid_win_says_whether_the_tiles_are_corrected() -> None:
    assert photo_score_words({"valid": False}, [], corrected=False) == "Not a valid win as read"
    assert photo_score_words({"valid": False}, [], corrected=True) == "Not a valid win as corrected"


def test_a_tile_that_cannot_have_won_the_hand_is_not_offered_as_a_way() -> None:
    # stage 72 (an audit): a self-drawn hand with a red-dragon pong claimed from a discard was asked for
    # its winning tile as "1m ... 9s: 3 tai; C: not a win", C never a way it was won
    data = {
        "rules": "singapore",
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "2m"],
        "melds": [{"kind": "pong", "tiles": ["C", "C", "C"], "concealed": False}],
        "bonus": ["F1"],
        "seat_wind": "E",
        "prevailing_wind": "E",
        "self_drawn": True,
    }
    outcomes = winning_tile_outcomes(data)
    offered = [tile for outcome in outcomes for tile in outcome.tiles]
    assert "C" not in offered and "2m" in offered, outcomes
    assert winning_tile_note({"valid": True, "tai": outcomes[0].tai}, outcomes, "tai") is None
    # on a discard the pong's C may have been the tile claimed: it stays a way
    on_discard = [t for o in winning_tile_outcomes({**data, "self_drawn": False}) for t in o.tiles]
    assert "C" in on_discard


def test_the_ways_asked_about_are_the_tiles_the_box_offers_on_a_replacement_tile() -> None:
    # won on a kong's replacement tile, the scoring takes the win as self-drawn whatever the radio says;
    # the box then offers no tile of an exposed pong, nor may the ways asked about hold one
    circumstances = ["kong_replacement"]
    data: dict[str, Any] = {
        "rules": "singapore",
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "2m"],
        "melds": [{"kind": "pong", "tiles": ["C", "C", "C"], "concealed": False}],
        "bonus": ["F1"],
        "self_drawn": False,
        "circumstances": circumstances,
    }
    asked: list[str] = []

    def every_tile_wins(case: dict[str, Any]) -> dict[str, Any]:  # the ways as asked, each a win
        asked.append(case["winning_tile"])
        return {"valid": True, "tai": 1}

    offered = [tile for outcome in winning_tile_outcomes(data, every_tile_wins) for tile in outcome.tiles]
    self_drawn = hand_build.scored_as_self_drawn(False, ["F1"], circumstances, "singapore")
    box = hand_build.winning_tile_choices(data, self_drawn, [None, None])
    assert "C" not in asked and sorted(offered) == sorted(box), (offered, box)
    # a circumstance the rule set does not offer makes no self-draw of it
    assert not hand_build.scored_as_self_drawn(False, [], ["no_such_circumstance"], "singapore")


def test_the_ask_and_the_chat_summary_say_the_same_ways() -> None:
    # stage 78 left the ways built twice (the ask's and the summary's); both now come from one place
    data = {
        "rules": "singapore",
        "concealed": ["2m", "3m", "4m", "4p", "5p", "6p", "7s", "8s", "9s", "5p", "5p", "2s", "3s", "4s"],
        "melds": [],
        "bonus": [],
        "seat_wind": "E",
        "prevailing_wind": "E",
        "self_drawn": False,
    }
    result = scoring.score_json(data)
    outcomes = winning_tile_outcomes(data)
    ways = winning_tile_ways(result, outcomes, "tai")
    ask = winning_tile_note(result, outcomes, "tai")
    assert ways is not None and ask is not None and ask.endswith(f"Won on {ways}.")
    assert f"won on {ways}" in summary_text(data, result, ways)
    # a hand the winning tile cannot change: neither the ways nor the ask
    one_way = [Outcome(tiles=("2m",), valid=result["valid"], tai=result.get("tai", 0))]
    assert winning_tile_ways(result, one_way, "tai") is None
    assert winning_tile_note(result, one_way, "tai") is None
