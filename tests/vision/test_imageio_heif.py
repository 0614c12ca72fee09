"""HEIC/HEIF photos (iPhone default) decode via pillow-heif."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.vision.imagegen import encode, quadrants
from vision.imageio import ImageError, read_image


def test_heic_decodes() -> None:
    upright = quadrants(128, 160)
    loaded = read_image(encode(Image.fromarray(upright), "HEIF", quality=95))
    assert loaded.format == "HEIF"
    assert loaded.rgb.shape == (128, 160, 3)
    assert np.abs(loaded.rgb.astype(int) - upright.astype(int)).mean() < 8.0


def test_truncated_heic_is_refused() -> None:
    data = encode(Image.fromarray(quadrants(128, 160)), "HEIF")
    with pytest.raises(ImageError) as caught:
        read_image(data[: len(data) // 2])
    assert str(caught.value) in {
        "image file is truncated (incomplete download or upload?)",
        "image file is corrupt or cut off (it begins as a HEIC file)",
    } or str(caught.value).startswith("image file is corrupt: ")


def test_a_cut_avif_is_named_with_its_article() -> None:
    # an audit (stage 77): "it begins as a AVIF file"
    data = encode(Image.fromarray(quadrants(64, 80)), "AVIF")
    with pytest.raises(ImageError) as caught:
        read_image(data[:40])
    assert str(caught.value) == "image file is corrupt or cut off (it begins as an AVIF file)"
