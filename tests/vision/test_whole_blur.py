"""The whole photo's blur, judged where too few tile faces are (a strong shake or a missed focus leaves
(almost) no tile found): a sharp scene, a plain table or a printed page is quiet, a shaken or defocused
scene is told, and a shake is named as one."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.tinymodels import write_models
from vision.bench_blur import motion_kernel
from vision.pipeline import TileReader
from vision.sharpness import (
    WHOLE_BLURRED_LINE,
    WHOLE_SHAKEN_LINE,
    whole_blur_warning,
    whole_photo_blur,
)


def _scene(seed: int = 3) -> np.ndarray:
    """A table seen from above, 1200 x 900, with tiles lying at a few angles, each with strokes and dots
    on its face, and the noise a phone leaves."""
    rng = np.random.default_rng(seed)
    rgb = np.full((900, 1200, 3), (40, 110, 60), np.uint8)
    for k in range(10):
        cx, cy = 130 + 105 * k, 300 + 260 * (k % 2)
        box = cv2.boxPoints(((cx, cy), (90, 120), float(rng.uniform(-30, 30))))
        cv2.fillConvexPoly(rgb, box.astype(np.int32), (240, 238, 230))
        for _ in range(4):
            a, b = rng.integers([cx - 30, cy - 40], [cx + 30, cy + 40], size=(2, 2))
            cv2.line(rgb, tuple(map(int, a)), tuple(map(int, b)), (30, 30, 160), 4)
            cv2.circle(rgb, tuple(map(int, b)), 8, (170, 20, 20), -1)
    return _with_noise(rgb, rng)


def _with_noise(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.clip(rgb + rng.normal(0, 2.5, rgb.shape), 0, 255).astype(np.uint8)


def _told(rgb: np.ndarray) -> list[str]:
    blur = whole_photo_blur(rgb)
    return [] if blur is None else whole_blur_warning(blur.sharpness, blur.even)


def test_a_sharp_scene_is_quiet() -> None:
    assert _told(_scene()) == []


@pytest.mark.parametrize(("length", "degrees"), [(25, 90.0), (35, 60.0), (40, 135.0), (20, 100.0)])
def test_a_shaken_scene_is_told_as_a_shake(length: int, degrees: float) -> None:
    rgb = cv2.filter2D(_scene(), -1, motion_kernel(length, degrees))
    assert _told(rgb) == [WHOLE_SHAKEN_LINE]


@pytest.mark.parametrize("sigma", [5.0, 10.0])
def test_a_defocused_scene_is_told_as_blurred(sigma: float) -> None:
    assert _told(cv2.GaussianBlur(_scene(), (0, 0), sigma)) == [WHOLE_BLURRED_LINE]


def test_a_plain_table_is_flat_and_says_nothing() -> None:
    rng = np.random.default_rng(1)
    table = _with_noise(np.full((900, 1200, 3), (150, 120, 90), np.uint8), rng)
    assert whole_photo_blur(table) is None
    assert whole_blur_warning(None) == []


def test_a_wood_table_whose_grain_runs_one_way_is_not_taken_for_a_shake() -> None:
    # its gradients all run across the grain, as no shaken scene's do (20 drawn ones, stage 84: every
    # wood table was told shaken before)
    rng = np.random.default_rng(4)
    grain = cv2.GaussianBlur(rng.normal(0, 1, (1, 1200)).astype(np.float32), (0, 0), 1.0)
    wood = np.repeat(grain, 900, axis=0)[..., None] * 0.12 + 1.0
    assert _told(_with_noise(wood * np.array([150.0, 110.0, 70.0]), rng)) == []


def test_a_sharp_printed_page_is_quiet() -> None:
    rng = np.random.default_rng(2)
    page = np.full((900, 1200, 3), 245, np.uint8)
    for row in range(60, 880, 45):
        words = "".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz   "), 50))
        cv2.putText(page, words, (30, row), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (20, 20, 20), 2, cv2.LINE_AA)
    assert _told(_with_noise(page, rng)) == []


def test_a_shaken_photo_with_no_tile_found_says_why(tmp_path: Path) -> None:
    # a strong shake often leaves the detector no tile (7 of 60 generated scenes at 25 px): such a
    # photo was told only "no tiles found", and the page asked whether it showed a mahjong hand at all
    rows = np.array([[100, 100, 10, 10, 0.01]], np.float32)  # a detector that finds nothing
    reader = TileReader.load(write_models(tmp_path, rows))
    shaken = reader.read(cv2.filter2D(_scene(), -1, motion_kernel(30, 70.0)))
    assert shaken.warnings[:2] == ("no tiles found", WHOLE_SHAKEN_LINE)
    assert shaken.seen is not None and shaken.seen.whole_sharpness is not None
    defocused = reader.read(cv2.GaussianBlur(_scene(), (0, 0), 8.0))
    assert WHOLE_BLURRED_LINE in defocused.warnings
    sharp = reader.read(_scene())
    assert not set(sharp.warnings) & {WHOLE_SHAKEN_LINE, WHOLE_BLURRED_LINE}
