"""The second look: a flowers-and-seasons classifier re-reads the crops the first one gives to them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import classifier_model, write_models
from vision.classes import CLASS_INDEX, CLASSES
from vision.onnx_models import SECOND_LOOK, ModelError, parse_config, share_out
from vision.pipeline import TileReader

COLUMNS = [CLASS_INDEX[code] for code in SECOND_LOOK]


def _rows(draw_values: np.ndarray) -> np.ndarray:
    """Positive values -> rows of probabilities."""
    values = draw_values + 1e-3
    return values / values.sum(axis=1, keepdims=True)


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.float64, (5, len(CLASSES)), elements=st.floats(0, 1)),
    arrays(np.float64, (5, len(SECOND_LOOK)), elements=st.floats(0, 1)),
    st.sets(st.integers(0, 4), min_size=1),
)
def test_sharing_out_moves_only_the_eights_share_of_the_chosen_rows(
    first: np.ndarray, second: np.ndarray, chosen: set[int]
) -> None:
    tiles, rows = _rows(first), np.array(sorted(chosen))
    again = _rows(second)[: len(rows)]
    out = share_out(tiles, rows, again)
    np.testing.assert_allclose(out.sum(axis=1), 1.0, atol=1e-9)
    others = [i for i in range(len(CLASSES)) if i not in COLUMNS]
    np.testing.assert_array_equal(out[:, others], tiles[:, others])
    untouched = [i for i in range(5) if i not in chosen]
    np.testing.assert_array_equal(out[untouched], tiles[untouched])
    # within the eight, the chosen rows now follow the second look
    shares = out[np.ix_(rows, COLUMNS)] / out[np.ix_(rows, COLUMNS)].sum(axis=1, keepdims=True)
    np.testing.assert_allclose(shares, again, atol=1e-9)


def _sidecar(**second_look: object) -> dict[str, object]:
    return {
        "detector": {"file": "d.onnx", "imgsz": 64, "names": ["tile"]},
        "classifier": {"file": "c.onnx", "imgsz": 32, "names": list(CLASSES)},
        "second_look": second_look,
    }


def test_the_second_look_is_optional_and_validated() -> None:
    plain = _sidecar()
    del plain["second_look"]
    assert parse_config(plain).second_look is None
    config = parse_config(_sidecar(file="s.onnx", names=list(SECOND_LOOK), above=0.4)).second_look
    assert config is not None and config.file == "s.onnx" and config.above == 0.4
    with pytest.raises(ModelError, match="flowers and seasons"):
        parse_config(_sidecar(file="s.onnx", names=list(reversed(SECOND_LOOK))))
    with pytest.raises(ModelError, match="above must be in"):
        parse_config(_sidecar(file="s.onnx", names=list(SECOND_LOOK), above=0))
    with pytest.raises(ModelError, match="missing 'file'"):
        parse_config(_sidecar(names=list(SECOND_LOOK)))


def _with_second_look(directory: Path, names: str | None = None, outputs: int = len(SECOND_LOOK)) -> Path:
    """Models where the first classifier reads red as F1 and a second look reads red as S3."""
    sc = scene(600, 1000)
    write_models(directory, detector_rows(sc, (384, 640)))
    f1, s3 = CLASS_INDEX["F1"], SECOND_LOOK.index("S3")
    classifier_model(
        directory / "tile_classifier.onnx", 32, None, targets=(f1, CLASS_INDEX["1p"], CLASS_INDEX["1s"])
    )
    classifier_model(directory / "tile_second_look.onnx", 32, None, outputs, names, targets=(s3, 1, 2))
    path = directory / "models.json"
    data = json.loads(path.read_text())
    data["second_look"] = {"file": "tile_second_look.onnx", "names": list(SECOND_LOOK), "above": 0.3}
    path.write_text(json.dumps(data))
    return directory


def test_the_second_look_rereads_flowers_and_leaves_other_tiles(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    reader = TileReader.load(_with_second_look(tmp_path))
    assert reader.classifier.second_look is not None
    reading = reader.read(sc.rgb)
    assert reading.detections.codes == ["S3", "1p", "1s"]
    np.testing.assert_allclose(reading.probabilities.sum(axis=1), 1.0, atol=1e-5)
    # without it, the same crops read as the first classifier says
    data = json.loads((tmp_path / "models.json").read_text())
    del data["second_look"]
    (tmp_path / "models.json").write_text(json.dumps(data))
    assert TileReader.load(tmp_path).read(sc.rgb).detections.codes == ["F1", "1p", "1s"]


def test_a_second_look_for_other_classes_is_refused(tmp_path: Path) -> None:
    names = repr({i: f"{i:02d}_{code}" for i, code in enumerate(("1m", *SECOND_LOOK[1:]))})
    with pytest.raises(ModelError, match="second look was trained on classes"):
        TileReader.load(_with_second_look(tmp_path / "names", names))
    with pytest.raises(ModelError, match="second look has 9 outputs"):
        TileReader.load(_with_second_look(tmp_path / "outputs", outputs=9))
