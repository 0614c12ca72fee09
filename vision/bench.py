"""Accuracy and latency of the vision pipeline.

    python -m vision.bench [--synthetic DIR] [--real DIR] [--models DIR] [--limit N] [--json OUT]

- `--synthetic DIR`: scenes from `datasets.synth` (DIR/meta/*.json with tile boxes and the
  hand). A detection is right when it overlaps a true tile with IoU >= 0.5 (one-to-one,
  most confident first) and has its code.
- `--real DIR`: photos with DIR/labels.json (codes per photo, no boxes; `rows` as they lie, in
  the image's order). Each labelled row of two or more tiles is compared place by place with
  the chain of read boxes that fits it best (`match_rows`); the rest (scattered tiles, rows no
  chain fits) as multisets of codes: right = common codes, extra = predicted and not labelled,
  missed = labelled and not predicted.

Per set: per-tile precision / recall / F1, photos read exactly (every tile right, nothing
extra), exact hands (synthetic: the layout's hand equals the scene's as far as the photo shows it,
a concealed kong lying all face down being a kong of unknown face on both sides; counted over the
scenes that show a whole hand: a hand cut off by the frame or hidden, or a scene of loose tiles with no
hand, has none to read exactly), the most common
confusions, the photos raising each of the reader's lines (by `Line.about`: a glare spot, a blur ...;
on generated scenes with none rendered in, false alarms), and end-to-end latency per photo (decode +
detect + classify + layout).
Real photos are for measuring only: never tune thresholds on them.
"""

from __future__ import annotations

import sys

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from scoring.console import run_main

    sys.exit(run_main("python -m vision.bench", "vision.bench"))

import argparse
import dataclasses
import hashlib
import json
import statistics
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.bench_match import (
    TileCounts,
    hand_read_exactly,
    match_boxes,
    match_rows,
    matched_truth,
    precision_recall_f1,
    shows_whole_hand,
)
from vision.bench_stages import bench_stages, format_stages
from vision.box_filters import long_short_sides
from vision.classes import ANIMALS, BACK, DRAGONS, FLOWERS, MALAYSIAN, SEASONS, SUITED, WINDS
from vision.cli import OneLineParser
from vision.detections import UNSURE_BELOW
from vision.imageio import ImageError, read_image
from vision.lines import PHOTO_FAULTS, TILE_ABOUTS, count_of
from vision.pipeline import Reading, TileReader
from vision.quarter import unturned_xyxy
from vision.seen_store import (
    load_seen,
    save_seen,
    saved_with,
    seen_path,
    write_saved_with,
)
from vision.set_memory import SetMemory, empty_memory, learned
from vision.sidecar import ModelError, check_classifier, check_detector
from vision.square import edge_colour
from vision.tile_set import rule_set_faces


@dataclass(frozen=True)
class PhotoResult:
    name: str
    counts: TileCounts
    # None when the photo shows no whole hand to read (real photos: not labelled; synthetic: a scene
    # of loose tiles, or a hand cut off by the frame or hidden)
    hand_exact: bool | None
    latency_ms: float
    error: str | None = None
    stages_ms: dict[str, float] = field(default_factory=dict)  # decode + the reading's timings
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    # what the reading's lines are about (`vision.lines.Line.about`), each once: its photo's faults
    # told, and the kinds of line on its tiles and layout
    abouts: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Summary:
    name: str
    photos: int
    precision: float
    recall: float
    f1: float
    exact_photos: int
    exact_hands: int | None
    hand_photos: int | None  # the photos whose hand is counted (those showing a whole hand)
    latency_median_ms: float
    latency_p90_ms: float
    confusions: list[tuple[str, str, int]]
    stages_median_ms: dict[str, float]
    errors: int
    # The unsure marks (tiles read under UNSURE_BELOW): (marked, misread boxes marked, misread boxes)
    # over the set, where its boxes are matched one to one (synthetic scenes)
    marks: tuple[int, int, int] | None = None
    # per kind of tile (`TILE_KINDS`) the set holds: (name, true tiles read right, true tiles)
    kinds: list[tuple[str, int, int]] = field(default_factory=list)
    # what the photos hold, as a digest of their truth (`scenes_digest`): two files of one set compare
    # only where it is the same (`vision.ship_rule`)
    scenes: str | None = None
    # how many photos raised each line (`line_tally`): every fault of a photo (`PHOTO_FAULTS`), then
    # every line on tiles or the layout that says what it is about (`TILE_ABOUTS`)
    lines_raised: dict[str, int] = field(default_factory=dict)


def line_tally(abouts: Iterable[Iterable[str]]) -> dict[str, int]:
    """How many photos (each one's `PhotoResult.abouts`) raised a line about each of `PHOTO_FAULTS`,
    then of `TILE_ABOUTS`, in that order, nought where none did: a set's false alarms (a generated
    scene with no glare told of a glare spot) are counted without a probe of its own."""
    raised = Counter(about for photo in abouts for about in set(photo))
    return {about: raised[about] for about in (*PHOTO_FAULTS, *TILE_ABOUTS)}


def reading_abouts(reading: Reading) -> frozenset[str]:
    """What the lines of `reading` are about (those that say so)."""
    return frozenset(line.about for line in reading.lines if line.about is not None)


def scenes_digest(kind: str, directory: Path, limit: int | None = None) -> str:
    """A digest of the truth a set's photos were measured against: each generated scene's file
    (DIR/meta/*.json: its tiles, boxes, hand and art style), or each real photo's labels, as many as
    were benched. Two renders of one set by other generators, or two sets of the same hands in other
    art (HELDOUT3 and HELDOUT_D), give other digests."""
    digest = hashlib.sha256()
    if kind == "synthetic":
        for path in sorted((directory / "meta").glob("*.json"))[:limit]:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    else:
        for entry in real_labels(directory)[:limit]:
            digest.update(json.dumps(entry, sort_keys=True).encode() + b"\0")
    return digest.hexdigest()[:16]


def _json_of(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not JSON ({error})") from None


def real_labels(directory: Path) -> list[dict[str, Any]]:
    """The labelled photos of `directory`/labels.json: a list of {"file", "tiles", "rows"?}; ValueError
    naming the file where it is not (an audit, stage 77: a label of another shape was a traceback)."""
    path = directory / "labels.json"
    entries = _json_of(path)
    if not isinstance(entries, list):
        raise ValueError(f"{path} must be a list of photos' labels")
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            raise ValueError(f'{path}: label {number} must be an object with a "file" name')
        if not _codes(entry.get("tiles")):
            raise ValueError(f'{path}: label {number} ({entry["file"]}) needs "tiles", a list of codes')
        rows = entry.get("rows")
        if rows is not None and not (isinstance(rows, list) and all(_codes(row) for row in rows)):
            raise ValueError(
                f'{path}: label {number} ({entry["file"]}) has "rows" that are no lists of codes'
            )
    return entries


def scene_meta(path: Path) -> dict[str, Any]:
    """A generated scene's meta/*.json: an object whose "tiles" each have a "code" and an "xyxy" box;
    ValueError naming the file where it is not."""
    meta = _json_of(path)
    tiles = meta.get("tiles") if isinstance(meta, dict) else None
    if not isinstance(tiles, list) or not all(
        isinstance(t, dict) and isinstance(t.get("code"), str) and _box(t.get("xyxy")) for t in tiles
    ):
        raise ValueError(
            f"{path} is no scene of python -m datasets.synth (tiles with a code and an xyxy box)"
        )
    return meta


def _codes(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(code, str) for code in value)


def _box(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 4
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


# The kinds of tile a set's errors are told by: each suit, the honours, the bonus tiles by kind
TILE_KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("characters", tuple(c for c in SUITED if c.endswith("m"))),
    ("dots", tuple(c for c in SUITED if c.endswith("p"))),
    ("bamboo", tuple(c for c in SUITED if c.endswith("s"))),
    ("winds and dragons", WINDS + DRAGONS),
    ("flowers and seasons", FLOWERS + SEASONS),
    ("animals", ANIMALS),
    ("face and fly", MALAYSIAN),
    ("face down", (BACK,)),
)


def by_kind(counts: Iterable[TileCounts]) -> list[tuple[str, int, int]]:
    """(kind, true tiles read right, true tiles) per `TILE_KINDS` kind the photos hold."""
    truth: Counter[str] = Counter()
    not_right: Counter[str] = Counter()
    for c in counts:
        truth.update(c.truth)
        not_right.update(c.not_right)
    kinds = []
    for kind, codes in TILE_KINDS:
        total = sum(truth[code] for code in codes)
        if total:
            kinds.append((kind, total - sum(not_right[code] for code in codes), total))
    return kinds


def summarise(name: str, results: Sequence[PhotoResult]) -> Summary:
    precision, recall, f1 = precision_recall_f1(r.counts for r in results)
    confusions: Counter[tuple[str, str]] = Counter()
    for r in results:
        confusions.update(r.counts.confusions)
    latencies = sorted(r.latency_ms for r in results if r.error is None)
    hands = [r.hand_exact for r in results if r.hand_exact is not None]
    counted = [r.counts for r in results if r.counts.marked is not None]
    marks = (
        (
            sum(c.marked or 0 for c in counted),
            sum(c.extra_marked or 0 for c in counted),
            sum(c.extra for c in counted),
        )
        if counted
        else None
    )
    return Summary(
        name=name,
        photos=len(results),
        precision=precision,
        recall=recall,
        f1=f1,
        exact_photos=sum(r.counts.exact and r.error is None for r in results),
        exact_hands=sum(hands) if hands else None,
        hand_photos=len(hands) if hands else None,
        latency_median_ms=statistics.median(latencies) if latencies else 0.0,
        latency_p90_ms=float(np.percentile(latencies, 90)) if latencies else 0.0,
        confusions=[(t, p, n) for (t, p), n in confusions.most_common(10)],
        errors=sum(r.error is not None for r in results),
        marks=marks,
        kinds=by_kind(r.counts for r in results),
        stages_median_ms={
            stage: round(statistics.median(r.stages_ms[stage] for r in results if stage in r.stages_ms), 1)
            for stage in dict.fromkeys(k for r in results for k in r.stages_ms)
        },
        lines_raised=line_tally(r.abouts for r in results),
    )


@dataclass(frozen=True)
class Options:
    limit: int | None = None
    long_side: int | None = None  # re-encode each photo at this long side (e.g. 4000 = 12 MP) first
    # read each tile as one of this rule set's tiles; "scene": a synthetic scene's own hand's rule set
    rules: str | None = None
    # turn each photo this many degrees clockwise first, as a phone that wrote no EXIF orientation
    # would save it (a real photo's rows are then compared in either direction)
    turn: int = 0
    # then slant it this many degrees clockwise about its centre, keeping its size (real photos: a
    # phone held at a slant; their tiles are then matched as multisets, rows no longer lying level)
    slant: float = 0.0
    # keep each photo's models' output here (`vision.seen_store`), or settle those kept here again
    # without running the models
    save_seen: Path | None = None
    from_seen: Path | None = None
    # then show it on a phone's screenshot of this screen colour ("black" or "white"; `on_screen`)
    screenshot: str | None = None
    # read each photo with a set memory taught the earlier photos' tiles (their truth), as a user
    # confirms hand after hand of one set (`vision.set_memory`)
    learn: bool = False
    # with `learn`: teach the memory on the first this many photos only (one evening's play, saved),
    # and read the rest with it as it then stood (the next evening's)
    learn_first: int | None = None
    # the figures count the photos from this one on (in reading order): those after the teaching
    measure_from: int = 0

    def __post_init__(self) -> None:
        if self.learn_first is not None and (not self.learn or self.learn_first < 1):
            raise ValueError("learn_first needs learn, and at least one photo to teach")
        if self.measure_from < 0:
            raise ValueError(f"measure_from counts photos from 0, got {self.measure_from}")
        if self.turn not in TURNS:
            raise ValueError(f"turn must be one of {', '.join(map(str, TURNS))} degrees, got {self.turn}")
        if not -MOST_SLANT <= self.slant <= MOST_SLANT:
            raise ValueError(f"slant must be within {MOST_SLANT:g} degrees either way, got {self.slant:g}")


TURNS = (0, 90, 180, 270)
MOST_SLANT = 45.0  # a larger slant is a quarter turn (--turn) and a smaller slant


def slanted(rgb: np.ndarray, degrees: float) -> np.ndarray:
    """`rgb` turned `degrees` clockwise about its centre on a canvas of its own size (what leaves the
    frame is cut off), the corners filled with the table's colour (`vision.square.edge_colour`)."""
    h, w = rgb.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), -degrees, 1.0)
    return cv2.warpAffine(
        rgb,
        matrix,
        (w, h),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=edge_colour(rgb),
    )


SCREENS = {"black": 0, "white": 255}  # a phone viewer's dark and light modes
SCREEN_HW = (2532, 1170)  # a phone's screen in portrait (an iPhone's, 19.5:9)


def on_screen(rgb: np.ndarray, colour: str) -> tuple[np.ndarray, tuple[int, int]]:
    """`rgb` as a phone's screenshot shows it: fitted across a portrait screen of `colour` (the screen
    sized to the photo's width, the photo at its own pixels), a status bar's time and battery at the
    top and the home bar at the foot; the screenshot and the photo's (x, y) offset in it."""
    height, width = rgb.shape[:2]
    screen_h = max(height, round(width * SCREEN_HW[0] / SCREEN_HW[1]))
    screen_w = width
    shot = np.full((screen_h, screen_w, 3), SCREENS[colour], np.uint8)
    top = (screen_h - height) // 2
    shot[top : top + height] = rgb
    ink, unit = 255 - SCREENS[colour], max(1, screen_w // 60)
    shot[unit : 2 * unit, 2 * unit : 7 * unit] = ink  # the time
    shot[unit : 2 * unit, screen_w - 6 * unit : screen_w - 2 * unit] = ink  # the battery
    shot[screen_h - unit : screen_h - unit // 2 - 0, screen_w // 3 : 2 * screen_w // 3] = ink  # the home bar
    return shot, (0, top)


def _photo_bytes(
    path: Path, long_side: int | None, turn: int = 0, slant: float = 0.0, screenshot: str | None = None
) -> tuple[bytes, float, tuple[int, int]]:
    """The file's bytes, or a JPEG re-encoded at `long_side`, turned `turn` degrees clockwise and
    slanted `slant` degrees clockwise (`slanted`), shown on a phone's `screenshot` (a PNG, `on_screen`)
    (untimed); the size factor and the photo's offset in what is read, in its pixels."""
    if long_side is None and turn == 0 and slant == 0.0 and screenshot is None:
        return path.read_bytes(), 1.0, (0, 0)
    rgb = np.rot90(read_image(path).rgb, k=-(turn // 90))
    if slant:
        rgb = slanted(np.ascontiguousarray(rgb), slant)
    factor = 1.0 if long_side is None else long_side / max(rgb.shape[:2])
    if screenshot is None:
        return resized_jpeg(np.ascontiguousarray(rgb), factor), factor, (0, 0)
    size = (max(1, round(rgb.shape[1] * factor)), max(1, round(rgb.shape[0] * factor)))
    resized = (
        cv2.resize(np.ascontiguousarray(rgb), size, interpolation=cv2.INTER_AREA) if factor != 1 else rgb
    )
    shot, offset = on_screen(np.ascontiguousarray(resized), screenshot)
    ok, data = cv2.imencode(".png", cv2.cvtColor(shot, cv2.COLOR_RGB2BGR))
    if not ok:
        raise ImageError("cannot encode the screenshot")
    return data.tobytes(), factor, offset


def resized_jpeg(rgb: np.ndarray, factor: float) -> bytes:
    """`rgb` resized by `factor` and encoded as a phone would save it (JPEG, quality 92)."""
    size = (max(1, round(rgb.shape[1] * factor)), max(1, round(rgb.shape[0] * factor)))
    interpolation = cv2.INTER_CUBIC if factor > 1 else cv2.INTER_AREA
    resized = cv2.cvtColor(cv2.resize(rgb, size, interpolation=interpolation), cv2.COLOR_RGB2BGR)
    ok, data = cv2.imencode(".jpg", resized, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise ImageError("cannot re-encode the photo")
    return data.tobytes()


def _file_looks(reader: TileReader, path: Path, xyxy: np.ndarray, factor: float) -> np.ndarray:
    """The looks (`TileClassifier.describe`) of a saved reading's boxes `xyxy`, in the pixels of the
    photo as it was read (`factor` times the file's: a photo read at --long-side, or shrunk on
    reading), cut from the file itself: its boxes mapped into the pixels it decodes to."""
    loaded = read_image(path)
    return reader.classifier.describe(loaded.rgb, np.asarray(xyxy, np.float32) * (loaded.scale / factor))


def _timed_read(
    reader: TileReader,
    path: Path,
    options: Options,
    rules: str | None = None,
    memory: SetMemory | None = None,
) -> tuple[Reading, dict[str, float], float, np.ndarray]:
    """Reading (each tile one of `rules`' set's tiles, when given; with `memory`'s help where given),
    stage times in ms (`decode`, the reading's stages, `end_to_end`), the factor from file pixels to
    reading pixels, and where the photo lies in the reading's pixels, as (x, y, x, y) (on a
    screenshot; else zeros)."""
    faces = None if rules is None else rule_set_faces(rules)
    if options.from_seen is not None:
        seen, factor = load_seen(seen_path(options.from_seen, path))
        if memory is not None and seen.descriptors is None:  # saved without its looks: described now
            seen = dataclasses.replace(seen, descriptors=_file_looks(reader, path, seen.xyxy, factor))
        start = time.perf_counter()
        reading = reader.settle(seen, faces, memory=memory)
        return (
            reading,
            {"end_to_end": (time.perf_counter() - start) * 1000.0},
            factor,
            np.zeros(4, np.float32),
        )
    data, factor, offset = _photo_bytes(
        path, options.long_side, options.turn, options.slant, options.screenshot
    )
    start = time.perf_counter()
    loaded = read_image(data)
    decoded = time.perf_counter()
    # a reading kept for settling again keeps its looks too (`--learn` on it needs no photo)
    reading = reader.read(loaded.rgb, faces=faces, memory=memory, describe=options.save_seen is not None)
    end = time.perf_counter()
    stages = {"decode": (decoded - start) * 1000.0, **reading.timings_ms}
    stages["end_to_end"] = (end - start) * 1000.0
    stages.pop("total", None)
    if options.save_seen is not None and reading.seen is not None:
        save_seen(seen_path(options.save_seen, path), reading.seen, factor * loaded.scale)
    return reading, stages, factor * loaded.scale, np.array(offset * 2, np.float32) * loaded.scale


def bench_synthetic(reader: TileReader, directory: Path, options: Options = Options()) -> list[PhotoResult]:
    if options.slant:
        raise ValueError("a slant is for real photos: the generator's scenes lie at every slant already")
    results = []
    memory = _first_memory(reader, options)
    for index, meta_path in enumerate(sorted((directory / "meta").glob("*.json"))[: options.limit]):
        meta = scene_meta(meta_path)
        tiles = meta["tiles"]
        true_xyxy = np.array([t["xyxy"] for t in tiles], np.float32).reshape(-1, 4)
        true_codes = [t["code"] for t in tiles]
        rules = meta.get("rules") if options.rules == "scene" else options.rules
        try:
            reading, stages, factor, offset = _timed_read(
                reader, directory / meta["image"], options, rules, memory
            )
        except ImageError as error:
            results.append(_failed(meta_path.stem, true_codes, str(error)))
            continue
        det = reading.detections
        xyxy = (det.xyxy - offset) / factor
        if options.turn:
            xyxy = unturned_xyxy(xyxy, options.turn, (int(meta["height"]), int(meta["width"])))
        counts = match_boxes(xyxy, det.codes, det.confidence, true_xyxy, true_codes)
        if memory is not None and still_taught(options, index):
            matched = matched_truth(xyxy, det.confidence, true_xyxy)
            memory = taught_truth(memory, reading, [true_codes[t] if t >= 0 else None for t in matched])
        hand_exact = hand_read_exactly(reading.layout, meta) if shows_whole_hand(meta) else None
        results.append(
            PhotoResult(
                meta_path.stem,
                counts,
                hand_exact,
                stages["end_to_end"],
                stages_ms=stages,
                abouts=reading_abouts(reading),
            )
        )
    return measured(results, options)


def still_taught(options: Options, index: int) -> bool:
    """Whether the photo at `index` (in reading order) teaches the memory once read."""
    return options.learn_first is None or index < options.learn_first


def measured(results: list[PhotoResult], options: Options) -> list[PhotoResult]:
    """The results the figures count: those from `options.measure_from` on."""
    return results[options.measure_from :]


LEARN_NEEDS = "--learn needs a classifier that gives its features (models.json 'features')"


def _first_memory(reader: TileReader, options: Options) -> SetMemory | None:
    """An empty set memory where `options.learn` asks for one (and the classifier describes tiles)."""
    if not options.learn:
        return None
    if not reader.classifier.describes:
        raise ValueError(LEARN_NEEDS)
    return empty_memory(reader.classifier.look_key)


def counted_tiles(reading: Reading) -> frozenset[int]:
    """The tiles the layout counts (the concealed hand, the melds, the bonus row): those the app teaches
    of a checked hand, where the tiles it set aside (away from the hand: a discard, the wall) stay
    untaught, as the user may not have checked them (`app_ui.set_lessons.lesson_of`)."""
    groups = getattr(reading.layout, "groups", ()) or ()
    return frozenset(
        int(i) for group in groups if group.kind in ("concealed", "meld", "bonus") for i in group.indices
    )


def taught_truth(memory: SetMemory, reading: Reading, truth: Sequence[str | None]) -> SetMemory:
    """`memory` taught one photo's counted tiles (`counted_tiles`) that stand for a labelled tile
    (`truth`: per detection, its face, None for none) as that face: as a user teaches the hand once
    checked, the misread ones mended."""
    if reading.descriptors is None:
        return memory
    counted = counted_tiles(reading)
    kept = [i for i, code in enumerate(truth) if code is not None and i in counted]
    return learned(memory, reading.descriptors[kept], [str(truth[i]) for i in kept])


def bench_real(reader: TileReader, directory: Path, options: Options = Options()) -> list[PhotoResult]:
    results = []
    memory = _first_memory(reader, options)
    for index, entry in enumerate(real_labels(directory)[: options.limit]):
        true_codes = list(entry["tiles"])
        try:
            rules = None if options.rules == "scene" else options.rules
            reading, stages, _, _ = _timed_read(reader, directory / entry["file"], options, rules, memory)
        except ImageError as error:
            results.append(_failed(entry["file"], true_codes, str(error)))
            continue
        pred_codes = reading.detections.codes
        rows = entry.get("rows") or [[code] for code in true_codes]
        if options.slant or sorted(code for row in rows for code in row) != sorted(true_codes):
            # rows that disagree with the tiles, or no longer lie level: codes only (one-tile rows)
            rows = [[code] for code in true_codes]
        matched = match_rows(reading.detections.xyxy, pred_codes, rows, either_way=options.turn != 0)
        if memory is not None and still_taught(options, index):
            memory = taught_truth(memory, reading, matched.truth)
        results.append(
            PhotoResult(
                entry["file"],
                matched.counts,
                None,
                stages["end_to_end"],
                stages_ms=stages,
                missing=matched.missing,
                extra=matched.extra,
                abouts=reading_abouts(reading),
            )
        )
    return measured(results, options)


@dataclass(frozen=True)
class SizeResult:
    """One typical tile width of the tile-size sweep: how well the photos shrunk to it read."""

    short_side_px: int  # the typical tile's short side (its width) the photos were shrunk to
    photos: int  # scenes whose tiles were at least this wide as rendered (the others are not grown)
    f1: float
    exact_photos: int
    missed_boxes: int  # true tiles no read box overlaps (IoU >= 0.5), whatever it was read as
    f1_as_rendered: float  # the same photos read at their own size, to compare against


def true_short_side(true_xyxy: np.ndarray) -> float | None:
    """The median short side of a scene's true tiles; None for a scene with no tile."""
    if not len(true_xyxy):
        return None
    return float(np.median(long_short_sides(true_xyxy)[:, 1]))


def bench_tile_sizes(
    reader: TileReader, directory: Path, short_sides: Sequence[int], options: Options = Options()
) -> list[SizeResult]:
    """Each synthetic scene shrunk until its typical tile is each of `short_sides` px wide, and read.

    This is where `vision.pipeline.SMALL_TILE_PX` comes from: the width under which photos stop
    reading as well as large ones. Scenes are only shrunk, never grown (growing adds no detail).
    """
    counts: dict[int, list[TileCounts]] = {side: [] for side in short_sides}
    as_rendered: dict[int, list[TileCounts]] = {side: [] for side in short_sides}
    missed_boxes = dict.fromkeys(short_sides, 0)
    for meta_path in sorted((directory / "meta").glob("*.json"))[: options.limit]:
        meta = scene_meta(meta_path)
        true_xyxy = np.array([t["xyxy"] for t in meta["tiles"]], np.float32).reshape(-1, 4)
        true_codes = [t["code"] for t in meta["tiles"]]
        native = true_short_side(true_xyxy)
        if native is None:
            continue
        rgb = read_image(directory / meta["image"]).rgb
        full = reader.read(rgb).detections
        full_counts = match_boxes(full.xyxy, full.codes, full.confidence, true_xyxy, true_codes)
        for side in short_sides:
            factor = side / native
            if factor > 1.0:
                continue
            try:
                small = read_image(resized_jpeg(rgb, factor)).rgb
            except ImageError:
                continue  # a close-up shrunk under the smallest photo read: no photo anyone takes
            det = reader.read(small).detections
            xyxy = det.xyxy / factor
            counts[side].append(match_boxes(xyxy, det.codes, det.confidence, true_xyxy, true_codes))
            as_rendered[side].append(full_counts)
            tiles = ["tile"] * len(true_codes)
            blind = match_boxes(xyxy, ["tile"] * len(xyxy), det.confidence, true_xyxy, tiles)
            missed_boxes[side] += blind.missed
    return [
        SizeResult(
            side,
            len(counts[side]),
            round(precision_recall_f1(counts[side])[2], 4),
            sum(c.exact for c in counts[side]),
            missed_boxes[side],
            round(precision_recall_f1(as_rendered[side])[2], 4),
        )
        for side in short_sides
    ]


def format_sizes(results: Sequence[SizeResult]) -> str:
    lines = [f"{'tile px':>7} {'photos':>6} {'F1':>6} {'exact':>7} {'boxes missed':>12} {'F1 full size':>12}"]
    for r in results:
        lines.append(
            f"{r.short_side_px:>7} {r.photos:>6} {r.f1:>6.3f} "
            f"{r.exact_photos:>3}/{r.photos:<3} {r.missed_boxes:>12} {r.f1_as_rendered:>12.3f}"
        )
    return "\n".join(lines)


@dataclass(frozen=True)
class ConcurrencyResult:
    workers: int
    reads: int
    p50_ms: float
    p95_ms: float
    errors: int
    mismatches: int  # concurrent readings that differ from the serial reading of the same photo


def _signature(reading: Reading) -> tuple[Any, ...]:
    det = reading.detections
    return (tuple(det.codes), det.xyxy.tobytes(), det.confidence.tobytes())


def concurrency(
    reader: TileReader, images: Sequence[np.ndarray], workers: int, rounds: int = 2
) -> ConcurrencyResult:
    """Read every image `rounds` times from `workers` threads sharing one reader; compare with serial."""
    serial = [_signature(reader.read(rgb)) for rgb in images]
    jobs = [i for _ in range(rounds) for i in range(len(images))]

    def one(index: int) -> tuple[int, float, tuple[Any, ...] | None]:
        start = time.perf_counter()
        try:
            signature = _signature(reader.read(images[index]))
        except Exception:  # counted, not raised: the point is to count failures under load
            signature = None
        return index, (time.perf_counter() - start) * 1000.0, signature

    with ThreadPoolExecutor(max_workers=workers) as pool:
        done = list(pool.map(one, jobs))
    latencies = [ms for _, ms, _ in done]
    return ConcurrencyResult(
        workers=workers,
        reads=len(done),
        p50_ms=float(np.percentile(latencies, 50)) if latencies else 0.0,
        p95_ms=float(np.percentile(latencies, 95)) if latencies else 0.0,
        errors=sum(sig is None for _, _, sig in done),
        mismatches=sum(sig is not None and sig != serial[i] for i, _, sig in done),
    )


def _failed(name: str, true_codes: Sequence[str], error: str) -> PhotoResult:
    truth = Counter(true_codes)
    counts = TileCounts(0, 0, len(true_codes), truth=truth, not_right=truth.copy())
    return PhotoResult(name, counts, None, 0.0, error=error)


def format_summary(summary: Summary) -> str:
    hands = "-" if summary.exact_hands is None else f"{summary.exact_hands}/{summary.hand_photos}"
    lines = [
        f"{'set':<10} {'photos':>6} {'prec':>6} {'recall':>6} {'F1':>6} {'exact':>7} {'hands':>7} "
        f"{'median ms':>9} {'p90 ms':>7}",
        f"{summary.name:<10} {summary.photos:>6} {summary.precision:>6.3f} {summary.recall:>6.3f} "
        f"{summary.f1:>6.3f} {summary.exact_photos:>3}/{summary.photos:<3} {hands:>7} "
        f"{summary.latency_median_ms:>9.0f} {summary.latency_p90_ms:>7.0f}",
    ]
    if summary.stages_median_ms:
        stages = ", ".join(f"{k} {v:.0f}" for k, v in summary.stages_median_ms.items())
        lines.append(f"  median ms per stage: {stages}")
    if summary.errors:
        lines.append(f"  {count_of(summary.errors, 'photo')} could not be read")
    if summary.confusions:
        pairs = ", ".join(f"{t}->{p} x{n}" for t, p, n in summary.confusions)
        lines.append(f"  confusions (true -> read): {pairs}")
    if summary.kinds:
        kinds = ", ".join(
            f"{kind} {right}/{total} ({right / total:.0%})" for kind, right, total in summary.kinds
        )
        lines.append(f"  read right by kind: {kinds}")
    if summary.marks is not None:
        marked, caught, misread = summary.marks
        per_photo = marked / max(summary.photos, 1)
        # where no box was misread there is nothing to catch: "on 0 of the 0 misread boxes (0%)" read
        # as a mark that failed (an audit)
        on = (
            f"on {caught} of the {misread} misread boxes ({caught / misread:.0%})"
            if misread
            else "no box misread"
        )
        lines.append(f"  unsure marks (confidence under {UNSURE_BELOW}): {per_photo:.1f} a photo, {on}")
    lines += format_tally(summary.lines_raised)
    return "\n".join(lines)


def format_tally(raised: dict[str, int]) -> list[str]:
    """The photos raising each line (`Summary.lines_raised`): the photo's faults, then the lines on
    tiles and the layout, as a summary's lines (none for a summary with no tally)."""
    out = []
    for title, abouts in (("photo lines", PHOTO_FAULTS), ("tile and layout lines", TILE_ABOUTS)):
        counted = [f"{about.replace('_', ' ')} {raised[about]}" for about in abouts if about in raised]
        if counted:
            out.append(f"  {title} (photos raising each): {', '.join(counted)}")
    return out


def format_photos(results: Sequence[PhotoResult]) -> str:
    lines = []
    for r in results:
        if r.error:
            lines.append(f"  {r.name}: ERROR {r.error}")
        elif not r.counts.exact:
            detail = (
                f"missed {' '.join(r.missing) or '-'}; extra {' '.join(r.extra) or '-'}"
                if (r.missing or r.extra)
                else f"{r.counts.missed} missed, {r.counts.extra} extra"
            )
            lines.append(f"  {r.name}: {r.counts.right} right, {detail}")
    return "\n".join(lines)


def _detector_overrides(args: argparse.Namespace) -> dict[str, Any]:
    overrides: dict[str, Any] = {}
    if args.contain is not None:
        overrides["contain"] = args.contain
    if args.straddle is not None:
        overrides["straddle"] = args.straddle
    if args.odd_size is not None:
        overrides["odd_size"] = args.odd_size or None
    if args.odd_size_below is not None:
        overrides["odd_size_below"] = args.odd_size_below
    if args.fine_below is not None:
        overrides["fine_below"] = args.fine_below or None
    if args.fine_grid is not None:
        overrides["fine_grid"] = args.fine_grid
    if args.second_chance is not None:
        overrides["second_chance"] = args.second_chance or None
    return overrides


def _classifier_overrides(args: argparse.Namespace) -> dict[str, Any]:
    overrides: dict[str, Any] = {}
    if args.rotations is not None:
        overrides["rotations"] = args.rotations
    if args.odd_shape is not None:
        overrides["odd_shape"] = args.odd_shape or None
    return overrides


def _pixel_list(text: str) -> list[int]:
    """ "12,16,24" -> [12, 16, 24]; argparse says the error as a usage error."""
    try:
        sides = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        sides = []
    if not sides or min(sides) < 1:
        raise argparse.ArgumentTypeError(
            f"expected whole pixel widths of 1 or more, e.g. 12,16,24, got {text!r}"
        )
    return sides


def _summary_json(summary: Summary) -> dict[str, Any]:
    """A set's summary for `--json`, the unsure marks named as the printed line names them."""
    out = dict(summary.__dict__)
    if summary.marks is not None:
        out["marks"] = dict(zip(("marked", "misread_marked", "misread"), summary.marks, strict=True))
    return out


def no_scenes_problem(folder: Path) -> str | None:
    """Why `folder` is no `python -m datasets.synth` set, or None (here and in bench/*.py: a folder
    mistyped measured nothing and said so with zeros, exit 0)."""
    if not any((folder / "meta").glob("*.json")):
        return f"no scenes in {folder} (a python -m datasets.synth folder holds meta/*.json)"
    return None


def _input_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the sets or files named, or None: a folder mistyped would otherwise bench
    no photo and print F1 0.000 with exit 0."""
    if args.limit is not None and args.limit < 1:
        return f"--limit must be at least 1, got {args.limit}"
    if args.concurrency is not None and args.concurrency < 0:
        # an audit: -2 threads had failed in a traceback after the whole bench
        return f"--concurrency must be 1 or more threads (0: not measured), got {args.concurrency}"
    if args.synthetic is not None and (problem := no_scenes_problem(args.synthetic)):
        return problem
    if args.real is not None and not args.real.is_dir():
        return f"no folder {args.real} (the labelled photos' folder, with its labels.json)"
    if args.real is not None and not (args.real / "labels.json").is_file():
        return f"no labels.json in {args.real}"
    if args.real is not None:
        try:
            real_labels(args.real)
        except (OSError, ValueError) as error:
            return str(error)
    if args.slant and args.synthetic is not None:
        return "--slant is for --real photos: the generator's scenes lie at every slant already"
    if not -MOST_SLANT <= args.slant <= MOST_SLANT:
        return f"--slant must be within {MOST_SLANT:g} degrees either way, got {args.slant:g}"
    if args.learn_first is not None and (not args.learn or args.learn_first < 1):
        return "--learn-first needs --learn and N of at least 1"
    if args.measure_from < 0:
        return "--measure-from needs N of 0 or more"
    if args.enlarge_to is not None and args.enlarge_to < 0:
        return f"--enlarge-to must be 0 (off) or more, got {args.enlarge_to}"
    if args.long_side is not None and args.long_side < 1:
        return f"--long-side must be a positive number of pixels, got {args.long_side}"
    if args.screenshot is not None and args.from_seen is not None:
        return "--screenshot shows each photo on a screen anew: not with --from-seen"
    if args.json is not None and not args.json.parent.is_dir():
        return f"cannot write {args.json}: no folder {args.json.parent}"
    if args.json is not None and args.json.is_dir():
        return f"cannot write {args.json}: it is a folder"
    return _seen_store_problem(args)


# what the models see by: fixed in readings saved with --save-seen, so not to be given with --from-seen
SEEING = (
    "models", "contain", "straddle", "odd_size", "odd_size_below", "odd_shape", "rotations", "grid",
    "fine_below", "fine_grid", "second_chance", "long_side", "enlarge_to", "turn", "slant", "no_square",
    "screenshot", "no_rows_across", "stages", "tile_sizes", "concurrency",
)  # fmt: skip


def _seen_store_problem(args: argparse.Namespace) -> str | None:
    if args.save_seen is None and args.from_seen is None:
        return None
    if args.save_seen is not None and args.from_seen is not None:
        return "give --save-seen or --from-seen, not both"
    if args.synthetic is not None and args.real is not None:
        return "--save-seen and --from-seen take one set at a time (a folder each)"
    if args.from_seen is not None:
        if not args.from_seen.is_dir():
            return f"no folder {args.from_seen} of saved readings"
        given = [name for name in SEEING if getattr(args, name) not in (None, False, 0)]
        if given:
            flag = "--" + given[0].replace("_", "-")
            return (
                f"{flag} was fixed when the readings were saved ({saved_with(args.from_seen)}): leave it out"
            )
    elif not args.save_seen.parent.is_dir():
        return f"cannot write {args.save_seen}: no folder {args.save_seen.parent}"
    elif args.save_seen.exists() and not args.save_seen.is_dir():
        return f"cannot keep the readings in {args.save_seen}: it is a file, not a folder"
    elif args.turn or args.slant:
        # the boxes of a turned or slanted photo are matched after turning them back, which a
        # settling of the saved readings does not know of
        return "--save-seen keeps photos read as stored: leave out --turn and --slant"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    p = OneLineParser(prog="python -m vision.bench", description=__doc__.splitlines()[0])
    p.add_argument("--synthetic", type=Path, metavar="DIR", help="datasets.synth output folder")
    p.add_argument("--real", type=Path, metavar="DIR", help="folder with photos and labels.json")
    p.add_argument("--models", type=Path, metavar="DIR", help="models folder (default: models/)")
    p.add_argument("--limit", type=int, help="at most this many photos per set")
    p.add_argument(
        "--concurrency",
        type=int,
        metavar="N",
        help="also read the photos from N threads sharing one reader (p50/p95, errors)",
    )
    p.add_argument(
        "--contain",
        type=float,
        metavar="F",
        help="override the detector's containment suppression (see docs/vision.md)",
    )
    p.add_argument(
        "--straddle",
        type=float,
        metavar="F",
        help="override the detector's straddling-box suppression (see docs/vision.md)",
    )
    p.add_argument(
        "--odd-size",
        type=float,
        metavar="R",
        help="override the odd-size check: ratio to the typical tile (0 = off; see docs/vision.md)",
    )
    p.add_argument(
        "--odd-size-below",
        type=float,
        metavar="S",
        help="override the detector score under which odd-sized boxes are dropped",
    )
    p.add_argument(
        "--odd-shape",
        type=float,
        metavar="R",
        help="override the odd-and-unsure check: ratio of a side to the typical tile's (0 = off; "
        "see docs/vision.md)",
    )
    p.add_argument(
        "--rotations",
        type=int,
        choices=(1, 2, 4),
        help="override how many turned views of each crop the classifier averages (1, 2 or 4)",
    )
    p.add_argument("--grid", type=int, help="detector windows per side (default: the sidecar's grid)")
    p.add_argument(
        "--fine-below",
        type=float,
        metavar="F",
        help="override the share of the photo's long side under which a typical tile has the "
        "detector look again with finer windows (0 = off; see docs/vision.md)",
    )
    p.add_argument("--fine-grid", type=int, metavar="G", help="override the finer windows per side")
    p.add_argument(
        "--second-chance",
        type=float,
        metavar="F",
        help="override the score from which boxes under the detector's conf are read by the classifier "
        "and kept where it is sure of them (0 = off; see docs/vision.md)",
    )
    p.add_argument(
        "--long-side",
        type=int,
        metavar="PX",
        help="re-encode each photo as a JPEG with this long side first (4000 = 12 MP)",
    )
    p.add_argument(
        "--screenshot",
        choices=tuple(SCREENS),
        help="show each photo on a phone's screenshot of this screen colour first (a photo fitted to a "
        "portrait screen, a status bar above it), as a photo sent on as a screenshot is",
    )
    p.add_argument(
        "--enlarge-to",
        type=int,
        metavar="PX",
        help="override the long side to which a smaller photo is enlarged before it is read (0 = off; "
        "see docs/vision.md, Webcam frames)",
    )
    p.add_argument(
        "--turn",
        type=int,
        choices=TURNS,
        default=0,
        metavar="DEG",
        help="turn each photo this many degrees clockwise first (90, 180, 270), as a phone that wrote "
        "no EXIF orientation saves it: is the reading as good at any quarter turn?",
    )
    p.add_argument(
        "--slant",
        type=float,
        default=0.0,
        metavar="DEG",
        help="real photos: then turn each photo this many degrees clockwise about its centre (-45 to 45), "
        "keeping its size, as a phone held at a slant takes it; tiles matched as multisets",
    )
    p.add_argument(
        "--free-reading",
        action="store_true",
        help="read each tile as its first choice, even more copies of a face than a set holds",
    )
    p.add_argument(
        "--no-win-check",
        action="store_true",
        help="keep the tiles as read even when one or two runner-ups would make a winning hand",
    )
    p.add_argument(
        "--no-square",
        action="store_true",
        help="read a slanted hand as it lies, not again turned square (vision.square)",
    )
    p.add_argument(
        "--no-rows-across",
        action="store_true",
        help="read a hand whose rows run up and down the photo as it lies, not turned a quarter "
        "(vision.quarter)",
    )
    p.add_argument(
        "--rules",
        choices=("scene", "singapore", "malaysian"),
        help="read each tile as one of this rule set's tiles (as the app does); scene: each synthetic "
        "scene's own hand's rule set (a scene with no hand, and real photos: any tile); the main figures "
        "only, not --stages or --tile-sizes",
    )
    p.add_argument(
        "--tile-sizes",
        type=_pixel_list,
        metavar="PX,PX,...",
        help="synthetic set: also shrink each scene until its typical tile is each of these widths "
        "(px) and read it (where small tiles stop reading well)",
    )
    p.add_argument("--json", type=Path, metavar="OUT", help="also write the summaries as JSON")
    p.add_argument(
        "--save-seen",
        type=Path,
        metavar="DIR",
        help="keep each photo's models' output in DIR (one set), to settle it again with --from-seen",
    )
    p.add_argument(
        "--from-seen",
        type=Path,
        metavar="DIR",
        help="settle the readings kept in DIR by --save-seen again, without the models: the one-set "
        "reading, the win check and the layout as the code has them now (seconds for a set)",
    )
    p.add_argument(
        "--learn",
        action="store_true",
        help="read each photo with a set memory taught the earlier photos' tiles (their labels), as a "
        "user confirms hand after hand of one set (vision.set_memory); photos in name order (real "
        "photos: as labels.json lists them)",
    )
    p.add_argument(
        "--learn-first",
        type=int,
        metavar="N",
        help="with --learn: teach the memory on the first N photos only, then read the others with it as "
        "it stood (a set's lessons saved one evening, loaded the next); --measure-from N measures those",
    )
    p.add_argument(
        "--measure-from",
        type=int,
        default=0,
        metavar="N",
        help="count the figures over the photos after the first N (those read after --learn-first N's "
        "teaching; untaught or taught as they go, the same photos to compare)",
    )
    p.add_argument(
        "--stages",
        action="store_true",
        help="synthetic set: also measure the detector alone and the classifier on the true boxes",
    )
    args = p.parse_args(argv)
    if args.synthetic is None and args.real is None:
        p.error("give --synthetic DIR and/or --real DIR")
    problem = _input_problem(args)
    if problem is not None:  # said before the models load and the sets are read, not after
        print(f"python -m vision.bench: {problem}", file=sys.stderr)
        return 2
    try:
        reader = TileReader.load(args.models, grid=args.grid)
        reader = dataclasses.replace(
            reader,
            within_set=not args.free_reading,
            complete_wins=not args.no_win_check,
            square=not args.no_square,
            rows_across=not args.no_rows_across,
        )
        if args.enlarge_to is not None:
            reader = dataclasses.replace(reader, enlarge_to=args.enlarge_to)
        overrides, cls_overrides = _detector_overrides(args), _classifier_overrides(args)
        # the flags' values are checked as a sidecar's are (an audit: --grid -1, --straddle 5 and
        # --odd-size -1 ran the whole bench, the last with numpy's warnings)
        grid_given = {"grid": args.grid} if args.grid is not None else {}
        check_detector(
            dataclasses.replace(reader.detector.config, **overrides, **grid_given), "the flags given"
        )
        check_classifier(dataclasses.replace(reader.classifier.config, **cls_overrides), "the flags given")
        if overrides:
            config = dataclasses.replace(reader.detector.config, **overrides)
            reader = dataclasses.replace(reader, detector=dataclasses.replace(reader.detector, config=config))
        if cls_overrides:
            cls_config = dataclasses.replace(reader.classifier.config, **cls_overrides)
            classifier = dataclasses.replace(reader.classifier, config=cls_config)
            reader = dataclasses.replace(reader, classifier=classifier)
    except ModelError as error:
        print(f"python -m vision.bench: {error}", file=sys.stderr)
        return 2
    if args.learn and not reader.classifier.describes:
        print(f"python -m vision.bench: {LEARN_NEEDS}", file=sys.stderr)
        return 2
    grid = reader.grid or reader.detector.config.grid
    size = f"photos re-encoded at long side {args.long_side}" if args.long_side else "photos as stored"
    if args.turn:
        size += f", turned {args.turn} degrees clockwise"
    if args.slant:
        size += f", slanted {args.slant:g} degrees clockwise (tiles matched as multisets)"
    if args.screenshot:
        size += f", shown on a {args.screenshot} phone screenshot"
    hw = reader.detector.input_hw
    det = reader.detector.config
    odd = f"x{det.odd_size} under {det.odd_size_below}" if det.odd_size else "off"
    fine = f"grid {det.fine_grid} under {det.fine_below}" if det.fine_below else "off"
    second = f"from {det.second_chance} where read {det.second_chance_sure}+" if det.second_chance else "off"
    cls_config = reader.classifier.config
    rotations = cls_config.rotations
    odd_shape = (
        f"odd shape x{cls_config.odd_shape} under {cls_config.odd_shape_below} and "
        f"{cls_config.odd_shape_unsure}"
        if cls_config.odd_shape
        else "odd shape off"
    )
    reading = "within one set" if reader.within_set else "first choices"
    reading += ", win check" if reader.complete_wins else ", no win check"
    reading += ", slants squared" if reader.square else ", slants as they lie"
    reading += ", rows turned across" if reader.rows_across else ", rows as they lie"
    reading += {None: ", any face", "scene": ", each scene's rule set's faces"}.get(
        args.rules, f", {args.rules} faces"
    )
    if args.learn_first is not None:
        reading += (
            f", a set memory taught the first {args.learn_first} photos' tiles (photo by photo), the others"
            " read with it as it then stood"
        )
    elif args.learn:
        reading += ", each photo with a set memory taught the earlier photos' tiles"
    if args.measure_from:
        reading += f"; figures over the photos after the first {args.measure_from}"
    if args.from_seen is not None:
        print(
            f"{reading}; settled again from the readings in {args.from_seen} ({saved_with(args.from_seen)})"
        )
    else:
        print(
            f"detector {hw[0]}x{hw[1]}, grid {grid}, fine {fine}, contain {det.contain}, "
            f"straddle {det.straddle}, odd size {odd}, second chance {second}; "
            f"classifier views {rotations}, {odd_shape}; {reading}; {size}"
            + (f"; smaller photos enlarged to {reader.enlarge_to} px" if reader.enlarge_to else "")
        )
    if args.save_seen is not None:
        args.save_seen.mkdir(exist_ok=True)
        write_saved_with(
            args.save_seen, ["python -m vision.bench", *(sys.argv[1:] if argv is None else argv)]
        )
    if args.from_seen is None:  # settling saved readings runs no model to warm up
        # One untimed read so the first photo's latency does not include onnxruntime's warm-up.
        reader.read(np.full((480, 640, 3), 128, np.uint8))
    summaries = []
    sets = (("synthetic", args.synthetic, bench_synthetic), ("real", args.real, bench_real))
    for name, directory, run in sets:
        if directory is None:
            continue
        try:
            options = Options(
                args.limit,
                args.long_side,
                args.rules,
                args.turn,
                args.slant,
                args.save_seen,
                args.from_seen,
                args.screenshot,
                args.learn,
                args.learn_first,
                args.measure_from,
            )
            results = run(reader, directory, options)
        except (OSError, ValueError, KeyError) as error:
            said = f"no field {error}" if isinstance(error, KeyError) else str(error)
            message = f"cannot read the {name} set in {directory}: {said}"
            print(f"python -m vision.bench: {message}", file=sys.stderr)
            return 2
        scenes = scenes_digest(name, directory, args.limit)
        summary = dataclasses.replace(summarise(name, results), scenes=scenes)
        summaries.append(summary)
        print(format_summary(summary))
        detail = format_photos(results)
        if detail:
            print(detail)
    report: list[dict[str, Any]] = [_summary_json(s) for s in summaries]
    if args.stages and args.synthetic is not None:
        stages = bench_stages(reader, args.synthetic, args.limit)
        print(format_stages(stages))
        report.append({"name": "stages", **asdict(stages)})
    if args.tile_sizes and args.synthetic is not None:
        sizes = bench_tile_sizes(reader, args.synthetic, args.tile_sizes, Options(args.limit))
        print("tile-size sweep (each scene shrunk until its typical tile is this wide):")
        print(format_sizes(sizes))
        report.append({"name": "tile_sizes", "sizes": [r.__dict__ for r in sizes]})
    if args.concurrency:
        folder = args.real or args.synthetic
        paths = sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
        images = [read_image(p).rgb for p in paths[: args.limit or 8]]
        result = concurrency(reader, images, args.concurrency)
        print(
            f"concurrency: {result.workers} threads, {result.reads} reads of {len(images)} photos: "
            f"p50 {result.p50_ms:.0f} ms, p95 {result.p95_ms:.0f} ms, "
            f"{result.errors} errors, {result.mismatches} differing from serial"
        )
        report.append({"name": "concurrency", **result.__dict__})
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0
