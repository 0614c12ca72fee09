"""Whether a candidate set of models may replace the shipped ones: the ship rule of models/README.md,
read off `python -m vision.bench --json` files.

    python -m vision.ship_rule --shipped H3.json HD.json --candidate H3c.json HDc.json \
        [--real-shipped R.json --real-candidate Rc.json]

The held-out sets (rendered in art no model was trained on) decide: their F1 summed must rise by
MIN_F1_GAIN or more, with no fewer hands read exactly. The real photos never choose between
candidates, but a candidate that reads them worse (a lower F1, or fewer photos exact) is vetoed
(stage 63: a detector that passed on the generated sets boxed a glass table's legs in real photos).
The two files of a set must have been measured on the same scenes (the same digest of the photos'
truth, where both files carry one (stage 71); as many photos, and as many true tiles of each kind): a
set rendered again by a later generator holds other scenes (stage 70: HELDOUT3 at and after c4a2d14
lays 128 face and fly tiles where stage 69's render laid 185, the same 3,577 tiles in all), and such
figures do not compare; nor do HELDOUT3 and HELDOUT_D given in another order (the same hands and
counts, in other art: only the digest tells them apart).
Exit 0 when the candidate may ship, 1 when it may not, 2 with one line for a file that cannot be used.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

MIN_F1_GAIN: Final = 0.01


class ShipRuleError(ValueError):
    """A bench file that cannot be read as one set's figures."""


@dataclass(frozen=True)
class SetFigures:
    """One set's figures from `vision.bench --json`: per-tile F1, photos and hands read exactly."""

    name: str
    f1: float
    exact_photos: int
    exact_hands: int
    # what was measured, where the file says (older files name no kinds): two files of one set must
    # agree on them; `true_tiles` is (kind, true tiles of that kind) per kind of tile
    photos: int | None = None
    true_tiles: tuple[tuple[str, int], ...] | None = None
    # the digest of the photos' truth (`vision.bench.scenes_digest`; files before stage 71 have none)
    scenes: str | None = None


@dataclass(frozen=True)
class Verdict:
    """The rule's answer and the figures it rests on, each line a reason a user can check."""

    ships: bool
    lines: tuple[str, ...]


def figures_from_json(text: str, source: str) -> SetFigures:
    """The first set's figures in a bench JSON file (a list of result objects; `--stages` adds more)."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ShipRuleError(f"{source}: not JSON ({error})") from None
    first = data[0] if isinstance(data, list) and data else None
    if not isinstance(first, dict):
        raise ShipRuleError(f"{source}: not a vision.bench --json file (a list of results)")
    try:
        kinds = first.get("kinds")
        return SetFigures(
            name=str(first["name"]),
            f1=float(first["f1"]),
            exact_photos=int(first["exact_photos"]),
            exact_hands=int(first.get("exact_hands") or 0),
            photos=None if first.get("photos") is None else int(first["photos"]),
            true_tiles=None if kinds is None else tuple((str(kind), int(total)) for kind, _, total in kinds),
            scenes=None if first.get("scenes") is None else str(first["scenes"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ShipRuleError(f"{source}: no {error} in its first result") from None


def _check_same_scenes(before: SetFigures, after: SetFigures, which: str) -> None:
    """Refuse two files of one set measured on different scenes (each count or digest known in both)."""
    if None not in (before.scenes, after.scenes) and before.scenes != after.scenes:
        raise ShipRuleError(
            f"{which}: scenes {before.scenes} against {after.scenes}: not the same scenes (another render, "
            "or another set); bench both on one render, the sets in the same order"
        )
    if None not in (before.photos, after.photos) and before.photos != after.photos:
        raise ShipRuleError(
            f"{which}: {before.photos} photos against {after.photos}: not the same scenes; "
            "bench both on one render"
        )
    if before.true_tiles is None or after.true_tiles is None:
        return
    counts = dict(before.true_tiles), dict(after.true_tiles)
    for kind in dict.fromkeys([*counts[0], *counts[1]]):
        if counts[0].get(kind, 0) != counts[1].get(kind, 0):
            raise ShipRuleError(
                f"{which}: true tiles {kind} {counts[0].get(kind, 0)} against {counts[1].get(kind, 0)}: "
                "not the same scenes; bench both on one render"
            )


def verdict(
    shipped: Sequence[SetFigures],
    candidate: Sequence[SetFigures],
    real_shipped: SetFigures | None = None,
    real_candidate: SetFigures | None = None,
) -> Verdict:
    """The ship rule over held-out sets given in the same order for both, then the real photos' veto."""
    if not shipped or len(shipped) != len(candidate):
        raise ShipRuleError(
            f"give the same held-out sets for both: {len(shipped)} shipped, {len(candidate)} candidate"
        )
    if (real_shipped is None) != (real_candidate is None):
        raise ShipRuleError("give the real photos' figures for both or for neither")
    for k, (before, after) in enumerate(zip(shipped, candidate, strict=True), start=1):
        _check_same_scenes(before, after, f"held-out set {k}")
    if real_shipped is not None and real_candidate is not None:
        _check_same_scenes(real_shipped, real_candidate, "real photos")
    f1 = sum(s.f1 for s in shipped), sum(c.f1 for c in candidate)
    f1_gain = f1[1] - f1[0]
    hands = sum(s.exact_hands for s in shipped), sum(c.exact_hands for c in candidate)
    lines = [
        f"held-out F1 sum {f1[0]:.4f} -> {f1[1]:.4f} ({f1_gain:+.4f}; the rule asks +{MIN_F1_GAIN:g})",
        f"held-out hands exact {hands[0]} -> {hands[1]}",
    ]
    # a gain of exactly MIN_F1_GAIN passes, whatever the float sums round it to
    ships = f1_gain >= MIN_F1_GAIN - 1e-9 and hands[1] >= hands[0]
    if not ships:
        lines.append("short of the rule: keep what ships")
    if real_shipped is not None and real_candidate is not None:
        lines.append(
            f"real photos F1 {real_shipped.f1:.3f} -> {real_candidate.f1:.3f}, "
            f"exact {real_shipped.exact_photos} -> {real_candidate.exact_photos}"
        )
        worse = real_candidate.f1 < real_shipped.f1 or real_candidate.exact_photos < real_shipped.exact_photos
        if worse:
            lines.append("the real photos read worse: vetoed")
            ships = False
    if ships:
        lines.append("passes: it may ship")
    return Verdict(ships, tuple(lines))


def _read(path: Path) -> SetFigures:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ShipRuleError(f"{path}: cannot be read ({error})") from None
    return figures_from_json(text, str(path))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.ship_rule", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--shipped", type=Path, nargs="+", required=True, help="the shipped models' held-out JSON files"
    )
    parser.add_argument(
        "--candidate", type=Path, nargs="+", required=True, help="the candidate's, in the same order"
    )
    parser.add_argument("--real-shipped", type=Path, help="the shipped models' real-photo JSON file")
    parser.add_argument("--real-candidate", type=Path, help="the candidate's")
    args = parser.parse_args(argv)
    try:
        real = [
            _read(path) if path is not None else None for path in (args.real_shipped, args.real_candidate)
        ]
        result = verdict(
            [_read(path) for path in args.shipped], [_read(path) for path in args.candidate], *real
        )
    except ShipRuleError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print("\n".join(result.lines))
    return 0 if result.ships else 1


if __name__ == "__main__":
    raise SystemExit(main())
