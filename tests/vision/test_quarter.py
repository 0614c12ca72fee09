"""A hand whose rows run up and down the photo is read turned a quarter (vision.quarter, docs/vision.md)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.scenes import detector_rows, scene, shaded_tiles
from tests.vision.tinymodels import write_models
from vision.classes import CLASS_INDEX, CLASSES
from vision.onnx_models import TileDetector
from vision.pipeline import Detected, TileReader
from vision.quarter import quarter_back, rows_direction, rows_up_and_down, turned_quarter, unturned_xyxy

FACES = ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m")
LONG, SHORT = 80, 60  # a tile's sides in the photos below


def _row_boxes(n: int, across: bool, start: tuple[float, float] = (100.0, 100.0)) -> np.ndarray:
    """`n` touching tile boxes in a row across the photo (each SHORT wide, LONG tall) or up and down it
    (each LONG wide, SHORT tall)."""
    x, y = start
    if across:
        return np.array([[x + k * SHORT, y, x + (k + 1) * SHORT, y + LONG] for k in range(n)], np.float32)
    return np.array([[x, y + k * SHORT, x + LONG, y + (k + 1) * SHORT] for k in range(n)], np.float32)


def _photo(boxes: np.ndarray, hw: tuple[int, int] = (700, 500)) -> np.ndarray:
    """A table with each box a tile of its own shade (the face it stands for) and a dark outline."""
    rgb = np.full((*hw, 3), 90, np.uint8)
    for k, (x1, y1, x2, y2) in enumerate(np.round(boxes).astype(int)):
        shade = 120 + 14 * k
        cv2.rectangle(rgb, (x1, y1), (x2 - 1, y2 - 1), (shade, 255 - shade, 200), -1)
        cv2.rectangle(rgb, (x1, y1), (x2 - 1, y2 - 1), (20, 20, 20), 2)
    return rgb


@pytest.fixture
def reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TileReader:
    """A reader whose detector finds the tiles drawn by `_photo` and whose classifier reads a tile
    right only standing in its box as in a row across the photo (taller than wide): models that
    have seen rows across far more than rows up and down. `TileReader.calls` records each read:
    the photo's shape and whether the detector's output came with it."""
    loaded = TileReader.load(write_models(tmp_path, detector_rows(scene(300, 400), (384, 640))))
    calls: list[tuple[tuple[int, ...], bool]] = []

    def detect(self: TileDetector, rgb: np.ndarray, grid: int | None = None) -> Detected:
        boxes = shaded_tiles(rgb)[0]
        none = np.zeros((0, 4), np.float32)
        return boxes, np.full(len(boxes), 0.9, np.float32), none, np.zeros(0, np.float32)

    def read_tiles(
        self: TileReader, rgb: np.ndarray, lap: object = None, detected: Detected | None = None
    ) -> tuple[np.ndarray, ...]:
        calls.append((rgb.shape, detected is not None))
        boxes, faces, _ = shaded_tiles(rgb)
        probabilities = np.full((len(boxes), len(CLASSES)), 1.0, np.float32)
        for row, box, face in zip(probabilities, boxes, faces, strict=True):
            upright = box[3] - box[1] > box[2] - box[0]
            row[CLASS_INDEX[FACES[face]] if upright else CLASS_INDEX["9p"]] = 1000.0 if upright else 2.0
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        return boxes, np.full(len(boxes), 0.9, np.float32), probabilities, np.zeros((0, 4), np.float32)

    monkeypatch.setattr(TileDetector, "detect_with_candidates", detect)
    monkeypatch.setattr(TileReader, "read_tiles", read_tiles)
    monkeypatch.setattr(TileReader, "calls", calls, raising=False)
    return loaded


def test_a_hand_in_rows_up_and_down_is_read_turned_its_boxes_in_the_photos_pixels(reader: TileReader) -> None:
    truth = _row_boxes(9, across=False)
    rgb = _photo(truth)
    reading = reader.read(rgb)
    calls = TileReader.calls  # type: ignore[attr-defined]
    assert calls == [((500, 700, 3), False)]  # read once, turned a quarter, detected again there
    order = np.argsort(reading.detections.xyxy[:, 1])
    assert [reading.detections.codes[i] for i in order] == list(FACES)
    np.testing.assert_allclose(reading.detections.xyxy[order], truth, atol=1.0)
    assert reading.seen is not None and reading.seen.image_hw == (700, 500)


def test_read_as_it_lies_a_hand_in_rows_up_and_down_is_read_worse(reader: TileReader) -> None:
    rgb = _photo(_row_boxes(9, across=False))
    reading = dataclasses.replace(reader, rows_across=False).read(rgb)
    assert TileReader.calls == [((700, 500, 3), False)]  # type: ignore[attr-defined]
    order = np.argsort(reading.detections.xyxy[:, 1])
    right = sum(reading.detections.codes[i] == face for i, face in zip(order, FACES, strict=True))
    assert right < len(FACES) // 2


def test_a_hand_in_rows_across_is_read_once_with_the_boxes_already_found(reader: TileReader) -> None:
    rgb = _photo(_row_boxes(6, across=True))
    reading = reader.read(rgb)
    assert TileReader.calls == [((700, 500, 3), True)]  # type: ignore[attr-defined]
    assert sorted(reading.detections.codes) == list(FACES[:6])


def test_the_rows_direction_is_told_from_touching_neighbours() -> None:
    degrees, agreement, beside = rows_direction(_row_boxes(9, across=True))
    assert (min(degrees, 180.0 - degrees), agreement, beside) == pytest.approx((0.0, 1.0, 9))
    degrees, agreement, beside = rows_direction(_row_boxes(9, across=False))
    assert (degrees, agreement, beside) == pytest.approx((90.0, 1.0, 9))
    assert rows_direction(np.zeros((0, 4))) == (0.0, 0.0, 0)


@pytest.mark.parametrize(
    ("boxes", "expected"),
    [
        (_row_boxes(9, across=False), True),
        (_row_boxes(3, across=False), True),
        (_row_boxes(9, across=True), False),
        (_row_boxes(2, across=False), False),  # too few to tell
        # boxes taller than wide, touching one above another: no tile lies across a row up and down
        (np.array([[100, 100 + k * 70, 100 + SHORT, 170 + k * 70] for k in range(5)], np.float32), False),
        # wide boxes strewn apart: no neighbour touches
        (np.array([[k * 400, k * 300, k * 400 + LONG, k * 300 + SHORT] for k in range(5)]), False),
        # two rows up and down beside each other: each box's nearest neighbour is in its own row
        (np.concatenate([_row_boxes(7, across=False), _row_boxes(7, False, start=(190.0, 100.0))]), True),
    ],
)
def test_rows_up_and_down_are_told(boxes: np.ndarray, expected: bool) -> None:
    assert rows_up_and_down(boxes) is expected


@pytest.mark.parametrize(("slant", "expected"), [(0.0, True), (25.0, True), (-25.0, True), (40.0, False)])
def test_rows_near_the_diagonal_are_left_to_the_slant(slant: float, expected: bool) -> None:
    """Wide boxes whose centres step `slant` degrees off straight down."""
    step = np.array([np.sin(np.radians(slant)), np.cos(np.radians(slant))]) * 55.0
    centres = np.array([500.0, 100.0]) + np.outer(np.arange(8), step)
    half = np.array([LONG / 2, SHORT / 2])
    boxes = np.concatenate([centres - half, centres + half], axis=1)
    assert rows_up_and_down(boxes) is expected


@settings(max_examples=40, deadline=None)
@given(
    x=st.integers(0, 140),
    y=st.integers(0, 90),
    w=st.integers(6, 60),
    h=st.integers(6, 60),
    turn=st.sampled_from([0, 90, 180, 270]),
)
def test_boxes_read_on_a_turned_photo_come_back_where_the_tile_lies(
    x: int, y: int, w: int, h: int, turn: int
) -> None:
    hw = (160, 210)
    rgb = np.zeros((*hw, 3), np.uint8)
    rgb[y : y + h, x : x + w] = 255
    turned = np.rot90(rgb, -(turn // 90))  # `turn` degrees clockwise
    if turn == 270:
        np.testing.assert_array_equal(turned, turned_quarter(rgb))
    rows, cols = np.nonzero(turned[:, :, 0])
    read = np.array([[cols.min(), rows.min(), cols.max() + 1, rows.max() + 1]], np.float32)
    assert unturned_xyxy(read, turn, hw).tolist() == [[x, y, x + w, y + h]]
    if turn == 270:
        assert quarter_back(read, hw).tolist() == [[x, y, x + w, y + h]]
