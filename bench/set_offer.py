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
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from scoring.console import run_main

    sys.exit(run_main("python bench/set_offer.py", __file__))

import numpy as np  # noqa: E402

from app_ui.case import IGNORE, TileRow  # noqa: E402
from app_ui.photo_rows import rows_from_reading  # noqa: E402
from app_ui.set_offer import Box, read_of, set_offer  # noqa: E402
from vision.bench import no_scenes_problem  # noqa: E402
from vision.bench_match import matched_truth  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.tile_set import rule_set_faces  # noqa: E402


def scene_reading(reader: Any, folder: Path, meta_path: Path) -> dict[str, Any]:
    """One scene read as the app reads it: its tile table's rows (`photo_rows.rows_from_reading`, the
    photo's numbers and groups), each box's face and probabilities, and each row's true face (None: no
    tile there)."""
    meta = json.loads(meta_path.read_text())
    rgb = load_image((folder / "images" / f"{meta_path.stem}.jpg").read_bytes())
    faces = rule_set_faces(meta.get("rules") or "singapore")
    reading = reader.read(rgb, 1.0, faces)
    rows, _ = rows_from_reading(reading.detections, reading.layout, reading.probabilities)
    true_xyxy = np.array([t["xyxy"] for t in meta["tiles"]], np.float32).reshape(-1, 4)
    match = matched_truth(reading.detections.xyxy, reading.detections.confidence, true_xyxy)
    truth_of_box = {
        box: meta["tiles"][m]["code"] if m >= 0 else None
        for box, m in zip((row_box(xyxy) for xyxy in reading.detections.xyxy), match, strict=True)
    }
    photo = [replace(row, number=number) for number, row in enumerate(rows, start=1)]
    return {
        "faces": faces,
        "rows": photo,
        "read": read_of(photo, reading.detections.xyxy, reading.probabilities, faces),
        "truth": [truth_of_box[row_box(row.box)] for row in photo],
    }


def row_box(xyxy: Any) -> Box:
    return (float(xyxy[0]), float(xyxy[1]), float(xyxy[2]), float(xyxy[3]))


def simulate(scene: dict[str, Any], stats: Counter[str]) -> None:
    """Correct each misread tile of the hand in turn, counting the offers each correction brings."""
    rows: list[TileRow] = list(scene["rows"])
    truth = scene["truth"]
    shown: set[Any] = set()
    for i, row in enumerate(rows):
        if row.group == IGNORE or truth[i] is None or truth[i] == rows[i].code:
            continue  # left out, no tile, right, or set right by an offer taken
        rows[i] = replace(rows[i], code=truth[i])
        stats["corrections"] += 1
        offer = set_offer(rows, scene["read"], scene["faces"])
        if offer is None or offer.moves in shown:
            continue
        shown.add(offer.moves)
        stats["offers"] += 1
        named = [m.number - 1 for m in offer.moves]
        stats["tiles named"] += len(named)
        stats["tiles named that were misread"] += sum(truth[k] != rows[k].code for k in named)
        stats["right tiles named"] += sum(truth[k] == rows[k].code for k in named)
        if all(truth[k] == m.code for k, m in zip(named, offer.moves, strict=True)):
            stats["offers of the true faces"] += 1
            for k, m in zip(named, offer.moves, strict=True):
                rows[k] = replace(rows[k], code=m.code)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python bench/set_offer.py", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "folders",
        type=Path,
        nargs="+",
        metavar="DIR",
        help="a `python -m datasets.synth` folder (images/, meta/)",
    )
    parser.add_argument("--limit", type=int, default=None, help="scenes per folder (default: all)")
    args = parser.parse_args(argv)
    # a folder mistyped measured nothing and printed zeros, exit 0
    problems = [problem for problem in map(no_scenes_problem, args.folders) if problem]
    if problems:
        print(f"error: {problems[0]}", file=sys.stderr)
        return 2
    from vision.pipeline import TileReader

    reader = TileReader.load()
    for folder in args.folders:
        stats: Counter[str] = Counter()
        for meta_path in sorted((folder / "meta").glob("*.json"))[: args.limit]:
            stats["scenes"] += 1
            simulate(scene_reading(reader, folder, meta_path), stats)
        print(f"{folder}: " + ", ".join(f"{key} {value}" for key, value in stats.items()))
    return 0
