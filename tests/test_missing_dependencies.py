"""Every command line started outside the environment its dependencies are in says which module is
missing and how to set it up, in one line, exit 2 (`scoring.console.run_main`): `python -m vision` did
(tests/vision/test_cli.py); `python -m datasets.synth`, `python -m vision.bench` and bench/*.py showed
ModuleNotFoundError's traceback (an audit)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUN_APP = "the module {} is not installed (a run-time dependency): run ./run app once"
RUN_TEST = "the module {} is not installed (a test dependency): run ./run test once"


def _started(start: str, blocked: str, argv: list[str]) -> subprocess.CompletedProcess[str]:
    """`start` (runpy's call for a module or a script) run as __main__ with `blocked` not importable,
    as where it is not installed."""
    code = f"import runpy, sys; sys.modules[{blocked!r}] = None; sys.argv = {argv!r}; {start}"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    ("prog", "start", "blocked", "said"),
    [
        (
            "python -m datasets.synth",
            "runpy.run_module('datasets.synth', run_name='__main__')",
            "cv2",
            RUN_APP,
        ),
        ("python -m vision.bench", "runpy.run_module('vision.bench', run_name='__main__')", "cv2", RUN_APP),
        (
            "python bench/set_offer.py",
            "runpy.run_path('bench/set_offer.py', run_name='__main__')",
            "numpy",
            RUN_APP,
        ),
        (
            "python bench/unsure_stakes.py",
            "runpy.run_path('bench/unsure_stakes.py', run_name='__main__')",
            "numpy",
            RUN_APP,
        ),
        (
            "python bench/app_rerun.py",
            "runpy.run_path('bench/app_rerun.py', run_name='__main__')",
            "streamlit",
            RUN_APP,
        ),
        (
            "python bench/load_test.py",
            "runpy.run_path('bench/load_test.py', run_name='__main__')",
            "playwright",
            RUN_TEST,
        ),
        ("python -m vision.train", "runpy.run_module('vision.train', run_name='__main__')", "cv2", RUN_APP),
        (
            "python -m vision.bench_blur",
            "runpy.run_module('vision.bench_blur', run_name='__main__')",
            "cv2",
            RUN_APP,
        ),
        (
            "python -m vision.crop_bench",
            "runpy.run_module('vision.crop_bench', run_name='__main__')",
            "cv2",
            RUN_APP,
        ),
        (
            "python -m datasets.contact_sheet",
            "runpy.run_module('datasets.contact_sheet', run_name='__main__')",
            "cv2",
            RUN_APP,
        ),
        ("python -m datasets.pips", "runpy.run_module('datasets.pips', run_name='__main__')", "cv2", RUN_APP),
        (
            "python -m datasets.face_gradients",
            "runpy.run_module('datasets.face_gradients', run_name='__main__')",
            "numpy",
            RUN_APP,
        ),
        (
            "python -m vision.train",
            "runpy.run_module('vision.train', run_name='__main__')",
            "onnx",
            "the module {} is not installed (the train extra): pip install -e '.[train]'",
        ),
    ],
)
def test_a_missing_dependency_is_one_line_that_says_how_to_set_it_up(
    prog: str, start: str, blocked: str, said: str
) -> None:
    done = _started(start, blocked, ["x", "--out", "/nonexistent/never-written", "--n", "1"])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"{prog}: {said.format(blocked)}"), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_module_of_ours_missing_is_a_bug_said_in_one_line() -> None:
    done = _started(
        "runpy.run_module('datasets.synth', run_name='__main__')", "datasets.styles", ["x", "--n", "1"]
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("python -m datasets.synth: internal error (ModuleNotFoundError)")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_a_module_of_ours_missing_in_training_is_a_bug_said_in_one_line() -> None:
    done = _started("runpy.run_module('vision.train', run_name='__main__')", "vision.crops", ["x", "--help"])
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("python -m vision.train: internal error (ModuleNotFoundError)")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
