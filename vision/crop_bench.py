"""How crop classifiers read a crop set that `vision.train data` cut: the share of its "no tile" crops
each calls "no tile" (the detectors' own false boxes apart from the random table crops), the share
of its tile crops wrongly called so, and the top-1 on the tiles. The reading is the app's first
look (`TileClassifier.classify_with_reject`): every crop in four quarter turns, averaged, "no tile"
above `reject_above`. Each model reads the crops at its own side (its input's, else the `imgsz` its
export wrote, else the crops'), resized as the app resizes them for a look of another size.

    python -m vision.crop_bench --crops DATA/classifier/val MODEL.onnx [MODEL.onnx ...]

It measures the classifier alone, on training-style crops around true boxes: where an extra box on
clutter is shown or not, not how a photo is read (that is `vision.bench`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from scoring.console import run_main

    sys.exit(run_main("python -m vision.crop_bench", "vision.crop_bench"))

import cv2
import numpy as np

from scoring.console import OneLineParser
from vision.classes import CLASSES, NOT_A_TILE
from vision.onnx_files import OnnxFileError, embedded_side, load_model
from vision.onnx_models import ModelError, TileClassifier, make_session, resized, static_dim
from vision.sidecar import ClassifierConfig
from vision.train import CROP_MARGIN, HARD_MARK, TRAIN_CLASSES, class_folder

ROTATIONS = 4  # the shipped sidecar's classifier "rotations"
REJECT_ABOVE = ClassifierConfig.reject_above


class CropBenchError(Exception):
    """A crop folder or model that cannot be measured; its text is the one line shown."""


@dataclass(frozen=True)
class CropSet:
    """A val (or train) folder's crops: uint8 RGB (N, S, S, 3) with their class index, and which of
    the "no tile" crops came from a detector's false box."""

    crops: np.ndarray
    labels: np.ndarray  # index into CLASSES, or len(CLASSES) for "no tile"
    hard: np.ndarray  # bool: a detector's box (only ever True for "no tile")


@dataclass(frozen=True)
class CropReading:
    """One classifier's figures on a `CropSet` (NaN where the set has no such crop)."""

    hard_none: float  # detectors' false boxes called "no tile"
    random_none: float  # random table crops called "no tile"
    tiles_none: float  # tile crops wrongly called "no tile"
    tiles_top1: float  # tile crops read as their own tile
    counts: tuple[int, int, int]  # hard, random, tiles


def load_crops(folder: Path) -> CropSet:
    """The crops under `folder`'s "NN_code" class folders (`vision.train.class_folder`)."""
    if not folder.is_dir():
        raise CropBenchError(f"crop_bench: {folder} is not a folder")
    crops: list[np.ndarray] = []
    labels: list[int] = []
    hard: list[bool] = []
    size = None
    labels_of = {class_folder(index): index for index in range(len(TRAIN_CLASSES))}
    for class_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        label = labels_of.get(class_dir.name)
        if label is None:
            raise CropBenchError(f"crop_bench: {class_dir} is not a class folder of vision.train data")
        for path in sorted(class_dir.glob("*.jpg")) + sorted(class_dir.glob("*.png")):
            bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if bgr is None or bgr.shape[0] != bgr.shape[1] or (size is not None and bgr.shape[0] != size):
                raise CropBenchError(f"crop_bench: {path} is not a square crop like the others")
            size = bgr.shape[0]
            crops.append(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
            labels.append(label)
            hard.append(label == len(CLASSES) and HARD_MARK in path.stem)
    if not crops:
        raise CropBenchError(f"crop_bench: no crops in {folder}")
    return CropSet(np.stack(crops), np.array(labels), np.array(hard, bool))


def model_side(model: Path) -> int | None:
    """The crop side `model` reads: its input's where the file fixes it, else the `imgsz` an
    ultralytics export wrote (a model exported with dynamic sizes still learnt one), else None."""
    try:
        onnx_model = load_model(model, "crop_bench")
    except OnnxFileError as error:
        raise CropBenchError(str(error)) from None
    inputs = onnx_model.graph.input
    dims = inputs[0].type.tensor_type.shape.dim if len(inputs) else []
    sides = {static_dim(d.dim_value) for d in list(dims)[2:]}
    if len(sides) == 1 and None not in sides:
        return sides.pop()
    try:
        side = embedded_side(onnx_model)
    except (ValueError, SyntaxError, TypeError, IndexError):
        return None
    return side if isinstance(side, int) and side > 0 else None


def first_look(model: Path, crops: np.ndarray, side: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The app's classifier (`TileClassifier`, `ROTATIONS` turns, no other look) on `crops` with the
    model `model` (49 tiles and "no tile", read at `side`, by default `model_side`, the crops resized
    to it): (N, 49) tile probabilities and (N,) the probability of "no tile"."""
    side = side or model_side(model) or crops.shape[1]
    config = ClassifierConfig(
        file=model.name,
        imgsz=side,
        names=CLASSES,
        crop_margin=CROP_MARGIN,
        rotations=ROTATIONS,
        reject=NOT_A_TILE,
    )
    try:
        classifier = TileClassifier.from_session(make_session(model), config, size_from="its export")
        return classifier.classify_with_reject(resized(crops, side))
    except ModelError as error:
        raise CropBenchError(f"crop_bench: {model.name}: {error}") from None


def reading(
    look: tuple[np.ndarray, np.ndarray], crop_set: CropSet, reject_above: float = REJECT_ABOVE
) -> CropReading:
    """`first_look`'s reading of `crop_set`'s crops summed up as `CropReading`."""
    tile_probs, not_tile = look
    called_none = not_tile > reject_above
    is_none = crop_set.labels == len(CLASSES)
    hard = crop_set.hard
    random = is_none & ~hard
    tiles = ~is_none
    read = tile_probs.argmax(axis=1)

    def share(values: np.ndarray, where: np.ndarray) -> float:
        return float(values[where].mean()) if where.any() else float("nan")

    return CropReading(
        hard_none=share(called_none, hard),
        random_none=share(called_none, random),
        tiles_none=share(called_none, tiles),
        tiles_top1=share(read == crop_set.labels, tiles),
        counts=(int(hard.sum()), int(random.sum()), int(tiles.sum())),
    )


def report_line(name: str, result: CropReading) -> str:
    hard, random, tiles = result.counts
    return (
        f"{name}: no tile on detectors' boxes {result.hard_none:.3f} ({hard}), on random table crops "
        f"{result.random_none:.3f} ({random}); tiles wrongly {result.tiles_none:.3f}, top-1 "
        f"{result.tiles_top1:.3f} ({tiles})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m vision.crop_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--crops", type=Path, required=True, help="a classifier/val folder of vision.train data"
    )
    parser.add_argument("--reject-above", type=float, default=REJECT_ABOVE, help="'no tile' above this")
    parser.add_argument("models", type=Path, nargs="+", help="classifier ONNX files (49 tiles and none)")
    args = parser.parse_args(argv)
    try:
        if not 0.0 < args.reject_above < 1.0:
            raise CropBenchError(f"crop_bench: --reject-above must be in (0, 1), got {args.reject_above}")
        started = time.perf_counter()
        crop_set = load_crops(args.crops)
        for model in args.models:
            side = model_side(model) or crop_set.crops.shape[1]
            look = first_look(model, crop_set.crops, side)
            print(report_line(f"{model.name} ({side} px)", reading(look, crop_set, args.reject_above)))
    except CropBenchError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"crop_bench: {len(crop_set.crops)} crops, {time.perf_counter() - started:.0f} s wall")
    return 0
