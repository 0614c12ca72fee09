"""A box read unsurely that lies half or more inside a box both models prefer (one straddling two
tiles, or a second box on a tile) is dropped when a reading is settled; tiles themselves stay."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.layout_sim import place
from tests.vision.scenes import detector_rows, scene
from tests.vision.seen_sim import hand_with_extra_box, turned_row_boxes
from tests.vision.tinymodels import write_models
from vision.box_filters import unsure_inside_surer
from vision.pipeline import INSIDE_SHARE, INSIDE_UNSURE_BELOW, Seen, TileReader, kept_boxes

HAND = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E W W"


def _row(n: int, width: float = 40.0, height: float = 56.0) -> np.ndarray:
    return np.array([[k * width, 0, k * width + width, height] for k in range(n)], np.float32)


def _flagged(boxes: np.ndarray, scores: list[float], likeliest: list[float]) -> list[int]:
    flags = unsure_inside_surer(
        boxes, np.array(scores), np.array(likeliest), INSIDE_UNSURE_BELOW, INSIDE_SHARE
    )
    return np.flatnonzero(flags).tolist()


def test_an_unsure_box_astride_two_tiles_is_flagged_and_a_sure_one_is_not() -> None:
    boxes = np.concatenate([_row(2), np.array([[20, 0, 60, 56]], np.float32)])  # half on each tile
    assert _flagged(boxes, [0.9, 0.85, 0.6], [0.95, 0.9, 0.3]) == [2]
    assert _flagged(boxes, [0.9, 0.85, 0.6], [0.95, 0.9, INSIDE_UNSURE_BELOW]) == []  # read surely enough
    # scored above both tiles, nothing better holds it: the detector's word stands
    assert _flagged(boxes, [0.6, 0.5, 0.9], [0.95, 0.9, 0.3]) == []


def test_a_second_unsure_box_on_a_tile_is_flagged_and_the_share_decides() -> None:
    tile = np.array([[0, 0, 40, 56]], np.float32)
    double = np.array([[10, 0, 50, 56]], np.float32)  # 0.75 of it on the tile
    boxes = np.concatenate([tile, double])
    assert _flagged(boxes, [0.9, 0.7], [0.9, 0.2]) == [1]
    # the tile's own box read less surely than the double: the classifier does not prefer it, both stay
    assert _flagged(boxes, [0.9, 0.7], [0.15, 0.2]) == []
    edge = np.array([[30, 0, 70, 56]], np.float32)  # a quarter of it on the tile
    assert _flagged(np.concatenate([tile, edge]), [0.9, 0.7], [0.9, 0.2]) == []


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 14), st.floats(0, 180), st.integers(0, 2**32 - 1))
def test_touching_tiles_of_a_row_at_any_angle_are_never_flagged_however_unsure(
    n: int, angle: float, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    assert _flagged(turned_row_boxes(n, angle), rng.uniform(0.5, 1.0, n).tolist(), [0.1] * n) == []


def test_nothing_in_nothing_out() -> None:
    assert unsure_inside_surer(np.zeros((0, 4)), np.zeros(0), np.zeros(0), 0.4, 0.5).shape == (0,)


def _hand_with_straddler() -> tuple[Seen, int]:
    # as wide as a tile, half on 4p and half on 5p; read 4p 0.35 at best, 5p 0.3
    def straddler(tiles: np.ndarray) -> np.ndarray:
        return (tiles[3] + tiles[4]) / 2

    return hand_with_extra_box(HAND, straddler, {"4p": 0.35, "5p": 0.3})


def test_settling_drops_the_straddler_and_keeps_what_the_models_saw(tmp_path: Path) -> None:
    seen, n = _hand_with_straddler()
    reader = TileReader.load(write_models(tmp_path, detector_rows(scene(600, 1000), (384, 640))))
    reading = reader.settle(seen)
    assert len(reading.detections) == n  # without the rule: n + 1, a fifth pin read between 4p and 5p
    assert reading.detections.codes == list(place([[HAND]]).codes)
    assert reading.layout is not None and len(reading.layout.hand["concealed"]) == n
    assert not len(reading.rejected_xyxy)  # dropped as the detector drops a box, not left out as no tile
    assert reading.seen is seen  # what the models saw stays whole, to be settled again the same
    again = reader.settle(reading.seen)
    assert again.detections.codes == reading.detections.codes


def test_kept_boxes_renumbers_the_whited_faces() -> None:
    seen, n = _hand_with_straddler()
    # the straddler moved to the front: the whited faces after it are numbered one less once it is dropped
    order = [n, *range(n)]
    moved = Seen(
        seen.xyxy[order],
        seen.det_score[order],
        seen.probabilities[order],
        seen.angle[order],
        seen.rejected_xyxy,
        image_hw=seen.image_hw,
        whited=(0, 2, 5),
    )
    kept = kept_boxes(moved)
    assert len(kept.xyxy) == n and kept.whited == (1, 4)
    np.testing.assert_array_equal(kept.xyxy, seen.xyxy[:n])
    plain = kept_boxes(kept)
    assert plain is kept  # nothing left to drop
