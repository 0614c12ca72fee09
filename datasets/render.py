"""Draw tiles as 3-D bodies seen by a phone camera, and label what is visible.

Each tile is a rounded box: a coloured back layer under an ivory layer whose top carries the face
(or, face down, the coloured layer on top). Bodies are drawn far to near (painter's order) as
filled convex hulls of their projected outlines, then the face is warped onto the top with a
homography. An id buffer drawn in the same order gives each tile's visible pixels, so boxes are
tight around what the camera really sees (frame edge and neighbours included).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.hands import Dims, Placed

# A tile is labelled when at least this share of its silhouette is visible (inside the frame and
# not covered by another tile); a sliver at the edge of the photo is not a readable tile.
MIN_VISIBLE = 0.5
MIN_BOX_PX = 6


@dataclass(frozen=True)
class Camera:
    f: float
    cx: float
    cy: float
    rot: np.ndarray  # (3, 3) world -> camera (OpenCV axes: x right, y down, z forward)
    pos: np.ndarray  # (3,) camera centre in world mm

    def project(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World points (N, 3) -> pixel coordinates (N, 2) and depths (N,)."""
        cam = (pts - self.pos) @ self.rot.T
        z = np.maximum(cam[:, 2], 1e-3)
        return np.stack([self.f * cam[:, 0] / z + self.cx, self.f * cam[:, 1] / z + self.cy], axis=1), z


def look_at(
    target: np.ndarray, tilt: float, azimuth: float, dist: float, roll: float, f: float, w: int, h: int
) -> Camera:
    """A camera `dist` mm from `target`, tilted `tilt` rad from straight down.

    `azimuth` is the horizontal direction (rad) from the camera to the target; that direction is
    "up" in the image before `roll` turns the picture about the optical axis.
    """
    away = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])
    view_from = np.array([-away[0] * math.sin(tilt), -away[1] * math.sin(tilt), math.cos(tilt)])
    pos = target + dist * view_from
    z = -view_from
    up = away - np.dot(away, z) * z
    up /= np.linalg.norm(up)
    y = -up
    x = np.cross(y, z)
    c, s = math.cos(roll), math.sin(roll)
    x, y = c * x + s * y, -s * x + c * y
    return Camera(f, w / 2, h / 2, np.stack([x, y, z]), pos)


def rounded_outline(w: float, h: float, r: float, per_corner: int = 4) -> np.ndarray:
    """Rounded-rectangle outline (N, 2) centred at 0, x across, y toward the top of the face."""
    pts = []
    for cx, cy, a0 in (
        (w / 2 - r, h / 2 - r, 0),
        (-w / 2 + r, h / 2 - r, 90),
        (-w / 2 + r, -h / 2 + r, 180),
        (w / 2 - r, -h / 2 + r, 270),
    ):
        for k in range(per_corner):
            a = math.radians(a0 + 90 * k / (per_corner - 1))
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts, np.float64)


@dataclass(frozen=True)
class TileGeometry:
    """A placed tile's projected shape."""

    hull_low: np.ndarray  # int32 hull of the lower layer
    hull_high: np.ndarray  # int32 hull of the upper layer
    top: np.ndarray  # (4, 2) float: top surface corners TL, TR, BR, BL (as the art is upright)
    depth: float
    rings: np.ndarray  # (3, N, 2) projected outline at the bottom, the layer seam and the top
    normals: np.ndarray  # (N, 3) outward normal of each side segment i -> i+1
    facing: np.ndarray  # (N,) bool: that side segment faces the camera
    top_visible: bool  # the camera sees the top surface (not so for a standing tile seen from behind)
    base: np.ndarray  # (4, 2) the opposite surface's corners


def tile_frame(tile: Placed, d: Dims) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Centre of the visible top surface and its axes: right, up (toward the art's top), normal.

    A flat tile shows its top to the sky (the face, or the back when face down); a standing tile
    shows its face sideways, toward `up` turned by -90 deg (toward the player for up = 0).
    """
    cu, su = math.cos(tile.up), math.sin(tile.up)
    ax = np.array([cu, su, 0.0])
    if tile.standing:
        ay = np.array([0.0, 0.0, 1.0])
        n = np.cross(ax, ay)
        centre = np.array([tile.x, tile.y, tile.z + d.h / 2])
    else:
        ay = np.array([-su, cu, 0.0])
        n = np.array([0.0, 0.0, 1.0])
        centre = np.array([tile.x, tile.y, tile.z + d.t])
    return centre, ax, ay, n


def tile_geometry(tile: Placed, d: Dims, cam: Camera) -> TileGeometry:
    centre, ax, ay, n = tile_frame(tile, d)
    outline = rounded_outline(d.w, d.h, 0.1 * d.w)
    ring = centre + outline[:, :1] * ax + outline[:, 1:] * ay  # the top outline (N, 3)
    lower_share = (1 - d.ivory) if tile.face_up else d.ivory
    offsets = (-d.t, -d.t + d.t * lower_share, 0.0)  # back, layer seam, top: along the normal
    p = [cam.project(ring + off * n)[0] for off in offsets]
    corners = np.array([(-d.w / 2, d.h / 2), (d.w / 2, d.h / 2), (d.w / 2, -d.h / 2), (-d.w / 2, -d.h / 2)])
    top3 = centre + corners[:, :1] * ax + corners[:, 1:] * ay
    top, _ = cam.project(top3)
    bottom, _ = cam.project(top3 - d.t * n)
    _, depth = cam.project((centre - n * d.t / 2)[None])
    # side segments: outward normals, and whether the camera sees them
    seg = np.roll(outline, -1, axis=0) - outline
    local = np.stack([seg[:, 1], -seg[:, 0]], axis=1)
    local /= np.maximum(np.linalg.norm(local, axis=1, keepdims=True), 1e-9)
    normals = local[:, :1] * ax + local[:, 1:] * ay
    mids = (np.roll(ring, -1, axis=0) + ring) / 2 - n * d.t / 2
    facing = np.einsum("ij,ij->i", normals, cam.pos - mids) > 0
    hull_low = cv2.convexHull(np.concatenate([p[0], p[1]]).astype(np.float32)).reshape(-1, 2)
    hull_high = cv2.convexHull(np.concatenate([p[1], p[2]]).astype(np.float32)).reshape(-1, 2)
    return TileGeometry(
        np.round(hull_low).astype(np.int32),
        np.round(hull_high).astype(np.int32),
        top,
        float(depth[0]),
        np.stack(p),
        normals,
        facing,
        bool(np.dot(n, cam.pos - centre) > 0),
        bottom,
    )


def shade(colour: np.ndarray, factor: float) -> tuple[float, float, float]:
    c = np.clip(colour * factor, 0, 255)
    return float(c[0]), float(c[1]), float(c[2])


def pick_mip(mips: list[np.ndarray], size_px: float) -> np.ndarray:
    """The smallest pre-shrunk sprite still at least as big as the tile on screen (no aliasing)."""
    for mip in reversed(mips):
        if mip.shape[0] >= size_px * 1.1:
            return mip
    return mips[0]


def sheen_map(rng: np.random.Generator) -> np.ndarray | None:
    """The light's reflection on a glossy face, in face coordinates (64 x 48), or None (matte)."""
    if rng.random() < 0.45:
        return None
    yy, xx = np.mgrid[0:64, 0:48].astype(np.float32)
    cx, cy = rng.uniform(-10, 58), rng.uniform(-10, 74)
    ang = rng.uniform(0, math.pi)
    u = (xx - cx) * math.cos(ang) + (yy - cy) * math.sin(ang)
    v = -(xx - cx) * math.sin(ang) + (yy - cy) * math.cos(ang)
    blob = np.exp(-((u / rng.uniform(8, 30)) ** 2) - (v / rng.uniform(4, 14)) ** 2)
    return (blob * rng.uniform(40, 140)).astype(np.float32)


def warp_sprite(
    img: np.ndarray, sprite: np.ndarray, quad: np.ndarray, tint: float, sheen: np.ndarray | None = None
) -> None:
    """Composite an RGBA sprite onto `img` (float32) inside `quad` (TL, TR, BR, BL).

    `sheen` (face coordinates, any size) is added on top: the light reflected by a glossy face.
    """
    h, w = img.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    sh, sw = sprite.shape[:2]
    src = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(
        sprite,
        m,
        (x1 - x0, y1 - y0),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    a = warped[..., 3:4].astype(np.float32) * (1 / 255)
    roi = img[y0:y1, x0:x1]
    roi *= 1 - a
    roi += warped[..., :3].astype(np.float32) * (a * tint)
    if sheen is not None:
        gh, gw = sheen.shape
        src = np.array([[0, 0], [gw, 0], [gw, gh], [0, gh]], np.float32)
        m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
        glow = cv2.warpPerspective(sheen, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        roi += glow[..., None] * a


@dataclass(frozen=True)
class Label:
    index: int  # into the placed tiles
    xyxy: tuple[float, float, float, float]
    visible: float
    quad: np.ndarray  # (4, 2) the printed face (or back) as drawn: TL, TR, BR, BL


def draw_tiles(
    img: np.ndarray,
    tiles: list[Placed],
    geoms: list[TileGeometry],
    mips: dict[str, list[np.ndarray]],
    back_mips: list[np.ndarray],
    body: np.ndarray,
    back_colour: np.ndarray,
    rng: np.random.Generator,
    light: float = 0.0,
) -> list[Label]:
    """Draw every tile onto `img` (float32, modified) and return the labels of the visible ones.

    `light` is the direction (rad, table plane) the light comes from: sides facing it are bright.
    """
    h, w = img.shape[:2]
    ids = np.zeros((h, w), np.int16)
    order = sorted(range(len(tiles)), key=lambda i: -geoms[i].depth)
    elevation = rng.uniform(0.5, 1.1)
    to_light = np.array(
        [math.cos(light) * math.cos(elevation), math.sin(light) * math.cos(elevation), math.sin(elevation)]
    )
    ambient, diffuse = rng.uniform(0.55, 0.75), rng.uniform(0.15, 0.35)
    bevel = rng.uniform(0.02, 0.06)  # share of the top lost to the rounded edge
    quads: dict[int, np.ndarray] = {}
    sheen = sheen_map(rng)
    for i in order:
        t, g = tiles[i], geoms[i]
        low_col, high_col = (back_colour, body) if t.face_up else (body, back_colour)
        lit = ambient + diffuse * np.clip(g.normals @ to_light, 0, 1)
        for layer, colour in ((0, low_col), (1, high_col)):
            cv2.fillConvexPoly(
                img, g.hull_low if layer == 0 else g.hull_high, shade(colour, ambient), lineType=cv2.LINE_AA
            )
            a, b = g.rings[layer], g.rings[layer + 1]
            for k in np.flatnonzero(g.facing):
                k1 = (k + 1) % len(a)
                quad = np.array([a[k], a[k1], b[k1], b[k]])
                cv2.fillConvexPoly(img, np.round(quad).astype(np.int32), shade(colour, lit[k] * 0.97))
        # the rounded top edge catches the light: a bright rim around the printed face
        top_ring = np.round(g.rings[2] if g.top_visible else g.rings[0]).astype(np.int32)
        rim = high_col if g.top_visible else low_col
        cv2.fillConvexPoly(
            img, top_ring, shade(rim, min(1.08, ambient + diffuse + 0.12)), lineType=cv2.LINE_AA
        )
        surface = g.top if g.top_visible else g.base
        centre = surface.mean(axis=0)
        inset = centre + (surface - centre) * (1 - bevel)
        quads[i] = inset
        size = float(np.max(np.linalg.norm(g.top - np.roll(g.top, 1, axis=0), axis=1)))
        if g.top_visible:
            sprite = pick_mip(mips[t.code] if t.face_up and t.code in mips else back_mips, size)
            warp_sprite(img, sprite, inset, rng.uniform(0.93, 1.04), sheen)
        full = cv2.convexHull(np.concatenate([g.hull_low, g.hull_high]))
        cv2.fillConvexPoly(ids, full, i + 1)
    labels: list[Label] = []
    for i, (t, g) in enumerate(zip(tiles, geoms, strict=True)):
        if t.hidden:
            continue
        full = cv2.convexHull(np.concatenate([g.hull_low, g.hull_high]))
        area = float(cv2.contourArea(full))
        xs, ys = full[:, 0, 0], full[:, 0, 1]
        x0, x1 = max(int(xs.min()), 0), min(int(xs.max()) + 1, w)
        y0, y1 = max(int(ys.min()), 0), min(int(ys.max()) + 1, h)
        if x1 <= x0 or y1 <= y0 or area <= 1:
            continue
        mask = ids[y0:y1, x0:x1] == i + 1
        count = int(np.count_nonzero(mask))
        if count == 0 or count / area < MIN_VISIBLE:
            continue
        cols = np.flatnonzero(mask.any(axis=0))
        rows = np.flatnonzero(mask.any(axis=1))
        box = (float(x0 + cols[0]), float(y0 + rows[0]), float(x0 + cols[-1] + 1), float(y0 + rows[-1] + 1))
        if min(box[2] - box[0], box[3] - box[1]) < MIN_BOX_PX:
            continue
        labels.append(Label(i, box, min(1.0, count / area), quads[i]))
    return labels


def draw_shadows(
    img: np.ndarray, geoms: list[TileGeometry], rng: np.random.Generator, away: np.ndarray
) -> None:
    """Soft contact shadows: the tile silhouettes, offset `away` (image unit vector) from the light."""
    h, w = img.shape[:2]
    s = 4
    mask = np.zeros((h // s + 1, w // s + 1), np.float32)
    size = np.median([np.ptp(g.top[:, 1]) + np.ptp(g.top[:, 0]) for g in geoms]) if geoms else 20
    off = away * size * rng.uniform(0.05, 0.3)
    for g in geoms:
        pts = np.concatenate([g.hull_low, g.hull_high]).astype(np.float32)
        pts = np.concatenate([pts, pts + off])
        hull = cv2.convexHull((pts / s).astype(np.float32)).astype(np.int32)
        cv2.fillConvexPoly(mask, hull, 1.0)
    k = max(3, int(size / s * rng.uniform(0.1, 0.4)) | 1)
    mask = cv2.GaussianBlur(mask, (k, k), 0)
    mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
    img *= (1 - rng.uniform(0.25, 0.6) * mask)[..., None]


def lighting(img: np.ndarray, rng: np.random.Generator) -> None:
    """Uneven light: a gradient, a vignette, a colour cast, and a few glare spots."""
    h, w = img.shape[:2]
    s = 8
    yy, xx = np.mgrid[0 : h // s + 1, 0 : w // s + 1].astype(np.float32)
    yy, xx = yy * s / h, xx * s / w
    ang = rng.uniform(0, 2 * math.pi)
    grad = (xx - 0.5) * math.cos(ang) + (yy - 0.5) * math.sin(ang)
    light = 1 + rng.uniform(0.1, 0.6) * grad
    light *= 1 - rng.uniform(0, 0.35) * ((xx - 0.5) ** 2 + (yy - 0.5) ** 2) * 2
    light *= rng.uniform(0.65, 1.15)
    glare = np.zeros_like(light)
    for _ in range(int(rng.integers(0, 3))):
        cx, cy, r = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.03, 0.25)
        glare += rng.uniform(0.2, 0.9) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
    light = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)
    cast = np.array([rng.uniform(0.9, 1.1), 1.0, rng.uniform(0.85, 1.1)], np.float32)
    img *= light[..., None] * cast
    if glare.any():
        glare = cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR)
        img += (glare * 255 * rng.uniform(0.3, 0.8))[..., None]


def tone(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Exposure and colour processing of a phone: gamma, contrast, saturation (one LUT + one mix)."""
    gamma = math.exp(rng.normal(0, 0.2))
    contrast = rng.uniform(0.8, 1.25)
    x = np.arange(256, dtype=np.float32) / 255
    y = np.clip((x**gamma - 0.5) * contrast + 0.5, 0, 1)
    out = cv2.LUT(img, (y * 255).astype(np.uint8))
    sat = rng.uniform(0.6, 1.3)
    if abs(sat - 1) > 0.05:
        grey = cv2.cvtColor(out, cv2.COLOR_RGB2GRAY)[..., None].astype(np.float32)
        out = np.clip(grey + (out.astype(np.float32) - grey) * sat, 0, 255).astype(np.uint8)
    return out


def camera_effects(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Blur, sensor noise, then JPEG compression: uint8 RGB out."""
    r = rng.random()
    if r < 0.3:
        sigma = rng.uniform(0.4, 1.6)
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    elif r < 0.45:  # shallow depth of field: sharp along one band, blurred away from it
        h, w = img.shape[:2]
        blurred = cv2.GaussianBlur(img, (0, 0), rng.uniform(1.5, 4.5))
        ang = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
        u = ((xx - w / 2) * math.cos(ang) + (yy - h / 2) * math.sin(ang)) / max(h, w)
        m = np.clip(np.abs(u - rng.uniform(-0.2, 0.2)) * rng.uniform(2, 5) - 0.2, 0, 1)
        m = cv2.resize(m, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]
        img = img * (1 - m) + blurred * m
    elif r < 0.55:  # hand shake
        n = int(rng.integers(3, 9))
        k = np.zeros((n, n), np.float32)
        ang = rng.uniform(0, math.pi)
        c = (n - 1) / 2
        cv2.line(
            k,
            (round(c - c * math.cos(ang)), round(c - c * math.sin(ang))),
            (round(c + c * math.cos(ang)), round(c + c * math.sin(ang))),
            1.0,
            1,
        )
        img = cv2.filter2D(img, -1, k / k.sum())
    if rng.random() < 0.8:
        sigma = rng.uniform(1, 7)
        h, w = img.shape[:2]
        noise = rng.standard_normal((h // 2 + 1, w // 2 + 1), dtype=np.float32) * sigma
        img = img + cv2.resize(noise, (w, h), interpolation=cv2.INTER_NEAREST)[..., None]
    if rng.random() < 0.3:  # phones sharpen: halos along edges
        soft = cv2.GaussianBlur(img, (0, 0), rng.uniform(1.0, 2.5))
        amount = rng.uniform(0.3, 1.0)
        img = cv2.addWeighted(img, 1 + amount, soft, -amount, 0)
    out = np.clip(img, 0, 255).astype(np.uint8)
    out = tone(out, rng)
    quality = int(rng.integers(35, 96))
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(out, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    if decoded is not None:
        out = cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB)
    return out
