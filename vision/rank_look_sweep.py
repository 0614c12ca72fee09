"""Choosing how the rank look (`vision.rank_look`) is weighed, on rendered scenes, in minutes.

A bench run reads every scene again for each setting of `above`, `floor` and `least`; this reads
each scene once (detector, classifier and every other look; the rank look's windows of every box
that might be a flower or season) and then replays the rank look's weighing and the one-set rule
(`vision.tile_set`) for every setting of a grid, counting the tiles read right:

    python -m vision.rank_look_sweep --models DIR SCENES [SCENES ...]

Choose on scenes of the training styles only: the held-out sets and the real photos measure.
The win check and the layout are not replayed, so the counts are of tiles, not hands.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from vision.bench_match import matched_truth
from vision.classes import CLASS_INDEX
from vision.glyphs import likeliest_bonus_rows
from vision.imageio import ImageError, read_image
from vision.pipeline import TileReader
from vision.rank_look import RANKS, RankLook, weigh_ranks
from vision.sidecar import ModelError
from vision.tile_set import assign_within_set

ABOVE = (0.3, 0.5)
FLOOR = (0.05, 0.1, 0.2, 0.5)
LEAST = (0.5, 0.7, 0.8, 0.9)
# windows are cut for every box whose flowers and seasons reach this, the lowest `above` swept
WINDOWS_ABOVE = 0.05


@dataclass(frozen=True)
class SceneReading:
    """One scene read up to the rank look, with its true classes."""

    name: str
    probabilities: np.ndarray  # (N, 49) every look but the rank look, boxes kept as tiles
    truth: np.ndarray  # (N,) class index of the true tile each box matches, -1 for none
    ranks: np.ndarray  # (N, 4) the rank look's scores (zero where no window was cut)


@dataclass(frozen=True)
class Setting:
    above: float
    floor: float
    least: float


def read_scene(
    reader: TileReader, rank_look: RankLook, rgb: np.ndarray, meta: dict[str, Any], name: str
) -> SceneReading:
    """`rgb` read by `reader` (which has no rank look) and its likely bonus boxes by `rank_look`;
    `meta` is the generator's (its tiles' `xyxy` in `rgb`'s pixels and `code`)."""
    rgb = np.ascontiguousarray(rgb)
    boxes, _, probabilities, _ = reader.read_tiles(rgb)
    rows = likeliest_bonus_rows(probabilities, WINDOWS_ABOVE)
    ranks = np.zeros((len(boxes), RANKS))
    ranks[rows] = rank_look.scores(rgb, boxes[rows])
    tiles = meta["tiles"]
    true_xyxy = np.array([t["xyxy"] for t in tiles], np.float32).reshape(-1, 4)
    true_class = [CLASS_INDEX[t["code"]] for t in tiles]
    truth = np.array(
        [true_class[t] if t >= 0 else -1 for t in matched_truth(boxes, probabilities.max(axis=1), true_xyxy)],
        np.int64,
    )
    return SceneReading(name, probabilities, truth, ranks)


def read_as(scene: SceneReading, setting: Setting | None) -> np.ndarray:
    """Class index per box with the rank look weighed as `setting` says (None: no rank look)."""
    tiles = scene.probabilities
    if not len(tiles):
        return np.zeros(0, np.int64)
    if setting is not None:
        rows = likeliest_bonus_rows(tiles, setting.above)
        if rows.size:
            tiles = weigh_ranks(tiles, rows, scene.ranks[rows], setting.least, setting.floor)
    return assign_within_set(tiles)


def tiles_right(scene: SceneReading, class_id: np.ndarray) -> int:
    return int(((class_id == scene.truth) & (scene.truth >= 0)).sum())


def sweep(scenes: Sequence[SceneReading], settings: Sequence[Setting]) -> dict[Setting | None, int]:
    """Tiles right over `scenes` without the rank look (key None) and with each setting."""
    return {
        setting: sum(tiles_right(scene, read_as(scene, setting)) for scene in scenes)
        for setting in (None, *settings)
    }


def read_scenes(reader: TileReader, rank_look: RankLook, directory: Path) -> list[SceneReading]:
    scenes = []
    for meta_path in sorted((directory / "meta").glob("*.json")):
        meta = json.loads(meta_path.read_text())
        loaded = read_image((directory / meta["image"]).read_bytes())
        if loaded.scale != 1.0:  # the generator's boxes are in the file's pixels
            meta = {"tiles": [{**t, "xyxy": [v * loaded.scale for v in t["xyxy"]]} for t in meta["tiles"]]}
        scenes.append(read_scene(reader, rank_look, loaded.rgb, meta, f"{directory.name}/{meta_path.stem}"))
    return scenes


def _floats(text: str) -> tuple[float, ...]:
    return tuple(float(v) for v in text.split(","))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision.rank_look_sweep", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--models", type=Path, required=True, help="models folder with a rank look")
    parser.add_argument("scenes", type=Path, nargs="+", help="generator output folders (meta/, images/)")
    parser.add_argument(
        "--above",
        type=_floats,
        default=ABOVE,
        metavar="F,F,...",
        help=f"the sidecar's `above` values tried, comma-separated (default {','.join(map(str, ABOVE))})",
    )
    parser.add_argument(
        "--floor",
        type=_floats,
        default=FLOOR,
        metavar="F,F,...",
        help=f"its `floor` values tried, comma-separated (default {','.join(map(str, FLOOR))})",
    )
    parser.add_argument(
        "--least",
        type=_floats,
        default=LEAST,
        metavar="F,F,...",
        help=f"its `least` values tried, comma-separated (default {','.join(map(str, LEAST))})",
    )
    args = parser.parse_args(argv)
    try:
        reader = TileReader.load(args.models)
        rank_look = reader.classifier.rank_look
        if rank_look is None:
            raise ModelError(f"{args.models}: models.json has no rank_look")
        reader = replace(reader, classifier=replace(reader.classifier, rank_look=None))
        by_set = {directory.name: read_scenes(reader, rank_look, directory) for directory in args.scenes}
    except (ModelError, ImageError, OSError, KeyError, ValueError) as error:
        print(f"rank_look_sweep: {error}", file=sys.stderr)
        return 2
    settings = [Setting(*values) for values in itertools.product(args.above, args.floor, args.least)]
    counts = {name: sweep(scenes, settings) for name, scenes in by_set.items()}
    print("tiles right without the rank look: " + ", ".join(f"{n} {c[None]}" for n, c in counts.items()))
    print("above floor least   " + " ".join(f"{n:>8s}" for n in counts) + "      sum")
    for setting in settings:
        gains = [c[setting] - c[None] for c in counts.values()]
        print(
            f"{setting.above:5.2f} {setting.floor:5.2f} {setting.least:5.2f}   "
            + " ".join(f"{g:+8d}" for g in gains)
            + f" {sum(gains):+8d}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
