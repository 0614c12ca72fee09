"""Transparency is composited on white, whatever mode carries it."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from tests.vision.imagegen import encode
from vision.imageio import read_image


def _rgba() -> Image.Image:
    rgba = np.zeros((64, 96, 4), np.uint8)
    rgba[:, :32] = (255, 0, 0, 255)  # opaque red
    rgba[:, 32:64] = (0, 0, 0, 0)  # fully transparent
    rgba[:, 64:] = (0, 0, 0, 128)  # half-transparent black
    return Image.fromarray(rgba, "RGBA")


@pytest.mark.parametrize("fmt", [pytest.param("PNG", id="png"), pytest.param("WEBP", id="webp")])
def test_rgba_on_white(fmt: str) -> None:
    params: dict[str, object] = {"lossless": True} if fmt == "WEBP" else {}
    rgb = read_image(encode(_rgba(), fmt, **params)).rgb
    np.testing.assert_array_equal(rgb[10, 10], (255, 0, 0))
    np.testing.assert_array_equal(rgb[10, 40], (255, 255, 255))
    assert np.abs(rgb[10, 80].astype(int) - 127).max() <= 1


def test_grey_with_alpha_on_white() -> None:
    la = np.zeros((64, 64, 2), np.uint8)
    la[:, 32:] = (0, 255)
    rgb = read_image(encode(Image.fromarray(la, "LA"), "PNG")).rgb
    np.testing.assert_array_equal(rgb[5, 5], (255, 255, 255))
    np.testing.assert_array_equal(rgb[5, 40], (0, 0, 0))


def test_palette_transparency_on_white() -> None:
    palette = Image.new("P", (64, 64), 0)
    palette.putpalette([0, 0, 0, 0, 255, 0] + [0] * 762)
    palette.paste(1, (32, 0, 64, 64))
    rgb = read_image(encode(palette, "PNG", transparency=0)).rgb
    np.testing.assert_array_equal(rgb[5, 5], (255, 255, 255))
    np.testing.assert_array_equal(rgb[5, 40], (0, 255, 0))


def test_an_alpha_channel_of_zeros_throughout_is_no_transparency() -> None:
    # an audit (stage 78): a 32-bit BMP whose fourth byte is unused (0) read as a blank white page
    rgb = np.zeros((80, 96, 3), np.uint8)
    rgb[:, :48] = (200, 30, 40)
    rgba = np.dstack([rgb, np.zeros((80, 96), np.uint8)])
    buf = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buf, "PNG")
    assert np.array_equal(read_image(buf.getvalue()).rgb, rgb)
    half = rgba.copy()
    half[:, :, 3] = 255
    half[:, 48:, 3] = 0  # some of it transparent: composited on white, as before
    buf = io.BytesIO()
    Image.fromarray(half, "RGBA").save(buf, "PNG")
    assert (read_image(buf.getvalue()).rgb[:, 48:] == 255).all()
