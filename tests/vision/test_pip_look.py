"""The pip look: counts from a detector's raw output, and how a count weighs a tile's rank."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import classifier_model, write_models
from vision.classes import CLASSES
from vision.pip_look import DOT, STICK, PipLook, counts, weigh_by_count
from vision.pipeline import TileReader
from vision.sidecar import ModelError, PipLookConfig

Pip = tuple[float, float, float, int, float]  # cx, cy, size, kind, score


def _output(pips: Sequence[Pip], anchors: int = 50) -> np.ndarray:
    """A (1, 6, anchors) YOLO output with the pips (cx, cy, size, kind, score) and empty anchors."""
    out = np.zeros((1, 6, anchors), np.float32)
    for i, (cx, cy, size, kind, score) in enumerate(pips):
        out[0, :4, i] = (cx, cy, size, size)
        out[0, 4 + kind, i] = score
    return out


def test_counts_the_pips_of_the_kind_most_found_after_nms() -> None:
    six_dots = _six_dots()
    duplicate: list[Pip] = [(21.0, 21.0, 20.0, DOT, 0.8)]  # the same dot again: NMS keeps one
    weak: list[Pip] = [(100.0, 100.0, 20.0, DOT, 0.2)]  # under conf: not a dot
    stray: list[Pip] = [(110.0, 20.0, 15.0, STICK, 0.7)]  # a stick of a neighbour: not of the kind most found
    assert counts(_output(six_dots + duplicate + weak + stray), conf=0.4, iou=0.6) == [(DOT, 6)]
    assert counts(_output([]), conf=0.4, iou=0.6) == [(DOT, 0)]


def _tiles(code_probs: dict[str, float]) -> np.ndarray:
    tiles = np.zeros((1, len(CLASSES)), np.float64)
    for code, p in code_probs.items():
        tiles[0, CLASSES.index(code)] = p
    return tiles


def test_a_count_moves_the_suit_probability_to_its_rank() -> None:
    tiles = _tiles({"7p": 0.6, "6p": 0.3, "C": 0.1})
    weighed = weigh_by_count(tiles, 0, DOT, 6, floor=0.1)
    assert weighed[0].argmax() == CLASSES.index("6p")
    assert weighed[0].sum() == pytest.approx(1.0)
    # the suit's total is kept: the count says which rank, not whether it is dots
    assert weighed[0, CLASSES.index("C")] == pytest.approx(0.1)
    assert tiles[0, CLASSES.index("7p")] == 0.6  # the input is not changed


@pytest.mark.parametrize(("kind", "count"), [(STICK, 1), (STICK, 10), (DOT, 0), (DOT, 12)])
def test_a_count_no_rank_has_leaves_the_tile_as_read(kind: int, count: int) -> None:
    tiles = _tiles({"7p": 0.5, "7s": 0.5})
    assert np.array_equal(weigh_by_count(tiles, 0, kind, count, floor=0.1), tiles)


def _pip_model(path: Path, pips: Sequence[Pip], size: int = 128) -> None:
    """A pip detector that finds the same pips in every crop of a (B, 3, size, size) batch."""
    const = _output(pips)  # (1, 6, A)
    nodes = [
        helper.make_node("ReduceMean", ["images", "axes"], ["mean"], keepdims=1),  # (B, 1, 1, 1)
        helper.make_node("Reshape", ["mean", "shape"], ["per_crop"]),  # (B, 1, 1)
        helper.make_node("Mul", ["per_crop", "zero"], ["nothing"]),
        helper.make_node("Add", ["pips", "nothing"], ["output0"]),  # (B, 6, A)
    ]
    graph = helper.make_graph(
        nodes,
        "tiny_pips",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, size, size])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, ["batch", 6, const.shape[2]])],
        initializer=[
            numpy_helper.from_array(const, "pips"),
            numpy_helper.from_array(np.zeros((), np.float32), "zero"),
            numpy_helper.from_array(np.array([1, 2, 3], np.int64), "axes"),
            numpy_helper.from_array(np.array([-1, 1, 1], np.int64), "shape"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    onnx.save(model, str(path))


def _six_dots() -> list[Pip]:
    return [(20.0 + 30 * (i % 2), 20.0 + 30 * (i // 2), 20.0, DOT, 0.9) for i in range(6)]


def test_the_look_reads_a_seven_of_dots_it_counts_six_on_as_six(tmp_path: Path) -> None:
    _pip_model(tmp_path / "pips.onnx", _six_dots())
    session = ort.InferenceSession(str(tmp_path / "pips.onnx"), providers=["CPUExecutionProvider"])
    look = PipLook.from_session(session, PipLookConfig(file="pips.onnx"))
    crops = np.zeros((3, 128, 128, 3), np.uint8)
    tiles = np.vstack(
        [_tiles({"7p": 0.6, "6p": 0.3, "C": 0.1}), _tiles({"E": 0.9, "6p": 0.1}), _tiles({"7s": 1.0})]
    )
    asked: list[list[int]] = []

    def crops_of(rows: np.ndarray) -> np.ndarray:
        asked.append(list(rows))
        return crops[rows]

    read = look.refine(crops_of, tiles)
    assert asked == [[0, 2]]  # the east wind is not counted
    assert CLASSES[int(read[0].argmax())] == "6p"
    assert np.array_equal(read[1], tiles[1])
    assert np.array_equal(read[2], tiles[2])  # dots counted on what is read as bamboo: left as read


def test_a_model_that_is_no_pip_detector_is_refused(tmp_path: Path) -> None:
    classifier_model(tmp_path / "cls.onnx", 32, None)
    session = ort.InferenceSession(str(tmp_path / "cls.onnx"), providers=["CPUExecutionProvider"])
    with pytest.raises(ModelError, match="pip look: expected a"):
        PipLook.from_session(session, PipLookConfig(file="cls.onnx"))


def test_the_sidecar_turns_the_look_on_and_checks_it(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    models = write_models(tmp_path, detector_rows(sc, (384, 640)))
    assert TileReader.load(models).classifier.pip_look is None
    _pip_model(models / "tile_pips.onnx", _six_dots())
    sidecar = json.loads((models / "models.json").read_text())
    sidecar["pip_look"] = {"file": "tile_pips.onnx", "floor": 0.2}
    (models / "models.json").write_text(json.dumps(sidecar))
    look = TileReader.load(models).classifier.pip_look
    assert look is not None and look.config.floor == 0.2 and look.config.conf == 0.4
    # the tiny classifier reads colours as 1m, 1p and 1s: the 1p is counted (six dots) and stays 1p,
    # since the count says no rank the classifier gives more than nothing
    assert TileReader.load(models).read(sc.rgb).detections.codes == list(sc.codes)
    sidecar["pip_look"]["conf"] = 1.5
    (models / "models.json").write_text(json.dumps(sidecar))
    with pytest.raises(ModelError, match=r"pip_look conf must be in \(0, 1\], got 1.5"):
        TileReader.load(models)
