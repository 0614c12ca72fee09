"""The offer to read again the tiles a correction leaves one copy too many (`app_ui.set_offer`),
measured as a user meets it: each generated scene is read as the app reads it (its rule set's tiles),
then each misread tile of the hand is corrected in turn to its true face, in the table's order, and
after each correction the offer, if any, is judged against the truth.

    python bench/set_offer.py DIR [DIR ...] [--limit N]

DIR: a folder of `python -m datasets.synth` (images/, meta/). Prints, per folder: the misread tiles
corrected, the offers (each counted once however often it shows again), the tiles they named that
were misread, right tiles named (an offer that would break one), and offers whose every face is the
truth (taken, as a user who checks would take them). Figures only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app_ui.case import BONUS, HAND, IGNORE, TileRow  # noqa: E402
from app_ui.set_offer import Box, set_offer  # noqa: E402
from vision.bench_match import matched_truth  # noqa: E402
from vision.classes import CLASSES  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.tile_set import rule_set_faces  # noqa: E402

GROUP_OF_KIND = {"concealed": HAND, "meld": "meld 1", "bonus": BONUS}


def scene_reading(reader: Any, folder: Path, meta_path: Path) -> dict[str, Any]:
    """One scene read as the app reads it, with each box's true face (None: no tile there)."""
    meta = json.loads(meta_path.read_text())
    rgb = load_image((folder / "images" / f"{meta_path.stem}.jpg").read_bytes())
    faces = rule_set_faces(meta.get("rules") or "singapore")
    reading = reader.read(rgb, 1.0, faces)
    true_xyxy = np.array([t["xyxy"] for t in meta["tiles"]], np.float32).reshape(-1, 4)
    match = matched_truth(reading.detections.xyxy, reading.detections.confidence, true_xyxy)
    laid = reading.layout.groups if reading.layout else []
    groups = [(g.kind, [int(i) for i in g.indices]) for g in laid]
    return {
        "faces": faces,
        "xyxy": reading.detections.xyxy,
        "codes": [CLASSES[int(c)] for c in reading.detections.class_id],
        "probabilities": reading.probabilities,
        "groups": groups,
        "truth": [meta["tiles"][m]["code"] if m >= 0 else None for m in match],
    }


def simulate(scene: dict[str, Any], stats: Counter[str]) -> None:
    """Correct each misread tile of the hand in turn, counting the offers each correction brings."""
    order: list[int] = []
    group: dict[int, str] = {}
    for kind, indices in scene["groups"]:
        for i in indices:
            if i not in group:
                group[i] = GROUP_OF_KIND.get(kind, IGNORE)
                order.append(i)
    order += [i for i in range(len(scene["codes"])) if i not in group]
    codes, truth = scene["codes"], scene["truth"]
    boxes: list[Box] = [(float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in scene["xyxy"]]
    probabilities = np.asarray(scene["probabilities"], np.float64)
    read = {boxes[i]: (codes[i], probabilities[i]) for i in range(len(codes))}
    now = {i: codes[i] for i in order}
    shown: set[Any] = set()
    for i in order:
        if group.get(i, IGNORE) == IGNORE or truth[i] is None or truth[i] == now[i]:
            continue  # right, no tile, or set right by an offer taken
        now[i] = truth[i]
        stats["corrections"] += 1
        rows = [TileRow(now[k], group.get(k, IGNORE), box=boxes[k]) for k in order]
        offer = set_offer(rows, read, scene["faces"])
        if offer is None or offer.moves in shown:
            continue
        shown.add(offer.moves)
        stats["offers"] += 1
        named = [order[m.number - 1] for m in offer.moves]
        stats["tiles named"] += len(named)
        stats["tiles named that were misread"] += sum(truth[k] != now[k] for k in named)
        stats["right tiles named"] += sum(truth[k] == now[k] for k in named)
        if all(truth[k] == m.code for k, m in zip(named, offer.moves, strict=True)):
            stats["offers of the true faces"] += 1
            for k, m in zip(named, offer.moves, strict=True):
                now[k] = m.code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+", metavar="DIR")
    parser.add_argument("--limit", type=int, default=None, help="scenes per folder (default: all)")
    args = parser.parse_args(argv)
    from vision.pipeline import TileReader

    reader = TileReader.load()
    for folder in args.folders:
        stats: Counter[str] = Counter()
        for meta_path in sorted((folder / "meta").glob("*.json"))[: args.limit]:
            stats["scenes"] += 1
            simulate(scene_reading(reader, folder, meta_path), stats)
        print(f"{folder}: " + ", ".join(f"{key} {value}" for key, value in stats.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
