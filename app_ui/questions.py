"""The question asked before a new photo, typed hand or case replaces the user's corrections: one
at a time (the newest stands), answered with *replace* or *keep*, and a note where a newer one took
the place of an older.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from app_ui.summary import plain

PENDING_KEYS = ("pending", "pending_typed", "pending_case")


def question_waiting() -> bool:
    """Whether the page asks if a new photo, typed hand or case may replace the user's corrections: until
    it is answered, nothing else may drop them (the new hand would then be taken unasked)."""
    return any(st.session_state.get(key) is not None for key in PENDING_KEYS)


def ask_before_replacing(key: str, waiting: Any) -> None:
    """Hold what would replace the corrections until the user says yes; the newest ask stands alone, as
    two questions at once (a sample photo, then a typed hand) would leave the user unsure which is which."""
    replaced = any(st.session_state.get(other) is not None for other in PENDING_KEYS if other != key)
    for other in PENDING_KEYS:
        if other != key and st.session_state.get(other) is not None:  # said where it was asked
            st.session_state[WITHDRAWN] = (other, _question_about(other, st.session_state[other]))
    photo = st.session_state.get("pending")
    if key != "pending" and photo is not None:
        # the photo set aside is not read, nor asked about again while it sits in the uploader
        st.session_state["handled"] = [*st.session_state["handled"], photo[2]]
        st.session_state["set_aside"] = [*st.session_state.get("set_aside", []), photo[2]]
    for other in PENDING_KEYS:
        st.session_state[other] = None
    st.session_state[key] = waiting
    if replaced:
        st.rerun()  # an older question may be drawn above already: draw the page again without it


WITHDRAWN = "withdrawn_question"  # (the question's key, what it asked about) a newer one replaced


def _question_about(key: str, waiting: Any) -> str:
    """What a question waiting under `key` (PENDING_KEYS) would do, in the words it asked with."""
    if key == "pending":
        return f"Reading {plain(waiting[0])}"
    if key == "pending_case":
        return f"Opening {plain(waiting.base.name)}"
    return "Using the typed hand"


def withdrawn_note(key: str) -> None:
    """Where a question stood that a newer one (another tab's) replaced, while that one waits: what it
    would have done, so the user who comes back to it does not find it gone unsaid."""
    withdrawn = st.session_state.get(WITHDRAWN)
    if withdrawn is not None and not question_waiting():  # the newer one answered: nothing to say
        st.session_state[WITHDRAWN] = withdrawn = None
    if withdrawn is not None and withdrawn[0] == key:  # said for as long as the newer one waits
        st.info(
            f"{withdrawn[1]} was not done: a newer question took its place, about replacing your "
            "corrections. Do it again here once that is answered."
        )


def replace_or_keep(action: str, replace_label: str, key: str) -> str | None:
    """Ask before `action` (e.g. "Reading **x.jpg**") replaces the user's corrections: "replace" or
    "keep" once a button is pressed, else None. Every way in (photo, typed hand, case file) asks alike."""
    st.warning(
        f"You have corrected the tiles of the current hand. {action} will replace them. "
        "Download the case below first if you want to keep a copy."
    )
    replace, keep = st.columns(2)
    if replace.button(replace_label, key=f"{key}_replace", type="primary", width="stretch"):
        return "replace"
    if keep.button("Keep my corrections", key=f"{key}_keep", width="stretch"):
        return "keep"
    return None
