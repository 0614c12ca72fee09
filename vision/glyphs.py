"""A glyph look: a general Chinese text recogniser reads the character on a wind or dragon tile.

Our classifier learned its faces from the sets the generator draws, and an unseen hand of 南 or 西
is where it errs most (read as 東 or 南). A recogniser trained on printed text of every kind reads
the character itself. The one used is PP-OCRv4's (Apache-2.0), as the PyPI wheel
`rapidocr-onnxruntime` ships it: installed with the project, nothing is fetched at run time.

Only the winds and the red and green dragons are read: where the classifier gives them together at
least `above`, that probability is shared out among them in proportion to the classifier's own and
the recogniser's, so the classifier still speaks where the recogniser sees nothing (`floor`).

Flowers and seasons are told apart by their pictures, which no two sets share, and by a name or a
number in a corner or along an edge. Where the sidecar's `bonus_above` is set, the recogniser also
reads their names in windows at the face's corners: the character (梅 蘭 菊 竹 春 夏 秋 冬) alone, or
part of the English name (PLUM ... WINTER), matched by the longest run of letters it shares with the
text read; with `bonus_words`, where no character is found, also the English name in strips along
the top and bottom of the face at its likely upright turns (and, with `bonus_strip_glyphs`, the
character anywhere in such a strip: a set may print it along the top beside its picture). The
strips are 48 px lines up to four times as long: they cost several times what the windows do,
so they are a choice. Numbers are not read: a lone 1 or 一 is too often a stroke of a picture.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.classes import CLASS_INDEX, ENGLISH_NAMES
from vision.deskew import upright_face, upright_turns
from vision.onnx_models import make_session
from vision.sidecar import GlyphConfig, ModelError

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
# The flowers' and seasons' names: the character, and the English words sets print for it
BONUS_GLYPHS: dict[str, tuple[str, ...]] = {
    "F1": ("梅",),
    "F2": ("蘭", "兰"),
    "F3": ("菊",),
    "F4": ("竹",),
    "S1": ("春",),
    "S2": ("夏",),
    "S3": ("秋",),
    "S4": ("冬",),
}
BONUS_WORDS: dict[str, tuple[str, ...]] = {code: ENGLISH_NAMES[code] for code in BONUS_GLYPHS}
BONUS: tuple[str, ...] = tuple(BONUS_GLYPHS)
# a word counts as read once this many of its letters in a row are (or the whole of a shorter word),
# and fully read at WORD_SURE letters in a row
WORD_LEAST = 3
WORD_SURE = 6
# a name's character sits in a corner of the face: windows this share of its height and width
WINDOW_HEIGHT, WINDOW_WIDTH = 0.42, 0.48
# a set holds one of each flower and season: no more boxes than that are read for their names
BONUS_ROWS_MOST = 8
# a window reading a name this surely makes reading the edges for an English one needless
NAME_FOUND = 0.5
# a name runs along an edge: strips this share of the face's height, top and bottom, in all four turns
STRIP_HEIGHT = 0.3
LINE_HEIGHT = 48  # the recogniser reads text lines 48 px tall
# Lines per recogniser run: 96 corner windows read 24% faster, 48 edge strips 12%, eight at a time
# than all at once on the 2-core laptop CPU (284 -> 216 ms, 425 -> 376 ms; stage 62).
LINES_PER_RUN = 8
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


def face_scores(steps: np.ndarray, columns: Sequence[np.ndarray]) -> np.ndarray:
    """Per face, the probability that CTC outputs `steps` (T, C) read exactly one of its glyphs
    alone (`columns`: each face's glyphs' output columns)."""
    glyph = single_glyph_probability(steps, np.concatenate(columns))
    ends = np.cumsum([len(c) for c in columns])[:-1]
    return np.array([part.max() for part in np.split(glyph, ends)])


def greedy_text(steps: np.ndarray, charset: Sequence[str]) -> str:
    """The text CTC outputs `steps` (T, C) read as their likeliest step each: repeats merged,
    blanks dropped; upper case. Column 0 is the blank, column i the charset's (i-1)th character."""
    best = steps.argmax(axis=1)
    kept = [int(c) for i, c in enumerate(best) if c != BLANK and (i == 0 or c != best[i - 1])]
    return "".join(charset[c - 1] for c in kept if c <= len(charset)).upper()


def characters_in_line(steps: np.ndarray, columns: Sequence[np.ndarray]) -> np.ndarray:
    """Per face, how surely CTC outputs `steps` (T, C) hold one of its glyphs somewhere in the line:
    the glyph's highest probability at a step where it is the likeliest output (0 where it never is)."""
    best = steps.argmax(axis=1)
    scores = np.zeros(len(columns))
    for face, face_columns in enumerate(columns):
        held = np.isin(best, face_columns)
        if held.any():
            scores[face] = float(steps[held][:, face_columns].max())
    return scores


def longest_common_run(word: str, text: str) -> int:
    """The length of the longest run of characters `word` and `text` both hold."""
    best = 0
    previous = [0] * (len(text) + 1)
    for a in word:
        current = [0] * (len(text) + 1)
        for j, b in enumerate(text):
            if a == b:
                current[j + 1] = previous[j] + 1
                best = max(best, current[j + 1])
        previous = current
    return best


def word_score(words: Sequence[str], texts: Sequence[str]) -> float:
    """How surely `texts` show one of `words`: 0 under WORD_LEAST letters in a row (or the whole of
    a shorter word), 1 at WORD_SURE letters or the whole word, in proportion between."""
    best = 0.0
    for word in words:
        whole = min(len(word), WORD_SURE)
        for text in texts:
            run = longest_common_run(word, text)
            if run >= min(WORD_LEAST, len(word)):
                best = max(best, min(1.0, run / whole))
    return best


def english_name_scores(texts: Sequence[str]) -> np.ndarray:
    """Per BONUS face, how surely `texts` show its English name (`word_score`)."""
    return np.array([word_score(BONUS_WORDS[code], texts) for code in BONUS])


def face_windows(face: np.ndarray, share_wide: float = WINDOW_WIDTH) -> list[np.ndarray]:
    """Windows at the four corners of an upright face, where a name's character would sit, each
    `share_wide` of the face wide."""
    height, width = face.shape[:2]
    windows = []
    for top in (0.0, 1.0 - WINDOW_HEIGHT):
        for left in (0.0, 1.0 - share_wide):
            window = face[
                int(top * height) : int(np.ceil((top + WINDOW_HEIGHT) * height)),
                int(left * width) : int(np.ceil((left + share_wide) * width)),
            ]
            if min(window.shape[:2]) > 2:
                windows.append(np.ascontiguousarray(window))
    return windows


def edge_strips(face: np.ndarray, turns: Sequence[int] = (0, 1, 2, 3)) -> list[np.ndarray]:
    """Strips along the top and bottom of `face` at each of its quarter `turns` (by default every
    edge, each turned so it reads left to right in one strip). Names run along the top or bottom of
    an upright face: a face with two likely upright turns needs only those turns' strips."""
    strips = []
    for turn in turns:
        turned = np.rot90(face, turn)
        height = turned.shape[0]
        for top in (0.0, 1.0 - STRIP_HEIGHT):
            strip = turned[int(top * height) : int((top + STRIP_HEIGHT) * height) + 1]
            if min(strip.shape[:2]) > 2:
                strips.append(np.ascontiguousarray(strip))
    return strips


def quarter_turns(xyxy: np.ndarray) -> tuple[int, ...]:
    """The quarter turns that may stand a tile in box `xyxy` upright: a box clearly taller than
    wide holds an upright or upside-down tile, clearly wider a sideways one, else any."""
    return upright_turns(float(xyxy[2] - xyxy[0]), float(xyxy[3] - xyxy[1]))


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
    shape (W at most 4 heights), values -1..1. (Lines 32 px tall would cost a third but lose
    letters.)"""
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
    bonus_columns: tuple[np.ndarray, ...]  # per BONUS face, its name's glyphs' output columns
    charset: tuple[str, ...]  # the character of output column i + 1

    @classmethod
    def from_session(cls, session: ort.InferenceSession, config: GlyphConfig) -> GlyphReader:
        charset = session.get_modelmeta().custom_metadata_map.get("character", "").splitlines()
        # outputs: blank, the charset in order, then a space
        column = {char: i + 1 for i, char in enumerate(charset)}
        wanted = [*HONOUR_GLYPHS.values(), *BONUS_GLYPHS.values()]
        missing = [g for glyphs in wanted for g in glyphs if g not in column]
        if missing:
            raise ModelError(f"the glyph recogniser cannot read {''.join(missing)}")
        return cls(
            session=session,
            config=config,
            input_name=session.get_inputs()[0].name,
            glyph_columns=tuple(np.array([column[g] for g in HONOUR_GLYPHS[code]]) for code in HONOURS),
            bonus_columns=tuple(np.array([column[g] for g in BONUS_GLYPHS[code]]) for code in BONUS),
            charset=tuple(charset),
        )

    def read_lines(self, lines: Sequence[np.ndarray]) -> np.ndarray:
        """CTC outputs (N, T, C) for N RGB crops, each read as one line of text (all padded to the
        longest, then run `LINES_PER_RUN` at a time)."""
        if not lines:
            return np.zeros((0, 1, len(self.charset) + 2), np.float32)
        batch = padded([line_input(line) for line in lines])
        runs = [
            np.asarray(self.session.run(None, {self.input_name: batch[start : start + LINES_PER_RUN]})[0])
            for start in range(0, len(batch), LINES_PER_RUN)
        ]
        return np.concatenate(runs)

    def face(self, rgb: np.ndarray, xyxy: np.ndarray, shrink: float) -> tuple[np.ndarray, tuple[int, ...]]:
        """The face in box `xyxy` less `shrink` on each side, and the quarter turns that may stand it
        upright: turned square to the axes first where the sidecar says `deskew`."""
        if self.config.deskew:
            upright = upright_face(rgb, xyxy, shrink)
            return upright.face, upright.turns
        return inner_crop(rgb, xyxy, shrink), quarter_turns(xyxy)

    def honour_scores(self, rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(N, 6) for boxes (N, 4): per HONOURS face, how surely the box shows its character alone,
        at the likeliest of its quarter turns."""
        views, owner = [], []
        for row, xyxy in enumerate(boxes):
            crop, turns = self.face(rgb, xyxy, self.config.shrink)
            for turn in turns:
                views.append(np.ascontiguousarray(np.rot90(crop, turn)))
                owner.append(row)
        scores = np.zeros((len(boxes), len(HONOURS)))
        for steps, row in zip(self.read_lines(views), owner, strict=True):
            scores[row] = np.maximum(scores[row], face_scores(steps, self.glyph_columns))
        return scores

    def bonus_scores(self, rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(N, 8) for boxes (N, 4): per BONUS face, how surely the box shows its name: a character
        alone, or part of an English name, in a corner window (at the box's likely upright turns),
        or else, with `bonus_words` and where no window reads one, an English name in a strip
        along the top or bottom of the face at one of its likely upright turns (with
        `bonus_strip_glyphs`, its character anywhere in such a strip too)."""
        looks = [self.face(rgb, xyxy, min(self.config.shrink, 0.03)) for xyxy in boxes]
        windows, owner = [], []
        for row, (face, turns) in enumerate(looks):
            for turn in turns:
                found = face_windows(np.rot90(face, turn))
                windows += found
                owner += [row] * len(found)
        scores = np.zeros((len(boxes), len(BONUS)))
        texts: dict[int, list[str]] = {}
        for steps, row in zip(self.read_lines(windows), owner, strict=True):
            scores[row] = np.maximum(scores[row], face_scores(steps, self.bonus_columns))
            # a corner often holds part of an English name too; its text costs nothing more
            texts.setdefault(row, []).append(greedy_text(steps, self.charset))
        # only a character alone spares the strips: a corner shows at most part of an English name
        unnamed = np.flatnonzero(scores.max(axis=1) < NAME_FOUND)
        for row, row_texts in texts.items():
            scores[row] = np.maximum(scores[row], english_name_scores(row_texts))
        if not self.config.bonus_words:
            return scores
        strips, strip_owner = [], []
        for unnamed_row in unnamed:
            face, turns = looks[unnamed_row]
            found = edge_strips(face, turns)
            strips += found
            strip_owner += [int(unnamed_row)] * len(found)
        texts = {}
        for steps, row in zip(self.read_lines(strips), strip_owner, strict=True):
            texts.setdefault(row, []).append(greedy_text(steps, self.charset))
            if self.config.bonus_strip_glyphs:
                scores[row] = np.maximum(scores[row], characters_in_line(steps, self.bonus_columns))
        for row, row_texts in texts.items():
            scores[row] = np.maximum(scores[row], english_name_scores(row_texts))
        return scores

    def refine(self, rgb: np.ndarray, xyxy: np.ndarray, tiles: np.ndarray) -> np.ndarray:
        """`tiles` (N, 49) with the honours re-weighed by their glyphs where the classifier gives
        them together at least `above`, and the flowers and seasons by their names where it gives
        those at least `bonus_above` (the BONUS_ROWS_MOST boxes it gives most); every other face
        keeps its probability."""
        columns = honour_columns()
        rows = np.flatnonzero(tiles[:, columns].sum(axis=1) >= self.config.above)
        if rows.size:
            tiles = weigh(tiles, rows, columns, self.honour_scores(rgb, xyxy[rows]), self.config.floor)
        if self.config.bonus_above is None:
            return tiles
        rows = likeliest_bonus_rows(tiles, self.config.bonus_above)
        if rows.size:
            names = self.bonus_scores(rgb, xyxy[rows])
            tiles = weigh(tiles, rows, bonus_columns(), names, self.config.bonus_floor)
        return tiles


def honour_columns() -> np.ndarray:
    return np.array([CLASS_INDEX[code] for code in HONOURS])


def bonus_columns() -> np.ndarray:
    return np.array([CLASS_INDEX[code] for code in BONUS])


def likeliest_bonus_rows(tiles: np.ndarray, above: float) -> np.ndarray:
    """The rows of `tiles` (N, 49) that give the flowers and seasons together at least `above`, at
    most BONUS_ROWS_MOST of them (those that give them most, first)."""
    mass = tiles[:, bonus_columns()].sum(axis=1)
    rows = np.flatnonzero(mass >= above)
    return rows[np.argsort(-mass[rows], kind="stable")[:BONUS_ROWS_MOST]]


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
