"""A box neither model vouches for, shaped unlike the photo's tiles, is left out; a sure model keeps it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import write_models
from vision.box_filters import odd_and_unsure
from vision.letterbox import plan_letterbox
from vision.pipeline import TileReader
from vision.sidecar import ModelError


def _row(n: int, width: float = 40.0, height: float = 56.0) -> np.ndarray:
    return np.array([[k * width, 0, k * width + width, height] for k in range(n)], np.float32)


SQUAT = np.array([[300, 200, 340, 230]], np.float32)  # a cushion's edge: the tile's width, half its height
SURE = [0.9, 0.85, 0.88, 0.8]


def test_a_squat_box_both_models_doubt_is_flagged() -> None:
    boxes = np.concatenate([_row(4), SQUAT])
    flagged = odd_and_unsure(
        boxes, np.array([*SURE, 0.6]), np.array([1.0, 0.9, 0.95, 1.0, 0.3]), 1.25, 0.7, 0.5
    )
    assert flagged.tolist() == [False] * 4 + [True]


@pytest.mark.parametrize(("det", "prob"), [(0.75, 0.3), (0.6, 0.55)])
def test_either_sure_model_keeps_an_odd_box(det: float, prob: float) -> None:
    boxes = np.concatenate([_row(4), SQUAT])
    flagged = odd_and_unsure(boxes, np.array([*SURE, det]), np.array([1.0] * 4 + [prob]), 1.25, 0.7, 0.5)
    assert not flagged.any()


def test_a_doubted_box_of_the_tiles_shape_stays_at_any_quarter_turn() -> None:
    sideways = np.array([[300, 0, 356, 40]], np.float32)  # 56 x 40: a tile turned a quarter
    boxes = np.concatenate([_row(4), sideways])
    assert not odd_and_unsure(
        boxes, np.array([*SURE, 0.5]), np.array([1.0] * 4 + [0.2]), 1.25, 0.7, 0.5
    ).any()


def test_too_few_boxes_to_know_the_tile_shape_are_all_kept() -> None:
    boxes = np.concatenate([_row(1), SQUAT])
    assert odd_and_unsure(boxes, np.array([0.9, 0.5]), np.array([1.0, 0.1]), 1.25, 0.7, 0.5).tolist() == [
        False,
        False,
    ]
    assert odd_and_unsure(np.zeros((0, 4)), np.zeros(0), np.zeros(0), 1.25, 0.7, 0.5).shape == (0,)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 30),
    st.floats(1.05, 2.0),
    st.floats(0.1, 1.0),
    st.floats(0.1, 1.0),
    st.integers(0, 2**32 - 1),
)
def test_only_doubted_boxes_off_the_typical_shape_are_flagged(
    n: int, ratio: float, below: float, unsure: float, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    w, h = rng.uniform(10, 200, n), rng.uniform(10, 200, n)
    boxes = np.stack([np.zeros(n), np.zeros(n), w, h], axis=1).astype(np.float32)
    det, prob = rng.uniform(0.3, 1.0, n).astype(np.float32), rng.uniform(0.0, 1.0, n).astype(np.float32)
    flagged = odd_and_unsure(boxes, det, prob, ratio, below, unsure)
    assert ((det[flagged] < below) & (prob[flagged] < unsure)).all()
    if n >= 3:
        sides = np.stack([np.maximum(w, h), np.minimum(w, h)], axis=1)
        typical = np.median(sides[det >= np.median(det)], axis=0)
        near = (np.abs(np.log(sides / typical)) < np.log(ratio) * 0.999).all(axis=1)
        assert not (flagged & near).any()


def _models_with_a_grey_squat_box(directory: Path, odd_shape: float | None) -> tuple[TileReader, np.ndarray]:
    """The three-tile scene plus a squat detector box (score 0.6) on the grey table, which the tiny
    classifier reads as a third each of 1m, 1p and 1s: neither model vouches for it."""
    sc = scene(600, 1000)
    rows = detector_rows(sc, (384, 640))
    plan = plan_letterbox(600, 1000, 384, 640)
    grey = plan.to_target(np.array([[420, 80, 520, 130]], np.float32))[0]  # tile 100 x 100, this 100 x 50
    squat = [(grey[0] + grey[2]) / 2, (grey[1] + grey[3]) / 2, grey[2] - grey[0], grey[3] - grey[1], 0.6]
    write_models(directory, np.concatenate([rows, np.array([squat], np.float32)]))
    path = directory / "models.json"
    data = json.loads(path.read_text())
    data["classifier"]["odd_shape"] = odd_shape
    path.write_text(json.dumps(data))
    return TileReader.load(directory), sc.rgb


def test_the_reader_leaves_out_an_odd_unsure_box_and_says_so(tmp_path: Path) -> None:
    reader, rgb = _models_with_a_grey_squat_box(tmp_path, 1.25)
    reading = reader.read(rgb)
    assert reading.detections.codes == ["1m", "1p", "1s"]
    assert len(reading.rejected_xyxy) == 1
    np.testing.assert_allclose(reading.rejected_xyxy[0], [420, 80, 520, 130], atol=8)
    assert any(w.startswith("left out 1 box") for w in reading.warnings)


def test_without_the_setting_the_odd_box_is_read(tmp_path: Path) -> None:
    reader, rgb = _models_with_a_grey_squat_box(tmp_path, None)
    reading = reader.read(rgb)
    assert len(reading.detections) == 4 and len(reading.rejected_xyxy) == 0


@pytest.mark.parametrize(
    ("key", "value"), [("odd_shape", 1.0), ("odd_shape_below", 0.0), ("odd_shape_unsure", 1.5)]
)
def test_a_bad_setting_is_refused_in_one_line(tmp_path: Path, key: str, value: float) -> None:
    _models_with_a_grey_squat_box(tmp_path, 1.25)
    path = tmp_path / "models.json"
    data = json.loads(path.read_text())
    data["classifier"][key] = value
    path.write_text(json.dumps(data))
    with pytest.raises(ModelError, match=key):
        TileReader.load(tmp_path)
