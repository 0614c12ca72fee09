"""Geometry of the layout step: duplicates, row direction, tile extents, segments and rows.

Detections are axis-aligned boxes only, so everything about the table's orientation is
inferred from the boxes themselves:

* the row direction comes from the vectors between neighbouring box centres (tiles in a
  row touch along their short side, so a tile's nearest neighbour usually lies along the row);
* a tile of width `a` and height `b` turned by `phi` has an axis-aligned box of
  `w = a|cos| + b|sin|`, `h = a|sin| + b|cos|`; knowing `phi` (the row direction) this
  is solved for the tile's extent along the row, which tells an upright tile from a
  sideways (claimed) one and measures the real gap between neighbours.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.box_filters import iou_matrix

# A mahjong tile's face is about 3:4 (width:height); used where the boxes cannot tell.
TILE_ASPECT = 0.75
# Boxes overlapping more than this (IoU) are one tile seen twice.
DUPLICATE_IOU = 0.5
# Two boxes whose centres are closer than this fraction of the smaller box side are one tile.
DUPLICATE_CENTRE = 0.25
# Neighbours in one group: edge gap along the row below this fraction of the tile's (a + b).
GAP_FRACTION = 0.2
# Neighbours in one run: centre spacing below this many tile widths.
MAX_PITCH = 1.4
# Neighbours in one row: offset across the row below this fraction of the tile's (a + b).
ACROSS_FRACTION = 0.3
# A tile is sideways when its extent along the row exceeds the typical one by this (of a + b).
SIDEWAYS_MARGIN = 0.085
# Segments of one row: end-to-end distance below this many tile widths.
ROW_GAP_WIDTHS = 3.0


@dataclass(frozen=True)
class Frame:
    """The table's row axis in image coordinates: `along` is the row direction, `across` its normal."""

    angle: float  # radians, in (-pi/2, pi/2]: rows read left to right (top to bottom when vertical)

    @property
    def along(self) -> np.ndarray:
        return np.array([np.cos(self.angle), np.sin(self.angle)])

    @property
    def across(self) -> np.ndarray:
        return np.array([-np.sin(self.angle), np.cos(self.angle)])


@dataclass(frozen=True)
class TileShape:
    """Per-tile sizes in the row frame, (N,) arrays each.

    `span` is a + b (the sum of the tile's two sides, recoverable at any angle), `along`
    the tile's extent along the row, `sideways` whether the tile lies across the row, and
    `stretch` the extent along the row over `span` as the box shows it (0.5 where the box
    cannot tell, near 45 degrees).
    """

    span: np.ndarray
    along: np.ndarray
    sideways: np.ndarray
    stretch: np.ndarray


def duplicate_of(xyxy: np.ndarray, confidence: np.ndarray) -> np.ndarray:
    """For each box, the index of the box it duplicates (itself when kept).

    Greedy by confidence: a box is dropped when it overlaps a kept, more confident box by
    IoU >= DUPLICATE_IOU or its centre nearly coincides with it (a small box inside a big one).
    """
    n = len(xyxy)
    owner = np.arange(n)
    if n == 0:
        return owner
    boxes = xyxy.astype(np.float64)
    iou = iou_matrix(boxes, boxes)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    sides = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    centre_dist = np.linalg.norm(centres[:, None] - centres[None, :], axis=2)
    close = centre_dist < DUPLICATE_CENTRE * np.minimum(sides[:, None], sides[None, :])
    kept: list[int] = []
    # Stable order: equal confidences keep the earlier detection.
    for i in np.argsort(-confidence, kind="stable"):
        match = [k for k in kept if iou[i, k] >= DUPLICATE_IOU or close[i, k]]
        if match:
            owner[i] = match[0]
        else:
            kept.append(int(i))
    return owner


def _fold_angle(angle: float) -> float:
    """Angle of an undirected line, folded into (-pi/2, pi/2]."""
    folded = (angle + np.pi / 2) % np.pi - np.pi / 2
    return float(np.pi / 2) if np.isclose(folded, -np.pi / 2) else float(folded)


def row_angle(centres: np.ndarray, boxes: np.ndarray) -> float:
    """The dominant row direction (radians, folded into (-pi/2, pi/2]).

    Each tile votes with the vectors to its two nearest neighbours, weighted so that the
    nearest counts most; votes are doubled angles (a line has no sense) in a smoothed
    circular histogram, and the peak is refined by the weighted mean of the votes near it.
    With fewer than two tiles, the box shape decides: an upright tile is taller than wide.
    """
    n = len(centres)
    if n < 2:
        if n == 1 and boxes[0, 2] - boxes[0, 0] > boxes[0, 3] - boxes[0, 1]:
            return float(np.pi / 2)
        return 0.0
    diff = centres[None, :, :] - centres[:, None, :]
    dist = np.linalg.norm(diff, axis=2)
    np.fill_diagonal(dist, np.inf)
    k = min(2, n - 1)
    nearest = np.argsort(dist, axis=1)[:, :k]
    angles: list[float] = []
    weights: list[float] = []
    for i in range(n):
        d0 = dist[i, nearest[i, 0]]
        for rank, j in enumerate(nearest[i]):
            vec = diff[i, j]
            # Farther neighbours count less; the second one only when nearly as close.
            weight = float(np.exp(-((dist[i, j] / max(d0, 1e-9)) - 1.0) * 4.0)) / (1 + rank)
            angles.append(float(2 * np.arctan2(vec[1], vec[0])))
            weights.append(weight)
    doubled = np.array(angles)
    w = np.array(weights)
    bins = 360
    hist = np.zeros(bins)
    idx = ((doubled % (2 * np.pi)) / (2 * np.pi) * bins).astype(int) % bins
    np.add.at(hist, idx, w)
    # Smooth with a circular Gaussian (sigma 6 doubled-degrees = 3 degrees of row angle).
    offsets = np.arange(-18, 19)
    kernel = np.exp(-0.5 * (offsets / 6.0) ** 2)
    smooth = sum(kernel[t] * np.roll(hist, offsets[t]) for t in range(len(offsets)))
    peak = (np.argmax(smooth) + 0.5) / bins * 2 * np.pi
    near = np.abs(np.angle(np.exp(1j * (doubled - peak)))) < np.radians(30)
    vec = np.sum(w[near] * np.exp(1j * doubled[near]))
    return _fold_angle(float(np.angle(vec)) / 2)


def tile_shapes(boxes: np.ndarray, frame: Frame) -> TileShape:
    """Each tile's size in the row frame (see the module docstring for the box model)."""
    w = boxes[:, 2] - boxes[:, 0]
    h = boxes[:, 3] - boxes[:, 1]
    c, s = abs(np.cos(frame.angle)), abs(np.sin(frame.angle))
    span = (w + h) / (c + s)
    default_along = span * TILE_ASPECT / (1 + TILE_ASPECT)
    if abs(c - s) < 0.35:
        # Near 45 degrees the box shape cannot tell upright from sideways.
        upright = np.zeros(len(boxes), bool)
        return TileShape(span=span, along=default_along, sideways=upright, stretch=np.full(len(boxes), 0.5))
    # (w - h) / (c - s) is a - b for an upright tile (negative), b - a for a sideways one,
    # so (span + skew) / 2 is the tile's extent along the row.
    skew = (w - h) / (c - s)
    ratio = np.clip((span + skew) / 2 / span, 0.3, 0.7)
    # Perspective and the visible tile body bias every box alike; most tiles in a hand stand
    # upright, so a tile is sideways only when it is clearly longer than the typical one.
    typical = float(np.clip(np.median(ratio), 0.35, 0.5))
    sideways = ratio - typical > SIDEWAYS_MARGIN
    along = np.where(sideways, ratio, np.minimum(ratio, typical + SIDEWAYS_MARGIN / 2)) * span
    return TileShape(span=span, along=along, sideways=sideways, stretch=ratio)


class _UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, i: int, j: int) -> None:
        ri, rj = self.find(i), self.find(j)
        if ri != rj:
            self.parent[max(ri, rj)] = min(ri, rj)

    def groups(self) -> list[list[int]]:
        out: dict[int, list[int]] = {}
        for i in range(len(self.parent)):
            out.setdefault(self.find(i), []).append(i)
        return list(out.values())


def segments(centres: np.ndarray, shape: TileShape, frame: Frame) -> list[list[int]]:
    """Runs of touching tiles: neighbours along the row with an edge gap below GAP_FRACTION.

    Each run is ordered along the row; runs are returned in no particular order.
    """
    n = len(centres)
    along = centres @ frame.along
    across = centres @ frame.across
    size = (shape.span[:, None] + shape.span[None, :]) / 2
    # Sideways tiles sit flush with one edge of the row, not centred on it.
    level = np.abs(across[:, None] - across[None, :]) <= ACROSS_FRACTION * size
    distance = np.abs(along[:, None] - along[None, :])
    gap = distance - (shape.along[:, None] + shape.along[None, :]) / 2
    # A tile lying at an angle to the row has a bigger box, which would hide the gap to its
    # neighbour; the spacing of the centres, against the smaller tile's width, keeps such
    # tiles (scattered on the table) out of a run.
    width = TILE_ASPECT / (1 + TILE_ASPECT) * np.minimum(shape.span[:, None], shape.span[None, :])
    either = shape.sideways[:, None] | shape.sideways[None, :]
    pitch = width * np.where(either, 1 / TILE_ASPECT, 1.0)
    linked = level & (gap < GAP_FRACTION * size) & (distance < MAX_PITCH * pitch)
    uf = _UnionFind(n)
    for i, j in zip(*np.nonzero(np.triu(linked, 1)), strict=True):
        uf.union(int(i), int(j))
    return [sorted(group, key=lambda k: along[k]) for group in uf.groups()]


def _line_offset(points: np.ndarray, frame: Frame, target: np.ndarray) -> np.ndarray:
    """Distance across the row from each `target` point to the nearest of `points`.

    Measured from the nearest point rather than from a line fitted through all of them:
    under perspective rows lean and converge, so a line extrapolated far is wrong.
    """
    nearest = np.linalg.norm(target[:, None] - points[None, :], axis=2).argmin(axis=1)
    return np.abs((target - points[nearest]) @ frame.across)


def rows(centres: np.ndarray, shape: TileShape, frame: Frame, runs: Sequence[list[int]]) -> list[int]:
    """Row number of each run: runs on one line, not too far apart, share a row.

    Rows are numbered in order across the row direction (top to bottom for horizontal rows).
    """
    m = len(runs)
    along = centres @ frame.along
    uf = _UnionFind(m)
    dist = np.linalg.norm(centres[:, None] - centres[None, :], axis=2)
    reach = (ROW_GAP_WIDTHS + 2) * float(shape.span.max(initial=0.0))
    for p in range(m):
        for q in range(p + 1, m):
            a, b = runs[p], runs[q]
            if dist[np.ix_(a, b)].min() > reach:
                continue  # too far apart to share a row whatever the sizes: skip the medians
            size = float(np.median(shape.span[a + b]))
            width = float(np.median(shape.along[a + b]))
            longer, other = (a, b) if len(a) >= len(b) else (b, a)
            offset = _line_offset(centres[longer], frame, centres[other])
            if offset.max() > ACROSS_FRACTION * size:
                continue
            gap = min(abs(along[i] - along[j]) for i in a for j in b) - width
            if gap < ROW_GAP_WIDTHS * width:
                uf.union(p, q)
    across = centres @ frame.across
    groups = uf.groups()
    depth = [float(np.mean([across[k] for p in group for k in runs[p]])) for group in groups]
    order = sorted(range(len(groups)), key=lambda g: depth[g])
    row_of = [0] * m
    for number, g in enumerate(order):
        for p in groups[g]:
            row_of[p] = number
    return row_of


def row_gaps(order: Sequence[int], centres: np.ndarray, shape: TileShape, frame: Frame) -> np.ndarray:
    """Gaps between consecutive tiles of a row, as a fraction of the local tile pitch.

    Box extents are blurred by the tile body and by neighbours hiding part of a tile, but
    the spacing of the centres is steady: the gap after tile k is its centre spacing over
    the median spacing of the pairs around it (perspective changes the pitch slowly), with
    a sideways tile's longer side allowed for. Rows too short for a median fall back to
    the box extents.
    """
    if len(order) < 2:
        return np.zeros(0)
    idx = np.asarray(order)
    pos = centres[idx] @ frame.along
    spacing = np.abs(np.diff(pos))
    extent = np.where(shape.sideways[idx], 1 / TILE_ASPECT, 1.0)
    expected = (extent[:-1] + extent[1:]) / 2
    unit = spacing / expected
    gaps = np.zeros(len(spacing))
    for k in range(len(spacing)):
        window = unit[max(0, k - 3) : k + 4]
        if len(window) >= 4:
            gaps[k] = unit[k] / max(float(np.median(window)), 1e-9) - 1
        else:
            contact = (shape.along[idx[k]] + shape.along[idx[k + 1]]) / 2
            gaps[k] = spacing[k] / max(contact, 1e-9) - 1
    return gaps
