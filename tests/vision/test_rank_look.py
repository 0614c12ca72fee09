"""The rank look: corner windows of a flower's or season's face, read for the number 1-4 it prints."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from onnx import TensorProto, helper, numpy_helper

from datasets.faces import BONUS_CODES, FACE_H, FACE_W, render_face
from datasets.randomized import random_recipe
from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import classifier_model, write_models
from vision.classes import CLASS_INDEX, CLASSES
from vision.glyphs import bonus_columns
from vision.pipeline import TileReader
from vision.rank_look import RANKS, RankLook, rank_scores, rank_windows
from vision.rank_look_train import WindowCut, labelled_windows, number_box_px, photo_face, variant_windows
from vision.sidecar import ModelError, RankLookConfig, parse_config

COLUMNS = bonus_columns()


def _rows(values: np.ndarray) -> np.ndarray:
    values = values + 1e-3
    return values / values.sum(axis=1, keepdims=True)


def _fixed_rank_model(path: Path, size: int, probabilities: np.ndarray) -> None:
    """An ONNX rank look that reads every window as `probabilities` (5,), whatever it shows."""
    nodes = [
        helper.make_node("ReduceMean", ["images"], ["rgb"], axes=[2, 3], keepdims=0),  # (B, 3)
        helper.make_node("MatMul", ["rgb", "zero"], ["nothing"]),  # (B, 5) of 0
        helper.make_node("Add", ["nothing", "probs_row"], ["probs"]),
    ]
    graph = helper.make_graph(
        nodes,
        "fixed_rank",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, size, size])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", len(probabilities)])],
        initializer=[
            numpy_helper.from_array(np.zeros((3, len(probabilities)), np.float32), "zero"),
            numpy_helper.from_array(probabilities.astype(np.float32)[None], "probs_row"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])
    model.ir_version = 8
    onnx.save(model, str(path))


def _look(tmp_path: Path, probabilities: np.ndarray, above: float = 0.3, least: float = 0.5) -> RankLook:
    _fixed_rank_model(tmp_path / "rank.onnx", 32, probabilities)
    session = ort.InferenceSession(str(tmp_path / "rank.onnx"), providers=["CPUExecutionProvider"])
    return RankLook.from_session(session, RankLookConfig(file="rank.onnx", above=above, least=least))


def test_a_box_scores_the_most_any_of_its_windows_gives_each_rank() -> None:
    windows = np.array(
        [
            [0.9, 0.1, 0.0, 0.0, 0.0],
            [0.2, 0.0, 0.0, 0.8, 0.0],  # box 0's second window shows a 3
            [1.0, 0.0, 0.0, 0.0, 0.0],  # box 1 shows nothing
        ]
    )
    scores = rank_scores(windows, [0, 0, 1], 3)
    np.testing.assert_allclose(scores[0], [0.1, 0.0, 0.8, 0.0])
    np.testing.assert_allclose(scores[1], 0.0)
    np.testing.assert_allclose(scores[2], 0.0)  # a box with no windows (too small) reads nothing


def test_windows_are_four_corners_per_turn_at_the_looks_size() -> None:
    face = np.zeros((80, 60, 3), np.uint8)
    windows = rank_windows(face, (0, 2), 32)
    assert len(windows) == 8
    assert all(w.shape == (32, 32, 3) and w.dtype == np.uint8 for w in windows)


def test_wider_windows_hold_a_number_set_in_from_the_corner() -> None:
    face = np.zeros((100, 80, 3), np.uint8)
    windows = rank_windows(face, (0,), 32, share_wide=0.6)
    assert len(windows) == 4 and all(w.shape == (32, 32, 3) for w in windows)
    mask = np.zeros((100, 80), np.float32)
    mask[10:25, 30:62] = 1.0  # a 二 half way across the top, as many sets print the seasons'
    # the glyph look's corner windows (0.48 of the face wide) cut it: labelled neither way there
    assert 2 not in [label for _, label in labelled_windows(face, mask, 2, WindowCut(32, (0,)))]
    wide = [label for _, label in labelled_windows(face, mask, 2, WindowCut(32, (0,), 0.6))]
    # the top-right window holds it whole; the top-left (0-0.6 too) holds part of it, left out
    assert wide == [2, 0, 0]


def _bonus_scene() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A grey photo with two tile-sized boxes, and classifier rows: one a season of rank 2 or 3 or
    the bird of 1s (unsure), one a plain suit tile."""
    rgb = np.full((200, 300, 3), 200, np.uint8)
    xyxy = np.array([[20, 20, 80, 100], [150, 30, 210, 110]], np.float32)
    tiles = np.full((2, len(CLASSES)), 1e-4)
    tiles[0, CLASS_INDEX["S2"]], tiles[0, CLASS_INDEX["S3"]], tiles[0, CLASS_INDEX["1s"]] = 0.35, 0.3, 0.3
    tiles[1, CLASS_INDEX["5p"]] = 0.99
    return rgb, xyxy, tiles / tiles.sum(axis=1, keepdims=True)


def test_a_read_rank_moves_a_season_to_that_rank_and_leaves_other_tiles(tmp_path: Path) -> None:
    rgb, xyxy, tiles = _bonus_scene()
    look = _look(tmp_path, np.array([0.05, 0.0, 0.0, 0.95, 0.0]))  # every window: a clear 3
    out = look.refine(rgb, xyxy, tiles)
    assert CLASSES[int(out[0].argmax())] == "S3"
    np.testing.assert_allclose(out[0, COLUMNS].sum(), tiles[0, COLUMNS].sum())  # only shared out
    np.testing.assert_array_equal(out[1], tiles[1])  # the suit tile is not read
    np.testing.assert_allclose(out.sum(axis=1), 1.0)


def test_a_rank_read_under_least_is_not_heard(tmp_path: Path) -> None:
    rgb, xyxy, tiles = _bonus_scene()
    look = _look(tmp_path, np.array([0.6, 0.0, 0.0, 0.4, 0.0]), least=0.5)
    np.testing.assert_allclose(look.refine(rgb, xyxy, tiles), tiles)


def test_boxes_under_above_are_not_read(tmp_path: Path) -> None:
    rgb, xyxy, tiles = _bonus_scene()
    look = _look(tmp_path, np.array([0.05, 0.0, 0.0, 0.95, 0.0]), above=0.8)
    np.testing.assert_array_equal(look.refine(rgb, xyxy, tiles), tiles)


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, (3, len(CLASSES)), elements=st.floats(0, 1)), st.integers(1, 4))
def test_a_rank_weighs_only_the_flowers_and_seasons_and_keeps_each_rows_sum(
    values: np.ndarray, rank: int
) -> None:
    from vision.glyphs import weigh

    tiles = _rows(values)
    ranks = np.zeros((3, RANKS))
    ranks[:, rank - 1] = 0.9
    out = weigh(tiles, np.arange(3), COLUMNS, np.hstack([ranks, ranks]), 0.05)
    others = [i for i in range(len(CLASSES)) if i not in COLUMNS]
    np.testing.assert_array_equal(out[:, others], tiles[:, others])
    np.testing.assert_allclose(out.sum(axis=1), 1.0, atol=1e-9)
    flower, season = CLASS_INDEX[f"F{rank}"], CLASS_INDEX[f"S{rank}"]
    assert np.all(out[:, flower] >= tiles[:, flower] - 1e-12)
    assert np.all(out[:, season] >= tiles[:, season] - 1e-12)


def test_a_network_of_another_size_or_other_outputs_is_refused(tmp_path: Path) -> None:
    _fixed_rank_model(tmp_path / "rank.onnx", 40, np.full(RANKS + 1, 0.2))
    session = ort.InferenceSession(str(tmp_path / "rank.onnx"), providers=["CPUExecutionProvider"])
    with pytest.raises(ModelError, match="rank look input is 40x40"):
        RankLook.from_session(session, RankLookConfig(file="rank.onnx", imgsz=32))
    _fixed_rank_model(tmp_path / "six.onnx", 32, np.full(RANKS + 2, 0.2))
    session = ort.InferenceSession(str(tmp_path / "six.onnx"), providers=["CPUExecutionProvider"])
    with pytest.raises(ModelError, match="rank look has 6 outputs"):
        RankLook.from_session(session, RankLookConfig(file="six.onnx", imgsz=32))


def test_the_rank_look_is_optional_and_validated() -> None:
    base = {
        "detector": {"file": "d.onnx", "imgsz": 64, "names": ["tile"]},
        "classifier": {"file": "c.onnx", "imgsz": 32, "names": list(CLASSES)},
    }
    assert parse_config(base, "m.json").rank_look is None
    config = parse_config({**base, "rank_look": {"file": "r.onnx", "least": 0.6}}, "m.json").rank_look
    assert config is not None and config.least == 0.6 and config.floor == RankLookConfig(file="").floor
    assert config.window_width == 0.48  # the glyph look's corner windows, as rank looks before had
    wide = parse_config({**base, "rank_look": {"file": "r.onnx", "window_width": 0.6}}, "m.json").rank_look
    assert wide is not None and wide.window_width == 0.6
    bad_settings = ({"least": 0.0}, {"above": 1.5}, {"floor": 0.0}, {"imgsz": 4}, {"shrink": 0.5})
    for bad in (*bad_settings, {"window_width": 0.1}, {"window_width": 1.2}):
        with pytest.raises(ModelError, match="rank_look"):
            parse_config({**base, "rank_look": {"file": "r.onnx", **bad}}, "m.json")


# ---------------------------------------------------------------- training windows, from the generator


def _numbered_recipe():  # the first randomised set that prints numbers on its bonus tiles
    return next(r for r in (random_recipe(v) for v in range(500_000, 500_050)) if r.layout.bonus_numbers)


def test_the_number_box_lies_on_the_face_where_its_ink_is() -> None:
    recipe = _numbered_recipe()
    code = "F3"
    box = number_box_px(recipe, code)
    assert box is not None
    x0, y0, x1, y1 = (round(v) for v in box)
    assert 0 <= x0 < x1 <= FACE_W and 0 <= y0 < y1 <= FACE_H
    face = render_face(recipe, code)[..., :3].astype(np.int32)
    ground = np.array(recipe.palette.ground)
    inked = np.abs(face - ground).sum(axis=2) > 60
    # the number's box holds ink (the number) and the face holds ink outside it too (the picture)
    assert inked[y0:y1, x0:x1].mean() > 0.02
    assert number_box_px(recipe, "5p") is None


def test_windows_are_labelled_by_where_the_number_lies() -> None:
    face = np.zeros((100, 80, 3), np.uint8)
    mask = np.zeros((100, 80), np.float32)
    mask[5:20, 5:20] = 1.0  # the number in the top-left corner
    labelled = list(labelled_windows(face, mask, 3, WindowCut(32)))
    labels = [label for _, label in labelled]
    # one window per turn holds it whole, the three others none of it
    assert labels.count(3) == 4 and labels.count(0) == 12
    assert not any(label for _, label in labelled_windows(face, np.zeros_like(mask), 3, WindowCut(32)))
    # a number too small to read is labelled neither way in the windows that hold it
    speck = np.zeros_like(mask)
    speck[5:7, 5:7] = 1.0
    assert [label for _, label in labelled_windows(face, speck, 3, WindowCut(32))] == [0] * 12


def test_windows_cut_at_the_upright_turns_only_hold_the_number_as_it_stands() -> None:
    face = np.zeros((100, 80, 3), np.uint8)
    face[5:20, 5:20] = 255  # a white number in the top-left corner
    mask = np.zeros((100, 80), np.float32)
    mask[5:20, 5:20] = 1.0
    labelled = list(labelled_windows(face, mask, 2, WindowCut(32, (0, 2))))
    # two turns of four corners: upright the number is top left, upside down bottom right
    assert [label for _, label in labelled] == [2, 0, 0, 0, 0, 0, 0, 2]
    assert [label for _, label in labelled_windows(face, mask, 2, WindowCut(32, (1,)))].count(2) == 1
    upright, _ = labelled[0]
    assert upright[6:12, 6:12].mean() > 200  # the window is the face's own corner, not turned away


def test_rank_look_turns_are_parsed_and_checked() -> None:
    from vision.train import _turn_list

    assert _turn_list("0,2") == (0, 2)
    for bad in ("", "0,0", "4", "a"):
        with pytest.raises(argparse.ArgumentTypeError, match="quarter turns"):
            _turn_list(bad)


def test_a_photo_face_carries_the_numbers_mask_with_it() -> None:
    recipe = _numbered_recipe()
    box = number_box_px(recipe, "S2")
    face, mask = photo_face(render_face(recipe, "S2"), box, np.random.default_rng(0))
    assert face.dtype == np.uint8 and face.shape[:2] == mask.shape
    assert 0.0 < mask.mean() < 0.3  # the number is a corner, not the face


def test_a_sets_windows_hold_every_rank_and_none() -> None:
    recipe_variant = next(v for v in range(500_000, 500_050) if random_recipe(v).layout.bonus_numbers)
    windows, labels = variant_windows(recipe_variant, 0, WindowCut(32))
    assert windows.shape[1:] == (32, 32, 3) and len(windows) == len(labels)
    assert set(np.unique(labels)) == {0, 1, 2, 3, 4}
    assert all((labels == rank).sum() >= 2 for rank in range(1, 5))  # a flower and a season each
    assert len(BONUS_CODES) == 8


def _models_with_rank_look(directory: Path, probabilities: np.ndarray) -> Path:
    """Tiny models whose classifier reads red, green, blue as F1, 1p, 1s, and a rank look that reads
    every window as `probabilities`."""
    write_models(directory, detector_rows(scene(600, 1000), (384, 640)))
    targets = (CLASS_INDEX["F1"], CLASS_INDEX["1p"], CLASS_INDEX["1s"])
    classifier_model(directory / "tile_classifier.onnx", 32, None, targets=targets)
    _fixed_rank_model(directory / "tile_rank_look.onnx", 32, probabilities)
    path = directory / "models.json"
    data = json.loads(path.read_text())
    data["rank_look"] = {"file": "tile_rank_look.onnx", "least": 0.5}
    path.write_text(json.dumps(data))
    return directory


def test_the_reader_loads_the_rank_look_and_reads_through_it(tmp_path: Path) -> None:
    reader = TileReader.load(_models_with_rank_look(tmp_path, np.array([0.9, 0.1, 0.0, 0.0, 0.0])))
    assert reader.classifier.rank_look is not None
    # no window shows a number: every tile reads as the classifier says
    assert reader.read(scene(600, 1000).rgb).detections.codes == ["F1", "1p", "1s"]


def test_a_missing_rank_look_file_is_a_one_line_model_error(tmp_path: Path) -> None:
    directory = _models_with_rank_look(tmp_path, np.array([0.9, 0.1, 0.0, 0.0, 0.0]))
    (directory / "tile_rank_look.onnx").unlink()
    with pytest.raises(ModelError, match=r"tile_rank_look\.onnx is missing"):
        TileReader.load(directory)


def test_unnumbered_styles_give_empty_windows_and_missing_art_is_passed_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import vision.rank_look_train as training

    monkeypatch.setattr(training, "UNNUMBERED", {"procedural": ("F1", "S2"), "no_such_style": ("F1",)})
    windows, labels = training.unnumbered_windows(0, 0, WindowCut(32))
    assert windows.shape[1:] == (32, 32, 3) and 0 < len(windows) <= 32  # two faces, 16 windows each
    assert not labels.any()
    monkeypatch.setattr(training, "UNNUMBERED", {"no_such_style": ("F1",)})
    assert training.unnumbered_windows(0, 0, WindowCut(32))[0].shape == (0, 32, 32, 3)
