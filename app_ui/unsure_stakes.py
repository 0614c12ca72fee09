"""Which unsure tiles decide the score: each read as the reader's runner-up, the hand scored again.

A photo's reading marks the tiles it is unsure of, and a table settling a dispute wants to know
which of them matter. Each unsure tile of the hand whose runner-up the set still holds and which
fits where it lies is read so, alone, and the hand scored as the page scores it (the winning tile,
when unset, taken over every tile that may have won). The line names the tiles whose runner-up
gives another score, with both scores, then those that would make the hand no win, then those that
leave the score as it is. Only the runner-up is tried, and the line says so: a third face is
another question.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from app_ui.case import BONUS, IGNORE, TileRow
from app_ui.summary import score_words
from app_ui.winning_hint import NOT_IN_HAND, Outcome
from vision.classes import BONUS_CODES
from vision.tile_set import COPIES_IN_SET

NO_WIN = score_words({"valid": False})  # the score of a hand that is no win, in the same few words

# The scoring input and result of rows as the page scores the table's, and the hand scored with each
# tile that may have won it where no winning tile is set; None where the rows make no hand to score.
ScoreRows = Callable[[list[TileRow]], "tuple[dict[str, Any], list[Outcome]] | None"]


@dataclass(frozen=True)
class Stake:
    """An unsure tile (`number` in the table) read as `code`, and the score were it `alternative`."""

    number: int
    code: str
    alternative: str
    then: str  # the score in a few words with the tile read as `alternative`


def score_span(result: dict[str, Any], outcomes: Sequence[Outcome]) -> str:
    """The score in a few words: the result's (`**4 tai**`, `not a valid win`), or where the winning
    tile is unset and changes it, every score a tile that may have won it gives ("**2 to 5 tai** by
    the winning tile")."""
    shown = (bool(result.get("valid")), int(result.get("tai") or 0) if result.get("valid") else 0)
    if not outcomes or all((outcome.valid, outcome.tai) == shown for outcome in outcomes):
        return score_words(result)
    unit = str(result.get("unit") or "tai")
    tai = sorted({outcome.tai for outcome in outcomes if outcome.valid})
    if not tai:
        return "not a valid win"
    span = f"**{tai[0]} {unit}**" if len(tai) == 1 else f"**{tai[0]} to {tai[-1]} {unit}**"
    if not all(outcome.valid for outcome in outcomes):
        span = f"no win or {span}"
    return f"{span} by the winning tile"


def fits_where_it_lies(code: str, group: str) -> bool:
    """Whether a tile of `code` may lie in `group`: a flower, season or animal in the bonus row, any
    other face in the hand or a meld (a fly, the Malaysian wild tile, in either)."""
    if code == "back":
        return False
    if code == "fly":
        return True
    return (code in BONUS_CODES) == (group == BONUS)


def unsure_stakes(
    rows: Sequence[TileRow], in_set: Collection[str], now: str, score_rows: ScoreRows
) -> tuple[list[Stake], list[Stake]]:
    """The unsure tiles of `rows` that the hand holds, each read as its runner-up (where the set
    `in_set` has it, a copy of it is left in the set beside the other tiles, and it fits where the
    tile lies), split into those that change the score `now` (`score_span` of the hand as it is) and
    those that leave it."""
    deciding: list[Stake] = []
    leaving: list[Stake] = []
    held = Counter(row.code for row in rows)
    for index, row in enumerate(rows):
        alternative = row.alternative
        if (
            not row.low_confidence
            or row.group == IGNORE
            or row.number is None
            or alternative is None
            or alternative == row.code
            or alternative not in in_set
            or not fits_where_it_lies(alternative, row.group)
            # a second S1 is no reading of this set: where the runner-up is taken, it is no doubt
            or held[alternative] >= COPIES_IN_SET.get(alternative, 4)
        ):
            continue
        other = [*rows[:index], dataclasses.replace(row, code=alternative), *rows[index + 1 :]]
        scored = score_rows(other)
        if scored is None or scored[0].get("reason") == NOT_IN_HAND:
            continue  # the winning tile set is gone with it: no score to compare
        stake = Stake(row.number, row.code, alternative, score_span(*scored))
        (leaving if stake.then == now else deciding).append(stake)
    return deciding, leaving


def stakes_line(deciding: Sequence[Stake], leaving: Sequence[Stake], now: str) -> str:
    """What the unsure tiles' runner-ups do to the score `now`, in a sentence or three ("" where none
    was tried): first the tiles that give another score, then those that would make the hand no win
    (a winning hand's tile is seldom its runner-up then, but a claimed win is what is in dispute),
    then those that leave it; of a hand that is no win, only the tiles that would make it one."""
    changing = [stake for stake in deciding if stake.then != NO_WIN]
    breaking = [stake for stake in deciding if stake.then == NO_WIN]
    said = [
        f"Tile {stake.number} decides the score: as {stake.code}, {now}; "
        f"as {stake.alternative}, {stake.then}."
        for stake in changing
    ]
    if breaking:
        said.append(f"{_tiles(breaking)} read as {_their(breaking)} would make it no win.")
    if now == NO_WIN:
        pass  # tiles that leave a hand no win: nothing for the table to weigh
    elif leaving:
        # named even where no other tile is: the line above lists unsure tiles that were not tried
        verb = "leaves" if len(leaving) == 1 else "leave"
        stays = f" ({now})" if not deciding else ""
        said.append(f"{_tiles(leaving)} read as {_their(leaving)} {verb} the score as it is{stays}.")
    return " ".join(said)


def _tiles(stakes: Sequence[Stake]) -> str:
    return ("Tile " if len(stakes) == 1 else "Tiles ") + _numbers(stake.number for stake in stakes)


def _their(stakes: Sequence[Stake]) -> str:
    return "its runner-up" if len(stakes) == 1 else "their runner-ups"


def _numbers(numbers: Any) -> str:
    listed = [str(n) for n in numbers]
    return listed[0] if len(listed) == 1 else f"{', '.join(listed[:-1])} and {listed[-1]}"
