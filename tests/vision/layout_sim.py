"""Hand-made table arrangements turned into detections, for the layout tests.

A `Table` is rows of groups of tiles, each tile a code and a claimed (sideways) flag; `place`
lays them out like tiles on a table (upright tiles of TILE_W x TILE_H touching, groups
separated by a gap, claimed tiles turned sideways and flush with the row's bottom edge),
turns the whole arrangement by an angle, and returns the axis-aligned boxes a detector
would report.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.detections import Detections

TILE_W = 30.0
TILE_H = 40.0


@dataclass(frozen=True)
class Placed:
    """Tiles laid out: codes, rotated tile corners (N, 4, 2), and their group number."""

    codes: tuple[str, ...]
    corners: np.ndarray
    group: tuple[int, ...]

    def detections(self) -> Detections:
        boxes = np.concatenate([self.corners.min(axis=1), self.corners.max(axis=1)], axis=1)
        return Detections.from_codes(list(self.codes), boxes.tolist())


def parse_group(text: str) -> list[tuple[str, bool]]:
    """`"5m 5m* 5m"` -> tiles; a trailing `*` marks a claimed (sideways) tile.

    A leading `+1.5` token (the gap before the group, see `place`) is skipped.
    """
    return [(tok.rstrip("*"), tok.endswith("*")) for tok in text.split() if not tok.startswith("+")]


def _gap_before(text: str, default: float) -> float:
    first = text.split()[0] if text.split() else ""
    return float(first[1:]) if first.startswith("+") else default


def place(
    table: Sequence[Sequence[str]],
    angle_deg: float = 0.0,
    gap: float = 0.6,
    row_gap: float = 0.8,
    centre: tuple[float, float] = (640.0, 480.0),
    tilt_deg: float = 0.0,
) -> Placed:
    """Lay out rows of groups (each group a string for `parse_group`), turned by `angle_deg`.

    `gap` and `row_gap` are in tile widths / heights; a group written `"+1.5 C C C"` has its
    own gap before it (on a row's first group: an indent). The angle is counter-clockwise as seen
    in the image (y down), like `angle` in the synthetic ground truth. `tilt_deg` looks at
    the table obliquely (camera pitched about the image's horizontal axis): far tiles
    shrink and the image's vertical is foreshortened, as in a photo across the table.
    """
    corners: list[np.ndarray] = []
    codes: list[str] = []
    groups: list[int] = []
    y = 0.0
    number = 0
    for row in table:
        x = 0.0
        for k, text in enumerate(row):
            if k:
                x += _gap_before(text, gap) * TILE_W
            elif text.split() and text.split()[0].startswith("+"):
                x += _gap_before(text, 0.0) * TILE_W
            for code, claimed in parse_group(text):
                w, h = (TILE_H, TILE_W) if claimed else (TILE_W, TILE_H)
                # Claimed tiles lie flush with the row's bottom edge.
                y0 = y + TILE_H - h
                corners.append(np.array([[x, y0], [x + w, y0], [x + w, y0 + h], [x, y0 + h]]))
                codes.append(code)
                groups.append(number)
                x += w
            number += 1
        y += TILE_H * (1 + row_gap)
    pts = np.array(corners, dtype=np.float64)
    if len(pts):
        pts -= pts.reshape(-1, 2).mean(axis=0)
    theta = np.radians(angle_deg)
    # Counter-clockwise on screen with y pointing down.
    rot = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
    pts = pts.reshape(-1, 2) @ rot.T
    pts = _tilt(pts, np.radians(tilt_deg)) + np.asarray(centre)
    return Placed(tuple(codes), pts.reshape(-1, 4, 2), tuple(groups))


def _tilt(pts: np.ndarray, tilt: float, distance: float = 900.0) -> np.ndarray:
    """Pinhole view of the table plane pitched by `tilt` radians, camera `distance` away."""
    if tilt == 0.0:
        return pts
    x, y = pts[:, 0], pts[:, 1]
    depth = distance + y * np.sin(tilt)
    scale = distance / depth
    return np.stack([x * scale, y * np.cos(tilt) * scale], axis=1)
