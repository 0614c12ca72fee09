"""The art styles: a registry of tile-face sets, each with its licence and availability.

A style gives an upright RGBA face for each of the 49 classes (see `datasets.faces`), the colour of
its face ground, and the colours its tile backs come in. Styles whose art comes from installed
packages (fonts, game tilesets) are available only after `bash datasets/install_art.sh`;
`available_styles()` lists those that are usable on this machine.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from datasets.faces import FaceRecipe, Palette, StyleUnavailableError, render_back, render_face
from datasets.randomized import BACK_COLOURS, VARIANTS, random_recipe
from vision.classes import BACK, CLASSES

RGB = tuple[int, int, int]

ART_DIR = Path(os.environ.get("MAHJONG_ART_DIR", Path(__file__).resolve().parent / "art"))
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".fonts")

_BACKS_CLASSIC: tuple[RGB, ...] = (
    (30, 120, 70),  # green
    (35, 90, 160),  # blue
    (215, 140, 60),  # orange
    (40, 140, 120),  # teal
    (225, 140, 160),  # pink
    (190, 40, 45),  # red
    (230, 195, 70),  # yellow
)


@dataclass(frozen=True)
class Style:
    name: str
    licence: str
    sample_safe: bool  # may appear in committed sample photos (not GPL)
    description: str
    build: Callable[[], dict[str, np.ndarray]]  # code -> (H, W, 4) face; raises StyleUnavailableError
    needs: tuple[str, ...] = ()  # files that must exist (paths relative to ART_DIR or absolute)
    ground: RGB = (246, 241, 224)
    backs: tuple[RGB, ...] = _BACKS_CLASSIC
    body: tuple[RGB, ...] = field(default=((242, 236, 218), (250, 250, 246), (236, 228, 200)))
    variants: int = 1  # > 1: a family of sets, one drawn per scene
    build_variant: Callable[[int], dict[str, np.ndarray]] | None = None

    def missing(self) -> str | None:
        """Why the style cannot render here, or None when it can."""
        for need in self.needs:
            path = Path(need) if need.startswith("/") else ART_DIR / need
            if not path.exists():
                return f"style {self.name}: {path} not installed (run `bash datasets/install_art.sh`)"
        return None


def find_font(filename: str) -> str:
    for root in FONT_DIRS:
        if root.is_dir():
            for path in root.rglob(filename):
                return str(path)
    raise StyleUnavailableError(f"font file {filename} not installed (run `bash datasets/install_art.sh`)")


def _recipe_faces(recipe: FaceRecipe, backs: tuple[RGB, ...]) -> dict[str, np.ndarray]:
    faces = {code: render_face(recipe, code) for code in CLASSES if code != BACK}
    faces[BACK] = render_back(backs[0])
    return faces


def _randomized_faces(variant: int) -> dict[str, np.ndarray]:
    return _recipe_faces(random_recipe(variant), (BACK_COLOURS[variant % len(BACK_COLOURS)],))


def _procedural(
    recipe: FaceRecipe, backs: tuple[RGB, ...] = _BACKS_CLASSIC
) -> Callable[[], dict[str, np.ndarray]]:
    return lambda: _recipe_faces(recipe, backs)


def _font_style(filename: str, index: int = 0, **knobs: object) -> Callable[[], dict[str, np.ndarray]]:
    def build() -> dict[str, np.ndarray]:
        try:
            emoji: str | None = find_font("NotoColorEmoji.ttf")
        except StyleUnavailableError:
            emoji = None
        recipe = FaceRecipe(font=find_font(filename), font_index=index, emoji_font=emoji, **knobs)  # type: ignore[arg-type]
        return _recipe_faces(recipe, _BACKS_CLASSIC)

    return build


def font_need(filename: str) -> str:
    """A font file a style needs: its path where installed, else where Debian puts it (for the message)."""
    try:
        return find_font(filename)
    except StyleUnavailableError:
        return f"/usr/share/fonts/{filename}"


_WARM = Palette(
    red=(185, 35, 30), green=(25, 110, 55), blue=(30, 50, 120), black=(30, 30, 30), ground=(244, 236, 212)
)
_BRIGHT = Palette(
    red=(220, 40, 50), green=(10, 150, 70), blue=(20, 80, 190), black=(15, 30, 90), ground=(250, 250, 246)
)
_DEEP = Palette(
    red=(170, 20, 40), green=(0, 100, 80), blue=(10, 40, 110), black=(10, 10, 10), ground=(238, 232, 214)
)


def _registry() -> dict[str, Style]:
    styles = [
        Style(
            "procedural",
            "project code (AGPL-3.0), no third-party art",
            True,
            "brush strokes drawn in code, ring dots, classic palette; needs no font",
            _procedural(FaceRecipe()),
        ),
        Style(
            "procedural_bold",
            "project code (AGPL-3.0), no third-party art",
            True,
            "slanted heavy strokes, solid dots, slim bamboo, white face, blue numerals",
            _procedural(
                FaceRecipe(
                    palette=_BRIGHT,
                    weight=0.14,
                    slant=0.12,
                    dots="solid",
                    bamboo="slim",
                    numeral_color="blue",
                    white_dragon="frame",
                    bonus_numerals="chinese",
                    variant=1,
                    engraved=True,
                )
            ),
            ground=_BRIGHT.ground,
            backs=((40, 90, 170), (30, 120, 70)),
        ),
        Style(
            "font_kai",
            "AR PL UKai: Arphic Public License (free licence)",
            True,
            "kai (brush) script from fonts-arphic-ukai, flower dots",
            _font_style("ukai.ttc", palette=_WARM, dots="flower", variant=2, engraved=True),
            needs=(font_need("ukai.ttc"),),
            ground=_WARM.ground,
        ),
        Style(
            "font_ming",
            "AR PL UMing: Arphic Public License (free licence)",
            True,
            "ming (serif) script from fonts-arphic-uming, ring dots, blue numerals",
            _font_style(
                "uming.ttc", palette=_BRIGHT, numeral_color="blue", bonus_numerals="chinese", variant=3
            ),
            needs=(font_need("uming.ttc"),),
            ground=_BRIGHT.ground,
        ),
        Style(
            "font_noto_serif",
            "Noto Serif CJK: SIL Open Font License 1.1",
            True,
            "bold Noto Serif CJK, solid dots, deep palette",
            _font_style(
                "NotoSerifCJK-Bold.ttc", index=1, palette=_DEEP, dots="solid", variant=4, engraved=True
            ),
            needs=(font_need("NotoSerifCJK-Bold.ttc"),),
            ground=_DEEP.ground,
        ),
        Style(
            "font_noto_sans",
            "Noto Sans CJK: SIL Open Font License 1.1",
            True,
            "Noto Sans CJK (gothic), slim bamboo, white face",
            _font_style("NotoSansCJK-Bold.ttc", index=1, palette=_BRIGHT, bamboo="slim", variant=5),
            needs=(font_need("NotoSansCJK-Bold.ttc"),),
            ground=_BRIGHT.ground,
        ),
        Style(
            "font_cwkai",
            "cwTeX Kai: GPL-2 (with font exception)",
            False,
            "cwTeX kai script, flower dots, warm palette",
            _font_style("cwkai.ttf", palette=_DEEP, dots="flower", bonus_numerals="chinese", variant=6),
            needs=(font_need("cwkai.ttf"),),
            ground=_DEEP.ground,
        ),
        Style(
            "randomized",
            "project code (AGPL-3.0) and free fonts (Arphic, SIL OFL, IPA, Hanazono)",
            True,
            f"{VARIANTS} sets drawn at random: font, palette, dot/stick size and spacing, numeral layout",
            lambda: _randomized_faces(0),
            variants=VARIANTS,
            build_variant=_randomized_faces,
        ),
    ]
    return {s.name: s for s in styles}


STYLES: dict[str, Style] = _registry()


def register(style: Style) -> None:
    """Add a style (the tileset module registers the game tilesets this way)."""
    STYLES[style.name] = style


def available_styles() -> list[str]:
    return [name for name, style in STYLES.items() if style.missing() is None]


@lru_cache(maxsize=48)
def style_faces(name: str, variant: int = 0) -> dict[str, np.ndarray]:
    """All 49 faces of a style, or of one variant of a style family (built once per process)."""
    if name not in STYLES:
        raise StyleUnavailableError(f"unknown style {name!r}; known: {', '.join(STYLES)}")
    style = STYLES[name]
    reason = style.missing()
    if reason is not None:
        raise StyleUnavailableError(reason)
    if not 0 <= variant < style.variants:
        raise StyleUnavailableError(f"style {name} has variants 0..{style.variants - 1}, not {variant}")
    faces = style.build_variant(variant) if style.build_variant is not None else style.build()
    absent = [code for code in CLASSES if code not in faces]
    if absent:
        raise StyleUnavailableError(f"style {name} lacks faces for {', '.join(absent)}")
    return faces


# The game tilesets register themselves here (imported last: they build on the names above).
from datasets import tilesets  # noqa: E402, F401
