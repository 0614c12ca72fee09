"""The rank look's sweep: each scene read once, the rank look's weighing replayed per setting."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.vision.scenes import detector_rows, scene
from tests.vision.test_rank_look import _models_with_rank_look
from tests.vision.tinymodels import write_models
from vision.bench_match import matched_truth
from vision.classes import CLASS_INDEX, CLASSES
from vision.rank_look_sweep import SceneReading, Setting, main, read_as, sweep, tiles_right
from vision.tile_set import assign_within_set


def _probabilities(*rows: dict[str, float]) -> np.ndarray:
    """(N, 49) rows with the given classes' probabilities and the rest spread evenly."""
    out = np.zeros((len(rows), len(CLASSES)))
    for i, row in enumerate(rows):
        rest = (1.0 - sum(row.values())) / (len(CLASSES) - len(row))
        out[i] = rest
        for code, p in row.items():
            out[i, CLASS_INDEX[code]] = p
    return out


def _scene(truth: list[str], ranks: list[list[float]], *rows: dict[str, float]) -> SceneReading:
    return SceneReading(
        "s", _probabilities(*rows), np.array([CLASS_INDEX[c] for c in truth]), np.array(ranks, np.float64)
    )


# a season the classifier reads as S2 by a little, whose corner the rank look reads as 1
SEASON = _scene(["S1"], [[0.95, 0.0, 0.0, 0.0]], {"S2": 0.5, "S1": 0.3})


def test_without_a_setting_each_tile_is_read_as_the_one_set_rule_reads_it() -> None:
    assert CLASSES[read_as(SEASON, None)[0]] == "S2"
    assert (read_as(SEASON, None) == assign_within_set(SEASON.probabilities)).all()


def test_a_heard_rank_moves_the_season_and_one_under_least_does_not() -> None:
    assert CLASSES[read_as(SEASON, Setting(above=0.3, floor=0.1, least=0.9))[0]] == "S1"
    assert CLASSES[read_as(SEASON, Setting(above=0.3, floor=0.1, least=0.96))[0]] == "S2"


def test_a_box_under_above_is_left_as_the_classifier_reads_it() -> None:
    # flowers and seasons together 0.8: read at above 0.5, not at 0.9
    assert CLASSES[read_as(SEASON, Setting(above=0.5, floor=0.1, least=0.5))[0]] == "S1"
    assert CLASSES[read_as(SEASON, Setting(above=0.9, floor=0.1, least=0.5))[0]] == "S2"


def test_the_sweep_counts_tiles_right_without_and_with_each_setting() -> None:
    # the second scene: a 5m no rank touches, and a box that matches no true tile
    other = SceneReading(
        "t", _probabilities({"5m": 0.9}, {"F1": 0.9}), np.array([CLASS_INDEX["5m"], -1]), np.zeros((2, 4))
    )
    heard, unheard = Setting(0.3, 0.1, 0.9), Setting(0.3, 0.1, 0.99)
    counts = sweep([SEASON, other], [heard, unheard])
    assert counts == {None: 1, heard: 2, unheard: 1}
    assert tiles_right(other, np.array([CLASS_INDEX["F1"], CLASS_INDEX["F1"]])) == 0


def test_boxes_match_true_boxes_one_to_one_most_confident_first() -> None:
    true_xyxy = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], np.float32)
    pred_xyxy = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [50, 50, 60, 60]], np.float32)
    # the second box is surer, so it takes the first true box; the first finds no other
    assert matched_truth(pred_xyxy, [0.5, 0.9, 0.9], true_xyxy) == [-1, 0, -1]
    assert matched_truth(pred_xyxy[:0], [], true_xyxy) == []


def _scene_folder(directory: Path, codes: list[str]) -> Path:
    """A generator-like folder (images/, meta/) holding the test scene, its tiles named `codes`."""
    sc = scene(600, 1000)
    (directory / "images").mkdir(parents=True)
    (directory / "meta").mkdir()
    Image.fromarray(sc.rgb).save(directory / "images" / "000000.png")
    tiles = [{"code": code, "xyxy": box.tolist()} for code, box in zip(codes, sc.boxes, strict=True)]
    meta = {"image": "images/000000.png", "tiles": tiles}
    (directory / "meta" / "000000.json").write_text(json.dumps(meta))
    return directory


def test_the_command_reads_the_scenes_once_and_prints_a_row_per_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = _models_with_rank_look(tmp_path / "models", np.array([0.9, 0.1, 0.0, 0.0, 0.0]))
    scenes = _scene_folder(tmp_path / "scenes", ["F2", "1p", "1s"])  # the red tile reads F1: wrong
    assert main(["--models", str(models), str(scenes), "--floor", "0.1", "--least", "0.5,0.9"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "tiles right without the rank look: scenes 2"
    assert len(lines) == 2 + 2 * 2  # header, column names, above 0.3 / 0.5 x least 0.5 / 0.9
    assert all(line.split()[-1] == "+0" for line in lines[2:])  # no window shows a number


def test_models_without_a_rank_look_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = write_models(tmp_path / "models", detector_rows(scene(600, 1000), (384, 640)))
    assert main(["--models", str(models), str(_scene_folder(tmp_path / "scenes", ["1m", "1p", "1s"]))]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no rank_look" in err
