"""A dark photo is read brightened, and the reader says so; a lit one is read as it is."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import write_models
from vision.exposure import (
    BRIGHT_TO,
    DARK_BELOW,
    MAX_GAIN,
    bright_end,
    colour_end,
    dark_warning,
    gain_for,
    gains,
    with_gain,
)
from vision.pipeline import Detected, TileReader


def test_a_lit_photo_is_read_as_it_is() -> None:
    lit = scene(300, 500).rgb.copy()  # its bright end a mid grey, the table's
    lit[:5, :5] = 0  # a few black pixels do not make it dark
    assert bright_end(lit) >= DARK_BELOW
    gain = gain_for(lit)
    assert with_gain(lit, gain) is lit and gain == 1.0 and dark_warning(gain) == []


@settings(max_examples=30, deadline=None)
@given(dim=st.floats(min_value=0.03, max_value=0.6))
def test_a_dark_photo_is_scaled_up_to_a_lit_bright_end_by_at_most_the_largest_gain(dim: float) -> None:
    lit = scene(300, 500).rgb
    dark = np.rint(lit * dim).astype(np.uint8)
    end = bright_end(dark)
    gain = gain_for(dark)
    out = with_gain(dark, gain)
    if end >= DARK_BELOW or colour_end(dark) >= DARK_BELOW:
        assert gain == 1.0 and out is dark
        return
    assert 1.0 < gain <= MAX_GAIN
    assert gain == min(MAX_GAIN, BRIGHT_TO / max(end, 1.0))
    assert out.dtype == np.uint8 and out.shape == dark.shape
    assert bright_end(out) <= BRIGHT_TO + 1  # never past the lit level
    np.testing.assert_allclose(out.astype(float), np.clip(dark * gain, 0, 255), atol=1.0)


def _cloth(rgb: tuple[int, int, int], shape: tuple[int, int] = (300, 400)) -> np.ndarray:
    noise = np.random.default_rng(0).normal(0.0, 5.0, (*shape, 3))
    return np.clip(np.array(rgb, np.float64) + noise, 0, 255).astype(np.uint8)


def test_a_lit_coloured_cloth_is_not_dark_though_its_grey_is() -> None:
    green = _cloth((40, 110, 70))  # a felt's mid-green: grey about 85, its brightest channel 110
    assert bright_end(green) < DARK_BELOW <= colour_end(green)
    assert gain_for(green) == 1.0 and gains(green) == (1.0,)
    # the same cloth in a dim room is dark, and is brightened
    dim = _cloth((20, 55, 35))
    assert colour_end(dim) < DARK_BELOW
    assert gain_for(dim) == min(MAX_GAIN, BRIGHT_TO / bright_end(dim)) > 1.0


def test_a_photo_of_a_lit_cloth_and_no_tile_says_no_tile_and_not_dark(tmp_path: Path) -> None:
    # a detector that finds nothing (its one box scores 0)
    reader = TileReader.load(write_models(tmp_path, np.zeros((1, 5), np.float32)))
    reading = reader.read(_cloth((40, 110, 70)))
    assert not len(reading.detections)
    assert "no tiles found" in reading.warnings
    assert not any(w.startswith("the photo is dark") for w in reading.warnings), reading.warnings


def test_the_reader_reads_a_dark_photo_brightened_and_says_so(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)), det_hw=(384, 640)))
    dark = np.rint(sc.rgb * 0.15).astype(np.uint8)
    lit_reading, dark_reading = reader.read(sc.rgb), reader.read(dark)
    assert dark_reading.detections.codes == lit_reading.detections.codes == list(sc.codes)
    said = [w for w in dark_reading.warnings if w.startswith("the photo is dark")]
    assert len(said) == 1 and "brightened" in said[0], dark_reading.warnings
    assert not any(w.startswith("the photo is dark") for w in lit_reading.warnings)
    assert reader.see(dark).gain > 1.0 and reader.see(sc.rgb).gain == 1.0


def _with_lamp(rgb: np.ndarray, share: float) -> np.ndarray:
    """`rgb` with a white disc (a lamp in the frame) covering `share` of it, in a corner."""
    import cv2

    out = rgb.copy()
    radius = max(1, round(float(np.sqrt(share * rgb.shape[0] * rgb.shape[1] / np.pi))))
    cv2.circle(out, (radius + 2, radius + 2), radius, (255, 255, 255), -1)
    return out


def test_a_small_light_in_a_dark_photo_offers_the_gain_without_it() -> None:
    dark = np.rint(scene(300, 500).rgb * 0.15).astype(np.uint8)
    (alone,) = gains(dark)
    assert alone > 1.0
    for share in (0.0015, 0.004, 0.015):
        plain, unlit = gains(_with_lamp(dark, share))  # the lamp sets the bright end: read both ways
        assert plain == 1.0 and abs(unlit - alone) / alone < 0.05, (share, unlit, alone)


def test_a_lit_photo_with_a_light_or_a_white_expanse_has_one_gain() -> None:
    lit = scene(300, 500).rgb
    assert gains(_with_lamp(lit, 0.004)) == (1.0,)
    # white over a large part of a dark photo is what the photo shows, not a light in it
    dark = np.rint(lit * 0.15).astype(np.uint8)
    assert gains(_with_lamp(dark, 0.05)) == (1.0,)


def test_the_reader_reads_a_dark_photo_with_a_lamp_both_ways_and_keeps_the_one_finding_more(
    tmp_path: Path,
) -> None:
    sc = scene(600, 1000)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)), det_hw=(384, 640)))
    photo = _with_lamp(np.rint(sc.rgb * 0.15).astype(np.uint8), 0.003)
    read_at: list[float] = []
    found = {1.0: 1}  # as a real detector would: read as it is, the dark photo shows one tile

    def read_tiles(
        rgb: np.ndarray, lap: object = None, detected: Detected | None = None
    ) -> tuple[np.ndarray, ...]:
        boxes, scores, probabilities, rejected = TileReader.read_tiles(reader, rgb, detected=detected)
        gain = round(float(rgb[300:, 300:].mean()) / float(photo[300:, 300:].mean()), 1)
        read_at.append(gain)
        keep = slice(0, found.get(gain, len(boxes)))
        return boxes[keep], scores[keep], probabilities[keep], rejected

    object.__setattr__(reader, "read_tiles", read_tiles)
    reading = reader.read(photo)
    assert len(read_at) == 2 and read_at[0] == 1.0 and read_at[1] > 1.0
    assert reading.seen is not None and reading.seen.gain > 1.0
    assert reading.detections.codes == list(sc.codes)
    assert any(w.startswith("the photo is dark") for w in reading.warnings)


def test_a_box_of_white_out_among_tiles_that_are_not_is_a_light() -> None:
    from vision.exposure import lit_boxes

    rgb = np.full((100, 400, 3), 120, np.uint8)
    rgb[10:40, 300:330] = 255  # a lamp
    tiles = np.array([[10 + 40 * k, 50, 40 + 40 * k, 90] for k in range(4)], np.float32)
    lamp = np.array([[300, 10, 330, 40]], np.float32)
    assert lit_boxes(rgb, np.concatenate([tiles, lamp])).tolist() == [False] * 4 + [True]
    assert not lit_boxes(rgb, np.concatenate([tiles[:2], lamp])).any()  # too few tiles to tell
    white_faces = rgb.copy()
    white_faces[50:90] = 255  # the tiles' faces white-out too: nothing is told apart
    assert not lit_boxes(white_faces, np.concatenate([tiles, lamp])).any()


def test_an_overexposed_photo_whose_hand_falls_short_is_told_so(tmp_path: Path) -> None:
    from vision.exposure import OVEREXPOSED_SHARE, overexposed_warning, white_share

    sc = scene(600, 1000)
    assert white_share(sc.rgb) < OVEREXPOSED_SHARE and overexposed_warning(white_share(sc.rgb)) == []
    blown = np.clip(sc.rgb.astype(np.float32) * 4.0, 0, 255).astype(np.uint8)
    share = white_share(blown)
    assert share >= OVEREXPOSED_SHARE
    said = overexposed_warning(share)
    assert len(said) == 1 and said[0].startswith(f"the photo is overexposed ({share:.0%} of it is white)")
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)), det_hw=(384, 640)))
    warnings = reader.read(blown).warnings
    assert any(w.startswith("the photo is overexposed") for w in warnings), warnings
    assert not any(w.startswith("the photo is overexposed") for w in reader.read(sc.rgb).warnings)


def test_a_blank_white_photo_is_not_called_overexposed(tmp_path: Path) -> None:
    # a blank page or a transparent image composited on white: no light took any face away
    rows = np.array([[100, 100, 10, 10, 0.01]], np.float32)
    reader = TileReader.load(write_models(tmp_path, rows))
    warnings = reader.read(np.full((300, 400, 3), 255, np.uint8)).warnings
    assert warnings[0] == "no tiles found"
    assert "the photo is all white: no tiles can be seen in it" in warnings
    assert not any(w.startswith("the photo is overexposed") for w in warnings)


def test_a_flat_border_round_the_photo_is_no_white_out() -> None:
    # an audit (stage 78): a scene on a plain white (or transparent) margin was called 64% white-out
    from vision.exposure import OVEREXPOSED_SHARE, white_share

    sc = scene(600, 1000)
    framed = np.full((1000, 1600, 3), 255, np.uint8)
    framed[200:800, 300:1300] = sc.rgb
    assert white_share(framed) == pytest.approx(white_share(sc.rgb), abs=0.01)
    assert white_share(framed) < OVEREXPOSED_SHARE
    assert white_share(np.full((300, 400, 3), 255, np.uint8)) == 1.0  # a blank page is white throughout


def test_white_out_along_one_edge_is_no_border_and_a_speck_frames_nothing() -> None:
    # the review of that fix: blown highlights across the top were trimmed as a border, and a speck on
    # a white page was taken for a framed picture, so neither was told
    from vision.exposure import OVEREXPOSED_SHARE, white_share

    blown = scene(600, 1000).rgb.copy()
    blown[:360] = 255
    assert white_share(blown) >= OVEREXPOSED_SHARE
    page = np.full((300, 400, 3), 255, np.uint8)
    page[140:160, 190:210] = 30
    assert white_share(page) > 0.99
