"""A glyph look: a general Chinese text recogniser reads the character on a wind or dragon tile.

Our classifier learned its faces from the sets the generator draws, and an unseen hand of 南 or 西
is where it errs most (read as 東 or 南). A recogniser trained on printed text of every kind reads
the character itself. The one used is PP-OCRv4's (Apache-2.0), as the PyPI wheel
`rapidocr-onnxruntime` ships it: installed with the project, nothing is fetched at run time.

Only the winds and the red and green dragons are read: where the classifier gives them together at
least `above`, that probability is shared out among them in proportion to the classifier's own and
the recogniser's, so the classifier still speaks where the recogniser sees nothing (`floor`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.classes import CLASS_INDEX
from vision.onnx_models import GlyphConfig, ModelError, make_session

# The character each face prints (traditional, and the simplified hand some sets use).
HONOUR_GLYPHS: dict[str, tuple[str, ...]] = {
    "E": ("東", "东"),
    "S": ("南",),
    "W": ("西",),
    "N": ("北",),
    "C": ("中",),
    "F": ("發", "发"),
}
HONOURS: tuple[str, ...] = tuple(HONOUR_GLYPHS)
LINE_HEIGHT = 48  # the recogniser reads text lines 48 px tall
BLANK = 0  # the recogniser's CTC blank is its first output


def locate(config: GlyphConfig) -> Path:
    """The recogniser's file in its installed package (found without importing the package)."""
    spec = importlib.util.find_spec(config.package)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(f"the glyph recogniser needs the package {config.package}: pip install the project")
    path = Path(next(iter(spec.submodule_search_locations))) / config.file
    if not path.is_file():
        raise ModelError(f"glyph recogniser not found: {path} is missing")
    return path


def single_glyph_probability(steps: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """For CTC outputs `steps` (T, C) and each column c of `columns`: the probability that the line
    reads exactly the one character c (blanks, c one or more times, blanks)."""
    blank = steps[:, BLANK]
    glyph = steps[:, columns]
    before = np.ones(len(columns))
    inside = np.zeros(len(columns))
    after = np.zeros(len(columns))
    for t in range(len(steps)):
        after = (after + inside) * blank[t]
        inside = (inside + before) * glyph[t]
        before = before * blank[t]
    return inside + after


def quarter_turns(xyxy: np.ndarray) -> tuple[int, ...]:
    """The quarter turns that may stand a tile in box `xyxy` upright: a box clearly taller than
    wide holds an upright or upside-down tile, clearly wider a sideways one, else any."""
    width, height = float(xyxy[2] - xyxy[0]), float(xyxy[3] - xyxy[1])
    if height > 1.15 * width:
        return (0, 2)
    if width > 1.15 * height:
        return (1, 3)
    return (0, 1, 2, 3)


def inner_crop(rgb: np.ndarray, xyxy: np.ndarray, shrink: float) -> np.ndarray:
    """The box `xyxy` of `rgb` less `shrink` of its size on each side (at least one pixel)."""
    x1, y1, x2, y2 = (float(v) for v in xyxy)
    dx, dy = shrink * (x2 - x1), shrink * (y2 - y1)
    height, width = rgb.shape[:2]
    left = int(np.clip(round(x1 + dx), 0, width - 1))
    top = int(np.clip(round(y1 + dy), 0, height - 1))
    right = int(np.clip(round(x2 - dx), left + 1, width))
    bottom = int(np.clip(round(y2 - dy), top + 1, height))
    return rgb[top:bottom, left:right]


def line_input(crop: np.ndarray) -> np.ndarray:
    """An RGB crop as the recogniser's (3, 48, W) input: scaled to the line height keeping its
    shape (W at most 4 heights), values -1..1."""
    height, width = crop.shape[:2]
    line_width = int(np.clip(round(LINE_HEIGHT * width / max(height, 1)), 8, 4 * LINE_HEIGHT))
    line = cv2.resize(crop, (line_width, LINE_HEIGHT), interpolation=cv2.INTER_AREA)
    return ((line.astype(np.float32) / 255.0 - 0.5) / 0.5).transpose(2, 0, 1)


def padded(lines: Sequence[np.ndarray]) -> np.ndarray:
    """Lines (3, 48, W) of several widths as one batch, padded on the right with mid grey (0), as
    the recogniser was trained."""
    width = max(line.shape[2] for line in lines)
    batch = np.zeros((len(lines), 3, LINE_HEIGHT, width), np.float32)
    for i, line in enumerate(lines):
        batch[i, :, :, : line.shape[2]] = line
    return batch


@dataclass(frozen=True)
class GlyphReader:
    """The recogniser's session, its output columns for each honour's glyphs and the settings."""

    session: ort.InferenceSession
    config: GlyphConfig
    input_name: str
    glyph_columns: tuple[np.ndarray, ...]  # per HONOURS face, its glyphs' output columns

    @classmethod
    def from_session(cls, session: ort.InferenceSession, config: GlyphConfig) -> GlyphReader:
        charset = session.get_modelmeta().custom_metadata_map.get("character", "").splitlines()
        # outputs: blank, the charset in order, then a space
        column = {char: i + 1 for i, char in enumerate(charset)}
        missing = [g for glyphs in HONOUR_GLYPHS.values() for g in glyphs if g not in column]
        if missing:
            raise ModelError(f"the glyph recogniser cannot read {''.join(missing)}")
        return cls(
            session=session,
            config=config,
            input_name=session.get_inputs()[0].name,
            glyph_columns=tuple(np.array([column[g] for g in HONOUR_GLYPHS[code]]) for code in HONOURS),
        )

    def honour_scores(self, rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(N, 6) for boxes (N, 4): per HONOURS face, how surely the box shows its character alone,
        at the likeliest of its quarter turns."""
        views, owner = [], []
        for row, xyxy in enumerate(boxes):
            crop = inner_crop(rgb, xyxy, self.config.shrink)
            for turn in quarter_turns(xyxy):
                views.append(line_input(np.ascontiguousarray(np.rot90(crop, turn))))
                owner.append(row)
        scores = np.zeros((len(boxes), len(HONOURS)))
        if not views:
            return scores
        steps = self.session.run(None, {self.input_name: padded(views)})[0]
        all_columns = np.concatenate(self.glyph_columns)
        ends = np.cumsum([len(c) for c in self.glyph_columns])
        for view_steps, row in zip(steps, owner, strict=True):
            glyph = single_glyph_probability(view_steps, all_columns)
            per_face = np.array([part.max() for part in np.split(glyph, ends[:-1])])
            scores[row] = np.maximum(scores[row], per_face)
        return scores

    def refine(self, rgb: np.ndarray, xyxy: np.ndarray, tiles: np.ndarray) -> np.ndarray:
        """`tiles` (N, 49) with the honours re-weighed by their glyphs where the classifier gives
        them together at least `above`; every other face keeps its probability."""
        columns = honour_columns()
        rows = np.flatnonzero(tiles[:, columns].sum(axis=1) >= self.config.above)
        if rows.size == 0:
            return tiles
        return weigh(tiles, rows, columns, self.honour_scores(rgb, xyxy[rows]), self.config.floor)


def honour_columns() -> np.ndarray:
    return np.array([CLASS_INDEX[code] for code in HONOURS])


def weigh(
    tiles: np.ndarray, rows: np.ndarray, columns: np.ndarray, scores: np.ndarray, floor: float
) -> np.ndarray:
    """`tiles` with the probability each of `rows` gives `columns` shared out in proportion to the
    classifier's probability times (recogniser score + `floor`)."""
    out = tiles.copy()
    block = out[np.ix_(rows, columns)].astype(np.float64)
    mass = block.sum(axis=1, keepdims=True)
    joint = block * (scores + floor)
    total = joint.sum(axis=1, keepdims=True)
    shared = np.divide(joint, total, out=np.zeros_like(joint), where=total > 0) * mass
    out[np.ix_(rows, columns)] = np.where(total > 0, shared, block).astype(out.dtype)
    return out


def glyph_session(config: GlyphConfig, providers: Sequence[str], threads: int) -> ort.InferenceSession:
    return make_session(locate(config), providers, threads)
