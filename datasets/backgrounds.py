"""Procedural table surfaces: wood, cloth, felt, glass, floor tiles, marble, plain.

Each is drawn at a quarter of the image size and scaled up (tables are smooth at that scale; the
camera noise added later gives the fine grain), which keeps a background under ~10 ms.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

KINDS = ("wood", "cloth", "felt", "glass", "floor", "marble", "plain", "mat")


def value_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    """Smooth noise in [-1, 1] with about `cells` blobs across the longer side."""
    gh, gw = max(2, cells * h // max(h, w) + 2), max(2, cells * w // max(h, w) + 2)
    grid = rng.uniform(-1, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def fractal(rng: np.random.Generator, h: int, w: int, base: int = 3, octaves: int = 4) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    amp = 1.0
    for k in range(octaves):
        out += amp * value_noise(rng, h, w, base * 2**k)
        amp *= 0.5
    return out / 1.9


def _coords(h: int, w: int, angle: float) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    c, s = np.cos(angle), np.sin(angle)
    return xx * c + yy * s, -xx * s + yy * c


def _hsv_colour(
    rng: np.random.Generator, hue: tuple[float, float], sat: tuple[float, float], val: tuple[float, float]
) -> np.ndarray:
    hsv = np.array([[[rng.uniform(*hue) / 2, rng.uniform(*sat) * 255, rng.uniform(*val) * 255]]], np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0].astype(np.float32)


def wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    u, v = _coords(h, w, rng.uniform(0, np.pi))
    # grain: rings stretched along u (value noise squashed across the grain), lightly warped
    warp = fractal(rng, h, w, 3, 3) * rng.uniform(3, 12)
    streak = cv2.resize(rng.uniform(-1, 1, (max(2, h // 2), 6)).astype(np.float32), (w, h))
    streak = cv2.warpAffine(
        streak,
        cv2.getRotationMatrix2D((w / 2, h / 2), float(np.degrees(rng.uniform(0, np.pi))), 1.5),
        (w, h),
        borderMode=cv2.BORDER_REFLECT,
    )
    freq = rng.uniform(0.3, 0.9)
    grain = 0.5 + 0.35 * np.sin((v + warp) * freq) + 0.25 * streak
    fine = value_noise(rng, h, w, 40) * 0.1
    base = _hsv_colour(rng, (15, 38), (0.35, 0.8), (0.25, 0.8))
    dark = base * rng.uniform(0.5, 0.75)
    t = np.clip(np.clip(grain, 0, 1) ** rng.uniform(1, 3) + fine, 0, 1)[..., None]
    out = dark + (base - dark) * t
    if rng.random() < 0.3:  # planks
        period = rng.uniform(40, 120)
        seam = (np.mod(u, period) < 1.2)[..., None]
        out = np.where(seam, out * 0.55, out)
    return out


def cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _hsv_colour(rng, (0, 360), (0.1, 0.8), (0.2, 0.9))
    u, v = _coords(h, w, rng.uniform(0, np.pi))
    period = rng.uniform(2.5, 6)
    weave = 0.06 * np.sin(u * 2 * np.pi / period) * np.sin(v * 2 * np.pi / period)
    out = base * (1 + weave + 0.12 * fractal(rng, h, w, 4, 3))[..., None]
    if rng.random() < 0.4:  # checked or striped table cloth
        second = _hsv_colour(rng, (0, 360), (0.1, 0.8), (0.4, 1.0))
        stripe = rng.uniform(12, 60)
        mask = np.mod(u, stripe) < stripe / 2
        if rng.random() < 0.5:
            mask = mask ^ (np.mod(v, stripe) < stripe / 2)
        out = np.where(mask[..., None], out, second * (out / np.maximum(base, 1)))
    return out


def felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    # the green/blue baize of mahjong tables, and the mats laid on tables
    base = _hsv_colour(rng, (90, 230), (0.35, 0.9), (0.2, 0.6))
    return base * (1 + 0.08 * fractal(rng, h, w, 8, 4) + 0.05 * value_noise(rng, h, w, 60))[..., None]


def glass(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _hsv_colour(rng, (150, 220), (0.0, 0.35), (0.05, 0.35))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, np.pi)
    grad = (xx * np.cos(ang) + yy * np.sin(ang)) / max(h, w)
    out = base * (0.7 + 0.6 * grad)[..., None]
    for _ in range(int(rng.integers(1, 4))):  # reflections of lamps and windows
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.4) * max(h, w)
        blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        out += (rng.uniform(30, 120) * blob)[..., None]
    return out


def floor(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _hsv_colour(rng, (0, 60), (0.0, 0.3), (0.5, 0.95))
    u, v = _coords(h, w, rng.uniform(0, np.pi / 2))
    size = rng.uniform(40, 150)
    line = (np.minimum(np.mod(u, size), np.mod(v, size)) < 1.5)[..., None]
    out = base * (1 + 0.06 * fractal(rng, h, w, 6, 3))[..., None]
    return np.where(line, out * 0.7, out)


def marble(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _hsv_colour(rng, (0, 60), (0.0, 0.15), (0.7, 0.97))
    u, _ = _coords(h, w, rng.uniform(0, np.pi))
    turb = fractal(rng, h, w, 3, 5) * rng.uniform(3, 8)
    vein = np.abs(np.sin(u * rng.uniform(0.01, 0.04) + turb)) ** 0.25
    return base * (0.55 + 0.45 * vein)[..., None]


def plain(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _hsv_colour(rng, (0, 360), (0.0, 0.25), (0.3, 0.98))
    return base * (1 + 0.05 * fractal(rng, h, w, 3, 3))[..., None]


def mat(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    # rubber/plastic mahjong mats: a saturated colour with a printed border pattern
    out = felt(rng, h, w)
    u, v = _coords(h, w, rng.uniform(0, np.pi))
    period = rng.uniform(20, 80)
    pattern = (np.sin(u / period * 6.28) * np.sin(v / period * 6.28) > 0.85)[..., None]
    return np.where(pattern, out * 1.35, out)


_MAKERS: dict[str, Callable[[np.random.Generator, int, int], np.ndarray]] = {
    "wood": wood,
    "cloth": cloth,
    "felt": felt,
    "glass": glass,
    "floor": floor,
    "marble": marble,
    "plain": plain,
    "mat": mat,
}


def clutter(rng: np.random.Generator, img: np.ndarray) -> None:
    """Things around the tiles on a real table: cups, phones, chair legs seen through glass, paper.

    Drawn in place on the quarter-size surface, then blurred (they are out of focus or seen
    through the table top), so the detector learns to ignore shapes that are not tiles.
    """
    h, w = img.shape[:2]
    layer = img.copy()
    for _ in range(int(rng.integers(0, 7))):
        colour = tuple(float(c) for c in _hsv_colour(rng, (0, 360), (0, 0.9), (0.05, 1.0)))
        kind = rng.integers(4)
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        size = int(rng.uniform(0.05, 0.4) * max(h, w))
        if kind == 0:  # a leg or rod: a long thick bar, often metallic
            ang = rng.uniform(0, np.pi)
            dx, dy = int(np.cos(ang) * size * 2), int(np.sin(ang) * size * 2)
            cv2.line(layer, (x - dx, y - dy), (x + dx, y + dy), colour, max(2, size // 8))
            cv2.line(
                layer,
                (x - dx, y - dy),
                (x + dx, y + dy),
                tuple(min(255.0, c * 1.5) for c in colour),
                max(1, size // 30),
            )
        elif kind == 1:  # a round thing: cup, bowl, coin
            cv2.ellipse(
                layer,
                (x, y),
                (size // 2, int(size // 2 * rng.uniform(0.6, 1))),
                float(rng.uniform(0, 180)),
                0,
                360,
                colour,
                -1,
            )
        elif kind == 2:  # a box: phone, paper, chair seat
            rect = (
                (float(x), float(y)),
                (float(size), float(size * rng.uniform(0.3, 1.5))),
                float(rng.uniform(0, 180)),
            )
            cv2.fillConvexPoly(layer, cv2.boxPoints(rect).astype(np.int32), colour)
        else:  # the edge of the table: beyond it, the floor, darker or lighter
            ang = rng.uniform(0, 2 * np.pi)
            yy, xx = np.mgrid[0:h, 0:w]
            side = (xx - x) * np.cos(ang) + (yy - y) * np.sin(ang) > 0
            layer[side] = layer[side] * rng.uniform(0.3, 0.8) + np.array(colour) * rng.uniform(0.1, 0.4)
    sigma = rng.uniform(0.5, 4)
    layer = cv2.GaussianBlur(layer, (0, 0), sigma)
    alpha = rng.uniform(0.5, 1.0)  # through glass, objects are dimmer
    img[:] = img * (1 - alpha) + layer * alpha


def background(
    rng: np.random.Generator, h: int, w: int, surface: str | None = None
) -> tuple[np.ndarray, str]:
    """A table surface (h, w, 3) float32 in 0..255, and its kind (`surface`, one of KINDS, or drawn)."""
    drawn = str(rng.choice(KINDS, p=[0.24, 0.14, 0.12, 0.12, 0.08, 0.1, 0.12, 0.08]))
    kind = surface or drawn  # drawn either way: one draw per scene, whatever the caller asks
    small = _MAKERS[kind](rng, max(8, h // 4), max(8, w // 4)).astype(np.float32)
    if rng.random() < 0.6:
        clutter(rng, small)
    out = cv2.resize(np.clip(small, 0, 255).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return out, kind
