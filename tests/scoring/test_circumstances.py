"""Which circumstances each rule set offers (the app builds its choices from this)."""

import pytest

from scoring import MalformedHandError, circumstances_for, score_json
from scoring.hand import CIRCUMSTANCES


def test_singapore_offers_every_circumstance_in_canonical_order() -> None:
    assert circumstances_for("singapore") == CIRCUMSTANCES


@pytest.mark.parametrize("absent", ["humanly", "robbing_eighth"])
def test_malaysian_has_no_humanly_hand_nor_robbing_the_eighth(absent: str) -> None:
    offered = circumstances_for("malaysian")
    assert absent not in offered
    assert "kong_replacement" in offered


def test_unknown_rules_are_malformed() -> None:
    with pytest.raises(MalformedHandError, match="unknown rules 'riichi'"):
        circumstances_for("riichi")


def test_a_limit_circumstance_a_house_rule_turns_off_is_said_not_dropped() -> None:
    # the notes of limit rows were lost when the hand scored without a limit
    hand = {"concealed": "123m 456m 789m 567s 11p", "seat_wind": "W", "circumstances": ["humanly"]}
    off = score_json({**hand, "options": {"humanly_hand": False}})
    assert not off["valid"] and "humanly hand not scored: option humanly_hand is off" in off["warnings"]
    on = score_json(hand)
    assert on["valid"] and not any("humanly" in w for w in on["warnings"])


def test_four_concealed_pongs_won_on_a_discard_say_why_they_are_no_hidden_treasure() -> None:
    result = score_json({"concealed": "111m 222p 333s 444m 55p", "winning_tile": "4m"})
    assert result["valid"] and {p["key"] for p in result["patterns"]} == {"all_pongs"}
    assert "four concealed pongs make hidden treasure only when self-drawn" in result["warnings"]
