"""Weights stored as float16 and computed as float32: half the bytes, the same outputs to float16's
precision, the embedded metadata kept."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from vision.half_weights import half_weights
from vision.train import main as train_main


def _model(path: Path) -> None:
    rng = np.random.default_rng(0)
    weight = numpy_helper.from_array(rng.normal(0, 1, (64, 64)).astype(np.float32), "weight")
    bias = numpy_helper.from_array(rng.normal(0, 1, (4,)).astype(np.float32), "bias")  # small: kept
    graph = helper.make_graph(
        [
            helper.make_node("MatMul", ["x", "weight"], ["h"]),
            helper.make_node("Relu", ["h"], ["r"]),
            helper.make_node("Slice", ["r", "starts", "ends", "axes"], ["s"]),
            helper.make_node("Add", ["s", "bias"], ["y"]),
        ],
        "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])],
        [
            weight,
            bias,
            numpy_helper.from_array(np.array([0], np.int64), "starts"),
            numpy_helper.from_array(np.array([4], np.int64), "ends"),
            numpy_helper.from_array(np.array([1], np.int64), "axes"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    helper.set_model_props(model, {"names": "{0: 'dot', 1: 'stick'}"})
    onnx.save(model, str(path))


def _run(path: Path, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return np.asarray(session.run(None, {"x": x})[0])


def test_half_weights_read_as_before_in_about_half_the_bytes(tmp_path: Path) -> None:
    source, out = tmp_path / "full.onnx", tmp_path / "half.onnx"
    _model(source)
    before, after = half_weights(source, out)
    assert after < 0.6 * before
    x = np.random.default_rng(1).normal(0, 1, (3, 64)).astype(np.float32)
    np.testing.assert_allclose(_run(out, x), _run(source, x), rtol=0, atol=0.05)
    halved = onnx.load(str(out))
    kinds = {w.name: w.data_type for w in halved.graph.initializer}
    assert kinds["weight_fp16"] == TensorProto.FLOAT16 and kinds["bias"] == TensorProto.FLOAT
    assert {p.key: p.value for p in halved.metadata_props}["names"] == "{0: 'dot', 1: 'stick'}"


def test_the_train_cli_halves_a_file(tmp_path: Path) -> None:
    source, out = tmp_path / "full.onnx", tmp_path / "half.onnx"
    _model(source)
    train_main(["half", "--onnx", str(source), "--out", str(out)])
    assert out.stat().st_size < source.stat().st_size


def test_the_train_cli_refuses_a_missing_file_or_a_folder_to_write_in_one_line(tmp_path: Path) -> None:
    source = tmp_path / "full.onnx"
    _model(source)
    for args, said in (
        (["--onnx", str(tmp_path / "missing.onnx"), "--out", str(tmp_path / "half.onnx")], "no ONNX file"),
        (["--onnx", str(source), "--out", str(tmp_path)], "is a folder"),
    ):
        with pytest.raises(SystemExit) as stop:
            train_main(["half", *args])
        assert said in str(stop.value.code) and "\n" not in str(stop.value.code)
