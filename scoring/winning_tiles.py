"""The tiles that may have won a hand, and the hand scored with each: a photo cannot show which tile won.

A sequence hand scored without its winning tile is refused its pattern (the wait decides it), so a
hand worth 4 tai would read "not a valid win". The app's result and the command line's breakdown both
score the hand once with each tile that may have won it and, where the answers differ from the one
shown, say so tile by tile ("Won on 1m, 4p or 9s: 4 tai; 2m or 5p: not a win").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.api import score_json
from scoring.engine import drawn_by_winner
from scoring.errors import MalformedHandError, OptionError
from scoring.hand import winnable_in
from scoring.rulesets import DEFAULT_RULESET, circumstances_for, get_ruleset
from scoring.tiles import BONUS, sorted_tiles

NOT_IN_HAND = "winning_tile_not_in_hand"  # the scoring's reason for a tile that cannot have won the hand


@dataclass(frozen=True)
class Outcome:
    """The hand scored with `tiles` (each alike) as its winning tile: a win of `tai`, or no win."""

    tiles: tuple[str, ...]
    valid: bool
    tai: int


def scored_as_self_drawn(said: bool, bonus: Iterable[str], circumstances: Iterable[str], rules: str) -> bool:
    """Whether the scoring takes the win as self-drawn: as `said`, or drawn by the winner whatever was
    said (a replacement tile, eight flowers), as the scoring decides. One reading for the winning-tile
    box and the ways the result asks about, so that both offer the same tiles; a circumstance the rule
    set does not offer is no part of it (the box keeps it while another rule set's is chosen)."""
    offered = set(circumstances_for(rules))
    ticked = [c for c in circumstances if c in offered]
    return said or bool(drawn_by_winner(tuple(bonus), ticked, get_ruleset(rules)))


def input_scored_as_self_drawn(data: Mapping[str, Any]) -> bool:
    """`scored_as_self_drawn` of a scoring input's fields (`self_drawn`, `bonus`, `circumstances`,
    `rules`)."""
    return scored_as_self_drawn(
        bool(data.get("self_drawn")),
        data.get("bonus") or (),
        data.get("circumstances") or (),
        str(data.get("rules") or DEFAULT_RULESET),
    )


def hand_tile_choices(hand: Mapping[str, Any], self_drawn: bool = False) -> list[str]:
    """Distinct codes that can be the winning tile, in the suits' order (the table's order, as a photo
    lies, is hard to scan in a list of ten): the concealed tiles' and the chows' and pongs' (a discard
    that completes a set lays it out with the melds). Not a kong's alone: no win completes a kong, so
    the scoring refuses one there; nor, `self_drawn`, one only in a set laid out exposed (claimed from
    a discard: an audit picked 7s of an exposed 678s chow and was told "not a valid win"). A `fly`
    among the concealed tiles may be the tile drawn last (seeds/004: a fly is a tile of the hand like
    any other until it stands in a set); one in a laid-out meld is not offered, as the discard claimed
    for it was the tile it stands beside."""
    # a bonus tile left among the hand's (a table being corrected) never wins it: chosen, the case
    # could not be opened again (a fuzzing helper, stage 77)
    concealed = [code for code in hand.get("concealed") or [] if code != "back" and code not in BONUS]
    melds = (
        (
            str(meld.get("kind")),
            bool(meld.get("concealed")),
            [code for code in meld.get("tiles") or [] if code not in ("back", "fly")],
        )
        for meld in hand.get("melds") or []
    )
    return sorted_tiles(set(winnable_in(concealed, melds, self_drawn)))


def winning_tile_outcomes(
    data: Mapping[str, Any], score: Callable[[dict[str, Any]], dict[str, Any]] = score_json
) -> list[Outcome]:
    """The scoring input `data` (no winning tile set) scored with each tile that may have won it, the
    tiles scoring alike taken together, best first; empty where a winning tile is set."""
    if data.get("winning_tile"):
        return []
    scored: dict[tuple[bool, int], list[str]] = {}
    # the tiles the winning-tile box offers: on a win scored as self-drawn (said so, or a replacement
    # tile, eight flowers), none only in an exposed set
    self_drawn = input_scored_as_self_drawn(data)
    for tile in hand_tile_choices(data, self_drawn):
        try:
            result = score({**data, "winning_tile": tile})
        except (MalformedHandError, OptionError):
            continue  # a tile the scoring cannot take there: not a way the hand was won
        if result.get("reason") == NOT_IN_HAND:
            # nor one that cannot have won it so (a self-drawn tile of an exposed pong, claimed from a
            # discard: an audit, stage 72, was asked to choose between 1m ... 9s and C, "not a win")
            continue
        valid = bool(result.get("valid"))
        scored.setdefault((valid, int(result.get("tai") or 0) if valid else 0), []).append(tile)
    ranked = sorted(scored.items(), key=lambda item: item[0], reverse=True)
    return [Outcome(tuple(sorted_tiles(tiles)), valid, tai) for (valid, tai), tiles in ranked]


def changes_the_score(result: Mapping[str, Any], outcomes: Sequence[Outcome]) -> bool:
    """Whether some tile that may have won the hand (`outcomes`) scores it otherwise than `result`,
    scored without a winning tile, shows."""
    shown = (bool(result.get("valid")), int(result.get("tai") or 0) if result.get("valid") else 0)
    return any((outcome.valid, outcome.tai) != shown for outcome in outcomes)


def ways_text(outcomes: Sequence[Outcome], unit: str) -> str:
    """Each way the hand may have been won, best first: "1m, 4p or 9s: 4 tai; 2m or 5p: not a win"."""
    return "; ".join(
        f"{_either(outcome.tiles)}: {f'{outcome.tai} {unit}' if outcome.valid else 'not a win'}"
        for outcome in outcomes
    )


def _either(tiles: tuple[str, ...]) -> str:
    return tiles[0] if len(tiles) == 1 else f"{', '.join(tiles[:-1])} or {tiles[-1]}"
