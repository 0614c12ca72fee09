"""The payout table's net column: each player's amount with the instant payouts added."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from app_ui.summary import with_instant_payouts

ROLES = ("winner", "discarder", "other", "other")
cents = st.decimals(min_value=0, max_value=1000, places=2)


@given(cents, cents, st.lists(cents, min_size=1, max_size=3))
def test_the_net_still_sums_to_nothing_and_moves_only_by_the_instant_payouts(
    discarder: Decimal, other: Decimal, from_each: list[Decimal]
) -> None:
    losers = [-discarder, -other, -other]
    players = [
        {"role": role, "amount": float(amount)}
        for role, amount in zip(ROLES, [-sum(losers), *losers], strict=True)
    ]
    instant = [{"from_each": float(each), "total": float(3 * each)} for each in from_each]
    net = with_instant_payouts(players, instant)
    assert sum(net) == 0  # decimal: 0.1 + 0.2 is 0.3 here
    paid = sum(from_each, Decimal(0))
    assert net[0] == Decimal(str(players[0]["amount"])) + 3 * paid
    assert [n - Decimal(str(p["amount"])) for n, p in zip(net[1:], players[1:], strict=True)] == [-paid] * 3


def test_no_instant_payouts_leave_each_amount_as_it_is() -> None:
    players = [{"role": "winner", "amount": 32}, {"role": "discarder", "amount": -16}]
    assert with_instant_payouts(players, []) == [Decimal(32), Decimal(-16)]
    # an item that is no record (a string a case file carried) adds nothing
    assert with_instant_payouts(players, ["own flower"]) == [Decimal(32), Decimal(-16)]
