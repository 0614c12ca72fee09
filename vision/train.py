"""Training recipe for the ONNX models (needs the `train` extra; never imported at run time).

Stages, each a sub-command, each deterministic for its seed:

    python -m vision.train data       --scenes DIR --out DIR     # scenes -> detector set + classifier crops
    python -m vision.train merge      --out DIR --from DIR[:N[:M]]...  # several data outputs as one set
    python -m vision.train detector   --data DIR --epochs N      # 1-class "tile" detector (YOLO11n)
    python -m vision.train classifier --data DIR --epochs N      # 49 tiles (+ "none") crop classifier
    python -m vision.train second-look-data --scenes DIR... --out DIR  # flowers and seasons, legible
    python -m vision.train classifier --data DIR --weights PT    # ... the second look, on those alone
    python -m vision.train export     --detector PT --classifier PT [--second-look PT] --out models/
    python -m vision.train text-look-features --scenes DIR --out F.npz  # recogniser features per tile
    python -m vision.train text-look  --features F.npz... --out models/  # head + backbone (text look)
    python -m vision.train text-look-crops --scenes DIR --out C.npz       # tile faces for fine-tuning
    python -m vision.train text-look-tune --start ONNX --crops C.npz... --out DIR  # all of it, end to end
    python -m vision.train rank-look --out DIR          # the flowers' and seasons' corner-number reader

Scenes come from `python -m datasets.synth`. Checkpoints and logs go under `--project`
(default ~/.cache/mahjong-train), never into the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Offline before ultralytics is imported: no font, weight or dataset downloads, no telemetry.
os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("YOLO_VERBOSE", "True")

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from vision.train_entry import run

    sys.exit(run())

import cv2
import numpy as np

from vision.box_filters import intersections, long_short_sides
from vision.classes import CLASS_INDEX, CLASSES, NOT_A_TILE
from vision.crops import crop_tiles
from vision.ensemble import EnsembleError, join_files, split_file
from vision.onnx_files import OnnxFileError, class_names, load_model
from vision.rank_look_train import RankTraining
from vision.recover import RecoverError, recover
from vision.sidecar import (
    SECOND_LOOK,
    SIDECAR,
    ModelError,
    RankLookConfig,
    TextLookConfig,
    check_rank_look,
    second_look_names_ok,
)
from vision.text_look_tune import TuneSettings
from vision.tile_set import COPIES_IN_SET
from vision.train_entry import TRAIN_EXTRA_MODULES

DEFAULT_PROJECT = Path.home() / ".cache" / "mahjong-train"
CROP_MARGIN = 0.15
CLASSIFIER_SIZE = 96
DETECTOR_SIZE = 512
PIP_SIZE = 128  # the classifier's crop (`datasets.pips.CROP_SIZE`)
# a "no tile" crop cut from a detector's box is named "<scene>_hard<k>_<i>" (`vision.crop_bench`)
HARD_MARK = "_hard"
# the classifier's outputs: the 49 tiles, then "no tile here" (trained on `negative_boxes` crops)
TRAIN_CLASSES = (*CLASSES, NOT_A_TILE)


def class_folder(index: int) -> str:
    """Folder name whose alphabetical order equals the class order (ultralytics sorts folder names)."""
    return f"{index:02d}_{TRAIN_CLASSES[index]}"


def _overlaps(box: np.ndarray, tiles: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """IoU of `box` with each tile, the share of each tile inside `box`, and of `box` inside each tile."""
    inter = intersections(box, tiles)
    area = (box[2] - box[0]) * (box[3] - box[1])
    tile_areas = (tiles[:, 2] - tiles[:, 0]) * (tiles[:, 3] - tiles[:, 1])
    return inter / (area + tile_areas - inter), inter / tile_areas, inter / area


def negative_boxes(
    tiles: np.ndarray,
    width: int,
    height: int,
    n: int,
    rng: np.random.Generator,
    tries: int = 30,
    props: np.ndarray | None = None,
) -> np.ndarray:
    """Up to `n` tile-sized boxes that hold no tile: (K, 4) float32 xyxy, K <= n.

    Half lie anywhere in the photo (table, cloth), half beside a tile, shifted by half to one
    tile width or height (the gap between two tiles, a tile's side, the table at a row's end): what a
    detector fires on by mistake. With `props` (M, 4) xyxy (slippers, cards, cups: the scene meta's
    `props`), a third are centred on one of them instead. A box is kept only if it overlaps no tile
    by IoU >= 0.3, covers no more than a third of any tile, and lies no more than half inside one; so
    a badly placed box around a real tile, or one around two tiles, is never taught as "no tile".
    """
    found: list[np.ndarray] = []
    if not len(tiles):
        return np.zeros((0, 4), np.float32)
    sizes = tiles[:, 2:] - tiles[:, :2]
    for _ in range(n * tries):
        if len(found) == n:
            break
        k = int(rng.integers(len(tiles)))
        w, h = sizes[k] * np.exp(rng.normal(0, 0.2, 2))
        if props is not None and len(props) and rng.random() < 1 / 3:
            x1, y1, x2, y2 = props[int(rng.integers(len(props)))]
            cx, cy = rng.uniform(x1, x2), rng.uniform(y1, y2)
            # a prop at the photo's edge still gives a crop: the box is pulled inside
            cx, cy = float(np.clip(cx, w / 2, width - w / 2)), float(np.clip(cy, h / 2, height - h / 2))
        elif rng.random() < 0.5:
            cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        else:
            shift = rng.uniform(0.5, 1.0) * rng.choice([-1, 1])
            cx, cy = (tiles[k, :2] + tiles[k, 2:]) / 2
            if rng.random() < 0.5:
                cx += shift * sizes[k, 0]
            else:
                cy += shift * sizes[k, 1]
        box = np.array([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], np.float32)
        if box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height:
            continue
        if holds_no_tile(box, tiles):
            found.append(box)
    return np.array(found, np.float32).reshape(-1, 4)


def holds_no_tile(box: np.ndarray, tiles: np.ndarray) -> bool:
    """Whether `box` may be taught as "no tile": it overlaps no tile by IoU >= 0.3, covers no more than
    a third of any tile and lies no more than half inside one (a loose box around a tile, part of one
    or one around two are the layout's and the box filters' to judge, not the classifier's)."""
    if not len(tiles):
        return True
    iou, tile_inside, box_inside = _overlaps(box, tiles)
    return bool(iou.max() < 0.3 and tile_inside.max() <= 1 / 3 and box_inside.max() <= 0.5)


def hard_negatives(detected: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """The boxes (K, 4) of `detected` (a detector's, xyxy) that hold no tile of `tiles` (`holds_no_tile`):
    what that detector takes for a tile and is not (a finger, a chrome frame, a slipper, a card), so
    that the classifier's "no tile" class learns what it is actually shown, not only random table."""
    kept = [box for box in np.asarray(detected, np.float32).reshape(-1, 4) if holds_no_tile(box, tiles)]
    return np.array(kept, np.float32).reshape(-1, 4)


def jitter_boxes(xyxy: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """Shift and scale boxes a little, as a detector's boxes differ from the ground truth."""
    size = np.maximum(xyxy[:, 2:] - xyxy[:, :2], 1.0)
    centre = (xyxy[:, :2] + xyxy[:, 2:]) / 2 + rng.normal(0, amount, size.shape) * size
    size = size * np.exp(rng.normal(0, amount, size.shape))
    return np.concatenate([centre - size / 2, centre + size / 2], axis=1)


def _write_crop(path: Path, rgb_crop: np.ndarray) -> None:
    cv2.imwrite(str(path), cv2.cvtColor(rgb_crop, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 92])


def _write_no_tile_crops(stem: Path, rgb: np.ndarray, boxes: np.ndarray, crop_size: int) -> int:
    """Cut `boxes` of `rgb` as "no tile" crops `stem`0.jpg, `stem`1.jpg, ...; how many were written."""
    for i, crop in enumerate(crop_tiles(rgb, boxes, crop_size, CROP_MARGIN)):
        _write_crop(stem.parent / f"{stem.name}{i}.jpg", crop)
    return len(boxes)


def split_scenes(scenes: Path, val_fraction: float, seed: int) -> dict[str, list[str]]:
    """The scene names of `scenes`/meta, shuffled by `seed`: the first `val_fraction` (at least
    one) for "val", the rest for "train". Exits with one line when there are none."""
    metas = sorted((scenes / "meta").glob("*.json"))
    if not metas:
        sys.exit(f"no scene metas under {scenes / 'meta'}")
    names = [p.stem for p in metas]
    random.Random(seed).shuffle(names)
    n_val = max(1, int(len(names) * val_fraction))
    return {"val": names[:n_val], "train": names[n_val:]}


def _scene_rgb(path: Path) -> np.ndarray:
    """A rendered scene as RGB; exits with one line when the file is missing or unreadable."""
    bgr = cv2.imread(str(path))
    if bgr is None:
        sys.exit(f"data: cannot read the scene image {path}")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def shrunk_scene(rgb: np.ndarray, factor: float) -> np.ndarray:
    """`rgb` shrunk by `factor` and saved as a phone would, by the bench's own `resized_jpeg` (as
    `bench_tile_sizes` shrinks a scene to a tile width), so the crops match what it measures; decoded
    here, as `read_image` refuses a photo under 64 px that a scene of small tiles may shrink to."""
    from vision.bench import resized_jpeg

    decoded = cv2.imdecode(np.frombuffer(resized_jpeg(rgb, factor), np.uint8), cv2.IMREAD_COLOR)
    if decoded is None:
        sys.exit("data: cannot pass a shrunk scene through JPEG")
    return cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB)


def build_data(
    scenes: Path,
    out: Path,
    val_fraction: float,
    seed: int,
    crops_per_tile: int,
    negatives_per_scene: int = 0,
    rare_crops_per_tile: int | None = None,
    crop_size: int = CLASSIFIER_SIZE,
    tile_px: tuple[float, float] | None = None,
    detectors: Sequence[Callable[[np.ndarray], np.ndarray]] = (),
) -> None:
    """Detector set (all scenes, single class at train time) and classifier crops from the scene metas.

    Crops are `crop_size` pixels square: train the classifier at that `--imgsz`, as a crop scaled up
    from a smaller one holds no finer strokes.

    With `negatives_per_scene` > 0 each scene also gives that many "no tile" crops (`negative_boxes`).
    `rare_crops_per_tile` (default: `crops_per_tile`) training crops are cut of each tile a set holds
    once (flowers, seasons, animals): they differ from each other in small marks (a corner numeral,
    a name, the ink), and they are the classifier's weakest classes even in its own val set.

    With `tile_px` (low, high) each scene's crops are cut from the scene shrunk (`shrunk_scene`) until
    its typical tile is a width drawn between them: the crops a webcam frame or a far photo gives.

    Each of `detectors` (an RGB scene -> its boxes, xyxy) is run on every scene, and the boxes it
    finds that hold no tile (`hard_negatives`) are cut as "no tile" crops too.
    """
    rare_crops = crops_per_tile if rare_crops_per_tile is None else max(crops_per_tile, rare_crops_per_tile)
    rng = np.random.default_rng(seed)
    splits = split_scenes(scenes, val_fraction, seed)

    det = out / "detector"
    for split, split_names in splits.items():
        for kind in ("images", "labels"):
            (det / kind / split).mkdir(parents=True, exist_ok=True)
        for name in split_names:
            image = next((scenes / "images").glob(name + ".*"))
            link = det / "images" / split / image.name
            if not link.exists():
                link.symlink_to(image.resolve())
            shutil.copy(scenes / "labels" / f"{name}.txt", det / "labels" / split / f"{name}.txt")
    (det / "data.yaml").write_text(
        f"path: {det.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: tile\n"
    )

    cls = out / "classifier"
    with_none = negatives_per_scene > 0 or len(detectors) > 0
    n_classes = len(TRAIN_CLASSES) if with_none else len(CLASSES)
    for split in splits:
        for index in range(n_classes):
            (cls / split / class_folder(index)).mkdir(parents=True, exist_ok=True)
    counts = np.zeros(n_classes, int)
    for split, split_names in splits.items():
        no_tile = cls / split / class_folder(len(CLASSES))
        for name in split_names:
            meta = json.loads((scenes / "meta" / f"{name}.json").read_text())
            image_path = scenes / meta["image"]
            rgb = _scene_rgb(image_path)
            tiles = meta["tiles"]
            if not tiles:
                continue
            xyxy = np.array([t["xyxy"] for t in tiles], np.float32)
            props = np.array([p["xyxy"] for p in meta.get("props", [])], np.float32).reshape(-1, 4)
            if tile_px is not None:
                factor = float(rng.uniform(*tile_px)) / float(np.median(long_short_sides(xyxy)[:, 1]))
                if factor < 1.0:
                    rgb, xyxy, props = shrunk_scene(rgb, factor), xyxy * factor, props * factor
            if negatives_per_scene > 0:
                height, width = rgb.shape[:2]
                empty = negative_boxes(xyxy, width, height, negatives_per_scene, rng, props=props)
                written = _write_no_tile_crops(no_tile / f"{name}_none", rgb, empty, crop_size)
                counts[-1] += written * (split == "train")
            for d, detector in enumerate(detectors):
                found = hard_negatives(detector(rgb), xyxy)
                written = _write_no_tile_crops(no_tile / f"{name}{HARD_MARK}{d}_", rgb, found, crop_size)
                counts[-1] += written * (split == "train")
            for k in range(rare_crops if split == "train" else 1):
                # Training crops are cut around jittered boxes, as a detector's boxes are never exact.
                boxes = jitter_boxes(xyxy, rng, 0.07) if split == "train" else xyxy
                crops = crop_tiles(rgb, boxes.astype(np.float32), crop_size, CROP_MARGIN)
                for i, (tile, crop) in enumerate(zip(tiles, crops, strict=True)):
                    if k >= crops_per_tile and COPIES_IN_SET[tile["code"]] != 1:
                        continue
                    index = CLASSES.index(tile["code"])
                    counts[index] += split == "train"
                    _write_crop(cls / split / class_folder(index) / f"{name}_{i}_{k}.jpg", crop)
    print(f"detector set: {len(splits['train'])} train / {len(splits['val'])} val scenes -> {det}")
    tile_counts = counts[: len(CLASSES)]
    print(
        f"classifier crops per class (train): min {tile_counts.min()} median {int(np.median(tile_counts))}"
        f"{f', no tile {counts[-1]}' if with_none else ''} -> {cls}"
    )


def scene_detector(models_dir: Path) -> Callable[[np.ndarray], np.ndarray]:
    """The detector of the models folder `models_dir` as its sidecar runs it (threshold, grid), as a
    function of an RGB scene to its boxes; exits with one line when the folder cannot be loaded."""
    from vision.onnx_models import TileDetector, make_session
    from vision.sidecar import load_config

    try:
        config = load_config(models_dir).detector
        session = make_session(models_dir / config.file)
        detector = TileDetector.from_session(session, config)
    except ModelError as error:
        sys.exit(f"data: --hard-negatives {models_dir}: {error}")
    return lambda rgb: detector.detect(np.ascontiguousarray(rgb))[0]


def _detector_images(source: Path, split: str) -> list[str]:
    """Image paths of a `data` output's detector split, or of a previous mix's list file."""
    listed = source / f"{split}.txt"
    if listed.is_file():
        return listed.read_text().split()
    return sorted(str(p.resolve()) for p in (source / "detector" / "images" / split).glob("*.jpg"))


def parse_source(text: str) -> tuple[Path, int | None, int | None]:
    """DIR[:TRAIN[:VAL]] -> (dir, detector train images, detector val images); a count left out = all."""
    parts = text.split(":")
    if len(parts) > 3 or not parts[0]:
        raise argparse.ArgumentTypeError(f"expected DIR[:TRAIN[:VAL]], got {text!r}")
    counts = [int(c) if c else None for c in parts[1:]] + [None, None]
    return Path(parts[0]).expanduser(), counts[0], counts[1]


def merge(out: Path, sources: list[tuple[Path, int | None, int | None]], seed: int) -> None:
    """One training set from several `data` outputs, by links, not copies.

    Classifier: every crop of every source (class folders merged). Detector: TRAIN/VAL images
    sampled per source (seeded), listed in train.txt/val.txt.
    """
    rng = random.Random(seed)
    lists: dict[str, list[str]] = {"train": [], "val": []}
    crops = {"train": 0, "val": 0}
    for source, n_train, n_val in sources:
        for split, n in (("train", n_train), ("val", n_val)):
            images = _detector_images(source, split)
            lists[split] += images if n is None or n >= len(images) else rng.sample(images, n)
            for folder in sorted((source / "classifier" / split).glob("*")):
                target = out / "classifier" / split / folder.name
                target.mkdir(parents=True, exist_ok=True)
                for crop in folder.iterdir():
                    link = target / f"{source.name}_{crop.name}"
                    if not link.exists():
                        link.symlink_to(crop.resolve())
                    crops[split] += 1
    det = out / "detector"
    det.mkdir(parents=True, exist_ok=True)
    for split, images in lists.items():
        (out / f"{split}.txt").write_text("\n".join(images) + "\n")
    (det / "data.yaml").write_text(
        f"path: {out.resolve()}\ntrain: train.txt\nval: val.txt\nnames:\n  0: tile\n"
    )
    print(f"detector: {len(lists['train'])} train / {len(lists['val'])} val images -> {det}")
    print(f"classifier: {crops['train']} train / {crops['val']} val crops -> {out / 'classifier'}")


def second_look_data(
    out: Path,
    scenes: list[Path],
    min_side: float,
    crops_per_tile: int,
    val_fraction: float,
    seed: int,
    size: int = CLASSIFIER_SIZE,
    also: tuple[str, ...] = (),
) -> None:
    """The second look's training set: `size` square crops of the flowers and seasons of scene
    sets (and of the faces `also`), cut only where the tile's short side is at least `min_side`
    pixels and nine tenths of it show (train the second look at the same `--imgsz`).

    A flower differs from the next only in a corner number or a name, which a small or hidden tile
    does not show: the first classifier's crops of them are mostly guesses to learn from. Class
    folders keep the classifier's names ("34_F1" ...), so the exported model names its faces in
    the classifier's order.
    """
    rng = np.random.default_rng(seed)
    codes = set(SECOND_LOOK) | set(also)
    folders = {code: class_folder(CLASS_INDEX[code]) for code in sorted(codes, key=CLASS_INDEX.__getitem__)}
    for split in ("train", "val"):
        for folder in folders.values():
            (out / "classifier" / split / folder).mkdir(parents=True, exist_ok=True)
    counts = {"train": 0, "val": 0}
    for source in scenes:
        splits = split_scenes(source, val_fraction, seed)
        for split, name in ((part, name) for part in ("val", "train") for name in splits[part]):
            meta = json.loads((source / "meta" / f"{name}.json").read_text())
            tiles = [t for t in meta["tiles"] if t["code"] in codes and _legible(t, min_side)]
            if not tiles:
                continue
            rgb = _scene_rgb(source / meta["image"])
            xyxy = np.array([t["xyxy"] for t in tiles], np.float32)
            for k in range(crops_per_tile if split == "train" else 1):
                boxes = jitter_boxes(xyxy, rng, 0.07) if split == "train" else xyxy
                crops = crop_tiles(rgb, boxes.astype(np.float32), size, CROP_MARGIN)
                for i, (tile, crop) in enumerate(zip(tiles, crops, strict=True)):
                    target = out / "classifier" / split / folders[tile["code"]]
                    _write_crop(target / f"{source.name}_{name}_{i}_{k}.jpg", crop)
                    counts[split] += 1
    print(f"second look: {counts['train']} train / {counts['val']} val crops -> {out / 'classifier'}")


def _legible(tile: dict[str, Any], min_side: float) -> bool:
    x1, y1, x2, y2 = tile["xyxy"]
    return tile.get("face_up", True) and tile.get("visible", 1.0) >= 0.9 and min(x2 - x1, y2 - y1) >= min_side


def set_torch_threads(trainer: object) -> None:
    """ultralytics pins torch to one thread on a 2-core machine; two are 1.6-1.8x faster.

    TRAIN_THREADS overrides it: when two trainings share the machine, one thread each avoids the
    oversubscription that made both ten times slower here.
    """
    import torch

    threads = os.environ.get("TRAIN_THREADS", str(os.cpu_count() or 1))
    threads_file = os.environ.get("TRAIN_THREADS_FILE")
    if threads_file and Path(threads_file).is_file():
        # Lets a long run take more cores between epochs once a neighbouring run has finished.
        threads = Path(threads_file).read_text().strip() or threads
    torch.set_num_threads(int(threads))


@dataclass(frozen=True)
class Compute:
    """Where a training runs: the 2-core CPU by default, or a lent GPU (`device` "0") with
    `workers` loader processes; `hours`, when set, ends the run after that long, its learning-rate
    schedule fitted to the time (ultralytics `time`), so a lease of known length is used whole."""

    device: str = "cpu"
    workers: int = 0
    hours: float | None = None


@dataclass(frozen=True)
class Optimiser:
    """How the weights move: ultralytics' optimiser ("auto" picks one and its rate itself), the
    initial rate and the warm-up. Fine-tuning a trained model wants a small rate and a short warm-up:
    the default warm-up (3 epochs, bias rate 0.1) took a rebuilt detector from 0.92 mAP50 to 0.48 in
    one epoch."""

    optimizer: str = "auto"
    lr0: float = 0.01
    warmup_epochs: float = 3.0


@dataclass(frozen=True)
class Run:
    """What every training run names: its length, input size and batch, where its checkpoints go
    (`project`/`name`), its seed, the checkpoint it starts from (None: random init, of `scale`) and
    `compute`."""

    epochs: int
    imgsz: int
    batch: int
    project: Path
    name: str
    seed: int
    resume_from: str | None = None
    compute: Compute = Compute()
    optimiser: Optimiser = Optimiser()
    scale: str = "n"  # the YOLO11 size built for random init (a checkpoint carries its own)

    def model(self, task_yaml: str) -> str:
        """What the trainer loads: the checkpoint, else this scale of `task_yaml` ("yolo11{}.yaml")."""
        return self.resume_from or task_yaml.format(self.scale)

    def train_args(self) -> dict[str, Any]:
        """The `train` arguments both models share: offline runs, no plots, no mirrored tiles
        (mirrored characters are not tiles). AMP stays off on a GPU too: its check loads
        yolo11n.pt, a download, and these small models are bound by the loader."""
        time_limit = {} if self.compute.hours is None else {"time": self.compute.hours}
        return {
            "epochs": self.epochs,
            "imgsz": self.imgsz,
            "batch": self.batch,
            "device": self.compute.device,
            "workers": self.compute.workers,
            **time_limit,
            "project": str(self.project),
            "name": self.name,
            "exist_ok": True,
            "seed": self.seed,
            "deterministic": False,
            "plots": False,
            "pretrained": self.resume_from is not None,
            "amp": False,
            "fliplr": 0.0,
            "patience": 100,
            "optimizer": self.optimiser.optimizer,
            "lr0": self.optimiser.lr0,
            "warmup_epochs": self.optimiser.warmup_epochs,
        }


# the YOLO11 model files random init builds, by scale (ultralytics ships them; no weights)
DETECTOR_YAML = "yolo11{}.yaml"
CLASSIFIER_YAML = "yolo11{}-cls.yaml"
SCALES = ("n", "s", "m")  # larger ones cannot meet the run-time budget on a laptop CPU

# where each training stage finds its data under --data (`data` and `merge` write it so)
TRAINING_DATA = {"detector": "detector/data.yaml", "classifier": "classifier", "pip-detector": "data.yaml"}


def train_detector(run: Run, data: Path, fraction: float) -> None:
    model = _cpu_model(run.model(DETECTOR_YAML))
    model.train(
        data=str(data / "detector" / "data.yaml"),
        **run.train_args(),
        single_cls=True,
        mosaic=0.5,
        degrees=0.0,
        close_mosaic=2,
        cache="ram",
        fraction=fraction,
        val=True,
    )


def train_pip_detector(run: Run, data: Path) -> None:
    """The dots and sticks of the tile in the middle of a crop (`python -m datasets.pips`)."""
    model = _cpu_model(run.model(DETECTOR_YAML))
    model.train(
        data=str(data / "data.yaml"),
        **run.train_args(),
        # the crop is the sample: a mosaic of four would put four middle tiles in one, and the
        # generator already turns, moves and scales the tile as a detected one lies in its crop
        mosaic=0.0,
        degrees=0.0,
        translate=0.03,
        scale=0.1,
        cache="ram",
        val=True,
    )


def _cpu_model(weights_or_yaml: str) -> Any:
    """An ultralytics YOLO that trains on every core (see `set_torch_threads`)."""
    from ultralytics import YOLO

    model = YOLO(weights_or_yaml)
    model.add_callback("on_pretrain_routine_start", set_torch_threads)
    model.add_callback("on_train_epoch_start", set_torch_threads)
    return model


def train_classifier(run: Run, data: Path, crop_cut: float = 0.15, erasing: float = 0.0) -> None:
    model = _cpu_model(run.model(CLASSIFIER_YAML))
    model.train(
        data=str(data / "classifier"),
        **run.train_args(),
        # > 0: this share of crops has a random patch blanked, so no single mark carries the reading
        erasing=erasing,
        auto_augment="randaugment",
        # A random crop of at least 85% of the area (`crop_cut` 0.15): a smaller one can cut off the
        # dots that tell 6p from 9p, or a flower's corner number.
        scale=crop_cut,
    )


@dataclass(frozen=True)
class RunSettings:
    """The sidecar's run-time settings, chosen on the held-out synthetic set (never on real photos)."""

    conf: float = 0.4
    contain: float | None = 0.7
    straddle: float | None = 0.45
    odd_size: float | None = 1.4
    odd_size_below: float = 0.75
    rotations: int = 1
    grid: int = 1
    reject_above: float = 0.5
    odd_shape: float | None = 1.25
    odd_shape_below: float = 0.7
    odd_shape_unsure: float = 0.5
    second_look_above: float = 0.3


def _onnx_of(checkpoint: Path, imgsz: int | None, dynamic: bool) -> Path:
    """An exported ONNX file is taken as it is (a model shipped before, an `ensemble`); a checkpoint
    is exported, at `imgsz` or else at the size it was trained at."""
    if checkpoint.suffix == ".onnx":
        return checkpoint
    from ultralytics import YOLO

    model = YOLO(str(checkpoint))
    size = imgsz or int(model.ckpt.get("train_args", {}).get("imgsz", CLASSIFIER_SIZE))
    return Path(model.export(format="onnx", imgsz=size, dynamic=dynamic, simplify=True, opset=17, nms=False))


def _class_folders(onnx_path: Path) -> tuple[list[str], int | None]:
    """The class folders and input side embedded in an exported classifier; exits with one line."""
    try:
        return class_names(load_model(onnx_path, "export"), onnx_path, "export")
    except OnnxFileError as error:
        sys.exit(str(error))


def export(
    detector: Path,
    classifier: Path,
    out: Path,
    det_imgsz: int,
    cls_imgsz: int,
    settings: RunSettings = RunSettings(),
    second_look: Path | None = None,
) -> None:
    """Export the checkpoints to ONNX (or take ONNX files as they are) and write the sidecar that the
    run time reads (keeping the `text_look` and `glyphs` sections of one already in `out`). Every input
    is checked before anything is written: a half-written `out` (new ONNX files under the old sidecar)
    would read otherwise than either."""
    missing = [
        str(path) for path in (detector, classifier, second_look) if path is not None and not path.is_file()
    ]
    if missing:
        sys.exit(f"export: no such file: {', '.join(missing)}")
    if not 0.0 < settings.conf < 1.0:
        sys.exit(f"export: --conf must be between 0 and 1, got {settings.conf:g}")
    out.mkdir(parents=True, exist_ok=True)
    cls_onnx = _onnx_of(classifier, cls_imgsz, dynamic=True)
    names = _class_folders(cls_onnx)[0]
    with_reject = len(names) == len(TRAIN_CLASSES)
    expected = [class_folder(i) for i in range(len(TRAIN_CLASSES) if with_reject else len(CLASSES))]
    if names != expected:
        sys.exit(f"classifier classes {names[:3]}..{names[-2:]} differ from {expected[:3]}..{expected[-2:]}")
    det_onnx = _onnx_of(detector, det_imgsz, dynamic=False)
    for source, name in ((det_onnx, "tile_detector.onnx"), (cls_onnx, "tile_classifier.onnx")):
        if source.resolve() != (out / name).resolve():
            shutil.copy(source, out / name)
    sidecar = {
        "detector": {
            "file": "tile_detector.onnx",
            "imgsz": [det_imgsz, det_imgsz],
            "names": ["tile"],
            "conf": settings.conf,
            "iou": 0.6,
            "contain": settings.contain,
            "straddle": settings.straddle,
            "odd_size": settings.odd_size,
            "odd_size_below": settings.odd_size_below,
            "grid": settings.grid,
        },
        "classifier": {
            "file": "tile_classifier.onnx",
            "imgsz": cls_imgsz,
            "names": list(CLASSES),
            "crop_margin": CROP_MARGIN,
            "rotations": settings.rotations,
        },
    }
    if with_reject:
        sidecar["classifier"] |= {"reject": NOT_A_TILE, "reject_above": settings.reject_above}
    sidecar["classifier"] |= {
        "odd_shape": settings.odd_shape,
        "odd_shape_below": settings.odd_shape_below,
        "odd_shape_unsure": settings.odd_shape_unsure,
    }
    if second_look is not None:
        sidecar["second_look"] = _export_second_look(second_look, out, settings.second_look_above)
    sidecar |= _kept_sections(out / "models.json")
    (out / "models.json").write_text(json.dumps(sidecar, indent=2) + "\n")
    print(f"exported to {out}")


# sidecar sections export does not build (the text look is built by `text-look`, the glyph look
# names a file in an installed package): an export into a folder keeps what its sidecar had
KEPT_SECTIONS = ("text_look", "glyphs")


def _kept_sections(sidecar: Path) -> dict[str, Any]:
    """The KEPT_SECTIONS of the sidecar already at `sidecar` (none if there is none, or it is not JSON)."""
    try:
        data = json.loads(sidecar.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {key: data[key] for key in KEPT_SECTIONS if data.get(key) is not None}


def _export_second_look(checkpoint: Path, out: Path, above: float) -> dict[str, object]:
    """Export at the size the second look was trained at (its crops are cut at that size)."""
    onnx_path = _onnx_of(checkpoint, None, dynamic=True)
    folders, imgsz = _class_folders(onnx_path)
    codes = second_look_codes(folders)
    if onnx_path.resolve() != (out / "tile_second_look.onnx").resolve():
        shutil.copy(onnx_path, out / "tile_second_look.onnx")
    size = imgsz or CLASSIFIER_SIZE
    return {"file": "tile_second_look.onnx", "names": list(codes), "above": above, "imgsz": size}


def second_look_codes(folders: list[str]) -> tuple[str, ...]:
    """The tile codes of a second look's class folders ("18_1s", "34_F1" ...); exits with one line
    unless they are classifier folders in order that hold the eight flowers and seasons."""
    codes = tuple(folder.split("_", 1)[-1] for folder in folders)
    known = all(code in CLASS_INDEX for code in codes)
    named = known and [class_folder(CLASS_INDEX[code]) for code in codes] == folders
    if not (named and second_look_names_ok(codes)):
        sys.exit(f"second look classes {folders} are not the flowers and seasons (and other faces) in order")
    return codes


def averaged(
    first: Mapping[str, np.ndarray], second: Mapping[str, np.ndarray], weight: float
) -> dict[str, np.ndarray]:
    """`weight` of each floating-point entry of `first` plus the rest of `second`'s, summed in float32
    and stored in the entry's own type (a "soup" of two fine-tunings of one model: it kept the gains
    of both where either alone traded one held-out set for another); other entries (BatchNorm's
    batch count) are `second`'s. Exits with one line when the two are not the same model."""
    if first.keys() != second.keys():
        sys.exit("soup: the two checkpoints hold different layers")
    out = {}
    w = np.float32(weight)
    for key, a in first.items():
        b = second[key]
        if a.shape != b.shape:
            sys.exit(f"soup: {key} is {a.shape} in one checkpoint and {b.shape} in the other")
        if a.dtype.kind == "f":
            out[key] = (w * a.astype(np.float32) + (np.float32(1) - w) * b.astype(np.float32)).astype(a.dtype)
        else:
            out[key] = b
    return out


def soup(first: Path, second: Path, weight: float, out: Path) -> None:
    """`out`: the checkpoint `second` with `averaged` weights (ultralytics format, no EMA)."""
    import copy

    import torch

    a = torch.load(first, map_location="cpu", weights_only=False)
    b = torch.load(second, map_location="cpu", weights_only=False)
    first_state, second_state = (
        {k: v.detach().cpu().numpy() for k, v in c["model"].state_dict().items()} for c in (a, b)
    )
    model = copy.deepcopy(b["model"])
    mean = averaged(first_state, second_state, weight)
    model.load_state_dict({k: torch.from_numpy(v) for k, v in mean.items()})
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({**b, "model": model, "ema": None}, out)
    print(f"soup: {weight:g} x {first} + {1 - weight:g} x {second} -> {out}")


def _run(args: argparse.Namespace) -> Run:
    if args.workers < 0 or (args.hours is not None and args.hours <= 0):
        raise SystemExit("train: --workers must be >= 0 and --hours > 0")
    if args.epochs < 1 or args.imgsz < 32 or args.batch < 1:
        raise SystemExit(
            f"train: --epochs and --batch must be >= 1 and --imgsz >= 32, got {args.epochs}, "
            f"{args.batch}, {args.imgsz}"
        )
    if args.weights is not None and not Path(args.weights).is_file():
        raise SystemExit(f"train: --weights {args.weights}: no such file")
    if args.weights is not None and args.scale != "n":
        raise SystemExit(f"train: --scale {args.scale} builds a model from scratch; --weights brings its own")
    compute = Compute(device=args.device, workers=args.workers, hours=args.hours)
    optimiser = Optimiser(args.optimizer, args.lr0, args.warmup_epochs)
    return Run(
        args.epochs,
        args.imgsz,
        args.batch,
        args.project,
        args.name,
        args.seed,
        args.weights,
        compute,
        optimiser,
        args.scale,
    )


def _px_range(text: str) -> tuple[float, float]:
    """`LOW:HIGH` as two positive widths, low first; argparse reports anything else in one line."""
    try:
        low, high = (float(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LOW:HIGH in px, got {text!r}") from None
    if not 0 < low <= high:
        raise argparse.ArgumentTypeError(f"expected 0 < LOW <= HIGH, got {text!r}")
    return low, high


def _add_scene_tile_options(p: argparse.ArgumentParser) -> None:
    """What the two per-tile writers (features, crops) take: a scene folder, an .npz out, a limit."""
    p.add_argument("--scenes", type=Path, required=True, help="a `python -m datasets.synth` folder")
    p.add_argument("--out", type=Path, required=True, help="an .npz file")
    p.add_argument("--limit", type=int, default=None, help="the first N scenes only")


def _add_recogniser_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--recogniser",
        type=Path,
        default=None,
        help="a PP-OCR recogniser's ONNX file whose backbone reads the tiles (default: the glyph look's)",
    )


def _add_text_look_options(p: argparse.ArgumentParser) -> None:
    """What the two text-look writers (head, tuning) take: the out folder, the sidecar's settings
    (checked by `_text_look_config`) and the seed."""
    p.add_argument(
        "--out", type=Path, required=True, help="folder for tile_text_look.onnx (and its models.json)"
    )
    p.add_argument(
        "--weight", type=float, default=TextLookConfig(file="").weight, help="the look's share, 0..1"
    )
    p.add_argument(
        "--unsure-below", type=float, default=0.9, help="read only boxes the classifier is less sure of"
    )
    p.add_argument("--seed", type=int, default=0, help="training seed (default 0)")


def _text_look_config(args: argparse.Namespace) -> TextLookConfig:
    """The sidecar settings a text-look command writes, its --weight and --unsure-below checked."""
    if not 0.0 < args.weight <= 1.0:
        sys.exit(f"{args.stage}: --weight must be in (0, 1], got {args.weight}")
    if not 0.0 < args.unsure_below <= 1.0:
        sys.exit(f"{args.stage}: --unsure-below must be in (0, 1], got {args.unsure_below}")
    return TextLookConfig(file="", weight=args.weight, unsure_below=args.unsure_below)


def _text_look_stage(args: argparse.Namespace) -> None:
    from vision.text_look_train import TextLookError, write_features, write_text_look

    try:
        if args.stage == "text-look-features":
            config = TextLookConfig(file="")
            tiles = write_features(args.scenes, args.out, config, args.limit, args.recogniser)
            print(f"text-look-features: {tiles} tiles of {args.scenes} -> {args.out}")
            return
        config = _text_look_config(args)
        if args.epochs < 1 or args.hidden < 1:
            sys.exit(f"text-look: --epochs and --hidden must be at least 1, got {args.epochs}, {args.hidden}")
        target = write_text_look(
            args.features, args.out, config, args.hidden, args.epochs, args.seed, args.recogniser
        )
    except (TextLookError, OSError, KeyError) as error:
        sys.exit(f"{args.stage}: {error}")
    print(f"text-look: {len(args.features)} feature files -> {target}")


def _text_look_tune_stage(args: argparse.Namespace) -> None:
    from vision.text_look_train import TextLookError
    from vision.text_look_tune import write_crops, write_tuned

    try:
        if args.stage == "text-look-crops":
            tiles = write_crops(args.scenes, args.out, TextLookConfig(file=""), args.limit)
            print(f"text-look-crops: {tiles} tiles of {args.scenes} -> {args.out}")
            return
        config = _text_look_config(args)
        if args.steps < 1 or args.batch < 1:
            sys.exit(
                f"text-look-tune: --steps and --batch must be at least 1, got {args.steps}, {args.batch}"
            )
        settings = TuneSettings(
            steps=args.steps,
            batch=args.batch,
            lr_backbone=args.lr_backbone,
            lr_head=args.lr_head,
            seed=args.seed,
        )
        target = write_tuned(args.start, args.crops, args.val or [], args.out, config, settings)
    except (TextLookError, OSError, KeyError, ValueError) as error:
        sys.exit(f"{args.stage}: {error}")
    print(f"text-look-tune: {args.start} tuned on {len(args.crops)} crop files -> {target}")


def _turn_list(text: str) -> tuple[int, ...]:
    """Quarter turns given as "0,2": each 0-3, none twice, at least one."""
    try:
        turns = tuple(int(part) for part in text.split(","))
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not quarter turns: {text!r} (give e.g. 0,2)") from error
    if not turns or len(set(turns)) != len(turns) or not all(0 <= t <= 3 for t in turns):
        raise argparse.ArgumentTypeError(f"not quarter turns: {text!r} (each 0-3, none twice)")
    return turns


def _rank_look_stage(args: argparse.Namespace) -> None:
    from vision.rank_look_train import RankLookError, sidecar_section, train_rank_look, write_sidecar

    settings = RankTraining(
        variants=args.variants,
        val_variants=args.val_variants,
        fixed_rounds=args.fixed_rounds,
        seed=args.seed,
        epochs=args.epochs,
        batch=args.batch,
        lr=args.lr,
        size=args.imgsz,
        workers=args.workers,
        turns=args.turns,
        window_width=args.window_width,
    )
    config = RankLookConfig(
        file="",
        above=args.above,
        floor=args.floor,
        least=args.least,
        imgsz=args.imgsz,
        window_width=args.window_width,
    )
    try:
        check_rank_look(config, "settings")
        figures = train_rank_look(settings, args.out, args.out / "rank_look_log.txt")
        if (args.out / SIDECAR).is_file():
            write_sidecar(args.out / SIDECAR, sidecar_section(settings, config))
    except (RankLookError, ModelError, OSError) as error:
        sys.exit(f"rank-look: {error}")
    print("rank-look: " + ", ".join(f"{k} {v:.4g}" for k, v in figures.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.train",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="stage", required=True)
    p = sub.add_parser("data", help="scenes as a detector set and classifier crops")
    p.add_argument("--scenes", type=Path, required=True, help="a `python -m datasets.synth` folder")
    p.add_argument("--out", type=Path, required=True, help="folder for detector/ and classifier/ (created)")
    p.add_argument(
        "--val-fraction", type=float, default=0.1, help="share of scenes held out for val (default 0.1)"
    )
    p.add_argument(
        "--crops-per-tile", type=int, default=2, help="training crops cut of each tile (default 2)"
    )
    p.add_argument(
        "--rare-crops-per-tile",
        type=int,
        default=None,
        help="training crops of each flower, season and animal (default: --crops-per-tile)",
    )
    p.add_argument(
        "--negatives-per-scene",
        type=int,
        default=0,
        help='"no tile" crops per scene (a 50th classifier class; 0 = none)',
    )
    p.add_argument(
        "--hard-negatives",
        type=Path,
        nargs="+",
        default=[],
        metavar="MODELS",
        help='models folders: the boxes each one\'s detector finds that hold no tile become "no tile" crops',
    )
    p.add_argument(
        "--crop-size", type=int, default=CLASSIFIER_SIZE, help="crop side, px (train at this --imgsz)"
    )
    p.add_argument(
        "--tile-px",
        type=_px_range,
        default=None,
        help="LOW:HIGH: shrink each scene until its typical tile is a width drawn between them (px)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the split and the crops' jitter (default 0)")
    p = sub.add_parser("merge", help="one training set from several data outputs (links)")
    p.add_argument("--out", type=Path, required=True, help="folder for the merged set (created)")
    p.add_argument(
        "--from",
        dest="sources",
        type=parse_source,
        nargs="+",
        required=True,
        metavar="DIR[:TRAIN[:VAL]]",
        help="a data output (or a merge); TRAIN/VAL detector images",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the images drawn (default 0)")
    sizes = {"detector": DETECTOR_SIZE, "classifier": CLASSIFIER_SIZE, "pip-detector": PIP_SIZE}
    stage_help = {
        "detector": "the one-class tile detector (YOLO11n)",
        "classifier": "the crop classifier over the 49 codes and none (YOLO11n-cls)",
        "pip-detector": "the pip look's detector of dots and sticks",
    }
    for stage in ("detector", "classifier", "pip-detector"):
        p = sub.add_parser(stage, help=stage_help[stage])
        p.add_argument("--data", type=Path, required=True, help="a `vision.train data` (or merge) folder")
        p.add_argument("--epochs", type=int, default=20, help="passes over the data (default 20)")
        p.add_argument(
            "--imgsz", type=int, default=sizes[stage], help=f"input side, px (default {sizes[stage]})"
        )
        batch = 64 if stage == "classifier" else 16
        p.add_argument("--batch", type=int, default=batch, help=f"images a step (default {batch})")
        p.add_argument(
            "--project",
            type=Path,
            default=DEFAULT_PROJECT,
            help="where checkpoints and logs go (default %(default)s)",
        )
        p.add_argument("--name", default=stage, help=f"the run's folder under --project (default {stage})")
        p.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
        p.add_argument("--weights", default=None, help="start from this checkpoint instead of random init")
        p.add_argument(
            "--scale",
            choices=SCALES,
            default="n",
            help="the YOLO11 size random init builds (no --weights): n (shipped), s or m",
        )
        p.add_argument("--device", default="cpu", help='"cpu", or a CUDA device such as "0" (a lent GPU)')
        p.add_argument("--workers", type=int, default=0, help="data-loading processes (0: in the trainer)")
        p.add_argument(
            "--hours", type=float, default=None, help="stop after this long; the schedule fits the time"
        )
        p.add_argument(
            "--optimizer", default=Optimiser.optimizer, help="ultralytics optimizer: auto, SGD, AdamW"
        )
        p.add_argument(
            "--lr0", type=float, default=Optimiser.lr0, help="initial learning rate (ignored by auto)"
        )
        p.add_argument(
            "--warmup-epochs",
            type=float,
            default=Optimiser.warmup_epochs,
            help="epochs the learning rate warms up",
        )
        if stage == "detector":
            p.add_argument(
                "--fraction", type=float, default=1.0, help="share of the training images used (default 1)"
            )
        elif stage == "classifier":
            p.add_argument(
                "--crop-cut", type=float, default=0.15, help="random crops keep at least 1 - this of the area"
            )
            p.add_argument(
                "--erasing", type=float, default=0.0, help="share of crops with a random patch blanked"
            )
    p = sub.add_parser("second-look-data", help="crops of the flowers and seasons large enough to read")
    p.add_argument("--scenes", type=Path, nargs="+", required=True, help="`python -m datasets.synth` folders")
    p.add_argument("--out", type=Path, required=True, help="folder for classifier/ (created)")
    p.add_argument("--min-side", type=float, default=40.0, help="the tile's short side, in pixels")
    p.add_argument("--size", type=int, default=CLASSIFIER_SIZE, help="crop side, px (train at this --imgsz)")
    p.add_argument(
        "--crops-per-tile", type=int, default=2, help="training crops cut of each tile (default 2)"
    )
    p.add_argument(
        "--val-fraction", type=float, default=0.05, help="share of crops held out for val (default 0.05)"
    )
    p.add_argument(
        "--also", nargs="*", default=[], metavar="CODE", help="more faces to read: 1s (taken for a flower)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the split and the crops (default 0)")
    p = sub.add_parser("soup", help="average the weights of two checkpoints of one model")
    p.add_argument("--first", type=Path, required=True, help="a checkpoint (.pt)")
    p.add_argument("--second", type=Path, required=True, help="another of the same model (.pt)")
    p.add_argument("--weight", type=float, default=0.5, help="the first checkpoint's share, 0..1")
    p.add_argument("--out", type=Path, required=True, help="the averaged checkpoint to write (.pt)")
    p = sub.add_parser("half", help="an ONNX file with its weights stored as float16 (computed as float32)")
    p.add_argument("--onnx", type=Path, required=True, help="the ONNX file to store in float16")
    p.add_argument("--out", type=Path, required=True, help="the ONNX file to write")
    p = sub.add_parser("ensemble", help="two exported classifiers as one ONNX graph (averaged)")
    p.add_argument("--first", type=Path, required=True, help="an exported classifier (.onnx)")
    p.add_argument("--second", type=Path, required=True, help="another, same input and classes")
    p.add_argument("--weight", type=float, default=0.5, help="the first classifier's share, 0..1")
    p.add_argument(
        "--second-size",
        type=int,
        default=None,
        help="the second reads each crop resized to this side, px (it was trained at another size)",
    )
    p.add_argument("--out", type=Path, required=True, help="the joined ONNX file to write")
    p = sub.add_parser(
        "split", help="a joined classifier's two members as standalone files (first.onnx, second.onnx)"
    )
    p.add_argument("--joined", type=Path, required=True, help="a file `ensemble` wrote")
    p.add_argument("--out", type=Path, required=True, help="the folder for first.onnx and second.onnx")
    p = sub.add_parser(
        "recover", help="a checkpoint to train from, rebuilt from a shipped ONNX classifier or detector"
    )
    p.add_argument(
        "--onnx",
        type=Path,
        required=True,
        help="an exported model, e.g. models/tile_detector.onnx, or one classifier `split` took out of "
        "models/tile_classifier.onnx",
    )
    p.add_argument(
        "--data",
        "--crops",
        dest="data",
        type=Path,
        required=True,
        help="a vision.train data folder (or a folder of crops or scenes): the BatchNorms fit its inputs",
    )
    p.add_argument("--count", type=int, default=256, help="images to fit on")
    p.add_argument("--out", type=Path, required=True, help="the checkpoint to write (.pt)")
    p = sub.add_parser("text-look-features", help="the text recogniser's features of every tile of scenes")
    _add_scene_tile_options(p)
    _add_recogniser_option(p)
    p = sub.add_parser("text-look", help="a head on those features, fused with the recogniser's backbone")
    p.add_argument("--features", type=Path, nargs="+", required=True, help="`text-look-features` .npz files")
    p.add_argument("--hidden", type=int, default=512, help="the head's hidden width (default 512)")
    p.add_argument("--epochs", type=int, default=6, help="passes over the features (default 6)")
    _add_recogniser_option(p)
    _add_text_look_options(p)
    p = sub.add_parser("text-look-crops", help="the text look's crops of every tile of scenes")
    _add_scene_tile_options(p)
    p = sub.add_parser("text-look-tune", help="a text look fine-tuned end to end on those crops")
    p.add_argument("--start", type=Path, required=True, help="a text look's ONNX file to start from")
    p.add_argument("--crops", type=Path, nargs="+", required=True, help="`text-look-crops` .npz files")
    p.add_argument("--val", type=Path, nargs="*", default=None, help="crop files read before and after")
    p.add_argument(
        "--steps", type=int, default=TuneSettings.steps, help="training steps (default %(default)s)"
    )
    p.add_argument("--batch", type=int, default=TuneSettings.batch, help="crops a step (default %(default)s)")
    p.add_argument(
        "--lr-backbone",
        type=float,
        default=TuneSettings.lr_backbone,
        help="the backbone's learning rate (default %(default)s)",
    )
    p.add_argument(
        "--lr-head",
        type=float,
        default=TuneSettings.lr_head,
        help="the head's learning rate (default %(default)s)",
    )
    _add_text_look_options(p)
    p = sub.add_parser(
        "rank-look", help="the corner-number reader of the flowers and seasons, from the generator"
    )
    p.add_argument(
        "--out", type=Path, required=True, help="folder for tile_rank_look.onnx (its models.json updated)"
    )
    p.add_argument("--variants", type=int, default=RankTraining.variants, help="randomised sets to cut")
    p.add_argument(
        "--val-variants", type=int, default=RankTraining.val_variants, help="randomised sets to validate on"
    )
    p.add_argument(
        "--fixed-rounds", type=int, default=RankTraining.fixed_rounds, help="unnumbered fixed styles, rounds"
    )
    p.add_argument(
        "--epochs",
        type=int,
        default=RankTraining.epochs,
        help="passes over the windows (default %(default)s)",
    )
    p.add_argument(
        "--batch", type=int, default=RankTraining.batch, help="windows a step (default %(default)s)"
    )
    p.add_argument("--lr", type=float, default=RankTraining.lr, help="learning rate (default %(default)s)")
    p.add_argument(
        "--imgsz", type=int, default=RankTraining.size, help="window side, px (default %(default)s)"
    )
    p.add_argument("--workers", type=int, default=2, help="processes cutting the windows (default 2)")
    p.add_argument(
        "--turns",
        type=_turn_list,
        default=RankTraining.turns,
        help="quarter turns of each upright face to cut windows at, e.g. 0,2 (default all four)",
    )
    p.add_argument(
        "--window-width",
        type=float,
        default=RankTraining.window_width,
        help="each corner window's share of the face's width (default the glyph look's 0.48)",
    )
    p.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    p.add_argument(
        "--above",
        type=float,
        default=RankLookConfig(file="").above,
        help="sidecar: read boxes the classifier gives the flowers and seasons at least this",
    )
    p.add_argument(
        "--floor",
        type=float,
        default=RankLookConfig(file="").floor,
        help="sidecar: added to every rank score (the smaller, the more a number overrules the classifier)",
    )
    p.add_argument(
        "--least",
        type=float,
        default=RankLookConfig(file="").least,
        help="sidecar: a rank scored under this is not heard",
    )
    p = sub.add_parser("export", help="checkpoints to the ONNX files and sidecar of models/")
    p.add_argument("--detector", type=Path, required=True, help="the detector's checkpoint (.pt)")
    p.add_argument("--classifier", type=Path, required=True, help="the classifier's checkpoint (.pt)")
    p.add_argument("--second-look", type=Path, default=None, help="the flowers-and-seasons classifier")
    p.add_argument(
        "--second-look-above",
        type=float,
        default=RunSettings.second_look_above,
        help="re-read a crop whose flower-and-season probability is at least this",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent.parent / "models",
        help="folder for the ONNX files and models.json (default: the repository's models/)",
    )
    p.add_argument(
        "--det-imgsz",
        type=int,
        default=DETECTOR_SIZE,
        help=f"the detector's input side, px (default {DETECTOR_SIZE})",
    )
    p.add_argument(
        "--cls-imgsz",
        type=int,
        default=CLASSIFIER_SIZE,
        help=f"the classifier's input side, px (default {CLASSIFIER_SIZE})",
    )
    p.add_argument("--conf", type=float, default=RunSettings.conf, help="detector score threshold")
    p.add_argument("--contain", type=float, default=RunSettings.contain, help="containment suppression")
    p.add_argument(
        "--straddle",
        type=float,
        default=RunSettings.straddle,
        help="drop a box two better boxes each cover this much of",
    )
    p.add_argument(
        "--odd-size",
        type=float,
        default=RunSettings.odd_size,
        help="drop an unsure box this many times longer or shorter than the typical tile",
    )
    p.add_argument(
        "--odd-size-below",
        type=float,
        default=RunSettings.odd_size_below,
        help="the detector score under which a box is unsure (for --odd-size)",
    )
    p.add_argument(
        "--rotations",
        type=int,
        choices=(1, 2, 4),
        default=RunSettings.rotations,
        help="turned views of each crop the classifier averages",
    )
    p.add_argument("--grid", type=int, default=RunSettings.grid, help="detector windows per side")
    p.add_argument(
        "--reject-above",
        type=float,
        default=RunSettings.reject_above,
        help='leave a box out when its "no tile" probability is above this',
    )
    p.add_argument(
        "--odd-shape",
        type=float,
        default=RunSettings.odd_shape,
        help="leave a box out when a side is this many times off the typical tile's and "
        "both models doubt it (0 = off)",
    )
    args = parser.parse_args(argv)

    start = time.time()
    try:
        _run_stage(args)
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if missing not in TRAIN_EXTRA_MODULES:
            raise
        # a machine without the train extra gets one line, not a traceback from deep in a stage
        sys.exit(f"{args.stage} needs the train extra (pip install -e '.[train]'): no module named {missing}")
    print(f"{args.stage}: {time.time() - start:.0f} s wall")
    return 0


def _run_stage(args: argparse.Namespace) -> None:
    """The stage the command line names, run (its arguments checked by `main`'s parser)."""
    if args.stage == "data":
        if not 0.0 <= args.val_fraction < 1.0 or args.crops_per_tile < 1 or args.crop_size < 16:
            sys.exit(
                "data: --val-fraction must be in 0..1 (not 1), --crops-per-tile at least 1 and --crop-size "
                f"at least 16, got {args.val_fraction:g}, {args.crops_per_tile}, {args.crop_size}"
            )
        if args.out.exists() and not args.out.is_dir():
            sys.exit(f"data: --out {args.out} is a file")
        build_data(
            args.scenes,
            args.out,
            args.val_fraction,
            args.seed,
            args.crops_per_tile,
            args.negatives_per_scene,
            args.rare_crops_per_tile,
            args.crop_size,
            args.tile_px,
            [scene_detector(folder) for folder in args.hard_negatives],
        )
    elif args.stage == "merge":
        missing = [str(source) for source, _, _ in args.sources if not (source / "classifier").is_dir()]
        if missing:
            sys.exit(f"merge: no data output (DIR/classifier) in {', '.join(missing)}")
        folders = [source.resolve() for source, _, _ in args.sources]
        twice = sorted({str(folder) for folder in folders if folders.count(folder) > 1})
        if twice:  # its crops would count twice
            sys.exit(f"merge: --from names {', '.join(twice)} more than once")
        merge(args.out, args.sources, args.seed)
    elif args.stage == "second-look-data":
        unknown = [code for code in args.also if code not in CLASS_INDEX]
        if unknown:
            sys.exit(f"second-look-data: --also {' '.join(unknown)}: not tile codes (see vision/classes.py)")
        second_look_data(
            args.out,
            args.scenes,
            args.min_side,
            args.crops_per_tile,
            args.val_fraction,
            args.seed,
            args.size,
            tuple(args.also),
        )
    elif args.stage == "soup":
        if not 0.0 <= args.weight <= 1.0:
            sys.exit(f"soup: --weight must be in 0..1, got {args.weight}")
        soup(args.first, args.second, args.weight, args.out)
    elif args.stage == "half":
        from vision.half_weights import half_weights

        if not args.onnx.is_file():
            sys.exit(f"half: no ONNX file at --onnx {args.onnx}")
        if args.out.is_dir():
            sys.exit(f"half: --out {args.out} is a folder (it names the file to write)")
        try:
            before, after = half_weights(args.onnx, args.out)
        except OnnxFileError as error:  # it was protobuf's DecodeError traceback
            sys.exit(str(error))
        print(f"half: {args.onnx} ({before:,} bytes) -> {args.out} ({after:,} bytes)")
    elif args.stage == "ensemble":
        try:
            join_files(args.first, args.second, args.weight, args.out, args.second_size)
        except EnsembleError as error:
            sys.exit(str(error))
        print(f"ensemble: {args.weight:g} x {args.first} + {1 - args.weight:g} x {args.second} -> {args.out}")
    elif args.stage == "split":
        if args.out.exists() and not args.out.is_dir():
            sys.exit(f"split: --out {args.out} is a file (it names the folder to write into)")
        try:
            members = split_file(args.joined, args.out)
        except EnsembleError as error:
            sys.exit(str(error))
        at = f", the second at {members.second_size} px" if members.second_size is not None else ""
        print(f"split: {args.joined} -> {args.out}/first.onnx ({members.weight:g}) and second.onnx{at}")
    elif args.stage == "recover":
        try:
            gap = recover(args.onnx, args.data, args.out, args.count)
        except RecoverError as error:
            sys.exit(str(error))
        print(f"recover: {args.onnx} -> {args.out}; reads as the ONNX file does, to {gap:.1e}")
    elif args.stage in ("text-look-features", "text-look"):
        _text_look_stage(args)
    elif args.stage in ("text-look-crops", "text-look-tune"):
        _text_look_tune_stage(args)
    elif args.stage == "rank-look":
        _rank_look_stage(args)
    elif args.stage in TRAINING_DATA:
        run = _run(args)
        # ultralytics fetches a dataset it cannot find by its name from the internet, offline or not
        wanted = args.data / TRAINING_DATA[args.stage]
        if not wanted.exists():
            sys.exit(f"{args.stage}: no training data at {wanted} (python -m vision.train data makes it)")
        if args.stage == "detector":
            train_detector(run, args.data, args.fraction)
        elif args.stage == "classifier":
            train_classifier(run, args.data, args.crop_cut, args.erasing)
        else:
            train_pip_detector(run, args.data)
    else:
        export(
            args.detector,
            args.classifier,
            args.out,
            args.det_imgsz,
            args.cls_imgsz,
            RunSettings(
                conf=args.conf,
                contain=args.contain,
                straddle=args.straddle,
                odd_size=args.odd_size,
                odd_size_below=args.odd_size_below,
                rotations=args.rotations,
                grid=args.grid,
                reject_above=args.reject_above,
                odd_shape=args.odd_shape or None,
                second_look_above=args.second_look_above,
            ),
            args.second_look,
        )
