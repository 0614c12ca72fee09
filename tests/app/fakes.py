"""Test doubles for the app: a photo, and a tile reader that returns a known reading for it.

The fake reader stands in for `vision.pipeline.TileReader` (installed as a fake `vision.pipeline`
module), so app tests run without a trained model and know exactly which tiles the photo holds.
The layout is the real `vision.layout.layout_hand`, so the app is tested on real groups.
"""

from __future__ import annotations

import io
import threading
import time
import types
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from vision.classes import CLASSES
from vision.detections import Detections
from vision.layout import Layout, layout_hand
from vision.lines import Line
from vision.set_memory import SetMemory, recalled

TILE_W, TILE_H, GAP = 40, 55, 2
# A valid Singapore hand: 123m 456p 789s 22m concealed, a red-dragon pong, plum flower (seat 1 = East).
CONCEALED = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "2m"]
MELD = ["C", "C", "C"]
BONUS = ["F1"]


def photo_bytes(width: int = 640, height: int = 400, shade: int = 90, fmt: str = "JPEG") -> bytes:
    """A plain photo; the fake reader decides what tiles it 'holds'. `shade` (its red) makes photos
    distinct; its green and blue keep it lit, so that none is shown brightened as a dark photo."""
    image = Image.new("RGB", (width, height), (shade, 200, 160))
    out = io.BytesIO()
    image.save(out, format=fmt)
    return out.getvalue()


def scene(
    concealed: Sequence[str] = CONCEALED,
    meld: Sequence[str] = MELD,
    bonus: Sequence[str] = BONUS,
    low: Sequence[int] = (),
) -> Detections:
    """Detections laid out like a photo of a hand: concealed row on top, meld and bonus below."""
    codes: list[str] = []
    boxes: list[list[float]] = []
    for i, code in enumerate(concealed):
        codes.append(code)
        boxes.append([20 + i * (TILE_W + GAP), 100, 20 + i * (TILE_W + GAP) + TILE_W, 100 + TILE_H])
    for i, code in enumerate(meld):
        codes.append(code)
        boxes.append([20 + i * (TILE_W + GAP), 165, 20 + i * (TILE_W + GAP) + TILE_W, 165 + TILE_H])
    for i, code in enumerate(bonus):
        codes.append(code)
        boxes.append([200 + i * (TILE_W + GAP), 165, 200 + i * (TILE_W + GAP) + TILE_W, 165 + TILE_H])
    confidence = [0.3 if i in low else 0.95 for i in range(len(codes))]
    return Detections.from_codes(codes, boxes, confidence)


@dataclass(frozen=True)
class SeenWithOdds(Detections):
    """What the models saw, with the classifier's probabilities (N, len(CLASSES)) as
    `vision.pipeline.Seen` holds them."""

    probabilities: np.ndarray | None = None
    rejected_xyxy: np.ndarray | None = None  # boxes judged to hold no tile


@dataclass(frozen=True)
class FakeReading:
    detections: Detections
    layout: Layout | None
    warnings: tuple[str, ...]
    timings_ms: dict[str, float] = field(default_factory=dict)
    win_options: tuple[tuple[tuple[int, int], ...], ...] = ()
    seen: Detections | None = None
    probabilities: np.ndarray | None = None  # the classifier's, as `vision.pipeline.Reading` holds them
    # the warnings as facts, as `vision.pipeline.Reading.lines` holds them: here the layout's own
    lines: tuple[Line, ...] = ()
    # the tiles read otherwise than the models read them, by a set's lessons (`Reading.recalled`)
    recalled: tuple[int, ...] = ()


class FakeReader:
    """Returns the scene registered for the photo's mean colour (so each test photo has its own tiles)."""

    def __init__(
        self,
        scenes: dict[int, Detections] | None = None,
        delay_s: float = 0.0,
        ways: tuple[tuple[tuple[int, int], ...], ...] = (),
        outside: dict[str, str] | None = None,
        probabilities: np.ndarray | None = None,
        left_out: np.ndarray | None = None,
    ) -> None:
        self.scenes = scenes or {}
        # the classifier's probabilities of every scene's tiles, in detection order, where a test wants them
        self.probabilities = probabilities
        self.left_out = left_out  # the boxes every reading left out as holding no tile (K, 4)
        # read as a set without the face: the face it is read as instead (as the runner-up would be)
        self.outside = outside or {}
        self.faces_asked: list[frozenset[str] | None] = []
        self.ways = ways  # the ways to a win every reading offers: (detection index, class index) pairs
        self.delay_s = delay_s
        self.calls = 0
        self._lock = threading.Lock()

    def read(
        self, rgb: np.ndarray, source_scale: float = 1.0, faces: Collection[str] | None = None
    ) -> FakeReading:
        with self._lock:
            self.calls += 1
            self.faces_asked.append(None if faces is None else frozenset(faces))
        if self.delay_s:
            time.sleep(self.delay_s)
        # JPEG shifts the red channel a little: take the registered shade nearest to the photo's.
        shade = float(rgb[..., 0].mean())
        near = [k for k in self.scenes if abs(k - shade) <= 10]
        detections = self.scenes[min(near, key=lambda k: abs(k - shade))] if near else scene()
        return self.settle(detections, faces)

    def settle(self, seen: Detections, faces: Collection[str] | None = None) -> FakeReading:
        """The scene's tiles, each outside `faces` read as its `outside` stand-in."""
        codes = [c if faces is None or c in faces else self.outside.get(c, c) for c in seen.codes]
        detections = Detections.from_codes(codes, seen.xyxy.tolist(), seen.confidence.tolist())
        layout = layout_hand(detections)
        if self.probabilities is not None or self.left_out is not None:
            seen = SeenWithOdds(
                seen.xyxy, seen.confidence, seen.class_id, seen.angle, self.probabilities, self.left_out
            )
        odds = (
            self.probabilities
            if self.probabilities is not None and len(self.probabilities) == len(codes)
            else None
        )
        return FakeReading(
            detections, layout, tuple(layout.warnings), {"total": 1.0}, self.ways, seen, odds, layout.lines
        )


class FakeModelError(RuntimeError):
    pass


def pipeline_module(reader: FakeReader | None) -> types.ModuleType:
    """A stand-in `vision.pipeline`: `TileReader.load()` gives `reader`, or raises ModelError if None."""
    module = types.ModuleType("vision.pipeline")

    class TileReader:
        @classmethod
        def load(cls, models_dir: object = None) -> FakeReader:
            if reader is None:
                raise FakeModelError("models/detector.onnx not found")
            return reader

    module.TileReader = TileReader  # type: ignore[attr-defined]
    module.ModelError = FakeModelError  # type: ignore[attr-defined]
    return module


@dataclass(frozen=True)
class SeenWithLooks(Detections):
    """What the models saw, with each tile's look (N, D), as `vision.pipeline.Seen.descriptors` holds it."""

    descriptors: np.ndarray | None = None


class LearningReader(FakeReader):
    """A fake reader that gives each tile's look and reads with what it was taught
    (`vision.set_memory`), as `vision.pipeline.TileReader` does: each scene's tiles are read as their
    codes, but look like their face in `looks` (by the photo's shade: the face each tile truly is), so a
    set the models misread can be taught and read right. Each reading's memory is kept in `memories`."""

    def __init__(self, scenes: dict[int, Detections], looks: dict[int, list[str]], **kwargs: Any) -> None:
        super().__init__(scenes, **kwargs)
        self.looks = looks
        self.classifier = types.SimpleNamespace(describes=True, look_key="fake-looks")
        self.memories: list[SetMemory | None] = []

    def read(
        self,
        rgb: np.ndarray,
        source_scale: float = 1.0,
        faces: Collection[str] | None = None,
        memory: SetMemory | None = None,
        describe: bool = False,
    ) -> FakeReading:
        shade = float(rgb[..., 0].mean())
        near = min(self.scenes, key=lambda k: abs(k - shade))
        with self._lock:
            self.calls += 1
            self.memories.append(memory)
        detections = self.scenes[near]
        faces_seen = self.looks.get(near, list(detections.codes))
        looks = np.eye(len(CLASSES), dtype=np.float32)[[CLASSES.index(code) for code in faces_seen]]
        seen = SeenWithLooks(
            detections.xyxy, detections.confidence, detections.class_id, detections.angle, looks
        )
        return self.settle(seen, faces, memory)

    def settle(
        self, seen: Detections, faces: Collection[str] | None = None, memory: SetMemory | None = None
    ) -> FakeReading:
        probabilities = np.full((len(seen.codes), len(CLASSES)), 0.1 / (len(CLASSES) - 1), np.float32)
        probabilities[np.arange(len(seen.codes)), seen.class_id] = 0.9
        looks = getattr(seen, "descriptors", None)
        codes, lines = list(seen.codes), []
        moved_by: tuple[int, ...] = ()
        if memory is not None and looks is not None:
            recall = recalled(memory, probabilities, looks)
            moved = recall.probabilities.argmax(axis=1) != probabilities.argmax(axis=1)
            moved_by = tuple(int(k) for k in np.flatnonzero(moved))
            for i in (int(k) for k in np.flatnonzero(moved)):
                codes[i] = CLASSES[int(recall.probabilities[i].argmax())]
                why = f"it looks like the {codes[i]} tiles taught from earlier photos of this set"
                lines.append(
                    Line(
                        f"tile at (1, 2) read as {codes[i]}, not {seen.codes[i]}: {why}",
                        tiles=(i,),
                        by_number=f"tile {{tiles}} read as {codes[i]}, not {seen.codes[i]}: {why}",
                        about="recalled",
                    )
                )
        detections = Detections.from_codes(codes, seen.xyxy.tolist(), seen.confidence.tolist())
        layout = layout_hand(detections)
        all_lines = (*lines, *layout.lines)
        return FakeReading(
            detections,
            layout,
            tuple(line.text for line in all_lines),
            {"total": 1.0},
            (),
            seen,
            None,
            all_lines,
            moved_by,
        )
