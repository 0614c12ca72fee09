"""Square tile crops: geometry, padding outside the image, and resizing."""

from __future__ import annotations

import numpy as np
import pytest

from vision.crops import PAD_VALUE, crop_tiles, square_crop_boxes


@pytest.mark.parametrize(
    ("box", "margin", "expected"),
    [
        pytest.param([10, 10, 20, 20], 0.0, [10, 10, 20, 20], id="square-no-margin"),
        pytest.param([10, 10, 20, 40], 0.0, [0, 10, 30, 40], id="tall-widened"),
        pytest.param([0, 0, 40, 20], 0.5, [-10, -20, 50, 40], id="wide-with-margin"),
        pytest.param([5, 5, 5, 5], 0.2, [5, 5, 5, 5], id="degenerate-point"),
    ],
)
def test_square_crop_boxes(box: list[float], margin: float, expected: list[float]) -> None:
    np.testing.assert_allclose(square_crop_boxes(np.array([box]), margin), [expected])


def test_square_crop_boxes_empty() -> None:
    assert square_crop_boxes(np.zeros((0, 4)), 0.15).shape == (0, 4)


def test_square_crop_boxes_rejects_negative_margin() -> None:
    with pytest.raises(ValueError, match="margin must be >= 0"):
        square_crop_boxes(np.array([[0, 0, 1, 1]]), -0.1)


def test_crop_tiles_empty() -> None:
    rgb = np.zeros((50, 50, 3), np.uint8)
    assert crop_tiles(rgb, np.zeros((0, 4)), 32, 0.15).shape == (0, 32, 32, 3)


def test_crop_inside_image_copies_pixels() -> None:
    rgb = np.arange(100 * 100 * 3, dtype=np.uint32).reshape(100, 100, 3).astype(np.uint8)
    crops = crop_tiles(rgb, np.array([[10, 20, 26, 36]]), 16, 0.0)
    np.testing.assert_array_equal(crops[0], rgb[20:36, 10:26])


def test_crop_outside_image_is_grey() -> None:
    rgb = np.full((40, 40, 3), 7, np.uint8)
    # Square [-20, -20, 20, 20]: the top-left quadrant lies outside the image.
    crops = crop_tiles(rgb, np.array([[-20, -20, 20, 20]]), 40, 0.0)
    assert (crops[0, :20, :20] == PAD_VALUE).all()
    assert (crops[0, 20:, 20:] == 7).all()
    assert (crops[0, :20, 20:] == PAD_VALUE).all()


def test_crop_fully_outside_is_grey() -> None:
    rgb = np.zeros((40, 40, 3), np.uint8)
    crops = crop_tiles(rgb, np.array([[100, 100, 120, 120]]), 8, 0.1)
    assert (crops == PAD_VALUE).all()


def test_crop_downscales_with_area_averaging() -> None:
    # A 2x2 checkerboard of 0/200 blocks averages to 100 when shrunk 4x.
    rgb = np.zeros((8, 8, 3), np.uint8)
    rgb[::2, ::2] = 200
    rgb[1::2, 1::2] = 200
    crops = crop_tiles(rgb, np.array([[0, 0, 8, 8]]), 2, 0.0)
    assert (crops == 100).all()


def test_crop_batch_order_matches_boxes() -> None:
    rgb = np.zeros((20, 40, 3), np.uint8)
    rgb[:, 20:] = 255
    crops = crop_tiles(rgb, np.array([[25, 5, 35, 15], [5, 5, 15, 15]]), 4, 0.0)
    assert (crops[0] == 255).all() and (crops[1] == 0).all()


@pytest.mark.parametrize(
    "rgb",
    [
        pytest.param(np.zeros((10, 10), np.uint8), id="grey-2d"),
        pytest.param(np.zeros((10, 10, 4), np.uint8), id="rgba"),
        pytest.param(np.zeros((10, 10, 3), np.float32), id="float"),
    ],
)
def test_crop_tiles_rejects_bad_image(rgb: np.ndarray) -> None:
    with pytest.raises(ValueError, match="rgb must be"):
        crop_tiles(rgb, np.array([[0, 0, 5, 5]]), 8, 0.0)
