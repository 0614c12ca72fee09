"""Layout against the synthetic generator's ground truth (`datasets.synth` meta JSON).

The ground-truth boxes stand in for perfect detections, each with its angle measured on the
scene's image as the reader measures it; the layout must recover the scene's structure.
`python -m vision.layout_check --scenes 200` prints the recovery rate and the count per failure
mode.

Distractor tiles (meta groups of kind `distractor`: tiles on the table that are not part
of the hand) must not enter the hand: the layout may put them in an `unused` group, or,
when they lie in line with the hand, nowhere near anything else, they count as a failure.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.classes import BACK
from vision.cli import OneLineParser
from vision.deskew import box_angles
from vision.detections import Detections
from vision.layout import Layout, layout_hand

PROG = "python -m vision.layout_check"
# Each tile's angle measured on the scene's image as the reader measures it (not the generator's own
# angle), added to a scene's ground truth where the image was at hand.
MEASURED_ANGLES = "measured_angles"


def detections_from_meta(meta: Mapping[str, Any]) -> Detections:
    """The scene's tiles as perfect detections (ground-truth boxes, confidence 1), with their measured
    angles when the scene carries them (`MEASURED_ANGLES`)."""
    tiles = meta["tiles"]
    detections = Detections.from_codes([t["code"] for t in tiles], [t["xyxy"] for t in tiles])
    angles = meta.get(MEASURED_ANGLES)
    return detections if angles is None else detections.with_angle(angles)


def with_measured_angles(meta: dict[str, Any], bgr: np.ndarray) -> dict[str, Any]:
    """The scene's ground truth with each tile's angle measured on its image (BGR, as rendered)."""
    rgb = np.ascontiguousarray(bgr[:, :, ::-1])
    boxes = np.asarray([t["xyxy"] for t in meta["tiles"]], np.float32).reshape(-1, 4)
    return {**meta, MEASURED_ANGLES: box_angles(rgb, boxes).tolist()}


def _meld_key(meld: Mapping[str, Any]) -> tuple[str, tuple[str, ...] | None, bool]:
    tiles = meld["tiles"]
    return (str(meld["kind"]), None if tiles is None else tuple(sorted(tiles)), bool(meld["concealed"]))


def expected_hand(meta: Mapping[str, Any]) -> dict[str, list]:
    """The hand the layout can know from the tiles in the picture.

    A concealed kong lying all face down has no known face (its tiles become None), and a
    concealed tile seen only from behind (a standing row photographed from the far side is
    labelled `back`) cannot be read, so the concealed tiles are the readable ones of the
    concealed group. Meld groups come in the order of `meta["hand"]["melds"]`.
    """
    hand = meta["hand"]
    tiles = meta["tiles"]
    meld_groups = [g for g in meta["groups"] if g["kind"] == "meld"]
    melds = []
    for k, meld in enumerate(hand["melds"]):
        group = meld_groups[k] if k < len(meld_groups) else None
        blind = group is not None and group["tiles"] and all(tiles[i]["code"] == BACK for i in group["tiles"])
        melds.append({"kind": meld["kind"], "tiles": None, "concealed": True} if blind else meld)
    concealed = list(hand["concealed"])
    groups = [g for g in meta["groups"] if g["kind"] == "concealed"]
    if groups:
        concealed = [tiles[i]["code"] for g in groups for i in g["tiles"] if tiles[i]["code"] != BACK]
    return {"concealed": concealed, "melds": melds, "bonus": list(hand.get("bonus", []))}


def found_hand(layout: Layout) -> dict[str, list]:
    """The layout's hand with each kong lying all face down as a kong of unknown face (tiles None), the
    counterpart of `expected_hand`: the scoring hand leaves such a kong out for the user to set."""
    blind = [
        {"kind": "kong", "tiles": None, "concealed": True}
        for group in layout.groups
        if group.meld == "kong" and all(code == BACK for code in group.codes)
    ]
    return {**layout.hand, "melds": [*layout.hand["melds"], *blind]}


def _found_melds(layout: Layout) -> list[tuple[str, tuple[str, ...] | None, bool]]:
    return [_meld_key(m) for m in found_hand(layout)["melds"]]


def failures(layout: Layout, meta: Mapping[str, Any]) -> list[str]:
    """Names of what the layout got wrong for this scene (empty when the structure is recovered)."""
    want = expected_hand(meta)
    out = []
    if Counter(layout.hand["concealed"]) != Counter(want["concealed"]):
        out.append("concealed")
    want_melds = sorted((_meld_key(m) for m in want["melds"]), key=repr)
    if sorted(_found_melds(layout), key=repr) != want_melds:
        out.append("melds")
    if Counter(layout.hand["bonus"]) != Counter(want["bonus"]):
        out.append("bonus")
    distractors = {i for g in meta["groups"] if g["kind"] == "distractor" for i in g["tiles"]}
    in_hand = {i for g in layout.groups if g.kind in ("concealed", "meld") for i in g.indices}
    in_bonus = {i for g in layout.groups if g.kind == "bonus" for i in g.indices}
    if distractors & in_hand:
        out.append("distractor-in-hand")
    if distractors & in_bonus:
        out.append("distractor-in-bonus")
    return out


# Failure modes that break the hand proper (concealed tiles and melds); the others only
# touch the bonus tiles.
STRUCTURE_MODES = frozenset({"concealed", "melds", "distractor-in-hand"})


def check_scenes(metas: Iterable[Mapping[str, Any]]) -> tuple[int, Counter[str], list[tuple[int, list[str]]]]:
    """(scenes checked, count per failure mode, (seed, modes) of each failed scene).

    Only scenes with a hand whose tiles are all in the picture (`complete`) are checked.
    """
    total = 0
    modes: Counter[str] = Counter()
    failed: list[tuple[int, list[str]]] = []
    for meta in metas:
        if not meta.get("complete", True) or not meta.get("hand"):
            continue
        total += 1
        found = failures(layout_hand(detections_from_meta(meta)), meta)
        if found:
            modes.update(found)
            failed.append((int(meta.get("seed", total)), found))
    return total, modes, failed


def synth_metas(seeds: Iterable[int], size: int = 1280, angles: bool = True) -> Iterable[dict[str, Any]]:
    """Ground truth of generated scenes (imports the generator lazily: it is a training tool), with
    each tile's angle measured on the image unless `angles` is False."""
    from datasets.synth import render_scene

    for seed in seeds:
        image, meta = render_scene(seed, size=size)
        yield with_measured_angles(meta, image) if angles else meta


def dir_metas(meta_dir: Path, limit: int, angles: bool = True) -> Iterable[dict[str, Any]]:
    """Ground truth of a `python -m datasets.synth` run (OUT/meta/*.json), with each tile's angle
    measured on the scene's image beside it (OUT/images) where there is one and `angles` is True."""
    for path in sorted(meta_dir.glob("*.json"))[:limit]:
        meta = json.loads(path.read_text())
        image_path = meta_dir.parent / str(meta.get("image", ""))
        image = cv2.imread(str(image_path)) if angles and image_path.is_file() else None
        yield meta if image is None else with_measured_angles(meta, image)


def count_problem(scenes: int, first_seed: int) -> str | None:
    """The one of `--scenes` and `--first-seed` out of range, named with its value, or None."""
    if scenes < 1:
        return f"--scenes must be at least 1, got {scenes}"
    if first_seed < 0:
        return f"--first-seed must be at least 0, got {first_seed}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog=PROG, description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=200, help="scenes to render (default 200)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first scene's seed (default 0)")
    parser.add_argument("--size", type=int, default=1280, help="longest image side in px (default 1280)")
    parser.add_argument(
        "--meta-dir",
        type=Path,
        help="read the scenes of a `python -m datasets.synth` run instead (its OUT, or OUT/meta)",
    )
    parser.add_argument(
        "--no-angles",
        action="store_true",
        help="leave out the tiles' angles measured on the images (the layout then tells a bonus tile "
        "dropped askew by its box alone)",
    )
    args = parser.parse_args(argv)
    problem = count_problem(args.scenes, args.first_seed)
    if problem:
        parser.error(problem)
    angles = not args.no_angles
    if args.meta_dir is not None:
        meta_dir = args.meta_dir / "meta" if (args.meta_dir / "meta").is_dir() else args.meta_dir
        if not any(meta_dir.glob("*.json")):
            print(f"{PROG}: no scene files (*.json) in {meta_dir}", file=sys.stderr)
            return 2
        metas: list[Mapping[str, Any]] = list(dir_metas(meta_dir, args.scenes, angles))
    else:
        from datasets.synth import SceneOptions, SynthError  # the generator: a training tool, imported late

        try:
            SceneOptions(size=args.size).check("--")
            seeds = range(args.first_seed, args.first_seed + args.scenes)
            metas = list(synth_metas(seeds, args.size, angles))
        except SynthError as error:  # a size out of range, the art not installed: it was a traceback
            print(f"{PROG}: {error}", file=sys.stderr)
            return 2
    total, modes, failed = check_scenes(metas)
    ok = total - len(failed)
    broken = sum(1 for _, found in failed if STRUCTURE_MODES & set(found))
    print(f"scenes with a complete hand: {total} of {len(metas)}")
    kept = total - broken
    print(f"structure (concealed + melds) recovered: {kept}/{total} = {kept / max(total, 1):.1%}")
    print(f"everything (bonus too) recovered: {ok}/{total} = {ok / max(total, 1):.1%}")
    for mode, count in modes.most_common():
        print(f"  {mode}: {count}")
    for seed, found in failed:
        print(f"  seed {seed}: {', '.join(found)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
