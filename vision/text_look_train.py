"""Building the text look (`vision.text_look`) at training time: the recogniser's backbone cut from
its file, features of every tile of some scenes, a head trained on them (torch), and the two fused
into one ONNX file. Needs the `train` extra (torch, onnx); the head's assembly alone needs only
onnx and numpy, so the tests build one from made-up weights.

    python -m vision.train text-look-features --scenes DIR --out FEATURES.npz
    python -m vision.train text-look --features FEATURES.npz... --out DIR
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from vision.classes import CLASS_INDEX, CLASSES
from vision.glyphs import line_input, locate
from vision.imageio import read_image
from vision.sidecar import GlyphConfig, TextLookConfig
from vision.text_look import TURNS, face_crops

# a PP-OCR recogniser's input; its backbone ends in its one average pool, to one row (PP-OCRv4's
# 480 channels, PP-OCRv6's 384): `backbone_output` finds it
RECOGNISER_INPUT = "x"
FUSED_INPUT = "images"
FUSED_OUTPUT = "probs"
OPSET = 12


class TextLookError(ValueError):
    """A recogniser without the expected backbone, or features that do not fit (one line)."""


@dataclass(frozen=True)
class Head:
    """The head's weights: features standardised by `mean` and `scale`, one hidden GELU layer."""

    mean: np.ndarray  # (F,)
    scale: np.ndarray  # (F,)
    hidden_weight: np.ndarray  # (F, H)
    hidden_bias: np.ndarray  # (H,)
    out_weight: np.ndarray  # (H, 49)
    out_bias: np.ndarray  # (49,)


def backbone_output(recogniser: onnx.ModelProto) -> str:
    """The name of the recogniser's backbone output: its one average pool's."""
    pools = [node.output[0] for node in recogniser.graph.node if node.op_type == "AveragePool"]
    if len(pools) != 1:
        raise TextLookError(f"the recogniser has {len(pools)} average pools, not one: not PP-OCR's")
    return pools[0]


def backbone(recogniser: onnx.ModelProto) -> onnx.ModelProto:
    """The recogniser cut after its backbone: (N, 3, 48, W) lines in -1..1 -> (N, C, 1, W / 8)."""
    output = backbone_output(recogniser)
    # the extractor wants every cut's type declared: shape inference declares them
    typed = onnx.shape_inference.infer_shapes(recogniser)
    if output not in {info.name for info in typed.graph.value_info}:
        typed.graph.value_info.append(helper.make_tensor_value_info(output, TensorProto.FLOAT, None))
    return onnx.utils.Extractor(typed).extract_model([RECOGNISER_INPUT], [output])


def recogniser(path: Path | None = None) -> onnx.ModelProto:
    """The recogniser in `path`, or the glyph look's as installed with its package."""
    return onnx.load(str(path or locate(GlyphConfig())))


def _attribute(node: onnx.NodeProto, name: str, default: list[int]) -> list[int]:
    found = [a for a in node.attribute if a.name == name]
    return list(found[0].ints) if found else default


def explicit_pads(model: onnx.ModelProto, size: int) -> onnx.ModelProto:
    """`model` with its input made (N, 3, size, size) and every SAME_UPPER convolution and pool given
    the explicit pads that size asks for: onnx2torch (`vision.text_look_tune`) cannot convert
    SAME_UPPER, which PP-OCRv6's backbone uses, and the text look reads one size only."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    dims = out.graph.input[0].type.tensor_type.shape.dim
    for axis in (2, 3):
        dims[axis].ClearField("dim_param")
        dims[axis].dim_value = size
    typed = onnx.shape_inference.infer_shapes(out)
    shapes = {
        info.name: [d.dim_value for d in info.type.tensor_type.shape.dim]
        for info in [*typed.graph.value_info, *typed.graph.input]
    }
    weights = {tensor.name: list(tensor.dims) for tensor in out.graph.initializer}
    for node in out.graph.node:
        auto = [a for a in node.attribute if a.name == "auto_pad"]
        if not auto or auto[0].s != b"SAME_UPPER":
            continue
        conv_kernel = weights.get(node.input[1], [])[2:] if node.op_type == "Conv" else []
        kernel = _attribute(node, "kernel_shape", conv_kernel)
        strides = _attribute(node, "strides", [1, 1])
        dilations = _attribute(node, "dilations", [1, 1])
        begin, end = [], []
        if node.input[0] not in shapes:
            raise TextLookError(f"explicit pads: no shape known for {node.name}'s input")
        lengths = shapes[node.input[0]][2:]
        for length, k, stride, dilation in zip(lengths, kernel, strides, dilations, strict=True):
            total = max(0, (-(-length // stride) - 1) * stride + (k - 1) * dilation + 1 - length)
            begin.append(total // 2)
            end.append(total - total // 2)  # SAME_UPPER: the odd pixel at the end
        node.attribute.remove(auto[0])
        node.attribute.append(helper.make_attribute("pads", begin + end))
    return out


def backbone_session(model: onnx.ModelProto, threads: int = 2) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def features(session: ort.InferenceSession, crops: np.ndarray) -> np.ndarray:
    """(N, F) backbone features of (N, S, S, 3) uint8 RGB crops, flattened channel by channel."""
    # a square crop at the line height is already a line: line_input only scales its values
    lines = np.stack([line_input(crop) for crop in crops])
    out = session.run(None, {RECOGNISER_INPUT: lines})[0]
    return out.reshape(len(crops), -1)


def scene_tiles(
    scenes: Path, limit: int | None = None
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each scene of `scenes` (meta/*.json from `datasets.synth`) that holds tiles, in name order, the
    first `limit`: its photo (RGB), its tiles' boxes (N, 4) and their class indices (N,)."""
    for meta_path in sorted((scenes / "meta").glob("*.json"))[:limit]:
        meta = json.loads(meta_path.read_text())
        tiles = meta["tiles"]
        if tiles:
            xyxy = np.array([t["xyxy"] for t in tiles], np.float32)
            classes = np.array([CLASS_INDEX[t["code"]] for t in tiles], np.int64)
            yield read_image(scenes / meta["image"]).rgb, xyxy, classes


def scene_features(
    scenes: Path, session: ort.InferenceSession, config: TextLookConfig, limit: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Features (N, 4, F) float16 of every tile of `scenes` (meta/*.json from `datasets.synth`), at
    each quarter turn, and their class indices (N,)."""
    rows: list[np.ndarray] = []
    labels: list[np.ndarray] = []
    for rgb, xyxy, classes in scene_tiles(scenes, limit):
        crops = face_crops(rgb, xyxy, config.shrink, config.imgsz).reshape(-1, config.imgsz, config.imgsz, 3)
        rows.append(features(session, crops).reshape(len(xyxy), len(TURNS), -1).astype(np.float16))
        labels.append(classes)
    if not rows:
        raise TextLookError(f"no tiles under {scenes}/meta")
    return np.concatenate(rows), np.concatenate(labels)


def load_features(paths: Sequence[Path]) -> tuple[np.ndarray, np.ndarray]:
    """The features and labels of several `scene_features` files, one after another."""
    parts = [np.load(path) for path in paths]
    widths = {part["features"].shape[2] for part in parts}
    if len(widths) != 1:
        raise TextLookError(f"feature files of different widths {sorted(widths)}")
    return np.concatenate([p["features"] for p in parts]), np.concatenate([p["labels"] for p in parts])


HEAD_BATCH = 256  # samples per step of the head's training


def train_head(
    x: np.ndarray,
    y: np.ndarray,
    hidden: int,
    epochs: int,
    seed: int,
    batch: int = HEAD_BATCH,
    lr: float = 2e-3,
) -> Head:
    """A head trained on features `x` (N, 4, F), every turn a sample of its tile's class `y`:
    AdamW with a one-cycle schedule, dropout and label smoothing (unseen sets are the point)."""
    import torch  # training only

    torch.manual_seed(seed)
    flat = x.reshape(-1, x.shape[2]).astype(np.float32)
    mean = flat.mean(axis=0)
    scale = flat.std(axis=0) + 1e-3
    inputs = torch.from_numpy((flat - mean) / scale)
    targets = torch.from_numpy(np.repeat(y, x.shape[1]))
    first = torch.nn.Linear(x.shape[2], hidden)
    second = torch.nn.Linear(hidden, len(CLASSES))
    net = torch.nn.Sequential(torch.nn.Dropout(0.2), first, torch.nn.GELU(), torch.nn.Dropout(0.3), second)
    optimiser = torch.optim.AdamW(net.parameters(), lr / 2, weight_decay=0.05)
    steps_per_epoch = len(targets) // batch
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, lr, total_steps=epochs * steps_per_epoch)
    generator = torch.Generator().manual_seed(seed)
    net.train()
    for _ in range(epochs):
        order = torch.randperm(len(targets), generator=generator)
        for step in range(steps_per_epoch):
            chosen = order[step * batch : (step + 1) * batch]
            loss = torch.nn.functional.cross_entropy(
                net(inputs[chosen]), targets[chosen], label_smoothing=0.1
            )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
    return Head(
        mean=mean,
        scale=scale,
        hidden_weight=first.weight.detach().numpy().T.copy(),
        hidden_bias=first.bias.detach().numpy().copy(),
        out_weight=second.weight.detach().numpy().T.copy(),
        out_bias=second.bias.detach().numpy().copy(),
    )


def head_probabilities(x: np.ndarray, head: Head) -> np.ndarray:
    """(N, 49) the head's probabilities for features (N, F), in numpy (what the fused graph computes)."""
    z = (x.astype(np.float64) - head.mean) / head.scale @ head.hidden_weight + head.hidden_bias
    z = 0.5 * z * (1.0 + np.vectorize(math.erf)(z / math.sqrt(2.0)))
    logits = z @ head.out_weight + head.out_bias
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _constant(name: str, value: np.ndarray) -> TensorProto:
    return numpy_helper.from_array(np.asarray(value, np.float32), name)


def fused_model(cut: onnx.ModelProto, head: Head, size: int) -> onnx.ModelProto:
    """One model: (N, 3, size, size) RGB crops in 0..1 -> the backbone (`cut`) -> the head -> (N, 49)
    probabilities, with the class names embedded as an ultralytics export embeds them."""
    output = cut.graph.output[0].name
    graph = explicit_pads(cut, size).graph
    before = [
        helper.make_node("Mul", [FUSED_INPUT, "tl_two"], ["tl_doubled"]),
        helper.make_node("Sub", ["tl_doubled", "tl_one"], [RECOGNISER_INPUT]),
    ]
    after = [
        helper.make_node("Flatten", [output], ["tl_features"], axis=1),
        helper.make_node("Sub", ["tl_features", "tl_mean"], ["tl_centred"]),
        helper.make_node("Div", ["tl_centred", "tl_scale"], ["tl_standard"]),
        helper.make_node("MatMul", ["tl_standard", "tl_hidden_weight"], ["tl_hidden_product"]),
        helper.make_node("Add", ["tl_hidden_product", "tl_hidden_bias"], ["tl_hidden"]),
        # GELU, exactly: x * (1 + erf(x / sqrt 2)) / 2
        helper.make_node("Div", ["tl_hidden", "tl_root_two"], ["tl_hidden_scaled"]),
        helper.make_node("Erf", ["tl_hidden_scaled"], ["tl_erf"]),
        helper.make_node("Add", ["tl_erf", "tl_one"], ["tl_erf_plus_one"]),
        helper.make_node("Mul", ["tl_hidden", "tl_erf_plus_one"], ["tl_gated_twice"]),
        helper.make_node("Mul", ["tl_gated_twice", "tl_half"], ["tl_gated"]),
        helper.make_node("MatMul", ["tl_gated", "tl_out_weight"], ["tl_out_product"]),
        helper.make_node("Add", ["tl_out_product", "tl_out_bias"], ["tl_logits"]),
        helper.make_node("Softmax", ["tl_logits"], [FUSED_OUTPUT], axis=1),
    ]
    constants = [
        _constant("tl_two", np.array(2.0)),
        _constant("tl_one", np.array(1.0)),
        _constant("tl_half", np.array(0.5)),
        _constant("tl_root_two", np.array(math.sqrt(2.0))),
        _constant("tl_mean", head.mean),
        _constant("tl_scale", head.scale),
        _constant("tl_hidden_weight", head.hidden_weight),
        _constant("tl_hidden_bias", head.hidden_bias),
        _constant("tl_out_weight", head.out_weight),
        _constant("tl_out_bias", head.out_bias),
    ]
    fused = helper.make_graph(
        before + list(graph.node) + after,
        "text_look",
        [helper.make_tensor_value_info(FUSED_INPUT, TensorProto.FLOAT, ["batch", 3, size, size])],
        [helper.make_tensor_value_info(FUSED_OUTPUT, TensorProto.FLOAT, ["batch", len(CLASSES)])],
        initializer=list(graph.initializer) + constants,
    )
    model = helper.make_model(
        fused, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="vision.train"
    )
    model.ir_version = cut.ir_version
    names = {i: code for i, code in enumerate(CLASSES)}
    helper.set_model_props(model, {"names": repr(names), "imgsz": repr([size, size])})
    onnx.checker.check_model(model)
    return model


TEXT_LOOK_FILE = "tile_text_look.onnx"


def text_look_section(config: TextLookConfig) -> dict[str, object]:
    """The sidecar's "text_look" section for `config`, naming the file `write_text_look` writes."""
    return asdict(replace(config, file=TEXT_LOOK_FILE))


def write_features(
    scenes: Path, out: Path, config: TextLookConfig, limit: int | None, recogniser_file: Path | None = None
) -> int:
    """`scene_features` of `scenes` saved to `out` (.npz: features, labels), read by the backbone of
    `recogniser_file` (default: the glyph look's); the tiles read."""
    x, y = scene_features(scenes, backbone_session(backbone(recogniser(recogniser_file))), config, limit)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, features=x, labels=y)
    return len(y)


def write_text_look(
    feature_files: Sequence[Path],
    out: Path,
    config: TextLookConfig,
    hidden: int,
    epochs: int,
    seed: int,
    recogniser_file: Path | None = None,
) -> Path:
    """A head trained on `feature_files`, fused with the backbone of `recogniser_file` (default: the
    glyph look's; the one the features were read by) into out/TEXT_LOOK_FILE, and the sidecar
    out/models.json (where there is one) given its "text_look" section."""
    x, y = load_features(feature_files)
    samples = len(y) * x.shape[1]  # every turn of every tile is a sample
    if samples < HEAD_BATCH:
        raise TextLookError(
            f"{samples} samples ({len(y)} tiles x {x.shape[1]} turns) are under one batch of {HEAD_BATCH}: "
            "read the features of more scenes"
        )
    head = train_head(x, y, hidden, epochs, seed)
    cut = backbone(recogniser(recogniser_file))
    return save_text_look(fused_model(cut, head, config.imgsz), out, config)


def save_text_look(model: onnx.ModelProto, out: Path, config: TextLookConfig) -> Path:
    """`model` saved as out/TEXT_LOOK_FILE, and the sidecar out/models.json (where there is one)
    given `config` as its "text_look" section; the file written."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / TEXT_LOOK_FILE
    onnx.save(model, str(target))
    sidecar = out / "models.json"
    if sidecar.is_file():
        data = json.loads(sidecar.read_text())
        data["text_look"] = text_look_section(config)
        sidecar.write_text(json.dumps(data, indent=2) + "\n")
    return target
