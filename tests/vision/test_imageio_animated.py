"""Animated GIF and WebP: the first frame is used."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from tests.vision.imagegen import encode
from vision.imageio import read_image


@pytest.mark.parametrize("fmt", [pytest.param("GIF", id="gif"), pytest.param("WEBP", id="webp")])
def test_first_frame(fmt: str) -> None:
    red = Image.new("RGB", (80, 64), (255, 0, 0))
    blue = Image.new("RGB", (80, 64), (0, 0, 255))
    params: dict[str, object] = {"save_all": True, "append_images": [blue], "duration": 100, "loop": 0}
    if fmt == "WEBP":
        params["lossless"] = True
    data = encode(red, fmt, **params)
    assert getattr(Image.open(io.BytesIO(data)), "n_frames", 1) == 2
    rgb = read_image(data).rgb
    assert rgb.shape == (64, 80, 3)
    np.testing.assert_array_equal(rgb[32, 40], (255, 0, 0))
