"""What the reader has been taught of the set on the table: the tiles of each photo's hand the user said
were checked, by their looks (`vision.set_memory`), kept for the tab (and a reload of it), forgotten
when asked.

One set is played all evening, and the models misread its faces the same way photo after photo where
its art is unlike any they learned from. A hand the user checked and taught (*Tiles checked: teach this
set*) is kept as a lesson: each tile's look and its face as the table says. The next photos are read
with the lessons of every other photo; a photo's own lesson never reads itself. Taught the reader's own
misreads, or another set's tiles, the memory reads worse than none (models/README, stage 86): so only
a checked hand is taught, on the user's word, and *Forget this set* clears it for another set.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from app_ui.case import IGNORE, Base, TileRow
from vision.classes import CLASS_INDEX
from vision.set_memory import SetMemory, empty_memory, learned

LESSONS = "set_lessons"  # the session's lessons, oldest first: tuple[Lesson, ...]
FORMAT = 1  # a kept file's layout; another is read as no lessons
BOX_SLACK = 0.5  # px: a row's box is the reading's box, as stored (a float32 and back)
# the newest hands kept taught: an evening's play (the memory keeps the newest 32 tiles of each face)
MOST_LESSONS = 40


@dataclass(frozen=True)
class Lesson:
    """One checked hand: its photo's digest, its tiles' looks (N, D) and their faces as the table says."""

    photo: str
    descriptors: np.ndarray = field(repr=False, compare=False)
    codes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.descriptors) != len(self.codes) or not all(code in CLASS_INDEX for code in self.codes):
            raise ValueError("a lesson's looks and faces must pair, each face a tile code")
        # a kept file read back is checked here: a row of looks that is no table of numbers would fail
        # only later, reading a photo with it
        if np.ndim(self.descriptors) != 2 or not np.isfinite(self.descriptors).all():
            raise ValueError("a lesson's looks must be a table of numbers, a row a tile")


def describes(reader: Any) -> bool:
    """Whether `reader` gives each tile's look, so a set can be taught to it and read with it."""
    return bool(getattr(getattr(reader, "classifier", None), "describes", False))


def reader_key(reader: Any) -> str:
    """The name of the classifier whose looks the lessons hold (`TileClassifier.look_key`)."""
    return str(getattr(getattr(reader, "classifier", None), "look_key", ""))


def lesson_of(base: Base, rows: Sequence[TileRow]) -> Lesson | None:
    """The lesson of the photo hand `base` as the table's `rows` have it now: each tile read from the photo
    (a row with a box the reading found) and not set aside (ignored), by its look, as its face; None
    where the page holds no photo read with looks, or no such tile."""
    looks = getattr(base.seen, "descriptors", None)
    if base.source != "photo" or base.sha256 is None or looks is None or not len(looks):
        return None
    boxes = np.asarray(base.seen.xyxy, np.float32).reshape(-1, 4)
    picked: list[int] = []
    codes: list[str] = []
    for row in rows:
        if row.box is None or row.group == IGNORE or row.code not in CLASS_INDEX:
            continue
        hit = np.flatnonzero(np.abs(boxes - np.asarray(row.box, np.float32)).max(axis=1) < BOX_SLACK)
        if len(hit) and int(hit[0]) not in picked:
            picked.append(int(hit[0]))
            codes.append(row.code)
    if not picked:
        return None
    return Lesson(base.sha256, np.asarray(looks, np.float16)[picked], tuple(codes))  # as a memory keeps them


def with_lesson(lessons: Sequence[Lesson], lesson: Lesson) -> tuple[Lesson, ...]:
    """`lessons` with `lesson` last, in place of the same photo's earlier one (a hand taught again), the
    newest MOST_LESSONS kept: the tab's lessons and their file (about 80 KB a hand) had grown without end,
    where the memory keeps only the newest tiles of each face."""
    kept = (*(old for old in lessons if old.photo != lesson.photo), lesson)
    return kept[-MOST_LESSONS:]


def taught(lessons: Sequence[Lesson], photo: str | None) -> Lesson | None:
    """The lesson of `photo` (a digest), where it was taught."""
    return next((lesson for lesson in lessons if lesson.photo == photo), None)


def others_taught(lessons: Sequence[Lesson], photo: str | None) -> tuple[Lesson, ...]:
    """The lessons a photo (`photo`: its digest) is read with: every other photo's that holds a tile."""
    return tuple(lesson for lesson in lessons if lesson.photo != photo and lesson.codes)


def memory_for(lessons: Sequence[Lesson], key: str, photo: str | None = None) -> SetMemory | None:
    """The memory of every lesson but `photo`'s own (a photo is read with what the others taught), in
    the order taught; None where no other lesson is kept."""
    others = others_taught(lessons, photo)
    if not others:
        return None
    memory = empty_memory(key)
    for lesson in others:
        memory = learned(memory, lesson.descriptors, lesson.codes)
    return memory


def taught_words(lessons: Sequence[Lesson]) -> str:
    """ "2 hands (31 tiles)": what the lessons hold."""
    hands, tiles = len(lessons), sum(len(lesson.codes) for lesson in lessons)
    return f"{hands} hand{'s' if hands != 1 else ''} ({tiles} tile{'s' if tiles != 1 else ''})"


def lessons_bytes(lessons: Sequence[Lesson], key: str) -> bytes:
    """`lessons` as a kept file's bytes (an .npz of plain arrays), for the classifier named `key`."""
    width = next((lesson.descriptors.shape[1] for lesson in lessons if len(lesson.codes)), 0)
    looks = [np.asarray(lesson.descriptors, np.float16).reshape(-1, width) for lesson in lessons]
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        format=np.int64(FORMAT),
        key=np.array(key),
        photos=np.array([lesson.photo for lesson in lessons], dtype="U64"),
        sizes=np.array([len(lesson.codes) for lesson in lessons], np.int64),
        descriptors=np.concatenate(looks) if looks else np.zeros((0, 0), np.float16),
        codes=np.array([code for lesson in lessons for code in lesson.codes], dtype="U8"),
    )
    return buffer.getvalue()


def lessons_from_bytes(data: bytes | None, key: str) -> tuple[Lesson, ...]:
    """The lessons a kept file holds; none where there is none, it does not read, or it was taught to
    another classifier than `key`'s (its looks are not comparable: the set is taught afresh)."""
    if not data:
        return ()
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as kept:
            if int(kept["format"]) != FORMAT or str(kept["key"]) != key:
                return ()
            sizes = [int(size) for size in kept["sizes"]]
            looks = np.asarray(kept["descriptors"], np.float32)
            codes = [str(code) for code in kept["codes"]]
            photos = [str(photo) for photo in kept["photos"]]
            if len(photos) != len(sizes) or sum(sizes) != len(codes) or len(looks) != len(codes):
                return ()
            lessons, start = [], 0
            for photo, size in zip(photos, sizes, strict=True):
                lessons.append(Lesson(photo, looks[start : start + size], tuple(codes[start : start + size])))
                start += size
            return tuple(lessons)
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, EOFError):
        return ()
