"""A new hand in place of the one on screen (a photo read, a hand typed, a case opened): what of the
last hand's win is forgotten with it, and the note that says so.
"""

from __future__ import annotations

import streamlit as st

from app_ui.case import Base
from app_ui.context_panel import (
    CLEARED,
    LAST_WIN,
    NO_WINNING_TILE,
    SEAT_FROM_LAST_HAND,
    WIND_LABELS,
    LastWin,
)
from app_ui.photo_view import PhotoView
from app_ui.rules_panel import chosen_rules
from app_ui.session import set_base


def forget_winning_tile() -> None:
    """A new hand (photo, typed, opened case) starts with no winning tile: the last hand's is no fact
    of this one, even where this hand holds that tile too. Undo and a way to a win keep it."""
    st.session_state["winning_tile"] = NO_WINNING_TILE
    st.session_state["winning_tile_wanted"] = None


def replace_hand(base: Base, source_id: str | None, display: PhotoView | None) -> None:
    """A new photo's or typed hand's tiles in place of the hand on screen, with none of its win."""
    state = st.session_state
    had_hand = state["base"].source != "none"
    state.pop("reread_note", None)  # about the tiles this hand replaces
    chosen = state.get("winning_tile", NO_WINNING_TILE)
    wanted = state.get("winning_tile_wanted")
    winning_tile = wanted or (None if chosen == NO_WINNING_TILE else chosen)
    set_base(base, source_id, display)
    forget_winning_tile()
    if had_hand:
        forget_last_hands_win(winning_tile, aside=bool(wanted))


def forget_last_hands_win(winning_tile: str | None = None, aside: bool = False) -> None:
    """A hand that replaces another starts with no special circumstances, no pay-all and won on a
    discard: those were facts of the last win (a robbed kong, a liable discard, a self-draw), as its
    `winning_tile` was (set, or `aside`: set aside). Seats and winds stay (the table has not moved).
    Set before the first hand, they are kept: the user set them for it. A note names what was cleared."""
    state = st.session_state
    last_win = LastWin.from_page(winning_tile, aside)
    cleared = last_win.words(chosen_rules())
    CLEARED.apply()
    for kept in (state.get("context_store") or {}).values():
        kept.pop("circumstances", None)  # nor may another rule set's copy bring them back
    state[SEAT_FROM_LAST_HAND] = True
    if cleared:
        # the seat is kept (the user often scores his own wins), and said, as another may have won this one
        seat = WIND_LABELS.get(str(state.get("seat_wind")), "East")
        state["context_note"] = (
            f"New hand: cleared the last hand's {', '.join(cleared)}; set again what holds for this one "
            f"(the winner's seat is still {seat})."
        )
        # offered under the note: the same win with its tiles retyped or photographed again (an audit,
        # stage 82: a typo fixed cost the winning tile, the self-draw and the discarder)
        state[LAST_WIN] = last_win
    else:
        state.pop(LAST_WIN, None)  # an older hand's win is not this one's last
