"""What the reader has been taught of the set on the table: the tiles of each photo's hand the user said
were checked, by their looks (`vision.set_memory`), kept for the tab (and a reload of it), forgotten
when asked.

One set is played all evening, and the models misread its faces the same way photo after photo where
its art is unlike any they learned from. A hand the user checked and taught (*Tiles checked: teach this
set*) is kept as a lesson: each tile's look and its face as the table says. The next photos are read
with the lessons of every other photo; a photo's own lesson never reads itself. Taught the reader's own
misreads, or another set's tiles, the memory reads worse than none (models/README, stage 86): so only
a checked hand is taught, on the user's word, and *Forget this set* clears it for another set. The
lessons themselves, and the file they are kept and saved as, are `vision.set_lessons`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from app_ui.case import IGNORE, Base, TileRow
from vision.classes import CLASS_INDEX
from vision.set_lessons import Lesson

LESSONS = "set_lessons"  # the session's lessons, oldest first: tuple[Lesson, ...]
BOX_SLACK = 0.5  # px: a row's box is the reading's box, as stored (a float32 and back)


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
