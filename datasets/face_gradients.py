"""Which way each tile face's strokes run, for the blur measure (`vision.sharpness`): a bamboo's
sticks give gradients mostly across the tile, as a shaken phone's smear does, so a sharp hand of
bamboos would read as shaken unless its faces' own direction is allowed for.

    python -m datasets.face_gradients [--out vision/face_gradients.json]

For every installed style, each face (upright, on its style's ground) is shrunk to
`vision.sharpness.FACE_SIDE` px across its shorter side and its gradients' structure tensor (gxx,
gxy, gyy), normalised to gxx + gyy = 1, is taken; a code's entry is the mean over the styles.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from scoring.console import run_main

    sys.exit(run_main("python -m datasets.face_gradients", "datasets.face_gradients"))

import numpy as np

from datasets.styles import STYLES, StyleUnavailableError
from vision.classes import CLASSES
from vision.sharpness import GRADIENTS_FILE, face_tensor


def _on_ground(face: np.ndarray, ground: tuple[int, int, int]) -> np.ndarray:
    """An (H, W, 4) RGBA face over its style's ground, as grey float32."""
    rgba = face.astype(np.float32)
    alpha = rgba[..., 3:4] / 255.0 if rgba.shape[2] == 4 else np.ones((*rgba.shape[:2], 1), np.float32)
    rgb = rgba[..., :3] * alpha + np.asarray(ground, np.float32) * (1.0 - alpha)
    return rgb @ np.asarray([0.299, 0.587, 0.114], np.float32)


def style_tensors() -> dict[str, list[np.ndarray]]:
    """code -> the normalised tensor of its face in each installed style."""
    tensors: dict[str, list[np.ndarray]] = {}
    for style in STYLES.values():
        if style.missing():
            continue
        try:
            faces = style.build() if style.build_variant is None else style.build_variant(0)
        except StyleUnavailableError:
            continue
        for code, face in faces.items():
            tensor = face_tensor(_on_ground(face, style.ground))
            if tensor is not None:
                tensors.setdefault(code, []).append(tensor)
    return tensors


def out_problem(out: Path) -> str | None:
    """Why the table cannot be written to `out`, or None (a folder missing was FileNotFoundError's
    traceback, after every style was drawn)."""
    if out.is_dir():
        return f"cannot write {out}: it is a folder"
    if not out.parent.is_dir():
        return f"cannot write {out}: there is no folder {out.parent}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m datasets.face_gradients", description=" ".join(__doc__.split("\n\n")[0].split())
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=GRADIENTS_FILE,
        help="the JSON to write (default: vision/face_gradients.json)",
    )
    args = parser.parse_args(argv)
    problem = out_problem(args.out)
    if problem:  # said before the styles are drawn (seconds): it was a traceback after them
        print(f"error: {problem}", file=sys.stderr)
        return 2
    tensors = style_tensors()
    missing = [code for code in CLASSES if code not in tensors]
    if missing:
        print(
            f"error: no installed style draws {' '.join(missing)} (run `bash datasets/install_art.sh`)",
            file=sys.stderr,
        )
        return 2
    table = {code: [round(float(v), 4) for v in np.mean(tensors[code], axis=0)] for code in CLASSES}
    styles = min(len(v) for v in tensors.values())
    rows = ",\n".join(f"  {json.dumps(code)}: {json.dumps(values)}" for code, values in table.items())
    # one face a line: a change to the art shows as a readable diff
    try:
        args.out.write_text(f'{{\n "styles": {styles},\n "tensors": {{\n{rows}\n }}\n}}\n')
    except OSError as error:  # a full disk: the system's words, not a traceback
        print(f"error: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: {len(table)} faces, each from at least {styles} styles")
    return 0
