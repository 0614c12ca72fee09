"""EXIF orientation: all 8 values come out upright, with the upright size reported."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from PIL import Image

from tests.vision.imagegen import encode, quadrants
from vision.imageio import read_image

# How a camera stores the pixels of an upright scene for each EXIF orientation value
# (the tag tells the viewer the inverse), written independently of Pillow's table.
STORED: dict[int, Callable[[np.ndarray], np.ndarray]] = {
    1: lambda a: a,
    2: lambda a: a[:, ::-1],
    3: lambda a: a[::-1, ::-1],
    4: lambda a: a[::-1, :],
    5: lambda a: a.swapaxes(0, 1),
    6: lambda a: np.rot90(a, 1),
    7: lambda a: np.rot90(a.swapaxes(0, 1), 2),
    8: lambda a: np.rot90(a, -1),
}


def _with_orientation(upright: np.ndarray, orientation: int, fmt: str) -> bytes:
    stored = Image.fromarray(np.ascontiguousarray(STORED[orientation](upright)))
    exif = Image.Exif()
    exif[0x0112] = orientation
    params: dict[str, object] = {"exif": exif.tobytes()}
    if fmt == "JPEG":
        params["quality"] = 100
    return encode(stored, fmt, **params)


@pytest.mark.parametrize("fmt", [pytest.param("JPEG", id="jpeg"), pytest.param("PNG", id="png")])
@pytest.mark.parametrize("orientation", [pytest.param(o, id=f"exif{o}") for o in range(1, 9)])
def test_orientation_is_applied(orientation: int, fmt: str) -> None:
    upright = quadrants(96, 128)
    loaded = read_image(_with_orientation(upright, orientation, fmt))
    assert loaded.rgb.shape == upright.shape
    assert (loaded.source_width, loaded.source_height) == (128, 96)
    error = np.abs(loaded.rgb.astype(int) - upright.astype(int)).mean()
    assert error < 4.0


def test_unknown_orientation_value_is_ignored() -> None:
    upright = quadrants(96, 128)
    exif = Image.Exif()
    exif[0x0112] = 42
    loaded = read_image(encode(Image.fromarray(upright), "PNG", exif=exif.tobytes()))
    np.testing.assert_array_equal(loaded.rgb, upright)
