"""A trainable ultralytics checkpoint rebuilt from a shipped ONNX model (crop classifier or detector).

Training checkpoints live outside git (`~/.cache`) and a fresh machine has none; the shipped ONNX
file is then the only copy of the weights. Export fused each convolution with its BatchNorm (one
weight and one bias), so the BatchNorm is rebuilt to fit: its running statistics are those of the
convolution's output on real inputs (crops for a classifier, scenes for the detector), its scale
and shift undo them and add the fused bias back. In eval mode the rebuilt model reads exactly as the
ONNX file does; in training mode a batch's own statistics are close to the stored ones, so
fine-tuning starts where the shipped model stands.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.ensemble import is_joined
from vision.onnx_files import OnnxFileError, load_model, metadata


@dataclass(frozen=True)
class Architecture:
    """What `vision.train` trains, and how to know it in an exported file."""

    task: str  # the ultralytics task
    yaml: str
    marker: str  # an initializer only this architecture's export holds
    classes_from: str  # an initializer whose first dimension is the class count
    description: str


CLASSIFIER = Architecture(
    "classify",
    "yolo11n-cls.yaml",
    "model.10.linear.weight",
    "model.10.linear.weight",
    "yolo11n-cls.yaml classifier",
)
DETECTOR = Architecture(
    "detect", "yolo11n.yaml", "model.23.dfl.conv.weight", "model.23.cv3.0.2.weight", "yolo11n.yaml detector"
)
ARCHITECTURES = (CLASSIFIER, DETECTOR)
BATCH = 16  # inputs per forward pass while the statistics are gathered


class RecoverError(OnnxFileError):
    """The file cannot be rebuilt as a trainable model (one line, for the command line)."""


@dataclass(frozen=True)
class BatchNorm:
    """A BatchNorm's four tensors, per channel."""

    weight: np.ndarray
    bias: np.ndarray
    running_mean: np.ndarray
    running_var: np.ndarray


def batchnorm_after_fused(fused_bias: np.ndarray, mean: np.ndarray, var: np.ndarray, eps: float) -> BatchNorm:
    """The BatchNorm that, after a convolution without bias whose output has per-channel `mean` and
    `var`, reads (in eval mode) as that convolution plus `fused_bias`; in training mode, on a batch
    with those statistics, it reads the same."""
    scale = np.sqrt(var + eps)
    return BatchNorm(weight=scale, bias=fused_bias + mean, running_mean=mean, running_var=var)


def named_weights(model: Any) -> dict[str, np.ndarray]:
    """An ONNX model's initializers by name, as float32 where `vision.train half` stored them as
    float16 behind a Cast to the weight's own name (the name the export gave it)."""
    from onnx import numpy_helper

    cast_to = {node.input[0]: node.output[0] for node in model.graph.node if node.op_type == "Cast"}
    weights = {}
    for init in model.graph.initializer:
        values = numpy_helper.to_array(init).copy()
        if init.name in cast_to and values.dtype == np.float16:
            weights[cast_to[init.name]] = values.astype(np.float32)
        else:
            weights[init.name] = values
    return weights


def onnx_weights(path: Path) -> tuple[dict[str, np.ndarray], dict[str, str], Architecture]:
    """The named initializers, the metadata and the architecture of an ONNX file; `RecoverError`
    for a non-model or a model `vision.train` does not train."""
    model = load_model(path, "recover", RecoverError)
    if is_joined(model):
        raise RecoverError(
            f"recover: {path} joins two classifiers: take it apart first (python -m vision.train split)"
        )
    weights = named_weights(model)
    for architecture in ARCHITECTURES:
        if architecture.marker in weights:
            return weights, metadata(model), architecture
    kinds = " nor a ".join(a.description for a in ARCHITECTURES)
    raise RecoverError(f"recover: {path} is neither a {kinds}")


def calibration_inputs(
    folder: Path, height: int, width: int, count: int, letterboxed: bool = False, seed: int = 0
) -> np.ndarray:
    """(N, 3, height, width) float32 RGB in 0..1: up to `count` images drawn from a data folder
    (`_image_files`): a classifier's crops, resized to the input, or a detector's scenes,
    `letterboxed` as it reads them."""
    import cv2

    from vision.letterbox import letterbox

    files = _image_files(folder, scenes=letterboxed)
    if not files:
        raise RecoverError(f"recover: no images (.jpg, .png) under {folder}")
    rng = np.random.default_rng(seed)
    chosen = rng.choice(len(files), size=min(count, len(files)), replace=False)
    inputs = []
    for index in chosen:
        bgr = cv2.imread(str(files[index]), cv2.IMREAD_COLOR)
        if bgr is None:
            continue
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        inputs.append(letterbox(rgb, height, width)[0] if letterboxed else cv2.resize(rgb, (width, height)))
    if not inputs:
        raise RecoverError(f"recover: no readable images under {folder}")
    return np.stack(inputs).transpose(0, 3, 1, 2).astype(np.float32) / 255.0


def _image_files(folder: Path, scenes: bool) -> list[Path]:
    """The images under `folder`. In a `vision.train data` folder, which holds both, a detector
    fits on the scenes its train.txt lists and a classifier on the crops under classifier/."""
    listed = folder / "train.txt"
    if scenes and listed.is_file():
        return [Path(line) for line in listed.read_text().split()]
    crops = folder / "classifier"
    root = crops if not scenes and crops.is_dir() else folder
    return sorted(p for p in root.rglob("*") if p.suffix.lower() in {".jpg", ".jpeg", ".png"})


def _set(module: Any, fitted: BatchNorm) -> None:
    """Copy `fitted` into a torch BatchNorm2d (in place, without gradients)."""
    import torch

    for field in ("weight", "bias", "running_mean", "running_var"):
        value = np.asarray(getattr(fitted, field), np.float32)
        getattr(module, field).copy_(torch.from_numpy(value))


def rebuilt(
    weights: dict[str, np.ndarray], entries: dict[str, str], inputs: np.ndarray, architecture: Architecture
) -> Any:
    """The ultralytics model of `architecture` with `weights` and BatchNorms fitted on `inputs`."""
    import torch
    from ultralytics.nn.modules import Conv
    from ultralytics.nn.tasks import ClassificationModel, DetectionModel

    kind = ClassificationModel if architecture is CLASSIFIER else DetectionModel
    model = kind(architecture.yaml, nc=weights[architecture.classes_from].shape[0], verbose=False)
    state = model.state_dict()
    convs = {name: module for name, module in model.named_modules() if isinstance(module, Conv)}
    missing = [key for key in state if ".bn." not in key and key not in weights]
    missing += [f"{name}.conv.bias" for name in convs if f"{name}.conv.bias" not in weights]
    if missing:
        raise RecoverError(f"recover: the ONNX weights do not fit {architecture.yaml} (no {missing[0]})")
    with torch.no_grad():
        for key, tensor in state.items():
            if key in weights:
                tensor.copy_(torch.from_numpy(weights[key]).reshape(tensor.shape))
        for name, conv in convs.items():
            # first pass: each BatchNorm adds the fused bias and nothing else, as the ONNX graph does
            channels = conv.bn.num_features
            identity = (np.zeros(channels, np.float32), np.full(channels, 1.0 - conv.bn.eps, np.float32))
            _set(conv.bn, batchnorm_after_fused(weights[f"{name}.conv.bias"], *identity, conv.bn.eps))
        # per channel: count, sum and sum of squares of each convolution's output, over all inputs
        sums: dict[str, list[Any]] = {name: [0, 0.0, 0.0] for name in convs}

        def keep(name: str) -> Any:
            def hook(_module: Any, _inputs: Any, output: torch.Tensor) -> None:
                total = sums[name]
                values = output.double()
                total[0] += values.numel() // values.shape[1]
                total[1] = total[1] + values.sum((0, 2, 3)).numpy()
                total[2] = total[2] + (values * values).sum((0, 2, 3)).numpy()

            return hook

        hooks = [conv.conv.register_forward_hook(keep(name)) for name, conv in convs.items()]
        model.eval()
        for start in range(0, len(inputs), BATCH):
            model(torch.from_numpy(inputs[start : start + BATCH]))
        for handle in hooks:
            handle.remove()
        for name, conv in convs.items():
            count, total, squares = sums[name]
            mean = total / count
            var = np.maximum(squares / count - mean * mean, 0.0)
            fitted = batchnorm_after_fused(weights[f"{name}.conv.bias"], mean, var, conv.bn.eps)
            _set(conv.bn, fitted)
    if "names" in entries:
        model.names = ast.literal_eval(entries["names"])
    return model


def _input_size(session: Any, entries: dict[str, str]) -> tuple[int, int]:
    """(height, width) of the model's input: its fixed shape, else the exported `imgsz`."""
    shape = session.get_inputs()[0].shape
    if isinstance(shape[-2], int) and isinstance(shape[-1], int):
        return shape[-2], shape[-1]
    size = ast.literal_eval(entries.get("imgsz", "[96, 96]"))
    return (size, size) if isinstance(size, int) else (int(size[0]), int(size[-1]))


def _outputs(model: Any, inputs: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        out = model(torch.from_numpy(inputs))
    return np.asarray((out[0] if isinstance(out, (tuple, list)) else out).numpy())


def recover(onnx_path: Path, data_folder: Path, out: Path, count: int = 256) -> float:
    """Write `out`, a checkpoint `vision.train classifier` (or `detector`) `--weights` starts from;
    returns the largest difference between its outputs and the ONNX file's on calibration inputs
    (probabilities for a classifier, box coordinates in pixels and scores for a detector)."""
    import onnxruntime as ort

    weights, entries, architecture = onnx_weights(onnx_path)  # a file that is no model is refused first
    try:
        import torch
    except ImportError as error:
        raise RecoverError(f"recover needs torch (pip install -e '.[train]'): {error}") from error
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    height, width = _input_size(session, entries)
    inputs = calibration_inputs(data_folder, height, width, count, letterboxed=architecture is DETECTOR)
    model = rebuilt(weights, entries, inputs, architecture)
    name = session.get_inputs()[0].name
    # a detector exported for one image at a time is compared on a few, one by one
    one_at_a_time = isinstance(session.get_inputs()[0].shape[0], int)
    batches = [x[None] for x in inputs[:4]] if one_at_a_time else [inputs]
    theirs = np.concatenate([np.asarray(session.run(None, {name: batch})[0]) for batch in batches])
    ours = _outputs(model, np.concatenate(batches))
    out.parent.mkdir(parents=True, exist_ok=True)
    train_args = {"task": architecture.task, "imgsz": int(height) if height == width else [height, width]}
    torch.save({"model": model, "ema": None, "train_args": train_args, "epoch": -1, "date": None}, out)
    return float(np.abs(ours - theirs).max())
