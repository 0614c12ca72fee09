"""The payout's `basis`: every amount a player pays is stated with how it was reached, so a table can
check it (the base from the unit and the tai, each share as a multiple of it, pay-all)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.hand import Context
from scoring.options import Options
from scoring.payout import malaysian_payout, singapore_payout


def _g(value: float) -> str:
    return f"{int(value) if float(value).is_integer() else round(value, 6):g}"


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
        "base = unit 1 x 2^(5 - 1) = 16 (thirteen wonders: all pay as on a self-draw); every loser pays "
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
            "points = 5 fan x 20 points per fan = 100; the discarder pays 2 x points = 200, the others "
            "nothing.",
        ),
        ("seed", True, "points = 5 fan x 20 points per fan = 100; each other player pays the points, 100."),
        (
            "discarder_and_other",
            False,
            "points = 5 fan x 20 points per fan = 100; the discarder pays 2 x points = 200, each other "
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
