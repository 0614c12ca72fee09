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
