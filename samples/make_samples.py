"""Re-render the sample photos shipped with the app (samples/*.jpg + their ground truth *.json).

    python samples/make_samples.py [--count 200] [--seed 2026] [--only NAME,...]

Runs the project's own generator (`python -m datasets.synth`) with sample-safe styles only
(`datasets.synth.SAMPLE_SAFE_STYLES`: procedural and open-licence fonts, no GPL art), then picks five
scenes a player could have photographed: every tile of the hand in frame and reasonably large, nothing
else on the table, a valid win under its hand's rule set. The picks differ (a kong, many bonus tiles, a
high score, an all-suited hand, and a Malaysian 3-player hand) so the samples show different parts of
the app; `--only` renders and writes those picks alone, leaving the other samples as they are (a run
without it writes the four Singapore samples: the Malaysian one is re-rendered only when named). The
ground-truth JSON is kept next to each photo so tests can check what the app reads. The scenes depend
on the generator's code: the commit the shipped samples were rendered at is in docs/app.md.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MIN_TILE_PX = 55


def _hand_tiles(hand: dict[str, Any]) -> int:
    return len(hand["concealed"]) + sum(len(m["tiles"]) for m in hand["melds"]) + len(hand["bonus"])


Score = Callable[[dict[str, Any]], dict[str, Any]]


def candidate(meta: dict[str, Any], score: Score) -> dict[str, Any] | None:
    """The scene's score if it makes a fair sample photo, else None."""
    hand = meta.get("hand")
    if not hand:
        return None
    if any(g["kind"] == "distractor" for g in meta["groups"]) or _hand_tiles(hand) != len(meta["tiles"]):
        return None
    if any(t.get("standing") for t in meta["tiles"]):
        return None
    inside = all(
        t["xyxy"][0] >= 0
        and t["xyxy"][1] >= 0
        and t["xyxy"][2] <= meta["width"]
        and t["xyxy"][3] <= meta["height"]
        for t in meta["tiles"]
    )
    height = statistics.median(t["xyxy"][3] - t["xyxy"][1] for t in meta["tiles"])
    if not inside or height < MIN_TILE_PX:
        return None
    result = score({**hand, "rules": meta.get("rules", "singapore")})
    return result if result["valid"] else None


SAMPLE_NAMES = ("concealed_kong", "flowers", "high_score", "all_suited", "malaysian")


def pick(scenes: list[tuple[str, dict[str, Any], dict[str, Any]]]) -> dict[str, str]:
    """Four different samples: name -> scene id."""
    tests: list[tuple[str, Callable[[dict[str, Any], dict[str, Any]], bool]]] = [
        ("concealed_kong", lambda m, r: any(x["kind"] == "kong" for x in m["hand"]["melds"])),
        ("flowers", lambda m, r: len(m["hand"]["bonus"]) >= 4),
        ("high_score", lambda m, r: r["tai"] >= 4),
        (
            "all_suited",
            lambda m, r: not m["hand"]["bonus"] and all(c[0].isdigit() for c in m["hand"]["concealed"]),
        ),
        ("malaysian", lambda m, r: True),
    ]
    chosen: dict[str, str] = {}
    for name, test in tests:
        rules = "malaysian" if name == "malaysian" else "singapore"
        for scene_id, meta, result in scenes:
            if (
                scene_id not in chosen.values()
                and meta.get("rules", "singapore") == rules
                and test(meta, result)
            ):
                chosen[name] = scene_id
                break
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python samples/make_samples.py", description="Render the app's sample photos."
    )
    parser.add_argument(
        "--count", type=int, default=200, help="scenes rendered to pick the samples from (default 200)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="the generator's seed (default 2026)")
    parser.add_argument("--workers", type=int, default=2, help="processes rendering in parallel")
    parser.add_argument("--only", help="comma-separated sample names: write these alone, keep the others")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    unknown = sorted((only or set()) - set(SAMPLE_NAMES))
    if unknown:
        parser.error(f"unknown sample {', '.join(unknown)} (known: {', '.join(SAMPLE_NAMES)})")
    sys.path.insert(0, str(HERE.parent))  # run as a script from anywhere: the repository's packages
    import scoring
    from datasets.synth import SAMPLE_SAFE_STYLES

    with tempfile.TemporaryDirectory() as tmp:
        command = [
            sys.executable,
            "-m",
            "datasets.synth",
            "--out",
            tmp,
            "--n",
            str(args.count),
            "--seed",
            str(args.seed),
            "--styles",
            ",".join(SAMPLE_SAFE_STYLES),
            "--size",
            "1024",
            "--workers",
            str(args.workers),
        ]
        print(" ".join(command[1:]))
        subprocess.run(
            command, check=True, cwd=HERE.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        scenes = []
        for path in sorted((Path(tmp) / "meta").glob("*.json")):
            meta = json.loads(path.read_text())
            result = candidate(meta, scoring.score_json)
            if result is not None:
                scenes.append((path.stem, meta, result))
        chosen = pick(scenes)
        if only is not None:
            missing = sorted(only - set(chosen))
            if missing:
                print(f"no usable scene for {', '.join(missing)}; try a larger --count", file=sys.stderr)
                return 1
            chosen = {name: scene_id for name, scene_id in chosen.items() if name in only}
        else:
            # the Malaysian sample is re-rendered only when named: seed 2028's is the one shipped
            chosen.pop("malaysian", None)
        if len(chosen) < (1 if only is not None else 3):
            print(f"only {len(chosen)} usable scenes; try a larger --count", file=sys.stderr)
            return 1
        for old in (HERE / f"{name}.jpg" for name in chosen):
            old.unlink(missing_ok=True)
            old.with_suffix(".json").unlink(missing_ok=True)
        for name, scene_id in chosen.items():
            shutil.copyfile(Path(tmp) / "images" / f"{scene_id}.jpg", HERE / f"{name}.jpg")
            shutil.copyfile(Path(tmp) / "meta" / f"{scene_id}.json", HERE / f"{name}.json")
            print(f"samples/{name}.jpg <- scene {scene_id}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
