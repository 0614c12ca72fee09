"""Mahjong tai (fan) calculator: score a Singapore mahjong hand, or a Malaysian 3-player one, from a
photo (Streamlit).

Run with `streamlit run app.py`. The page is a straight line: photo (or typed hand) -> tiles read ->
the user's corrections -> how the hand was won -> tai and payouts; a wide screen puts the tile table
beside the photo. Scoring and vision live in their packages; this file only wires widgets to them
(helpers in `app_ui/`).
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app_ui import page_script, table_edits
from app_ui.address import keep_case
from app_ui.case import Base
from app_ui.case_tab import apply_opened_case, open_case_ui
from app_ui.change_note import NOT_SCORED, change_note
from app_ui.context_panel import context_ui, set_aside_choices
from app_ui.hand_view import START_PROMPT_CSS, hand_view_ui, meld_offer_ui, reread_label, unsure_ui
from app_ui.house_address import address_house_rules, bring_back_house_rules
from app_ui.photo_reading import follow_tile_set
from app_ui.photo_tab import TO_RESULT, photo_stale_note, photo_ui
from app_ui.reader_slot import get_reader
from app_ui.reload import held_for_reload, restore_kept_case
from app_ui.result_panel import RESULT_ANCHOR, download_ui, result_ui, score_case, stakes_of
from app_ui.rules_panel import chosen_rules, chosen_set, rules_ui
from app_ui.session import (
    HAND_ID,
    bring_back_winning_tile,
    current_edits,
    init_state,
    meld_concealed_now,
    note_table_change,
    settle_corrected_tiles,
    table_corrections,
    unsaved_corrections,
)
from app_ui.summary import page_heading, plain_line
from app_ui.teach import keep_brought_back, teach_ui
from app_ui.tile_editor import tile_editor_ui
from app_ui.tile_sets import tiles_in_set
from app_ui.toasts import show_toast, told_in_toast
from app_ui.typed_tab import manual_ui, typed_stale_note
from app_ui.winning_hint import Outcome, photo_score_words, result_words, winning_tile_outcomes


def input_ui() -> None:
    photo_tab, typed_tab, case_tab = st.tabs(["📷 Photo", "⌨️ Type a hand", "📂 Open a case"])
    with photo_tab:
        photo_ui()
    with typed_tab:
        manual_ui()
    with case_tab:
        open_case_ui()


# The photo, how it was won and the result on the left, the tile table beside them on a wide screen,
# so the numbered boxes and the table's rows are read side by side; a phone stacks the two, in this
# order, as the page always ran: photo, how it was won, result, then the table.
PAGE_COLUMNS = (1, 1)
# A half narrower than this stacks under the other, as on a phone: the tile table's four columns
# (`tile_editor.COLUMN_PX`, 252 px, and the row markers) no longer fit beside the photo, which would
# shrink to a thumbnail (a tablet, or a laptop's window with the sidebar open).
HALF_LEAST_PX = 296
HALVES_KEY = "page_halves"
SIDEBAR_OVER_PAGE_PX = 767  # Streamlit lays its sidebar over the page up to this window width
# Streamlit lets columns wrap (flex-wrap) but stacks them only under 640 px of window; a least width
# on the page's own halves (not on columns inside them) stacks them where the halves are too narrow.
HALVES = (
    f".st-key-{HALVES_KEY} [data-testid='stColumn']:not([data-testid='stColumn'] [data-testid='stColumn'])"
)
HALVES_CSS = f"{HALVES} {{ min-width: min(100%, {HALF_LEAST_PX}px); }}"


# Streamlit shows a toast at the top right; on a phone the sidebar opens over the page there, and a
# toast for a change made in it (a rule set, a house rule) covered its first boxes for seconds (an
# audit, stage 62). Under the width where the sidebar lies over the page, toasts rise from the bottom
# while it is open. With it closed they stay at the top: on a phone the result lies below the boxes that
# change it, and from the bottom a toast covered the score a change had just moved (measured at 390 x
# 844: "Bonus tiles held from the deal" set, the toast at 729-828 px lay over the "4 tai" line at 708-764).
# A tap on the tile table in the screen's upper half sends it there too (`page_script.toast_away`): at the
# top it covered the first rows being edited (an audit; measured at 390 x 844 with the table's first row
# tapped at 170 px: the toast at 68-145 px, the tapped place under it).
SIDEBAR_OPEN = "[data-testid='stSidebar'][data-collapsed='false']"
LOW_TOAST = "{ top: auto !important; bottom: 1rem; }"
TOAST_CSS = (
    f"@media (max-width: {SIDEBAR_OVER_PAGE_PX}px) "
    + f"{{ body:has({SIDEBAR_OPEN}) .stToastContainer {LOW_TOAST} }} "
    + f"body[{page_script.TOAST_LOW}] .stToastContainer {LOW_TOAST}"
)


# Streamlit writes captions at 60% of the text's ink, 3.9:1 on white; the page's captions say what the
# photo's boxes mean, the score now and how the payout was reached, so they are darkened to 6.6:1
# (an accessibility audit, stage 80; the theme is light, `.streamlit/config.toml`).
CAPTION_CSS = '[data-testid="stCaptionContainer"] { color: rgba(49, 51, 63, 0.8) !important; }'


def page_columns() -> tuple[DeltaGenerator, DeltaGenerator]:
    st.html(f"<style>{HALVES_CSS} {TOAST_CSS} {CAPTION_CSS} {START_PROMPT_CSS}</style>")
    page_script.run("toast_away", page_script.toast_away(HALVES))
    reading_side, table_side = st.container(key=HALVES_KEY).columns(PAGE_COLUMNS, gap="medium")
    return reading_side, table_side


LAST_SCORED = "last_scored"  # (hand, scoring input, result, corrections, winning tile ways) of the run before
LAST_SCORED_FIELDS = 5


def _what_changed(
    data: dict[str, Any],
    result: dict[str, Any] | None,
    corrected: list[dict[str, Any]],
    outcomes: list[Outcome],
    told: Collection[str] = (),
) -> tuple[str | None, str | None]:
    """The line saying what the user's last change did to the score (`app_ui.change_note`), where the
    hand is the same one (a new photo or typed hand is no change to explain; an undo or a way taken,
    which start the table again, are), and the line as the run's toast says it, after its notes that
    told the fields `told` (`toasts.told_in_toast`); `corrected`: the table's correction records (kept
    as a copy, so that no later edit of the table's lists changes the run before's)."""
    state = st.session_state
    before = state.get(LAST_SCORED)
    if before is not None and len(before) != LAST_SCORED_FIELDS:
        before = None  # kept by the code before an update (a session open while it changed): told nothing
    hand = state.get(HAND_ID, 0)
    # a run that scored nothing is kept as such: the next score is told against it, not the one before
    kept = copy.deepcopy(corrected)
    state[LAST_SCORED] = (hand, copy.deepcopy(data), NOT_SCORED if result is None else result, kept, outcomes)
    if result is None or before is None or before[0] != hand:
        return None, None
    corrections, ways = (before[3], kept), (before[4], outcomes)
    line = change_note(before[1], before[2], data, result, corrections, ways)
    # the page shows the line whole, under the result; the toast beside the note says each fact once
    toasted = change_note(before[1], before[2], data, result, corrections, ways, told) if told else line
    return line, toasted


def _score_in_words(scored: tuple[dict[str, Any], dict[str, Any] | None, str | None]) -> str | None:
    """A scoring's score in the words a line setting two side by side uses (`result_words`), None
    where it scored nothing."""
    data, result, _ = scored
    return None if result is None else result_words(result, winning_tile_outcomes(data))


def main() -> None:
    # the rule set as the last run left it; named again once the sidebar has drawn this run's
    st.set_page_config(page_title=page_heading(chosen_rules())[0], page_icon="🀄", layout="wide")
    init_state()
    bring_back_house_rules()  # before a kept case, which sets its own
    restore_kept_case()
    bring_back_winning_tile()
    note_table_change()
    settle_corrected_tiles()
    apply_opened_case()
    # drawn here, filled once the sidebar's rule set is known (a sample of the other game switches it)
    heading = st.container()
    # a slot drawn on every run, filled or not: an element that came and went above the tabs would
    # move them, and Streamlit would show the first tab again at the next click
    restored = st.session_state.pop("restored_note", None)
    notes_slot = st.container()
    if restored:
        notes_slot.info(restored)
    address_note = st.session_state.pop("house_address_note", None)
    if address_note:  # it quotes the address, which anyone may have written: shown as plain text
        notes_slot.warning(plain_line(address_note))
    rules, options, option_problems = rules_ui()
    address_house_rules(rules, st.session_state["option_store"].get(rules, {}))
    title, caption = page_heading(rules)
    st.set_page_config(page_title=title)
    heading.title(f"🀄 {title}")
    heading.caption(caption)
    follow_tile_set(chosen_set())
    input_ui()
    base: Base = st.session_state["base"]
    reading_side, table_side = page_columns()
    with reading_side:
        rows, build, slots = hand_view_ui(base)
        context = context_ui(build.hand, rules)
    data, result, error = score_case(build, context, rules, options)
    outcomes = winning_tile_outcomes(data) if result is not None else []
    scored = None if result is None else (result, outcomes)
    meld_offer_ui(
        slots.offer,
        base,
        rows,
        None if result is None else result_words(result, outcomes),
        lambda other: _score_in_words(score_case(other, context, rules, options)),
    )
    in_set = tiles_in_set(chosen_set())
    unsure_ui(
        slots.unsure,
        base,
        rows,
        in_set,
        # the rows as scored above: not scored again for the stakes
        stakes_of(rows, meld_concealed_now(base), context, rules, options, in_set, scored),
    )
    # the kongs ticked concealed or exposed against the reading: corrections of their own
    kongs = table_edits.kong_corrections(build, base.flags_as_read)
    corrected = table_corrections(base, kongs)
    changed, toast_changed = _what_changed(data, result, corrected, outcomes, told_in_toast())
    if base.source == "photo" and result is not None:
        said = photo_score_words(result, outcomes, unsaved_corrections(base))
        slots.score_hint.markdown(f"{said} — [see Result below](#{RESULT_ANCHOR})")  # a tap away on a phone
    with reading_side:
        stale = " ".join(filter(None, [typed_stale_note(), photo_stale_note()])) or None
        reread = reread_label(base, chosen_set())
        result_ui(
            build,
            data,
            result,
            error,
            option_problems,
            stale,
            outcomes,
            changed,
            toast_changed,
            reread=reread,
        )
        offered = download_ui(data, base, rows, result, kongs, current_edits())
    with table_side:
        tile_editor_ui(base, build, result, kongs, outcomes)
        teach_ui(st.session_state["base"], rows, get_reader().reader)
    note_table_change()
    # what the page holds beside its case, built only where there is a case to keep (it serialises the table)
    page = None if offered is None else {**set_aside_choices(), **held_for_reload()}
    keep_case(offered, st.session_state["base"], page)
    keep_brought_back()
    show_toast()  # the run's notes and its score's change, as one
    to_result_once()


def to_result_once() -> None:
    """After a photo is read or a typed hand used, a phone is taken to its result, once: the result lay
    two or three screens down, under the photo (or the typed fields) and how it was won. Drawn last,
    under the parts it scrolls past; not drawn again for the same hand, so that a user correcting tiles
    is left where they are. Side by side (a wide screen),
    the page stays where it is: the photo and the table are read together (`page_script.scroll_to`)."""
    reading = st.session_state.pop(TO_RESULT, None)
    if reading is not None:
        page_script.run("to_result", page_script.scroll_to(RESULT_ANCHOR, HALVES, str(reading)))


if __name__ == "__main__":
    main()
