"""A set's lessons: the hands a user checked and taught (`vision.set_memory`), each tile's look with its
face, kept together as one file that can be saved and read again (the app's *Save this set's lessons*,
`python -m vision PHOTO --lessons FILE`).

One set is played evening after evening at the same table: what the reader was taught of it one
evening reads the next evening's first photo as well as its last. The file is an .npz of plain arrays
(no pickle): the looks as float16, the faces, each photo's digest, and the key of the classifier that
described them (another model's looks are not comparable: its lessons are refused, the set taught
afresh).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from vision.classes import CLASS_INDEX
from vision.set_memory import SetMemory, empty_memory, learned

FORMAT = 1  # a file's layout; another is refused
# the newest hands kept taught: an evening's play (the memory keeps the newest 32 tiles of each face)
MOST_LESSONS = 40
# what a user's file may hold at most (40 hands of at most 30 tiles); a larger one is no lessons file
MOST_BYTES = 16 * 1024 * 1024
SUFFIX = ".mjset"  # the name a saved file is offered under (any name reads)


class LessonsError(ValueError):
    """A lessons file that cannot be read, in one line for the user."""


@dataclass(frozen=True)
class Lesson:
    """One checked hand: its photo's digest, its tiles' looks (N, D) and their faces as the table says."""

    photo: str
    descriptors: np.ndarray = field(repr=False, compare=False)
    codes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.descriptors) != len(self.codes) or not all(code in CLASS_INDEX for code in self.codes):
            raise ValueError("a lesson's looks and faces must pair, each face a tile code")
        # a file read back is checked here: a row of looks that is no table of numbers would fail
        # only later, reading a photo with it
        if np.ndim(self.descriptors) != 2 or not np.isfinite(self.descriptors).all():
            raise ValueError("a lesson's looks must be a table of numbers, a row a tile")


def with_lesson(lessons: Sequence[Lesson], lesson: Lesson) -> tuple[Lesson, ...]:
    """`lessons` with `lesson` last, in place of the same photo's earlier one (a hand taught again), the
    newest MOST_LESSONS kept: the lessons and their file (about 80 KB a hand) had grown without end,
    where the memory keeps only the newest tiles of each face."""
    kept = (*(old for old in lessons if old.photo != lesson.photo), lesson)
    return kept[-MOST_LESSONS:]


def joined(lessons: Sequence[Lesson], more: Sequence[Lesson]) -> tuple[Lesson, ...]:
    """`lessons` and then `more` (`with_lesson` each: a photo taught in both is kept once, as `more`
    has it)."""
    out = tuple(lessons)
    for lesson in more:
        out = with_lesson(out, lesson)
    return out


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
    """`lessons` as a file's bytes (an .npz of plain arrays), for the classifier named `key`."""
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
        # as wide as the longest face: "U8" cut "centipede" to "centiped", and a file with one read as
        # damaged, kept or saved (a helper, stage 87)
        codes=np.array([code for lesson in lessons for code in lesson.codes], dtype=str),
    )
    return buffer.getvalue()


NOT_LESSONS = "it is no set's lessons file (the app saves one with \"Save this set's lessons\")"


def read_lessons(data: bytes, key: str) -> tuple[Lesson, ...]:
    """The lessons a file's bytes hold, for the classifier named `key`. Raises LessonsError, one line
    saying why, where it is no lessons file, is damaged, was taught to another classifier, or holds
    none."""
    if len(data) > MOST_BYTES:
        raise LessonsError(NOT_LESSONS)
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as kept:
            names = set(kept.files)
            if not {"format", "key", "photos", "sizes", "descriptors", "codes"} <= names:
                raise LessonsError(NOT_LESSONS)
            if int(kept["format"]) != FORMAT:
                raise LessonsError(
                    "it was saved by another version of this app, whose lessons this one cannot read"
                )
            if str(kept["key"]) != key:
                raise LessonsError(
                    "it was taught to another tile reader than this one (the models changed since): "
                    "teach the set again"
                )
            lessons = _lessons_of(
                [str(photo) for photo in kept["photos"]],
                [int(size) for size in kept["sizes"]],
                np.asarray(kept["descriptors"], np.float32),
                [whole_face(str(code)) for code in kept["codes"]],
            )
    except LessonsError:
        raise
    except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile, EOFError):
        raise LessonsError(NOT_LESSONS) from None
    if not any(lesson.codes for lesson in lessons):
        raise LessonsError("it holds no lessons: no hand was taught")
    return lessons


CUT_AT = 8  # how long a face's name a file saved before stage 87 kept at most (`whole_face`)


def whole_face(code: str) -> str:
    """The face `code` names, or the one face whose name a file saved before stage 87 cut to `CUT_AT`
    characters begins ("centiped": a centipede), so that such a file still loads; as it is else."""
    if code in CLASS_INDEX or len(code) != CUT_AT:
        return code
    whole = [face for face in CLASS_INDEX if face.startswith(code)]
    return whole[0] if len(whole) == 1 else code


def _lessons_of(
    photos: Sequence[str], sizes: Sequence[int], looks: np.ndarray, codes: Sequence[str]
) -> tuple[Lesson, ...]:
    if (
        len(photos) != len(sizes)
        or sum(sizes) != len(codes)
        or len(looks) != len(codes)
        or min(sizes, default=0) < 0
    ):
        raise LessonsError("it is damaged: its tiles and looks do not pair")
    lessons, start = [], 0
    for photo, size in zip(photos, sizes, strict=True):
        try:
            lessons.append(Lesson(photo, looks[start : start + size], tuple(codes[start : start + size])))
        except ValueError:  # a face that is no tile code, looks that are no numbers
            raise LessonsError("it is damaged: a tile's face or look cannot be read") from None
        start += size
    return tuple(lessons)


def lessons_from_bytes(data: bytes | None, key: str) -> tuple[Lesson, ...]:
    """The lessons a kept file holds; none where there is none, it does not read, or it was taught to
    another classifier than `key`'s (its looks are not comparable: the set is taught afresh)."""
    if not data:
        return ()
    try:
        return read_lessons(data, key)
    except LessonsError:
        return ()
