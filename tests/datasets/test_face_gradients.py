"""The face-gradient table the blur measure allows for: built from the tile art as committed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from datasets.face_gradients import _on_ground, main
from datasets.styles import STYLES
from vision.classes import CLASSES
from vision.sharpness import GRADIENTS_FILE, face_tensor


def test_a_face_is_laid_on_its_ground_where_clear() -> None:
    face = np.zeros((4, 4, 4), np.uint8)
    face[:2, :, :3] = 10
    face[:2, :, 3] = 255  # the top half opaque ink, the bottom half clear
    grey = _on_ground(face, (200, 200, 200))
    assert grey[:2] == pytest.approx(np.full((2, 4), 10.0), abs=0.01)
    assert grey[2:] == pytest.approx(np.full((2, 4), 200.0), abs=0.01)


def test_upright_sticks_give_gradients_across_and_a_blank_face_none() -> None:
    face = np.full((90, 64), 230.0, np.float32)
    face[15:75, 14:20] = 40.0
    face[15:75, 44:50] = 40.0
    tensor = face_tensor(face)
    assert tensor is not None and tensor[0] > 0.8 and tensor[0] + tensor[2] == pytest.approx(1.0)
    assert face_tensor(np.full((90, 64), 230.0, np.float32)) is None


def test_the_committed_table_is_what_the_installed_art_gives(tmp_path: Path) -> None:
    if any(style.missing() for style in STYLES.values()):
        pytest.skip("not every art style is installed here (bash datasets/install_art.sh)")
    out = tmp_path / "face_gradients.json"
    assert main(["--out", str(out)]) == 0
    built, committed = json.loads(out.read_text()), json.loads(GRADIENTS_FILE.read_text())
    assert list(built["tensors"]) == list(CLASSES)
    assert built["styles"] == committed["styles"]
    for code in CLASSES:
        assert built["tensors"][code] == pytest.approx(committed["tensors"][code], abs=2e-3), code


def test_a_table_that_cannot_be_written_is_one_line_before_the_styles_are_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # a folder missing was FileNotFoundError's traceback, after every style was drawn
    from datasets import face_gradients

    def no_drawing() -> None:
        raise AssertionError("the styles were drawn before --out was checked")

    monkeypatch.setattr(face_gradients, "style_tensors", no_drawing)
    for out, says in ((tmp_path / "no" / "t.json", "there is no folder"), (tmp_path, "it is a folder")):
        assert main(["--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: cannot write {out}: {says}") and err.count("\n") == 1
