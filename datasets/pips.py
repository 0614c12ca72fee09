"""Training crops for a pip detector: one tile of dots or bamboo in the middle of a classifier-style
crop, every dot or stick of that tile boxed (YOLO labels), its neighbours' pips not.

Why: the classifier reads a face as a whole, so on art it has never seen it takes one arrangement for
another (six dots in three rows read as seven, eight as nine). A detector that finds each pip lets
the reader count them, which no arrangement or dot design changes. The pips' places come from the
same functions that draw them (`datasets.faces`), so the boxes are exact for every randomised set.

    python -m datasets.pips --out DIR --n 20000 --seed 1 [--workers 2] [--preview 16]   # composed
    python -m datasets.pips --out DIR --scenes SCENES... [--seed S]   # cut from randomised scenes

Scene crops are the ones that teach (models/README.md, stage 39): composed crops lack the scenes'
foreshortened faces, thick tile bodies and touching neighbours.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from scoring.console import run_main

    sys.exit(run_main("python -m datasets.pips", "datasets.pips"))

import cv2
import numpy as np

from datasets.faces import (
    FACE_H,
    FACE_W,
    ONE_DOT_RADIUS,
    FaceRecipe,
    placed_dots,
    placed_sticks,
    render_face,
    stick_width,
)
from datasets.randomized import random_recipe
from datasets.synth import SynthError, os_error_line, out_folder
from scoring.console import OneLineParser

# classes of the detector, in order
PIP_CLASSES = ("dot", "stick")
CROP_SIZE = 128
CROP_MARGIN = 0.15  # as the classifier's crops (models.json `crop_margin`)
WORK_SIDE = 140  # px of a tile's long side while a crop is composed
PIP_CODES = tuple(f"{r}p" for r in range(1, 10)) + tuple(f"{r}s" for r in range(2, 10))
OTHER_CODES = ("1s", "1m", "5m", "9m", "E", "N", "C", "F", "P", "F1", "S3", "cat", "fly")
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Pip:
    kind: int  # index into PIP_CLASSES
    xyxy: Box  # face pixels (FACE_W x FACE_H)


def _to_face(recipe: FaceRecipe, x: float, y: float) -> tuple[float, float]:
    """Pen units of the inset art area -> face pixels (`render_face` centres the inset area)."""
    inset_w, inset_h = recipe.layout.art_inset
    return ((1 - inset_w) / 2 + x * inset_w) * FACE_W, ((1 - inset_h) / 2 + y * inset_h) * FACE_H


def dot_pips(recipe: FaceRecipe, rank: int) -> list[Pip]:
    """The dots of `rank` as `draw_code` places them."""
    inner_w = recipe.layout.art_inset[0] * FACE_W
    spots, r = ([(0.5, 0.5, "g")], ONE_DOT_RADIUS) if rank == 1 else placed_dots(recipe.layout, rank)
    pips = []
    for x, y, _ in spots:
        cx, cy = _to_face(recipe, x, y)
        rp = r * inner_w
        pips.append(Pip(0, (cx - rp, cy - rp, cx + rp, cy + rp)))
    return pips


def stick_pips(recipe: FaceRecipe, rank: int) -> list[Pip]:
    """The sticks of `rank` (2-9) as `draw_bamboo` places them, the knobs at their ends included."""
    inner_w = recipe.layout.art_inset[0] * FACE_W
    pad = stick_width(recipe) * 0.8 * inner_w
    pips = []
    for x, y, _, angle, length in placed_sticks(recipe.layout, rank):
        dx, dy = math.sin(angle) * length / 2 * FACE_H / FACE_W, math.cos(angle) * length / 2
        (ax, ay), (bx, by) = _to_face(recipe, x - dx, y - dy), _to_face(recipe, x + dx, y + dy)
        pips.append(Pip(1, (min(ax, bx) - pad, min(ay, by) - pad, max(ax, bx) + pad, max(ay, by) + pad)))
    return pips


def face_pips(recipe: FaceRecipe, code: str) -> list[Pip]:
    """Every pip on the face of `code`; none on a face that is not dots or 2-9 of bamboo."""
    if len(code) == 2 and code[0].isdigit() and code[1] == "p":
        return dot_pips(recipe, int(code[0]))
    if len(code) == 2 and code[0].isdigit() and code[1] == "s" and code[0] != "1":
        return stick_pips(recipe, int(code[0]))
    return []


def tile_image(face: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, tuple[int, int]]:
    """The face (RGBA) on a tile body of a random colour and rim: (RGB image, face offset x, y)."""
    rim = int(rng.integers(4, 20))
    body = rng.integers(150, 256, 3) if rng.random() < 0.7 else rng.integers(0, 200, 3)
    h, w = face.shape[:2]
    tile = np.empty((h + 2 * rim, w + 2 * rim, 3), np.uint8)
    tile[:] = body
    alpha = face[..., 3:4].astype(np.float32) / 255.0
    region = tile[rim : rim + h, rim : rim + w].astype(np.float32)
    tile[rim : rim + h, rim : rim + w] = (face[..., :3] * alpha + region * (1 - alpha)).astype(np.uint8)
    return tile, (rim, rim)


def _background(rng: np.random.Generator, size: int) -> np.ndarray:
    base = rng.integers(0, 256, 3).astype(np.float32)
    noise = np.asarray(
        cv2.GaussianBlur(rng.normal(0, 1, (size, size, 3)).astype(np.float32), (0, 0), rng.uniform(1, 12)),
        np.float32,
    )
    noise = noise * (rng.uniform(5, 40) / max(float(noise.std()), 1e-6))
    return np.clip(base + noise, 0, 255).astype(np.uint8)


def compose(
    centre: np.ndarray, pips: Sequence[Pip], neighbours: Sequence[np.ndarray], rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One crop: (CROP_SIZE, CROP_SIZE, 3) RGB, pip boxes (N, 4) in crop pixels, classes (N,).

    The tile lies at any angle with its neighbours along one side, seen through a mild perspective,
    and is cut as the classifier cuts a detected tile: a square of its box's long side x 1.15.
    """
    tile, (ox, oy) = tile_image(centre, rng)
    # composed near the crop's own resolution: a canvas at the face's 256 px costs ten times more
    shrink = WORK_SIDE / max(tile.shape[:2])
    tile = cv2.resize(tile, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    ox, oy = ox * shrink, oy * shrink
    th, tw = tile.shape[:2]
    canvas_size = 4 * max(th, tw)
    canvas = _background(rng, canvas_size)
    cx0, cy0 = canvas_size / 2, canvas_size / 2
    x0, y0 = round(cx0 - tw / 2), round(cy0 - th / 2)
    gap = int(rng.integers(0, 6))
    along_x = rng.random() < 0.7  # hands lie in rows; melds and stacks touch along the long side too
    for k, other in enumerate(neighbours):
        body, _ = tile_image(other, rng)
        if body.shape != tile.shape:
            body = cv2.resize(body, (tw, th))
        side = -1 if k % 2 == 0 else 1
        step = (tw + gap) if along_x else (th + gap)
        nx, ny = (x0 + side * step * (k // 2 + 1), y0) if along_x else (x0, y0 + side * step * (k // 2 + 1))
        if min(nx, ny) >= 0 and max(nx + tw, ny + th) <= canvas_size:
            canvas[ny : ny + th, nx : nx + tw] = body
    canvas[y0 : y0 + th, x0 : x0 + tw] = tile
    # any angle, most near a quarter turn (tiles lie square to the table's edge)
    quarter = float(rng.choice([0, 90, 180, 270]))
    angle = quarter + (rng.normal(0, 6) if rng.random() < 0.7 else rng.uniform(-45, 45))
    rotation = cv2.getRotationMatrix2D((cx0, cy0), angle, 1.0)
    matrix = np.vstack([rotation, [0, 0, 1]])
    # a mild perspective: the corners moved by up to 6 % of the tile
    jitter = rng.normal(0, 0.03 * max(th, tw), (4, 2)).astype(np.float32)
    corners = np.array([[0, 0], [canvas_size, 0], [canvas_size, canvas_size], [0, canvas_size]], np.float32)
    matrix = cv2.getPerspectiveTransform(corners, corners + jitter * 4) @ matrix
    warped = cv2.warpPerspective(canvas, matrix, (canvas_size, canvas_size), borderMode=cv2.BORDER_REFLECT)

    def project(points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), matrix).reshape(-1, 2)

    tile_corners = project(np.array([[x0, y0], [x0 + tw, y0], [x0 + tw, y0 + th], [x0, y0 + th]], np.float64))
    bx1, by1 = tile_corners.min(axis=0)
    bx2, by2 = tile_corners.max(axis=0)
    # the detector's box is not exact: its centre and size off by a few percent
    side = max(bx2 - bx1, by2 - by1) * (1 + CROP_MARGIN) * rng.uniform(0.95, 1.08)
    mx, my = (bx1 + bx2) / 2 + rng.normal(0, 0.02 * side), (by1 + by2) / 2 + rng.normal(0, 0.02 * side)
    sx1, sy1 = mx - side / 2, my - side / 2
    scale = CROP_SIZE / side
    to_crop = np.array([[scale, 0, -sx1 * scale], [0, scale, -sy1 * scale]], np.float64)
    crop = cv2.warpAffine(warped, to_crop, (CROP_SIZE, CROP_SIZE), flags=cv2.INTER_AREA)
    boxes, classes = [], []
    for pip in pips:
        x1, y1, x2, y2 = (v * shrink for v in pip.xyxy)
        pts = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float64) + np.array([x0 + ox, y0 + oy])
        crop_pts = (project(pts) - (sx1, sy1)) * scale
        boxes.append([*crop_pts.min(axis=0), *crop_pts.max(axis=0)])
        classes.append(pip.kind)
    return _photographed(crop, rng), np.array(boxes, np.float32).reshape(-1, 4), np.array(classes, np.int64)


def _photographed(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, focus, resolution and JPEG as phones and webcams vary them."""
    lit = crop.astype(np.float32) * rng.uniform(0.6, 1.25) + rng.uniform(-30, 30) + rng.normal(0, 10, 3)
    out: np.ndarray = np.clip(lit, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        low = int(rng.integers(20, 90))  # a small tile in the photo, grown back to the crop size
        out = cv2.resize(cv2.resize(out, (low, low), interpolation=cv2.INTER_AREA), (CROP_SIZE, CROP_SIZE))
    if rng.random() < 0.4:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.5))
    if rng.random() < 0.5:
        noisy = out.astype(np.float32) + rng.normal(0, rng.uniform(2, 8), out.shape)
        out = np.clip(noisy, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 96))])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR)) if ok else out


def render_sample(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """Sample `seed`: (RGB crop, pip boxes, classes, the centre tile's code)."""
    rng = np.random.default_rng([9391, seed])
    recipe = random_recipe(int(rng.integers(1_000_000)))
    code = str(rng.choice(PIP_CODES)) if rng.random() < 0.9 else str(rng.choice(OTHER_CODES))
    pool = PIP_CODES + OTHER_CODES
    neighbours = [render_face(recipe, str(rng.choice(pool))) for _ in range(int(rng.integers(0, 3)))]
    crop, boxes, classes = compose(render_face(recipe, code), face_pips(recipe, code), neighbours, rng)
    return crop, boxes, classes, code


def scene_crops(
    meta: dict[str, Any], rgb: np.ndarray, rng: np.random.Generator, min_visible: float = 0.95
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, str]]:
    """Crops of the dots and bamboo tiles of one rendered scene of the randomised style, cut as the
    classifier cuts a detected tile, with their pips' boxes: (RGB crop, boxes (N, 4), classes (N,),
    the tile's code).

    The scene's meta names the set (`variant`) and where each face lies (`quad`: its corners as
    drawn, TL TR BR BL), so every pip found on the face maps to the photo through the face's own
    perspective: real tile bodies, neighbours, light and blur, as no composed crop has them.
    """
    from vision.crops import crop_tiles, square_crop_boxes

    recipe = random_recipe(int(meta["variant"]))
    face_rect = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    out = []
    for tile in meta["tiles"]:
        code = tile["code"]
        if code not in PIP_CODES or not tile["face_up"] or tile["visible"] < min_visible:
            continue
        pips = face_pips(recipe, code)
        to_photo = cv2.getPerspectiveTransform(face_rect, np.array(tile["quad"], np.float32))
        xyxy = np.array(tile["xyxy"], np.float32)
        # the detector's box is not exact: its centre and size off by a few percent
        size = float(max(xyxy[2] - xyxy[0], xyxy[3] - xyxy[1]))
        xyxy = xyxy + rng.normal(0, 0.02 * size, 4).astype(np.float32)
        square = square_crop_boxes(xyxy[None], CROP_MARGIN)[0]
        scale = CROP_SIZE / float(square[2] - square[0])
        crop = crop_tiles(rgb, xyxy[None], CROP_SIZE, CROP_MARGIN)[0]
        boxes = []
        for pip in pips:
            x1, y1, x2, y2 = pip.xyxy
            corners = np.array([[[x1, y1]], [[x2, y1]], [[x2, y2]], [[x1, y2]]], np.float64)
            photo = cv2.perspectiveTransform(corners, to_photo).reshape(-1, 2)
            in_crop = (photo - square[:2]) * scale
            boxes.append([*in_crop.min(axis=0), *in_crop.max(axis=0)])
        classes = np.array([pip.kind for pip in pips], np.int64)
        out.append((crop, np.array(boxes, np.float32).reshape(-1, 4), classes, code))
    return out


def _scene_job(args: tuple[Path, Path, int, int]) -> int:
    """Every crop of one scene written out; how many."""
    from vision.imageio import read_image

    out, meta_path, seed, val_every = args
    meta = json.loads(meta_path.read_text())
    if meta.get("style") != "randomized" or "variant" not in meta:
        return 0
    rgb = read_image(meta_path.parent.parent / meta["image"]).rgb
    rng = np.random.default_rng([seed, int(meta["seed"])])
    split = "val" if int(meta["seed"]) % val_every == 0 else "train"
    crops = scene_crops(meta, rgb, rng)
    for k, (crop, boxes, classes, _) in enumerate(crops):
        _save(out, split, f"{meta_path.parent.parent.name}_{meta_path.stem}_{k:02d}", crop, boxes, classes)
    return len(crops)


def _save(out: Path, split: str, name: str, crop: np.ndarray, boxes: np.ndarray, classes: np.ndarray) -> None:
    """One RGB crop and its labels under `out`, as YOLO reads them (`split` is train or val)."""
    bgr = cv2.cvtColor(crop, cv2.COLOR_RGB2BGR)
    cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), bgr, [cv2.IMWRITE_JPEG_QUALITY, 95])
    (out / "labels" / split / f"{name}.txt").write_text(_yolo_lines(boxes, classes))


def _yolo_lines(boxes: np.ndarray, classes: np.ndarray) -> str:
    lines = []
    for (x1, y1, x2, y2), kind in zip(np.clip(boxes, 0, CROP_SIZE), classes, strict=True):
        if x2 - x1 < 1 or y2 - y1 < 1:
            continue
        cx, cy = (x1 + x2) / 2 / CROP_SIZE, (y1 + y2) / 2 / CROP_SIZE
        lines.append(f"{kind} {cx:.5f} {cy:.5f} {(x2 - x1) / CROP_SIZE:.5f} {(y2 - y1) / CROP_SIZE:.5f}")
    return "\n".join(lines) + ("\n" if lines else "")


def _write(args: tuple[Path, int, str]) -> str:
    out, seed, split = args
    crop, boxes, classes, code = render_sample(seed)
    _save(out, split, f"{seed:07d}", crop, boxes, classes)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    p = OneLineParser(prog="python -m datasets.pips", description=" ".join(__doc__.split("\n\n")[0].split()))
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (created)")
    p.add_argument("--n", type=int, default=20000, help="composed crops (without --scenes)")
    p.add_argument("--seed", type=int, default=1, help="first sample's seed (samples seed .. seed + n - 1)")
    p.add_argument(
        "--scenes",
        type=Path,
        nargs="*",
        default=[],
        help="cut the crops from these `datasets.synth` folders of the randomised style instead",
    )
    p.add_argument("--val-every", type=int, default=20, help="every k-th crop goes to val (default 20)")
    p.add_argument("--workers", type=int, default=2, help="processes rendering in parallel (default 2)")
    p.add_argument("--preview", type=int, default=0, help="also write N crops with their boxes drawn")
    args = p.parse_args(argv)
    try:
        args.out = out_folder(args.out)
        problem = counts_problem(args.n, args.seed, args.val_every, args.workers)
        # a --scenes folder mistyped cut no crop and said "0 crops from 0 scenes", exit 0
        empty = [folder for folder in args.scenes if not any((folder / "meta").glob("*.json"))]
        if empty:
            problem = f"no scenes in {empty[0]} (a python -m datasets.synth folder holds meta/*.json)"
        if problem:
            raise SynthError(problem)
        _make(args)
    except SynthError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: {os_error_line(error)}", file=sys.stderr)
        return 2
    return 0


def counts_problem(n: int, seed: int, val_every: int, workers: int) -> str | None:
    """The one count out of range, named with its value, or None: --val-every 0 and --workers 0 were
    ZeroDivisionError's and ValueError's tracebacks, and --n 0 wrote an empty set with exit 0."""
    if n < 1:
        return f"--n must be >= 1, got {n}"
    if seed < 0:
        return f"--seed must be >= 0, got {seed}"
    if val_every < 1:
        return f"--val-every must be >= 1, got {val_every}"
    if not 1 <= workers <= 256:
        return f"--workers must be 1..256, got {workers}"
    return None


def _make(args: argparse.Namespace) -> None:
    for split in ("train", "val"):
        (args.out / "images" / split).mkdir(parents=True, exist_ok=True)
        (args.out / "labels" / split).mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(args.workers) as pool:
        if args.scenes:
            metas = [m for folder in args.scenes for m in sorted((folder / "meta").glob("*.json"))]
            jobs = [(args.out, meta, args.seed, args.val_every) for meta in metas]
            written = sum(pool.map(_scene_job, jobs, chunksize=8))
            print(f"{written} crops from {len(metas)} scenes")
        else:
            samples = [
                (args.out, args.seed + i, "val" if i % args.val_every == 0 else "train")
                for i in range(args.n)
            ]
            for _ in pool.map(_write, samples, chunksize=16):
                pass
    names = ", ".join(f"{i}: {name}" for i, name in enumerate(PIP_CLASSES))
    (args.out / "data.yaml").write_text(
        f"path: {args.out.resolve()}\ntrain: images/train\nval: images/val\nnames: {{{names}}}\n"
    )
    if args.preview:
        _preview(args.out, args.preview)


def _preview(out: Path, count: int) -> None:
    """The first `count` training crops, three times larger, with their labelled boxes drawn."""
    (out / "preview").mkdir(exist_ok=True)
    for image in sorted((out / "images" / "train").glob("*.jpg"))[:count]:
        crop = cv2.imread(str(image))
        if crop is None:
            continue
        big = cv2.resize(crop, (CROP_SIZE * 3, CROP_SIZE * 3), interpolation=cv2.INTER_NEAREST)
        label = out / "labels" / "train" / f"{image.stem}.txt"
        for line in label.read_text().splitlines():
            kind, cx, cy, w, h = (float(v) for v in line.split())
            x1, y1 = (cx - w / 2) * CROP_SIZE * 3, (cy - h / 2) * CROP_SIZE * 3
            x2, y2 = (cx + w / 2) * CROP_SIZE * 3, (cy + h / 2) * CROP_SIZE * 3
            colour = (0, 0, 255) if kind == 0 else (255, 0, 0)
            cv2.rectangle(big, (int(x1), int(y1)), (int(x2), int(y2)), colour, 1)
        cv2.imwrite(str(out / "preview" / f"{image.stem}.png"), big)
