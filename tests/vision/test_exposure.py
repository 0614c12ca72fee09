"""A dark photo is read brightened, and the reader says so; a lit one is read as it is."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import write_models
from vision.exposure import BRIGHT_TO, DARK_BELOW, MAX_GAIN, bright_end, brightened, dark_warning
from vision.pipeline import TileReader


def test_a_lit_photo_is_read_as_it_is() -> None:
    lit = scene(300, 500).rgb.copy()  # its bright end a mid grey, the table's
    lit[:5, :5] = 0  # a few black pixels do not make it dark
    assert bright_end(lit) >= DARK_BELOW
    same, gain = brightened(lit)
    assert same is lit and gain == 1.0 and dark_warning(gain) == []


@settings(max_examples=30, deadline=None)
@given(dim=st.floats(min_value=0.03, max_value=0.6))
def test_a_dark_photo_is_scaled_up_to_a_lit_bright_end_by_at_most_the_largest_gain(dim: float) -> None:
    lit = scene(300, 500).rgb
    dark = np.rint(lit * dim).astype(np.uint8)
    end = bright_end(dark)
    out, gain = brightened(dark)
    if end >= DARK_BELOW:
        assert gain == 1.0 and out is dark
        return
    assert 1.0 < gain <= MAX_GAIN
    assert gain == min(MAX_GAIN, BRIGHT_TO / max(end, 1.0))
    assert out.dtype == np.uint8 and out.shape == dark.shape
    assert bright_end(out) <= BRIGHT_TO + 1  # never past the lit level
    np.testing.assert_allclose(out.astype(float), np.clip(dark * gain, 0, 255), atol=1.0)


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


def test_a_small_light_in_a_dark_photo_does_not_stop_its_brightening() -> None:
    dark = np.rint(scene(300, 500).rgb * 0.15).astype(np.uint8)
    _, alone = brightened(dark)
    for share in (0.0015, 0.004, 0.015):
        _, gain = brightened(_with_lamp(dark, share))
        assert gain > 1.0 and abs(gain - alone) / alone < 0.05, (share, gain, alone)


def test_a_lit_photo_with_a_light_or_a_white_expanse_is_read_as_it_is() -> None:
    lit = scene(300, 500).rgb
    assert brightened(_with_lamp(lit, 0.004))[1] == 1.0
    # white over a large part of a dark photo is what the photo shows, not a light in it: kept
    dark = np.rint(lit * 0.15).astype(np.uint8)
    assert brightened(_with_lamp(dark, 0.05))[1] == 1.0


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
