"""A text look: a small head of our own, trained on our tiles, over a general text recogniser's
features, weighed with the classifier on the boxes it is unsure of.

The classifier learned from the sets the generator draws, from random initialisation, and reads a
set it has never seen far worse than one it has. PP-OCRv4's recogniser (the glyph look's, from the
PyPI wheel `rapidocr-onnxruntime`) was trained on printed text of every kind; the features its
backbone computes for a tile's face carry over to unseen sets better than ours do, though alone they
read fewer tiles. Together, each box's probabilities are the classifier's and the head's in a
weighted geometric mean (`combine`); a box the classifier is sure of is not read, as the head
changes few of those and each box costs four recogniser runs.

The head ships fused with that backbone in one ONNX file in models/ (built by `python -m
vision.train text-look`; the backbone's weights are Apache-2.0, see models/README.md): crops of the
face `imgsz` square in, 49 probabilities out. Each box is read at its four quarter turns and the
readings averaged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import onnxruntime as ort

from vision.classes import CLASSES
from vision.glyphs import inner_crop
from vision.onnx_models import checked_classifier, run_batched
from vision.sidecar import TextLookConfig

TURNS = (0, 1, 2, 3)
# Views per run: PP-OCR's backbone reads 160 views a third faster eight at a time than all at once on
# the 2-core laptop CPU (382 -> 257 ms, stage 62).
TEXT_LOOK_BATCH_MOST = 8


def face_crops(
    rgb: np.ndarray, xyxy: np.ndarray, shrink: float, size: int, turns: Sequence[int] = TURNS
) -> np.ndarray:
    """(N, T, size, size, 3) uint8: each box less `shrink` of its size on each side, turned by each of
    the T quarter turns `turns`, each turn then scaled to `size` square (the training features' own
    order)."""
    out = np.zeros((len(xyxy), len(turns), size, size, 3), np.uint8)
    for row, box in enumerate(xyxy):
        face = inner_crop(rgb, box, shrink)
        for column, turn in enumerate(turns):
            turned = np.ascontiguousarray(np.rot90(face, turn))
            out[row, column] = cv2.resize(turned, (size, size), interpolation=cv2.INTER_AREA)
    return out


def combine(tiles: np.ndarray, text: np.ndarray, weight: float) -> np.ndarray:
    """Rows of `tiles` and `text` (N, K) as their geometric mean, `weight` on `text`, each row
    summing to 1 again. A face either calls impossible stays (nearly) impossible."""
    tiny = 1e-6
    logs = (1.0 - weight) * np.log(tiles.astype(np.float64) + tiny) + weight * np.log(
        text.astype(np.float64) + tiny
    )
    joint = np.exp(logs - logs.max(axis=1, keepdims=True))
    return (joint / joint.sum(axis=1, keepdims=True)).astype(tiles.dtype)


@dataclass(frozen=True)
class TextLook:
    """The fused recogniser-backbone-and-head session and its settings."""

    session: ort.InferenceSession
    config: TextLookConfig
    input_name: str
    fixed_batch: int | None

    @classmethod
    def from_session(cls, session: ort.InferenceSession, config: TextLookConfig) -> TextLook:
        input_name, fixed_batch = checked_classifier(
            session, "text look", config.imgsz, "models.json", CLASSES, "vision/classes.py"
        )
        return cls(session=session, config=config, input_name=input_name, fixed_batch=fixed_batch)

    def read(self, rgb: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
        """(N, 49) probabilities for the boxes `xyxy` (N, 4) of photo `rgb`, the four turns averaged."""
        if len(xyxy) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        size = self.config.imgsz
        crops = face_crops(rgb, xyxy, self.config.shrink, size).reshape(-1, size, size, 3)
        probs = run_batched(self.session, self.input_name, self.fixed_batch, crops, TEXT_LOOK_BATCH_MOST)
        return probs.reshape(len(xyxy), len(TURNS), -1).mean(axis=1).astype(np.float32)

    def refine(self, rgb: np.ndarray, xyxy: np.ndarray, tiles: np.ndarray) -> np.ndarray:
        """`tiles` (N, 49) weighed with this look's reading of the same boxes (`combine`), on the
        boxes whose likeliest face `tiles` gives under `unsure_below` (all, if None)."""
        below = self.config.unsure_below
        rows = np.arange(len(tiles)) if below is None else np.flatnonzero(tiles.max(axis=1) < below)
        if rows.size == 0:
            return tiles
        out = tiles.copy()
        out[rows] = combine(tiles[rows], self.read(rgb, xyxy[rows]), self.config.weight)
        return out
