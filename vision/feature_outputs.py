"""Give a classifier ONNX file its pooled features as outputs, for `vision.set_memory` (stage 86).

`python -m vision.feature_outputs models/tile_classifier.onnx` rewrites the file in place: the same
graph, its probabilities (`output0`) unchanged, and one more output per YOLO-cls member, the 1280
values each pools before its last layer, named as `FEATURE_OUTPUTS` (the sidecar's `features`). The
reader compares tiles by them: two crops of one face of one set lie close there, whatever the last
layer makes of a face it never saw drawn so. Needs the `onnx` package (the `train` extra), not the app.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

# the members' pooled features, in the joined graph's order (stage 31's join names the second "join0/second/")
POOLED = ("/model.10/Flatten_output_0", "join0/second//model.10/Flatten_output_0")
FEATURE_OUTPUTS = ("features", "features_second")
FEATURES = 1280  # what each YOLO11n-cls member pools


def add_feature_outputs(source: Path, target: Path) -> tuple[str, ...]:
    """Write `source` to `target` with each pooled tensor of POOLED it holds as an output (an Identity
    named as FEATURE_OUTPUTS); the names of the outputs added (none where it has them already)."""
    import onnx  # the train extra: the app never rewrites a model

    from vision.onnx_files import load_model

    model = load_model(source, "feature_outputs")  # a missing or non-model file: one line
    graph = model.graph
    have = {output.name for output in graph.output}
    tensors = {name for node in graph.node for name in node.output}
    added = []
    for pooled, name in zip(POOLED, FEATURE_OUTPUTS, strict=True):
        if name in have or pooled not in tensors:
            continue
        graph.node.append(onnx.helper.make_node("Identity", [pooled], [name], name=f"{name}/identity"))
        shape: list[str | int | None] = ["batch", FEATURES]
        graph.output.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, shape))
        added.append(name)
    onnx.checker.check_model(model)
    onnx.save(model, str(target))
    return tuple(added)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.feature_outputs", description=__doc__)
    parser.add_argument("model", type=Path, help="a classifier ONNX file, rewritten in place")
    args = parser.parse_args(argv)
    from vision.onnx_files import OnnxFileError

    try:
        added = add_feature_outputs(args.model, args.model)
    except OnnxFileError as error:  # it was onnx.load's FileNotFoundError or DecodeError traceback
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(
            f"error: feature_outputs: cannot write {args.model}: {error.strerror or error}", file=sys.stderr
        )
        return 2
    print(f"{args.model}: added {', '.join(added) if added else 'nothing (it has them, or no pooled layer)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
