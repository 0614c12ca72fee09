"""The sample photos shipped in samples/: each one, through the sample button, gives the right score.

The reader here answers with the sample's own ground truth (samples/NAME.json, written by the
generator), so this checks the app's path sample button -> layout -> table -> scoring, and that the
shipped samples are valid winning hands. With a shipped model, the last test reads them for real.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import scoring
from tests.app.conftest import APP
from tests.app.fakes import FakeReading
from vision.detections import Detections
from vision.imageio import load_image
from vision.layout import layout_hand

SAMPLES = sorted((APP.parent / "samples").glob("*.jpg"))


class GroundTruthReader:
    """Answers with the ground truth of whichever sample photo it is given (matched by pixels)."""

    def __init__(self, samples: list[Path]) -> None:
        self.truth: list[tuple[np.ndarray, Detections]] = []
        for path in samples:
            meta = json.loads(path.with_suffix(".json").read_text())
            detections = Detections.from_codes(
                [t["code"] for t in meta["tiles"]], [t["xyxy"] for t in meta["tiles"]]
            )
            self.truth.append((load_image(path.read_bytes())[::16, ::16].copy(), detections))

    def read(self, rgb: np.ndarray, source_scale: float = 1.0, faces: object = None) -> FakeReading:
        thumb = rgb[::16, ::16]
        for pixels, detections in self.truth:
            if pixels.shape == thumb.shape and np.array_equal(pixels, thumb):
                layout = layout_hand(detections)
                return FakeReading(detections, layout, tuple(layout.warnings))
        raise AssertionError("not a sample photo")


def test_samples_are_shipped() -> None:
    assert len(SAMPLES) >= 3
    for path in SAMPLES:
        assert path.stat().st_size < 400_000, f"{path.name} is too big to ship"
        meta = json.loads(path.with_suffix(".json").read_text())
        assert scoring.score_json(dict(meta["hand"]))["valid"], path.name


@pytest.mark.parametrize("sample", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_sample_button_scores_the_sample(sample: Path, app: AppTest, install: object) -> None:
    install(GroundTruthReader(SAMPLES))  # type: ignore[operator]
    app.button(key=f"sample_{sample.stem}").click().run()
    assert not app.exception, [e.value for e in app.exception]
    expected = scoring.score_json(dict(json.loads(sample.with_suffix(".json").read_text())["hand"]))
    case = app.session_state["case_json"]
    assert case["source"]["name"] == sample.name
    assert case["result"]["valid"], case["result"]["message"]
    assert case["result"]["tai"] == expected["tai"]
    assert any(f"{expected['tai']} tai" in str(s.value) for s in app.success)
    assert app.image, "the annotated photo is not shown"
