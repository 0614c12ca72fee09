"""Which unsure tiles decide the score: each read as the reader's runner-up, the hand scored again.

A photo's reading marks the tiles it is unsure of, and a table settling a dispute wants to know
which of them matter. Each unsure tile of the hand whose runner-up the set still holds and which
fits where it lies is read so, alone, and the hand scored as the page scores it (the winning tile,
when unset, taken over every tile that may have won). The line names the tiles whose runner-up
gives another score, with both scores; those that would make the hand no valid win; those that
change only the instant payouts (paid win or not); those that change which winning tile scores
what, where it is unset; then those that leave the score as it is. Only the runner-up is tried, and
the line says so: a third face is another question.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from app_ui.case import BONUS, IGNORE, TileRow
from app_ui.photo_rows import copy_left, offers_runner_up
from app_ui.winning_hint import NO_WIN, NOT_IN_HAND, Outcome, score_span
from scoring.payout import format_amount
from vision.classes import BONUS_CODES

# results that are no reading of the table (a fifth copy beside a concealed kong's backs, a face the
# set lacks, the winning tile gone with the tile): no score to compare
NOT_A_READING = frozenset((NOT_IN_HAND, "too_many_copies", "tile_not_in_set"))

# Rows scored as the page scores the table's: the result and the hand scored with each tile that may
# have won it where no winning tile is set; None where the rows make no hand to score.
Scored = tuple[dict[str, Any], list[Outcome]]
ScoreRows = Callable[[list[TileRow]], "Scored | None"]


@dataclass(frozen=True)
class Stake:
    """An unsure tile (`number` in the table) read as `code`, and were it `alternative`: the score each
    way in a few words (`now`, `then`: `score_span`), the instant payouts' units from each player each
    way, and whether the tiles that may have won it score otherwise one by one (`ways_differ`: the same
    span of scores, reached by other winning tiles)."""

    number: int
    code: str
    alternative: str
    now: str
    then: str
    now_units: Decimal = Decimal(0)
    then_units: Decimal = Decimal(0)
    ways_differ: bool = False

    @property
    def breaks_the_win(self) -> bool:
        return self.then == NO_WIN and self.now != NO_WIN

    @property
    def changes_the_score(self) -> bool:
        return self.now != self.then and not self.breaks_the_win

    @property
    def changes_instant_payouts(self) -> bool:
        return self.now == self.then and self.now_units != self.then_units

    @property
    def changes_the_ways(self) -> bool:
        return self.now == self.then and self.now_units == self.then_units and self.ways_differ

    @property
    def leaves_it(self) -> bool:
        return self.now == self.then and self.now_units == self.then_units and not self.ways_differ


def instant_units(result: dict[str, Any]) -> Decimal:
    """The instant payouts' units each opponent pays (none where the rule set has none)."""
    items = (result.get("payout") or {}).get("instant_payouts") or ()
    return sum((Decimal(str(item.get("units") or 0)) for item in items), Decimal(0))


def units_words(units: Decimal) -> str:
    """Instant payout units from each player in words: "none", "1 unit", "2.5 units"."""
    if units == 0:
        return "none"
    return f"{format_amount(units)} unit{'' if units == 1 else 's'}"


def _ways(outcomes: Sequence[Outcome]) -> tuple[tuple[str, bool, int], ...]:
    return tuple(sorted((tile, outcome.valid, outcome.tai) for outcome in outcomes for tile in outcome.tiles))


def fits_where_it_lies(code: str, group: str) -> bool:
    """Whether a tile of `code` may lie in `group`: a flower, season or animal in the bonus row, any
    other face in the hand or a meld (a fly, the Malaysian wild tile, in either)."""
    if code == "back":
        return False
    if code == "fly":
        return True
    return (code in BONUS_CODES) == (group == BONUS)


def unsure_stakes(
    rows: Sequence[TileRow], in_set: Collection[str], now: Scored, score_rows: ScoreRows
) -> list[Stake]:
    """Each unsure tile of `rows` that the hand holds read as its runner-up (where the set `in_set` has
    it, a copy of it is left beside the other tiles, and it fits where the tile lies), with the score
    `now` (the rows as they are, scored) and the score so; tiles whose runner-up makes no reading of
    the table (`NOT_A_READING`) are left out."""
    stakes: list[Stake] = []
    held = Counter(row.code for row in rows)
    now_span, now_units, now_ways = score_span(*now), instant_units(now[0]), _ways(now[1])
    for index, row in enumerate(rows):
        alternative = row.alternative
        if (
            alternative is None
            or not offers_runner_up(row, in_set)
            or row.group == IGNORE
            or row.number is None
            or alternative == row.code
            or not fits_where_it_lies(alternative, row.group)
            # a second S1 is no reading of this set: where the runner-up is taken, it is no doubt
            or not copy_left(held, alternative)
        ):
            continue
        other = [*rows[:index], dataclasses.replace(row, code=alternative), *rows[index + 1 :]]
        then = score_rows(other)
        if then is None or then[0].get("reason") in NOT_A_READING:
            continue
        stakes.append(
            Stake(
                row.number,
                row.code,
                alternative,
                now_span,
                score_span(*then),
                now_units,
                instant_units(then[0]),
                now_ways != _ways(then[1]),
            )
        )
    return stakes


def stakes_line(stakes: Sequence[Stake], now: str) -> str:
    """What the unsure tiles' runners-up do to the hand scored `now` (in a few words), in a sentence or
    four ("" where none was tried): first the tiles that give another score, then those that would
    make the hand no valid win (a winning hand's tile is seldom its runner-up then, but a claimed win
    is what is in dispute), those that change only the instant payouts (paid win or not), those that
    change which winning tile scores what (the winning tile unset), then those that leave it all."""
    said = [
        f"Tile {stake.number} decides the score: as {stake.code}, {stake.now}; as {stake.alternative}, "
        f"{stake.then}."
        for stake in stakes
        if stake.changes_the_score
    ]
    breaking = [stake for stake in stakes if stake.breaks_the_win]
    if breaking:
        said.append(f"{_tiles(breaking)} read as {_their(breaking)} would make the hand no valid win.")
    said += [
        f"Tile {stake.number} changes the instant payouts: as {stake.code}, {units_words(stake.now_units)} "
        f"from each player; as {stake.alternative}, {units_words(stake.then_units)}."
        for stake in stakes
        if stake.changes_instant_payouts
    ]
    ways = [stake for stake in stakes if stake.changes_the_ways and now != NO_WIN]
    if ways:
        them = "it" if len(ways) == 1 else "them"
        said.append(
            f"{_tiles(ways)} read as {_their(ways)} would change which winning tile scores what: set the "
            f"winning tile to weigh {them}."
        )
    leaving = [stake for stake in stakes if stake.leaves_it]
    if leaving and now != NO_WIN:  # of a hand that is no win either way, nothing for the table to weigh
        verb = "leaves" if len(leaving) == 1 else "leave"
        stays = f" ({now})" if len(said) == 0 else ""
        said.append(f"{_tiles(leaving)} read as {_their(leaving)} {verb} the score as it is{stays}.")
    return " ".join(said)


def _tiles(stakes: Sequence[Stake]) -> str:
    return ("Tile " if len(stakes) == 1 else "Tiles ") + _numbers(stake.number for stake in stakes)


def _their(stakes: Sequence[Stake]) -> str:
    return "its runner-up" if len(stakes) == 1 else "their runners-up"


def _numbers(numbers: Iterable[int]) -> str:
    listed = [str(n) for n in numbers]
    return listed[0] if len(listed) == 1 else f"{', '.join(listed[:-1])} and {listed[-1]}"
