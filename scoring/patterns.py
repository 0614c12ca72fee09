"""One small pure function per scoring pattern: `(view) -> Hit | Note | None`.

A function says whether its pattern applies to one arrangement and why; how many tai it is worth, what it
replaces and whether it is a limit are table data of each rule set (`scoring.rulesets`).
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.decompose import SEVEN_PAIRS, THIRTEEN
from scoring.hand import REPLACEMENT_CIRCUMSTANCES
from scoring.tiles import (
    ANIMALS,
    DRAGONS,
    FACE,
    FLOWERS,
    FLY,
    SEASONS,
    SUIT_NAMES,
    TERMINALS,
    WINDS,
    Tile,
    is_honour,
    is_suited,
    rank_of,
    sort_key,
)
from scoring.view import Hit, Note, View

Outcome = Hit | Note | None
PatternTest = Callable[[View], Outcome]

GREEN: frozenset[Tile] = frozenset({"2s", "3s", "4s", "6s", "8s", "F"})


def hand_level(test: PatternTest) -> PatternTest:
    """Mark a pattern that reads only the hand, context and options, never the arrangement: the engine
    evaluates it once per hand instead of once per arrangement (fly-heavy hands have hundreds)."""
    test.hand_level = True  # type: ignore[attr-defined]
    return test


def is_hand_level(test: PatternTest) -> bool:
    return getattr(test, "hand_level", False)


# --- sets of honours -------------------------------------------------------------------------------------


def dragon_pong(v: View) -> Outcome:
    """三元: each pong or kong of a dragon."""
    dragons = tuple(tile for tile in v.pong_tiles if tile in DRAGONS)
    return Hit(v.sets_named(dragons), len(dragons)) if dragons else None


def seat_wind_pong(v: View) -> Outcome:
    """门风: pong or kong of the seat wind."""
    wind = v.context.seat_wind
    return Hit(f"{v.sets_named((wind,))}, the winner's seat wind") if wind in v.pong_tiles else None


def prevailing_wind_pong(v: View) -> Outcome:
    """圈风: pong or kong of the prevailing wind."""
    wind = v.context.prevailing_wind
    return Hit(f"{v.sets_named((wind,))}, the prevailing wind") if wind in v.pong_tiles else None


def east_north_pong(v: View) -> Outcome:
    """东/北: each pong or kong of East or North wind, for any seat (Malaysian)."""
    winds = tuple(tile for tile in v.pong_tiles if tile in ("E", "N"))
    return Hit(v.sets_named(winds), len(winds)) if winds else None


def small_three_dragons(v: View) -> Outcome:
    """小三元: two dragon pongs and the third dragon as the pair."""
    if v.standard and v.count_pongs(DRAGONS) == 2 and v.pair is not None and v.pair.tile in DRAGONS:
        return Hit("two dragon pongs and a pair of the third dragon")
    return None


def big_three_dragons(v: View) -> Outcome:
    """大三元: pongs of all three dragons."""
    return Hit("pongs of all three dragons") if v.count_pongs(DRAGONS) == 3 else None


def small_four_winds(v: View) -> Outcome:
    """小四喜: three wind pongs and the fourth wind as the pair."""
    if v.standard and v.count_pongs(WINDS) == 3 and v.pair is not None and v.pair.tile in WINDS:
        return Hit("three wind pongs and a pair of the fourth wind")
    return None


def big_four_winds(v: View) -> Outcome:
    """大四喜: pongs of all four winds."""
    return Hit("pongs of all four winds") if v.count_pongs(WINDS) == 4 else None


# --- bonus tiles -----------------------------------------------------------------------------------------


@hand_level
def animals(v: View) -> Outcome:
    """动物: each animal tile."""
    held = tuple(tile for tile in ANIMALS if v.bonus[tile])
    return Hit(f"animal{'s' if len(held) > 1 else ''}: {', '.join(held)}", len(held)) if held else None


@hand_level
def all_animals(v: View) -> Outcome:
    """四动物: all four animals."""
    return Hit("all four animals") if all(v.bonus[tile] for tile in ANIMALS) else None


@hand_level
def seat_flower(v: View) -> Outcome:
    """正花: the flower of the winner's seat (1 East, 2 South, 3 West, 4 North)."""
    flower = FLOWERS[v.seat - 1]
    return Hit(f"{flower} is the flower of the winner's seat") if v.bonus[flower] else None


@hand_level
def seat_season(v: View) -> Outcome:
    """正季: the season of the winner's seat."""
    season = SEASONS[v.seat - 1]
    return Hit(f"{season} is the season of the winner's seat") if v.bonus[season] else None


@hand_level
def fourth_flower(v: View) -> Outcome:
    """四号花: flower F4 scores for every seat (Malaysian); the North seat has it as its own."""
    return Hit("F4 scores for every seat") if v.bonus["F4"] and v.seat != 4 else None


@hand_level
def fourth_season(v: View) -> Outcome:
    """四号季: season S4 scores for every seat (Malaysian)."""
    return Hit("S4 scores for every seat") if v.bonus["S4"] and v.seat != 4 else None


@hand_level
def flower_set(v: View) -> Outcome:
    """一台花: all four flowers."""
    return Hit("all four flowers F1-F4") if all(v.bonus[tile] for tile in FLOWERS) else None


@hand_level
def season_set(v: View) -> Outcome:
    """一台季: all four seasons."""
    return Hit("all four seasons S1-S4") if all(v.bonus[tile] for tile in SEASONS) else None


@hand_level
def faces(v: View) -> Outcome:
    """花面: each face tile (Malaysian)."""
    count = v.bonus[FACE]
    return Hit(f"{count} face tile{'s' if count > 1 else ''}", count) if count else None


@hand_level
def all_faces(v: View) -> Outcome:
    """四面: all four face tiles (Malaysian)."""
    return Hit("all four face tiles") if v.bonus[FACE] >= 4 else None


@hand_level
def fly_bonus(v: View) -> Outcome:
    """飞: each fly kept aside as a bonus tile (Malaysian)."""
    count = v.bonus[FLY]
    return Hit(f"{count} fly kept as bonus", count) if count else None


@hand_level
def four_flies(v: View) -> Outcome:
    """四飞: all four fly tiles held, in the hand and the bonus row together (Malaysian)."""
    return Hit("all four fly tiles held") if v.fly_count() >= 4 else None


@hand_level
def eight_flowers(v: View) -> Outcome:
    """花胡: all eight flowers and seasons; the hand itself does not matter."""
    return Hit("all eight flowers and seasons") if all(v.bonus[tile] for tile in FLOWERS + SEASONS) else None


@hand_level
def robbing_eighth(v: View) -> Outcome:
    """七抢一: seven flowers held, winning on the eighth drawn by another player."""
    return Hit("seven flowers, robbing the eighth") if v.circumstance("robbing_eighth") else None


# --- hand shape ------------------------------------------------------------------------------------------


def all_pongs(v: View) -> Outcome:
    """对对胡: four pongs or kongs and a pair."""
    return Hit("four pongs or kongs and a pair") if v.all_pongs else None


def _one_suit(v: View) -> bool:
    return v.tiled and len(v.suits) == 1


def half_flush(v: View) -> Outcome:
    """混一色: one suit plus honours."""
    if _one_suit(v) and v.has_honours:
        return Hit(f"one suit, {SUIT_NAMES[next(iter(v.suits))]}, plus honours")
    return None


def full_flush(v: View) -> Outcome:
    """清一色: one suit, no honours."""
    if _one_suit(v) and not v.has_honours:
        return Hit(f"every tile is {SUIT_NAMES[next(iter(v.suits))]}")
    return None


def full_flush_all_pongs(v: View) -> Outcome:
    """清一色对对胡: full flush and all pongs together earn 2 more."""
    return Hit("full flush with all pongs") if v.all_pongs and full_flush(v) else None


def pure_green(v: View) -> Outcome:
    """绿一色: only 2 3 4 6 8 bamboo and green dragon (option `pure_green`)."""
    if not (v.tiled and v.tiles and all(tile in GREEN for tile in v.tiles)):
        return None
    if not v.options.pure_green:
        return Note("pure green not scored: option pure_green is off (scored as a flush)")
    return Hit("only green tiles: 2 3 4 6 8 bamboo and green dragon")


def mixed_terminals(v: View) -> Outcome:
    """混么九: terminals and honours only, all pongs."""
    if not (v.all_pongs and all(tile in TERMINALS or is_honour(tile) for tile in v.tiles)):
        return None
    if v.has_honours and any(tile in TERMINALS for tile in v.tiles):
        return Hit("only ones, nines and honours, all pongs")
    return None


def pure_terminals(v: View) -> Outcome:
    """清么九: only ones and nines."""
    return Hit("only ones and nines") if v.standard and all(tile in TERMINALS for tile in v.tiles) else None


def all_honours(v: View) -> Outcome:
    """字一色: only winds and dragons, as four sets and a pair or (Malaysian) seven pairs: the tiles make
    the pattern, as they make a flush of seven pairs."""
    shaped = v.standard or v.shape == SEVEN_PAIRS
    return Hit("only winds and dragons") if shaped and all(is_honour(tile) for tile in v.tiles) else None


def nine_gates(v: View) -> Outcome:
    """九莲宝灯: 1112345678999 of one suit waiting on any tile of that suit."""
    if not (v.standard and _one_suit(v)) or not v.all_suited or v.kongs:
        return None
    ranks = [rank_of(tile) for tile in v.tiles]
    needed = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    gates = [rank for rank, n in enumerate(needed, 1) for _ in range(n)]
    winning = v.context.winning_tile
    if winning is None:
        if any(ranks.count(rank) < n for rank, n in enumerate(needed, 1)):
            return None
    elif not any(_without(ranks, rank_of(tile)) == gates for tile in _won_as(v, winning)):
        return None
    return Hit("1112345678999 of one suit plus any tile of that suit")


def _won_as(v: View, winning: Tile) -> set[Tile]:
    """The tiles the winning tile stands for in this reading: a winning `fly` is whatever a fly of the
    reading stands for (a mutation audit, stage 82: won on a fly, nine gates was never found, where won
    on the tile the fly stands for it was)."""
    if winning == FLY:
        return {tile for group in v.arrangement.groups for tile in group.fly_for}
    return {winning} & set(v.tiles)


def _without(ranks: list[int], rank: int) -> list[int]:
    rest = sorted(ranks)
    rest.remove(rank)
    return rest


def thirteen_wonders(v: View) -> Outcome:
    """十三幺: one of each terminal and honour plus a pair of one of them."""
    return Hit("one of each terminal and honour, plus a pair") if v.shape == THIRTEEN else None


def hidden_treasure(v: View) -> Outcome:
    """坎坎胡: four concealed pongs (concealed kongs count), self-drawn."""
    if v.all_pongs and all(group.concealed for group in v.sets):
        if v.context.self_drawn:
            return Hit("four concealed pongs, self-drawn")
        return Note("four concealed pongs make hidden treasure only when self-drawn")
    return None


def four_kongs(v: View) -> Outcome:
    """十八罗汉: four kongs."""
    return Hit("four kongs") if v.kongs == 4 else None


def declared_kongs(v: View) -> Outcome:
    """杠: each kong declared (Malaysian)."""
    return Hit(f"{v.kongs} kong{'s' if v.kongs > 1 else ''} declared", v.kongs) if v.kongs else None


def seven_pairs(v: View) -> Outcome:
    """七对: seven different pairs (Malaysian)."""
    return Hit("seven pairs") if v.shape == SEVEN_PAIRS else None


def all_dots_seven_pairs(v: View) -> Outcome:
    """筒子对对: seven pairs, all dots (Malaysian)."""
    if v.shape == SEVEN_PAIRS and v.all_suited:
        return Hit("seven pairs of dots")
    return None


# --- sequence hands --------------------------------------------------------------------------------------


def _value_pair(v: View, value: frozenset[Tile]) -> bool:
    return v.pair is not None and v.pair.tile in value


def _sequence_shape(v: View) -> bool:
    """Four chows and a pair that scores nothing (Singapore: not a dragon, seat or prevailing wind)."""
    return v.all_chows and not _value_pair(v, v.facts.value_pair)


def _wait_problem(v: View) -> str | None:
    """Why the wait fails the sequence-hand rule, or None when it passes (seeds/001, RULES.md)."""
    # counted before the win: a discard that completed the fourth chow was waited on by its other two
    before_win = v.facts.melds_before_win()
    exposed_chows = sum(1 for meld in before_win if meld.kind == "chow" and not meld.concealed)
    if exposed_chows == 4:
        return "four exposed chows leave a single-tile wait, which never makes a sequence hand"
    if v.context.self_drawn:
        return None
    winning = v.context.winning_tile
    if winning is None:
        return "no winning tile given, so the wait of a discard win cannot be checked"
    waits = v.facts.sequence_waits()
    if len(waits) >= 2:
        return None
    dead = sorted(v.facts.dead_waits(), key=sort_key)
    held = f"; {' and '.join(dead)} would have too, but the hand holds all four" if dead else ""
    return (
        f"won on {winning} from a discard with a closed, edge or single wait (only one tile completed it as "
        f"four chows and a pair{held})"
    )


def _scoring_pair_note(v: View, name: str, reasons: tuple[tuple[bool, str], ...], rule: str) -> Outcome:
    """Four chows whose pair is one the rule set's all-chows hand may not have (`reasons`: whether the
    pair is each kind, in words): the one thing between them and that hand, said with its `rule` (a
    player will argue exactly this); None for any other hand."""
    if not v.all_chows or v.pair is None or not _value_pair(v, v.facts.value_pair):
        return None
    what = " and ".join(words for holds, words in reasons if holds)
    return Note(f"{name} not awarded: its pair {v.pair.tile}{v.pair.tile} is {what} ({rule})")


def _singapore_pair_note(v: View, name: str) -> Outcome:
    tile = v.pair.tile if v.pair is not None else None
    reasons = (
        (tile in DRAGONS, "a dragon"),
        (tile == v.context.seat_wind, "the seat wind"),
        (tile == v.context.prevailing_wind, "the prevailing wind"),
    )
    return _scoring_pair_note(
        v, name, reasons, "the pair may not be a dragon, the seat wind or the prevailing wind"
    )


def sequence_hand(v: View) -> Outcome:
    """平胡: four chows, a plain pair, no bonus tiles, won on a wait for at least two tiles."""
    if v.bonus_tiles:
        return None
    if not _sequence_shape(v):
        return _singapore_pair_note(v, "sequence hand")
    problem = _wait_problem(v)
    if problem:
        return Note(f"sequence hand not awarded: {problem}")
    return Hit(f"four chows and a plain pair, no bonus tiles, {_wait_words(v)}")


def _wait_words(v: View) -> str:
    """The wait a sequence hand passed on, as a table checks it: which tiles it waited on and where the
    winning tile went (an audit, stage 81: a win whose 4m counted as completing an exposed 23m was a fair
    wait, read into the pair it was a single one, and the line said only "fair wait")."""
    winning = v.context.winning_tile
    waits = sorted(v.facts.sequence_waits(), key=sort_key)
    said = f"waited on {' or '.join(waits)}" if len(waits) >= 2 else ""
    if winning is None or not waits:
        return "self-drawn, on any wait"
    won = "self-drawn" if v.context.self_drawn else "a discard"
    into = f", completing the {v.facts.won_into}" if v.facts.won_into is not None else ""
    if not said:
        return f"a closed, edge or single wait on {winning}, which counts when self-drawn"
    return f"fair wait: {said}, won on {winning} ({won}){into}"


def lesser_sequence_hand(v: View) -> Outcome:
    """小平胡: the sequence hand with bonus tiles; wait rule only with option `lesser_sequence_wait_rule`."""
    if not v.bonus_tiles:
        return None
    if not _sequence_shape(v):
        return _singapore_pair_note(v, "lesser sequence hand")
    if v.options.lesser_sequence_wait_rule:
        problem = _wait_problem(v)
        if problem:
            return Note(f"lesser sequence hand not awarded: {problem}")
    return Hit("four chows and a plain pair, with bonus tiles")


def full_flush_sequence(v: View) -> Outcome:
    """清一色平胡: full flush and sequence hand together."""
    outcome = sequence_hand(v)
    if isinstance(outcome, Hit) and full_flush(v):
        return Hit(f"full flush sequence hand: {outcome.reason}")  # its wait said, as the sequence hand's
    return None


def all_sequences_dots_pair(v: View) -> Outcome:
    """平和: all chows with a pair of dots (Malaysian)."""
    if v.all_chows and v.pair is not None and is_suited(v.pair.tile):
        return Hit("all chows and a pair of dots")
    return None


def ping_hu(v: View) -> Outcome:
    """平胡: all chows, no bonus tiles, a pair that scores nothing (Malaysian; any wait)."""
    if v.bonus_tiles:
        return None
    if _sequence_shape(v):
        return Hit("all chows, no bonus tiles, a pair that scores nothing")
    tile = v.pair.tile if v.pair is not None else None
    reasons = (
        (tile in DRAGONS, "a dragon"),
        (tile == "E", "East"),
        (tile == "N", "North"),
        (tile == v.context.seat_wind, "the seat wind"),
    )
    return _scoring_pair_note(
        v, "ping hu", reasons, "a ping hu's pair may not be a dragon, East, North or the seat wind"
    )


# --- how the hand was won --------------------------------------------------------------------------------


@hand_level
def fully_concealed(v: View) -> Outcome:
    """门清: no chow, pong or exposed kong, self-drawn (option `fully_concealed_tai`)."""
    if not (v.context.self_drawn and not v.exposed):
        return None
    if not v.options.fully_concealed_tai:
        return Note("fully concealed not scored: option fully_concealed_tai is off")
    return Hit("no exposed melds and self-drawn")


@hand_level
def self_drawn(v: View) -> Outcome:
    """自摸: self-drawn win (option `self_draw_tai`)."""
    return Hit("self-drawn") if v.options.self_draw_tai and v.context.self_drawn else None


@hand_level
def replacement_tile(v: View) -> Outcome:
    """花上/杠上: won on a replacement tile after a flower or a kong."""
    if any(v.circumstance(name) for name in REPLACEMENT_CIRCUMSTANCES):
        return Hit("won on a replacement tile")
    return None


@hand_level
def kong_on_kong(v: View) -> Outcome:
    """杠上杠: won on the replacement tile of a second kong in a row."""
    return Hit("won on the replacement of a second kong in a row") if v.circumstance("kong_on_kong") else None


@hand_level
def robbing_kong(v: View) -> Outcome:
    """抢杠: won on the tile another player added to a pong to make a kong."""
    return Hit("won by robbing a kong") if v.circumstance("robbing_kong") else None


@hand_level
def last_tile(v: View) -> Outcome:
    """海底捞月: self-drawn win on the last tile of the wall (not on a replacement draw)."""
    if not v.circumstance("last_tile"):
        return None
    if replacement_tile(v):
        return Note("last tile not scored: the last tile was a replacement draw")
    return Hit("self-drawn the last tile of the wall")


@hand_level
def heavenly(v: View) -> Outcome:
    """天胡: East wins on the dealt hand."""
    return Hit("East won on the dealt hand") if v.circumstance("heavenly") else None


@hand_level
def earthly(v: View) -> Outcome:
    """地胡: a non-dealer wins on the dealer's first discard or on the first draw."""
    if not v.circumstance("earthly"):
        return None
    return Hit("won on the first draw" if v.context.self_drawn else "won on the dealer's first discard")


@hand_level
def humanly(v: View) -> Outcome:
    """人胡: a non-dealer wins on a discard in the first go-around (option `humanly_hand`)."""
    if not v.circumstance("humanly"):
        return None
    if not v.options.humanly_hand:
        return Note("humanly hand not scored: option humanly_hand is off")
    return Hit("won on a discard in the first go-around")


# --- Malaysian bombs (double the fan once) ---------------------------------------------------------------


@hand_level
def bomb_concealed_self_draw(v: View) -> Outcome:
    """门清自摸: fully concealed and self-drawn."""
    return Hit("fully concealed self-draw") if v.context.self_drawn and not v.exposed else None


@hand_level
def bomb_concealed_discard(v: View) -> Outcome:
    """门清吃胡: fully concealed hand winning on a discard (robbing a kong counts as a discard)."""
    if v.context.self_drawn:
        return None
    if v.exposed:
        return _laid_before_the_win_note(v)
    won_into = v.facts.won_into
    if won_into is None:
        return Hit("fully concealed hand won on a discard")
    completed = f"{won_into.kind} {won_into.face_text}"
    return Hit(f"fully concealed until the winning discard completed the {completed}")


def _laid_before_the_win_note(v: View) -> Outcome:
    """With no winning tile given, a hand whose one open set could be the one the winning discard
    completed is taken as opened before the win: the winning tile alone decides the bomb, so say so."""
    if v.context.winning_tile is not None:
        return None
    open_sets = [meld for meld in v.hand.melds if not meld.concealed]
    if len(open_sets) != 1 or open_sets[0].kind == "kong":  # no win completes a kong
        return None
    laid = f"{open_sets[0].kind} {open_sets[0].face_text}"
    return Note(
        f"fully concealed discard bomb not awarded: the {laid} is taken as laid down before the win; "
        "if the winning discard completed it, give that tile as the winning tile"
    )


@hand_level
def bomb_last_tile(v: View) -> Outcome:
    """海底捞月: won on the last tile."""
    return Hit("won on the last tile") if v.circumstance("last_tile") else None


@hand_level
def bomb_kong_replacement(v: View) -> Outcome:
    """杠上开花: won on the replacement tile of a kong.

    A plain `replacement_tile` counts as a kong replacement when the hand has a kong and no bonus tile, since
    nothing else can have been replaced.
    """
    if v.circumstance("kong_replacement") or v.circumstance("kong_on_kong"):
        return Hit("won on a kong replacement tile")
    has_kong = any(meld.kind == "kong" for meld in v.hand.melds)
    if v.circumstance("replacement_tile") and has_kong and not v.bonus_tiles:
        return Hit("won on a kong replacement tile (the hand has a kong and no bonus tile)")
    if v.circumstance("replacement_tile") and has_kong:
        # a kong and bonus tiles: either could have been replaced, and only the kong's is a bomb
        return Note(
            "kong replacement bomb not awarded: with a kong and bonus tiles, a replacement tile is taken "
            "as a flower's; if it replaced the kong, choose the kong's replacement tile instead"
        )
    return None
