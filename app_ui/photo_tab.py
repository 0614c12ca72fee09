"""The *Photo* tab: upload, camera and sample photos, each read once; a photo that would replace
the user's corrections asks first, and a sample of another game switches the rule set before it is read.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Final

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

import scoring
from app_ui.case import Base
from app_ui.photo_reading import read_photo, why_unreadable
from app_ui.questions import ask_before_replacing, question_waiting, replace_or_keep, withdrawn_note
from app_ui.reader_slot import get_reader
from app_ui.rules_panel import chosen_rules
from app_ui.session import HAND_ID, said_until_table_changes, unsaved_corrections
from app_ui.summary import plain, plain_line

SAMPLES_DIR = Path(__file__).parent.parent / "samples"


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


PHOTO_NOT_READ: Final = "The photo gave no hand (see *Photo* above): this result is still the hand before it."


def photo_stale_note() -> str | None:
    """Why the result is not the photo's the user just gave, where it is not: it could not be read, or
    no tile was found on it (its one line stands on the *Photo* tab), so the page still scores the
    hand before it. Said until the user changes the tile table, as the typed hand's note is."""
    state = st.session_state
    refused = bool(state.get("photo_error")) and bool(state["base"].rows)
    return said_until_table_changes(PHOTO_NOT_READ if refused else None, "photo_note_table")


def _replaced_by(uploaded: UploadedFile, base: Base) -> str | None:
    """Where the uploader still holds a photo it read that is no longer the hand on the page (a typed
    hand, a case or a sample took its place), a line that says so: the uploader shows the file as if it
    were the one scored (an audit, stage 71). None where it is the page's hand, or was never read."""
    name = uploaded.name
    digest = st.session_state.get("photos_read", {}).get(f"upload:{uploaded.file_id}")
    if digest is None or digest == base.sha256:
        return None  # refused, declined or asked about (its own line says what became of it), or the hand
    return f"{plain(name)} is no longer the hand on the page: {hand_words(base)} took its place."


def hand_words(base: Base) -> str:
    """The hand on the page in words: "the typed hand", "the case my.json", a photo's file name."""
    if base.source == "typed":
        return "the typed hand"
    if base.source == "case":
        return f"the case {plain(base.name)}" if base.name else "an opened case"
    return plain(base.name) if base.name else "the hand"


def _read_again_button(uploaded: UploadedFile, label: str = "Read it again") -> None:
    """A button that takes the uploader's photo as a new file: read at once, or asked about first where
    the user has corrections. Offered wherever the photo it holds is not the hand on the page."""
    if st.button(label, key=f"read_again_{uploaded.file_id}", disabled=question_waiting()):
        source = f"upload:{uploaded.file_id}"
        state = st.session_state
        state["handled"] = [h for h in state["handled"] if h != source]
        state["declined"] = [h for h in state["declined"] if h != source]
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


# The extensions the uploader takes: each one Pillow and pillow-heif name the formats `vision.imageio`
# reads by (an audit: a .jfif, as Windows saves a JPEG from the web, and a camera's HEIF .hif were
# refused by the browser, marked red, before the reader saw them). The reader judges a file by its bytes.
UPLOAD_TYPES: Final = (
    *("jpg", "jpeg", "jpe", "jfif", "png", "apng", "heic", "heif", "hif", "heics", "heifs"),
    *("avif", "avifs", "webp", "gif", "bmp", "tif", "tiff"),
)
# What the camera is asked for (the browser gives the nearest the camera has), and what the user is told.
CAMERA_RESOLUTION: Final = "1080p"
CAMERA_NOTE: Final = (
    "A camera frame is small (1920 x 1080 at best, an old webcam's 640 x 480): fill it with the "
    "tiles, or upload a phone photo, which reads best."
)
WIDGET_SOURCES = ("upload:", "camera:")  # source ids of files a widget holds (not the samples')
# the reading of a photo just read (its hand and source), or a typed hand just used (`typed_tab`), until
# the page has drawn the script that takes a phone to its result: the browser runs it once for each (a page
# the server restarted under counts its hands again, and a photo read again is the same source)
TO_RESULT = "to_result"


def _read_and_mark(incoming: tuple[str, bytes, str]) -> None:
    """Read a photo once: its source id is remembered whether it worked or not, and the message kept."""
    st.session_state["handled"] = [*st.session_state["handled"], incoming[2]]
    st.session_state["photo_error"] = read_photo(*incoming)
    st.session_state["photo_error_source"] = incoming[2]
    if st.session_state["photo_error"] is None:  # by source id, the digest the new Base took
        st.session_state["photos_read"] = {
            **st.session_state.get("photos_read", {}),
            incoming[2]: st.session_state["base"].sha256,
        }
        if st.session_state["base"].rows:
            # a phone is taken to the result once (`app.main`): it lay three screens below the tab tapped
            st.session_state[TO_RESULT] = f"{st.session_state.get(HAND_ID, 0)}:{incoming[2]}"


def photo_ui() -> None:
    """Upload, camera and sample photos. A new photo replaces the tiles, unless the user has corrections:
    then they are asked first, so nothing they typed is lost silently."""
    uploaded = st.file_uploader(
        "Upload a photo of the winning hand",
        type=list(UPLOAD_TYPES),
        key="upload",
        help="Lay the hand out in rows: concealed tiles, declared melds, bonus tiles. On a phone this "
        "button also offers the (back) camera.",
    )
    # the browser refuses a file too large or of another type itself, marking it red and saying why
    # only in a tooltip, which a phone never shows: the limits are said where they can be read
    st.caption(
        f"A photo of up to {st.get_option('server.maxUploadSize')} MB: JPEG, PNG, HEIC, AVIF, WebP, GIF, "
        "BMP or TIFF. A file marked red with a ! was refused for its size or type; a saved case (.json) "
        "opens in the *Open a case* tab."
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
        # with a hand on the page, folded away: on a phone they pushed the photo just read below the
        # first screen (an audit, stage 81)
        # (a photo or sample read in this run counts: its hand is drawn below in this run; a keyed
        # button's click is in the session state as the run starts)
        clicked = any(st.session_state.get(f"sample_{path.stem}") for path in samples) or (
            st.session_state.get("sample_wanted") is not None  # another game's, read after its switch
        )
        holds_hand = st.session_state["base"].source != "none" or incoming is not None or clicked
        place = st.expander("Try a sample photo") if holds_hand else st.container()
        if not holds_hand:
            place.caption("No tiles at hand? Try a sample photo:")
        # A wrapping row of small buttons: columns would stack them full-width on a phone.
        row = place.container(horizontal=True, gap="small")
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
        unreadable = why_unreadable(*incoming[:2]) if corrected else None
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
        # kept once is no answer for good: the user may undo those corrections, or want the photo after all
        st.caption(f"{plain(uploaded.name)} was not read: you kept your corrections to {hand_words(base)}.")
        _read_again_button(uploaded, "Read it now")
    elif uploaded is not None and f"upload:{uploaded.file_id}" in st.session_state.get("set_aside", []):
        st.caption(  # its question gave way to a newer one: the user chose nothing of it
            f"{plain(uploaded.name)} was not read: a newer question took the place of its own. "
            "Remove it and upload it again to read it."
        )
    elif uploaded is not None and (replaced_by := _replaced_by(uploaded, base)):
        st.caption(replaced_by)
        _read_again_button(uploaded)
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
