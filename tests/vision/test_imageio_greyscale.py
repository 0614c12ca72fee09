"""Greyscale and bilevel images come out as three equal channels."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.vision.imagegen import encode
from vision.imageio import read_image


@pytest.mark.parametrize("fmt", [pytest.param("PNG", id="png"), pytest.param("JPEG", id="jpeg")])
def test_grey(fmt: str) -> None:
    grey = np.tile(np.arange(0, 256, 4, dtype=np.uint8), (64, 1))
    params: dict[str, object] = {"quality": 100} if fmt == "JPEG" else {}
    rgb = read_image(encode(Image.fromarray(grey, "L"), fmt, **params)).rgb
    assert rgb.shape == (64, 64, 3) and rgb.dtype == np.uint8
    assert (rgb[:, :, 0] == rgb[:, :, 1]).all() and (rgb[:, :, 1] == rgb[:, :, 2]).all()
    assert np.abs(rgb[:, :, 0].astype(int) - grey.astype(int)).max() <= 3


def test_bilevel() -> None:
    bits = Image.new("1", (64, 64), 0)
    bits.paste(1, (0, 0, 32, 64))
    rgb = read_image(encode(bits, "PNG")).rgb
    np.testing.assert_array_equal(rgb[0, 0], (255, 255, 255))
    np.testing.assert_array_equal(rgb[0, 40], (0, 0, 0))
