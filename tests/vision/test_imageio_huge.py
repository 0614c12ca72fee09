"""Photos over the pixel budget are downscaled (JPEG at decode time), keeping content and aspect."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.vision.imagegen import encode, quadrants
from vision.imageio import MAX_PIXELS, read_image


@pytest.mark.parametrize("fmt", [pytest.param("JPEG", id="jpeg-draft"), pytest.param("PNG", id="png")])
def test_downscaled_to_budget(fmt: str) -> None:
    upright = quadrants(600, 800)
    loaded = read_image(encode(Image.fromarray(upright), fmt), max_pixels=100_000)
    height, width = loaded.rgb.shape[:2]
    assert height * width <= 100_000
    assert abs(width / height - 800 / 600) < 0.01
    assert (loaded.source_width, loaded.source_height) == (800, 600)
    assert loaded.scale == pytest.approx(width / 800)
    # Colours survive: sample the centre of each block, mapped to the small image.
    for y, x in [(50, 50), (50, 500), (400, 50), (400, 500)]:
        small = loaded.rgb[int(y * loaded.scale), int(x * loaded.scale)].astype(int)
        assert np.abs(small - upright[y, x]).max() <= 12


def test_default_budget_keeps_12mp_and_shrinks_larger() -> None:
    assert MAX_PIXELS >= 4032 * 3024  # a 12 MP phone photo is never resampled
    big = Image.new("RGB", (4800, 3600), (10, 200, 30))  # 17.3 MP
    loaded = read_image(encode(big, "JPEG", quality=50))
    assert loaded.rgb.shape[0] * loaded.rgb.shape[1] <= MAX_PIXELS
    assert loaded.rgb.shape[1] > 4000
