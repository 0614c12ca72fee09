"""Every command line's `--help` says what it does in whole sentences: a description taken from a
module's docstring is its first paragraph, not its first line (which cut three of them mid-sentence)."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

MODULES = [
    "datasets.synth",
    "datasets.contact_sheet",
    "datasets.pips",
    "datasets.face_gradients",
    "vision.bench",
    "vision.bench_blur",
    "vision.layout_check",
    "vision.face_probe",
    "vision.rank_look_sweep",
    "scoring.bench",
]


@pytest.mark.parametrize("module", MODULES)
def test_help_description_is_whole_sentences(module: str, capsys: pytest.CaptureFixture[str]) -> None:
    main = importlib.import_module(module).main
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    description = capsys.readouterr().out.split("\n\n")[1]  # after the usage block
    assert description.rstrip().endswith((".", ")")), description


def undescribed(help_text: str) -> list[str]:
    """The arguments `--help` lists with no words after them (an entry line with no description on
    it and none on the line under it)."""
    lines = help_text.splitlines()
    bare = []
    for k, line in enumerate(lines):
        entry = line.startswith("  ") and not line.startswith("   ") and not line.startswith("  -h,")
        if entry and "  " not in line.strip():
            following = lines[k + 1] if k + 1 < len(lines) else ""
            if not following.startswith("   "):
                bare.append(line.strip())
    return bare


@pytest.mark.parametrize(
    "module",
    [
        *MODULES,
        "scoring",
        "vision.crop_bench",
        "vision.feature_outputs",
        "vision.ship_rule",
        "vision.gpu.subset_fonts",
    ],
)
def test_help_says_what_each_argument_is(module: str, capsys: pytest.CaptureFixture[str]) -> None:
    name = f"{module}.__main__" if module == "scoring" else module
    main = importlib.import_module(name).main
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    # `--out OUT` or `--floor FLOOR` alone left the reader to guess (face_gradients, rank_look_sweep)
    assert undescribed(capsys.readouterr().out) == []


def test_the_sample_maker_says_what_each_argument_is(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("make_samples", ROOT / "samples" / "make_samples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(SystemExit) as exit_info:
        module.main(["--help"])
    assert exit_info.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: python samples/make_samples.py ")  # as docs/app.md runs it
    assert undescribed(shown) == []
