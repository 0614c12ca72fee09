"""Tile-face art drawn in code: the procedural and font styles.

A face is an upright RGBA image of FACE_W x FACE_H pixels: the printed side of the tile, its
ivory/white ground included, with rounded corners in the alpha channel. Dots, bamboo and the
bonus-tile pictures are drawn here; the characters come from a font when the style names one, or
from the stroke table in `datasets.glyphs` (no font at all, so the style works on a bare machine).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont, ImageOps

from datasets.birds import draw_brush_bird, draw_random_bird
from datasets.brush_numerals import draw_brush_numeral
from datasets.glyphs import STROKES, draw_strokes
from vision.classes import ENGLISH_NAMES

FACE_W, FACE_H = 192, 256
_SS = 2  # supersampling: PIL draws without anti-aliasing, so draw big and shrink

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]

CN_NUMERALS = "一二三四五六七八九"
WIND_CHARS = {"E": "東", "S": "南", "W": "西", "N": "北"}
FLOWER_CHARS = {"F1": "梅", "F2": "蘭", "F3": "菊", "F4": "竹"}
SEASON_CHARS = {"S1": "春", "S2": "夏", "S3": "秋", "S4": "冬"}
# where a wind's English name sits (above the character) in sets that print one
WIND_NAME_BOX: Box = (0.12, 0.02, 0.88, 0.15)


class StyleUnavailableError(RuntimeError):
    """The art a style needs is not installed (run `bash datasets/install_art.sh`)."""


@dataclass(frozen=True)
class Palette:
    red: RGB = (200, 30, 35)
    green: RGB = (20, 125, 60)
    blue: RGB = (25, 60, 150)
    black: RGB = (25, 25, 35)
    ground: RGB = (246, 241, 224)  # the face's ivory


@dataclass(frozen=True)
class Layout:
    """Where and how big the art sits on a face; the defaults are the classic sets' layout.

    Makers differ in these: dot size and spacing, stick thickness, how much of a character tile the
    numeral takes. The randomised style draws them per variant so a reader learns the tile, not one
    maker's ruler.
    """

    dot_scale: float = 1.0  # radius factor of the dots
    spread: float = 1.0  # dot/stick centres pushed out (>1) or pulled in (<1) from the face centre
    jitter: float = 0.0  # random offset of each dot/stick centre, face units (same seed, same offsets)
    seed: int = 0  # seeds `jitter`
    stick_width: float = 0.0  # 0 = by the recipe's `bamboo` kind
    stick_length: float = 1.0
    numeral_box: Box = (0.2, 0.07, 0.8, 0.43)  # the rank on character tiles
    wan_box: Box = (0.12, 0.5, 0.88, 0.95)  # the 萬 below it
    char_scale: float = 1.0  # winds, dragons and 飛, about the face centre
    dot_colours: str = "rgb"  # the palette colours standing in for the r, g, b keys, in that order
    bonus_number_box: Box = (0.06, 0.04, 0.3, 0.26)  # the 1-4 on flowers and seasons
    # where the seasons' number sits when a set prints it in another corner than the flowers'
    # (its seasons numbered top right, its flowers top left); None: where the flowers' does
    season_number_box: Box | None = None
    bonus_char_box: Box = (0.72, 0.74, 0.95, 0.97)  # the flower's or season's name, when a font is set
    warp: float = 0.0  # > 0: each character is redrawn by another hand (see `warp_ink`)
    dot_rings: int = 1  # the "compound" dot design (see `draw_compound_dot`): outline rings,
    petals: int = 8  # petals around the centre,
    dot_disc: bool = False  # and whether the dot is a filled disc with the parts cut out of it
    # Which picture a flower or season shows: "own" (plum for F1 ...), "shuffled" (another bonus
    # tile's, as sets differ in which picture goes with which number) or "random" (a plant drawn from
    # `seed`). Only the number and name are the same from set to set, so a reader must learn those.
    # Many sets print one motif on several bonus tiles: "shared" (one plant on every flower, another
    # on every season) or "one" (one plant on all eight); then only the number or name tells them.
    bonus_pictures: str = "own"
    bonus_ink: str = "br"  # palette keys (r, g, b, k = black) of the flower and the season numbers
    # > 0: the flowers' and seasons' numbers printed bolder, their ink grown by this share of the
    # number box's width, as sets whose numbers are chunky brush strokes print them (a font's thin
    # 一 fitted to the box is a hairline; many makers' 一 is a short, thick stroke)
    bonus_number_bold: float = 0.0
    # True: a Chinese number painted with a brush (`datasets.brush_numerals`: a short heavy upper
    # stroke of 二 over a long one, each pressed thick at its ends), as many makers paint them
    bonus_number_brush: bool = False
    bonus_numbers: bool = True  # False: the set prints only the picture and the name (梅 ... 冬)
    # False: no name either (many sets); number script, ink or picture must tell the tile.
    bonus_names: bool = True
    bonus_name_ink: str = "k"  # palette key (r, g, b, k) of the flower's or season's name
    # Pictures (bonus tiles, animals, `face`, the 1 of bamboo) drawn as one-colour outlines, as
    # carved and many printed sets show them; and the 1 of bamboo varied like the other pictures.
    line_art: bool = False
    vary_bird: bool = False
    # "peacock": the one drawing above; "random": a bird of its own per set (`datasets.birds`);
    # "brush": one of its own painted in a few brush strokes
    bird: Literal["peacock", "random", "brush"] = "peacock"
    corner_index: bool = False  # a small rank (suits) or letter (winds) in the top-left corner
    # > 0: every stroke, dot and picture printed as its outline of this width (face widths), each
    # part in its own colour, as line-drawn sets print them; 0 = filled as drawn
    hollow_ink: float = 0.0
    # Which colour each dot and stick takes: "classic" (the keys of `_DOTS` / `_STICKS`), "mono" (all
    # in `mono_key`), "rows" (one colour per row, cycling the keys r, g, b) or "random" (each its
    # own, from `seed`); `dot_colours` then swaps the keys as for the classic ones. Makers colour
    # them every way, so the colours must not tell a 7 from a 9.
    suit_colours: str = "classic"
    mono_key: str = "g"
    # Where and in which palette key (r, g, b, k) an animal's name (貓 ...) is printed: sets put it in
    # any corner and any ink, so neither may tell an animal from a flower whose name sits there too
    animal_name_box: Box = (0.04, 0.02, 0.3, 0.2)
    animal_name_ink: str = "r"
    # The share of the face's width and height the art is drawn in: the classic margin, or up to
    # the whole face, as sets whose characters and dots run to the edge print them (a reader that
    # has only seen margins misreads a 二 whose top stroke meets the face's edge as 一)
    art_inset: tuple[float, float] = (0.86, 0.88)
    # "english": flowers and seasons print their English name (PLUM ... WINTER) in a strip along
    # the top or bottom (`english_name_box`) instead of the Chinese one; with `wind_names`, winds
    # print EAST ... NORTH above the character, as sets made for English-reading players do
    name_script: Literal["chinese", "english"] = "chinese"
    english_name_box: Box = (0.08, 0.84, 0.92, 0.98)
    wind_names: bool = False
    # "grid": the dots and sticks of the ranks that sets draw in more than one way stand in even
    # rows (six dots or sticks as three rows of two, eight as three, two and three, three in one
    # line; `_DOTS_GRID`, `_STICKS_GRID`), as many Western and font-drawn sets print them; a reader
    # that has seen only the classic arrangements reads an unseen set's three rows of two as a 4 or 5
    pips: Literal["classic", "grid"] = "classic"


@dataclass(frozen=True)
class FaceRecipe:
    """How a procedural/font style draws its faces (the drawing knobs of one art style)."""

    palette: Palette = Palette()
    font: str | None = None  # path of a CJK font; None = brush strokes from datasets.glyphs
    font_index: int = 0
    weight: float = 0.1  # stroke width of brush glyphs, fraction of the glyph box
    slant: float = 0.0
    dots: str = "rings"  # rings | solid | flower | compound
    bamboo: str = "sticks"  # sticks | slim | hollow
    numeral_color: str = "black"  # colour of the rank on character tiles: black | blue
    # palette keys (r, g, b, k) of the inks of E, S, W and N: black, blue (as many sets print them),
    # all red or green, or each wind its own ink (some sets). A reader must know a wind by its
    # character, not take a red one for 中 or a green one for 發.
    wind_inks: str = "kkkk"
    white_dragon: str = "frame"  # frame | blank
    # arabic | chinese, or "<flowers>/<seasons>" as many sets number the two groups differently
    # (flowers 1-4, seasons 一-四): "arabic/chinese" or "chinese/arabic"
    bonus_numerals: str = "arabic"
    five: str = "五"  # the rank of 5m: 五, or 伍 as many sets print it (needs a font)
    emoji_font: str | None = None  # Noto Color Emoji for animals, when installed
    variant: int = 0  # varies the pictures (mirror, colours, size) so styles do not share one drawing
    engraved: bool = False  # strokes look cut into the face (see `engrave`)
    layout: Layout = Layout()


# ---------------------------------------------------------------------------- drawing helpers


class Pen:
    """ImageDraw in unit coordinates of the face (0..1 across, 0..1 down)."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.w, self.h = image.size

    def px(self, x: float, y: float) -> tuple[float, float]:
        return x * self.w, y * self.h

    def box(self, b: Box) -> tuple[float, float, float, float]:
        return b[0] * self.w, b[1] * self.h, b[2] * self.w, b[3] * self.h

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 0.0,
    ) -> None:
        # r is a fraction of the face width, so circles stay round on the 3:4 face
        rp = r * self.w
        x, y = self.px(cx, cy)
        self.draw.ellipse(
            (x - rp, y - rp, x + rp, y + rp), fill=fill, outline=outline, width=max(0, round(width * self.w))
        )

    def line(self, pts: list[tuple[float, float]], color: RGB, width: float) -> None:
        p = [self.px(x, y) for x, y in pts]
        wp = max(1, round(width * self.w))
        self.draw.line(p, fill=color, width=wp, joint="curve")
        for x, y in (p[0], p[-1]):
            self.draw.ellipse((x - wp / 2, y - wp / 2, x + wp / 2, y + wp / 2), fill=color)

    def poly(self, pts: list[tuple[float, float]], fill: RGB, outline: RGB | None = None) -> None:
        self.draw.polygon([self.px(x, y) for x, y in pts], fill=fill, outline=outline)

    def ellipse(
        self, b: Box, fill: RGB | None = None, outline: RGB | None = None, width: float = 0.0
    ) -> None:
        self.draw.ellipse(self.box(b), fill=fill, outline=outline, width=max(0, round(width * self.w)))

    def rect(
        self,
        b: Box,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 0.0,
        radius: float = 0.0,
    ) -> None:
        self.draw.rounded_rectangle(
            self.box(b),
            radius=radius * self.w,
            fill=fill,
            outline=outline,
            width=max(0, round(width * self.w)),
        )


@lru_cache(maxsize=64)
def _font(path: str, index: int, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size=size, index=index)


def draw_text_fit(
    pen: Pen, text: str, box: Box, color: RGB, font_path: str, index: int = 0, embedded_color: bool = False
) -> None:
    """Draw `text` with a font, scaled so its ink fills `box` (keeping the glyph's aspect)."""
    x0, y0, x1, y1 = pen.box(box)
    if embedded_color:
        # bitmap colour fonts (Noto Color Emoji) exist only at size 109: draw, then scale
        font = _font(font_path, index, 109)
        tmp = Image.new("RGBA", (160, 160), (0, 0, 0, 0))
        ImageDraw.Draw(tmp).text((10, 10), text, font=font, embedded_color=True)
        bbox = tmp.getbbox()
        if bbox is None:
            return
        glyph = tmp.crop(bbox)
        s = min((x1 - x0) / glyph.width, (y1 - y0) / glyph.height)
        glyph = glyph.resize(
            (max(1, round(glyph.width * s)), max(1, round(glyph.height * s))), Image.Resampling.LANCZOS
        )
        pen.image.alpha_composite(
            glyph, (round((x0 + x1 - glyph.width) / 2), round((y0 + y1 - glyph.height) / 2))
        )
        return
    probe = _font(font_path, index, 200)
    left, t, r, b = probe.getbbox(text)
    if r <= left or b <= t:
        raise StyleUnavailableError(f"font {Path(font_path).name} has no glyph for {text!r}")
    s = min((x1 - x0) / (r - left), (y1 - y0) / (b - t))
    size = max(4, int(200 * s))
    font = _font(font_path, index, size)
    left, t, r, b = font.getbbox(text)
    pen.draw.text(((x0 + x1) / 2 - (left + r) / 2, (y0 + y1) / 2 - (t + b) / 2), text, font=font, fill=color)


def glyph(pen: Pen, recipe: FaceRecipe, char: str, box: Box, color: RGB) -> None:
    warp = recipe.layout.warp
    target = Pen(Image.new("RGBA", pen.image.size, (0, 0, 0, 0))) if warp else pen
    if recipe.font is not None:
        draw_text_fit(target, char, box, color, recipe.font, recipe.font_index)
    else:
        draw_strokes(target.draw, char, pen.box(box), color, weight=recipe.weight, slant=recipe.slant)
    if warp:
        seed = [recipe.layout.seed, ord(char), round(box[1] * 100)]
        pen.image.alpha_composite(warp_ink(target.image, color, warp, pen.box(box), seed))


def warp_ink(layer: Image.Image, color: RGB, amount: float, box: Box, seed: list[int]) -> Image.Image:
    """One glyph as another hand would write it: sheared, stretched, wobbled, bolder or thinner.

    Tile makers cut their own characters; a reader that knows one font's exact strokes misreads
    the next maker's. `amount` (about 0.5-1.5) scales every change.
    """
    rng = np.random.default_rng(seed)
    alpha = np.asarray(layer)[..., 3].astype(np.float32)
    h, w = alpha.shape
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    shear = rng.normal(0, 0.12 * amount)
    sx, sy = np.exp(rng.normal(0, 0.08 * amount, 2))
    turn = rng.normal(0, 0.06 * amount)
    a = np.array([[math.cos(turn) * sx, -math.sin(turn) + shear], [math.sin(turn), math.cos(turn) * sy]])
    inverse = np.linalg.inv(a)
    affine = np.hstack([inverse, (np.array([cx, cy]) - inverse @ np.array([cx, cy]))[:, None]])
    size = max(box[2] - box[0], box[3] - box[1])
    grid = rng.normal(0, 0.025 * amount * size, (2, 5, 5)).astype(np.float32)
    dx, dy = (cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC) for g in grid)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    map_x = affine[0, 0] * xs + affine[0, 1] * ys + affine[0, 2] + dx
    map_y = affine[1, 0] * xs + affine[1, 1] * ys + affine[1, 2] + dy
    alpha = np.asarray(cv2.remap(alpha, map_x.astype(np.float32), map_y.astype(np.float32), cv2.INTER_LINEAR))
    # bolder by up to a few per cent of the glyph; thinner by one pixel at most, as thin fonts lose strokes
    bolder = rng.random() < 0.6
    k = round(abs(rng.normal(0, 0.012 * amount)) * size) if bolder else int(rng.random() < 0.5)
    if k:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
        alpha = np.asarray(cv2.dilate(alpha, kernel) if bolder else cv2.erode(alpha, kernel), np.float32)
    out = np.zeros((h, w, 4), np.uint8)
    out[..., :3] = color
    out[..., 3] = np.clip(alpha, 0, 255).astype(np.uint8)
    return Image.fromarray(out)


# ---------------------------------------------------------------------------- suits

# dot centres per rank, in face units, with a colour key each (r, g, b)
# (x, y, colour key) of each dot or stick on a face, in face units
Spots = list[tuple[float, float, str]]

_DOTS: dict[int, Spots] = {
    2: [(0.5, 0.28, "g"), (0.5, 0.72, "b")],
    3: [(0.24, 0.2, "b"), (0.5, 0.5, "r"), (0.76, 0.8, "g")],
    4: [(0.28, 0.28, "b"), (0.72, 0.28, "g"), (0.28, 0.72, "g"), (0.72, 0.72, "b")],
    5: [(0.25, 0.22, "b"), (0.75, 0.22, "g"), (0.5, 0.5, "r"), (0.25, 0.78, "g"), (0.75, 0.78, "b")],
    6: [(0.3, 0.16, "g"), (0.7, 0.16, "g")] + [(x, y, "r") for y in (0.55, 0.83) for x in (0.3, 0.7)],
    7: [(0.22, 0.12, "g"), (0.5, 0.22, "g"), (0.78, 0.32, "g")]
    + [(x, y, "r") for y in (0.6, 0.85) for x in (0.3, 0.7)],
    8: [(x, y, "b") for y in (0.14, 0.38, 0.62, 0.86) for x in (0.3, 0.7)],
    9: [(x, y, c) for y, c in ((0.18, "b"), (0.5, "r"), (0.82, "g")) for x in (0.2, 0.5, 0.8)],
}
_DOT_R = {2: 0.2, 3: 0.15, 4: 0.17, 5: 0.15, 6: 0.13, 7: 0.12, 8: 0.105, 9: 0.12}

# `Layout.pips` "grid": the ranks drawn otherwise than in `_DOTS` (the rest as there)
_DOTS_GRID: dict[int, Spots] = {
    3: [(0.5, 0.18, "b"), (0.5, 0.5, "r"), (0.5, 0.82, "g")],
    6: [(x, y, "g" if y < 0.3 else "r") for y in (0.18, 0.5, 0.82) for x in (0.3, 0.7)],
    7: [(x, 0.18, "g") for x in (0.2, 0.5, 0.8)]
    + [(0.5, 0.5, "b")]
    + [(x, 0.82, "r") for x in (0.2, 0.5, 0.8)],
    8: [(x, 0.18, "b") for x in (0.2, 0.5, 0.8)]
    + [(x, 0.5, "r") for x in (0.3, 0.7)]
    + [(x, 0.82, "b") for x in (0.2, 0.5, 0.8)],
}
_DOT_R_GRID = {3: 0.14, 6: 0.13, 7: 0.11, 8: 0.11}


def dot_spots(layout: Layout, rank: int) -> tuple[Spots, float]:
    """The dot centres of `rank` (2-9) in the layout's arrangement, and the dots' radius before scaling."""
    if layout.pips == "grid" and rank in _DOTS_GRID:
        return _DOTS_GRID[rank], _DOT_R_GRID[rank]
    return _DOTS[rank], _DOT_R[rank]


def placed_dots(layout: Layout, rank: int) -> tuple[Spots, float]:
    """The dots of `rank` (2-9) where the layout puts them, and their radius (face widths)."""
    centres, radius = dot_spots(layout, rank)
    spots = placed(layout, centres, rank, radius * 0.9)
    return spots, min(radius * layout.dot_scale, largest_radius(spots))


def palette_colour(p: Palette, key: str, swap: str = "rgb") -> RGB:
    key = swap["rgb".index(key)] if key in "rgb" else key
    return {"r": p.red, "g": p.green, "b": p.blue, "k": p.black}[key]


def wind_colour(recipe: FaceRecipe, code: str) -> RGB:
    """The ink of wind `code`'s character in this set."""
    return palette_colour(recipe.palette, recipe.wind_inks["ESWN".index(code)])


def placed(layout: Layout, spots: Spots, rank: int, margin: float) -> Spots:
    """Spots moved by the layout's spread and jitter, kept `margin` inside the face."""
    rng = np.random.default_rng([layout.seed, rank])
    out = []
    for x, y, key in spots:
        dx, dy = rng.normal(0.0, layout.jitter, 2) if layout.jitter else (0.0, 0.0)
        nx = 0.5 + (x - 0.5) * layout.spread + dx
        ny = 0.5 + (y - 0.5) * layout.spread + dy
        out.append((min(max(nx, margin), 1 - margin), min(max(ny, margin * 0.75), 1 - margin * 0.75), key))
    return out


def coloured(layout: Layout, spots: Spots, rank: int) -> Spots:
    """`spots` with their colour keys set by the layout's `suit_colours` scheme."""
    scheme = layout.suit_colours
    if scheme == "mono":
        return [(x, y, layout.mono_key) for x, y, _ in spots]
    if scheme == "rows":
        rows = sorted({round(y, 1) for _, y, _ in spots})
        return [(x, y, "rgb"[rows.index(round(y, 1)) % 3]) for x, y, _ in spots]
    if scheme == "random":
        rng = np.random.default_rng([layout.seed, rank, 7])
        return [(x, y, str(rng.choice(list("rgb")))) for x, y, _ in spots]
    return spots


def largest_radius(spots: Spots) -> float:
    """The biggest dot radius (face widths) at which dots on `spots` neither overlap nor leave the face."""
    aspect = FACE_H / FACE_W
    edge = min(min(x, 1 - x, y * aspect, (1 - y) * aspect) for x, y, _ in spots)
    pairs = [(a, b) for i, a in enumerate(spots) for b in spots[i + 1 :]]
    gaps = [math.hypot(a[0] - b[0], (a[1] - b[1]) * aspect) / 2 for a, b in pairs]
    return 0.98 * min([edge, *gaps])


def scaled(box: Box, factor: float) -> Box:
    """`box` grown or shrunk about its centre."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    hw, hh = (box[2] - box[0]) / 2 * factor, (box[3] - box[1]) / 2 * factor
    return (cx - hw, cy - hh, cx + hw, cy + hh)


def draw_dot(pen: Pen, recipe: FaceRecipe, cx: float, cy: float, r: float, key: str) -> None:
    p = recipe.palette
    c = palette_colour(p, key, recipe.layout.dot_colours)
    if recipe.dots == "solid":
        pen.circle(cx, cy, r, fill=c)
        pen.circle(cx, cy, r * 0.45, fill=p.ground)
        pen.circle(cx, cy, r * 0.25, fill=c)
    elif recipe.dots == "flower":
        for k in range(8):
            a = k * math.pi / 4
            pen.circle(
                cx + 0.62 * r * math.cos(a), cy + 0.62 * r * math.sin(a) * FACE_W / FACE_H, r * 0.38, fill=c
            )
        pen.circle(cx, cy, r * 0.42, fill=p.ground)
        pen.circle(cx, cy, r * 0.22, fill=p.red if key != "r" else p.blue)
    elif recipe.dots == "compound":
        draw_compound_dot(pen, recipe.layout, cx, cy, r, c, p)
    else:  # rings
        pen.circle(cx, cy, r, outline=c, width=r * 0.28)
        pen.circle(cx, cy, r * 0.55, outline=c, width=r * 0.12)
        pen.circle(cx, cy, r * 0.2, fill=c)


def draw_compound_dot(pen: Pen, layout: Layout, cx: float, cy: float, r: float, c: RGB, p: Palette) -> None:
    """A dot built from the layout's parts: a disc or ring outlines, a ring of petals, a centre.

    Makers draw dots in endless designs (coins, flowers, suns); a reader should count dots,
    whatever is painted inside them.
    """
    if layout.dot_disc:
        pen.circle(cx, cy, r, fill=c)
        inner = p.ground
    else:
        inner = c
    for k in range(layout.dot_rings):
        pen.circle(cx, cy, r * (1 - 0.2 * k), outline=c if not layout.dot_disc else p.ground, width=r * 0.1)
    squash = FACE_W / FACE_H
    for k in range(layout.petals):
        a = 2 * math.pi * k / layout.petals
        colour = inner if k % 2 == 0 or layout.dot_disc else palette_colour(p, "r" if c != p.red else "b")
        pen.circle(cx + 0.5 * r * math.cos(a), cy + 0.5 * r * math.sin(a) * squash, r * 0.2, fill=colour)
    pen.circle(cx, cy, r * 0.22, fill=inner if layout.dot_disc else p.red if c != p.red else p.blue)


ONE_DOT_RADIUS = 0.42  # face widths, about the face centre


def draw_one_dot(pen: Pen, recipe: FaceRecipe) -> None:
    p = recipe.palette
    pen.circle(0.5, 0.5, ONE_DOT_RADIUS, fill=p.green)
    pen.circle(0.5, 0.5, 0.36, fill=p.ground)
    for k in range(16):
        a = k * math.pi / 8
        pen.circle(
            0.5 + 0.29 * math.cos(a),
            0.5 + 0.29 * math.sin(a) * FACE_W / FACE_H,
            0.045,
            fill=p.blue if k % 2 else p.red,
        )
    pen.circle(0.5, 0.5, 0.2, fill=p.red)
    pen.circle(0.5, 0.5, 0.12, fill=p.ground)
    pen.circle(0.5, 0.5, 0.06, fill=p.green)


def stick_width(recipe: FaceRecipe) -> float:
    """A stick's width (face widths): the layout's, else the recipe's kind of bamboo's."""
    return recipe.layout.stick_width or (0.075 if recipe.bamboo == "sticks" else 0.05)


def draw_stick(
    pen: Pen, recipe: FaceRecipe, cx: float, cy: float, length: float, colour: RGB, angle: float = 0.0
) -> None:
    """One bamboo stick: a rod with a joint in the middle and knobs at the ends."""
    w = stick_width(recipe)
    dx, dy = math.sin(angle) * length / 2 * FACE_H / FACE_W, math.cos(angle) * length / 2
    a, b = (cx - dx, cy - dy), (cx + dx, cy + dy)
    pen.line([a, b], colour, w)
    if recipe.bamboo == "hollow":  # an outlined rod, as line-drawn sets print it
        pen.line([a, b], recipe.palette.ground, w * 0.5)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    for q in (a, mid, b):
        pen.line([(q[0] - w * 0.8, q[1]), (q[0] + w * 0.8, q[1])], colour, w * 0.45)
    pen.line([(cx - dx * 0.6, cy - dy * 0.6), (cx - dx * 0.1, cy - dy * 0.1)], recipe.palette.ground, w * 0.2)


_STICKS: dict[int, Spots] = {
    2: [(0.5, 0.27, "g"), (0.5, 0.73, "g")],
    3: [(0.5, 0.27, "g"), (0.3, 0.73, "g"), (0.7, 0.73, "g")],
    4: [(0.3, 0.27, "g"), (0.7, 0.27, "b"), (0.3, 0.73, "b"), (0.7, 0.73, "g")],
    5: [(0.25, 0.27, "g"), (0.75, 0.27, "b"), (0.5, 0.5, "r"), (0.25, 0.73, "b"), (0.75, 0.73, "g")],
    6: [(x, y, "g") for y in (0.27, 0.73) for x in (0.22, 0.5, 0.78)],
    7: [(0.5, 0.16, "r")] + [(x, y, "g") for y in (0.5, 0.82) for x in (0.22, 0.5, 0.78)],
    9: [(x, y, "r" if x == 0.5 else "g") for y in (0.17, 0.5, 0.83) for x in (0.22, 0.5, 0.78)],
}
_STICK_LENGTH = {2: 0.38, 3: 0.38, 4: 0.38, 5: 0.38, 6: 0.38, 7: 0.26, 9: 0.27}

# `Layout.pips` "grid": the ranks drawn otherwise than in `_STICKS` (8 upright in two rows of four)
_STICKS_GRID: dict[int, Spots] = {
    3: [(x, 0.5, "g") for x in (0.25, 0.5, 0.75)],
    6: [(x, y, "g") for y in (0.17, 0.5, 0.83) for x in (0.3, 0.7)],
    8: [(x, y, "g") for y in (0.27, 0.73) for x in (0.14, 0.38, 0.62, 0.86)],
}
_STICK_LENGTH_GRID = {3: 0.7, 6: 0.25, 8: 0.36}


def stick_spots(layout: Layout, rank: int) -> tuple[Spots, float]:
    """The stick centres of `rank` (2-9 but 8 in the classic arrangement) and the sticks' length."""
    if layout.pips == "grid" and rank in _STICKS_GRID:
        return _STICKS_GRID[rank], _STICK_LENGTH_GRID[rank]
    return _STICKS[rank], _STICK_LENGTH[rank]


# (x, y, colour key, angle, length) of each stick on a face, in face units
StickPoses = list[tuple[float, float, str, float, float]]


def placed_sticks(layout: Layout, rank: int) -> StickPoses:
    """The sticks of `rank` (2-9) where the layout puts them, each with its slant and length."""
    if rank == 8 and layout.pips == "classic":
        # the M over W arrangement of the real 8 of bamboo: upright outer sticks, slanted inner ones
        slant = {0.38: 0.45, 0.62: -0.45, 0.13: 0.0, 0.87: 0.0}
        poses = []
        for y in (0.27, 0.73):
            for x in (0.13, 0.38, 0.62, 0.87):
                angle = slant[x] * (1 if y < 0.5 else -1)
                poses.append((x, y, "g", angle, 0.36 if angle == 0.0 else 0.38))
        return poses
    spots, length = stick_spots(layout, rank)
    length *= layout.stick_length
    return [(x, y, key, 0.0, length) for x, y, key in placed(layout, spots, rank + 10, 0.12)]


# the 1 of bamboo's bird of a set's own (`Layout.bird`), drawn from the set's seed
OWN_BIRDS: dict[str, Callable[[Pen, np.random.Generator, Palette], None]] = {
    "random": draw_random_bird,
    "brush": draw_brush_bird,
}


def draw_bamboo(pen: Pen, recipe: FaceRecipe, rank: int) -> None:
    p = recipe.palette
    if rank == 1:
        if recipe.layout.bird in OWN_BIRDS:
            rng = np.random.default_rng([recipe.layout.seed, 11])
            draw_own = OWN_BIRDS[recipe.layout.bird]
            picture(pen, recipe, lambda q: draw_own(q, rng, p))
        elif recipe.layout.vary_bird or recipe.layout.line_art:
            picture(pen, recipe, lambda q: draw_bird(q, p))
        else:
            draw_bird(pen, p)
        return
    swap = recipe.layout.dot_colours
    poses = placed_sticks(recipe.layout, rank)
    keys = coloured(recipe.layout, [(x, y, key) for x, y, key, _, _ in poses], rank + 10)
    for (x, y, _, angle, length), (_, _, key) in zip(poses, keys, strict=True):
        draw_stick(pen, recipe, x, y, length, palette_colour(p, key, swap), angle=angle)


def draw_bird(pen: Pen, p: Palette) -> None:
    """The 1 of bamboo: a peacock-like bird standing on a branch."""
    pen.ellipse((0.28, 0.34, 0.74, 0.7), fill=p.green)
    pen.poly([(0.42, 0.62), (0.2, 0.95), (0.5, 0.86), (0.8, 0.95), (0.62, 0.62)], fill=p.blue)
    for x in (0.3, 0.5, 0.7):
        pen.circle(x, 0.86, 0.04, fill=p.red)
    pen.ellipse((0.55, 0.14, 0.78, 0.36), fill=p.red)
    pen.poly([(0.76, 0.23), (0.92, 0.27), (0.76, 0.3)], fill=p.black)
    pen.circle(0.68, 0.22, 0.018, fill=p.ground)
    pen.line([(0.6, 0.34), (0.56, 0.42)], p.red, 0.05)
    pen.line([(0.05, 0.74), (0.95, 0.7)], p.black, 0.025)
    pen.ellipse((0.3, 0.42, 0.55, 0.6), fill=p.blue)


# ---------------------------------------------------------------------------- pictures


def draw_flower_picture(pen: Pen, code: str, p: Palette) -> None:
    stem = (80, 60, 40)
    if code == "F1":  # plum: dark branch, round pink five-petal blossoms
        pen.line([(0.15, 0.95), (0.4, 0.6), (0.5, 0.35), (0.8, 0.15)], stem, 0.045)
        pen.line([(0.4, 0.6), (0.8, 0.55)], stem, 0.03)
        for cx, cy in ((0.5, 0.33), (0.78, 0.18), (0.72, 0.55), (0.32, 0.7)):
            for k in range(5):
                a = k * 2 * math.pi / 5
                pen.circle(cx + 0.07 * math.cos(a), cy + 0.052 * math.sin(a), 0.055, fill=(225, 80, 120))
            pen.circle(cx, cy, 0.03, fill=(250, 210, 60))
    elif code == "F2":  # orchid: long arching leaves, purple flowers
        for sx, ex, ey in ((0.5, 0.1, 0.3), (0.5, 0.9, 0.35), (0.45, 0.3, 0.15), (0.55, 0.75, 0.12)):
            pen.line([(sx, 0.95), ((sx + ex) / 2, 0.55), (ex, ey)], p.green, 0.03)
        for cx, cy in ((0.35, 0.45), (0.65, 0.5), (0.5, 0.3)):
            pen.ellipse((cx - 0.1, cy - 0.05, cx + 0.1, cy + 0.05), fill=(140, 60, 170))
            pen.circle(cx, cy, 0.03, fill=(250, 220, 80))
    elif code == "F3":  # chrysanthemum: one big radial yellow-orange bloom
        pen.line([(0.5, 0.95), (0.5, 0.6)], p.green, 0.04)
        pen.ellipse((0.18, 0.7, 0.48, 0.82), fill=p.green)
        for k in range(18):
            a = k * 2 * math.pi / 18
            pen.line([(0.5, 0.4), (0.5 + 0.3 * math.cos(a), 0.4 + 0.22 * math.sin(a))], (230, 150, 20), 0.05)
        pen.circle(0.5, 0.4, 0.1, fill=(200, 90, 20))
    else:  # F4 bamboo: segmented stalks with leaves
        for x in (0.35, 0.62):
            pen.line([(x, 0.95), (x, 0.08)], p.green, 0.08)
            for y in (0.3, 0.55, 0.8):
                pen.line([(x - 0.05, y), (x + 0.05, y)], (30, 80, 40), 0.02)
        for (x0, y0), (x1, y1) in (
            ((0.62, 0.3), (0.9, 0.18)),
            ((0.35, 0.45), (0.08, 0.35)),
            ((0.62, 0.6), (0.92, 0.55)),
            ((0.35, 0.2), (0.12, 0.08)),
        ):
            pen.line([(x0, y0), (x1, y1)], (60, 150, 70), 0.05)


def draw_season_picture(pen: Pen, code: str, p: Palette) -> None:
    if code == "S1":  # spring: a budding tree
        pen.line([(0.5, 0.95), (0.5, 0.5)], (110, 70, 40), 0.07)
        for cx, cy in ((0.5, 0.35), (0.3, 0.45), (0.7, 0.45), (0.4, 0.22), (0.62, 0.24)):
            pen.circle(cx, cy, 0.15, fill=(120, 190, 90))
        for cx, cy in ((0.35, 0.35), (0.6, 0.3), (0.5, 0.48)):
            pen.circle(cx, cy, 0.04, fill=(240, 130, 170))
    elif code == "S2":  # summer: sun over waves
        pen.circle(0.5, 0.32, 0.22, fill=(240, 90, 30))
        for k in range(12):
            a = k * math.pi / 6
            pen.line(
                [
                    (0.5 + 0.3 * math.cos(a), 0.32 + 0.22 * math.sin(a)),
                    (0.5 + 0.4 * math.cos(a), 0.32 + 0.29 * math.sin(a)),
                ],
                (240, 160, 30),
                0.025,
            )
        for y in (0.72, 0.84):
            pen.line(
                [(0.08, y), (0.25, y - 0.05), (0.42, y), (0.58, y - 0.05), (0.75, y), (0.92, y - 0.05)],
                p.blue,
                0.035,
            )
    elif code == "S3":  # autumn: falling maple leaves
        for cx, cy, c in (
            (0.35, 0.3, (200, 60, 20)),
            (0.65, 0.5, (220, 120, 20)),
            (0.4, 0.75, (170, 40, 30)),
        ):
            for k in range(5):
                a = -math.pi / 2 + (k - 2) * 0.6
                pen.line([(cx, cy), (cx + 0.16 * math.cos(a), cy + 0.12 * math.sin(a))], c, 0.06)
            pen.line([(cx, cy), (cx, cy + 0.1)], c, 0.02)
    else:  # S4 winter: snowflake over a snowy pine
        pen.poly([(0.5, 0.35), (0.2, 0.9), (0.8, 0.9)], fill=(30, 100, 60))
        pen.poly([(0.5, 0.35), (0.35, 0.62), (0.65, 0.62)], fill=(235, 240, 250), outline=(30, 100, 60))
        for k in range(3):
            a = k * math.pi / 3
            dx, dy = 0.16 * math.cos(a), 0.12 * math.sin(a)
            pen.line([(0.5 - dx, 0.2 - dy), (0.5 + dx, 0.2 + dy)], p.blue, 0.025)


BONUS_CODES = tuple(FLOWER_CHARS) + tuple(SEASON_CHARS)


def bonus_picture_code(layout: Layout, code: str) -> str:
    """The bonus tile whose own picture `code` shows under `layout.bonus_pictures` ("own"/"shuffled")."""
    if layout.bonus_pictures != "shuffled":
        return code
    order = np.random.default_rng([layout.seed, 8]).permutation(len(BONUS_CODES))
    return BONUS_CODES[int(order[BONUS_CODES.index(code)])]


def random_plant_index(layout: Layout, code: str) -> int:
    """Which of the set's made-up plants bonus tile `code` shows: its own ("random"), its group's
    ("shared": flowers 0, seasons 1) or the set's one ("one")."""
    if layout.bonus_pictures == "one":
        return 0
    if layout.bonus_pictures == "shared":
        return 0 if code in FLOWER_CHARS else 1
    return BONUS_CODES.index(code)


def draw_bonus_picture(pen: Pen, layout: Layout, code: str, p: Palette) -> None:
    if layout.bonus_pictures in ("random", "shared", "one"):
        draw_random_plant(pen, np.random.default_rng([layout.seed, 9, random_plant_index(layout, code)]))
        return
    shown = bonus_picture_code(layout, code)
    if shown in FLOWER_CHARS:
        draw_flower_picture(pen, shown, p)
    else:
        draw_season_picture(pen, shown, p)


def _random_rgb(rng: np.random.Generator, low: int, high: int) -> RGB:
    r, g, b = (int(c) for c in rng.integers(low, high, 3))
    return (r, g, b)


def draw_random_plant(pen: Pen, rng: np.random.Generator) -> None:
    """A plant no set prints: branching stems, leaves and blossoms of random count, size and colour."""
    stem = _random_rgb(rng, 30, 140)
    leaf = (int(rng.integers(20, 110)), int(rng.integers(100, 190)), int(rng.integers(30, 110)))
    bloom = _random_rgb(rng, 0, 256)
    heart = _random_rgb(rng, 120, 256)
    tips: list[tuple[float, float]] = []
    for _ in range(int(rng.integers(1, 4))):
        x = float(rng.uniform(0.25, 0.75))
        pts = [(x, 0.95)]
        for _ in range(3):
            x0, y0 = pts[-1]
            x1 = float(np.clip(x0 + rng.normal(0, 0.12), 0.1, 0.9))
            pts.append((x1, y0 - float(rng.uniform(0.15, 0.3))))
        pen.line(pts, stem, float(rng.uniform(0.015, 0.05)))
        tips += pts[1:]
    for x, y in tips:
        if rng.random() < 0.5:
            dx, dy = rng.normal(0, 0.12), rng.normal(0, 0.06)
            pen.line([(x, y), (x + dx, y + dy)], leaf, float(rng.uniform(0.03, 0.07)))
    petals, size = int(rng.integers(4, 13)), float(rng.uniform(0.04, 0.1))
    for x, y in tips[-int(rng.integers(1, len(tips) + 1)) :]:
        for k in range(petals):
            a = k * 2 * math.pi / petals
            pen.circle(x + size * math.cos(a), y + size * 0.8 * math.sin(a), size * 0.7, fill=bloom)
        pen.circle(x, y, size * 0.5, fill=heart)


def draw_animal_picture(pen: Pen, code: str, p: Palette) -> None:
    if code == "cat":
        fur = (215, 140, 50)
        pen.ellipse((0.2, 0.5, 0.8, 0.95), fill=fur)
        pen.ellipse((0.25, 0.15, 0.75, 0.55), fill=fur)
        pen.poly([(0.27, 0.3), (0.3, 0.05), (0.45, 0.2)], fill=fur)
        pen.poly([(0.73, 0.3), (0.7, 0.05), (0.55, 0.2)], fill=fur)
        for x in (0.4, 0.6):
            pen.ellipse((x - 0.05, 0.3, x + 0.05, 0.38), fill=(90, 170, 60))
            pen.line([(x, 0.31), (x, 0.37)], p.black, 0.015)
        pen.poly([(0.47, 0.42), (0.53, 0.42), (0.5, 0.45)], fill=(220, 90, 110))
        for dy in (-0.02, 0.02):
            pen.line([(0.4, 0.44 + dy), (0.15, 0.42 + 2 * dy)], p.black, 0.008)
            pen.line([(0.6, 0.44 + dy), (0.85, 0.42 + 2 * dy)], p.black, 0.008)
        pen.line([(0.8, 0.85), (0.95, 0.6), (0.88, 0.45)], fur, 0.05)
    elif code == "rat":
        fur = (125, 120, 125)
        pen.ellipse((0.15, 0.35, 0.75, 0.75), fill=fur)
        pen.poly([(0.7, 0.45), (0.95, 0.58), (0.7, 0.68)], fill=fur)
        pen.circle(0.68, 0.38, 0.09, fill=(230, 170, 170))
        pen.circle(0.8, 0.53, 0.02, fill=p.black)
        pen.circle(0.95, 0.58, 0.02, fill=(220, 90, 110))
        pen.line([(0.18, 0.6), (0.08, 0.8), (0.3, 0.92), (0.55, 0.9)], (200, 150, 150), 0.02)
        for x in (0.3, 0.55):
            pen.line([(x, 0.72), (x, 0.8)], fur, 0.03)
    elif code == "rooster":
        pen.ellipse((0.25, 0.4, 0.75, 0.8), fill=(200, 90, 30))
        pen.ellipse((0.5, 0.18, 0.72, 0.42), fill=(210, 120, 40))
        for k in range(3):
            pen.circle(0.55 + 0.06 * k, 0.16 - 0.02 * (k % 2), 0.05, fill=p.red)
        pen.poly([(0.72, 0.28), (0.85, 0.32), (0.72, 0.35)], fill=(240, 190, 40))
        pen.circle(0.64, 0.3, 0.018, fill=p.black)
        pen.ellipse((0.62, 0.38, 0.7, 0.48), fill=p.red)
        for k, c in enumerate((p.green, p.blue, p.black)):
            pen.line([(0.3, 0.55), (0.12 - 0.02 * k, 0.25 + 0.08 * k), (0.2, 0.15 + 0.1 * k)], c, 0.04)
        for x in (0.42, 0.56):
            pen.line([(x, 0.78), (x, 0.92), (x + 0.06, 0.95)], (230, 170, 40), 0.025)
    else:  # centipede: a segmented diagonal body with many legs
        pts = [(0.2 + 0.6 * t, 0.12 + 0.76 * t + 0.06 * math.sin(t * 9)) for t in np.linspace(0, 1, 11)]
        for k, (x, y) in enumerate(pts):
            for side in (-1, 1):
                pen.line([(x, y), (x + 0.13 * side, y - 0.06 * side)], (60, 40, 30), 0.012)
            pen.circle(x, y, 0.055 if k else 0.07, fill=(150, 50, 30) if k else (40, 30, 30))
        pen.line([pts[0], (0.12, 0.05)], (60, 40, 30), 0.012)
        pen.line([pts[0], (0.28, 0.03)], (60, 40, 30), 0.012)


def draw_face_picture(pen: Pen, p: Palette, variant: int = 0) -> None:
    """The Malaysian `face` tile: a portrait in an oval frame (hat, hair and skin vary)."""
    skins = ((240, 200, 160), (225, 180, 140), (250, 215, 185), (205, 160, 120))
    pen.ellipse((0.12, 0.12, 0.88, 0.88), outline=(p.red, p.blue, p.green, p.black)[variant % 4], width=0.035)
    pen.ellipse((0.28, 0.22, 0.72, 0.75), fill=skins[variant % 4])
    hair = ((20, 20, 20), (90, 50, 20), (150, 150, 150), (40, 30, 30))[(variant // 2) % 4]
    pen.poly([(0.26, 0.42), (0.3, 0.16), (0.7, 0.16), (0.74, 0.42), (0.62, 0.25), (0.38, 0.25)], fill=hair)
    if variant % 3 == 1:  # an official's hat
        pen.rect((0.24, 0.06, 0.76, 0.2), fill=p.black, radius=0.03)
        pen.rect((0.14, 0.16, 0.86, 0.21), fill=p.red, radius=0.02)
    elif variant % 3 == 2:  # a beard
        pen.poly([(0.36, 0.68), (0.5, 0.9), (0.64, 0.68)], fill=hair)
    for x in (0.41, 0.59):
        pen.circle(x, 0.45, 0.025, fill=p.black)
    pen.line([(0.5, 0.5), (0.48, 0.58)], (180, 120, 90), 0.015)
    pen.line([(0.42, 0.64), (0.5, 0.67), (0.58, 0.64)], p.red, 0.02)
    pen.poly([(0.22, 0.88), (0.35, 0.75), (0.65, 0.75), (0.78, 0.88)], fill=p.blue)


# ---------------------------------------------------------------------------- whole faces


def bonus_numeral_script(recipe: FaceRecipe, code: str) -> str:
    """ "arabic" or "chinese": how the set numbers flower or season `code`."""
    flowers, _, seasons = recipe.bonus_numerals.partition("/")
    return flowers if code in FLOWER_CHARS or not seasons else seasons


def character_numeral(recipe: FaceRecipe, rank: int) -> str:
    """The rank printed on a character tile (some sets write 5 as 伍)."""
    return recipe.five if rank == 5 else CN_NUMERALS[rank - 1]


def bonus_number_box(layout: Layout, code: str) -> Box:
    """Where flower or season `code` prints its number (within the art's inset, 0..1)."""
    if code in SEASON_CHARS and layout.season_number_box is not None:
        return layout.season_number_box
    return layout.bonus_number_box


def _bonus_number(pen: Pen, recipe: FaceRecipe, code: str, colour: RGB) -> None:
    n = int(code[1])
    box = bonus_number_box(recipe.layout, code)
    bold = recipe.layout.bonus_number_bold
    target = Pen(Image.new("RGBA", pen.image.size, (0, 0, 0, 0))) if bold > 0 else pen
    if bonus_numeral_script(recipe, code) == "chinese" and recipe.layout.bonus_number_brush:
        draw_brush_numeral(target.draw, n, target.box(box), colour, [recipe.layout.seed, n, 73])
    elif bonus_numeral_script(recipe, code) == "chinese":
        glyph(target, recipe, CN_NUMERALS[n - 1], box, colour)
    elif recipe.font is not None:
        draw_text_fit(target, str(n), box, colour, recipe.font, recipe.font_index)
    else:
        digit_box = (box[0] + 0.02, box[1], box[2] - 0.04, box[3])
        draw_strokes(target.draw, str(n), target.box(digit_box), colour, weight=0.16)
    if bold > 0:
        pen.image.alpha_composite(grown_ink(target.image, colour, bold * (box[2] - box[0]) * pen.w))


def grown_ink(layer: Image.Image, colour: RGB, radius_px: float) -> Image.Image:
    """`layer`'s ink (one colour) grown by `radius_px` on every side, as a bolder print of it."""
    alpha = np.asarray(layer)[..., 3]
    k = max(1, round(radius_px))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    out = np.zeros((*alpha.shape, 4), np.uint8)
    out[..., :3] = colour
    out[..., 3] = cv2.dilate(alpha, kernel)
    return Image.fromarray(out)


INDEX_BOX: Box = (0.0, 0.0, 0.16, 0.14)


def draw_corner_index(pen: Pen, recipe: FaceRecipe, code: str) -> None:
    """The small index some sets print in a corner: the rank of a suit tile, the letter of a wind."""
    if len(code) == 2 and code[0].isdigit():
        text, colour = code[0], recipe.palette.black if code[1] == "p" else recipe.palette.red
    elif code in WIND_CHARS and recipe.font is not None:  # the wind's code is its letter
        text, colour = code, recipe.palette.black
    else:
        return
    if recipe.font is not None:
        draw_text_fit(pen, text, INDEX_BOX, colour, recipe.font, recipe.font_index)
    elif text in STROKES:  # the stroke table has the digits 1-4 only
        draw_strokes(pen.draw, text, pen.box(INDEX_BOX), colour, weight=0.16)


def draw_code(pen: Pen, recipe: FaceRecipe, code: str) -> None:
    """Draw the printed side of tile `code` (everything but the ground)."""
    if recipe.layout.corner_index:
        draw_corner_index(pen, recipe, code)
    p = recipe.palette
    if len(code) == 2 and code[0].isdigit():
        rank, suit = int(code[0]), code[1]
        if suit == "m":
            num = p.blue if recipe.numeral_color == "blue" else p.black
            glyph(pen, recipe, character_numeral(recipe, rank), recipe.layout.numeral_box, num)
            glyph(pen, recipe, "萬", recipe.layout.wan_box, p.red)
        elif suit == "p":
            if rank == 1:
                draw_one_dot(pen, recipe)
            else:
                spots, r = placed_dots(recipe.layout, rank)
                for x, y, key in coloured(recipe.layout, spots, rank):
                    draw_dot(pen, recipe, x, y, r, key)
        else:
            draw_bamboo(pen, recipe, rank)
    elif code in WIND_CHARS:
        wind_ink = wind_colour(recipe, code)
        if recipe.layout.wind_names and recipe.font is not None:
            name = english_name(recipe.layout, code)
            draw_text_fit(pen, name, WIND_NAME_BOX, p.red, recipe.font, recipe.font_index)
            box = scaled((0.12, 0.22, 0.88, 0.96), min(1.0, recipe.layout.char_scale))
        else:
            box = scaled((0.1, 0.14, 0.9, 0.86), recipe.layout.char_scale)
        glyph(pen, recipe, WIND_CHARS[code], box, wind_ink)
    elif code == "C":
        glyph(pen, recipe, "中", scaled((0.1, 0.12, 0.9, 0.88), recipe.layout.char_scale), p.red)
    elif code == "F":
        glyph(pen, recipe, "發", scaled((0.08, 0.12, 0.92, 0.88), recipe.layout.char_scale), p.green)
    elif code == "P":
        if recipe.white_dragon == "frame":
            pen.rect((0.12, 0.1, 0.88, 0.9), outline=p.blue, width=0.05, radius=0.04)
            pen.rect((0.22, 0.19, 0.78, 0.81), outline=p.blue, width=0.025, radius=0.02)
    elif code in FLOWER_CHARS or code in SEASON_CHARS:
        picture(pen, recipe, lambda q: draw_bonus_picture(q, recipe.layout, code, p))
        ink = recipe.layout.bonus_ink[0 if code in FLOWER_CHARS else 1]
        if recipe.layout.bonus_numbers:
            _bonus_number(pen, recipe, code, palette_colour(p, ink))
        if recipe.font is not None and recipe.layout.bonus_names:
            name_ink = palette_colour(p, recipe.layout.bonus_name_ink)
            if recipe.layout.name_script == "english":
                name, box = english_name(recipe.layout, code), recipe.layout.english_name_box
            else:
                name, box = FLOWER_CHARS.get(code) or SEASON_CHARS[code], recipe.layout.bonus_char_box
            draw_text_fit(pen, name, box, name_ink, recipe.font, recipe.font_index)
    elif code in ("cat", "rat", "rooster", "centipede"):
        emoji = {"cat": "🐈", "rat": "🐀", "rooster": "🐓", "centipede": "🐛"}[code]
        if recipe.emoji_font is not None and Path(recipe.emoji_font).exists():
            draw_text_fit(pen, emoji, (0.1, 0.12, 0.9, 0.88), p.black, recipe.emoji_font, embedded_color=True)
        else:
            picture(pen, recipe, lambda q: draw_animal_picture(q, code, p))
        if recipe.font is not None and recipe.variant % 3 != 2:
            # many sets print the animal's name beside it
            name_ink = palette_colour(p, recipe.layout.animal_name_ink)
            box = recipe.layout.animal_name_box
            draw_text_fit(pen, ANIMAL_CHARS[code], box, name_ink, recipe.font, recipe.font_index)
    elif code == "face":
        picture(pen, recipe, lambda q: draw_face_picture(q, p, recipe.variant))
    elif code == "fly":
        glyph(pen, recipe, "飛", scaled((0.1, 0.14, 0.9, 0.86), recipe.layout.char_scale), p.blue)
    else:
        raise KeyError(f"no face drawing for tile code {code!r}")


ANIMAL_CHARS = {"cat": "貓", "rat": "鼠", "rooster": "雞", "centipede": "蜈蚣"}


def english_name(layout: Layout, code: str) -> str:
    """The English name of a bonus tile or wind, in the spelling this set (`layout.seed`) uses."""
    spellings = ENGLISH_NAMES[code]
    return spellings[layout.seed % len(spellings)]


def picture(pen: Pen, recipe: FaceRecipe, draw: Callable[[Pen], None]) -> None:
    """Draw a picture on its own layer, then vary it by the style's `variant`.

    Mirroring, a small hue/brightness change and a different size and place give each style its
    own version of the drawings that every style shares (bonus tiles, animals, `face`).
    """
    layer = Image.new("RGBA", pen.image.size, (0, 0, 0, 0))
    draw(Pen(layer))
    v = recipe.variant
    if v % 2:
        layer = ImageOps.mirror(layer)
    if v:
        arr = np.array(layer)
        hsv = cv2.cvtColor(arr[..., :3], cv2.COLOR_RGB2HSV).astype(np.int16)
        hsv[..., 0] = (hsv[..., 0] + (v * 7) % 15 - 7) % 180
        hsv[..., 2] = np.clip(hsv[..., 2] * (0.85 + 0.05 * (v % 4)), 0, 255)
        arr[..., :3] = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2RGB)
        layer = Image.fromarray(arr)
    if recipe.layout.line_art:
        layer = outline_layer(layer, recipe.palette.black if v % 3 else recipe.palette.red)
    scale = (1.0, 0.86, 0.78, 0.92)[v % 4]
    w, h = pen.image.size
    if scale != 1.0:
        layer = layer.resize((round(w * scale), round(h * scale)), Image.Resampling.LANCZOS)
    # smaller pictures sit low (under the number) or to one side
    dx = (w - layer.width) * (0.5, 0.5, 0.8, 0.2)[v % 4]
    dy = (h - layer.height) * (0.5, 0.9, 0.7, 0.6)[v % 4]
    pen.image.alpha_composite(layer, (round(dx), round(dy)))


def outline_layer(layer: Image.Image, ink: RGB) -> Image.Image:
    """The picture on `layer` as one-colour outlines: the edges of its shapes and colour areas."""
    arr = np.array(layer)
    alpha = arr[..., 3]
    # the picture over white, so shapes of any colour (and the picture's own edge) give edges
    grey = cv2.cvtColor(arr[..., :3], cv2.COLOR_RGB2GRAY).astype(np.float32)
    over_white = (grey * (alpha / 255.0) + 255.0 * (1 - alpha / 255.0)).astype(np.uint8)
    edges = cv2.Canny(over_white, 30, 90)
    width = max(1, round(layer.width * 0.012))
    edges = cv2.dilate(edges, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * width + 1, 2 * width + 1)))
    out = np.zeros_like(arr)
    out[..., :3] = ink
    out[..., 3] = edges
    return Image.fromarray(out)


def rounded_alpha(w: int, h: int, radius: float) -> np.ndarray:
    """Alpha mask (h, w) uint8 of a rounded rectangle, anti-aliased."""
    big = Image.new("L", (w * 4, h * 4), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w * 4 - 1, h * 4 - 1), radius=radius * 4, fill=255)
    return np.asarray(big.resize((w, h), Image.Resampling.BOX))


def finish_face(image: Image.Image) -> np.ndarray:
    """Shrink a supersampled face to FACE_W x FACE_H RGBA with rounded corners."""
    small = image.convert("RGBA").resize((FACE_W, FACE_H), Image.Resampling.LANCZOS)
    arr = np.array(small)
    arr[..., 3] = np.minimum(arr[..., 3], rounded_alpha(FACE_W, FACE_H, FACE_W * 0.1))
    return arr


def render_face(recipe: FaceRecipe, code: str) -> np.ndarray:
    """The face of `code` as an (FACE_H, FACE_W, 4) uint8 RGBA array."""
    image = Image.new("RGBA", (FACE_W * _SS, FACE_H * _SS), (*recipe.palette.ground, 255))
    # draw inside the layout's inset: the margin most sets keep, or (art_inset near 1) up to the edge
    inset_w, inset_h = recipe.layout.art_inset
    inner = Image.new(
        "RGBA", (round(FACE_W * _SS * inset_w), round(FACE_H * _SS * inset_h)), (*recipe.palette.ground, 255)
    )
    draw_code(Pen(inner), recipe, code)
    if recipe.layout.hollow_ink > 0:
        inner = hollow(inner, recipe.palette.ground, recipe.layout.hollow_ink * inner.width)
    image.alpha_composite(inner, ((image.width - inner.width) // 2, (image.height - inner.height) // 2))
    face = finish_face(image)
    return engrave(face, recipe.palette.ground) if recipe.engraved else face


def hollow(image: Image.Image, ground: RGB, stroke_px: float) -> Image.Image:
    """`image` (ink on `ground`) with the inside of every inked area painted back to the ground,
    leaving an outline `stroke_px` wide in the ink's own colour; strokes thinner than two outlines
    stay as they are."""
    arr = np.array(image)
    rgb = arr[..., :3].astype(np.int16)
    ink = (np.abs(rgb - np.array(ground, np.int16)).max(axis=2) > 40).astype(np.uint8)
    size = 2 * max(1, round(stroke_px)) + 1
    inside = cv2.erode(ink, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))).astype(bool)
    arr[inside, :3] = ground
    return Image.fromarray(arr)


def engrave(face: np.ndarray, ground: RGB) -> np.ndarray:
    """Carved-and-painted look: a dark lip on the upper-left edge of each stroke, a light one below.

    Real tiles have their art cut into the face and filled with paint; the cut's walls catch the
    light differently on opposite sides, which a flat drawing lacks.
    """
    rgb = face[..., :3].astype(np.float32)
    ink = (np.abs(rgb - np.array(ground, np.float32)).max(axis=2) > 40).astype(np.float32)
    ink = cv2.GaussianBlur(ink, (3, 3), 0)
    shifted = np.roll(np.roll(ink, 1, axis=0), 1, axis=1)
    lip_dark = np.clip(ink - shifted, 0, 1)  # stroke edges facing up-left
    lip_light = np.clip(shifted - ink, 0, 1)  # ground just below-right of a stroke
    rgb = rgb * (1 - 0.35 * lip_dark[..., None]) + 45 * lip_light[..., None]
    out = face.copy()
    out[..., :3] = np.clip(rgb, 0, 255).astype(np.uint8)
    return out


def render_back(colour: RGB) -> np.ndarray:
    """A face-down tile's top: the coloured back layer, slightly mottled."""
    rng = np.random.default_rng(sum(colour))
    arr = np.empty((FACE_H, FACE_W, 4), np.uint8)
    grain = 1 + 0.03 * rng.standard_normal((FACE_H // 8, FACE_W // 8)).astype(np.float32)
    shade = cv2.resize(grain, (FACE_W, FACE_H), interpolation=cv2.INTER_CUBIC)
    arr[..., :3] = np.clip(np.array(colour, np.float32) * shade[..., None], 0, 255).astype(np.uint8)
    arr[..., 3] = rounded_alpha(FACE_W, FACE_H, FACE_W * 0.1)
    return arr
