"""The *Type a hand* tab: a hand typed as compact strings (RULES.md), checked before it is used, and
the note that says when the result on the page is not the hand in the fields.
"""

from __future__ import annotations

import secrets

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

import scoring
from app_ui import hand_build, page_script, tile_sets
from app_ui.case import MELD_GROUPS, Base
from app_ui.new_hand import replace_hand
from app_ui.photo_tab import TO_RESULT
from app_ui.questions import ask_before_replacing, replace_or_keep, withdrawn_note
from app_ui.rules_panel import chosen_rules, chosen_set
from app_ui.session import HAND_ID, said_until_table_changes, unsaved_corrections
from app_ui.summary import RULE_LABELS, plain_line, tile_key
from scoring import typed as typed_mod
from scoring.hand import meld_kind
from scoring.typed_fields import TYPED_BONUS

# the concealed tiles' example, in a set of each rule set (a Malaysian set holds dots and honours alone)
TYPED_EXAMPLE = {"singapore": "123m 456p 789s 555p 22m", "malaysian": "123p 456p 789p EEE 22p"}


def manual_ui() -> None:
    """Type a hand as compact strings (RULES.md), for when there is no camera or photo."""
    # Enter in a field scores the hand, as the button does: a phone's keyboard offers Enter (Go) under the
    # thumb, and Enter had only taken the text, with a note to press the button. Not an `st.form`: its
    # fields tell the page nothing until it is submitted, so the note that the fields are not the hand
    # scored, the fields kept for a reload and the question's *Use the typed hand* (which would use the hand
    # asked about while the fields showed another) would all miss what was typed since. Drawn before the
    # fields, to be set up as early as it can: the browser loads Streamlit's code for `st.html` on its
    # first use, a moment after the fields show (an Enter in that moment only takes the text, as before).
    page_script.run("typed_enter", page_script.enter_presses(TYPED_FIELDS, "typed_use"))
    st.text_input(
        "Concealed tiles (with the winning tile)",
        key="typed_concealed",
        placeholder=TYPED_EXAMPLE.get(chosen_rules(), TYPED_EXAMPLE["singapore"]),
    )
    st.text_input("Exposed melds, one group each", key="typed_melds", placeholder="CCC 456p")
    # dots: a kong of every rule set (an audit, stage 78: 5555s was offered under Malaysian rules)
    st.text_input("Concealed kongs", key="typed_kongs", placeholder="5555p")
    st.text_input("Bonus tiles", key="typed_bonus", placeholder="F1 S2 cat")
    carried = carried_note()
    if carried:
        st.info(carried)
    # side by side at their own widths: two half-page columns left *Clear the fields* alone mid-page on a
    # laptop (a walkthrough)
    buttons = st.container(horizontal=True, key="typed_buttons")
    use_column, clear_column = buttons.container(width="content"), buttons.container(width="content")
    # the next hand typed over the last leaves its melds and bonus tiles in their fields (an audit,
    # stage 82: a cat and rat typed for one hand were scored in the next)
    clear_column.button("Clear the fields", key="typed_clear", on_click=_clear_fields)
    # under the buttons, not between the fields: on a phone the key pushed *Use this hand* a third of a
    # screen down (an audit, stage 82)
    # what pressing the button or Enter does (a refusal, the question before corrections are replaced)
    # just under the buttons, above the tile key: under it, on a phone, the question stood a screen
    # below the field Enter was pressed in, and nothing seemed to happen (a walkthrough)
    said = st.container()
    st.caption(tile_key(tile_sets.tiles_in_set(chosen_set())) + "  \n" + typed_mod.TYPED_ALSO)
    with said:
        _use_ui(use_column)


def _use_ui(use_column: DeltaGenerator) -> None:
    """*Use this hand* in `use_column`, and what came of it: the typed hand used, refused with a line,
    or asked about where the user has corrections."""
    if use_column.button("Use this hand", key="typed_use", type="primary"):
        st.session_state["typed_offered"] = typed_fields()
        try:
            field = "concealed tiles"
            concealed = typed_mod.read_tiles(st.session_state["typed_concealed"] or "")
            field = "exposed melds"
            melds = typed_mod.read_melds(st.session_state["typed_melds"] or "")
            field = "concealed kongs"
            kongs = typed_mod.read_concealed_kongs(st.session_state["typed_kongs"] or "")
            field = "bonus tiles"
            bonus = typed_mod.read_bonus(st.session_state["typed_bonus"] or "", TYPED_BONUS)
        except ValueError as exc:
            # the field is named: the parser's words ('99' needs a suit letter) say what, not where
            _typed_not_used(f"Could not read the {field}: {exc}")
            return
        if len(melds) + len(kongs) > len(MELD_GROUPS):
            _typed_not_used(f"At most {len(MELD_GROUPS)} melds and kongs together.")
            return
        rows = hand_build.rows_from_hand_strings(concealed, [*melds, *kongs], bonus)
        if not rows:
            _typed_not_used("Type at least one tile (or pick bonus tiles) first.")
            return
        tile_set = chosen_set()
        in_set = tile_sets.tiles_in_set(tile_set)
        for meld in [*melds, *kongs]:
            strangers = sorted(set(meld) - in_set)
            if strangers:
                # not "fly cannot stand in a kong" for `555pfly` under Singapore rules: no fly is there
                # to stand anywhere (an audit, stage 77)
                _typed_not_used(
                    f"Could not use the hand: the meld {' '.join(meld)} holds {', '.join(strangers)}, which "
                    f"the {tile_sets.set_words(tile_set, RULE_LABELS)} do not include."
                )
                return
            kind, why = meld_kind(hand_build.resolve_backs(meld))
            if kind is None:
                _typed_not_used(
                    f"Could not use the hand: the meld {' '.join(meld)} is no chow, pong or kong ({why})."
                )
                return
        # a meld typed with face-down tiles lies as only a concealed kong does
        concealed_flags = {MELD_GROUPS[i]: True for i, meld in enumerate(melds) if "back" in meld}
        concealed_flags |= {MELD_GROUPS[len(melds) + i]: True for i in range(len(kongs))}
        hand = hand_build.build_hand(rows, concealed_flags).hand
        try:
            impossible = hand_build.impossible_count({"rules": chosen_rules(), **hand})
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
            st.rerun()  # the Photo tab, drawn above already, says what became of its photo
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
    "The typed hand is not the one scored: press *Use this hand* (or Enter in a field) to score it. "
    "The result below is still the hand before it."
)


def typed_fields() -> tuple[str, ...]:
    """What the typed hand's fields hold now, spaces at the ends aside."""
    return tuple(str(st.session_state.get(key) or "").strip() for key in TYPED_FIELDS)


def typed_not_used() -> bool:
    """Whether the typed fields hold a hand other than the last one used: typed, or changed after
    *Use this hand*, with neither the button nor Enter in a field pressed (a field left by a tap
    elsewhere), so the result on the page is not the hand in the fields."""
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
    return said_until_table_changes(note, "typed_note_table")


def _clear_fields() -> None:
    for key in TYPED_FIELDS:
        st.session_state[key] = ""


# the typed fields' words, for the note on what a new hand kept from the last one
FIELD_NAMES = {"typed_melds": "exposed melds", "typed_kongs": "concealed kongs", "typed_bonus": "bonus tiles"}


def carried_note() -> str | None:
    """Where the hand used now was typed over another one and left some of its fields as they were
    (melds, kongs, bonus tiles), which: a table typing hand after hand may have meant to clear them.
    Said while the fields hold the hand used."""
    state = st.session_state
    used, before = state.get("typed_used"), state.get("typed_used_before")
    if not used or not before or typed_fields() != tuple(used) or used[0] == before[0]:
        return None
    kept = [
        f"{FIELD_NAMES[key]} {value}"
        for key, value, was in zip(TYPED_FIELDS, used, before, strict=True)
        if key in FIELD_NAMES and value and value == was
    ]
    if not kept:
        return None
    return (
        f"Kept as typed for the last typed hand: {'; '.join(kept)}. If this hand has none, press *Clear "
        "the fields* and type it again."
    )


def _use_typed(typed: Base) -> None:
    st.session_state["typed_used_before"] = st.session_state.get("typed_used")
    st.session_state["typed_used"] = st.session_state.get("typed_offered")
    st.session_state["typed_refused"] = None
    replace_hand(typed, None, None)
    st.session_state["photo_error"] = None
    st.session_state["pending_typed"] = None
    # a phone is taken to the result once, as after a photo read (`app.to_result_once`): the fields and the
    # tile key left it two screens below *Use this hand*. A token of its own for each hand used: the browser
    # runs a token once, and a server restarted under the page counts its hands again.
    # ... unless the fields kept some of the last hand's: that note stands by them, to be read before
    # the result (a helper's follow-up, stage 83: scrolled away, a cat and rat kept were scored again)
    if carried_note() is None:
        st.session_state[TO_RESULT] = f"{st.session_state.get(HAND_ID, 0)}:typed:{secrets.token_hex(4)}"
