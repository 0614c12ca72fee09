"""Every arrangement of a hand into sets and a pair (plus seven pairs and thirteen wonders), found once.

Scoring is kept apart (STYLE.md: decompose, then score): an `Arrangement` only says which groups the tiles
form and what a wild `fly` stands for in each. Malaysian `fly` rules (wild in concealed pongs, chows and
pairs and in exposed pongs; never in a kong; at most one in an exposed chow; never a fifth copy) live here.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from scoring.hand import Hand, Meld
from scoring.tiles import (
    FLY,
    HONOURS,
    SUITED,
    THIRTEEN_WONDERS,
    Tile,
    format_hand,
    is_suited,
    rank_of,
    shifted,
    sort_key,
)

CODES: tuple[Tile, ...] = SUITED + HONOURS
INDEX: dict[Tile, int] = {code: index for index, code in enumerate(CODES)}

STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN = "thirteen_wonders"
EIGHT_FLOWERS = "eight_flowers"


@dataclass(frozen=True, order=True)
class Group:
    """One set or the pair of an arrangement.

    `tile` is what a pong/kong/pair is made of, or the lowest tile of a chow; `fly_for` lists the tiles the
    wild `fly` tiles stand for; `declared` marks a meld laid down by the player, `concealed` a hidden group.
    """

    kind: str
    tile: Tile
    fly_for: tuple[Tile, ...] = ()
    declared: bool = False
    concealed: bool = True

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles this group stands for (a fly counted as the tile it replaces)."""
        return _group_tiles(self.kind, self.tile)

    @property
    def is_set(self) -> bool:
        return self.kind in ("chow", "pong", "kong")

    @property
    def is_pong(self) -> bool:
        return self.kind in ("pong", "kong")

    def __str__(self) -> str:
        text = format_hand(self.tiles)
        if self.fly_for:
            text += f"(fly={'/'.join(self.fly_for)})"
        if self.declared:
            text = f"[{text}]" if not self.concealed else f"<{text}>"
        return text


@lru_cache(maxsize=1024)
def _group_tiles(kind: str, tile: Tile) -> tuple[Tile, ...]:
    if kind == "chow":
        return (tile, shifted(tile, 1) or "", shifted(tile, 2) or "")
    return (tile,) * {"single": 1, "pair": 2, "pong": 3, "kong": 4}[kind]


@dataclass(frozen=True)
class Arrangement:
    """A way to read the whole hand: its shape and its groups (sets first, the pair last)."""

    shape: str
    groups: tuple[Group, ...] = ()

    @property
    def tiles(self) -> list[Tile]:
        return [tile for group in self.groups for tile in group.tiles]

    def __str__(self) -> str:
        if self.shape == EIGHT_FLOWERS:
            return "eight flowers"
        return " ".join(str(group) for group in self.groups)


def meld_readings(meld: Meld) -> list[Group]:
    """The groups a declared meld can stand for: one, or two for a chow whose fly fits at either end."""
    real = meld.real_tiles
    if meld.kind != "chow":
        return [Group(meld.kind, real[0], (real[0],) * meld.flies, True, meld.concealed)]
    suit = real[0][1]
    ranks = sorted(rank_of(tile) for tile in real)
    readings = []
    for start in range(max(1, ranks[-1] - 2), min(ranks[0], 7) + 1):
        missing = tuple(f"{rank}{suit}" for rank in range(start, start + 3) if rank not in ranks)
        readings.append(Group("chow", f"{start}{suit}", missing, True, meld.concealed))
    return readings


def _take(counts: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return (*counts[:index], counts[index] - amount, *counts[index + 1 :])


def _fly_only_groups(flies: int, sets: int, pair: int, types: tuple[Tile, ...]) -> list[tuple[Group, ...]]:
    """Groups made of flies alone, each standing for any tile of the set in play (at most one such group)."""
    if flies != 3 * sets + 2 * pair:
        return []
    if flies == 0:
        return [()]
    if flies == 2:
        return [(Group("pair", tile, (tile, tile)),) for tile in types]
    if flies == 3:
        pongs: list[tuple[Group, ...]] = [(Group("pong", tile, (tile,) * 3),) for tile in types]
        chows: list[tuple[Group, ...]] = [
            (Group("chow", tile, (tile, shifted(tile, 1) or "", shifted(tile, 2) or "")),)
            for tile in types
            if is_suited(tile) and rank_of(tile) <= 7 and shifted(tile, 2) in types
        ]
        return pongs + chows
    return []  # four or more flies left over cannot form one set or pair each


@lru_cache(maxsize=65536)
def _split(
    counts: tuple[int, ...], flies: int, sets: int, pair: int, types: tuple[Tile, ...]
) -> tuple[tuple[Group, ...], ...]:
    """All ways to split concealed tiles (counts by `CODES` index, plus wild flies) into sets and a pair.

    The lowest real tile must belong to some group, so only groups containing it are tried. A fly replaces a
    real tile only where none is left: swapping a fly with a real tile of another group reads the same.
    """
    first = next((index for index, count in enumerate(counts) if count), None)
    if first is None:
        return tuple(_fly_only_groups(flies, sets, pair, types))
    tile = CODES[first]
    count = counts[first]
    found: list[tuple[Group, ...]] = []

    def extend(group: Group, rest: tuple[int, ...], flies_left: int, sets_left: int, pair_left: int) -> None:
        for tail in _split(rest, flies_left, sets_left, pair_left, types):
            found.append((group, *tail))

    # a pong, then the pair, of the lowest tile: as many real copies as there are, flies for the rest
    for kind, size, left in (("pong", 3, sets), ("pair", 2, pair)):
        real = min(size, count)
        if left and size - real <= flies:
            extend(
                Group(kind, tile, (tile,) * (size - real)),
                _take(counts, first, real),
                flies - size + real,
                sets - (kind == "pong"),
                pair - (kind == "pair"),
            )
    if sets and is_suited(tile):
        rank = rank_of(tile)
        for start in range(max(1, rank - 2), min(rank, 7) + 1):
            rest = _take(counts, first, 1)
            fly_for: list[Tile] = []
            for step in range(3):
                other = f"{start + step}{tile[1]}"
                if other == tile:
                    continue
                other_index = INDEX[other]
                if other_index > first and rest[other_index]:
                    rest = _take(rest, other_index, 1)
                else:
                    fly_for.append(other)
            if len(fly_for) <= flies:
                extend(
                    Group("chow", f"{start}{tile[1]}", tuple(fly_for)),
                    rest,
                    flies - len(fly_for),
                    sets - 1,
                    pair,
                )
    return tuple(found)


def _counts(tiles: Iterable[Tile]) -> tuple[tuple[int, ...], int]:
    counter = Counter(tiles)
    return tuple(counter.get(code, 0) for code in CODES), counter.get(FLY, 0)


def _display_order(group: Group) -> tuple[object, ...]:
    """Concealed groups first, then declared melds, each in tile order (1m..9s, winds, dragons) of all
    its tiles, as a hand is written: by its first tile alone, 123p (a chow's tile) came before 111p and
    a reading printed `123p 111p 456p` (an audit). One order for every rule set's reading."""
    # of one first tile, a pong or kong (1p 1p 1p) comes before the chow (1p 2p 3p): the tile order of
    # all their tiles, at the cost of the first tile's key (this key sorts every reading of every hand)
    return (
        group.declared,
        sort_key(group.tile),
        group.kind == "chow",
        group.kind,
        group.fly_for,
        group.concealed,
    )


def _within_copies(groups: Iterable[Group]) -> bool:
    """No tile stands for a fifth copy once flies are read as the tiles they replace."""
    counter = Counter(tile for group in groups for tile in group.tiles)
    return all(count <= 4 for count in counter.values())


def standard_arrangements(hand: Hand, types: tuple[Tile, ...]) -> list[Arrangement]:
    """Four sets and a pair: declared melds as laid down, the concealed tiles split every possible way."""
    sets = 4 - len(hand.melds)
    if sets < 0 or len(hand.concealed) != 3 * sets + 2:
        return []
    counts, flies = _counts(hand.concealed)
    splits = _split(counts, flies, sets, 1, types)
    if not splits:
        return []
    # Readings that differ only in which tile a fly replaces score alike: keep one of each.
    seen: set[tuple[tuple[str, Tile, bool, bool], ...]] = set()
    found = []
    for melds in itertools.product(*(meld_readings(meld) for meld in hand.melds)):
        for split in splits:
            sets_part = sorted((group for group in (*melds, *split) if group.is_set), key=_display_order)
            pair_part = [group for group in split if not group.is_set]
            groups = (*sets_part, *pair_part)
            signature = tuple((group.kind, group.tile, group.declared, group.concealed) for group in groups)
            if signature not in seen and _within_copies(groups):
                seen.add(signature)
                found.append(Arrangement(STANDARD, groups))
    return found


def seven_pairs_arrangements(hand: Hand, types: tuple[Tile, ...]) -> list[Arrangement]:
    """Seven different pairs from the concealed hand (no melds); a fly completes a pair or pairs a fly."""
    if hand.melds or len(hand.concealed) != 14:
        return []
    counter = Counter(hand.concealed)
    flies = counter.pop(FLY, 0)
    if any(count > 2 for count in counter.values()):
        return []  # four of a kind is not two pairs here: the pairs of seven pairs differ
    singles = [tile for tile, count in counter.items() if count == 1]
    if len(singles) > flies:
        return []
    pairs = [Group("pair", tile, (tile,) * (2 - count)) for tile, count in counter.items()]
    spare = (flies - len(singles)) // 2
    free = [tile for tile in types if tile not in counter]
    found = []
    for extra in itertools.combinations(free, spare):
        groups = tuple(
            sorted(pairs + [Group("pair", tile, (tile, tile)) for tile in extra], key=_display_order)
        )
        found.append(Arrangement(SEVEN_PAIRS, groups))
    return found


def thirteen_wonders_arrangement(hand: Hand) -> list[Arrangement]:
    """One of each terminal and honour plus a second of one of them, all concealed."""
    if hand.melds or len(hand.concealed) != 14 or set(hand.concealed) != set(THIRTEEN_WONDERS):
        return []
    double = next(tile for tile in THIRTEEN_WONDERS if hand.concealed.count(tile) == 2)
    singles = tuple(Group("single", tile) for tile in THIRTEEN_WONDERS if tile != double)
    return [Arrangement(THIRTEEN, (*singles, Group("pair", double)))]


def can_complete_all_chows(concealed: Iterable[Tile], sets: int) -> list[tuple[Group, ...]]:
    """Splits of concealed tiles (no flies) into `sets` chows and a pair (the sequence-hand wait rule)."""
    counts, flies = _counts(concealed)
    if flies:
        return []
    return [split for split in _split(counts, 0, sets, 1, CODES) if all(g.kind != "pong" for g in split)]


def sets_and_pair(tiles: Iterable[Tile], sets: int) -> bool:
    """Whether `tiles` (no bonus tile) make exactly `sets` sets and a pair, a kong being a set of four:
    the concealed part of a hand whose other 4 - `sets` sets lie declared beside it. A `fly` is wild
    in a pong, chow or pair (never in a kong), as in `standard_arrangements`."""
    counter = Counter(tiles)
    flies = counter.pop(FLY, 0)
    if sets < 0 or any(tile not in INDEX or count > 4 for tile, count in counter.items()):
        return False
    kongs = sum(counter.values()) + flies - (3 * sets + 2)
    if not 0 <= kongs <= sets:
        return False
    fours = [tile for tile, count in counter.items() if count == 4]
    for kong_tiles in itertools.combinations(fours, kongs):
        rest = counter - Counter({tile: 4 for tile in kong_tiles})
        kong_groups = tuple(Group("kong", tile) for tile in kong_tiles)
        for split in _split(tuple(rest.get(code, 0) for code in CODES), flies, sets - kongs, 1, CODES):
            if _within_copies((*kong_groups, *split)):  # a fly never stands for a fifth copy
                return True
    return False


def winning_shape(tiles: Iterable[Tile]) -> bool:
    """Whether `tiles`, every tile of a hand with its melds (no bonus tile, no `fly`), can make a win of
    some rule set: four sets and a pair (a kong being a set of four), seven pairs or thirteen wonders.

    Where the tiles lie is not asked: this is for a reader checking its reading of a photo, not for scoring.
    """
    tiles = list(tiles)
    if FLY in tiles:
        return False
    if sets_and_pair(tiles, 4):
        return True
    counter = Counter(tiles)
    if sum(counter.values()) != 14 or any(tile not in INDEX for tile in counter):
        return False
    seven_pairs = len(counter) == 7 and all(count == 2 for count in counter.values())
    return seven_pairs or set(counter) == set(THIRTEEN_WONDERS)
