"""A hand photographed at a slant is read again turned square (vision.square, docs/vision.md)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.scenes import detector_rows, scene, shaded_tiles
from tests.vision.tinymodels import write_models
from vision.classes import CLASS_INDEX, CLASSES
from vision.pipeline import TileReader
from vision.square import (
    around_boxes,
    boxes_back,
    fits_closer,
    folded_mean,
    neighbour_directions,
    photo_slant,
    same_tiles,
    slant_to_square,
    turn_for,
    turned_photo,
    turned_scale,
    with_square_reading,
)

TILE_W, TILE_H = 60.0, 80.0
FACES = ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m")


def _tile_corners(centre: tuple[float, float], degrees: float) -> np.ndarray:
    """(4, 2) corners of a TILE_W x TILE_H tile at `centre` turned `degrees` (image axes, y down)."""
    a = math.radians(degrees)
    along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    half = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    return np.array([centre + along * sx * TILE_W / 2 + across * sy * TILE_H / 2 for sx, sy in half])


def _row(degrees: float, n: int = 9, hw: tuple[int, int] = (900, 1200)) -> tuple[np.ndarray, np.ndarray]:
    """A photo of `n` touching tiles in a row turned `degrees`, each a shade of its own, and the
    (n, 4, 2) corners of each tile."""
    h, w = hw
    rgb = np.full((h, w, 3), 90, np.uint8)
    a = math.radians(degrees)
    step = np.array([math.cos(a), math.sin(a)]) * TILE_W
    start = np.array([w / 2, h / 2]) - step * (n - 1) / 2
    corners = np.array([_tile_corners(tuple(start + step * k), degrees) for k in range(n)])
    for k, quad in enumerate(corners):
        shade = 120 + 14 * k
        cv2.fillConvexPoly(rgb, np.round(quad).astype(np.int32), (shade, 255 - shade, 200))
        cv2.polylines(rgb, [np.round(quad).astype(np.int32)], True, (20, 20, 20), 2)
    return rgb, corners


def _box(quad: np.ndarray) -> np.ndarray:
    return np.concatenate([quad.min(axis=0), quad.max(axis=0)])


def _unsure(n: int, sure: float = 0.6) -> np.ndarray:
    """(n, classes) readings of `n` boxes, each `sure` of its likeliest face."""
    rows = np.full((n, len(CLASSES)), (1.0 - sure) / (len(CLASSES) - 1), np.float32)
    rows[:, 0] = sure
    return rows


def test_a_slanted_hand_read_surely_is_not_read_again() -> None:
    _, corners = _row(30.0)
    xyxy = np.array([_box(quad) for quad in corners])
    assert slant_to_square(xyxy, _unsure(len(xyxy), sure=0.95)) is None
    one_unsure = _unsure(len(xyxy), sure=0.95)
    one_unsure[3] = _unsure(1, sure=0.7)[0]
    assert slant_to_square(xyxy, one_unsure) == pytest.approx(30.0, abs=0.5)
    assert slant_to_square(xyxy[:0], one_unsure[:0]) is None


@given(st.floats(-44.0, 44.0), st.integers(0, 3))
def test_slant_is_the_directions_mean_up_to_a_quarter_turn(degrees: float, quarter: int) -> None:
    angles = np.array([degrees, degrees + 90.0 * quarter, degrees - 90.0, np.nan])
    slant, agreement = photo_slant(angles)
    assert slant == pytest.approx(degrees, abs=1e-6)
    assert agreement == pytest.approx(1.0)


@given(
    st.floats(0.0, 179.0), st.lists(st.integers(-3, 3), min_size=1, max_size=6), st.sampled_from([1, 2, 4])
)
def test_a_folded_mean_is_blind_to_the_turns_it_folds(degrees: float, turns: list[int], times: int) -> None:
    period = 360.0 / times
    base = degrees % period
    mean, agreement = folded_mean(np.array([base + period * k for k in turns]), times)
    assert min(abs(mean - base), period - abs(mean - base)) == pytest.approx(0.0, abs=1e-6)
    assert 0.0 <= mean < period and agreement == pytest.approx(1.0)


def test_directions_that_disagree_have_little_agreement() -> None:
    assert photo_slant(np.array([0.0, 22.5, 45.0, 67.5]))[1] < 0.1
    assert photo_slant(np.array([np.nan])) == (0.0, 0.0)


@pytest.mark.parametrize("degrees", [-40.0, -25.0, 15.0, 30.0, 44.0])
def test_a_slanted_row_is_squared_by_its_slant(degrees: float) -> None:
    _, corners = _row(degrees)
    xyxy = np.array([_box(quad) for quad in corners])
    slant = slant_to_square(xyxy, _unsure(len(xyxy)))
    assert slant is not None and slant == pytest.approx(degrees, abs=0.5)


@pytest.mark.parametrize("degrees", [0.0, 6.0, -11.0])
def test_a_row_nearly_square_is_read_as_it_lies(degrees: float) -> None:
    _, corners = _row(degrees)
    assert slant_to_square(np.array([_box(quad) for quad in corners]), _unsure(len(corners))) is None


def test_tiles_strewn_apart_say_nothing_of_the_slant() -> None:
    # five tiles at one slant, but each three tiles' length from the next: not a row
    xyxy = np.array([_box(_tile_corners((100.0 + 250 * k, 300.0 + 40 * k), 30.0)) for k in range(5)])
    assert len(neighbour_directions(xyxy)) == 0
    assert slant_to_square(xyxy, _unsure(len(xyxy))) is None


def test_a_turned_photo_holds_all_of_it_and_boxes_come_back_around_the_tiles() -> None:
    rgb, corners = _row(30.0)
    turn = turn_for(rgb.shape[:2], 30.0)
    canvas = turned_photo(rgb, turn)
    assert canvas.shape[1::-1] == turn.size
    # every corner of the photo lands on the canvas
    h, w = rgb.shape[:2]
    photo_corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    on_canvas = photo_corners @ turn.matrix[:, :2].T + turn.matrix[:, 2]
    assert (on_canvas >= -1).all() and (on_canvas[:, 0] <= turn.size[0] + 1).all()
    # a tile's corners turned square span a box whose corners, taken back, are the tile's box
    squared = corners[4] @ turn.matrix[:, :2].T + turn.matrix[:, 2]
    square_box = _box(squared)
    assert square_box[2] - square_box[0] == pytest.approx(TILE_W, abs=0.5)  # it stands square now
    back = boxes_back(square_box[None], turn, rgb.shape[:2])[0]
    np.testing.assert_allclose(back, _box(corners[4]), atol=0.5)


def test_the_turned_photo_is_cut_around_the_boxes() -> None:
    rgb, corners = _row(40.0, n=4)
    xyxy = np.array([_box(quad) for quad in corners])
    whole = turn_for(rgb.shape[:2], 40.0)
    cut = around_boxes(whole, xyxy, margin=1.0)
    assert cut.size[0] < whole.size[0] and cut.size[1] < whole.size[1]
    squared = corners.reshape(-1, 2) @ cut.matrix[:, :2].T + cut.matrix[:, 2]
    assert (squared >= 0).all() and (squared <= np.array(cut.size)).all()
    # the same boxes come back from the cut canvas as from the whole one
    box = _box(corners[1] @ cut.matrix[:, :2].T + cut.matrix[:, 2])
    np.testing.assert_allclose(boxes_back(box[None], cut, rgb.shape[:2])[0], _box(corners[1]), atol=0.5)


def test_boxes_that_fit_their_tiles_closer_are_told() -> None:
    slanted = np.array([_box(_tile_corners((100.0 * k, 0.0), 30.0)) for k in range(3)])
    square = np.array([_box(_tile_corners((100.0 * k, 0.0), 0.0)) for k in range(3)])
    assert fits_closer(slanted, square)
    assert not fits_closer(square, square)
    assert not fits_closer(slanted, np.zeros((0, 4)))


def _seen_tiles(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A stand-in for the models: each coloured blob's box, read as the face its shade stands for
    where the blob stands square in its box, and as hardly any face (9p a little above the rest)
    where it lies slanted: a classifier that reads a real tile turned 30 degrees poorly."""
    boxes, shades, filled = shaded_tiles(rgb)
    probabilities = np.full((len(boxes), len(CLASSES)), 1.0, np.float32)
    for row, shade, fill in zip(probabilities, shades, filled, strict=True):
        if fill > 0.85:
            row[CLASS_INDEX[FACES[shade]]] = 1000.0
        else:
            row[CLASS_INDEX["9p"]] = 2.0
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    return boxes, np.full(len(boxes), 0.9, np.float32), probabilities, np.zeros((0, 4))


@pytest.fixture
def reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TileReader:
    sc = scene(300, 400)
    loaded = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640))))
    seen_on: list[tuple[int, ...]] = []

    def read_tiles(
        self: TileReader, rgb: np.ndarray, lap: object = None, detected: object = None
    ) -> tuple[np.ndarray, ...]:
        seen_on.append(rgb.shape)
        return _seen_tiles(rgb)

    monkeypatch.setattr(TileReader, "read_tiles", read_tiles)
    monkeypatch.setattr(TileReader, "seen_on", seen_on, raising=False)
    return loaded


def _along_row(xyxy: np.ndarray) -> np.ndarray:
    return np.argsort(xyxy[:, 0] + xyxy[:, 2])


@pytest.mark.parametrize("degrees", [-35.0, 25.0, 44.0])
def test_a_slanted_hand_is_read_again_square_its_boxes_as_first_found(
    reader: TileReader, degrees: float
) -> None:
    rgb, corners = _row(degrees)
    reading = reader.read(rgb)
    seen_on = TileReader.seen_on  # type: ignore[attr-defined]
    assert len(seen_on) == 2 and seen_on[1] != rgb.shape  # read again, on the turned photo
    along = _along_row(reading.detections.xyxy)
    assert [reading.detections.codes[i] for i in along] == list(FACES)
    # each tile's reading is the mean of the two: about half the square reading's certainty
    assert reading.class_prob.max() < 0.6 and reading.class_prob.min() > 0.4
    truth = np.array([_box(quad) for quad in corners])
    np.testing.assert_allclose(reading.detections.xyxy[along], truth, atol=4.0)
    assert reading.seen is not None and reading.seen.image_hw == rgb.shape[:2]


def test_read_as_it_lies_a_slanted_hand_is_read_worse(reader: TileReader) -> None:
    slanted, _ = _row(30.0)
    reading = dataclasses.replace(reader, square=False).read(slanted)
    assert len(TileReader.seen_on) == 1  # type: ignore[attr-defined]
    assert sum(code in FACES for code in reading.detections.codes) < len(FACES)


def test_a_square_hand_is_read_once(reader: TileReader) -> None:
    rgb, _ = _row(3.0)
    reading = reader.read(rgb)
    assert len(TileReader.seen_on) == 1  # type: ignore[attr-defined]
    assert sorted(reading.detections.codes) == list(FACES)


def test_each_tile_is_paired_with_its_own_turned_reading_only() -> None:
    first = np.array([[0, 0, 10, 10], [10, 0, 20, 10], [40, 0, 50, 10]], np.float32)
    back = np.array([[11, 0, 21, 10], [1, 0, 11, 10], [200, 0, 210, 10]], np.float32)
    assert sorted(same_tiles(first, back)) == [(0, 1), (1, 0)]
    ones = np.eye(3, dtype=np.float32)
    turned = np.roll(ones, 1, axis=1)
    fused = with_square_reading(ones, first, turned, back)
    np.testing.assert_allclose(fused[2], ones[2])  # the turned reading found no tile there
    np.testing.assert_allclose(fused[0], (ones[0] + turned[1]) / 2)
    assert same_tiles(first, np.zeros((0, 4))) == []


@settings(max_examples=25, deadline=None)
@given(st.floats(-45.0, 45.0), st.floats(0.0, 1.0))
def test_boxes_taken_back_hold_the_tiles_they_held_turned(degrees: float, where: float) -> None:
    hw = (400, 600)
    turn = turn_for(hw, degrees)
    centre = np.array([100 + 400 * where, 200.0])
    quad = _tile_corners(tuple(centre), degrees)  # a tile that the turn stands square
    squared = quad @ turn.matrix[:, :2].T + turn.matrix[:, 2]
    back = boxes_back(_box(squared)[None], turn, hw)[0]
    inside = _box(quad).clip([0, 0, 0, 0], [600, 400, 600, 400])
    assert (back[:2] <= inside[:2] + 1e-3).all() and (back[2:] >= inside[2:] - 1e-3).all()


def test_a_photo_of_large_tiles_is_turned_shrunk_and_its_boxes_come_back_at_full_size() -> None:
    big = np.array([[0, 0, 480, 640], [480, 0, 960, 640]], np.float32)  # 12 MP tiles: 640 px long
    assert turned_scale(big) == pytest.approx(320.0 / 640.0)
    assert turned_scale(big / 4) == 1.0 and turned_scale(np.zeros((0, 4))) == 1.0
    rgb, corners = _row(30.0)
    turn = turn_for(rgb.shape[:2], 30.0, scale=0.5)
    whole = turn_for(rgb.shape[:2], 30.0)
    assert abs(turn.size[0] - whole.size[0] / 2) <= 1 and abs(turn.size[1] - whole.size[1] / 2) <= 1
    squared = corners[4] @ turn.matrix[:, :2].T + turn.matrix[:, 2]
    square_box = _box(squared)
    assert square_box[2] - square_box[0] == pytest.approx(TILE_W / 2, abs=0.5)
    np.testing.assert_allclose(
        boxes_back(square_box[None], turn, rgb.shape[:2])[0], _box(corners[4]), atol=0.5
    )
    # cut around the boxes, the margin is counted in the shrunk canvas's pixels too
    xyxy = np.array([_box(quad) for quad in corners])
    cut = around_boxes(turn, xyxy, margin=1.0)
    assert cut.scale == 0.5 and cut.size[0] <= turn.size[0]
    # boxes read on the shrunk canvas are measured against the first boxes at the photo's size
    slanted = np.array([_box(_tile_corners((100.0 * k, 0.0), 30.0)) for k in range(3)])
    square = np.array([_box(_tile_corners((100.0 * k, 0.0), 0.0)) for k in range(3)])
    assert fits_closer(slanted, square * 0.5, scale=0.5)
    assert not fits_closer(slanted, slanted * 0.5, scale=0.5)  # the same boxes, only shrunk
    assert fits_closer(slanted, slanted * 0.5)  # what the shrinking alone would have looked like
