"""bench/*.py measuring generated scenes: a folder that holds none is one line and exit 2 before the
models load (a folder mistyped printed a block of zeros, exit 0)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["set_offer", "unsure_stakes"])
def test_a_folder_with_no_scenes_is_one_line_and_exit_2(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision.pipeline import TileReader

    def no_models(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the models were loaded for a folder with no scenes")

    monkeypatch.setattr(TileReader, "load", no_models)
    missing = tmp_path / "typo"
    assert _script(name).main([str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (
        captured.err
        == f"error: no scenes in {missing} (a python -m datasets.synth folder holds meta/*.json)\n"
    )
