"""Deskew: a tile's face turned square to the axes before the glyph look reads it (vision.deskew)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets.faces import FaceRecipe, render_face
from vision.deskew import (
    FACE_ASPECT,
    LEAST_COHERENCE,
    LEAST_DEGREES,
    LONGEST,
    box_angles,
    tile_angle,
    tile_angle_coherence,
    tile_sides,
    upright_face,
)

TABLE = 50  # the dark table the tests' tiles lie on


def turned_photo(code: str, degrees: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The face of `code` turned `degrees` (image coordinates, y down) on a dark table, its tight
    axis-aligned box, and the face itself."""
    face = np.ascontiguousarray(render_face(FaceRecipe(), code)[..., :3])
    height, width = face.shape[:2]
    side = int(1.6 * max(height, width))
    flat = np.full((side, side, 3), TABLE, np.uint8)
    top, left = (side - height) // 2, (side - width) // 2
    flat[top : top + height, left : left + width] = face
    # getRotationMatrix2D turns counter-clockwise on screen for a positive angle: negate it so a
    # positive `degrees` turns the face's top edge clockwise, as tile_angle measures it
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), -degrees, 1.0)
    photo = cv2.warpAffine(flat, turn, (side, side), borderValue=(TABLE, TABLE, TABLE))
    ys, xs = np.nonzero(photo.max(axis=2) > TABLE + 10)
    return photo, np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1], np.float32), face


def _box_crop(photo: np.ndarray, box: np.ndarray) -> np.ndarray:
    x1, y1, x2, y2 = (int(v) for v in box)
    return cv2.cvtColor(photo[y1:y2, x1:x2], cv2.COLOR_RGB2GRAY)


def _quarter_gap(a: float, b: float) -> float:
    return abs((a - b + 45.0) % 90.0 - 45.0)


@pytest.mark.parametrize("degrees", [-44, -30, -12, 0, 7, 25, 40])
@pytest.mark.parametrize("code", ["S", "5p", "3m"])
def test_the_angle_of_a_turned_face_is_found_up_to_a_quarter_turn(code: str, degrees: float) -> None:
    photo, box, _ = turned_photo(code, degrees)
    found = tile_angle(_box_crop(photo, box))
    assert -45.0 <= found < 45.0
    assert _quarter_gap(found, degrees) < 3.0, found
    # a quarter turn more is the same axes
    photo, box, _ = turned_photo(code, degrees + 90)
    assert _quarter_gap(tile_angle(_box_crop(photo, box)), degrees) < 3.0


def test_a_flat_crop_has_no_angle() -> None:
    assert tile_angle(np.full((20, 30), 128, np.uint8)) == 0.0


@settings(max_examples=150, deadline=None)
@given(st.floats(10, 400), st.floats(10, 400), st.floats(-25, 25))
def test_the_sides_of_a_turned_rectangle_are_recovered_from_its_box(
    width: float, height: float, degrees: float
) -> None:
    a = np.radians(degrees)
    c, s = abs(np.cos(a)), abs(np.sin(a))
    box_width, box_height = width * c + height * s, width * s + height * c
    found_w, found_h = tile_sides(box_width, box_height, degrees)
    assert found_w == pytest.approx(width, rel=1e-6, abs=1e-6)
    assert found_h == pytest.approx(height, rel=1e-6, abs=1e-6)


@pytest.mark.parametrize("degrees", [-45, -38, 33, 44])
@pytest.mark.parametrize("standing", [True, False])
def test_near_45_degrees_a_face_of_the_usual_shape_is_recovered_standing_or_lying(
    degrees: float, standing: bool
) -> None:
    height = 100.0
    width = FACE_ASPECT * height
    if not standing:
        width, height = height, width
    a = np.radians(degrees)
    c, s = abs(np.cos(a)), abs(np.sin(a))
    found_w, found_h = tile_sides(width * c + height * s, width * s + height * c, degrees)
    assert min(found_w, found_h) == pytest.approx(min(width, height), rel=0.02)
    assert max(found_w, found_h) == pytest.approx(max(width, height), rel=0.02)
    if abs(degrees) < 44:  # at exactly 45 degrees standing and lying fill the same box
        assert (found_h > found_w) == standing


def _likeness(a: np.ndarray, b: np.ndarray) -> float:
    small_a = cv2.resize(cv2.cvtColor(a, cv2.COLOR_RGB2GRAY), (48, 64), interpolation=cv2.INTER_AREA)
    small_b = cv2.resize(cv2.cvtColor(b, cv2.COLOR_RGB2GRAY), (48, 64), interpolation=cv2.INTER_AREA)
    return float(np.corrcoef(small_a.ravel().astype(float), small_b.ravel().astype(float))[0, 1])


@pytest.mark.parametrize("degrees", [-35, -15, 20, 38, 110, 200])
def test_the_upright_face_is_the_face_at_one_of_its_turns(degrees: float) -> None:
    photo, box, face = turned_photo("S", degrees)
    upright = upright_face(photo, box, 0.0)
    assert _quarter_gap(upright.degrees, degrees) < 3.0
    # the face comes back whole (its own size, not the box's) and in one of the turns offered
    best = max(_likeness(np.ascontiguousarray(np.rot90(upright.face, turn)), face) for turn in upright.turns)
    assert best > 0.85
    standing_up = (0, 2) if round(degrees / 90) % 2 == 0 else (1, 3)
    assert upright.turns == standing_up


def test_a_straight_tile_is_cut_from_its_box_at_most_longest_pixels_and_a_shrink_cuts_the_rim() -> None:
    photo, box, _ = turned_photo("S", LEAST_DEGREES / 2)
    x1, y1, x2, y2 = (int(v) for v in box)
    for zoom in (0.5, 2.0):  # a box under LONGEST pixels is cut at its own size, a larger one cut down
        zoomed = cv2.resize(photo, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA)
        height, width = (y2 - y1) * zoom, (x2 - x1) * zoom
        scale = min(1.0, LONGEST / max(height, width))
        upright = upright_face(zoomed, box * zoom, 0.0)
        assert upright.degrees == 0.0
        assert max(upright.face.shape[:2]) <= LONGEST
        assert upright.face.shape[:2] == pytest.approx((height * scale, width * scale), abs=1.0)
        inner = upright_face(zoomed, box * zoom, 0.1)
        assert inner.face.shape[:2] == pytest.approx((0.8 * height * scale, 0.8 * width * scale), abs=1.0)


@pytest.mark.parametrize("box", [[0, 0, 1, 1], [-5, -5, 3, 2], [95, 95, 140, 130], [10, 10, 12, 60]])
def test_tiny_or_clipped_boxes_still_give_a_face(box: list[float]) -> None:
    photo = np.random.default_rng(0).integers(0, 255, (100, 100, 3), dtype=np.uint8)
    upright = upright_face(photo, np.array(box, np.float32), 0.1)
    assert upright.face.ndim == 3 and min(upright.face.shape[:2]) >= 2
    assert upright.turns in ((0, 2), (1, 3), (0, 1, 2, 3))


@pytest.mark.parametrize("degrees", [-40, -15, 0, 10, 33])
def test_box_angles_measures_each_box_of_a_photo(degrees: float) -> None:
    photo, box, _ = turned_photo("5p", degrees)
    flat, flat_box, _ = turned_photo("5p", 0.0)
    both = np.concatenate([photo, np.zeros((photo.shape[0], flat.shape[1], 3), np.uint8)], axis=1)
    both[: flat.shape[0], photo.shape[1] :] = flat
    shifted = flat_box + np.array([photo.shape[1], 0, photo.shape[1], 0], np.float32)
    tiny = np.array([5, 5, 9, 30], np.float32)  # under MIN_ANGLE_SIDE across: not measured
    pad = np.array([-4, -4, 4, 4], np.float32)  # a detector's box holds the tile's edges
    found = box_angles(both, np.stack([box + pad, shifted + pad, tiny]))
    assert found.dtype == np.float32 and found.shape == (3,)
    assert _quarter_gap(float(found[0]), degrees) < 3.0 and _quarter_gap(float(found[1]), 0.0) < 3.0
    assert np.isnan(found[2])


def test_an_angle_the_gradients_do_not_agree_on_is_not_trusted() -> None:
    noise = np.random.default_rng(0).integers(0, 255, (80, 60, 3), dtype=np.uint8)
    _, coherence = tile_angle_coherence(cv2.cvtColor(noise, cv2.COLOR_RGB2GRAY))
    assert coherence < LEAST_COHERENCE
    assert np.isnan(box_angles(noise, np.array([[0, 0, 60, 80]], np.float32)))[0]
    photo, box, _ = turned_photo("S", 20.0)
    _, coherence = tile_angle_coherence(_box_crop(photo, box))
    assert coherence > 2 * LEAST_COHERENCE
