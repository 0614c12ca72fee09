"""Pictures for the app, drawn with Pillow: tile faces for the recognised hand, and the annotated photo.

No downloaded art and no CJK font (the machine may have none): suits are drawn as pips (dots, sticks)
or a large rank with a suit word, honours as letters and simple shapes, bonus tiles as labelled badges.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from app_ui.case import BONUS, HAND, IGNORE, MELD_GROUPS, TileRow

TILE_W, TILE_H = 54, 72
IVORY = (250, 246, 232)
EDGE = (120, 110, 90)
INK = (30, 40, 70)
RED = (196, 32, 38)
GREEN = (24, 130, 60)
BLUE = (30, 80, 170)
PURPLE = (120, 50, 150)
ORANGE = (175, 85, 0)  # 4.7:1 on ivory (was 2.95: the accessibility audit)

# Colours of the group outlines on the photo and under the tile pictures: Okabe and Ito's and Tol's
# colours, chosen so that no two are closer than 14 (CIELAB) seen with normal sight, deuteranopia or
# protanopia (an accessibility audit, stage 80: the colours before were 3 apart for the deuteranope,
# bonus against ignore), each outline seen (1.45:1 or more) on white, an ivory, a dark green and a
# dark navy table. Labels are written in white or black, whichever stands out more (`label_ink`):
# every label 4.5:1 or more.
GROUP_COLOURS: dict[str, tuple[int, int, int]] = {
    HAND: (0, 114, 178),
    MELD_GROUPS[0]: (17, 119, 51),
    MELD_GROUPS[1]: (238, 51, 119),
    MELD_GROUPS[2]: (86, 180, 233),
    MELD_GROUPS[3]: (170, 51, 119),
    BONUS: (230, 159, 0),
    IGNORE: (140, 140, 140),
}
LOW_CONF_COLOUR = (213, 94, 0)
# a box the reader judged to hold no tile: dashed dark grey on white, seen on a light or a dark table
LEFT_OUT_COLOUR = (70, 70, 70)
LEFT_OUT_EDGE = (255, 255, 255)
CAPTION_INK = (50, 50, 50)  # the group names under the tile pictures, on the page's white
Box = tuple[float, float, float, float]  # x1, y1, x2, y2

WIND_NAMES = {"E": "EAST", "S": "SOUTH", "W": "WEST", "N": "NORTH"}
SUIT_WORDS = {"m": "WAN", "p": "DOTS", "s": "BAM"}
# Pip positions (fractions of the face) for dots and bamboo, by rank.
PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.28), (0.5, 0.72)],
    3: [(0.25, 0.22), (0.5, 0.5), (0.75, 0.78)],
    4: [(0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)],
    5: [(0.28, 0.22), (0.72, 0.22), (0.5, 0.5), (0.28, 0.78), (0.72, 0.78)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    7: [(0.22, 0.16), (0.5, 0.24), (0.78, 0.32), (0.3, 0.6), (0.7, 0.6), (0.3, 0.84), (0.7, 0.84)],
    8: [
        (0.3, 0.16),
        (0.7, 0.16),
        (0.3, 0.39),
        (0.7, 0.39),
        (0.3, 0.62),
        (0.7, 0.62),
        (0.3, 0.85),
        (0.7, 0.85),
    ],
    9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.22, 0.5, 0.78)],
}


@lru_cache(maxsize=8)
def _font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    names = ["DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf"] if bold else ["DejaVuSans.ttf"]
    for name in names:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default()


def _centred_text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int]
) -> None:
    draw.text(xy, text, font=_font(size), fill=fill, anchor="mm")


def _face(draw: ImageDraw.ImageDraw, code: str, x0: int, y0: int, w: int, h: int) -> None:
    """Draw the face of one tile inside the box (x0, y0, w, h)."""
    cx, cy = x0 + w / 2, y0 + h / 2
    if len(code) == 2 and code[0].isdigit() and code[1] in "mps":
        rank, suit = int(code[0]), code[1]
        if suit == "m":
            _centred_text(draw, (cx, y0 + h * 0.36), str(rank), int(h * 0.5), INK)
            _centred_text(draw, (cx, y0 + h * 0.8), SUIT_WORDS[suit], int(h * 0.2), RED)
            return
        colours = [BLUE, GREEN, RED]
        r = max(2, int(min(w, h) * (0.16 if rank <= 4 else 0.11)))
        for k, (fx, fy) in enumerate(PIPS[rank]):
            px, py = x0 + fx * w, y0 + fy * h
            if suit == "p":
                colour = colours[k % 3] if rank > 1 else RED
                draw.ellipse((px - r, py - r, px + r, py + r), outline=colour, width=max(2, r // 2))
                draw.ellipse((px - r / 3, py - r / 3, px + r / 3, py + r / 3), fill=colour)
            else:
                colour = RED if (rank in (1, 5, 7, 9) and k == len(PIPS[rank]) // 2) else GREEN
                draw.rounded_rectangle(
                    (px - r * 0.45, py - r * 1.2, px + r * 0.45, py + r * 1.2), radius=2, fill=colour
                )
        draw.text((x0 + 2, y0 + 1), str(rank), font=_font(max(8, int(h * 0.16))), fill=INK)
        return
    if code in WIND_NAMES:
        _centred_text(draw, (cx, y0 + h * 0.4), code, int(h * 0.5), INK)
        _centred_text(draw, (cx, y0 + h * 0.82), WIND_NAMES[code], int(h * 0.16), INK)
    elif code == "C":  # red dragon: the shape of 中 drawn with lines
        bw = w * 0.55
        draw.rectangle((cx - bw / 2, cy - h * 0.16, cx + bw / 2, cy + h * 0.1), outline=RED, width=4)
        draw.line((cx, y0 + h * 0.12, cx, y0 + h * 0.88), fill=RED, width=5)
    elif code == "F":
        _centred_text(draw, (cx, y0 + h * 0.42), "F", int(h * 0.5), GREEN)
        _centred_text(draw, (cx, y0 + h * 0.82), "GREEN", int(h * 0.16), GREEN)
    elif code == "P":  # white dragon: an empty blue frame
        draw.rectangle((x0 + w * 0.18, y0 + h * 0.15, x0 + w * 0.82, y0 + h * 0.85), outline=BLUE, width=4)
    elif code == "back":
        draw.rounded_rectangle((x0, y0, x0 + w, y0 + h), radius=4, fill=(40, 120, 80))
    else:
        colour = PURPLE if code.startswith("F") else ORANGE if code.startswith("S") else RED
        label = {"centipede": "CENTI", "rooster": "ROOST"}.get(code, code.upper())
        draw.ellipse(
            (cx - w * 0.3, y0 + h * 0.12, cx + w * 0.3, y0 + h * 0.12 + w * 0.6), outline=colour, width=3
        )
        _centred_text(
            draw, (cx, y0 + h * 0.12 + w * 0.3), label[:2] if len(code) == 2 else "*", int(h * 0.22), colour
        )
        _centred_text(draw, (cx, y0 + h * 0.82), label if len(code) > 2 else "", int(h * 0.14), colour)


def tile_image(code: str, scale: int = 2) -> Image.Image:
    """One tile picture, drawn at `scale` times the size and reduced, for smooth edges (a copy of
    the one drawn once per face: the caller may draw on it)."""
    return _drawn_tile(code, scale).copy()


@lru_cache(maxsize=128)
def _drawn_tile(code: str, scale: int) -> Image.Image:
    """`tile_image`'s picture, drawn once per face and scale: the same for every hand, so a rerun does
    not draw a hand's 14-20 faces again (~0.7 ms each). Only read (pasted) by its users, never drawn on."""
    w, h = TILE_W * scale, TILE_H * scale
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=6 * scale, fill=EDGE)
    draw.rounded_rectangle((scale, scale, w - 1 - scale, h - 1 - 4 * scale), radius=6 * scale, fill=IVORY)
    pad = 4 * scale
    _face(draw, code, pad, pad, w - 2 * pad, h - 2 * pad - 3 * scale)
    return image.resize((TILE_W, TILE_H), Image.Resampling.LANCZOS)


PER_LINE = 8  # tiles a line of the tile pictures holds at most: a phone's width
BLOCK_GAP = 12  # px between two groups on a line
CAPTION_PX = 13  # the group names' size under the tile pictures
BAR_H = 3  # px: the bar in the group's colour under its tiles, above its name
LABEL_H = CAPTION_PX + BAR_H + 4
LINE_H = TILE_H + LABEL_H + 6  # a line of tile pictures: the tiles and their groups' labels under them


@dataclass(frozen=True)
class PlacedBlock:
    """A group's tiles placed in the tile pictures: at (`x`, `y`), `width` px wide, its tiles' or its
    label's, the wider (a lone tile is narrower than "meld 1: no meld yet")."""

    x: int
    y: int
    width: int
    label: str
    codes: Sequence[str]
    concealed: bool
    group: str = ""  # the group's name (`meld 1`), also on the lines a long row wraps to


def group_of_label(label: str) -> str:
    """The group a tile pictures' label names: `meld 1` of "meld 1 pong" or "meld 1: no meld yet"."""
    words = label.split(":")[0].split(" ")
    return " ".join(words[:2]) if label.startswith("meld") else words[0]


def place_blocks(
    groups: Sequence[tuple[str, Sequence[str], bool]], measure: Callable[[str], float]
) -> list[PlacedBlock]:
    """The groups (label, codes, concealed) laid left to right, wrapping to a new line, a long row split
    so a line holds at most `PER_LINE` tiles. Each block takes the room of its label too (`measure`: its
    width, px): under a lone tile the label had run into the next block's ("meld 1: no meld
    yetmeld 2 pong")."""
    chunks: list[tuple[str, Sequence[str], bool, str]] = []  # label shown, codes, concealed, group's label
    for label, codes, concealed in groups:
        for start in range(0, len(codes), PER_LINE):
            chunks.append((label if start == 0 else "", codes[start : start + PER_LINE], concealed, label))
    max_w = PER_LINE * (TILE_W + 2)
    placed: list[PlacedBlock] = []
    x = y = 0
    for label, codes, concealed, named in chunks:
        width = max(len(codes) * (TILE_W + 2), math.ceil(measure(label)) if label else 0)
        if x and x + width > max_w:
            x, y = 0, y + LINE_H
        placed.append(PlacedBlock(x, y, width, label, codes, concealed, group_of_label(named)))
        x += width + BLOCK_GAP
    return placed


def label_width(label: str) -> float:
    """A group's label's width, px, in the font `hand_picture` draws it in."""
    return ImageDraw.Draw(Image.new("RGB", (1, 1))).textlength(label, font=_font(CAPTION_PX, bold=False))


def hand_picture(groups: Sequence[tuple[str, Sequence[str], bool]]) -> Image.Image | None:
    """Tile pictures for the hand: one block per group (label, codes, concealed), wrapped to fit a phone.

    Groups are laid left to right and wrap to a new line (`place_blocks`), so the picture is never much
    wider than about 8 tiles and the page needs no horizontal scroll.
    """
    placed = place_blocks(groups, label_width)
    if not placed:
        return None
    width = max(block.x + block.width for block in placed)
    # Always `PER_LINE` tiles wide (transparent on the right): shown at the column's width, the tiles
    # then have the same size for every hand, and never overflow a phone screen.
    size = (max(width, PER_LINE * (TILE_W + 2)), placed[-1].y + LINE_H)
    canvas = Image.new("RGBA", size, (255, 255, 255, 0))
    draw = ImageDraw.Draw(canvas)
    for block in placed:
        bx, by, label = block.x, block.y, block.label
        for k, code in enumerate(block.codes):
            # A concealed kong is shown as it lies on the table: the two end tiles face down.
            show = "back" if block.concealed and len(block.codes) == 4 and k in (0, 3) else code
            canvas.alpha_composite(_drawn_tile(show, 2), (bx + k * (TILE_W + 2), by))  # only read
        colour = GROUP_COLOURS.get(block.group, GROUP_COLOURS[IGNORE])
        # the group's colour as a bar (a line of text in a light colour on white does not read), its name
        # in dark ink under it; a long row's next line has the bar alone
        tiles_w = len(block.codes) * (TILE_W + 2) - 2
        draw.rectangle((bx, by + TILE_H + 2, bx + tiles_w, by + TILE_H + 1 + BAR_H), fill=colour)
        draw.text((bx, by + TILE_H + BAR_H + 3), label, font=_font(CAPTION_PX, bold=False), fill=CAPTION_INK)
    return canvas


def _display_scale(width: int, height: int, limit: int = 1280) -> float:
    return min(1.0, limit / max(width, height, 1))


def annotate_photo(
    rgb: np.ndarray,
    rows: Sequence[TileRow],
    meld_kinds: Mapping[str, str] | None = None,
    numbers: Sequence[int | None] | None = None,
    left_out: Sequence[Box] = (),
) -> Image.Image:
    """The photo with each tile boxed and numbered (the number of its row in the tile table, `numbers`,
    by default 1, 2, ... in order) and labelled, each group outlined in its colour, low-confidence tiles
    in orange with a `?`; and the boxes the reader `left_out` as holding no tile, dashed in grey."""
    return annotate_photo_and_labels(rgb, rows, meld_kinds, numbers, left_out)[0]


def annotate_photo_and_labels(
    rgb: np.ndarray,
    rows: Sequence[TileRow],
    meld_kinds: Mapping[str, str] | None = None,
    numbers: Sequence[int | None] | None = None,
    left_out: Sequence[Box] = (),
) -> tuple[Image.Image, list[Box], list[Box]]:
    """`annotate_photo`, with the tiles' boxes as drawn and where its labels were drawn (x1, y1, x2, y2
    each, in its pixels, which may be fewer than the photo's)."""
    image = Image.fromarray(rgb).convert("RGB")
    scale = _display_scale(*image.size)
    if scale < 1.0:
        image = image.resize(
            (round(image.width * scale), round(image.height * scale)), Image.Resampling.BILINEAR
        )
    draw = ImageDraw.Draw(image)
    line = max(2, round(max(image.size) / 400))
    for x1, y1, x2, y2 in left_out:  # under the tiles' outlines: a tile boxed over one stays clear
        shown = (x1 * scale, y1 * scale, x2 * scale, y2 * scale)
        dashed_rectangle(draw, shown, LEFT_OUT_EDGE, line + 2, dash=4 * line)
        dashed_rectangle(draw, shown, LEFT_OUT_COLOUR, line, dash=4 * line)
    meld_kinds = meld_kinds or {}
    numbered = list(numbers) if numbers is not None else list(range(1, len(rows) + 1))
    placed: list[tuple[int, TileRow, Box]] = [
        (n, r, (r.box[0] * scale, r.box[1] * scale, r.box[2] * scale, r.box[3] * scale))
        for n, r in zip(numbered, rows, strict=True)
        if r.box is not None and n is not None
    ]
    if not placed:
        return image, [], []
    # Labels sized to the tiles (small tiles, small labels), readable on a phone showing the photo at a
    # third of its size; neighbours alternate above and below their tile so the labels do not collide.
    widths = sorted(b[2] - b[0] for _, _, b in placed)
    size = round(min(max(image.size) / 45, max(11.0, 0.45 * widths[len(widths) // 2])))
    font = _font(size)
    pad = 3 * line
    taken: list[tuple[float, float, float, float]] = []  # the labels drawn so far
    by_group: dict[str, list[tuple[float, ...]]] = {}
    for _, row, box in placed:
        by_group.setdefault(row.group, []).append(box)
    colours = [
        LOW_CONF_COLOUR if row.to_check else GROUP_COLOURS.get(row.group, (90, 90, 90))
        for _, row, _ in placed
    ]
    # every outline first, the names and labels after: drawn over them, a line never runs through one
    outlines: list[tuple[str, Box]] = []
    for group, boxes in by_group.items():
        if group == IGNORE:
            continue
        gx1, gy1 = min(b[0] for b in boxes) - pad, min(b[1] for b in boxes) - pad
        gx2, gy2 = max(b[2] for b in boxes) + pad, max(b[3] for b in boxes) + pad
        draw.rounded_rectangle(
            (gx1, gy1, gx2, gy2), radius=3 * line, outline=GROUP_COLOURS.get(group, (90, 90, 90)), width=line
        )
        outlines.append((group, (gx1, gy1, gx2, gy2)))
    for (_, row, box), colour in zip(placed, colours, strict=True):
        draw.rectangle(box, outline=colour, width=line + (1 if row.to_check else 0))
    faces = [_inset(box) for _, _, box in placed]  # a label on a tile's face reads as that tile's
    for group, (gx1, gy1, gx2, gy2) in outlines:
        name = group_name(group, meld_kinds)
        width, height = _text_size(draw, name, font)
        # above or below the group's outline, clear of the tiles and the names drawn; else clear of the
        # names alone; else below it, inside the picture
        outline = (gx1, gy1, gx2, gy2 + size + 8)
        where = (
            free_spot(outline, (width, height), [*taken, *faces], image.size)
            or free_spot(outline, (width, height), taken, image.size)
            or (
                min(max(gx1, 2.0), image.width - width - 2),
                min(max(gy2 + size + 8, 2.0), image.height - height - 2),
            )
        )
        colour = GROUP_COLOURS.get(group, (90, 90, 90))
        _label(draw, where, name, font, colour)
        taken.append((where[0] - 2, where[1] - 2, where[0] + width + 2, where[1] + height + 2))
    tile_labels = _tile_labels(draw, placed, taken, image.size, size)
    for (spot, label, label_font), colour in zip(tile_labels, colours, strict=True):
        width, height = _text_size(draw, label, label_font)
        taken.append((spot[0] - 2, spot[1] - 2, spot[0] + width + 2, spot[1] + height + 2))
        _label(draw, spot, label, label_font, colour)
    return image, [box for _, _, box in placed], taken


def group_name(group: str, meld_kinds: Mapping[str, str]) -> str:
    """A group as the photo names it: a meld with its kind (`meld 1 pong`), else the group (`hand`)."""
    return f"{group} {meld_kinds[group]}" if group in meld_kinds else group


def dashed_rectangle(
    draw: ImageDraw.ImageDraw, box: Box, colour: tuple[int, int, int], width: int, dash: float = 0.0
) -> None:
    """`box` outlined in dashes `width` px thick, each `dash` px long (by default four widths)."""
    x1, y1, x2, y2 = box
    dash = dash or 4 * width
    for (ax, ay), (bx, by) in (
        ((x1, y1), (x2, y1)),
        ((x2, y1), (x2, y2)),
        ((x2, y2), (x1, y2)),
        ((x1, y2), (x1, y1)),
    ):
        length = float(np.hypot(bx - ax, by - ay))
        for start in np.arange(0.0, length, 2 * dash):
            end = min(start + dash, length)
            t0, t1 = start / max(length, 1e-9), end / max(length, 1e-9)
            draw.line(
                (ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1),
                colour,
                width,
            )


def _text_size(
    draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont
) -> tuple[float, float]:
    # from the text's origin, as it is drawn: a font's ink starts below and right of the origin
    _, _, right, bottom = draw.textbbox((0, 0), text, font=font)
    return right, bottom


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def free_spot(
    box: tuple[float, float, float, float],
    text_size: tuple[float, float],
    taken: Sequence[tuple[float, float, float, float]],
    image_size: tuple[int, int],
) -> tuple[float, float] | None:
    """Where a tile's label goes: above its box, below it, inside its top, or beside it, the first of
    these that stays in the image and clear of the labels already drawn; None when all collide. Tiles
    lie at every angle and close together, so a fixed place would stack one label on another."""
    x1, y1, x2, y2 = box
    width, height = text_size
    spots = (
        (x1, y1 - height - 5),
        (x1, y2 + 3),
        (x2 - width, y1 - height - 5),
        (x2 - width, y2 + 3),
        (x1 + 3, y1 + 3),
        (x2 + 3, y1),
        (x1 - width - 5, y1),
        (x2 + 3, y2 - height),
        (x1 - width - 5, y2 - height),
        (x1 + 3, y2 - height - 3),
    )
    for left, top in spots:
        rect = (left - 2, top - 2, left + width + 2, top + height + 2)
        inside = rect[0] >= 0 and rect[1] >= 0 and rect[2] <= image_size[0] and rect[3] <= image_size[1]
        if inside and not any(_overlaps(rect, other) for other in taken):
            return left, top
    return None


def _label(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    colour: tuple[int, int, int],
) -> None:
    box = draw.textbbox(xy, text, font=font)
    draw.rectangle((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), fill=colour)
    draw.text(xy, text, font=font, fill=label_ink(colour))


def relative_luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0 black .. 1 white)."""
    linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2's contrast ratio of two colours (1 .. 21)."""
    darker, lighter = sorted((relative_luminance(a), relative_luminance(b)))
    return (lighter + 0.05) / (darker + 0.05)


def label_ink(background: tuple[int, int, int]) -> tuple[int, int, int]:
    """White or black, whichever reads better on `background` (one of them is always 4.5:1 or more)."""
    white, black = (255, 255, 255), (0, 0, 0)
    return white if contrast_ratio(background, white) >= contrast_ratio(background, black) else black


# Font sizes tried, as shares of the labels' size, for numbers alone where labels with codes collide.
NUMBER_SIZES = (1.0, 0.8, 0.65)
SMALLEST_LABEL = 9  # px: below this a number no longer reads


Spot = tuple[tuple[float, float], str, ImageFont.FreeTypeFont | ImageFont.ImageFont]  # where, label, font
INSET = 0.15  # of a tile's box on each side: slanted tiles' boxes overlap at their corners


def _inset(box: Box) -> Box:
    """A tile's face: its box less `INSET` of its width and height on each side."""
    x1, y1, x2, y2 = box
    dx, dy = INSET * (x2 - x1), INSET * (y2 - y1)
    return (x1 + dx, y1 + dy, x2 - dx, y2 - dy)


def _tile_labels(
    draw: ImageDraw.ImageDraw,
    placed: Sequence[tuple[int, TileRow, Box]],
    taken: Sequence[Box],
    image_size: tuple[int, int],
    size: int,
) -> list[Spot]:
    """Per tile, where its label goes, the label, and its font: number and code ("7 1m") where every
    such label finds a spot clear of the others (`free_spot`), at full size or 0.8 of it; else the
    number alone for every tile (the code is in the table's row of that number), at the first size
    where all fit; else, crowded past that, each number that finds no spot in its tile's top corner at
    the smallest size."""
    tries = [(True, size), (True, max(SMALLEST_LABEL, round(size * 0.8)))]
    tries += [(False, max(SMALLEST_LABEL, round(size * k))) for k in NUMBER_SIZES]
    for with_code, font_size in tries:
        spots = _label_spots(draw, placed, taken, image_size, _font(font_size), with_code, crowded=False)
        if spots is not None:
            return spots
    font = _font(tries[-1][1])
    return _label_spots(draw, placed, taken, image_size, font, with_code=False, crowded=True) or []


def _label_spots(
    draw: ImageDraw.ImageDraw,
    placed: Sequence[tuple[int, TileRow, Box]],
    taken: Sequence[Box],
    image_size: tuple[int, int],
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    with_code: bool,
    crowded: bool,
) -> list[Spot] | None:
    """Each tile's label in `font` (its number, and its code `with_code`) where it is clear of the
    labels `taken` and placed before it and of the other tiles' faces (a label on one reads as that
    tile's); None where one finds no such spot, unless `crowded`: then it goes in its tile's top
    corner."""
    drawn: list[Box] = list(taken)
    spots: list[Spot] = []
    faces = [_inset(box) for _, _, box in placed]
    for index, (number, row, box) in enumerate(placed):
        label = f"{number}" + (f" {row.code}" if with_code else "") + ("?" if row.to_check else "")
        width, height = _text_size(draw, label, font)
        others = [face for other, face in enumerate(faces) if other != index]
        spot = free_spot(box, (width, height), [*drawn, *others], image_size)
        if spot is None and not crowded:
            return None
        spot = spot or (box[0] + 2, box[1] + 2)
        drawn.append((spot[0] - 2, spot[1] - 2, spot[0] + width + 2, spot[1] + height + 2))
        spots.append((spot, label, font))
    return spots


def group_blocks(
    hand: Mapping[str, Any], meld_groups: Sequence[str], rows: Sequence[TileRow] = ()
) -> list[tuple[str, list[str], bool]]:
    """Blocks for `hand_picture` from a built scoring hand: concealed tiles, each meld, the bonus row;
    and, from the table's `rows`, each meld group that is no meld yet (the scoring hand leaves it out,
    the picture shows every tile of the table), in group order."""
    blocks: list[tuple[str, list[str], bool]] = [("hand", list(hand.get("concealed") or []), False)]
    built = dict(zip(meld_groups, hand.get("melds") or [], strict=False))
    for group in MELD_GROUPS:
        meld = built.get(group)
        if meld is not None:
            label = f"{group} {meld['kind']}" + (" (concealed)" if meld.get("concealed") else "")
            tiles = chow_in_order(meld["tiles"]) if meld["kind"] == "chow" else list(meld["tiles"])
            blocks.append((label, tiles, bool(meld.get("concealed"))))
            continue
        laid = [row.code for row in rows if row.group == group]
        if laid:
            blocks.append((f"{group}: no meld yet", laid, False))
    blocks.append(("bonus", list(hand.get("bonus") or []), False))
    return blocks


def chow_in_order(tiles: Sequence[str]) -> list[str]:
    """A chow's tiles by rank, as the summary writes it ([678s]): laid as the photo shows them, the
    high-score sample's read 8s 7s 6s. A `fly` stands in the gap it fills (5p fly 7p), else last.
    Only the tile pictures: they show no tile numbers, which stay the photo's and the table's."""
    from scoring.tiles import rank_of  # the scoring's ranks, imported as hand_build does

    real = sorted((tile for tile in tiles if tile != "fly"), key=rank_of)
    flies = ["fly"] * (len(tiles) - len(real))
    if flies and len(real) == 2 and rank_of(real[1]) - rank_of(real[0]) == 2:
        return [real[0], *flies, real[1]]
    return [*real, *flies]
