"""Things lying on a real table beside the tiles, drawn in focus: slippers, cards, phones, coins,
chair legs, cups.

The blurred `backgrounds.clutter` teaches the detector to ignore shapes in the table's texture;
these are sharp objects at the tiles' own scale, the kind a detector fires on by mistake in real
photos (a slipper's print read as a rooster, a chair leg as a face-down tile). Their boxes go into
the scene's meta (`props`) so the classifier's "no tile" crops can be cut from them too.

Props use their own random stream (`prop_rng`), so adding them leaves every other draw of a scene
as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

KINDS = ("shoe", "card", "phone", "coin", "rod", "cup")
SHARE_WITH_PROPS = 0.5  # share of scenes with props on the table
MAX_PROPS = 4
RGBf = tuple[float, float, float]


@dataclass(frozen=True)
class Prop:
    kind: str
    xyxy: tuple[float, float, float, float]  # the prop's box in image pixels, clipped to the image


def prop_rng(seed: int) -> np.random.Generator:
    return np.random.default_rng([seed, 4242])


def _colour(rng: np.random.Generator, light: bool | None = None) -> RGBf:
    hsv = np.array([[[rng.uniform(0, 180), rng.uniform(0.1, 0.9) * 255, rng.uniform(0.2, 1.0) * 255]]])
    if light is True:
        hsv[0, 0, 2] = rng.uniform(0.75, 1.0) * 255
    elif light is False:
        hsv[0, 0, 2] = rng.uniform(0.05, 0.35) * 255
    rgb = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2RGB)[0, 0]
    return (float(rgb[0]), float(rgb[1]), float(rgb[2]))


def _shifted(colour: RGBf, factor: float) -> RGBf:
    r, g, b = (min(255.0, c * factor) for c in colour)
    return (r, g, b)


def _ellipse(
    layer: np.ndarray,
    mask: np.ndarray,
    centre: tuple[int, int],
    axes: tuple[int, int],
    angle: float,
    colour: RGBf,
    thickness: int = -1,
) -> None:
    cv2.ellipse(layer, centre, axes, angle, 0, 360, colour, thickness, cv2.LINE_AA)
    cv2.ellipse(mask, centre, axes, angle, 0, 360, 1.0, thickness, cv2.LINE_AA)


def _poly(layer: np.ndarray, mask: np.ndarray, points: np.ndarray, colour: RGBf) -> None:
    pts = np.round(points).astype(np.int32)
    cv2.fillConvexPoly(layer, pts, colour, cv2.LINE_AA)
    cv2.fillConvexPoly(mask, pts, 1.0, cv2.LINE_AA)


def _rect(centre: tuple[float, float], size: tuple[float, float], angle: float) -> np.ndarray:
    return cv2.boxPoints((centre, size, angle))


def _marks(layer: np.ndarray, rng: np.random.Generator, centre: tuple[float, float], size: float) -> None:
    """A print on a prop: letters, rings, stripes (never a tile's character or dot pattern)."""
    for _ in range(int(rng.integers(1, 4))):
        colour = _colour(rng)
        x = int(centre[0] + rng.uniform(-0.3, 0.3) * size)
        y = int(centre[1] + rng.uniform(-0.2, 0.2) * size)
        kind = rng.integers(3)
        if kind == 0:
            text = "".join(rng.choice(list("ABCDEGHKMRSTXYZ"), int(rng.integers(1, 5))))
            scale = max(0.3, size / 160 * rng.uniform(0.6, 1.4))
            cv2.putText(
                layer,
                text,
                (x - int(size * 0.2), y),
                cv2.FONT_HERSHEY_SIMPLEX,
                scale,
                colour,
                max(1, int(scale * 2)),
                cv2.LINE_AA,
            )
        elif kind == 1:
            cv2.circle(
                layer,
                (x, y),
                max(2, int(size * rng.uniform(0.05, 0.15))),
                colour,
                max(1, int(size * 0.02)),
                cv2.LINE_AA,
            )
        else:
            dx = int(size * rng.uniform(0.1, 0.3))
            cv2.line(
                layer,
                (x - dx, y),
                (x + dx, y + int(rng.uniform(-0.1, 0.1) * size)),
                colour,
                max(1, int(size * 0.03)),
                cv2.LINE_AA,
            )


def _draw_one(
    kind: str,
    layer: np.ndarray,
    mask: np.ndarray,
    rng: np.random.Generator,
    centre: tuple[float, float],
    tile_px: float,
) -> None:
    """Draw prop `kind` around `centre` into `layer` / `mask`."""
    cx, cy = centre
    c = (int(cx), int(cy))
    angle = float(rng.uniform(0, 180))
    if kind == "shoe":
        length = tile_px * rng.uniform(1.5, 3.0)
        body = _colour(rng, light=bool(rng.random() < 0.6))
        _ellipse(layer, mask, c, (int(length / 2), int(length * rng.uniform(0.18, 0.26))), angle, body)
        strap = _shifted(body, rng.uniform(0.6, 1.3))
        dx, dy = np.cos(np.radians(angle)) * length * 0.15, np.sin(np.radians(angle)) * length * 0.15
        strap_c = (int(cx + dx), int(cy + dy))
        strap_axes = (int(length * rng.uniform(0.12, 0.2)), int(length * 0.3))
        _ellipse(layer, mask, strap_c, strap_axes, angle, strap)
        _marks(layer, rng, (cx + dx, cy + dy), length * 0.4)
        return
    if kind in ("card", "phone"):
        long_side = tile_px * rng.uniform(1.2, 2.6)
        size = (long_side, long_side * rng.uniform(0.45, 0.65))
        colour = _colour(rng, light=kind == "card" and bool(rng.random() < 0.5))
        if kind == "phone":
            colour = _colour(rng, light=False)
        _poly(layer, mask, _rect(centre, size, angle), colour)
        if kind == "phone":
            screen = _shifted(_colour(rng), rng.uniform(0.3, 1.0))
            cv2.fillConvexPoly(
                layer,
                np.round(_rect(centre, (size[0] * 0.85, size[1] * 0.85), angle)).astype(np.int32),
                screen,
                cv2.LINE_AA,
            )
        else:
            _marks(layer, rng, centre, long_side)
        return
    if kind == "coin":
        radius = tile_px * rng.uniform(0.2, 0.45)
        metals: tuple[RGBf, ...] = ((200.0, 170.0, 90.0), (190.0, 190.0, 195.0), (170.0, 110.0, 70.0))
        colour = _shifted(metals[int(rng.integers(3))], rng.uniform(0.7, 1.2))
        _ellipse(layer, mask, c, (int(radius), int(radius * rng.uniform(0.7, 1.0))), angle, colour)
        cv2.ellipse(
            layer,
            c,
            (int(radius * 0.75), int(radius * 0.6)),
            angle,
            0,
            360,
            _shifted(colour, 0.8),
            max(1, int(radius * 0.08)),
            cv2.LINE_AA,
        )
        return
    if kind == "rod":
        length = tile_px * rng.uniform(2.0, 6.0)
        width = tile_px * rng.uniform(0.12, 0.4)
        metal = _shifted(_colour(rng), rng.uniform(0.6, 1.3))
        _poly(layer, mask, _rect(centre, (length, width), angle), metal)
        cv2.fillConvexPoly(
            layer,
            np.round(_rect(centre, (length, width * 0.2), angle)).astype(np.int32),
            _shifted(metal, 1.6),
            cv2.LINE_AA,
        )
        return
    # a cup or glass seen from above: a rim and its inside
    radius = tile_px * rng.uniform(0.6, 1.2)
    rim = _colour(rng)
    _ellipse(layer, mask, c, (int(radius), int(radius * rng.uniform(0.8, 1.0))), angle, rim)
    cv2.ellipse(
        layer, c, (int(radius * 0.85), int(radius * 0.8)), angle, 0, 360, _shifted(rim, 0.5), -1, cv2.LINE_AA
    )


def mask_box(mask: np.ndarray, above: float = 0.5) -> tuple[float, float, float, float] | None:
    """The box of a drawn thing's sharp mask (before any blur; pixels covered more than `above`), or
    None if it fell outside the image."""
    ys, xs = np.nonzero(mask > above)
    if not len(xs):
        return None
    return (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))


def soften(layer: np.ndarray, mask: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """A drawn thing out of focus: its 8-bit layer and its mask blurred alike, as float32."""
    blurred = np.asarray(cv2.GaussianBlur(layer.astype(np.float32), (0, 0), sigma), np.float32)
    return blurred, np.asarray(cv2.GaussianBlur(mask, (0, 0), sigma), np.float32)


def cast_shadow(img: np.ndarray, mask: np.ndarray, offset: int, sigma: float, strength: float) -> None:
    """Darken `img` (H, W, 3) float32 in place by up to `strength` under a thing's `mask` moved `offset`
    pixels down and right and blurred by `sigma`: the soft shadow of something lying flat on the table."""
    h, w = mask.shape
    moved = np.zeros_like(mask)
    moved[offset:, offset:] = mask[: h - offset, : w - offset]
    shadow = cv2.GaussianBlur(moved, (0, 0), sigma)
    img *= 1 - strength * shadow[..., None]


def draw_props(img: np.ndarray, rng: np.random.Generator, tile_px: float) -> list[Prop]:
    """Draw 0..MAX_PROPS props on `img` (H, W, 3) float32 in place; returns their boxes.

    Drawn before the tiles, so tiles lie on top of them as on a real table.
    """
    if rng.random() >= SHARE_WITH_PROPS:
        return []
    h, w = img.shape[:2]
    props = []
    for _ in range(int(rng.integers(1, MAX_PROPS + 1))):
        kind = str(rng.choice(KINDS))
        layer = np.zeros((h, w, 3), np.uint8)  # cv2.putText draws on 8-bit images only
        mask = np.zeros((h, w), np.float32)
        centre = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        _draw_one(kind, layer, mask, rng, centre, tile_px)
        box = mask_box(mask)
        if box is None:
            continue
        # a soft shadow beside it, then the prop, a little out of focus at most
        # (tiles many times the frame at the smallest sizes: the shadow then falls off it)
        cast_shadow(img, mask, min(int(tile_px * 0.05), h - 1, w - 1), max(1.0, tile_px * 0.05), 0.35)
        sigma = rng.uniform(0.0, 1.5)
        layer_f = layer.astype(np.float32)
        if sigma > 0.3:
            layer_f, mask = soften(layer, mask, sigma)
        shade = rng.uniform(0.85, 1.1)
        img[:] = img * (1 - mask[..., None]) + layer_f * shade * mask[..., None]
        props.append(Prop(kind, box))
    return props


# Under a glass top: feet in slippers, chair legs, cups and bags on the floor, seen through the glass.
UNDER_GLASS_KINDS = ("shoe", "shoe", "shoe", "rod", "cup", "card", "phone")
SHARE_UNDER_GLASS = 0.6  # share of glass-table scenes with something under the glass
MAX_UNDER_GLASS = 3


def under_glass_rng(seed: int) -> np.random.Generator:
    return np.random.default_rng([seed, 4545])


def draw_under_glass(img: np.ndarray, surface: str, rng: np.random.Generator, tile_px: float) -> list[Prop]:
    """On a glass table only: draw 0..MAX_UNDER_GLASS things lying under it onto `img` (H, W, 3)
    float32 in place, softer and fainter than props on the top (seen through the glass, further
    from the lens); returns their boxes (kind "under:" + the prop's kind).

    A slipper's print under the glass is what a detector boxes as a tile in real photos of glass
    tables, so it must see such things, unlabelled, in training."""
    if surface != "glass" or rng.random() >= SHARE_UNDER_GLASS:
        return []
    h, w = img.shape[:2]
    found = []
    for _ in range(int(rng.integers(1, MAX_UNDER_GLASS + 1))):
        kind = str(rng.choice(UNDER_GLASS_KINDS))
        layer = np.zeros((h, w, 3), np.uint8)
        mask = np.zeros((h, w), np.float32)
        centre = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        _draw_one(kind, layer, mask, rng, centre, tile_px * rng.uniform(0.5, 1.0))
        box = mask_box(mask)
        if box is None:
            continue
        layer_f, mask = soften(layer, mask, rng.uniform(0.01, 0.06) * tile_px)
        through = rng.uniform(0.45, 0.9) * mask  # the glass lets this much through
        img[:] = img * (1 - through[..., None]) + layer_f * rng.uniform(0.6, 1.0) * through[..., None]
        found.append(Prop("under:" + kind, box))
    return found
