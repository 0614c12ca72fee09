"""Decompression bombs are refused from the header, before any pixel is decoded."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.vision.imagegen import bilevel_png
from vision.imageio import MAX_BYTES, ImageError, load_image


@pytest.mark.parametrize(
    ("width", "height", "message"),
    [
        pytest.param(
            30000, 30000, "image is too large: 900 megapixels (limit 150 megapixels)", id="30k-x-30k"
        ),
        pytest.param(
            13000, 12000, "image is too large: 13000 x 12000 pixels (limit 150 megapixels)", id="156MP"
        ),
    ],
)
def test_bomb_refused_fast(width: int, height: int, message: str) -> None:
    data = bilevel_png(width, height)
    assert len(data) < 200_000  # a real bomb: tiny file, gigabytes when decoded
    start = time.perf_counter()
    with pytest.raises(ImageError) as caught:
        load_image(data)
    assert str(caught.value) == message
    assert time.perf_counter() - start < 1.0


def test_bomb_memory_bounded() -> None:
    # In a fresh process: refusing a 900 MP bomb must not raise peak memory by more than 100 MB.
    script = (
        "import resource\n"
        "from tests.vision.imagegen import bilevel_png\n"
        "from vision.imageio import ImageError, load_image\n"
        "data = bilevel_png(30000, 30000)\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n    load_image(data)\nexcept ImageError:\n    pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert int(out.stdout.strip()) < 100_000  # kilobytes


def test_too_many_bytes() -> None:
    with pytest.raises(ImageError, match=r"^file is too large: 1\.5 MB \(limit 1 MB\)$"):
        load_image(b"\x00" * (2**20 * 3 // 2), max_bytes=2**20)
    # a stream read one byte past the limit states no size of its own (/dev/zero, an endless pipe)
    with pytest.raises(ImageError, match=r"^file is too large: over the limit of 1 MB$"):
        load_image(b"\x00" * (2**20 + 1), max_bytes=2**20)
    assert MAX_BYTES == 64 * 2**20
