"""A rank look: a small network of ours reads the number (1-4, 一-四) in a flower's or season's corner.

Many sets print one picture on all four seasons (or all eight bonus tiles) and tell them apart only
by a small number in a corner, and a lone 一 or 1 is a stroke the text recogniser of the glyph look
does not read. This look cuts the same corner windows of the face turned square to the axes
(`vision.deskew`, `vision.glyphs.face_windows`) at the face's likely upright turns, and a network
trained on the generator's numbered sets (`vision.rank_look_train`) says, per window, which rank it
shows or that it shows none. A rank says which flower and which season a tile can be, not which of
the two: the classifier still tells the groups apart, and the rank weighs F<k> and S<k> alike.

    rank score of a box = the most any of its windows gives each rank
    flowers' and seasons' probability shared out in proportion to classifier x (score + floor)

A rank read under `least` is not heard, so windows of pictures and names leave the classifier be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import onnxruntime as ort

from vision.deskew import upright_face
from vision.glyphs import WINDOW_WIDTH, bonus_columns, face_windows, likeliest_bonus_rows, weigh
from vision.onnx_models import checked_classifier, run_batched
from vision.sidecar import SIDECAR, RankLookConfig

RANKS = 4  # the network's classes: no number (0), then ranks 1-4
RANK_NAMES = ("none", "1", "2", "3", "4")


def window_input(window: np.ndarray, size: int) -> np.ndarray:
    """An RGB window as a (size, size, 3) uint8 square (its shape not kept: windows are near square)."""
    interpolation = cv2.INTER_AREA if max(window.shape[:2]) > size else cv2.INTER_LINEAR
    return cv2.resize(np.ascontiguousarray(window), (size, size), interpolation=interpolation)


def rank_windows(
    face: np.ndarray, turns: Sequence[int], size: int, share_wide: float = WINDOW_WIDTH
) -> list[np.ndarray]:
    """The corner windows (`share_wide` of the face wide) of `face` at each of `turns`, each a
    (size, size, 3) square."""
    return [window_input(w, size) for turn in turns for w in face_windows(np.rot90(face, turn), share_wide)]


def rank_scores(window_probabilities: np.ndarray, owner: Sequence[int], boxes: int) -> np.ndarray:
    """(boxes, 4): per box, the most any of its windows (rows of `window_probabilities` (W, 5),
    no number first, whose box is `owner`) gives each rank."""
    scores = np.zeros((boxes, RANKS), np.float64)
    for row, probabilities in zip(owner, window_probabilities, strict=True):
        scores[row] = np.maximum(scores[row], probabilities[1:])
    return scores


def weigh_ranks(
    tiles: np.ndarray, rows: np.ndarray, ranks: np.ndarray, least: float, floor: float
) -> np.ndarray:
    """`tiles` (N, 49) with the flowers' and seasons' probability of `rows` shared out anew by their
    rank scores `ranks` (len(rows), 4); a score under `least` is not heard."""
    heard = np.where(ranks >= least, ranks, 0.0)
    # the bonus columns run F1-F4 then S1-S4: a rank weighs its flower and its season alike
    return weigh(tiles, rows, bonus_columns(), np.hstack([heard, heard]), floor)


@dataclass(frozen=True)
class RankLook:
    session: ort.InferenceSession
    input_name: str
    fixed_batch: int | None
    config: RankLookConfig

    @classmethod
    def from_session(cls, session: ort.InferenceSession, config: RankLookConfig) -> RankLook:
        """ModelError unless the network reads `imgsz` square windows into five outputs."""
        input_name, fixed_batch = checked_classifier(
            session, "rank look", config.imgsz, SIDECAR, RANK_NAMES, "vision/rank_look.py"
        )
        return cls(session=session, input_name=input_name, fixed_batch=fixed_batch, config=config)

    def read_windows(self, windows: Sequence[np.ndarray]) -> np.ndarray:
        """(W, 5) probabilities (no number, ranks 1-4) of (size, size, 3) uint8 windows."""
        if not windows:
            return np.zeros((0, RANKS + 1), np.float32)
        return run_batched(self.session, self.input_name, self.fixed_batch, np.stack(windows))

    def scores(self, rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(N, 4) for boxes (N, 4): how surely each shows the number of each rank in a corner."""
        windows: list[np.ndarray] = []
        owner: list[int] = []
        for row, xyxy in enumerate(boxes):
            upright = upright_face(rgb, xyxy, self.config.shrink)
            found = rank_windows(upright.face, upright.turns, self.config.imgsz, self.config.window_width)
            windows += found
            owner += [row] * len(found)
        return rank_scores(self.read_windows(windows), owner, len(boxes))

    def refine(self, rgb: np.ndarray, xyxy: np.ndarray, tiles: np.ndarray) -> np.ndarray:
        """`tiles` (N, 49) with the flowers and seasons re-weighed by their ranks where the classifier
        gives those eight together at least `above` (the BONUS_ROWS_MOST boxes it gives most)."""
        rows = likeliest_bonus_rows(tiles, self.config.above)
        if not rows.size:
            return tiles
        return weigh_ranks(tiles, rows, self.scores(rgb, xyxy[rows]), self.config.least, self.config.floor)
