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
from vision.onnx_models import share_out
from vision.pipeline import TileReader
from vision.sidecar import SECOND_LOOK, ModelError, parse_config

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
    out = share_out(tiles, rows, again, np.array(COLUMNS))
    np.testing.assert_allclose(out.sum(axis=1), 1.0, atol=1e-9)
    others = [i for i in range(len(CLASSES)) if i not in COLUMNS]
    np.testing.assert_array_equal(out[:, others], tiles[:, others])
    untouched = [i for i in range(5) if i not in chosen]
    np.testing.assert_array_equal(out[untouched], tiles[untouched])
    # within the eight, the chosen rows now follow the second look
    block = out[np.ix_(np.array(rows), np.array(COLUMNS))]
    shares = block / block.sum(axis=1, keepdims=True)
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
    # more faces beside the eight, in the classifier's order: the bird of 1s comes first
    nine = parse_config(_sidecar(file="s.onnx", names=["1s", *SECOND_LOOK])).second_look
    assert nine is not None and nine.names == ("1s", *SECOND_LOOK)
    for wrong in (
        [*SECOND_LOOK, "1s"],
        ["1s", *SECOND_LOOK[1:]],
        ["1s", "1s", *SECOND_LOOK],
        ["xx", *SECOND_LOOK],
    ):
        with pytest.raises(ModelError, match="flowers and seasons among them"):
            parse_config(_sidecar(file="s.onnx", names=wrong))
    with pytest.raises(ModelError, match="above must be in"):
        parse_config(_sidecar(file="s.onnx", names=list(SECOND_LOOK), above=0))
    with pytest.raises(ModelError, match="missing 'file'"):
        parse_config(_sidecar(names=list(SECOND_LOOK)))
    assert config.imgsz is None  # absent: the classifier's own crops
    sized = parse_config(_sidecar(file="s.onnx", names=list(SECOND_LOOK), imgsz=160)).second_look
    assert sized is not None and sized.imgsz == 160
    with pytest.raises(ModelError, match=r"imgsz must be 16\.\.1024"):
        parse_config(_sidecar(file="s.onnx", names=list(SECOND_LOOK), imgsz=8))


def _with_second_look(
    directory: Path,
    names: str | None = None,
    outputs: int | None = None,
    size: int = 32,
    sidecar_size: int | None = None,
    look: tuple[str, ...] = SECOND_LOOK,
) -> Path:
    """Models where the first classifier (32 px) reads red, green, blue as F1, 1p, 1s and a second
    look (`size` px, reading the faces `look`) reads them as S3, F2, F3; the sidecar names
    `sidecar_size` as its crop size (None: the classifier's)."""
    sc = scene(600, 1000)
    write_models(directory, detector_rows(sc, (384, 640)))
    f1 = CLASS_INDEX["F1"]
    classifier_model(
        directory / "tile_classifier.onnx", 32, None, targets=(f1, CLASS_INDEX["1p"], CLASS_INDEX["1s"])
    )
    targets = (look.index("S3"), look.index("F2"), look.index("F3"))
    outputs = len(look) if outputs is None else outputs
    classifier_model(directory / "tile_second_look.onnx", size, None, outputs, names, targets=targets)
    path = directory / "models.json"
    data = json.loads(path.read_text())
    data["second_look"] = {"file": "tile_second_look.onnx", "names": list(look), "above": 0.3}
    if sidecar_size is not None:
        data["second_look"]["imgsz"] = sidecar_size
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


def test_a_larger_second_look_cuts_its_own_crops_from_the_photo(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    reader = TileReader.load(_with_second_look(tmp_path, size=64, sidecar_size=64))
    classifier = reader.classifier
    assert classifier.second_look is not None and classifier.second_look.size == 64
    assert reader.read(sc.rgb).detections.codes == ["S3", "1p", "1s"]
    # the first look is handed red crops (F1, so the second look runs); the box it re-reads lies on
    # a green patch of the photo, which the second look reads as F2: it cut its own crop there
    photo = np.zeros((200, 200, 3), np.uint8)
    photo[:, :, 1] = 255
    red = np.zeros((1, 32, 32, 3), np.uint8)
    red[..., 0] = 255
    box = np.array([[50, 40, 110, 140]], np.float32)
    tiles, _ = classifier.read_boxes(photo, box, red)
    assert CLASSES[int(tiles[0].argmax())] == "F2"
    # given crops alone, it reads them resized: red, so S3
    tiles, _ = classifier.classify_with_reject(red)
    assert CLASSES[int(tiles[0].argmax())] == "S3"


def test_a_second_look_of_another_size_than_its_sidecar_says_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="second look input is 64x64 but its second_look section says 48"):
        TileReader.load(_with_second_look(tmp_path / "named", size=64, sidecar_size=48))
    with pytest.raises(ModelError, match="second look input is 64x64 but the classifier says 32"):
        TileReader.load(_with_second_look(tmp_path / "unnamed", size=64))


def test_a_second_look_that_reads_1s_too_rereads_what_the_first_took_for_the_bird(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    # the eight alone leave the blue tile the 1s the first look read (test above); with 1s among
    # its faces the second look re-reads it, as F3
    reader = TileReader.load(_with_second_look(tmp_path, look=("1s", *SECOND_LOOK)))
    reading = reader.read(sc.rgb)
    assert reading.detections.codes == ["S3", "1p", "F3"]
    np.testing.assert_allclose(reading.probabilities.sum(axis=1), 1.0, atol=1e-5)


@settings(max_examples=40, deadline=None)
@given(
    arrays(np.float64, (4, len(CLASSES)), elements=st.floats(0, 1)),
    arrays(np.float64, (4, 9), elements=st.floats(0, 1)),
)
def test_sharing_out_over_nine_faces_keeps_every_other_face(first: np.ndarray, second: np.ndarray) -> None:
    columns = np.array([CLASS_INDEX[code] for code in ("1s", *SECOND_LOOK)])
    tiles, rows, again = _rows(first), np.arange(4), _rows(second)
    out = share_out(tiles, rows, again, columns)
    np.testing.assert_allclose(out.sum(axis=1), 1.0, atol=1e-9)
    others = [i for i in range(len(CLASSES)) if i not in columns]
    np.testing.assert_array_equal(out[:, others], tiles[:, others])
    np.testing.assert_allclose(out[:, columns] / out[:, columns].sum(axis=1, keepdims=True), again, atol=1e-9)
