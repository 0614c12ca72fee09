"""The glyph look: a text recogniser reads the character of the winds and dragons (vision.glyphs)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from datasets.faces import FaceRecipe, render_face
from tests.vision.test_deskew import turned_photo
from tests.vision.tinymodels import classifier_model, write_models
from vision.classes import CLASS_INDEX, CLASSES
from vision.glyphs import (
    BLANK,
    BONUS,
    BONUS_GLYPHS,
    BONUS_WORDS,
    HONOURS,
    GlyphReader,
    bonus_columns,
    characters_in_line,
    edge_strips,
    face_windows,
    glyph_session,
    greedy_text,
    honour_columns,
    inner_crop,
    locate,
    longest_common_run,
    quarter_turns,
    single_glyph_probability,
    weigh,
    word_score,
)
from vision.pipeline import TileReader
from vision.sidecar import GlyphConfig, ModelError, parse_config

CHARS = 6  # blank and five characters, in the tests' made-up CTC outputs


def _steps(rows: np.ndarray) -> np.ndarray:
    values = rows + 1e-3
    return values / values.sum(axis=1, keepdims=True)


@settings(max_examples=80, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(1, 12), st.just(CHARS)), elements=st.floats(0, 1)))
def test_the_lines_of_one_character_are_at_most_every_line(rows: np.ndarray) -> None:
    steps = _steps(rows)
    single = single_glyph_probability(steps, np.arange(1, CHARS))
    assert (single >= 0).all() and (single <= 1 + 1e-9).all()
    # "exactly c" for different c are disjoint sets of paths, and all lines but the blank one remain
    assert single.sum() <= 1.0 - np.prod(steps[:, 0]) + 1e-9


def test_a_character_held_over_several_steps_is_read_once_and_two_characters_are_not_one() -> None:
    held = np.zeros((5, CHARS))
    held[[0, 4], 0] = 1.0  # blank, c, c, c, blank
    held[1:4, 2] = 1.0
    np.testing.assert_allclose(single_glyph_probability(held, np.array([1, 2, 3])), [0.0, 1.0, 0.0])
    two = np.zeros((3, CHARS))
    two[0, 2] = two[1, 0] = two[2, 3] = 1.0  # c, blank, d
    np.testing.assert_allclose(single_glyph_probability(two, np.array([2, 3])), [0.0, 0.0])
    unsure = np.zeros((1, CHARS))
    unsure[0, [2, 3]] = 0.5
    np.testing.assert_allclose(single_glyph_probability(unsure, np.array([2, 3])), [0.5, 0.5])


def test_a_tall_box_is_read_upright_or_upside_down_a_wide_one_sideways_a_square_one_any_way() -> None:
    assert quarter_turns(np.array([0, 0, 30, 40])) == (0, 2)
    assert quarter_turns(np.array([0, 0, 40, 30])) == (1, 3)
    assert quarter_turns(np.array([0, 0, 40, 42])) == (0, 1, 2, 3)


def test_the_inner_crop_leaves_the_rim_out_and_never_comes_out_empty() -> None:
    rgb = np.zeros((100, 100, 3), np.uint8)
    assert inner_crop(rgb, np.array([10, 20, 50, 80]), 0.1).shape == (48, 32, 3)
    assert inner_crop(rgb, np.array([99.5, 99.5, 100, 100]), 0.1).shape[:2] == (1, 1)
    assert inner_crop(rgb, np.array([-50, -50, 300, 300]), 0.0).shape == (100, 100, 3)


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.float64, (4, len(CLASSES)), elements=st.floats(0, 1)),
    arrays(np.float64, (4, len(HONOURS)), elements=st.floats(0, 1)),
    st.sets(st.integers(0, 3), min_size=1),
    st.floats(1e-4, 1.0),
)
def test_weighing_moves_only_the_honours_share_of_the_chosen_rows(
    first: np.ndarray, scores: np.ndarray, chosen: set[int], floor: float
) -> None:
    tiles = _steps(first).astype(np.float32)
    rows, columns = np.array(sorted(chosen)), honour_columns()
    out = weigh(tiles, rows, columns, scores[: len(rows)], floor)
    np.testing.assert_allclose(out.sum(axis=1), 1.0, atol=1e-5)
    others = np.setdiff1d(np.arange(len(CLASSES)), columns)
    np.testing.assert_array_equal(out[:, others], tiles[:, others])
    untouched = np.setdiff1d(np.arange(4), rows)
    np.testing.assert_array_equal(out[untouched], tiles[untouched])
    np.testing.assert_allclose(
        out[np.ix_(rows, columns)].sum(axis=1), tiles[np.ix_(rows, columns)].sum(axis=1), rtol=1e-5
    )


def test_a_sure_glyph_overrules_an_unsure_classifier_and_no_glyph_changes_nothing() -> None:
    tiles = np.zeros((2, len(CLASSES)), np.float32)
    tiles[:, CLASS_INDEX["E"]], tiles[:, CLASS_INDEX["S"]], tiles[:, CLASS_INDEX["3m"]] = 0.6, 0.3, 0.1
    scores = np.zeros((2, len(HONOURS)))
    scores[0, HONOURS.index("S")] = 0.9
    out = weigh(tiles, np.array([0, 1]), honour_columns(), scores, 1e-3)
    assert CLASSES[int(out[0].argmax())] == "S"
    np.testing.assert_allclose(out[1], tiles[1], atol=1e-6)


def _face_photo(code: str, turn: int) -> tuple[np.ndarray, np.ndarray]:
    """A brush-stroke face of `code` (no font needed) turned `turn` quarter turns, on a dark table."""
    face = np.ascontiguousarray(np.rot90(render_face(FaceRecipe(), code)[..., :3], turn))
    height, width = face.shape[:2]
    photo = np.full((height + 40, width + 40, 3), 50, np.uint8)
    photo[20 : 20 + height, 20 : 20 + width] = face
    return photo, np.array([[20, 20, 20 + width, 20 + height]], np.float32)


@pytest.fixture(scope="module")
def glyph_reader() -> GlyphReader:
    config = GlyphConfig()
    return GlyphReader.from_session(glyph_session(config, ["CPUExecutionProvider"], 1), config)


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_the_recogniser_reads_the_winds_and_the_red_dragon_at_any_quarter_turn(
    glyph_reader: GlyphReader, turn: int
) -> None:
    for code in ("E", "S", "W", "N", "C"):
        photo, box = _face_photo(code, turn)
        scores = glyph_reader.honour_scores(photo, box)[0]
        assert HONOURS[int(scores.argmax())] == code, (code, np.round(scores, 3))
        assert scores.max() > 0.5


def test_deskewed_the_recogniser_reads_a_character_turned_40_degrees_that_it_misses_as_it_lies(
    glyph_reader: GlyphReader,
) -> None:
    deskewed = replace(glyph_reader, config=GlyphConfig(deskew=True))
    missed = 0
    for code in ("E", "S", "W", "C"):
        photo, box, _ = turned_photo(code, 40)
        as_it_lies = glyph_reader.honour_scores(photo, box[None])[0]
        missed += HONOURS[int(as_it_lies.argmax())] != code or as_it_lies.max() < 0.5
        scores = deskewed.honour_scores(photo, box[None])[0]
        assert HONOURS[int(scores.argmax())] == code, (code, np.round(scores, 3))
        assert scores.max() > 0.5
    assert missed >= 3


def test_the_recogniser_sees_no_honour_on_a_suit_tile(glyph_reader: GlyphReader) -> None:
    for code in ("5p", "7s"):
        photo, box = _face_photo(code, 0)
        assert glyph_reader.honour_scores(photo, box).max() < 0.2


def test_the_recogniser_is_found_in_its_package_or_refused_in_one_line() -> None:
    assert locate(GlyphConfig()).name == "ch_PP-OCRv4_rec_infer.onnx"
    with pytest.raises(ModelError, match="needs the package no_such_package") as error:
        locate(GlyphConfig(package="no_such_package"))
    assert "\n" not in str(error.value)
    with pytest.raises(ModelError, match="glyph recogniser not found"):
        locate(GlyphConfig(file="models/missing.onnx"))


def _sidecar(glyphs: object) -> dict[str, object]:
    return {
        "detector": {"file": "d.onnx", "imgsz": 512, "names": ["tile"], "conf": 0.5},
        "classifier": {"file": "c.onnx", "imgsz": 96, "names": list(CLASSES)},
        "glyphs": glyphs,
    }


def test_the_sidecars_glyphs_section_is_optional_defaulted_and_checked() -> None:
    assert parse_config(_sidecar(None)).glyphs is None
    assert parse_config(_sidecar({})).glyphs == GlyphConfig()
    assert parse_config(_sidecar({"above": 0.5})).glyphs == GlyphConfig(above=0.5)
    assert parse_config(_sidecar({"deskew": True})).glyphs == GlyphConfig(deskew=True)
    for bad, message in (
        ({"deskew": "yes"}, "glyphs deskew must be true or false"),
        ({"above": 0}, "glyphs above"),
        ({"floor": 0}, "glyphs floor"),
        ({"shrink": 0.5}, "shrink"),
    ):
        with pytest.raises(ModelError, match=message):
            parse_config(_sidecar(bad))
    with pytest.raises(ModelError, match="malformed"):
        parse_config(_sidecar({"above": "high"}))


def test_the_pipeline_reads_the_glyph_where_the_classifier_cannot_tell_winds_apart(
    tmp_path: Path,
) -> None:
    models = write_models(tmp_path, np.zeros((1, 5), np.float32))
    # a classifier that reads the light faces as E, S or W, by their colour only
    honours = (CLASS_INDEX["E"], CLASS_INDEX["S"], CLASS_INDEX["W"])
    classifier_model(models / "tile_classifier.onnx", 32, None, targets=honours)
    sidecar = json.loads((models / "models.json").read_text())
    plain = TileReader.load(models).classifier
    sidecar["glyphs"] = {}
    (models / "models.json").write_text(json.dumps(sidecar))
    looking = TileReader.load(models).classifier
    assert plain.glyphs is None and looking.glyphs is not None
    read_plain, read_looking = [], []
    for code in ("E", "S", "W"):
        photo, box = _face_photo(code, 0)
        read_plain.append(CLASSES[int(plain.read_boxes(photo, box)[0][0].argmax())])
        read_looking.append(CLASSES[int(looking.read_boxes(photo, box)[0][0].argmax())])
    assert read_looking == ["E", "S", "W"]
    assert len(set(read_plain)) == 1  # by colour alone, every face reads the same


# The flowers' and seasons' names (GlyphConfig.bonus_above)


def test_the_names_read_are_the_names_the_generator_prints() -> None:
    from datasets.faces import FLOWER_CHARS, SEASON_CHARS

    assert set(BONUS) == set(FLOWER_CHARS) | set(SEASON_CHARS)
    for code in BONUS:
        assert {**FLOWER_CHARS, **SEASON_CHARS}[code] in BONUS_GLYPHS[code]
        assert BONUS_WORDS[code]  # every flower and season has an English name to read


def test_greedy_text_merges_held_characters_and_drops_blanks() -> None:
    charset = ("a", "b", "c")
    steps = np.zeros((6, 5))
    for t, column in enumerate([1, 1, 0, 1, 2, 2]):  # a a _ a b b
        steps[t, column] = 1.0
    assert greedy_text(steps, charset) == "AAB"
    steps[:, :] = 0
    steps[:, 4] = 1.0  # the column after the charset (a space) is not a character
    assert greedy_text(steps, charset) == ""


@settings(max_examples=100, deadline=None)
@given(st.text("ABCMNU", max_size=9), st.text("ABCMNU", max_size=9), st.text("ABCMNU", max_size=4))
def test_the_longest_common_run_is_symmetric_bounded_and_finds_a_word_inside_a_text(
    word: str, text: str, inner: str
) -> None:
    run = longest_common_run(word, text)
    assert run == longest_common_run(text, word)
    assert 0 <= run <= min(len(word), len(text))
    assert longest_common_run(inner, word + inner + text) == len(inner)


def test_a_word_counts_from_three_letters_in_a_row_and_fully_at_six_or_the_whole_word() -> None:
    assert word_score(("SPRING",), ["SPRING"]) == 1.0
    assert word_score(("SPRING",), ["XRINGU"]) == pytest.approx(4 / 6)
    assert word_score(("SPRING",), ["SP", "NG"]) == 0.0
    assert word_score(("CHRYSANTHEMUM", "MUM"), ["THEMUM"]) == 1.0  # six letters, or MUM whole
    assert word_score(("MUM",), ["SUMMER"]) == 0.0
    assert word_score(("PLUM",), []) == 0.0


def test_windows_sit_at_the_corners_and_each_edge_reads_left_to_right_in_one_strip() -> None:
    face = np.zeros((100, 80, 3), np.uint8)
    windows = face_windows(face)
    assert len(windows) == 4 and all(w.shape[:2] == (42, 39) for w in windows)
    where = np.zeros((100, 80, 3), np.uint8)
    where[..., 0], where[..., 1] = np.indices((100, 80))  # each pixel holds its row and column
    corners = {(int(w[0, 0, 0]), int(w[0, 0, 1])) for w in face_windows(where)}
    assert corners == {(0, 0), (0, 80 - 39), (100 - 42, 0), (100 - 42, 80 - 39)}
    assert all(w[-1, -1, 0] in (41, 99) and w[-1, -1, 1] in (38, 79) for w in face_windows(where))
    face[:, -5:] = 255  # mark the right edge
    strips = edge_strips(face)
    assert len(strips) == 8
    # turned a quarter anticlockwise, the right edge becomes the top strip, read along its length
    assert any(s.shape[1] == 100 and s[:5].min() == 255 for s in strips)
    # a face standing upright or upside down is read along its top and bottom only: the marked
    # long edge is in none of its strips
    upright = edge_strips(face, (0, 2))
    assert len(upright) == 4 and all(s.shape[1] == 80 for s in upright)
    assert all(s[:, -5:].min() == 255 for s in upright[:2])
    assert face_windows(np.zeros((4, 4, 3), np.uint8)) == []


def _named_face(word: str, edge: int) -> np.ndarray:
    """A pale face with a green ring for a picture and `word` in red along one edge, drawn with
    Pillow's own font (nothing to install): edge 0 bottom, 1 right, 2 top, 3 left."""
    from PIL import Image, ImageDraw, ImageFont

    face = np.full((128, 96, 3), (235, 230, 215), np.uint8)
    face[40:80, 30:34] = face[40:80, 62:66] = (40, 120, 40)
    strip = Image.new("RGB", (96 if edge in (0, 2) else 128, 22), (235, 230, 215))
    ImageDraw.Draw(strip).text((4, 2), word, fill=(200, 30, 30), font=ImageFont.load_default(size=16))
    text = np.asarray(strip)
    if edge == 0:
        face[104:126] = text
    elif edge == 2:
        face[2:24] = np.rot90(text, 2)
    elif edge == 1:
        face[:, 72:94] = np.rot90(text, 1)
    else:
        face[:, 2:24] = np.rot90(text, 3)
    photo = np.full((168, 136, 3), 50, np.uint8)
    photo[20:148, 20:116] = face
    return photo


@pytest.mark.parametrize(("edge", "sideways"), [(0, False), (2, False), (0, True), (2, True)])
def test_the_recogniser_reads_an_english_name_along_the_top_or_bottom_when_asked(
    glyph_reader: GlyphReader, edge: int, sideways: bool
) -> None:
    def photo(word: str) -> np.ndarray:
        upright = _named_face(word, edge)
        return np.ascontiguousarray(np.rot90(upright)) if sideways else upright

    # the tile stands upright (or upside down), or lies on its side: its box is wider than tall
    box = np.array([[20, 20, 148, 116] if sideways else [20, 20, 116, 148]], np.float32)
    words = replace(glyph_reader, config=GlyphConfig(bonus_above=0.3, bonus_words=True))
    for word, code in (("SPRING", "S1"), ("ORCHID", "F2"), ("WINTER", "S4")):
        scores = words.bonus_scores(photo(word), box)[0]
        assert BONUS[int(scores.argmax())] == code, (word, edge, np.round(scores, 2))
        assert scores.max() > 0.6
        # without the strips only the corners are read: they add to nothing the strips found
        assert (glyph_reader.bonus_scores(photo(word), box) <= scores + 1e-9).all()
    assert words.bonus_scores(photo(""), box).max() < 0.2


def test_a_name_along_the_long_side_of_a_standing_tile_is_not_read(glyph_reader: GlyphReader) -> None:
    # names run along the short edges of an upright face; its long sides' strips are not read
    box = np.array([[20, 20, 116, 148]], np.float32)
    words = replace(glyph_reader, config=GlyphConfig(bonus_above=0.3, bonus_words=True))
    assert words.bonus_scores(_named_face("SPRING", 1), box).max() < 0.2


def test_a_character_alone_in_a_corner_names_the_tile_and_spares_reading_the_edges(
    glyph_reader: GlyphReader,
) -> None:
    class Recogniser:
        """Stands in for the recogniser: blank everywhere, but the first window reads 秋 if told."""

        def __init__(self, autumn: bool) -> None:
            self.autumn = autumn
            self.lines: list[int] = []  # how many lines each call read

        def __call__(self, lines: list[np.ndarray]) -> np.ndarray:
            steps = np.zeros((len(lines), 4, len(glyph_reader.charset) + 2), np.float32)
            steps[:, :, BLANK] = 1.0
            if self.autumn and not self.lines:  # the windows come first
                column = glyph_reader.charset.index("秋") + 1
                steps[0, 1:3, BLANK], steps[0, 1:3, column] = 0.0, 1.0
            self.lines.append(len(lines))
            return steps

    photo, box = np.zeros((60, 60, 3), np.uint8), np.array([[5, 5, 45, 55]], np.float32)  # a tall box
    for autumn, words, lines in ((True, True, [8, 0]), (False, True, [8, 4]), (False, False, [8])):
        reader = replace(glyph_reader, config=GlyphConfig(bonus_above=0.3, bonus_words=words))
        fake = Recogniser(autumn)
        object.__setattr__(reader, "read_lines", fake)  # frozen dataclass: swap the method on this copy
        scores = reader.bonus_scores(photo, box)[0]
        expected = np.eye(len(BONUS))[BONUS.index("S3")] if autumn else np.zeros(len(BONUS))
        np.testing.assert_allclose(scores, expected)
        # four corners upright and upside down; top and bottom upright and upside down only if
        # asked and no corner held a name
        assert fake.lines == lines


def test_names_reweigh_only_the_flowers_and_seasons_and_only_when_asked(glyph_reader: GlyphReader) -> None:
    tiles = np.full((2, len(CLASSES)), 0.01, np.float32)
    tiles[0, CLASS_INDEX["S1"]], tiles[0, CLASS_INDEX["S3"]] = 0.5, 0.2  # a season, unsure which
    tiles[1, CLASS_INDEX["5p"]] = 0.9  # a suit tile
    tiles /= tiles.sum(axis=1, keepdims=True)
    photo = _named_face("AUTUMN", 0)
    boxes = np.array([[20, 20, 116, 148], [20, 20, 116, 148]], np.float32)
    off = glyph_reader.refine(photo, boxes, tiles)
    assert CLASSES[int(off[0].argmax())] == "S1"
    on = replace(glyph_reader, config=GlyphConfig(bonus_above=0.3, bonus_words=True)).refine(
        photo, boxes, tiles
    )
    assert CLASSES[int(on[0].argmax())] == "S3"
    np.testing.assert_allclose(on[0].sum(), tiles[0].sum(), rtol=1e-5)
    np.testing.assert_allclose(on[1], tiles[1])
    np.testing.assert_allclose(on[0, bonus_columns()].sum(), tiles[0, bonus_columns()].sum(), rtol=1e-5)


def test_the_sidecars_bonus_settings_are_optional_and_checked() -> None:
    assert parse_config(_sidecar({})).glyphs.bonus_above is None  # type: ignore[union-attr]
    parsed = parse_config(_sidecar({"bonus_above": 0.3, "bonus_floor": 0.02, "bonus_words": True})).glyphs
    assert parsed == GlyphConfig(bonus_above=0.3, bonus_floor=0.02, bonus_words=True)
    for bad, message in (
        ({"bonus_above": 0}, "bonus_above"),
        ({"bonus_floor": 0}, "bonus_floor"),
        ({"bonus_words": "yes"}, "bonus_words must be true or false"),
    ):
        with pytest.raises(ModelError, match=message):
            parse_config(_sidecar(bad))


def test_part_of_an_english_name_in_a_corner_counts_but_does_not_spare_the_strips(
    glyph_reader: GlyphReader,
) -> None:
    spelled = [glyph_reader.charset.index(letter) + 1 for letter in "SPR"]

    class Recogniser:
        """Stands in for the recogniser: the first window of each call reads SPR, the rest blank."""

        def __init__(self) -> None:
            self.lines: list[int] = []

        def __call__(self, lines: list[np.ndarray]) -> np.ndarray:
            steps = np.zeros((len(lines), 6, len(glyph_reader.charset) + 2), np.float32)
            steps[:, :, BLANK] = 1.0
            if lines and not self.lines:
                for t, column in enumerate(spelled):
                    steps[0, 2 * t, BLANK], steps[0, 2 * t, column] = 0.0, 1.0
            self.lines.append(len(lines))
            return steps

    photo, box = np.zeros((60, 60, 3), np.uint8), np.array([[5, 5, 45, 55]], np.float32)
    for words, lines in ((False, [8]), (True, [8, 4])):
        reader = replace(glyph_reader, config=GlyphConfig(bonus_above=0.3, bonus_words=words))
        fake = Recogniser()
        object.__setattr__(reader, "read_lines", fake)
        scores = reader.bonus_scores(photo, box)[0]
        assert BONUS[int(scores.argmax())] == "S1" and scores.max() == pytest.approx(0.5)  # 3 of 6
        assert fake.lines == lines


def _line(*columns: int, steps: int = 9) -> np.ndarray:
    """Made-up CTC outputs (steps, CHARS): blank throughout but for each of `columns` held two steps."""
    rows = np.zeros((steps, CHARS))
    rows[:, BLANK] = 1.0
    for i, column in enumerate(columns):
        rows[2 * i + 1 : 2 * i + 3, BLANK], rows[2 * i + 1 : 2 * i + 3, column] = 0.1, 0.9
    return rows


def test_a_character_anywhere_in_a_line_counts_and_one_never_read_does_not() -> None:
    faces = (np.array([1]), np.array([2, 3]), np.array([4]))  # the second face has two glyphs
    # alone, among other characters, by its second glyph, or not at all
    np.testing.assert_allclose(characters_in_line(_line(1), faces), [0.9, 0.0, 0.0])
    np.testing.assert_allclose(characters_in_line(_line(5, 1, 5), faces), [0.9, 0.0, 0.0])
    np.testing.assert_allclose(characters_in_line(_line(3, 4), faces), [0.0, 0.9, 0.9])
    np.testing.assert_allclose(characters_in_line(_line(5), faces), [0.0, 0.0, 0.0])
    # a glyph that is never the likeliest output at a step is not read, however close it comes
    faint = _line(5)
    faint[:, 1] = 0.4
    assert characters_in_line(faint, faces)[0] == 0.0


def _strip_recogniser(glyph_reader: GlyphReader, glyph: str) -> Callable[[list[np.ndarray]], np.ndarray]:
    """Stands in for the recogniser: blank everywhere but in the first line of its second call (the
    windows come first, then the strips), which holds `glyph` between two other characters."""
    held = [glyph_reader.charset.index(c) + 1 for c in ("X", glyph, "X")]
    calls: list[int] = []

    def read_lines(lines: list[np.ndarray]) -> np.ndarray:
        steps = np.zeros((len(lines), 8, len(glyph_reader.charset) + 2), np.float32)
        steps[:, :, BLANK] = 1.0
        if lines and len(calls) == 1:
            for t, column in zip((1, 3, 5), held, strict=True):
                steps[0, t, BLANK], steps[0, t, column] = 0.0, 1.0
        calls.append(len(lines))
        return steps

    return read_lines


def test_a_name_amid_other_text_in_an_edge_strip_is_read_only_when_asked(glyph_reader: GlyphReader) -> None:
    photo, box = np.zeros((60, 60, 3), np.uint8), np.array([[5, 5, 45, 55]], np.float32)
    for asked in (False, True):
        config = GlyphConfig(bonus_above=0.3, bonus_words=True, bonus_strip_glyphs=asked)
        reader = replace(glyph_reader, config=config)
        object.__setattr__(reader, "read_lines", _strip_recogniser(glyph_reader, "秋"))
        scores = reader.bonus_scores(photo, box)[0]
        expected = np.eye(len(BONUS))[BONUS.index("S3")] if asked else np.zeros(len(BONUS))
        np.testing.assert_allclose(scores, expected)


def test_the_sidecars_strip_glyphs_setting_is_optional_and_checked() -> None:
    assert parse_config(_sidecar({"bonus_strip_glyphs": True})).glyphs == GlyphConfig(bonus_strip_glyphs=True)
    assert parse_config(_sidecar({})).glyphs == GlyphConfig(bonus_strip_glyphs=False)
    with pytest.raises(ModelError, match="bonus_strip_glyphs must be true or false"):
        parse_config(_sidecar({"bonus_strip_glyphs": "yes"}))
