"""The randomised style: a different tile set for every variant, drawn from a seed.

A reader trained on a handful of fixed sets learns those sets (their dot spacing, their numeral
size, their font) rather than the tiles: on an unseen set it read 41% of the tiles right. Real sets
differ from maker to maker in exactly those things, so this style draws them at random per variant:
font (or brush strokes), palette, dot and stick kind, size and spacing, where the numeral and 萬 sit,
how big the honour characters are, which colours the dots take, the bonus pictures' variant.

Only freely licensed fonts are drawn (Arphic, SIL OFL, IPA, Hanazono), so the style's pictures may be
committed.
Fonts that are not installed are left out of the draw; with none, every variant uses brush strokes.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

from datasets.faces import (
    ENGLISH_NAMES,
    Box,
    FaceRecipe,
    Layout,
    Palette,
    StyleUnavailableError,
    palette_colour,
)

RGB = tuple[int, int, int]

# Distinct sets the style draws from; a scene uses one (real photos show one set). With 256 sets,
# training on more scenes of the same sets stopped helping (a reader learns the sets it has seen), so
# nearly every scene now draws a set of its own.
VARIANTS = 65536

# (file, face index in the collection): the freely licensed CJK fonts install_art.sh puts on the
# machine (Arphic, SIL OFL, IPA, Hanazono); the GPL cwTeX fonts stay out so pictures may be committed
FONT_CHOICES: tuple[tuple[str, int], ...] = (
    ("ukai.ttc", 0),
    ("uming.ttc", 0),
    ("NotoSerifCJK-Regular.ttc", 3),
    ("NotoSerifCJK-Bold.ttc", 0),
    ("NotoSansCJK-Regular.ttc", 2),
    ("NotoSansCJK-Bold.ttc", 3),
    ("bkai00mp.ttf", 0),
    ("ipam.ttf", 0),
    ("ipag.ttf", 0),
    ("HanaMinA.ttf", 0),
    ("LXGWWenKai-Regular.ttf", 0),
    ("LXGWWenKai-Bold.ttf", 0),
    ("KleeOne-SemiBold.ttf", 0),
    # AR PL Mingti2L Big5, another Ming hand under the Arphic licence. The hei and Ming fonts of
    # WenQuanYi and cwTeX are GPL: this style renders the shipped sample photos, so they stay out.
    ("bsmi00lp.ttf", 0),
)

# every character a face prints with the style's font
FACE_TEXT = "一二三四五伍六七八九萬東南西北中發飛梅蘭菊竹春夏秋冬貓鼠雞蜈蚣1234" + "".join(
    sorted({letter for names in ENGLISH_NAMES.values() for name in names for letter in name})
)


@lru_cache(maxsize=1)
def installed_fonts() -> tuple[tuple[str, int], ...]:
    """The FONT_CHOICES found on this machine that have a glyph for every character of FACE_TEXT."""
    from datasets.styles import find_font

    found = []
    for filename, index in FONT_CHOICES:
        try:
            path = find_font(filename)
        except StyleUnavailableError:
            continue
        if font_covers(path, index, FACE_TEXT):
            found.append((path, index))
    return tuple(found)


def font_covers(path: str, index: int, text: str) -> bool:
    """Whether the font draws every character of `text` (a missing one draws as the .notdef box)."""
    from PIL import ImageFont

    font = ImageFont.truetype(path, size=48, index=index)
    missing = bytes(font.getmask("\U0010fffd"))
    return all(bytes(font.getmask(char)) != missing for char in text)


def _shade(rng: np.random.Generator, base: RGB, amount: float) -> RGB:
    return tuple(int(np.clip(c * rng.uniform(1 - amount, 1 + amount), 0, 255)) for c in base)  # type: ignore[return-value]


def random_palette(rng: np.random.Generator) -> Palette:
    """Reds stay red and greens green (colour tells 中 from 發), but hue and depth vary."""
    black = ((25, 25, 35), (15, 30, 90), (10, 60, 40), (40, 30, 30))[int(rng.integers(4))]
    ground = ((246, 241, 224), (250, 250, 246), (238, 232, 214), (244, 236, 212), (236, 240, 232))[
        int(rng.integers(5))
    ]
    return Palette(
        red=_shade(rng, (200, 30, 35), 0.2),
        green=_shade(rng, (20, 125, 60), 0.3),
        blue=_shade(rng, (25, 60, 150), 0.3),
        black=_shade(rng, black, 0.3),
        ground=_shade(rng, ground, 0.02),
    )


def random_layout(rng: np.random.Generator, seed: int) -> Layout:
    top = rng.uniform(0.03, 0.12)
    numeral_h = rng.uniform(0.26, 0.42)
    numeral_half_w = rng.uniform(0.22, 0.36)
    wan_top = top + numeral_h + rng.uniform(0.02, 0.08)
    wan_half_w = rng.uniform(0.3, 0.42)
    corners = rng.permutation(4)[:2]  # the bonus number and name sit in different corners
    return Layout(
        # many real sets print dots that nearly fill the face: up to the size where they touch
        dot_scale=rng.uniform(0.8, 2.0),
        spread=rng.uniform(0.85, 1.15),
        jitter=rng.uniform(0.0, 0.025),
        seed=seed,
        stick_width=rng.uniform(0.04, 0.11),
        stick_length=rng.uniform(0.85, 1.2),
        numeral_box=(0.5 - numeral_half_w, top, 0.5 + numeral_half_w, top + numeral_h),
        wan_box=(0.5 - wan_half_w, wan_top, 0.5 + wan_half_w, min(0.97, wan_top + rng.uniform(0.4, 0.5))),
        # honours from a small mark to a character that fills the face, as many sets print them
        char_scale=rng.uniform(0.75, 1.2),
        dot_colours="rgb" if rng.random() < 0.6 else "".join(rng.permutation(list("rgb"))),
        # from a small corner mark to the bold numeral a fifth of the face tall that many sets print
        bonus_number_box=_corner_box(corners[0], rng.uniform(0.18, 0.42)),
        bonus_char_box=_corner_box(corners[1], rng.uniform(0.18, 0.6)),
        warp=rng.uniform(0.3, 1.5) if rng.random() < 0.75 else 0.0,
        dot_rings=int(rng.integers(1, 4)),
        petals=int(rng.choice([0, 5, 6, 8, 10, 12])),
        dot_disc=bool(rng.random() < 0.4),
        # two sets in three print pictures that say nothing of the tile (shuffled or made up), so the
        # name or number is read, as on a set whose pictures the reader has never seen
        bonus_pictures=("own", "shuffled", "random")[int(rng.integers(3))],
        bonus_ink="br" if rng.random() < 0.5 else "".join(rng.choice(list("rgbk"), 2)),
        bonus_numbers=bool(rng.random() < 0.8),
        line_art=bool(rng.random() < 0.25),
        vary_bird=True,
        corner_index=bool(rng.random() < 0.2),
    )


def _corner_box(corner: int, size: float) -> tuple[float, float, float, float]:
    """A box `size` face widths wide in corner 0 (top left), 1 (top right), 2 or 3 (bottom)."""
    left, top = corner % 2 == 0, corner < 2
    x0 = 0.04 if left else 0.96 - size
    y0 = 0.03 if top else 0.97 - size * 0.75
    return (x0, y0, x0 + size, y0 + size * 0.75)


def random_recipe(variant: int, fonts: tuple[tuple[str, int], ...] | None = None) -> FaceRecipe:
    """The drawing knobs of variant `variant` (same variant and fonts, same recipe)."""
    fonts = installed_fonts() if fonts is None else fonts
    rng = np.random.default_rng([7001, variant])
    pick = int(rng.integers(len(fonts) + 1))
    font, index = fonts[pick] if pick < len(fonts) else (None, 0)
    recipe = FaceRecipe(
        palette=random_palette(rng),
        font=font,
        font_index=index,
        weight=rng.uniform(0.07, 0.15),
        slant=rng.uniform(-0.04, 0.14),
        dots=("rings", "solid", "flower", "compound", "compound")[int(rng.integers(5))],
        bamboo=("sticks", "slim", "hollow")[int(rng.integers(3))],
        numeral_color="blue" if rng.random() < 0.3 else "black",
        white_dragon="frame" if rng.random() < 0.8 else "blank",
        bonus_numerals="chinese" if rng.random() < 0.4 else "arabic",
        variant=int(rng.integers(16)),
        engraved=bool(rng.random() < 0.5),
        layout=random_layout(rng, variant),
    )
    # Drawn after everything above, so the earlier knobs of a variant stay as they were.
    if rng.random() < 0.35:
        recipe = replace(recipe, bonus_numerals="arabic/chinese" if rng.random() < 0.7 else "chinese/arabic")
    if font is not None and rng.random() < 0.4:
        recipe = replace(recipe, five="伍")
    if font is None:
        # brush strokes draw no flower or season name: the number and the picture must tell them apart
        layout = replace(recipe.layout, bonus_pictures="own", bonus_numbers=True)
        return finishing_knobs(replace(recipe, layout=layout), rng)
    layout = recipe.layout
    if rng.random() < 0.35 and bonus_groups_differ(recipe):
        layout = replace(layout, bonus_names=False)
    # names in the set's red, green or blue as often as in black; and in more sets the name is all
    # that tells a flower (or season) from the next, so a reader must learn to read it
    layout = replace(layout, bonus_name_ink=str(rng.choice(list("kkkrgb"))))
    if layout.bonus_names and rng.random() < 0.2:
        layout = replace(layout, bonus_numbers=False)
    return finishing_knobs(replace(recipe, layout=layout), rng)


def finishing_knobs(recipe: FaceRecipe, rng: np.random.Generator) -> FaceRecipe:
    """The knobs every set draws last, in this order (a knob added later goes at the end, so the sets
    drawn before it keep every earlier choice)."""
    knobs = (season_corner, bold_numbers, brush_birds, grid_pips, wind_inks, inset_numbers, brush_numerals)
    recipe = last_knobs(recipe, rng)
    for knob in knobs:
        recipe = knob(recipe, rng)
    return recipe


def last_knobs(recipe: FaceRecipe, rng: np.random.Generator) -> FaceRecipe:
    """Knobs drawn last, so a variant's earlier knobs stay as they were: winds in blue (many sets),
    one set in four printed in outlines (dots as rings, sticks as hollow rods, hollow characters),
    how the dots and sticks are coloured (`Layout.suit_colours`) and where the animals' names sit."""
    if rng.random() < 0.35:
        recipe = replace(recipe, wind_inks="bbbb")
    if rng.random() < 0.25:
        recipe = replace(recipe, layout=replace(recipe.layout, hollow_ink=float(rng.uniform(0.01, 0.03))))
    # dots and sticks coloured by the classic keys in two sets of five, else all one colour, by row
    # or at random: a reader that keys on colour groups reads an unseen set's 7 of dots as a 9
    scheme = ("classic", "classic", "mono", "rows", "random")[int(rng.integers(5))]
    layout = replace(recipe.layout, suit_colours=scheme, mono_key=str(rng.choice(list("rgbk"))))
    # the animal's name anywhere and in any ink (red most often): a name in red in the top left
    # corner must not read "animal" when a flower's or season's name sits there in that ink
    layout = replace(
        layout,
        animal_name_box=_corner_box(int(rng.integers(4)), rng.uniform(0.18, 0.35)),
        animal_name_ink=str(rng.choice(list("rrkgb"))),
    )
    # two sets in three draw a bird of their own on the 1 of bamboo, as every maker does
    if rng.random() < 0.67:
        layout = replace(layout, bird="random")
    # art from the classic margin to the face's edge (half the sets), so ink that meets the edge
    # is read, not taken for the tile's rim
    if rng.random() < 0.5:
        inset_w = float(rng.uniform(0.88, 1.0))
        layout = replace(layout, art_inset=(inset_w, min(1.0, inset_w + 0.02)))
    # one font set in four prints English names (flowers and seasons; winds in half of those)
    if recipe.font is not None and rng.random() < 0.25:
        top = bool(rng.random() < 0.5)
        height = float(rng.uniform(0.1, 0.16))
        box = (0.06, 0.02, 0.94, 0.02 + height) if top else (0.06, 0.98 - height, 0.94, 0.98)
        layout = replace(
            layout,
            name_script="english",
            english_name_box=box,
            wind_names=bool(rng.random() < 0.5),
            # the number in a corner away from the name's strip
            bonus_number_box=_corner_box(2 * int(top) + int(rng.integers(2)), float(rng.uniform(0.14, 0.3))),
        )
    recipe = replace(recipe, layout=layout)
    # one set in four prints the same plant on several bonus tiles (as many makers do), where the
    # number or the name is all that tells them apart: a reader must read it, not the picture
    if rng.random() < 0.25:
        one_picture = replace(recipe, layout=replace(layout, bonus_pictures="one", bonus_numbers=True))
        # one plant on all eight only where the tiles are still told apart (by names, or by numbers
        # whose script or ink differs between the groups): the same test every set is held to
        if rng.random() < 0.4 and bonus_tiles_told_apart(one_picture):
            return one_picture
        recipe = replace(recipe, layout=replace(layout, bonus_pictures="shared", bonus_numbers=True))
    return recipe


def inset_numbers(recipe: FaceRecipe, rng: np.random.Generator) -> FaceRecipe:
    """Drawn after every other knob: one numbered set in two prints its flowers' and seasons'
    numbers set in from the corner towards the face's middle (many sets print the season's 二 half
    way across the top), so a reader finds a number that is not snug in a corner."""
    layout = recipe.layout
    if not layout.bonus_numbers or rng.random() >= 0.5:
        return recipe
    inset = float(rng.uniform(0.03, 0.15))
    number_box = _set_in(layout.bonus_number_box, inset)
    season_box = None if layout.season_number_box is None else _set_in(layout.season_number_box, inset)
    name_box = layout.english_name_box if layout.name_script == "english" else layout.bonus_char_box
    names = recipe.font is not None and layout.bonus_names
    if names and any(box is not None and boxes_meet(box, name_box) for box in (number_box, season_box)):
        return recipe
    return replace(recipe, layout=replace(layout, bonus_number_box=number_box, season_number_box=season_box))


def brush_numerals(recipe: FaceRecipe, rng: np.random.Generator) -> FaceRecipe:
    """Drawn after every other knob: one set in two that numbers flowers or seasons in Chinese paints
    those numbers with a brush (`Layout.bonus_number_brush`), as many makers paint the seasons' 一-四."""
    layout = recipe.layout
    if not layout.bonus_numbers or "chinese" not in recipe.bonus_numerals or rng.random() >= 0.5:
        return recipe
    return replace(recipe, layout=replace(layout, bonus_number_brush=True))


def _set_in(box: Box, inset: float) -> Box:
    """`box` moved `inset` face widths from its side of the face towards the middle."""
    shift = inset if (box[0] + box[2]) / 2 < 0.5 else -inset
    return (box[0] + shift, box[1], box[2] + shift, box[3])


def season_corner(recipe: FaceRecipe, rng: np.random.Generator) -> FaceRecipe:
    """Drawn after every other knob: in one numbered set in three the seasons print their number in
    the mirrored corner (flowers top left, seasons top right, as many sets do), where no name sits."""
    layout = recipe.layout
    if not layout.bonus_numbers or rng.random() >= 1 / 3:
        return recipe
    x0, y0, x1, y1 = layout.bonus_number_box
    mirrored = (1.0 - x1, y0, 1.0 - x0, y1)
    names = recipe.font is not None and layout.bonus_names
    name_box = layout.english_name_box if layout.name_script == "english" else layout.bonus_char_box
    if names and boxes_meet(mirrored, name_box):
        return recipe
    return replace(recipe, layout=replace(layout, season_number_box=mirrored))


def bold_numbers(recipe: FaceRecipe, rng: np.random.Generator) -> FaceRecipe:
    """Drawn after every other knob: one numbered set in three prints its flowers' and seasons'
    numbers as chunky strokes (`Layout.bonus_number_bold`), as many brush-printed sets do."""
    layout = recipe.layout
    if not layout.bonus_numbers or rng.random() >= 1 / 3:
        return recipe
    return replace(recipe, layout=replace(layout, bonus_number_bold=float(rng.uniform(0.03, 0.08))))


def brush_birds(recipe: FaceRecipe, rng: np.random.Generator) -> FaceRecipe:
    """Drawn after every other knob: two in five sets that draw a bird of their own paint it in a
    few brush strokes (`datasets.birds.draw_brush_bird`), red most often, as many real sets do."""
    if recipe.layout.bird != "random" or rng.random() >= 0.4:
        return recipe
    return replace(recipe, layout=replace(recipe.layout, bird="brush"))


def grid_pips(recipe: FaceRecipe, rng: np.random.Generator) -> FaceRecipe:
    """Drawn after every other knob: one set in three sets its dots and sticks in even rows
    (`Layout.pips` "grid"), so that a reader counts them rather than knowing one arrangement."""
    if rng.random() >= 1 / 3:
        return recipe
    return replace(recipe, layout=replace(recipe.layout, pips="grid"))


def wind_inks(recipe: FaceRecipe, rng: np.random.Generator) -> FaceRecipe:
    """Drawn after every other knob: one set in five inks its winds otherwise than black or blue,
    all red or all green, or each wind its own ink (`FaceRecipe.wind_inks`)."""
    if rng.random() >= 0.2:
        return recipe
    one_ink = rng.random() < 0.5
    inks = str(rng.choice(["r", "g"])) * 4 if one_ink else "".join(rng.permutation(list("rgbk")))
    return replace(recipe, wind_inks=inks)


def boxes_meet(a: Box, b: Box) -> bool:
    """Whether two boxes (x0, y0, x1, y1) overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def bonus_tiles_told_apart(recipe: FaceRecipe) -> bool:
    """Whether each of the eight bonus tiles shows something the other seven do not: a number (its
    rank) beside a picture or number that tells its group, or a name."""
    layout = recipe.layout
    if recipe.font is not None and layout.bonus_names:
        return True
    if not layout.bonus_numbers:
        return False
    return layout.bonus_pictures != "one" or bonus_groups_differ(recipe)


def bonus_groups_differ(recipe: FaceRecipe) -> bool:
    """Whether a flower and the season of the same number differ without their names:
    by their numbers' script or ink (pictures alone may be shuffled or random)."""
    layout = recipe.layout
    scripts_differ = "/" in recipe.bonus_numerals
    flower_ink, season_ink = (np.array(palette_colour(recipe.palette, k)) for k in layout.bonus_ink[:2])
    inks_differ = float(np.abs(flower_ink - season_ink).sum()) >= 120
    return layout.bonus_numbers and (scripts_differ or inks_differ)


# the back colour of variant v is BACK_COLOURS[v % len(BACK_COLOURS)]
BACK_COLOURS: tuple[RGB, ...] = ((30, 120, 70), (35, 90, 160), (215, 140, 60), (40, 140, 120), (190, 40, 45))
