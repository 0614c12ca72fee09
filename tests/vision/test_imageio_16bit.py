"""16-bit PNGs keep their tones (not clipped to white) when reduced to 8 bits."""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

from tests.vision.imagegen import encode
from vision.imageio import read_image


def test_16bit_grey_png_scaled_not_clipped() -> None:
    grey16 = np.zeros((64, 64), np.uint16)
    grey16[:, :16] = 0
    grey16[:, 16:32] = 0x4000
    grey16[:, 32:48] = 0x8080
    grey16[:, 48:] = 0xFFFF
    rgb = read_image(encode(Image.fromarray(grey16), "PNG")).rgb
    np.testing.assert_array_equal(rgb[0, [0, 20, 40, 60], 0], [0, 64, 128, 255])
    assert (rgb[..., 0] == rgb[..., 2]).all()


def test_16bit_rgb_png() -> None:
    bgr16 = np.zeros((64, 64, 3), np.uint16)
    bgr16[:, :, 2] = 0xFFFF  # red, written by OpenCV in BGR order
    bgr16[:, :, 1] = 0x8080
    ok, data = cv2.imencode(".png", bgr16)
    assert ok
    rgb = read_image(data.tobytes()).rgb
    np.testing.assert_array_equal(rgb[10, 10], (255, 128, 0))


def test_a_float_tiff_of_0_to_1_and_a_32_bit_one_keep_their_tones() -> None:
    ramp = np.tile(np.array([0.0, 0.25, 0.5, 1.0], np.float32).repeat(16), (64, 1))
    unit = read_image(encode(Image.fromarray(ramp, mode="F"), "TIFF")).rgb  # was read all black
    np.testing.assert_array_equal(unit[0, [0, 20, 40, 60], 0], [0, 64, 128, 255])
    levels = read_image(encode(Image.fromarray(ramp * 255.0, mode="F"), "TIFF")).rgb  # 0..255 as it is
    np.testing.assert_array_equal(levels[0, [0, 20, 40, 60], 0], [0, 64, 128, 255])
    wide = (ramp * 2_000_000_000).astype(np.int32)  # 32-bit samples: were clipped to white by the 16-bit rule
    deep = read_image(encode(Image.fromarray(wide, mode="I"), "TIFF")).rgb
    np.testing.assert_allclose(deep[0, [0, 20, 40, 60], 0], [0, 64, 128, 255], atol=1)


def test_a_float_tiff_of_nothing_but_nan_reads_black_without_a_warning() -> None:
    import warnings

    empty = np.full((64, 64), np.nan, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's "All-NaN slice" reached the command line's stderr
        rgb = read_image(encode(Image.fromarray(empty, mode="F"), "TIFF")).rgb
    assert rgb.shape == (64, 64, 3) and not rgb.any()


def test_a_32_bit_grey_tiff_of_8_bit_values_keeps_its_tones() -> None:
    # Pillow's convert("I") of an 8-bit photo: the file says 32 bits, the values are 0..255 (was black)
    ramp = np.tile(np.array([0, 64, 128, 255], np.int32).repeat(16), (64, 1))
    rgb = read_image(encode(Image.fromarray(ramp, mode="I"), "TIFF")).rgb
    np.testing.assert_array_equal(rgb[0, [0, 20, 40, 60], 0], [0, 64, 128, 255])
    sixteen = read_image(encode(Image.fromarray(ramp * 257, mode="I"), "TIFF")).rgb  # 16-bit values
    np.testing.assert_array_equal(sixteen[0, [0, 20, 40, 60], 0], [0, 64, 128, 255])


def test_a_dark_16_bit_png_shrunk_before_converting_stays_dark() -> None:
    # shrinking takes 16-bit grey through 32 bits: its values (all under 256 here) are still 16-bit ones
    dark = np.full((400, 400), 200, np.uint16)
    rgb = read_image(encode(Image.fromarray(dark), "PNG"), max_pixels=4_000).rgb
    assert rgb.shape[0] < 400 and int(rgb.max()) <= 1
