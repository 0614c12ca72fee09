"""The hand as the page shows it above the table: the photo with its boxes and numbers, the reader's
notes and doubts, the offer to read again or take a way to a win, and the tile pictures.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app_ui import case as case_mod
from app_ui import hand_build, photo_rows, table_edits, tile_sets, unsure_stakes
from app_ui.address import VIEW_KEY, WHOLE_VIEW, address_the_view
from app_ui.art import group_blocks, group_name
from app_ui.case import Base, HandBuild, TileRow
from app_ui.meld_offer import offer_groups, regrouped, score_either_way, tile_span
from app_ui.photo_reading import (
    NO_TILES_FOUND,
    blur_why,
    far_off_may_be_why,
    read_again_as,
    read_as_other_set,
)
from app_ui.photo_view import PhotoView, in_picture
from app_ui.picture_bytes import DrawnPhoto, drawn_photo, frozen_blocks, tile_pictures_png
from app_ui.questions import question_waiting
from app_ui.rules_panel import chosen_set
from app_ui.session import current_edits, meld_concealed_now, restart_table, unsaved_corrections
from app_ui.summary import RULE_LABELS, plain
from app_ui.widget_memory import remember, restore_kept

# the labelled photo as the run before sent it (`picture_bytes.DrawnPhoto`): a rerun that changes none
# of its marks sends it again rather than draw it again
DRAWN_PHOTO = "drawn_photo"

# a hand built from rows, scored as the page scores the table's, in the words of
# `winning_hint.result_words` (None where it cannot be scored)
ScoreOf = Callable[[HandBuild], "str | None"]


START_PROMPT = "Upload a photo, try a sample, or type a hand to start."
START_PROMPT_KEY = "start_prompt"
# While a photo is read (the reader's spinner, or the model's as it loads), the last run's prompt stood
# under the spinner, asking for the photo being read (an audit): the page drawn before the reading keeps
# its elements on screen until the run reaches them, and the prompt is drawn after the tabs that read.
# Once the spinner went, it stood again until the run drew the hand (0.3-0.6 s, stage 87): a prompt
# left from the last run (Streamlit marks it stale) is hidden too where the uploader holds a file (not
# on every run of an empty page, where it blinked at each tap).
START_PROMPT_CSS = (
    f"body:has([data-testid='stSpinner']) .st-key-{START_PROMPT_KEY},"
    f" body:has([data-testid='stFileChip']) .st-key-{START_PROMPT_KEY}:has([data-stale='true'])"
    " { display: none; }"
)


@dataclass(frozen=True)
class HandSlots:
    """Places above the table filled once the hand is scored: beside the reading's time, the score;
    under the reader's notes, the offer of a meld read the other way; the unsure tiles' line."""

    score_hint: DeltaGenerator
    offer: DeltaGenerator
    unsure: DeltaGenerator


def hand_view_ui(base: Base) -> tuple[list[TileRow], HandBuild, HandSlots]:
    """The photo with boxes and groups, the reader's doubts, and the tile pictures of the hand; and the
    places filled once the hand is scored further down (`HandSlots`: the score beside the reading's
    time, the offer of a meld at the hand's end read the other way, `meld_offer_ui`, and which unsure
    tiles decide the score, `unsure_ui`).

    The tiles are the base rows with the user's table edits applied: the edit state of the table is in
    the session before the script reruns, so the pictures and the score above the table are current."""
    edits = current_edits()
    numbered = table_edits.numbered_edits(base.rows, edits)
    # numbered, an added row after every number the case has given (a tile deleted since included)
    rows = table_edits.apply_edits(base.rows, edits, table_edits.last_number(base))
    numbers = [number for number, _ in numbered]
    meld_concealed = meld_concealed_now(base)
    build = hand_build.build_hand(rows, meld_concealed)
    if base.source == "none" and not rows:
        st.container(key=START_PROMPT_KEY).info(START_PROMPT)
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
        left_out = [in_picture(box, origin, scale) for box in left_out_boxes(base)]
        height, width = copy_shown.shape[:2]
        seen_here = [
            b for b in left_out if 0 <= (b[0] + b[2]) / 2 <= width and 0 <= (b[1] + b[3]) / 2 <= height
        ]
        kept: DrawnPhoto | None = st.session_state.get(DRAWN_PHOTO)
        shown_now = st.session_state[DRAWN_PHOTO] = drawn_photo(
            kept, copy_shown, drawn, kinds, numbers, seen_here
        )
        st.image(
            shown_now.jpeg,
            caption=photo_caption(
                shown,
                rows,
                any(row.box is not None for row in base.photo_rows),
                far_off_may_be_why(base.warnings),
                blur_why(base.warnings),
            )
            + left_out_caption(len(seen_here), len(left_out) - len(seen_here)),
            width="stretch",
            output_format="JPEG",
            alt=photo_alt(rows, numbers, kinds, len(seen_here)),
        )  # a PNG of a photo is ~1 MB and 0.3 s to encode; JPEG ~0.15 MB (`picture_bytes.PHOTO_QUALITY`)
        if has_part:
            st.toggle(
                "Show the whole photo",
                key="whole_photo",
                help="The photo is cropped to its tiles "
                "so their labels can be read on a phone; a tile the reader missed may lie outside.",
            )
            remember("whole_photo")
            address_the_view(bool(st.session_state.get("whole_photo")))
    else:  # no photo (a typed hand, an opened case): its last drawing is let go with it
        st.session_state.pop(DRAWN_PHOTO, None)
    reread_ui(base)
    offer = base.meld_offer
    answered = offer is not None and offer_groups(offer, rows) is None  # its tiles moved: no more to ask
    said = notes_to_say(base.notes, offer.line if answered and offer is not None else None)
    if said:
        notes = "\n".join(f"- {w}" for w in said)
        if unsaved_corrections(base):
            # what the reader said stands for the photo as read; the user's corrections may have settled it
            st.info("The reader said of the photo as read (before your corrections):\n" + notes)
        else:
            st.warning("The reader says:\n" + notes)
    win_ways_ui(base)
    offer_slot = st.container()  # the offer of a meld at the hand's end read the other way, once scored
    if base.source == "photo" and "app_total" in base.timings:
        # the reader's tiles, as read: the table's may have lost some (deleted, folded in by a reload)
        read = sum(1 for row in base.photo_rows if row.box is not None)
        st.caption(f"Read {read} tiles in {base.timings['app_total'] / 1000:.2f} s.")
    score_hint = st.empty()
    unsure_slot = st.empty()  # the unsure tiles, said once the hand is scored (`unsure_ui`)
    blocks = group_blocks(build.hand, build.meld_groups, rows)
    picture = tile_pictures_png(frozen_blocks(blocks))
    if picture is not None:
        st.image(picture, caption=hand_picture_caption(base), width="stretch", alt=hand_picture_alt(blocks))
    return rows, build, HandSlots(score_hint, offer_slot, unsure_slot)


def notes_to_say(notes: Sequence[str], answered: str | None = None) -> list[str]:
    """The reader's notes the page lists under *The reader says*: not the meld offer's line once its
    tiles moved (`answered`), nor "no tiles found", which the photo's caption or its error line says
    in full just above (an audit, stage 87: a bare table's photo said it in its caption, then again as
    the reader's only note)."""
    return [note for note in notes if note not in (answered, NO_TILES_FOUND)]


def unsure_ui(
    slot: DeltaGenerator,
    base: Base,
    rows: Sequence[TileRow],
    in_set: Collection[str],
    weighed: tuple[str, Sequence[unsure_stakes.Stake]] | None = None,
) -> None:
    """The tiles the reader is unsure of, by number with its runner-up where the set `in_set` holds it,
    in `slot`; and, the hand scored (`weighed`: its score in a few words and the unsure tiles read as
    their runner-up, `result_panel.stakes_of`), which of them decide the score; a button for each
    runner-up, which takes it."""
    low = photo_rows.unsure_tiles([(row.number, row) for row in rows], in_set)
    if not low:
        slot.empty()
        return
    seconds = runner_ups(rows, in_set)
    line = check_line(low, [number for number, _ in seconds])
    if weighed is not None:
        now, stakes = weighed
        line = " ".join(filter(None, [line, unsure_stakes.stakes_line(stakes, now)]))
    box = slot.container()
    box.warning(line)
    if not seconds:
        return
    # a tap, where the table took scrolling three screens down and a row picked in a list of 49 faces on
    # a phone (an audit, stage 81: about six actions for one tile)
    buttons = box.container(horizontal=True, gap="small")
    for number, code in seconds:
        key = f"runner_up_{st.session_state['version']}_{number}"
        if buttons.button(f"#{number} as {code}", key=key, disabled=question_waiting()):
            taken = table_edits.take_codes(
                base, current_edits(), {number: code}, RUNNER_UP, meld_concealed_now(base)
            )
            restart_table(taken)
            st.rerun()


def check_line(low: Sequence[str], offered: Sequence[int]) -> str:
    """The line that asks to check the unsure tiles `low` (`photo_rows.unsure_tiles`), of which those
    numbered `offered` have their second guess's button: where some have none (a copy too many, a face
    the set lacks), the buttons' tiles are named, as "tap a second guess below" over one button for six
    tiles sent the user looking for five that were not there (an audit, stage 87)."""
    many = len(low) > 1
    them = "them" if many else "it"
    if not offered:
        fix = f"Fix {them}"
    elif len(offered) == len(low):
        fix = f"Tap {'a' if many else 'its'} second guess below or fix {them}"
    elif len(offered) == 1:
        fix = f"Tap tile {offered[0]}'s second guess below or fix {them}"
    else:
        numbers = ", ".join(str(n) for n in offered[:-1]) + f" and {offered[-1]}"
        fix = f"Tap a second guess below (tiles {numbers}) or fix {them}"
    tiles = f"tile{'s' if many else ''} {', '.join(low)}"
    return f"Please check {tiles}: the reader is unsure. {fix} in Check the tiles."


# the `by` of a change a runner-up's button made (`table_edits.take_codes`)
RUNNER_UP = "runner-up"


def runner_ups(rows: Sequence[TileRow], in_set: Collection[str]) -> list[tuple[int, str]]:
    """Each unsure tile's number and the reader's second guess for it, where the set `in_set` holds it
    and has a copy left beside the other tiles (a review, stage 81: two taps made a fifth 2m): the faces
    a tap may take."""
    held = Counter(row.code for row in rows)
    offered = []
    for number, row in zip(case_mod.row_numbers(rows), rows, strict=True):
        code = row.alternative
        if code is not None and photo_rows.offers_runner_up(row, in_set) and photo_rows.copy_left(held, code):
            offered.append((number, code))
    return offered


def left_out_caption(shown: int, outside: int) -> str:
    """What the dashed boxes on the photo are (`shown` of them), and how many more lie outside the part
    shown (an audit's photo: the reader's line gave two left-out boxes by their pixels alone, and they
    were the pair it had missed)."""
    said = (
        " Grey dashed boxes: left out by the reader (no tile there, or cut by the edge); add any tile "
        "there in the table."
        if shown
        else ""
    )
    if outside:
        more = "more " if shown else ""
        noun, them = ("box", "it") if outside == 1 else ("boxes", "them")
        said += f" The reader left out {outside} {more}{noun} outside this part: Show the whole photo"
        said += f" to see {them}."
    return said


def left_out_boxes(base: Base) -> list[tuple[float, float, float, float]]:
    """The boxes the reader left out as holding no tile (photo pixels), where the photo's reading is at
    hand (`base.seen`)."""
    rejected = getattr(base.seen, "rejected_xyxy", None)
    if base.source != "photo" or rejected is None:
        return []
    return [(float(x1), float(y1), float(x2), float(y2)) for x1, y1, x2, y2 in rejected]


def hand_picture_caption(base: Base) -> str:
    """What the tile pictures show: the photo's reading, or the hand as the user has made it since."""
    if base.source != "photo":
        return "The hand (change it in Check the tiles)"
    if unsaved_corrections(base):
        return "The hand as corrected (change it in Check the tiles)"
    return "The hand as read (fix it in Check the tiles)"


def photo_alt(
    rows: Sequence[TileRow], numbers: Sequence[int | None], meld_kinds: Mapping[str, str], left_out: int
) -> str:
    """The labelled photo in words, for a screen reader (an accessibility audit, stage 80: the photo
    had no text at all): each boxed tile by its number in the tile table, its face, its group and
    whether it is unsure."""
    boxed = [(n, row) for n, row in zip(numbers, rows, strict=True) if row.box is not None and n is not None]
    if not boxed:
        return "The photo: no tiles are boxed on it."
    tiles = "; ".join(
        f"#{n} {row.code}, {group_name(row.group, meld_kinds)}" + (", unsure" if row.to_check else "")
        for n, row in boxed
    )
    said = f"The photo with {len(boxed)} tiles boxed, numbered as in the tile table: {tiles}."
    if left_out:
        said += f" {left_out} dashed {'box' if left_out == 1 else 'boxes'} left out by the reader."
    return said


def hand_picture_alt(blocks: Sequence[tuple[str, Sequence[str], bool]]) -> str:
    """The tile pictures in words, group by group, for a screen reader."""
    groups = "; ".join(f"{label}: {' '.join(codes)}" for label, codes, _ in blocks if codes)
    return f"The tiles drawn by group: {groups}." if groups else "No tiles."


def photo_caption(
    name: str, rows: list[TileRow], found: bool, far_off: bool = False, blurred: str | None = None
) -> str:
    """What the boxes on the photo mean, as far as this photo has any (`found`: the reader found tiles;
    `rows`: the tiles now, the user's edits applied; `far_off`: with none found, the hand may lie too
    small in it, `photo_reading.far_off_may_be_why`; `blurred`: the reader's line that the photo looks
    blurred or shaken, `photo_reading.blur_why`)."""
    if not found and blurred is not None:  # not asked whether it shows a hand: it is merely blurred
        return f"{name}: no tiles found on the photo: {blurred}. (Or add the tiles in Check the tiles.)"
    if not found:
        return f"{name}: no tiles found on the photo: is it a photo of a mahjong hand? " + (
            "(If so, take it closer where the hand lies far off in it, or add the tiles in Check the tiles.)"
            if far_off
            else "(If so, add them in Check the tiles.)"
        )
    boxed = [row for row in rows if row.box is not None]
    if any(row.to_check for row in boxed):
        return (
            f"{name}: numbers match the tile table; tiles marked ? (in orange) are unsure, please check them."
        )
    return f"{name}: numbers match the tile table."


def reread_ui(base: Base) -> None:
    """What reading the tiles again for the rule set did, or the offer to, where corrections stand."""
    note = st.session_state.pop("reread_note", None)
    if note:
        st.info(note)
    tile_set = chosen_set()
    label = reread_label(base, tile_set)
    if label is None:
        return
    was = tile_sets.set_words(base.read_as, RULE_LABELS)
    st.info(f"The photo's tiles were read as {was}; your corrections are kept.")
    if st.button(label, key="read_again", disabled=question_waiting()):
        read_again_as(base, tile_set)
        st.rerun()


def reread_label(base: Base, tile_set: str) -> str | None:
    """The label of the button that reads the photo's tiles again as the set `tile_set`, where it is
    offered (`reread_ui`: a photo read as another set, the user's corrections kept); else None."""
    if not read_as_other_set(base, tile_set):
        return None
    return f"Read the tiles again as {tile_sets.set_words(tile_set, RULE_LABELS)} (drops your corrections)"


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
            taken = table_edits.take_way(base, current_edits(), way, meld_concealed_now(base))
            restart_table(taken)
            st.rerun()


def meld_offer_ui(
    slot: DeltaGenerator,
    base: Base,
    rows: Sequence[TileRow],
    score_now: str | None,
    score_of: ScoreOf,
) -> None:
    """The offer's button in `slot` (under the reader's notes), with what it does to the score
    (`score_now`: the table's score in words; `score_of`: a hand built from rows scored as the page
    scores the table's, in words, None when it cannot be)."""
    offer = base.meld_offer
    if offer is None or base.source != "photo":
        return
    moves = offer_groups(offer, rows)
    if moves is None:
        return
    then_rows = regrouped(rows, moves)
    then = score_of(hand_build.build_hand(then_rows, meld_concealed_now(base)))
    tiles = tile_span([n for meld in offer.melds for n in meld])
    label = (
        f"Take {tiles} as laid down ({' and '.join(offer.kinds)})"
        if offer.laid
        else f"Take {tiles} into the concealed hand"
    )
    box = slot.container()
    box.caption(score_either_way(score_now, then))
    if box.button(
        label, key=f"meld_offer_{st.session_state['version']}", icon="🀄", disabled=question_waiting()
    ):
        taken = table_edits.take_regroup(base, current_edits(), moves, meld_concealed_now(base))
        restart_table(taken)
        st.rerun()
