"""A new hand in place of the one on screen (a photo read, a hand typed, a case opened): what of the
last hand's win is forgotten with it, and the note that says so.
"""

from __future__ import annotations

import streamlit as st

from app_ui.case import Base
from app_ui.context_panel import (
    DISCARDER_ASIDE,
    LAST_WIN,
    NO_WINNING_TILE,
    NOT_SAID,
    PLACE_NOT_SAID,
    SEAT_FROM_LAST_HAND,
    WIND_LABELS,
    WINNING_TILE_INTO,
    LastWin,
    discarder_now,
    set_discarder,
)
from app_ui.photo_view import PhotoView
from app_ui.rules_panel import chosen_rules
from app_ui.session import set_base
from app_ui.summary import circumstance_label
from app_ui.widget_memory import keep, kept_value


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
    winning_tile = state.get("winning_tile_wanted") or (None if chosen == NO_WINNING_TILE else chosen)
    set_base(base, source_id, display)
    forget_winning_tile()
    if had_hand:
        forget_last_hands_win(winning_tile)


def forget_last_hands_win(winning_tile: str | None = None) -> None:
    """A hand that replaces another starts with no special circumstances, no pay-all and won on a
    discard: those were facts of the last win (a robbed kong, a liable discard, a self-draw), as its
    `winning_tile` was (set, or set aside). Seats and winds stay (the table has not moved). Set before
    the first hand, they are kept: the user set them for it. A note names what was cleared."""
    state = st.session_state
    cleared = [f"winning tile ({winning_tile})"] if winning_tile else []
    cleared += [circumstance_label(c, chosen_rules()) for c in state.get("circumstances") or []]
    if state.get("pay_all"):
        cleared.append("pay-all")
    if discarder_now() != NOT_SAID:
        cleared.append("discarder's seat")
    if state.get("bonus_from_deal"):
        cleared.append("bonus tiles held from the deal")
    if kept_value(WINNING_TILE_INTO, PLACE_NOT_SAID) != PLACE_NOT_SAID:
        cleared.append("where the winning tile went")
    # self-drawn or not is the last win's, as its winning tile was (an audit, stage 81: a new photo kept
    # "Self-drawn" and paid the next hand as one, unsaid)
    if state.get("won_by") == "self-drawn":
        cleared.append("self-draw (Won by is Discard again)")
    last_win = LastWin(
        winning_tile=winning_tile,
        won_by=str(state.get("won_by") or "discard"),
        circumstances=tuple(state.get("circumstances") or ()),
        pay_all=bool(state.get("pay_all")),
        discarder=discarder_now(),
        bonus_from_deal=tuple(state.get("bonus_from_deal") or ()),
        winning_tile_into=str(kept_value(WINNING_TILE_INTO, PLACE_NOT_SAID)),
        discarder_aside=state.get(DISCARDER_ASIDE),
        from_deal_aside=tuple(state.get("from_deal_aside") or ()),
    )
    state["won_by"] = "discard"
    state["circumstances"] = []
    state["pay_all"] = False
    state.pop(DISCARDER_ASIDE, None)
    state["bonus_from_deal"] = state["from_deal_aside"] = []
    set_discarder(NOT_SAID)
    keep(WINNING_TILE_INTO, PLACE_NOT_SAID)
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
