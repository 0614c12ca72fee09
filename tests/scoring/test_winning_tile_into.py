"""Where the winning discard went (`winning_tile_into`): a photo cannot tell a chow claimed with the
winning tile from one claimed before it, so the table says, and each answer's score is shown where they
differ (an audit, stage 82: four exposed chows and a single wait paid 4 tai, the other reading unsaid)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring import score_json
from scoring.api import place_outcome_words
from scoring.errors import MalformedHandError
from scoring.hand import Context
from scoring.tiles import parse_hand_string
from tests.scoring.strategies import hand_json

ROOT = Path(__file__).resolve().parents[2]

# four chows laid down and a 99s pair won on 9s from a discard: the fourth chow 789s claimed with the
# winning tile (78s + 99s waited on 6s or 9s: a sequence hand), or claimed before it (a single wait on 9s
# beside four exposed chows, which RULES.md says never makes a sequence hand)
FOUR_CHOWS = {
    "concealed": "99s",
    "melds": [{"tiles": "123m"}, {"tiles": "456p"}, {"tiles": "789s"}, {"tiles": "234s"}],
    "seat_wind": "S",
    "winning_tile": "9s",
    "discarder_wind": "W",
}
# Malaysian: concealed until 2p completed the exposed 234p (a bomb), or 2p went into the 22p pair
MALAYSIAN_BOMB = {
    "rules": "malaysian",
    "concealed": "111p 456p 789p 22p",
    "melds": [{"kind": "chow", "tiles": "234p"}],
    "bonus": ["cat"],
    "seat_wind": "S",
    "winning_tile": "2p",
}


def _cli(data: dict[str, Any], *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "-", *flags],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


@pytest.mark.parametrize(
    ("data", "into", "valid", "tai"),
    [
        (FOUR_CHOWS, None, True, 4),
        (FOUR_CHOWS, "meld", True, 4),
        (FOUR_CHOWS, "hand", False, 0),
        (MALAYSIAN_BOMB, None, True, 8),
        (MALAYSIAN_BOMB, "meld", True, 8),
        (MALAYSIAN_BOMB, "hand", False, 4),
    ],
)
def test_the_place_given_is_the_place_scored(
    data: dict[str, Any], into: str | None, valid: bool, tai: int
) -> None:
    result = score_json({**data, "winning_tile_into": into})
    assert (result["valid"], result["tai"]) == (valid, tai)
    assert result["winning_tile_into"] == (into or "meld")


def test_four_exposed_chows_claimed_before_the_win_are_no_sequence_hand() -> None:
    result = score_json({**FOUR_CHOWS, "winning_tile_into": "hand"})
    assert result["reason"] == "below_minimum"
    assert "four exposed chows leave a single-tile wait, which never makes a sequence hand" in " ".join(
        result["warnings"]
    )
    # the place is settled: no other reading puts the tile elsewhere
    assert all(
        "every meld claimed before it" not in other["arrangement"] for other in result["other_readings"]
    )


def test_each_place_and_its_score_are_listed_where_they_differ() -> None:
    result = score_json(FOUR_CHOWS)
    assert result["winning_tile_places"] == [
        {"into": "meld", "valid": True, "tai": 4},
        {"into": "hand", "valid": False, "tai": 0},
    ]
    assert place_outcome_words(result) == (
        "into an exposed chow or pong laid down with it: 4 tai (counted); "
        "into the hand, every laid-down meld claimed before it: not a win"
    )


def test_no_places_are_listed_where_the_tile_can_go_one_way_only() -> None:
    in_hand_only = {
        **FOUR_CHOWS,
        "concealed": "789s 99s",
        "melds": [*FOUR_CHOWS["melds"][:2], {"tiles": "234s"}],
    }
    assert score_json(in_hand_only)["winning_tile_places"] == []
    assert score_json({**FOUR_CHOWS, "self_drawn": True})["winning_tile_places"] == []
    assert score_json({**FOUR_CHOWS, "winning_tile": None})["winning_tile_into"] is None


def test_a_tie_between_places_is_not_worded() -> None:
    # 9s completing 789s or the pair: both places score the full flush's 4, and nothing else
    flush = {
        "concealed": "123s 456s 99s",
        "melds": [{"tiles": "789s"}, {"tiles": "111s"}],
        "winning_tile": "9s",
        "options": {"min_tai": 1},
    }
    result = score_json(flush)
    places = result["winning_tile_places"]
    assert len(places) == 2 and len({(p["valid"], p["tai"]) for p in places}) == 1
    assert place_outcome_words(result) is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"winning_tile_into": "meld", "self_drawn": True},
            "a self-drawn winning tile completes no laid-down meld: a chow or pong is claimed from a discard",
        ),
        (
            {"winning_tile_into": "hand", "concealed": "88s", "winning_tile": "9s"},
            "the winning tile 9s is not among the concealed tiles: it lies only in the exposed chow 789s, so "
            "it was laid down with it",
        ),
        (
            {
                "winning_tile_into": "meld",
                "melds": [{"tiles": "123m"}, {"tiles": "456p"}, {"tiles": "678s"}, {"tiles": "234s"}],
            },
            "the winning tile 9s cannot have gone into a laid-down meld: no exposed chow or pong holds it, "
            "so it went into the hand",
        ),
        (
            {
                "winning_tile_into": "meld",
                "winning_tile": None,
                "concealed": "123m 456p 789s 234s 99s",
                "melds": [],
            },
            "the winning discard completed no laid-down meld: the hand has no exposed chow or pong",
        ),
    ],
)
def test_a_place_the_tiles_rule_out_is_an_impossible_context(change: dict[str, Any], message: str) -> None:
    result = score_json({**FOUR_CHOWS, **change})
    assert result["reason"] == "impossible_context"
    assert result["message"] == f"Not a valid win: {message}."


def test_a_first_turn_hand_with_the_chow_claimed_before_the_win_is_refused() -> None:
    # an earthly hand is won before any tile is claimed: the exposed chow must be the winning discard's
    earthly = {
        "concealed": "123m 456p 789s 99s",
        "melds": [{"tiles": "234s"}],
        "seat_wind": "S",
        "winning_tile": "4s",
        "circumstances": ["earthly"],
    }
    assert score_json(earthly)["valid"]
    refused = score_json({**earthly, "winning_tile_into": "hand"})
    assert refused["reason"] == "impossible_context"
    assert "exposed chow (234s)" in refused["message"]


def test_a_set_given_as_concealed_is_part_of_the_hand() -> None:
    # 9s in a chow given as concealed and in an exposed one: "hand" is the concealed chow, no conflict
    data = {
        **FOUR_CHOWS,
        "concealed": "99s",
        "melds": [
            {"tiles": "123m"},
            {"tiles": "456p", "concealed": True},
            {"tiles": "789s", "concealed": True},
            {"tiles": "789s"},
        ],
        "winning_tile": "7s",
    }
    hand = score_json({**data, "winning_tile_into": "hand"})
    assert hand["reason"] != "impossible_context" and hand["winning_tile_into"] == "hand"
    only_concealed = {**data, "melds": [*data["melds"][:3], {"tiles": "234s"}]}
    refused = score_json({**only_concealed, "winning_tile_into": "meld"})
    assert refused["message"] == (
        "Not a valid win: the winning tile 7s cannot have gone into a laid-down meld: no exposed chow or "
        "pong holds it, so it went into the hand."
    )


def test_with_no_winning_tile_meld_means_any_exposed_chow_or_pong() -> None:
    unsaid = {**MALAYSIAN_BOMB, "winning_tile": None}
    assert (score_json(unsaid)["valid"], score_json(unsaid)["tai"]) == (False, 4)  # laid down before
    meld = score_json({**unsaid, "winning_tile_into": "meld"})
    assert (meld["valid"], meld["tai"]) == (True, 8)  # concealed until the win: the bomb
    assert meld["winning_tile_into"] is None  # no winning tile: no place of one read


def test_a_win_a_replacement_tile_makes_a_self_draw_says_so() -> None:
    drawn = {**FOUR_CHOWS, "melds": [*FOUR_CHOWS["melds"][:3], {"tiles": "5555m"}], "concealed": "99s"}
    drawn["circumstances"] = ["kong_replacement"]
    refused = score_json({**drawn, "winning_tile_into": "meld"})
    assert refused["reason"] == "impossible_context"
    assert "is claimed from a discard (a " in refused["message"], refused["message"]
    below = score_json({**drawn, "options": {"min_tai": 13, "max_tai": 13}})
    assert below["reason"] == "below_minimum" and below["winning_tile_into"] is None


def test_a_first_turn_hand_counts_only_the_place_its_own_check_allows() -> None:
    # an earthly hand's 789s lies open: the winning 9s went into it, not into the 99s pair beside it
    # (a hostile test, stage 82: "hand" was counted, which the first-turn check refuses when said)
    earthly = {
        "concealed": "99s 456p 789s 234s",
        "melds": [{"tiles": "789s"}],
        "seat_wind": "S",
        "winning_tile": "9s",
        "circumstances": ["earthly"],
    }
    result = score_json(earthly)
    assert result["valid"] and result["winning_tile_into"] == "meld"
    assert result["winning_tile_places"] == []
    assert all(
        "every meld claimed before it" not in other["arrangement"] for other in result["other_readings"]
    )


@pytest.mark.parametrize("given_place", ["Hand", " MELD "])
def test_a_place_in_any_case_is_read_as_its_word(given_place: str) -> None:
    # stage 89: `"winning_tile_into": "Hand"` was refused, where the rule set and winds are read in any case
    by_word = score_json({**FOUR_CHOWS, "winning_tile_into": given_place.strip().lower()})
    assert score_json({**FOUR_CHOWS, "winning_tile_into": given_place}) == by_word
    flagged = _cli(FOUR_CHOWS, "--winning-tile-into", given_place)
    assert (flagged.returncode, flagged.stdout) == (
        1 if "hand" in given_place.lower() else 0,
        _cli(FOUR_CHOWS, "--winning-tile-into", given_place.strip().lower()).stdout,
    )


@pytest.mark.parametrize("given_place", ["table", 1, True, ["hand"]])
def test_a_malformed_place_is_refused_in_one_line(given_place: object) -> None:
    with pytest.raises(MalformedHandError, match="winning_tile_into must be hand or meld"):
        score_json({**FOUR_CHOWS, "winning_tile_into": given_place})
    with pytest.raises(MalformedHandError, match="winning_tile_into must be hand or meld"):
        Context(winning_tile_into=str(given_place))


def test_the_command_line_says_what_each_place_scores_and_takes_the_flag() -> None:
    unsaid = _cli(FOUR_CHOWS)
    assert unsaid.returncode == 0
    assert unsaid.stdout.splitlines()[-1] == (
        "Where the winning 9s went changes the score: into an exposed chow or pong laid down with it: 4 tai "
        "(counted); into the hand, every laid-down meld claimed before it: not a win. Give it with "
        "--winning-tile-into hand or meld."
    )
    settled = _cli(FOUR_CHOWS, "--winning-tile-into", "hand")
    assert settled.returncode == 1
    assert "Where the winning" not in settled.stdout
    assert "Not a valid win: a chicken hand" in settled.stdout
    refused = _cli(FOUR_CHOWS, "--winning-tile-into", "table")
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    # "either" takes a file's place back to unsaid, as --discard takes back its self-draw
    reopened = _cli({**FOUR_CHOWS, "winning_tile_into": "hand"}, "--winning-tile-into", "either")
    assert reopened.returncode == 0 and reopened.stdout.splitlines()[-1].startswith(
        "Where the winning 9s went"
    )


@st.composite
def _discard_wins(draw: st.DrawFn) -> dict[str, Any]:
    """A hand won on a discard of a tile that a concealed tile and an exposed chow or pong both hold:
    the tile could have gone either way."""
    data = draw(hand_json("singapore"))
    concealed = parse_hand_string(data["concealed"])
    laid = [tile for meld in data["melds"] if meld["kind"] != "kong" for tile in meld["tiles"]]
    either = sorted(set(concealed) & set(laid))
    assume(either)
    return {**data, "self_drawn": False, "pay_all": False, "winning_tile": draw(st.sampled_from(either))}


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(_discard_wins())
def test_each_listed_place_scores_as_listed_and_the_best_is_counted(data: dict[str, Any]) -> None:
    unsaid = score_json(data)
    places = unsaid["winning_tile_places"]
    for place in places:
        settled = score_json({**data, "winning_tile_into": place["into"]})
        assert (settled["valid"], settled["tai"]) == (place["valid"], place["tai"])
        assert settled["winning_tile_places"] == []
    if places:
        assert unsaid["tai"] == max(place["tai"] for place in places)
        assert unsaid["winning_tile_into"] == places[0]["into"]
