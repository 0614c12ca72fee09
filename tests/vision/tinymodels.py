"""Tiny ONNX models with the real models' interfaces, built with onnx.helper for tests.

- detector: input `images` (1, 3, H, W); output (1, 5, A) = the given (cx, cy, w, h, score)
  rows, constant (plus 0 x the input, so the graph really consumes it).
- classifier: input (B, 3, S, S); output (B, 49) = softmax(GAIN * mean RGB @ W), where W
  sends a red crop to class `RED`, green to `GREEN`, blue to `BLUE` (or, with a 50th output,
  to "no tile"): the answer depends on the crop, so crop placement and batch order are tested
  for real. With `features`, a second output `features` (B, 3): the crop's mean RGB, its pooled look
  (`TileClassifier.describe`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from vision.classes import CLASS_INDEX, CLASSES, NOT_A_TILE

RED, GREEN, BLUE = CLASS_INDEX["1m"], CLASS_INDEX["1p"], CLASS_INDEX["1s"]
OPSET = 17


def _save(graph: onnx.GraphProto, path: Path, names: str | None) -> None:
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    if names is not None:
        helper.set_model_props(model, {"names": names})
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def detector_model(
    path: Path, rows: np.ndarray, hw: tuple[int, int], names: str | None = "{0: 'tile'}"
) -> None:
    """rows: (A, 5) of cx, cy, w, h, score in model-input pixels."""
    const = np.ascontiguousarray(np.asarray(rows, np.float32).T[None])  # (1, 5, A)
    nodes = [
        helper.make_node("ReduceMean", ["images"], ["mean"], keepdims=0),
        helper.make_node("Mul", ["mean", "zero"], ["nothing"]),
        helper.make_node("Add", ["boxes", "nothing"], ["output0"]),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny_detector",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, hw[0], hw[1]])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, list(const.shape))],
        initializer=[
            numpy_helper.from_array(const, "boxes"),
            numpy_helper.from_array(np.zeros((), np.float32), "zero"),
        ],
    )
    _save(graph, path, names)


def classifier_model(
    path: Path,
    size: int,
    batch: int | None,
    classes: int = len(CLASSES),
    names: str | None = None,
    targets: tuple[int, int, int] = (RED, GREEN, BLUE),
    features: bool = False,
    gain: float = 20.0,
) -> None:
    """`targets`: the class a red, a green and a blue crop is read as; `features`: the mean RGB given
    as an output `features` too; `gain`: how sure it is (20: nearly certain)."""
    weights = np.full((3, classes), -1.0, np.float32)
    for channel, target in enumerate(targets):
        weights[channel, target] = 1.0
    batch_dim: int | str = batch if batch is not None else "batch"
    nodes = [
        helper.make_node("ReduceMean", ["images"], ["rgb"], axes=[2, 3], keepdims=0),  # (B, 3)
        helper.make_node("MatMul", ["rgb", "weights"], ["logits"]),
        helper.make_node("Mul", ["logits", "gain"], ["scaled"]),
        helper.make_node("Softmax", ["scaled"], ["output0"], axis=1),
    ]
    outputs = [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [batch_dim, classes])]
    if features:
        nodes.append(helper.make_node("Identity", ["rgb"], ["features"]))
        outputs.append(helper.make_tensor_value_info("features", TensorProto.FLOAT, [batch_dim, 3]))
    graph = helper.make_graph(
        nodes,
        "tiny_classifier",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [batch_dim, 3, size, size])],
        outputs,
        initializer=[
            numpy_helper.from_array(weights, "weights"),
            numpy_helper.from_array(np.array(gain, np.float32), "gain"),
        ],
    )
    _save(graph, path, names)


def write_models(
    directory: Path,
    rows: np.ndarray,
    *,
    det_hw: tuple[int, int] = (384, 640),
    cls_size: int = 32,
    cls_batch: int | None = None,
    names: Sequence[str] = CLASSES,
    sidecar_hw: tuple[int, int] | None = None,
    conf: float = 0.25,
    blue_is_no_tile: bool = False,
    features: bool = False,
    cls_gain: float = 20.0,
) -> Path:
    """With `blue_is_no_tile`, the classifier has a 50th output, NOT_A_TILE, and reads blue as it; with
    `features`, it gives its crops' looks (mean RGB) too, named in the sidecar."""
    directory.mkdir(parents=True, exist_ok=True)
    detector_model(directory / "tile_detector.onnx", rows, det_hw)
    if blue_is_no_tile:
        classifier_model(
            directory / "tile_classifier.onnx",
            cls_size,
            cls_batch,
            len(CLASSES) + 1,
            targets=(RED, GREEN, len(CLASSES)),
        )
    else:
        classifier_model(
            directory / "tile_classifier.onnx", cls_size, cls_batch, features=features, gain=cls_gain
        )
    sidecar = {
        "detector": {
            "file": "tile_detector.onnx",
            "imgsz": list(sidecar_hw or det_hw),
            "names": ["tile"],
            "conf": conf,
            "iou": 0.6,
        },
        "classifier": {
            "file": "tile_classifier.onnx",
            "imgsz": cls_size,
            "names": list(names),
            "crop_margin": 0.15,
        },
    }
    if blue_is_no_tile:
        sidecar["classifier"]["reject"] = NOT_A_TILE
    if features:
        sidecar["classifier"]["features"] = ["features"]
    (directory / "models.json").write_text(json.dumps(sidecar))
    return directory
