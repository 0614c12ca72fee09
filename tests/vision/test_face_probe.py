"""The face probe: knobs set on the randomised sets, faces laid on the cloth, readings counted."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from datasets.faces import FaceRecipe, Layout, render_face
from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import write_models
from vision.face_probe import CLOTH, face_sheet, main, parse_setting, probe, with_settings
from vision.pipeline import TileReader


def test_a_setting_changes_a_recipe_field_or_a_layout_field_in_its_own_type() -> None:
    recipe = with_settings(
        FaceRecipe(),
        [
            ("wind_inks", "rrrr"),
            ("layout.pips", "grid"),
            ("layout.bonus_number_bold", "0.05"),
            ("layout.bonus_numbers", "false"),
            ("font", "none"),
        ],
    )
    assert recipe.wind_inks == "rrrr" and recipe.font is None
    assert recipe.layout == Layout(pips="grid", bonus_number_bold=0.05, bonus_numbers=False)


@pytest.mark.parametrize(
    ("setting", "says"),
    [
        (("wind_ink", "r"), "wind_ink: no such field of FaceRecipe"),
        (("layout.wind_inks", "r"), "layout.wind_inks: no such field of Layout"),
        (("layout.bonus_number_bold", "bold"), "takes a float"),
        (("layout.bonus_numbers", "yes"), "takes true or false"),
        (("layout.art_inset", "1"), "only text, number or flag"),
    ],
)
def test_a_setting_the_recipe_cannot_take_says_why(setting: tuple[str, str], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        with_settings(FaceRecipe(), [setting])


def test_a_setting_is_field_equals_value() -> None:
    assert parse_setting(" layout.pips = grid ") == ("layout.pips", "grid")
    for text in ("wind_inks", "=r"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_setting(text)


def test_faces_lie_in_their_boxes_on_the_cloth() -> None:
    recipe = FaceRecipe()
    sheet, xyxy = face_sheet([render_face(recipe, code) for code in ("E", "5p", "F1")], height=64)
    assert xyxy.shape == (3, 4) and (xyxy[:, 3] - xyxy[:, 1] == 64).all()
    assert (xyxy[1:, 0] > xyxy[:-1, 2]).all()  # in a row, apart
    cloth = (sheet == CLOTH).all(axis=2)
    for x0, y0, x1, y1 in xyxy.astype(int):
        assert cloth[y0:y1, x0:x1].mean() < 0.05  # the face covers its box
        assert cloth[y0:y1, x1 : x1 + 10].all()  # and the cloth lies beside it
    assert cloth[:, : int(xyxy[0, 0])].all()


def test_the_probe_counts_each_face_and_each_wrong_reading(tmp_path: Path) -> None:
    # the tiny classifier reads a crop by its mean colour: the green cloth around a face reads 1p
    reader = TileReader.load(write_models(tmp_path / "models", detector_rows(scene(600, 1000), (384, 640))))
    result = probe(reader, [FaceRecipe(), FaceRecipe(wind_inks="gggg")], ["1p", "P"])
    assert result.total == {"1p": 2, "P": 2}
    assert result.right == {"1p": 2}
    assert result.confusions == {("P", "1p"): 2}
    assert result.accuracy == 0.5


def test_the_command_prints_the_knobs_and_the_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = write_models(tmp_path / "models", detector_rows(scene(600, 1000), (384, 640)))
    args = ["--models", str(models), "--sets", "2", "--codes", "1p,P", "--set", "wind_inks=rrrr"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "face probe: 2 sets (variants 60000-60001), wind_inks=rrrr"
    assert lines[1] == "  read right 2/4 (50.0%)"
    assert lines[2] == "  per face: 1p 2/2, P 0/2"
    assert lines[3] == "  confusions: P->1p x2"


def test_a_field_no_recipe_has_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = write_models(tmp_path / "models", detector_rows(scene(600, 1000), (384, 640)))
    assert main(["--models", str(models), "--sets", "1", "--set", "colour=red"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "colour: no such field of FaceRecipe" in err


def test_an_unknown_code_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--codes", "1p,Z9"])
    assert stop.value.code == 2 and "not a face's code: Z9" in capsys.readouterr().err


def test_a_style_is_read_from_its_own_faces_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    models = write_models(tmp_path / "models", detector_rows(scene(600, 1000), (384, 640)))
    assert main(["--models", str(models), "--style", "procedural", "--codes", "1p,5p"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "face probe: style procedural"
    assert lines[2].startswith("  per face: 1p 1/1, 5p ")


def test_a_style_not_installed_is_one_line_and_a_style_with_a_knob_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = write_models(tmp_path / "models", detector_rows(scene(600, 1000), (384, 640)))
    assert main(["--models", str(models), "--style", "no_such_style"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown style 'no_such_style'" in err
    with pytest.raises(SystemExit) as stop:
        main(["--models", str(models), "--style", "procedural", "--set", "wind_inks=rrrr"])
    assert stop.value.code == 2 and "a --style draws its own faces" in capsys.readouterr().err
