"""`bash datasets/install_art.sh` takes no arguments: `--help` is answered and anything else refused
before apt or a download runs (it ignored them and started installing: README.md names the script)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")


def _run(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    art = tmp_path / "art"  # where it would unpack: nothing may be made there
    return subprocess.run(
        ["bash", str(ROOT / "datasets" / "install_art.sh"), *argv],
        env={**os.environ, "MAHJONG_ART_DIR": str(art)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_help_is_answered_and_nothing_is_installed(tmp_path: Path) -> None:
    done = _run(tmp_path, "--help")
    assert done.returncode == 0, done.stderr
    assert "MAHJONG_ART_DIR" in done.stdout and "MAHJONG_ART_SKIP_APT" in done.stdout
    assert not (tmp_path / "art").exists()


def test_an_argument_is_refused_in_one_line(tmp_path: Path) -> None:
    done = _run(tmp_path, "--dir", "x")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("usage: bash datasets/install_art.sh") and done.stderr.count("\n") == 1
    assert not (tmp_path / "art").exists()
