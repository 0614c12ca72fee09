"""A photo's reading as tile rows: the detections in the layout's reading order (the numbers drawn
on the photo), each in its table group with the reader's runner-up; and what a re-read changed.

Kept apart from the reader's run (`app_ui.reading`): these are pure functions of a reading.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from app_ui.case import BONUS, HAND, IGNORE, MAX_MELDS, MELD_GROUPS, TileRow, default_group, row_numbers
from app_ui.case_file import saved_box
from vision.classes import CLASSES
from vision.tile_set import COPIES_IN_SET


def reread_changes(before: Sequence[TileRow], after: Sequence[TileRow]) -> list[tuple[str, str]]:
    """(code before, code after) for each tile of a photo (matched by its box) read otherwise after."""
    was = {row.box: row.code for row in before if row.box is not None}
    return [(was[row.box], row.code) for row in after if row.box in was and was[row.box] != row.code]


def reread_regroups(before: Sequence[TileRow], after: Sequence[TileRow]) -> list[tuple[int, str, str, str]]:
    """(tile number after, code after, group before, group after) for each tile of a photo (matched by
    its box) that a re-read laid in another group: the layout reads tiles read otherwise anew."""
    was = {row.box: row.group for row in before if row.box is not None}
    return [
        (number, row.code, was[row.box], row.group)
        for number, row in zip(row_numbers(after), after, strict=True)
        if row.box in was and was[row.box] != row.group
    ]


def regroup_words(moves: Sequence[tuple[int, str, str, str]]) -> str:
    """A re-read's regroups in words ("#3 2p hand → meld 1, #17 5p hand → ignore (not counted)")."""
    return ", ".join(
        f"#{number} {code} {was} → {now}" + (" (not counted)" if now == IGNORE else "")
        for number, code, was, now in moves
    )


def renamed_by_reread(code: str, before: Sequence[TileRow], after: Sequence[TileRow]) -> str | None:
    """The code every tile read `code` before a re-read is read as after it, where they all agree and
    no tile reads `code` any more (a winning tile E whose tiles now read `fly`); else None."""
    now = {after_code for was, after_code in reread_changes(before, after) if was == code}
    if len(now) != 1 or any(row.code == code for row in after):
        return None
    return now.pop()


def unsure_tiles(numbered: Sequence[tuple[int | None, TileRow]], in_set: Collection[str]) -> list[str]:
    """The unsure tiles to check (`TileRow.to_check`: not those left out of the hand) by number, each
    with the reader's runner-up where the set holds it ("12 (1s or F2?)"): a face under Singapore rules
    is no answer to offer."""
    return [
        f"{number}" + (f" ({row.code} or {row.alternative}?)" if offers_runner_up(row, in_set) else "")
        for number, row in numbered
        if row.to_check
    ]


def offers_runner_up(row: TileRow, in_set: Collection[str]) -> bool:
    """Whether an unsure tile's runner-up is a face of the set `in_set`, to offer."""
    return row.to_check and row.alternative is not None and row.alternative in in_set


def copy_left(held: Mapping[str, int], code: str) -> bool:
    """Whether the set has a copy of `code` beside the `held` tiles (a second S1 is no reading)."""
    return held.get(code, 0) < COPIES_IN_SET.get(code, 4)


def _second_guesses(detections: Any, probabilities: Any | None) -> list[str | None]:
    """Per detection, the likeliest class other than the one it is read as (from the classifier's
    distribution), if known: the runner-up, or the first choice when the reader moved the tile off it
    to keep within one set."""
    n = len(detections.codes)
    if probabilities is None or len(probabilities) != n:
        return [None] * n
    out: list[str | None] = []
    for code, row in zip(detections.codes, probabilities, strict=True):
        order = sorted(range(len(row)), key=lambda k: -float(row[k]))
        others = [CLASSES[k] for k in order if CLASSES[k] != code]
        out.append(others[0] if others else None)
    return out


def _reading_order(detections: Any, layout: Any | None) -> tuple[list[int], dict[int, str], dict[str, bool]]:
    """Detection indices in the layout's reading order (the numbers drawn on the photo), the table
    group of each, and whether each meld group is concealed."""
    count = len(detections.codes)
    group_of: dict[int, str] = {}
    order: list[int] = []
    meld_concealed: dict[str, bool] = {}
    melds_seen = 0
    for group in getattr(layout, "groups", ()) or ():
        if group.kind == "concealed":
            name = HAND
        elif group.kind == "meld":
            melds_seen += 1
            name = MELD_GROUPS[melds_seen - 1] if melds_seen <= MAX_MELDS else IGNORE
            if name != IGNORE:
                meld_concealed[name] = bool(group.concealed)
        elif group.kind == "bonus":
            name = BONUS
        else:
            name = IGNORE
        for index in group.indices:
            index = int(index)
            if 0 <= index < count and index not in group_of:
                group_of[index] = name
                order.append(index)
    if layout is None:
        # No layout step: every tile goes to the hand or the bonus row, for the user to regroup.
        group_of = {i: default_group(code) for i, code in enumerate(detections.codes)}
        order = list(range(count))
    order.extend(i for i in range(count) if i not in group_of)
    return order, group_of, meld_concealed


def tile_numbers(detections: Any, layout: Any | None) -> dict[int, int]:
    """The number the app gives each detection (its row in the tile table, drawn on the photo)."""
    order, _, _ = _reading_order(detections, layout)
    return {index: number for number, index in enumerate(order, start=1)}


# a tile's box as a case file keeps it (to 0.1 px): a tile is the same tile where its box is
BoxKey = tuple[float, ...]


def numbers_by_box(rows: Sequence[TileRow]) -> dict[BoxKey, int]:
    """Each boxed tile's number in `rows` (a photo's reading), by its box."""
    return {
        saved_box(row.box): n for n, row in zip(row_numbers(rows), rows, strict=True) if row.box is not None
    }


def kept_numbers(
    as_read: Mapping[int, int],
    boxes: Sequence[Sequence[float]],
    before: Mapping[BoxKey, int],
    after: int = 0,
) -> dict[int, int]:
    """Each detection's number where the photo was read before (a switch of rule set reads its tiles
    again, and the layout may order them otherwise): the number of the tile at the same box `before`,
    so that the photo's labels, the table and the user's words about "#5" still name the same tile; a
    tile not there before is numbered after every number given, `before`'s and `after` (the case's
    highest: a tile the user added, dropped with the corrections, keeps its number), in reading order
    (`as_read`: each detection's number as this reading numbers it)."""
    given: dict[int, int] = {}
    for index in as_read:
        number = before.get(saved_box(boxes[index]))
        if number is not None and number not in given.values():  # two boxes alike to 0.1 px: one keeps it
            given[index] = number
    last = max([*before.values(), after, 0])  # the highest number given so far
    for index in sorted(as_read, key=as_read.__getitem__):
        if index not in given:
            last += 1
            given[index] = last
    return given


def rows_from_reading(
    detections: Any,
    layout: Any | None,
    probabilities: Any | None = None,
    numbers: Mapping[int, int] | None = None,
) -> tuple[list[TileRow], dict[str, bool]]:
    """Rows from a photo reading, in the layout's reading order (the numbers drawn on the photo), or
    given `numbers` (each detection's, `kept_numbers`), numbered so and in their order.

    Each layout group maps to a table group: the concealed row to `hand`, the n-th meld to `meld n`,
    the bonus row to `bonus`; tiles the layout left out (or a fifth meld) are `ignore`, so the user
    sees them and can move them in.
    """
    codes = list(detections.codes)
    order, group_of, meld_concealed = _reading_order(detections, layout)
    if numbers is not None:
        order = sorted(order, key=numbers.__getitem__)
    second = _second_guesses(detections, probabilities)
    rows = [
        TileRow(
            code=codes[i],
            group=group_of.get(i, IGNORE),
            confidence=float(detections.confidence[i]),
            box=tuple(float(v) for v in detections.xyxy[i]),  # type: ignore[arg-type]
            alternative=second[i],
            number=None if numbers is None else numbers[i],
        )
        for i in order
    ]
    return rows, meld_concealed
