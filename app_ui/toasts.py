"""One toast a run: the page's parts queue their lines, and the run shows them together at its end.

Two toasts raised by one change stacked at the top of a phone's screen (a seat set to the discarder's:
"South is the winner's seat now ..." over "Changed: 2 tai → 1 tai ..."), covering a fifth of it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import streamlit as st

PENDING = "toast_lines"  # this run's lines (and icons), shown and dropped by `show_toast`
TOLD = "toast_told"  # the scoring input's fields this run's lines told, dropped with them


def toast_later(line: str, icon: str | None = None, told: Collection[str] = ()) -> None:
    """Queue `line` for this run's one toast (`show_toast`), with the `icon` the toast may take; `told`:
    the scoring input's fields (`change_note.FIELD_WORDS`) whose new value it says, which the score's
    change queued after it leaves out (`told_in_toast`)."""
    st.session_state.setdefault(PENDING, []).append((line, icon))
    if told:
        st.session_state[TOLD] = {*st.session_state.get(TOLD, ()), *told}


def told_in_toast() -> frozenset[str]:
    """The fields this run's queued lines told (`toast_later`): one toast says each fact once (a seat
    set to the discarder's said "who discarded is not said" and "who discarded South → not said")."""
    return frozenset(st.session_state.get(TOLD, ()))


def toast_text(lines: Sequence[tuple[str, str | None]]) -> tuple[str, str | None] | None:
    """The one toast of `lines`, in the order queued, each a paragraph, with the first icon given;
    None where there are none."""
    if not lines:
        return None
    icons = [icon for _, icon in lines if icon]
    return "\n\n".join(line for line, _ in lines), icons[0] if icons else None


def drop_toasts() -> None:
    """Forget lines a run queued and did not show (it stopped early: a rerun asked for midway)."""
    st.session_state.pop(PENDING, None)
    st.session_state.pop(TOLD, None)


def show_toast() -> None:
    """This run's queued lines as one toast, then forgotten."""
    said = toast_text(st.session_state.pop(PENDING, None) or [])
    st.session_state.pop(TOLD, None)
    if said is not None:
        st.toast(said[0], icon=said[1])
