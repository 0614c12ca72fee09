"""Every command line's `--help` says what it does in whole sentences: a description taken from a
module's docstring is its first paragraph, not its first line (which cut three of them mid-sentence)."""

from __future__ import annotations

import importlib

import pytest

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
