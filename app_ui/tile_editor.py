"""*Check the tiles*: the tile table the user corrects, the undo buttons over it, the lines on what
is corrected, and the concealed-kong ticks.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from app_ui import case as case_mod
from app_ui import set_offer, table_edits, tile_sets
from app_ui.case import GROUPS, TILE_CODES, Base, HandBuild, TileRow
from app_ui.questions import question_waiting
from app_ui.rules_panel import chosen_set
from app_ui.session import (
    UNDO,
    concealed_key,
    corrections_to_undo,
    current_edits,
    editor_key,
    meld_concealed_now,
    restart_table,
    table_corrections,
    undo_last_change,
)
from app_ui.summary import corrections_line, plain_line, tile_key
from app_ui.widget_memory import remember, restore_kept
from app_ui.winning_hint import Outcome, score_now_words
from scoring.typed import chinese_name, read_tiles

ROW_PX = 36  # a row of the tile table

# it steps back the tile table alone: the winds, how it was won and the rules keep what was set
UNDO_LAST_LABEL = "Undo the last tile change"

TABLE_MAX_PX = 640  # the tile table's height at most: within a phone's screen (844 px, less the browser's)
TOOLBAR_ROOM_PX = 24


def rows_below_note(rows: int) -> str | None:
    """Where the table holds more rows than its capped height shows (a hand with many bonus tiles), a
    line saying the last lie below its foot: the table then scrolls inside itself, which nothing else
    says (an audit, stage 71: the rows the reader asked to check were the hidden ones)."""
    if ROW_PX * (rows + 1) <= TABLE_MAX_PX:  # the header and every row fit
        return None
    # not "to #N": after a deletion the last row keeps its own number, no longer the count
    return f"{rows} tiles, more than the table's height shows: scroll inside it for the last ones."


# The table's columns, px: narrow enough that the table fits beside the photo on a laptop with the
# sidebar open (its column there is about 300 px) and the longest entry ("meld 4", "⚠ 25%") still shows
COLUMN_PX = {"n": 36, "tile": 64, "group": 88, "check": 64}

# The group a row the user adds starts with. None of the column's options, so Streamlit draws an empty
# cell (with no default it drew the word "None"), and the tile goes where its kind goes, as the
# column's help says (`table_edits.numbered_edits` reads a group not in `GROUPS` as the face's own: a
# flower's bonus, a 5p's the hand). Words, not "": Streamlit draws "" as "None" too.
GROUP_BY_TILE = "by tile"
# The tile a row the user adds starts with, for the same reason: none of the codes, so drawn as an
# empty cell (with no default the cell read a grey "None" under the required mark), and read as no
# tile yet (`table_edits.blank_added_rows`), which the line under the table asks the user to pick.
TILE_NOT_PICKED = "pick"


def add_tile_ui(base: Base) -> None:
    """A missed tile added by its face in one pick and a tap: the table's own blank row lies at its
    foot, under its fold on a photo of many tiles, and its + shows only on hover (an audit's finding)."""
    # the set named once: inside the condition it was named again for each of the 49 codes (~5-10 ms
    # of every rerun, the sidebar's options read each time)
    in_set = tile_sets.tiles_in_set(chosen_set())
    faces = [code for code in TILE_CODES if code in in_set]
    version = st.session_state["version"]
    row = st.container(horizontal=True, vertical_alignment="bottom")
    code = row.selectbox(
        "Add a missed tile",
        faces,
        index=None,
        placeholder="its face",
        format_func=chinese_name,
        key=f"add_tile_{version}",
        help="It goes to the hand (a flower, season or animal to the bonus row); move it in the table.",
    )
    if row.button("Add it", key=f"add_tile_go_{version}", disabled=code is None or question_waiting()):
        restart_table(table_edits.with_added_tile(base, current_edits(), str(code), meld_concealed_now(base)))
        st.rerun()
    several = st.container(horizontal=True, vertical_alignment="bottom")
    typed = several.text_input(
        "Or type several",
        key=f"add_tiles_{version}",
        placeholder="EEE 55p F1",
        help="Tiles as the Type a hand tab reads them (codes, Chinese names or emoji tiles), added at once: "
        "each to the hand, a flower, season or animal to the bonus row.",
    )
    # never disabled for an empty field: a typed value reaches the page only as the field loses focus,
    # so a button disabled till then would swallow the tap that moved the focus
    if several.button("Add them", key=f"add_tiles_go_{version}", disabled=question_waiting()):
        codes, problem = typed_tiles_to_add(typed, set(faces))
        if problem:
            st.error(plain_line(problem))
            return
        restart_table(table_edits.with_added_tiles(base, current_edits(), codes, meld_concealed_now(base)))
        st.rerun()


def typed_tiles_to_add(text: str, faces: set[str]) -> tuple[list[str], str | None]:
    """The tiles typed to be added, or why they cannot be: unreadable, or of a face the chosen set
    lacks (one line, quoting what was typed)."""
    try:
        codes = read_tiles(text)
    except ValueError as exc:
        return [], f"Could not add the tiles: {exc}"
    strangers = sorted({code for code in codes if code not in faces}, key=codes.index)
    if strangers:
        return [], f"Could not add the tiles: the chosen set holds no {', '.join(strangers)}."
    if not codes:
        return [], "Could not add the tiles: type at least one."
    return codes, None


def set_offer_ui(base: Base, rows: list[TileRow]) -> None:
    """Where the table holds a face more often than a set has, the tiles the reader would read again
    to keep to one set, with the button that takes them (`app_ui.set_offer`)."""
    offer = set_offer.offer_for(base, rows)
    if offer is None:
        over = set_offer.over_line(rows)
        if over is not None:
            st.info(over, icon="🀄")
        return
    st.info(set_offer.offer_line(offer), icon="🀄")
    if st.button(
        set_offer.button_label(offer),
        key=f"set_offer_{st.session_state['version']}",
        disabled=question_waiting(),
    ):
        kongs = meld_concealed_now(base)
        taken = table_edits.take_codes(base, current_edits(), offer.codes, "set offer", kongs)
        restart_table(taken)
        st.rerun()


def tile_editor_ui(
    base: Base,
    build: HandBuild,
    result: dict[str, Any] | None,
    kongs: list[dict[str, Any]],
    outcomes: list[Outcome],
) -> None:
    """The tile table the user corrects: code and group of every tile, add and delete rows (`outcomes`:
    the hand scored with each tile that may have won it, for the score line over it)."""
    st.header("Check the tiles")
    # Above the table and its notes, not under it: a thumb tapping past the table's last row on a phone
    # must not undo the corrections, nor one aiming at the table's toolbar (+) hit them. Dropping them
    # while the page asks whether a new hand may replace them would read that hand unasked: the
    # question comes first. Drawn from the start, greyed out until there is something to undo: drawn
    # only then, they pushed the table down 83 px on a phone (94 on a desktop) at the first correction,
    # the row the user had just tapped moving from under their finger.
    buttons = st.container(horizontal=True, gap="small")
    if buttons.button(
        # named for what it undoes: an audit changed a tile, then the seat wind, and pressed it to undo
        # the seat wind (the key is kept: the steps and the tests know the button by it)
        UNDO_LAST_LABEL,
        key="undo_last",
        icon="↩️",
        disabled=question_waiting() or not st.session_state.get(UNDO),
        # an audit undid a tile edit when it meant the unit it had just set in the sidebar
        help="Steps back the tile table's last change (a tile, a group, a kong's tick, an offer "
        "taken). The rules in the sidebar and how it was won keep what you set.",
    ):
        undo_last_change()
        st.rerun()
    if buttons.button(
        "Undo my corrections", key="undo", disabled=question_waiting() or not corrections_to_undo(base)
    ):
        restart_table(base.undone())
        st.rerun()
    st.caption(
        "Change a tile or its group in the table; add a missed tile with *Add a missed tile* just "
        "above it (or in its last row); select rows and press the bin to delete. The score updates "
        "at once."
    )
    st.caption(tile_key(tile_sets.tiles_in_set(chosen_set())))
    if result is not None:
        st.caption(f"Score now: {score_now_words(result, outcomes)}")
    edits = current_edits()
    saved = corrections_line(
        # each tile's net change, as the case file writes it (one saved before wrote each step)
        table_edits.net_corrections((base.history or {}).get("corrections") or []),
        "Corrected before the case was saved",
        numbered_as="the table then was",
    )
    if saved:
        st.caption(saved)
    rows_now = table_edits.apply_edits(base.rows, edits, table_edits.last_number(base))
    set_offer_ui(base, rows_now)
    if base.source != "none" or base.rows:
        add_tile_ui(base)
    # the table as edited (an audit, stage 72: "17 tiles" was said after a deletion left 16)
    below = rows_below_note(len(rows_now))
    if below is not None:
        st.caption(below)
    # the table's toolbar (+, search ...) shows over the line above it when tapped: room for it
    st.space(TOOLBAR_ROOM_PX)
    table = pd.DataFrame(
        {
            # The number drawn on the photo; a column, since Streamlit hides a plain range index.
            "n": [str(n) for n in case_mod.row_numbers(base.rows)],
            "tile": [r.code for r in base.rows],
            "group": [r.group for r in base.rows],
            "check": check_labels(base),
        },
    )
    st.data_editor(
        table,
        # a new key after a face is folded in (`session.settle_corrected_tiles`) loses nothing more:
        # a data editor that adds and deletes rows is a new widget whenever its data changes, whatever
        # its key (tests/app/test_table_identity.py)
        key=editor_key(),
        num_rows="dynamic",
        width="stretch",
        # Tall enough for every row plus the blank "add" row, so the page scrolls and the table does
        # not; but no taller than a phone's screen, where a table scrolling within itself traps the
        # thumb and a row added at its foot lies out of sight
        height=min(ROW_PX * (len(base.rows) + 3), TABLE_MAX_PX),
        hide_index=True,
        column_config=table_columns(),
    )
    # under the table: above it, the line (first drawn at the first correction, a line longer at each
    # that wraps) pushed the table down under the user's finger; the toast says each change as it comes
    changed = corrections_line(table_corrections(base, kongs))
    if changed:
        st.caption(changed)
    blank = blank_rows_line(table_edits.blank_added_rows(edits))
    if blank is not None:
        # under the table, beside the rows added at its foot: above it, the line lay a screen away on a
        # phone, past the add boxes, and the row's empty cell said nothing
        st.info(blank)
    for group, meld in zip(build.meld_groups, build.hand["melds"], strict=False):
        if meld["kind"] == "kong":
            key = concealed_key(group)
            restore_kept(key, meld["concealed"])  # as the hand is built: the base's, or face down
            st.checkbox(f"{group.capitalize()} ({meld['tiles'][0]} kong) is concealed", key=key)
            remember(key)


def blank_rows_line(blank: int) -> str | None:
    """The line asking for the tile of the rows the user added and has not given one (`blank` of them),
    None where there are none."""
    if not blank:
        return None
    rows_said = (
        "A row you added has no tile yet: tap its empty Tile cell (the row marked new) to pick it"
        if blank == 1
        else f"{blank} rows you added have no tile yet: tap the empty Tile cell of each (the rows marked "
        "new) to pick its tile"
    )
    left_out = "A row counts once it has a tile: until then it is left out of the hand and the corrections."
    return f"{rows_said}. {left_out}"


def table_columns() -> dict[str, Any]:
    """The tile table's columns: how each is labelled, drawn and edited."""
    return {
        # text, so that a row the user adds reads "new" rather than "None"
        "n": st.column_config.TextColumn("#", disabled=True, width=COLUMN_PX["n"], default="new"),
        # every code, whatever the rule set: options that changed with it (or with an edit) would
        # make the table a new widget, and the user's corrections in it would be lost
        "tile": st.column_config.SelectboxColumn(
            "Tile",
            options=list(TILE_CODES),
            required=True,
            default=TILE_NOT_PICKED,
            width=COLUMN_PX["tile"],
        ),
        # left empty, an added tile goes where its kind goes (a flower to bonus, a 5p to the hand)
        "group": st.column_config.SelectboxColumn(
            "Group",
            options=list(GROUPS),
            default=GROUP_BY_TILE,
            width=COLUMN_PX["group"],
            help="Where the tile lies. Left empty on a row you add: bonus for a flower, season, "
            "animal or face, else the hand.",
        ),
        "check": st.column_config.TextColumn(
            # a row added in the table says nothing until it has a tile; then it is folded into the rows
            # (`session.settle_corrected_tiles`) and is the user's, as one added with *Add a missed tile* is
            "Sure?",
            disabled=True,
            default="",
            width=COLUMN_PX["check"],
            help=CHECK_HELP,
        ),
    }


# the *Sure?* column of a tile the user gave another face than the photo's reading (or took an offer for),
# or added: the tile is the user's word, not the reader's
CHOSEN_LABEL = "yours"


# the *Sure?* column of a tile the set's lessons read otherwise than the models (`Base.recalled`), still as
# read: marked as an unsure tile is, as a few hands taught can misread a face they never showed (the
# teach box names it, far below the table on a phone); short, as the column is narrow (`COLUMN_PX`)
RECALLED_LABEL = "⚠ taught"
CHECK_HELP = (
    "How sure the reader is of each tile as read. ⚠ 52%: the reader is unsure of it; ⚠ taught: read by "
    "what this set was taught, not as the models read it. Check those. yours: a tile you gave its face "
    "or added."
)


def check_labels(base: Base) -> list[str]:
    """The *Sure?* column of the table's rows: the reader's confidence in each tile as read, or that
    the set's lessons read it (`Base.recalled`), and for a tile whose face the user changed from the
    photo's reading, or which the user added, that the tile is the user's."""
    read = dict(zip(case_mod.row_numbers(base.photo_rows), base.photo_rows, strict=True))
    numbers = case_mod.row_numbers(base.rows)
    # the reader gives each tile it reads a confidence: a tile of its hand without one was added (in a
    # case saved and opened again, the case's rows are its reading)
    reader_read = any(row.confidence is not None for row in base.photo_rows)
    return [
        check_label(row, read.get(number), reader_read, number in base.recalled)
        for number, row in zip(numbers, base.rows, strict=True)
    ]


def check_label(row: TileRow, read: TileRow | None, reader_read: bool = False, recalled: bool = False) -> str:
    """One tile's *Sure?*: the user's where the hand as it came (`read`: the tile there) does not hold
    it (added: an audit saw an empty cell beside a tile added, "yours" beside one corrected), where its
    face is not the reading's, or where a reader read the hand (`reader_read`) but not this tile; else
    that the set's lessons read it (`recalled`: otherwise than the models), or the reader's confidence
    (a warning under `LOW_CONFIDENCE`), blank where there is none (typed)."""
    if read is None or read.code != row.code:
        return CHOSEN_LABEL
    if recalled:
        return RECALLED_LABEL
    if row.confidence is None:
        return CHOSEN_LABEL if reader_read else ""
    percent = f"{row.confidence * 100:.0f}%"
    return f"⚠ {percent}" if row.to_check else percent
