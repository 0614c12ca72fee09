"""*Tiles checked: teach this set*: a photo's hand, once the user has checked its tiles, taught to the
reader so that the next photos of the same set read better (`app_ui.set_lessons`); *Forget this set*;
*Save this set's lessons* and loading them again another evening (`vision.set_lessons`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from app_ui import kept_case
from app_ui.address import kept_name
from app_ui.case import IGNORE, Base, TileRow, row_numbers
from app_ui.reader_slot import get_reader
from app_ui.set_lessons import LESSONS, describes, lesson_of, reader_key
from app_ui.summary import plain
from app_ui.toasts import toast_later
from vision.set_lessons import (
    SUFFIX,
    Lesson,
    LessonsError,
    joined,
    lessons_bytes,
    lessons_from_bytes,
    memory_for,
    others_taught,
    read_lessons,
    taught,
    taught_words,
    with_lesson,
)
from vision.set_memory import SetMemory

TEACH_LABEL: Final = "Tiles checked: teach this set"
TEACH_AGAIN_LABEL: Final = "Teach this hand again"
FORGET_LABEL: Final = "Forget this set"
FORGET_SURE_LABEL: Final = "Forget them"
KEEP_LABEL: Final = "Keep them"
SAVE_LABEL: Final = "Save this set's lessons"
LOAD_LABEL: Final = "Played this set before? Load the lessons saved then"
LOADER = "lessons_loader"  # how many files the loader took: its key's number (`loader_key`)
REFUSED = "lessons_refused"  # the line refusing the file last taken, under the loader till the lessons change
LESSONS_FILE = "lessons_file"  # (the lessons, their file's bytes): built once, not on every rerun
FORGET_ASKED = "forget_asked"  # *Forget this set* pressed: the page asks before forgetting
TEACH_HELP: Final = (
    "The reader learns how this set draws its faces from these tiles, as the table now has them, and "
    "reads the next photos of it with what it learned: a tile that looks like one taught is read as it. "
    "Teach only a hand whose every tile is right: a tile taught wrong is read wrong again. Playing "
    "another set? Forget this one first."
)


def lessons_now() -> tuple[Lesson, ...]:
    return tuple(st.session_state.get(LESSONS, ()))


def memory_now(reader: Any, photo: str | None = None) -> SetMemory | None:
    """What this tab taught the reader, for reading a photo (`photo`: its digest; its own lesson is left
    out); None where nothing is taught or the reader cannot use it."""
    if not describes(reader):
        return None
    return memory_for(lessons_now(), reader_key(reader), photo)


def read_with(reader: Any, photo: str | None) -> tuple[Lesson, ...]:
    """The lessons a photo (`photo`: its digest) is read with now, as `memory_now` reads it: the other
    photos' (none where the reader cannot use them)."""
    return others_taught(lessons_now(), photo) if describes(reader) else ()


def keep_read_with(lessons: Sequence[Lesson], reader: Any, name: str | None = None) -> None:
    """Keep beside the photo on screen (kept under `name`, the page's where None) the lessons it was
    read with (`read_with`): the tab's may change while its reading stands (forgotten, or taught
    more, while the user's corrections keep it as read), and a reload must read it as it was read, or
    it reads otherwise and its photo is not shown again. An empty file where it was read without."""
    if describes(reader):
        kept_case.save(name or kept_name(), file_bytes(lessons, reader), kept_case.READ_WITH)


def kept_read_with(name: str, reader: Any, photo: str | None) -> tuple[Lesson, ...]:
    """The lessons the photo kept under `name` (its digest `photo`) was read with (`keep_read_with`);
    where none were kept beside it (a case kept by an older app), those the tab reads it with now."""
    data = kept_case.load(name, kept_case.READ_WITH)
    if data is None or not describes(reader):
        return read_with(reader, photo)
    return lessons_from_bytes(data, reader_key(reader))


def keep_lessons(lessons: Sequence[Lesson], reader: Any) -> None:
    """`lessons` as the tab's, kept beside its case for a reload (an empty file where none is left)."""
    st.session_state[LESSONS] = tuple(lessons)
    st.session_state.pop(REFUSED, None)  # the file refused last is no word on them now
    kept_case.save(kept_name(), lessons_file(lessons, reader), kept_case.LESSONS)


# lessons brought back by a reload, not yet kept under the page's new name (`keep_brought_back`)
LESSONS_UNKEPT = "set_lessons_unkept"


def bring_back_lessons(name: str) -> None:
    """The lessons a reloaded page's tab had taught (kept under its old name `name`), as this session's,
    to be kept under its own name at the end of the run (`keep_brought_back`)."""
    reader = get_reader().reader
    lessons = (
        lessons_from_bytes(kept_case.load(name, kept_case.LESSONS), reader_key(reader))
        if describes(reader)
        else ()
    )
    if lessons:
        st.session_state[LESSONS] = lessons
        st.session_state[LESSONS_UNKEPT] = True


def keep_brought_back() -> None:
    """Keep the lessons a reload brought back under this page's name (the reload gave it a new one)."""
    if st.session_state.pop(LESSONS_UNKEPT, False):
        keep_lessons(lessons_now(), get_reader().reader)


def teach_ui(base: Base, rows: Sequence[TileRow], reader: Any) -> None:
    """Under the tile table: teach the photo's hand (or teach it again, changed since), and what the reader
    has been taught, with the way to forget it. Nothing where the reader cannot be taught and nothing is."""
    lessons = lessons_now()
    lesson = lesson_of(base, rows) if describes(reader) else None
    if lesson is None and not lessons:
        return
    checked = False  # the hand on screen taught as it stands: the user's word on every tile
    box = st.container(border=True, key="teach")
    if lesson is not None:
        before = taught(lessons, lesson.photo)
        checked = before is not None and before.codes == lesson.codes
        if checked:
            box.caption(
                f"✓ This hand's {len(lesson.codes)} tiles are taught: the next photos of this set are "
                "read with them."
            )
        elif box.button(TEACH_AGAIN_LABEL if before is not None else TEACH_LABEL, icon="🎓", help=TEACH_HELP):
            lessons = with_lesson(lessons, lesson)
            keep_lessons(lessons, reader)
            st.session_state.pop(FORGET_ASKED, None)  # taught more: asked afresh, of them all
            toast_later(
                f"Taught this set {len(lesson.codes)} tiles: the next photos of it are read with them."
            )
            st.rerun()
        else:
            # a phone shows the table's ⚠ far above the button: the unsure tiles are named where it is
            # pressed, in place of the general word to check the tiles
            unsure = unsure_taught(base, rows)
            check = check_words(unsure, lessons_read(base, rows, unsure))
            if before is None:
                box.caption(
                    check
                    or "Once every tile is right, teach the reader this set: the next photos of it read "
                    "better."
                )
            else:
                box.caption(
                    f"This hand changed since it was taught. {check}"
                    if check
                    else "This hand changed since it was taught: teach it again, once its tiles are right."
                )
    if lessons:
        read_with = read_with_lessons(base, lessons, reader)
        box.caption(known_words(lessons, read_with))
        forget_ui(box, base, lessons, reader, checked)
        save_ui(box, lessons, reader)
    else:
        st.session_state.pop(FORGET_ASKED, None)
    load_ui(box, base, lessons, reader)


def read_with_lessons(base: Base, lessons: Sequence[Lesson], reader: Any) -> bool:
    """Whether the photo on screen was read with the other photos' lessons: the one place the user can
    see that another set's lessons misread tiles (the help says it, but a phone shows no help unasked)."""
    # whether there is a memory to read with, not the memory itself: built on every rerun, it had
    # joined every hand's looks to say yes or no
    return base.source == "photo" and describes(reader) and bool(others_taught(lessons, base.sha256))


def forget_ui(
    box: Any, base: Base, lessons: Sequence[Lesson], reader: Any, taught_as_it_stands: bool
) -> None:
    """*Forget this set*, asked first: an evening's hands taught are gone at one tap (a thumb on a phone),
    and no Undo brings them back. A photo read with the lessons is then read again by the models alone,
    unless the user corrected it or taught it as it stands (`taught_as_it_stands`): their word stands."""
    if not st.session_state.get(FORGET_ASKED):
        if box.button(FORGET_LABEL, help="Photos are then read by the models alone, as for a new set."):
            st.session_state[FORGET_ASKED] = True
            st.rerun()
        return
    box.warning(
        f"Forget the {taught_words(lessons)} taught? Photos are then read by the models alone, and this "
        "set must be taught again."
    )
    forget, keep = box.columns(2)
    if forget.button(FORGET_SURE_LABEL, key="forget_sure", type="primary", width="stretch"):
        st.session_state.pop(FORGET_ASKED, None)
        read_with = read_with_lessons(base, lessons, reader)
        keep_lessons((), reader)
        toast_later(forgot_words(read_with and (taught_as_it_stands or not forget_in_photo(base))))
        st.rerun()
    if keep.button(KEEP_LABEL, key="forget_keep", width="stretch"):
        st.session_state.pop(FORGET_ASKED, None)
        st.rerun()


def taught_as_read(base: Base, rows: Sequence[TileRow]) -> list[tuple[int, TileRow]]:
    """(number, row) of each tile teaching would keep as the photo's reading has it: read from the
    photo, not set aside, its face not changed by the user."""
    read = dict(zip(row_numbers(base.photo_rows), base.photo_rows, strict=True))
    return [
        (number, row)
        for number, row in zip(row_numbers(rows), rows, strict=True)
        if row.box is not None and row.group != IGNORE and number in read and read[number].code == row.code
    ]


def unsure_taught(base: Base, rows: Sequence[TileRow]) -> tuple[int, ...]:
    """The numbers of the tiles teaching would keep as the reader read them though it was unsure of them
    (marked ⚠ in the table)."""
    return tuple(number for number, row in taught_as_read(base, rows) if row.low_confidence)


def lessons_read(base: Base, rows: Sequence[TileRow], named: Sequence[int] = ()) -> tuple[int, ...]:
    """The numbers of the tiles teaching would keep as the lessons read them, otherwise than the models
    did (`Base.recalled`); not those `named` already (unsure)."""
    return tuple(
        number for number, _ in taught_as_read(base, rows) if number in base.recalled and number not in named
    )


def check_words(unsure: Sequence[int], by_lessons: Sequence[int]) -> str | None:
    """What to check before teaching: the unsure tiles still as read, then those the lessons read; None
    where there are none."""
    said = [unsure_words(unsure)] if unsure else []
    if by_lessons:
        tiles, them = tiles_words(by_lessons, "was", "were")
        mark = "" if unsure else "⚠ "  # one mark leads the words
        said.append(
            f"{mark}{tiles} read by what this set was taught, not as the models read {them}: check {them} "
            "before teaching, as a few hands taught can misread a face they never showed."
        )
    return " ".join(said) or None


def unsure_words(numbers: Sequence[int]) -> str:
    """ "⚠ Tiles 13, 16 are still as read, …": the unsure tiles a lesson would keep as read."""
    tiles, them = tiles_words(numbers, "is", "are")
    return (
        f"⚠ {tiles} still as read, and the reader was unsure of {them}: check {them} before teaching, "
        "as a tile taught wrong is read wrong again."
    )


def tiles_words(numbers: Sequence[int], verb_one: str, verb_many: str) -> tuple[str, str]:
    """("Tile 5 is", "it") or ("Tiles 5, 9 are", "them"): the tiles `numbers` named, with their verb,
    and the pronoun for them."""
    if len(numbers) == 1:
        return f"Tile {numbers[0]} {verb_one}", "it"
    return f"Tiles {', '.join(map(str, numbers))} {verb_many}", "them"


def known_words(lessons: Sequence[Lesson], read_with: bool) -> str:
    """What the reader knows of the set; `read_with`: the photo on screen was read with it (then what to
    do if it is another set's photo)."""
    known = f"The reader knows this set from {taught_words(lessons)}"
    if not read_with:
        return f"{known}."
    return (
        f"{known}, and read this photo with what the other photos taught. Playing another set? "
        "Forget this set: its lessons misread another set's tiles."
    )


def forgot_words(kept_checked: bool) -> str:
    """The toast of *Forget this set*; `kept_checked`: the photo on screen, read with the lessons, was
    corrected or taught by the user, so it was not read again."""
    said = "Forgot this set: photos are read by the models alone."
    if kept_checked:
        said += " This photo's tiles stay as you checked them."
    return said


def forget_in_photo(base: Base) -> bool:
    """The photo on screen read again by the models alone (`photo_reading.read_by_models_alone`)."""
    # photo_reading reads photos with this module's memory_now: imported here, not at the top
    from app_ui.photo_reading import read_by_models_alone

    return read_by_models_alone(base)


def save_ui(box: Any, lessons: Sequence[Lesson], reader: Any) -> None:
    """*Save this set's lessons*: a file to load another evening (the tab's lessons go with the tab, and
    a set played every week would be taught afresh each time)."""
    box.download_button(
        SAVE_LABEL,
        lessons_file(lessons, reader),
        file_name=saved_name(lessons),
        mime="application/octet-stream",
        key="save_lessons",
        icon="💾",
        on_click="ignore",  # nothing on the page changes: no rerun, nothing read again
        help="Keep what the reader learned of this set: load the file here the next time it is played, "
        "and its first photos read as well as the last ones today. `python -m vision PHOTO --lessons FILE` "
        "reads with it too.",
    )


def saved_name(lessons: Sequence[Lesson]) -> str:
    """ "mahjong-set-12-hands.mjset": the name a saved file is offered under (what it holds, at a glance
    in a folder of them)."""
    hands = len(lessons)
    return f"mahjong-set-{hands}-hand{'s' if hands != 1 else ''}{SUFFIX}"


def lessons_file(lessons: Sequence[Lesson], reader: Any) -> bytes:
    """The file of `lessons`, as last kept where they are the same (`keep_lessons`)."""
    data = file_bytes(lessons, reader)
    st.session_state[LESSONS_FILE] = (tuple(lessons), data)
    return data


def file_bytes(lessons: Sequence[Lesson], reader: Any) -> bytes:
    """The file of `lessons`, the tab's as last kept where they are the tab's (a photo not taught is read
    with them all), else built anew, leaving the tab's file as kept."""
    kept = st.session_state.get(LESSONS_FILE)
    if kept is not None and kept[0] == tuple(lessons):
        return bytes(kept[1])
    return lessons_bytes(lessons, reader_key(reader))


def load_ui(box: Any, base: Base, lessons: Sequence[Lesson], reader: Any) -> None:
    """A file of *Save this set's lessons* loaded: its lessons join the tab's (a photo in both kept as
    taught today), and the photo on screen, read without them and not corrected, is read again with them.
    A file that is no lessons file, or another reader's, is refused in one line; the tab's lessons stay."""
    # folded: a phone has the box's buttons to reach past it, and only a set played before has a file;
    # keyed, so that it stays open as the box above it grows with the lessons loaded (or is refused)
    place = box.expander(LOAD_LABEL, icon="📂", key="lessons_load")
    given = place.file_uploader(
        f"A {SUFFIX} file saved with *{SAVE_LABEL}* on an evening this set was played",
        key=loader_key(),
    )
    if given is not None:
        # taken once, the loader drawn anew empty (a new key): it held the file, and the same file
        # picked again (after *Forget this set*, or on another photo) was no change to the browser and
        # loaded nothing till removed by hand; nor does a rerun find it there to load it twice
        st.session_state[LOADER] = st.session_state.get(LOADER, 0) + 1
        line, loaded = load_file(given, lessons, base, reader)
        st.session_state[REFUSED] = None if loaded else line
        st.rerun()  # the box, the photo's tiles and their lines as read with the lessons; the loader empty
    refused = st.session_state.get(REFUSED)
    if refused:
        place.error(refused)


def loader_key() -> str:
    """The key of the lessons' loader: a new one for each file taken, so that it is drawn empty."""
    return f"lessons_upload_{st.session_state.get(LOADER, 0)}"


def load_file(given: UploadedFile, lessons: Sequence[Lesson], base: Base, reader: Any) -> tuple[str, bool]:
    """Load the file `given`: its lessons kept as the tab's, joined to `lessons`, and the photo on screen
    read again with them; (what the page says of it, whether they were loaded)."""
    name = plain(given.name)
    try:
        more = read_lessons(given.getvalue(), reader_key(reader))
    except LessonsError as error:
        return f"{name} was not loaded: {error}.", False
    now = joined(more, lessons)  # the file's first: today's hands are the newest
    keep_lessons(now, reader)
    st.session_state.pop(FORGET_ASKED, None)
    read_again = read_with_loaded(base, now)
    line = f"Loaded {taught_words(more)} of this set from {name}."
    if read_again:
        line += " This photo was read again with them."
    toast_later(line)
    return line, True


def read_with_loaded(base: Base, lessons: Sequence[Lesson]) -> bool:
    """The photo on screen, read without the lessons now loaded, read again with them (no model runs),
    unless the user corrected it (their word stands); True where read again."""
    # photo_reading reads photos with this module's memory_now: imported here, not at the top
    from app_ui.photo_reading import read_again_unless_corrected

    if not others_taught(lessons, base.sha256):
        return False  # the file taught only this photo: a photo's own lesson never reads it
    return read_again_unless_corrected(base, "with the lessons loaded")
