""" "Undo the last tile change": the tile table as it stood before each change to the hand on screen, newest
last. A change is an edit in the table, a kong's tick, a way to a win taken, the corrections undone,
or corrections dropped by a re-read. Pure functions over `TableState` values; the app keeps the list
in its session and draws the button."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app_ui.case import Base, TableState
from app_ui.table_edits import fold_edits

UNDO_AT_MOST = 50


@dataclass(frozen=True)
class SeenTable:
    """The table as a run saw it: the case version (a new hand or a restarted table is another), its
    edits and the kong ticks set otherwise than the hand has them."""

    version: int
    edits: Mapping[str, Any]
    meld_concealed: Mapping[str, bool]


def ticks_changed(flags_as_read: Mapping[str, bool], ticks_now: Mapping[str, bool]) -> dict[str, bool]:
    """The kong ticks set otherwise than the hand has them (`flags_as_read`, by group); a tick first
    drawn for a kong an edit made, and so as the hand has it, is no change."""
    return {
        group: bool(ticked)
        for group, ticked in ticks_now.items()
        if bool(ticked) != bool(flags_as_read.get(group, False))
    }


def with_step(undo: Sequence[TableState], state: TableState, at_most: int = UNDO_AT_MOST) -> list[TableState]:
    """The undo list with `state` kept as its newest step, the oldest dropped past `at_most`."""
    return [*undo, state][-at_most:]


def step_before(seen: SeenTable | None, now: SeenTable, base: Base) -> TableState | None:
    """The table as it stood before the change the user just made in it (each change is a run), or
    None where the run changed nothing in this table (`seen`: as the last run saw it)."""
    if seen is None or seen.version != now.version:
        return None
    if (seen.edits, seen.meld_concealed) == (now.edits, now.meld_concealed):
        return None
    return TableState(base, seen.edits, seen.meld_concealed)


def with_winning_tile(state: TableState, winning_tile: tuple[str, str | None]) -> TableState:
    """`state`, whose step back also brings back the winning tile a re-read moved with its tiles."""
    return dataclasses.replace(state, winning_tile=winning_tile)


def with_newest_winning_tile(
    undo: Sequence[TableState], winning_tile: tuple[str, str | None]
) -> list[TableState]:
    """The undo list whose newest step also brings back `winning_tile`, which a re-read after it moved
    with its tiles (the step's rows still have the names it was chosen among); a step that already
    brings one back keeps its own, chosen among the same rows."""
    if not undo or undo[-1].winning_tile is not None:
        return list(undo)
    return [*undo[:-1], with_winning_tile(undo[-1], winning_tile)]


def restored(state: TableState) -> Base:
    """The hand's rows as the step had them, its edits then standing folded in (Streamlit cannot set
    a table's edits, so the table starts again from these rows)."""
    return fold_edits(state.base, state.edits)
