"""Zero-byte input, from memory or from disk; missing paths and directories."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.imageio import ImageError, load_image


def test_empty_bytes() -> None:
    with pytest.raises(ImageError, match=r"^file is empty \(0 bytes\)$"):
        load_image(b"")


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"")
    with pytest.raises(ImageError, match=r"^file is empty \(0 bytes\)$"):
        load_image(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match=r"^file not found$"):
        load_image(str(tmp_path / "nope.jpg"))


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match=r"^not a file$"):
        load_image(tmp_path)
