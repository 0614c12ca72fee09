"""An unsure box far off the size of the photo's tiles is dropped; sure boxes and tiles stay."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.box_filters import drop_odd_sized


def _row(n: int, width: float = 40.0, height: float = 56.0) -> np.ndarray:
    return np.array([[k * width, 0, k * width + width, height] for k in range(n)], np.float32)


def test_an_unsure_box_half_the_tile_size_is_dropped() -> None:
    foot = np.array([[300, 200, 320, 228]], np.float32)  # long side 28 against the tiles' 56
    boxes = np.concatenate([_row(5), foot])
    keep = drop_odd_sized(boxes, np.array([0.9, 0.85, 0.88, 0.8, 0.86, 0.6]), 1.5, 0.75)
    assert keep.tolist() == [0, 1, 2, 3, 4]


def test_an_unsure_box_twice_the_tile_size_is_dropped() -> None:
    chair = np.array([[300, 200, 380, 312]], np.float32)  # long side 112
    boxes = np.concatenate([_row(4), chair])
    keep = drop_odd_sized(boxes, np.array([0.9, 0.85, 0.88, 0.8, 0.7]), 1.5, 0.75)
    assert keep.tolist() == [0, 1, 2, 3]


def test_a_sure_box_of_any_size_stays() -> None:
    big = np.array([[300, 200, 380, 312]], np.float32)
    boxes = np.concatenate([_row(4), big])
    keep = drop_odd_sized(boxes, np.array([0.9, 0.85, 0.88, 0.8, 0.8]), 1.5, 0.75)
    assert keep.tolist() == [0, 1, 2, 3, 4]


def test_a_sideways_tile_keeps_its_long_side_and_stays() -> None:
    sideways = np.array([[300, 0, 356, 40]], np.float32)  # a tile turned a quarter: 56 x 40
    boxes = np.concatenate([_row(4), sideways])
    keep = drop_odd_sized(boxes, np.array([0.9, 0.85, 0.88, 0.8, 0.55]), 1.5, 0.75)
    assert keep.tolist() == [0, 1, 2, 3, 4]


def test_the_ratio_decides() -> None:
    boxes = np.concatenate([_row(4), np.array([[300, 0, 340, 80]], np.float32)])  # 80 / 56 = 1.43
    scores = np.array([0.9, 0.85, 0.88, 0.8, 0.6])
    assert len(drop_odd_sized(boxes, scores, 1.4, 0.75)) == 4
    assert len(drop_odd_sized(boxes, scores, 1.5, 0.75)) == 5


def test_too_few_boxes_to_know_the_tile_size_are_all_kept() -> None:
    boxes = np.array([[0, 0, 40, 56], [100, 100, 110, 114]], np.float32)
    assert drop_odd_sized(boxes, np.array([0.9, 0.5]), 1.5, 0.75).tolist() == [0, 1]
    assert drop_odd_sized(np.zeros((0, 4), np.float32), np.zeros(0), 1.5, 0.75).shape == (0,)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.floats(10, 400), min_size=1, max_size=30),
    st.floats(1.05, 3.0),
    st.floats(0.1, 1.0),
    st.integers(0, 2**32 - 1),
)
def test_only_unsure_boxes_off_the_typical_size_are_dropped(
    long_sides: list[float], ratio: float, below: float, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    sides = np.array(long_sides, np.float32)
    shorts = sides * rng.uniform(0.5, 1.0, len(sides)).astype(np.float32)
    upright = rng.random(len(sides)) < 0.5
    w, h = np.where(upright, shorts, sides), np.where(upright, sides, shorts)
    boxes = np.stack([np.zeros_like(w), np.zeros_like(h), w, h], axis=1)
    scores = rng.uniform(0.3, 1.0, len(sides)).astype(np.float32)
    kept = set(drop_odd_sized(boxes, scores, ratio, below).tolist())
    for i in set(range(len(sides))) - kept:
        assert scores[i] < below
    if len(sides) >= 3:
        typical = np.median(sides[scores >= np.median(scores)])
        for i in range(len(sides)):
            if abs(np.log(sides[i] / typical)) <= np.log(ratio) * 0.999:
                assert i in kept
