"""Game tilesets as art styles: KMahjongg (SVG), GNOME Mahjongg, xmahjongg, mahjong-learner (CC0).

`bash datasets/install_art.sh` unpacks them under ART_DIR (gitignored). SVG elements are
rasterised once with `rsvg-convert` and cached as PNG under ART_DIR/cache/<style>/. Faces a set
lacks (animals, `face`, `fly`, sometimes flowers) are drawn procedurally on the set's own ground
colour, so every style still covers all 49 classes.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from datasets.faces import (
    FACE_H,
    FACE_W,
    FaceRecipe,
    Palette,
    StyleUnavailableError,
    finish_face,
    render_back,
    render_face,
)
from datasets.styles import ART_DIR, RGB, Style, find_font, font_need, register
from vision.classes import BACK, CLASSES

KM_DIR = "pkgs/kdegames-mahjongg-data-kf5/usr/share/kmahjongglib/tilesets"
GNOME_DIR = "pkgs/gnome-mahjongg/usr/share/gnome-mahjongg/themes"
XMJ_DIR = "pkgs/xmahjongg/usr/share/games/xmahjongg/tiles"
ML_DIR = "pkgs/mahjong-learner/tiles_img"

_SS = 2


def _km_ids(flower_order: tuple[int, int, int, int] = (1, 2, 3, 4)) -> dict[str, str]:
    ids = {f"{r}m": f"CHARACTER_{r}" for r in range(1, 10)}
    ids |= {f"{r}p": f"ROD_{r}" for r in range(1, 10)}
    ids |= {f"{r}s": f"BAMBOO_{r}" for r in range(1, 10)}
    ids |= {"N": "WIND_1", "S": "WIND_2", "E": "WIND_3", "W": "WIND_4"}
    ids |= {"P": "DRAGON_1", "F": "DRAGON_2", "C": "DRAGON_3"}
    ids |= {f"F{k}": f"FLOWER_{n}" for k, n in zip(range(1, 5), flower_order, strict=True)}
    ids |= {f"S{k}": f"SEASON_{k}" for k in range(1, 5)}
    return ids


def _cache(style: str) -> Path:
    path = ART_DIR / "cache" / style
    path.mkdir(parents=True, exist_ok=True)
    return path


def _rsvg() -> str:
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise StyleUnavailableError("rsvg-convert not installed (apt-get install librsvg2-bin)")
    return exe


def _tmp_name(path: Path) -> Path:
    # generator workers may fill the cache at the same time: write aside, then rename (atomic)
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _svg_file(svgz: Path, cache: Path) -> Path:
    svg = cache / (svgz.stem + ".svg")
    if not svg.exists():
        data = svgz.read_bytes()
        tmp = _tmp_name(svg)
        tmp.write_bytes(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
        os.replace(tmp, svg)
    return svg


def _rasterise(args: list[str], png: Path) -> None:
    if png.exists():
        return
    tmp = _tmp_name(png)
    try:
        subprocess.run([_rsvg(), *args, "-o", str(tmp)], check=True, capture_output=True, timeout=120)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        raise StyleUnavailableError(f"rsvg-convert failed on {png.name}: {exc}") from exc
    os.replace(tmp, png)


def _svg_element(svg: Path, element: str, cache: Path) -> Image.Image:
    png = cache / f"{element}.png"
    _rasterise(["-i", element, "-z", "3", str(svg)], png)
    return Image.open(png).convert("RGBA")


def fit_art(
    art: Image.Image,
    ground: RGB,
    box: tuple[float, float, float, float] = (0.08, 0.07, 0.92, 0.93),
) -> np.ndarray:
    """A face: `art` (transparent around its ink) trimmed and centred on the ground colour."""
    w, h = FACE_W * _SS, FACE_H * _SS
    bbox = art.getbbox()
    if bbox is None:  # a blank face (the white dragon of some sets)
        return finish_face(Image.new("RGBA", (w, h), (*ground, 255)))
    art = art.crop(bbox)
    bw, bh = (box[2] - box[0]) * w, (box[3] - box[1]) * h
    s = min(bw / art.width, bh / art.height)
    art = art.resize((max(1, round(art.width * s)), max(1, round(art.height * s))), Image.Resampling.LANCZOS)
    canvas = Image.new("RGBA", (w, h), (*ground, 255))
    cx, cy = (box[0] + box[2]) / 2 * w, (box[1] + box[3]) / 2 * h
    canvas.alpha_composite(art, (round(cx - art.width / 2), round(cy - art.height / 2)))
    return finish_face(canvas)


def fill_face(crop: Image.Image) -> np.ndarray:
    """A face from a cropped picture of a whole tile face (ground included), stretched to fit."""
    return finish_face(crop.convert("RGBA").resize((FACE_W * _SS, FACE_H * _SS), Image.Resampling.LANCZOS))


def _fill_missing(
    faces: dict[str, np.ndarray], palette: Palette, backs: tuple[RGB, ...], variant: int
) -> dict[str, np.ndarray]:
    """Draw the classes a tileset lacks in code, on the set's ground colour."""
    try:
        font: str | None = find_font("ukai.ttc")
    except StyleUnavailableError:
        font = None
    recipe = FaceRecipe(palette=palette, font=font, variant=variant)
    for code in CLASSES:
        if code == BACK and BACK not in faces:
            faces[BACK] = render_back(backs[0])
        elif code not in faces:
            faces[code] = render_face(recipe, code)
    return faces


# ---------------------------------------------------------------------------- KMahjongg


def _kmahjongg(
    name: str,
    ground: RGB,
    palette: Palette,
    backs: tuple[RGB, ...],
    ids: dict[str, str],
    own: tuple[str, ...] | None = None,
    variant: int = 0,
) -> Callable[[], dict[str, np.ndarray]]:
    def build() -> dict[str, np.ndarray]:
        cache = _cache(f"kmahjongg_{name}")
        svg = _svg_file(ART_DIR / KM_DIR / f"{name}.svgz", cache)
        faces = {}
        for code, element in ids.items():
            if own is not None and code not in own:
                continue
            faces[code] = fit_art(_svg_element(svg, element, cache), ground)
        return _fill_missing(faces, palette, backs, variant)

    return build


_IVORY: RGB = (244, 239, 222)
_JADE: RGB = (38, 110, 78)
# its white dragon is the GNOME logo and its bonus tiles are abstract: those are drawn in code
_POSTMODERN_SKIP = ("P", "F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4")
# the traditional set's winter is a white snowflake on white: nearly blank, like a white dragon
_TRADITIONAL_OWN = tuple(c for c in _km_ids() if c != "S4")
_CLASSIC_OWN = tuple(c for c in _km_ids() if c not in ("C", "F", "P"))  # its dragons are beasts, not tiles

# ---------------------------------------------------------------------------- sheet tilesets


def _gnome_sheet(
    path: str, svg: bool, skip: tuple[str, ...] = (), variant: int = 0
) -> Callable[[], dict[str, np.ndarray]]:
    # 43 tiles in a row (a second row holds highlighted copies), in this order
    order = (
        [f"{r}p" for r in range(1, 10)]
        + ["N", "W", "S", "E", "C", "F"]
        + [f"{r}m" for r in range(1, 10)]
        + [f"{r}s" for r in range(1, 10)]
        + ["F2", "F3", "F1", "F4", "P", "S1", "S2", "S3", "S4"]
    )

    def build() -> dict[str, np.ndarray]:
        src = ART_DIR / path
        if svg:
            cache = _cache("gnome_postmodern")
            png = cache / "sheet.png"
            _rasterise(["-z", "3", str(src)], png)
            sheet = Image.open(png).convert("RGBA")
        else:
            sheet = Image.open(src).convert("RGBA")
        tw, th = sheet.width / 43, sheet.height / 2
        # the drawn tile has its thickness on the left and bottom: keep only the face
        faces = {}
        for k, code in enumerate(order):
            if code in skip:
                continue
            x0 = k * tw
            crop = sheet.crop(
                (round(x0 + 0.12 * tw), round(0.04 * th), round(x0 + 0.92 * tw), round(0.88 * th))
            )
            faces[code] = fill_face(crop)
        ground = tuple(
            int(v)
            for v in np.asarray(
                sheet.crop((round(0.5 * tw), round(0.06 * th), round(0.55 * tw), round(0.1 * th)))
            )[..., :3]
            .reshape(-1, 3)
            .mean(axis=0)
        )
        return _fill_missing(faces, Palette(ground=ground), ((40, 110, 70),), variant)  # type: ignore[arg-type]

    return build


def _xmahjongg_real() -> dict[str, np.ndarray]:
    sheet = Image.open(ART_DIR / XMJ_DIR / "real.gif").convert("RGBA")
    cw, ch = sheet.width / 9, sheet.height / 5
    grid = [
        [f"{r}p" for r in range(1, 10)],
        [f"{r}s" for r in range(1, 10)],
        [f"{r}m" for r in range(1, 10)],
        ["S1", "S2", "S3", "S4", "N", "S", "E", "W"],
        ["F1", "F2", "F3", "F4", "F", "P", "C"],
    ]
    faces = {}
    for row, codes in enumerate(grid):
        for col, code in enumerate(codes):
            x0, y0 = col * cw, row * ch
            faces[code] = fill_face(
                sheet.crop((round(x0 + 3), round(y0 + 3), round(x0 + cw - 3), round(y0 + ch - 3)))
            )
    return _fill_missing(faces, Palette(ground=(236, 236, 232)), ((40, 110, 70),), 13)


def _sheet_faces(
    sheet: Image.Image, grid: list[list[str]], face: tuple[int, int, int, int]
) -> dict[str, np.ndarray]:
    """The faces of a sheet of 21 x 4 tiles named by `grid` (row by row, "" = not taken): `face` is
    the face's box within each tile's cell, px (the drawn tile's thickness left out)."""
    cw, ch = sheet.width / 21, sheet.height / 4
    faces = {}
    for row, codes in enumerate(grid):
        for col, code in enumerate(codes):
            if code:
                x0, y0 = col * cw, row * ch
                box = (round(x0 + face[0]), round(y0 + face[1]), round(x0 + face[2]), round(y0 + face[3]))
                faces[code] = fill_face(sheet.crop(box))
    return faces


def _xmahjongg_dorothys() -> dict[str, np.ndarray]:
    sheet = Image.open(ART_DIR / XMJ_DIR / "dorothys.gif").convert("RGBA")
    grid = [  # rows 3-4 repeat rows 1-2 highlighted
        [f"{r}p" for r in range(1, 10)] + ["N", "W", "S", "E", "C", "F"] + [f"{r}m" for r in range(1, 7)],
        ["7m", "8m", "9m"]
        + [f"{r}s" for r in range(1, 10)]
        # its white dragon is a dragon picture: the framed one is drawn in code instead
        + ["S1", "S2", "S3", "S4", "", "F4", "F2", "F1", "F3"],
    ]
    # the drawn tile's thickness is on its right and bottom
    faces = _sheet_faces(sheet, grid, (1, 1, 52, 67))
    return _fill_missing(faces, Palette(ground=(246, 232, 200)), ((40, 110, 70),), 16)


def _xmahjongg_gnome2() -> dict[str, np.ndarray]:
    sheet = Image.open(ART_DIR / XMJ_DIR / "gnome2.gif").convert("RGBA")
    grid = [  # rows 3-4: the same faces on a dark ground (left out)
        [f"{r}s" for r in range(1, 10)] + ["N", "W", "S", "E", "C", "F"] + [f"{r}m" for r in range(1, 7)],
        # its flowers and seasons print a number only, black or red, and which group is which is
        # nowhere written: they are drawn in code rather than named by a guess
        ["7m", "8m", "9m"] + [f"{r}p" for r in range(1, 10)] + ["", "", "", "", "P"],
    ]
    # the drawn tile's thickness is on its left and bottom
    faces = _sheet_faces(sheet, grid, (2, 1, 38, 52))
    return _fill_missing(faces, Palette(ground=(255, 243, 214)), ((40, 110, 70),), 17)


_ML_NAMES = (
    {f"{r}m": f"Man{r}" for r in range(1, 10)}
    | {f"{r}p": f"Pin{r}" for r in range(1, 10)}
    | {f"{r}s": f"Sou{r}" for r in range(1, 10)}
    | {"E": "Ton", "S": "Nan", "W": "Shaa", "N": "Pei", "P": "Haku", "F": "Hatsu", "C": "Chun"}
)


def _mahjong_learner() -> dict[str, np.ndarray]:
    ground: RGB = (247, 244, 236)
    faces = {
        code: fit_art(Image.open(ART_DIR / ML_DIR / f"{name}.png").convert("RGBA"), ground)
        for code, name in _ML_NAMES.items()
    }
    back = Image.open(ART_DIR / ML_DIR / "Back.png").convert("RGBA")
    faces[BACK] = fill_face(back.crop(back.getbbox()))
    return _fill_missing(faces, Palette(ground=ground), ((220, 60, 60),), 15)


_UNICODE = (
    {code: 0x1F000 + k for k, code in enumerate(("E", "S", "W", "N", "C", "F", "P"))}
    | {f"{r}m": 0x1F006 + r for r in range(1, 10)}
    | {f"{r}s": 0x1F00F + r for r in range(1, 10)}
    | {f"{r}p": 0x1F018 + r for r in range(1, 10)}
    | {"F1": 0x1F022, "F2": 0x1F023, "F4": 0x1F024, "F3": 0x1F025}
    | {f"S{k}": 0x1F025 + k for k in range(1, 5)}
)


def _colourise(code: str, ink: np.ndarray, p: Palette) -> np.ndarray:
    """RGB for a monochrome glyph, coloured as printed tiles are (by band, since ink is one mask)."""
    h = ink.shape[0]
    rows = np.arange(h)[:, None] / h
    out = np.zeros((*ink.shape, 3), np.float32)
    if code.endswith("m") and code[0].isdigit():
        out[:] = np.where((rows < 0.42)[..., None], p.blue, p.red)
    elif code.endswith("p") and code[0].isdigit():
        out[:] = np.where(
            (rows < 0.34)[..., None], p.blue, np.where((rows < 0.67)[..., None], p.red, p.green)
        )
    elif code.endswith("s") and code[0].isdigit():
        out[:] = p.green
    else:
        out[:] = {"C": p.red, "F": p.green}.get(code, p.blue if code in "ESWN" else (120, 40, 30))
    return out


def _unicode_style() -> dict[str, np.ndarray]:
    font_path = find_font("Symbola_hint.ttf")

    font = ImageFont.truetype(font_path, 400)
    ground: RGB = (245, 242, 230)
    palette = Palette(ground=ground)
    faces = {}
    for code, cp in _UNICODE.items():
        if code == "P":
            continue  # an empty frame: drawn in code with the blue border real tiles have
        img = Image.new("L", (600, 700), 0)
        ImageDraw.Draw(img).text((50, 50), chr(cp), font=font, fill=255)
        bbox = img.getbbox()
        if bbox is None:
            raise StyleUnavailableError(f"Symbola lacks U+{cp:X}")
        glyph = np.asarray(img.crop(bbox)).astype(np.float32) / 255
        gh, gw = glyph.shape
        # drop the glyph's own tile frame: keep the inside
        glyph = glyph[round(gh * 0.06) : round(gh * 0.94), round(gw * 0.08) : round(gw * 0.92)]
        rgb = _colourise(code, glyph, palette)
        art = np.dstack([rgb, glyph * 255]).astype(np.uint8)
        faces[code] = fit_art(Image.fromarray(art, "RGBA"), ground, box=(0.02, 0.02, 0.98, 0.98))
    return _fill_missing(faces, palette, ((30, 90, 160), (40, 110, 70)), 14)


def register_all() -> None:
    gpl = "GPL-2.0-or-later"
    km = "KMahjongg tileset (kdegames-mahjongg-data-kf5), " + gpl
    for name, ground, palette, ids, own, desc in (
        (
            "traditional",
            _IVORY,
            Palette(ground=_IVORY),
            _km_ids(),
            _TRADITIONAL_OWN,
            "coloured glyphs, pictorial bonus tiles",
        ),
        (
            "default",
            _IVORY,
            Palette(ground=_IVORY),
            _km_ids(),
            None,
            "brush glyphs, numbered flowers, blank white",
        ),
        (
            "classic",
            _IVORY,
            Palette(ground=_IVORY),
            _km_ids((2, 1, 3, 4)),
            _CLASSIC_OWN,
            "outline glyphs, trees for seasons, simplified 万",
        ),
        (
            "jade",
            _JADE,
            Palette(
                red=(250, 200, 200),
                green=(220, 250, 220),
                blue=(210, 230, 255),
                black=(250, 250, 250),
                ground=_JADE,
            ),
            _km_ids(),
            tuple(c for c in _km_ids() if c != "P"),  # blank jade would pass for a green back
            "white glyphs on a jade face",
        ),
    ):
        # a jade-faced set gets gold backs, so face-up and face-down tiles still differ (and no back
        # looks like the blank ivory white dragon of other sets)
        backs: tuple[RGB, ...] = ((205, 165, 70),) if name == "jade" else ((40, 100, 70), (30, 80, 150))
        register(
            Style(
                f"kmahjongg_{name}",
                km,
                False,
                desc,
                _kmahjongg(
                    name, ground, palette, backs, ids, own, variant=7 + len(name) % 5 + 2 * (name == "jade")
                ),
                needs=(f"{KM_DIR}/{name}.svgz",),
                ground=ground,
                backs=backs,
            )
        )
    gnome = "GNOME Mahjongg theme (gnome-mahjongg), " + gpl
    register(
        Style(
            "gnome_smooth",
            gnome,
            False,
            "shaded classic tiles",
            _gnome_sheet(f"{GNOME_DIR}/smooth.png", svg=False, variant=11),
            needs=(f"{GNOME_DIR}/smooth.png",),
        )
    )
    register(
        Style(
            "gnome_postmodern",
            gnome,
            False,
            "flat modern tiles (SVG)",
            _gnome_sheet(f"{GNOME_DIR}/postmodern.svg", svg=True, skip=_POSTMODERN_SKIP, variant=12),
            needs=(f"{GNOME_DIR}/postmodern.svg",),
        )
    )
    register(
        Style(
            "xmahjongg_real",
            "xmahjongg 'Real Tiles' (c) 1999 Mark Sanctuary, " + gpl,
            False,
            "scans of a real set (low resolution)",
            _xmahjongg_real,
            needs=(f"{XMJ_DIR}/real.gif",),
        )
    )
    register(
        Style(
            "xmahjongg_dorothys",
            "xmahjongg 'Dorothy's' tiles, " + gpl,
            False,
            "pixel-art tiles with English captions",
            _xmahjongg_dorothys,
            needs=(f"{XMJ_DIR}/dorothys.gif",),
            ground=(246, 232, 200),
        )
    )
    register(
        Style(
            "xmahjongg_gnome2",
            "xmahjongg 'GNOME 2' tiles, " + gpl,
            False,
            "small pixel-art tiles with a corner index and simplified 万",
            _xmahjongg_gnome2,
            needs=(f"{XMJ_DIR}/gnome2.gif",),
            ground=(255, 243, 214),
        )
    )
    register(
        Style(
            "unicode_symbola",
            "Symbola font (fonts-symbola): free for any use",
            True,
            "the Unicode mahjong glyphs U+1F000-1F029, line art, coloured by band",
            _unicode_style,
            needs=(font_need("Symbola_hint.ttf"),),
            ground=(245, 242, 230),
            backs=((30, 90, 160), (40, 110, 70)),
        )
    )
    register(
        Style(
            "mahjong_learner",
            "mahjong-learner tile PNGs (PyPI), CC0-1.0",
            True,
            "riichi tile art; bonus tiles drawn in code",
            _mahjong_learner,
            needs=(f"{ML_DIR}/Man1.png",),
            ground=(247, 244, 236),
            backs=((220, 60, 60), (240, 150, 40)),
        )
    )


register_all()
