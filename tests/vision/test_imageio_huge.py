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


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "I;16", "P"])
def test_a_photo_far_over_budget_is_shrunk_before_it_is_converted_and_reads_as_a_resize(mode: str) -> None:
    upright = quadrants(600, 800)
    image = Image.fromarray(upright)
    if mode == "RGBA":
        image = image.convert("RGBA")
    elif mode == "L":
        image = image.convert("L")
    elif mode == "I;16":  # 16-bit grey: the quadrants' grey levels times 257
        image = Image.fromarray(np.asarray(image.convert("L")).astype(np.uint16) * 257)
    elif mode == "P":  # a palette's indices are not averaged: it is read at full size, then resized
        image = image.quantize(16)
    loaded = read_image(encode(image, "PNG"), max_pixels=30_000)  # 16 x the budget: shrunk by 4 first
    height, width = loaded.rgb.shape[:2]
    assert height * width <= 30_000 and abs(width / height - 800 / 600) < 0.02
    assert (loaded.source_width, loaded.source_height) == (800, 600)
    assert loaded.scale == pytest.approx(width / 800)
    plain = (
        np.asarray(image.convert("RGB"))
        if mode != "I;16"
        else np.repeat((np.asarray(image) // 257).astype(np.uint8)[:, :, None], 3, axis=2)
    )
    expected = np.asarray(Image.fromarray(plain).resize((width, height), Image.Resampling.BOX)).astype(int)
    assert np.abs(loaded.rgb.astype(int) - expected).mean() < 3.0
