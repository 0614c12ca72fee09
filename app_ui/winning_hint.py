"""What the winning tile would change, asked of a hand whose winning tile is not set.

A photo cannot show which tile won, and the box starts unset: a sequence hand scored without it is
refused its pattern (the wait decides it), so the winner could be told "not a valid win" of a hand
worth 4 tai. The hand is scored once with each tile that may have won it, and where the answers
differ from the one shown, the result says so, tile by tile.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import scoring
from app_ui.hand_build import hand_tile_choices, scored_as_self_drawn
from app_ui.summary import score_words
from scoring.rulesets import DEFAULT_RULESET
from scoring.tiles import sorted_tiles

NOT_IN_HAND = "winning_tile_not_in_hand"  # the scoring's reason for a tile that cannot have won the hand


@dataclass(frozen=True)
class Outcome:
    """The hand scored with `tiles` (each alike) as its winning tile: a win of `tai`, or no win."""

    tiles: tuple[str, ...]
    valid: bool
    tai: int


def winning_tile_outcomes(
    data: Mapping[str, Any], score: Callable[[dict[str, Any]], dict[str, Any]] = scoring.score_json
) -> list[Outcome]:
    """The scoring input `data` (no winning tile set) scored with each tile that may have won it, the
    tiles scoring alike taken together, best first; empty where a winning tile is set."""
    if data.get("winning_tile"):
        return []
    scored: dict[tuple[bool, int], list[str]] = {}
    # the tiles the winning-tile box offers: on a win scored as self-drawn (said so, or a replacement
    # tile, eight flowers), none only in an exposed set
    self_drawn = scored_as_self_drawn(
        bool(data.get("self_drawn")),
        data.get("bonus") or (),
        data.get("circumstances") or (),
        str(data.get("rules") or DEFAULT_RULESET),
    )
    for tile in hand_tile_choices(data, self_drawn):
        try:
            result = score({**data, "winning_tile": tile})
        except (scoring.MalformedHandError, scoring.OptionError):
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


def winning_tile_note(result: Mapping[str, Any], outcomes: list[Outcome], unit: str) -> str | None:
    """The line asking for the winning tile, where it would change the result shown (`result`, scored
    without one): each way, e.g. "2s or 5s: 4 tai; 8s: not a win"; None where it changes nothing."""
    if not changes_the_score(result, outcomes):
        return None
    ways = "; ".join(
        f"{_either(outcome.tiles)}: {f'{outcome.tai} {unit}' if outcome.valid else 'not a win'}"
        for outcome in outcomes
    )
    return f"**Set the winning tile** under *How was it won?*: the score depends on it. Won on {ways}."


def _either(tiles: tuple[str, ...]) -> str:
    return tiles[0] if len(tiles) == 1 else f"{', '.join(tiles[:-1])} or {tiles[-1]}"


def wants_winning_tile(result: Mapping[str, Any], outcomes: list[Outcome]) -> bool:
    """Whether `result` is no win only for want of the winning tile: some tile that may have won the
    hand makes it one."""
    return not result.get("valid") and any(outcome.valid for outcome in outcomes)


# the scoring's notes that a missing winning tile left a pattern out: the ask says it, tile by tile
ASKED_NOTES = ("no winning tile given", "give that tile as the winning tile")


def said_by_the_ask(warning: str) -> bool:
    """Whether the scoring's `warning` only says that the winning tile is missing (shown with the ask,
    it would say twice what the ask says)."""
    return any(mark in warning for mark in ASKED_NOTES)


def score_now_words(result: Mapping[str, Any], outcomes: list[Outcome]) -> str:
    """The score in a few words for the lines that point to the result; a hand that is no win only for
    want of the winning tile is not called one."""
    if wants_winning_tile(result, outcomes):
        return "set the winning tile to score it"
    return score_words(dict(result))


def photo_score_words(result: dict[str, Any], outcomes: list[Outcome], corrected: bool) -> str:
    """The score in a few words beside a photo's reading time, a link to the result after it: the
    score as it stands (and that the winning tile changes it), the ask for the winning tile, the
    minimum the tiles fall short of, or no valid win `corrected` (the user has corrections standing)
    or as read."""
    if wants_winning_tile(result, outcomes):
        return "Set the winning tile to score it"
    if result.get("valid"):
        said = score_words(result)
        if winning_tile_note(result, outcomes, str(result.get("unit") or "tai")):
            said += " as it stands: the winning tile changes it"
        return said
    if result.get("reason") == "below_minimum" and result.get("message"):
        return str(result["message"]).rstrip(".")  # the tiles win, below the minimum: no misreading
    return f"Not a valid win {'as corrected' if corrected else 'as read'}"
