"""The pip detector's training crops: every dot and stick of the middle tile boxed, nothing else."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets.faces import FACE_H, FACE_W
from datasets.pips import CROP_SIZE, PIP_CLASSES, face_pips, main, render_sample
from datasets.randomized import random_recipe


@pytest.mark.parametrize("variant", [0, 1, 7, 12, 40])
def test_a_face_has_as_many_pips_as_its_rank_inside_it(variant: int) -> None:
    recipe = random_recipe(variant, fonts=())
    for rank in range(1, 10):
        dots = face_pips(recipe, f"{rank}p")
        assert len(dots) == rank and {p.kind for p in dots} == {PIP_CLASSES.index("dot")}
    for rank in range(2, 10):
        sticks = face_pips(recipe, f"{rank}s")
        assert len(sticks) == rank and {p.kind for p in sticks} == {PIP_CLASSES.index("stick")}
    # centred on the face (a long stick may run over its edge, where the drawing is cut: its box is
    # the stick as drawn)
    for pip in face_pips(recipe, "9p") + face_pips(recipe, "9s") + face_pips(recipe, "8s"):
        x1, y1, x2, y2 = pip.xyxy
        assert x1 < x2 and y1 < y2
        assert 0 < (x1 + x2) / 2 < FACE_W and 0 < (y1 + y2) / 2 < FACE_H


@pytest.mark.parametrize("code", ["1s", "5m", "E", "C", "P", "F1", "cat"])
def test_faces_other_than_dots_and_sticks_have_no_pips(code: str) -> None:
    assert face_pips(random_recipe(3, fonts=()), code) == []


def test_dots_drawn_where_their_boxes_say() -> None:
    from datasets.faces import render_face

    recipe = random_recipe(5, fonts=())
    face = render_face(recipe, "6p")[..., :3].astype(int)
    ground = np.array(recipe.palette.ground)
    inked = np.abs(face - ground).sum(axis=2) > 60
    inside = np.zeros_like(inked)
    for pip in face_pips(recipe, "6p"):
        x1, y1, x2, y2 = (round(v) for v in pip.xyxy)
        inside[max(0, y1 - 2) : y2 + 2, max(0, x1 - 2) : x2 + 2] = True
    # the ink of the dots lies in the boxes (the rim of the rounded face is ground-coloured)
    assert inked.sum() > 500 and (inked & ~inside).sum() < 0.03 * inked.sum()


def test_a_sample_is_the_same_for_its_seed_and_its_boxes_lie_in_the_crop() -> None:
    crop, boxes, classes, code = render_sample(11)
    again = render_sample(11)
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3) and np.array_equal(crop, again[0])
    assert np.array_equal(boxes, again[1]) and code == again[3]
    assert len(boxes) == len(classes)
    if len(boxes):
        centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        assert ((centres > 0) & (centres < CROP_SIZE)).all()


def test_the_cli_writes_a_yolo_set(tmp_path: Path) -> None:
    out = tmp_path / "pips"
    assert main(["--out", str(out), "--n", "6", "--seed", "3", "--workers", "1", "--val-every", "3"]) == 0
    assert len(list((out / "images" / "train").glob("*.jpg"))) == 4
    assert len(list((out / "images" / "val").glob("*.jpg"))) == 2
    assert "names: {0: dot, 1: stick}" in (out / "data.yaml").read_text()
    for label in (out / "labels" / "train").glob("*.txt"):
        for line in label.read_text().splitlines():
            kind, *xywh = line.split()
            assert kind in ("0", "1") and all(0 <= float(v) <= 1 for v in xywh)


def test_crops_cut_from_a_rendered_scene_box_each_pip_of_the_middle_tile() -> None:
    from datasets.pips import scene_crops
    from datasets.synth import render_scene

    for seed in range(40):
        rgb, meta = render_scene(seed, "randomized")
        crops = scene_crops(meta, rgb, np.random.default_rng(0))
        if crops:
            break
    assert crops, "no dots or bamboo tile lies whole and face up in 40 scenes"
    for crop, boxes, classes, code in crops:
        assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
        assert len(boxes) == int(code[0])
        assert set(classes.tolist()) == {PIP_CLASSES.index("dot" if code[1] == "p" else "stick")}
        centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        # the tile fills the middle of its crop (margin 0.15 around the box), so do its pips
        assert ((centres > 0.05 * CROP_SIZE) & (centres < 0.95 * CROP_SIZE)).all()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        pytest.param(["--val-every", "0"], "--val-every must be >= 1, got 0", id="val-every"),
        pytest.param(["--workers", "0"], "--workers must be 1..256, got 0", id="workers"),
        pytest.param(["--n", "0"], "--n must be >= 1, got 0", id="no-crops"),
        pytest.param(["--out", ""], "--out names no folder", id="empty-out"),
        pytest.param(["--out", "FILE"], "is a file, not a folder", id="out-a-file"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(
    argv: list[str],
    says: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # --val-every 0 and --workers 0 were tracebacks; --out "" wrote the set into the current folder
    monkeypatch.chdir(tmp_path)
    (tmp_path / "FILE").write_bytes(b"")
    given = ["--out", str(tmp_path / "set"), "--n", "2", "--workers", "1", *argv]
    assert main([str(tmp_path / "FILE") if a == "FILE" else a for a in given]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and says in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["FILE"]


def test_a_scenes_folder_without_scenes_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo = tmp_path / "typo"
    assert main(["--out", str(tmp_path / "out"), "--scenes", str(typo), "--workers", "1"]) == 2
    captured = capsys.readouterr()  # it cut nothing and said "0 crops from 0 scenes", exit 0
    assert captured.out == ""
    assert (
        captured.err == f"error: no scenes in {typo} (a python -m datasets.synth folder holds meta/*.json)\n"
    )
