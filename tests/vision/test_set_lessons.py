"""A set's lessons as a file: saved and read back whole, refused in one line where it is no lessons
file, is damaged, or was taught to another classifier; `python -m vision --lessons` reads with it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.vision.imagegen import encode
from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import write_models
from vision.classes import CLASSES
from vision.cli import main
from vision.pipeline import TileReader
from vision.set_lessons import (
    MOST_LESSONS,
    NOT_LESSONS,
    Lesson,
    LessonsError,
    joined,
    lessons_bytes,
    lessons_from_bytes,
    read_lessons,
)


def _lesson(photo: str, *codes: str, width: int = 4) -> Lesson:
    rng = np.random.default_rng(len(photo) + len(codes))
    return Lesson(photo, rng.normal(size=(len(codes), width)).astype(np.float16), codes)


def _npz(**arrays: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def test_a_saved_file_reads_back_as_its_lessons() -> None:
    lessons = (_lesson("a", "S1", "F2", "1s"), _lesson("b", "C", "back"))
    back = read_lessons(lessons_bytes(lessons, "k"), "k")
    assert [(lesson.photo, lesson.codes) for lesson in back] == [
        ("a", ("S1", "F2", "1s")),
        ("b", ("C", "back")),
    ]
    for was, now in zip(lessons, back, strict=True):
        np.testing.assert_array_equal(np.asarray(was.descriptors, np.float32), now.descriptors)


def test_every_face_reads_back_whole_and_a_file_that_cut_a_long_name_still_loads() -> None:
    # a helper (stage 87): the faces were kept as "U8", "centipede" cut to "centiped", and a hand taught
    # with a centipede made its file (kept for a reload, or saved) read as damaged
    longest = max(CLASSES, key=len)
    lessons = (_lesson("a", *CLASSES[:20]), _lesson("b", longest, "S1"))
    back = read_lessons(lessons_bytes(lessons, "k"), "k")
    assert [lesson.codes for lesson in back] == [lesson.codes for lesson in lessons]
    # a file saved before: its long names cut at 8, each the start of one face's name alone
    arrays = dict(np.load(io.BytesIO(lessons_bytes(lessons, "k"))))
    arrays["codes"] = arrays["codes"].astype("U8")
    assert read_lessons(_npz(**arrays), "k")[1].codes == (longest, "S1")


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not a file of arrays",
        encode(Image.new("RGB", (8, 8)), "JPEG"),  # a photo given where the lessons were asked for
        _npz(x=np.zeros(3)),  # an .npz, but of something else
    ],
)
def test_what_is_no_lessons_file_is_refused_as_such(data: bytes) -> None:
    with pytest.raises(LessonsError) as refused:
        read_lessons(data, "k")
    assert str(refused.value) == NOT_LESSONS


def test_lessons_of_another_classifier_or_version_are_refused_saying_why() -> None:
    data = lessons_bytes((_lesson("a", "S1"),), "old-model")
    with pytest.raises(LessonsError, match="another tile reader than this one"):
        read_lessons(data, "new-model")
    with pytest.raises(LessonsError, match="holds no lessons"):
        read_lessons(lessons_bytes((), "k"), "k")
    other = dict(np.load(io.BytesIO(lessons_bytes((_lesson("a", "S1"),), "k"))))
    other["format"] = np.int64(99)
    with pytest.raises(LessonsError, match="another version of this app"):
        read_lessons(_npz(**other), "k")


@pytest.mark.parametrize(
    "change",
    [
        {"sizes": np.array([5], np.int64)},  # more tiles said than kept
        {"codes": np.array(["S1", "Z9"])},  # a face that is no tile code
        {"descriptors": np.full((2, 4), np.nan, np.float16)},  # looks that are no numbers
    ],
)
def test_a_damaged_file_is_refused_as_damaged(change: dict[str, np.ndarray]) -> None:
    arrays = dict(np.load(io.BytesIO(lessons_bytes((_lesson("a", "S1", "F2"),), "k"))))
    arrays.update(change)
    with pytest.raises(LessonsError, match="damaged"):
        read_lessons(_npz(**arrays), "k")
    assert lessons_from_bytes(_npz(**arrays), "k") == ()  # a kept file so damaged reads as none


def test_joined_lessons_keep_a_photo_once_as_the_later_has_it_and_the_newest_up_to_the_bound() -> None:
    saved = tuple(_lesson(f"old{k}", "S1") for k in range(MOST_LESSONS))
    today = (_lesson("old3", "S2"), _lesson("new", "F1"))
    both = joined(saved, today)
    assert len(both) == MOST_LESSONS
    assert [lesson.photo for lesson in both[-2:]] == ["old3", "new"]
    assert both[-2].codes == ("S2",)  # today's word on that photo, not the file's
    assert [lesson.photo for lesson in both].count("old3") == 1
    assert both[0].photo == "old1"  # old3 moved to its place today: only the oldest gave way


def _photo_and_models(tmp_path: Path) -> tuple[Path, Path]:
    sc = scene(600, 1000)
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(Image.fromarray(sc.rgb), "PNG"))
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)), features=True, cls_gain=5.0)
    return photo, models


def test_the_command_line_reads_with_a_lessons_file_and_says_which_tile_it_moved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo, models = _photo_and_models(tmp_path)
    reader = TileReader.load(models)
    first = reader.read(np.asarray(Image.open(photo).convert("RGB")), describe=True)
    assert first.descriptors is not None and first.detections.codes == ["1m", "1p", "1s"]
    # the user checked the hand and said the red tile is this set's S2
    red = first.detections.codes.index("1m")
    lesson = Lesson("earlier", first.descriptors[[red]], ("S2",))
    lessons = tmp_path / "set.mjset"
    lessons.write_bytes(lessons_bytes((lesson,), reader.classifier.look_key))
    assert main([str(photo), "--json", "--models", str(models), "--rules", "any"]) == 0
    assert [d["code"] for d in json.loads(capsys.readouterr().out)["detections"]] == ["1m", "1p", "1s"]
    assert (
        main([str(photo), "--json", "--models", str(models), "--rules", "any", "--lessons", str(lessons)])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert [d["code"] for d in data["detections"]] == ["S2", "1p", "1s"]
    assert any("read as S2, not 1m: it looks like the S2 tiles taught" in line for line in data["warnings"])


def test_a_lessons_file_that_cannot_be_used_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo, models = _photo_and_models(tmp_path)
    other = tmp_path / "other.mjset"
    other.write_bytes(lessons_bytes((_lesson("a", "S1", width=3),), "another-model"))
    for given, why in (
        (tmp_path / "none.mjset", ": file not found"),
        (tmp_path, ": not a file"),
        (photo, NOT_LESSONS),
        (other, "taught to another tile reader"),
        (Path("/dev/zero"), NOT_LESSONS),  # endless: read no further than a lessons file can be
    ):
        assert main([str(photo), "--models", str(models), "--lessons", str(given)]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1
        assert captured.err.startswith("python -m vision: cannot read") and why in captured.err
    # a classifier that gives no looks cannot read with any lessons: said, not ignored
    plain_models = write_models(tmp_path / "plain", detector_rows(scene(600, 1000), (384, 640)))
    assert main([str(photo), "--models", str(plain_models), "--lessons", str(other)]) == 2
    assert "gives no looks" in capsys.readouterr().err
