"""What the winning tile would change, asked of a hand whose winning tile is not set.

A photo cannot show which tile won, and the box starts unset: a sequence hand scored without it is
refused its pattern (the wait decides it), so the winner could be told "not a valid win" of a hand
worth 4 tai. The hand is scored once with each tile that may have won it, and where the answers
differ from the one shown, the result says so, tile by tile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app_ui.summary import score_words

# the tiles that may have won a hand, and the hand scored with each: the scoring's, shared with its CLI
# (NOT_IN_HAND and winning_tile_outcomes named here too, as the page's modules have always called them)
from scoring.winning_tiles import NOT_IN_HAND as NOT_IN_HAND
from scoring.winning_tiles import Outcome, changes_the_score, ways_text
from scoring.winning_tiles import winning_tile_outcomes as winning_tile_outcomes


def winning_tile_note(result: Mapping[str, Any], outcomes: list[Outcome], unit: str) -> str | None:
    """The line asking for the winning tile, where it would change the result shown (`result`, scored
    without one): each way, e.g. "2s or 5s: 4 tai; 8s: not a win"; None where it changes nothing."""
    if not changes_the_score(result, outcomes):
        return None
    ways = ways_text(outcomes, unit)
    return f"**Set the winning tile** under *How was it won?*: the score depends on it. Won on {ways}."


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
