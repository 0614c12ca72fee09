"""One toast a run: the page's parts queue their lines, and the run shows them together at its end.

Two toasts raised by one change stacked at the top of a phone's screen (a seat set to the discarder's:
"South is the winner's seat now ..." over "Changed: 2 tai → 1 tai ..."), covering a fifth of it.

Lines queued by a run cut short (a button's `st.rerun()` after them, or a tap that interrupted it) are
kept for the next run's toast: each is queued once, from a note popped as it is queued or from a
change told against the run before (`app._what_changed`), so the next run does not queue it again; a
line dropped with the cut run went unsaid (pay-all unticked with *Add it* tapped in one run: its note
never showed).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import streamlit as st

# the lines (and icons) queued since a run last ended, shown and dropped by `show_toast`
PENDING = "toast_lines"
TOLD = "toast_told"  # the scoring input's fields those lines told, dropped with them


def toast_later(line: str, icon: str | None = None, told: Collection[str] = ()) -> None:
    """Queue `line` for the one toast at this run's end (`show_toast`; the next run's where this one
    is cut), with the `icon` the toast may take; `told`: the scoring input's fields
    (`change_note.FIELD_WORDS`) whose new value it says, which the score's change queued after it leaves
    out (`told_in_toast`)."""
    st.session_state.setdefault(PENDING, []).append((line, icon))
    if told:
        st.session_state[TOLD] = {*st.session_state.get(TOLD, ()), *told}


def told_in_toast() -> frozenset[str]:
    """The fields the queued lines told (`toast_later`): one toast says each fact once (a seat
    set to the discarder's said "who discarded is not said" and "who discarded South → not said")."""
    return frozenset(st.session_state.get(TOLD, ()))


def toast_text(lines: Sequence[tuple[str, str | None]]) -> tuple[str, str | None] | None:
    """The one toast of `lines`, in the order queued, each a paragraph, with the first icon given;
    None where there are none."""
    if not lines:
        return None
    icons = [icon for _, icon in lines if icon]
    return "\n\n".join(line for line, _ in lines), icons[0] if icons else None


def show_toast() -> None:
    """The lines queued since the last toast (this run's, and a cut run's before it) as one toast, then
    forgotten."""
    said = toast_text(st.session_state.pop(PENDING, None) or [])
    st.session_state.pop(TOLD, None)
    if said is not None:
        st.toast(said[0], icon=said[1])
