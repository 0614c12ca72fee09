"""A PNG whose text or colour-profile chunks are over Pillow's limits is read without them (an audit: one
with a 50 MB comment was refused as "corrupt: Decompressed data too large for
PngImagePlugin.MAX_TEXT_CHUNK")."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from vision.imageio import PNG_SIGNATURE, read_image, without_png_text


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(orientation: int = 1) -> bytes:
    """A 96 x 64 PNG, its left half black, its right half white, tagged with an EXIF `orientation`."""
    pixels = np.zeros((64, 96, 3), np.uint8)
    pixels[:, 48:] = 255
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, "PNG", exif=exif.tobytes())
    return buf.getvalue()


def _inserted(png: bytes, chunks: bytes, before: bytes) -> bytes:
    """`png` with `chunks` put in front of its first chunk of type `before`."""
    at = png.index(before) - 4  # the chunk's length comes before its type
    return png[:at] + chunks + png[at:]


HUGE_COMMENT = _chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"A" * 3_000_000, 9))  # 3 MB inflated
HUGE_XMP = _chunk(b"iTXt", b"XML:com.adobe.xmp\x00\x01\x00\x00\x00" + zlib.compress(b"<x/>" * 800_000, 9))
HUGE_PROFILE = _chunk(b"iCCP", b"icc\x00\x00" + zlib.compress(bytes(2_000_000), 9))
# 70 chunks of 1 MB each: each under the limit of a chunk, together over the 64 MB of text in all
MANY_COMMENTS = _chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"B" * 1_000_000, 9)) * 70


@pytest.mark.parametrize(
    ("chunks", "before"),
    [
        pytest.param(HUGE_COMMENT, b"IDAT", id="comment-before-pixels"),
        pytest.param(HUGE_COMMENT, b"IEND", id="comment-after-pixels"),
        pytest.param(HUGE_XMP, b"IDAT", id="xmp"),
        pytest.param(HUGE_PROFILE, b"IDAT", id="colour-profile"),
        pytest.param(MANY_COMMENTS, b"IDAT", id="text-over-64-mb-in-all"),
    ],
)
def test_a_png_with_text_over_pillows_limits_is_read(chunks: bytes, before: bytes) -> None:
    rgb = read_image(_inserted(_png(), chunks, before)).rgb
    assert rgb.shape == (64, 96, 3)
    assert rgb[:, :40].max() == 0 and rgb[:, 56:].min() == 255


def test_its_exif_orientation_is_still_applied() -> None:
    # orientation 6: the stored picture is turned a quarter clockwise to stand upright (black on top)
    rgb = read_image(_inserted(_png(orientation=6), HUGE_COMMENT, b"IDAT")).rgb
    assert rgb.shape == (96, 64, 3)
    assert rgb[:40].max() == 0 and rgb[56:].min() == 255


def test_without_png_text_leaves_every_other_chunk_as_it_was() -> None:
    png = _png(orientation=6)
    assert without_png_text(_inserted(png, HUGE_COMMENT + HUGE_PROFILE, b"IDAT")) == png
    assert without_png_text(png).startswith(PNG_SIGNATURE)
