"""A damaged photo says what is wrong in our one line only: nothing of Pillow's or numpy's on stderr."""

from __future__ import annotations

import io
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision.imageio import ImageError, read_image

ROOT = Path(__file__).resolve().parents[2]


def _tiff_with_samples_per_pixel(count: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(buf, "TIFF")
    data = bytearray(buf.getvalue())
    # the IFD entry: tag 277 (SamplesPerPixel), type SHORT, count 1, then its value (little-endian)
    entry = data.find(b"\x15\x01\x03\x00\x01\x00\x00\x00")
    data[entry + 8 : entry + 10] = count.to_bytes(2, "little")
    return bytes(data)


def test_a_tiff_pillow_logs_an_error_of_puts_nothing_on_stderr(tmp_path: Path) -> None:
    # Pillow logs "More samples per pixel than can be decoded" before it raises: with no handler,
    # Python's last resort printed it above the CLI's line. Run alone, as pytest's logging catches it.
    path = tmp_path / "damaged.tif"
    path.write_bytes(_tiff_with_samples_per_pixel(112))
    code = f"from vision.imageio import read_image\ntry:\n    read_image({str(path)!r})\n"
    code += "except ValueError:\n    pass"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60, check=True
    )
    assert done.stderr == ""
    with pytest.raises(ImageError, match="corrupt"):
        read_image(path)


def test_a_float_tiff_of_signalling_nans_and_huge_values_reads_without_a_warning() -> None:
    bits = np.full((64, 64), 0x7FA00000, dtype=np.uint32)  # a signalling NaN: numpy's multiply says invalid
    grey = bits.view(np.float32).copy()
    grey[:32] = np.linspace(-3e38, 0.5, 32 * 64, dtype=np.float32).reshape(32, 64)  # * 255 overflows
    buf = io.BytesIO()
    Image.fromarray(grey, "F").save(buf, "TIFF")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rgb = read_image(buf.getvalue()).rgb
    assert rgb.shape == (64, 64, 3) and rgb.dtype == np.uint8


def _damaged(fmt: str, **save: object) -> bytes:
    """A gradient saved as `fmt`, 16 bytes at 40% of the file overwritten: its header reads, its
    image data does not decode."""
    yy, xx = np.mgrid[0:256, 0:256]
    rgb = np.stack([xx % 256, yy % 256, ((xx + yy) * 2) % 256], -1).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, fmt, **save)
    data = bytearray(buf.getvalue())
    at = len(data) * 4 // 10
    data[at : at + 16] = b"\xff" * 16
    return bytes(data)


def test_a_damaged_avif_is_a_corrupt_file_not_an_internal_error() -> None:
    # an audit (stage 78): Pillow's AVIF decoder raises RuntimeError, which was "internal error", exit 1
    pytest.importorskip("PIL.AvifImagePlugin")
    with pytest.raises(ImageError, match="image file is corrupt: Failed to decode frame 0"):
        read_image(_damaged("AVIF", quality=90))


def test_a_damaged_compressed_tiff_says_one_line_of_ours_only(tmp_path: Path) -> None:
    # an audit (stage 78): libtiff wrote "tempfile.tif: Using code not yet in table." to stderr above it,
    # and "decoder error -2" alone said nothing to a user
    path = tmp_path / "damaged.tif"
    path.write_bytes(_damaged("TIFF", compression="tiff_lzw"))
    done = subprocess.run(
        [sys.executable, "-m", "vision", str(path)], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert "its image data cannot be decoded (decoder error" in done.stderr, done.stderr


def test_an_avif_whose_header_is_damaged_is_a_corrupt_file() -> None:
    # the review of stage 78's fix: Pillow's AVIF reader raises RuntimeError when it opens one too
    pytest.importorskip("PIL.AvifImagePlugin")
    buf = io.BytesIO()
    yy, xx = np.mgrid[0:256, 0:256]
    rgb = np.stack([xx % 256, yy % 256, ((xx + yy) * 2) % 256], -1).astype(np.uint8)
    Image.fromarray(rgb).save(buf, "AVIF", quality=90)
    header = bytearray(buf.getvalue())
    header[81] ^= 0xFF
    with pytest.raises(ImageError, match="image file is corrupt"):
        read_image(bytes(header))
