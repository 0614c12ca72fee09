"""Mahjong tai calculator: score a Singapore mahjong hand from a photo (Streamlit).

Run with `streamlit run app.py`. The page is a straight line: photo (or typed hand) -> tiles read ->
the user's corrections -> how the hand was won -> tai and payouts. Scoring and vision live in their
packages; this file only wires widgets to them (helpers in `app_ui/`).
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import os
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

import scoring
from app_ui import case as case_mod
from app_ui import kept_case
from app_ui import typed as typed_mod
from app_ui import undo as undo_mod
from app_ui.art import annotate_photo, group_blocks, hand_picture
from app_ui.case import (
    GROUPS,
    MELD_GROUPS,
    TILE_CODES,
    Base,
    HandBuild,
    TileRow,
)
from app_ui.change_note import change_note
from app_ui.context_panel import (
    DISCARDER_ASIDE,
    NO_WINNING_TILE,
    NOT_SAID,
    context_ui,
    discarder_now,
    set_discarder,
)
from app_ui.options import option_specs
from app_ui.photo_view import PhotoView, in_picture, photo_view
from app_ui.reading import ReadTimeoutError, read_again, read_tiles, with_reading
from app_ui.result_panel import RESULT_ANCHOR, download_ui, result_ui, score_case
from app_ui.rules_panel import chosen_rules, rules_ui, stored_options, widget_value
from app_ui.summary import (
    RULE_LABELS,
    circumstance_label,
    correction_words,
    corrections_line,
    options_set,
    plain,
    plain_line,
    score_words,
    tile_key,
)
from app_ui.widget_memory import keep, kept_value, remember, restore_kept
from app_ui.winning_hint import (
    Outcome,
    score_now_words,
    wants_winning_tile,
    winning_tile_note,
    winning_tile_outcomes,
)

SAMPLES_DIR = Path(__file__).parent / "samples"
# The model must answer within this time; past it the user gets a message instead of a hung page.
READ_TIMEOUT_S = float(os.environ.get("MAHJONG_READ_TIMEOUT_S", "30"))
# the options' choices in words (the JSON and the CLI keep the codes)
# --------------------------------------------------------------------------- model (shared by sessions)


@dataclasses.dataclass(frozen=True)
class ReaderSlot:
    """The shared tile reader, or why there is none (no model shipped, or it failed to load)."""

    reader: Any | None
    message: str = ""


@st.cache_resource(show_spinner="Loading the tile model…")
def get_reader() -> ReaderSlot:
    """Load the detector once per server process; every session shares it (the reader is thread-safe)."""
    try:
        pipeline = importlib.import_module("vision.pipeline")
    except Exception as exc:  # vision missing or broken: the photo path says so, typing still works
        return ReaderSlot(None, f"Photo reading is not available ({exc}). Type the hand instead.")
    model_error: type[Exception] = pipeline.ModelError
    try:
        # MAHJONG_MODELS_DIR points the app at another model folder (a candidate model, test models).
        models_dir = os.environ.get("MAHJONG_MODELS_DIR") or None
        return ReaderSlot(pipeline.TileReader.load(models_dir) if models_dir else pipeline.TileReader.load())
    except model_error as exc:
        return ReaderSlot(
            None,
            f"No tile model is installed, so photos cannot be read ({exc}). "
            "Type the hand in the other tab instead.",
        )
    except Exception as exc:
        return ReaderSlot(None, f"The tile model could not be loaded ({exc}). Type the hand instead.")


@st.cache_resource
def get_executor() -> ThreadPoolExecutor:
    """Model runs go through a small pool so a slow photo is cut off at READ_TIMEOUT_S."""
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="tile-reader")


# --------------------------------------------------------------------------- session state


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


def meld_concealed_now(base: Base) -> dict[str, bool]:
    out = dict(base.meld_concealed)
    for group in MELD_GROUPS:
        ticked = kept_value(concealed_key(group), None)
        if ticked is not None:
            out[group] = bool(ticked)
    return out


def unsaved_corrections(base: Base) -> bool:
    """True when the user changed anything in the current tiles (table edits or concealed-kong flags),
    or the tiles hold corrections only this page has (a case a reload brought back)."""
    restored_work = base.restored and bool((base.history or {}).get("corrections"))
    return bool(restored_work or base.earlier or case_mod.has_edits(current_edits()) or ticks_changed(base))


def corrections_to_undo(base: Base) -> bool:
    """True when *Undo my corrections* has a reading to go back to: the table's own edits, or corrections
    folded in over a reading kept (`as_read`). A case a reload brought back without its photo holds
    corrections no reading here can undo: they stay, and the button is not offered."""
    return bool(base.as_read is not None or case_mod.has_edits(current_edits()) or ticks_changed(base))


def ticks_changed(base: Base) -> dict[str, bool]:
    """The kong ticks the user set otherwise than the hand has them."""
    return undo_mod.ticks_changed(base.meld_concealed, meld_concealed_now(base))


def set_base(base: Base, source_id: str | None, display: PhotoView | None, same_hand: bool = False) -> None:
    """Start a new case: new base rows and a fresh tile table (new editor key, so old edits go). A new
    hand starts with nothing to undo; `same_hand` (the table restarted on the hand) keeps the undo list."""
    st.session_state["base"] = base
    st.session_state["version"] += 1
    st.session_state["loaded_source"] = source_id
    st.session_state["display"] = display
    st.session_state["pending"] = None
    if not same_hand:
        st.session_state[UNDO] = []
        st.session_state[HAND_ID] = st.session_state.get(HAND_ID, 0) + 1


# "Undo the last change" (`app_ui.undo`): its list of `TableState`, and the table as the last run saw it
UNDO = "undo_list"
TABLE_SEEN = "table_seen"


def table_now(base: Base) -> case_mod.TableState:
    """The table as it stands: its edits and the kong ticks the user changed from the hand's own."""
    edits = case_mod.normal_edits(copy.deepcopy(current_edits()))
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


def restart_table(base: Base, winning_tile: tuple[str, str | None] | None = None) -> None:
    """The hand's table started again from `base` (a way taken, corrections undone or dropped by a
    re-read), the table as it stood kept for "Undo the last change", with the `winning_tile` (as
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


def forget_winning_tile() -> None:
    """A new hand (photo, typed, opened case) starts with no winning tile: the last hand's is no fact
    of this one, even where this hand holds that tile too. Undo and a way to a win keep it."""
    st.session_state["winning_tile"] = NO_WINNING_TILE
    st.session_state["winning_tile_wanted"] = None


def replace_hand(base: Base, source_id: str | None, display: PhotoView | None) -> None:
    """A new photo's or typed hand's tiles in place of the hand on screen, with none of its win."""
    state = st.session_state
    had_hand = state["base"].source != "none"
    state.pop("reread_note", None)  # about the tiles this hand replaces
    chosen = state.get("winning_tile", NO_WINNING_TILE)
    winning_tile = state.get("winning_tile_wanted") or (None if chosen == NO_WINNING_TILE else chosen)
    set_base(base, source_id, display)
    forget_winning_tile()
    if had_hand:
        forget_last_hands_win(winning_tile)


def forget_last_hands_win(winning_tile: str | None = None) -> None:
    """A hand that replaces another starts with no special circumstances and no pay-all: those were
    facts of the last win (a robbed kong, a liable discard), as its `winning_tile` was (set, or set
    aside). Seats and winds stay (the table has not moved). Set before the first hand, they are kept:
    the user set them for it. A note names what was cleared."""
    state = st.session_state
    cleared = [f"winning tile ({winning_tile})"] if winning_tile else []
    cleared += [circumstance_label(c, chosen_rules()) for c in state.get("circumstances") or []]
    if state.get("pay_all"):
        cleared.append("pay-all")
    if discarder_now() != NOT_SAID:
        cleared.append("discarder's seat")
    if state.get("bonus_from_deal"):
        cleared.append("bonus tiles held from the deal")
    state["circumstances"] = []
    state["pay_all"] = False
    state.pop(DISCARDER_ASIDE, None)
    state["bonus_from_deal"] = state["from_deal_aside"] = []
    set_discarder(NOT_SAID)
    for kept in (state.get("context_store") or {}).values():
        kept.pop("circumstances", None)  # nor may another rule set's copy bring them back
    if cleared:
        state["context_note"] = (
            f"New hand: cleared the last hand's {', '.join(cleared)}; set again what holds for this one."
        )


# --------------------------------------------------------------------------- photo -> tiles


def _view_of(rgb: np.ndarray, base: Base) -> PhotoView:
    """The copies of the photo the page draws on (`photo_view`), around the tiles `base` read in it,
    brightened as the reader brightened it (a dark photo)."""
    gain = float(getattr(base.seen, "gain", 1.0))
    return photo_view(rgb, [row.box for row in base.rows if row.box is not None], gain)


def read_photo(name: str, data: bytes, source_id: str) -> str | None:
    """Read a photo into a new case. This is what the uploader, the camera and the samples all call.

    Returns None on success, else the one-line message shown to the user (never a traceback).
    """
    rgb, problem = _decoded(name, data)
    if rgb is None:
        return problem
    slot = get_reader()
    if slot.reader is None:
        return slot.message
    tile_set = chosen_set()
    faces = case_mod.tiles_in_set(tile_set)
    try:
        with st.spinner("Reading the tiles…"):
            read = read_tiles(slot.reader, rgb, get_executor(), READ_TIMEOUT_S, faces)
    except ReadTimeoutError as exc:
        return f"{name}: {exc}."
    except Exception as exc:
        return f"{name}: the tiles could not be read ({exc})."
    photo = Base(
        source="photo",
        name=name,
        sha256=case_mod.photo_digest(data),
        size=(int(rgb.shape[1]), int(rgb.shape[0])),
    )
    read_base = with_reading(photo, read, tile_set)
    replace_hand(read_base, source_id, _view_of(rgb, read_base))
    kept_case.save(kept_name(), data, kept_case.PHOTO)  # for a reload to show it, and read it, again
    return None


def read_again_as(base: Base, tile_set: str) -> None:
    """The photo's tiles read again as the faces of the set `tile_set` (`case_mod.set_name`; no model
    runs), in place of the hand's rows and any corrections to them; a line says which tiles now read
    otherwise."""
    slot = get_reader()
    if slot.reader is None or base.seen is None:
        return
    label = case_mod.set_words(tile_set, RULE_LABELS)
    try:
        read = read_again(slot.reader, base.seen, case_mod.tiles_in_set(tile_set), base.timings)
    except Exception as exc:  # the hand on screen stays; the user can still correct it by hand
        st.session_state["reread_note"] = f"Could not read the tiles again as {label} ({exc})."
        return
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
    changed = Counter(case_mod.reread_changes(base.photo_rows, again.rows))
    said = ", ".join(f"{was} -> {now}" + (f" (x{n})" if n > 1 else "") for (was, now), n in changed.items())
    note = f"The photo's tiles read again as {label}: {said or 'every tile reads as before'}."
    if renamed is not None:
        state["winning_tile"], state["winning_tile_wanted"] = renamed[1], None
        note += f" The winning tile follows its tiles: {renamed[0]} -> {renamed[1]}."
    state["reread_note"] = note


def winning_tile_renamed(before: Sequence[TileRow], after: Sequence[TileRow]) -> tuple[str, str] | None:
    """(was, now) for the winning tile set (or set aside) where a re-read renames all its tiles (E
    read as `fly`), so that it follows them; None where it stays as it is."""
    for key in ("winning_tile", "winning_tile_wanted"):
        code = st.session_state.get(key)
        renamed = None if code in (None, NO_WINNING_TILE) else case_mod.renamed_by_reread(code, before, after)
        # a face-down or a bonus tile is never the winning tile: that one is set aside as usual (a fly
        # is, where it lies among the concealed tiles; elsewhere the winning-tile box sets it aside)
        if renamed is not None and renamed not in ("back", *case_mod.BONUS_CODES):
            return str(code), renamed
    return None


def chosen_set() -> str:
    """The set a photo is read as (`case_mod.set_name`): the sidebar's rule set's, less the faces its
    options there leave out (a Malaysian set without North)."""
    rules = chosen_rules()
    store: dict[str, Any] = st.session_state.get("option_store", {}).get(rules, {})
    return case_mod.set_name(rules, store)


def read_as_other_set(base: Base, tile_set: str) -> bool:
    """Whether the hand is a photo's tiles, read as another set's tiles than `tile_set` and still
    readable again (what the models saw is kept)."""
    return base.source == "photo" and base.seen is not None and base.read_as not in ("", tile_set)


def follow_tile_set(tile_set: str) -> None:
    """A photo is read as the chosen set's tiles (a Singapore set has no face or fly, a Malaysian one
    no bamboo or characters, nor North where the sidebar says so): after a switch, its tiles are read
    again, unless the user has corrected them (then `reread_ui` offers it, as it would drop their
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


def _decoded(name: str, data: bytes) -> tuple[np.ndarray | None, str]:
    """The photo's upright RGB pixels, or None and the one-line reason the file is no photo."""
    from vision.imageio import ImageError, load_image

    try:
        return load_image(data), ""
    except ImageError as exc:
        return None, f"{name}: {exc}"
    except Exception as exc:
        return None, f"{name}: this file could not be opened as a photo ({type(exc).__name__})."


def _unreadable(name: str, data: bytes) -> str | None:
    """Why a file is no photo, as `read_photo` would say it, or None if it opens."""
    rgb, problem = _decoded(name, data)
    return problem if rgb is None else None


def sample_photos() -> list[Path]:
    return sorted(p for p in SAMPLES_DIR.glob("*.jpg") if p.is_file())


def sample_rules(path: Path) -> str:
    """The rule set a sample photo's game is played under (its ground truth's `rules`; else Singapore)."""
    try:
        rules = json.loads(path.with_suffix(".json").read_text()).get("rules")
    except (OSError, ValueError, AttributeError):
        rules = None
    return rules if rules in scoring.RULESET_NAMES else scoring.RULESET_NAMES[0]


def _sample_incoming(path: Path) -> tuple[str, bytes, str]:
    return (path.name, path.read_bytes(), f"sample:{path.name}:{time.time_ns()}")


def _other_game(incoming: tuple[str, bytes, str]) -> str | None:
    """The rule set of a sample photo of another game than the sidebar's; None for any other photo."""
    if not incoming[2].startswith("sample:"):
        return None
    game = sample_rules(SAMPLES_DIR / incoming[0])
    return game if game != chosen_rules() else None


def _switch_then_read(game: str, incoming: tuple[str, bytes, str]) -> None:
    """Another game's sample is read as its set's tiles: its rule set is chosen first (the box can be
    set only before it is drawn, so on a rerun), then the photo is read."""
    st.session_state["rules_wanted"] = game
    st.session_state["sample_wanted"] = incoming
    st.rerun()


def let_go_of_files(holding: set[str]) -> None:
    """Drop the question about reading a file, and the error about one, that the uploader or the camera
    no longer holds (`holding`: the source ids they hold): the user replaced it, removed it, or the
    browser refused the next (too large, or not a photo) and says why beside the uploader. Asked on,
    the question would read a file no longer on the page over the user's corrections."""
    state = st.session_state
    pending = state["pending"]
    if pending is not None and pending[2].startswith(WIDGET_SOURCES) and pending[2] not in holding:
        state["pending"] = None
    source = state.get("photo_error_source") or ""
    if state["photo_error"] and source.startswith(WIDGET_SOURCES) and source not in holding:
        state["photo_error"] = None


# What the camera is asked for (the browser gives the nearest the camera has), and what the user is told.
CAMERA_RESOLUTION: Final = "1080p"
CAMERA_NOTE: Final = (
    "A camera frame is small (1920 x 1080 at best, an old webcam's 640 x 480): fill it with the "
    "tiles, or upload a phone photo, which reads best."
)
WIDGET_SOURCES = ("upload:", "camera:")  # source ids of files a widget holds (not the samples')


def _read_and_mark(incoming: tuple[str, bytes, str]) -> None:
    """Read a photo once: its source id is remembered whether it worked or not, and the message kept."""
    st.session_state["handled"] = [*st.session_state["handled"], incoming[2]]
    st.session_state["photo_error"] = read_photo(*incoming)
    st.session_state["photo_error_source"] = incoming[2]


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


def photo_ui() -> None:
    """Upload, camera and sample photos. A new photo replaces the tiles, unless the user has corrections:
    then they are asked first, so nothing they typed is lost silently."""
    uploaded = st.file_uploader(
        "Upload a photo of the winning hand",
        type=["jpg", "jpeg", "png", "heic", "heif", "avif", "webp", "gif", "bmp", "tif", "tiff"],
        key="upload",
        help="Lay the hand out in rows: concealed tiles, declared melds, bonus tiles. On a phone this "
        "button also offers the (back) camera.",
    )
    # the browser refuses a file too large or of another type itself, marking it red and saying why
    # only in a tooltip, which a phone never shows: the limits are said where they can be read
    st.caption(
        f"A photo of up to {st.get_option('server.maxUploadSize')} MB: JPEG, PNG, HEIC, AVIF, WebP, GIF, "
        "BMP or TIFF. A file marked red was refused for its size or type."
    )
    # Loading the model here (once per server) means the first upload does not wait for it.
    slot = get_reader()
    if slot.reader is None:
        st.info(slot.message)
    incoming: tuple[str, bytes, str] | None = None
    holding: set[str] = set()  # the source ids of the files the uploader and the camera hold now
    if uploaded is not None:
        incoming = (uploaded.name, uploaded.getvalue(), f"upload:{uploaded.file_id}")
        holding.add(incoming[2])
    if st.toggle("Use the camera", key="use_camera"):
        # unasked, the browser hands over the frame at the widget's width on the page (CSS pixels: some
        # 360 px on a phone, 700 on a laptop), where tiles are misread (docs/vision.md, Webcam frames)
        snap = st.camera_input("Snap the hand", key="camera", resolution=CAMERA_RESOLUTION)
        st.caption(CAMERA_NOTE)
        if snap is not None:
            incoming = ("camera photo", snap.getvalue(), f"camera:{snap.file_id}")
            holding.add(incoming[2])
    let_go_of_files(holding)
    samples = sample_photos()
    if samples:
        st.caption("No tiles at hand? Try a sample photo:")
        # A wrapping row of small buttons: columns would stack them full-width on a phone.
        row = st.container(horizontal=True, gap="small")
        for path in samples:
            if row.button(path.stem.replace("_", " "), key=f"sample_{path.stem}", icon="🖼️"):
                incoming = _sample_incoming(path)
                game = _other_game(incoming)
                if game is not None and not unsaved_corrections(st.session_state["base"]):
                    _switch_then_read(game, incoming)
    confirmed = st.session_state.pop("sample_wanted", None)
    if confirmed is not None:
        # its rule set is chosen now; nothing to ask (no corrections, or the user said yes already)
        _read_and_mark(confirmed)
        incoming = None
    note = st.session_state.pop("rules_note", None)
    if note:
        st.info(note)
    if incoming is not None and incoming[2] not in st.session_state["handled"]:
        corrected = unsaved_corrections(st.session_state["base"])
        unreadable = _unreadable(*incoming[:2]) if corrected else None
        if unreadable is not None:  # nothing to replace the corrections with: say so, ask nothing
            st.session_state["handled"] = [*st.session_state["handled"], incoming[2]]
            st.session_state["photo_error"] = unreadable
            st.session_state["photo_error_source"] = incoming[2]
        elif corrected:
            st.session_state["photo_error"] = None  # the question is about this file, not an earlier one
            ask_before_replacing("pending", incoming)
        else:
            _read_and_mark(incoming)
    base: Base = st.session_state["base"]
    if uploaded is not None and f"upload:{uploaded.file_id}" in st.session_state["declined"]:
        st.caption(
            f"{plain(uploaded.name)} was not read: you kept your corrections to "
            f"{plain(base.name) if base.name else 'the hand'}."
        )
    elif uploaded is not None and f"upload:{uploaded.file_id}" in st.session_state.get("set_aside", []):
        st.caption(  # its question gave way to a newer one: the user chose nothing of it
            f"{plain(uploaded.name)} was not read: a newer question took the place of its own. "
            "Remove it and upload it again to read it."
        )
    withdrawn_note("pending")
    pending = st.session_state["pending"]
    if pending is not None:
        answer = replace_or_keep(f"Reading **{plain(pending[0])}**", "Read the new photo", "pending")
        if answer == "replace":
            st.session_state["pending"] = None
            game = _other_game(pending)
            if game is not None:
                _switch_then_read(game, pending)
            _read_and_mark(pending)
            st.rerun()  # the question is answered: the page shows the new tiles, or the file's error alone
        if answer == "keep":
            st.session_state["handled"] = [*st.session_state["handled"], pending[2]]
            st.session_state["declined"] = [*st.session_state["declined"], pending[2]]
            st.session_state["pending"] = None
            st.session_state["photo_error"] = None  # an earlier file's error is not this choice's
            st.rerun()
    if st.session_state["photo_error"]:
        st.error(plain_line(st.session_state["photo_error"]))  # our words and a file name: no markup


# the concealed tiles' example, in a set of each rule set (a Malaysian set holds dots and honours alone)
TYPED_EXAMPLE = {"singapore": "123m 456p 789s 555p 22m", "malaysian": "123p 456p 789p EEE 22p"}
TYPED_BONUS = frozenset({*case_mod.BONUS_CODES, "fly"})


def manual_ui() -> None:
    """Type a hand as compact strings (RULES.md), for when there is no camera or photo."""
    st.text_input(
        "Concealed tiles (with the winning tile)",
        key="typed_concealed",
        placeholder=TYPED_EXAMPLE.get(chosen_rules(), TYPED_EXAMPLE["singapore"]),
    )
    st.text_input("Exposed melds, one group each", key="typed_melds", placeholder="CCC 456p")
    st.text_input("Concealed kongs", key="typed_kongs", placeholder="5555s")
    st.caption(tile_key(case_mod.tiles_in_set(chosen_set())))
    st.text_input("Bonus tiles", key="typed_bonus", placeholder="F1 S2 cat")
    if st.button("Use this hand", key="typed_use", type="primary"):
        st.session_state["typed_offered"] = typed_fields()
        try:
            concealed = typed_mod.read_tiles(st.session_state["typed_concealed"] or "")
            melds = typed_mod.read_melds(st.session_state["typed_melds"] or "")
            kongs = typed_mod.read_concealed_kongs(st.session_state["typed_kongs"] or "")
            bonus = typed_mod.read_bonus(st.session_state["typed_bonus"] or "", TYPED_BONUS)
        except ValueError as exc:
            _typed_not_used(f"Could not read the hand: {exc}")
            return
        if len(melds) + len(kongs) > len(MELD_GROUPS):
            _typed_not_used(f"At most {len(MELD_GROUPS)} melds and kongs together.")
            return
        rows = case_mod.rows_from_hand_strings(concealed, [*melds, *kongs], bonus)
        if not rows:
            _typed_not_used("Type at least one tile (or pick bonus tiles) first.")
            return
        for meld in [*melds, *kongs]:
            kind, why = case_mod.meld_kind(case_mod.resolve_backs(meld))
            if kind is None:
                _typed_not_used(
                    f"Could not use the hand: the meld {' '.join(meld)} is no chow, pong or kong ({why})."
                )
                return
        # a meld typed with face-down tiles lies as only a concealed kong does
        concealed_flags = {MELD_GROUPS[i]: True for i, meld in enumerate(melds) if "back" in meld}
        concealed_flags |= {MELD_GROUPS[len(melds) + i]: True for i in range(len(kongs))}
        hand = case_mod.build_hand(rows, concealed_flags).hand
        try:
            impossible = case_mod.impossible_count({"rules": chosen_rules(), **hand})
        except scoring.MalformedHandError as exc:  # a flower among the concealed tiles
            _typed_not_used(f"Could not use the hand: {exc}.")
            return
        if impossible:
            _typed_not_used(f"Could not use the hand: {impossible}.")
            return
        st.session_state["typed_error_version"] = None
        typed = Base(rows=tuple(rows), source="typed", name="typed hand", meld_concealed=concealed_flags)
        if unsaved_corrections(st.session_state["base"]):
            ask_before_replacing("pending_typed", typed)
        else:
            _use_typed(typed)
    elif typed_not_used():
        refused = st.session_state.get("typed_refused")
        if refused is not None and tuple(refused[0]) == typed_fields():
            st.error(plain_line(refused[1]))  # pressing the button again would only refuse it again
        else:
            st.warning(TYPED_NOT_USED)
    if st.session_state.get("pending_typed") is not None and typed_fields() != st.session_state.get(
        "typed_offered"
    ):
        st.session_state["pending_typed"] = None  # asked of a hand no longer in the fields: press again
    withdrawn_note("pending_typed")
    pending: Base | None = st.session_state.get("pending_typed")
    if pending is not None:
        answer = replace_or_keep("Using the typed hand", "Use the typed hand", "typed")
        if answer == "replace":
            _use_typed(pending)
        if answer == "keep":
            st.session_state["pending_typed"] = None
        if answer:
            st.rerun()


def _typed_not_used(message: str) -> None:
    """One line on why the typed hand was refused; the result below, still the earlier hand's, says so too."""
    st.error(plain_line(message))  # it quotes what was typed: no markup
    st.session_state["typed_error_version"] = st.session_state["version"]
    st.session_state["typed_refused"] = (typed_fields(), message)


TYPED_FIELDS = ("typed_concealed", "typed_melds", "typed_kongs", "typed_bonus")
TYPED_NOT_USED = (
    "The typed hand is not the one scored: press *Use this hand* to score it. "
    "The result below is still the hand before it."
)


def typed_fields() -> tuple[str, ...]:
    """What the typed hand's fields hold now, spaces at the ends aside."""
    return tuple(str(st.session_state.get(key) or "").strip() for key in TYPED_FIELDS)


def typed_not_used() -> bool:
    """Whether the typed fields hold a hand other than the last one used: typed, or changed after
    *Use this hand*, with the button not pressed (Enter in a field does not press it), so the result on
    the page is not the hand in the fields."""
    fields = typed_fields()
    return any(fields) and fields != st.session_state.get("typed_used")


def typed_stale_note() -> str | None:
    """Why the result is not the typed hand's, where it is not: the hand typed was refused, or typed
    and not used. Said until the user changes the tile table: then the result is the table's, as
    corrected, and the typed fields' own line says the rest."""
    state = st.session_state
    if state.get("typed_error_version") == state["version"]:
        note: str | None = (
            "The typed hand was not used (see *Type a hand* above): this result is still the hand before it."
        )
    else:
        note = TYPED_NOT_USED if typed_not_used() else None
    table = json.dumps(current_edits(), sort_keys=True, default=str)
    if note is None:
        state["typed_note_table"] = None
    elif state.get("typed_note_table") is None:
        state["typed_note_table"] = (state["version"], table)
    elif state["typed_note_table"] != (state["version"], table):
        return None  # the table was changed since: the result is no longer "the hand before it"
    return note


def _use_typed(typed: Base) -> None:
    st.session_state["typed_used"] = st.session_state.get("typed_offered")
    st.session_state["typed_refused"] = None
    replace_hand(typed, None, None)
    st.session_state["photo_error"] = None
    st.session_state["pending_typed"] = None


def open_case_ui() -> None:
    """Open a case downloaded earlier: its hand, rules, options and how it was won, as it was scored."""
    uploaded = st.file_uploader(
        "Open a case (the JSON file this app downloads, or a hand python -m scoring takes)",
        type=["json"],
        key="case_upload",
    )
    if uploaded is None:  # removed, or refused as no JSON file: its error would seem the next file's
        st.session_state["case_error"] = None
    if uploaded is not None and f"case:{uploaded.file_id}" not in st.session_state["handled"]:
        st.session_state["handled"] = [*st.session_state["handled"], f"case:{uploaded.file_id}"]
        try:
            opened = case_mod.open_case(uploaded.name, uploaded.getvalue(), chosen_rules())
        except case_mod.CaseFileError as exc:
            st.session_state["case_error"] = str(exc)
        else:
            st.session_state["case_error"] = None
            if unsaved_corrections(st.session_state["base"]):
                ask_before_replacing("pending_case", opened)
            else:
                st.session_state["case_to_open"] = opened
                st.rerun()
    withdrawn_note("pending_case")
    pending: case_mod.OpenedCase | None = st.session_state.get("pending_case")
    if pending is not None:
        answer = replace_or_keep(f"Opening **{plain(pending.base.name)}**", "Open the case", "case")
        if answer == "replace":
            st.session_state["case_to_open"] = pending
        if answer:
            st.session_state["pending_case"] = None
            st.rerun()
    if st.session_state.get("case_error"):
        st.error(plain_line(st.session_state["case_error"]))
    note = st.session_state.pop("case_note", None)
    if note:
        st.info(plain(note))


def apply_opened_case() -> None:
    """Set the widgets to an opened case's rules, options and context: before any widget is drawn, as
    Streamlit lets a widget's value be set only then."""
    opened: case_mod.OpenedCase | None = st.session_state.pop("case_to_open", None)
    if opened is None:
        return
    state = st.session_state
    rules_before = chosen_rules()
    state["rules"] = opened.rules
    store = state["option_store"].setdefault(opened.rules, {})
    # a file naming no options keeps the sidebar's house rules for its rule set
    defaults = scoring.default_options(opened.rules)
    specs = option_specs(scoring.Options, defaults)
    # compared in the widgets' form: the store keeps a payout table as the text typed, a case a list
    options_before = {spec.name: widget_value(spec, store.get(spec.name, spec.default)) for spec in specs}
    for spec in specs if opened.options_said else []:
        # the store keeps the option's value (a hidden option is sent as stored), the widget its form
        value = opened.options.get(spec.name, spec.default)
        store[spec.name] = value
        state[f"opt_{opened.rules}_{spec.name}"] = widget_value(spec, value)
    if not opened.base.restored:  # a reloaded page says so in a note of its own
        options_now = {spec.name: widget_value(spec, store.get(spec.name, spec.default)) for spec in specs}
        # a file naming no house rules is scored with the sidebar's: said, as python -m scoring differs
        sidebar = None if opened.options_said else options_set(opened.rules, stored_options(opened.rules))
        state["case_note"] = opened_case_note(opened, rules_before, options_before != options_now, sidebar)
    won = opened.context
    state["context_rules"] = opened.rules
    state["seat_wind"], state["prevailing_wind"] = won.seat_wind, won.prevailing_wind
    state["won_by"] = "self-drawn" if won.self_drawn else "discard"
    state["circumstances"] = list(won.circumstances)
    state["pay_all"] = won.pay_all
    state.pop(DISCARDER_ASIDE, None)
    set_discarder(won.discarder_wind or NOT_SAID)  # open_case unsaid one the scoring would refuse
    set_base(opened.base, None, state.pop("display_to_restore", None))
    forget_winning_tile()  # nor may a tile the last hand set aside come back in this one
    state["winning_tile"] = won.winning_tile or NO_WINNING_TILE
    state["bonus_from_deal"], state["from_deal_aside"] = list(won.bonus_from_deal), []
    state["photo_error"] = None
    if opened.notes:
        state["context_note"] = " ".join(filter(None, [state.get("context_note"), *opened.notes]))


def opened_case_note(
    opened: case_mod.OpenedCase, rules_before: str, options_changed: bool, sidebar: list[str] | None = None
) -> str | None:
    """What opening a case changed in the sidebar, where it changed anything: the rule set, and the
    house rules the case was scored under; or, for a file naming none, that the sidebar's are used
    (`sidebar`: those set otherwise than the rule set's defaults), as `python -m scoring` uses the
    defaults and its money may differ."""
    changed = []
    if opened.rules != rules_before:
        changed.append(f"rule set now {RULE_LABELS.get(opened.rules, opened.rules)}")
    if sidebar is not None:
        used = (
            f"{', '.join(sidebar)}; python -m scoring uses the rule set's defaults"
            if sidebar
            else "the rule set's defaults, as python -m scoring uses"
        )
        changed.append(f"the file names no house rules, so the sidebar's are used ({used})")
    elif options_changed:
        house = options_set(opened.rules, dict(opened.options))
        changed.append(f"house rules as the case says: {', '.join(house) if house else 'the defaults'}")
    if not changed:
        return None
    return f"Opened {opened.base.name}: {'; '.join(changed)} (see the sidebar)."


def input_ui() -> None:
    photo_tab, typed_tab, case_tab = st.tabs(["📷 Photo", "⌨️ Type a hand", "📂 Open a case"])
    with photo_tab:
        photo_ui()
    with typed_tab:
        manual_ui()
    with case_tab:
        open_case_ui()


# --------------------------------------------------------------------------- tiles and corrections


def hand_view_ui(base: Base) -> tuple[list[TileRow], HandBuild, DeltaGenerator]:
    """The photo with boxes and groups, the reader's doubts, and the tile pictures of the hand; and a
    place beside the reading's time for the score, filled once the hand is scored further down.

    The tiles are the base rows with the user's table edits applied: the edit state of the table is in
    the session before the script reruns, so the pictures and the score above the table are current."""
    edits = current_edits()
    numbered = case_mod.numbered_edits(base.rows, edits)
    rows = case_mod.apply_edits(base.rows, edits)  # numbered, an added row after every read tile
    numbers = [number for number, _ in numbered]
    meld_concealed = meld_concealed_now(base)
    build = case_mod.build_hand(rows, meld_concealed)
    if base.source == "none" and not rows:
        st.info("Upload a photo, try a sample, or type a hand to start.")
    view: PhotoView | None = st.session_state.get("display")
    if view is not None:
        # a part around the tiles, where the photo has one and the user kept a tile of it
        has_part = view.tiles is not None and any(row.box is not None for row in rows)
        if has_part:  # as last set, for a photo between that drew no toggle; a reload, as its address says
            restore_kept("whole_photo", st.query_params.get(VIEW_KEY) == WHOLE_VIEW)
        cropped = has_part and not st.session_state.get("whole_photo")
        copy_shown, origin, scale = view.picture(cropped)
        drawn = [dataclasses.replace(r, box=in_picture(r.box, origin, scale)) if r.box else r for r in rows]
        kinds = {g: m["kind"] for g, m in zip(build.meld_groups, build.hand["melds"], strict=False)}
        about = ["cropped to the tiles found"] if cropped else []
        if view.gain > 1:
            about.append(f"dark: shown brightened {view.gain:.1f} times, as it was read")
        shown = plain(base.name) + (f" ({'; '.join(about)})" if about else "")  # captions read Markdown
        st.image(
            annotate_photo(copy_shown, drawn, kinds, numbers),
            caption=photo_caption(shown, rows, any(row.box is not None for row in base.photo_rows)),
            width="stretch",
            output_format="JPEG",
        )  # a PNG of a photo is ~1 MB and 0.3 s to encode; JPEG ~0.15 MB
        if has_part:
            st.toggle(
                "Show the whole photo",
                key="whole_photo",
                help="The photo is cropped to its tiles "
                "so their labels can be read on a phone; a tile the reader missed may lie outside.",
            )
            remember("whole_photo")
            address_the_view(bool(st.session_state.get("whole_photo")))
    reread_ui(base)
    if base.notes:
        notes = "\n".join(f"- {w}" for w in base.notes)
        if unsaved_corrections(base):
            # what the reader said stands for the photo as read; the user's corrections may have settled it
            st.info("The reader said of the photo as read (before your corrections):\n" + notes)
        else:
            st.warning("The reader says:\n" + notes)
    win_ways_ui(base)
    if base.source == "photo" and "app_total" in base.timings:
        # the reader's tiles, as read: the table's may have lost some (deleted, folded in by a reload)
        read = sum(1 for row in base.photo_rows if row.box is not None)
        st.caption(f"Read {read} tiles in {base.timings['app_total'] / 1000:.2f} s.")
    score_hint = st.empty()
    low = case_mod.unsure_tiles(numbered, case_mod.tiles_in_set(chosen_set()))
    if low:
        st.warning(
            f"Please check tile{'s' if len(low) > 1 else ''} {', '.join(low)}: the reader is unsure. "
            "Fix them in Check the tiles below."
        )
    picture = hand_picture(group_blocks(build.hand, build.meld_groups))
    if picture is not None:
        st.image(picture, caption=hand_picture_caption(base), width="stretch")
    return rows, build, score_hint


def hand_picture_caption(base: Base) -> str:
    """What the tile pictures show: the photo's reading, or the hand as the user has made it since."""
    if base.source != "photo":
        return "The hand (change it in Check the tiles below)"
    if unsaved_corrections(base):
        return "The hand as corrected (change it in Check the tiles below)"
    return "The hand as read (fix it in Check the tiles below)"


VIEW_KEY, WHOLE_VIEW = "view", "whole"  # the page's address says the whole photo is shown


def address_the_view(whole: bool) -> None:
    """Put *Show the whole photo* in the page's address, so that a reload shows the photo as it was."""
    if whole and st.query_params.get(VIEW_KEY) != WHOLE_VIEW:
        st.query_params[VIEW_KEY] = WHOLE_VIEW
    elif not whole and VIEW_KEY in st.query_params:
        del st.query_params[VIEW_KEY]


def photo_caption(name: str, rows: list[TileRow], found: bool) -> str:
    """What the boxes on the photo mean, as far as this photo has any (`found`: the reader found tiles;
    `rows`: the tiles now, the user's edits applied)."""
    if not found:
        return f"{name}: no tiles found on the photo (add them in Check the tiles below)."
    boxed = [row for row in rows if row.box is not None]
    if any(row.low_confidence for row in boxed):
        return f"{name}: numbers match the tile table; orange boxes with ? are unsure, please check them."
    return f"{name}: numbers match the tile table."


def reread_ui(base: Base) -> None:
    """What reading the tiles again for the rule set did, or the offer to, where corrections stand."""
    note = st.session_state.pop("reread_note", None)
    if note:
        st.info(note)
    tile_set = chosen_set()
    if not read_as_other_set(base, tile_set):
        return
    was, now = case_mod.set_words(base.read_as, RULE_LABELS), case_mod.set_words(tile_set, RULE_LABELS)
    st.info(f"The photo's tiles were read as {was}; your corrections are kept.")
    label = f"Read the tiles again as {now} (drops your corrections)"
    if st.button(label, key="read_again", disabled=question_waiting()):
        read_again_as(base, tile_set)
        st.rerun()


def win_ways_ui(base: Base) -> None:
    """A button for each way to a win the reader offers: it takes that way, keeping the user's edits."""
    if not base.open_ways:
        return
    row = st.container(horizontal=True, gap="small")
    for k, way in enumerate(base.open_ways):
        label = "Take " + case_mod.way_label(way)
        if row.button(
            label, key=f"way_{st.session_state['version']}_{k}", icon="🀄", disabled=question_waiting()
        ):
            # The concealed-kong boxes restart with the table too: what they say now is kept.
            taken = case_mod.take_way(base, current_edits(), way, meld_concealed_now(base))
            restart_table(taken)
            st.rerun()


ROW_PX = 36  # a row of the tile table
TABLE_MAX_PX = 640  # the tile table's height at most: within a phone's screen (844 px, less the browser's)
TOOLBAR_ROOM_PX = 24


def tile_editor_ui(
    base: Base,
    build: HandBuild,
    result: dict[str, Any] | None,
    kongs: list[dict[str, Any]],
    outcomes: list[Outcome],
) -> None:
    """The tile table the user corrects: code and group of every tile, add and delete rows (`outcomes`:
    the hand scored with each tile that may have won it, for the score line over it)."""
    st.subheader("Check the tiles")
    # Above the table and its notes, not under it: a thumb tapping past the table's last row on a phone
    # must not undo the corrections, nor one aiming at the table's toolbar (+) hit them. Dropping them
    # while the page asks whether a new hand may replace them would read that hand unasked: the
    # question comes first.
    buttons = st.container(horizontal=True, gap="small")
    if st.session_state.get(UNDO) and buttons.button(
        "Undo the last change", key="undo_last", icon="↩️", disabled=question_waiting()
    ):
        undo_last_change()
        st.rerun()
    if corrections_to_undo(base) and buttons.button(
        "Undo my corrections", key="undo", disabled=question_waiting()
    ):
        restart_table(base.undone())
        st.rerun()
    st.caption(
        "Change a tile or its group in the table; add a missed tile in the last row (or with + at "
        "the table's top right, then tap the new row); select rows and press the bin to delete. "
        "The score updates at once."
    )
    st.caption(tile_key(case_mod.tiles_in_set(chosen_set())))
    if result is not None:
        st.caption(f"Score now: {score_now_words(result, outcomes)}")
    edits = current_edits()
    saved = corrections_line(
        list((base.history or {}).get("corrections") or []),
        "Corrected before the case was saved",
        numbered_as="the table then was",
    )
    if saved:
        st.caption(saved)
    # the corrections folded into the table (a way taken, an undo, a reload) come first
    changed = corrections_line(table_corrections(base, kongs))
    if changed:
        st.caption(changed)
    blank = case_mod.blank_added_rows(edits)
    if blank:
        rows_said = (
            "A row you added has no tile yet: pick it"
            if blank == 1
            else f"{blank} rows you added have no tile yet: pick one for each"
        )
        st.info(
            f"{rows_said} in the Tile column (a row counts once it has a tile; until then it is left out "
            "of the hand and the corrections)."
        )
    # the table's toolbar (+, search ...) shows over the line above it when tapped: room for it
    st.space(TOOLBAR_ROOM_PX)
    table = pd.DataFrame(
        {
            # The number drawn on the photo; a column, since Streamlit hides a plain range index.
            "n": [str(n) for n in case_mod.row_numbers(base.rows)],
            "tile": [r.code for r in base.rows],
            "group": [r.group for r in base.rows],
            "check": [_confidence_label(r) for r in base.rows],
        },
    )
    st.data_editor(
        table,
        key=editor_key(),
        num_rows="dynamic",
        width="stretch",
        # Tall enough for every row plus the blank "add" row, so the page scrolls and the table does
        # not; but no taller than a phone's screen, where a table scrolling within itself traps the
        # thumb and a row added at its foot lies out of sight
        height=min(ROW_PX * (len(base.rows) + 3), TABLE_MAX_PX),
        hide_index=True,
        column_config={
            # text, so that a row the user adds reads "new" rather than "None"
            "n": st.column_config.TextColumn("#", disabled=True, width="small", default="new"),
            # every code, whatever the rule set: options that changed with it (or with an edit) would
            # make the table a new widget, and the user's corrections in it would be lost
            "tile": st.column_config.SelectboxColumn("Tile", options=list(TILE_CODES), required=True),
            # left empty, an added tile goes where its kind goes (a flower to bonus, a 5p to the hand)
            "group": st.column_config.SelectboxColumn(
                "Group",
                options=list(GROUPS),
                help="Where the tile lies. Left empty on a row you add: bonus for a flower, season, "
                "animal or face, else the hand.",
            ),
            "check": st.column_config.TextColumn("Sure?", disabled=True, default="added"),
        },
    )
    for group, meld in zip(build.meld_groups, build.hand["melds"], strict=False):
        if meld["kind"] == "kong":
            key = concealed_key(group)
            restore_kept(key, meld["concealed"])  # as the hand is built: the base's, or face down
            st.checkbox(f"{group.capitalize()} ({meld['tiles'][0]} kong) is concealed", key=key)
            remember(key)


def _confidence_label(row: TileRow) -> str:
    if row.confidence is None:
        return ""
    percent = f"{row.confidence * 100:.0f}%"
    return f"⚠ {percent}" if row.low_confidence else percent


# --------------------------------------------------------------------------- page


LAST_SCORED = "last_scored"  # (hand, scoring input, result, corrections) of the run before
HAND_ID = "hand_id"  # counts the hands: a restarted table (undo, a way taken) is the same hand


def _what_changed(data: dict[str, Any], result: dict[str, Any] | None, corrected: list[str]) -> str | None:
    """The line saying what the user's last change did to the score (`app_ui.change_note`), where the
    hand is the same one (a new photo or typed hand is no change to explain; an undo or a way taken,
    which start the table again, are); `corrected`: the table's corrections in words."""
    state = st.session_state
    before = state.get(LAST_SCORED)
    if result is None:
        return None
    hand = state.get(HAND_ID, 0)
    state[LAST_SCORED] = (hand, copy.deepcopy(data), result, corrected)
    if before is None or before[0] != hand:
        return None
    return change_note(before[1], before[2], data, result, (before[3], corrected))


def table_corrections(base: Base, kongs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every correction of the table on screen: those folded into it (a way taken, an undo, a reload)
    and those in it now, the kongs' ticks last."""
    now = [*case_mod.corrections(base.rows, current_edits()), *kongs]
    return case_mod.corrections_so_far(list(map(dict, base.earlier)), now)


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
    data = kept_case.load(name) if kept_case.is_name(name) else None
    try:
        opened = (
            None
            if data is None
            else case_mod.open_case("the case before the page reloaded", data, chosen_rules())
        )
    except case_mod.CaseFileError:
        opened = None  # a file from an older app that no longer opens
    if opened is None:
        del st.query_params[kept_case.QUERY_KEY]  # nor may a reload of this page look for it again
        state["restored_note"] = (
            "The case this page's address named is no longer kept (a case is kept for a day after its "
            "last change): the page starts afresh."
            if kept_case.is_name(name)
            else "This page's address names no case (?case= takes a name the app gives): the page starts "
            "afresh."
        )
        return
    photo = kept_case.load(str(name), kept_case.PHOTO)
    back = None if photo is None else _photo_back(photo, opened)
    if photo is not None and back is not None:
        kept_case.share_photo(str(name), kept_name(), photo)  # this page's own copy, as its case is
        base, state["display_to_restore"] = back
        state["case_to_open"] = dataclasses.replace(opened, base=base)
        corrected = " your corrections," if base.earlier else ""
        state["restored_note"] = (
            f"The page was reloaded: the photo, its tiles,{corrected} and how it was won are back."
        )
        return
    source = (opened.base.history or {}).get("source")
    # the case as it was, not one opened from a file: saved with its own source and name
    saved_name = source.get("name") if isinstance(source, dict) else None
    base = dataclasses.replace(opened.base, restored=True, name=str(saved_name or opened.base.name))
    state["case_to_open"] = dataclasses.replace(opened, base=base)
    kinds: list[object] = []
    while isinstance(source, dict) and len(kinds) < 100:  # a case opened from a file names where it came from
        kinds.append(source.get("kind"))
        source = source.get("opened_from")
    corrected = " its corrections," if (opened.base.history or {}).get("corrections") else ""
    state["restored_note"] = f"The page was reloaded: the hand,{corrected} and how it was won are back." + (
        " The photo could not be shown again (it was not kept, or reads otherwise now): a photo"
        " uploaded now is read afresh, and the page asks first where that would replace"
        " corrections (download the case to keep them)."
        if kinds[:1] == ["photo"]  # the page showed a photo (not a case opened from one's reading)
        else ""
    )


def _photo_back(data: bytes, opened: case_mod.OpenedCase) -> tuple[Base, PhotoView] | None:
    """The photo case a reload brought back as it stood, and the copies of its photo to draw on: the
    kept photo (`data`) read again, as the set the case names, for its reading, with the saved table and its
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
    rgb, _ = _decoded(photo_name, data)
    slot = get_reader()
    if rgb is None or slot.reader is None:
        return None
    tile_set = str(source.get("read_as") or case_mod.set_name(opened.rules, opened.options))
    try:
        with st.spinner("Bringing back the photo…"):
            faces = case_mod.tiles_in_set(tile_set)
            read = read_tiles(slot.reader, rgb, get_executor(), READ_TIMEOUT_S, faces)
    except Exception:  # the case still opens, as saved
        return None
    size = (int(rgb.shape[1]), int(rgb.shape[0]))
    photo = Base(source="photo", name=photo_name, sha256=str(source["sha256"]), size=size)
    fresh = with_reading(photo, read, tile_set)
    if case_mod.codes_and_groups(case_mod.rows_to_json(fresh.rows)) != case_mod.codes_and_groups(
        history.get("photo_tiles")
    ):
        return None
    corrections = tuple(history.get("corrections") or ())
    if corrections:  # folded into the table, as a way taken folds them: undone together, back to the reading
        fresh = dataclasses.replace(
            fresh,
            rows=tuple(case_mod.with_reading_of(opened.base.rows, fresh.rows)),
            meld_concealed=opened.base.meld_concealed,
            as_read=case_mod.AsRead(fresh.rows, fresh.meld_concealed),
            earlier=corrections,
            ways_closed=True,
        )
    return dataclasses.replace(fresh, restored=True), _view_of(rgb, fresh)


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


def keep_case(offered: bytes | None, base: Base) -> None:
    """Keep the case on screen for a reload (the bytes the download `offered`), or drop it with the
    hand (None: no hand); a photo stays kept while its tiles are the hand (`read_photo` keeps it)."""
    name = st.session_state.get("kept_case")
    if offered is None:
        if name:  # a photo's hand emptied may come back (undo): its photo stays while it is on screen
            kept_case.forget(
                name, (kept_case.CASE,) if base.source == "photo" else (kept_case.CASE, kept_case.PHOTO)
            )
        for key in (kept_case.QUERY_KEY, VIEW_KEY):  # a reload of an empty page looks for no case
            if key in st.query_params:
                del st.query_params[key]
        return
    name = kept_name()
    kept_case.save(name, offered)
    if base.source != "photo":
        kept_case.forget(name, (kept_case.PHOTO,))


def main() -> None:
    st.set_page_config(page_title="Mahjong tai calculator", page_icon="🀄", layout="centered")
    init_state()
    restore_kept_case()
    bring_back_winning_tile()
    note_table_change()
    apply_opened_case()
    st.title("🀄 Mahjong tai calculator")
    st.caption("Snap the winning hand, check the tiles, say how it was won: tai and payouts.")
    # a slot drawn on every run, filled or not: an element that came and went above the tabs would
    # move them, and Streamlit would show the first tab again at the next click
    restored = st.session_state.pop("restored_note", None)
    notes_slot = st.container()
    if restored:
        notes_slot.info(restored)
    rules, options, option_problems = rules_ui()
    follow_tile_set(chosen_set())
    input_ui()
    base: Base = st.session_state["base"]
    rows, build, score_hint = hand_view_ui(base)
    context = context_ui(build.hand, rules)
    data, result, error = score_case(build, context, rules, options)
    outcomes = winning_tile_outcomes(data) if result is not None else []
    # the kongs ticked concealed or exposed against the reading: corrections of their own
    kongs = case_mod.kong_corrections(build, base.meld_concealed)
    corrected = [w for w in map(correction_words, table_corrections(base, kongs)) if w is not None]
    changed = _what_changed(data, result, corrected)
    if base.source == "photo" and result is not None:
        if wants_winning_tile(result, outcomes):
            said = "Set the winning tile to score it"
        elif result.get("valid"):
            said = score_words(result)
            if winning_tile_note(result, outcomes, str(result.get("unit") or "tai")):
                said += " as it stands: the winning tile changes it"
        elif result.get("reason") == "below_minimum" and result.get("message"):
            said = str(result["message"]).rstrip(".")  # the tiles win, below the minimum: no misreading
        else:
            said = f"Not a valid win {'as corrected' if unsaved_corrections(base) else 'as read'}"
        score_hint.markdown(f"{said} — [see Result below](#{RESULT_ANCHOR})")  # a tap away on a phone
    result_ui(build, data, result, error, option_problems, typed_stale_note(), outcomes, changed)
    offered = download_ui(data, base, rows, result, kongs, current_edits())
    tile_editor_ui(base, build, result, kongs, outcomes)
    note_table_change()
    keep_case(offered, st.session_state["base"])


if __name__ == "__main__":
    main()
