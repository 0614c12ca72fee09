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
    if fmt in ("JPEG", "WEBP"):
        params["quality"] = 100
    return encode(stored, fmt, **params)


@pytest.mark.parametrize(
    "fmt",
    [
        pytest.param("JPEG", id="jpeg"),
        pytest.param("PNG", id="png"),
        pytest.param("WEBP", id="webp"),
        pytest.param("TIFF", id="tiff"),  # Pillow turns a TIFF upright itself as it opens it
    ],
)
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


def test_the_upright_size_is_the_headers_turned_as_the_decoded_pixels_lie() -> None:
    from vision.imageio import _upright_size

    assert _upright_size((4000, 3000), 500, 375) == (4000, 3000)  # a draft at 1/8, as stored
    assert _upright_size((4000, 3000), 375, 500) == (3000, 4000)  # ... turned by its EXIF tag
    assert _upright_size((3000, 4000), 375, 500) == (3000, 4000)  # a TIFF Pillow turned as it opened it
    assert _upright_size((1001, 1000), 125, 125) == (1001, 1000)  # near square: as stored
