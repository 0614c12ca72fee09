"""Hypothesis properties of the engine: order independence, payout balance, the cap, round-trips."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import REASONS, format_hand, parse_hand_string, score_json
from scoring.tiles import ALL_CODES
from tests.scoring.strategies import hand_json

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULES = st.sampled_from(["singapore", "malaysian"])


def _summary(result: dict[str, Any]) -> tuple[object, ...]:
    return (
        result["valid"],
        result["reason"],
        result["tai"],
        result["raw_tai"],
        sorted((p["key"], p["tai"]) for p in result["patterns"]),
        result["payout"]["winner_total"],
    )


@FAST
@given(data=st.data(), rules=RULES)
def test_score_does_not_depend_on_tile_or_meld_order(data: st.DataObject, rules: str) -> None:
    hand = data.draw(hand_json(rules))
    shuffler = random.Random(data.draw(st.integers(0, 2**32)))
    shuffled = dict(hand)
    tiles = parse_hand_string(hand["concealed"])
    shuffler.shuffle(tiles)
    shuffled["concealed"] = tiles
    shuffled["melds"] = [
        dict(meld, tiles=shuffler.sample(meld["tiles"], len(meld["tiles"])))
        for meld in shuffler.sample(hand["melds"], len(hand["melds"]))
    ]
    shuffled["bonus"] = shuffler.sample(hand["bonus"], len(hand["bonus"]))
    assert _summary(score_json(hand)) == _summary(score_json(shuffled))


@FAST
@given(data=st.data(), rules=RULES)
def test_payouts_sum_to_zero_and_tai_respects_cap(data: st.DataObject, rules: str) -> None:
    hand = data.draw(hand_json(rules))
    hand["options"] = {**hand["options"], "max_tai": data.draw(st.integers(1, 10))}
    result = score_json(hand)
    players = result["payout"]["players"]
    assert sum(share["amount"] for share in players) == 0
    assert len(players) == (4 if rules == "singapore" else 3)
    assert players[0]["role"] == "winner" and players[0]["amount"] == result["payout"]["winner_total"]
    assert result["tai"] == min(result["raw_tai"], hand["options"]["max_tai"]) or not result["valid"]
    if result["valid"]:
        assert result["payout"]["winner_total"] > 0
        assert result["reason"] is None
    else:
        assert result["reason"] in REASONS  # every reason a caller may be given is documented there


@FAST
@given(data=st.data(), rules=RULES)
def test_every_generated_hand_has_a_winning_shape(data: st.DataObject, rules: str) -> None:
    result = score_json(data.draw(hand_json(rules)))
    assert result["reason"] not in ("no_winning_shape", "wrong_tile_count", "too_many_copies")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(sorted(ALL_CODES)), max_size=20))
def test_format_then_parse_round_trips(tiles: list[str]) -> None:
    assert parse_hand_string(format_hand(tiles)) == tiles


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(sorted(ALL_CODES)), max_size=20))
def test_canonical_string_round_trips(tiles: list[str]) -> None:
    text = format_hand(tiles)
    assert format_hand(parse_hand_string(text)) == text


@FAST
@given(
    micro_units=st.integers(1, 10**8),  # JSON's floats carry 15 digits: units up to 100, caps to 10
    max_tai=st.integers(1, 10),
    scheme=st.sampled_from(["standard", "shooter_pays"]),
    self_drawn=st.booleans(),
    pay_all=st.booleans(),
)
def test_any_unit_of_up_to_6_decimals_pays_amounts_that_sum_to_zero_exactly(
    micro_units: int, max_tai: int, scheme: str, self_drawn: bool, pay_all: bool
) -> None:
    # amounts are worked in decimal: each as JSON carries it is the decimal written, to 6 places
    unit = micro_units / 10**6
    hand = {
        "concealed": "111m 999m 111p 999p EE",  # hidden treasure on a self-draw: a limit hand, at the cap
        "self_drawn": self_drawn,
        "pay_all": pay_all,
        "seat_wind": "S",
        "options": {"unit": unit, "max_tai": max_tai, "payout_scheme": scheme},
    }
    result = score_json(hand)
    amounts = [Decimal(repr(share["amount"])) for share in result["payout"]["players"]]
    assert sum(amounts) == 0
    assert all(amount == amount.quantize(Decimal("0.000001")) for amount in amounts)
    # the winner receives the base's multiple, base = unit x 2^(tai - 1): 3 x 2 on a self-draw, else 4
    base = Decimal(micro_units) / 10**6 * 2 ** (result["tai"] - 1)
    assert amounts[0] == (6 if self_drawn else 4) * base
