"""*Tiles checked: teach this set*: a checked photo hand taught to the reader reads the next photos of the
set with it; *Forget this set* clears it; a reload keeps it; a reader without looks offers nothing."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
from streamlit.testing.v1 import AppTest

from app_ui import kept_case
from app_ui.case import Base, TileRow
from app_ui.set_lessons import LESSONS, lesson_of
from app_ui.teach import (
    FORGET_LABEL,
    FORGET_SURE_LABEL,
    KEEP_LABEL,
    LESSONS_FILE,
    SAVE_LABEL,
    TEACH_AGAIN_LABEL,
    TEACH_LABEL,
    check_words,
    saved_name,
)
from app_ui.tile_editor import CHECK_HELP, CHOSEN_LABEL, RECALLED_LABEL, UNDO_LAST_LABEL, table_columns
from tests.app.conftest import APP
from tests.app.fakes import CONCEALED, MELD, FakeReader, LearningReader, SeenWithLooks, photo_bytes, scene
from tests.app.test_app import Install, edit_tiles, no_problem, upload
from tests.app.test_kept_case import reloaded
from tests.app.test_kept_state import table
from vision.set_lessons import (
    MOST_LESSONS,
    NOT_LESSONS,
    SUFFIX,
    Lesson,
    lessons_bytes,
    lessons_from_bytes,
    memory_for,
    taught_words,
    with_lesson,
)

# this set draws its F2 so that the models take it for F1: the bonus tile (row 14) is an F2
LOOKS = [*CONCEALED, *MELD, "F2"]
BONUS_ROW = len(CONCEALED) + len(MELD)


def _reader() -> LearningReader:
    return LearningReader({90: scene(), 150: scene()}, {90: LOOKS, 150: LOOKS})


def _buttons(at: AppTest) -> list[str]:
    return [str(button.label) for button in at.button]


def _said(at: AppTest) -> str:
    return "\n".join(
        str(element.value)
        for kind in ("warning", "info", "caption", "markdown")
        for element in getattr(at, kind)
    )


def _press(at: AppTest, label: str) -> AppTest:
    next(button for button in at.button if button.label == label).click()
    return at.run()


def _forget(at: AppTest) -> AppTest:
    _press(at, FORGET_LABEL)
    return _press(at, FORGET_SURE_LABEL)  # asked first


def test_a_checked_hand_taught_reads_the_next_photo_of_the_set_right(app: AppTest, install: Install) -> None:
    reader = _reader()
    install(reader)
    upload(app, photo_bytes(shade=90), "first.jpg")
    no_problem(app)
    assert reader.memories == [None]  # nothing taught yet
    assert TEACH_LABEL in _buttons(app) and FORGET_LABEL not in _buttons(app)
    # the user checks the tiles: the bonus tile is an F2, read F1
    edit_tiles(app, {"edited_rows": {str(BONUS_ROW): {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    _press(app, TEACH_LABEL)
    no_problem(app)
    lessons = app.session_state[LESSONS]
    assert len(lessons) == 1 and lessons[0].codes[BONUS_ROW] == "F2" and len(lessons[0].codes) == len(LOOKS)
    assert "This hand's 15 tiles are taught" in _said(app)
    assert "The reader knows this set from 1 hand (15 tiles)." in _said(app)
    assert TEACH_LABEL not in _buttons(app) and FORGET_LABEL in _buttons(app)
    # the next photo of the set is read with the lesson: its bonus tile read F2, and the page says why
    upload(app, photo_bytes(shade=150), "second.jpg")
    _press(app, "Read the new photo")  # the corrections taught are still the page's: asked first
    no_problem(app)
    memory = reader.memories[-1]
    assert memory is not None and memory.tiles == 15 and "F2" in memory.codes
    assert app.session_state["base"].rows[BONUS_ROW].code == "F2"
    assert f"tile {BONUS_ROW + 1} read as F2, not F1: it looks like the F2 tiles taught" in _said(app)
    # before this hand is taught in turn, the box names the tile the lessons read
    assert app.session_state["base"].recalled == (BONUS_ROW + 1,)
    assert (
        f"⚠ Tile {BONUS_ROW + 1} was read by what this set was taught, not as the models read it: check it "
        "before teaching" in _said(app)
    )
    # changed by the user, it is theirs: not named again
    edit_tiles(app, {"edited_rows": {str(BONUS_ROW): {"tile": "F3"}}, "added_rows": [], "deleted_rows": []})
    assert "was read by what this set was taught" not in _said(app)


def test_a_hand_changed_after_it_was_taught_is_offered_again_and_forgetting_clears_the_set(
    app: AppTest, install: Install, _own_case_folder: Path
) -> None:
    reader = _reader()
    install(reader)
    upload(app, photo_bytes(shade=90))
    _press(app, TEACH_LABEL)
    name = app.query_params[kept_case.QUERY_KEY]
    assert (_own_case_folder / f"{name}{kept_case.LESSONS}").is_file()
    edit_tiles(app, {"edited_rows": {str(BONUS_ROW): {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    assert "This hand changed since it was taught" in _said(app)
    _press(app, TEACH_AGAIN_LABEL)
    assert [lesson.codes[BONUS_ROW] for lesson in app.session_state[LESSONS]] == ["F2"]  # in place
    _forget(app)
    no_problem(app)
    assert app.session_state[LESSONS] == ()
    assert (
        lessons_from_bytes((_own_case_folder / f"{name}{kept_case.LESSONS}").read_bytes(), "fake-looks") == ()
    )
    upload(app, photo_bytes(shade=150))
    _press(app, "Read the new photo")
    assert len(reader.memories) == 2 and reader.memories[-1] is None  # read by the models alone
    assert app.session_state["base"].rows[BONUS_ROW].code == "F1"


def test_a_reloaded_page_keeps_what_its_tab_taught(app: AppTest, install: Install) -> None:
    reader = _reader()
    install(reader)
    upload(app, photo_bytes(shade=90))
    edit_tiles(app, {"edited_rows": {str(BONUS_ROW): {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    _press(app, TEACH_LABEL)
    again = reloaded(app)
    no_problem(again)
    assert [lesson.codes[BONUS_ROW] for lesson in again.session_state[LESSONS]] == ["F2"]
    assert "The reader knows this set from 1 hand (15 tiles)." in _said(again)
    # kept under the reloaded page's own name too, for the next reload
    assert kept_case.load(again.query_params[kept_case.QUERY_KEY], kept_case.LESSONS) is not None


def test_a_reader_without_looks_offers_no_teaching(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    no_problem(app)
    assert TEACH_LABEL not in _buttons(app) and FORGET_LABEL not in _buttons(app)
    assert "reader knows this set" not in _said(app)


def _base(looks: np.ndarray) -> Base:
    boxes = np.array([[0, 0, 10, 14], [12, 0, 22, 14], [24, 0, 34, 14]], np.float32)
    seen = SeenWithLooks.from_codes(["S1", "S2", "1s"], boxes.tolist(), [0.9] * 3)
    seen = SeenWithLooks(seen.xyxy, seen.confidence, seen.class_id, seen.angle, looks)
    return Base(source="photo", name="p.jpg", sha256="abc", seen=seen)


def test_a_lesson_takes_each_tile_read_from_the_photo_as_the_table_has_it() -> None:
    looks = np.eye(3, dtype=np.float32)
    base = _base(looks)
    rows = [
        TileRow("S2", box=(12.0, 0.0, 22.0, 14.0)),  # read S2
        TileRow("S1", box=(0.0, 0.0, 10.0, 14.0)),  # corrected to S1
        TileRow("1s", group="ignore", box=(24.0, 0.0, 34.0, 14.0)),  # set aside: not taught
        TileRow("C"),  # added by hand: no look
    ]
    lesson = lesson_of(base, rows)
    assert lesson is not None and lesson.photo == "abc" and lesson.codes == ("S2", "S1")
    np.testing.assert_array_equal(lesson.descriptors, looks[[1, 0]])
    assert lesson_of(Base(source="typed"), rows) is None
    assert lesson_of(_base(np.zeros((0, 3), np.float32)), rows) is None


def test_a_photo_is_read_with_the_other_photos_lessons_and_they_keep_in_a_file() -> None:
    one = Lesson("a", np.eye(2, 4, dtype=np.float32), ("S1", "S2"))
    two = Lesson("b", np.eye(1, 4, k=3, dtype=np.float32), ("C",))
    lessons = with_lesson(with_lesson((), one), two)
    assert with_lesson(lessons, Lesson("a", np.zeros((1, 4), np.float32), ("P",)))[-1].codes == ("P",)
    assert len(with_lesson(lessons, Lesson("a", np.zeros((1, 4), np.float32), ("P",)))) == 2
    memory = memory_for(lessons, "k", photo="a")
    assert memory is not None and memory.codes == ("C",)
    assert memory_for(lessons[:1], "k", photo="a") is None
    assert taught_words(lessons) == "2 hands (3 tiles)" and taught_words(lessons[:1]) == "1 hand (2 tiles)"
    back = lessons_from_bytes(lessons_bytes(lessons, "k"), "k")
    assert [(lesson.photo, lesson.codes) for lesson in back] == [("a", ("S1", "S2")), ("b", ("C",))]
    np.testing.assert_allclose(back[0].descriptors, one.descriptors)
    assert lessons_from_bytes(lessons_bytes(lessons, "k"), "another model") == ()
    assert lessons_from_bytes(b"junk", "k") == () and lessons_from_bytes(None, "k") == ()
    assert lessons_from_bytes(lessons_bytes((), "k"), "k") == ()


def test_a_kept_lessons_file_whose_looks_are_no_table_of_numbers_reads_as_none() -> None:
    good = lessons_bytes((Lesson("a", np.eye(2, 4, dtype=np.float32), ("S1", "S2")),), "k")
    with np.load(io.BytesIO(good)) as kept:
        fields = dict(kept)
    flat, unknown, deep = np.ones(2), np.full((2, 4), np.nan), np.ones((2, 4, 1))
    for looks in (flat, unknown, deep):
        crafted = io.BytesIO()
        np.savez_compressed(crafted, **{**fields, "descriptors": looks})
        # read as no lessons, where a photo read with them would have failed
        assert lessons_from_bytes(crafted.getvalue(), "k") == ()
    assert lessons_from_bytes(good[: len(good) // 2], "k") == ()  # a file cut short


def _second_photo_read_with_the_lesson(app: AppTest) -> None:
    upload(app, photo_bytes(shade=90), "first.jpg")
    edit_tiles(app, {"edited_rows": {str(BONUS_ROW): {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    _press(app, TEACH_LABEL)
    upload(app, photo_bytes(shade=150), "second.jpg")
    _press(app, "Read the new photo")
    no_problem(app)
    assert app.session_state["base"].rows[BONUS_ROW].code == "F2"  # the lesson read it


def test_a_photo_read_with_the_lessons_says_so_and_what_to_do_for_another_set(
    app: AppTest, install: Install
) -> None:
    # an audit (stage 86): a photo of another set, read with this set's lessons, had a tile misread by
    # them, and the page said nothing of the risk but in the button's help, which a phone shows unasked
    install(_reader())
    _second_photo_read_with_the_lesson(app)
    assert (
        "The reader knows this set from 1 hand (15 tiles), and read this photo with what the other photos "
        "taught. Playing another set? Forget this set: its lessons misread another set's tiles."
    ) in _said(app)
    _press(app, TEACH_LABEL)  # taught too, it is read with the first photo's lesson all the same
    assert "and read this photo with what the other photos taught" in _said(app)


def test_forgetting_the_set_reads_the_photo_on_screen_by_the_models_alone(
    app: AppTest, install: Install
) -> None:
    # an audit (stage 86): after *Forget this set* ("photos are read by the models alone") the photo on
    # screen kept the tiles the lessons had read, and the line that they look like the taught tiles
    install(_reader())
    _second_photo_read_with_the_lesson(app)
    _forget(app)
    no_problem(app)
    assert app.session_state["base"].rows[BONUS_ROW].code == "F1"
    assert "looks like the F2 tiles taught" not in _said(app)
    assert "The photo's tiles read again by the models alone, the set forgotten: F2 -> F1." in _said(app)
    (toast,) = [toast.value for toast in app.toast]  # with the score's change, as any
    assert toast.startswith("Forgot this set: photos are read by the models alone.\n\nChanged: ")
    assert "read this photo with" not in _said(app)


def test_forgetting_the_set_keeps_the_tiles_the_user_corrected(app: AppTest, install: Install) -> None:
    install(_reader())
    _second_photo_read_with_the_lesson(app)
    edit_tiles(app, {"edited_rows": {"0": {"tile": "C"}}, "added_rows": [], "deleted_rows": []})
    _forget(app)
    no_problem(app)
    rows = app.session_state["base"].rows
    assert rows[BONUS_ROW].code == "F2" and app.session_state[LESSONS] == ()
    assert [toast.value for toast in app.toast] == [
        "Forgot this set: photos are read by the models alone. This photo's tiles stay as you checked them."
    ]


def test_forgetting_the_set_keeps_a_photo_the_user_taught_as_it_stands(
    app: AppTest, install: Install
) -> None:
    # the lessons read its bonus tile right, and the user said so by teaching it: their word, not read
    # again by the models alone (which read the bonus tile F1)
    install(_reader())
    _second_photo_read_with_the_lesson(app)
    _press(app, TEACH_LABEL)
    _forget(app)
    no_problem(app)
    assert app.session_state["base"].rows[BONUS_ROW].code == "F2" and app.session_state[LESSONS] == ()
    assert "read again by the models alone" not in _said(app)
    assert [toast.value for toast in app.toast] == [
        "Forgot this set: photos are read by the models alone. This photo's tiles stay as you checked them."
    ]


def test_forgetting_on_the_taught_photo_itself_reads_nothing_again(app: AppTest, install: Install) -> None:
    reader = _reader()
    install(reader)
    upload(app, photo_bytes(shade=90))
    _press(app, TEACH_LABEL)
    assert "read this photo with" not in _said(app)  # its own lesson never reads it
    _forget(app)
    assert "read again by the models alone" not in _said(app)
    assert [toast.value for toast in app.toast] == ["Forgot this set: photos are read by the models alone."]


def test_the_teach_box_names_the_unsure_tiles_still_as_read(app: AppTest, install: Install) -> None:
    # an audit (stage 86): a hand taught at once, its ⚠ tiles unchecked far up the table on a phone,
    # taught the reader its own misreads (the F1 of an F2 among them), which it then read again
    install(LearningReader({90: scene(low=(2, BONUS_ROW))}, {90: LOOKS}))
    upload(app, photo_bytes(shade=90))
    assert (
        f"⚠ Tiles 3, {BONUS_ROW + 1} are still as read, and the reader was unsure of them: check them before "
        "teaching, as a tile taught wrong is read wrong again."
    ) in _said(app)
    edit_tiles(app, {"edited_rows": {str(BONUS_ROW): {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    assert "⚠ Tile 3 is still as read, and the reader was unsure of it: check it before" in _said(app)
    assert "Once every tile is right" not in _said(app)  # said once, by the tiles
    _press(app, TEACH_LABEL)  # the user's word: taught all the same, and said no more
    assert "still as read" not in _said(app) and len(app.session_state[LESSONS]) == 1
    edit_tiles(app, {"edited_rows": {"0": {"tile": "C"}}, "added_rows": [], "deleted_rows": []})
    assert "This hand changed since it was taught. ⚠ Tile 3 is still as read" in _said(app)


def test_the_teach_box_says_nothing_of_sure_tiles(app: AppTest, install: Install) -> None:
    install(_reader())
    upload(app, photo_bytes(shade=90))
    assert TEACH_LABEL in _buttons(app) and "still as read" not in _said(app)


def test_a_photo_read_again_when_the_set_is_forgotten_comes_back_on_a_reload(
    app: AppTest, install: Install
) -> None:
    # a reload reads the kept photo again with the lessons it then holds, and opens it as saved (its
    # photo gone) where that reads otherwise: forgotten, a photo kept as the lessons read it did
    install(_reader())
    _second_photo_read_with_the_lesson(app)
    _forget(app)
    again = reloaded(app)
    no_problem(again)
    assert again.session_state["base"].source == "photo"
    assert again.session_state["base"].rows[BONUS_ROW].code == "F1"


def test_a_photo_corrected_and_kept_through_forget_comes_back_with_its_photo_on_a_reload(
    app: AppTest, install: Install
) -> None:
    # a helper (stage 87): the user's corrections kept the photo as the lessons read it, and a reload
    # read it by the models alone (the lessons forgotten): it read otherwise, and opened without its photo
    install(_reader())
    _second_photo_read_with_the_lesson(app)
    edit_tiles(app, {"edited_rows": {"0": {"tile": "C"}}, "added_rows": [], "deleted_rows": []})
    _forget(app)
    case = app.session_state["case_json"]
    again = reloaded(app)
    no_problem(again)
    base = again.session_state["base"]
    assert again.session_state["display"] is not None and base.seen is not None  # the photo is back
    assert "The page was reloaded: the photo, its tiles, your corrections," in _said(again)
    assert again.session_state["case_json"]["tiles"] == case["tiles"]  # the tiles as the user left them
    assert again.session_state["case_json"]["corrections"] == case["corrections"]
    assert base.recalled == app.session_state["base"].recalled == (BONUS_ROW + 1,)
    assert "The reader knows this set" not in _said(again)  # still forgotten
    # and so again on the next reload, from the reloaded page's own copy
    twice = reloaded(again)
    assert twice.session_state["display"] is not None
    assert twice.session_state["case_json"]["tiles"] == case["tiles"]


def test_a_photo_kept_without_the_lessons_it_was_read_with_is_read_with_the_tabs_on_a_reload(
    app: AppTest, install: Install, _own_case_folder: Path
) -> None:
    # a case kept by the app before they were kept beside its photo: read with the tab's, as then
    install(_reader())
    _second_photo_read_with_the_lesson(app)
    name = app.query_params[kept_case.QUERY_KEY]
    assert (
        lessons_from_bytes(kept_case.load(name, kept_case.READ_WITH), "fake-looks")[0].codes[BONUS_ROW]
        == "F2"
    )
    (_own_case_folder / f"{name}{kept_case.READ_WITH}").unlink()
    again = reloaded(app)
    assert again.session_state["display"] is not None
    assert again.session_state["base"].rows[BONUS_ROW].code == "F2"


def test_a_tile_the_lessons_read_is_marked_in_the_table_through_undo_forget_and_a_reload(
    app: AppTest, install: Install
) -> None:
    # a helper (stage 87): the teach box and a line named the tile the lessons read otherwise than the
    # models, but the table, where the user checks the tiles, marked it not at all
    install(_reader())
    _second_photo_read_with_the_lesson(app)
    bonus = (str(BONUS_ROW + 1), "F2", RECALLED_LABEL)
    marked = [row for row in table(app) if row[2] == RECALLED_LABEL]
    assert marked == [bonus] and table_columns()["check"]["help"] == CHECK_HELP
    assert RECALLED_LABEL in CHECK_HELP  # its reason, in the column's help
    edit_tiles(app, {"edited_rows": {str(BONUS_ROW): {"tile": "F3"}}, "added_rows": [], "deleted_rows": []})
    assert table(app)[BONUS_ROW][2] == CHOSEN_LABEL  # the user's word now
    _press(app, UNDO_LAST_LABEL)
    assert table(app)[BONUS_ROW] == bonus
    # another tile corrected keeps the photo as the lessons read it through *Forget*, and a reload
    edit_tiles(app, {"edited_rows": {"0": {"tile": "C"}}, "added_rows": [], "deleted_rows": []})
    _forget(app)
    assert table(app)[BONUS_ROW] == bonus
    again = reloaded(app)
    assert table(again)[BONUS_ROW] == bonus and table(again)[0][2] == CHOSEN_LABEL
    _press(again, UNDO_LAST_LABEL)  # the steps kept for the reload keep it too
    assert table(again)[BONUS_ROW] == bonus and table(again)[0][2] != CHOSEN_LABEL


def test_forgetting_the_set_asks_first(app: AppTest, install: Install) -> None:
    # an audit (stage 86): one tap on *Forget this set* (a thumb on a phone) dropped every hand taught,
    # and no Undo brings them back
    install(_reader())
    upload(app, photo_bytes(shade=90))
    _press(app, TEACH_LABEL)
    _press(app, FORGET_LABEL)
    no_problem(app)
    assert len(app.session_state[LESSONS]) == 1  # not yet
    assert (
        "Forget the 1 hand (15 tiles) taught? Photos are then read by the models alone, and this set must "
        "be taught again." in [warning.value for warning in app.warning]
    )
    _press(app, KEEP_LABEL)
    assert len(app.session_state[LESSONS]) == 1 and FORGET_SURE_LABEL not in _buttons(app)
    assert FORGET_LABEL in _buttons(app) and not app.toast
    _forget(app)
    assert app.session_state[LESSONS] == () and FORGET_SURE_LABEL not in _buttons(app)


def test_the_newest_lessons_are_kept_up_to_their_bound() -> None:
    lessons: tuple[Lesson, ...] = ()
    for k in range(MOST_LESSONS + 5):
        lessons = with_lesson(lessons, Lesson(f"p{k}", np.ones((1, 4), np.float32), ("S1",)))
    assert len(lessons) == MOST_LESSONS
    assert lessons[0].photo == "p5" and lessons[-1].photo == f"p{MOST_LESSONS + 4}"


def test_a_page_emptied_of_its_hand_keeps_what_its_tab_taught_for_a_reload(
    app: AppTest, install: Install
) -> None:
    # a review (stage 86): the address dropped its case's name when the table was emptied, and a reload
    # then found no lessons, though they are the tab's, not a hand's
    install(_reader())
    upload(app, photo_bytes(shade=90))
    _press(app, TEACH_LABEL)
    edit_tiles(app, {"edited_rows": {}, "added_rows": [], "deleted_rows": list(range(len(LOOKS)))})
    no_problem(app)
    assert kept_case.QUERY_KEY in app.query_params  # the hand is gone; the set's lessons are not
    again = reloaded(app)
    no_problem(again)
    assert [len(lesson.codes) for lesson in again.session_state[LESSONS]] == [len(LOOKS)]
    assert "no longer kept" not in _said(again)
    assert kept_case.load(again.query_params[kept_case.QUERY_KEY], kept_case.LESSONS) is not None


def test_a_page_emptied_with_nothing_taught_still_drops_its_address(app: AppTest, install: Install) -> None:
    install(_reader())
    upload(app, photo_bytes(shade=90))
    edit_tiles(app, {"edited_rows": {}, "added_rows": [], "deleted_rows": list(range(len(LOOKS)))})
    assert kept_case.QUERY_KEY not in app.query_params


def _downloads(app: AppTest) -> list[str]:
    """The labels of the page's download buttons."""
    return [str(button.proto.label) for button in app.get("download_button")]


def _saved_lessons(app: AppTest) -> bytes:
    """The file *Save this set's lessons* offers (what its button hands the browser)."""
    assert SAVE_LABEL in _downloads(app)
    hands = len(app.session_state[LESSONS])
    assert (
        saved_name(app.session_state[LESSONS]) == f"mahjong-set-{hands}-hand{'s' if hands > 1 else ''}.mjset"
    )
    lessons, data = app.session_state[LESSONS_FILE]
    assert lessons == app.session_state[LESSONS]  # the file of the lessons now
    return bytes(data)


def _loader(app: AppTest) -> Any:
    """The lessons' loader, under whatever key it has now (a new one for each file it took)."""
    (loader,) = [widget for widget in app.file_uploader if str(widget.label).startswith(f"A {SUFFIX} file")]
    return loader


def _load(app: AppTest, data: bytes, name: str = "set.mjset") -> AppTest:
    _loader(app).upload(name, data, "application/octet-stream")
    return app.run()


def test_a_set_saved_one_evening_reads_the_next_evenings_first_photo_with_its_lessons(
    app: AppTest, install: Install
) -> None:
    reader = _reader()
    install(reader)
    upload(app, photo_bytes(shade=90), "monday.jpg")
    assert SAVE_LABEL not in _downloads(app)  # nothing taught
    edit_tiles(app, {"edited_rows": {str(BONUS_ROW): {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    _press(app, TEACH_LABEL)
    saved = _saved_lessons(app)
    # another evening, another tab: its first photo is read by the models alone, the F2 taken for F1
    evening = AppTest.from_file(str(APP), default_timeout=60).run()
    upload(evening, photo_bytes(shade=150), "friday.jpg")
    assert evening.session_state["base"].rows[BONUS_ROW].code == "F1" and reader.memories[-1] is None
    _load(evening, saved, "monday.mjset")
    no_problem(evening)
    assert [lesson.codes[BONUS_ROW] for lesson in evening.session_state[LESSONS]] == ["F2"]
    # the photo on screen, uncorrected, read again with them (no model runs) and saying why
    assert evening.session_state["base"].rows[BONUS_ROW].code == "F2"
    assert next(toast.value for toast in evening.toast).startswith(
        "Loaded 1 hand (15 tiles) of this set from monday.mjset. This photo was read again with them."
    )
    assert "The photo's tiles read again with the lessons loaded: F1 -> F2." in _said(evening)
    assert f"tile {BONUS_ROW + 1} read as F2, not F1" in _said(evening)
    assert "The reader knows this set from 1 hand (15 tiles)" in _said(evening)
    # kept for a reload as the tab's own
    assert [len(lesson.codes) for lesson in reloaded(evening).session_state[LESSONS]] == [15]


def test_a_lessons_file_taken_leaves_the_loader_empty_and_loads_again_when_picked_again(
    app: AppTest, install: Install
) -> None:
    # a helper (stage 87): the loader held the file it loaded, and the same file picked again (after
    # *Forget this set*) was no change to the browser: it had to be removed by hand and picked again
    install(_reader())
    upload(app, photo_bytes(shade=90))
    _press(app, TEACH_LABEL)
    saved = _saved_lessons(app)
    _forget(app)
    _load(app, saved)
    no_problem(app)
    assert len(app.session_state[LESSONS]) == 1
    assert _loader(app).value is None  # taken: the loader is empty, ready for a file picked again
    _forget(app)
    app.run()  # nor does a rerun load it again unasked
    assert app.session_state[LESSONS] == ()
    _load(app, saved)  # the same file, picked again: loaded at once
    assert len(app.session_state[LESSONS]) == 1 and _loader(app).value is None
    assert [toast.value for toast in app.toast][-1].startswith("Loaded 1 hand (15 tiles) of this set from")


def test_a_file_that_is_no_lessons_is_refused_in_one_line_and_the_lessons_taught_stay(
    app: AppTest, install: Install
) -> None:
    install(_reader())
    upload(app, photo_bytes(shade=90))
    _press(app, TEACH_LABEL)
    before = app.session_state[LESSONS]
    rows_before = app.session_state["base"].rows
    _load(app, photo_bytes(shade=150), "table.jpg")  # a photo picked where the lessons were asked for
    no_problem(app)
    (error,) = [str(element.value) for element in app.error]
    assert error == f"table.jpg was not loaded: {NOT_LESSONS}."
    assert app.session_state[LESSONS] == before and app.session_state["base"].rows == rows_before
    assert _loader(app).value is None  # the line stays under the loader, empty for the next file
    app.run()
    assert [str(element.value) for element in app.error] == [error]
    # another model's lessons say so
    _load(app, lessons_bytes(before, "another-model"), "old.mjset")
    assert "another tile reader than this one" in str(app.error[0].value)
    assert app.session_state[LESSONS] == before
    _load(app, _saved_lessons(app))  # a file that loads: the line refusing the last one goes
    assert not app.error


def test_lessons_loaded_leave_the_tiles_the_user_corrected_as_they_are(
    app: AppTest, install: Install
) -> None:
    reader = _reader()
    install(reader)
    upload(app, photo_bytes(shade=90))
    edit_tiles(app, {"edited_rows": {str(BONUS_ROW): {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    _press(app, TEACH_LABEL)
    saved = _saved_lessons(app)
    evening = AppTest.from_file(str(APP), default_timeout=60).run()
    upload(evening, photo_bytes(shade=150))
    edit_tiles(evening, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    _load(evening, saved)
    no_problem(evening)
    assert len(evening.session_state[LESSONS]) == 1
    rows = evening.session_state["base"].rows
    assert rows[BONUS_ROW].code == "F1"  # not read again: the user's corrections stand
    loaded = next(toast.value for toast in evening.toast)
    assert loaded == "Loaded 1 hand (15 tiles) of this set from set.mjset."


def test_a_saved_file_is_named_by_the_hands_it_holds() -> None:
    one = Lesson("a", np.zeros((1, 3), np.float16), ("S1",))
    assert saved_name((one,)) == "mahjong-set-1-hand.mjset"
    assert (
        saved_name((one, Lesson("b", np.zeros((1, 3), np.float16), ("S2",)))) == "mahjong-set-2-hands.mjset"
    )


def test_what_to_check_before_teaching_names_the_unsure_tiles_then_those_the_lessons_read() -> None:
    assert check_words((), ()) is None
    assert check_words((), (4, 9)) == (
        "⚠ Tiles 4, 9 were read by what this set was taught, not as the models read them: check them before "
        "teaching, as a few hands taught can misread a face they never showed."
    )
    both = check_words((3,), (4,))
    assert both is not None and both.startswith("⚠ Tile 3 is still as read")
    assert both.endswith(
        " Tile 4 was read by what this set was taught, not as the models read it: check it "
        "before teaching, as a few hands taught can misread a face they never showed."
    )
    assert both.count("⚠") == 1
