"""Transparency is composited on white, whatever mode carries it."""

from __future__ import annotations

import io
import struct

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


def _bmp_with_alpha_mask(rgb: np.ndarray, alpha: int) -> bytes:
    """A 32-bit BITMAPV5 BMP (BI_BITFIELDS, an alpha mask) of `rgb`, every alpha byte `alpha`."""
    height, width = rgb.shape[:2]
    pixels = np.dstack([rgb[:, :, ::-1], np.full((height, width), alpha, np.uint8)])[::-1]  # BGRA, bottom-up
    header = struct.pack("<IiiHHIIiiII", 124, width, height, 1, 32, 3, pixels.nbytes, 2835, 2835, 0, 0)
    header += struct.pack("<IIII", 0xFF0000, 0xFF00, 0xFF, 0xFF000000) + b"BGRs" + bytes(48)
    header += struct.pack("<IIII", 4, 0, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + 124 + pixels.nbytes, 0, 0, 138) + header + pixels.tobytes()


def test_a_bmp_s_alpha_of_zeros_throughout_is_no_transparency() -> None:
    # an audit (stage 78): a 32-bit BMP whose fourth byte goes unused (0) read as a blank white page
    rgb = np.zeros((80, 96, 3), np.uint8)
    rgb[:, :48] = (200, 30, 40)
    assert np.array_equal(read_image(_bmp_with_alpha_mask(rgb, 0)).rgb, rgb)
    assert np.array_equal(read_image(_bmp_with_alpha_mask(rgb, 255)).rgb, rgb)


def test_a_png_transparent_throughout_is_blank_as_browsers_show_it() -> None:
    # the review of that fix: a PNG or GIF transparent throughout had read black, "the photo is dark"
    rgba = np.zeros((80, 96, 4), np.uint8)
    rgba[:, :48, :3] = (200, 30, 40)
    buf = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buf, "PNG")
    assert (read_image(buf.getvalue()).rgb == 255).all()
