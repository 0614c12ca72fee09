"""Malaysian 3-player audit (stage 56): what a Malaysian player is told of bad input."""

from __future__ import annotations

import pytest

from scoring import MalformedHandError, score_json


def test_bonus_error_names_the_malaysian_bonus_tiles() -> None:
    # a Malaysian bonus row also takes face and fly: the message listed only flowers, seasons and
    # animals, so a Malaysian player was told face and fly do not belong there
    with pytest.raises(MalformedHandError, match=r"1p is not a bonus tile .*face and fly"):
        score_json({"rules": "malaysian", "concealed": "123p 456p 789p 234p 55p", "bonus": ["1p"]})


@pytest.mark.parametrize(
    ("hand", "limit_name"),
    [
        (
            {"concealed": "123p 456p 789p 234p 55p", "self_drawn": True, "circumstances": ["heavenly"]},
            "heavenly hand",
        ),
        ({"concealed": "1112345678999p 5p", "winning_tile": "5p"}, "nine gates"),
        ({"concealed": "CCC FFF PPP 123p 55p", "winning_tile": "5p"}, "big three dragons"),
    ],
)
def test_a_limit_type_hand_worth_less_than_its_other_patterns_says_so(
    hand: dict[str, object], limit_name: str
) -> None:
    # an audit (stage 77): RULES.md sets a limit-type hand's fan to 5, not added, so declaring a heavenly
    # hand halved a 10-fan full flush; the score stays as RULES.md says, and the table is told why
    result = score_json({"rules": "malaysian", "seat_wind": "E", **hand})
    assert result["valid"] and result["tai"] == 5
    (note,) = [w for w in result["warnings"] if "not added to the rest" in w]
    assert note.startswith(f"the fan is set to 5 by {limit_name}") and "would give" in note, note
    if limit_name == "heavenly hand":
        assert score_json({"rules": "malaysian", "seat_wind": "E", **hand, "circumstances": []})["tai"] == 10


def test_a_limit_type_hand_at_or_over_its_other_patterns_says_nothing_of_them() -> None:
    hand = {"rules": "malaysian", "concealed": "CCC FFF PPP 123p 55p", "winning_tile": "5p"}
    capped = score_json({**hand, "options": {"max_tai": 5}})  # the other patterns capped at 5 too
    assert capped["valid"] and capped["tai"] == 5
    assert not any("not added to the rest" in w for w in capped["warnings"])
    singapore = score_json({"concealed": "CCC FFF PPP 123m 55p", "winning_tile": "5p"})
    assert singapore["tai"] == 5 and not any("not added to the rest" in w for w in singapore["warnings"])
    # small four winds (5) beside rows adding to exactly 5 (East pong 1, seat wind 1, half flush 1, seat
    # flower 1, cat 1): nothing lost, nothing to say; a rat more, and the rows would give 6
    winds = {
        "rules": "malaysian",
        "concealed": "SSS WWW NN 123p",
        "melds": [{"kind": "pong", "tiles": "EEE"}],
        "bonus": ["F1", "cat"],
    }
    even = score_json(winds)
    assert even["tai"] == 5 and not any("not added to the rest" in w for w in even["warnings"])
    more = score_json({**winds, "bonus": ["F1", "cat", "rat"]})
    assert any("not added to the rest" in w and "would give 6 fan" in w for w in more["warnings"])


def test_the_limit_row_named_is_the_one_the_fan_comes_from() -> None:
    # a review (stage 77): the first limit row was named, all honours (5), where big four winds (10) set it
    kongs = [{"kind": "kong", "tiles": wind * 4, "concealed": True} for wind in "ESWN"]
    hand = {"rules": "malaysian", "concealed": "CC", "melds": kongs, "self_drawn": True}
    result = score_json({**hand, "options": {"max_tai": 20}})
    assert result["valid"] and result["tai"] == 10
    (note,) = [w for w in result["warnings"] if "not added to the rest" in w]
    assert note.startswith("the fan is set to 10 by big four winds"), note


@pytest.mark.parametrize(("rules", "suit"), [("malaysian", "p"), ("singapore", "m"), ("singapore", "s")])
def test_a_readings_sets_are_in_tile_order_under_every_rule_set(rules: str, suit: str) -> None:
    # an audit read `123p 111p 456p ...`: a chow and a pong of one first tile stood by their kind
    hand = f"123{suit} 111{suit} 456{suit} 789{suit} 55{suit}"
    result = score_json({"rules": rules, "concealed": hand, "self_drawn": True})
    assert result["valid"], result["message"]
    assert result["arrangement"] == f"111{suit} 123{suit} 456{suit} 789{suit} 55{suit}"
    melds = {"melds": [{"kind": "chow", "tiles": f"234{suit}"}, {"kind": "pong", "tiles": f"222{suit}"}]}
    laid = score_json({"rules": rules, "concealed": f"111{suit} 789{suit} 55{suit}", **melds})
    assert laid["arrangement"] == f"111{suit} 789{suit} [222{suit}] [234{suit}] 55{suit}"
