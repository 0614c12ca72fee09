"""An intact JPEG of 12-bit samples, which Pillow does not decode, is said to be one: it was refused as
"corrupt or cut off", as a damaged file is (an audit)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from vision.imageio import ImageError, jpeg_precision, read_image


def _jpeg(exif: bool = False) -> bytes:
    buf = io.BytesIO()
    extra = {"exif": Image.Exif().tobytes()} if exif else {}
    Image.new("RGB", (96, 64), (200, 30, 30)).save(buf, "JPEG", **extra)
    return buf.getvalue()


def _declaring(data: bytes, bits: int) -> bytes:
    """`data` with its frame header declaring `bits` a sample (as a 12-bit JPEG's does)."""
    frame = data.index(b"\xff\xc0")
    return data[: frame + 4] + bytes([bits]) + data[frame + 5 :]


@pytest.mark.parametrize("exif", [False, True], ids=["plain", "with-exif-first"])
def test_a_jpeg_s_sample_depth_is_read_off_its_frame_header(exif: bool) -> None:
    assert jpeg_precision(_jpeg(exif)) == 8
    assert jpeg_precision(_declaring(_jpeg(exif), 12)) == 12


@pytest.mark.parametrize(
    "data", [b"\xff\xd8\xff", b"\xff\xd8\xff\xe0\x00", b"\xff\xd8\xff\xda\x00\x08" + bytes(8)], ids=repr
)
def test_no_frame_header_is_none(data: bytes) -> None:
    assert jpeg_precision(data) is None


def test_a_12_bit_jpeg_is_said_to_be_one() -> None:
    with pytest.raises(ImageError) as caught:
        read_image(_declaring(_jpeg(), 12))
    assert str(caught.value).startswith("image file is a 12-bit JPEG, which this reader cannot decode")


def test_a_damaged_jpeg_is_still_said_damaged() -> None:
    with pytest.raises(ImageError, match="corrupt or cut off"):
        read_image(b"\xff\xd8\xff" + bytes(5000))
