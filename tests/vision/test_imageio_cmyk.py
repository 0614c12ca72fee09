"""CMYK JPEGs (print workflows, some scanners) convert to RGB."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from tests.vision.imagegen import encode
from vision.imageio import read_image


@pytest.mark.parametrize(
    ("cmyk", "rgb"),
    [
        pytest.param((0, 255, 255, 0), (255, 0, 0), id="red"),
        pytest.param((255, 0, 255, 0), (0, 255, 0), id="green"),
        pytest.param((0, 0, 0, 0), (255, 255, 255), id="white"),
        pytest.param((0, 0, 0, 255), (0, 0, 0), id="black"),
    ],
)
def test_cmyk_jpeg(cmyk: tuple[int, int, int, int], rgb: tuple[int, int, int]) -> None:
    data = encode(Image.new("CMYK", (64, 64), cmyk), "JPEG", quality=100)
    assert Image.open(io.BytesIO(data)).mode == "CMYK"
    loaded = read_image(data).rgb
    assert np.abs(loaded[32, 32].astype(int) - np.array(rgb)).max() <= 3
