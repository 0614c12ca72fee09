"""A classifier with the 50th "no tile" output: such boxes are left out of the reading, with a warning."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import classifier_model, write_models
from vision.classes import CLASSES, NOT_A_TILE
from vision.pipeline import TileReader
from vision.sidecar import ModelError


def _edit(directory: Path, key: str, value: object) -> None:
    path = directory / "models.json"
    data = json.loads(path.read_text())
    data["classifier"][key] = value
    path.write_text(json.dumps(data))


def _folder_names(codes: tuple[str, ...]) -> str:
    return repr({i: f"{i:02d}_{code}" for i, code in enumerate(codes)})


def test_a_box_read_as_no_tile_is_left_out_and_named(tmp_path: Path) -> None:
    sc = scene(600, 1000)  # red 1m, green 1p, blue: read as "no tile" by this classifier
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)), blue_is_no_tile=True))
    assert reader.classifier.config.reject == NOT_A_TILE
    reading = reader.read(sc.rgb)
    assert reading.detections.codes == ["1m", "1p"]
    assert reading.probabilities.shape == (2, len(CLASSES))
    np.testing.assert_allclose(reading.probabilities.sum(axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(reading.rejected_xyxy, sc.boxes[2:], atol=10)
    x1, y1, x2, y2 = sc.boxes[2].astype(int)
    centre = f"({(x1 + x2) // 2}, {(y1 + y2) // 2})"
    assert any(w.startswith("left out 1 box that holds no tile, at (") for w in reading.warnings)
    # the warning points at the box, to within the detector's rounding
    warned = next(w for w in reading.warnings if w.startswith("left out"))
    wx, wy = (int(v) for v in warned.split("at (")[1].rstrip(")").split(", "))
    cx, cy = (int(v) for v in centre.strip("()").split(", "))
    assert abs(wx - cx) <= 3 and abs(wy - cy) <= 3


def _place(warning: str) -> tuple[int, int]:
    x, y = warning.split("at (")[1].split(")")[0].split(", ")
    return int(x), int(y)


def test_warnings_name_places_in_the_photo_as_the_user_has_it(tmp_path: Path) -> None:
    # a large photo is read shrunk (LoadedImage.scale): its boxes come back in the shrunk pixels,
    # but the places a warning names are the photo's own, as the CLI's boxes are
    sc = scene(600, 1000)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)), blue_is_no_tile=True))
    as_read = next(w for w in reader.read(sc.rgb).warnings if w.startswith("left out"))
    shrunk = next(w for w in reader.read(sc.rgb, 0.25).warnings if w.startswith("left out"))
    (x, y), (big_x, big_y) = _place(as_read), _place(shrunk)
    assert abs(big_x - 4 * x) <= 4 and abs(big_y - 4 * y) <= 4


def test_without_the_extra_output_nothing_is_left_out(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    reading = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)))).read(sc.rgb)
    assert reading.detections.codes == ["1m", "1p", "1s"] and len(reading.rejected_xyxy) == 0
    assert not any(w.startswith("left out") for w in reading.warnings)


def test_reject_threshold_comes_from_the_sidecar(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    write_models(tmp_path, detector_rows(sc, (384, 640)), blue_is_no_tile=True)
    _edit(tmp_path, "reject_above", 1.0)  # never sure enough: every box is read as a tile
    reading = TileReader.load(tmp_path).read(sc.rgb)
    assert len(reading.detections) == 3 and len(reading.rejected_xyxy) == 0


def test_no_tile_probability_and_renormalised_tile_probabilities(tmp_path: Path) -> None:
    reader = TileReader.load(write_models(tmp_path, np.zeros((1, 5), np.float32), blue_is_no_tile=True))
    crops = np.zeros((3, 32, 32, 3), np.uint8)
    crops[0, ..., 0] = 255
    crops[1, ..., 2] = 255
    crops[2] = (255, 0, 255)  # half red, half blue
    tiles, not_tile = reader.classifier.classify_with_reject(crops)
    assert tiles.shape == (3, len(CLASSES)) and not_tile.shape == (3,)
    assert not_tile[0] < 0.01 and not_tile[1] > 0.99 and 0.3 < not_tile[2] < 0.7
    np.testing.assert_allclose(tiles.sum(axis=1), 1.0, atol=1e-5)
    assert tiles[2].argmax() == CLASSES.index("1m")
    np.testing.assert_allclose(reader.classifier.classify(crops), tiles)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("reject", "junk", "classifier reject must be 'none', got 'junk'"),
        ("reject_above", 0.0, r"reject_above must be in \(0, 1\], got 0.0"),
        ("reject_above", "high", "malformed"),
    ],
)
def test_bad_reject_settings_refused(tmp_path: Path, key: str, value: object, message: str) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32), blue_is_no_tile=True)
    _edit(tmp_path, key, value)
    with pytest.raises(ModelError, match=message):
        TileReader.load(tmp_path)


def test_output_count_must_match_the_sidecar(tmp_path: Path) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32), blue_is_no_tile=True)
    _edit(tmp_path, "reject", None)  # a 50-output model described as a 49-class one
    with pytest.raises(ModelError, match="classifier has 50 outputs, expected 49"):
        TileReader.load(tmp_path)
    write_models(tmp_path, np.zeros((1, 5), np.float32))
    _edit(tmp_path, "reject", NOT_A_TILE)  # and the other way round
    with pytest.raises(ModelError, match="classifier has 49 outputs, expected 50"):
        TileReader.load(tmp_path)


def test_embedded_names_must_end_with_the_no_tile_class(tmp_path: Path) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32), blue_is_no_tile=True)
    path = tmp_path / "tile_classifier.onnx"
    classifier_model(path, 32, None, len(CLASSES) + 1, names=_folder_names((*CLASSES, NOT_A_TILE)))
    assert TileReader.load(tmp_path).classifier.config.reject == NOT_A_TILE
    classifier_model(path, 32, None, len(CLASSES) + 1, names=_folder_names((*CLASSES, "other")))
    with pytest.raises(ModelError, match=r"class 49 is 'other', expected 'none'"):
        TileReader.load(tmp_path)


def test_annotation_marks_left_out_boxes_in_grey(tmp_path: Path) -> None:
    from PIL import Image

    from tests.vision.imagegen import encode
    from vision.annotate import NO_TILE
    from vision.cli import main

    sc = scene(600, 1000)
    photo = tmp_path / "hand.png"
    photo.write_bytes(encode(Image.fromarray(sc.rgb), "PNG"))
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)), blue_is_no_tile=True)
    out = tmp_path / "annotated.png"
    assert main([str(photo), "--annotate", str(out), "--models", str(models)]) == 0
    drawn = np.asarray(Image.open(out).convert("RGB")).astype(int)
    grey = np.abs(drawn - NO_TILE).max(axis=2) < 10
    x1, y1, x2, y2 = sc.boxes[2].astype(int)
    assert grey[y1 - 3 : y2 + 3, x1 - 3 : x2 + 3].sum() > 100  # the blue box, left out, is outlined
    bx1, by1, bx2, by2 = sc.boxes[1].astype(int)
    assert grey[by1 - 3 : by2 + 3, bx1 - 3 : bx2 + 3].sum() == 0  # a read tile is not
