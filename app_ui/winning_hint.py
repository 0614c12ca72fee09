"""What the winning tile would change, asked of a hand whose winning tile is not set.

A photo cannot show which tile won, and the box starts unset: a sequence hand scored without it is
refused its pattern (the wait decides it), so the winner could be told "not a valid win" of a hand
worth 4 tai. The hand is scored once with each tile that may have won it, and where the answers
differ from the one shown, the result says so, tile by tile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app_ui.summary import score_words

# the tiles that may have won a hand, and the hand scored with each: the scoring's, shared with its CLI
# (NOT_IN_HAND and winning_tile_outcomes named here too, as the page's modules have always called them)
from scoring.winning_tiles import NOT_IN_HAND as NOT_IN_HAND
from scoring.winning_tiles import Outcome, changes_the_score, ways_text
from scoring.winning_tiles import winning_tile_outcomes as winning_tile_outcomes


def winning_tile_ways(result: Mapping[str, Any], outcomes: list[Outcome], unit: str) -> str | None:
    """What each tile that may have won the hand gives, where the winning tile would change the result
    shown (`result`, scored without one), e.g. "2s or 5s: 4 tai; 8s: not a win"; None where it changes
    nothing. The ask and the chat summary say the same ways from this one place."""
    return ways_text(outcomes, unit) if changes_the_score(result, outcomes) else None


def winning_tile_note(result: Mapping[str, Any], outcomes: list[Outcome], unit: str) -> str | None:
    """The line asking for the winning tile, where it would change the result shown: each way
    (`winning_tile_ways`); None where it changes nothing."""
    ways = winning_tile_ways(result, outcomes, unit)
    if ways is None:
        return None
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
        if changes_the_score(result, outcomes):
            said += " as it stands: the winning tile changes it"
        return said
    if result.get("reason") == "below_minimum" and result.get("message"):
        return str(result["message"]).rstrip(".")  # the tiles win, below the minimum: no misreading
    return f"Not a valid win {'as corrected' if corrected else 'as read'}"


NO_WIN = score_words({"valid": False})  # the score of a hand that is no win, in the same few words


def score_span(result: dict[str, Any], outcomes: Sequence[Outcome]) -> str:
    """The score in a few words: the result's (`**4 tai**`, `not a valid win`), or where the winning
    tile is unset and changes it, every score a tile that may have won it gives ("**2 to 5 tai** by
    the winning tile")."""
    if not changes_the_score(result, outcomes):
        return score_words(result)
    unit = str(result.get("unit") or "tai")
    tai = sorted({outcome.tai for outcome in outcomes if outcome.valid})
    if not tai:
        return NO_WIN
    span = f"**{tai[0]} {unit}**" if len(tai) == 1 else f"**{tai[0]} to {tai[-1]} {unit}**"
    if not all(outcome.valid for outcome in outcomes):
        span = f"no win or {span}"
    return f"{span} by the winning tile"


def result_words(result: dict[str, Any], outcomes: Sequence[Outcome]) -> str:
    """The score in a few words for a line that sets two scores side by side: a hand that is no win
    only for want of the winning tile said with what the tiles that may have won it give ("no win or
    **4 tai** by the winning tile"; an audit, stage 78: such lines called it "not a valid win" beside
    the result asking for the tile), any other as `score_words`."""
    if wants_winning_tile(result, list(outcomes)):
        return score_span(result, outcomes)
    return score_words(result)
