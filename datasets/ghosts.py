"""Ghost tiles: the tiles' own faint images on a glossy or glass table top.

A glass table mirrors the tiles standing or lying on it, and shows tiles lying further off through
its top or in its reflection: dim, blurred, mirrored shapes with a tile's outline and a hint of its
face. They are not tiles a reader may report (no one can read a mirrored, washed-out face), and a
detector that never saw them boxes them in real photos of such tables. They are drawn from the
scene's own rendered tiles, so they carry its art and its lighting.

Ghosts use their own random stream (`ghost_rng`), so adding them leaves every other draw of a scene
as it was. Their boxes go into the scene's meta with the props (kind "ghost"), so the classifier's
"no tile" crops are cut from them too.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from datasets.props import Prop

# Share of scenes with ghosts, by table surface: glossy tops mirror, cloth and felt do not.
SHARE_BY_SURFACE = {"glass": 0.75, "marble": 0.3, "wood": 0.2, "plain": 0.2, "floor": 0.15, "mat": 0.1}
MAX_GHOSTS = 3  # mirrored copies of the scene's tiles
MAX_BOXES = 12  # ghost boxes recorded per scene


def ghost_rng(seed: int) -> np.random.Generator:
    return np.random.default_rng([seed, 4343])


def tile_mask(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """(H, W) float32 1 where drawing the tiles changed the picture, else 0."""
    return (np.abs(after - before).max(axis=2) > 2.0).astype(np.float32)


def mirror_matrix(angle: float, point: tuple[float, float], shift: tuple[float, float]) -> np.ndarray:
    """2x3 affine map: mirror across the line through `point` at `angle` (rad), then move by `shift`."""
    c, s = math.cos(2 * angle), math.sin(2 * angle)
    reflect = np.array([[c, s], [s, -c]])
    p = np.array(point)
    offset = p - reflect @ p + np.array(shift)
    return np.hstack([reflect, offset[:, None]]).astype(np.float32)


def _boxes(mask: np.ndarray, min_area: float) -> list[tuple[float, float, float, float]]:
    count, _, stats, _ = cv2.connectedComponentsWithStats((mask > 0.5).astype(np.uint8), connectivity=8)
    found = []
    for x, y, w, h, area in stats[1:count]:
        if area >= min_area:
            found.append((float(x), float(y), float(x + w), float(y + h)))
    found.sort(key=lambda b: -(b[2] - b[0]) * (b[3] - b[1]))
    return found[:MAX_BOXES]


def draw_ghosts(
    img: np.ndarray, before: np.ndarray, surface: str, rng: np.random.Generator, tile_px: float
) -> list[Prop]:
    """Draw 0..MAX_GHOSTS ghost copies of the tiles onto `img` (H, W, 3) float32 in place, on the
    table only (never over a tile); `before` is the picture just before the tiles were drawn.
    Returns the ghosts' boxes (kind "ghost")."""
    if rng.random() >= SHARE_BY_SURFACE.get(surface, 0.0):
        return []
    h, w = img.shape[:2]
    tiles = tile_mask(before, img)
    if not tiles.any():
        return []
    # a margin round the tiles stays clean: a reflection starts at the tile's foot, not on its face
    keep_out = cv2.dilate(tiles, np.ones((3, 3), np.uint8), iterations=max(1, int(tile_px * 0.03)))
    source = img.copy()
    total = np.zeros((h, w), np.float32)
    ys, xs = np.nonzero(tiles)
    for _ in range(int(rng.integers(1, MAX_GHOSTS + 1))):
        pick = int(rng.integers(len(xs)))
        point = (float(xs[pick]), float(ys[pick]))
        direction = rng.uniform(0, 2 * math.pi)
        distance = rng.uniform(0.6, 3.0) * tile_px
        shift = (distance * math.cos(direction), distance * math.sin(direction))
        matrix = mirror_matrix(rng.uniform(0, math.pi), point, shift)
        layer = cv2.warpAffine(source, matrix, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0))
        mask = cv2.warpAffine(tiles, matrix, (w, h), flags=cv2.INTER_LINEAR, borderValue=0)
        sigma = rng.uniform(0.04, 0.15) * tile_px
        layer = cv2.GaussianBlur(layer, (0, 0), sigma)
        mask = cv2.GaussianBlur(mask, (0, 0), sigma)
        # washed out towards the table's own colour, and dimmer than the tiles themselves
        dim = rng.uniform(0.35, 0.85)
        alpha = rng.uniform(0.12, 0.4) * mask * (1 - keep_out)
        img[:] = img * (1 - alpha[..., None]) + (layer * dim) * alpha[..., None]
        total = np.maximum(total, mask * (1 - keep_out))
    return [Prop("ghost", box) for box in _boxes(total, min_area=0.25 * tile_px * tile_px)]
