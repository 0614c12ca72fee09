"""The text look: a head over a text recogniser's backbone, weighed with the classifier
(vision.text_look, vision.text_look_train)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from tests.vision.textlook_faces import brush_faces as _faces
from tests.vision.textlook_faces import made_up_head as _head
from tests.vision.textlook_faces import scene_folder
from tests.vision.tinymodels import write_models
from vision.classes import CLASS_INDEX, CLASSES
from vision.pipeline import DEFAULT_MODELS_DIR, TileReader
from vision.sidecar import ModelError, TextLookConfig, parse_config
from vision.text_look import TURNS, TextLook, combine, face_crops
from vision.text_look_train import (
    TextLookError,
    backbone,
    backbone_output,
    backbone_session,
    explicit_pads,
    features,
    fused_model,
    head_probabilities,
    recogniser,
    text_look_section,
    write_features,
)

ROOT = Path(__file__).resolve().parents[2]
TRAIN = (sys.executable, "-m", "vision.train")


def _rows(n: int) -> st.SearchStrategy[np.ndarray]:
    values = arrays(np.float64, (n, len(CLASSES)), elements=st.floats(1e-4, 1.0))
    return values.map(lambda a: (a / a.sum(axis=1, keepdims=True)).astype(np.float32))


@settings(max_examples=60, deadline=None)
@given(_rows(3), _rows(3), st.floats(0.05, 0.95))
def test_combining_keeps_rows_probabilities_and_a_face_both_looks_prefer(
    tiles: np.ndarray, text: np.ndarray, weight: float
) -> None:
    joint = combine(tiles, text, weight)
    assert joint.shape == tiles.shape
    np.testing.assert_allclose(joint.sum(axis=1), 1.0, atol=1e-5)
    assert (joint >= 0).all()
    for row in range(len(tiles)):
        if tiles[row].argmax() == text[row].argmax():
            assert joint[row].argmax() == tiles[row].argmax()


def test_the_weight_moves_the_reading_from_the_classifier_to_the_text_look() -> None:
    tiles = np.full((1, len(CLASSES)), 0.01, np.float32)
    tiles[0, CLASS_INDEX["6p"]] = 0.6
    tiles[0, CLASS_INDEX["7p"]] = 0.3
    tiles /= tiles.sum()
    text = np.full((1, len(CLASSES)), 0.01, np.float32)
    text[0, CLASS_INDEX["7p"]] = 0.9
    text /= text.sum()
    read = [CLASSES[int(combine(tiles, text, w).argmax())] for w in (0.05, 0.5, 1.0)]
    assert read == ["6p", "7p", "7p"]
    np.testing.assert_allclose(combine(tiles, text, 1.0), text, atol=1e-4)


def test_each_turn_of_a_face_crop_is_the_face_turned_a_further_quarter() -> None:
    photo = np.full((120, 140, 3), 40, np.uint8)
    photo[20:100, 30:90] = 200
    photo[20:40, 30:50] = 255  # a mark in the face's top-left corner
    crops = face_crops(photo, np.array([[30, 20, 90, 100]], np.float32), 0.0, 48)
    assert crops.shape == (1, len(TURNS), 48, 48, 3)
    corners = {"top-left": (0, 0), "bottom-left": (47, 0), "bottom-right": (47, 47), "top-right": (0, 47)}
    marked = [max(corners, key=lambda c: int(crops[0, turn][corners[c]][0])) for turn in TURNS]
    # np.rot90 turns counter-clockwise, as the classifier's and the glyph look's views are turned
    assert marked == ["top-left", "bottom-left", "bottom-right", "top-right"]


def _sidecar(section: object) -> dict[str, object]:
    return {
        "detector": {"file": "d.onnx", "imgsz": 512, "names": ["tile"], "conf": 0.5},
        "classifier": {"file": "c.onnx", "imgsz": 96, "names": list(CLASSES)},
        "text_look": section,
    }


def test_the_sidecars_text_look_section_is_optional_defaulted_and_checked() -> None:
    assert parse_config(_sidecar(None)).text_look is None
    assert parse_config(_sidecar({"file": "t.onnx"})).text_look == TextLookConfig(file="t.onnx")
    for bad, message in (
        ({"file": "t.onnx", "weight": 0}, "text_look weight"),
        ({"file": "t.onnx", "weight": 1.5}, "text_look weight"),
        ({"file": "t.onnx", "shrink": 0.5}, "text_look shrink"),
        ({"file": "t.onnx", "unsure_below": 0}, "text_look unsure_below"),
        ({"file": "t.onnx", "imgsz": 8}, "text_look imgsz"),
        ({"weight": 0.3}, "missing 'file'"),
        ({"file": "t.onnx", "weight": "much"}, "malformed"),
    ):
        with pytest.raises(ModelError, match=message):
            parse_config(_sidecar(bad))


def test_the_section_the_training_command_writes_reads_back_as_its_settings() -> None:
    config = TextLookConfig(file="", weight=0.4, unsure_below=0.8, shrink=0.05, imgsz=64)
    read = parse_config(_sidecar(json.loads(json.dumps(text_look_section(config))))).text_look
    assert read == TextLookConfig(
        file="tile_text_look.onnx", weight=0.4, unsure_below=0.8, shrink=0.05, imgsz=64
    )


# The fused model, built from the installed recogniser and made-up head weights


@pytest.fixture(scope="module")
def cut() -> onnx.ModelProto:
    return backbone(recogniser())


def test_the_fused_model_computes_the_head_on_the_backbones_features(cut: onnx.ModelProto) -> None:
    photo, boxes = _faces(("1m", "E", "5p"))
    crops = face_crops(photo, boxes, 0.03, 48).reshape(-1, 48, 48, 3)
    x = features(backbone_session(cut, 1), crops)
    assert x.shape == (len(crops), 480 * 6)  # 480 channels, one row, 48 / 8 columns
    head = _head(x.shape[1])
    session = ort.InferenceSession(fused_model(cut, head, 48).SerializeToString())
    probs = session.run(None, {"images": (crops.transpose(0, 3, 1, 2) / 255.0).astype(np.float32)})[0]
    np.testing.assert_allclose(probs, head_probabilities(x, head), atol=1e-4)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-5)


def test_the_pipeline_weighs_the_text_look_in_only_when_the_sidecar_asks(
    tmp_path: Path, cut: onnx.ModelProto
) -> None:
    models = write_models(tmp_path, np.zeros((1, 5), np.float32))
    head = _head(480 * 6, favour=CLASS_INDEX["N"])
    onnx.save(fused_model(cut, head, 48), str(models / "tile_text_look.onnx"))
    photo, boxes = _faces(("1m",))
    plain = TileReader.load(models).classifier
    sidecar = json.loads((models / "models.json").read_text())
    sidecar["text_look"] = {"file": "tile_text_look.onnx", "weight": 0.9}
    (models / "models.json").write_text(json.dumps(sidecar))
    looking = TileReader.load(models).classifier
    assert plain.text_look is None and looking.text_look is not None
    assert CLASSES[int(plain.read_boxes(photo, boxes)[0][0].argmax())] != "N"
    assert CLASSES[int(looking.read_boxes(photo, boxes)[0][0].argmax())] == "N"


def test_only_the_boxes_the_classifier_is_unsure_of_are_read(cut: onnx.ModelProto) -> None:
    session = ort.InferenceSession(
        fused_model(cut, _head(480 * 6, favour=CLASS_INDEX["N"]), 48).SerializeToString()
    )
    photo, boxes = _faces(("1m", "2m"))
    tiles = np.full((2, len(CLASSES)), 0.001, np.float32)
    tiles[0, CLASS_INDEX["1m"]] = 0.95  # sure
    tiles[1, [CLASS_INDEX["2m"], CLASS_INDEX["3m"]]] = 0.3  # unsure
    tiles /= tiles.sum(axis=1, keepdims=True)
    gated = TextLook.from_session(session, TextLookConfig(file="t", weight=0.9, unsure_below=0.9))
    every = TextLook.from_session(session, TextLookConfig(file="t", weight=0.9))
    read_gated = gated.refine(photo, boxes, tiles)
    np.testing.assert_array_equal(read_gated[0], tiles[0])
    assert [CLASSES[int(row.argmax())] for row in read_gated] == ["1m", "N"]
    assert [CLASSES[int(row.argmax())] for row in every.refine(photo, boxes, tiles)] == ["N", "N"]


def test_a_text_look_of_the_wrong_classes_or_size_is_refused_in_one_line(
    tmp_path: Path, cut: onnx.ModelProto
) -> None:
    model = fused_model(cut, _head(480 * 6), 48)
    path = tmp_path / "t.onnx"
    onnx.save(model, str(path))
    session = ort.InferenceSession(str(path))
    with pytest.raises(ModelError, match="input is"):
        TextLook.from_session(session, TextLookConfig(file="t.onnx", imgsz=64))
    model.metadata_props[0].value = repr({i: f"x{i}" for i in range(len(CLASSES))})
    onnx.save(model, str(path))
    with pytest.raises(ModelError, match="trained on classes"):
        TextLook.from_session(ort.InferenceSession(str(path)), TextLookConfig(file="t.onnx"))


def test_features_are_written_for_every_tile_of_the_scenes(tmp_path: Path) -> None:
    scenes = scene_folder(tmp_path / "scenes", ("2s", "W"))
    out = tmp_path / "f.npz"
    assert write_features(scenes, out, TextLookConfig(file=""), None) == 2
    saved = np.load(out)
    assert saved["features"].shape == (2, len(TURNS), 480 * 6)
    assert [CLASSES[i] for i in saved["labels"]] == ["2s", "W"]


def test_the_training_command_refuses_a_missing_feature_file_in_one_line(tmp_path: Path) -> None:
    run = subprocess.run(
        [*TRAIN, "text-look", "--features", str(tmp_path / "no.npz"), "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode != 0
    assert run.stderr.strip().count("\n") == 0 and "text-look" in run.stderr


def test_the_training_command_refuses_too_few_features_in_one_line(tmp_path: Path) -> None:
    few = tmp_path / "few.npz"
    np.savez(few, features=np.zeros((3, len(TURNS), 8), np.float32), labels=np.array([0, 1, 2]))
    for extra, said in (([], "under one batch"), (["--epochs", "0"], "--epochs")):
        run = subprocess.run(
            [*TRAIN, "text-look", "--features", str(few), "--out", str(tmp_path / "out"), *extra],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert run.returncode != 0
        assert run.stderr.strip().count("\n") == 0 and said in run.stderr, run.stderr


# The shipped text look


def test_the_shipped_text_look_reads_most_brush_stroke_faces_alone() -> None:
    reader = TileReader.load(DEFAULT_MODELS_DIR).classifier
    assert reader.text_look is not None, "models.json ships a text look"
    codes = ("1m", "5m", "9m", "2p", "7p", "3s", "8s", "E", "N", "C", "F", "P")
    photo, boxes = _faces(codes)
    read = [CLASSES[int(p.argmax())] for p in reader.text_look.read(photo, boxes)]
    right = sum(a == b for a, b in zip(read, codes, strict=True))
    assert right >= 9, f"the text look alone read {read} for {codes}"


# Other recognisers: PP-OCRv6's backbone pads SAME_UPPER, which onnx2torch cannot convert


def _same_upper_model(pool: bool = True, kernel: int = 2) -> onnx.ModelProto:
    """A tiny recogniser-shaped graph: x (N, 3, H, W) -> a stride-2 convolution (`kernel` square) and a
    stride-2 3x3 max pool, both SAME_UPPER (odd pads at the end), then the one average pool."""
    from onnx import TensorProto, helper, numpy_helper

    shape = (4, 3, kernel, kernel)
    weight = numpy_helper.from_array(np.random.default_rng(0).normal(size=shape).astype(np.float32), "w")
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], strides=[2, 2], auto_pad="SAME_UPPER"),
        helper.make_node("MaxPool", ["c"], ["m"], kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER"),
    ]
    if pool:
        nodes.append(helper.make_node("AveragePool", ["m"], ["pooled"], kernel_shape=[1, 1]))
    graph = helper.make_graph(
        nodes,
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3, "h", "w"])],
        [helper.make_tensor_value_info("pooled" if pool else "m", TensorProto.FLOAT, None)],
        initializer=[weight],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


@pytest.mark.parametrize("size", [9, 10, 48])
def test_explicit_pads_compute_what_same_upper_does_at_that_size(size: int) -> None:
    model = _same_upper_model()
    padded = explicit_pads(model, size)
    assert not [a for n in padded.graph.node for a in n.attribute if a.name == "auto_pad"]
    x = np.random.default_rng(size).normal(size=(2, 3, size, size)).astype(np.float32)
    (want,) = ort.InferenceSession(model.SerializeToString()).run(None, {"x": x})
    (got,) = ort.InferenceSession(padded.SerializeToString()).run(None, {"x": x})
    np.testing.assert_allclose(got, want, atol=1e-5)
    pads = [list(a.ints) for n in padded.graph.node for a in n.attribute if a.name == "pads"]
    if size == 9:  # 9 px at stride 2 through a 2 px kernel: one pixel of padding, at the end
        assert pads[0] == [0, 0, 1, 1]


def test_the_backbone_ends_at_the_recognisers_one_average_pool(cut: onnx.ModelProto) -> None:
    assert backbone_output(recogniser()) == cut.graph.output[0].name == "p2o.AveragePool.1"
    assert backbone_output(_same_upper_model()) == "pooled"
    with pytest.raises(TextLookError, match="0 average pools"):
        backbone_output(_same_upper_model(pool=False))


def test_a_text_look_fused_over_another_backbone_reads_its_features() -> None:
    cut = _same_upper_model()
    crops = np.random.default_rng(1).integers(0, 255, (3, 48, 48, 3), dtype=np.uint8)
    x = features(backbone_session(cut, 1), crops)
    head = _head(x.shape[1])
    session = ort.InferenceSession(fused_model(cut, head, 48).SerializeToString())
    probs = session.run(None, {"images": (crops.transpose(0, 3, 1, 2) / 255.0).astype(np.float32)})[0]
    np.testing.assert_allclose(probs, head_probabilities(x, head), atol=1e-4)
