"""Two exported crop classifiers joined into one ONNX graph that reads each crop with both and gives
a weighted average of their class probabilities.

Two classifiers trained apart make different mistakes; averaging what they read (an ensemble) kept
most of each one's strengths where averaging their weights (`vision.train soup`) could only join
fine-tunings of one model. The joined file is an ordinary classifier to the app: same input, same
outputs, the first model's embedded class names, so `vision.onnx_models` runs it unchanged. Only the
`onnx` package is needed (no torch): the shipped files themselves, kept in git history, can be joined.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
import onnx.shape_inference
import onnx.utils
from onnx import compose, helper, numpy_helper

from vision.onnx_files import OnnxFileError, load_model, metadata

PREFIX_STEM = "join"  # the joining's own names, and the second model's, start "join0/" (or "join1/" ...)
JOINED_KEY = "ensemble"  # metadata entry that records what was joined
EARLIER_JOIN = "; first = "  # in a record, what follows is the record of the first model's own join


@dataclass(frozen=True)
class JoinNames:
    """The names one join gives its own values under `prefix` ("join0/"): `joined` writes them and
    `split` finds the join by them."""

    prefix: str

    @property
    def first(self) -> str:  # the first model's output
        return self.prefix + "first"

    @property
    def second_scope(self) -> str:  # what every name of the second model starts with
        return self.prefix + "second/"

    @property
    def first_weight(self) -> str:
        return self.prefix + "first_weight"

    @property
    def second_weight(self) -> str:
        return self.prefix + "second_weight"

    @property
    def first_share(self) -> str:
        return self.prefix + "first_share"

    @property
    def second_share(self) -> str:
        return self.prefix + "second_share"

    @property
    def side(self) -> str:  # the second model's crop side, where it reads resized crops
        return self.prefix + "side"

    @property
    def resized(self) -> str:  # the input resized to that side
        return self.prefix + "resized"


class EnsembleError(OnnxFileError):
    """The two models cannot be joined (one line, for the command line)."""


def _shape(value: onnx.ValueInfoProto) -> tuple[int | str, ...]:
    dims = value.type.tensor_type.shape.dim
    return tuple(d.dim_value if d.HasField("dim_value") else d.dim_param for d in dims)


def _opsets(model: onnx.ModelProto) -> dict[str, int]:
    return {o.domain: o.version for o in model.opset_import}


def _check_inputs(first: onnx.ModelProto, second: onnx.ModelProto, second_size: int | None) -> None:
    """Same input shapes; with `second_size`, the first's sides dynamic (any crop size) and the
    second's dynamic or `second_size`."""
    ours, theirs = _shape(first.graph.input[0]), _shape(second.graph.input[0])
    if second_size is None:
        if ours != theirs:
            raise EnsembleError(f"ensemble: inputs differ: {ours} and {theirs}")
        return
    if any(isinstance(side, int) for side in ours[2:]):
        raise EnsembleError(f"ensemble: --second-size needs a first model of any input size, not {ours}")
    if ours[:2] != theirs[:2] or any(isinstance(s, int) and s != second_size for s in theirs[2:]):
        raise EnsembleError(f"ensemble: inputs differ: {ours} and {theirs} at {second_size} px")


def _check_joinable(first: onnx.ModelProto, second: onnx.ModelProto, second_size: int | None = None) -> None:
    for model, which in ((first, "first"), (second, "second")):
        if len(model.graph.input) != 1 or len(model.graph.output) != 1:
            raise EnsembleError(f"ensemble: the {which} model must have one input and one output")
    _check_inputs(first, second, second_size)
    if _shape(first.graph.output[0])[-1] != _shape(second.graph.output[0])[-1]:
        raise EnsembleError(
            f"ensemble: outputs differ: {_shape(first.graph.output[0])} and {_shape(second.graph.output[0])}"
        )
    if _opsets(first) != _opsets(second):
        raise EnsembleError(f"ensemble: opsets differ: {_opsets(first)} and {_opsets(second)}")
    names = [metadata(m).get("names") for m in (first, second)]
    if None not in names and names[0] != names[1]:
        raise EnsembleError("ensemble: the two models were trained on different classes")


def _all_names(model: onnx.ModelProto) -> set[str]:
    graph = model.graph
    names = {n.name for n in graph.node} | {i.name for i in graph.initializer}
    names |= {v.name for v in (*graph.input, *graph.output, *graph.value_info)}
    return names | {name for n in graph.node for name in (*n.input, *n.output)}


def _free_prefix(model: onnx.ModelProto) -> str:
    """A prefix no name in `model` starts with, so that a joined file can be joined again."""
    names = _all_names(model)
    for k in itertools.count():
        prefix = f"{PREFIX_STEM}{k}/"
        if not any(name.startswith(prefix) for name in names):
            return prefix
    raise AssertionError("unreachable")


def _resized_input(input_name: str, names: JoinNames) -> list[onnx.NodeProto]:
    """Nodes that resize the (B, 3, H, W) input to (B, 3, side, side) as `names.resized`, the side
    being the initializer `names.side`.

    Bilinear, as a classifier trained on `side`-pixel crops reads a larger crop of the same box."""
    prefix = names.prefix
    return [
        helper.make_node("Shape", [input_name], [prefix + "input_shape"], start=0, end=2),
        helper.make_node("Concat", [prefix + "input_shape", names.side], [prefix + "sizes"], axis=0),
        helper.make_node(
            "Resize",
            [input_name, "", "", prefix + "sizes"],
            [names.resized],
            mode="linear",
            coordinate_transformation_mode="half_pixel",
        ),
    ]


def joined(
    first: onnx.ModelProto,
    second: onnx.ModelProto,
    weight: float,
    note: str = "",
    second_size: int | None = None,
) -> onnx.ModelProto:
    """One graph: `weight` x the first model's output + (1 - weight) x the second's, on one input.

    Both must output probabilities (ultralytics classifiers end in a softmax), so the sum does too.
    `second_size`: the second model reads the crop resized to this many pixels square (it was
    trained at another size than the first; both inputs must then be dynamic in height and width).
    Raises `EnsembleError` when the inputs, the number of outputs, the opsets or the embedded class
    names differ, or the weight is outside [0, 1]."""
    if not 0.0 <= weight <= 1.0:
        raise EnsembleError(f"ensemble: --weight must be in [0, 1], got {weight:g}")
    if second_size is not None and second_size < 8:
        raise EnsembleError(f"ensemble: --second-size must be 8 pixels or more, got {second_size}")
    _check_joinable(first, second, second_size)
    out = onnx.ModelProto()
    out.CopyFrom(first)
    names = JoinNames(_free_prefix(first))
    other = compose.add_prefix(second, prefix=names.second_scope)
    graph = out.graph
    input_name = graph.input[0].name
    their_input = names.second_scope + input_name
    fed = input_name
    if second_size is not None:
        graph.node.extend(_resized_input(input_name, names))
        fed = names.resized
        graph.initializer.append(
            numpy_helper.from_array(np.array([second_size, second_size], np.int64), names.side)
        )
    for node in other.graph.node:
        node.input[:] = [fed if name == their_input else name for name in node.input]
    output_name = graph.output[0].name
    first_output = names.first
    for node in graph.node:
        node.output[:] = [first_output if name == output_name else name for name in node.output]
        node.input[:] = [first_output if name == output_name else name for name in node.input]
    graph.node.extend(other.graph.node)
    graph.initializer.extend(other.graph.initializer)
    if second_size is None:
        # a resized input would contradict the second's shapes, named as the first's ("height")
        graph.value_info.extend(other.graph.value_info)
    graph.initializer.extend(
        [
            numpy_helper.from_array(np.array(weight, np.float32), names.first_weight),
            numpy_helper.from_array(np.array(1.0 - weight, np.float32), names.second_weight),
        ]
    )
    graph.node.extend(
        [
            helper.make_node("Mul", [first_output, names.first_weight], [names.first_share]),
            helper.make_node("Mul", [other.graph.output[0].name, names.second_weight], [names.second_share]),
            helper.make_node("Add", [names.first_share, names.second_share], [output_name]),
        ]
    )
    before = metadata(first).get(JOINED_KEY)
    record = note or f"{weight:g} first + {1 - weight:g} second" + (
        f" (at {second_size} px)" if second_size is not None else ""
    )
    entries = {**metadata(first), JOINED_KEY: record if before is None else f"{record}{EARLIER_JOIN}{before}"}
    del out.metadata_props[:]
    helper.set_model_props(out, entries)
    onnx.checker.check_model(out)
    return out


def join_files(first: Path, second: Path, weight: float, out: Path, second_size: int | None = None) -> None:
    """`joined` of two ONNX files, saved to `out`; `EnsembleError` for a file that is not a model."""
    models = [load_model(path, "ensemble", EnsembleError) for path in (first, second)]
    at = f" at {second_size} px" if second_size is not None else ""
    note = f"{weight:g} x {first.name} + {1 - weight:g} x {second.name}{at}"
    model = joined(models[0], models[1], weight, note, second_size)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))


@dataclass(frozen=True)
class Members:
    """What `joined` was given: the two models, each as a standalone file would hold it, the first
    one's share and the side the second read its crops at (None: the shared input as it came)."""

    first: onnx.ModelProto
    second: onnx.ModelProto
    weight: float
    second_size: int | None


def _outer_join(model: onnx.ModelProto) -> JoinNames | None:
    """The names of the last join (the one whose sum is the graph's output); None for a model that
    `joined` did not write."""
    output_name = model.graph.output[0].name if model.graph.output else None
    for node in model.graph.node:
        if node.op_type == "Add" and output_name in node.output and len(node.input) == 2:
            names = JoinNames(node.input[0].removesuffix(JoinNames("").first_share))
            if names.prefix.startswith(PREFIX_STEM) and node.input[1] == names.second_share:
                return names
    return None


def is_joined(model: onnx.ModelProto) -> bool:
    """Whether `model` is two classifiers `joined` as one graph (`split` takes it apart)."""
    return _outer_join(model) is not None


def _renamed(model: onnx.ModelProto, rename: dict[str, str], strip: str = "") -> None:
    """Every value, node and initializer name in `model` renamed in place: `rename` first, then a
    leading `strip` dropped."""

    def new(name: str) -> str:
        name = rename.get(name, name)
        return name.removeprefix(strip) if strip else name

    graph = model.graph
    for node in graph.node:
        node.input[:] = [new(name) if name else name for name in node.input]
        node.output[:] = [new(name) for name in node.output]
        node.name = new(node.name)
    for value in (*graph.input, *graph.output, *graph.value_info):
        value.name = new(value.name)
    for initializer in graph.initializer:
        initializer.name = new(initializer.name)


def _same_shape(target: onnx.ValueInfoProto, source: onnx.ValueInfoProto) -> None:
    target.type.tensor_type.shape.CopyFrom(source.type.tensor_type.shape)


def _scalar(model: onnx.ModelProto, name: str) -> np.ndarray | None:
    for initializer in model.graph.initializer:
        if initializer.name == name:
            return numpy_helper.to_array(initializer)
    return None


def split(model: onnx.ModelProto) -> Members:
    """The inverse of `joined` (of its last join, where a file was joined again): each model reads
    its input as it did inside the joined graph, so joining them again at the same weight and size
    reads as `m` does.

    The first keeps the joined file's metadata, with the record of this join taken off; the second,
    whose own metadata the join did not keep, is given the first's class names, with `imgsz` set to
    `second_size` where it read resized crops. Training checkpoints live outside git, so this is how a
    member of a shipped ensemble is taken up again (`vision.train recover`). `EnsembleError` for a
    file that is not a joined classifier."""
    names = _outer_join(model)
    if names is None:
        raise EnsembleError("split: not a joined classifier (no weighted sum of two models at its output)")
    graph = model.graph
    input_name, output_name = graph.input[0].name, graph.output[0].name
    weight = _scalar(model, names.first_weight)
    if weight is None:
        raise EnsembleError("split: not a joined classifier (the first model's share is missing)")
    side = _scalar(model, names.side)
    second_output = next(n.input[0] for n in graph.node if n.output[:] == [names.second_share])
    second_input = names.resized if side is not None else input_name
    extractor = onnx.utils.Extractor(onnx.shape_inference.infer_shapes(model))
    first = extractor.extract_model([input_name], [names.first])
    second = extractor.extract_model([second_input], [second_output])
    _renamed(first, {names.first: output_name})
    _renamed(second, {second_input: names.second_scope + input_name}, strip=names.second_scope)
    for part in (first, second):
        _same_shape(part.graph.input[0], graph.input[0])
        _same_shape(part.graph.output[0], graph.output[0])
    if side is not None:  # the second was fed crops resized to the side: it takes that size
        for dim, length in zip(second.graph.input[0].type.tensor_type.shape.dim[2:], side, strict=True):
            dim.dim_value = int(length)
    entries = metadata(model)
    record = entries.pop(JOINED_KEY, "")
    if EARLIER_JOIN in record:
        entries[JOINED_KEY] = record.split(EARLIER_JOIN, 1)[1]
    second_entries = {k: v for k, v in entries.items() if k != JOINED_KEY}
    if side is not None:
        second_entries["imgsz"] = str([int(s) for s in side])
    for part, kept in ((first, entries), (second, second_entries)):
        del part.opset_import[:]
        part.opset_import.extend(model.opset_import)
        part.ir_version = model.ir_version
        del part.metadata_props[:]
        helper.set_model_props(part, kept)
        onnx.checker.check_model(part)
    size = int(side[0]) if side is not None else None
    return Members(first, second, float(weight), size)


def split_file(joined_path: Path, out_dir: Path) -> Members:
    """`split` of a joined ONNX file, its members saved as `first.onnx` and `second.onnx` in `out_dir`."""
    members = split(load_model(joined_path, "split", EnsembleError))
    out_dir.mkdir(parents=True, exist_ok=True)
    onnx.save(members.first, str(out_dir / "first.onnx"))
    onnx.save(members.second, str(out_dir / "second.onnx"))
    return members
