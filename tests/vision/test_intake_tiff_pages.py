"""A multi-page TIFF is read at its largest page: a thumbnail before the photo is not the photo (an audit
read a 160 x 120 thumbnail on page 1 and found no tile)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

import vision.imageio
from vision.imageio import read_image


def _page(width: int, height: int, grey: int) -> Image.Image:
    return Image.new("RGB", (width, height), (grey, grey, grey))


def _tiff(*pages: Image.Image) -> bytes:
    buf = io.BytesIO()
    pages[0].save(buf, "TIFF", save_all=True, append_images=list(pages[1:]))
    return buf.getvalue()


@pytest.mark.parametrize(
    ("pages", "size", "grey"),
    [
        pytest.param([_page(96, 80, 10)], (96, 80), 10, id="one-page"),
        pytest.param([_page(96, 80, 10), _page(400, 300, 200)], (400, 300), 200, id="thumbnail-first"),
        pytest.param([_page(400, 300, 10), _page(96, 80, 200)], (400, 300), 10, id="thumbnail-after"),
        pytest.param([_page(96, 80, 10), _page(96, 80, 200)], (96, 80), 10, id="same-size-the-first"),
        pytest.param(
            [_page(80, 64, 10), _page(96, 80, 50), _page(400, 300, 200), _page(200, 150, 90)],
            (400, 300),
            200,
            id="largest-of-four",
        ),
    ],
)
def test_the_largest_page_is_read(pages: list[Image.Image], size: tuple[int, int], grey: int) -> None:
    loaded = read_image(_tiff(*pages))
    assert (loaded.source_width, loaded.source_height) == size
    assert loaded.rgb.shape == (size[1], size[0], 3) and np.all(loaded.rgb == grey)


def test_a_page_over_the_pixel_limit_is_passed_over(monkeypatch: pytest.MonkeyPatch) -> None:
    # refused whole, a page too large to read would refuse the file whose first page reads
    monkeypatch.setattr(vision.imageio, "MAX_SOURCE_PIXELS", 100_000)
    loaded = read_image(_tiff(_page(200, 150, 10), _page(400, 300, 200), _page(120, 100, 90)))
    assert (loaded.source_width, loaded.source_height) == (200, 150) and np.all(loaded.rgb == 10)


def test_an_orientation_on_the_page_read_is_applied() -> None:
    photo = _page(300, 200, 0)
    photo.paste((255, 255, 255), (0, 0, 300, 100))  # the top half white as stored
    exif = Image.Exif()
    exif[0x0112] = 3  # stored upside down: upright, the white half is at the foot
    buf = io.BytesIO()
    _page(96, 80, 90).save(buf, "TIFF", save_all=True, append_images=[photo], exif=exif.tobytes())
    rgb = read_image(buf.getvalue()).rgb
    assert rgb.shape == (200, 300, 3)
    assert rgb[:90].max() == 0 and rgb[110:].min() == 255
