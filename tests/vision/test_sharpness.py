"""The blur measure on small drawn photos: sharp faces pass, a shaken or defocused copy is told, and a
shake is named as one."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.bench_blur import disk_kernel, motion_kernel
from vision.classes import CLASSES
from vision.sharpness import (
    BLURRED_BELOW,
    BLURRED_LINE,
    SHAKEN_BELOW,
    SHAKEN_LINE,
    blur_lines,
    evenness,
    face_gradients,
    photo_blur,
    photo_sharpness,
    turned,
    whitened,
)


def _words(sharpness: float | None, even: float | None = None) -> list[str]:
    """The words of the blur line for `sharpness` and `even` (`blur_lines`), if any."""
    return [line.text for line in blur_lines(sharpness, even)]


def _photo(tile_w: int = 60, n: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """A green table with a row of `n` white tiles `tile_w` wide, each with strokes and dots on its
    face (as a tile's glyph), and their boxes."""
    tile_h = round(tile_w * 1.35)
    rgb = np.full((tile_h * 3, tile_w * (n + 2), 3), (40, 110, 60), np.uint8)
    boxes = []
    rng = np.random.default_rng(5)
    for k in range(n):
        x, y = tile_w * (k + 1), tile_h
        cv2.rectangle(rgb, (x + 1, y), (x + tile_w - 2, y + tile_h), (240, 238, 230), -1)
        for _ in range(4):  # strokes and dots every way, as glyphs and pips run
            a, b = rng.integers([x + 8, y + 8], [x + tile_w - 8, y + tile_h - 8], size=(2, 2))
            cv2.line(rgb, tuple(map(int, a)), tuple(map(int, b)), (30, 30, 160), max(1, tile_w // 20))
            cv2.circle(rgb, tuple(map(int, b)), max(2, tile_w // 10), (170, 20, 20), -1)
        boxes.append([x, y, x + tile_w, y + tile_h])
    return rgb, np.array(boxes, np.float32)


def _read_as(code: str, n: int) -> np.ndarray:
    probabilities = np.zeros((n, len(CLASSES)), np.float32)
    probabilities[:, CLASSES.index(code)] = 1.0
    return probabilities


@pytest.mark.parametrize("tile_w", [40, 60, 120], ids=["small", "mid", "large"])
def test_sharp_faces_are_quiet_and_blurred_ones_told(tile_w: int) -> None:
    rgb, boxes = _photo(tile_w)
    probabilities = _read_as("5p", len(boxes))
    sharp = photo_sharpness(rgb, boxes, probabilities)
    assert sharp is not None and sharp >= BLURRED_BELOW and blur_lines(sharp) == []
    # a shake a third of the tile long, or a defocus an eighth of it wide, is told at any tile size
    for kernel in (motion_kernel(tile_w // 3 | 1, 0.0), disk_kernel(tile_w // 8)):
        blurred = photo_sharpness(cv2.filter2D(rgb, -1, kernel), boxes, probabilities)
        assert blurred is not None and blurred < BLURRED_BELOW, (tile_w, blurred)
        assert _words(blurred) == [BLURRED_LINE]


def test_backs_and_too_few_faces_say_nothing() -> None:
    rgb, boxes = _photo()
    # backs show no face to judge, whatever the photo
    assert photo_sharpness(rgb, boxes, _read_as("back", len(boxes))) is None
    assert photo_sharpness(rgb, boxes[:2], _read_as("5p", 2)) is None
    assert photo_sharpness(rgb, boxes[:0], _read_as("5p", 0)) is None
    assert blur_lines(None) == []


def test_evenness_tells_gradients_running_one_way() -> None:
    assert evenness(np.array([0.5, 0.0, 0.5])) == pytest.approx(1.0)
    assert evenness(np.array([1.0, 0.0, 0.0])) == pytest.approx(0.0)
    assert 0.0 < evenness(np.array([0.7, 0.1, 0.3])) < 1.0


def _bamboo_photo(
    tile_w: int = 60, n: int = 6, sideways: bool = False, nodes: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """A row of `n` tiles whose faces are upright sticks, as bamboos' (gradients across the tile
    only), laid sideways when `sideways` (the photo turned a quarter: sticks across the row); with
    `nodes`, short bars across each stick, as the tile art draws a bamboo's joints."""
    tile_h = round(tile_w * 1.35)
    rgb = np.full((tile_h * 3, tile_w * (n + 2), 3), (40, 110, 60), np.uint8)
    boxes = []
    for k in range(n):
        x, y = tile_w * (k + 1), tile_h
        cv2.rectangle(rgb, (x + 1, y), (x + tile_w - 2, y + tile_h), (240, 238, 230), -1)
        for j in range(3):
            stick_x = x + tile_w * (j + 1) // 4
            cv2.line(
                rgb,
                (stick_x, y + tile_h // 5),
                (stick_x, y + tile_h * 4 // 5),
                (20, 120, 40),
                max(2, tile_w // 12),
            )
            for node_y in range(y + tile_h // 5, y + tile_h * 4 // 5 + 1, tile_h // 5) if nodes else ():
                reach = tile_w // 14
                cv2.line(rgb, (stick_x - reach, node_y), (stick_x + reach, node_y), (20, 120, 40), 2)
        boxes.append([x, y, x + tile_w, y + tile_h])
    xyxy = np.array(boxes, np.float32)
    if not sideways:
        return rgb, xyxy
    height = rgb.shape[0]
    # turned a quarter clockwise: (x, y) goes to (height - y, x)
    turned = np.ascontiguousarray(np.rot90(rgb, k=-1))
    return turned, np.stack([height - xyxy[:, 3], xyxy[:, 0], height - xyxy[:, 1], xyxy[:, 2]], axis=1)


@pytest.mark.parametrize("sideways", [False, True], ids=["upright", "sideways"])
def test_a_sharp_hand_of_bamboos_is_not_taken_for_a_shake(sideways: bool) -> None:
    """A bamboo's sticks give gradients one way, as a shake does: the faces' own direction
    (`face_gradients`, turned as the tile lies) is allowed for, so sharp bamboos are quiet."""
    rgb, boxes = _bamboo_photo(sideways=sideways)
    as_bamboos = photo_sharpness(rgb, boxes, _read_as("5s", len(boxes)))
    as_dots = photo_sharpness(rgb, boxes, _read_as("5p", len(boxes)))  # dots' strokes run every way
    assert as_bamboos is not None and as_dots is not None
    assert as_bamboos >= BLURRED_BELOW > as_dots
    shaken = photo_sharpness(cv2.filter2D(rgb, -1, motion_kernel(21, 0.0)), boxes, _read_as("5s", len(boxes)))
    assert shaken is not None and shaken < BLURRED_BELOW


def test_the_face_table_covers_every_tile_and_bamboos_run_across() -> None:
    table = face_gradients()
    assert set(table) == set(CLASSES)
    for tensor in table.values():
        assert tensor[0] + tensor[2] == pytest.approx(1.0, abs=1e-3)
    # upright sticks: gradients across the tile (x) outweigh those along it
    assert all(table[f"{rank}s"][0] > 0.6 for rank in range(2, 10))
    assert 0.4 < table["5p"][0] < 0.6


def test_a_tensor_turned_a_quarter_swaps_its_axes() -> None:
    tensor = np.array([0.8, 0.05, 0.2])
    quarter = turned(tensor, 90.0)
    assert quarter == pytest.approx([0.2, -0.05, 0.8], abs=1e-9)
    assert evenness(whitened(tensor, tensor)) == pytest.approx(1.0)


def _ring_photo(tile_w: int) -> tuple[np.ndarray, np.ndarray]:
    """A row of six tiles `tile_w` wide whose faces hold thin rings (gradients every way alike, and
    fine: a sharp face's many strokes), and their boxes."""
    tile_h = round(tile_w * 1.35)
    rgb = np.full((tile_h * 3, tile_w * 8, 3), (40, 110, 60), np.uint8)
    boxes = []
    rng = np.random.default_rng(5)
    for k in range(6):
        x, y = tile_w * (k + 1), tile_h
        cv2.rectangle(rgb, (x + 1, y), (x + tile_w - 2, y + tile_h), (240, 238, 230), -1)
        for _ in range(6):
            low, high = (x + tile_w // 4, y + tile_h // 4), (x + tile_w * 3 // 4, y + tile_h * 3 // 4)
            centre = rng.integers(low, high)
            radius = int(rng.integers(tile_w // 16, tile_w // 4))
            cv2.circle(rgb, (int(centre[0]), int(centre[1])), radius, (30, 30, 160), 1, cv2.LINE_AA)
        boxes.append([x, y, x + tile_w, y + tile_h])
    return rgb, np.array(boxes, np.float32)


def _told(rgb: np.ndarray, boxes: np.ndarray, code: str = "5p") -> list[str]:
    blur = photo_blur(rgb, boxes, _read_as(code, len(boxes)))
    assert blur is not None
    return _words(blur.sharpness, blur.even)


def test_a_shake_that_leaves_the_faces_fairly_sharp_is_told_as_a_shake() -> None:
    """A shake smears the faces one way and keeps much of their detail across it: an audit's 25 px
    shake (tiles about 130 px) had read sharper than BLURRED_BELOW, with no line."""
    rgb, boxes = _ring_photo(90)
    assert _told(rgb, boxes) == []
    shaken = cv2.filter2D(rgb, -1, motion_kernel(9, 0.0))
    blur = photo_blur(shaken, boxes, _read_as("5p", len(boxes)))
    assert blur is not None and BLURRED_BELOW <= blur.sharpness < SHAKEN_BELOW  # sharp enough before
    assert _told(shaken, boxes) == [SHAKEN_LINE]
    # a stronger shake, told blurred before, is named a shake too: its remedy is holding still
    assert _told(cv2.filter2D(rgb, -1, motion_kernel(15, 90.0)), boxes) == [SHAKEN_LINE]


@pytest.mark.parametrize("degrees", [30.0, 90.0])
def test_a_shake_of_large_tiles_is_named_a_shake_as_their_own_pixels_show(degrees: float) -> None:
    # shrunk to FACE_SIDE, a 17 px smear of 240 px faces is 2 px: their gradients ran evenly enough
    # there (0.64) and the shake was told as a missed focus, whose remedy (a tap to focus) is not its own
    rgb, boxes = _photo(240)
    assert _told(rgb, boxes) == []
    assert _told(cv2.filter2D(rgb, -1, motion_kernel(17, degrees)), boxes) == [SHAKEN_LINE]
    # a defocus of such faces blurs every way alike, at their own pixels too
    assert _told(cv2.filter2D(rgb, -1, disk_kernel(5)), boxes) == [BLURRED_LINE]


def test_a_defocus_is_not_named_a_shake() -> None:
    rgb, boxes = _ring_photo(60)
    # a defocus as soft as the shake above blurs every way alike: quiet, as before
    soft = cv2.filter2D(rgb, -1, disk_kernel(3))
    blur = photo_blur(soft, boxes, _read_as("5p", len(boxes)))
    assert blur is not None and BLURRED_BELOW <= blur.sharpness < SHAKEN_BELOW
    assert _told(soft, boxes) == []
    assert _told(cv2.filter2D(rgb, -1, disk_kernel(5)), boxes) == [BLURRED_LINE]


@pytest.mark.parametrize("sideways", [False, True], ids=["upright", "sideways"])
def test_sharp_bamboos_drawn_as_the_art_draws_them_are_not_taken_for_a_shake(sideways: bool) -> None:
    rgb, boxes = _bamboo_photo(sideways=sideways, nodes=True)
    assert _told(rgb, boxes, "5s") == []
    assert _told(cv2.filter2D(rgb, -1, motion_kernel(21, 0.0)), boxes, "5s") == [SHAKEN_LINE]


def test_the_blur_line_is_one_line_naming_a_shake_where_the_faces_run_one_way() -> None:
    assert _words(0.2, 0.4) == [SHAKEN_LINE]  # fairly sharp, but smeared one way
    assert blur_lines(0.2, 0.6) == []
    assert blur_lines(0.3, 0.1) == []  # sharp enough whatever way its faces run
    assert _words(0.1, 0.4) == [SHAKEN_LINE]
    assert _words(0.1, 0.6) == [BLURRED_LINE]
    assert _words(0.1) == [BLURRED_LINE]  # a reading kept before the shake line: as before
