"""Images too small to hold a readable tile are refused; the limit itself is accepted."""

from __future__ import annotations

import pytest
from PIL import Image

from tests.vision.imagegen import encode
from vision.imageio import ImageError, load_image


@pytest.mark.parametrize(
    ("size", "message"),
    [
        pytest.param((1, 1), "image is too small: 1 x 1 pixels (at least 64 x 64 needed)", id="1px"),
        pytest.param((40, 30), "image is too small: 40 x 30 pixels (at least 64 x 64 needed)", id="40x30"),
        pytest.param(
            (2000, 63), "image is too small: 2000 x 63 pixels (at least 64 x 64 needed)", id="strip"
        ),
    ],
)
def test_tiny_refused(size: tuple[int, int], message: str) -> None:
    with pytest.raises(ImageError) as caught:
        load_image(encode(Image.new("RGB", size), "PNG"))
    assert str(caught.value) == message


def test_64_accepted() -> None:
    assert load_image(encode(Image.new("RGB", (64, 64)), "PNG")).shape == (64, 64, 3)
