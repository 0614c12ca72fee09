"""The payout's `basis`: every amount a player pays is stated with how it was reached, so a table can
check it (the base from the unit and the tai, each share as a multiple of it, pay-all)."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import score_json
from scoring.errors import OptionError
from scoring.hand import Context
from scoring.options import Options
from scoring.payout import Payout, format_amount, instant_text, malaysian_payout, singapore_payout


def _g(value: float | Decimal) -> str:
    value = float(value)
    number = int(value) if value.is_integer() else round(value, 6)
    text = f"{number:,}" if abs(number) >= 10_000 else f"{number}"
    return text.removesuffix(".0")


@pytest.mark.parametrize(
    ("tai", "context", "options", "basis"),
    [
        (
            2,
            Context(),
            Options(),
            "base = unit 1 x 2^(2 - 1) = 2; the discarder pays 2 x base = 4, each other player 1 x base = 2.",
        ),
        (
            3,
            Context(self_drawn=True),
            Options(),
            "base = unit 1 x 2^(3 - 1) = 4; each other player pays 2 x base = 8.",
        ),
        (
            4,
            Context(pay_all=True),
            Options(payout_scheme="shooter_pays", unit=0.5),
            "base = unit 0.5 x 2^(4 - 1) = 4, shooter pays; the discarder pays 4 x base = 16, the others "
            "nothing; pay-all: the liable player pays all 16.",
        ),
        (
            7,
            Context(),
            Options(payout_scheme="table", payout_table=(1, 2, 4, 8, 16)),
            "payout table, row 5 (its last, for 5 tai and above): base 16; the discarder pays 2 x base = 32, "
            "each other player 1 x base = 16.",
        ),
    ],
)
def test_singapore_basis_states_the_base_and_each_share(
    tai: int, context: Context, options: Options, basis: str
) -> None:
    assert singapore_payout(tai, context, options, False).basis == basis


def test_thirteen_wonders_on_a_discard_says_all_pay_as_on_a_self_draw() -> None:
    payout = singapore_payout(5, Context(), Options(), True)
    assert payout.basis == (
        "base = unit 1 x 2^(5 - 1) = 16 (thirteen wonders: all pay as on a self-draw, whatever the payout "
        "scheme, RULES.md); every loser pays "
        "2 x base = 32."
    )
    assert [share.amount for share in payout.players] == [96, -32, -32, -32]


@given(
    tai=st.integers(1, 13),
    unit=st.sampled_from([0.5, 1, 2, 5]),
    self_drawn=st.booleans(),
    pay_all=st.booleans(),
    scheme=st.sampled_from(["standard", "shooter_pays"]),
)
def test_every_amount_paid_is_in_the_basis(
    tai: int, unit: float, self_drawn: bool, pay_all: bool, scheme: str
) -> None:
    options = dataclasses.replace(Options(), unit=unit, payout_scheme=scheme)
    payout = singapore_payout(tai, Context(self_drawn=self_drawn, pay_all=pay_all), options, False)
    assert (
        f"= {_g(unit * 2 ** (tai - 1))};" in payout.basis or f"= {_g(unit * 2 ** (tai - 1))}," in payout.basis
    )
    for share in payout.players[1:]:
        if share.amount:
            assert _g(-share.amount) in payout.basis, (share, payout.basis)
    assert payout.basis.endswith(".") and ("pay-all" in payout.basis) == pay_all


@pytest.mark.parametrize(
    ("payment", "self_drawn", "basis"),
    [
        (
            "seed",
            False,
            # a 3-player game's discard leaves one other player, named so (it had said "the others")
            "points = 5 fan x 20 points per fan = 100; the discarder pays 2 x points = 200, the other "
            "player nothing.",
        ),
        ("seed", True, "points = 5 fan x 20 points per fan = 100; each other player pays the points, 100."),
        (
            "discarder_and_other",
            False,
            "points = 5 fan x 20 points per fan = 100; the discarder pays 2 x points = 200, the other "
            "player 1 x points = 100.",
        ),
        (
            "discarder_and_other",
            True,
            "points = 5 fan x 20 points per fan = 100; each other player pays 2 x points = 200.",
        ),
    ],
)
def test_malaysian_basis_states_the_points_and_each_share(payment: str, self_drawn: bool, basis: str) -> None:
    options = dataclasses.replace(Options(), malaysian_payment=payment)
    assert malaysian_payout(5, Context(self_drawn=self_drawn), options, False).basis == basis


@pytest.mark.parametrize(
    ("value", "signed", "text"),
    [
        (16, False, "16"),
        (16.0, True, "+16"),
        (0.5, False, "0.5"),
        (0.1 + 0.2, False, "0.3"),
        (1280, False, "1280"),
        (9999, False, "9999"),
        (10_000, False, "10,000"),  # grouped from 10,000 up, 10,000 itself included
        (16_000_000, True, "+16,000,000"),
        (-8e6, True, "-8,000,000"),
        (-1_234_567.5, False, "-1,234,567.5"),
        (1e12, False, "1,000,000,000,000"),
        (0, True, "0"),  # a player who pays nothing: no sign
    ],
)
def test_amounts_print_every_digit(value: float, signed: bool, text: str) -> None:
    # large stakes were printed as 1.6e+07 and rounded to six digits (-1234567.5 as -1.23457e+06)
    assert format_amount(value, signed) == text


def test_a_large_unit_is_paid_and_explained_in_full() -> None:
    options = dataclasses.replace(Options(), unit=1_000_000)
    payout = singapore_payout(3, Context(), options, False)
    assert payout.basis == (
        "base = unit 1,000,000 x 2^(3 - 1) = 4,000,000; the discarder pays 2 x base = 8,000,000, "
        "each other player 1 x base = 4,000,000."
    )


def test_amounts_are_worked_in_decimals_so_the_basis_reads_right_and_the_shares_add_up() -> None:
    # a float's 0.1 x 2^39 prints 54,975,581,388.800003, and 0.1 x 3 is 0.30000000000000004
    options = dataclasses.replace(Options(), unit=0.1, max_tai=40)
    payout = singapore_payout(40, Context(self_drawn=True), options, False)
    assert payout.basis == (
        "base = unit 0.1 x 2^(40 - 1) = 54,975,581,388.8; "
        "each other player pays 2 x base = 109,951,162,777.6."
    )
    assert payout.winner_total == Decimal("329853488332.8")
    discard = singapore_payout(2, Context(), dataclasses.replace(Options(), unit=0.1), False)
    assert [share.amount for share in discard.players] == [
        Decimal("0.8"),
        Decimal("-0.4"),
        *[Decimal("-0.2")] * 2,
    ]
    assert sum(share.amount for share in discard.players) == 0


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        (
            {"unit": 0.0000015},
            "option unit has more than 6 decimals, got 0.0000015: amounts are paid to 0.000001",
        ),
        ({"unit": 1.0000005}, "more than 6 decimals, got 1.0000005"),
        ({"payout_scheme": "table", "payout_table": [48.0226978]}, "payout_table has more than 6 decimals"),
        ({"payout_scheme": "table", "payout_table": [0]}, "payout_table amounts must be positive, got 0"),
        (
            {"payout_scheme": "table", "payout_table": [[4, 0]]},
            "payout_table amounts must be positive, got 0",
        ),
    ],
)
def test_an_amount_that_cannot_be_paid_to_the_digit_is_refused(options: dict, refused: str) -> None:
    # paid to 6 decimals, a finer amount would be rounded share by share and the shares would not add up
    # to the winner's total; a row of 0 pays the winner nothing
    with pytest.raises(OptionError, match=re.escape(refused)):
        score_json({**HAND, "options": options})
    assert score_json({**HAND, "options": {"unit": 0.000015}})["payout"]["winner_total"] == 0.00006


def _seats(result: dict) -> list[tuple[str, str | None, float]]:
    return [(p["role"], p["seat"], p["amount"]) for p in result["payout"]["players"]]


HAND = {"concealed": "123m 456p 789s CCC 55p"}


def test_the_payout_names_each_players_seat_given_the_discarders() -> None:
    result = score_json({**HAND, "seat_wind": "W", "discarder_wind": "E"})
    # the others in turn of play from the winner: North, then South
    assert _seats(result) == [
        ("winner", "W", 4),
        ("discarder", "E", -2),
        ("other", "N", -1),
        ("other", "S", -1),
    ]
    assert sum(amount for _, _, amount in _seats(result)) == 0


def test_without_the_discarders_seat_only_the_winner_is_seated_on_a_discard() -> None:
    assert [seat for _, seat, _ in _seats(score_json({**HAND, "seat_wind": "S"}))] == ["S", None, None, None]


def test_every_loser_of_a_self_draw_is_seated_and_a_discarder_given_is_ignored_with_a_word() -> None:
    result = score_json({**HAND, "seat_wind": "N", "self_drawn": True, "discarder_wind": "E"})
    assert [seat for _, seat, _ in _seats(result)] == ["N", "E", "S", "W"]
    assert "discarder_wind ignored: a self-drawn win has no discarder" in result["warnings"]


def test_the_liable_player_of_a_pay_all_self_draw_takes_the_seat_given() -> None:
    result = score_json(
        {**HAND, "seat_wind": "S", "self_drawn": True, "pay_all": True, "discarder_wind": "N"}
    )
    assert _seats(result)[1] == ("discarder", "N", -12)
    assert [seat for _, seat, _ in _seats(result)] == ["S", "N", "W", "E"]


def test_a_malaysian_discarder_is_one_of_three_seats() -> None:
    hand = {
        "rules": "malaysian",
        "concealed": "123p 345p 789p 111p 55p",
        "seat_wind": "S",
        "self_drawn": False,
    }
    assert [seat for _, seat, _ in _seats(score_json({**hand, "discarder_wind": "W"}))] == ["S", "W", "E"]
    north = score_json({**hand, "discarder_wind": "N"})
    assert north["reason"] == "impossible_context" and "not a seat in a 3-player game" in north["message"]


def test_the_discarder_cannot_be_the_winner() -> None:
    result = score_json({**HAND, "seat_wind": "S", "discarder_wind": "S"})
    assert result["reason"] == "impossible_context" and "the winner's own seat" in result["message"]


@given(
    rules=st.sampled_from(["singapore", "malaysian"]),
    seat=st.sampled_from("ESWN"),
    discarder=st.sampled_from(["E", "S", "W", "N", None]),
    self_drawn=st.booleans(),
    pay_all=st.booleans(),
)
def test_seats_are_the_rule_sets_each_once_and_the_winner_is_the_seat_wind(
    rules: str, seat: str, discarder: str | None, self_drawn: bool, pay_all: bool
) -> None:
    seats = "ESW" if rules == "malaysian" else "ESWN"
    if seat not in seats or discarder == seat or (discarder is not None and discarder not in seats):
        return  # impossible contexts, refused elsewhere
    hand = "111p 222p 333p 456p 99p" if rules == "malaysian" else "123m 456p 789s CCC 55p"
    data = {
        "rules": rules,
        "concealed": hand,
        "seat_wind": seat,
        "self_drawn": self_drawn,
        "pay_all": pay_all,
    }
    result = score_json({**data, "discarder_wind": discarder})
    assert result["valid"], result["message"]
    players = result["payout"]["players"]
    known = [p["seat"] for p in players if p["seat"] is not None]
    assert players[0]["seat"] == seat and len(known) == len(set(known)) and set(known) <= set(seats)
    if discarder is not None and (pay_all or not self_drawn):
        assert next(p for p in players if p["role"] == "discarder")["seat"] == discarder
        assert len(known) == len(seats)  # every player seated once the payer is said
    # the amounts never depend on the seats
    assert [p["amount"] for p in players] == [p["amount"] for p in score_json(data)["payout"]["players"]]


@given(
    rules=st.sampled_from(["singapore", "malaysian"]),
    seat=st.sampled_from("ESW"),
    discarder=st.sampled_from(["E", "S", "W", None]),
    self_drawn=st.booleans(),
)
def test_a_hand_below_the_minimum_names_the_seats_a_win_would(
    rules: str, seat: str, discarder: str | None, self_drawn: bool
) -> None:
    # docs/scoring.md: the winner's seat is always given; a no-win had given every seat as null
    if discarder == seat:
        return  # refused, below
    hand = "111p 222p 333p 456p 99p" if rules == "malaysian" else "123m 456p 789s CCC 55p"
    data = {"rules": rules, "concealed": hand, "seat_wind": seat, "self_drawn": self_drawn}
    data["discarder_wind"] = discarder
    won = score_json(data)
    below = score_json({**data, "options": {"min_tai": 64, "max_tai": 64}})
    assert won["valid"] and below["reason"] == "below_minimum", below["message"]
    assert [p["seat"] for p in below["payout"]["players"]] == [p["seat"] for p in won["payout"]["players"]]


@pytest.mark.parametrize(
    ("data", "seats"),
    [
        # the seat itself refused (why it is no win): no one is given it
        pytest.param(
            {"rules": "malaysian", "concealed": "111p 222p 333p 456p 99p", "seat_wind": "N"},
            [None, None, None],
            id="malaysian-north-seat",
        ),
        # the discarder's seat refused: the winner's still stands, the others stay unknown
        pytest.param(
            {**HAND, "seat_wind": "S", "discarder_wind": "S"}, ["S", None, None, None], id="own-seat"
        ),
        pytest.param(
            {
                "rules": "malaysian",
                "concealed": "111p 222p 333p 456p 99p",
                "seat_wind": "S",
                "discarder_wind": "N",
            },
            ["S", None, None],
            id="malaysian-north-discarder",
        ),
        # a hand of the wrong tile count: its seats are as the context names them
        pytest.param(
            {"concealed": "123m 456p 789s CCC 5p", "seat_wind": "W", "discarder_wind": "E"},
            ["W", "E", "N", "S"],
            id="wrong-tile-count",
        ),
    ],
)
def test_a_no_win_names_the_seats_its_context_gives(data: dict, seats: list[str | None]) -> None:
    result = score_json(data)
    assert not result["valid"]
    assert [p["seat"] for p in result["payout"]["players"]] == seats


def test_a_discarder_given_for_a_plain_self_draw_is_ignored_before_it_is_checked() -> None:
    # docs/scoring.md: ignored with a warning; its seat was checked first, and the hand refused
    result = score_json({**HAND, "seat_wind": "S", "self_drawn": True, "discarder_wind": "S"})
    assert (
        result["valid"] and "discarder_wind ignored: a self-drawn win has no discarder" in result["warnings"]
    )


@pytest.mark.parametrize(
    ("given", "warning"),
    [
        (
            {"options": {"payout_table": [9, 9]}},
            "payout_table not used: payout_scheme is standard, not table",
        ),
        (
            {"bonus": ["cat", "rat"], "bonus_from_deal": ["cat"], "options": {"instant_payouts": False}},
            "bonus_from_deal not used: option instant_payouts is off",
        ),
        (
            {"self_drawn": True, "options": {"fully_concealed_tai": False}},
            "fully concealed not scored: option fully_concealed_tai is off",
        ),
        (
            {"concealed": "234s 666s 888s FFF 22s", "winning_tile": "2s", "options": {"pure_green": False}},
            "pure green not scored: option pure_green is off (scored as a flush)",
        ),
    ],
)
def test_a_house_rule_set_but_not_in_effect_is_said(given: dict, warning: str) -> None:
    # a table must not take a rule it set for applied: the warning says why the score does not show it
    result = score_json({**HAND, "seat_wind": "W", **given})
    assert result["valid"] and warning in result["warnings"], result["warnings"]
    # the same hand with the option left at its default says nothing of it
    plain = score_json({**HAND, "seat_wind": "W", **{k: v for k, v in given.items() if k != "options"}})
    assert not any(warning.split(":")[0] in line for line in plain["warnings"])


def test_an_instant_payout_is_worked_out_from_its_units_and_the_unit() -> None:
    hand = {**HAND, "bonus": ["cat", "rat"], "bonus_from_deal": ["cat", "rat"], "options": {"unit": 0.5}}
    (item,) = score_json(hand)["payout"]["instant_payouts"]
    assert (item["units"], item["unit"], item["held_from_deal"], item["from_each"]) == (4, 0.5, True, 2)
    assert (
        instant_text(item)
        == "cat and rat, held from the deal (doubled): 4 units x 0.5 = 2 from each opponent (6 in all)"
    )
    (single,) = score_json({**HAND, "bonus": ["cat", "rat"]})["payout"]["instant_payouts"]
    assert instant_text(single) == "cat and rat: 2 units x 1 = 2 from each opponent (6 in all)"


def test_kongs_and_sets_paid_at_once_are_never_doubled_for_the_deal() -> None:
    # RULES.md doubles only an animal pair and the own flower and season held from the deal: a kong and
    # the flowers' set pay their units, whatever was dealt, and say nothing of the deal
    hand = {
        "concealed": "456p 789s 234m 55p",
        "melds": [{"kind": "kong", "tiles": "1111m"}],
        "bonus": ["F1", "F2", "F3", "F4"],
        "bonus_from_deal": ["F1", "F2", "F3", "F4"],
        "self_drawn": True,
    }
    items = score_json(hand)["payout"]["instant_payouts"]
    assert [(item["key"], item["held_from_deal"], item["total"]) for item in items] == [
        ("exposed_kong", False, 3),
        ("flower_set", False, 12),
    ]
    assert [instant_text(item) for item in items] == [
        "exposed kong of 1m: 1 unit x 1 = 1 from each opponent (3 in all)",
        "all four flowers: 4 units x 1 = 4 from each opponent (12 in all)",
    ]


def test_a_tile_held_from_the_deal_without_its_pair_is_said_to_double_nothing() -> None:
    # an audit: the cat alone marked as dealt changed nothing and said nothing
    hand = {"concealed": "123m 456p 789s CCC 55p", "bonus": ["cat", "rat", "F1", "S1"]}
    alone = score_json({**hand, "bonus_from_deal": ["cat", "F1"]})
    said = [w for w in alone["warnings"] if w.startswith("bonus_from_deal:")]
    assert said == [
        "bonus_from_deal: F1, cat double nothing: an instant payout doubles where both tiles of its pair "
        "(cat and rat, rooster and centipede, the seat's own flower and season) were held from the deal"
    ], alone["warnings"]
    both = score_json({**hand, "bonus_from_deal": ["cat", "rat", "F1", "S1"]})
    assert not any(w.startswith("bonus_from_deal") for w in both["warnings"]), both["warnings"]
    units = {item["key"]: item["units"] for item in both["payout"]["instant_payouts"]}
    assert units == {"animal_pair": 4, "own_flower_season": 4}, both["payout"]["instant_payouts"]


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        ({"unit": 999999999.999999}, "unit 999999999.999999 with max_tai 5 could pay up to 168,000,000,000"),
        ({"unit": 0.1, "max_tai": 64}, "to pay exactly to 1 decimal: lower the stakes, or use whole amounts"),
        (
            {"payout_scheme": "table", "payout_table": [1234567890.123456], "instant_payouts": False},
            "option payout_table could pay up to 7,407,407,341",
        ),
        # instant payouts in units: up to 72 of them
        ({"unit": 99999999.999999, "max_tai": 1}, "unit 99999999.999999 with max_tai 1 could pay up to"),
    ],
)
def test_stakes_with_decimals_too_large_to_pay_exactly_are_refused(options: dict, refused: str) -> None:
    # an audit (stage 80): past about 15 digits a JSON amount with decimals is a rounded double, and the
    # payout line (+23,999,999,999.999977) disagreed with the losers' 3 x 7,999,999,999.999992
    with pytest.raises(OptionError, match=re.escape(refused)):
        score_json({**HAND, "options": options})


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        # at 45 tai a unit of 0.5 pays up to 52,776,558,133,284 (15 digits with its decimal): paid exactly
        ({"unit": 0.5, "max_tai": 45}, None),
        ({"unit": 0.5, "max_tai": 46}, "unit 0.5 with max_tai 46 could pay up to 105,553,116,266,532"),
        # 0.9 x 6 x 2^44 and 72 instant units: 94,997,804,639,911.2, fifteen digits with its decimal
        ({"unit": 0.9, "max_tai": 45}, None),
        ({"max_tai": 64}, None),
        ({"max_tai": 65}, "option max_tai 65 is too large (at most 64)"),
        ({"unit": 10**12}, None),
        ({"unit": 1e13}, "option unit must be a finite number up to 1e+12"),
        ({"unit": 10**400}, "option unit must be a finite number up to 1e+12, got a larger number"),
        ({"points_per_fan": 1}, None),
        ({"points_per_fan": 0}, "points_per_fan must be positive, got 0"),
    ],
)
def test_the_largest_stakes_accepted_and_the_first_refused(options: dict, refused: str | None) -> None:
    if refused is None:
        assert score_json({**HAND, "options": options})["valid"]
    else:
        with pytest.raises(OptionError, match=re.escape(refused)):
            score_json({**HAND, "options": options})


@pytest.mark.parametrize(
    "options", [{"max_tai": 64, "min_tai": 60}, {"unit": 10**12, "max_tai": 33, "min_tai": 30}]
)
def test_whole_stakes_of_any_size_are_paid_exactly_and_said_with_the_same_digits(options: dict) -> None:
    # whole amounts are exact JSON integers; 10^22 and more had crashed the message's formatting
    # (decimal's default 28 digits), the command line saying "internal error"
    result = score_json({"concealed": "111m 999m 111p 999s 11s", "self_drawn": True, "options": options})
    payout = result["payout"]
    assert all(isinstance(share["amount"], int) for share in payout["players"])
    assert sum(share["amount"] for share in payout["players"]) == 0
    assert f"winner receives {format_amount(payout['winner_total'])}." in result["message"]
    assert format_amount(payout["each_other"]) in payout["basis"]


def test_whole_or_unit_bounded_table_stakes_are_not_refused_for_the_units_bases() -> None:
    # a review: a table scheme pays its rows, so the unit's bases at a high max_tai are no stake there
    options = {"payout_scheme": "table", "payout_table": [[4, 8]], "unit": 0.5, "max_tai": 48}
    assert score_json({**HAND, "options": options})["valid"]
    malaysian = {"concealed": "123p 456p 789p EEE 55p", "rules": "malaysian", "options": {"max_tai": 64}}
    assert score_json(malaysian)["tai"] >= 0  # whole points: never refused for digits


def test_a_base_of_more_decimals_than_paid_says_its_rounded_share() -> None:
    options = dataclasses.replace(Options(), unit=123.456789, min_tai=0)
    basis = singapore_payout(0, Context(), options, False).basis
    assert "= 61.7283945 (1 x base paid to 6 decimals, a half up);" in basis
    assert "each other player 1 x base = 61.728395." in basis
    # where no share is rounded, nothing is said: 1 tai, a self-draw (2 x base), shooter pays (4 x base)
    assert "paid to 6 decimals" not in singapore_payout(1, Context(), options, False).basis
    assert "paid to 6 decimals" not in singapore_payout(0, Context(self_drawn=True), options, False).basis
    shooter = dataclasses.replace(options, payout_scheme="shooter_pays")
    assert "paid to 6 decimals" not in singapore_payout(0, Context(), shooter, False).basis


def test_pay_all_says_the_sum_the_liable_player_pays_for_the_others() -> None:
    # stage 81 (an audit): "pays all 24" beside a table where the others pay 0, with no "3 x 8" written
    drawn = singapore_payout(3, Context(self_drawn=True, pay_all=True), Options(), False)
    assert drawn.basis.endswith(
        "each other player pays 2 x base = 8; pay-all: the liable player pays it all for them, 3 x 8 = 24."
    )
    discard = singapore_payout(1, Context(pay_all=True), Options(), False)
    assert discard.basis.endswith("pay-all: the liable player pays it all for them, 2 + 1 + 1 = 4.")


@pytest.mark.parametrize(
    ("payout", "ending"),
    [
        # a 3-player self-draw: the liable player pays both other players' shares
        (
            malaysian_payout(5, Context(self_drawn=True, pay_all=True), Options(), False),
            "pay-all: the liable player pays it all for them, 2 x 100 = 200.",
        ),
        (
            malaysian_payout(
                5, Context(pay_all=True), Options(malaysian_payment="discarder_and_other"), False
            ),
            "pay-all: the liable player pays it all for them, 200 + 100 = 300.",
        ),
        # seed on a discard: the third player pays nothing, so there is nothing to add up
        (
            malaysian_payout(5, Context(pay_all=True), Options(), False),
            "the other player nothing; pay-all: the liable player pays all 200.",
        ),
        # thirteen wonders on a discard: every one of the three losers' self-draw shares
        (
            singapore_payout(5, Context(pay_all=True), Options(), True),
            "every loser pays 2 x base = 32; pay-all: the liable player pays it all for them, 3 x 32 = 96.",
        ),
    ],
)
def test_pay_all_sums_each_losers_share(payout: Payout, ending: str) -> None:
    assert payout.basis.endswith(ending), payout.basis
    assert payout.winner_total == payout.discarder == int(ending.rstrip(".").split()[-1])


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({}, "discarder pays 4, each other player 2; winner receives 8"),
        ({"self_drawn": True}, "each loser pays 8; winner receives 24"),
        ({"pay_all": True}, "liable player pays 8; winner receives 8"),
        ({"pay_all": True, "self_drawn": True}, "liable player pays 24; winner receives 24"),
        # shooter pays: the discarder pays it all without being made liable
        ({"options": {"payout_scheme": "shooter_pays"}}, "discarder pays 8; winner receives 8"),
    ],
)
def test_the_message_names_who_pays_what_and_flags_the_liable_player(data: dict[str, Any], says: str) -> None:
    result = score_json({"concealed": "EEE 123m 456p 789s 55p", **data})
    assert says in result["message"], result["message"]
    liable = [share["role"] for share in result["payout"]["players"] if share["liable"]]
    assert liable == (["discarder"] if data.get("pay_all") else [])


@pytest.mark.parametrize(
    ("bonus", "doubled"),
    [
        (["cat", "rat"], [("animal_pair", 4, True)]),
        (["F1", "S1"], [("own_flower_season", 4, True)]),
        (["cat", "rat", "F1", "S1"], [("animal_pair", 4, True), ("own_flower_season", 4, True)]),
    ],
)
def test_a_pair_held_from_the_deal_doubles_and_is_not_said_to_double_nothing(
    bonus: list[str], doubled: list[tuple[str, int, bool]]
) -> None:
    # both tiles of each pair held from the deal: each doubles its instant payout, and no warning says
    # that either tile doubles nothing
    result = score_json({"concealed": "123m 456p 789s CCC 55p", "bonus": bonus, "bonus_from_deal": bonus})
    assert not [w for w in result["warnings"] if w.startswith("bonus_from_deal")], result["warnings"]
    items = result["payout"]["instant_payouts"]
    assert [(item["key"], item["units"], item["held_from_deal"]) for item in items] == doubled


def test_a_payout_table_row_of_two_amounts_says_which_is_which() -> None:
    options = Options(payout_scheme="table", payout_table=((2, 1), (4, 2), (11, 5)))
    basis = singapore_payout(3, Context(), options, False).basis
    assert basis.startswith("payout table, row 3: 11 from a discarder, 5 from each on a self-draw; ")


@pytest.mark.parametrize(
    ("count", "word"), [(1, "point"), (1.0, "point"), (0, "points"), (2, "points"), (20, "points")]
)
def test_one_point_is_said_in_the_singular(count: float, word: str) -> None:
    # points per fan 1 had been said "1 points a fan"
    from scoring.options import points_word

    assert points_word(count) == word
