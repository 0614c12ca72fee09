"""A photo read into a new hand (what the uploader, the camera and the samples all call), and its
tiles read again as another tile set's after a switch of rule set, the winning tile following them.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Collection, Sequence
from typing import Final

import numpy as np
import streamlit as st

from app_ui import case as case_mod
from app_ui import kept_case, photo_rows, table_edits, tile_sets
from app_ui import undo as undo_mod
from app_ui.address import kept_name
from app_ui.case import Base, TileRow
from app_ui.context_panel import NO_WINNING_TILE
from app_ui.new_hand import replace_hand
from app_ui.photo_view import PhotoView, photo_view
from app_ui.reader_slot import get_executor, get_reader, read_timeout_s
from app_ui.reading import ReadTimeoutError, read_again, read_tiles, with_reading
from app_ui.rules_panel import chosen_set
from app_ui.session import UNDO, current_edits, restart_table, set_base, unsaved_corrections
from app_ui.summary import RULE_LABELS
from app_ui.teach import keep_read_with, memory_now, read_with
from scoring.tiles import SUIT_NAMES
from vision.sharpness import WHOLE_LINES

NO_TILES_FOUND: Final = "no tiles found"  # the reader's own line (vision.pipeline)


def photo_view_of(rgb: np.ndarray, base: Base) -> PhotoView:
    """The copies of the photo the page draws on (`photo_view`), around the tiles `base` read in it,
    brightened as the reader brightened it (a dark photo)."""
    gain = float(getattr(base.seen, "gain", 1.0))
    return photo_view(rgb, [row.box for row in base.rows if row.box is not None], gain)


def read_photo(name: str, data: bytes, source_id: str) -> str | None:
    """Read a photo into a new case. This is what the uploader, the camera and the samples all call.

    Returns None on success, else the one-line message shown to the user (never a traceback).
    """
    rgb, problem = decoded_photo(name, data)
    if rgb is None:
        return problem
    slot = get_reader()
    if slot.reader is None:
        return slot.message
    tile_set = chosen_set()
    faces = tile_sets.tiles_in_set(tile_set)
    digest = case_mod.photo_digest(data)
    memory = memory_now(slot.reader, digest)  # what the tab taught of this set, from other photos
    try:
        with st.spinner("Reading the tiles…"):
            read = read_tiles(slot.reader, rgb, get_executor(), read_timeout_s(), faces, memory=memory)
    except ReadTimeoutError as exc:
        return f"{name}: {exc}."
    except Exception as exc:
        return f"{name}: the tiles could not be read ({exc})."
    if not read.rows and _tiles_on_page():
        return no_tiles_line(name, read.warnings)
    photo = Base(
        source="photo",
        name=name,
        sha256=digest,
        size=(int(rgb.shape[1]), int(rgb.shape[0])),
    )
    read_base = with_reading(photo, read, tile_set)
    replace_hand(read_base, source_id, photo_view_of(rgb, read_base))
    kept_case.save(kept_name(), data, kept_case.PHOTO)  # for a reload to show it, and read it, again
    keep_read_with(read_with(slot.reader, digest), slot.reader)  # and read it as it was read
    return None


def _tiles_on_page() -> bool:
    """Whether the tile table on the page, as edited, holds a tile (a table whose every tile the user
    deleted holds no hand to keep)."""
    return bool(table_edits.apply_edits(st.session_state["base"].rows, current_edits()))


def no_tiles_line(name: str, warnings: Sequence[str]) -> str:
    """The line for a photo in which no tile was found, while the page holds a hand: the hand stays
    (an audit, stage 72: a photo of a bare table wiped a typed hand, its winning tile and seats' facts,
    with no undo), and the reader's first word on why, where it has one (dark, all white, small)."""
    why = _first_reason(warnings)
    # "no tiles ... (left out 19 boxes that hold no tile ...)" read as a contradiction (an audit, stage
    # 81): the boxes were shapes the detector thought tiles, which the classifier then refused
    refused = _REFUSED.match(why or "")
    if refused:
        count, place = refused.groups()
        shapes = "1 shape" if count == "1" else f"{count} shapes"
        if place != "at the photo's edge":
            why = f"{shapes} looked like tiles at first, and none held a tile face"
        else:  # a tile cut by the edge is no tile read: "no tiles ... (1 box at the edge)" read as one
            why = f"{shapes} at the photo's edge looked like tiles, too cut off to read"
    blurred = blur_why(warnings)
    if blurred is not None:  # a blurred photo of a hand is not asked whether it shows one (stage 84)
        return f"{name}: no tiles were found on the photo: {blurred}. The hand on the page is kept."
    because = f" ({why})" if why else ""
    closer = FAR_OFF_ADVICE if far_off_may_be_why(warnings) else ""
    # the reader's reason is written for a photo of tiles, so a file of something else (a screenshot)
    # is asked about too (an audit: a white page was told to retake it with less light)
    return (
        f"{name}: no tiles were found on the photo{because}: is it a photo of a mahjong hand?{closer} "
        "The hand on the page is kept."
    )


FAR_OFF_ADVICE = " If it is, and the hand lies far off in it, take it closer or crop it to the hand."
_REFUSED = re.compile(r"left out (\d+) box(?:es)? (that holds? no tile|at the photo's edge)")


def _first_reason(warnings: Sequence[str]) -> str | None:
    return next((w for w in warnings if w != NO_TILES_FOUND), None)


def blur_why(warnings: Sequence[str]) -> str | None:
    """The reader's line that the whole photo looks blurred or shaken (`vision.sharpness.WHOLE_LINES`,
    judged where too few tile faces are): why (almost) no tile was found, where it is; None else."""
    return next((w for w in warnings if w in WHOLE_LINES), None)


def far_off_may_be_why(warnings: Sequence[str]) -> bool:
    """Whether a photo in which no tile was found may show its hand too small to find: the reader gave
    no reason, or only shapes it refused as holding no tile face (an audit, stage 83: a whole table's
    photo, the hand a tenth of its width, was only asked whether it showed a hand). Not where the light
    is the reason (dark, all white), nor a blur, nor shapes cut by the edge, which a closer photo cuts
    more."""
    why = _first_reason(warnings)
    refused = _REFUSED.match(why or "")
    return why is None or (refused is not None and refused.group(2) != "at the photo's edge")


def read_again_as(base: Base, tile_set: str, why: str | None = None) -> None:
    """The photo's tiles read again as the faces of the set `tile_set` (`tile_sets.set_name`; no model
    runs), in place of the hand's rows and any corrections to them; a line says which tiles now read
    otherwise, and `why` they were read again (None: as the set `tile_set`, switched to)."""
    slot = get_reader()
    if slot.reader is None or base.seen is None:
        return
    label = tile_sets.set_words(tile_set, RULE_LABELS)
    try:
        # each tile keeps its number: the layout of the new faces may order the tiles otherwise
        numbered_as = photo_rows.numbers_by_box(base.photo_rows)
        # a tile not read before takes no number the case gave (a tile added, dropped with the corrections)
        given = table_edits.numbers_given(base, current_edits())
        faces = tile_sets.tiles_in_set(tile_set)
        memory = memory_now(slot.reader, base.sha256)
        read = read_again(slot.reader, base.seen, faces, base.timings, numbered_as, given, memory)
    except Exception as exc:  # the hand on screen stays; the user can still correct it by hand
        st.session_state["reread_note"] = f"Could not read the tiles again as {label} ({exc})."
        return
    keep_read_with(read_with(slot.reader, base.sha256), slot.reader)  # for a reload to read it so
    again = with_reading(
        dataclasses.replace(base, as_read=None, earlier=(), ways_closed=False), read, tile_set
    )
    state = st.session_state
    renamed = winning_tile_renamed(base.photo_rows, again.rows)
    winning_before = (state.get("winning_tile", NO_WINNING_TILE), state.get("winning_tile_wanted"))
    if unsaved_corrections(base):  # the corrections it drops can be brought back, with the winning tile
        restart_table(again, winning_tile=winning_before if renamed else None)
    else:  # the steps back stay: each brings back the table as read then, for its set
        set_base(again, state["loaded_source"], state.get("display"), same_hand=True)
        if renamed and state.get(UNDO):  # the newest brings back the winning tile of its names too
            state[UNDO] = undo_mod.with_newest_winning_tile(state[UNDO], winning_before)
    changed = Counter(photo_rows.reread_changes(base.photo_rows, again.rows))
    said = ", ".join(f"{was} -> {now}" + (f" (x{n})" if n > 1 else "") for (was, now), n in changed.items())
    note = f"The photo's tiles read again {why or f'as {label}'}: {said or 'every tile reads as before'}."
    lacking = outside_words([row.code for row in base.photo_rows], faces)
    if lacking is not None:
        # first: a photo of another game's hand, switched by mistake, read as a list of forced faces
        # whose point was buried (an audit, stage 81)
        note = (
            f"The photo holds {lacking}, which {label} lack: if it is another game's hand, set the rule "
            f"set back. {note}"
        )
    regroups = photo_rows.reread_regroups(base.photo_rows, again.rows)
    if regroups:  # the score may move with them: the user, who did not move them, is told each
        note += f" Laid out anew with them: {photo_rows.regroup_words(regroups)}."
    if renamed is not None:
        state["winning_tile"], state["winning_tile_wanted"] = renamed[1], None
        note += f" The winning tile follows its tiles: {renamed[0]} -> {renamed[1]}."
    state["reread_note"] = note


def outside_words(codes: Sequence[str], faces: Collection[str]) -> str | None:
    """The tiles of `codes` that `faces` lacks, by suit or face ("characters (m) x5 and N x1"), where
    there are `ANOTHER_GAME` or more of them (a photo of another game's hand); else None: a tile or two
    may be the last set's forced reading of a misread tile (a review, stage 81)."""
    kinds = Counter(
        SUIT_NAMES.get(code[-1], code) if code[:1].isdigit() else code for code in codes if code not in faces
    )
    if sum(kinds.values()) < ANOTHER_GAME:
        return None
    words = [f"{kind} x{count}" for kind, count in kinds.most_common()]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


# how many of a photo's tiles another rule set's tiles must lack to say it may be another game's hand
ANOTHER_GAME = 3


def winning_tile_renamed(before: Sequence[TileRow], after: Sequence[TileRow]) -> tuple[str, str] | None:
    """(was, now) for the winning tile set (or set aside) where a re-read renames all its tiles (E
    read as `fly`), so that it follows them; None where it stays as it is."""
    for key in ("winning_tile", "winning_tile_wanted"):
        code = st.session_state.get(key)
        renamed = (
            None if code in (None, NO_WINNING_TILE) else photo_rows.renamed_by_reread(code, before, after)
        )
        # a face-down or a bonus tile is never the winning tile: that one is set aside as usual (a fly
        # is, where it lies among the concealed tiles; elsewhere the winning-tile box sets it aside)
        if renamed is not None and renamed not in ("back", *case_mod.BONUS_CODES):
            return str(code), renamed
    return None


def read_as_other_set(base: Base, tile_set: str) -> bool:
    """Whether the hand is a photo's tiles, read as another set's tiles than `tile_set` and still
    readable again (what the models saw is kept)."""
    return base.source == "photo" and base.seen is not None and base.read_as not in ("", tile_set)


def read_by_models_alone(base: Base) -> bool:
    """After *Forget this set*: a photo on screen that was read with what was taught, read again by the
    models alone (no model runs), as the toast says photos now are: a tile the lessons of another set
    misread would otherwise stay, said to look like tiles no longer taught. Not where the user has
    corrected the tiles (their word stands over both readings); True where read again."""
    return read_again_unless_corrected(base, "by the models alone, the set forgotten")


def read_again_unless_corrected(base: Base, why: str) -> bool:
    """The photo on screen read again as the set it was read as (no model runs; `why` says why, as the
    set's lessons changed), unless the user has corrected its tiles: their word stands over both
    readings. True where read again."""
    if base.source != "photo" or base.seen is None or unsaved_corrections(base):
        return False
    read_again_as(base, base.read_as or chosen_set(), why=why)
    return True


def follow_tile_set(tile_set: str) -> None:
    """A photo is read as the chosen set's tiles (a Singapore set has no face or fly, a Malaysian one
    no bamboo or characters, nor North where the sidebar says so): after a switch, its tiles are read
    again, unless the user has corrected them (then `hand_view.reread_ui` offers it, as it would drop their
    corrections)."""
    base: Base = st.session_state["base"]
    if not read_as_other_set(base, tile_set):
        return
    if st.session_state.get("sample_wanted") is not None:
        return  # a sample of this rule set's game replaces the photo in this run
    if not base.rows:  # a photo with no tiles: nothing to read again, nor to say
        st.session_state["base"] = dataclasses.replace(base, read_as=tile_set)
    elif not unsaved_corrections(base):
        read_again_as(base, tile_set)


def decoded_photo(name: str, data: bytes) -> tuple[np.ndarray | None, str]:
    """The photo's upright RGB pixels, or None and the one-line reason the file is no photo."""
    from vision.imageio import ImageError, load_image

    try:
        return load_image(data), ""
    except ImageError as exc:
        return None, f"{name}: {exc}"
    except Exception as exc:
        return None, f"{name}: this file could not be opened as a photo ({type(exc).__name__})."


def why_unreadable(name: str, data: bytes) -> str | None:
    """Why a file is no photo, as `read_photo` would say it, or None if it opens."""
    rgb, problem = decoded_photo(name, data)
    return problem if rgb is None else None
