"""A box the detector doubts that lies deep inside a box read surer (a second box on a tile, read
too surely for `unsure_inside_surer`) is dropped when a reading is settled; tiles themselves stay."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.layout_sim import place
from tests.vision.scenes import detector_rows, scene
from tests.vision.seen_sim import hand_with_extra_box, turned_row_boxes
from tests.vision.tinymodels import write_models
from vision.box_filters import doubted_inside_surer, unsure_inside_surer
from vision.pipeline import (
    DOUBTED_BELOW,
    DOUBTED_SHARE,
    INSIDE_SHARE,
    INSIDE_UNSURE_BELOW,
    Seen,
    TileReader,
    kept_boxes,
)

HAND = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E W W"


def _flagged(boxes: np.ndarray, scores: list[float], likeliest: list[float]) -> list[int]:
    flags = doubted_inside_surer(boxes, np.array(scores), np.array(likeliest), DOUBTED_BELOW, DOUBTED_SHARE)
    return np.flatnonzero(flags).tolist()


def test_a_doubted_second_box_on_a_tile_is_flagged_though_read_fairly_surely() -> None:
    tile = np.array([[0, 0, 40, 56]], np.float32)
    double = np.array([[8, 0, 48, 56]], np.float32)  # 0.8 of it on the tile
    boxes = np.concatenate([tile, double])
    assert _flagged(boxes, [0.9, 0.6], [0.95, 0.6]) == [1]
    # read 0.6, it passes the unsure rule's bar: only this rule tells it
    unsure = unsure_inside_surer(
        boxes, np.array([0.9, 0.6]), np.array([0.95, 0.6]), INSIDE_UNSURE_BELOW, INSIDE_SHARE
    )
    assert not unsure.any()
    assert _flagged(boxes, [0.9, DOUBTED_BELOW], [0.95, 0.6]) == []  # the detector is sure enough of it
    assert _flagged(boxes, [0.9, 0.6], [0.55, 0.6]) == []  # the tile's box is read less surely: both stay
    shallow = np.array([[16, 0, 56, 56]], np.float32)  # 0.6 of it on the tile, under the share
    assert _flagged(np.concatenate([tile, shallow]), [0.9, 0.6], [0.95, 0.6]) == []


def test_a_box_alone_or_among_equals_is_never_flagged() -> None:
    one = np.array([[0, 0, 40, 56]], np.float32)
    assert _flagged(one, [0.5], [0.1]) == []  # not inside itself
    same = np.concatenate([one, one])  # two boxes read alike: neither is read surer
    assert _flagged(same, [0.5, 0.6], [0.7, 0.7]) == []
    assert doubted_inside_surer(np.zeros((0, 4)), np.zeros(0), np.zeros(0), 0.75, 0.65).shape == (0,)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 14), st.floats(0, 180), st.integers(0, 2**32 - 1))
def test_touching_tiles_of_a_row_at_any_angle_are_never_flagged_however_doubted(
    n: int, angle: float, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    scores, likeliest = rng.uniform(0.5, 0.74, n).tolist(), rng.uniform(0.0, 1.0, n).tolist()
    assert _flagged(turned_row_boxes(n, angle), scores, likeliest) == []


def _hand_with_double() -> tuple[Seen, int]:
    # 0.8 of it on 5p, the rest on 6p; read 5p 0.6, too sure for the unsure rule
    def double(tiles: np.ndarray) -> np.ndarray:
        return tiles[4] + np.array([0.2, 0, 0.2, 0]) * (tiles[4, 2] - tiles[4, 0])

    return hand_with_extra_box(HAND, double, {"5p": 0.6})


def test_settling_drops_the_double_and_keeps_what_the_models_saw(tmp_path: Path) -> None:
    seen, n = _hand_with_double()
    assert len(kept_boxes(seen).xyxy) == n
    reader = TileReader.load(write_models(tmp_path, detector_rows(scene(600, 1000), (384, 640))))
    reading = reader.settle(seen)
    assert len(reading.detections) == n  # without the rule: n + 1, a second 5p read beside the first
    assert reading.detections.codes == list(place([[HAND]]).codes)
    assert not len(reading.rejected_xyxy)  # dropped as the detector drops a box, not left out as no tile
    assert reading.seen is seen
    assert reader.settle(reading.seen).detections.codes == reading.detections.codes
