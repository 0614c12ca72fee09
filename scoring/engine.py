"""Score a hand: check it, decompose it once, score each arrangement with the rule set's table, keep the best.

`score(hand, context, rules, options) -> Score`. An invalid win is a `Score` with `valid=False` and a named
`reason`; only input that cannot be a hand raises (`MalformedHandError`, from `scoring.hand`).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.decompose import (
    EIGHT_FLOWERS,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN,
    Arrangement,
    seven_pairs_arrangements,
    standard_arrangements,
    thirteen_wonders_arrangement,
)
from scoring.errors import RulesetError
from scoring.hand import (
    FIRST_TURN,
    REPLACEMENT_CIRCUMSTANCES,
    Context,
    Hand,
    Meld,
    check_held_from_deal,
    exposed_before_win,
    places_won_into,
    winnable_tiles,
    winning_tile_holders,
    winning_tile_homes,
)
from scoring.options import (
    DEFAULT_PAYOUT_TABLE,
    Options,
    check_exact_amounts,
    checked_options,
    default_options,
    read_by,
)
from scoring.patterns import is_hand_level
from scoring.payout import (
    Payout,
    each_other_words,
    format_amount,
    held_alone_from_deal,
    no_payout,
    with_seats,
)
from scoring.rulesets import PatternRow, Ruleset, get_ruleset
from scoring.tiles import BACK, FLOWERS, FLY, SEASONS, WIND_NAMES, Tile, sort_key, sorted_tiles
from scoring.view import HandFacts, Hit, Note, View

REASONS: dict[str, str] = {
    "tile_not_in_set": "a tile that this rule set's tile set does not have",
    "too_many_copies": "more copies of a tile than the set has",
    "impossible_context": "circumstances that cannot happen with this hand",
    "winning_tile_not_in_hand": "the winning tile is not in the hand",
    "wrong_tile_count": "the wrong number of tiles",
    "no_winning_shape": "no winning shape",
    "below_minimum": "below the minimum",
}


@dataclass(frozen=True)
class PatternScore:
    """One scoring line: key, names, tai and a one-line reason."""

    key: str
    name: str
    name_zh: str
    tai: int
    reason: str


@dataclass(frozen=True)
class OtherReading:
    """Another way the hand's tiles read, and what it scores: the answer to "why not read it as X?"."""

    arrangement: str
    tai: int
    raw_tai: int
    patterns: tuple[PatternScore, ...]
    # its notes that the chosen reading does not carry ("sequence hand not awarded: ... single wait")
    notes: tuple[str, ...]
    # whether it reaches the minimum: read so, the hand would be a win
    valid: bool = True

    def to_json(self) -> dict[str, object]:
        return {
            "arrangement": self.arrangement,
            "valid": self.valid,
            "tai": self.tai,
            "raw_tai": self.raw_tai,
            "patterns": [dataclasses.asdict(pattern) for pattern in self.patterns],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class PlaceOutcome:
    """What the hand scores with the winning discard in one place (`Context.winning_tile_into`): its
    best reading there. A table that argues where the tile went sees what each answer pays."""

    into: str
    valid: bool
    tai: int

    def to_json(self) -> dict[str, object]:
        return {"into": self.into, "valid": self.valid, "tai": self.tai}


# how many other readings a result names, best first
OTHER_READINGS = 2


@dataclass(frozen=True)
class Score:
    """The result: validity with a named reason, the scoring lines, raw and capped tai, payouts, warnings."""

    valid: bool
    reason: str | None
    message: str
    patterns: tuple[PatternScore, ...]
    raw_tai: int
    tai: int
    limit: bool
    payout: Payout
    warnings: tuple[str, ...]
    rules: str
    unit_name: str
    arrangement: str | None
    points: int | None = None
    # the best other readings of the tiles, best first (`OTHER_READINGS` at most): of a valid win, or
    # of one below the minimum
    other_readings: tuple[OtherReading, ...] = ()
    # where the winning discard went in the reading counted: "hand" or "meld" (an exposed chow or pong
    # laid down with it); None where no winning discard is given
    winning_tile_into: str | None = None
    # where the tiles let the winning discard go both into the hand and into an exposed chow or pong,
    # each place's best reading, the one counted first; empty elsewhere
    winning_tile_places: tuple[PlaceOutcome, ...] = ()

    def to_json(self) -> dict[str, object]:
        """The scoring CLI's JSON output."""
        return {
            "valid": self.valid,
            "reason": self.reason,
            "message": self.message,
            "rules": self.rules,
            "unit": self.unit_name,
            "patterns": [dataclasses.asdict(pattern) for pattern in self.patterns],
            "raw_tai": self.raw_tai,
            "tai": self.tai,
            "limit": self.limit,
            "points": self.points,
            "arrangement": self.arrangement,
            "other_readings": [reading.to_json() for reading in self.other_readings],
            "winning_tile_into": self.winning_tile_into,
            "winning_tile_places": [place.to_json() for place in self.winning_tile_places],
            "payout": self.payout.to_json(),
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class _Scored:
    arrangement: Arrangement
    patterns: tuple[PatternScore, ...]
    raw: int
    tai: int
    limit: bool
    notes: tuple[str, ...]
    # scored by a limit-type row (big three dragons ...), not by rows summed up to the cap
    limit_row: bool = False
    # a limit reading's other rows summed (read under the cap only), its note's figure: of tied limit
    # readings the one with the most quotes the most (an audit, stage 81: the first found quoted 6 fan
    # where another reading's rows give 10)
    summed_raw: int = 0
    # the exposed meld the winning discard completed in this reading; None: it went into the hand
    won_into: Meld | None = None

    @functools.cached_property
    def rank(self) -> tuple[int, int, bool, int, tuple[int, ...]]:
        """Best reading last: the tai, then the raw sum; a limit hand tied with summed rows at the cap is
        named ("full flush" alone would hide it); then, of readings alike, the one whose flies stand
        with the highest tiles (two audits, stage 81: 78p and a fly, laid as 789p, read as 345p(fly=3p)
        678p: a player completes a run at its end)."""
        return (self.tai, self.raw, self.limit_row, self.summed_raw, _fly_place(self.arrangement))

    def set_note(self, unit: str, max_tai: int) -> str | None:
        """Why a limit-type hand pays less than its other rows would: RULES.md sets a Malaysian limit-type
        hand's fan to its value, not added, and a table that sees a heavenly hand pay half the hand
        without it asks why (an audit, stage 77); None elsewhere."""
        others = min(self.summed_raw, max_tai)
        if not self.limit_row or others <= self.tai:
            return None
        setting = max(self.patterns, key=lambda line: line.tai)  # the row the fan comes from, of several
        return (
            f"the {unit} is set to {self.tai} by {setting.name.lower()}, not added to the rest (RULES.md): "
            f"the hand's other patterns alone would give {others} {unit}"
        )


class _Invalid(Exception):
    """Internal: a check failed; carries the reason key, the player's message, and what was scored so far."""

    def __init__(
        self,
        reason: str,
        message: str,
        best: _Scored | None = None,
        warnings: list[str] | None = None,
        tiles_impossible: bool = False,
        others: tuple[OtherReading, ...] = (),
        places: tuple[PlaceOutcome, ...] = (),
        place: str | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.best = best
        self.others = others
        self.places = places
        # where the winning discard went in `best`, read with the context as checked (a win a
        # replacement tile made a self-draw has none)
        self.place = place
        # the tiles on the table cannot all be there (two cats, a fly in a Singapore hand): no instant
        # payouts; a winning tile named outside the set is the caller's slip, not such a tile
        self.tiles_impossible = tiles_impossible
        self.warnings = warnings or []


def drawn_by_winner(bonus: Sequence[Tile], circumstances: Iterable[str], ruleset: Ruleset) -> str | None:
    """Why this win can only be a self-draw, whatever was said (None if it need not be): a replacement
    tile is drawn by the winner, and so is the eighth flower of eight flowers (seeds/001: 自摸), unless
    it was robbed from another player (robbing the eighth)."""
    circumstances = set(circumstances)
    if circumstances & REPLACEMENT_CIRCUMSTANCES:
        return "a replacement-tile win is a self-draw"
    if "robbing_eighth" not in circumstances and flowers_win(bonus, circumstances, ruleset):
        return "eight flowers are drawn by the winner, a self-draw"
    return None


def flowers_win(bonus: Iterable[Tile], circumstances: Iterable[str], ruleset: Ruleset | str) -> bool:
    """Whether the bonus row makes a win that needs no hand under `ruleset`: all eight flowers and
    seasons, or seven with another player's eighth robbed."""
    ruleset = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    flowers = set(bonus) & set(FLOWERS + SEASONS)
    robbed = "robbing_eighth" in set(circumstances)
    return bool(ruleset.handless_wins) and len(flowers) >= (7 if robbed else 8)


def _check_tiles(hand: Hand, context: Context, ruleset: Ruleset, options: Options) -> None:
    hand_types = set(ruleset.hand_tiles(options))
    proper = [*hand.concealed, *(tile for meld in hand.melds for tile in meld.tiles)]
    # in tile order, each once, as a hand is written (an audit read "2s, 5s, 4s, 6s, 1s, 3s")
    strangers = sorted_tiles({tile for tile in proper if tile not in hand_types})
    bonus_strangers = sorted_tiles({tile for tile in hand.bonus if tile not in ruleset.bonus_tiles})
    # a winning tile no set holds is named so, not as "not in the hand" (a hand it is never in)
    stranger_won = context.winning_tile not in (None, *hand_types, *strangers)
    if strangers or bonus_strangers or stranger_won:
        # every one named, so that a hand typed or read under the wrong rule set is seen so at once
        parts = [", ".join(strangers)] if strangers else []
        if bonus_strangers:
            parts.append(f"bonus tile{'s' if len(bonus_strangers) > 1 else ''} {', '.join(bonus_strangers)}")
        if stranger_won:
            parts.append(f"the winning tile {context.winning_tile}")
        one = len(strangers) + len(bonus_strangers) + int(stranger_won) == 1
        message = (
            f"{' and '.join(parts)} {'is' if one else 'are'} not in the {ruleset.name.capitalize()} tile set"
        )
        with_all = set(ruleset.hand_tiles(dataclasses.replace(options, north_wind=True)))
        if not options.north_wind and any(tile in with_all for tile in [*strangers, context.winning_tile]):
            message += " (option north_wind is off)"
        raise _Invalid("tile_not_in_set", message, tiles_impossible=bool(strangers or bonus_strangers))
    for tile, count in Counter(hand.all_tiles()).items():
        allowed = 4 if tile in hand_types else ruleset.bonus_copies.get(tile, 1)
        if count > allowed:
            raise _Invalid(
                "too_many_copies",
                f"{count} copies of {tile}, but the set has only {allowed}",
                tiles_impossible=True,
            )


def _idle_option_warnings(hand: Hand, context: Context, ruleset: Ruleset, options: Options) -> list[str]:
    """Options set that this win's other settings leave unread: said, as a house rule another rule set
    does not read is, so that a table does not take them for applied; so are tiles held from the deal
    that double nothing."""
    warnings: list[str] = []
    unread_table = options.payout_scheme != "table" and options.payout_table != DEFAULT_PAYOUT_TABLE
    if unread_table and read_by(ruleset.name, "payout_table"):
        warnings.append(f"payout_table not used: payout_scheme is {options.payout_scheme}, not table")
    if context.bonus_from_deal and ruleset.instant_payouts is not None and not options.instant_payouts:
        warnings.append("bonus_from_deal not used: option instant_payouts is off")
    elif ruleset.instant_payouts is not None:
        alone = held_alone_from_deal(hand.bonus, context)
        if alone:  # an audit: the cat alone marked from the deal changed nothing and said nothing
            verb = "doubles" if len(alone) == 1 else "double"
            warnings.append(
                f"bonus_from_deal: {', '.join(alone)} {verb} nothing: an instant payout doubles where both "
                "tiles of its pair (cat and rat, rooster and centipede, the seat's own flower and season) "
                "were held from the deal"
            )
    return warnings


def _check_context(
    hand: Hand, context: Context, ruleset: Ruleset, options: Options
) -> tuple[Context, list[str]]:
    """RULES.md context checks; returns the context to score with and warnings about what was assumed."""
    warnings: list[str] = []
    circ = set(context.circumstances)
    for name in sorted(circ - ruleset.circumstances):
        warnings.append(f"{name} is not part of {ruleset.name} rules; ignored")
        circ.discard(name)
    if "kong_on_kong" in circ and not ruleset.has_row("kong_on_kong"):
        # a rule set with no row of its own for it (Malaysian: "Winning on a replacement tile is +1
        # once, whichever kind", RULES.md) scores it as the kong replacement it is: said, as a table
        # ticking it expects more (an audit)
        warnings.append(
            f"kong on kong is no pattern of {ruleset.name} rules: it is scored as a win on a kong's "
            f"replacement tile (RULES.md: +1 {ruleset.unit_name} once, whichever kind)"
        )
    if context.bonus_from_deal and ruleset.instant_payouts is None:
        # only instant payouts read it: said, as an option the rule set does not read is
        warnings.append(f"bonus_from_deal is not part of {ruleset.name} rules (no instant payouts); ignored")
    if context.seat_wind not in ruleset.seats:
        raise _Invalid(
            "impossible_context",
            f"seat wind {context.seat_wind} is not a seat in a "
            f"{ruleset.players}-player game (seats {', '.join(ruleset.seats)})",
        )
    rounds = ruleset.round_winds(options)
    if context.prevailing_wind not in rounds:
        # refused as a North seat is: a set without the North wind has no North round, and a table that
        # names one has another set in mind (it was scored without a word, the prevailing wind unread)
        wind = WIND_NAMES[context.prevailing_wind]
        raise _Invalid(
            "impossible_context",
            f"prevailing wind {context.prevailing_wind} is not a round of a set without the {wind} wind "
            f"(option north_wind is off; rounds {', '.join(rounds)})",
        )
    kongs = sum(1 for meld in hand.melds if meld.kind == "kong")
    self_drawn = context.self_drawn
    why_drawn = drawn_by_winner(hand.bonus, circ, ruleset)
    if why_drawn and not self_drawn:
        self_drawn = True
        warnings.append(f"{why_drawn}: scored as self-drawn")

    # every contradiction is named at once: a user who mends one should not meet the next (an audit)
    conflicts: list[str] = []
    impossible = conflicts.append

    if "replacement_tile" in circ and not kongs and not hand.bonus:
        impossible("won on a replacement tile, but the hand has no kong and no bonus tile")
    if "kong_replacement" in circ and not kongs:
        impossible("won on a kong replacement tile, but the hand has no kong")
    if "kong_on_kong" in circ and kongs < 2:
        impossible("kong on kong needs two kongs in the hand")
    # where a circumstance made the win a self-draw, name it: the user chose a discard
    because = f" ({why_drawn})" if why_drawn and not context.self_drawn else ""
    if "robbing_kong" in circ and self_drawn:
        impossible(f"robbing the kong is a win on another player's tile, not a self-draw{because}")
    robbed = context.winning_tile
    if "robbing_kong" in circ and robbed == FLY:
        # RULES.md: a fly never stands in a kong, so none is added to a pong to be robbed
        impossible(
            "robbing the kong takes the tile added to a pong to make a kong, and a fly never stands in a kong"
        )
    if "robbing_kong" in circ and robbed is None and not _held_once(hand):
        # no winning tile given, and none it could be (an audit: all pongs and a pair scored a robbed kong)
        impossible(
            "robbing the kong takes the fourth copy of a tile from another player's pong of three, "
            "and the hand holds each of its tiles more than once"
        )
    if "robbing_kong" in circ and robbed is not None and _real_copies(hand, robbed) > 1:
        # the player adding to his pong holds the other three copies
        impossible(
            f"robbing the kong takes the fourth {robbed} from another player's pong of three, "
            f"so the hand can hold no other {robbed}"
        )
    if "heavenly" in circ and not (self_drawn and context.seat_wind == "E"):
        impossible("a heavenly hand is a self-draw by the East seat")
    for key, named in (("earthly", "an earthly"), ("humanly", "a humanly")):
        if key in circ and context.seat_wind == "E":
            impossible(f"{named} hand is won by a seat other than East")
    if "humanly" in circ and self_drawn:
        impossible(f"a humanly hand is won on a discard, not a self-draw{because}")
    if "earthly" in circ and self_drawn and not ruleset.earthly_self_drawn:
        impossible(
            f"an earthly hand is won on the first tile discarded, not a self-draw, under "
            f"{ruleset.name.capitalize()} rules{because}"
        )
    if (
        "earthly" in circ
        and not self_drawn
        and not context.pay_all
        and context.discarder_wind not in (None, "E")
    ):
        # the first tile discarded is the dealer's: East discards first
        impossible(
            f"an earthly hand won on a discard is won on the dealer's first discard, so East is the "
            f"discarder, not {WIND_NAMES.get(context.discarder_wind, context.discarder_wind)}"
        )
    first_turn = sorted(circ & FIRST_TURN)
    claimed = exposed_before_win(hand, context.winning_tile, self_drawn, context.winning_tile_into)
    if first_turn and claimed:
        # seeds/001: these are won before anyone has claimed a discard; only a concealed kong may lie open,
        # or a chow or pong given as concealed (claimed from no one)
        article = "an" if first_turn[0] == "earthly" else "a"
        impossible(
            f"{article} {first_turn[0]} hand is won before any tile is claimed, but the hand has an "
            f"exposed {claimed[0].kind} ({claimed[0].face_text})"
        )
    if first_turn:  # said once, of the first named, as the claimed meld is
        turn = first_turn[0]
        article = "an" if turn == "earthly" else "a"
        # seeds/001: no meld is formed before a first-turn win, and a kong is robbed from an exposed pong
        if "robbing_kong" in circ:
            impossible(
                f"robbing the kong takes a tile added to another player's exposed pong, and {article} "
                f"{turn} hand is won before anyone has claimed a tile"
            )
        if "last_tile" in circ:
            impossible(f"{article} {turn} hand is won on the first turn, not on the last tile")
    # under pay-all the seat given names the liable player, who need not have discarded
    if "humanly" in circ and not self_drawn and not context.pay_all and context.discarder_wind == "E":
        # the one tile East has discarded before a non-dealer's first draw is the dealer's first discard
        impossible(
            "a win on East's discard before the winner's first draw is a win on the dealer's first "
            "discard: an earthly hand, not a humanly one"
        )
    if "robbing_eighth" in circ and "robbing_kong" in circ:
        impossible(
            "robbing the eighth wins on another player's eighth flower and robbing the kong on a tile "
            "added to a pong: one win cannot be both"
        )
    discarder = context.discarder_wind
    if discarder is not None and self_drawn and not context.pay_all:
        warnings.append("discarder_wind ignored: a self-drawn win has no discarder")
        discarder = None
    if discarder is not None:
        if discarder not in ruleset.seats:
            impossible(
                f"discarder_wind {discarder} is not a seat in a {ruleset.players}-player game "
                f"(seats {', '.join(ruleset.seats)})"
            )
        if discarder == context.seat_wind:
            impossible(f"discarder_wind {discarder} is the winner's own seat")
    if "last_tile" in circ and not self_drawn:
        impossible("winning on the last tile needs a self-draw")
    if "robbing_eighth" in circ:
        flowers = sum(1 for tile in hand.bonus if tile in FLOWERS + SEASONS)
        # each reason its own: an audit's seven flowers, self-drawn, were told they needed seven
        if flowers < 7:
            impossible(f"robbing the eighth needs seven flowers and seasons in the hand, not {flowers}")
        if self_drawn:
            impossible(f"robbing the eighth wins on another player's eighth flower, not a self-draw{because}")
    conflicts.extend(
        _place_conflicts(hand, context.winning_tile, self_drawn, context.winning_tile_into, because)
    )
    if conflicts:
        raise _Invalid("impossible_context", "; ".join(conflicts))
    scored = dataclasses.replace(
        context, self_drawn=self_drawn, circumstances=frozenset(circ), discarder_wind=discarder
    )
    return scored, warnings


def _place_conflicts(
    hand: Hand, winning: Tile | None, self_drawn: bool, into: str | None, because: str = ""
) -> list[str]:
    """Where the table says the winning discard went (`winning_tile_into`), and the tiles or how it was
    won say it cannot have gone there (`because`: why a win said to be on a discard is a self-draw). A
    winning tile the hand does not hold is `_check_winning_tile`'s."""
    if into is None:
        return []
    if into == "meld" and self_drawn:
        return [
            "a self-drawn winning tile completes no laid-down meld: a chow or pong is claimed from a "
            f"discard{because}"
        ]
    if winning is None or self_drawn:
        if into == "meld" and not winning_tile_holders(hand, None, concealed=False):
            return ["the winning discard completed no laid-down meld: the hand has no exposed chow or pong"]
        return []
    in_hand, in_exposed = winning_tile_homes(hand, winning)
    if into == "meld" and not in_exposed and in_hand:
        # the place said is refused in words: "went into the hand" alone had answered `meld` as if
        # the table had said `hand` (an audit)
        return [
            f"the winning tile {winning} cannot have gone into a laid-down meld: no exposed chow or pong "
            "holds it, so it went into the hand"
        ]
    if into == "hand" and not in_hand and in_exposed:
        return [
            f"the winning tile {winning} is not among the concealed tiles: it lies only in the exposed "
            f"{in_exposed[0].kind} {in_exposed[0].face_text}, so it was laid down with it"
        ]
    return []


def _first_turn_places(
    hand: Hand, context: Context, places: tuple[Meld | None, ...]
) -> tuple[Meld | None, ...]:
    """The places a first-turn hand's winning discard may have gone: into the one exposed set there is
    (no tile is claimed before a heavenly, earthly or humanly win), never into the hand beside it (a
    hostile test, stage 82: an earthly hand with 789s laid down counted 9s in the hand, a place its
    own check refuses). `_check_context` has refused the hand where no place is left."""
    if not context.circumstances & FIRST_TURN:
        return places
    exposed = [meld for meld in hand.melds if not meld.concealed]
    # a place leaves nothing claimed before the win: no exposed set, or the one the discard completed
    kept = tuple(place for place in places if not exposed or exposed == [place])
    return kept or places


def _held_once(hand: Hand) -> bool:
    """Whether some tile the win may have completed (a concealed tile, or one of a chow or pong, a kong
    never) is held once only: a robbed kong's tile is the fourth copy of another player's pong."""
    # as on a discard: robbing a kong is one (a self-draw claimed with it is refused beside this check)
    tiles = winnable_tiles(hand, self_drawn=False) - {FLY, BACK}
    return any(_real_copies(hand, tile) == 1 for tile in tiles)


def _real_copies(hand: Hand, tile: Tile) -> int:
    """Copies of `tile` in the concealed tiles and the melds, a `fly` standing in not counted."""
    return hand.concealed.count(tile) + sum(meld.tiles.count(tile) for meld in hand.melds)


def _check_winning_tile(hand: Hand, context: Context) -> None:
    winning = context.winning_tile
    if winning is None:
        return
    # A self-drawn tile never completes a set claimed from a discard (an exposed chow or pong).
    if winning not in winnable_tiles(hand, context.self_drawn):
        holders = [meld for meld in hand.melds if winning in meld.tiles]
        if holders and all(meld.kind == "kong" for meld in holders):
            message = f"the winning tile {winning} lies only in a kong, and no win completes a kong"
        elif holders:
            claimed = next(meld for meld in holders if meld.kind != "kong")
            message = (
                f"the winning tile {winning} was self-drawn but lies only in an exposed "
                f"{claimed.kind}, which was claimed from a discard"
            )
        else:
            message = f"the winning tile {winning} is not in the hand"
        raise _Invalid("winning_tile_not_in_hand", message)


def _hand_types(ruleset: Ruleset, options: Options) -> tuple[Tile, ...]:
    """The faces a hand's sets are made of (a fly stands for one of them)."""
    return tuple(tile for tile in ruleset.hand_tiles(options) if tile != FLY)


def _arrangements(hand: Hand, ruleset: Ruleset, options: Options) -> list[Arrangement]:
    types = _hand_types(ruleset, options)
    found: list[Arrangement] = []
    if STANDARD in ruleset.shapes:
        found += standard_arrangements(hand, types)
    if SEVEN_PAIRS in ruleset.shapes:
        found += seven_pairs_arrangements(hand, types)
    if THIRTEEN in ruleset.shapes:
        found += thirteen_wonders_arrangement(hand)
    return found


Outcomes = dict[str, Hit | Note | None]


def _hand_outcomes(view: View, ruleset: Ruleset) -> Outcomes:
    """Outcomes of the patterns that do not depend on the arrangement, computed once per hand."""
    return {pattern.key: pattern.test(view) for pattern in ruleset.patterns if is_hand_level(pattern.test)}


def _evaluate(
    patterns: tuple[PatternRow, ...], view: View, once: Outcomes
) -> tuple[list[tuple[PatternRow, Hit]], list[str]]:
    hits: list[tuple[PatternRow, Hit]] = []
    notes: list[str] = []
    for pattern in patterns:
        outcome = once[pattern.key] if pattern.key in once else pattern.test(view)
        if isinstance(outcome, Note):
            notes.append(outcome.warning)
        elif outcome is not None:
            hits.append((pattern, outcome))
    return hits, notes


def _score_arrangement(view: View, ruleset: Ruleset, options: Options, once: Outcomes) -> _Scored:
    # A limit-type hand scores its limit whatever else it holds, so the other rows are read only without one.
    limits, limit_notes = _evaluate(ruleset.limit_patterns, view, once)
    if limits:
        lines = tuple(
            PatternScore(
                pattern.key,
                pattern.name,
                pattern.name_zh,
                options.max_tai if pattern.tai is None else pattern.tai,
                hit.reason,
            )
            for pattern, hit in limits
        )
        raw = max(line.tai for line in lines)
        tai = min(raw, options.max_tai)
        # the other rows, read only where they could score more (a Malaysian limit-type hand's 5 under the
        # cap of 10; a Singapore limit is the cap)
        summed_raw = _summed_rows(view, ruleset, once)[1] if tai < options.max_tai else 0
        return _Scored(
            view.arrangement, lines, raw, tai, True, tuple(limit_notes), True, summed_raw, view.facts.won_into
        )
    summed, summed_raw, summed_notes = _summed_rows(view, ruleset, once)
    # a limit row that nearly applied (a house rule off) is said even though the hand scores without it
    notes = limit_notes + summed_notes
    tai = min(summed_raw, options.max_tai)
    return _Scored(
        view.arrangement,
        summed,
        summed_raw,
        tai,
        summed_raw >= options.max_tai,
        tuple(notes),
        won_into=view.facts.won_into,
    )


def _summed_rows(
    view: View, ruleset: Ruleset, once: Outcomes
) -> tuple[tuple[PatternScore, ...], int, list[str]]:
    """The summed rows that apply (a bomb's doubling among them), their raw total, and their notes."""
    hits, notes = _evaluate(ruleset.summed_patterns, view, once)
    replaced = {key for pattern, _ in hits for key in pattern.replaces}
    hits = [(pattern, hit) for pattern, hit in hits if pattern.key not in replaced]
    lines_list = [
        PatternScore(pattern.key, pattern.name, pattern.name_zh, (pattern.tai or 0) * hit.count, hit.reason)
        for pattern, hit in hits
    ]
    raw = sum(line.tai for line in lines_list)
    if any(pattern.bomb for pattern, _ in hits) and raw:
        lines_list.append(PatternScore("bomb", "Bomb: fan doubled", "爆", raw, "a bomb doubles the fan once"))
        raw *= 2
    return tuple(lines_list), raw, notes


def _valid_message(best: _Scored, unit: str, payout: Payout, options: Options) -> str:
    capped = f" (raw {best.raw}, capped at {options.max_tai})" if best.raw > best.tai else ""
    kind = "limit hand, " if best.limit_row else "at the limit, " if best.limit else ""
    if payout.discarder is None:
        pays = f"each loser pays {format_amount(payout.each_other)}"
    elif payout.each_other:
        each = each_other_words(len(payout.players))
        pays = f"discarder pays {format_amount(payout.discarder)}, {each} {format_amount(payout.each_other)}"
    else:
        liable = "liable player" if payout.players[1].liable else "discarder"
        pays = f"{liable} pays {format_amount(payout.discarder)}"
    receives = format_amount(payout.winner_total)
    return f"Valid win: {kind}{best.tai} {unit}{capped}; {pays}; winner receives {receives}."


def _best_reading(
    hand: Hand, context: Context, ruleset: Ruleset, options: Options
) -> tuple[_Scored, tuple[OtherReading, ...], tuple[PlaceOutcome, ...], Context, list[str]]:
    """Run the checks and score every arrangement; the best one, the best others (`_other_readings`),
    each place's best where the winning discard may have gone two ways (`_place_outcomes`), the context
    scored with, and warnings.

    Raises `_Invalid` for a hand that is not a valid win.
    """
    _check_tiles(hand, context, ruleset, options)
    context, warnings = _check_context(hand, context, ruleset, options)
    warnings.extend(_idle_option_warnings(hand, context, ruleset, options))
    try:
        _check_winning_tile(hand, context)
    except _Invalid as invalid:
        if not flowers_win(hand.bonus, context.circumstances, ruleset):
            raise
        # eight flowers win on the eighth flower, whatever the hand holds (RULES.md): a hand tile named
        # as the winning one is a slip that changes nothing, so it is set aside, not the win refused
        warnings.append(f"{invalid.message}: eight flowers are won on the eighth flower, so it is not used")
        context = dataclasses.replace(context, winning_tile=None)
    value_pair = ruleset.value_pair(context)
    places = _first_turn_places(
        hand,
        context,
        places_won_into(hand, context.winning_tile, context.self_drawn, context.winning_tile_into),
    )
    all_facts = [HandFacts(hand, context, value_pair, won_into) for won_into in places]
    # Patterns of the whole hand are read once per place the winning tile may have gone: whether the
    # hand was concealed until the win depends on it (the set a winning discard completed lies with
    # the melds).
    handless = [View(Arrangement(EIGHT_FLOWERS), hand, context, options, facts) for facts in all_facts]
    once = [_hand_outcomes(view, ruleset) for view in handless]
    best: _Scored | None = None
    scored_readings: list[_Scored] = []
    if ruleset.handless_wins:
        # Eight flowers win whatever the hand holds: score that reading first, tile count or not.
        scored = _score_arrangement(handless[0], ruleset, options, once[0])
        if any(line.key in ruleset.handless_wins for line in scored.patterns):
            best = scored
    if best is None:
        if hand.tile_count != 14:
            raise _Invalid("wrong_tile_count", _tile_count_message(hand, ruleset))
        # each place the winning tile may have gone, each decomposition: the best counts
        readings = list(zip(all_facts, once, strict=True))
        arrangements = _arrangements(hand, ruleset, options)
        for (facts, facts_once), arrangement in itertools.product(readings, arrangements):
            scored = _score_arrangement(
                View(arrangement, hand, context, options, facts), ruleset, options, facts_once
            )
            scored_readings.append(scored)
            if best is None or scored.rank > best.rank:
                best = scored
    if best is None:
        # said only where the hand is seven pairs: elsewhere the remark answers no question
        no_seven = SEVEN_PAIRS not in ruleset.shapes and bool(
            seven_pairs_arrangements(hand, _hand_types(ruleset, options))
        )
        extra = " (seven pairs is not a win under these rules)" if no_seven else ""
        raise _Invalid("no_winning_shape", "the tiles do not form four sets and a pair" + extra)
    warnings.extend(best.notes)
    set_note = best.set_note(ruleset.unit_name, options.max_tai)
    if set_note:
        warnings.append(set_note)
    others = _other_readings(best, scored_readings, context, options.min_tai)
    outcomes = _place_outcomes(best, scored_readings, context, options.min_tai)
    if best.tai < options.min_tai:
        what = (
            "a chicken hand, no scoring pattern" if not best.patterns else f"{best.tai} {ruleset.unit_name}"
        )
        raise _Invalid(
            "below_minimum",
            f"{what}; the minimum is {options.min_tai} {ruleset.unit_name}",
            best,
            warnings,
            others=others,
            places=outcomes,
            place=_place_word(best, context),
        )
    return best, others, outcomes, context, warnings


def _place_outcomes(
    best: _Scored, readings: list[_Scored], context: Context, min_tai: int
) -> tuple[PlaceOutcome, ...]:
    """Each place the winning discard may have gone and its best reading, `best`'s first; empty where
    it can have gone to one kind of place only."""
    tops: dict[str, _Scored] = {}
    for scored in sorted(readings, key=lambda reading: reading.rank, reverse=True):
        place = _place_word(scored, context)
        if place is not None:
            tops.setdefault(place, scored)
    if len(tops) < 2:
        return ()
    first = _place_word(best, context)
    order = sorted(tops, key=lambda place: place != first)
    return tuple(PlaceOutcome(place, tops[place].tai >= min_tai, tops[place].tai) for place in order)


def _other_readings(
    best: _Scored, readings: list[_Scored], context: Context, min_tai: int
) -> tuple[OtherReading, ...]:
    """The best readings laid out otherwise than `best`, one a layout, best first: a table that reads
    111m 222m 333m as chows asks why pongs were not counted (an audit, stage 81: nothing said)."""
    shown = {_reading_text(best, best, context)}
    # a reading scored alike, row for row, answers nothing the first did (a review, stage 81: two chow
    # layouts of one score took both places and hid the seven pairs tied with them)
    scores_seen = {_score_shape(best, best)}
    others: list[OtherReading] = []
    for scored in sorted(readings, key=lambda reading: reading.rank, reverse=True):  # stable: ties as found
        shape = _score_shape(scored, best)
        if shape in scores_seen:
            continue
        text = _reading_text(scored, best, context)
        if text in shown:
            continue
        shown.add(text)
        scores_seen.add(shape)
        notes = tuple(note for note in scored.notes if note not in best.notes)
        valid = scored.tai >= min_tai
        others.append(OtherReading(text, scored.tai, scored.raw, scored.patterns, notes, valid))
        if len(others) == OTHER_READINGS:
            break
    return tuple(others)


def _fly_place(arrangement: Arrangement) -> tuple[int, ...]:
    """The tiles flies stand for in concealed chows, highest first: of readings alike, a run is completed
    at its top end. Pongs and pairs count nothing, so their readings keep the order found (a review,
    stage 81: ranking a fly beside an honour split a pong and changed the rows shown)."""
    stand_for = [
        sort_key(tile)
        for group in arrangement.groups
        if group.kind == "chow" and not group.declared
        for tile in group.fly_for
    ]
    return tuple(sorted(stand_for, reverse=True))


def _place_word(scored: _Scored, context: Context) -> str | None:
    """Where the winning discard went in a reading: "meld" (an exposed chow or pong laid down with it),
    "hand", or None where no winning discard is given."""
    if context.winning_tile is None or context.self_drawn:
        return None
    return "meld" if scored.won_into is not None and not scored.won_into.concealed else "hand"


def _score_shape(scored: _Scored, best: _Scored) -> tuple[int, frozenset[tuple[str, int]], frozenset[str]]:
    """What a reading scores, row by row, and the notes it has beyond `best`'s."""
    rows = frozenset((line.key, line.tai) for line in scored.patterns)
    return scored.tai, rows, frozenset(note for note in scored.notes if note not in best.notes)


def _reading_text(scored: _Scored, best: _Scored, context: Context) -> str:
    """A reading as another to `best`: its sets, and where the winning discard went where that differs
    (an audit, stage 81: a bomb for a hand concealed until the win stood on the exposed 234p being
    claimed with the winning 2p, and nothing said how it scores had the chow been claimed before)."""
    text = _arrangement_text(scored, context)
    if scored is best or scored.won_into == best.won_into or context.winning_tile is None:
        return text
    tile = context.winning_tile
    if scored.won_into is None:
        return f"{text}, the winning {tile} in the hand (every meld claimed before it)"
    return f"{text}, the winning {tile} claimed into the {scored.won_into}"


def _arrangement_text(scored: _Scored, context: Context) -> str:
    """How the hand was read; a win by robbing the eighth flower holds seven, the eighth another's."""
    if scored.arrangement.shape == EIGHT_FLOWERS and "robbing_eighth" in context.circumstances:
        return "seven flowers and the robbed eighth"
    return str(scored.arrangement)


def _seats_of_no_win(payout: Payout, ruleset: Ruleset, context: Context) -> Payout:
    """A no-win's payout (nothing paid) with the seats the context names, as a valid win's gives them:
    the winner's, and the discarder's and the others' where the discarder's seat is given (an audit:
    every seat was null, the winner's too). A seat the game has not (a Malaysian North seat, which is
    why such a hand is no win) is given to no one, nor a discarder's that the rules refuse (the winner's
    own, or not a seat of the game): the others' seats then stay unknown, as on a win with no discarder."""
    if context.seat_wind not in ruleset.seats:
        return payout
    discarder = context.discarder_wind
    if discarder not in ruleset.seats or discarder == context.seat_wind:
        discarder = None
    return with_seats(payout, ruleset.seats, context.seat_wind, discarder)


def _tile_count_message(hand: Hand, ruleset: Ruleset) -> str:
    """Why a hand of other than 14 tiles is no win; where four of a tile stand among the concealed ones
    (a kong typed into the hand), where a kong goes; where the bonus row holds all eight flowers and
    seasons under a rule set that scores no win on them alone, that it does not (an audit was told
    only to count its tiles)."""
    message = (
        f"the hand has {hand.tile_count} tiles, a winning hand has 14 "
        "(a kong counts as 3; bonus tiles are not counted)"
    )
    if not ruleset.handless_wins and set(FLOWERS + SEASONS) <= set(hand.bonus):
        rules = ruleset.name.capitalize()
        message += f"; the {rules} rules score no win on the eight flowers and seasons alone"
    if "robbing_eighth" in ruleset.handless_wins and len(set(hand.bonus) & set(FLOWERS + SEASONS)) == 7:
        # seeds/001: seven flowers win on another player's eighth, whatever the hand holds (a user who
        # typed the seven alone was told only to count the hand's tiles, stage 89)
        message += (
            "; seven flowers and seasons win only by robbing the eighth, when another player draws it "
            "(circumstance robbing_eighth)"
        )
    fours = sorted(tile for tile, count in Counter(hand.concealed).items() if count >= 4)
    if hand.tile_count > 14 and fours:
        message += (
            # "if": 222m 234m holds four 2m and no kong (an audit, stage 81: a missed tile added to such a
            # hand was told to make a kong of them)
            f"; if the four {' and four '.join(fours)} among the concealed tiles are "
            + ("a kong, give it as a meld" if len(fours) == 1 else "kongs, give them as melds")
            + ", concealed or not"
        )
    return message


def score(
    hand: Hand, context: Context, rules: Ruleset | str = "singapore", options: Options | None = None
) -> Score:
    """Score `hand` won in `context` under `rules` (a `Ruleset` or its name) and `options` (its defaults)."""
    if not isinstance(rules, str | Ruleset):
        raise RulesetError(f"rules must be a rule set or its name, got {rules!r}")
    ruleset = get_ruleset(rules) if isinstance(rules, str) else rules
    options = checked_options(options if options is not None else default_options(ruleset.name))
    check_exact_amounts(options, ruleset.name)
    check_held_from_deal(sorted(context.bonus_from_deal), hand.bonus)  # as JSON input is checked
    instant = ruleset.instant_payouts(hand, context, options) if ruleset.instant_payouts else ()
    try:
        best, others, places, context, warnings = _best_reading(hand, context, ruleset, options)
    except _Invalid as invalid:
        seen = invalid.best
        # tiles no set holds are not on the table: nothing is paid for them, instantly or not
        paid_at_once = () if invalid.tiles_impossible else instant
        nothing = dataclasses.replace(
            no_payout(ruleset.players, context.self_drawn), instant_payouts=paid_at_once
        )
        nothing = _seats_of_no_win(nothing, ruleset, context)
        return Score(
            valid=False,
            reason=invalid.reason,
            message=f"Not a valid win: {invalid.message}.",
            patterns=seen.patterns if seen else (),
            raw_tai=seen.raw if seen else 0,
            tai=seen.tai if seen else 0,
            limit=False,
            payout=nothing,
            warnings=tuple(invalid.warnings),
            arrangement=_arrangement_text(seen, context) if seen else None,
            rules=ruleset.name,
            unit_name=ruleset.unit_name,
            other_readings=invalid.others,
            winning_tile_into=invalid.place,
            winning_tile_places=invalid.places,
        )
    as_self_draw = ruleset.thirteen_wonders_as_self_draw and best.arrangement.shape == THIRTEEN
    payout = ruleset.payout(best.tai, context, options, as_self_draw)
    payout = dataclasses.replace(payout, instant_payouts=instant)
    payout = with_seats(payout, ruleset.seats, context.seat_wind, context.discarder_wind)
    return Score(
        valid=True,
        reason=None,
        message=_valid_message(best, ruleset.unit_name, payout, options),
        patterns=best.patterns,
        raw_tai=best.raw,
        tai=best.tai,
        limit=best.limit,
        payout=payout,
        warnings=tuple(warnings),
        arrangement=_arrangement_text(best, context),
        points=best.tai * options.points_per_fan if ruleset.reports_points else None,
        rules=ruleset.name,
        unit_name=ruleset.unit_name,
        other_readings=others,
        winning_tile_into=_place_word(best, context),
        winning_tile_places=places,
    )


__all__ = ["REASONS", "OtherReading", "PatternScore", "PlaceOutcome", "Score", "score"]
