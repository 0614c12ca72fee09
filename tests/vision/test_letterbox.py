"""Letterbox placement and its inverse, on square and non-square sizes."""

from __future__ import annotations

import numpy as np
import pytest

from vision.letterbox import PAD_VALUE, letterbox, plan_letterbox


@pytest.mark.parametrize(
    ("src", "dst", "resized", "pad"),
    [
        pytest.param((640, 640), (640, 640), (640, 640), (0, 0), id="identity"),
        pytest.param((3000, 4000), (640, 640), (480, 640), (0, 80), id="landscape-into-square"),
        pytest.param((4000, 3000), (640, 640), (640, 480), (80, 0), id="portrait-into-square"),
        pytest.param((3000, 4000), (480, 640), (480, 640), (0, 0), id="exact-aspect-non-square"),
        pytest.param((1000, 1000), (480, 640), (480, 480), (80, 0), id="square-into-wide"),
        pytest.param((100, 50), (384, 640), (384, 192), (224, 0), id="upscale-into-wide"),
        pytest.param((1, 1), (64, 96), (64, 64), (16, 0), id="degenerate-1px"),
    ],
)
def test_plan(
    src: tuple[int, int], dst: tuple[int, int], resized: tuple[int, int], pad: tuple[int, int]
) -> None:
    plan = plan_letterbox(*src, *dst)
    assert (plan.resized_height, plan.resized_width) == resized
    assert (plan.pad_left, plan.pad_top) == pad


def test_plan_rejects_empty() -> None:
    with pytest.raises(ValueError, match="sizes must be positive"):
        plan_letterbox(0, 10, 640, 640)


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        pytest.param((3000, 4000), (640, 640), id="landscape"),
        pytest.param((4000, 3000), (640, 640), id="portrait"),
        pytest.param((1512, 2016), (384, 640), id="non-square-model"),
        pytest.param((977, 613), (640, 480), id="odd-sizes"),
    ],
)
def test_round_trip(src: tuple[int, int], dst: tuple[int, int]) -> None:
    plan = plan_letterbox(*src, *dst)
    boxes = np.array([[0, 0, src[1], src[0]], [10.5, 20.25, 300, 400], [src[1] - 5, 1, src[1], 9]])
    np.testing.assert_allclose(plan.to_source(plan.to_target(boxes)), boxes, atol=1e-2)


def test_to_source_clips_to_image() -> None:
    plan = plan_letterbox(100, 200, 64, 64)  # image occupies rows 16..48 of the canvas
    out = plan.to_source(np.array([[-10.0, 0.0, 70.0, 64.0]]))
    np.testing.assert_allclose(out, [[0, 0, 200, 100]])
    unclipped = plan.to_source(np.array([[-10.0, 0.0, 70.0, 64.0]]), clip=False)
    assert unclipped[0, 0] < 0 and unclipped[0, 3] > 100


def test_pixels_land_where_the_plan_says() -> None:
    # A white block in a black non-square image must appear at to_target(block) in the canvas.
    rgb = np.zeros((300, 400, 3), np.uint8)
    rgb[100:200, 200:300] = 255
    canvas, plan = letterbox(rgb, 384, 640)
    assert canvas.shape == (384, 640, 3)
    x1, y1, x2, y2 = plan.to_target(np.array([[200, 100, 300, 200]]))[0].round().astype(int)
    inner = canvas[y1 + 2 : y2 - 2, x1 + 2 : x2 - 2]
    assert inner.size and (inner == 255).all()
    assert (canvas[:, : plan.pad_left] == PAD_VALUE).all()
    assert (canvas[:, plan.pad_left + plan.resized_width :] == PAD_VALUE).all()
    assert (canvas[y2 + 2 :, plan.pad_left : plan.pad_left + plan.resized_width] == 0).all()


def test_letterbox_rejects_greyscale() -> None:
    with pytest.raises(ValueError, match=r"expected an \(H, W, 3\) image"):
        letterbox(np.zeros((10, 10), np.uint8), 64, 64)
