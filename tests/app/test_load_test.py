"""bench/load_test.py's own logic: bounds, loopback only, percentiles (the run itself needs a browser)."""

from __future__ import annotations

import pytest

from tests.app.conftest import load_test


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
