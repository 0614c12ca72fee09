"""A pip look: a small detector of ours finds each dot and stick of a tile, and the count weighs its rank.

The classifier reads a face whole, so on a set it has never seen it can take one arrangement of dots
for another (six in three rows read as seven). Counting needs no arrangement: a detector trained on
the generator's dots and sticks (`datasets.pips`, every design the randomised sets draw) boxes each
one on the classifier's own crop, and the count says which rank the tile is.

    count of a box = its boxes scored `conf` or more after NMS, of the kind (dot or stick) most found
    the suit's probability shared out in proportion to classifier x (1 where the rank is the count,
    else `floor`)

Only boxes the classifier gives a suit's counted ranks (1-9 of dots, 2-9 of bamboo) at least
`above` together are counted, and a count no rank of that suit has leaves the tile as read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import onnxruntime as ort

from vision.box_filters import decode_yolo_classes, nms
from vision.classes import CLASSES
from vision.onnx_models import run_batched, static_dim
from vision.sidecar import ModelError, PipLookConfig

DOT, STICK = 0, 1
PIP_NAMES = ("dot", "stick")  # the detector's classes (`datasets.pips.PIP_CLASSES`)
# the columns of the ranks a count can tell, per kind of pip: 1-9 of dots, 2-9 of bamboo
RANK_COLUMNS = {
    DOT: {rank: CLASSES.index(f"{rank}p") for rank in range(1, 10)},
    STICK: {rank: CLASSES.index(f"{rank}s") for rank in range(2, 10)},
}


def counts(output: np.ndarray, conf: float, iou: float) -> list[tuple[int, int]]:
    """Per crop of a (B, 6, A) YOLO output: (kind most found, how many of it)."""
    found = []
    for rows in output:
        xyxy, score, kind = decode_yolo_classes(rows[None], conf)
        kinds = kind[nms(xyxy, score, iou)]
        if not len(kinds):
            found.append((DOT, 0))
            continue
        most = int(np.bincount(kinds, minlength=2).argmax())
        found.append((most, int((kinds == most).sum())))
    return found


def weigh_by_count(tiles: np.ndarray, row: int, kind: int, count: int, floor: float) -> np.ndarray:
    """`tiles` with row `row`'s ranks of `kind`'s suit shared out again by the count (in place on a copy)."""
    columns = RANK_COLUMNS[kind]
    if count not in columns:
        return tiles
    cols = np.array(list(columns.values()))
    weights = np.array([1.0 if rank == count else floor for rank in columns])
    mass = tiles[row, cols].sum()
    weighed = tiles[row, cols] * weights
    if weighed.sum() <= 0:
        return tiles
    out = tiles.copy()
    out[row, cols] = weighed / weighed.sum() * mass
    return out


@dataclass(frozen=True)
class PipLook:
    session: ort.InferenceSession
    input_name: str
    fixed_batch: int | None  # None when the batch dimension is dynamic
    config: PipLookConfig

    @classmethod
    def from_session(cls, session: ort.InferenceSession, config: PipLookConfig) -> PipLook:
        """ModelError unless the network takes RGB crops and gives a YOLO head of the two kinds."""
        inputs, outputs = session.get_inputs(), session.get_outputs()
        if len(inputs) != 1 or len(inputs[0].shape) != 4 or inputs[0].shape[1] != 3:
            raise ModelError(f"pip look: expected one (B, 3, H, W) input, got {[i.shape for i in inputs]}")
        shape = outputs[0].shape
        if len(shape) != 3 or (isinstance(shape[1], int) and shape[1] != 4 + len(PIP_NAMES)):
            raise ModelError(f"pip look: expected a (B, 6, anchors) output, got {shape}")
        fixed_batch = static_dim(inputs[0].shape[0])
        return cls(session=session, input_name=inputs[0].name, fixed_batch=fixed_batch, config=config)

    def count(self, crops: np.ndarray) -> list[tuple[int, int]]:
        """(kind, count) per (N, S, S, 3) uint8 RGB crop."""
        if not len(crops):
            return []
        flat = run_batched(self.session, self.input_name, self.fixed_batch, crops)
        return counts(flat.reshape(len(crops), 4 + len(PIP_NAMES), -1), self.config.conf, self.config.iou)

    def refine(self, crops_of: Callable[[np.ndarray], np.ndarray], tiles: np.ndarray) -> np.ndarray:
        """`tiles` (N, 49) with each counted box's suit shared out again by its count; `crops_of(rows)`
        gives the crops of those rows at the look's size."""
        suit_mass = {kind: tiles[:, list(cols.values())].sum(axis=1) for kind, cols in RANK_COLUMNS.items()}
        rows = np.flatnonzero(np.maximum(suit_mass[DOT], suit_mass[STICK]) >= self.config.above)
        if not rows.size:
            return tiles
        for row, (kind, n) in zip(rows, self.count(crops_of(rows)), strict=True):
            suit = DOT if suit_mass[DOT][row] >= suit_mass[STICK][row] else STICK
            if kind == suit:
                tiles = weigh_by_count(tiles, int(row), suit, n, self.config.floor)
        return tiles
