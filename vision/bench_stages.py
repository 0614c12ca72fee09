"""Each model alone on a synthetic set (`vision.bench --stages`): the detector's boxes against the
true boxes without codes (where its extra boxes sit, which kinds of tile it misses), and the
classifier on crops cut around the true boxes (its worst classes, and what could still reach its
wrong reads at run time). It tells a missed tile from a misread one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.bench_match import iou_matrix, match_boxes
from vision.classes import BACK, CLASSES
from vision.detections import UNSURE_BELOW
from vision.imageio import read_image
from vision.pipeline import TileReader, enlarged


@dataclass(frozen=True)
class Misreads:
    """The classifier's wrong reads of true boxes, by what could still reach them at run time: an
    unsure read can be flagged or moved by the win check, a true face in second place can be moved to,
    and a twin (a tile of the same face in the same photo read right) could lend its reading. Wrong
    reads with none of these are the art's faces read as another face throughout: only training
    reaches them (stage 43)."""

    wrong: int = 0
    unsure: int = 0  # the likeliest face under UNSURE_BELOW, as a reading warns of it
    true_second: int = 0  # the true face the runner-up
    twin_read_right: int = 0  # another tile of the true face in the photo read right, not unsure

    def __add__(self, other: Misreads) -> Misreads:
        return Misreads(
            self.wrong + other.wrong,
            self.unsure + other.unsure,
            self.true_second + other.true_second,
            self.twin_read_right + other.twin_read_right,
        )


def misreads_in_photo(true_codes: Sequence[str], probabilities: np.ndarray, kept: np.ndarray) -> Misreads:
    """`Misreads` of one photo's true boxes: `probabilities` (N, 49) as read, `kept` (N,) those not
    left out as "no tile" (a tile left out is missed, not misread)."""
    if not len(true_codes):
        return Misreads()
    truth = np.array([CLASSES.index(code) for code in true_codes])
    read = probabilities.argmax(axis=1)
    top = probabilities.max(axis=1)
    right = kept & (read == truth)
    wrong = kept & (read != truth)
    order = np.argsort(-probabilities, axis=1)
    counts = Misreads()
    for i in np.flatnonzero(wrong):
        twins = right & (truth == truth[i]) & (top >= UNSURE_BELOW)
        counts += Misreads(1, int(top[i] < UNSURE_BELOW), int(order[i, 1] == truth[i]), int(twins.any()))
    return counts


@dataclass(frozen=True)
class StageResult:
    """Each model alone on a synthetic set: the detector class-blind, the classifier on true boxes."""

    photos: int
    detector_precision: float
    detector_recall: float
    classifier_accuracy: float  # read right and not left out as "no tile"
    tiles: int
    worst_classes: list[tuple[str, float, int]]  # (code, accuracy, tiles), the ten worst
    rejected_tiles: int = 0  # true tiles the classifier would leave out as "no tile"
    # the detector's extra boxes by where they sit: on a ghost tile, on a thing under the glass, on
    # clutter, on a prop, on part of a tile, elsewhere (a check set of glass tables tells what ghosts cost)
    extra_where: dict[str, int] = field(default_factory=dict)
    # the true tiles the detector found no box for, by kind of tile: kind -> (missed, tiles)
    missed_kinds: dict[str, tuple[int, int]] = field(default_factory=dict)
    misreads: Misreads = field(default_factory=Misreads)


# Kinds of tile the detector finds least often (stage 42): the short side under SMALL_KIND_PX, a
# tile under PARTLY_HIDDEN of it in view. A tile can be of several kinds, or of none.
SMALL_KIND_PX = 28
PARTLY_HIDDEN = 0.8


def tile_kinds(tile: dict[str, Any]) -> list[str]:
    """The kinds of a scene's true tile (meta `tiles` entry) that `missed_by_kind` counts."""
    x1, y1, x2, y2 = tile["xyxy"]
    kinds = []
    if tile["code"] == BACK:
        kinds.append("face down")
    if tile.get("standing", False):
        kinds.append("standing")
    if tile.get("visible", 1.0) < PARTLY_HIDDEN:
        kinds.append("partly hidden")
    if min(x2 - x1, y2 - y1) < SMALL_KIND_PX:
        kinds.append("small")
    return kinds


def missed_by_kind(boxes: np.ndarray, tiles: Sequence[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """(missed, tiles) per kind of tile (`tile_kinds`), a tile missed when no box overlaps it by
    IoU 0.5: tells whether the detector's misses gather in face-down, standing, hidden or small tiles."""
    true_xyxy = np.array([t["xyxy"] for t in tiles], np.float32).reshape(-1, 4)
    found = np.zeros(len(tiles), bool)
    if len(tiles) and len(boxes):
        found = iou_matrix(true_xyxy, np.asarray(boxes, np.float32).reshape(-1, 4)).max(axis=1) >= 0.5
    counts: dict[str, tuple[int, int]] = {}
    for tile, hit in zip(tiles, found, strict=True):
        for kind in tile_kinds(tile):
            missed, total = counts.get(kind, (0, 0))
            counts[kind] = (missed + int(not hit), total + 1)
    return counts


def _holds(xyxy: Sequence[float], x: float, y: float) -> bool:
    return xyxy[0] <= x <= xyxy[2] and xyxy[1] <= y <= xyxy[3]


def _prop_place(kind: str) -> str:
    """Where an extra box sits, named from the kind of scene prop under its centre."""
    if kind == "ghost":
        return "ghost"
    if kind.startswith("under:"):
        return "under glass"
    return "clutter" if kind.startswith("clutter:") else "prop"


def where_extra_boxes(
    boxes: np.ndarray, true_xyxy: np.ndarray, props: Sequence[dict[str, Any]]
) -> dict[str, int]:
    """Count the boxes that match no tile (IoU under 0.5) by what lies under their centre: the first
    scene prop (meta `props`) holding it ("ghost", "under glass", "clutter" or "prop"), else "part of a tile"
    (IoU 0.1 or more with one), else "elsewhere"."""
    overlap = np.zeros(len(boxes))
    if len(true_xyxy) and len(boxes):
        overlap = iou_matrix(boxes, true_xyxy).max(axis=1)
    counts: dict[str, int] = {}
    for box, best in zip(boxes, overlap, strict=True):
        if best >= 0.5:
            continue
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        holders = (p["kind"] for p in props if _holds(p["xyxy"], cx, cy))
        holder = next(holders, None)
        if holder is not None:
            where = _prop_place(holder)
        else:
            where = "part of a tile" if best >= 0.1 else "elsewhere"
        counts[where] = counts.get(where, 0) + 1
    return counts


def bench_stages(reader: TileReader, directory: Path, limit: int | None = None) -> StageResult:
    """Tell a detector miss from a misread: P/R of boxes alone, accuracy of reading the true boxes."""
    found = extra = missed = rejected = 0
    per_class: dict[str, list[int]] = {}
    extra_where: dict[str, int] = {}
    missed_kinds: dict[str, tuple[int, int]] = {}
    misreads = Misreads()
    metas = sorted((directory / "meta").glob("*.json"))[:limit]
    config = reader.classifier.config
    for meta_path in metas:
        meta = json.loads(meta_path.read_text())
        tiles = meta["tiles"]
        rgb = read_image(directory / meta["image"]).rgb
        true_xyxy = np.array([t["xyxy"] for t in tiles], np.float32).reshape(-1, 4)
        big, factor = enlarged(rgb, reader.enlarge_to)  # as `TileReader.see` reads a small photo
        boxes, score = reader.detector.detect(big, reader.grid)
        boxes = boxes / factor
        counts = match_boxes(boxes, ["tile"] * len(boxes), score, true_xyxy, ["tile"] * len(tiles))
        found, extra, missed = found + counts.right, extra + counts.extra, missed + counts.missed
        for where, n in where_extra_boxes(boxes, true_xyxy, meta.get("props", [])).items():
            extra_where[where] = extra_where.get(where, 0) + n
        for kind, (missed_here, total) in missed_by_kind(boxes, tiles).items():
            before = missed_kinds.get(kind, (0, 0))
            missed_kinds[kind] = (before[0] + missed_here, before[1] + total)
        if not tiles:
            continue
        probabilities, not_tile = reader.classifier.read_boxes(big, true_xyxy * factor)
        kept = not_tile <= config.reject_above
        rejected += int((~kept).sum())
        misreads += misreads_in_photo([t["code"] for t in tiles], probabilities, kept)
        for tile, class_id, keep in zip(tiles, probabilities.argmax(axis=1), kept, strict=True):
            right = keep and CLASSES[int(class_id)] == tile["code"]
            per_class.setdefault(tile["code"], []).append(int(right))
    hits = [h for outcomes in per_class.values() for h in outcomes]
    worst = sorted((sum(v) / len(v), code, len(v)) for code, v in per_class.items())[:10]
    return StageResult(
        photos=len(metas),
        detector_precision=found / (found + extra) if found + extra else 0.0,
        detector_recall=found / (found + missed) if found + missed else 0.0,
        classifier_accuracy=sum(hits) / len(hits) if hits else 0.0,
        tiles=len(hits),
        worst_classes=[(code, round(acc, 3), n) for acc, code, n in worst],
        rejected_tiles=rejected,
        extra_where=dict(sorted(extra_where.items(), key=lambda item: -item[1])),
        missed_kinds=missed_kinds,
        misreads=misreads,
    )


def format_stages(result: StageResult) -> str:
    worst = ", ".join(f"{code} {acc:.2f} ({n})" for code, acc, n in result.worst_classes)
    where = ", ".join(f"{place} {n}" for place, n in result.extra_where.items())
    kinds = ", ".join(f"{kind} {missed}/{total}" for kind, (missed, total) in result.missed_kinds.items())
    m = result.misreads
    return (
        f"stages on {result.photos} synthetic photos: "
        f"detector alone precision {result.detector_precision:.3f} "
        f"recall {result.detector_recall:.3f}; classifier on true boxes {result.classifier_accuracy:.3f} "
        f"of {result.tiles} tiles ({result.rejected_tiles} left out as no tile)\n"
        f"  worst classes (accuracy, tiles): {worst}\n"
        f"  the detector's extra boxes by where they sit: {where or 'none'}\n"
        f"  the tiles it missed by kind (missed / tiles): {kinds or 'none of those kinds'}\n"
        f"  the classifier's wrong reads: {m.wrong}, of them {m.unsure} unsure (under {UNSURE_BELOW}), "
        f"{m.true_second} with the true face second, {m.twin_read_right} with a twin in the photo "
        "read right and sure"
    )
