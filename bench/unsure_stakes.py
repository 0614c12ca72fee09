"""The unsure tiles that decide the score (`app_ui.unsure_stakes`), measured as a user meets them: each
generated scene that shows a whole hand is read as the app reads it and scored as the page scores it
(seat and prevailing wind East, won on a discard, no winning tile set: each tile that may have won
tried), and so is its true hand; then the line's tiles are judged against the truth.

    python bench/unsure_stakes.py DIR [DIR ...] [--from-seen SEEN ...] [--limit N]

DIR: a folder of `python -m datasets.synth` (images/, meta/); SEEN (one per DIR, optional): the
models' readings `python -m vision.bench --save-seen` kept for it, settled again without the models.
Prints, per folder: the hands whose score as read is the true one; of the others, those where the
line names a tile whose runner-up gives the true score, another tile, or none (and of those, how
many miss a tile of the hand or misread more than one: one runner-up at a time is tried); and of the
tiles the line names as deciding, how many were misread. Figures only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from scoring.console import run_main

    sys.exit(run_main("python bench/unsure_stakes.py", __file__))

import numpy as np  # noqa: E402

from app_ui import table_edits  # noqa: E402
from app_ui.case import IGNORE, Context  # noqa: E402
from app_ui.hand_build import scoring_input  # noqa: E402
from app_ui.reading import photo_read  # noqa: E402
from app_ui.result_panel import rows_scorer  # noqa: E402
from app_ui.tile_sets import tiles_in_set  # noqa: E402
from app_ui.unsure_stakes import unsure_stakes  # noqa: E402
from app_ui.winning_hint import score_span, winning_tile_outcomes  # noqa: E402
from scoring import MalformedHandError, OptionError, score_json  # noqa: E402
from vision.bench import no_scenes_problem  # noqa: E402
from vision.bench_match import matched_truth, shows_whole_hand  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.seen_store import load_seen, seen_path  # noqa: E402
from vision.tile_set import rule_set_faces  # noqa: E402

CONTEXT = Context()  # East's seat in East's round, won on a discard, no winning tile set


def true_span(hand: dict[str, Any], rules: str) -> str | None:
    """The true hand's score as the page words it (`winning_hint.score_span`), None where it cannot
    be scored."""
    data = scoring_input(hand, CONTEXT, rules, {})
    try:
        return score_span(score_json(data), winning_tile_outcomes(data))
    except (MalformedHandError, OptionError):
        return None


def judge_scene(
    reader: Any, folder: Path, meta_path: Path, seen_dir: Path | None, stats: Counter[str]
) -> None:
    meta = json.loads(meta_path.read_text())
    rules = str(meta.get("rules") or "singapore")
    truth = true_span(meta["hand"], rules)
    if truth is None:
        return
    if seen_dir is not None:
        seen, factor = load_seen(seen_path(seen_dir, folder / meta["image"]))
        reading = reader.settle(seen, rule_set_faces(rules))
    else:
        rgb = load_image((folder / meta["image"]).read_bytes())
        reading, factor = reader.read(rgb, 1.0, rule_set_faces(rules)), 1.0
    read = photo_read(reading, time.perf_counter())
    rows = table_edits.apply_edits(list(read.rows), None)
    score_rows = rows_scorer(read.meld_concealed, CONTEXT, rules, {})
    scored = score_rows(rows)
    stats["hands"] += 1
    if scored is None:
        stats["  of which not scored as read (no hand to score)"] += 1
        return
    now = score_span(*scored)
    stakes = unsure_stakes(rows, tiles_in_set(rules), scored, score_rows)
    # the tiles the line says decide the score or the win; with the winning tile unset here, a tile
    # said only to change which winning tile scores what is counted apart
    deciding = [stake for stake in stakes if stake.changes_the_score or stake.breaks_the_win]
    stats["tiles said to change which winning tile scores what"] += sum(s.changes_the_ways for s in stakes)
    # each row's true face: photo_read keeps the detections' order (the rows' numbers say the places)
    true_xyxy = np.array([t["xyxy"] for t in meta["tiles"]], np.float32).reshape(-1, 4)
    detections = reading.detections
    match = matched_truth(detections.xyxy / factor, detections.confidence, true_xyxy)
    by_box = {_box(xyxy): m for xyxy, m in zip(detections.xyxy, match, strict=True)}
    true_code = {
        row.number: meta["tiles"][by_box[_box(row.box)]]["code"]
        for row in rows
        if row.box is not None and by_box.get(_box(row.box), -1) >= 0
    }
    for stake in deciding:
        misread = true_code.get(stake.number) not in (None, stake.code)
        stats["tiles named, misread" if misread else "tiles named, read right"] += 1
    if now == truth:
        stats["score right as read"] += 1
        stats["score right, a tile named as deciding"] += bool(deciding)
        return
    stats["score wrong as read"] += 1
    if any(stake.then == truth for stake in deciding):
        stats["wrong, a named tile's runner-up gives the true score"] += 1
    elif deciding:
        stats["wrong, tiles named, none gives the true score"] += 1
    else:
        stats["wrong, no tile named"] += 1
        # why none could be: a tile of the hand not found, or more than one misread (one runner-up
        # at a time is tried)
        in_hand = {t for g in meta["groups"] if g["kind"] != "distractor" for t in g["tiles"]}
        hand_missed = bool(in_hand - {m for m in match if m >= 0})
        hand_misread = sum(
            1 for row in rows if row.group != IGNORE and true_code.get(row.number) not in (None, row.code)
        )
        if hand_missed or hand_misread > 1:
            stats["  of which a hand tile missed or 2+ misread"] += 1


def _box(xyxy: Any) -> tuple[float, float, float, float]:
    return (float(xyxy[0]), float(xyxy[1]), float(xyxy[2]), float(xyxy[3]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python bench/unsure_stakes.py", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "dirs",
        nargs="+",
        type=Path,
        metavar="DIR",
        help="a `python -m datasets.synth` folder (images/, meta/)",
    )
    parser.add_argument(
        "--from-seen",
        nargs="*",
        type=Path,
        default=None,
        metavar="SEEN",
        help="one per DIR: the readings `python -m vision.bench --save-seen` kept for it, settled again "
        "without the models",
    )
    parser.add_argument("--limit", type=int, default=None, help="scenes per folder (default: all)")
    parser.add_argument(
        "--models",
        type=Path,
        default=ROOT / "models",
        help="models folder (default: the repository's models/)",
    )
    args = parser.parse_args(argv)
    # a folder mistyped measured nothing and printed zeros, exit 0
    problems = [problem for problem in map(no_scenes_problem, args.dirs) if problem]
    if problems:
        print(f"error: {problems[0]}", file=sys.stderr)
        return 2
    if args.from_seen is not None and len(args.from_seen) != len(args.dirs):
        parser.error("give one --from-seen folder per DIR")
    from vision.pipeline import TileReader

    reader = TileReader.load(args.models)
    for k, folder in enumerate(args.dirs):
        seen_dir = args.from_seen[k] if args.from_seen is not None else None
        stats: Counter[str] = Counter()
        for meta_path in sorted((folder / "meta").glob("*.json"))[: args.limit]:
            if shows_whole_hand(json.loads(meta_path.read_text())):
                judge_scene(reader, folder, meta_path, seen_dir, stats)
        print(f"{folder}:")
        for key in (
            "hands",
            "  of which not scored as read (no hand to score)",
            "score right as read",
            "score right, a tile named as deciding",
            "score wrong as read",
            "wrong, a named tile's runner-up gives the true score",
            "wrong, tiles named, none gives the true score",
            "wrong, no tile named",
            "  of which a hand tile missed or 2+ misread",
            "tiles named, misread",
            "tiles named, read right",
            "tiles said to change which winning tile scores what",
        ):
            print(f"  {key}: {stats[key]}")
    return 0
