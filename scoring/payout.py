"""Who pays whom: the payout of a win under each rule set's scheme, and instant payouts.

All functions are pure: (tai, context, options) in, a `Payout` out. Amounts in `players` are signed
(+ receives, - pays) and always sum to zero.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.hand import Context, Hand
from scoring.options import Options, exact_number
from scoring.tiles import ANIMALS, FLOWERS, SEASONS


@dataclass(frozen=True)
class PlayerShare:
    """One player's part of the win payout: role winner|discarder|other|loser, signed amount."""

    role: str
    amount: float
    liable: bool = False
    seat: str | None = None  # the player's seat wind, where known


@dataclass(frozen=True)
class InstantPayout:
    """A payment made at once, from every opponent (kongs, animal pairs, flower sets)."""

    key: str
    name: str
    units: int
    from_each: float
    total: float


@dataclass(frozen=True)
class Payout:
    """The win payout in the JSON's shape, plus the per-player list and the instant payouts."""

    winner_total: float
    discarder: float | None
    each_other: float
    players: tuple[PlayerShare, ...]
    instant_payouts: tuple[InstantPayout, ...] = ()
    # how the amounts were reached, in words and numbers (the base, each share): a table settling a
    # dispute must be able to check every amount
    basis: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "basis": self.basis,
            "winner_total": _number(self.winner_total),
            "discarder": None if self.discarder is None else _number(self.discarder),
            "each_other": _number(self.each_other),
            "players": [
                {
                    "role": share.role,
                    "amount": _number(share.amount),
                    "liable": share.liable,
                    "seat": share.seat,
                }
                for share in self.players
            ],
            "instant_payouts": [
                {
                    "key": item.key,
                    "name": item.name,
                    "units": item.units,
                    "from_each": _number(item.from_each),
                    "total": _number(item.total),
                }
                for item in self.instant_payouts
            ],
        }


def _number(value: float) -> float | int:
    """Whole amounts print as integers in JSON (16, not 16.0)."""
    return int(value) if float(value).is_integer() else round(value, 6)


def settle(players: int, self_drawn: bool, discarder: float, other: float, pay_all: bool) -> Payout:
    """Build the payout from what the discarder and each other loser pay (on a self-draw: each loser `other`).

    Pay-all moves every loser's share onto the liable player, reported as `discarder` (RULES.md).
    """
    losers = players - 1
    if self_drawn:
        total = other * losers
        if pay_all:
            shares = (PlayerShare("discarder", -total, True),) + (PlayerShare("loser", 0),) * (losers - 1)
            return Payout(total, total, 0, (PlayerShare("winner", total), *shares))
        shares = (PlayerShare("loser", -other),) * losers
        return Payout(total, None, other, (PlayerShare("winner", total), *shares))
    total = discarder + other * (losers - 1)
    if pay_all:
        shares = (PlayerShare("discarder", -total, True),) + (PlayerShare("other", 0),) * (losers - 1)
        return Payout(total, total, 0, (PlayerShare("winner", total), *shares))
    shares = (PlayerShare("discarder", -discarder), *(PlayerShare("other", -other),) * (losers - 1))
    return Payout(total, discarder, other, (PlayerShare("winner", total), *shares))


def with_seats(payout: Payout, seats: Sequence[str], winner: str, discarder: str | None) -> Payout:
    """The payout with each player's seat: the winner's, the discarder's (or liable player's) where
    given, and the other seats in turn for the players whose shares are alike (every loser of a
    self-draw, the others beside a discarder). Where a discarder's seat is not given but matters, the
    losers' seats stay unknown."""
    shares = payout.players
    has_discarder = any(share.role == "discarder" for share in shares)
    if has_discarder and discarder is None:
        return dataclasses.replace(payout, players=(dataclasses.replace(shares[0], seat=winner), *shares[1:]))
    start = seats.index(winner) + 1 if winner in seats else 0
    # the others in turn of play from the winner (East, South, West, North)
    taken = (winner, discarder) if has_discarder else (winner,)
    rest = [seat for seat in [*seats[start:], *seats[:start]] if seat not in taken]
    seated = [dataclasses.replace(shares[0], seat=winner)]
    for share in shares[1:]:
        seat = discarder if share.role == "discarder" else rest.pop(0) if rest else None
        seated.append(dataclasses.replace(share, seat=seat))
    return dataclasses.replace(payout, players=tuple(seated))


def no_payout(players: int, self_drawn: bool) -> Payout:
    """Nothing changes hands for an invalid win (the roles are still listed for the UI)."""
    return settle(players, self_drawn, 0, 0, False)


def format_amount(value: float, signed: bool = False) -> str:
    """An amount as a player reads it: every digit, no exponent, fractions to at most 6 places, and
    thousands grouped from 10,000 up (16,000,000, not 1.6e+07; 1280 stays as it is, clear of the commas
    between a basis' clauses); `signed` puts + before a positive amount (nothing before 0: a player who
    pays nothing neither gains nor loses)."""
    number = _number(value)
    spec = ("+" if signed and number != 0 else "") + ("," if abs(number) >= 10_000 else "")
    if isinstance(number, int):
        return f"{number:{spec}d}"
    return f"{number:{spec}.6f}".rstrip("0").rstrip(".")


def unit_text(unit: float) -> str:
    """The unit as an amount is shown (`format_amount`) where that loses none of its digits, else as
    typed (0.0000015: rounded to 0.000002, the basis' arithmetic would read wrong)."""
    shown = format_amount(unit)
    return shown if float(shown.replace(",", "")) == unit else exact_number(unit)


def _g(value: float) -> str:
    return format_amount(value)


def _shares_text(self_drawn: bool, discarder: float, other: float, times: tuple[str, str] = ("", "")) -> str:
    """'the discarder pays 2 x base = 4, each other player 1 x base = 2' (`times`: the multiples)."""
    if self_drawn:
        return f"each other player pays {times[1]}{_g(other)}"
    if other == 0 and not times[1]:  # they pay no share (not a share of a base of 0)
        return f"the discarder pays {times[0]}{_g(discarder)}, the others nothing"
    return f"the discarder pays {times[0]}{_g(discarder)}, each other player {times[1]}{_g(other)}"


def _with_pay_all(payout: Payout, basis: str, pay_all: bool) -> Payout:
    if pay_all:
        basis += f"; pay-all: the liable player pays all {_g(payout.winner_total)}"
    return dataclasses.replace(payout, basis=basis + ".")


def _settled(
    players: int, context: Context, discarder: float, other: float, where: str, times: tuple[str, str]
) -> Payout:
    """`settle` for the context's win, its basis: `where` (the base), then each share."""
    payout = settle(players, context.self_drawn, discarder, other, context.pay_all)
    shares = _shares_text(context.self_drawn, discarder, other, times)
    return _with_pay_all(payout, f"{where}; {shares}", context.pay_all)


def singapore_payout(tai: int, context: Context, options: Options, as_self_draw: bool) -> Payout:
    """RULES.md payouts: standard (2/1, self-draw 2 each), shooter_pays (4/0) or a user table; pay-all.

    `as_self_draw` makes every loser pay as on a self-draw (the thirteen-wonders rule) even on a discard win.
    """
    self_drawn = context.self_drawn or as_self_draw
    scheme = options.payout_scheme
    thirteen_on_discard = as_self_draw and not context.self_drawn
    as_drawn = " (thirteen wonders: all pay as on a self-draw)" if thirteen_on_discard else ""
    if scheme == "table":
        count = min(tai, len(options.payout_table))
        row = options.payout_table[count - 1]
        last = f" (its last, for {count} tai and above)" if count < tai else ""
        where = f"payout table, row {count}{last}"
        if isinstance(row, tuple):
            shooter, each = row
            where += f": {_g(shooter)}/{_g(each)}{as_drawn}"
            if self_drawn:
                return _singapore_settle(context, as_self_draw, 0, each, where)
            return _singapore_settle(context, as_self_draw, shooter, 0, where)
        base = float(row)
        where += f": base {_g(base)}{as_drawn}"
    else:
        base = options.unit * 2 ** (tai - 1)
        where = f"base = unit {unit_text(options.unit)} x 2^({tai} - 1) = {_g(base)}{as_drawn}"
    if self_drawn:
        return _singapore_settle(context, as_self_draw, 0, 2 * base, where, ("", "2 x base = "))
    if scheme == "shooter_pays":
        where += ", shooter pays"
        return _singapore_settle(context, as_self_draw, 4 * base, 0, where, ("4 x base = ", ""))
    return _singapore_settle(context, as_self_draw, 2 * base, base, where, ("2 x base = ", "1 x base = "))


def _singapore_settle(
    context: Context,
    as_self_draw: bool,
    discarder: float,
    other: float,
    where: str,
    times: tuple[str, str] = ("", ""),
) -> Payout:
    if as_self_draw and not context.self_drawn:
        # Thirteen wonders on a discard: the discarder pays like everybody else.
        payout = settle(4, False, other, other, context.pay_all)
        return _with_pay_all(payout, f"{where}; every loser pays {times[1]}{_g(other)}", context.pay_all)
    return _settled(4, context, discarder, other, where, times)


def malaysian_payout(fan: int, context: Context, options: Options, as_self_draw: bool) -> Payout:
    """seeds/004 payment in points (fan x points_per_fan): `seed` or `discarder_and_other`; pay-all."""
    points = fan * options.points_per_fan
    where = f"points = {fan} fan x {_g(options.points_per_fan)} points per fan = {_g(points)}"
    if options.malaysian_payment == "seed":
        discarder, other, each = 2 * points, 0, points
        times = ("2 x points = ", "") if not context.self_drawn else ("", "the points, ")
    else:
        discarder, other, each = 2 * points, points, 2 * points
        times = ("2 x points = ", "1 x points = ") if not context.self_drawn else ("", "2 x points = ")
    if context.self_drawn:
        return _settled(3, context, 0, each, where, times)
    return _settled(3, context, discarder, other, where, times)


def _instant(key: str, name: str, units: int, options: Options, opponents: int) -> InstantPayout:
    each = units * options.unit
    return InstantPayout(key, name, units, each, each * opponents)


def singapore_instant_payouts(hand: Hand, context: Context, options: Options) -> tuple[InstantPayout, ...]:
    """RULES.md instant payouts, each from every opponent, in units (doubled when held from the deal)."""
    if not options.instant_payouts:
        return ()
    opponents = 3
    bonus = set(hand.bonus)
    dealt = context.bonus_from_deal
    items: list[InstantPayout] = []
    for meld in hand.melds:
        if meld.kind == "kong":
            if meld.concealed:
                items.append(
                    _instant("concealed_kong", f"concealed kong of {meld.tiles[0]}", 2, options, opponents)
                )
            else:
                items.append(
                    _instant("exposed_kong", f"exposed kong of {meld.tiles[0]}", 1, options, opponents)
                )
    for first, second in (("cat", "rat"), ("rooster", "centipede")):
        if {first, second} <= bonus:
            units = 4 if {first, second} <= dealt else 2
            items.append(_instant("animal_pair", f"{first} and {second}", units, options, opponents))
    if set(ANIMALS) <= bonus:
        items.append(_instant("all_animals", "all four animals", 4, options, opponents))
    seat = "ESWN".index(context.seat_wind)
    own = {FLOWERS[seat], SEASONS[seat]}
    if own <= bonus:
        units = 4 if own <= dealt else 2
        items.append(_instant("own_flower_season", "own flower and own season", units, options, opponents))
    if set(FLOWERS) <= bonus:
        items.append(_instant("flower_set", "all four flowers", 4, options, opponents))
    if set(SEASONS) <= bonus:
        items.append(_instant("season_set", "all four seasons", 4, options, opponents))
    return tuple(items)
