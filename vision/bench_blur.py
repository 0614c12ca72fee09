"""How often the reader tells a photo is blurred or shaken: on sharp generated scenes (false alarms)
and on blurred copies of them (a shaken phone, a missed focus), as `vision.sharpness.BLURRED_BELOW`
was chosen (docs/vision.md, A blurred photo).

    python -m vision.bench_blur --synthetic DIR [--limit 80] [--blurred 30]

DIR is a `datasets.synth` output folder. Each photo is read as rendered; the first `--blurred` are
read again with a 15 px motion blur at 20 degrees and with a disk blur of radius 5, each saved as a
phone would (JPEG 92). Prints, per variant, the photos told blurred and the median sharpness.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from scoring.console import run_main

    sys.exit(run_main("python -m vision.bench_blur", "vision.bench_blur"))

import cv2
import numpy as np

from scoring.console import OneLineParser
from vision.bench import resized_jpeg
from vision.imageio import ImageError, read_image
from vision.pipeline import TileReader
from vision.sharpness import BLURRED_LINE, SHAKEN_LINE
from vision.sidecar import ModelError

MOTION_PX = 15
MOTION_DEGREES = 20.0
DISK_RADIUS = 5


def motion_kernel(length: int, degrees: float) -> np.ndarray:
    """A straight motion-blur kernel `length` px long at `degrees` counter-clockwise, summing to 1."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    centre = ((length - 1) / 2.0, (length - 1) / 2.0)
    turned = cv2.warpAffine(kernel, cv2.getRotationMatrix2D(centre, degrees, 1.0), (length, length))
    return np.asarray(turned / turned.sum(), np.float32)


def disk_kernel(radius: int) -> np.ndarray:
    """A defocus kernel: a filled disk of `radius` px, summing to 1."""
    kernel = np.zeros((2 * radius + 1, 2 * radius + 1), np.float32)
    cv2.circle(kernel, (radius, radius), radius, 1.0, -1)
    return kernel / kernel.sum()


def as_phone_saves(rgb: np.ndarray) -> np.ndarray:
    """`rgb` after a JPEG round trip as a phone saves it (`vision.bench.resized_jpeg`, its size kept)."""
    bgr = cv2.imdecode(np.frombuffer(resized_jpeg(rgb, 1.0), np.uint8), cv2.IMREAD_COLOR)
    if bgr is None:
        raise ImageError("cannot decode the re-encoded photo")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def blurred_by(kernel: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    return lambda rgb: as_phone_saves(cv2.filter2D(rgb, -1, kernel))


@dataclass(frozen=True)
class VariantResult:
    name: str
    photos: int
    told_blurred: int
    sharpness: tuple[float, ...]  # of the photos with enough faces to judge

    def line(self) -> str:
        median = f"{statistics.median(self.sharpness):.3f}" if self.sharpness else "-"
        share = self.told_blurred / self.photos if self.photos else 0.0
        return (
            f"{self.name:<22} told blurred {self.told_blurred:>3} of {self.photos:<3} ({share:6.1%})"
            f"   median sharpness {median}"
        )


def bench_variant(
    reader: TileReader, name: str, paths: Sequence[Path], change: Callable[[np.ndarray], np.ndarray]
) -> VariantResult:
    told, values = 0, []
    for path in paths:
        reading = reader.read(np.ascontiguousarray(change(read_image(path).rgb)))
        # a shake is told in a line of its own; either says why the tiles read less surely
        told += BLURRED_LINE in reading.warnings or SHAKEN_LINE in reading.warnings
        if reading.seen is not None and reading.seen.sharpness is not None:
            values.append(reading.seen.sharpness)
    return VariantResult(name, len(paths), told, tuple(values))


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(
        prog="python -m vision.bench_blur", description=" ".join(__doc__.split("\n\n")[0].split())
    )
    parser.add_argument("--synthetic", type=Path, required=True, help="datasets.synth output folder")
    parser.add_argument("--limit", type=int, default=80, help="at most this many photos read as rendered")
    parser.add_argument("--blurred", type=int, default=30, help="of those, this many also read blurred")
    parser.add_argument("--models", type=Path, default=None, help="models folder (default: models/)")
    parser.add_argument("--json", type=Path, default=None, help="also write each photo's sharpness here")
    args = parser.parse_args(argv)
    # --limit 0 was said as "no photos in DIR/images" of a folder full of them; --blurred -1 read none
    if args.limit < 1:
        parser.error(f"--limit must be at least 1, got {args.limit}")
    if args.blurred < 0:
        parser.error(f"--blurred must be 0 or more, got {args.blurred}")
    paths = sorted((args.synthetic / "images").glob("*.jpg"))[: args.limit]
    if not paths:
        print(f"error: no photos in {args.synthetic / 'images'}", file=sys.stderr)
        return 2
    try:
        reader = TileReader.load(args.models)
    except ModelError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    variants: list[tuple[str, Sequence[Path], Callable[[np.ndarray], np.ndarray]]] = [
        ("sharp (as rendered)", paths, lambda rgb: rgb),
        (
            f"motion {MOTION_PX} px",
            paths[: args.blurred],
            blurred_by(motion_kernel(MOTION_PX, MOTION_DEGREES)),
        ),
        (f"defocus disk r={DISK_RADIUS}", paths[: args.blurred], blurred_by(disk_kernel(DISK_RADIUS))),
    ]
    results = []
    for name, chosen, change in variants:
        results.append(bench_variant(reader, name, chosen, change))
        print(results[-1].line(), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps({r.name: list(r.sharpness) for r in results}, indent=1) + "\n")
    return 0
