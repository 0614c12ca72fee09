"""TileReader end to end on tiny ONNX models: letterbox inverse, NMS, crops, batching, layout."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from app_ui.reading import app_warnings
from tests.vision.layout_sim import Placed, place
from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import classifier_model, write_models
from vision.classes import CLASSES
from vision.detections import Detections
from vision.lines import OTHER_SET, PHOTO, SET_COPIES, TILE, UNSURE, Line
from vision.onnx_models import TileClassifier
from vision.pipeline import Reading, Seen, TileReader
from vision.sidecar import ModelError


@pytest.mark.parametrize(
    "det_hw",
    [
        pytest.param((384, 640), id="det-384x640"),
        pytest.param((640, 384), id="det-640x384"),
        pytest.param((320, 320), id="det-square"),
    ],
)
@pytest.mark.parametrize(
    "image_hw", [pytest.param((600, 1000), id="landscape"), pytest.param((1000, 600), id="portrait")]
)
@pytest.mark.parametrize(
    "cls_batch",
    [pytest.param(None, id="dynamic-batch"), pytest.param(1, id="batch-1"), pytest.param(2, id="batch-2")],
)
def test_reads_known_tiles(
    tmp_path: Path, det_hw: tuple[int, int], image_hw: tuple[int, int], cls_batch: int | None
) -> None:
    sc = scene(*image_hw)
    reader = TileReader.load(
        write_models(tmp_path, detector_rows(sc, det_hw), det_hw=det_hw, cls_batch=cls_batch)
    )
    assert reader.detector.input_hw == det_hw
    reading = reader.read(sc.rgb)
    det = reading.detections
    # Sorted by detector score: exactly the three tiles, duplicate / weak / padding boxes gone.
    assert det.codes == list(sc.codes)
    np.testing.assert_allclose(det.xyxy, sc.boxes, atol=1e-2 * max(image_hw))
    np.testing.assert_allclose(reading.det_score, sc.scores, atol=1e-6)
    assert (reading.class_prob > 0.99).all()
    np.testing.assert_allclose(det.confidence, reading.det_score * reading.class_prob, rtol=1e-6)
    assert reading.probabilities.shape == (3, len(CLASSES))
    stages = {"detect", "crop", "classify", "angles", "sharpness", "glare", "layout", "total"}
    assert set(reading.timings_ms) == stages


def test_no_tiles(tmp_path: Path) -> None:
    rows = np.array([[100, 100, 10, 10, 0.01]], np.float32)
    reader = TileReader.load(write_models(tmp_path, rows))
    reading = reader.read(np.full((300, 400, 3), 200, np.uint8))
    assert len(reading.detections) == 0
    assert reading.warnings[0] == "no tiles found"
    assert reading.warnings.count("no tiles found") == 1


def test_uncertain_tile_warns(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640))))
    grey = sc.rgb.copy()
    x1, y1, x2, y2 = sc.boxes[0].astype(int)
    grey[y1:y2, x1:x2] = 128  # a grey crop: no colour wins, the top class is unsure
    reading = reader.read(grey)
    assert any(w.startswith("unsure tile at (") for w in reading.warnings)
    # the lines on a tile's reading are also told apart, for a UI that names tiles its own way
    unsure = [line.text for line in reading.lines if line.about == UNSURE]
    assert unsure and all(w.startswith("unsure tile at (") for w in unsure)
    assert unsure == [w for w in reading.warnings if w.startswith("unsure tile at (")]
    # its numbers are the reading's probabilities, said as such: the tile's confidence is another number
    said = re.search(r": (\S+) or (\S+) \(its reading gives them (0\.\d\d) and (0\.\d\d)\)$", unsure[0])
    assert said is not None, unsure[0]
    read = [
        (CLASSES[int(c)], f"{float(row.max()):.2f}")
        for c, row in zip(reading.detections.class_id, reading.probabilities, strict=True)
    ]
    assert (said.group(1), said.group(3)) in read


def test_layout_result_passed_through(tmp_path: Path) -> None:
    from vision.layout import layout_hand

    sc = scene(600, 1000)
    reading = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)))).read(sc.rgb)
    expected = layout_hand(reading.detections)
    assert reading.layout is not None and reading.hand is not None
    assert reading.hand == expected.hand
    assert set(reading.hand) >= {"concealed", "melds", "bonus"}
    assert set(expected.warnings) <= set(reading.warnings)


def test_layout_crash_keeps_tiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.layout

    def crash(_: Detections) -> None:
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(vision.layout, "layout_hand", crash)
    sc = scene(600, 1000)
    reading = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)))).read(sc.rgb)
    assert reading.layout is None and reading.hand is None
    assert reading.detections.codes == list(sc.codes)
    assert "could not group the tiles (ZeroDivisionError): enter the hand by hand" in reading.warnings


def test_layout_missing_keeps_tiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "vision.layout", None)  # makes the import raise ImportError
    sc = scene(600, 1000)
    reading = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)))).read(sc.rgb)
    assert reading.layout is None
    assert reading.detections.codes == list(sc.codes)
    assert "layout step not available: tiles found but not grouped" in reading.warnings


def test_concurrent_reads_match_serial(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640))))
    serial = reader.read(sc.rgb)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results: list[Reading] = list(pool.map(lambda _: reader.read(sc.rgb), range(8)))
    for result in results:
        np.testing.assert_array_equal(result.detections.xyxy, serial.detections.xyxy)
        np.testing.assert_array_equal(result.detections.class_id, serial.detections.class_id)
        np.testing.assert_array_equal(result.detections.confidence, serial.detections.confidence)


def test_reads_non_contiguous_views(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640))))
    padded = np.zeros((600, 1000, 4), np.uint8)
    padded[..., :3] = sc.rgb
    view = padded[..., :3]  # same pixels, not contiguous
    assert not view.flags["C_CONTIGUOUS"]
    assert reader.read(view).detections.codes == reader.read(sc.rgb).detections.codes


def test_rejects_non_rgb(tmp_path: Path) -> None:
    reader = TileReader.load(write_models(tmp_path, np.zeros((1, 5), np.float32)))
    with pytest.raises(ValueError, match="expected an"):
        reader.read(np.zeros((100, 100), np.uint8))


# --- refusing bad model folders -------------------------------------------------------------


def _edit_sidecar(directory: Path, section: str, key: str, value: object) -> None:
    path = directory / "models.json"
    data = json.loads(path.read_text())
    data[section][key] = value
    path.write_text(json.dumps(data))


def test_missing_dir(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"^model files not found: .*models\.json is missing$"):
        TileReader.load(tmp_path / "nowhere")


def test_a_file_given_for_the_models_folder_is_named_so(tmp_path: Path) -> None:
    # an audit: `--models README.md` read "[Errno 20] Not a directory: 'README.md/models.json'"
    given = tmp_path / "README.md"
    given.write_text("not a folder")
    with pytest.raises(
        ModelError, match=r"^model files not found: .*README\.md is a file, not the models' folder$"
    ):
        TileReader.load(given)


def test_missing_onnx(tmp_path: Path) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32))
    (tmp_path / "tile_classifier.onnx").unlink()
    with pytest.raises(ModelError, match=r"^model files not found: .*tile_classifier\.onnx is missing$"):
        TileReader.load(tmp_path)


def test_corrupt_onnx(tmp_path: Path) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32))
    (tmp_path / "tile_detector.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelError, match=r"^cannot load tile_detector\.onnx: "):
        TileReader.load(tmp_path)


def test_wrong_class_names_refused(tmp_path: Path) -> None:
    names = list(CLASSES)
    names[9], names[10] = names[10], names[9]
    write_models(tmp_path, np.zeros((1, 5), np.float32), names=names)
    with pytest.raises(ModelError, match=r"class 9 is '2p', expected '1p'\) differ from vision/classes\.py"):
        TileReader.load(tmp_path)


def test_too_few_class_names_refused(tmp_path: Path) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32), names=CLASSES[:34])
    with pytest.raises(ModelError, match=r"\(34 classes, expected 49\)"):
        TileReader.load(tmp_path)


def test_detector_names_refused(tmp_path: Path) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32))
    _edit_sidecar(tmp_path, "detector", "names", ["1m", "2m"])
    with pytest.raises(ModelError, match=r"detector names must be \['tile'\]"):
        TileReader.load(tmp_path)


def test_sidecar_size_mismatch_refused(tmp_path: Path) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32), det_hw=(384, 640), sidecar_hw=(640, 384))
    with pytest.raises(ModelError, match=r"detector input is 384x640 but models\.json says \(640, 384\)"):
        TileReader.load(tmp_path)


@pytest.mark.parametrize(
    ("section", "key", "value", "message"),
    [
        pytest.param("detector", "imgsz", "big", "malformed", id="imgsz-text"),
        pytest.param("classifier", "names", "1m 2m", "'names' must be a list of strings", id="names-text"),
        pytest.param("classifier", "imgsz", None, "malformed", id="imgsz-null"),
        pytest.param("detector", "grid", 0, "detector grid must be 1..8, got 0", id="grid-0"),
        pytest.param(
            "detector", "straddle", 1.5, r"straddle must be in \(0, 1\], got 1.5", id="straddle-big"
        ),
        pytest.param("detector", "straddle", "most", "malformed", id="straddle-text"),
        pytest.param("detector", "odd_size", 0.8, "odd_size must be above 1, got 0.8", id="odd-size-small"),
        pytest.param(
            "detector",
            "odd_size_below",
            0,
            r"odd_size_below must be in \(0, 1\], got 0",
            id="odd-size-below-0",
        ),
        pytest.param(
            "detector", "fine_below", 1.0, r"fine_below must be in \(0, 1\), got 1.0", id="fine-below-1"
        ),
        pytest.param("detector", "fine_grid", 1, "fine_grid must be 2..8, got 1", id="fine-grid-1"),
        pytest.param(
            "detector",
            "second_chance",
            0.25,
            r"second_chance must be in \(0, conf 0.25\), got 0.25",
            id="second-chance-at-conf",
        ),
        pytest.param(
            "detector",
            "second_chance_sure",
            0,
            r"second_chance_sure must be in \(0, 1\], got 0",
            id="second-chance-sure-0",
        ),
        pytest.param(
            "detector",
            "second_chance_none",
            1.5,
            r"second_chance_none must be in \[0, 1\], got 1.5",
            id="second-chance-none-big",
        ),
    ],
)
def test_malformed_sidecar(tmp_path: Path, section: str, key: str, value: object, message: str) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32))
    _edit_sidecar(tmp_path, section, key, value)
    with pytest.raises(ModelError, match=message):
        TileReader.load(tmp_path)


def test_sidecar_not_json(tmp_path: Path) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32))
    (tmp_path / "models.json").write_text("{")
    with pytest.raises(ModelError, match=r"^cannot read .*models\.json: "):
        TileReader.load(tmp_path)


def _folder_names(codes: tuple[str, ...] | list[str]) -> str:
    """The metadata ultralytics embeds for class folders named "NN_code"."""
    return repr({i: f"{i:02d}_{code}" for i, code in enumerate(codes)})


def test_embedded_classifier_names_checked(tmp_path: Path) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32))
    classifier_model(tmp_path / "tile_classifier.onnx", 32, None, names=_folder_names(CLASSES))
    assert TileReader.load(tmp_path).classifier.size == 32
    swapped = list(CLASSES)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    classifier_model(tmp_path / "tile_classifier.onnx", 32, None, names=_folder_names(swapped))
    with pytest.raises(ModelError, match=r"trained on classes \(class 0 is '2m', expected '1m'\)"):
        TileReader.load(tmp_path)


def test_sidecar_grid_and_override(tmp_path: Path) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32))
    _edit_sidecar(tmp_path, "detector", "grid", 3)
    assert TileReader.load(tmp_path).detector.config.grid == 3
    assert TileReader.load(tmp_path, grid=1).grid == 1


@pytest.mark.parametrize(("rotations", "share"), [(1, 1.0), (2, 0.5), (4, 0.25)])
def test_rotated_views_are_averaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rotations: int, share: float
) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32))
    _edit_sidecar(tmp_path, "classifier", "rotations", rotations)
    classifier = TileReader.load(tmp_path).classifier
    assert classifier.config.rotations == rotations

    def corner_reader(crops: np.ndarray) -> np.ndarray:
        # a reader that is not rotation-blind: class 0 if the top-left pixel is red, else class 1
        probs = np.zeros((len(crops), len(CLASSES)), np.float32)
        red = crops[:, 0, 0, 0] > 128
        probs[red, 0], probs[~red, 1] = 1.0, 1.0
        return probs

    monkeypatch.setattr(TileClassifier, "_classify", lambda self, crops: corner_reader(crops))
    crops = np.zeros((3, 32, 32, 3), np.uint8)
    crops[0, :4, :4, 0] = 255  # red in the top-left corner only
    crops[2, :, :, 0] = 255  # red all over: every view agrees
    probs = classifier.classify(crops)
    assert probs.shape == (3, len(CLASSES))
    assert probs[0, 0] == pytest.approx(share) and probs[0, 1] == pytest.approx(1 - share)
    assert probs[1, 1] == pytest.approx(1.0) and probs[2, 0] == pytest.approx(1.0)


def test_bad_rotation_count_refused(tmp_path: Path) -> None:
    write_models(tmp_path, np.zeros((1, 5), np.float32))
    _edit_sidecar(tmp_path, "classifier", "rotations", 3)
    with pytest.raises(ModelError, match="rotations must be 1, 2 or 4, got 3"):
        TileReader.load(tmp_path)


def test_two_tiles_read_as_the_one_s1_of_a_set_are_read_within_the_set(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    directory = write_models(tmp_path, detector_rows(sc, (384, 640)))
    s1, s2 = CLASSES.index("S1"), CLASSES.index("S2")
    # red and green crops both read as S1, blue as S2: a set holds one of each
    classifier_model(directory / "tile_classifier.onnx", 32, None, targets=(s1, s1, s2))
    reader = TileReader.load(directory)
    reading = reader.read(sc.rgb)
    assert reading.detections.codes.count("S1") == 1 and reading.detections.codes.count("S2") == 1
    moved = [w for w in reading.warnings if "a set has one S1" in w]
    assert len(moved) == 1 and " read as " in moved[0] and "not S1" in moved[0]
    assert [line.text for line in reading.lines if line.about == SET_COPIES] == moved
    # the moved tile's confidence is that of the class it is read as, not of its first choice
    i = next(k for k, code in enumerate(reading.detections.codes) if code not in ("S1", "S2"))
    assert reading.class_prob[i] < 0.01
    free = dataclasses.replace(reader, within_set=False).read(sc.rgb)
    assert free.detections.codes.count("S1") == 2
    assert not any("a set has" in w for w in free.warnings)


def test_a_photo_read_as_one_rule_sets_tiles_names_no_other_and_can_be_settled_again(tmp_path: Path) -> None:
    sc = scene(600, 1000)  # 1m, 1p, 1s: a Malaysian set holds only the dots
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640))))
    faces = frozenset(f"{n}p" for n in range(1, 10)) | {"E", "S", "W", "N", "C", "F", "P", "fly"}
    reading = reader.read(sc.rgb, faces=faces)
    assert reading.faces == faces and reading.seen is not None
    assert set(reading.detections.codes) <= faces and "1p" in reading.detections.codes
    assert np.allclose(reading.probabilities.sum(axis=1), 1.0, atol=1e-5)
    outside = [i for i, code in enumerate(CLASSES) if code not in faces and code != "back"]
    assert (reading.probabilities[:, outside] == 0).all()
    # the same boxes, settled again with any face: the models' own reading, no model run
    again = reader.settle(reading.seen)
    assert sorted(again.detections.codes) == sorted(sc.codes) and again.faces is None
    np.testing.assert_array_equal(again.detections.xyxy, reading.detections.xyxy)
    assert sorted(reader.read(sc.rgb).detections.codes) == sorted(sc.codes)
    # the two tiles it could not read as the set's say so, once: another rule set's photo, perhaps
    (line,) = [w for w in reading.warnings if "not in this set" in w]
    assert line.startswith("2 tiles look like a character tile (萬) and a bamboo tile (索), not in this set")
    assert "another rule set" in line
    assert [said.about for said in reading.lines if said.text == line] == [OTHER_SET]
    singapore = frozenset(CLASSES) - {"face", "fly", "back"}
    assert not any("not in this set" in w for w in reader.read(sc.rgb, faces=singapore).warnings)
    assert not any("not in this set" in w for w in again.warnings)


def test_sidecar_odd_size_drops_an_unsure_box_far_off_the_tile_size(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    rows = detector_rows(sc, (384, 640))
    w, h = rows[0, 2], rows[0, 3]
    stray = [[320.0, 60.0, w / 3, h / 3, 0.6]]  # a third of a tile, unsure, on the bare table
    write_models(tmp_path, np.concatenate([rows, np.array(stray, np.float32)]))
    rgb = sc.rgb
    assert len(TileReader.load(tmp_path).read(rgb).detections) == 4
    _edit_sidecar(tmp_path, "detector", "odd_size", 1.4)
    found = TileReader.load(tmp_path).read(rgb).detections
    assert sorted(found.codes) == sorted(sc.codes)


def test_small_tiles_get_one_line_saying_so_in_the_photos_own_pixels() -> None:
    from vision.pipeline import SMALL_TILE_PX, small_tiles_warning

    def boxes(width: float) -> np.ndarray:  # four tiles of a row, 1.4 times as tall as wide
        return np.array([[i * width, 0, (i + 1) * width, 1.4 * width] for i in range(4)], np.float32)

    sure = np.full(4, 0.9, np.float32)
    assert small_tiles_warning(boxes(SMALL_TILE_PX), sure) == []
    (line,) = small_tiles_warning(boxes(SMALL_TILE_PX / 2), sure)
    assert f"about {SMALL_TILE_PX / 2:.0f} px wide" in line and f"under {SMALL_TILE_PX} px tiles" in line
    # a photo read at half its size: the user's photo has tiles twice as wide, and needs twice as many px
    (line,) = small_tiles_warning(boxes(SMALL_TILE_PX / 2), sure, scale=0.5)
    assert f"about {SMALL_TILE_PX:.0f} px wide" in line and f"under {2 * SMALL_TILE_PX} px tiles" in line
    # two boxes say nothing of the photo's typical tile
    assert small_tiles_warning(boxes(SMALL_TILE_PX / 2)[:2], sure[:2]) == []


def test_tiles_small_in_the_frame_are_told_so_whatever_their_pixels() -> None:
    from vision.pipeline import SMALL_TILE_SHARE, small_tiles_warning

    wide = np.array([[i * 60, 0, (i + 1) * 60, 84] for i in range(4)], np.float32)  # 84 px long sides
    sure = np.full(4, 0.9, np.float32)
    frame = int(84 / SMALL_TILE_SHARE)
    assert small_tiles_warning(wide, sure, image_long=frame) == []
    (line,) = small_tiles_warning(wide, sure, image_long=2 * frame)
    assert line.startswith(
        f"the tiles are small in this photo (each about {SMALL_TILE_SHARE / 2:.1%} of its long"
    )
    assert line.endswith("take it closer, or crop it to the hand")
    # no size known: only the pixels are judged
    assert small_tiles_warning(wide, sure) == []


def test_a_photo_of_small_tiles_is_read_with_the_warning(tmp_path: Path) -> None:
    from vision.pipeline import SMALL_TILE_PX

    large = scene(600, 1000)  # tiles 100 px wide
    reader = TileReader.load(write_models(tmp_path / "large", detector_rows(large, (384, 640))))
    assert not any("tiles are small" in w or "photo is small" in w for w in reader.read(large.rgb).warnings)
    # the same scene at a size where its tiles are narrower than SMALL_TILE_PX
    width = int(10 * (SMALL_TILE_PX - 4))
    small = scene(round(width * 0.6), width)
    reader = TileReader.load(write_models(tmp_path / "small", detector_rows(small, (384, 640))))
    reading = reader.read(small.rgb)
    assert len(reading.detections) == 3
    assert (
        [w for w in reading.warnings if "tiles are small" in w]
        == [w for w in reading.warnings if f"about {SMALL_TILE_PX - 4} px wide" in w]
        != []
    )
    said = f"the photo is small ({width} x {round(width * 0.6)} px"
    assert any(w.startswith(said) for w in reading.warnings), reading.warnings
    # a fault of the photo, as a small photo is (its remedy is to take it again): the page lists it so
    (small_tiles,) = [line for line in reading.lines if "tiles are small" in line.text]
    assert small_tiles.kind == PHOTO
    on_tiles = Line("left out 1 box that holds no tile, at (9, 9)", TILE, left_out=(0,))
    shown = app_warnings((on_tiles, small_tiles))
    assert shown.index(small_tiles.text) < shown.index(
        on_tiles.without_places() + ": dashed grey on the photo"
    )


def test_a_small_photo_is_said_to_be_small_whatever_its_boxes() -> None:
    # stage 71 (an audit): a 100 px thumbnail read as two large tiles with nothing said; a tile's size is
    # judged on 3 boxes or more, a photo's on itself
    from vision.pipeline import SMALL_PHOTO_PX, small_photo_warning

    assert small_photo_warning((SMALL_PHOTO_PX, SMALL_PHOTO_PX)) == []
    assert small_photo_warning((1512, 2016)) == [] and small_photo_warning(None) == []
    assert small_photo_warning((100, 100)) == [
        f"the photo is small (100 x 100 px; under {SMALL_PHOTO_PX} px on its long side tiles are misread "
        "more often): send the phone's full-size photo, not a thumbnail or a screenshot"
    ]
    # a photo read shrunk (`scale` 0.5 of its own pixels) is judged at its own size
    assert small_photo_warning((400, 300), scale=0.5) == []


def _second_chance_photo(tmp_path: Path, blue_is_no_tile: bool = False) -> tuple[np.ndarray, tuple[str, ...]]:
    """The three-tile scene with the blue tile scored 0.3 (under conf 0.5), a box on the bare grey
    table scored 0.3 and a box half on the red tile scored 0.3; models written to tmp_path (the
    classifier reading blue as no tile with `blue_is_no_tile`)."""
    sc = scene(600, 1000)
    rows = detector_rows(sc, (384, 640))
    rows[2, 4] = 0.3  # the blue tile: the detector unsure of it
    red = rows[0]
    extra = [
        [320.0, 40.0, red[2], red[3], 0.3],  # the bare table, where no colour wins
        [red[0] + red[2] / 2, red[1], red[2], red[3], 0.3],  # half over the red tile
    ]
    all_rows = np.concatenate([rows, np.array(extra, np.float32)])
    write_models(tmp_path, all_rows, conf=0.5, blue_is_no_tile=blue_is_no_tile)
    return sc.rgb, sc.codes


def test_second_chance_off_leaves_out_boxes_under_conf(tmp_path: Path) -> None:
    rgb, codes = _second_chance_photo(tmp_path)
    reading = TileReader.load(tmp_path).read(rgb)
    assert reading.detections.codes == list(codes[:2])


def test_second_chance_keeps_a_low_scored_box_the_classifier_is_sure_of(tmp_path: Path) -> None:
    rgb, codes = _second_chance_photo(tmp_path)
    _edit_sidecar(tmp_path, "detector", "second_chance", 0.2)
    reader = TileReader.load(tmp_path)
    # the kept boxes are those of a run at conf alone; the three boxes at 0.3 are offered
    boxes, scores, candidates, candidate_scores = reader.detector.detect_with_candidates(rgb)
    assert len(boxes) == 2 and (scores >= 0.5).all()
    np.testing.assert_allclose(candidate_scores, 0.3, atol=1e-6)
    assert len(candidates) == 2  # the box half over the red tile is a part of it, not offered
    reading = reader.read(rgb)
    # the blue tile, read 1s for sure, joins; the bare table, read unsure, does not
    assert reading.detections.codes == list(codes)
    np.testing.assert_allclose(reading.det_score, [0.9, 0.8, 0.3], atol=1e-6)


def test_second_chance_refuses_a_box_read_as_no_tile(tmp_path: Path) -> None:
    rgb, codes = _second_chance_photo(tmp_path, blue_is_no_tile=True)
    _edit_sidecar(tmp_path, "detector", "second_chance", 0.2)
    _edit_sidecar(
        tmp_path, "detector", "second_chance_sure", 0.01
    )  # any face will do: only "no tile" refuses
    _edit_sidecar(tmp_path, "detector", "second_chance_none", 1.0)
    assert len(TileReader.load(tmp_path).read(rgb).detections) > 2
    _edit_sidecar(tmp_path, "detector", "second_chance_none", 0.01)
    assert TileReader.load(tmp_path).read(rgb).detections.codes == list(codes[:2])


def test_a_short_hand_with_tiles_at_the_photo_s_edge_is_told_it_may_be_cut_off() -> None:
    from types import SimpleNamespace

    from vision.pipeline import _edge_lines

    both = (SimpleNamespace(kind="concealed", indices=(0, 1)),)
    short = SimpleNamespace(
        hand={"concealed": ["1m", "2m", "3m", "5p", "5p"], "melds": [], "bonus": []}, groups=both
    )
    whole = SimpleNamespace(
        hand={"concealed": ["1m"] * 11, "melds": [{"tiles": ["C"] * 3}], "bonus": []}, groups=both
    )
    inside = np.array([[100, 100, 140, 150], [150, 100, 190, 150]], np.float32)
    cut = np.array([[100, 100, 140, 150], [0, 300, 38, 350]], np.float32)  # its left side on the edge
    said = _edge_lines(cut, (600, 800), short)  # type: ignore[arg-type]
    assert said and said[0].text.startswith("tiles touch the photo's edge: part of the hand may lie outside")
    assert _edge_lines(inside, (600, 800), short) == []  # type: ignore[arg-type]
    assert _edge_lines(cut, None, short) == []  # type: ignore[arg-type]
    # a whole hand cut by the edge: a tile there may be misread (stage 55: a cut tile read wrong was
    # told nothing because the count was right)
    (line,) = _edge_lines(cut, (600, 800), whole)  # type: ignore[arg-type]
    assert line.text.startswith("tiles touch the photo's edge: a tile cut by it may be misread")
    # a bonus tile laid beside the hand is laid out too: a cut tile is often read as a flower
    groups = (SimpleNamespace(kind="concealed", indices=(0,)), SimpleNamespace(kind="bonus", indices=(1,)))
    said = _edge_lines(cut, (600, 800), SimpleNamespace(hand=short.hand, groups=groups))  # type: ignore[arg-type]
    assert said and "part of the hand may lie outside" in said[0].text
    # a tile the layout left out at the edge says nothing of the hand
    groups = (SimpleNamespace(kind="concealed", indices=(0,)), SimpleNamespace(kind="unused", indices=(1,)))
    aside = SimpleNamespace(hand=short.hand, groups=groups)
    assert _edge_lines(cut, (600, 800), aside) == []  # type: ignore[arg-type]


def test_a_box_left_out_at_the_edge_beside_the_hand_is_a_cut_tile() -> None:
    """A half tile at the edge, left out as no tile, is told as cut, and so is the hand beside it
    (stage 55: it was told as a box that holds no tile, and the whole hand said nothing)."""
    from types import SimpleNamespace

    from vision.lines import texts
    from vision.pipeline import _edge_lines, _rejected_lines

    row = np.array([[40 + 42 * k, 300, 80 + 42 * k, 356] for k in range(3)], np.float32)
    whole = SimpleNamespace(
        hand={"concealed": ["1m"] * 11, "melds": [{"tiles": ["C"] * 3}], "bonus": []},
        groups=(SimpleNamespace(kind="concealed", indices=(0, 1, 2)),),
    )
    beside = np.array([[0, 300, 36, 356]], np.float32)  # the half tile left of the row's first
    far = np.array([[0, 20, 36, 76]], np.float32)  # a box at the edge far from the hand
    assert _edge_lines(row, (600, 800), whole, far) == []  # type: ignore[arg-type]
    (line,) = _edge_lines(row, (600, 800), whole, beside)  # type: ignore[arg-type]
    assert line.text.startswith("tiles touch the photo's edge")
    inner = np.array([[400, 100, 440, 156]], np.float32)
    lines = _rejected_lines(np.concatenate([inner, beside]), 1.0, (600, 800))
    assert texts(lines) == (
        "left out 1 box that holds no tile, at (420, 128)",
        "left out 1 box at the photo's edge, too cut to read as a tile, at (18, 328)",
    )
    assert [line.left_out for line in lines] == [(0,), (1,)]  # each names its boxes of the rejected
    assert texts(_rejected_lines(beside)) == ("left out 1 box that holds no tile, at (18, 328)",)
    # counted in words, not "2 box(es)" (an audit)
    two = texts(_rejected_lines(np.concatenate([inner, inner + 60])))
    assert len(two) == 1 and two[0].startswith("left out 2 boxes that hold no tile, at ("), two


def test_a_short_hand_half_a_tile_from_the_edge_may_have_lost_a_tile_to_it() -> None:
    """A tile showing less than half of itself gets no box: a short hand ending within half a tile's
    width of the edge is told it may be cut (stage 55, an audit's photo: only the count was said);
    one ending further in would have shown its next tile (stage 56: a row well inside was told)."""
    from types import SimpleNamespace

    from vision.pipeline import _edge_lines

    short = SimpleNamespace(
        hand={"concealed": ["1m"] * 10, "melds": [{"tiles": ["C"] * 3}], "bonus": []},
        groups=(SimpleNamespace(kind="concealed", indices=(0, 1, 2)),),
    )
    near = np.array([[20 + 42 * k, 300, 60 + 42 * k, 356] for k in range(3)], np.float32)  # 20 px in
    (line,) = _edge_lines(near, (600, 800), short)  # type: ignore[arg-type]
    assert "part of the hand may lie outside the photo" in line.text
    apart = near + np.array([6, 0, 6, 0], np.float32)  # 26 px in: a next tile would show 65% of itself
    assert _edge_lines(apart, (600, 800), short) == []  # type: ignore[arg-type]
    inside = near + np.array([60, 0, 60, 0], np.float32)  # a tile and a half in
    assert _edge_lines(inside, (600, 800), short) == []  # type: ignore[arg-type]


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_a_photo_damaged_part_way_says_so(tmp_path: Path, turns: int) -> None:
    from vision.imageio import DECODER_FILL, decoder_filled_share

    sc = scene(600, 1000)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)), det_hw=(384, 640)))
    noise = np.random.default_rng(turns).integers(-3, 4, sc.rgb.shape)  # a camera's: no pixel flat 128
    photo = np.clip(sc.rgb.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    assert decoder_filled_share(photo) == 0.0
    assert not any("damaged" in w for w in reader.read(photo).warnings)
    damaged = photo.copy()
    damaged[450:] = DECODER_FILL  # libjpeg paints what follows bad data flat grey: the last quarter here
    damaged = np.ascontiguousarray(np.rot90(damaged, turns))  # turned upright, the band lies on any edge
    assert decoder_filled_share(damaged) == pytest.approx(0.25)
    said = [w for w in reader.read(damaged).warnings if "damaged" in w]
    assert said == [
        "the photo's file is damaged: 25% of it decoded as flat grey, and no tile there can be read; "
        "send the photo again from the phone"
    ]


def test_a_picture_whose_own_background_is_the_fill_grey_is_not_damaged() -> None:
    from vision.imageio import DECODER_FILL, decoder_filled_share

    rendered = scene(600, 1000).rgb  # tiles on a flat grey 128 table, all round them
    assert (rendered[:50] == DECODER_FILL).all()
    assert decoder_filled_share(rendered) == 0.0
    photo = np.random.default_rng(0).integers(0, 256, (600, 1000, 3)).astype(np.uint8)
    photo[200:300, 200:300] = DECODER_FILL  # grey within the photo, not from an edge
    assert decoder_filled_share(photo) == 0.0
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's "Mean of empty slice" had reached the CLI's stderr
        assert decoder_filled_share(np.full((200, 200, 3), DECODER_FILL, np.uint8)) == 0.0


def _seen_of(placed: Placed, probabilities: np.ndarray) -> Seen:
    boxes = np.concatenate([placed.corners.min(axis=1), placed.corners.max(axis=1)], axis=1)
    n = len(placed.codes)
    return Seen(boxes, np.ones(n), probabilities, np.zeros(n), np.zeros((0, 4)), image_hw=(960, 1280))


def test_a_concealed_kongs_backs_count_as_copies_of_its_face_when_the_tiles_are_kept_to_one_set(
    tmp_path: Path,
) -> None:
    # the hand's W pair taken for S (W the runner-up) beside an S kong laid S back back S: four S read
    # face up keep to a set alone, but the two backs are S too, so six S is two too many
    placed = place([["1m 2m 3m 4p 5p 6p 7s 8s 9s W W", "S back back S"]])
    probabilities = np.full((len(placed.codes), len(CLASSES)), 1e-4)
    for i, code in enumerate(placed.codes):
        probabilities[i, CLASSES.index(code)] = 0.9
    for i in (9, 10):
        probabilities[i, CLASSES.index("S")], probabilities[i, CLASSES.index("W")] = 0.6, 0.35
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    reader = TileReader.load(write_models(tmp_path, detector_rows(scene(600, 1000), (384, 640))))
    reading = reader.settle(_seen_of(placed, probabilities))
    assert reading.detections.codes.count("S") == 2 and reading.detections.codes.count("W") == 2
    assert reading.layout is not None
    (kong,) = reading.layout.hand["melds"]
    assert kong["kind"] == "kong" and kong["concealed"] and set(kong["tiles"]) == {"S"}
    # without the kong's backs the same four S face up keep to a set: read as the classifier has them
    lone = place([["1m 2m 3m 4p 5p 6p 7s 8s 9s W W", "S S"]])
    kept = reader.settle(_seen_of(lone, probabilities[[*range(12), 11]]))
    assert kept.detections.codes.count("S") == 4


def test_tiles_the_layout_doubts_are_marked_unsure() -> None:
    """A lone back among face-up tiles (`Layout.doubtful`) is shown as unsure, however sure its read."""
    from vision.detections import UNSURE_BELOW
    from vision.pipeline import with_doubtful

    det = Detections.from_codes(["1m", "back", "2m"], [[0, 0, 10, 14], [11, 0, 21, 14], [22, 0, 32, 14]])
    marked = with_doubtful(det, (1,))
    assert marked.confidence[1] < UNSURE_BELOW
    np.testing.assert_array_equal(marked.confidence[[0, 2]], det.confidence[[0, 2]])
    assert with_doubtful(det, ()) is det


def test_a_small_tile_s_size_is_never_shown_as_the_threshold_it_is_under() -> None:
    """Rounded, 2.49% of the long side read "about 2.5% ...; under 2.5%", and 23.6 px "about 24 px
    wide; under 24 px" (an audit): the share and the width are rounded down."""
    from vision.pipeline import SMALL_TILE_PX, SMALL_TILE_SHARE, small_tiles_warning

    sure = np.full(4, 0.9, np.float32)
    wide = np.array([[i * 60, 0, (i + 1) * 60, 84] for i in range(4)], np.float32)  # 84 px long sides
    (line,) = small_tiles_warning(wide, sure, image_long=int(84 / (SMALL_TILE_SHARE - 0.0001)))
    assert f"about {SMALL_TILE_SHARE - 0.001:.1%} of its long side; under {SMALL_TILE_SHARE:.1%}" in line
    narrow = SMALL_TILE_PX - 0.4
    boxes = np.array([[i * narrow, 0, (i + 1) * narrow, 1.4 * narrow] for i in range(4)], np.float32)
    (line,) = small_tiles_warning(boxes, sure)
    assert f"about {SMALL_TILE_PX - 1} px wide; under {SMALL_TILE_PX} px" in line


def test_a_readings_lines_must_say_its_warnings_one_for_each() -> None:
    # the app reads its lines and `python -m vision` prints its warnings: the two never part
    from vision.lines import TILE, Line

    empty = Detections.from_codes([], [], [])
    said = Reading(empty, None, ("no tiles found",), {}, lines=(Line("no tiles found", TILE),))
    assert said.lines[0].text == said.warnings[0]
    assert Reading(empty, None, ("no tiles found",), {}).lines == ()  # a reading made by hand names nothing
    with pytest.raises(ValueError, match="must say its warnings"):
        Reading(empty, None, ("no tiles found",), {}, lines=(Line("reworded", TILE),))


def test_the_edges_line_names_the_hands_tiles_there_for_a_ui_to_number() -> None:
    # the page said "tiles touch the photo's edge" and left the user to find which; its words stay so
    from types import SimpleNamespace

    from vision.pipeline import _edge_lines

    held = (SimpleNamespace(kind="concealed", indices=(0, 1, 2)),)
    whole = SimpleNamespace(
        hand={"concealed": ["1m"] * 11, "melds": [{"tiles": ["C"] * 3}], "bonus": []}, groups=held
    )
    short = SimpleNamespace(hand={"concealed": ["1m"] * 5, "melds": [], "bonus": []}, groups=held)
    row = np.array([[0, 300, 40, 356], [42, 300, 82, 356], [84, 300, 124, 356]], np.float32)
    (cut,) = _edge_lines(row, (600, 800), whole)  # type: ignore[arg-type]
    assert cut.tiles == (0,) and cut.text.startswith("tiles touch the photo's edge: a tile cut by it")
    assert cut.numbered({0: 7, 1: 8, 2: 9}) == (
        "tile 7 touches the photo's edge and may be misread: check it, or take the photo again with the "
        "whole hand in it"
    )
    # a short hand: the tiles within half a tile of the edge too (the next may lie beyond it, unboxed)
    near = row + np.array([5, 0, 5, 0], np.float32)
    (line,) = _edge_lines(near, (600, 800), short)  # type: ignore[arg-type]
    assert line.tiles == (0,) and line.numbered({0: 3}) == (
        "tile 3 touches the photo's edge: part of the hand may lie outside the photo; take the photo again "
        "with the whole hand in it"
    )
    # only a box left out at the edge beside the hand: no tile of the hand to number
    inside = row + np.array([40, 0, 40, 0], np.float32)
    (boxed,) = _edge_lines(inside, (600, 800), whole, np.array([[0, 300, 36, 356]], np.float32))  # type: ignore[arg-type]
    assert boxed.tiles == () and boxed.by_number is None and boxed.numbered({0: 1}) is None


def test_the_edges_line_is_a_fault_of_the_photo_said_above_the_hands_size_line() -> None:
    # an audit's page put "part of the hand may lie outside the photo" under "5 hand tiles ...", the line
    # it explains; as a fault of the photo's framing it stands with the photo's faults, and is counted
    from types import SimpleNamespace

    from app_ui.reading import app_warnings
    from vision.layout import hand_size_line
    from vision.lines import EDGE, PHOTO, PHOTO_FAULTS
    from vision.pipeline import _edge_lines

    held = (SimpleNamespace(kind="concealed", indices=(0, 1, 2)),)
    short = SimpleNamespace(hand={"concealed": ["1m"] * 5, "melds": [], "bonus": []}, groups=held)
    row = np.array([[0, 300, 40, 356], [42, 300, 82, 356], [84, 300, 124, 356]], np.float32)
    (edge,) = _edge_lines(row, (600, 800), short)  # type: ignore[arg-type]
    assert edge.kind == PHOTO and edge.about == EDGE and EDGE in PHOTO_FAULTS
    size = hand_size_line(5)
    shown = app_warnings((size, edge), number={0: 1, 1: 2, 2: 3})
    assert shown[0].startswith("tile 1 touches the photo's edge") and shown[1] == size.text
