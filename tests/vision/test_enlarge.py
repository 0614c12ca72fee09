"""A small photo (a webcam frame) is read enlarged to `TileReader.enlarge_to` where that is set (off by
default), its boxes and the rest of what is said of it in its own pixels (docs/vision.md, Webcam
frames)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import vision.pipeline
from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import write_models
from vision.crops import crop_tiles
from vision.pipeline import ENLARGE_TO, TileReader, enlarged


def test_enlarged_reaches_the_long_side_and_leaves_a_large_photo_as_it_is() -> None:
    rgb = np.zeros((300, 500, 3), np.uint8)
    big, factor = enlarged(rgb, 1000)
    assert big.shape == (600, 1000, 3) and factor == 2.0
    for long_side in (0, None, 500, 400):
        same, factor = enlarged(rgb, long_side)
        assert same is rgb and factor == 1.0


def test_by_default_a_webcam_frame_is_read_as_given() -> None:
    # enlarging a 640 px frame did not read more whole hands (docs/vision.md, Webcam frames)
    frame = np.zeros((480, 640, 3), np.uint8)
    assert enlarged(frame, ENLARGE_TO)[0] is frame
    assert TileReader.enlarge_to == ENLARGE_TO == 0


def _reader(tmp_path: Path, height: int, width: int, enlarge_to: int) -> TileReader:
    sc = scene(height, width)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640))))
    return dataclasses.replace(reader, enlarge_to=enlarge_to)


def test_a_small_photo_is_cropped_enlarged_and_its_boxes_given_in_its_own_pixels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sc = scene(240, 400)  # tiles 40 px wide
    reader = _reader(tmp_path, 240, 400, 1000)
    cut_from: list[tuple[int, ...]] = []

    def crops(rgb: np.ndarray, *args: Any, **kwargs: Any) -> np.ndarray:
        cut_from.append(rgb.shape)
        return crop_tiles(rgb, *args, **kwargs)

    monkeypatch.setattr(vision.pipeline, "crop_tiles", crops)
    reading = reader.read(sc.rgb)
    assert cut_from and set(cut_from) == {(600, 1000, 3)}  # the classifier's crops: 2.5 times as large
    assert reading.detections.codes == list(sc.codes)
    np.testing.assert_allclose(reading.detections.xyxy, sc.boxes, atol=2.0)
    assert reading.seen is not None and reading.seen.image_hw == (240, 400)
    # the small tiles are said to be small in the photo's own pixels, not the enlarged ones
    small = [w for w in reading.warnings if "tiles are small" in w]
    assert small == [w for w in small if "about 40 px wide" in w]


def test_a_photo_as_long_as_the_target_is_read_as_before(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    as_given = _reader(tmp_path, 600, 1000, 0).read(sc.rgb)
    at_target = _reader(tmp_path, 600, 1000, 1000).read(sc.rgb)
    np.testing.assert_array_equal(at_target.detections.xyxy, as_given.detections.xyxy)
    np.testing.assert_array_equal(at_target.probabilities, as_given.probabilities)


def test_a_tile_cut_from_a_small_photo_enlarged_looks_more_like_the_full_size_tile() -> None:
    """Why: a crop square of a webcam frame's tile is some 20 px, and the crop's INTER_AREA blows it
    up to the classifier's 128 px in blocks; enlarged smoothly first, it is closer to the tile as a
    phone photo shows it (what the classifier learnt)."""
    full = np.full((800, 800, 3), 235, np.uint8)
    cv2.circle(full, (400, 400), 36, (30, 30, 200), 5)  # a pin's ring on a 100 x 140 px tile
    cv2.line(full, (370, 440), (430, 360), (200, 30, 30), 4)
    box = np.array([[350, 330, 450, 470]], np.float32)
    reference = crop_tiles(full, box, 128, 0.1).astype(np.float32)
    factor = 1 / 5  # the 800 px scene as a 160 px frame: the tile 20 px wide
    small = cv2.resize(full, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    blocky = crop_tiles(small, box * factor, 128, 0.1).astype(np.float32)
    big, grown = enlarged(small, 800)
    smooth = crop_tiles(big, box * factor * grown, 128, 0.1).astype(np.float32)
    assert np.abs(smooth - reference).mean() < 0.9 * np.abs(blocky - reference).mean()  # 5.5 against 6.3
