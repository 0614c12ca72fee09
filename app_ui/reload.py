"""A page the browser reloaded opens the case it held (`app_ui.kept_case`), with its photo read again
where that was kept and still reads as the case recorded, else the table it held on the hand as typed
or the case as opened (`app_ui.kept_table`), the typed fields, and the steps *Undo the last tile change* had
where they are steps of that case.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from app_ui import case as case_mod
from app_ui import case_file, case_open, kept_case, kept_table, table_edits, tile_sets, undo_kept
from app_ui.address import kept_name
from app_ui.case import Base
from app_ui.case_tab import PAGE_BACK, TICKS_BACK
from app_ui.photo_reading import decoded_photo, photo_view_of
from app_ui.photo_rows import BoxKey
from app_ui.photo_view import PhotoView
from app_ui.reader_slot import get_executor, get_reader, read_timeout_s
from app_ui.reading import read_tiles, with_reading
from app_ui.rules_panel import chosen_rules
from app_ui.session import UNDO_BACK, table_now
from app_ui.set_lessons import describes, reader_key
from app_ui.teach import LESSONS_UNKEPT, bring_back_lessons, keep_read_with, kept_read_with
from app_ui.typed_tab import TYPED_FIELDS
from vision.set_lessons import Lesson, memory_for


def restore_kept_case() -> None:
    """A page the browser reloaded (a new session, its address naming a kept case) opens the case it
    held, as *Open a case* would (`app_ui.kept_case`), with its photo where that was kept and reads as
    the case says. Asked once a session."""
    state = st.session_state
    if "kept_case" in state:
        return
    state["kept_case"] = None  # this session keeps its case under a name of its own, given when needed
    if kept_case.QUERY_KEY not in st.query_params:
        return
    name = st.query_params.get(kept_case.QUERY_KEY)
    if kept_case.is_name(name):
        bring_back_lessons(name)  # the tab's, whether or not its case opens again
    data = kept_case.load(name) if kept_case.is_name(name) else None
    refused = None
    try:
        opened = (
            None
            if data is None
            else case_open.open_case("the case before the page reloaded", data, chosen_rules())
        )
    except case_open.CaseFileError as error:
        # a file from an older app that no longer opens, or a case the page kept that it cannot read:
        # said as it is, not as a case no longer kept (a fuzzing helper, stage 77)
        opened, refused = None, str(error)
    if opened is None:
        del st.query_params[kept_case.QUERY_KEY]  # nor may a reload of this page look for it again
        if data is None and refused is None and state.get(LESSONS_UNKEPT):
            # a page emptied of its hand kept its address for the set it had taught: nothing to say
            # of a case, and the lessons are back (kept under this page's name at the run's end)
            return
        if refused is not None:
            note = f"The case this page kept could not be opened again ({refused}): the page starts afresh."
        elif kept_case.is_name(name):
            note = (
                "The case this page's address named is no longer kept (a case is kept for a day after its "
                "last change): the page starts afresh."
            )
        else:
            note = (
                "This page's address names no case (?case= takes a name the app gives): the page starts "
                "afresh."
            )
        state["restored_note"] = note
        return
    page = kept_case.load_json(str(name), kept_case.PAGE)
    state[PAGE_BACK] = page
    _bring_back_typed(page.get(kept_table.TYPED))
    steps = undo_kept.steps_from_json(kept_case.load_json(str(name), kept_case.UNDO))
    photo = kept_case.load(str(name), kept_case.PHOTO)
    reader = get_reader().reader
    # read with the lessons it was read with, whatever the tab's are now (forgotten, taught more)
    lessons = () if photo is None else kept_read_with(str(name), reader, _photo_digest(opened))
    back = None if photo is None else _photo_back(photo, opened, lessons)
    if photo is not None and back is not None:
        kept_case.share_photo(str(name), kept_name(), photo)  # this page's own copy, as its case is
        keep_read_with(lessons, reader)  # and of what it was read with, for the next reload
        base, state["display_to_restore"] = back
        state["case_to_open"] = dataclasses.replace(opened, base=base, reloaded=True)
        state[UNDO_BACK] = _steps_back(steps, base, opened.base.history)
        corrected = " your corrections," if base.earlier else ""
        state["restored_note"] = (
            f"The page was reloaded: the photo, its tiles,{corrected} and how it was won are back."
        )
        return
    # a typed hand or an opened case: the table the page held, on the hand as typed or the case as
    # opened, so that the corrections stay the user's and *Undo my corrections* returns to that base
    table = kept_table.table_back(page.get(kept_table.TABLE), opened)
    case = _as_saved(opened) if table is None else kept_table.with_table(opened, table)
    if table is not None:
        state[TICKS_BACK] = dict(table.ticks)
    state["case_to_open"] = case
    state[UNDO_BACK] = _steps_back(steps, case.base, opened.base.history)
    state["restored_note"] = _hand_back_note(opened.base.history, table)


def _as_saved(opened: case_open.OpenedCase) -> case_open.OpenedCase:
    """The case a reload opened as its file saved it (no table kept beside it, or not this case's):
    the case as it was, not one opened from a file, so saved with its own source and name, and its
    corrections work this page alone holds (`Base.restored`)."""
    source = (opened.base.history or {}).get("source")
    saved_name = source.get("name") if isinstance(source, dict) else None
    base = dataclasses.replace(opened.base, restored=True, name=str(saved_name or opened.base.name))
    return dataclasses.replace(opened, base=base, reloaded=True)


def _hand_back_note(kept: Mapping[str, Any] | None, table: kept_table.TableBack | None) -> str:
    """What a reload brought back of a hand it shows with no photo (`kept`: the kept case's record;
    `table`: the table the page held, where it came back), and why no photo where the page showed one."""
    source = (kept or {}).get("source")
    kinds: list[object] = []
    while isinstance(source, dict) and len(kinds) < 100:  # a case opened from a file names where it came from
        kinds.append(source.get("kind"))
        source = source.get("opened_from")
    own = table is not None and bool(table.base.earlier or table.ticks)
    corrected = (
        " your corrections," if own else " its corrections," if (kept or {}).get("corrections") else ""
    )
    return f"The page was reloaded: the hand,{corrected} and how it was won are back." + (
        " The photo could not be shown again (it was not kept, or reads otherwise now): a photo"
        " uploaded now is read afresh, and the page asks first where that would replace"
        " corrections (download the case to keep them)."
        if kinds[:1] == ["photo"]  # the page showed a photo (not a case opened from one's reading)
        else ""
    )


def _bring_back_typed(data: object) -> None:
    """The typed hand's fields as the page held them (`held_for_reload`), and the hand last used from
    them: set before the fields are drawn, so that the page says as before whether they differ."""
    typed = kept_table.typed_back(data, len(TYPED_FIELDS))
    if typed is None:
        return
    state = st.session_state
    for key, text in zip(TYPED_FIELDS, typed.fields, strict=True):
        state[key] = text
    state["typed_used"] = state["typed_offered"] = typed.used


def held_for_reload() -> dict[str, Any]:
    """What the page keeps beside its case for a reload (`kept_case.PAGE`) that the case file does not
    say: the tile table on its base (a typed hand's, an opened case's) and the typed fields."""
    state = st.session_state
    used = state.get("typed_used")
    out = {
        kept_table.TYPED: kept_table.typed_json(
            [str(state.get(key) or "") for key in TYPED_FIELDS], None if used is None else list(used)
        )
    }
    table = kept_table.table_json(table_now(state["base"]))
    if table is not None:
        out[kept_table.TABLE] = table
    return out


def _steps_back(
    steps: Sequence[case_mod.TableState], case: Base, kept: Mapping[str, Any] | None
) -> list[case_mod.TableState]:
    """The steps *Undo the last tile change* had before the reload (`steps`, as their file read: none where
    it does not read, and the case opens as it would without them), those of the `case` reopened
    (whose kept file's record is `kept`) alone."""
    return undo_kept.steps_for_case(steps, case, kept)


def _photo_digest(opened: case_open.OpenedCase) -> str | None:
    """The digest of the photo the case was read from, as its record names it; None for no photo's."""
    source = (opened.base.history or {}).get("source")
    digest = source.get("sha256") if isinstance(source, dict) else None
    return digest if isinstance(digest, str) else None


def _photo_back(
    data: bytes, opened: case_open.OpenedCase, lessons: Sequence[Lesson] = ()
) -> tuple[Base, PhotoView] | None:
    """The photo case a reload brought back as it stood, and the copies of its photo to draw on: the
    kept photo (`data`) read again, as the set the case names and with the `lessons` it was read with
    (`teach.kept_read_with`), for its reading, with the saved table and its
    corrections on top, so that the photo shows, *Undo my corrections* returns to its reading and a
    switch of rule set reads it again. None where the case is no photo's read in this page, `data` is
    not its photo, or the photo reads otherwise than the case recorded (the models changed): then the
    case opens as saved."""
    history = opened.base.history or {}
    source = history.get("source")
    if not isinstance(source, dict) or source.get("kind") != "photo":
        return None
    if case_mod.photo_digest(data) != source.get("sha256"):
        return None
    photo_name = str(source.get("name") or "photo")
    rgb, _ = decoded_photo(photo_name, data)
    slot = get_reader()
    if rgb is None or slot.reader is None:
        return None
    tile_set = str(source.get("read_as") or tile_sets.set_name(opened.rules, opened.options))
    try:
        with st.spinner("Bringing back the photo…"):
            faces = tile_sets.tiles_in_set(tile_set)
            # numbered as the case saved them: a switch of rule set kept the numbers of the first reading
            numbered_as = saved_numbers(history.get("photo_tiles"))
            # a tile not read before takes no number the case gave (a tile the user added, since deleted)
            given = table_edits.last_number(opened.base)
            memory = memory_for(lessons, reader_key(slot.reader)) if describes(slot.reader) else None
            read = read_tiles(
                slot.reader, rgb, get_executor(), read_timeout_s(), faces, numbered_as, given, memory
            )
    except Exception:  # the case still opens, as saved
        return None
    size = (int(rgb.shape[1]), int(rgb.shape[0]))
    photo = Base(
        source="photo",
        name=photo_name,
        sha256=str(source["sha256"]),
        size=size,
        # the numbers the case gave that its corrections no longer name (a tile added, then undone)
        numbered_up_to=opened.base.numbered_up_to,
    )
    fresh = with_reading(photo, read, tile_set)
    if case_file.codes_and_groups(case_file.rows_to_json(fresh.rows)) != case_file.codes_and_groups(
        history.get("photo_tiles")
    ):
        return None
    # the kongs' ticks are carried by the ticks against the reading's (`Base.flags_as_read`), not as
    # folded corrections: kept there too, an untick after the reload left "set concealed" standing (a
    # review, stage 77)
    saved = tuple(history.get("corrections") or ())
    corrections = tuple(c for c in saved if c.get("action") != "kong")
    if saved:
        # folded into the table, as a way taken folds them: undone together, back to the reading
        fresh = dataclasses.replace(
            fresh,
            rows=tuple(case_file.with_reading_of(opened.base.rows, fresh.rows)),
            meld_concealed=opened.base.meld_concealed,
            as_read=case_mod.AsRead(fresh.rows, fresh.meld_concealed),
            earlier=corrections,
            ways_closed=True,
        )
    return dataclasses.replace(fresh, restored=True), photo_view_of(rgb, fresh)


def saved_numbers(items: object) -> dict[BoxKey, int]:
    """The number each tile of a case's `photo_tiles` (`case_file.rows_to_json`) had, by its box; a
    record edited by hand past reading is left out (its tile is numbered afresh)."""
    out: dict[BoxKey, int] = {}
    for item in items if isinstance(items, list) else []:
        box = item.get("box") if isinstance(item, dict) else None
        # a tile number is 1 or more (a hand-edited `true` or -3 would name no tile of the table)
        number = case_mod.positive_int(item.get("tile")) if isinstance(item, dict) else None
        if not isinstance(box, list) or len(box) != 4 or number is None:
            continue
        if all(isinstance(v, int | float) and math.isfinite(v) for v in box):
            out[case_file.saved_box(box)] = number
    return out
