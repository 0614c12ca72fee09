"""What the page's address carries for a reload: the name the session's case is kept under
(`app_ui.kept_case`), and whether the whole photo is shown.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import streamlit as st

from app_ui import kept_case
from app_ui.case import Base
from app_ui.set_lessons import LESSONS

VIEW_KEY, WHOLE_VIEW = "view", "whole"  # the page's address says the whole photo is shown


def address_the_view(whole: bool) -> None:
    """Put *Show the whole photo* in the page's address, so that a reload shows the photo as it was."""
    if whole and st.query_params.get(VIEW_KEY) != WHOLE_VIEW:
        st.query_params[VIEW_KEY] = WHOLE_VIEW
    elif not whole and VIEW_KEY in st.query_params:
        del st.query_params[VIEW_KEY]


def kept_name() -> str:
    """The name this page keeps its case (and photo) under for a reload, given at first need; the
    page's address carries it."""
    state = st.session_state
    name = state.get("kept_case")
    if not name:
        name = state["kept_case"] = kept_case.new_name()
        kept_case.prune()
    if st.query_params.get(kept_case.QUERY_KEY) != name:
        st.query_params[kept_case.QUERY_KEY] = name
    return str(name)


def keep_case(offered: bytes | None, base: Base, page: Mapping[str, Any] | None = None) -> None:
    """Keep the case on screen for a reload (the bytes the download `offered`), with what the `page`
    holds beside it (`kept_case.PAGE`), or drop them with the hand (None: no hand); a photo stays kept
    while its tiles are the hand (`photo_reading.read_photo` keeps it)."""
    name = st.session_state.get("kept_case")
    if offered is None:
        if name:  # a photo's hand emptied may come back (undo): its photo stays while it is on screen
            gone = (kept_case.CASE, kept_case.PAGE, kept_case.UNDO)
            photo = (kept_case.PHOTO, kept_case.READ_WITH)
            kept_case.forget(name, gone if base.source == "photo" else (*gone, *photo))
        # a reload of an empty page looks for no case; but a tab that taught the reader its set keeps
        # the name its lessons are kept under (`app_ui.teach`), or a reload had lost them
        taught = bool(st.session_state.get(LESSONS))
        for key in (VIEW_KEY,) if taught else (kept_case.QUERY_KEY, VIEW_KEY):
            if key in st.query_params:
                del st.query_params[key]
        return
    name = kept_name()
    kept_case.save(name, offered)
    kept_case.save(name, json.dumps(dict(page or {})).encode("utf-8"), kept_case.PAGE)
    if base.source != "photo":
        kept_case.forget(name, (kept_case.PHOTO, kept_case.READ_WITH))
