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


def test_robbing_the_kong_beside_a_replacement_tile_names_what_made_it_a_self_draw() -> None:
    # the user chose a discard: blaming "a self-draw" alone pointed at the wrong choice
    hand = {
        "concealed": "123m 456p 789s 55p",
        "melds": [{"kind": "kong", "tiles": "1111s"}],
        "winning_tile": "5p",
    }
    result = score_json({**hand, "circumstances": ["robbing_kong", "replacement_tile"]})
    assert result["reason"] == "impossible_context"
    assert "not a self-draw (a replacement-tile win is a self-draw)" in result["message"], result["message"]
    said_drawn = score_json({**hand, "circumstances": ["robbing_kong"], "self_drawn": True})
    message = said_drawn["message"]  # the user's own self-draw: no reason given for it
    assert "not a self-draw" in message and "replacement-tile win" not in message, message


def test_every_contradiction_of_how_it_was_won_is_named_at_once() -> None:
    # an audit: a kong replacement with no kong and robbing the kong ticked together named only the
    # first, and the user met the second after mending it
    hand = {"concealed": "123m 456p 789s 234s 55p", "winning_tile": "5p", "self_drawn": True}
    result = score_json({**hand, "circumstances": ["kong_replacement", "robbing_kong"]})
    assert result["reason"] == "impossible_context"
    assert "won on a kong replacement tile, but the hand has no kong" in result["message"], result
    assert "robbing the kong is a win on another player's tile, not a self-draw" in result["message"], result
    one = score_json({**hand, "circumstances": ["robbing_kong"]})
    assert "kong replacement" not in one["message"] and "robbing the kong" in one["message"], one


def test_a_win_by_robbing_the_eighth_reads_as_seven_flowers() -> None:
    seven = ["F1", "F2", "F3", "F4", "S1", "S2", "S3"]
    result = score_json({"concealed": "", "bonus": seven, "circumstances": ["robbing_eighth"]})
    assert result["valid"] and result["arrangement"] == "seven flowers and the robbed eighth"
    eight = score_json({"concealed": "", "bonus": [*seven, "S4"], "self_drawn": True})
    assert eight["arrangement"] == "eight flowers"


@pytest.mark.parametrize(
    ("hand", "extra"),
    [
        pytest.param(
            {"concealed": "", "bonus": ["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"]}, {}, id="eight"
        ),
        pytest.param(
            {"concealed": "", "bonus": ["F1", "F2", "F3", "F4", "S1", "S2", "S3"]},
            {"circumstances": ["robbing_eighth"]},
            id="robbing-the-eighth",
        ),
    ],
)
def test_a_hand_tile_named_as_the_winning_tile_of_a_flowers_win_is_set_aside(
    hand: dict[str, object], extra: dict[str, object]
) -> None:
    plain = score_json({**hand, **extra})
    named = score_json({**hand, **extra, "winning_tile": "3m"})
    assert named["valid"] and named["tai"] == plain["tai"] and named["payout"] == plain["payout"]
    assert any("winning tile 3m is not in the hand" in w and "not used" in w for w in named["warnings"])


def test_a_winning_tile_outside_a_hand_of_seven_flowers_still_refuses_it() -> None:
    # seven flowers without robbing the eighth are no flowers win: the hand's tiles must win
    seven = ["F1", "F2", "F3", "F4", "S1", "S2", "S3"]
    result = score_json({"concealed": "123m 456p 789s CCC 55p", "bonus": seven, "winning_tile": "9m"})
    assert not result["valid"] and result["reason"] == "winning_tile_not_in_hand"


@pytest.mark.parametrize(("key", "words"), [("earthly", "an earthly hand"), ("humanly", "a humanly hand")])
def test_a_first_turn_hand_won_by_east_is_refused_in_good_english(key: str, words: str) -> None:
    result = score_json({"concealed": "123m 456p 789s CCC 55p", "seat_wind": "E", "circumstances": [key]})
    assert not result["valid"] and f"{words} is won by a seat other than East" in result["message"]


def test_robbing_the_kong_never_robs_a_fly() -> None:
    # an audit: a fly won by robbing the kong scored +1 fan, though a fly never stands in a kong
    hand = {
        "concealed": "fly 5p 7p 8p 9p 333p 444p",
        "melds": [{"kind": "pong", "tiles": ["2p", "2p", "2p"]}],
        "bonus": "F3 face face cat",
        "seat_wind": "E",
        "rules": "malaysian",
        "circumstances": ["robbing_kong"],
    }
    robbed_fly = score_json({**hand, "winning_tile": "fly"})
    assert not robbed_fly["valid"] and robbed_fly["reason"] == "impossible_context", robbed_fly
    assert "a fly never stands in a kong" in robbed_fly["message"]
    robbed_5p = score_json({**hand, "winning_tile": "5p"})  # the same hand robbing a tile it may
    assert robbed_5p["valid"] and "robbing_kong" in {p["key"] for p in robbed_5p["patterns"]}, robbed_5p


def test_eight_flowers_under_malaysian_rules_say_they_are_no_win_there() -> None:
    # an audit: eight flowers alone under Malaysian rules were told only that the hand has 0 tiles
    flowers = {"concealed": "", "bonus": "F1 F2 F3 F4 S1 S2 S3 S4", "self_drawn": True}
    malaysian = score_json({**flowers, "rules": "malaysian"})
    assert not malaysian["valid"] and malaysian["reason"] == "wrong_tile_count", malaysian
    assert "score no win on the eight flowers and seasons alone" in malaysian["message"]
    assert score_json(flowers)["valid"]  # Singapore scores them
    seven = score_json({**flowers, "bonus": "F1 F2 F3 F4 S1 S2 S3", "rules": "malaysian"})
    assert "eight flowers" not in seven["message"]  # seven are no such question


FIRST_TURN_HAND = {"concealed": "123m 456p 789s 234s 55p", "seat_wind": "S", "winning_tile": "1m"}


@pytest.mark.parametrize(
    ("circumstances", "extra", "words"),
    [
        (["humanly", "robbing_kong"], {}, "a humanly hand is won before anyone has claimed a tile"),
        (["earthly", "robbing_kong"], {}, "an earthly hand is won before anyone has claimed a tile"),
        (["earthly", "last_tile"], {"self_drawn": True}, "an earthly hand is won on the first turn, not on"),
        (["heavenly", "last_tile"], {"self_drawn": True, "seat_wind": "E"}, "a heavenly hand is won on the"),
        (["humanly"], {"discarder_wind": "E"}, "an earthly hand, not a humanly one"),
    ],
)
def test_a_first_turn_hand_beside_what_cannot_happen_on_the_first_turn_is_refused(
    circumstances: list[str], extra: dict[str, object], words: str
) -> None:
    # an audit (stage 76): these scored the limit, and with humanly_hand off a robbed kong's 5 tai
    result = score_json({**FIRST_TURN_HAND, **extra, "circumstances": circumstances})
    assert not result["valid"] and result["reason"] == "impossible_context", result
    assert words in result["message"], result["message"]


def test_a_humanly_hand_on_another_seat_s_discard_and_a_lone_robbed_kong_still_score() -> None:
    humanly = score_json(
        {**FIRST_TURN_HAND, "seat_wind": "W", "discarder_wind": "S", "circumstances": ["humanly"]}
    )
    assert humanly["valid"] and "humanly" in {p["key"] for p in humanly["patterns"]}, humanly
    robbed = score_json({**FIRST_TURN_HAND, "circumstances": ["robbing_kong"]})
    assert robbed["valid"] and "robbing_kong" in {p["key"] for p in robbed["patterns"]}, robbed


def test_robbing_the_eighth_and_robbing_the_kong_are_two_different_wins() -> None:
    hand = {"concealed": "", "bonus": ["F1", "F2", "F3", "F4", "S1", "S2", "S3"], "seat_wind": "S"}
    both = score_json({**hand, "circumstances": ["robbing_eighth", "robbing_kong"]})
    assert not both["valid"] and "one win cannot be both" in both["message"], both
    assert score_json({**hand, "circumstances": ["robbing_eighth"]})["valid"]


def test_robbing_the_eighth_says_which_of_its_two_needs_the_win_lacks() -> None:
    seven = ["F1", "F2", "F3", "F4", "S1", "S2", "S3"]
    drawn = score_json(
        {"concealed": "", "bonus": seven, "self_drawn": True, "circumstances": ["robbing_eighth"]}
    )
    assert drawn["reason"] == "impossible_context", drawn
    assert "robbing the eighth wins on another player's eighth flower, not a self-draw." in drawn["message"]
    six = score_json(
        {"concealed": "123m 456p 789s CCC 55p", "bonus": seven[:6], "circumstances": ["robbing_eighth"]}
    )
    assert "robbing the eighth needs seven flowers and seasons in the hand, not 6." in six["message"], six


def test_an_earthly_hand_on_another_seat_s_discard_names_the_seat_in_words() -> None:
    # an audit: "so East is the discarder, not W"
    hand = {**FIRST_TURN_HAND, "discarder_wind": "W", "circumstances": ["earthly"]}
    assert score_json(hand)["message"].endswith("so East is the discarder, not West."), score_json(hand)


def test_under_pay_all_the_seat_given_is_the_liable_player_s_not_the_discarder_s() -> None:
    # a review: a humanly hand with East liable was refused as "a win on East's discard"
    for key, liable in (("humanly", "E"), ("earthly", "W")):
        hand = {**FIRST_TURN_HAND, "pay_all": True, "discarder_wind": liable, "circumstances": [key]}
        assert score_json(hand)["valid"], score_json(hand)


def test_two_first_turn_hands_beside_robbing_the_kong_say_it_once() -> None:
    hand = {**FIRST_TURN_HAND, "circumstances": ["earthly", "humanly", "robbing_kong"]}
    assert score_json(hand)["message"].count("robbing the kong takes") == 1


def test_robbing_the_kong_with_no_winning_tile_needs_a_tile_held_once() -> None:
    # an audit: all pongs and a pair scored a robbed kong, though no tile could be a robbed fourth copy
    pongs = score_json({"concealed": "111m 222p 333s 444s 55m", "circumstances": ["robbing_kong"]})
    assert pongs["reason"] == "impossible_context" and "each of its tiles more than once" in pongs["message"]
    chow = score_json({"concealed": "123m 222p 333s 444s 55m", "circumstances": ["robbing_kong"]})
    assert chow["reason"] != "impossible_context", chow


@pytest.mark.parametrize(
    ("meld", "seat", "circumstance", "self_drawn"),
    [
        ({"kind": "pong", "tiles": "CCC", "concealed": True}, "E", "heavenly", True),
        ({"kind": "chow", "tiles": "456s", "concealed": True}, "S", "earthly", False),
    ],
)
def test_a_set_given_as_concealed_is_no_claim_before_a_first_turn_win(
    meld: dict[str, object], seat: str, circumstance: str, self_drawn: bool
) -> None:
    # an audit (stage 77): a concealed pong counted as concealed for fully concealed, as exposed for a
    # heavenly hand, which was refused for "an exposed pong"
    hand = {
        "concealed": "123m 456p 789s 55p",
        "melds": [meld],
        "seat_wind": seat,
        "self_drawn": self_drawn,
        "winning_tile": "5p",
        "circumstances": [circumstance],
    }
    assert score_json(hand)["valid"], score_json(hand)["message"]
    exposed = score_json({**hand, "melds": [{**meld, "concealed": False}]})
    assert exposed["reason"] == "impossible_context"
    assert "won before any tile is claimed" in exposed["message"]


@pytest.mark.parametrize("rules", ["singapore", "malaysian"])
def test_the_melds_order_never_decides_a_first_turn_hand(rules: str) -> None:
    # an audit (stage 78): a concealed 123s listed before the exposed 123s that took the winning discard
    # was taken for the set the discard completed, so the exposed one counted as claimed before the win
    exposed = {"kind": "chow", "tiles": "123p", "concealed": False}
    concealed = {**exposed, "concealed": True}
    hand = {
        "rules": rules,
        "concealed": "456p 789p 55p",
        "seat_wind": "S",
        "discarder_wind": "E",
        "winning_tile": "2p",
        "circumstances": ["earthly"],
    }
    first = score_json({**hand, "melds": [exposed, concealed]})
    second = score_json({**hand, "melds": [concealed, exposed]})
    assert first["valid"], first["message"]
    assert second["valid"] and second["tai"] == first["tai"], second["message"]


def test_kong_on_kong_under_malaysian_rules_scores_as_a_kong_replacement_and_says_so() -> None:
    # RULES.md (Malaysian): "Winning on a replacement tile is +1 once, whichever kind"; an audit: the
    # choice scored exactly as a kong replacement and said nothing of it
    kongs = [{"tiles": "1111p", "concealed": True}, {"tiles": "CCCC", "concealed": True}]
    hand = {
        "rules": "malaysian",
        "concealed": "234p 567p 99p",
        "melds": kongs,
        "self_drawn": True,
        "winning_tile": "9p",
    }
    on_kong = score_json({**hand, "circumstances": ["kong_on_kong"]})
    replacement = score_json({**hand, "circumstances": ["kong_replacement"]})
    assert on_kong["valid"] and on_kong["tai"] == replacement["tai"] == 10
    assert on_kong["patterns"] == replacement["patterns"]
    said = (
        "kong on kong is no pattern of malaysian rules: it is scored as a win on a kong's replacement tile "
        "(RULES.md: +1 fan once, whichever kind)"
    )
    assert said in on_kong["warnings"] and said not in replacement["warnings"]
    # Singapore has a row of its own for it (a limit): nothing to say
    on_kong_hand = {**hand, "circumstances": ["kong_on_kong"]}
    singapore = score_json({**on_kong_hand, "rules": "singapore", "concealed": "234m 567s 99p"})
    assert singapore["valid"] and [p["key"] for p in singapore["patterns"]] == ["kong_on_kong"]
    assert not any("kong on kong" in w for w in singapore["warnings"])
    # one kong: refused in one line, as before
    one = score_json({**on_kong_hand, "concealed": "234p 567p CCC 99p", "melds": kongs[:1]})
    assert one["reason"] == "impossible_context" and "kong on kong needs two kongs" in one["message"]


def test_a_meld_laid_down_out_of_order_is_named_in_order() -> None:
    # a claimed chow laid down as 4p 2p 3p (the claimed tile first, as a photo may read it) was named
    # "exposed chow (423p)", a run no player writes (a property test of tile order, stage 89)
    chow = {"kind": "chow", "tiles": ["4p", "2p", "3p"]}
    heavenly = {"concealed": "123m 456m 789m 55m", "melds": [chow], "self_drawn": True}
    result = score_json({**heavenly, "circumstances": ["heavenly"]})
    assert "exposed chow (234p)" in result["message"], result["message"]
    # Malaysian: a pong with a fly is named with the fly last, as the breakdown writes it
    pong = {"kind": "pong", "tiles": ["fly", "C", "C"]}
    laid = score_json({"rules": "malaysian", "concealed": "123p 456p 789p 55p", "melds": [pong]})
    assert any("the pong CC fly is taken as laid down" in line for line in laid["warnings"]), laid["warnings"]
    # where the winning discard lay only in an exposed chow, that chow is named in order too
    into = {"concealed": "123m 456m 789m 55m", "melds": [chow], "winning_tile": "3p"}
    assert "the exposed chow 234p" in score_json({**into, "winning_tile_into": "hand"})["message"]


def test_seven_flowers_and_no_hand_say_they_win_only_by_robbing_the_eighth() -> None:
    # stage 89, typed as a user would: seven flowers and seasons alone were told only "the hand has 0
    # tiles, a winning hand has 14", the robbed eighth unsaid (seeds/001: 七抢一)
    seven = ["F1", "F2", "F3", "F4", "S1", "S2", "S3"]
    result = score_json({"concealed": "", "bonus": seven})
    assert result["reason"] == "wrong_tile_count"
    assert "seven flowers and seasons win only by robbing the eighth" in result["message"], result["message"]
    # a hand of 14 beside them is scored as it is, nothing said of the eighth; under Malaysian rules,
    # which have no such win, nothing either
    hand = score_json({"concealed": "123m 456p 789s CCC 55p", "bonus": seven})
    assert hand["valid"] and "robbing" not in hand["message"]
    malaysian = score_json({"rules": "malaysian", "concealed": "", "bonus": seven})
    assert "robbing" not in malaysian["message"]
