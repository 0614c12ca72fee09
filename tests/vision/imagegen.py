"""Helpers the intake tests use to make their own input files in memory."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
from PIL import Image


def encode(image: Image.Image, fmt: str, **params: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **params)
    return buffer.getvalue()


def quadrants(height: int = 96, width: int = 128) -> np.ndarray:
    """An asymmetric RGB test card: four flat colours, the top-left block smaller than the others."""
    rgb = np.zeros((height, width, 3), np.uint8)
    h, w = height // 3, width // 4  # top-left block is 1/3 x 1/4: every flip or turn moves it
    rgb[:h, :w] = (255, 0, 0)
    rgb[:h, w:] = (0, 255, 0)
    rgb[h:, :w] = (0, 0, 255)
    rgb[h:, w:] = (255, 255, 0)
    return rgb


def png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def bilevel_png(width: int, height: int) -> bytes:
    """A VALID 1-bit PNG of any size, made by streaming zlib: tiny on disk, huge when decoded."""
    row = b"\x00" * (1 + (width + 7) // 8)
    compressor = zlib.compressobj(9)
    parts = [compressor.compress(row) for _ in range(height)]
    idat = b"".join(parts) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")
    )
