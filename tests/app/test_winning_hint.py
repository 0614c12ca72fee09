"""`app_ui.winning_hint.photo_score_words`: the score line beside a photo's reading time."""

from __future__ import annotations

from app_ui.winning_hint import Outcome, photo_score_words


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
