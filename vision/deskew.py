"""Deskew: a tile's face turned square to the image axes before a text recogniser reads it.

Detections are axis-aligned boxes, but tiles lie at any angle. A general text recogniser reads lines
that run along the image's rows, so a 南 turned 30 degrees, or a corner number, is read far less
often than an upright one; the classifier, trained on turned tiles, does not mind. The face's edges
and its characters' strokes run along the tile's own two axes, so the gradient directions in the box,
folded to a quarter turn (each gradient's angle times four, weighed by its strength squared), point
at the tile's angle up to a quarter turn: on the generator's scenes, within 2 degrees at the median
and 10 degrees for 97% of tiles. The box is turned back by that angle, and the tile's own width and
height are recovered from the box's (a w x h rectangle turned by a fills a box w|cos a| + h|sin a|
wide and w|sin a| + h|cos a| tall).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# below this |cos 2a| (turns over about 30 degrees) the box's sides no longer tell the tile's two
# sides apart reliably; the face is then taken at FACE_ASPECT, whichever way round fits the box
WELL_POSED = 0.5
FACE_ASPECT = 0.75  # a face's width over its height, as most sets cut them
# a tile turned less than this is read as it lies (turning it back would only blur it)
LEAST_DEGREES = 4.0
# a box is read at most this many pixels on its longer side (a corner window is then still over 100)
LONGEST = 256
# a tile's angle alone (`box_angles`) is measured at most this many pixels on the box's longer side,
# and not on a box under MIN_ANGLE_SIDE pixels on its shorter one
ANGLE_LONGEST = 96
MIN_ANGLE_SIDE = 8
# an angle whose gradients agree less than this (`tile_angle_coherence`) is not trusted: a face of
# diagonal strokes (a bird) or a box mostly of other tiles
LEAST_COHERENCE = 0.1


@dataclass(frozen=True)
class UprightFace:
    """A tile's face turned square to the axes: `face` (H, W, 3), the `degrees` it was turned back by,
    and the quarter turns that may stand it upright (its long side up, or any where unclear)."""

    face: np.ndarray
    degrees: float
    turns: tuple[int, ...]


def tile_angle(gray: np.ndarray) -> float:
    """The angle in degrees, in [-45, 45), of the tile's axes in a grey crop of its box (up to a
    quarter turn): the strength-weighed mean of its gradients' directions folded four times."""
    return tile_angle_coherence(gray)[0]


def tile_angle_coherence(gray: np.ndarray) -> tuple[float, float]:
    """`tile_angle` and how much the gradients agree on it, in [0, 1]: the length of their folded mean
    over their total strength (1: every edge along the two axes; near 0: no direction stands out)."""
    values = gray.astype(np.float32)
    gx = cv2.Sobel(values, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(values, cv2.CV_32F, 0, 1, ksize=3)
    # strength^2 * e^(4i angle) = (gx + i gy)^4 / strength^2, without an arctan or exp per pixel
    weight = gx * gx + gy * gy
    double_re, double_im = gx * gx - gy * gy, 2.0 * gx * gy
    strong = weight > 0
    real = float(((double_re * double_re - double_im * double_im)[strong] / weight[strong]).sum())
    imag = float(((2.0 * double_re * double_im)[strong] / weight[strong]).sum())
    if real == 0.0 and imag == 0.0:
        return 0.0, 0.0
    degrees = float(np.degrees(np.arctan2(imag, real) / 4.0))
    coherence = float(np.hypot(real, imag) / weight[strong].sum())
    return (degrees + 45.0) % 90.0 - 45.0, coherence


def tile_sides(box_width: float, box_height: float, degrees: float) -> tuple[float, float]:
    """The width and height of a rectangle turned by `degrees` whose axis-aligned box is
    `box_width` x `box_height`."""
    a = np.radians(degrees)
    c, s = abs(float(np.cos(a))), abs(float(np.sin(a)))
    det = c * c - s * s
    if det >= WELL_POSED:
        width = (c * box_width - s * box_height) / det
        height = (c * box_height - s * box_width) / det
        if width > 0 and height > 0:
            return width, height
    # ill-posed: a FACE_ASPECT face, standing or lying, whichever's box is closer in shape
    best: tuple[float, float, float] | None = None
    for aspect in (FACE_ASPECT, 1.0 / FACE_ASPECT):
        # w = aspect * h: box = h * (aspect*c + s, aspect*s + c)
        unit_w, unit_h = aspect * c + s, aspect * s + c
        scale = (box_width + box_height) / (unit_w + unit_h)
        misfit = abs(np.log((box_width / box_height) / (unit_w / unit_h)))
        if best is None or misfit < best[0]:
            best = (misfit, aspect * scale, scale)
    assert best is not None
    return best[1], best[2]


def _cut(rgb: np.ndarray, xyxy: np.ndarray, longest: int) -> tuple[np.ndarray, float, int, int]:
    """The box's pixels of `rgb`, cut down to at most `longest` on the longer side, with the scale and
    the crop's left and top in `rgb`."""
    height, width = rgb.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in xyxy)
    left, top = int(np.clip(np.floor(x1), 0, width - 1)), int(np.clip(np.floor(y1), 0, height - 1))
    right, bottom = int(np.clip(np.ceil(x2), left + 1, width)), int(np.clip(np.ceil(y2), top + 1, height))
    crop = rgb[top:bottom, left:right]
    # a 12 MP photo's tile is several hundred pixels a side: cut down first (anti-aliased), as the
    # gradients and the warp cost in proportion to the pixels and the recogniser reads 48 px lines
    scale = min(1.0, longest / max(crop.shape[:2]))
    if scale < 1.0:
        size = (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale)))
        crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
    return crop, scale, left, top


def box_angles(
    rgb: np.ndarray, xyxy: np.ndarray, longest: int = ANGLE_LONGEST, least_coherence: float = LEAST_COHERENCE
) -> np.ndarray:
    """(N,) float32: `tile_angle` of each box of `rgb` (grey, cut down to `longest` pixels on its
    longer side: the sides' direction needs no detail), NaN for a box too small to tell or whose
    gradients agree less than `least_coherence` (`tile_angle_coherence`)."""
    out = np.full(len(xyxy), np.nan, np.float32)
    for k, box in enumerate(np.asarray(xyxy, np.float64)):
        crop, scale, _, _ = _cut(rgb, box, longest)
        if min(crop.shape[:2]) < MIN_ANGLE_SIDE * scale:  # the box's pixels in the photo, before the cut
            continue
        degrees, coherence = tile_angle_coherence(cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY))
        if coherence >= least_coherence:
            out[k] = degrees
    return out


def upright_face(rgb: np.ndarray, xyxy: np.ndarray, shrink: float) -> UprightFace:
    """The face in box `xyxy` of `rgb` turned back square to the axes, less `shrink` of its size on
    each side (a tile turned under LEAST_DEGREES is cut straight from the box), at most LONGEST
    pixels on the box's longer side."""
    x1, y1, x2, y2 = (float(v) for v in xyxy)
    crop, scale, left, top = _cut(rgb, xyxy, LONGEST)
    degrees = tile_angle(cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)) if min(crop.shape[:2]) > 4 else 0.0
    if abs(degrees) < LEAST_DEGREES:
        degrees = 0.0
    side_w, side_h = tile_sides((x2 - x1) * scale, (y2 - y1) * scale, degrees)
    face_w = max(2, round(side_w * (1.0 - 2.0 * shrink)))
    face_h = max(2, round(side_h * (1.0 - 2.0 * shrink)))
    # the face's pixel (u, v) lies at centre + R (u - face_w / 2, v - face_h / 2) in the crop, R
    # turning the face's axes onto the tile's (image coordinates, y down)
    a = np.radians(degrees)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    centre = np.array([((x1 + x2) / 2.0 - left) * scale, ((y1 + y2) / 2.0 - top) * scale])
    to_crop = np.hstack([turn, (centre - turn @ np.array([face_w / 2.0, face_h / 2.0]))[:, None]])
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    face = cv2.warpAffine(crop, to_crop, (face_w, face_h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    return UprightFace(face=face, degrees=degrees, turns=upright_turns(face_w, face_h))


def upright_turns(width: float, height: float) -> tuple[int, ...]:
    """The quarter turns that may stand a tile `width` x `height` upright: one clearly taller than
    wide is upright or upside down, clearly wider lies sideways, else any."""
    if height > 1.15 * width:
        return (0, 2)
    if width > 1.15 * height:
        return (1, 3)
    return (0, 1, 2, 3)
