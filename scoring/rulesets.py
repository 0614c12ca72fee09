"""Rule sets as values: each is a frozen `Ruleset` (tile set, shapes, pattern table, payouts), found by name.

A pattern table row gives the pattern's key, names, tai (None: the limit, `max_tai`), whether it is a
limit-type hand, which rows it replaces, and whether it is a Malaysian bomb. Adding a pattern is one
function in `scoring.patterns` plus one row here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property

from scoring import patterns as p
from scoring.decompose import SEVEN_PAIRS, STANDARD, THIRTEEN
from scoring.errors import RulesetError
from scoring.hand import CIRCUMSTANCES, Context, Hand
from scoring.options import Options
from scoring.patterns import PatternTest
from scoring.payout import (
    InstantPayout,
    Payout,
    malaysian_payout,
    singapore_instant_payouts,
    singapore_payout,
)
from scoring.tiles import ANIMALS, DRAGONS, FACE, FLOWERS, FLY, HONOURS, SEASONS, SUITED, WINDS, Tile


@dataclass(frozen=True)
class PatternRow:
    """One line of a rule set's pattern table."""

    key: str
    name: str
    name_zh: str
    test: PatternTest
    tai: int | None = 1
    limit: bool = False
    replaces: tuple[str, ...] = ()
    bomb: bool = False


def row(
    key: str,
    name: str,
    name_zh: str,
    test: PatternTest,
    tai: int | None = 1,
    *,
    replaces: tuple[str, ...] = (),
    bomb: bool = False,
) -> PatternRow:
    return PatternRow(key, name, name_zh, test, tai, False, replaces, bomb)


def limit(key: str, name: str, name_zh: str, test: PatternTest, tai: int | None = None) -> PatternRow:
    """A limit-type hand: scores `tai` (None: the `max_tai` limit) instead of the sum of the other rows."""
    return PatternRow(key, name, name_zh, test, tai, True)


def round_winds(tiles: Collection[Tile]) -> tuple[Tile, ...]:
    """The winds a round may have with the set of `tiles` on the table: every wind it holds. seeds/004
    goes round all four in the 3-player game too (no North seat, but a North round), but a set without
    the North wind (option `north_wind` off) has no North round. One rule for the engine's check and
    for the app's prevailing-wind box, which knows the set by name (`app_ui.tile_sets`)."""
    return tuple(wind for wind in WINDS if wind in tiles)


Payer = Callable[[int, Context, Options, bool], Payout]
InstantPayer = Callable[[Hand, Context, Options], tuple[InstantPayout, ...]]


@dataclass(frozen=True)
class Ruleset:
    """A rule set: everything that differs between Singapore and Malaysian play."""

    name: str
    unit_name: str
    players: int
    seats: tuple[Tile, ...]
    shapes: tuple[str, ...]
    patterns: tuple[PatternRow, ...]
    payout: Payer
    # None: the rule set pays nothing when tiles are shown (Malaysian: seeds/004 names no amounts)
    instant_payouts: InstantPayer | None
    hand_tiles: Callable[[Options], tuple[Tile, ...]]
    bonus_tiles: tuple[Tile, ...]
    bonus_copies: dict[Tile, int]
    circumstances: frozenset[str]
    value_pair: Callable[[Context], frozenset[Tile]]
    # The hand does not matter for these limit rows (eight flowers): no tile count, no shape needed.
    handless_wins: tuple[str, ...] = ()
    thirteen_wonders_as_self_draw: bool = False
    # Malaysian results also give points (fan x points_per_fan), the unit its payouts are in.
    reports_points: bool = False
    # False: no pattern reads the prevailing wind (Malaysian: "There is no prevailing-wind fan").
    scores_prevailing_wind: bool = True
    # An earthly hand may be self-drawn (seeds/001: also a non-dealer's win on the first tile drawn);
    # False: only on the dealer's first discard (seeds/004: "the first tile discarded by another player").
    earthly_self_drawn: bool = True

    def round_winds(self, options: Options) -> tuple[Tile, ...]:
        """`round_winds` of the set's tiles under `options`."""
        return round_winds(self.hand_tiles(options))

    def set_tiles(self, options: Options) -> tuple[Tile, ...]:
        """Every face a set of this rule set holds: its hand tiles and its bonus tiles."""
        return (*self.hand_tiles(options), *self.bonus_tiles)

    @cached_property
    def limit_patterns(self) -> tuple[PatternRow, ...]:
        """The limit-type rows: when one applies, its value is the score."""
        return tuple(pattern for pattern in self.patterns if pattern.limit)

    @cached_property
    def summed_patterns(self) -> tuple[PatternRow, ...]:
        """The rows whose tai add up (bombs included) when no limit row applies."""
        return tuple(pattern for pattern in self.patterns if not pattern.limit)

    def has_row(self, key: str) -> bool:
        """Whether the rule set scores `key` by a row of its own (Malaysian has no kong-on-kong row:
        "Winning on a replacement tile is +1 once, whichever kind", RULES.md)."""
        return any(pattern.key == key for pattern in self.patterns)


SINGAPORE_PATTERNS: tuple[PatternRow, ...] = (
    row("dragon_pong", "Dragon pong", "三元", p.dragon_pong),
    row("seat_wind_pong", "Seat wind pong", "门风", p.seat_wind_pong),
    row("prevailing_wind_pong", "Prevailing wind pong", "圈风", p.prevailing_wind_pong),
    row("animal", "Animal", "动物", p.animals),
    row("all_animals", "All four animals", "四动物", p.all_animals),
    row("seat_flower", "Seat flower", "正花", p.seat_flower),
    row("seat_season", "Seat season", "正季", p.seat_season),
    row("flower_set", "Complete set of flowers", "一台花", p.flower_set),
    row("season_set", "Complete set of seasons", "一台季", p.season_set),
    row("all_pongs", "All pongs", "对对胡", p.all_pongs, 2),
    row("half_flush", "Half flush", "混一色", p.half_flush, 2),
    row("full_flush", "Full flush", "清一色", p.full_flush, 4),
    row("full_flush_all_pongs", "Full flush with all pongs", "清一色对对胡", p.full_flush_all_pongs, 2),
    row("pure_green", "Pure green", "绿一色", p.pure_green, 4, replaces=("half_flush", "full_flush")),
    row("mixed_terminals", "Mixed terminals", "混么九", p.mixed_terminals, 2),
    row("sequence_hand", "Sequence hand", "平胡", p.sequence_hand, 4),
    row("lesser_sequence_hand", "Lesser sequence hand", "小平胡", p.lesser_sequence_hand, 1),
    row("small_three_dragons", "Small three dragons", "小三元", p.small_three_dragons, 1),
    row("small_four_winds", "Small four winds", "小四喜", p.small_four_winds, 2),
    row("fully_concealed", "Fully concealed, self-drawn", "门清", p.fully_concealed, 1),
    row("self_drawn", "Self-drawn", "自摸", p.self_drawn, 1),
    row("replacement_tile", "Win on a replacement tile", "花上/杠上", p.replacement_tile, 1),
    row("robbing_kong", "Robbing the kong", "抢杠", p.robbing_kong, 1),
    row("last_tile", "Win on the last tile", "海底捞月", p.last_tile, 1),
    limit("full_flush_sequence", "Full flush sequence hand", "清一色平胡", p.full_flush_sequence),
    limit("pure_terminals", "Pure terminals", "清么九", p.pure_terminals),
    limit("all_honours", "All honours", "字一色", p.all_honours),
    limit("big_three_dragons", "Big three dragons", "大三元", p.big_three_dragons),
    limit("big_four_winds", "Big four winds", "大四喜", p.big_four_winds),
    limit("thirteen_wonders", "Thirteen wonders", "十三幺", p.thirteen_wonders),
    limit("nine_gates", "Nine gates", "九莲宝灯", p.nine_gates),
    limit("hidden_treasure", "Hidden treasure", "坎坎胡", p.hidden_treasure),
    limit("four_kongs", "Four kongs", "十八罗汉", p.four_kongs),
    limit("eight_flowers", "Eight flowers", "花胡", p.eight_flowers),
    limit("robbing_eighth", "Robbing the eighth", "七抢一", p.robbing_eighth),
    limit("heavenly", "Heavenly hand", "天胡", p.heavenly),
    limit("earthly", "Earthly hand", "地胡", p.earthly),
    limit("humanly", "Humanly hand", "人胡", p.humanly),
    limit("kong_on_kong", "Kong on kong", "杠上杠", p.kong_on_kong),
)

MALAYSIAN_PATTERNS: tuple[PatternRow, ...] = (
    row("animal", "Animal", "动物", p.animals),
    row("all_animals", "All four animals", "四动物", p.all_animals),
    row("face", "Face tile", "花面", p.faces),
    row("all_faces", "All four faces", "四面", p.all_faces),
    row("seat_flower", "Seat flower", "正花", p.seat_flower),
    row("seat_season", "Seat season", "正季", p.seat_season),
    row("fourth_flower", "Flower F4", "四号花", p.fourth_flower),
    row("fourth_season", "Season S4", "四号季", p.fourth_season),
    row("flower_set", "All four flowers", "一台花", p.flower_set),
    row("season_set", "All four seasons", "一台季", p.season_set),
    row("fly_bonus", "Fly kept as bonus", "飞", p.fly_bonus),
    row("dragon_pong", "Dragon pong", "三元", p.dragon_pong),
    row("east_north_pong", "East or North wind pong", "东北风", p.east_north_pong),
    row("seat_wind_pong", "Seat wind pong", "门风", p.seat_wind_pong),
    row("kong", "Kong declared", "杠", p.declared_kongs),
    row("half_flush", "Half flush", "混一色", p.half_flush, 1),
    row("full_flush", "Full flush", "清一色", p.full_flush, 3),
    row("all_sequences_dots_pair", "All sequences with a dots pair", "平和", p.all_sequences_dots_pair, 1),
    row("ping_hu", "Straight hand", "平胡", p.ping_hu, 4, replaces=("all_sequences_dots_pair",)),
    row("seven_pairs", "Seven pairs", "七对", p.seven_pairs, 1),
    row(
        "all_dots_seven_pairs",
        "All dots seven pairs",
        "筒子对对",
        p.all_dots_seven_pairs,
        5,
        # the seven-pairs line's value all in dots; it stacks with the full flush as any seven pairs
        # does (RULES.md: "fan lines stack unless a line says it replaces another (... seven pairs
        # stacks with half or full flush)"), so 5 + 3, not 5
        replaces=("seven_pairs",),
    ),
    row("all_pongs", "All pongs", "对对胡", p.all_pongs, 2),
    row(
        "small_three_dragons",
        "Small three dragons",
        "小三元",
        p.small_three_dragons,
        3,
        replaces=("dragon_pong",),
    ),
    row("replacement_tile", "Win on a replacement tile", "花上/杠上", p.replacement_tile, 1),
    row("robbing_kong", "Robbing the kong", "抢杠", p.robbing_kong, 1),
    row(
        "bomb_concealed_self_draw",
        "Bomb: fully concealed self-draw",
        "门清自摸",
        p.bomb_concealed_self_draw,
        0,
        bomb=True,
    ),
    row(
        "bomb_concealed_discard",
        "Bomb: fully concealed, won on a discard",
        "门清吃胡",
        p.bomb_concealed_discard,
        0,
        bomb=True,
    ),
    row("bomb_last_tile", "Bomb: win on the last tile", "海底捞月", p.bomb_last_tile, 0, bomb=True),
    row(
        "bomb_kong_replacement",
        "Bomb: win on a kong replacement",
        "杠上开花",
        p.bomb_kong_replacement,
        0,
        bomb=True,
    ),
    limit("small_four_winds", "Small four winds", "小四喜", p.small_four_winds, 5),
    limit("big_three_dragons", "Big three dragons", "大三元", p.big_three_dragons, 5),
    limit("all_honours", "All honours", "字一色", p.all_honours, 5),
    limit("four_kongs", "Four kongs", "十八罗汉", p.four_kongs, 5),
    limit("thirteen_wonders", "Thirteen wonders", "十三幺", p.thirteen_wonders, 5),
    limit("nine_gates", "Nine gates", "九莲宝灯", p.nine_gates, 5),
    limit("heavenly", "Heavenly hand", "天胡", p.heavenly, 5),
    limit("earthly", "Earthly hand", "地胡", p.earthly, 5),
    limit("four_flies", "Four fly tiles", "四飞", p.four_flies, 5),
    limit("big_four_winds", "Big four winds", "大四喜", p.big_four_winds, 10),
)

ALL_CIRCUMSTANCES: frozenset[str] = frozenset(CIRCUMSTANCES)


def _singapore_tiles(options: Options) -> tuple[Tile, ...]:
    return SUITED + HONOURS


def _malaysian_tiles(options: Options) -> tuple[Tile, ...]:
    winds = WINDS if options.north_wind else ("E", "S", "W")
    return tuple(f"{rank}p" for rank in range(1, 10)) + winds + DRAGONS + (FLY,)


SINGAPORE = Ruleset(
    name="singapore",
    unit_name="tai",
    players=4,
    seats=WINDS,
    shapes=(STANDARD, THIRTEEN),
    patterns=SINGAPORE_PATTERNS,
    payout=singapore_payout,
    instant_payouts=singapore_instant_payouts,
    hand_tiles=_singapore_tiles,
    bonus_tiles=FLOWERS + SEASONS + ANIMALS,
    bonus_copies={},
    circumstances=ALL_CIRCUMSTANCES,
    value_pair=lambda context: frozenset({*DRAGONS, context.seat_wind, context.prevailing_wind}),
    handless_wins=("eight_flowers", "robbing_eighth"),
    thirteen_wonders_as_self_draw=True,
)

MALAYSIAN = Ruleset(
    name="malaysian",
    unit_name="fan",
    players=3,
    seats=("E", "S", "W"),
    shapes=(STANDARD, SEVEN_PAIRS, THIRTEEN),
    patterns=MALAYSIAN_PATTERNS,
    payout=malaysian_payout,
    instant_payouts=None,
    scores_prevailing_wind=False,
    hand_tiles=_malaysian_tiles,
    bonus_tiles=FLOWERS + SEASONS + ANIMALS + (FACE, FLY),
    bonus_copies={FACE: 4, FLY: 4},
    circumstances=ALL_CIRCUMSTANCES - {"humanly", "robbing_eighth"},
    value_pair=lambda context: frozenset({*DRAGONS, "E", "N", context.seat_wind}),
    reports_points=True,
    earthly_self_drawn=False,
)

RULESETS: dict[str, Ruleset] = {ruleset.name: ruleset for ruleset in (SINGAPORE, MALAYSIAN)}
RULESET_NAMES: tuple[str, ...] = tuple(RULESETS)
# the rule set of a hand that names none (`python -m scoring` without --rules)
DEFAULT_RULESET = SINGAPORE.name


def circumstances_for(name: str) -> tuple[str, ...]:
    """The circumstances rule set `name` knows, in the canonical order of `scoring.hand.CIRCUMSTANCES`."""
    known = get_ruleset(name).circumstances
    return tuple(c for c in CIRCUMSTANCES if c in known)


def get_ruleset(name: str) -> Ruleset:
    """The rule set called `name`; `RulesetError` (a `MalformedHandError`) for an unknown name."""
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise RulesetError(f"unknown rules {name!r} (expected one of: {', '.join(RULESET_NAMES)})") from None
