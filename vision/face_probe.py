"""How the models read clean faces of the randomised sets, with one drawing knob set or another.

    python -m vision.face_probe [--models DIR] [--sets N] [--first V] [--codes E,S,W,N]
        [--set FIELD=VALUE ...]

Each face of N randomised sets (`datasets.randomized.random_recipe`, variants V, V+1, ...) is drawn
upright, laid on a green cloth with room around it, and read by the classifier with every look
(`TileClassifier.read_boxes`), as a photo's box is. With `--set`, each set's recipe is changed first
(a `FaceRecipe` field, or `layout.FIELD` for a `Layout` one): the figure then says what one knob of
the generator costs the models, a blind spot a training round can be aimed at. It is a probe, not
a photo bench: no detector, no layout, no one-set rule, and no table, light or blur. `--style NAME`
reads one generator style's own faces instead (a held-out style's art, clean and upright).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.faces import FaceRecipe, render_face
from datasets.randomized import random_recipe
from datasets.styles import StyleUnavailableError, style_faces
from vision.classes import BACK, CLASSES
from vision.pipeline import TileReader
from vision.sidecar import ModelError

CLOTH = (40, 110, 70)
FACE_HEIGHT = 128  # px: a tile of a phone photo of a hand at arm's length
GAP = 0.4  # cloth around each face, a share of its height
DEFAULT_FIRST = 60_000  # far from the variants the benches' scenes draw most


@dataclass(frozen=True)
class ProbeResult:
    """Faces read, per code: how many were read right, and each wrong reading with its count."""

    right: Counter[str]
    confusions: Counter[tuple[str, str]]

    @property
    def total(self) -> Counter[str]:
        """Faces read per code, right or wrong."""
        total = Counter(self.right)
        for (code, _), n in self.confusions.items():
            total[code] += n
        return total

    @property
    def accuracy(self) -> float:
        n = sum(self.total.values())
        return sum(self.right.values()) / n if n else 0.0


def parse_setting(text: str) -> tuple[str, str]:
    """'FIELD=VALUE' -> (field, value); FIELD is a FaceRecipe field or layout.FIELD."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected FIELD=VALUE, got {text!r}")
    return name.strip(), value.strip()


def _typed(value: str, like: Any, name: str) -> Any:
    """`value` read as the type of the field's default `like` (str, bool, int, float, or None)."""
    if isinstance(like, bool):
        if value.lower() not in ("true", "false"):
            raise ValueError(f"{name} takes true or false, not {value!r}")
        return value.lower() == "true"
    if isinstance(like, int | float):
        try:
            return type(like)(value)
        except ValueError:
            raise ValueError(f"{name} takes a {type(like).__name__}, not {value!r}") from None
    if like is None or isinstance(like, str):
        return None if value.lower() == "none" else value
    raise ValueError(f"{name} is a {type(like).__name__}: the probe sets only text, number or flag fields")


def with_settings(recipe: FaceRecipe, settings: Sequence[tuple[str, str]]) -> FaceRecipe:
    """The recipe with each (field, value) set: a FaceRecipe field, or layout.FIELD."""
    for name, value in settings:
        target: Any = recipe.layout if name.startswith("layout.") else recipe
        field = name.removeprefix("layout.")
        known = {f.name for f in fields(target)}
        if field not in known:
            raise ValueError(f"{name}: no such field of {type(target).__name__}")
        changed = replace(target, **{field: _typed(value, getattr(target, field), name)})
        recipe = replace(recipe, layout=changed) if target is recipe.layout else changed
    return recipe


def face_sheet(faces: Sequence[np.ndarray], height: int = FACE_HEIGHT) -> tuple[np.ndarray, np.ndarray]:
    """RGBA faces laid in a row on the cloth, each `height` px tall: (RGB image, (N, 4) xyxy boxes)."""
    gap = round(GAP * height)
    scaled = [
        cv2.resize(f, (round(f.shape[1] * height / f.shape[0]), height), interpolation=cv2.INTER_AREA)
        for f in faces
    ]
    width = gap + sum(f.shape[1] + gap for f in scaled)
    sheet = np.empty((height + 2 * gap, width, 3), np.uint8)
    sheet[:] = CLOTH
    boxes = []
    x = gap
    for face in scaled:
        alpha = face[..., 3:4].astype(np.float32) / 255
        region = sheet[gap : gap + height, x : x + face.shape[1]]
        region[:] = (face[..., :3] * alpha + region * (1 - alpha)).astype(np.uint8)
        boxes.append((x, gap, x + face.shape[1], gap + height))
        x += face.shape[1] + gap
    return sheet, np.array(boxes, np.float32).reshape(-1, 4)


def probe(reader: TileReader, recipes: Sequence[FaceRecipe], codes: Sequence[str]) -> ProbeResult:
    """Read every code's face of every recipe (a sheet per recipe) and count what was read."""
    # one set's faces drawn at a time: every face of 40 sets at once would hold ~400 MB
    return probe_faces(
        reader, ({code: render_face(recipe, code) for code in codes} for recipe in recipes), codes
    )


def probe_faces(
    reader: TileReader, face_sets: Iterable[Mapping[str, np.ndarray]], codes: Sequence[str]
) -> ProbeResult:
    """Read every code's face of every set of faces (a sheet per set) and count what was read."""
    right: Counter[str] = Counter()
    confusions: Counter[tuple[str, str]] = Counter()
    for faces in face_sets:
        sheet, xyxy = face_sheet([faces[code] for code in codes])
        probabilities, _ = reader.classifier.read_boxes(sheet, xyxy)
        for code, class_id in zip(codes, probabilities.argmax(axis=1), strict=True):
            read = CLASSES[int(class_id)]
            if read == code:
                right[code] += 1
            else:
                confusions[(code, read)] += 1
    return ProbeResult(right, confusions)


def format_result(result: ProbeResult, codes: Sequence[str]) -> str:
    total = result.total
    n = sum(total.values())
    per_code = ", ".join(f"{c} {result.right[c]}/{total[c]}" for c in codes)
    worst = ", ".join(f"{a}->{b} x{k}" for (a, b), k in result.confusions.most_common(10))
    return (
        f"  read right {sum(result.right.values())}/{n} ({100 * result.accuracy:.1f}%)\n"
        f"  per face: {per_code}\n"
        f"  confusions: {worst or 'none'}"
    )


def _codes(text: str) -> tuple[str, ...]:
    codes = tuple(c.strip() for c in text.split(",") if c.strip())
    unknown = [c for c in codes if c not in CLASSES or c == BACK]
    if not codes:
        raise argparse.ArgumentTypeError("no face's code given")
    if unknown:
        raise argparse.ArgumentTypeError(f"not a face's code: {', '.join(unknown)}")
    return codes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.face_probe", description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=Path("models"), help="models folder (default: models)")
    parser.add_argument("--sets", type=int, default=40, help="randomised sets to draw (default 40)")
    parser.add_argument("--first", type=int, default=DEFAULT_FIRST, help="the first set's variant")
    parser.add_argument(
        "--codes",
        type=_codes,
        default=tuple(c for c in CLASSES if c != BACK),
        help="faces to read, comma-separated",
    )
    parser.add_argument(
        "--set",
        dest="settings",
        type=parse_setting,
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="a FaceRecipe field (or layout.FIELD) set in every set, e.g. wind_inks=rrrr; repeatable",
    )
    parser.add_argument(
        "--style",
        help="read this generator style's own faces once instead (`python -m datasets.synth --list-styles`)",
    )
    args = parser.parse_args(argv)
    if args.style and args.settings:
        parser.error("--set changes the randomised sets' recipes; a --style draws its own faces")
    try:
        reader = TileReader.load(args.models)
        if args.style:
            result = probe_faces(reader, [style_faces(args.style)], args.codes)
            what = f"style {args.style}"
        else:
            recipes = [with_settings(random_recipe(args.first + i), args.settings) for i in range(args.sets)]
            result = probe(reader, recipes, args.codes)
            knobs = ", ".join(f"{name}={value}" for name, value in args.settings) or "as drawn"
            what = f"{args.sets} sets (variants {args.first}-{args.first + args.sets - 1}), {knobs}"
    except (ModelError, ValueError, OSError, StyleUnavailableError) as error:
        print(f"face_probe: {error}", file=sys.stderr)
        return 2
    print(f"face probe: {what}")
    print(format_result(result, args.codes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
