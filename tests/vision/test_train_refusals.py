"""`python -m vision.train` where it cannot run: without the `train` extra each stage says so in one
line (README.md, Training data and models), and a stage's own error is named once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import vision.train as train
from tests.test_help_texts import undescribed


def test_a_stage_without_the_train_extra_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` fails as where it is not installed
    pt = tmp_path / "w.pt"
    pt.write_bytes(b"")
    with pytest.raises(SystemExit) as refused:
        train.main(["soup", "--first", str(pt), "--second", str(pt), "--out", str(tmp_path / "s.pt")])
    line = str(refused.value.code)
    assert line == "soup needs the train extra (pip install -e '.[train]'): no module named torch"
    assert "\n" not in line


def test_a_missing_module_outside_the_extra_is_not_passed_off_as_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object) -> None:  # a bug: an import of ours that does not exist
        raise ModuleNotFoundError("No module named 'vision.nowhere'", name="vision.nowhere")

    monkeypatch.setattr(train, "soup", broken)
    with pytest.raises(ModuleNotFoundError):
        train.main(["soup", "--first", "a", "--second", "b", "--out", str(tmp_path / "s.pt")])


@pytest.mark.parametrize("stage", ["text-look-features", "text-look-crops"])
def test_scenes_without_tiles_are_named_once(stage: str, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as refused:
        train.main([stage, "--scenes", str(tmp_path), "--out", str(tmp_path / "out.npz")])
    assert str(refused.value.code) == f"{stage}: no tiles under {tmp_path}/meta"


@pytest.mark.parametrize(
    "stage",
    [
        "data",
        "merge",
        "detector",
        "classifier",
        "pip-detector",
        "second-look-data",
        "soup",
        "half",
        "ensemble",
        "split",
        "recover",
        "text-look-features",
        "text-look",
        "text-look-crops",
        "text-look-tune",
        "rank-look",
        "export",
    ],
)
def test_every_stage_says_what_each_argument_is(stage: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        train.main([stage, "--help"])
    assert done.value.code == 0
    assert undescribed(capsys.readouterr().out) == []  # `--out OUT`, `--seed SEED` alone were most


def test_half_of_a_file_that_is_no_model_is_one_line(tmp_path: Path) -> None:
    text = tmp_path / "notes.onnx"
    text.write_text("not a model")
    with pytest.raises(SystemExit) as refused:  # it was protobuf's DecodeError traceback
        train.main(["half", "--onnx", str(text), "--out", str(tmp_path / "half.onnx")])
    assert str(refused.value.code) == f"half: cannot read {text} as an ONNX model (DecodeError)"
    assert not (tmp_path / "half.onnx").exists()
