"""A glare spot by the tiles, where a tile may lie unread, is told; lit faces, a white cloth and a
bright table's speckle are not (an audit: a spot over a bonus tile scored 1 tai for 2, said nothing)."""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from app_ui.photo_rows import tile_numbers
from app_ui.reading import app_warnings, photo_read
from tests.vision.scenes import detector_rows, scene, table_texture
from tests.vision.seen_sim import plain
from tests.vision.tinymodels import write_models
from vision.glare import (
    GLARE_LEAST,
    GLARE_MOST,
    face_glare_lines,
    glare_lines,
    glare_look,
    white_patches,
)
from vision.lines import LAYOUT, PHOTO, TILE, TILES, Line
from vision.pipeline import Seen, TileReader
from vision.seen_store import load_seen, save_seen

TILE_W, TILE_H = 60, 80


def _hand(height: int = 600, width: int = 900, tiles: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """A dark table with a row of `tiles` light grey tiles (faces grey 210, not white-out), and their
    boxes: the row starts at x 150, y 260, a tile's width apart."""
    rgb = np.clip(table_texture(height, width).astype(np.int16) - 40, 0, 255).astype(np.uint8)
    boxes = []
    for k in range(tiles):
        x, y = 150 + k * (TILE_W + 4), 260
        rgb[y : y + TILE_H, x : x + TILE_W] = 210
        rgb[y + 20 : y + 60, x + 20 : x + 40] = (40, 90, 40)  # a face's picture
        boxes.append([x, y, x + TILE_W, y + TILE_H])
    return rgb, np.array(boxes, np.float32)


def _scores(boxes: np.ndarray) -> np.ndarray:
    return np.full(len(boxes), 0.9, np.float32)


def _spots(
    rgb: np.ndarray, xyxy: np.ndarray, det_score: np.ndarray, covered: np.ndarray | None = None
) -> tuple[tuple[float, float], ...]:
    """The glare spots the reader finds (`glare_look`: the spots of its one look)."""
    return glare_look(rgb, xyxy, det_score, covered)[0]


def _whited(rgb: np.ndarray, xyxy: np.ndarray, det_score: np.ndarray) -> tuple[int, ...]:
    """The whited faces the reader finds (`glare_look`: the faces of its one look)."""
    return glare_look(rgb, xyxy, det_score)[1]


def _blob(rgb: np.ndarray, centre: tuple[int, int], radius: int) -> np.ndarray:
    """`rgb` with a feathered white-out spot: a lamp's glint, white at its core."""
    mask = np.zeros(rgb.shape[:2], np.float32)
    cv2.circle(mask, centre, radius, 1.0, -1)
    mask = np.clip(cv2.GaussianBlur(mask, (0, 0), radius / 4) * 1.3, 0, 1)[..., None]
    return np.clip(rgb * (1 - mask) + 255 * mask, 0, 255).astype(np.uint8)


# where the row's seventh tile would lie, centred, its box left unfound
BESIDE = (150 + 6 * (TILE_W + 4) + TILE_W // 2, 260 + TILE_H // 2)


def test_a_white_spot_where_a_tile_would_lie_is_a_glare_spot_and_the_row_alone_is_none() -> None:
    rgb, boxes = _hand()
    assert _spots(rgb, boxes, _scores(boxes)) == ()
    spots = _spots(_blob(rgb, BESIDE, 40), boxes, _scores(boxes))
    assert len(spots) == 1
    assert abs(spots[0][0] - BESIDE[0]) < 6 and abs(spots[0][1] - BESIDE[1]) < 6


def test_a_spot_beside_the_row_hides_none_of_its_tiles_and_one_in_a_gap_in_it_is_told() -> None:
    rgb, boxes = _hand()
    # below the row's third and fourth tiles, a tile's length off: the row's spacing is whole
    below = (150 + 3 * (TILE_W + 4), 260 + TILE_H + TILE_H // 2 + 10)
    patches = [p for p in white_patches(_blob(rgb, below, 40), boxes, _scores(boxes)) if p.size > GLARE_LEAST]
    assert len(patches) == 1 and patches[0].beside_row
    assert _spots(_blob(rgb, below, 40), boxes, _scores(boxes)) == ()
    # the fourth tile lost under a spot: a gap of a tile's width in the row
    gap = (150 + 3 * (TILE_W + 4) + TILE_W // 2, 260 + TILE_H // 2)
    (spot,) = _spots(_blob(rgb, gap, 40), np.delete(boxes, 3, axis=0), _scores(boxes[1:]))
    assert abs(spot[0] - gap[0]) < 6 and abs(spot[1] - gap[1]) < 6
    # a spot off the row's end lies in line with it: told, as where its seventh tile would lie
    assert len(_spots(_blob(rgb, BESIDE, 40), boxes, _scores(boxes))) == 1


def test_a_spot_over_the_middle_of_a_found_tile_is_a_lit_face() -> None:
    rgb, boxes = _hand()
    x1, y1, x2, y2 = (int(v) for v in boxes[2])
    lit = rgb.copy()
    lit[y1 + 8 : y2 - 8, x1 + 8 : x2 - 8] = 255  # its face white-out, within its box
    assert _spots(lit, boxes, _scores(boxes)) == ()
    faces = rgb.copy()
    for x1, y1, x2, y2 in boxes.astype(int):
        faces[y1:y2, x1:x2] = 255  # every face white-out, the boxes tight round them
    assert _spots(faces, boxes, _scores(boxes)) == ()


def test_a_white_cloth_by_the_tiles_is_no_glare_spot() -> None:
    rgb, boxes = _hand()
    cloth = rgb.copy()
    cloth[360:600, :] = 255  # the tiles lie at the edge of a white cloth, about 45 tiles' worth
    patches = white_patches(cloth, boxes, _scores(boxes))
    assert max(p.size for p in patches) > GLARE_MOST
    assert _spots(cloth, boxes, _scores(boxes)) == ()


def test_a_table_white_out_in_patches_round_the_tiles_has_no_spot() -> None:
    rgb, boxes = _hand()
    bright = _blob(rgb, BESIDE, 40)
    for x in range(170, 560, 90):  # white patches along the row's other side too: the table is lit so
        bright = _blob(bright, (x, 400), 35)
    assert _spots(bright, boxes, _scores(boxes)) == ()


def test_a_spot_too_small_or_far_from_the_tiles_is_none() -> None:
    rgb, boxes = _hand()
    assert _spots(_blob(rgb, BESIDE, 6), boxes, _scores(boxes)) == ()  # a glint on a tile's edge
    assert _spots(_blob(rgb, (820, 80), 40), boxes, _scores(boxes)) == ()  # a lamp across the room
    # a white-out disc of a little over GLARE_LEAST of a tile's box is told, a little under is not
    for share, told in ((1.2, 1), (0.8, 0)):
        disc = rgb.copy()
        radius = round(float(np.sqrt(share * GLARE_LEAST * TILE_W * TILE_H / np.pi)))
        cv2.circle(disc, BESIDE, radius, (255, 255, 255), -1)
        assert len(_spots(disc, boxes, _scores(boxes))) == told, share


def test_too_few_boxes_to_judge_a_tile_or_a_spot_in_a_box_left_out_is_not_told() -> None:
    rgb, boxes = _hand()
    spotted = _blob(rgb, BESIDE, 40)
    assert _spots(spotted, boxes[:2], _scores(boxes[:2])) == ()
    # the detector boxed it and the classifier said it holds no tile: that line says where it is
    left_out = np.array([[BESIDE[0] - 45, BESIDE[1] - 45, BESIDE[0] + 45, BESIDE[1] + 45]], np.float32)
    assert _spots(spotted, boxes, _scores(boxes), left_out) == ()


def test_a_large_photo_is_looked_at_shrunk_and_its_spot_named_in_its_own_pixels() -> None:
    rgb, boxes = _hand()
    big = cv2.resize(_blob(rgb, BESIDE, 40), None, fx=4.0, fy=4.0, interpolation=cv2.INTER_NEAREST)
    (spot,) = _spots(big, boxes * 4.0, _scores(boxes))
    assert abs(spot[0] - 4 * BESIDE[0]) < 16 and abs(spot[1] - 4 * BESIDE[1]) < 16


def test_the_warning_names_the_spots_in_the_users_pixels() -> None:
    assert glare_lines(()) == []
    (line,) = glare_lines([(880.6, 745.2)], scale=0.5)
    assert line.text == (
        "a glare spot whites out part of the photo at (1761, 1490), by the tiles: a tile under it cannot "
        "be read; tilt the phone or shade the light and take it again"
    )
    assert line.kind == PHOTO and line.spots == ((880.6, 745.2),)  # in the pixels of the photo as read
    (two,) = glare_lines([(10, 20), (30, 40)])
    assert two.text.startswith(
        "2 glare spots white out parts of the photo at (10, 20), (30, 40), by the tiles"
    )
    (many,) = glare_lines([(1, 2)] * 4)
    assert "(1, 2), (1, 2), (1, 2), ..., by the tiles" in many.text


@pytest.mark.parametrize("spots", [[(880.6, 745.2)], [(10, 20), (30, 40)], [(1, 2)] * 4])
def test_the_page_says_it_without_pixels(spots: list[tuple[float, float]]) -> None:
    (line,) = app_warnings(glare_lines(spots))
    assert "(" not in line and " by the tiles: a tile under " in line
    assert line.split(" by the tiles")[0].endswith("of the photo")


def test_the_reader_tells_a_glare_spot_by_the_tiles_in_the_users_pixels(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)), det_hw=(384, 640)))
    table = np.clip(table_texture(600, 1000).astype(np.int16) - 40, 0, 255).astype(np.uint8)
    photo = np.where((sc.rgb == 128).all(axis=2, keepdims=True), table, sc.rgb)
    x1, y1, x2, y2 = (int(v) for v in sc.boxes[1])  # the middle tile; a spot right of it
    centre = (x2 + (x2 - x1) // 2 + 5, (y1 + y2) // 2)
    clean = reader.read(photo, source_scale=0.5)
    assert not any("glare spot" in w for w in clean.warnings), clean.warnings
    assert clean.seen is not None and clean.seen.glare == ()
    reading = reader.read(_blob(photo, centre, 45), source_scale=0.5)
    said = [w for w in reading.warnings if "glare spot" in w]
    assert len(said) == 1, reading.warnings
    found = re.match(r"a glare spot whites out part of the photo at \((\d+), (\d+)\), by the tiles", said[0])
    assert found is not None, said
    assert abs(int(found[1]) - 2 * centre[0]) <= 2 and abs(int(found[2]) - 2 * centre[1]) <= 2
    assert reading.detections.codes == list(sc.codes)  # the tiles read as they were
    # kept with the reading, to be settled again without the models
    assert reading.seen is not None and len(reading.seen.glare) == 1
    assert reader.settle(reading.seen, source_scale=0.5).warnings == reading.warnings


def test_a_saved_reading_keeps_its_glare_spots_and_one_saved_before_them_has_none(tmp_path: Path) -> None:
    rgb, boxes = _hand()
    seen_spots = ((601.5, 300.25),)
    seen = Seen(
        xyxy=boxes,
        det_score=_scores(boxes),
        probabilities=np.full((len(boxes), 49), 1 / 49, np.float32),
        angle=np.zeros(len(boxes), np.float32),
        rejected_xyxy=np.zeros((0, 4), np.float32),
        image_hw=rgb.shape[:2],
        glare=seen_spots,
    )
    path = tmp_path / "spotted.npz"
    save_seen(path, seen, 1.0)
    assert load_seen(path)[0].glare == seen_spots
    save_seen(path, dataclasses.replace(seen, glare=()), 1.0)
    assert load_seen(path)[0].glare == ()
    with np.load(path) as data:  # a reading saved before glare spots were looked for
        older = {name: data[name] for name in data.files if name != "glare"}
    np.savez_compressed(path, **older)
    assert load_seen(path)[0].glare == ()


def test_a_found_tile_whose_face_glare_whites_out_is_named_and_its_lit_edge_or_a_lit_table_is_not() -> None:
    rgb, boxes = _hand()
    assert _whited(rgb, boxes, _scores(boxes)) == ()
    x1, y1, x2, y2 = (int(v) for v in boxes[2])
    whited = _blob(rgb, ((x1 + x2) // 2, (y1 + y2) // 2), 38)  # a spot over the third tile, its box found
    assert _whited(whited, boxes, _scores(boxes)) == (2,)
    edge = rgb.copy()
    edge[y1:y2, x1 : x1 + 14] = 255  # light along its edge: its picture still shows
    assert _whited(edge, boxes, _scores(boxes)) == ()
    assert _whited(_blob(rgb, BESIDE, 40), boxes, _scores(boxes)) == ()  # a spot beside the tiles
    assert _whited(whited, boxes[:2], _scores(boxes[:2])) == ()  # too few boxes to judge a tile


def test_the_whited_face_line_names_the_tiles_and_the_page_says_it_without_pixels() -> None:
    boxes = np.array([[100, 280, 140, 320], [0, 0, 2, 4]] + [[0, 0, 2, 4]] * 3, np.float32)
    assert face_glare_lines(boxes, []) == []
    (one,) = face_glare_lines(boxes, [0])
    assert one.text == (
        "glare whites out the face of a tile at (120, 300), read unsure: its reading may be wrong; check it,"
        " or tilt the phone or shade the light and take it again"
    )
    assert one.kind == PHOTO and one.tiles == (0,)
    (many,) = face_glare_lines(boxes, [1, 2, 3, 4])
    assert many.text.startswith(
        "glare whites out the faces of 4 tiles at (1, 2), (1, 2), (1, 2), ..., read unsure:"
    )
    assert "their readings may be wrong; check them" in many.text and many.tiles == (1, 2, 3, 4)
    for line in (one, many):
        (page,) = app_warnings((line,))
        assert "(" not in page and page.startswith("glare whites out the face") and ", read unsure: " in page


def _seen(boxes: np.ndarray, probabilities: np.ndarray, whited: tuple[int, ...]) -> Seen:
    return Seen(
        xyxy=boxes,
        det_score=_scores(boxes),
        probabilities=probabilities,
        angle=np.zeros(len(boxes), np.float32),
        rejected_xyxy=np.zeros((0, 4), np.float32),
        image_hw=(600, 900),
        whited=whited,
    )


def _settling_reader(tmp_path: Path) -> TileReader:
    """A reader whose models are never run here: its readings are settled from a `Seen` built by hand."""
    sc = scene(600, 1000)
    return TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)), det_hw=(384, 640)))


def _read_surely(boxes: np.ndarray) -> np.ndarray:
    """Probabilities reading the row's tiles 1p 2p 3p ... at 0.99 each."""
    probabilities = np.full((len(boxes), 49), 0.01 / 48, np.float32)
    probabilities[np.arange(len(boxes)), np.arange(len(boxes)) + 9] = 0.99
    return probabilities


def test_the_reader_names_a_whited_face_read_unsure_and_not_a_white_dragon_read_surely(
    tmp_path: Path,
) -> None:
    reader = _settling_reader(tmp_path)
    _, boxes = _hand()
    sure = _read_surely(boxes)
    unsure = sure.copy()
    unsure[2] = 1 / 49  # the third tile's face blank: no face stands out
    said = [
        w for w in reader.settle(_seen(boxes, unsure, (2, 4)), source_scale=0.5).warnings if "whites out" in w
    ]
    x1, y1, x2, y2 = (float(v) for v in boxes[2])
    place = f"({int(x1 + x2)}, {int(y1 + y2)})"  # the user's pixels: twice the photo's
    assert said == [line.text for line in face_glare_lines(boxes, [2], 0.5)] and place in said[0]
    # the fifth, read surely, is a white dragon's blank face; a reading without whited faces says none
    assert not any("whites out" in w for w in reader.settle(_seen(boxes, sure, (2, 4))).warnings)
    assert not any("whites out" in w for w in reader.settle(_seen(boxes, unsure, ())).warnings)


def test_the_page_names_a_whited_face_by_its_tile_number_as_it_names_every_unsure_tile(
    tmp_path: Path,
) -> None:
    reader = _settling_reader(tmp_path)
    _, boxes = _hand()
    unsure = _read_surely(boxes)
    unsure[[2, 4]] = 1 / 49  # the third and fifth faces blank: no face stands out
    reading = reader.settle(_seen(boxes, unsure, (2,)))  # the app reads at the photo's own pixels
    number = tile_numbers(reading.detections, reading.layout)
    assert [w for w in photo_read(reading, time.perf_counter()).warnings if "whites out" in w] == [
        f"glare whites out the face of tile {number[2]}, read unsure: its reading may be wrong; check it,"
        " or tilt the phone or shade the light and take it again"
    ]
    reading = reader.settle(_seen(boxes, unsure, (2, 4)))
    number = tile_numbers(reading.detections, reading.layout)
    (both,) = [w for w in photo_read(reading, time.perf_counter()).warnings if "whites out" in w]
    assert both.startswith(
        f"glare whites out the faces of tiles {number[2]}, {number[4]}, read unsure: their"
    )
    # a tile with no number keeps the line without its places; every tile numbered is named, past the
    # few places the reader's words name
    boxes = np.array([[0, 0, 4, 4], [10, 0, 14, 4], [20, 0, 24, 4], [30, 0, 34, 4]], np.float32)
    (line,) = face_glare_lines(boxes, [1])
    assert app_warnings((line,), number={0: 7}) == app_warnings((line,)) == (line.unplaced,)
    assert app_warnings((line,), number={1: 7})[0].startswith("glare whites out the face of tile 7, read")
    (many,) = face_glare_lines(boxes, [3, 2, 1, 0])
    assert ", ..., read unsure" in many.text
    # in order, a run as its ends (`vision.lines.number_spans`)
    shown = app_warnings((many,), number={0: 1, 1: 2, 2: 3, 3: 9})
    assert plain(shown[0]).startswith(
        "glare whites out the faces of tiles 1–3, 9, read unsure: their readings"
    )


def test_a_reworded_line_on_a_whited_face_still_names_its_tile_by_number_and_stands_with_the_photos() -> None:
    # the page reads which tile a line names from the line's facts, not its words: a line reworded in
    # the reader (the page had parsed "the face of a tile at (x, y)" back out of it) keeps its number
    reworded = Line(
        "the light blanks a face at (412, 880): it reads unsure",
        PHOTO,
        tiles=(5,),
        unplaced="the light blanks a face: it reads unsure",
        by_number=f"the light blanks the face of tile {TILES}: it reads unsure",
    )
    away = Line("2 tiles away from the hand and its melds (1m x2): not counted", LAYOUT)
    assert app_warnings((away, reworded), number={5: 7}) == (
        "the light blanks the face of tile 7: it reads unsure",
        away.text,
    )
    assert app_warnings((away, reworded), number={}) == (
        "the light blanks a face: it reads unsure",
        away.text,
    )


def test_a_saved_reading_keeps_its_whited_faces_and_one_saved_before_them_has_none(tmp_path: Path) -> None:
    _, boxes = _hand()
    seen = _seen(boxes, np.full((len(boxes), 49), 1 / 49, np.float32), (1, 4))
    path = tmp_path / "whited.npz"
    save_seen(path, seen, 1.0)
    assert load_seen(path)[0].whited == (1, 4)
    with np.load(path) as data:  # a reading saved before whited-out faces were looked for
        older = {name: data[name] for name in data.files if name != "whited"}
    np.savez_compressed(path, **older)
    assert load_seen(path)[0].whited == ()


def test_a_readings_lines_say_its_warnings_word_for_word_and_name_by_index_what_they_name_by_place(
    tmp_path: Path,
) -> None:
    # the reader's words stay as `python -m vision --json` prints them; its lines' facts name the same
    # tiles, spots and boxes by index, and the page names and orders them from those facts
    reader = _settling_reader(tmp_path)
    _, boxes = _hand()
    probabilities = _read_surely(boxes)
    probabilities[2] = 1 / 49  # the third face blank, and whited out
    seen = dataclasses.replace(
        _seen(boxes, probabilities, (2,)),
        gain=2.5,
        filled=0.3,
        white=0.5,
        glare=((600.0, 300.0),),
        rejected_xyxy=np.array([[700, 100, 760, 180]], np.float32),
    )
    reading = reader.settle(seen)
    assert reading.warnings[:6] == (
        "the photo's file is damaged: 30% of it decoded as flat grey, and no tile there can be read; send the"
        " photo again from the phone",
        "the photo is dark: it was read brightened 2.5 times; a brighter photo reads more surely",
        "glare whites out the face of a tile at (308, 300), read unsure: its reading may be wrong; check it,"
        " or tilt the phone or shade the light and take it again",
        "a glare spot whites out part of the photo at (600, 300), by the tiles: a tile under it cannot be"
        " read; tilt the phone or shade the light and take it again",
        "unsure tile at (308, 300): 1m or 2m (its reading gives them 0.02 and 0.02)",
        "left out 1 box that holds no tile, at (730, 140)",
    )
    overexposed = "the photo is overexposed (50% of it is white): the tiles' faces are lost to the light; "
    assert reading.warnings[6].startswith(overexposed)
    assert reading.warnings[7:] == reading.layout.warnings  # type: ignore[union-attr]
    assert tuple(line.text for line in reading.lines) == reading.warnings
    assert [line.kind for line in reading.lines] == [PHOTO] * 4 + [TILE] * 2 + [PHOTO] + [LAYOUT] * (
        len(reading.warnings) - 7
    )
    whited, spot, unsure, left_out = reading.lines[2:6]
    assert (whited.tiles, spot.spots, unsure.tiles, left_out.left_out) == (
        (2,),
        ((600.0, 300.0),),
        (2,),
        (0,),
    )
    number = tile_numbers(reading.detections, reading.layout)
    page = photo_read(reading, time.perf_counter()).warnings
    assert page[:6] == (
        reading.warnings[0],
        reading.warnings[1],
        f"glare whites out the face of tile {number[2]}, read unsure: its reading may be wrong; check it,"
        " or tilt the phone or shade the light and take it again",
        "a glare spot whites out part of the photo by the tiles: a tile under it cannot be read; tilt the"
        " phone or shade the light and take it again",
        reading.warnings[6],  # a photo's fault before the lines on tiles
        "left out 1 box that holds no tile: dashed grey on the photo",
    )
