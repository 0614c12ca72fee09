"""The tiles that may have won a hand, and the hand scored with each (`scoring.winning_tiles`): what the
command line's breakdown and the app say of a hand given without its winning tile."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import parse_hand_string, score_json
from scoring.winning_tiles import (
    Outcome,
    changes_the_score,
    hand_tile_choices,
    input_scored_as_self_drawn,
    scored_as_self_drawn,
    ways_text,
    winning_tile_outcomes,
)

SEQ = {"concealed": parse_hand_string("234m 567m 234p 678s 55p")}


def test_a_sequence_hand_is_scored_with_each_tile_that_may_have_won_it() -> None:
    # RULES.md: the sequence hand needs a wait on two tiles; on 3m, 6m, 3p or 7s (closed or edge waits)
    # the discard win is a chicken hand, on the others 4 tai; without a winning tile it is no win at all
    outcomes = winning_tile_outcomes(SEQ)
    assert outcomes == [
        Outcome(("2m", "4m", "5m", "7m", "2p", "4p", "5p", "6s", "8s"), True, 4),
        Outcome(("3m", "6m", "3p", "7s"), False, 0),
    ]
    assert (
        ways_text(outcomes, "tai")
        == "2m, 4m, 5m, 7m, 2p, 4p, 5p, 6s or 8s: 4 tai; 3m, 6m, 3p or 7s: not a win"
    )
    assert changes_the_score(score_json(SEQ), outcomes)
    # a winning tile given: nothing to ask
    assert winning_tile_outcomes({**SEQ, "winning_tile": "2m"}) == []


def test_a_hand_no_tile_makes_a_win_does_not_change_with_the_winning_tile() -> None:
    chicken = {"concealed": parse_hand_string("111m 456p 789s 234m 55p")}
    outcomes = winning_tile_outcomes(chicken)
    assert [(outcome.valid, outcome.tai) for outcome in outcomes] == [(False, 0)]
    assert not changes_the_score(score_json(chicken), outcomes)


HAND_WITH_MELDS: dict[str, Any] = {
    "concealed": parse_hand_string("123m 456p 55p"),
    "melds": [
        {"kind": "chow", "tiles": ["7s", "8s", "9s"]},
        {"kind": "kong", "tiles": ["C"] * 4},
        {"kind": "pong", "tiles": ["E", "E", "E"], "concealed": True},
    ],
}


@pytest.mark.parametrize(
    ("self_drawn", "choices"),
    [
        # a discard may complete the exposed chow; no win completes the kong
        (False, ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E"]),
        # self-drawn: not a tile only of the exposed chow (claimed from a discard); the concealed pong's is
        (True, ["1m", "2m", "3m", "4p", "5p", "6p", "E"]),
    ],
)
def test_the_tiles_that_may_have_won(self_drawn: bool, choices: list[str]) -> None:
    assert hand_tile_choices(HAND_WITH_MELDS, self_drawn) == choices
    if not self_drawn:  # a discard win unless said
        assert hand_tile_choices(HAND_WITH_MELDS) == choices


def test_a_face_down_or_bonus_tile_left_among_the_hand_never_won_it() -> None:
    hand = {**HAND_WITH_MELDS, "concealed": [*HAND_WITH_MELDS["concealed"], "back", "F1"]}
    assert hand_tile_choices(hand) == hand_tile_choices(HAND_WITH_MELDS)


@pytest.mark.parametrize(
    ("said", "bonus", "circumstances", "rules", "drawn"),
    [
        (True, [], [], "singapore", True),
        (False, [], [], "singapore", False),
        (False, [], ["replacement_tile"], "singapore", True),
        (False, ["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"], [], "singapore", True),
        # the Malaysian rules make no win of the flowers alone
        (False, ["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"], [], "malaysian", False),
        # robbing the eighth is won on another player's flower
        (False, ["F1", "F2", "F3", "F4", "S1", "S2", "S3"], ["robbing_eighth"], "singapore", False),
    ],
)
def test_a_win_is_scored_as_self_drawn_as_said_or_when_only_the_winner_can_have_drawn_it(
    said: bool, bonus: list[str], circumstances: list[str], rules: str, drawn: bool
) -> None:
    assert scored_as_self_drawn(said, bonus, circumstances, rules) is drawn
    data = {"self_drawn": said, "bonus": bonus, "circumstances": circumstances, "rules": rules}
    assert input_scored_as_self_drawn(data) is drawn
