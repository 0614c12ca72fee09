"""Truncated and corrupt files end in one clear line, never a Pillow traceback."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.vision.imagegen import encode
from vision.imageio import ImageError, read_image

TRUNCATED = "image file is truncated (incomplete download or upload?)"


def _noise(fmt: str) -> bytes:
    rgb = np.random.default_rng(0).integers(0, 255, (200, 300, 3), np.uint8)
    return encode(Image.fromarray(rgb), fmt)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param(_noise("JPEG")[:3000], TRUNCATED, id="jpeg-half"),
        pytest.param(_noise("PNG")[:30000], TRUNCATED, id="png-half"),
        pytest.param(_noise("JPEG")[:300], TRUNCATED, id="jpeg-header-only"),
        pytest.param(
            _noise("JPEG")[:600] + bytes(range(256)) * 20,
            "image file is corrupt: cannot load this image",
            id="jpeg-garbage-body",
        ),
    ],
)
def test_truncated_or_corrupt(data: bytes, message: str) -> None:
    with pytest.raises(ImageError) as caught:
        read_image(data)
    assert str(caught.value) == message
