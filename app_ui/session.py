"""The session's hand and its tile table: the state a page starts with, the table's widget keys and
edits, whether the user has corrections standing, a new base for the table, and "Undo the last tile change"
(the table as it stood before each change, kept as `app_ui.undo` steps).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import streamlit as st

from app_ui import case as case_mod
from app_ui import kept_case, table_edits, undo_kept
from app_ui import undo as undo_mod
from app_ui.address import kept_name
from app_ui.case import MELD_GROUPS, Base
from app_ui.hand_build import build_hand
from app_ui.photo_view import PhotoView
from app_ui.widget_memory import keep, kept_value


def init_state() -> None:
    defaults: dict[str, Any] = {
        "base": Base(),
        "version": 0,
        "loaded_source": None,
        "pending": None,
        "declined": [],  # photos the user chose not to read, to keep their corrections
        "handled": [],  # photo sources already read, refused or declined: never read again by a rerun
        "display": None,  # PhotoView: the copies of the photo drawn on
        "photo_error": None,
        "photo_error_source": None,  # the source id of the file `photo_error` is about
        "pending_typed": None,  # a typed hand waiting for the user's yes, as it would replace corrections
        "typed_error_version": None,  # the case version a typed hand failed to replace
        "pending_case": None,  # the same for a case file opened again
        "case_error": None,
        "option_store": {},
    }
    for key, value in defaults.items():
        if key not in st.session_state:
            st.session_state[key] = value


def editor_key() -> str:
    return f"tiles_{st.session_state['version']}"


def concealed_key(group: str) -> str:
    return f"concealed_{st.session_state['version']}_{group.replace(' ', '_')}"


def current_edits() -> dict[str, Any]:
    edits = st.session_state.get(editor_key())
    return dict(edits) if isinstance(edits, dict) else {}


def said_until_table_changes(note: str | None, key: str) -> str | None:
    """`note` (the result is still the hand before a refused one) for as long as the tile table stands
    as it did when it was first said, which `key` keeps: once the user edits it, the result is the
    table's, as corrected, and no longer "the hand before it"."""
    state = st.session_state
    table = json.dumps(current_edits(), sort_keys=True, default=str)
    if note is None:
        state[key] = None
    elif state.get(key) is None:
        state[key] = (state["version"], table)
    elif state[key] != (state["version"], table):
        return None
    return note


def meld_concealed_now(base: Base) -> dict[str, bool]:
    out = dict(base.meld_concealed)
    for group in MELD_GROUPS:
        ticked = kept_value(concealed_key(group), None)
        if ticked is not None:
            out[group] = bool(ticked)
    return out


def unsaved_corrections(base: Base) -> bool:
    """True when the user changed anything in the current tiles (table edits or concealed-kong flags),
    or the tiles hold corrections only this page has (a case a reload brought back). Counted as the
    corrections line counts them, each tile's net change: a tile changed and changed back is none."""
    saved = table_edits.net_corrections((base.history or {}).get("corrections") or [])
    restored_work = base.restored and bool(saved)
    blank = table_edits.blank_added_rows(current_edits())  # a row added, its tile not yet picked
    # a kong's tick against the reading's, as the corrections line weighs it: a tick a fold took into
    # the base is no change to `ticks_changed` (a review, stage 77: a rule-set switch dropped it unasked)
    rows = table_edits.apply_edits(base.rows, current_edits())
    kongs = table_edits.kong_corrections(build_hand(rows, meld_concealed_now(base)), base.flags_as_read)
    return bool(restored_work or table_corrections(base, kongs) or blank or ticks_changed(base))


def corrections_to_undo(base: Base) -> bool:
    """True when *Undo my corrections* has a reading to go back to: the table's own edits, or corrections
    folded in over a reading kept (`as_read`). A case a reload brought back without its photo holds
    corrections no reading here can undo: they stay, and the button is not offered."""
    return bool(base.as_read is not None or table_edits.has_edits(current_edits()) or ticks_changed(base))


def ticks_changed(base: Base) -> dict[str, bool]:
    """The kong ticks the user set otherwise than the hand has them."""
    return undo_mod.ticks_changed(base.meld_concealed, meld_concealed_now(base))


def set_base(base: Base, source_id: str | None, display: PhotoView | None, same_hand: bool = False) -> None:
    """Start a new case: new base rows and a fresh tile table (new editor key, so old edits go). A new
    hand starts with nothing to undo; `same_hand` (the table restarted on the hand) keeps the undo list,
    and every tile number the table on screen has given: a step undone brings back a base from before
    the tiles added since, and their numbers must not be given again (a new case numbers afresh)."""
    if same_hand:  # the table's edits are read under the version it has until now
        given = table_edits.numbers_given(st.session_state["base"], current_edits())
        base = table_edits.numbering_kept(base, given)
    st.session_state["base"] = base
    st.session_state["version"] += 1
    st.session_state["loaded_source"] = source_id
    st.session_state["display"] = display
    st.session_state["pending"] = None
    if not same_hand:
        # a reloaded page's steps, for its case alone: set with it (`reload`), which opens in that run
        back = st.session_state.pop(UNDO_BACK, None)
        st.session_state[UNDO] = list(back) if back else []
        st.session_state[HAND_ID] = st.session_state.get(HAND_ID, 0) + 1


# "Undo the last tile change" (`app_ui.undo`): its list of `TableState`, and the table as the last run saw it
UNDO = "undo_list"

TABLE_SEEN = "table_seen"
# the steps a reloaded page brings back (`reload`), until its case opens; and the list as last kept
# for a reload, with the name it was kept under
UNDO_BACK, UNDO_KEPT = "undo_back", "undo_kept"


def table_now(base: Base) -> case_mod.TableState:
    """The table as it stands: its edits and the kong ticks the user changed from the hand's own."""
    edits = table_edits.normal_edits(copy.deepcopy(current_edits()))
    return case_mod.TableState(base, edits, ticks_changed(base))


def remember_for_undo(state: case_mod.TableState) -> None:
    st.session_state[UNDO] = undo_mod.with_step(st.session_state.get(UNDO) or [], state)


def note_table_change() -> None:
    """Keep the table as it stood before the change the user just made in it (each change is a run):
    called as a run starts, and as it ends, for the table a run started (a new photo's) to be seen."""
    now = table_now(st.session_state["base"])
    seen_now = undo_mod.SeenTable(st.session_state["version"], now.edits, now.meld_concealed)
    step = undo_mod.step_before(st.session_state.get(TABLE_SEEN), seen_now, now.base)
    if step is not None:
        remember_for_undo(step)
    st.session_state[TABLE_SEEN] = seen_now
    keep_undo_steps()


def keep_undo_steps() -> None:
    """Keep the undo list beside the page's case for a reload (`kept_case.UNDO`) where it changed
    since it was last kept: checked as each run starts and ends, as anything may change it (a step
    taken, one undone, a new hand, a re-read giving the newest its winning tile)."""
    state = st.session_state
    steps = list(state.get(UNDO) or [])
    kept = state.get(UNDO_KEPT)
    name = state.get("kept_case")
    if kept is None and not steps:
        return  # nothing kept, nothing to keep (a page with no hand makes no file)
    if not name:
        name = kept_name()  # a reloaded page names its own case as its first run ends: this run
    # the steps are frozen values: the same objects are the same steps, and comparing them is cheap
    if kept is not None and kept[0] == name and [id(step) for step in kept[1]] == list(map(id, steps)):
        return
    kept_case.save(name, json.dumps(undo_kept.steps_json(steps)).encode("utf-8"), kept_case.UNDO)
    state[UNDO_KEPT] = (name, steps)


def settle_corrected_tiles() -> None:
    """A tile the user gave another face is theirs, no longer the reader's guess: its confidence and
    unsure mark must go from the table's *Sure?* column. That column is the table's data, and
    Streamlit starts a table whose data changed afresh (its edits lost), so the edits are folded into
    the rows and the table starts again with them, as a way taken folds them. So is a row the user added
    in the table once it has its tile: its *Sure?* cell is drawn empty until then (an audit: it said
    "yours" beside no tile), and the tile is the user's. Called as a run starts, after
    `note_table_change` kept the table before the edit for "Undo the last tile change"; a row added
    with no tile yet waits for its tile (folded now, it would be dropped)."""
    state = st.session_state
    base: Base = state["base"]
    edits = current_edits()
    # the user's word on a tile the reader read, or on the tile of a row they added
    said = table_edits.changes_a_read_tile(base.rows, edits) or table_edits.gives_an_added_row_its_tile(edits)
    if not said or table_edits.blank_added_rows(edits):
        return
    ticks = ticks_changed(base)
    # not `set_base`: that would also drop a question waiting about a new photo
    state["base"] = table_edits.fold_edits(base, edits)
    state["version"] += 1
    for group, concealed in ticks.items():  # the ticks' keys name the table's version: kept under the new
        keep(concealed_key(group), concealed)


def restart_table(base: Base, winning_tile: tuple[str, str | None] | None = None) -> None:
    """The hand's table started again from `base` (a way taken, corrections undone or dropped by a
    re-read), the table as it stood kept for "Undo the last tile change", with the `winning_tile` (as
    chosen, and any set aside) to bring back where the restart moves it."""
    state = table_now(st.session_state["base"])
    remember_for_undo(state if winning_tile is None else undo_mod.with_winning_tile(state, winning_tile))
    set_base(base, st.session_state["loaded_source"], st.session_state.get("display"), same_hand=True)


def undo_last_change() -> None:
    """The table as it stood before the last change: its rows, with the edits then standing folded in,
    its kong ticks, and the winning tile where a change of the table's moved it (a re-read renames it
    with its tiles)."""
    state: case_mod.TableState = st.session_state[UNDO].pop()
    set_base(
        undo_mod.restored(state),
        st.session_state["loaded_source"],
        st.session_state.get("display"),
        same_hand=True,
    )
    for group, concealed in state.meld_concealed.items():  # each a tick set otherwise than the base has it
        keep(concealed_key(group), concealed)
    if state.winning_tile is not None:  # its box is drawn above the table: set on the rerun, before it
        st.session_state[WINNING_TILE_BACK] = state.winning_tile


WINNING_TILE_BACK = "winning_tile_back"


def bring_back_winning_tile() -> None:
    """The winning tile an undone change had moved, set before its box is drawn."""
    back = st.session_state.pop(WINNING_TILE_BACK, None)
    if back is not None:
        st.session_state["winning_tile"], st.session_state["winning_tile_wanted"] = back


HAND_ID = "hand_id"  # counts the hands: a restarted table (undo, a way taken) is the same hand


def table_corrections(base: Base, kongs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every correction of the table on screen: those folded into it (a way taken, an undo, a reload)
    and those in it now, the kongs' ticks last."""
    now = [*table_edits.corrections(base.rows, current_edits()), *kongs]
    return table_edits.corrections_so_far(list(map(dict, base.earlier)), now)
