"""Malformed input raises a named `MalformedHandError` with one line quoting the problem; hand strings."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from scoring import (
    RULESET_NAMES,
    HandStringError,
    MalformedHandError,
    MeldError,
    OptionError,
    Options,
    RulesetError,
    UnknownTileError,
    default_options,
    format_hand,
    parse_hand_string,
    score,
    score_json,
)
from scoring.errors import json_object
from scoring.hand import Context, Hand
from scoring.options import options_from_mapping
from scoring.tiles import ALL_CODES
from vision.classes import BONUS_CODES, CLASSES

HAND = "123m 456p 789s CCC 55p"


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        pytest.param("", [], id="empty"),
        pytest.param("   ", [], id="blank"),
        pytest.param("123m", ["1m", "2m", "3m"], id="run"),
        pytest.param("CCC", ["C", "C", "C"], id="honour-run"),
        pytest.param("ESWN", ["E", "S", "W", "N"], id="winds"),
        pytest.param(
            "123m 456p 789s CCC 55p",
            ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C", "C", "C", "5p", "5p"],
            id="example",
        ),
        pytest.param("F1 S4 cat", ["F1", "S4", "cat"], id="bonus-codes"),
        pytest.param("FF1", ["F", "F1"], id="green-dragon-then-flower"),
        pytest.param("S123m", ["S", "1m", "2m", "3m"], id="south-then-run"),
        pytest.param("fly 5p fly", ["fly", "5p", "fly"], id="fly"),
        pytest.param("12m,3m", ["1m", "2m", "3m"], id="comma-separates"),
    ],
)
def test_parse_hand_string(text: str, tiles: list[str]) -> None:
    assert parse_hand_string(text) == tiles


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("123", id="digits-without-suit"),
        pytest.param("123x", id="unknown-suit"),
        pytest.param("0m", id="rank-zero"),
        pytest.param("X", id="unknown-letter"),
        pytest.param("dragon", id="word"),
        pytest.param("1M", id="upper-suit"),
        pytest.param("F5", id="flower-5"),
    ],
)
def test_parse_hand_string_rejects(text: str) -> None:
    with pytest.raises(UnknownTileError) as error:
        parse_hand_string(text)
    assert repr(text[:1]) in str(error.value) or text in str(error.value)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("text", "code"),
    [("S0", "S0"), ("F5", "F5"), ("F12", "F12"), ("EEES5", "S5"), ("123m S44", "S44")],
)
def test_parse_hand_string_names_a_bonus_code_out_of_range(text: str, code: str) -> None:
    # read letter by letter, `S0` is the South wind and a lone 0: the message names the code meant
    with pytest.raises(UnknownTileError) as error:
        parse_hand_string(text)
    assert f"unknown tile code {code!r}" in str(error.value)
    assert "F1-F4, seasons S1-S4" in str(error.value)
    assert "suit letter" not in str(error.value)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        pytest.param("123m RRR 55p", "the dragons are C red, F green, P white", id="red-as-R"),
        pytest.param("123m ggg 55p", "the dragons are C red, F green, P white", id="green-as-g"),
        pytest.param("123b 456p", "the suits are m characters, p dots, s bamboo", id="bamboo-as-b"),
        pytest.param("123m 456d", "the suits are m characters, p dots, s bamboo", id="dots-as-d"),
    ],
)
def test_parse_hand_string_says_the_codes_of_a_notation_of_another_kind(text: str, hint: str) -> None:
    # stage 89, hands typed as a user would: `RRR` for the red dragon and `123b` for bamboo were only
    # "cannot read 'RRR' (e.g. 123p 55p CCC)", leaving the user to guess which letter is which
    with pytest.raises(UnknownTileError) as error:
        parse_hand_string(text)
    assert hint in str(error.value)


def test_parse_hand_string_rejects_non_text() -> None:
    with pytest.raises(HandStringError):
        parse_hand_string(123)  # type: ignore[arg-type]


def test_format_hand_groups_neighbours() -> None:
    assert format_hand(["1m", "2m", "3m", "C", "C", "C", "5p", "5p", "F1"]) == "123m CCC 55p F1"


def test_format_hand_rejects_unknown_code() -> None:
    with pytest.raises(UnknownTileError, match="'9x'"):
        format_hand(["9x"])


def test_every_code_round_trips_alone() -> None:
    for code in ALL_CODES:
        assert parse_hand_string(format_hand([code])) == [code]


MALFORMED = [
    pytest.param({}, MalformedHandError, "concealed", id="no-concealed"),
    pytest.param({"concealed": 5}, HandStringError, "concealed", id="concealed-number"),
    pytest.param({"concealed": "123m 456p 789s CCC 55q"}, UnknownTileError, "55q", id="unknown-code"),
    pytest.param({"concealed": ["1m", 2]}, HandStringError, "2", id="non-text-code"),
    pytest.param({"concealed": HAND + " F1"}, MalformedHandError, "bonus tile F1", id="bonus-in-concealed"),
    pytest.param({"concealed": HAND + " back"}, MalformedHandError, "back", id="back-in-concealed"),
    pytest.param(
        {"concealed": HAND, "bonus": ["5m"]}, MalformedHandError, "not a bonus tile", id="suited-bonus"
    ),
    pytest.param({"concealed": HAND, "melds": {}}, MalformedHandError, "melds", id="melds-not-list"),
    pytest.param({"concealed": HAND, "melds": ["CCC"]}, MeldError, "melds[0]", id="meld-not-object"),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "pung", "tiles": "CCC"}]},
        MeldError,
        "pung",
        id="unknown-meld-kind",
    ),
    pytest.param({"concealed": HAND, "melds": [{"kind": "pong"}]}, MeldError, "no tiles", id="meld-no-tiles"),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "chow", "tiles": "135m"}]},
        MeldError,
        "consecutive",
        id="chow-gap",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "chow", "tiles": "12m 3p"}]},
        MeldError,
        "one suit",
        id="chow-two-suits",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "chow", "tiles": "EEE"}]},
        MeldError,
        "suited",
        id="chow-of-honours",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "pong", "tiles": "CCF"}]},
        MeldError,
        "equal",
        id="pong-unequal",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "pong", "tiles": "CCCC"}]},
        MeldError,
        "3 tiles",
        id="pong-four-tiles",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "kong", "tiles": "CCC"}]},
        MeldError,
        "4 tiles",
        id="kong-three-tiles",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "kong", "tiles": "CCC fly"}]},
        MeldError,
        "kong",
        id="fly-in-kong",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "chow", "tiles": "1p fly fly"}]},
        MeldError,
        "at most one fly",
        id="two-fly-exposed-chow",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "pong", "tiles": "fly fly fly"}]},
        MeldError,
        "real tile",
        id="all-fly-meld",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "pong", "tiles": "F1 F1 F1"}]},
        MeldError,
        "cannot be part of a meld",
        id="bonus-meld",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "kong", "tiles": "back back back back"}]},
        MeldError,
        "which tile",
        id="all-back-kong",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "pong", "tiles": "C back C"}]},
        MeldError,
        "only stand in a kong",
        id="back-in-pong",
    ),
    pytest.param(
        {"concealed": HAND, "melds": [{"kind": "pong", "tiles": "CCC", "concealed": "yes"}]},
        MeldError,
        "true or false",
        id="meld-concealed-not-bool",
    ),
    pytest.param({"concealed": HAND, "rules": "hongkong"}, RulesetError, "hongkong", id="unknown-rules"),
    pytest.param({"concealed": HAND, "rules": 3}, RulesetError, "3", id="rules-not-text"),
    pytest.param({"concealed": HAND, "options": {"maxtai": 3}}, OptionError, "maxtai", id="unknown-option"),
    pytest.param({"concealed": HAND, "options": {"max_tai": "5"}}, OptionError, "max_tai", id="option-text"),
    pytest.param(
        {"concealed": HAND, "options": {"max_tai": 2.5}}, OptionError, "whole", id="option-fraction"
    ),
    pytest.param(
        {"concealed": HAND, "options": {"pure_green": 1}},
        OptionError,
        "true or false",
        id="option-bool-as-int",
    ),
    pytest.param(
        {"concealed": HAND, "options": {"min_tai": 6}}, OptionError, "above max_tai", id="min-above-max"
    ),
    pytest.param(
        {"concealed": HAND, "options": {"max_tai": 0}}, OptionError, "positive, got 0", id="max-zero"
    ),
    pytest.param({"concealed": HAND, "options": {"unit": 0}}, OptionError, "positive", id="unit-zero"),
    pytest.param(
        {"concealed": HAND, "options": {"unit": -1}}, OptionError, "positive, got -1", id="unit-negative"
    ),
    pytest.param(
        {"concealed": HAND, "options": {"unit": 1e-7}},
        OptionError,
        "under 0.000001, the smallest amount paid",
        id="unit-paid-as-0",
    ),
    pytest.param(
        {"concealed": HAND, "options": {"payout_table": [[1, 5e-7]]}},
        OptionError,
        "under 0.000001, the smallest amount paid",
        id="table-amount-paid-as-0",
    ),
    pytest.param(
        {"concealed": HAND, "options": {"payout_scheme": "winner_takes_all"}},
        OptionError,
        "payout_scheme",
        id="unknown-scheme",
    ),
    pytest.param(
        {"concealed": HAND, "options": {"payout_table": []}}, OptionError, "non-empty", id="empty-table"
    ),
    pytest.param(
        {"concealed": "123m 456p 789s WWW 55p", "options": {"min_tai": 0, "payout_scheme": "table"}},
        OptionError,
        "starts at 1 tai",
        id="table-with-no-0-tai-row",
    ),
    pytest.param(
        {"concealed": HAND, "options": {"payout_table": [[1, 2, 3]]}},
        OptionError,
        "shooter",
        id="table-row-three",
    ),
    pytest.param({"concealed": HAND, "options": []}, MalformedHandError, "options", id="options-list"),
    pytest.param({"concealed": HAND, "seat_wind": "X"}, MalformedHandError, "seat_wind", id="bad-seat"),
    pytest.param(
        {"concealed": HAND, "prevailing_wind": 1},
        MalformedHandError,
        "prevailing_wind",
        id="prevailing-number",
    ),
    pytest.param({"concealed": HAND, "winning_tile": "Z"}, UnknownTileError, "Z", id="unknown-winning-tile"),
    pytest.param(
        {"concealed": HAND, "winning_tile": "F1"},
        MalformedHandError,
        "not a hand tile",
        id="bonus-winning-tile",
    ),
    pytest.param(
        {"concealed": HAND, "self_drawn": "yes"}, MalformedHandError, "self_drawn", id="self-drawn-text"
    ),
    pytest.param({"concealed": HAND, "pay_all": 1}, MalformedHandError, "pay_all", id="pay-all-number"),
    # a number for a wind is answered with the winds, as a code that is no wind is
    pytest.param(
        {"concealed": HAND, "seat_wind": 5},
        MalformedHandError,
        "seat_wind must be one of E, S, W, N",
        id="seat-5",
    ),
    pytest.param(
        {"concealed": HAND, "discarder_wind": 2},
        MalformedHandError,
        "discarder_wind must be one of E, S, W, N",
        id="discarder-2",
    ),
    pytest.param(
        {"concealed": HAND, "winning_tile": 3}, MalformedHandError, "must be a tile code", id="win-3"
    ),
    pytest.param(
        {"concealed": HAND, "circumstances": ["moonwalk"]},
        MalformedHandError,
        "moonwalk",
        id="unknown-circumstance",
    ),
    pytest.param(
        {"concealed": HAND, "circumstances": [1]},
        MalformedHandError,
        "circumstances",
        id="circumstance-number",
    ),
]


@pytest.mark.parametrize(
    ("data", "said"),
    [
        pytest.param(
            {"concealed": "123m 456p 789s 5q"}, "concealed: cannot read '5q': the suits", id="concealed"
        ),
        pytest.param(
            {"concealed": ["1m", "5q"]}, "concealed: cannot read '5q': the suits", id="concealed-list"
        ),
        pytest.param(
            {"concealed": HAND, "melds": [{"kind": "pong", "tiles": "CCC"}, {"tiles": "5q5q5q"}]},
            "melds[1].tiles: cannot read '5q5q5q'",
            id="meld",
        ),
        pytest.param({"concealed": HAND, "bonus": "F1 F9"}, "bonus: unknown tile code 'F9'", id="bonus"),
        pytest.param(
            {"concealed": HAND, "bonus": "F1", "bonus_from_deal": "F1 2"},
            "bonus_from_deal: '2' needs a suit letter",
            id="bonus-from-deal",
        ),
        pytest.param(
            {"concealed": HAND, "winning_tile": "5q"}, "winning_tile: unknown tile code '5q'", id="won"
        ),
    ],
)
def test_a_bad_tile_code_names_the_field_it_is_in(data: dict[str, Any], said: str) -> None:
    # an audit: "cannot read '5q'" left a user to search the concealed tiles, the melds and the bonus
    with pytest.raises((UnknownTileError, HandStringError)) as raised:
        score_json(data)
    assert str(raised.value).startswith(said), str(raised.value)


def _option_error(options: dict[str, Any], rules: str = "singapore") -> str:
    with pytest.raises(OptionError) as raised:
        score_json({"concealed": HAND, "rules": rules, "options": options})
    return str(raised.value)


@pytest.mark.parametrize(
    ("name", "least", "in_a_row"),
    [
        ("unit", 1, False),
        ("points_per_fan", 1, False),
        ("max_tai", 1, False),
        ("min_tai", 0, False),
        ("payout_table", 1, True),
    ],
)
def test_every_value_below_an_options_least_is_refused_in_one_message(
    name: str, least: int, in_a_row: bool
) -> None:
    # an audit: unit 0 said "must be positive" and -1 "must not be negative"
    lines = {
        _option_error({name: [number] if in_a_row else number}).replace(f"got {number}", "got N")
        for number in (least - 1, -3)
    }
    assert len(lines) == 1, lines
    assert lines.pop().startswith(f"option {name}")


@pytest.mark.parametrize(
    ("rules", "options", "said"),
    [
        ("singapore", {"min_tai": 7}, "option min_tai 7 is above max_tai 5 (the default)"),
        ("malaysian", {"max_tai": 3}, "option min_tai 5 (the default) is above max_tai 3"),
        ("singapore", {"min_tai": 7, "max_tai": 6}, "option min_tai 7 is above max_tai 6"),
        ("singapore", {"min_tai": 7, "max_tai": None}, "option min_tai 7 is above max_tai 5 (the default)"),
    ],
)
def test_a_minimum_above_the_cap_says_which_bound_is_the_default(
    rules: str, options: dict[str, Any], said: str
) -> None:
    assert _option_error(options, rules) == said


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"max_tai": 100}, "option max_tai 100 is too large (at most 64)"),
        ({"min_tai": 7}, "option min_tai 7 is above max_tai 5 (the default)"),
        ({"payout_scheme": "bogus"}, "option payout_scheme must be one of "),
        ({"payout_table": [[1, 2, 3]]}, "option payout_table row [1, 2, 3] must be "),
        (
            {"payout_scheme": "table", "min_tai": 0},
            "option min_tai must be 1 or more with payout_scheme table",
        ),
        ({"unit": 0.1, "max_tai": 64}, "option unit 0.1 with max_tai 64 could pay up to "),
        (
            {"payout_scheme": "table", "payout_table": [1234567890.123456], "instant_payouts": False},
            "option ",
        ),
        ({"unit": 0}, "option unit must be positive, got 0"),
    ],
)
def test_every_option_message_begins_with_the_option_it_is_about(options: dict[str, Any], said: str) -> None:
    # one form for all (an audit: "max_tai 100 is too large" beside "option unit must be positive")
    assert _option_error(options).startswith(said)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (1e13, "got 10000000000000"),
        (-2.5e12, "got -2500000000000"),
        (1e300, "got 1e+300"),
        (10**13, "got 10000000000000"),
    ],
)
def test_an_amount_past_the_bound_is_quoted_as_a_plain_number(value: float, shown: str) -> None:
    # an audit: 1e13 was quoted back as 10000000000000.0
    line = _option_error({"unit": value})
    assert line.endswith(shown) and ".0" not in line, line


@pytest.mark.parametrize(("data", "error", "quote"), MALFORMED)
def test_malformed_input_raises_named_error(data: dict[str, Any], error: type[Exception], quote: str) -> None:
    with pytest.raises(error) as raised:
        score_json(data)
    message = str(raised.value)
    assert quote in message
    assert "\n" not in message
    assert isinstance(raised.value, ValueError)


def test_every_bad_option_is_named_in_the_order_given() -> None:
    options = {"unit": -1, "max_tai": 5, "maxtai": 3, "payout_table": []}
    with pytest.raises(OptionError) as raised:
        score_json({"concealed": HAND, "options": options})
    message = str(raised.value)
    assert "\n" not in message
    named = [message.index(word) for word in ("option unit", "'maxtai'", "option payout_table", "(known:")]
    assert named == sorted(named) and "max_tai must" not in message


def test_one_bad_option_is_named_alone() -> None:
    with pytest.raises(OptionError) as raised:
        score_json({"concealed": HAND, "options": {"unit": 0, "max_tai": 5}})
    assert ";" not in str(raised.value) and "known:" not in str(raised.value)


def test_not_a_dict() -> None:
    with pytest.raises(MalformedHandError, match="JSON object"):
        score_json(["123m"])  # type: ignore[arg-type]


def test_concealed_kong_with_face_down_tiles() -> None:
    result = score_json(
        {
            "concealed": "123m 456p 789s 55p",
            "melds": [{"kind": "kong", "tiles": "back C C back", "concealed": True}],
        }
    )
    assert result["valid"] and result["tai"] == 1


def test_face_down_tiles_make_a_kong_concealed_when_the_flag_is_left_out() -> None:
    hand = {"concealed": "123m 456p 789s 55p", "self_drawn": True}
    face_down = score_json({**hand, "melds": [{"kind": "kong", "tiles": "back C C back"}]})
    face_up = score_json({**hand, "melds": [{"kind": "kong", "tiles": "C C C C"}]})
    assert "fully_concealed" in {p["key"] for p in face_down["patterns"]}
    assert face_down["tai"] == face_up["tai"] + 1


def test_unknown_field_is_a_warning() -> None:
    result = score_json({"concealed": HAND, "note": "from the app"})
    assert result["valid"]
    assert any("note" in warning for warning in result["warnings"])


def test_null_fields_mean_defaults() -> None:
    result = score_json(
        {
            "concealed": HAND,
            "melds": None,
            "bonus": None,
            "winning_tile": None,
            "seat_wind": None,
            "prevailing_wind": None,
            "discarder_wind": None,
            "self_drawn": None,
            "pay_all": None,
            "bonus_from_deal": None,
            "circumstances": None,
            "options": None,
            "rules": None,
        }
    )
    assert result["valid"] and result["rules"] == "singapore"
    assert result["payout"]["discarder"] == 2  # a discard win, no one liable


@pytest.mark.parametrize(
    ("tiles", "read"),
    [
        (["2p", "3p", "fly"], "[123p(fly=1p)]"),  # two faces and a fly: a chow, not a pong
        (["C", "C", "fly"], "[CCC(fly=C)]"),
        (["C", "C", "C", "C"], "[CCCC]"),
    ],
)
def test_a_meld_given_without_its_kind_is_read_from_its_tiles(tiles: list[str], read: str) -> None:
    melds = [{"tiles": tiles}, {"tiles": "456p"}, {"tiles": "789p"}, {"tiles": "EEE"}]
    result = score_json({"rules": "malaysian", "concealed": "11p", "melds": melds})
    assert read in str(result["arrangement"]).split(), result["arrangement"]


def test_one_circumstance_may_be_given_as_a_name_alone() -> None:
    result = score_json({"concealed": HAND, "self_drawn": True, "circumstances": "last_tile"})
    assert {p["key"] for p in result["patterns"]} == {"dragon_pong", "fully_concealed", "last_tile"}


@pytest.mark.parametrize(
    ("rules", "concealed", "needle"),
    [
        ("singapore", "123m 456m 789m 11p", "fly is not in the Singapore tile set (an exposed chow may"),
        ("malaysian", "123p 456p 789p 11p", "an exposed chow may hold at most one fly"),
    ],
)
def test_a_meld_with_a_tile_outside_the_rule_set_says_so(rules: str, concealed: str, needle: str) -> None:
    data = {"rules": rules, "concealed": concealed, "melds": [{"kind": "chow", "tiles": "7p fly fly"}]}
    with pytest.raises(MeldError) as caught:
        score_json(data)
    # named by its place, as a tile that cannot be read is (stage 89)
    assert str(caught.value).startswith(f"melds[0]: {needle}")


@pytest.mark.parametrize(
    ("rules", "concealed", "tiles"),
    [
        ("singapore", "123m 456p 789s 55p", "F1 F1 F1"),
        ("malaysian", "123p 456p 789p 55p", "face face face"),
        ("singapore", "123m 456p 789s 55p", "back back back"),
    ],
)
def test_a_bonus_or_face_down_tile_in_a_meld_is_not_called_outside_the_set(
    rules: str, concealed: str, tiles: str
) -> None:
    # both are in their rule set's tiles: the meld's own rule is what is wrong
    data = {"rules": rules, "concealed": concealed, "melds": [{"kind": "pong", "tiles": tiles}]}
    with pytest.raises(MeldError) as caught:
        score_json(data)
    assert "tile set" not in str(caught.value)


# a fly kept in the bonus row is a bonus tile (Malaysian): test_engine checks it is taken there
@pytest.mark.parametrize("listed", ["1m", "C", "back"])
def test_bonus_from_deal_takes_bonus_tiles_only(listed: str) -> None:
    hand = {"concealed": "123m 456p 789s CCC 55p", "bonus": ["F1"], "bonus_from_deal": ["F1", listed]}
    with pytest.raises(MalformedHandError, match=f"bonus_from_deal lists {listed}, which is not a bonus"):
        score_json(hand)


def test_bonus_from_deal_takes_only_tiles_of_the_bonus_row() -> None:
    hand = {"concealed": "123m 456p 789s CCC 55p", "bonus": ["cat"], "bonus_from_deal": ["cat", "rat"]}
    with pytest.raises(MalformedHandError, match="bonus_from_deal lists rat, which is not in the bonus row"):
        score_json(hand)


def test_a_json_file_starting_with_a_byte_order_mark_reads() -> None:
    assert json_object('\ufeff{"concealed": "123m"}', "hand.json", "a hand") == {"concealed": "123m"}


@pytest.mark.parametrize("rules, cap", [("singapore", 5), ("malaysian", 10)])
def test_null_inside_options_means_the_rule_sets_default(rules: str, cap: int) -> None:
    # all pongs, full flush, seat flower and season (and a bomb): over either cap
    hand = {"rules": rules, "concealed": "111p 222p 333p 777p 55p", "bonus": ["F1", "S1"]}
    with_nulls = score_json({**hand, "options": {"max_tai": None, "unit": None, "min_tai": None}})
    assert with_nulls["tai"] == cap and with_nulls["tai"] < with_nulls["raw_tai"]
    assert with_nulls == score_json(hand)


def test_an_option_the_rule_set_does_not_read_is_warned_of_where_it_is_set_otherwise() -> None:
    malaysian = {"rules": "malaysian", "concealed": "111p 222p 333p 777p 55p", "seat_wind": "S"}
    plain = score_json(malaysian)
    said = score_json({**malaysian, "options": {"self_draw_tai": True, "payout_scheme": "shooter_pays"}})
    assert said["warnings"] == plain["warnings"] + [
        "option payout_scheme is not part of malaysian rules; ignored",  # in RULES.md's order
        "option self_draw_tai is not part of malaysian rules; ignored",
    ]
    assert said["tai"] == plain["tai"] and said["payout"] == plain["payout"]
    # set at the rule set's default (as the app sends the options it hides), or one it reads: nothing said
    quiet = {"self_draw_tai": False, "unit": 1, "max_tai": 10, "points_per_fan": 10}
    assert score_json({**malaysian, "options": quiet})["warnings"] == plain["warnings"]
    singapore = score_json({"concealed": HAND, "options": {"points_per_fan": 10, "north_wind": True}})
    assert singapore["warnings"] == ["option points_per_fan is not part of singapore rules; ignored"]


def test_options_defaults_follow_rules_md() -> None:
    options = Options()
    assert (options.min_tai, options.max_tai, options.unit, options.payout_scheme) == (1, 5, 1, "standard")
    assert (
        options.instant_payouts
        and options.fully_concealed_tai
        and options.pure_green
        and options.humanly_hand
    )
    assert not options.self_draw_tai and not options.lesser_sequence_wait_rule
    assert options.north_wind and options.points_per_fan == 20 and options.malaysian_payment == "seed"
    malaysian = default_options("malaysian")
    assert (malaysian.min_tai, malaysian.max_tai) == (5, 10)
    assert default_options("singapore") == options


def test_every_option_has_help_for_the_sidebar() -> None:
    for field in dataclasses.fields(Options):
        assert field.metadata.get("help"), field.name


def test_options_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Options().max_tai = 10  # type: ignore[misc]


def test_ruleset_names() -> None:
    assert RULESET_NAMES == ("singapore", "malaysian")
    with pytest.raises(RulesetError):
        default_options("riichi")


def test_tile_codes_match_the_detector_classes() -> None:
    assert set(CLASSES) == ALL_CODES
    from scoring.tiles import BONUS

    assert set(BONUS_CODES) == BONUS


@pytest.mark.parametrize(
    ("options", "quote"),
    [
        pytest.param(Options(payout_scheme="shooter"), "payout_scheme", id="scheme"),
        pytest.param(Options(max_tai=5.5), "max_tai must be a whole number", id="fractional-cap"),  # type: ignore[arg-type]
        pytest.param(Options(unit="1"), "unit must be a number", id="unit-text"),  # type: ignore[arg-type]
        pytest.param(
            Options(payout_scheme="table", payout_table=((1, 2, 3),)),  # type: ignore[arg-type]
            "must be \\[shooter pays",
            id="table-row",
        ),
        pytest.param(Options(payout_scheme="table", payout_table=()), "non-empty list", id="empty-table"),
        pytest.param(
            dataclasses.replace(default_options("malaysian"), malaysian_payment="Seed"),
            "malaysian_payment",
            id="malaysian-payment",
        ),
    ],
)
def test_options_built_in_code_are_checked_as_json_ones(options: Options, quote: str) -> None:
    # a misspelt scheme must not fall through to another scheme's payments
    hand = Hand(concealed=tuple(parse_hand_string("123p 456p 789p EEE 11p")))
    with pytest.raises(OptionError, match=quote):
        score(hand, Context(winning_tile="1p"), options=options)


def test_options_built_in_code_take_the_form_json_gives_them() -> None:
    hand = Hand(concealed=tuple(parse_hand_string("111p 222p 333p 777p 55p")), bonus=("F1", "S1"))
    as_json = score_json(
        {"concealed": "111p 222p 333p 777p 55p", "bonus": ["F1", "S1"], "options": {"max_tai": 10}}
    )
    capped = score(hand, Context(), options=Options(max_tai=10.0))  # type: ignore[arg-type]
    assert capped.tai == as_json["tai"] == 10 and isinstance(capped.tai, int)
    # a table given as lists of [shooter pays, each pays], as JSON writes it
    table = Options(payout_scheme="table", payout_table=[[4, 2], [7, 3]])  # type: ignore[arg-type]
    paid = score(Hand(concealed=tuple(parse_hand_string(HAND))), Context(seat_wind="W"), options=table)
    assert paid.valid and paid.payout.discarder == 4  # what the discarder pays


@pytest.mark.parametrize(
    ("call", "error", "quote"),
    [
        pytest.param(lambda h: score(h, Context(), None), RulesetError, "rules must be", id="rules-none"),  # type: ignore[arg-type]
        pytest.param(
            lambda h: score(h, Context(), "singapore", {"max_tai": 10}),  # type: ignore[arg-type]
            OptionError,
            "options must be an Options value",
            id="options-dict",
        ),
        pytest.param(
            lambda h: Context(self_drawn="no"),  # type: ignore[arg-type]
            MalformedHandError,
            "self_drawn must be true or false",
            id="self-drawn-text",
        ),
        pytest.param(
            lambda h: Context(pay_all=1),  # type: ignore[arg-type]
            MalformedHandError,
            "pay_all must be",
            id="pay-all-number",
        ),
        pytest.param(
            lambda h: Context(circumstances="robbing_kong"),  # type: ignore[arg-type]
            MalformedHandError,
            "set of names",
            id="circumstance-text",
        ),
        pytest.param(
            lambda h: Context(circumstances=[["robbing_kong"]]),  # type: ignore[arg-type]
            MalformedHandError,
            "set of names",
            id="circumstance-nested",
        ),
        pytest.param(
            lambda h: Context(bonus_from_deal=["zz"]),  # type: ignore[arg-type]
            MalformedHandError,
            "zz, which is not a bonus tile",
            id="from-deal-no-bonus-tile",
        ),
        pytest.param(
            lambda h: score(h, Context(bonus_from_deal=frozenset({"F2"}))),
            MalformedHandError,
            "F2, which is not in the bonus row",
            id="from-deal-not-in-the-row",
        ),
    ],
)
def test_the_python_api_names_a_wrong_argument(call: Any, error: type[Exception], quote: str) -> None:
    with pytest.raises(error, match=quote):
        call(Hand(concealed=tuple(parse_hand_string(HAND))))


def test_context_sets_may_be_given_as_lists() -> None:
    hand = Hand(concealed=tuple(parse_hand_string(HAND)), bonus=("cat", "rat"))
    listed = score(hand, Context(bonus_from_deal=["cat", "rat"], circumstances=[]))  # type: ignore[arg-type]
    as_sets = score(hand, Context(bonus_from_deal=frozenset({"cat", "rat"})))
    assert listed == as_sets


def test_every_tile_outside_the_rule_set_is_named_once() -> None:
    result = score_json({"rules": "malaysian", "concealed": "234m 567m 345p 678s 99p"})
    assert result["reason"] == "tile_not_in_set"
    assert "2m, 3m, 4m, 5m, 6m, 7m, 6s, 7s, 8s are not in the Malaysian tile set" in result["message"]


def test_the_tiles_outside_the_rule_set_are_named_in_tile_order_each_once() -> None:
    # an audit read "2s, 5s, 4s, 6s, 1s, 3s": the hand's order, not the tiles'
    result = score_json(
        {"rules": "malaysian", "concealed": "26s 5s 4s 6s 1s 3s 123p 55p 2s", "bonus": ["F1"]}
    )
    assert result["message"] == "Not a valid win: 1s, 2s, 3s, 4s, 5s, 6s are not in the Malaysian tile set."


@pytest.mark.parametrize(
    ("hand", "said"),
    [
        (
            {"concealed": "123m 456p 789s fly 55p 11p", "bonus": ["face", "F1", "fly"]},
            "fly and bonus tiles fly, face are not in the Singapore tile set",  # in tile order
        ),
        (
            {"concealed": "123m 456p 789s CCC 55p", "bonus": ["face"]},
            "bonus tile face is not in the Singapore",
        ),
    ],
)
def test_bonus_tiles_outside_the_rule_set_are_named_with_the_hands(
    hand: dict[str, object], said: str
) -> None:
    # a Malaysian hand scored as Singapore: the face in the bonus row was named only once the fly was fixed
    result = score_json(hand)
    assert result["reason"] == "tile_not_in_set" and said in result["message"], result["message"]


@pytest.mark.parametrize(
    ("hand", "said"),
    [
        (
            {"concealed": "123p 456p 789p 55p 99p", "winning_tile": "fly"},
            "the winning tile fly is not in the Singapore",
        ),
        (
            {"rules": "malaysian", "concealed": "123p 456p 789p 55p 99p", "winning_tile": "1m"},
            "the winning tile 1m is not in the Malaysian",
        ),
        (
            {"rules": "malaysian", "concealed": "123m 456p 789p 55p 99p", "winning_tile": "9s"},
            "1m, 2m, 3m and the winning tile 9s are not in the Malaysian",
        ),
        (
            {
                "rules": "malaysian",
                "concealed": "123p 456p 789p 55p 99p",
                "winning_tile": "N",
                "options": {"north_wind": False},
            },
            "the winning tile N is not in the Malaysian tile set (option north_wind is off)",
        ),
    ],
)
def test_a_winning_tile_no_set_holds_is_named_as_outside_the_set(hand: dict[str, Any], said: str) -> None:
    result = score_json(hand)
    assert result["reason"] == "tile_not_in_set" and said in result["message"], result["message"]


def test_a_north_wind_the_option_took_out_says_so() -> None:
    hand = {"rules": "malaysian", "concealed": "NNN 123p 456p 789p 55p"}
    off = score_json({**hand, "options": {"north_wind": False}})
    assert off["message"] == "Not a valid win: N is not in the Malaysian tile set (option north_wind is off)."
    assert score_json(hand)["reason"] == "below_minimum"  # North is in the set with the option on


def test_a_north_round_without_the_north_wind_is_impossible() -> None:
    # it was scored without a word (Malaysian rules read no prevailing wind): refused as a North seat is
    hand = {"rules": "malaysian", "concealed": "111p 222p 333p 444p 55p", "prevailing_wind": "N"}
    off = score_json({**hand, "options": {"north_wind": False}})
    assert off["reason"] == "impossible_context", off
    assert off["message"] == (
        "Not a valid win: prevailing wind N is not a round of a set without the North wind "
        "(option north_wind is off; rounds E, S, W)."
    )
    assert score_json(hand)["valid"]  # seeds/004 goes round all four winds with the North wind in
    # Singapore rules read no north_wind option: its set, and its North round, are whole
    singapore = {**hand, "rules": "singapore", "options": {"north_wind": False}}
    assert score_json(singapore)["valid"]


@pytest.mark.parametrize(
    ("item", "value"),
    [
        pytest.param("max_tai=10", 10, id="json-number"),
        pytest.param("north_wind=false", False, id="json-boolean"),
        pytest.param("north_wind=False", False, id="capital-boolean"),
        pytest.param("self_draw_tai=TRUE", True, id="upper-boolean"),
        pytest.param("unit=.5", 0.5, id="leading-point"),
        pytest.param("max_tai=07", 7, id="leading-zero"),
        pytest.param("max_tai=+7", 7, id="plus-sign"),
        pytest.param("payout_scheme=shooter_pays", "shooter_pays", id="text"),
        pytest.param("north_wind=yes", "yes", id="other-word-left-as-text"),
    ],
)
def test_command_line_option_values_are_read_as_typed(item: str, value: object) -> None:
    from scoring.options import option_assignments

    read = option_assignments([item])[item.partition("=")[0]]
    assert read == value and type(read) is type(value)


BOUNDED = [field for field in dataclasses.fields(Options) if "least" in field.metadata]


@pytest.mark.parametrize("field", BOUNDED, ids=[field.name for field in BOUNDED])
def test_an_options_bounds_are_what_the_scoring_takes_alone(field: dataclasses.Field[Any]) -> None:
    # a settings UI bounds its box by them (an audit: the sidebar took points per fan 0 and the
    # result then refused it): each bound is taken, a step beyond it refused
    rules = "malaysian" if field.name == "points_per_fan" else "singapore"
    least, most = field.metadata["least"], field.metadata["most"]
    beside = {"max_tai": 64} if field.name == "min_tai" else {}
    for value in (least, most):
        options_from_mapping(default_options(rules), {**beside, field.name: value})
    for value in (least - 1, most + 1):
        with pytest.raises(OptionError):
            options_from_mapping(default_options(rules), {**beside, field.name: value})
    assert {field.name for field in BOUNDED} == {"min_tai", "max_tai", "points_per_fan"}


@pytest.mark.parametrize(
    ("typed", "tiles"),
    [
        pytest.param("123m;456p", "123m 456p", id="semicolon"),
        pytest.param("123m；456p", "123m 456p", id="full-width-semicolon"),
        pytest.param("123m/456p|CCC", "123m 456p CCC", id="strokes"),
        pytest.param("123m\u200b 456p\ufeff", "123m 456p", id="zero-width"),
        pytest.param("Red Dragon, red dragon, red dragon", "CCC", id="dragon-named"),
        pytest.param("east wind 55p", "E 55p", id="wind-named"),
    ],
)
def test_a_typed_hand_reads_what_players_put_between_and_after_tiles(typed: str, tiles: str) -> None:
    # stage 89: each was refused ("cannot read ';456p'", "cannot read 'dragon'") though the tiles are plain
    from scoring.typed import read_tiles

    assert read_tiles(typed) == parse_hand_string(tiles)


@pytest.mark.parametrize("typed", ["dragon", "blue dragon", "wind", "red wind"])
def test_a_dragon_or_wind_word_after_no_name_of_its_kind_is_still_refused(typed: str) -> None:
    from scoring.typed import read_tiles

    with pytest.raises(ValueError, match=r"cannot read '(dragon|blue|wind)'"):
        read_tiles(typed)
