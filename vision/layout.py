"""Layout: from detected tiles to the hand as it lies on the table.

`layout_hand(detections)` finds the rows the tiles lie in (at any photo rotation, from the
tiles themselves), cuts the rows into runs of touching tiles, and reads each run: bonus
tiles go to `bonus` wherever they lie, runs that form melds become melds, and the
longest run that does not is the concealed hand. See docs/layout.md for the rules and
their limits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from vision.classes import BACK, BONUS_CODES
from vision.detections import Detections
from vision.layout_geometry import Frame, duplicate_of, row_angle, rows, segments, tile_shapes
from vision.layout_melds import FLY, MeldKind, MeldRead, split_melds

GroupKind = Literal["concealed", "meld", "bonus", "unused"]
# A winning hand holds 14 tiles besides bonus tiles, a kong counting as three.
HAND_SIZE = 14
# A run that forms no meld this close (in tile sizes a + b) to the hand or a meld joins the hand.
NEAR_SPANS = 1.5


@dataclass(frozen=True)
class TileGroup:
    """Tiles that belong together, with `indices` into the detections in reading order.

    `box` is the union of the tiles' boxes (x1, y1, x2, y2), for drawing the group.
    """

    kind: GroupKind
    meld: MeldKind | None
    concealed: bool
    indices: tuple[int, ...]
    codes: tuple[str, ...]
    box: tuple[float, float, float, float]

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "meld": self.meld,
            "concealed": self.concealed,
            "indices": list(self.indices),
            "codes": list(self.codes),
            "box": [round(v, 1) for v in self.box],
        }


@dataclass(frozen=True)
class Layout:
    """The hand as it lies: `hand` is the scoring JSON input (`concealed`, `melds`, `bonus`)."""

    hand: dict[str, list] = field(default_factory=lambda: {"concealed": [], "melds": [], "bonus": []})
    groups: tuple[TileGroup, ...] = ()
    warnings: tuple[str, ...] = ()
    angle: float = 0.0  # the row direction found, degrees counter-clockwise in the image

    def to_json(self) -> dict[str, object]:
        return {
            "hand": self.hand,
            "groups": [g.to_json() for g in self.groups],
            "warnings": list(self.warnings),
            "row_angle": round(self.angle, 1),
        }


@dataclass(frozen=True)
class _Run:
    """One run of touching tiles (indices into the kept detections, along the row)."""

    row: int
    bonus: tuple[int, ...]
    core: tuple[int, ...]
    melds: tuple[MeldRead, ...] | None


@dataclass(frozen=True)
class _Reading:
    concealed: tuple[int, ...]
    melds: tuple[tuple[tuple[int, ...], MeldRead], ...]
    stray: tuple[int, ...]  # no meld, in line with melds: counted as concealed, with a warning
    ignored: tuple[int, ...]  # no meld, in a row of their own away from the hand: unused


def _group(
    kind: GroupKind, indices: tuple[int, ...], det: Detections, meld: MeldRead | None = None
) -> TileGroup:
    boxes = det.xyxy[list(indices)].astype(np.float64)
    x1, y1 = boxes[:, :2].min(axis=0)
    x2, y2 = boxes[:, 2:].max(axis=0)
    box = (float(x1), float(y1), float(x2), float(y2))
    codes = det.codes
    return TileGroup(
        kind=kind,
        meld=meld.kind if meld else None,
        concealed=meld.concealed if meld else kind == "concealed",
        indices=indices,
        codes=tuple(codes[i] for i in indices),
        box=box,
    )


def _split_run(run: list[int], codes: list[str], row: int) -> _Run:
    """Separate bonus tiles from the rest of a run and read the rest as melds if it can be.

    `fly` is a bonus tile when nothing but bonus tiles and flies share its run (the bonus
    row); elsewhere it is the Malaysian wild tile and stays in the hand.
    """
    bonus = [i for i in run if codes[i] in BONUS_CODES]
    core = [i for i in run if codes[i] not in BONUS_CODES]
    if core and all(codes[i] == FLY for i in core):
        bonus, core = list(run), []
    melds = split_melds([codes[i] for i in core]) if core else None
    return _Run(row=row, bonus=tuple(bonus), core=tuple(core), melds=melds or None)


def _read(runs: list[_Run], main: int, near: list[set[int]]) -> _Reading:
    """Read every run given which one is the concealed hand.

    A run that forms no meld belongs to the hand when it lies in the hand's row; in a row
    with melds, or next to the hand or a meld (`near`), it is counted as concealed too (a
    meld the layout could not read, e.g. a misread tile); elsewhere it is a tile lying
    away on the table (a discard, another player's tile) and is left unused.
    """
    concealed: list[int] = list(runs[main].core)
    stray: list[int] = []
    ignored: list[int] = []
    melds: list[tuple[tuple[int, ...], MeldRead]] = []
    meld_rows = {run.row for run in runs if run.melds is not None}
    for k, run in enumerate(runs):
        if k == main or not run.core:
            continue
        if run.melds is not None:
            melds.extend((run.core[m.start : m.stop], m) for m in run.melds)
        elif run.row == runs[main].row:
            concealed.extend(run.core)
        elif run.row in meld_rows or any(
            j == main or runs[j].melds is not None for j in near[k]
        ):
            stray.extend(run.core)
        else:
            ignored.extend(run.core)
    return _Reading(tuple(concealed), tuple(melds), tuple(stray), tuple(ignored))


def _choose(runs: list[_Run], codes: list[str], near: list[set[int]]) -> _Reading | None:
    """The reading of the runs that best fits a hand.

    Every run with hand tiles is tried as the concealed hand; the best reading makes a
    complete hand (14 tiles, kongs counted as three), then has no stray tiles, then takes
    a run that is not a meld as the hand, then the longest such run.
    """
    candidates = [k for k, run in enumerate(runs) if run.core]
    if not candidates:
        return None

    def rank(k: int) -> tuple[bool, bool, bool, int]:
        reading = _read(runs, k, near)
        tiles = [i for i in reading.concealed + reading.stray if codes[i] != BACK]
        size = len(tiles) + 3 * len(reading.melds)
        return (size == HAND_SIZE, not reading.stray, runs[k].melds is None, len(runs[k].core))

    return _read(runs, max(candidates, key=rank), near)


def _near_runs(runs: list[_Run], centres: np.ndarray, span: np.ndarray) -> list[set[int]]:
    """For each run, the runs with a tile within NEAR_SPANS tile sizes of one of its tiles."""
    members = [list(run.core + run.bonus) for run in runs]
    near: list[set[int]] = [set() for _ in runs]
    for p in range(len(runs)):
        for q in range(p + 1, len(runs)):
            a, b = members[p], members[q]
            dist = np.linalg.norm(centres[a][:, None] - centres[b][None, :], axis=2).min()
            if dist < NEAR_SPANS * float(np.median(span[a + b])):
                near[p].add(q)
                near[q].add(p)
    return near


def layout_hand(detections: Detections) -> Layout:
    """Read the hand from detected tiles (see the module docstring)."""
    warnings: list[str] = []
    codes = detections.codes
    owner = duplicate_of(detections.xyxy, detections.confidence)
    kept = [i for i in range(len(detections)) if owner[i] == i]
    for i in range(len(detections)):
        if owner[i] != i and codes[i] != codes[owner[i]]:
            warnings.append(
                f"two detections of one tile ({codes[owner[i]]} {detections.confidence[owner[i]]:.2f}, "
                f"{codes[i]} {detections.confidence[i]:.2f}): kept {codes[owner[i]]}"
            )
    if not kept:
        return Layout(warnings=("no tiles found",))

    sub = detections[kept]
    sub_codes = sub.codes
    centres = sub.centers.astype(np.float64)
    boxes = sub.xyxy.astype(np.float64)
    frame = Frame(row_angle(centres, boxes))
    shape = tile_shapes(boxes, frame)
    run_lists = segments(centres, shape, frame)
    row_of = rows(centres, shape, frame, run_lists)
    along = centres @ frame.along
    order = sorted(range(len(run_lists)), key=lambda k: (row_of[k], along[run_lists[k][0]]))
    runs = [_split_run(run_lists[k], sub_codes, row_of[k]) for k in order]

    def orig(indices: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(kept[i] for i in indices)

    groups: list[TileGroup] = []
    hand: dict[str, list] = {"concealed": [], "melds": [], "bonus": []}
    reading = _choose(runs, sub_codes, _near_runs(runs, centres, shape.span))
    unused: list[int] = []
    if reading is not None:
        hidden = [i for i in reading.concealed + reading.stray if sub_codes[i] == BACK]
        concealed = tuple(i for i in reading.concealed + reading.stray if sub_codes[i] != BACK)
        unused.extend(hidden)
        if hidden:
            warnings.append(f"{len(hidden)} face-down tile(s) outside a kong: not counted")
        if reading.stray:
            stray_codes = " ".join(sub_codes[i] for i in reading.stray if sub_codes[i] != BACK)
            warnings.append(
                f"tiles away from the hand that form no meld ({stray_codes}): counted as concealed"
            )
        if concealed:
            groups.append(_group("concealed", orig(concealed), detections))
            hand["concealed"] = [sub_codes[i] for i in concealed]
        for indices, meld in reading.melds:
            groups.append(_group("meld", orig(indices), detections, meld))
            if meld.tiles is None:
                warnings.append("concealed kong with all four tiles face down: set its tile by hand")
                continue
            hand["melds"].append({"kind": meld.kind, "tiles": list(meld.tiles), "concealed": meld.concealed})
        if reading.ignored:
            unused.extend(reading.ignored)
            warnings.append(
                f"{len(reading.ignored)} tile(s) away from the hand and its melds: not counted"
            )
        if not reading.melds and len([r for r in runs if r.core]) == 1:
            warnings.append(
                "one run of tiles with no gaps: read as one concealed hand; mark exposed melds by hand"
            )
        size = len(concealed) + 3 * len(reading.melds)
        if size != HAND_SIZE:
            warnings.append(f"{size} hand tiles (a kong counts as three); a winning hand has {HAND_SIZE}")
    for run in runs:
        if run.bonus:
            groups.append(_group("bonus", orig(run.bonus), detections))
            hand["bonus"].extend(sub_codes[i] for i in run.bonus)
    if unused:
        groups.append(_group("unused", orig(tuple(unused)), detections))
    return Layout(hand=hand, groups=tuple(groups), warnings=tuple(warnings),
                  angle=float(-np.degrees(frame.angle)))
