"""A photo shown on a screenshot's canvas is found and read alone (`vision.canvas`); a photo as taken,
or a rendered picture on a flat ground, is read whole."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.vision.scenes import detector_rows, scene, table_texture, textured
from tests.vision.tinymodels import write_models
from vision.canvas import content_xyxy
from vision.pipeline import TileReader


def _screenshot(
    photo: np.ndarray, colour: int, canvas_hw: tuple[int, int] = (1266, 585)
) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """`photo` fitted to a phone screen of `colour`, with a status bar's icons at the top and a home bar
    at the foot; the screenshot and where the photo lies in it."""
    height, width = canvas_hw
    shot = np.full((height, width, 3), colour, np.uint8)
    scale = min(width / photo.shape[1], height / photo.shape[0])
    fitted = np.asarray(
        Image.fromarray(photo).resize((round(photo.shape[1] * scale), round(photo.shape[0] * scale)))
    )
    top, left = (height - fitted.shape[0]) // 2, (width - fitted.shape[1]) // 2
    shot[top : top + fitted.shape[0], left : left + fitted.shape[1]] = fitted
    ink = 255 - colour
    shot[12:28, 20:70] = ink  # the time
    shot[14:26, width - 60 : width - 20] = ink  # the battery
    shot[height - 14 : height - 10, width // 2 - 60 : width // 2 + 60] = ink  # the home bar
    return shot, (left, top, left + fitted.shape[1], top + fitted.shape[0])


@pytest.mark.parametrize("colour", [0, 255])
def test_a_photo_fitted_to_a_phone_screen_is_found_on_its_canvas(colour: int) -> None:
    shot, placed = _screenshot(table_texture(600, 800), colour)
    assert content_xyxy(shot) == placed
    # a portrait photo on a landscape screen: bands beside it
    side, placed = _screenshot(table_texture(800, 600), colour, canvas_hw=(585, 1266))
    assert content_xyxy(side) == placed


def test_a_screenshot_forwarded_as_a_jpeg_is_found_within_its_ringing() -> None:
    shot, placed = _screenshot(table_texture(600, 800), 255)
    buffer = io.BytesIO()
    Image.fromarray(shot).save(buffer, "JPEG", quality=50)
    found = content_xyxy(np.asarray(Image.open(buffer).convert("RGB")))
    assert found is not None
    assert np.abs(np.subtract(found, placed)).max() <= 8, (found, placed)


def test_a_photo_as_taken_is_no_canvas() -> None:
    photo = table_texture(600, 800)
    assert content_xyxy(photo) is None
    # white-out along one edge is the photo's light, not a canvas; nor are bands of two colours
    blown = photo.copy()
    blown[:120] = 255
    assert content_xyxy(blown) is None
    two = photo.copy()
    two[:100], two[-100:] = 0, 255
    assert content_xyxy(two) is None


def test_a_rendered_picture_on_a_flat_ground_is_read_whole() -> None:
    # its first tiles meet the flat ground only where they lie: cut there, each would touch the cut
    picture = np.full((400, 600, 3), 128, np.uint8)
    picture[180:220, 100:500] = (200, 30, 30)
    assert content_xyxy(picture) is None
    assert content_xyxy(scene(300, 500).rgb) is None


def test_a_dark_photo_whose_tiles_lie_apart_across_flat_rows_is_read_whole() -> None:
    # flat black rows between a tile near the top and the hand: no viewer's chrome lies so far in
    dark = np.zeros((600, 800, 3), np.uint8)
    dark[150:200, 300:340] = 200  # a tile apart from the hand
    dark[330:380] = table_texture(50, 800)  # the hand's row
    assert content_xyxy(dark) is None


@pytest.mark.parametrize("colour", [0, 255])
def test_the_reader_reads_the_photo_on_a_canvas_as_the_photo_alone(tmp_path: Path, colour: int) -> None:
    sc = scene(400, 640)
    photo = textured(sc)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)), det_hw=(384, 640)))
    alone = reader.read(photo)
    assert alone.detections.codes == list(sc.codes)
    height, width = photo.shape[:2]
    shot = np.full((height + 700, width, 3), colour, np.uint8)
    shot[350 : 350 + height] = photo
    shot[10:30, 20:90] = 255 - colour  # the status bar's time
    seen = reader.see(shot)
    assert seen.content_xyxy == (0, 350, width, 350 + height) and seen.image_hw == shot.shape[:2]
    on_canvas = reader.read(shot)
    assert on_canvas.detections.codes == alone.detections.codes
    shift = np.array([0, 350, 0, 350], np.float32)
    np.testing.assert_allclose(on_canvas.detections.xyxy, alone.detections.xyxy + shift, atol=0.01)
    # the canvas's white is no white-out of the photo's, nor its size the photo's
    assert not any("overexposed" in w for w in on_canvas.warnings), on_canvas.warnings
    assert seen.white == reader.see(photo).white


def test_rows_of_tiles_on_a_clipped_black_table_are_read_whole() -> None:
    # an audit, stage 79: cut to the rows, every tile was said to touch the photo's edge; a photo's edge
    # runs corner to corner, the rows do not
    table = np.zeros((600, 800, 3), np.uint8)
    for top in (250, 320):
        table[top : top + 50, 100:700] = table_texture(50, 600, seed=top)
    assert content_xyxy(table) is None


def test_a_portrait_photo_on_a_landscape_screen_with_a_top_bar_is_found() -> None:
    # bands on both axes: each seam is looked at over the photo's own extent, not across the side bands
    screen = np.full((700, 1200, 3), 255, np.uint8)
    screen[10:40, 20:300] = 0  # a title bar's text
    screen[60:660, 400:800] = table_texture(600, 400)
    assert content_xyxy(screen) == (400, 60, 800, 660)


def test_a_gallery_s_thumbnail_strip_near_the_foot_is_chrome() -> None:
    shot, placed = _screenshot(table_texture(600, 800), 255)
    height = shot.shape[0]
    strip = round(0.88 * height)
    shot[strip : strip + 30, 40:500] = table_texture(30, 460, seed=3)  # thumbnails of the other photos
    assert content_xyxy(shot) == placed


def test_a_photo_whose_corner_is_white_out_is_found_on_a_white_screen() -> None:
    photo = table_texture(600, 800)
    photo[520:, 750:] = 255  # a lamp's glare in a corner (under a tenth of the edge), as white as the screen
    shot, placed = _screenshot(photo, 255)
    assert content_xyxy(shot) == placed


def test_a_box_at_the_photo_s_edge_on_a_screenshot_is_told_as_cut(tmp_path: Path) -> None:
    # the seam between photo and band is the photo's edge: a box left out there is a cut tile, and the
    # screen's own edge, far from it, tells nothing (boxes named in the screenshot's pixels)
    sc = scene(400, 640)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)), det_hw=(384, 640)))
    photo = textured(sc)
    shot = np.zeros((1100, 640, 3), np.uint8)
    shot[350:750] = photo
    seen = reader.see(shot)
    assert seen.content_xyxy == (0, 350, 640, 750)
    at_seam = np.array([[300, 351, 340, 391]], np.float32)  # on the photo's top edge
    said = reader.settle(replace(seen, rejected_xyxy=at_seam)).warnings
    assert "left out 1 box at the photo's edge, too cut to read as a tile, at (320, 371)" in said, said
    # read as the whole image (no canvas found), the same box lies far inside it: no tile was cut
    whole = reader.settle(replace(seen, rejected_xyxy=at_seam, content_xyxy=None)).warnings
    assert "left out 1 box that holds no tile, at (320, 371)" in whole, whole
