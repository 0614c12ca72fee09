"""A box straddling two touching tiles is dropped; tiles in a row, even turned, are kept."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.box_filters import drop_straddlers


def _row(n: int, width: float = 40.0, height: float = 56.0, gap: float = 0.0) -> np.ndarray:
    return np.array([[k * (width + gap), 0, k * (width + gap) + width, height] for k in range(n)], np.float32)


def test_a_box_half_on_each_of_two_touching_tiles_is_dropped() -> None:
    tiles = _row(3)
    straddler = np.array([[20, 0, 60, 56]], np.float32)  # half on tile 0, half on tile 1
    boxes = np.concatenate([tiles, straddler])
    keep = drop_straddlers(boxes, np.array([0.9, 0.85, 0.8, 0.6]), 0.45)
    assert sorted(keep.tolist()) == [0, 1, 2]


def test_a_straddler_that_scores_higher_than_a_tile_stays_and_the_tile_is_judged_instead() -> None:
    tiles = _row(2)
    straddler = np.array([[20, 0, 60, 56]], np.float32)
    boxes = np.concatenate([tiles, straddler])
    # best first: tile 0, the straddler, then tile 1, which two better boxes do not both cover enough
    keep = drop_straddlers(boxes, np.array([0.9, 0.5, 0.8]), 0.45)
    assert keep.tolist() == [0, 2, 1]


def test_the_share_decides() -> None:
    boxes = np.concatenate([_row(2), np.array([[20, 0, 60, 56]], np.float32)])
    scores = np.array([0.9, 0.85, 0.6])
    assert len(drop_straddlers(boxes, scores, 0.5)) == 2  # each tile covers exactly half
    assert len(drop_straddlers(boxes, scores, 0.55)) == 3


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 14), st.floats(0, 6), st.floats(0, 180), st.integers(0, 2**32 - 1))
def test_tiles_of_a_row_at_any_angle_are_never_dropped(n: int, gap: float, angle: float, seed: int) -> None:
    # a row of touching (or spaced) tiles turned by `angle`: their upright boxes overlap their neighbours'
    w, h = 40.0, 56.0
    step = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))]) * (w + gap)
    boxes = []
    for k in range(n):
        corners = cv2.boxPoints(((200 + k * step[0], 200 + k * step[1]), (w, h), angle))
        boxes.append([*corners.min(axis=0), *corners.max(axis=0)])
    scores = np.random.default_rng(seed).uniform(0.5, 1.0, n)
    kept = drop_straddlers(np.array(boxes, np.float32), scores, 0.45)
    assert sorted(kept.tolist()) == list(range(n))


def test_nothing_in_nothing_out() -> None:
    assert drop_straddlers(np.zeros((0, 4), np.float32), np.zeros(0), 0.45).shape == (0,)
