"""Store an ONNX model's weights as float16 and compute in float32 (the file about half as large).

Each float32 weight becomes a float16 initializer and a Cast back to float32 in front of its users;
onnxruntime folds the casts when the session is built, so a read costs what it did and gives the
float32 model's outputs to float16's precision (about three decimal digits per weight). Used for the
pip look, whose full-precision file would take the models past the issue's 50 MB. Needs the `onnx`
package (the `train` extra); run time never imports this module.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

# smaller weights (a scale, a bias of a few channels) stay float32: they save nothing worth a cast
MIN_ELEMENTS = 16


def half_weights(source: Path, out: Path) -> tuple[int, int]:
    """Write `source` with its float32 weights stored as float16 to `out`; (bytes before, after)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from vision.onnx_files import load_model

    model = load_model(source, "half")  # a missing or non-model file: one line
    graph = model.graph
    initializers, casts = [], []
    for weight in graph.initializer:
        values = numpy_helper.to_array(weight)
        if values.dtype != np.float32 or values.size <= MIN_ELEMENTS:
            initializers.append(weight)
            continue
        half = numpy_helper.from_array(values.astype(np.float16), f"{weight.name}_fp16")
        initializers.append(half)
        casts.append(helper.make_node("Cast", [half.name], [weight.name], to=TensorProto.FLOAT))
    nodes = list(graph.node)
    del graph.initializer[:]
    graph.initializer.extend(initializers)
    del graph.node[:]
    graph.node.extend(casts + nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(out))
    return source.stat().st_size, out.stat().st_size
