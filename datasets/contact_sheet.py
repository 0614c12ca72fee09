"""Every class in every installed style on one PNG, so a person can check the art.

    python -m datasets.contact_sheet --out sheet.png [--styles a,b] [--tile 64]

One row per style (its name on the left), one column per class (its code on top).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from scoring.console import run_main

    sys.exit(run_main("python -m datasets.contact_sheet", "datasets.contact_sheet"))

import cv2
import numpy as np
from PIL import Image, ImageDraw

from datasets.faces import FACE_H, FACE_W, StyleUnavailableError
from datasets.styles import available_styles, style_faces
from datasets.synth import SynthError, parse_styles
from scoring.console import OneLineParser
from vision.classes import CLASSES

LABEL_W = 170
HEADER_H = 22


def contact_sheet(styles: Sequence[str], tile_h: int = 64) -> np.ndarray:
    """(H, W, 3) uint8 RGB grid: styles down, the 49 classes across."""
    tile_w = round(tile_h * FACE_W / FACE_H)
    pad = 3
    width = LABEL_W + len(CLASSES) * (tile_w + pad) + pad
    height = HEADER_H + len(styles) * (tile_h + pad) + pad
    sheet = Image.new("RGB", (width, height), (70, 74, 80))
    draw = ImageDraw.Draw(sheet)
    for k, code in enumerate(CLASSES):
        draw.text((LABEL_W + pad + k * (tile_w + pad) + 2, 5), code, fill=(255, 255, 255))
    bg = np.array([70, 74, 80], np.float32)
    for row, name in enumerate(styles):
        y = HEADER_H + pad + row * (tile_h + pad)
        draw.text((6, y + tile_h // 2 - 6), name, fill=(255, 255, 255))
        faces = style_faces(name)
        for k, code in enumerate(CLASSES):
            face = cv2.resize(faces[code], (tile_w, tile_h), interpolation=cv2.INTER_AREA)
            a = face[..., 3:4].astype(np.float32) / 255
            rgb = (face[..., :3] * a + bg * (1 - a)).astype(np.uint8)
            sheet.paste(Image.fromarray(rgb), (LABEL_W + pad + k * (tile_w + pad), y))
    return np.asarray(sheet)


def sheet_problem(given: str) -> str | None:
    """Why the sheet cannot be written to `given`, said before the styles are drawn (seconds each),
    or None: a name PIL knows no format for ended in its KeyError's traceback, after the drawing (an
    audit: `--out sheet.txt`, and `--out ""`)."""
    if not given.strip():
        return "--out needs a file name, e.g. --out sheet.png"
    out = Path(given)
    if out.is_dir():
        return f"cannot write {given}: it is a folder"
    if out.suffix.lower() not in Image.registered_extensions():
        return f"cannot write {given}: give it an image extension, e.g. .png or .jpg"
    # the nearest folder there already: a file in its place was said as mkdir's "File exists"
    there = next((parent for parent in out.parents if parent.exists()), None)
    if there is not None and not there.is_dir():
        return f"cannot write {given}: {there} is a file, not a folder"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m datasets.contact_sheet", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--out", required=True, help="the picture to write; its extension picks the format (.png, .jpg ...)"
    )
    parser.add_argument("--styles", help="comma-separated styles (default: all installed)")
    parser.add_argument("--tile", type=int, default=64, help="face height in px, 16..512 (default 64)")
    args = parser.parse_args(argv)
    problem = sheet_problem(args.out)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    out = Path(args.out)
    try:
        # as the generator reads them: `--styles " , "` was "unknown style(s) , ;"
        styles = parse_styles(args.styles) or available_styles()
        if not 16 <= args.tile <= 512:
            raise StyleUnavailableError(f"--tile must be 16..512 px, got {args.tile}")
        sheet = contact_sheet(styles, args.tile)
        out.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(sheet).save(out)
    except (StyleUnavailableError, SynthError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the system's words, not Python's "[Errno 20] ..."
        print(f"error: cannot write {exc.filename or out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"{out}: {len(styles)} styles x {len(CLASSES)} classes")
    return 0
