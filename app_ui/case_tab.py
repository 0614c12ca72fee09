"""The *Open a case* tab: a downloaded case (or any scoring JSON input) opened again, asking first
where it would replace corrections; and the opened case set into the widgets before any is drawn.
"""

from __future__ import annotations

import secrets

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

import scoring
from app_ui import case_open
from app_ui.case import WIND_LABELS, Base
from app_ui.context_panel import (
    DISCARDER_ASIDE,
    LAST_WIN,
    LIABLE_ASIDE,
    NO_WINNING_TILE,
    NOT_SAID,
    PLACE_NOT_SAID,
    SEAT_FROM_LAST_HAND,
    WINNING_TILE_INTO,
    bring_back_set_aside,
    round_winds,
    set_discarder,
    set_label,
)
from app_ui.new_hand import forget_winning_tile
from app_ui.options import option_specs
from app_ui.photo_tab import TO_RESULT, hand_words
from app_ui.questions import ask_before_replacing, question_waiting, replace_or_keep, withdrawn_note
from app_ui.rules_panel import chosen_rules, chosen_set, stored_options, widget_value
from app_ui.session import HAND_ID, concealed_key, set_base, unsaved_corrections
from app_ui.summary import RULE_LABELS, options_set, plain, plain_line
from app_ui.widget_memory import keep
from scoring.errors import brief
from scoring.rulesets import DEFAULT_RULESET

# the most of a note on an opened case shown (one quoting a reading's warning runs long)
NOTE_LIMIT = 1000
CASE_CAPTION = (
    "A case file (.json) from *Download the case*. A file marked red with a ! was refused for its type: a "
    "photo of a hand is read in the 📷 Photo tab."
)


# the label in a player's words; the command line's files in its help (a walkthrough: "a hand python -m
# scoring takes" in the label was a programmer's word to every player opening a case)
CASE_LABEL = "Open a case (the JSON file this app downloads)"
CASE_HELP = (
    "Also opens a hand typed as JSON for the command line (`python -m scoring`), a photo's reading from "
    "`python -m vision --json`, or a generated scene's ground truth."
)


def open_case_ui() -> None:
    """Open a case downloaded earlier: its hand, rules, options and how it was won, as it was scored."""
    uploaded = st.file_uploader(
        CASE_LABEL,
        type=["json"],
        key="case_upload",
        help=CASE_HELP,
    )
    # the browser refuses a photo here itself, saying only "image/jpeg files are not allowed" (an audit,
    # stage 87): where it goes is said where it can be read, as the Photo tab says where a case goes
    st.caption(CASE_CAPTION)
    if uploaded is None:  # removed, or refused as no JSON file: its error would seem the next file's
        st.session_state["case_error"] = None
    source = None if uploaded is None else f"case:{uploaded.file_id}"
    if uploaded is not None and source not in st.session_state["handled"]:
        st.session_state["handled"] = [*st.session_state["handled"], source]
        try:
            opened = case_open.open_case(uploaded.name, uploaded.getvalue(), chosen_rules())
        except case_open.CaseFileError as exc:
            st.session_state["case_error"] = str(exc)
        else:
            st.session_state["case_error"] = None
            st.session_state[CASE_ASKED] = source  # the file a question asks about, to say what came of it
            if unsaved_corrections(st.session_state["base"]):
                ask_before_replacing("pending_case", opened)
            else:
                _open_onto_page(opened)
                st.rerun()
    withdrawn_note("pending_case")
    pending: case_open.OpenedCase | None = st.session_state.get("pending_case")
    if pending is not None:
        answer = replace_or_keep(f"Opening **{plain(pending.base.name)}**", "Open the case", "case")
        if answer == "replace":
            _open_onto_page(pending)
        asked = st.session_state.get(CASE_ASKED)
        if answer == "keep" and asked is not None:  # offered again, with a line on why it was not opened
            declined = [s for s in st.session_state.get(CASES_DECLINED, []) if s != asked]
            st.session_state[CASES_DECLINED] = [*declined, asked]
        if answer:
            st.session_state["pending_case"] = None
            st.rerun()
    if uploaded is not None and pending is None and not st.session_state.get("case_error"):
        _held_file_ui(uploaded, st.session_state["base"])
    if st.session_state.get("case_error"):
        st.error(plain_line(st.session_state["case_error"]))
    note = st.session_state.pop("case_note", None)
    if note:
        st.info(plain(note))


# the case files opened onto the page, by source id (`case:<file id>`): the digest of each (its
# `Base.sha256`), to tell whether the hand on the page is still that file's; those whose question the
# user answered with *Keep my corrections*; and the file the last question asked about
CASES_OPENED, CASES_DECLINED, CASE_ASKED = "cases_opened", "cases_declined", "case_asked"


def _open_onto_page(opened: case_open.OpenedCase) -> None:
    """Open a case file's hand on the page (on the next run, before any widget is drawn)."""
    state = st.session_state
    state["case_to_open"] = opened
    asked = state.get(CASE_ASKED)
    if asked is not None:
        state[CASES_OPENED] = {**state.get(CASES_OPENED, {}), asked: opened.base.sha256}
        state[CASES_DECLINED] = [s for s in state.get(CASES_DECLINED, []) if s != asked]


def held_file_line(name: str, opened_as: str | None, declined: bool, base: Base) -> tuple[str, str] | None:
    """What the uploader's case file (`name`) is to the page, where it is not the hand on it, and its
    button's label: opened once (`opened_as`: its digest) and replaced since by another hand, as the
    *Photo* tab says of its photo; kept off the page by *Keep my corrections* (`declined`), "not
    opened again" where it was opened once; or never opened, a newer question having taken the place
    of its own. None where the page's hand is its."""
    if opened_as is not None and base.source == "case" and base.sha256 == opened_as:
        return None  # corrected or not, its tiles are the hand
    if declined and opened_as is not None:  # it was the hand once: only its second opening was kept off
        return (
            f"{plain(name)} was not opened again: you kept your corrections to {hand_words(base)}.",
            OPEN_AGAIN,
        )
    if declined:
        return f"{plain(name)} was not opened: you kept your corrections to {hand_words(base)}.", OPEN_NOW
    if opened_as is not None:
        return (
            f"{plain(name)} is no longer the hand on the page: {hand_words(base)} took its place.",
            OPEN_AGAIN,
        )
    return f"{plain(name)} was not opened: a newer question took the place of its own.", OPEN_NOW


OPEN_AGAIN, OPEN_NOW = "Open it again", "Open it now"


def _held_file_ui(uploaded: UploadedFile, base: Base) -> None:
    """Where the uploader holds a case file opened without error that is not the hand on the page: a
    line that says so, and a button that opens it again (asking first where that replaces corrections)."""
    state = st.session_state
    source = f"case:{uploaded.file_id}"
    if source not in state["handled"]:
        return
    opened_as = state.get(CASES_OPENED, {}).get(source)
    said = held_file_line(uploaded.name, opened_as, source in state.get(CASES_DECLINED, []), base)
    if said is None:
        return
    st.caption(said[0])
    if st.button(said[1], key=f"open_again_{uploaded.file_id}", disabled=question_waiting()):
        # read afresh as a new file: opened at once, or asked about first (`open_case_ui`); the old
        # *Keep my corrections* is no answer to the new question, which a newer one may yet replace
        state["handled"] = [h for h in state["handled"] if h != source]
        state[CASES_DECLINED] = [h for h in state.get(CASES_DECLINED, []) if h != source]
        st.rerun()


# what a reloaded page held beside its case (`kept_case.PAGE`), for `apply_opened_case` to set again,
# and the kong ticks its table had (`reload`)
PAGE_BACK, TICKS_BACK = "page_to_restore", "ticks_to_restore"


def apply_opened_case() -> None:
    """Set the widgets to an opened case's rules, options and context: before any widget is drawn, as
    Streamlit lets a widget's value be set only then."""
    opened: case_open.OpenedCase | None = st.session_state.pop("case_to_open", None)
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
    if not opened.reloaded:  # a reloaded page says so in a note of its own
        options_now = {spec.name: widget_value(spec, store.get(spec.name, spec.default)) for spec in specs}
        # a file naming no house rules is scored with the sidebar's: said, as python -m scoring differs
        sidebar = None if opened.options_said else options_set(opened.rules, stored_options(opened.rules))
        state["case_note"] = opened_case_note(opened, rules_before, options_before != options_now, sidebar)
        if state["case_note"] is None:
            # a phone is taken to the result once, as after a photo read or a typed hand used (a
            # walkthrough: an opened case's result lay two screens below the file box, and nothing said
            # it had opened); not where a note on the sidebar stands by the box, to be read first
            state[TO_RESULT] = f"{state.get(HAND_ID, 0)}:case:{secrets.token_hex(4)}"
    won = opened.context
    # the set it opens with (its options set above): its winds are the case's, not a switch's to carry
    tile_set = chosen_set()
    state["context_rules"] = tile_set
    state["seat_wind"], state["prevailing_wind"] = won.seat_wind, won.prevailing_wind
    rounds = round_winds(tile_set)
    if won.prevailing_wind not in rounds:
        # a Malaysian case without the North wind naming a North round (python -m scoring calls it
        # impossible, as it calls a North seat): the box offers no such round, so said, not dropped unsaid
        state["prevailing_wind"] = rounds[0]
        wind, now = WIND_LABELS[won.prevailing_wind], WIND_LABELS[rounds[0]]
        scored = scoring.get_ruleset(opened.rules).scores_prevailing_wind
        unscored = "" if scored else ", and no prevailing wind scores under these rules"
        state["context_note"] = (
            f"The case names a {wind} round, which {set_label(tile_set)} has not: the prevailing wind is "
            f"{now} here{unscored} (python -m scoring calls such a case impossible)."
        )
    state.pop(SEAT_FROM_LAST_HAND, None)  # the case's own seat
    state.pop(LAST_WIN, None)  # nor is the win of the hand before it the case's (a review, stage 82)
    state["won_by"] = "self-drawn" if won.self_drawn else "discard"
    state["circumstances"] = list(won.circumstances)
    state["pay_all"] = won.pay_all
    state.pop(DISCARDER_ASIDE, None)
    state.pop(LIABLE_ASIDE, None)
    set_discarder(won.discarder_wind or NOT_SAID)  # open_case unsaid one the scoring would refuse
    keep(WINNING_TILE_INTO, won.winning_tile_into or PLACE_NOT_SAID)
    page = state.pop(PAGE_BACK, None)  # a reloaded page's: what it held beside its case
    if opened.reloaded and isinstance(page, dict):
        bring_back_set_aside(page, won, opened.rules)
    set_base(opened.base, None, state.pop("display_to_restore", None))
    # the kong ticks the reloaded table had set otherwise than its hand: keyed by the table's version,
    # so set once `set_base` gave it
    for group, concealed in (state.pop(TICKS_BACK, None) or {}).items():
        keep(concealed_key(group), concealed)
    forget_winning_tile()  # nor may a tile the last hand set aside come back in this one
    state["winning_tile"] = won.winning_tile or NO_WINNING_TILE
    state["bonus_from_deal"], state["from_deal_aside"] = list(won.bonus_from_deal), []
    state["photo_error"] = None
    if opened.notes:
        # a paragraph a note: a reading's file brings several, run together they read as one (stage 72);
        # each shown as it is and bounded, since it may quote the file (an audit, stage 78: a reading's
        # warning rendered its link, bold and heading, and one of 50,000 characters was shown whole)
        said = [plain(brief(note, NOTE_LIMIT)) for note in opened.notes]
        state["context_note"] = "\n\n".join(filter(None, [state.get("context_note"), *said]))


def opened_case_note(
    opened: case_open.OpenedCase, rules_before: str, options_changed: bool, sidebar: list[str] | None = None
) -> str | None:
    """What opening a case changed in the sidebar, where it changed anything: the rule set, and the
    house rules the case was scored under; or, for a file naming none, that the sidebar's are used
    (`sidebar`: those set otherwise than the rule set's defaults), as `python -m scoring` uses the
    defaults and its money may differ."""
    changed = []
    # python -m scoring reads a file naming no rule set as the default one, the app as the sidebar's
    other_rules = not opened.rules_said and opened.rules != DEFAULT_RULESET
    if other_rules:
        used, default = (RULE_LABELS.get(name, name) for name in (opened.rules, DEFAULT_RULESET))
        changed.append(
            f"the file names no rule set, so the sidebar's is used ({used}; python -m scoring uses {default})"
        )
    elif opened.rules != rules_before:
        changed.append(f"rule set now {RULE_LABELS.get(opened.rules, opened.rules)}")
    if sidebar is not None:
        used = (
            f"{', '.join(sidebar)}; python -m scoring uses the rule set's defaults"
            if sidebar
            else "the rule set's defaults" + ("" if other_rules else ", as python -m scoring uses")
        )
        changed.append(f"the file names no house rules, so the sidebar's are used ({used})")
    elif options_changed:
        house = options_set(opened.rules, dict(opened.options))
        changed.append(f"house rules as the case says: {', '.join(house) if house else 'the defaults'}")
    if not changed:
        return None
    return f"Opened {opened.base.name}: {'; '.join(changed)}. See the sidebar."
