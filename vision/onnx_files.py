"""Reading exported ONNX files at training time (`vision.train` recover, ensemble, export): the
model, its metadata, and one-line refusals for a file that is not a model. Needs the `onnx` package
(train and test extras); the app reads models with onnxruntime only (`vision.onnx_models`)."""

from __future__ import annotations

import ast
from pathlib import Path

import onnx


class OnnxFileError(ValueError):
    """The file is not a model, or lacks what an ultralytics export embeds (one line)."""


def load_model(path: Path, command: str, refusal: type[OnnxFileError] = OnnxFileError) -> onnx.ModelProto:
    """The model in `path`; `refusal` naming `command` for a missing or non-model file."""
    try:
        return onnx.load(str(path))
    except Exception as error:  # a missing file, a protobuf decode error, ...
        why = type(error).__name__
        raise refusal(f"{command}: cannot read {path} as an ONNX model ({why})") from error


def metadata(model: onnx.ModelProto) -> dict[str, str]:
    """The model's metadata entries (ultralytics writes `names`, `imgsz`, `task` ...)."""
    return {p.key: p.value for p in model.metadata_props}


def embedded_side(model: onnx.ModelProto) -> int | None:
    """The input side an ultralytics export wrote (`imgsz` as [h, w]), None when absent; a garbled
    one raises ValueError, SyntaxError, TypeError or IndexError."""
    entries = metadata(model)
    return ast.literal_eval(entries["imgsz"])[-1] if "imgsz" in entries else None


def class_names(model: onnx.ModelProto, where: Path, command: str) -> tuple[list[str], int | None]:
    """The class folder names and the input side an ultralytics export embedded (`names` as
    {index: name}, `imgsz` as [h, w]; None when absent); `OnnxFileError` when the names are missing."""
    entries = metadata(model)
    try:
        names = ast.literal_eval(entries["names"])
        imgsz = embedded_side(model)
        return [names[i] for i in range(len(names))], imgsz
    except (KeyError, ValueError, SyntaxError, TypeError, IndexError) as error:
        why = type(error).__name__
        raise OnnxFileError(
            f"{command}: {where} has no class names from an ultralytics export ({why})"
        ) from error
