"""What a pattern function sees: one arrangement of the hand, with the facts patterns ask about.

Facts that depend only on the hand (the sequence-hand waits) are computed once per hand in `HandFacts` and
shared by the views of all its arrangements.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from scoring.decompose import CODES, EIGHT_FLOWERS, STANDARD, Arrangement, Group, can_complete_all_chows
from scoring.hand import Context, Hand, Meld
from scoring.options import Options
from scoring.tiles import FLY, TILE_NAMES, Tile, is_honour, is_suited, suit_of

SEAT_NUMBER: dict[Tile, int] = {"E": 1, "S": 2, "W": 3, "N": 4}


@dataclass(frozen=True)
class Hit:
    """A pattern that applies `count` times (e.g. two dragon pongs), with a one-line reason."""

    reason: str
    count: int = 1


@dataclass(frozen=True)
class Note:
    """A pattern that nearly applied and was not awarded: the reason becomes a warning."""

    warning: str


@dataclass
class HandFacts:
    """Per-hand facts shared by every arrangement (computed lazily, at most once)."""

    hand: Hand
    context: Context
    value_pair: frozenset[Tile]
    # the chow or pong the winning discard completed, laid down with the melds; None: the winning tile
    # went into the concealed tiles (one of `scoring.hand.places_won_into`)
    won_into: Meld | None = None
    _waits: tuple[frozenset[Tile], frozenset[Tile]] | None = field(default=None, init=False)

    def sequence_waits(self) -> frozenset[Tile]:
        """Tiles that would complete the hand before the winning tile into four chows and a plain pair."""
        return self._both_waits()[0]

    def dead_waits(self) -> frozenset[Tile]:
        """Tiles that would complete it so but that the hand holds all four of: no wait (an audit,
        stage 81: 45m waiting on 3m and a 6m all four of which were held read as a plain edge wait)."""
        return self._both_waits()[1]

    def _both_waits(self) -> tuple[frozenset[Tile], frozenset[Tile]]:
        if self._waits is None:
            self._waits = self._compute_waits()
        return self._waits

    def melds_before_win(self) -> list[Meld]:
        """The melds laid down before the winning tile came (all but `won_into`)."""
        melds = list(self.hand.melds)
        if self.won_into is not None:
            melds.remove(self.won_into)
        return melds

    def _compute_waits(self) -> tuple[frozenset[Tile], frozenset[Tile]]:
        winning = self.context.winning_tile
        none: tuple[frozenset[Tile], frozenset[Tile]] = (frozenset(), frozenset())
        if winning is None:
            return none
        concealed = list(self.hand.concealed)
        melds = self.melds_before_win()
        if self.won_into is not None:
            rest = list(self.won_into.tiles)
            rest.remove(winning)
            concealed.extend(rest)
        elif winning in concealed:
            concealed.remove(winning)
        else:
            return none
        # a chow given as concealed was never laid down: its tiles waited with the rest (an audit, stage
        # 78: 456m given so left 4567778899m's wait on 4m or 7m a single wait, and no sequence hand)
        for meld in melds:
            if meld.concealed and meld.kind == "chow":
                concealed.extend(meld.tiles)
        melds = [meld for meld in melds if not (meld.concealed and meld.kind == "chow")]
        if any(meld.kind != "chow" for meld in melds):
            return none
        held = Counter(concealed)
        for meld in melds:
            held.update(meld.tiles)
        sets = 4 - len(melds)
        waits: set[Tile] = set()
        dead: set[Tile] = set()
        for tile in CODES:
            splits = can_complete_all_chows([*concealed, tile], sets)
            if any(_pair_tile(split) not in self.value_pair for split in splits):
                # all four copies already in the hand: nothing left to wait for
                (dead if held[tile] >= 4 else waits).add(tile)
        return frozenset(waits), frozenset(dead)


def _pair_tile(groups: tuple[Group, ...]) -> Tile:
    return next(group.tile for group in groups if group.kind == "pair")


@dataclass(frozen=True)
class View:
    """One arrangement of a hand in its context, under the chosen options."""

    arrangement: Arrangement
    hand: Hand
    context: Context
    options: Options
    facts: HandFacts

    @property
    def shape(self) -> str:
        return self.arrangement.shape

    @property
    def standard(self) -> bool:
        return self.arrangement.shape == STANDARD

    @cached_property
    def sets(self) -> tuple[Group, ...]:
        return tuple(group for group in self.arrangement.groups if group.is_set)

    @cached_property
    def pair(self) -> Group | None:
        return next((group for group in self.arrangement.groups if group.kind == "pair"), None)

    @cached_property
    def pong_tiles(self) -> tuple[Tile, ...]:
        """The tile of each pong or kong."""
        return tuple(group.tile for group in self.sets if group.is_pong)

    def sets_named(self, tiles: tuple[Tile, ...]) -> str:
        """The hand's pong or kong of each of `tiles`, for reasons: `pong of red dragon, kong of East`."""
        kongs = {group.tile for group in self.sets if group.kind == "kong"}
        return ", ".join(
            f"{'kong' if tile in kongs else 'pong'} of {TILE_NAMES.get(tile, tile)}" for tile in tiles
        )

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles of the hand proper as read (a fly counted as the tile it stands for)."""
        return tuple(self.arrangement.tiles)

    @cached_property
    def suits(self) -> frozenset[str]:
        return frozenset(suit_of(tile) or "" for tile in self.tiles if is_suited(tile))

    @cached_property
    def has_honours(self) -> bool:
        return any(is_honour(tile) for tile in self.tiles)

    @cached_property
    def all_suited(self) -> bool:
        return self.tiled and all(is_suited(tile) for tile in self.tiles)

    @cached_property
    def bonus(self) -> Counter[Tile]:
        return Counter(self.hand.bonus)

    @property
    def bonus_tiles(self) -> int:
        return len(self.hand.bonus)

    @cached_property
    def all_chows(self) -> bool:
        return self.standard and all(group.kind == "chow" for group in self.sets)

    @cached_property
    def all_pongs(self) -> bool:
        return self.standard and all(group.is_pong for group in self.sets)

    @cached_property
    def exposed(self) -> bool:
        """Whether a meld was exposed before the winning tile came (a concealed kong keeps the hand
        concealed). The set a winning discard completed lies with the melds but was held concealed
        until then, so it does not open the hand."""
        return any(not meld.concealed for meld in self.facts.melds_before_win())

    @property
    def kongs(self) -> int:
        return sum(1 for group in self.sets if group.kind == "kong")

    @property
    def seat(self) -> int:
        return SEAT_NUMBER[self.context.seat_wind]

    def circumstance(self, name: str) -> bool:
        return name in self.context.circumstances

    def count_pongs(self, tiles: tuple[Tile, ...]) -> int:
        return sum(1 for tile in self.pong_tiles if tile in tiles)

    def fly_count(self) -> int:
        """Physical `fly` tiles in the hand and the bonus row together."""
        return self.hand.all_tiles().count(FLY)

    @property
    def tiled(self) -> bool:
        """Whether the arrangement reads actual tiles (eight flowers ignores the hand)."""
        return self.arrangement.shape != EIGHT_FLOWERS
