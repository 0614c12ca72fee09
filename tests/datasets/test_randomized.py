"""The randomised style: many sets from seeds, each complete, reproducible and different."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from datasets.brush_numerals import draw_brush_numeral
from datasets.faces import (
    ENGLISH_NAMES,
    WIND_NAME_BOX,
    Box,
    FaceRecipe,
    Layout,
    Palette,
    bonus_numeral_script,
    bonus_picture_code,
    character_numeral,
    dot_spots,
    palette_colour,
    placed,
    render_face,
    scaled,
    stick_spots,
)
from datasets.randomized import (
    FACE_TEXT,
    VARIANTS,
    bold_numbers,
    bonus_groups_differ,
    bonus_tiles_told_apart,
    boxes_meet,
    brush_birds,
    brush_numerals,
    font_covers,
    grid_pips,
    inset_numbers,
    installed_fonts,
    random_recipe,
    wind_inks,
)
from datasets.styles import STYLES, StyleUnavailableError, style_faces
from datasets.synth import SAMPLE_SAFE_STYLES, render_scene
from vision.classes import BACK, CLASSES

NO_FONTS: tuple[tuple[str, int], ...] = ()
# 256 variants spread over the whole range: the recipe invariants hold for every set, checked on these
SOME_VARIANTS = range(0, VARIANTS, VARIANTS // 256)


def test_the_family_is_registered_as_a_sample_safe_style_with_variants() -> None:
    style = STYLES["randomized"]
    assert style.variants == VARIANTS > 1
    assert "randomized" in SAMPLE_SAFE_STYLES


@pytest.mark.parametrize("variant", [0, 17, VARIANTS - 1])
def test_every_variant_has_all_classes(variant: int) -> None:
    faces = style_faces("randomized", variant)
    assert sorted(faces) == sorted(CLASSES)


def test_a_variant_out_of_range_is_refused() -> None:
    with pytest.raises(StyleUnavailableError, match="variants"):
        style_faces("randomized", VARIANTS)
    with pytest.raises(StyleUnavailableError, match="variants"):
        style_faces("procedural", 1)


def test_variants_differ_and_a_variant_is_reproducible() -> None:
    a, b = random_recipe(3, NO_FONTS), random_recipe(4, NO_FONTS)
    assert a != b
    assert random_recipe(3, NO_FONTS) == a
    face_a, face_b = render_face(a, "7p"), render_face(b, "7p")
    assert np.array_equal(face_a, render_face(random_recipe(3, NO_FONTS), "7p"))
    assert (np.abs(face_a.astype(int) - face_b.astype(int)).max(axis=2) > 60).mean() > 0.02


def test_layouts_spread_over_the_ranges_users_see() -> None:
    layouts = [random_recipe(v, NO_FONTS).layout for v in SOME_VARIANTS]
    numeral_heights = [lay.numeral_box[3] - lay.numeral_box[1] for lay in layouts]
    assert max(numeral_heights) - min(numeral_heights) > 0.1
    assert max(lay.dot_scale for lay in layouts) > 1.1 > 0.9 > min(lay.dot_scale for lay in layouts)
    # the character's numeral sits above its 萬 in every variant
    assert all(lay.numeral_box[3] < lay.wan_box[1] for lay in layouts)
    # a flower's or season's number: a small corner mark in some sets, a bold numeral in others
    number_widths = [lay.bonus_number_box[2] - lay.bonus_number_box[0] for lay in layouts]
    assert min(number_widths) < 0.25 and max(number_widths) > 0.35
    assert all(0.0 <= v <= 1.0 for lay in layouts for v in lay.bonus_number_box)
    # honours from a small mark to a character that fills the face (read as E when never seen so)
    assert min(lay.char_scale for lay in layouts) < 0.8 and max(lay.char_scale for lay in layouts) > 1.15


@pytest.mark.parametrize("code", ["E", "S", "C", "fly"])
def test_the_largest_honour_fills_the_face_and_stays_on_it(code: str) -> None:
    recipe = random_recipe(5, NO_FONTS)
    big = replace(recipe, layout=replace(recipe.layout, char_scale=1.2, warp=0.0))
    face = render_face(big, code)
    ground = np.array(recipe.palette.ground, np.float32)
    ink = (np.abs(face[..., :3].astype(np.float32) - ground).max(axis=2) > 80) & (face[..., 3] > 0)
    cols, rows = np.flatnonzero(ink.any(axis=0)), np.flatnonzero(ink.any(axis=1))
    h, w = ink.shape
    assert (cols[-1] - cols[0]) / w > 0.75 or (rows[-1] - rows[0]) / h > 0.8
    assert cols[0] > 0 and cols[-1] < w - 1 and rows[0] > 0 and rows[-1] < h - 1


def test_default_layout_leaves_the_classic_spots_in_place() -> None:
    spots = [(0.3, 0.16, "g"), (0.7, 0.83, "r")]
    moved = placed(Layout(), spots, 6, 0.1)
    assert [key for *_, key in moved] == ["g", "r"]
    assert np.allclose([xy for *xy, _ in moved], [xy for *xy, _ in spots])


@settings(max_examples=60, deadline=None)
@given(
    x=st.floats(0.0, 1.0),
    y=st.floats(0.0, 1.0),
    spread=st.floats(0.5, 1.5),
    jitter=st.floats(0.0, 0.2),
    margin=st.floats(0.0, 0.3),
)
def test_placed_spots_stay_inside_the_margin(
    x: float, y: float, spread: float, jitter: float, margin: float
) -> None:
    layout = Layout(spread=spread, jitter=jitter, seed=5)
    ((nx, ny, key),) = placed(layout, [(x, y, "b")], 4, margin)
    assert key == "b"
    assert margin <= nx <= 1 - margin
    assert margin * 0.75 <= ny <= 1 - margin * 0.75


def test_scaled_keeps_the_centre() -> None:
    box = scaled((0.2, 0.1, 0.6, 0.5), 0.5)
    assert box == pytest.approx((0.3, 0.2, 0.5, 0.4))


def test_dot_colours_are_swapped_by_the_layout() -> None:
    plain = render_face(FaceRecipe(dots="solid"), "8p")  # 8p is all "b" dots
    swapped = render_face(FaceRecipe(dots="solid", layout=Layout(dot_colours="gbr")), "8p")
    # the blue of 8p becomes red: red channel up, blue down where the ink is
    ink = plain[..., 2].astype(int) - plain[..., 0].astype(int) > 60
    assert ink.mean() > 0.01
    assert swapped[..., 0][ink].mean() > plain[..., 0][ink].mean() + 60


def test_a_randomized_scene_records_its_variant_and_repeats() -> None:
    photo, meta = render_scene(21, "randomized", 320)
    again, meta_again = render_scene(21, "randomized", 320)
    assert 0 <= meta["variant"] < VARIANTS
    assert meta == meta_again and np.array_equal(photo, again)
    _, single = render_scene(21, "procedural", 320)
    assert "variant" not in single
    assert all(t["code"] in CLASSES for t in meta["tiles"])
    assert BACK in CLASSES


def test_warped_characters_keep_their_ink_and_colour() -> None:
    plain_recipe = FaceRecipe()
    warped_recipe = FaceRecipe(layout=Layout(warp=1.5, seed=9))
    plain, warped = render_face(plain_recipe, "E"), render_face(warped_recipe, "E")
    again = render_face(warped_recipe, "E")
    assert np.array_equal(warped, again)
    ink_plain = (plain[..., :3].astype(int).sum(axis=2) < 300).mean()
    ink_warped = (warped[..., :3].astype(int).sum(axis=2) < 300).mean()
    assert not np.array_equal(plain, warped)
    # another hand, the same character: the ink neither vanishes nor floods the face
    assert 0.5 * ink_plain < ink_warped < 2.0 * ink_plain


def test_font_coverage_spots_a_missing_glyph() -> None:
    fonts = installed_fonts()
    if not fonts:
        pytest.skip("no CJK font installed (run `bash datasets/install_art.sh`)")
    path, index = fonts[0]
    assert font_covers(path, index, FACE_TEXT)
    assert not font_covers(path, index, "\U000f0001")  # a private-use code point no font draws


@pytest.mark.parametrize("rank", [2, 3, 4, 5, 6, 7, 8, 9])
def test_big_dots_grow_until_they_touch_but_never_overlap(rank: int) -> None:
    from datasets.faces import _DOTS, FACE_H, FACE_W, largest_radius

    spots = placed(Layout(dot_scale=3.0), _DOTS[rank], rank, 0.05)
    r = largest_radius(spots)
    aspect = FACE_H / FACE_W
    for i, (x1, y1, _) in enumerate(spots):
        assert r <= min(x1, 1 - x1, y1 * aspect, (1 - y1) * aspect)
        for x2, y2, _ in spots[i + 1 :]:
            assert 2 * r <= float(np.hypot(x1 - x2, (y1 - y2) * aspect))
    # and the limit is reached: twice the radius nearly spans the closest pair or an edge
    closest = min(
        [min(x, 1 - x, y * aspect, (1 - y) * aspect) for x, y, _ in spots]
        + [
            float(np.hypot(a[0] - b[0], (a[1] - b[1]) * aspect)) / 2
            for i, a in enumerate(spots)
            for b in spots[i + 1 :]
        ]
    )
    assert r == pytest.approx(0.98 * closest)


def _ink(face: np.ndarray) -> float:
    """Share of a face's pixels that differ clearly from its ground."""
    return float((np.abs(face[..., :3].astype(int) - face[2, 96, :3].astype(int)).max(axis=2) > 60).mean())


def test_hollow_sticks_leave_the_ground_inside() -> None:
    solid = render_face(FaceRecipe(bamboo="sticks", layout=Layout(stick_width=0.1)), "2s")
    hollow = render_face(FaceRecipe(bamboo="hollow", layout=Layout(stick_width=0.1)), "2s")
    assert 0.2 * _ink(solid) < _ink(hollow) < 0.85 * _ink(solid)


BONUS = ("F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4")


def _differs(a: np.ndarray, b: np.ndarray) -> float:
    """Share of pixels that differ visibly between two faces."""
    return float((np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 60).mean())


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_shuffled_bonus_pictures_are_a_permutation_of_the_eight(seed: int) -> None:
    shuffled = Layout(seed=seed, bonus_pictures="shuffled")
    shown = [bonus_picture_code(shuffled, code) for code in BONUS]
    assert sorted(shown) == sorted(BONUS)
    assert [bonus_picture_code(Layout(seed=seed), code) for code in BONUS] == list(BONUS)


def test_a_shuffled_set_draws_another_tiles_picture_under_its_own_number() -> None:
    seed = next(
        s for s in range(100) if bonus_picture_code(Layout(seed=s, bonus_pictures="shuffled"), "F1") == "S2"
    )
    own = FaceRecipe(layout=Layout(seed=seed))
    shuffled = FaceRecipe(layout=Layout(seed=seed, bonus_pictures="shuffled"))
    # F1 now shows summer's sun: it looks like S2's face except for the number's digit and colour
    f1 = render_face(shuffled, "F1")
    assert _differs(f1, render_face(own, "F1")) > 0.1
    assert _differs(f1, render_face(own, "S2")) < 0.05


def test_random_bonus_pictures_differ_by_set_and_repeat_for_a_set() -> None:
    a = FaceRecipe(layout=Layout(seed=1, bonus_pictures="random"))
    b = FaceRecipe(layout=Layout(seed=2, bonus_pictures="random"))
    assert _differs(render_face(a, "S3"), render_face(b, "S3")) > 0.03
    assert _differs(render_face(a, "S3"), render_face(a, "S4")) > 0.03
    assert np.array_equal(render_face(a, "S3"), render_face(a, "S3"))


def _near(face: np.ndarray, rgb: tuple[int, int, int]) -> int:
    """Pixels of `face` within 30 of colour `rgb`."""
    return int((np.abs(face[..., :3].astype(int) - rgb).max(axis=2) < 30).sum())


def test_bonus_number_ink_follows_the_layout() -> None:
    box = (0.3, 0.3, 0.7, 0.7)  # a big number over a random plant
    classic = FaceRecipe(layout=Layout(bonus_pictures="random", seed=5, bonus_number_box=box))
    other = FaceRecipe(layout=Layout(bonus_pictures="random", seed=5, bonus_number_box=box, bonus_ink="gk"))
    p = classic.palette
    # the flower's number turns from the palette's blue to its green; the season's from red to black
    for code, was, now in (("F2", p.blue, p.green), ("S2", p.red, p.black)):
        before, after = render_face(classic, code), render_face(other, code)
        assert _near(after, now) > _near(before, now) + 50
        assert _near(before, was) > _near(after, was) + 50


def test_line_art_draws_pictures_in_one_ink_on_the_ground() -> None:
    plain, line = FaceRecipe(), FaceRecipe(layout=Layout(line_art=True))
    ground, ink = plain.palette.ground, plain.palette.red  # variant 0 inks in red
    for code in ("1s", "F3", "cat"):
        face = render_face(line, code)
        assert _differs(face, render_face(plain, code)) > 0.05
        inked = (np.abs(face[..., :3].astype(int) - ground).max(axis=2) > 60) & (face[..., 3] == 255)
        # every inked pixel is the ink (or its anti-aliased edge towards the ground)
        colours = face[..., :3][inked].astype(int)
        towards_ink = np.abs(colours - ink).max(axis=1) < np.abs(colours - ground).max(axis=1)
        assert inked.mean() > 0.02 and towards_ink.mean() > 0.9


def test_a_set_without_bonus_numbers_draws_none() -> None:
    box = (0.3, 0.3, 0.7, 0.7)
    numbered = Layout(bonus_pictures="random", seed=5, bonus_number_box=box)
    blue = FaceRecipe().palette.blue
    with_number = _near(render_face(FaceRecipe(layout=numbered), "F2"), blue)
    bare = _near(render_face(FaceRecipe(layout=replace(numbered, bonus_numbers=False)), "F2"), blue)
    assert with_number > bare + 50


def test_corner_index_marks_the_top_left_corner_only() -> None:
    plain, indexed = FaceRecipe(), FaceRecipe(layout=Layout(corner_index=True))
    for code in ("3m", "2p", "4s"):
        a, b = render_face(plain, code), render_face(indexed, code)
        changed = np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 60
        h, w = changed.shape
        assert changed[: h // 4, : w // 4].sum() > 10 and changed[h // 4 :, :].sum() == 0
    assert np.array_equal(render_face(plain, "P"), render_face(indexed, "P"))


def test_every_set_tells_its_eight_bonus_tiles_apart() -> None:
    for fonts in (NO_FONTS, installed_fonts()):
        for variant in SOME_VARIANTS:
            recipe = random_recipe(variant, fonts)
            assert bonus_tiles_told_apart(recipe)
            if recipe.font is None:  # no name to read: the number, beside a picture of the group
                assert recipe.layout.bonus_numbers
                assert recipe.layout.bonus_pictures in ("own", "shared", "one")


def test_a_nameless_set_of_one_plant_is_not_told_apart_by_pictures_alone() -> None:
    one = FaceRecipe(layout=Layout(bonus_pictures="one", bonus_ink="bb", bonus_names=False))
    assert not bonus_tiles_told_apart(one)
    assert bonus_tiles_told_apart(replace(one, bonus_numerals="arabic/chinese"))
    assert bonus_tiles_told_apart(replace(one, layout=replace(one.layout, bonus_pictures="shared")))
    unnumbered = replace(one.layout, bonus_numbers=False, bonus_pictures="own")
    assert not bonus_tiles_told_apart(replace(one, layout=unnumbered))


def test_shared_pictures_repeat_within_a_group_and_one_picture_over_all_eight() -> None:
    box = (0.7, 0.04, 0.96, 0.26)  # a small number in the top right corner, as on many sets

    def faces(mode: str) -> dict[str, np.ndarray]:
        layout = Layout(bonus_pictures=mode, seed=7, bonus_number_box=box, bonus_names=False)
        return {code: render_face(FaceRecipe(layout=layout), code) for code in BONUS}

    shared, one, own_random = faces("shared"), faces("one"), faces("random")
    # only the number's corner differs between tiles that share a plant
    assert _differs(shared["F1"], shared["F3"]) < 0.04 < _differs(own_random["F1"], own_random["F3"])
    assert _differs(shared["S2"], shared["S4"]) < 0.04
    assert _differs(shared["F2"], shared["S2"]) > 0.04
    assert _differs(one["F2"], one["S2"]) < 0.04
    assert _differs(shared["F1"], shared["F2"]) > 0.001  # the numbers still differ


def test_a_quarter_of_sets_print_one_plant_on_several_bonus_tiles() -> None:
    for fonts in (NO_FONTS, installed_fonts()):
        modes = [random_recipe(v, fonts).layout.bonus_pictures for v in SOME_VARIANTS]
        assert 0.15 < (modes.count("shared") + modes.count("one")) / len(modes) < 0.4
        assert modes.count("one") > 0


def test_sets_that_name_their_bonus_tiles_may_print_one_plant_whatever_their_numbers() -> None:
    recipes = [random_recipe(v, installed_fonts()) for v in SOME_VARIANTS]
    one = [r for r in recipes if r.layout.bonus_pictures == "one"]
    assert all(bonus_groups_differ(r) or r.layout.bonus_names for r in one)
    assert any(not bonus_groups_differ(r) for r in one)


def test_split_numerals_number_flowers_and_seasons_in_different_scripts() -> None:
    box = (0.3, 0.3, 0.7, 0.7)
    layout = Layout(bonus_pictures="random", seed=5, bonus_number_box=box, bonus_ink="bb")
    arabic, chinese = FaceRecipe(layout=layout), FaceRecipe(layout=layout, bonus_numerals="chinese")
    split = FaceRecipe(layout=layout, bonus_numerals="arabic/chinese")
    scripts = [bonus_numeral_script(split, c) for c in ("F1", "F4", "S1", "S4")]
    assert scripts == ["arabic", "arabic", "chinese", "chinese"]
    assert np.array_equal(render_face(split, "F3"), render_face(arabic, "F3"))
    assert np.array_equal(render_face(split, "S3"), render_face(chinese, "S3"))
    assert not np.array_equal(render_face(split, "S3"), render_face(arabic, "S3"))


def test_a_nameless_set_still_tells_a_flower_from_its_season() -> None:
    fonts = installed_fonts()
    if not fonts:
        pytest.skip("no CJK font installed: every set draws names only with a font")
    recipes = [random_recipe(v, fonts) for v in SOME_VARIANTS]
    nameless = [r for r in recipes if not r.layout.bonus_names]
    assert 0.1 < len(nameless) / len(recipes) < 0.5
    assert all(bonus_groups_differ(r) for r in nameless)
    for recipe in nameless[:3]:
        for n in "1234":
            assert _differs(render_face(recipe, f"F{n}"), render_face(recipe, f"S{n}")) > 0.002


def test_groups_differ_only_by_number_script_or_a_distinct_ink() -> None:
    same = FaceRecipe(layout=Layout(bonus_ink="bb"))
    assert not bonus_groups_differ(same)
    assert bonus_groups_differ(replace(same, bonus_numerals="chinese/arabic"))
    assert bonus_groups_differ(replace(same, layout=replace(same.layout, bonus_ink="br")))
    assert not bonus_groups_differ(replace(same, layout=Layout(bonus_ink="br", bonus_numbers=False)))


def test_some_font_sets_write_five_as_wu_and_brush_sets_never() -> None:
    fonts = installed_fonts()
    assert all(random_recipe(v, NO_FONTS).five == "五" for v in SOME_VARIANTS)
    if fonts:
        fives = {random_recipe(v, fonts).five for v in SOME_VARIANTS}
        assert fives == {"五", "伍"}
    recipe = FaceRecipe(font=fonts[0][0] if fonts else None, five="伍")
    assert character_numeral(recipe, 5) == "伍" and character_numeral(recipe, 4) == "四"
    if fonts:
        assert _differs(render_face(recipe, "5m"), render_face(replace(recipe, five="五"), "5m")) > 0.01


def test_every_set_prints_a_number_or_a_name_on_its_bonus_tiles() -> None:
    for fonts in (NO_FONTS, installed_fonts()):
        for variant in SOME_VARIANTS:
            layout = random_recipe(variant, fonts).layout
            assert layout.bonus_numbers or (layout.bonus_names and fonts)


def test_bonus_names_take_the_sets_ink() -> None:
    fonts = installed_fonts()
    if not fonts:
        pytest.skip("no CJK font installed: names are drawn only with a font")
    box = (0.2, 0.2, 0.8, 0.8)  # a big name
    layout = Layout(bonus_char_box=box, bonus_numbers=False, bonus_pictures="random", seed=3)
    black = FaceRecipe(font=fonts[0][0], font_index=fonts[0][1], layout=layout)
    red = replace(black, layout=replace(layout, bonus_name_ink="r"))
    p = black.palette
    assert _near(render_face(red, "S2"), p.red) > _near(render_face(black, "S2"), p.red) + 100


@pytest.mark.parametrize("code", ["5p", "9s", "C", "F1"])
def test_hollow_ink_keeps_an_outline_in_each_parts_colour(code: str) -> None:
    filled, outlined = FaceRecipe(), FaceRecipe(layout=Layout(hollow_ink=0.015))
    a, b = render_face(filled, code), render_face(outlined, code)
    # the insides are painted back to the ground: less ink, but the outline keeps every colour
    assert 0.15 * _ink(a) < _ink(b) < 0.9 * _ink(a)
    p = filled.palette
    for colour in (p.red, p.green, p.blue):
        if _near(a, colour) > 200:
            assert _near(b, colour) > 0.1 * _near(a, colour)


def test_hollow_ink_leaves_thin_strokes_whole() -> None:
    thin = FaceRecipe(bamboo="slim", layout=Layout(stick_width=0.02))
    outlined = replace(thin, layout=replace(thin.layout, hollow_ink=0.03))
    assert _differs(render_face(thin, "2s"), render_face(outlined, "2s")) < 0.01


def test_winds_take_the_sets_ink() -> None:
    black, blue = FaceRecipe(), FaceRecipe(wind_inks="bbbb")
    p = black.palette
    assert _near(render_face(blue, "E"), p.blue) > _near(render_face(black, "E"), p.blue) + 300


def test_some_sets_are_line_drawn_and_some_print_blue_winds() -> None:
    recipes = [random_recipe(v, NO_FONTS) for v in SOME_VARIANTS]
    hollow = [r.layout.hollow_ink for r in recipes if r.layout.hollow_ink > 0]
    assert 0.1 < len(hollow) / len(recipes) < 0.4 and all(0.01 <= w <= 0.03 for w in hollow)
    blue = sum(r.wind_inks == "bbbb" for r in recipes) / len(recipes)
    assert 0.2 < blue < 0.5


@pytest.mark.parametrize("code", ["7p", "9p", "5s", "8s", "9s"])
def test_a_mono_set_prints_every_dot_and_stick_in_its_one_ink(code: str) -> None:
    classic = FaceRecipe()
    mono = FaceRecipe(layout=Layout(suit_colours="mono", mono_key="b"))
    p = classic.palette
    a, b = render_face(classic, code), render_face(mono, code)
    assert _near(b, p.blue) > 0.8 * (_near(a, p.red) + _near(a, p.green) + _near(a, p.blue))
    assert _near(b, p.red) < 0.05 * _near(b, p.blue) and _near(b, p.green) < 0.05 * _near(b, p.blue)


def test_a_row_coloured_set_gives_each_row_of_the_nine_its_own_ink() -> None:
    face = render_face(FaceRecipe(layout=Layout(suit_colours="rows")), "9p")
    h = face.shape[0]
    p = FaceRecipe().palette
    # rows top to bottom take red, green, blue (the classic 9 of dots is blue, red, green)
    for band, ink in zip(
        (face[: h // 3], face[h // 3 : 2 * h // 3], face[2 * h // 3 :]), (p.red, p.green, p.blue), strict=True
    ):
        others = [c for c in (p.red, p.green, p.blue) if c != ink]
        assert _near(band, ink) > 10 * max(_near(band, c) for c in others)


def test_random_colours_repeat_for_a_set_and_differ_between_sets() -> None:
    a = FaceRecipe(layout=Layout(suit_colours="random", seed=1))
    b = FaceRecipe(layout=Layout(suit_colours="random", seed=2))
    assert np.array_equal(render_face(a, "9p"), render_face(a, "9p"))
    assert _differs(render_face(a, "9p"), render_face(b, "9p")) > 0.01


def test_sets_colour_their_suits_every_way() -> None:
    schemes = [random_recipe(v, NO_FONTS).layout.suit_colours for v in SOME_VARIANTS]
    shares = {s: schemes.count(s) / len(schemes) for s in ("classic", "mono", "rows", "random")}
    assert 0.3 < shares["classic"] < 0.5 and all(0.1 < shares[s] < 0.3 for s in ("mono", "rows", "random"))


def test_an_animals_name_takes_the_sets_corner_and_ink() -> None:
    fonts = installed_fonts()
    if not fonts:
        pytest.skip("no CJK font installed: names are drawn only with a font")
    top_left, bottom_right = (0.04, 0.02, 0.34, 0.25), (0.62, 0.72, 0.96, 0.97)
    red = FaceRecipe(font=fonts[0][0], font_index=fonts[0][1], layout=Layout(animal_name_box=top_left))
    moved = replace(red, layout=replace(red.layout, animal_name_box=bottom_right, animal_name_ink="b"))
    before, after = render_face(red, "rat"), render_face(moved, "rat")
    h, w = before.shape[:2]
    corner = (slice(0, h // 4), slice(0, w // 3))
    p = red.palette
    assert _near(before[corner], p.red) > _near(after[corner], p.red) + 20
    assert _near(after, p.blue) > _near(before, p.blue) + 20


def test_sets_print_animal_names_in_every_corner_and_ink() -> None:
    layouts = [random_recipe(v, NO_FONTS).layout for v in SOME_VARIANTS]
    corners = {(b[0] < 0.5, b[1] < 0.5) for b in (layout.animal_name_box for layout in layouts)}
    inks = [layout.animal_name_ink for layout in layouts]
    assert len(corners) == 4 and set(inks) == set("rgbk")
    assert 0.3 < inks.count("r") / len(inks) < 0.5


def _inked(face: np.ndarray, ground: tuple[int, int, int]) -> np.ndarray:
    """Pixels of the opaque face clearly off its ground colour."""
    return (np.abs(face[..., :3].astype(int) - ground).max(axis=2) > 60) & (face[..., 3] == 255)


def test_random_birds_differ_by_set_repeat_for_a_set_and_stay_on_the_face() -> None:
    a = FaceRecipe(layout=Layout(seed=1, bird="random"))
    b = FaceRecipe(layout=Layout(seed=2, bird="random"))
    peacock = render_face(FaceRecipe(), "1s")
    for recipe in (a, b):
        face = render_face(recipe, "1s")
        assert np.array_equal(face, render_face(recipe, "1s"))
        assert _differs(face, peacock) > 0.03
        inked = _inked(face, recipe.palette.ground)
        assert inked.mean() > 0.02
    assert _differs(render_face(a, "1s"), render_face(b, "1s")) > 0.03
    # the bird is the 1 of bamboo's only: the other sticks are drawn as before
    assert np.array_equal(render_face(a, "2s"), render_face(FaceRecipe(layout=Layout(seed=1)), "2s"))


def test_most_randomized_sets_draw_a_bird_of_their_own() -> None:
    birds = [random_recipe(v, NO_FONTS).layout.bird for v in SOME_VARIANTS]
    own = birds.count("random") + birds.count("brush")
    assert 0.5 < own / len(birds) < 0.85
    assert 0.25 < birds.count("brush") / own < 0.55  # two in five of those are painted in brush strokes
    assert set(birds) == {"random", "brush", "peacock"}


def test_a_brush_bird_changes_only_the_bird() -> None:
    rng = np.random.default_rng(3)
    recipes = [random_recipe(v, NO_FONTS) for v in SOME_VARIANTS]
    random_bird = next(r for r in recipes if r.layout.bird == "random")
    painted = [brush_birds(random_bird, rng) for _ in range(40)]
    assert {r.layout.bird for r in painted} == {"random", "brush"}
    for recipe in painted:
        assert recipe.layout == replace(random_bird.layout, bird=recipe.layout.bird)
    peacock = next(r for r in recipes if r.layout.bird == "peacock")
    assert all(brush_birds(peacock, rng) is peacock for _ in range(20))


def _red_share(face: np.ndarray, palette: Palette) -> float:
    """Share of a face's inked pixels in the palette's red."""
    inked = _inked(face, palette.ground)
    red = (np.abs(face[..., :3].astype(int) - palette.red).max(axis=2) < 40) & inked
    return float(red.sum() / max(1, inked.sum()))


def test_brush_birds_differ_by_set_repeat_for_a_set_and_lead_in_red() -> None:
    faces = {
        seed: render_face(FaceRecipe(layout=Layout(seed=seed, bird="brush")), "1s") for seed in range(12)
    }
    palette = FaceRecipe().palette
    for seed, face in faces.items():
        again = render_face(FaceRecipe(layout=Layout(seed=seed, bird="brush")), "1s")
        assert np.array_equal(face, again)
        assert 0.02 < _inked(face, palette.ground).mean() < 0.5
        assert _differs(face, render_face(FaceRecipe(layout=Layout(seed=seed, bird="random")), "1s")) > 0.03
    assert min(_differs(faces[a], faces[b]) for a in faces for b in faces if a < b) > 0.02
    # red leads in most of them: a reader must see red brushwork that is no red dragon
    assert sum(_red_share(face, palette) > 0.4 for face in faces.values()) >= 4


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_every_random_bird_is_drawn_with_ink(seed: int) -> None:
    recipe = FaceRecipe(layout=Layout(seed=seed, bird="random"))
    face = render_face(recipe, "1s")
    inked = _inked(face, recipe.palette.ground)
    assert 0.01 < inked.mean() < 0.6


def _ink_span(recipe: FaceRecipe, code: str) -> tuple[float, float, float]:
    """Top margin, left margin and width of the face's ink, as shares of the face."""
    inked = _inked(render_face(recipe, code), recipe.palette.ground)
    rows, cols = np.flatnonzero(inked.any(axis=1)), np.flatnonzero(inked.any(axis=0))
    h, w = inked.shape
    return rows[0] / h, cols[0] / w, (cols[-1] - cols[0]) / w


@pytest.mark.parametrize("code", ["2m", "S", "C"])
def test_sets_drawn_to_the_edge_bring_the_ink_to_it(code: str) -> None:
    classic = FaceRecipe(layout=Layout(char_scale=1.2, numeral_box=(0.2, 0.02, 0.8, 0.4)))
    edge = replace(classic, layout=replace(classic.layout, art_inset=(1.0, 1.0)))
    top, left, width = _ink_span(classic, code)
    edge_top, edge_left, edge_width = _ink_span(edge, code)
    # the classic margin keeps ink off the face's outer 6%; drawn to the edge, the ink moves out
    assert top > 0.06 and left > 0.06
    assert edge_top < top - 0.04 and edge_left < left - 0.04
    assert edge_width > width * 1.1


def test_half_the_sets_draw_to_the_edge() -> None:
    insets = [random_recipe(v, NO_FONTS).layout.art_inset for v in SOME_VARIANTS]
    wider = [inset[0] for inset in insets if inset != Layout().art_inset]
    assert 0.35 < len(wider) / len(insets) < 0.65
    assert min(wider) >= 0.88 and max(wider) > 0.98
    assert all(w <= h <= 1.0 for w, h in insets)


FAKE_FONT: tuple[tuple[str, int], ...] = (("a-font-never-opened.ttf", 0),)


def test_a_quarter_of_font_sets_print_english_names_and_brush_sets_none() -> None:
    recipes = [random_recipe(v, FAKE_FONT) for v in SOME_VARIANTS]
    english = [r.layout for r in recipes if r.font is not None]
    share = sum(lay.name_script == "english" for lay in english) / len(english)
    assert 0.15 < share < 0.35
    assert all(r.layout.name_script == "chinese" for r in recipes if r.font is None)
    assert all(random_recipe(v, NO_FONTS).layout.name_script == "chinese" for v in SOME_VARIANTS)
    for lay in english:
        if lay.name_script == "english":
            # the number sits in a corner on the other side from the name's strip
            strip, number = lay.english_name_box, lay.bonus_number_box
            assert number[3] <= strip[1] or number[1] >= strip[3]
    assert {lay.wind_names for lay in english if lay.name_script == "english"} == {True, False}


def test_every_font_drawn_can_print_every_english_name() -> None:
    assert set(ENGLISH_NAMES) == {"F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4", "E", "S", "W", "N"}
    fonts = installed_fonts()
    if not fonts:
        pytest.skip("no CJK font installed (datasets/install_art.sh)")
    names = [name for spellings in ENGLISH_NAMES.values() for name in spellings]
    assert all(font_covers(path, index, name) for path, index in fonts for name in names)


def _strip_ink(face: np.ndarray, ground: tuple[int, int, int], box: Box) -> float:
    h, w = face.shape[:2]
    inked = _inked(face, ground)
    return float(inked[int(box[1] * h) : int(box[3] * h), int(box[0] * w) : int(box[2] * w)].mean())


def test_english_names_are_printed_in_their_strip_and_tell_the_tiles_apart() -> None:
    fonts = installed_fonts()
    if not fonts:
        pytest.skip("no CJK font installed (datasets/install_art.sh)")
    font, index = fonts[0]
    strip = (0.06, 0.84, 0.94, 0.98)
    layout = Layout(name_script="english", english_name_box=strip, bonus_number_box=(0.04, 0.03, 0.3, 0.2))
    recipe = FaceRecipe(font=font, font_index=index, layout=layout)
    chinese = replace(recipe, layout=replace(layout, name_script="chinese"))
    ground = recipe.palette.ground
    faces = {code: render_face(recipe, code) for code in ("F1", "F2", "S1")}
    # the strip holds the name (text inks a few percent of its box); Chinese sets print theirs elsewhere
    assert all(_strip_ink(face, ground, strip) > 0.04 for face in faces.values())
    assert _strip_ink(render_face(chinese, "F1"), ground, strip) < _strip_ink(faces["F1"], ground, strip) / 2
    assert _differs(faces["F1"][200:], faces["F2"][200:]) > 0.02
    # winds print their name above the character only in sets that do
    named = replace(recipe, layout=replace(layout, wind_names=True))
    unnamed = _strip_ink(render_face(recipe, "S"), ground, WIND_NAME_BOX)
    assert _strip_ink(render_face(named, "S"), ground, WIND_NAME_BOX) > 2 * unnamed


def test_a_set_may_number_its_seasons_in_another_corner_than_its_flowers() -> None:
    left, right = (0.06, 0.04, 0.3, 0.26), (0.7, 0.04, 0.94, 0.26)
    same = FaceRecipe(layout=Layout(bonus_pictures="random", seed=5, bonus_number_box=left))
    mirrored = FaceRecipe(layout=replace(same.layout, season_number_box=right))
    red = same.palette.red  # the seasons' number ink ("br")
    height, width = render_face(same, "S2").shape[:2]

    def corner_red(face: np.ndarray, box: Box) -> int:
        x0, y0, x1, y1 = box
        return _near(face[int(y0 * height) : int(y1 * height), int(x0 * width) : int(x1 * width)], red)

    before, after = render_face(same, "S2"), render_face(mirrored, "S2")
    assert corner_red(after, right) > corner_red(before, right) + 50
    assert corner_red(before, left) > corner_red(after, left) + 50
    # the flowers keep theirs
    np.testing.assert_array_equal(render_face(same, "F2"), render_face(mirrored, "F2"))


def test_the_seasons_number_moves_only_in_numbered_sets_and_never_onto_a_name() -> None:
    fonts = installed_fonts()
    recipes = [random_recipe(v, fonts) for v in range(96)]
    moved = [r for r in recipes if r.layout.season_number_box is not None]
    assert 10 <= len(moved) <= 60
    for recipe in moved:
        layout, seasons = recipe.layout, recipe.layout.season_number_box
        assert layout.bonus_numbers and seasons is not None
        x0, y0, x1, y1 = layout.bonus_number_box
        assert seasons == pytest.approx((1.0 - x1, y0, 1.0 - x0, y1))
        if recipe.font is not None and layout.bonus_names:
            names = layout.english_name_box if layout.name_script == "english" else layout.bonus_char_box
            assert not boxes_meet(seasons, names)


@pytest.mark.parametrize("numerals", ["chinese", "arabic"])
def test_a_bold_number_is_the_same_number_grown_in_its_own_ink(numerals: str) -> None:
    box = (0.6, 0.04, 0.94, 0.3)
    layout = Layout(bonus_pictures="random", seed=5, bonus_number_box=box)
    thin = FaceRecipe(bonus_numerals=numerals, layout=layout)
    bold = replace(thin, layout=replace(thin.layout, bonus_number_bold=0.06))
    red = thin.palette.red  # the seasons' number ink ("br")
    height, width = render_face(thin, "S1").shape[:2]
    inset_w, inset_h = thin.layout.art_inset  # the number box is placed within the art's inset
    left, top = width * (1 - inset_w) / 2, height * (1 - inset_h) / 2
    x0, x1 = (int(left + v * width * inset_w) for v in box[::2])
    y0, y1 = (int(top + v * height * inset_h) for v in box[1::2])
    for code in ("S1", "S2"):
        before, after = render_face(thin, code), render_face(bold, code)
        inside_before, inside_after = _near(before[y0:y1, x0:x1], red), _near(after[y0:y1, x0:x1], red)
        assert inside_after > 1.5 * inside_before > 0  # a hairline 一 becomes a stroke
        # grown around the number (a few pixels past its box), the rest of the face as it was
        rim = round(0.06 * (box[2] - box[0]) * width) + 3
        changed = np.abs(after.astype(int) - before.astype(int)).max(axis=2) > 0
        changed[max(0, y0 - rim) : y1 + rim, max(0, x0 - rim) : x1 + rim] = False
        assert not changed.any()


def test_bold_numbers_only_in_numbered_sets_a_share_of_them() -> None:
    fonts = installed_fonts()
    recipes = [random_recipe(v, fonts) for v in range(96)]
    bold = [r for r in recipes if r.layout.bonus_number_bold > 0]
    assert 8 <= len(bold) <= 50
    assert all(r.layout.bonus_numbers and 0.03 <= r.layout.bonus_number_bold <= 0.08 for r in bold)
    unnumbered = replace(recipes[0], layout=replace(recipes[0].layout, bonus_numbers=False))
    rng = np.random.default_rng(0)
    assert all(bold_numbers(unnumbered, rng) is unnumbered for _ in range(20))


def _pieces_of_ink(face: np.ndarray) -> int:
    """How many separate marks a face prints (outer outlines of its ink, holes not counted)."""
    red, green, blue = (int(v) for v in face[2, face.shape[1] // 2, :3])
    ink = _inked(face, (red, green, blue))
    contours, _ = cv2.findContours(ink.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return len(contours)


@pytest.mark.parametrize("rank", [2, 3, 4, 5, 6, 7, 8, 9])
def test_grid_pips_print_as_many_dots_as_the_rank(rank: int) -> None:
    recipe = FaceRecipe(layout=Layout(pips="grid", suit_colours="mono", mono_key="k"))
    spots, _ = dot_spots(recipe.layout, rank)
    assert len(spots) == rank
    assert _pieces_of_ink(render_face(recipe, f"{rank}p")) == rank


@pytest.mark.parametrize("rank", [3, 6, 8])
def test_grid_sticks_stand_apart_as_many_as_the_rank(rank: int) -> None:
    recipe = FaceRecipe(layout=Layout(pips="grid", suit_colours="mono", mono_key="k"))
    spots, _ = stick_spots(recipe.layout, rank)
    assert len(spots) == rank
    assert _pieces_of_ink(render_face(recipe, f"{rank}s")) == rank


def test_grid_pips_redraw_only_the_ranks_sets_draw_otherwise() -> None:
    classic = FaceRecipe(layout=Layout(seed=3))
    grid = replace(classic, layout=replace(classic.layout, pips="grid"))
    redrawn = {"3p", "6p", "7p", "8p", "3s", "6s", "8s"}
    for code in [f"{rank}{suit}" for suit in "ps" for rank in range(1, 10)] + ["5m", "F1", "E"]:
        same = np.array_equal(render_face(classic, code), render_face(grid, code))
        assert same == (code not in redrawn), code


@pytest.mark.parametrize("rank", [3, 6, 7, 8])
def test_big_grid_dots_never_overlap(rank: int) -> None:
    from datasets.faces import FACE_H, FACE_W, largest_radius

    centres, _ = dot_spots(Layout(pips="grid"), rank)
    spots = placed(Layout(dot_scale=3.0, pips="grid"), centres, rank, 0.05)
    r = largest_radius(spots)
    aspect = FACE_H / FACE_W
    for i, (x1, y1, _) in enumerate(spots):
        for x2, y2, _ in spots[i + 1 :]:
            assert 2 * r <= float(np.hypot(x1 - x2, (y1 - y2) * aspect))


def test_a_third_of_sets_set_their_pips_in_even_rows_and_nothing_else_moves() -> None:
    fonts = installed_fonts()
    grid = [v for v in range(96) if random_recipe(v, fonts).layout.pips == "grid"]
    assert 16 <= len(grid) <= 48
    rng = np.random.default_rng(0)
    start = random_recipe(1, NO_FONTS)
    for _ in range(20):
        drawn = grid_pips(start, rng)
        assert drawn is start or drawn == replace(start, layout=replace(start.layout, pips="grid"))


@pytest.mark.parametrize(
    ("inks", "code", "key"), [("rrrr", "E", "r"), ("rgbk", "S", "g"), ("kkbr", "W", "b")]
)
def test_a_wind_is_printed_in_its_own_ink(inks: str, code: str, key: str) -> None:
    plain = FaceRecipe()
    inked = FaceRecipe(wind_inks=inks)
    colour = palette_colour(plain.palette, key)
    assert _near(render_face(inked, code), colour) > _near(render_face(plain, code), colour) + 300


def test_a_fifth_of_sets_ink_their_winds_otherwise_and_nothing_else_moves() -> None:
    fonts = installed_fonts()
    inked = [random_recipe(v, fonts).wind_inks for v in range(200)]
    drawn = [inks for inks in inked if inks not in ("kkkk", "bbbb")]
    assert 20 <= len(drawn) <= 60
    assert all((len(set(inks)) == 1 and inks[0] in "rg") or sorted(inks) == sorted("rgbk") for inks in drawn)
    rng = np.random.default_rng(0)
    start = random_recipe(1, NO_FONTS)
    for _ in range(20):
        after = wind_inks(start, rng)
        assert after is start or after == replace(start, wind_inks=after.wind_inks)


def test_a_number_set_in_moves_towards_the_middle_only_in_numbered_sets_and_never_onto_a_name() -> None:
    fonts = installed_fonts()
    starts = [r for r in (random_recipe(v, fonts) for v in range(40)) if r.layout.bonus_numbers]
    rng = np.random.default_rng(0)
    moved = 0
    for start in starts:
        after = inset_numbers(start, rng)
        if after is start:
            continue
        moved += 1
        before_box, after_box = start.layout.bonus_number_box, after.layout.bonus_number_box
        shift = after_box[0] - before_box[0]
        # the whole box moves, sideways only, 0.03-0.15 of the face towards its middle
        assert 0.03 <= abs(shift) <= 0.15
        assert after_box == pytest.approx(
            (before_box[0] + shift, before_box[1], before_box[2] + shift, before_box[3])
        )
        middle = (before_box[0] + before_box[2]) / 2
        assert abs((after_box[0] + after_box[2]) / 2 - 0.5) < abs(middle - 0.5)
        assert after == replace(
            start,
            layout=replace(
                start.layout, bonus_number_box=after_box, season_number_box=after.layout.season_number_box
            ),
        )
        layout = after.layout
        if after.font is not None and layout.bonus_names:
            names = layout.english_name_box if layout.name_script == "english" else layout.bonus_char_box
            assert not boxes_meet(layout.bonus_number_box, names)
    assert 0.25 * len(starts) <= moved <= 0.75 * len(starts)
    unnumbered = replace(starts[0], layout=replace(starts[0].layout, bonus_numbers=False))
    assert all(inset_numbers(unnumbered, rng) is unnumbered for _ in range(10))


def test_a_seasons_number_set_in_stays_the_mirror_of_the_flowers() -> None:
    start = _numbered_with_seasons_mirrored()
    rng = np.random.default_rng(1)
    after = next(a for a in (inset_numbers(start, rng) for _ in range(20)) if a is not start)
    x0, y0, x1, y1 = after.layout.bonus_number_box
    assert after.layout.season_number_box == pytest.approx((1.0 - x1, y0, 1.0 - x0, y1))


def _numbered_with_seasons_mirrored() -> FaceRecipe:
    plain = FaceRecipe()
    layout = replace(plain.layout, bonus_numbers=True, bonus_number_box=(0.04, 0.03, 0.3, 0.225))
    return replace(plain, layout=replace(layout, season_number_box=(0.7, 0.03, 0.96, 0.225)))


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_a_brush_numeral_paints_one_stroke_per_rank_stacked_and_inside_its_box(rank: int) -> None:
    image = Image.new("L", (200, 160), 0)
    draw_brush_numeral(ImageDraw.Draw(image), rank, (40.0, 40.0, 160.0, 120.0), 255, [3, rank])  # type: ignore[arg-type]
    ink = np.asarray(image) > 127
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8))
    strokes = [s for s in stats[1:] if s[cv2.CC_STAT_AREA] > 30]
    assert len(strokes) == rank
    assert all(s[cv2.CC_STAT_WIDTH] > 2 * s[cv2.CC_STAT_HEIGHT] for s in strokes)  # lying, not standing
    ys, xs = np.nonzero(ink)
    assert xs.min() >= 30 and xs.max() <= 170 and ys.min() >= 30 and ys.max() <= 130


def test_a_brush_four_is_a_frame_around_its_legs_and_a_hand_repeats_for_its_seed() -> None:
    def painted(seed: list[int]) -> np.ndarray:
        image = Image.new("L", (200, 160), 0)
        draw_brush_numeral(ImageDraw.Draw(image), 4, (40.0, 40.0, 160.0, 120.0), 255, seed)  # type: ignore[arg-type]
        return np.asarray(image) > 127

    four = painted([1, 4])[40:120, 40:160]
    # ink down both sides and along the top and bottom (the frame), and between them (the legs)
    for side in (four[:, :20], four[:, -20:]):
        assert side.any(axis=1).mean() > 0.6
    for edge in (four[:25], four[-25:]):
        assert edge.any(axis=0).mean() > 0.7
    assert four[30:50, 30:90].any()
    np.testing.assert_array_equal(painted([1, 4]), painted([1, 4]))
    assert (painted([1, 4]) != painted([2, 4])).any()


def test_half_the_chinese_numbered_sets_paint_their_numbers_and_nothing_else_moves() -> None:
    fonts = installed_fonts()
    recipes = [random_recipe(v, fonts) for v in range(300)]
    chinese = [r for r in recipes if r.layout.bonus_numbers and "chinese" in r.bonus_numerals]
    painted = [r for r in chinese if r.layout.bonus_number_brush]
    assert 0.25 * len(chinese) <= len(painted) <= 0.75 * len(chinese)
    assert not any(r.layout.bonus_number_brush for r in recipes if r not in chinese)
    start = replace(chinese[0], layout=replace(chinese[0].layout, bonus_number_brush=False))
    rng = np.random.default_rng(0)
    for _ in range(10):
        after = brush_numerals(start, rng)
        brushed = replace(start, layout=replace(start.layout, bonus_number_brush=True))
        assert after is start or after == brushed


def test_a_brush_painted_number_replaces_the_fonts_and_only_on_the_chinese_group() -> None:
    recipe = FaceRecipe(bonus_numerals="arabic/chinese")
    painted = replace(recipe, layout=replace(recipe.layout, bonus_number_brush=True))
    assert (render_face(painted, "S2") != render_face(recipe, "S2")).any()
    np.testing.assert_array_equal(render_face(painted, "F2"), render_face(recipe, "F2"))
