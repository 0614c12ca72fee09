"""Fine-tuning the text look (`vision.text_look`) end to end, at training time.

The text look's first head was trained on the recogniser's features, its backbone frozen. Here
the whole of it (the backbone's convolutions and the head) learns from the tiles' faces, starting
from the shipped file: the backbone keeps what its text taught it and learns what tiles need. Its
batch norms stay frozen (their statistics are those of the recogniser's text, which unseen sets
resemble more than any one batch of ours). Needs the `train` extra (torch, onnx2torch, onnx).

    python -m vision.train text-look-crops --scenes DIR --out CROPS.npz
    python -m vision.train text-look-tune --start models/tile_text_look.onnx --crops CROPS.npz... \
        --val VAL.npz --out DIR

The tuned weights are written back into the ONNX graph they came from (`tuned_cut`), so the file
keeps the shipped text look's inputs, outputs and operators.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from vision.sidecar import TextLookConfig
from vision.text_look import face_crops
from vision.text_look_train import (
    RECOGNISER_INPUT,
    Head,
    TextLookError,
    fused_model,
    save_text_look,
    scene_tiles,
)

if TYPE_CHECKING:
    import torch

# crops are kept at turns 0 and 1; turns 2 and 3 are those turned half round
KEPT_TURNS = (0, 1)


@dataclass(frozen=True)
class TuneSettings:
    """How long and how fast: AdamW, a linear warm-up then a cosine down to 0."""

    steps: int = 3000
    batch: int = 64
    lr_backbone: float = 3e-4
    lr_head: float = 1e-3
    warmup: int = 150
    weight_decay: float = 0.01
    label_smoothing: float = 0.1
    seed: int = 0


def scene_crops(
    scenes: Path, config: TextLookConfig, limit: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(N, 2, S, S, 3) uint8: the faces of every tile of `scenes` as `vision.text_look.face_crops`
    cuts them, at turns 0 and 1 only (a half turn of those is exact to within rounding, and halves the
    memory), and their class indices (N,)."""
    rows: list[np.ndarray] = []
    labels: list[np.ndarray] = []
    for rgb, xyxy, classes in scene_tiles(scenes, limit):
        rows.append(face_crops(rgb, xyxy, config.shrink, config.imgsz, KEPT_TURNS))
        labels.append(classes)
    if not rows:
        raise TextLookError(f"no tiles under {scenes}/meta")
    return np.concatenate(rows), np.concatenate(labels)


def write_crops(scenes: Path, out: Path, config: TextLookConfig, limit: int | None) -> int:
    """`scene_crops` of `scenes` saved to `out` (.npz: crops, labels); the tiles cut."""
    crops, labels = scene_crops(scenes, config, limit)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, crops=crops, labels=labels)
    return len(labels)


def load_crops(paths: Sequence[Path]) -> tuple[np.ndarray, np.ndarray]:
    """The crops and labels of several `write_crops` files, one after another."""
    parts = [np.load(path) for path in paths]
    sizes = {part["crops"].shape[1:] for part in parts}
    if len(sizes) != 1:
        raise TextLookError(f"crop files of different shapes {sorted(sizes)}")
    return (
        np.concatenate([part["crops"] for part in parts]),
        np.concatenate([part["labels"] for part in parts]).astype(np.int64),
    )


def turned(crops: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """(N, 3, S, S) float32 in 0..1, the model's input: crop i of `crops` (N, 2, S, S, 3) at quarter
    turn `turns[i]` (0 to 3)."""
    picked = crops[np.arange(len(crops)), turns % 2].astype(np.float32) / 255.0
    half = turns >= 2
    picked[half] = picked[half, ::-1, ::-1]
    return np.ascontiguousarray(picked.transpose(0, 3, 1, 2))


def augment(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """A batch (N, 3, S, S) in 0..1 jittered as unseen sets and photos differ from ours: boxes a
    few percent off and tilted, suits in any colour, light of any cast, some blur and noise."""
    import torch
    import torch.nn.functional as F

    n, _, height, width = x.shape

    def uniform(low: float, high: float, shape: tuple[int, ...] = (n,)) -> torch.Tensor:
        return low + (high - low) * torch.rand(shape, generator=generator)

    angle, scale = uniform(-math.radians(6), math.radians(6)), uniform(0.9, 1.1)
    shift_x, shift_y = uniform(-0.06, 0.06), uniform(-0.06, 0.06)
    moved = uniform(0, 1) < 0.7
    angle, shift_x, shift_y = angle * moved, shift_x * moved, shift_y * moved
    scale = torch.where(moved, scale, torch.ones(n))
    cos, sin = torch.cos(angle) / scale, torch.sin(angle) / scale
    theta = torch.stack([torch.stack([cos, -sin, shift_x], 1), torch.stack([sin, cos, shift_y], 1)], 1)
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, padding_mode="border", align_corners=False)

    swapped = uniform(0, 1) < 0.25
    if swapped.any():
        orders = torch.stack([torch.randperm(3, generator=generator) for _ in range(int(swapped.sum()))])
        x[swapped] = torch.gather(x[swapped], 1, orders[:, :, None, None].expand(-1, -1, height, width))
    grey = x.mean(1, keepdim=True)
    saturation = uniform(0.6, 1.4, (n, 1, 1, 1))
    saturation[uniform(0, 1) < 0.1] = 0.0
    x = grey + (x - grey) * saturation
    level = x.mean((1, 2, 3), keepdim=True)
    x = level + (x - level) * uniform(0.75, 1.25, (n, 1, 1, 1))
    x = x * uniform(0.75, 1.25, (n, 1, 1, 1))
    blurred = uniform(0, 1) < 0.2
    if blurred.any():
        x[blurred] = F.avg_pool2d(x[blurred], 3, 1, 1, count_include_pad=False)
    x = x + torch.randn(x.shape, generator=generator) * uniform(0, 0.03, (n, 1, 1, 1))
    return x.clamp(0, 1)


def with_initializers(model: onnx.ModelProto) -> onnx.ModelProto:
    """`model` with its Constant nodes' tensors made initializers (PP-OCRv4's file holds its weights
    as Constant nodes; onnx2torch learns only initializers)."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    kept = []
    for node in out.graph.node:
        if node.op_type == "Constant" and [a.name for a in node.attribute] == ["value"]:
            out.graph.initializer.append(
                numpy_helper.from_array(numpy_helper.to_array(node.attribute[0].t), node.output[0])
            )
        else:
            kept.append(node)
    del out.graph.node[:]
    out.graph.node.extend(kept)
    return out


def _head_tensor(fused: onnx.ModelProto, name: str) -> np.ndarray:
    found = [t for t in fused.graph.initializer if t.name == name]
    if not found:
        raise TextLookError(f"the start file has no {name}: not a text look")
    return numpy_helper.to_array(found[0]).copy()


def fused_parts(fused: onnx.ModelProto) -> tuple[onnx.ModelProto, Head]:
    """A text look (`fused_model`'s file) split back into its backbone cut (initializers only) and
    its head."""
    head = Head(
        **{
            field: _head_tensor(fused, f"tl_{field}")
            for field in ("mean", "scale", "hidden_weight", "hidden_bias", "out_weight", "out_bias")
        }
    )
    # the backbone ends where the head's Flatten starts
    output = next(node.input[0] for node in fused.graph.node if node.output[0] == "tl_features")
    typed = onnx.shape_inference.infer_shapes(fused)
    declared = {info.name for info in typed.graph.value_info}
    for name in (RECOGNISER_INPUT, output):
        if name not in declared:
            typed.graph.value_info.append(helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None))
    cut = onnx.utils.Extractor(typed).extract_model([RECOGNISER_INPUT], [output])
    return with_initializers(cut), head


def _log(line: str) -> None:
    print(line, flush=True)  # an hour-long run's progress reaches a redirected log as it happens


def _module_name(node: onnx.NodeProto) -> str:
    return node.name.replace(".", "/")  # onnx2torch's naming of a node's module


def tuned_cut(cut: onnx.ModelProto, backbone: torch.nn.Module) -> onnx.ModelProto:
    """`cut` with its convolutions' weights and biases those of `backbone` (onnx2torch's module of
    `cut`, tuned); nothing else of the graph changes."""
    import torch

    out = onnx.ModelProto()
    out.CopyFrom(cut)
    modules = dict(backbone.named_modules())
    tensors = {t.name: t for t in out.graph.initializer}
    for node in out.graph.node:
        if node.op_type != "Conv":
            continue
        found = modules.get(_module_name(node))
        # onnx2torch wraps a convolution with uneven pads as a pad, then the convolution
        convolutions = [m for m in found.modules() if isinstance(m, torch.nn.Conv2d)] if found else []
        if not convolutions:
            raise TextLookError(f"no module for {node.name}")
        module = convolutions[0]
        learned = [module.weight] + ([module.bias] if len(node.input) > 2 and module.bias is not None else [])
        for name, value in zip(node.input[1:], learned, strict=True):
            tensors[name].CopyFrom(numpy_helper.from_array(value.detach().numpy().astype(np.float32), name))
    return out


def _build(cut: onnx.ModelProto, head: Head) -> Any:  # a TextLookNet, a class torch must exist to define
    import torch
    import torch.nn.functional as F
    from onnx2torch import convert

    class TextLookNet(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.backbone = convert(cut)
            self.register_buffer("mean", torch.from_numpy(head.mean.astype(np.float32)))
            self.register_buffer("scale", torch.from_numpy(head.scale.astype(np.float32)))
            self.hidden = torch.nn.Linear(*head.hidden_weight.shape)
            self.out = torch.nn.Linear(*head.out_weight.shape)
            with torch.no_grad():
                self.hidden.weight.copy_(torch.from_numpy(head.hidden_weight.T.astype(np.float32)))
                self.hidden.bias.copy_(torch.from_numpy(head.hidden_bias.astype(np.float32)))
                self.out.weight.copy_(torch.from_numpy(head.out_weight.T.astype(np.float32)))
                self.out.bias.copy_(torch.from_numpy(head.out_bias.astype(np.float32)))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            features = (self.backbone(x * 2 - 1).flatten(1) - self.mean) / self.scale
            hidden = F.gelu(self.hidden(F.dropout(features, 0.1, self.training)))
            return self.out(F.dropout(hidden, 0.2, self.training))

    return TextLookNet()


def _training_mode(net: torch.nn.Module) -> None:
    """Train mode with every batch norm frozen (statistics and affine alike)."""
    import torch

    net.train()
    for module in net.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.eval()
            for parameter in module.parameters():
                parameter.requires_grad_(False)


def predict(net: Any, crops: np.ndarray, batch: int = 256) -> np.ndarray:
    """(N, 49) probabilities of `net` for `crops` (N, 2, S, S, 3), the four turns averaged as the
    text look reads at run time."""
    import torch

    was_training = net.training
    net.eval()
    out = []
    with torch.no_grad():
        for start in range(0, len(crops), batch):
            chunk = crops[start : start + batch]
            turns = [
                torch.softmax(net(torch.from_numpy(turned(chunk, np.full(len(chunk), turn)))), 1)
                for turn in range(4)
            ]
            out.append(torch.stack(turns).mean(0).numpy())
    if was_training:
        _training_mode(net)
    return np.concatenate(out) if out else np.zeros((0, 0), np.float32)


def _head_of(net: Any, head: Head) -> Head:
    return Head(
        mean=head.mean,
        scale=head.scale,
        hidden_weight=net.hidden.weight.detach().numpy().T.copy(),
        hidden_bias=net.hidden.bias.detach().numpy().copy(),
        out_weight=net.out.weight.detach().numpy().T.copy(),
        out_bias=net.out.bias.detach().numpy().copy(),
    )


def fine_tune(
    cut: onnx.ModelProto,
    head: Head,
    crops: np.ndarray,
    labels: np.ndarray,
    settings: TuneSettings,
    log: Callable[[str], None] = _log,
) -> tuple[onnx.ModelProto, Head]:
    """The backbone `cut` and `head` trained together on `crops` (N, 2, S, S, 3) of classes
    `labels`: each step a batch drawn at random, each crop at a random quarter turn, `augment`ed."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(settings.seed)
    net = _build(cut, head)
    _training_mode(net)
    backbone_parameters = [p for p in net.backbone.parameters() if p.requires_grad]
    head_parameters = list(net.hidden.parameters()) + list(net.out.parameters())
    peaks = (settings.lr_backbone, settings.lr_head)
    optimiser = torch.optim.AdamW(
        [{"params": backbone_parameters, "lr": peaks[0]}, {"params": head_parameters, "lr": peaks[1]}],
        weight_decay=settings.weight_decay,
    )
    generator = torch.Generator().manual_seed(settings.seed)
    rng = np.random.default_rng(settings.seed)
    started = time.monotonic()
    running = 0.0
    for step in range(settings.steps):
        rate = min(1.0, (step + 1) / settings.warmup) * 0.5 * (1 + math.cos(math.pi * step / settings.steps))
        for group, peak in zip(optimiser.param_groups, peaks, strict=True):
            group["lr"] = peak * rate
        chosen = rng.integers(0, len(labels), settings.batch)
        batch = augment(
            torch.from_numpy(turned(crops[chosen], rng.integers(0, 4, settings.batch))), generator
        )
        loss = F.cross_entropy(
            net(batch), torch.from_numpy(labels[chosen]), label_smoothing=settings.label_smoothing
        )
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        running = loss.item() if step == 0 else 0.98 * running + 0.02 * loss.item()
        if (step + 1) % 100 == 0 or step + 1 == settings.steps:
            seconds = time.monotonic() - started
            log(f"text-look-tune: step {step + 1}/{settings.steps} loss {running:.3f} {seconds:.0f} s")
    net.eval()
    return tuned_cut(cut, net.backbone), _head_of(net, head)


def accuracy(cut: onnx.ModelProto, head: Head, crops: np.ndarray, labels: np.ndarray) -> float:
    """The share of `crops` whose likeliest class is their label, read as at run time."""
    if len(labels) == 0:
        return float("nan")
    probs = predict(_build(cut, head), crops)
    return float((probs.argmax(axis=1) == labels).mean())


def write_tuned(
    start: Path,
    crop_files: Sequence[Path],
    val_files: Sequence[Path],
    out: Path,
    config: TextLookConfig,
    settings: TuneSettings,
    log: Callable[[str], None] = _log,
) -> Path:
    """The text look in `start` fine-tuned on `crop_files`, written to out/tile_text_look.onnx (and
    out/models.json's "text_look" section, where there is one). `val_files` are read before and
    after, and the accuracies logged."""
    cut, head = fused_parts(onnx.load(str(start)))
    crops, labels = load_crops(crop_files)
    val = load_crops(val_files) if val_files else None
    if val is not None:
        log(f"text-look-tune: val accuracy before {accuracy(cut, head, *val):.4f} ({len(val[1])} tiles)")
    cut, head = fine_tune(cut, head, crops, labels, settings, log)
    if val is not None:
        log(f"text-look-tune: val accuracy after {accuracy(cut, head, *val):.4f}")
    return save_text_look(fused_model(cut, head, config.imgsz), out, config)
