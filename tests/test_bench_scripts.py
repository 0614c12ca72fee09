"""bench/*.py measuring generated scenes: a folder that holds none is one line and exit 2 before the
models load (a folder mistyped printed a block of zeros, exit 0)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass's module must be found by its name (load_test's)
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


def _undescribed(help_text: str) -> list[str]:
    """The arguments `--help` lists with no words after them (an entry line with no description on
    it and none on the line under it)."""
    lines = help_text.splitlines()
    bare = []
    for k, line in enumerate(lines):
        entry = line.startswith("  ") and not line.startswith("   ")
        if entry and "  " not in line.strip():
            following = lines[k + 1] if k + 1 < len(lines) else ""
            if not following.startswith("   "):
                bare.append(line.strip())
    return bare


@pytest.mark.parametrize("name", ["set_offer", "unsure_stakes", "load_test", "app_rerun"])
def test_help_names_the_command_as_the_docs_do_and_says_what_each_argument_is(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        _script(name).main(["--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"usage: python bench/{name}.py ")  # README.md's command, not `{name}.py`
    assert _undescribed(shown) == []  # `--limit LIMIT` alone left the reader to guess
