"""Files with an image extension that are not images, or not a format we accept."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from tests.vision.imagegen import encode
from vision.imageio import ImageError, load_image

NOT_SUPPORTED = "not a supported image file (expected JPEG, PNG, HEIC, AVIF, WebP, GIF, BMP or TIFF)"


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"hello world\n", id="text"),
        pytest.param(b"<!doctype html><html><body>login</body></html>", id="html"),
        pytest.param(b"%PDF-1.4\n" + b"x" * 100, id="pdf"),
        pytest.param(b"PK\x03\x04" + b"\x00" * 100, id="zip"),
        # EPS would make Pillow run Ghostscript: it must be refused before that.
        pytest.param(b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 100 100\n", id="eps"),
        pytest.param(encode(Image.new("RGB", (80, 80)), "ICO"), id="ico-not-accepted"),
    ],
)
def test_not_an_image(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(data)
    with pytest.raises(ImageError) as caught:
        load_image(path)
    assert str(caught.value) == NOT_SUPPORTED


def test_wrong_extension_but_real_image_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(encode(Image.new("RGB", (80, 64), (1, 2, 3)), "PNG"))
    assert load_image(path).shape == (64, 80, 3)
