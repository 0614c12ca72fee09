"""Tiled detection: windows cover the image, small tiles are found, cut tiles are not doubled.

The detector here is a stand-in session that finds saturated blobs of at least MIN_AREA
model-input pixels, so (like a real detector) it misses tiles that the letterbox shrinks
too far, and sees a tile cut by a window edge as a smaller box.
"""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.box_filters import clear_of
from vision.onnx_models import TileDetector, tile_windows
from vision.sidecar import DetectorConfig

MIN_AREA = 16


class BlobSession:
    def __init__(self, hw: tuple[int, int]) -> None:
        self.hw = hw
        self.runs = 0

    def get_inputs(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name="images", shape=[1, 3, *self.hw])]

    def get_outputs(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name="output0", shape=[1, 5, "anchors"])]

    def run(self, _: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.runs += 1
        rgb = feeds["images"][0]
        colour = (rgb.max(axis=0) - rgb.min(axis=0)) > 0.3
        count, _, stats, _ = cv2.connectedComponentsWithStats(colour.astype(np.uint8))
        rows = [[x + w / 2, y + h / 2, w, h, 0.9] for x, y, w, h, area in stats[1:count] if area >= MIN_AREA]
        rows += [[0, 0, 1, 1, 0.0]] * 4  # anchors with no score, as a real head has
        return [np.array(rows, np.float32).T[None]]


def _detector(hw: tuple[int, int], grid: int = 1, fine_below: float | None = None) -> TileDetector:
    config = DetectorConfig("x.onnx", hw, ("tile",), conf=0.25, iou=0.5, grid=grid, fine_below=fine_below)
    return TileDetector.from_session(BlobSession(hw), config)


@pytest.mark.parametrize(
    ("height", "width", "grid"),
    [
        pytest.param(1000, 1000, 1, id="grid-1"),
        pytest.param(1000, 1000, 2, id="grid-2"),
        pytest.param(3000, 4000, 3, id="grid-3-landscape"),
        pytest.param(4000, 3000, 4, id="grid-4-portrait"),
    ],
)
def test_windows_cover_with_overlap(height: int, width: int, grid: int) -> None:
    windows = tile_windows(height, width, grid)
    assert len(windows) == grid * grid
    covered = np.zeros((height // 10, width // 10), bool)
    for x1, y1, x2, y2 in windows:
        assert 0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height
        covered[y1 // 10 : -(-y2 // 10), x1 // 10 : -(-x2 // 10)] = True
    assert covered.all()
    if grid > 1:
        # Neighbours overlap by at least 20% of the image / grid: tiles smaller than that fit whole.
        xs = sorted({int(w[0]) for w in windows})
        win_w = int(windows[0][2] - windows[0][0])
        assert min(xs[i] + win_w - xs[i + 1] for i in range(len(xs) - 1)) >= 0.2 * width / grid


def _small_tiles(size: int = 2000) -> tuple[np.ndarray, np.ndarray]:
    rgb = np.full((size, size, 3), 128, np.uint8)
    boxes = []
    # Tiles of 20 x 28 px, one of them straddling the middle, where 2x2 windows meet.
    for x, y in [(100, 100), (990, 990), (1500, 300), (300, 1700), (1800, 1800)]:
        rgb[y : y + 28, x : x + 20] = (200, 30, 30)
        boxes.append([x, y, x + 20, y + 28])
    return rgb, np.array(boxes, np.float32)


def _sorted(boxes: np.ndarray) -> np.ndarray:
    return boxes[np.lexsort((boxes[:, 1], boxes[:, 0]))]


def test_whole_image_misses_small_tiles() -> None:
    rgb, _ = _small_tiles()
    boxes, _ = _detector((256, 256)).detect(rgb)
    assert len(boxes) == 0  # 20 x 28 px shrinks to 2.6 x 3.6: below the blob detector's reach


@pytest.mark.parametrize("grid", [pytest.param(2, id="grid-2"), pytest.param(3, id="grid-3")])
def test_grid_finds_small_tiles_once(grid: int) -> None:
    rgb, truth = _small_tiles()
    boxes, scores = _detector((256, 256), grid).detect(rgb)
    assert len(boxes) == len(truth)
    np.testing.assert_allclose(_sorted(boxes), _sorted(truth), atol=8)
    np.testing.assert_allclose(scores, 0.9, rtol=1e-6)


def test_grid_from_config_and_override() -> None:
    rgb, truth = _small_tiles()
    detector = _detector((256, 256), grid=2)
    assert len(detector.detect(rgb)[0]) == len(truth)
    assert len(detector.detect(rgb, grid=1)[0]) == 0


def test_large_tile_cut_by_every_window_comes_from_whole_image() -> None:
    rgb = np.full((1000, 1000, 3), 128, np.uint8)
    rgb[300:700, 400:600] = (30, 30, 200)  # bigger than the window overlap
    boxes, _ = _detector((256, 256), grid=2).detect(rgb)
    assert len(boxes) == 1
    np.testing.assert_allclose(boxes[0], [400, 300, 600, 700], atol=8)


def _tiny_and_small_tiles() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 1000 px photo of 16 x 22 px tiles, which 2 x 2 windows at 256 px find, and 6 x 10 px ones,
    which only 3 x 3 windows see large enough (the blob detector needs MIN_AREA input pixels)."""
    rgb = np.full((1000, 1000, 3), 128, np.uint8)
    found, missed = [], []
    for x, y in [(100, 100), (400, 150), (700, 120), (150, 800)]:
        rgb[y : y + 22, x : x + 16] = (200, 30, 30)
        found.append([x, y, x + 16, y + 22])
    for x, y in [(600, 600), (820, 760)]:
        rgb[y : y + 10, x : x + 6] = (30, 30, 200)
        missed.append([x, y, x + 6, y + 10])
    return rgb, np.array(found, np.float32), np.array(missed, np.float32)


def test_fine_grid_looks_again_where_tiles_are_small() -> None:
    rgb, found, missed = _tiny_and_small_tiles()
    coarse = _detector((256, 256), grid=2)
    assert len(coarse.detect(rgb)[0]) == len(found)
    fine = _detector((256, 256), grid=2, fine_below=0.03)  # boxes of about 20 px: 0.02 of the photo
    boxes, _ = fine.detect(rgb)
    truth = np.concatenate([found, missed])
    assert len(boxes) == len(truth)
    np.testing.assert_allclose(_sorted(boxes), _sorted(truth), atol=4)
    assert fine.session.runs == 1 + 4 + 9  # the whole image read once, then both grids' windows


def test_fine_grid_left_alone_where_tiles_are_large_enough() -> None:
    rgb, found, _ = _tiny_and_small_tiles()
    detector = _detector((256, 256), grid=2, fine_below=0.015)  # boxes of about 20 px: 0.02 of the photo
    assert len(detector.detect(rgb)[0]) == len(found)
    assert detector.session.runs == 1 + 4


def test_fine_grid_no_finer_than_the_grid_asked_for() -> None:
    rgb, _, _ = _tiny_and_small_tiles()
    detector = _detector((256, 256), grid=2, fine_below=0.03)
    detector.detect(rgb, grid=3)  # the fine grid (3) is no finer: one pass of 3 x 3 windows
    assert detector.session.runs == 1 + 9


def test_fine_grid_needs_three_boxes_to_judge() -> None:
    rgb = np.full((1000, 1000, 3), 128, np.uint8)
    rgb[100:122, 100:116] = (200, 30, 30)
    rgb[500:522, 500:516] = (200, 30, 30)
    detector = _detector((256, 256), grid=2, fine_below=0.5)
    assert len(detector.detect(rgb)[0]) == 2
    assert detector.session.runs == 1 + 4


class BlueIsUnsureSession(BlobSession):
    """Blue blobs are scored 0.3, the rest 0.9, as a detector scores a face-down tile's even colour."""

    def run(self, names: object, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        (out,) = super().run(names, feeds)
        rgb = feeds["images"][0]
        for row in out[0].T:
            if row[4] > 0:
                cx, cy = int(row[0]), int(row[1])
                blue = rgb[2, cy, cx] > rgb[0, cy, cx] + 0.3
                row[4] = 0.3 if blue else 0.9
        return [out]


def _red_and_blue_tiles() -> np.ndarray:
    rgb = np.full((1000, 1000, 3), 128, np.uint8)
    for x, y in [(100, 100), (700, 150)]:
        rgb[y : y + 60, x : x + 44] = (200, 30, 30)
    rgb[600:660, 400:444] = (30, 30, 200)
    return rgb


def _scored_detector(second_chance: float | None) -> TileDetector:
    config = DetectorConfig(
        "x.onnx", (256, 256), ("tile",), conf=0.5, iou=0.5, grid=2, second_chance=second_chance
    )
    return TileDetector.from_session(BlueIsUnsureSession((256, 256)), config)


def test_second_chance_offers_low_scored_boxes_and_keeps_the_rest_as_they_were() -> None:
    rgb = _red_and_blue_tiles()
    plain_boxes, plain_scores = _scored_detector(None).detect(rgb)
    detector = _scored_detector(0.2)
    boxes, scores, candidates, candidate_scores = detector.detect_with_candidates(rgb)
    np.testing.assert_array_equal(boxes, plain_boxes)
    np.testing.assert_array_equal(scores, plain_scores)
    assert len(boxes) == 2
    np.testing.assert_allclose(candidates, [[400, 600, 444, 660]], atol=4)
    np.testing.assert_allclose(candidate_scores, [0.3])
    assert detector.session.runs == 1 + 4  # one pass: the low boxes come with the kept ones
    assert len(_scored_detector(None).detect_with_candidates(rgb)[2]) == 0


def test_clear_of_leaves_out_parts_and_doubles_of_kept_boxes() -> None:
    kept = np.array([[0, 0, 40, 60]], np.float32)
    boxes = np.array(
        [
            [100, 0, 140, 60],  # elsewhere
            [30, 0, 70, 60],  # a quarter over the kept tile: IoU 0.14, a quarter of either inside
            [20, 0, 60, 60],  # half over it: IoU 0.33
            [5, 5, 25, 30],  # inside it: a face-only box
        ],
        np.float32,
    )
    assert clear_of(boxes, kept).tolist() == [True, True, False, False]
    assert clear_of(boxes, np.zeros((0, 4), np.float32)).all()
