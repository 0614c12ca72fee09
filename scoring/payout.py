"""Who pays whom: the payout of a win under each rule set's scheme, and instant payouts.

All functions are pure: (tai, context, options) in, a `Payout` out. Amounts in `players` are signed
(+ receives, - pays) and always sum to zero.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any, ParamSpec, TypeVar

from scoring.hand import Context, Hand, in_tile_order
from scoring.options import Options, points_word
from scoring.tiles import ANIMALS, FLOWERS, SEASONS, Tile, sorted_tiles


@dataclass(frozen=True)
class PlayerShare:
    """One player's part of the win payout: role winner|discarder|other|loser, signed amount."""

    role: str
    amount: Decimal
    liable: bool = False
    seat: str | None = None  # the player's seat wind, where known


@dataclass(frozen=True)
class InstantPayout:
    """A payment made at once, from every opponent (kongs, animal pairs, flower sets)."""

    key: str
    name: str
    units: int
    from_each: Decimal
    total: Decimal
    held_from_deal: bool = False  # doubled: the pair was in the hand as dealt (RULES.md)
    unit: Decimal = Decimal(1)  # the option's unit, each of `units` paid at it


@dataclass(frozen=True)
class Payout:
    """The win payout in the JSON's shape, plus the per-player list and the instant payouts."""

    winner_total: Decimal
    discarder: Decimal | None
    each_other: Decimal
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
                    "held_from_deal": item.held_from_deal,
                    "unit": _number(item.unit),
                    "from_each": _number(item.from_each),
                    "total": _number(item.total),
                }
                for item in self.instant_payouts
            ],
        }


def _number(value: Decimal) -> float | int:
    """Whole amounts print as integers in JSON (16, not 16.0), others as the float nearest them."""
    return int(value) if value == value.to_integral_value() else float(value)


ZERO = Decimal(0)
PAID_TO = Decimal("0.000001")  # amounts are paid to 6 decimals (options refuse finer ones)
_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


def _in_decimals(compute: Callable[_Params, _Result]) -> Callable[_Params, _Result]:
    """Run `compute` with amounts worked in decimal to 80 digits: a float's 0.1 x 3 is 0.30000000000000004,
    and a base of unit 0.1 x 2^39 printed from a float reads 54,975,581,388.800003; a table checks the
    arithmetic digit by digit."""

    @functools.wraps(compute)
    def exact(*args: _Params.args, **kwargs: _Params.kwargs) -> _Result:
        with localcontext(prec=80):
            return compute(*args, **kwargs)

    return exact


def exact(value: float | Decimal) -> Decimal:
    """An amount as written: the float 0.1 read as one tenth, not as the binary number nearest it."""
    if isinstance(value, Decimal):
        return value
    return Decimal(value) if isinstance(value, int) else Decimal(repr(float(value)))


def _paid(value: float | Decimal) -> Decimal:
    """An amount as paid: to 6 decimals, a half rounded up, held without trailing zeros (0.5)."""
    # 80 digits here too: a message or a table formats amounts outside `_in_decimals`, and a whole
    # amount of 10^22 or more (a high max_tai on a large whole unit) outgrew the default 28 (an audit)
    with localcontext(prec=80):
        paid = exact(value).quantize(PAID_TO, rounding=ROUND_HALF_UP)
        return paid.to_integral_value() if paid == paid.to_integral_value() else paid.normalize()


@_in_decimals
def settle(
    players: int, self_drawn: bool, discarder: float | Decimal, other: float | Decimal, pay_all: bool
) -> Payout:
    """Build the payout from what the discarder and each other loser pay (on a self-draw: each loser `other`).

    Pay-all moves every loser's share onto the liable player, reported as `discarder` (RULES.md). Each
    share is paid to 6 decimals and the winner receives their sum, so the amounts sum to zero.
    """
    discarder, other = _paid(discarder), _paid(other)
    losers = players - 1
    if self_drawn:
        total = _paid(other * losers)
        if pay_all:
            shares = (PlayerShare("discarder", -total, True),) + (PlayerShare("loser", ZERO),) * (losers - 1)
            return Payout(total, total, ZERO, (PlayerShare("winner", total), *shares))
        shares = (PlayerShare("loser", -other),) * losers
        return Payout(total, None, other, (PlayerShare("winner", total), *shares))
    total = _paid(discarder + other * (losers - 1))
    if pay_all:
        shares = (PlayerShare("discarder", -total, True),) + (PlayerShare("other", ZERO),) * (losers - 1)
        return Payout(total, total, ZERO, (PlayerShare("winner", total), *shares))
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
    return settle(players, self_drawn, ZERO, ZERO, False)


def format_amount(value: float | Decimal, signed: bool = False) -> str:
    """An amount as a player reads it: every digit, no exponent, fractions to at most 6 places, and
    thousands grouped from 10,000 up (16,000,000, not 1.6e+07; 1280 stays as it is, clear of the commas
    between a basis' clauses); `signed` puts + before a positive amount (nothing before 0: a player who
    pays nothing neither gains nor loses). A float is read as written (0.1, not the binary number
    nearest it: a float's 54975581388.8 would print 54975581388.800003)."""
    number = _paid(value)
    spec = ("+" if signed and number != 0 else "") + ("," if abs(number) >= 10_000 else "")
    text = f"{number:{spec}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def unit_text(unit: float | Decimal) -> str:
    """The unit as typed, every digit: scored options hold at most 6 decimals, but a refused one
    (0.0000001) is still quoted as the user typed it, not as 0."""
    shown = format_amount(unit)
    return shown if Decimal(shown.replace(",", "")) == exact(unit) else format(exact(unit), "f")


def instant_text(item: Mapping[str, Any]) -> str:
    """An instant payout (its JSON) as a table checks it by hand: "cat and rat, held from the deal
    (doubled): 4 units x 0.5 = 2 from each opponent (6 in all)"."""
    name = str(item.get("name") or item.get("key") or "instant payout")
    if item.get("held_from_deal"):
        name += ", held from the deal (doubled)"
    units, unit = item.get("units"), item.get("unit")
    each, total = item.get("from_each"), item.get("total")
    if not isinstance(each, int | float):
        return f"{name}: {units} units" if units is not None else name
    worked = ""
    if isinstance(units, int) and isinstance(unit, int | float):
        worked = f"{units} unit{'' if units == 1 else 's'} x {_g(unit)} = "
    in_all = f" ({_g(total)} in all)" if isinstance(total, int | float) else ""
    return f"{name}: {worked}{_g(each)} from each opponent{in_all}"


def _g(value: float | Decimal) -> str:
    return format_amount(value)


def _base_text(base: Decimal) -> str:
    """A base, not itself paid, with every digit (a 0-tai base of unit 0.000001 is 0.0000005)."""
    return _g(base) if base == _paid(base) else format(base.normalize(), "f")


def _shares_text(
    self_drawn: bool, discarder: Decimal, other: Decimal, times: tuple[str, str] = ("", ""), players: int = 4
) -> str:
    """'the discarder pays 2 x base = 4, each other player 1 x base = 2' (`times`: the multiples); in a
    3-player game a discard leaves one other player, named so (an audit, stage 80: "the others")."""
    if self_drawn:
        return f"each other player pays {times[1]}{_g(other)}"
    if other == 0 and not times[1]:  # they pay no share (not a share of a base of 0)
        others = "the other player" if players == 3 else "the others"
        return f"the discarder pays {times[0]}{_g(discarder)}, {others} nothing"
    return f"the discarder pays {times[0]}{_g(discarder)}, {each_other_words(players)} {times[1]}{_g(other)}"


def each_other_words(players: int) -> str:
    """The players beside the winner and the discarder, as a discard win's share names them: a
    3-player game leaves one."""
    return "the other player" if players == 3 else "each other player"


def _with_pay_all(payout: Payout, basis: str, pay_all: bool, shares: Sequence[Decimal] = ()) -> Payout:
    """`payout` with its `basis`; under pay-all, what the liable player pays and, from the losers'
    `shares` as they would be without it, the sum it is (an audit, stage 81: "pays all 24" beside a table
    where the others pay 0, with no "3 x 8")."""
    if pay_all:
        owed = [share for share in shares if share]
        total = _g(payout.winner_total)
        if len(owed) > 1 and len(set(owed)) == 1:
            basis += (
                f"; pay-all: the liable player pays it all for them, {len(owed)} x {_g(owed[0])} = {total}"
            )
        elif len(owed) > 1:
            basis += (
                f"; pay-all: the liable player pays it all for them, {' + '.join(map(_g, owed))} = {total}"
            )
        else:
            basis += f"; pay-all: the liable player pays all {total}"
    return dataclasses.replace(payout, basis=basis + ".")


def _settled(
    players: int, context: Context, discarder: Decimal, other: Decimal, where: str, times: tuple[str, str]
) -> Payout:
    """`settle` for the context's win, its basis: `where` (the base), then each share."""
    payout = settle(players, context.self_drawn, discarder, other, context.pay_all)
    shares = _shares_text(context.self_drawn, discarder, other, times, players)
    owed = [other] * (players - 1) if context.self_drawn else [discarder, *[other] * (players - 2)]
    return _with_pay_all(payout, f"{where}; {shares}", context.pay_all, owed)


@_in_decimals
def singapore_payout(tai: int, context: Context, options: Options, as_self_draw: bool) -> Payout:
    """RULES.md payouts: standard (2/1, self-draw 2 each), shooter_pays (4/0) or a user table; pay-all.

    `as_self_draw` makes every loser pay as on a self-draw (the thirteen-wonders rule) even on a discard win.
    """
    self_drawn = context.self_drawn or as_self_draw
    scheme = options.payout_scheme
    thirteen_on_discard = as_self_draw and not context.self_drawn
    # under shooter pays too, which a table reading "Shooter pays" asks about (an audit, stage 81)
    as_drawn = (
        " (thirteen wonders: all pay as on a self-draw, whatever the payout scheme, RULES.md)"
        if thirteen_on_discard
        else ""
    )
    if scheme == "table":
        count = min(tai, len(options.payout_table))
        row = options.payout_table[count - 1]
        last = f" (its last, for {count} tai and above)" if count < tai else ""
        where = f"payout table, row {count}{last}"
        if isinstance(row, tuple):
            shooter, each = exact(row[0]), exact(row[1])
            # "11/5" said nothing of which is which (an audit, stage 81)
            where += f": {_g(shooter)} from a discarder, {_g(each)} from each on a self-draw{as_drawn}"
            if self_drawn:
                return _singapore_settle(context, as_self_draw, ZERO, each, where)
            return _singapore_settle(context, as_self_draw, shooter, ZERO, where)
        base = exact(row)
        where += f": base {_g(base)}{as_drawn}"
    else:
        base = exact(options.unit) * Decimal(2) ** (tai - 1)
        where = f"base = unit {unit_text(options.unit)} x 2^({tai} - 1) = {_base_text(base)}{as_drawn}"
    if self_drawn:
        return _singapore_settle(context, as_self_draw, ZERO, 2 * base, where, ("", "2 x base = "))
    if scheme == "shooter_pays":
        where += ", shooter pays"
        return _singapore_settle(context, as_self_draw, 4 * base, ZERO, where, ("4 x base = ", ""))
    if base != _paid(base):  # a 0-tai base of half a unit with 6 decimals: 1 x base alone is rounded
        where += " (1 x base paid to 6 decimals, a half up)"
    return _singapore_settle(context, as_self_draw, 2 * base, base, where, ("2 x base = ", "1 x base = "))


def _singapore_settle(
    context: Context,
    as_self_draw: bool,
    discarder: Decimal,
    other: Decimal,
    where: str,
    times: tuple[str, str] = ("", ""),
) -> Payout:
    if as_self_draw and not context.self_drawn:
        # Thirteen wonders on a discard: the discarder pays like everybody else.
        payout = settle(4, False, other, other, context.pay_all)
        basis = f"{where}; every loser pays {times[1]}{_g(other)}"
        return _with_pay_all(payout, basis, context.pay_all, [other] * 3)
    return _settled(4, context, discarder, other, where, times)


@_in_decimals
def malaysian_payout(fan: int, context: Context, options: Options, as_self_draw: bool) -> Payout:
    """seeds/004 payment in points (fan x points_per_fan): `seed` or `discarder_and_other`; pay-all."""
    points = Decimal(fan * options.points_per_fan)
    per_fan = f"{_g(options.points_per_fan)} {points_word(options.points_per_fan)} per fan"
    where = f"points = {fan} fan x {per_fan} = {_g(points)}"
    if options.malaysian_payment == "seed":
        discarder, other, each = 2 * points, ZERO, points
        times = ("2 x points = ", "") if not context.self_drawn else ("", "the points, ")
    else:
        discarder, other, each = 2 * points, points, 2 * points
        times = ("2 x points = ", "1 x points = ") if not context.self_drawn else ("", "2 x points = ")
    if context.self_drawn:
        return _settled(3, context, ZERO, each, where, times)
    return _settled(3, context, discarder, other, where, times)


@_in_decimals
def _instant(
    key: str, name: str, units: int, options: Options, opponents: int, held_from_deal: bool = False
) -> InstantPayout:
    unit = exact(options.unit)
    each = _paid(units * unit)
    return InstantPayout(key, name, units, each, each * opponents, held_from_deal, unit)


ANIMAL_PAIRS: tuple[tuple[Tile, Tile], ...] = (("cat", "rat"), ("rooster", "centipede"))


@dataclass(frozen=True)
class BonusPair:
    """A pair of bonus tiles paid 2 units from each opponent, 4 where both were held from the deal."""

    key: str
    name: str
    tiles: frozenset[Tile]


def doubling_pairs(seat_wind: str) -> tuple[BonusPair, ...]:
    """RULES.md's pairs that a deal doubles: each animal pair, then the seat's own flower and season.
    One list for the instant payouts and for the warning on tiles held from the deal that double none."""
    seat = "ESWN".index(seat_wind)
    animals = tuple(BonusPair("animal_pair", f"{a} and {b}", frozenset((a, b))) for a, b in ANIMAL_PAIRS)
    own = BonusPair(
        "own_flower_season", "own flower and own season", frozenset((FLOWERS[seat], SEASONS[seat]))
    )
    return (*animals, own)


def held_alone_from_deal(bonus: Sequence[Tile], context: Context) -> list[Tile]:
    """The tiles `context` says were held from the deal that double no instant payout: RULES.md doubles
    an animal pair's and the own flower and season's only where both tiles of the pair were."""
    both = set(bonus) & context.bonus_from_deal
    doubled = {
        tile for pair in doubling_pairs(context.seat_wind) if pair.tiles <= both for tile in pair.tiles
    }
    return sorted_tiles(context.bonus_from_deal - doubled)


def _pair_payout(pair: BonusPair, dealt: frozenset[Tile], options: Options, opponents: int) -> InstantPayout:
    """A pair of bonus tiles held (an animal pair, the own flower and season): 2 units from each
    opponent, 4 where both tiles were held from the deal (RULES.md). One rule, written once."""
    from_deal = pair.tiles <= dealt
    return _instant(pair.key, pair.name, 4 if from_deal else 2, options, opponents, from_deal)


def singapore_instant_payouts(hand: Hand, context: Context, options: Options) -> tuple[InstantPayout, ...]:
    """RULES.md instant payouts, each from every opponent, in units (doubled when held from the deal)."""
    if not options.instant_payouts:
        return ()
    opponents = 3
    bonus = set(hand.bonus)
    dealt = context.bonus_from_deal
    items: list[InstantPayout] = []
    for meld in in_tile_order(hand.melds):  # the kongs in tile order, whatever order they were given in
        if meld.kind == "kong":
            if meld.concealed:
                items.append(
                    _instant("concealed_kong", f"concealed kong of {meld.tiles[0]}", 2, options, opponents)
                )
            else:
                items.append(
                    _instant("exposed_kong", f"exposed kong of {meld.tiles[0]}", 1, options, opponents)
                )
    pairs = [
        _pair_payout(pair, dealt, options, opponents)
        for pair in doubling_pairs(context.seat_wind)
        if pair.tiles <= bonus
    ]
    # listed as RULES.md lists them: the animal pairs, all four animals, the own flower and season
    items.extend(paid for paid in pairs if paid.key == "animal_pair")
    if set(ANIMALS) <= bonus:
        items.append(_instant("all_animals", "all four animals", 4, options, opponents))
    items.extend(paid for paid in pairs if paid.key != "animal_pair")
    if set(FLOWERS) <= bonus:
        items.append(_instant("flower_set", "all four flowers", 4, options, opponents))
    if set(SEASONS) <= bonus:
        items.append(_instant("season_set", "all four seasons", 4, options, opponents))
    return tuple(items)
