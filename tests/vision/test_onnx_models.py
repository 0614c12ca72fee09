"""NMS, YOLO head decoding, and classifier output handling."""

from __future__ import annotations

import numpy as np
import pytest

from vision.box_filters import decode_yolo, nms
from vision.onnx_models import _as_probabilities
from vision.sidecar import ModelError


@pytest.mark.parametrize(
    ("boxes", "scores", "iou", "kept"),
    [
        pytest.param([], [], 0.5, [], id="empty"),
        pytest.param([[0, 0, 10, 10]], [0.3], 0.5, [0], id="single"),
        pytest.param([[0, 0, 10, 10], [1, 1, 11, 11]], [0.3, 0.9], 0.5, [1], id="overlap-keeps-best"),
        pytest.param([[0, 0, 10, 10], [5, 0, 15, 10]], [0.9, 0.8], 0.5, [0, 1], id="iou-third-kept"),
        pytest.param([[0, 0, 10, 10], [5, 0, 15, 10]], [0.9, 0.8], 0.3, [0], id="iou-third-suppressed"),
        pytest.param(
            [[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]],
            [0.1, 0.3, 0.2],
            0.5,
            [1, 2, 0],
            id="disjoint-sorted-by-score",
        ),
        pytest.param([[0, 0, 0, 0], [0, 0, 0, 0]], [0.5, 0.4], 0.5, [0, 1], id="zero-area-no-nan"),
        # Agnostic: a chain A~B, B~C but A!~C keeps A and C.
        pytest.param(
            [[0, 0, 10, 10], [3, 0, 13, 10], [6, 0, 16, 10]], [0.9, 0.8, 0.7], 0.5, [0, 2], id="chain"
        ),
    ],
)
def test_nms(boxes: list[list[float]], scores: list[float], iou: float, kept: list[int]) -> None:
    result = nms(np.array(boxes, np.float32).reshape(-1, 4), np.array(scores, np.float32), iou)
    assert result.tolist() == kept


@pytest.mark.parametrize(
    ("contain", "kept"),
    [
        pytest.param(None, [0, 1, 2], id="off"),
        pytest.param(0.7, [0, 2], id="nested-box-dropped"),
        pytest.param(0.95, [0, 1, 2], id="threshold-above-overlap"),
    ],
)
def test_nms_containment(contain: float | None, kept: list[int]) -> None:
    # Box 1 (a face cut from tile 0) has IoU 0.31 with it but lies 90% inside; box 2 touches tile 0.
    boxes = np.array([[0, 0, 100, 100], [-6, 0, 54, 60], [100, 0, 200, 100]], np.float32)
    result = nms(boxes, np.array([0.9, 0.8, 0.7], np.float32), 0.5, contain)
    assert result.tolist() == kept


def test_decode_yolo_converts_centres_and_filters() -> None:
    rows = np.array([[50, 40, 20, 10, 0.9], [10, 10, 4, 4, 0.1]], np.float32)
    boxes, scores = decode_yolo(rows.T[None], conf=0.25)
    np.testing.assert_allclose(boxes, [[40, 35, 60, 45]])
    np.testing.assert_allclose(scores, [0.9])


def test_decode_yolo_multi_class_takes_best_score() -> None:
    rows = np.array([[50, 40, 20, 10, 0.1, 0.7]], np.float32)
    _, scores = decode_yolo(rows.T[None], conf=0.25)
    np.testing.assert_allclose(scores, [0.7])


@pytest.mark.parametrize(
    "shape",
    [
        pytest.param((1, 4, 100), id="no-score"),
        pytest.param((5, 100), id="2d"),
        pytest.param((2, 5, 100), id="batch"),
    ],
)
def test_decode_yolo_rejects_bad_shape(shape: tuple[int, ...]) -> None:
    with pytest.raises(ModelError, match="detector output must be"):
        decode_yolo(np.zeros(shape, np.float32), 0.25)


def test_probabilities_kept_and_logits_softmaxed() -> None:
    probs = np.array([[0.2, 0.8]], np.float32)
    assert _as_probabilities(probs) is probs
    logits = np.array([[0.0, np.log(3.0)]], np.float32)
    np.testing.assert_allclose(_as_probabilities(logits), [[0.25, 0.75]], rtol=1e-5)
