"""bench/load_test.py's own logic: bounds, loopback only, percentiles (the run itself needs a browser)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.app.conftest import load_test
from vision.imageio import ImageError, load_image


def _jpeg(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (30, 120, 40)).save(out, "JPEG")
    return out.getvalue()


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        pytest.param("http://127.0.0.1:8501", True, id="ipv4"),
        pytest.param("http://localhost:8501/", True, id="localhost"),
        pytest.param("http://[::1]:8501", True, id="ipv6"),
        pytest.param("http://example.com", False, id="remote"),
        pytest.param("http://10.0.0.5:8501", False, id="lan"),
    ],
)
def test_only_loopback(url: str, ok: bool) -> None:
    assert load_test.is_loopback(url) is ok


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["--clients", "0"], id="no-clients"),
        pytest.param(["--clients", "17"], id="too-many-clients"),
        pytest.param(["--rounds", "21"], id="too-many-rounds"),
        pytest.param(["--url", "http://example.com"], id="remote-url"),
        pytest.param(["--photo", "/nonexistent.jpg"], id="no-photo"),
    ],
)
def test_bad_arguments_exit_2(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        load_test.parse_args(argv)
    assert exit_info.value.code == 2


def test_summary_percentiles() -> None:
    report = load_test.Report(clients=2, rounds=5, photo="x.jpg")
    report.latencies_s = [float(v) for v in range(1, 21)]  # 1..20 s
    report.requests, report.errors = 21, 1
    summary = report.summary()
    assert summary["p50_s"] == 10.5
    assert summary["p95_s"] == 19.0
    assert summary["max_s"] == 20.0
    assert summary["errors"] == 1
    empty = load_test.Report(clients=1, rounds=1, photo="x.jpg").summary()
    assert empty["p50_s"] is None and empty["p95_s"] is None


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"\x89 not an image at all" * 40, id="not-an-image"),
        pytest.param(_jpeg(400, 300)[:600], id="truncated"),
        pytest.param(_jpeg(20, 20), id="too-small"),
    ],
)
def test_a_file_the_app_refuses_counts_as_an_error(data: bytes) -> None:
    """The load test tells a refused upload from a slow one: the app's line for a file the reader
    cannot take ("NAME: " and vision.imageio's reason) matches its error pattern."""
    with pytest.raises(ImageError) as refused:
        load_image(data)
    assert load_test.PHOTO_ERROR.match(f"broken.jpg: {refused.value}")
    assert not load_test.PHOTO_ERROR.match("4 tai")
