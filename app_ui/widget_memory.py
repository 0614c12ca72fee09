"""Widget choices kept across the runs that do not draw their widget.

Streamlit forgets a widget's value in a run that does not draw it; the choices the page must keep
(a kong's tick, the discarder's seat) are kept here by widget key, and restored before it is drawn.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

# The user's choices in widgets that are not always drawn, by widget key: Streamlit forgets a widget's
# value in a run that does not draw it (a kong's tick while a tile edit makes it a pong for a moment, the
# discarder's box while a self-draw hides it), and the choice must come back with the widget.
KEPT = "kept_widgets"


def kept_value(key: str, default: Any) -> Any:
    """A widget's value as the user set it, drawn this run or not; `default` where never set."""
    state = st.session_state
    return state[key] if key in state else (state.get(KEPT) or {}).get(key, default)


def keep(key: str, value: Any) -> None:
    """Set a widget's value, and keep it for the runs that do not draw the widget."""
    st.session_state[key] = value
    remember(key)


def restore_kept(key: str, default: bool) -> None:
    """Before a widget is drawn: its value as the user last set it, where a run that did not draw it
    made Streamlit forget it (`default` where never set)."""
    if key not in st.session_state:
        keep(key, bool(kept_value(key, default)))


def remember(key: str) -> None:
    """Keep a drawn widget's value for the runs that do not draw it."""
    st.session_state.setdefault(KEPT, {})[key] = st.session_state[key]
