"""A set's tiles as the user confirmed them, to read the next photos of that set by (stage 86).

At a table one set is played all evening, and the models misread its faces the same way photo after
photo where its art is unlike any they learned from (the held-out sets' flowers and seasons). Each tile
of a hand the user has confirmed (corrected where the reader was wrong) is kept as its look, the
classifier's pooled features (`TileClassifier.describe`), with its face. A tile of a later photo whose
look lies near a kept one is read with their help: the models' probabilities times exp(PULL x how much
nearer each face's kept tiles lie than the nearest face's) (`recalled`). A face never confirmed counts
as near as NEAR, so a memory of a few faces does not push a tile onto them; a tile near none is read
as the models read it.

The figures are `python -m vision.bench --learn` (each photo read with the memory of the earlier
photos' tiles, as a user confirms hand after hand): models/README, stage 86. The memory is only as
right as what it is taught, and only for the set it was taught on (measured there): taught the
reader's own misreads, or another set's tiles, it reads worse than no memory at all. So it learns only
the hands a user says are checked, and forgets when told.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.classes import CLASS_INDEX, CLASSES

# a tile whose look lies this near (cosine) a confirmed tile's is read with the memory's help
NEAR = 0.8
# how strongly nearness pulls: a face whose kept tiles lie 0.01 nearer is made e (2.7) times likelier
PULL = 100.0
# the newest confirmed tiles kept of each face: enough for its looks at every angle and light
MOST_PER_FACE = 32


def look_key(model_file: Path) -> str:
    """A name for the classifier whose looks a memory holds: a digest of its file's bytes."""
    return hashlib.sha256(model_file.read_bytes()).hexdigest()[:16]


@dataclass(frozen=True)
class SetMemory:
    """The looks (M, D) float16 unit vectors and faces (M codes) of the tiles confirmed so far, in the
    order taught; `key` names the classifier that described them (another's features are not
    comparable); `photos`: how many photos taught them."""

    key: str
    # not compared: two memories are equal by what they were taught for, not elementwise (== on arrays
    # would raise)
    descriptors: np.ndarray = field(repr=False, compare=False)
    codes: tuple[str, ...] = ()
    photos: int = 0

    def __post_init__(self) -> None:
        if self.descriptors.ndim != 2 or len(self.descriptors) != len(self.codes):
            raise ValueError(f"{len(self.codes)} faces for looks of shape {self.descriptors.shape}")
        unknown = sorted({code for code in self.codes if code not in CLASS_INDEX})
        if unknown:
            raise ValueError(f"not tile codes: {', '.join(unknown)}")

    @property
    def tiles(self) -> int:
        return len(self.codes)


def empty_memory(key: str) -> SetMemory:
    return SetMemory(key, np.zeros((0, 0), np.float16))


def learned(memory: SetMemory, descriptors: np.ndarray, codes: Sequence[str]) -> SetMemory:
    """`memory` taught one more photo's confirmed tiles (their looks (N, D) and faces), keeping the
    newest MOST_PER_FACE of each face. Looks of another width than the memory's are refused."""
    descriptors = np.asarray(descriptors, np.float32)
    if len(descriptors) != len(codes):
        raise ValueError(f"{len(codes)} faces for {len(descriptors)} looks")
    if not len(codes):
        return memory
    if memory.tiles and descriptors.shape[1] != memory.descriptors.shape[1]:
        width = memory.descriptors.shape[1]
        raise ValueError(f"looks of {descriptors.shape[1]} values for a memory of {width}")
    kept_looks = descriptors if not memory.tiles else np.concatenate([memory.descriptors, descriptors])
    kept_codes = memory.codes + tuple(codes)
    newest: dict[str, int] = {}
    keep = np.zeros(len(kept_codes), bool)
    for i in range(len(kept_codes) - 1, -1, -1):  # newest first
        seen = newest.get(kept_codes[i], 0)
        if seen < MOST_PER_FACE:
            keep[i] = True
            newest[kept_codes[i]] = seen + 1
    return SetMemory(
        memory.key,
        kept_looks[keep].astype(np.float16),
        tuple(code for code, kept in zip(kept_codes, keep, strict=True) if kept),
        memory.photos + 1,
    )


@dataclass(frozen=True)
class Recall:
    """What the memory made of one photo's tiles: their probabilities (N, 49) with its help, and for each
    tile the face whose confirmed tiles lie nearest (None: none near enough, read as the models read it)
    and how near (0 where none)."""

    probabilities: np.ndarray
    like: tuple[str | None, ...]
    nearness: tuple[float, ...]


def nearest_by_face(memory: SetMemory, descriptors: np.ndarray) -> np.ndarray:
    """(N, 49): for each tile, how near (cosine) its look lies to the nearest confirmed tile of each face;
    -1 for a face the memory holds none of."""
    near = np.full((len(descriptors), len(CLASSES)), -1.0, np.float32)
    if not memory.tiles or not len(descriptors):
        return near
    similarity = np.asarray(descriptors, np.float32) @ memory.descriptors.astype(np.float32).T
    codes = np.array([CLASS_INDEX[code] for code in memory.codes])
    for face in np.unique(codes):
        near[:, face] = similarity[:, codes == face].max(axis=1)
    return near


def recalled(memory: SetMemory, probabilities: np.ndarray, descriptors: np.ndarray) -> Recall:
    """`probabilities` (N, 49) of tiles whose looks are `descriptors` (N, D), each tile near a confirmed
    one (NEAR or nearer) read again as the models' reading times exp(PULL x (how near each face's
    nearest confirmed tile lies - the nearest's)), made to sum to 1; a face the memory holds none of
    counts as NEAR. Looks of another width than the memory's (another model) recall nothing."""
    probabilities = np.asarray(probabilities, np.float32)
    n = len(probabilities)
    if not memory.tiles or descriptors.ndim != 2 or descriptors.shape[1] != memory.descriptors.shape[1]:
        return Recall(probabilities, (None,) * n, (0.0,) * n)
    near = nearest_by_face(memory, descriptors)
    out = probabilities.copy()
    like: list[str | None] = []
    nearness: list[float] = []
    for i in range(n):
        best = int(near[i].argmax())
        top = float(near[i, best])
        if top < NEAR:
            like.append(None)
            nearness.append(max(top, 0.0))
            continue
        score = np.where(near[i] >= -0.5, near[i], NEAR)
        mixed = np.maximum(probabilities[i], 1e-12) * np.exp(PULL * (score - top))
        out[i] = mixed / mixed.sum()
        like.append(CLASSES[best])
        nearness.append(top)
    return Recall(out.astype(np.float32), tuple(like), tuple(nearness))
