"""--annotate into a format that cannot hold the photo's size is refused in one line, before the photo
is read (an audit: a 1000 x 20000 photo and out.webp gave OpenCV's two lines, then "no image format for
that extension", after the whole reading)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from vision.cli import annotate_size_problem

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("name", "width", "height", "refused"),
    [
        pytest.param("out.webp", 1000, 16383, False, id="webp-at-its-limit"),
        pytest.param("out.webp", 16384, 900, True, id="webp-over"),
        pytest.param("out.WEBP", 900, 20000, True, id="webp-any-case"),
        pytest.param("out.jpg", 1000, 20000, False, id="jpeg-under"),
        pytest.param("out.jpeg", 64, 65536, True, id="jpeg-over"),
        pytest.param("out.png", 64, 250000, False, id="png-holds-any"),
    ],
)
def test_a_format_s_most_pixels_a_side(name: str, width: int, height: int, refused: bool) -> None:
    problem = annotate_size_problem(name, width, height)
    assert (problem is not None) == refused
    if problem:
        assert problem.startswith(f"cannot write {name}: ") and f"would be {width} x {height}" in problem


def test_the_cli_says_it_in_one_line_before_reading(tmp_path: Path) -> None:
    photo = tmp_path / "tall.jpg"
    Image.new("RGB", (1000, 20000), (40, 90, 60)).save(photo, quality=50)
    out = tmp_path / "out.webp"
    # no models: had the photo been read, this would say the models folder is missing instead
    done = subprocess.run(
        [sys.executable, "-m", "vision", str(photo), "--annotate", str(out), "--models", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert done.stderr.count("\n") == 1, done.stderr
    # the picture drawn is the photo as read: 16 megapixels at most, here 894 x 17888
    assert "holds at most 16383 pixels a side, and this one would be 894 x 17888" in done.stderr
    assert not out.exists()
