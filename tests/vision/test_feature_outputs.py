"""`vision.feature_outputs`: a classifier's pooled features made outputs, its probabilities unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from vision.feature_outputs import FEATURE_OUTPUTS, POOLED, add_feature_outputs


def _pooled_classifier(path: Path) -> None:
    """(B, 3, 8, 8) -> pooled (B, 3) named as a YOLO-cls member's, then softmax over 4 classes."""
    nodes = [
        helper.make_node("GlobalAveragePool", ["images"], ["pool"]),
        helper.make_node("Flatten", ["pool"], [POOLED[0]]),
        helper.make_node("MatMul", [POOLED[0], "weights"], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["output0"], axis=1),
    ]
    weights = np.arange(12, dtype=np.float32).reshape(3, 4) / 10.0
    graph = helper.make_graph(
        nodes,
        "pooled",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, 8, 8])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, ["batch", 4])],
        initializer=[numpy_helper.from_array(weights, "weights")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def test_the_pooled_features_become_an_output_and_the_probabilities_stay(tmp_path: Path) -> None:
    source, target = tmp_path / "a.onnx", tmp_path / "b.onnx"
    _pooled_classifier(source)
    assert add_feature_outputs(source, target) == (FEATURE_OUTPUTS[0],)  # the graph has one member
    images = np.random.default_rng(0).random((2, 3, 8, 8), dtype=np.float32)
    before = ort.InferenceSession(str(source), providers=["CPUExecutionProvider"]).run(
        None, {"images": images}
    )
    session = ort.InferenceSession(str(target), providers=["CPUExecutionProvider"])
    assert [output.name for output in session.get_outputs()] == ["output0", FEATURE_OUTPUTS[0]]
    probabilities, features = session.run(None, {"images": images})
    np.testing.assert_array_equal(probabilities, before[0])
    np.testing.assert_allclose(features, images.mean(axis=(2, 3)), rtol=1e-5)
    # a file that has them is left as it is
    assert add_feature_outputs(target, tmp_path / "c.onnx") == ()


def test_a_missing_or_non_model_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision.feature_outputs import main

    text = tmp_path / "notes.txt"
    text.write_text("not a model")
    for path, why in ((tmp_path / "none.onnx", "FileNotFoundError"), (text, "DecodeError")):
        assert main([str(path)]) == 2  # it was onnx.load's traceback
        err = capsys.readouterr().err
        assert err == f"error: feature_outputs: cannot read {path} as an ONNX model ({why})\n"
    assert text.read_text() == "not a model"
