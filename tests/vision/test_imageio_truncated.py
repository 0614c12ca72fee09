"""Truncated and corrupt files end in one clear line, never a Pillow traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
        pytest.param(_noise("WEBP")[:5000], TRUNCATED, id="webp-half"),  # its decoder says no more
        pytest.param(
            _noise("GIF")[:200], "image file is corrupt or cut off (it begins as a GIF file)", id="gif-header"
        ),
        pytest.param(
            _noise("TIFF")[:16],
            "image file is corrupt or cut off (it begins as a TIFF file)",
            id="tiff-header",
            # pytest shows the warning vision.imageio silences for the command line (test below)
            marks=pytest.mark.filterwarnings("ignore:Corrupt EXIF data"),
        ),
        pytest.param(
            _noise("PNG")[:12] + b"\x00" + _noise("PNG")[13:],
            "image file is corrupt or cut off (it begins as a PNG file)",
            id="png-header-byte",
        ),
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


def test_a_png_damaged_inside_is_refused_not_read_in_part() -> None:
    # Pillow decodes a PNG while looking for its EXIF: the damage must not hide there, leaving the
    # photo's top read and its foot blank
    whole = bytearray(_noise("PNG"))
    middle = len(whole) * 11 // 20
    whole[middle : middle + 64] = bytes(64)
    with pytest.raises(ImageError) as caught:
        read_image(bytes(whole))
    assert str(caught.value).startswith("image file is corrupt"), caught.value


def test_a_damaged_file_gives_one_line_and_no_warning(tmp_path: Path) -> None:
    photo = tmp_path / "cut.tiff"
    photo.write_bytes(_noise("TIFF")[:16])  # Pillow warns "Corrupt EXIF data" on this one
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "vision", str(photo)], capture_output=True, text=True, cwd=repo
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "corrupt or cut off" in done.stderr


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b"\x00\x00\x00\x1cftypavif", "AVIF"),
        (b"\x00\x00\x00\x18ftypheic", "HEIC"),
        (b"BM\x36\x00\x0c\x00\x00\x00\x00\x00\x36\x00", "BMP"),
        (b"BMW service notes", None),  # two letters alone make no bitmap
        (b"%PDF-1.7", None),
    ],
)
def test_a_file_s_first_bytes_name_its_format(head: bytes, kind: str | None) -> None:
    from vision.imageio import signature_format

    assert signature_format(head + bytes(20)) == kind
