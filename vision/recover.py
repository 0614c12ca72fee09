"""A trainable ultralytics checkpoint rebuilt from a shipped ONNX crop classifier.

Training checkpoints live outside git (`~/.cache`) and a fresh machine has none; the shipped ONNX
file is then the only copy of the weights. Export fused each convolution with its BatchNorm (one
weight and one bias), so the BatchNorm is rebuilt to fit: its running statistics are those of the
convolution's output on real crops, its scale and shift undo them and add the fused bias back. In
eval mode the rebuilt model reads exactly as the ONNX file does; in training mode a batch's own
statistics are close to the stored ones, so fine-tuning starts where the shipped model stands.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.onnx_files import OnnxFileError, load_model, metadata

ARCHITECTURE = "yolo11n-cls.yaml"  # what `vision.train classifier` trains (see its _cpu_model)
HEAD_WEIGHT = "model.10.linear.weight"


class RecoverError(OnnxFileError):
    """The file cannot be rebuilt as a classifier (one line, for the command line)."""


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


def onnx_weights(path: Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """The named initializers and the metadata of an ONNX file; `RecoverError` for a non-model."""
    from onnx import numpy_helper

    model = load_model(path, "recover", RecoverError)
    weights = {init.name: numpy_helper.to_array(init).copy() for init in model.graph.initializer}
    if HEAD_WEIGHT not in weights:
        raise RecoverError(f"recover: {path} is not a {ARCHITECTURE} classifier (no {HEAD_WEIGHT})")
    return weights, metadata(model)


def calibration_crops(folder: Path, size: int, count: int, seed: int = 0) -> np.ndarray:
    """(N, 3, size, size) float32 RGB in 0..1: up to `count` crops drawn from a classifier data
    folder's class subfolders, resized to the model's input."""
    import cv2

    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in {".jpg", ".jpeg", ".png"})
    if not files:
        raise RecoverError(f"recover: no crops (.jpg, .png) under {folder}")
    rng = np.random.default_rng(seed)
    chosen = rng.choice(len(files), size=min(count, len(files)), replace=False)
    crops = []
    for index in chosen:
        bgr = cv2.imread(str(files[index]), cv2.IMREAD_COLOR)
        if bgr is not None:
            crops.append(cv2.resize(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB), (size, size)))
    return np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32) / 255.0


def _set(module: Any, fitted: BatchNorm) -> None:
    """Copy `fitted` into a torch BatchNorm2d (in place, without gradients)."""
    import torch

    for field in ("weight", "bias", "running_mean", "running_var"):
        value = np.asarray(getattr(fitted, field), np.float32)
        getattr(module, field).copy_(torch.from_numpy(value))


def rebuilt(weights: dict[str, np.ndarray], entries: dict[str, str], crops: np.ndarray) -> Any:
    """The ultralytics ClassificationModel with `weights` and BatchNorms fitted on `crops`."""
    import torch
    from ultralytics.nn.modules import Conv
    from ultralytics.nn.tasks import ClassificationModel

    model = ClassificationModel(ARCHITECTURE, nc=weights[HEAD_WEIGHT].shape[0], verbose=False)
    state = model.state_dict()
    convs = {name: module for name, module in model.named_modules() if isinstance(module, Conv)}
    missing = [key for key in state if ".bn." not in key and key not in weights]
    missing += [f"{name}.conv.bias" for name in convs if f"{name}.conv.bias" not in weights]
    if missing:
        raise RecoverError(f"recover: the ONNX weights do not fit {ARCHITECTURE} (no {missing[0]})")
    with torch.no_grad():
        for key, tensor in state.items():
            if key in weights:
                tensor.copy_(torch.from_numpy(weights[key]).reshape(tensor.shape))
        statistics: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for name, conv in convs.items():
            # first pass: each BatchNorm adds the fused bias and nothing else, as the ONNX graph does
            channels = conv.bn.num_features
            identity = (np.zeros(channels, np.float32), np.full(channels, 1.0 - conv.bn.eps, np.float32))
            _set(conv.bn, batchnorm_after_fused(weights[f"{name}.conv.bias"], *identity, conv.bn.eps))

        def keep(name: str) -> Any:
            def hook(_module: Any, _inputs: Any, output: torch.Tensor) -> None:
                statistics[name] = (
                    output.mean((0, 2, 3)).numpy(),
                    output.var((0, 2, 3), unbiased=False).numpy(),
                )

            return hook

        hooks = [conv.conv.register_forward_hook(keep(name)) for name, conv in convs.items()]
        model.eval()
        model(torch.from_numpy(crops))
        for handle in hooks:
            handle.remove()
        for name, conv in convs.items():
            mean, var = statistics[name]
            _set(conv.bn, batchnorm_after_fused(weights[f"{name}.conv.bias"], mean, var, conv.bn.eps))
    if "names" in entries:
        model.names = ast.literal_eval(entries["names"])
    return model


def recover(onnx_path: Path, crops_folder: Path, out: Path, count: int = 256) -> float:
    """Write `out`, a checkpoint `vision.train classifier --weights` starts from; returns the largest
    difference between its probabilities and the ONNX file's on the calibration crops."""
    import onnxruntime as ort
    import torch

    weights, entries = onnx_weights(onnx_path)
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    size = session.get_inputs()[0].shape[-1]
    size = size if isinstance(size, int) else ast.literal_eval(entries.get("imgsz", "[96]"))[-1]
    crops = calibration_crops(crops_folder, size, count)
    model = rebuilt(weights, entries, crops)
    with torch.no_grad():
        ours = model(torch.from_numpy(crops))
    ours = (ours[0] if isinstance(ours, tuple) else ours).numpy()
    theirs = np.asarray(session.run(None, {session.get_inputs()[0].name: crops})[0])
    out.parent.mkdir(parents=True, exist_ok=True)
    train_args = {"task": "classify", "imgsz": int(size)}
    torch.save({"model": model, "ema": None, "train_args": train_args, "epoch": -1, "date": None}, out)
    return float(np.abs(ours - theirs).max())
