"""`vision.crop_bench`: a crop set's "no tile" and tile crops read by a classifier and counted apart."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import onnx
import pytest

from tests.vision.tinymodels import BLUE, GREEN, RED, classifier_model
from vision import crop_bench
from vision.classes import CLASSES
from vision.crop_bench import CropBenchError, first_look, load_crops, reading

SIZE = 32
NONE = len(CLASSES)
RED_BGR, GREEN_BGR, BLUE_BGR = (0, 0, 255), (0, 255, 0), (255, 0, 0)


def _write(folder: Path, name: str, bgr: tuple[int, int, int]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    crop = np.zeros((SIZE, SIZE, 3), np.uint8)
    crop[:] = bgr
    cv2.imwrite(str(folder / f"{name}.png"), crop)


def _class_dir(root: Path, index: int) -> Path:
    code = CLASSES[index] if index < NONE else "none"
    return root / f"{index:02d}_{code}"


@pytest.fixture
def crop_folder(tmp_path: Path) -> Path:
    """Three 1m crops (two red, one green: misread as 1p), two 1p (green), and "no tile": three of a
    detector's boxes (two blue, one red) and four random (all blue)."""
    root = tmp_path / "val"
    for i, bgr in enumerate([RED_BGR, RED_BGR, GREEN_BGR]):
        _write(_class_dir(root, RED), f"s1_{i}_0", bgr)
    for i in range(2):
        _write(_class_dir(root, GREEN), f"s2_{i}_0", GREEN_BGR)
    for i, bgr in enumerate([BLUE_BGR, BLUE_BGR, RED_BGR]):
        _write(_class_dir(root, NONE), f"s3{crop_bench.HARD_MARK}0_{i}", bgr)
    for i in range(4):
        _write(_class_dir(root, NONE), f"s3_none{i}", BLUE_BGR)
    return root


@pytest.fixture
def model(tmp_path: Path) -> Path:
    """Red -> 1m, green -> 1p, blue -> "no tile"."""
    path = tmp_path / "cls.onnx"
    classifier_model(path, SIZE, None, classes=NONE + 1, targets=(RED, GREEN, NONE))
    return path


def test_crops_are_counted_by_kind_and_read(crop_folder: Path, model: Path) -> None:
    crop_set = load_crops(crop_folder)
    assert len(crop_set.crops) == 12
    result = reading(first_look(model, crop_set.crops), crop_set)
    assert result.counts == (3, 4, 5)
    assert result.hard_none == pytest.approx(2 / 3)
    assert result.random_none == pytest.approx(1.0)
    assert result.tiles_none == pytest.approx(0.0)
    assert result.tiles_top1 == pytest.approx(4 / 5)


def test_the_threshold_decides_an_even_reading(tmp_path: Path, model: Path) -> None:
    """A purple crop is read half 1m, half "no tile": "no tile" above 0.4, not above 0.5."""
    root = tmp_path / "val"
    _write(_class_dir(root, NONE), f"s1{crop_bench.HARD_MARK}0_0", (255, 0, 255))
    crop_set = load_crops(root)
    probs = first_look(model, crop_set.crops)
    assert reading(probs, crop_set, reject_above=0.4).hard_none == 1.0
    assert reading(probs, crop_set).hard_none == 0.0


def test_a_set_without_detector_boxes_says_nan(tmp_path: Path, model: Path) -> None:
    root = tmp_path / "val"
    _write(_class_dir(root, RED), "s1_0_0", RED_BGR)
    _write(_class_dir(root, NONE), "s1_none0", BLUE_BGR)
    result = reading(first_look(model, load_crops(root).crops), load_crops(root))
    assert math.isnan(result.hard_none)
    assert result.random_none == 1.0


def test_blue_reads_as_the_model_says(tmp_path: Path, crop_folder: Path) -> None:
    """A model without "no tile" taught on blue reads the same crops otherwise."""
    other = tmp_path / "other.onnx"
    classifier_model(other, SIZE, None, classes=NONE + 1, targets=(RED, GREEN, BLUE))
    crop_set = load_crops(crop_folder)
    result = reading(first_look(other, crop_set.crops), crop_set)
    assert result.hard_none == 0.0 and result.random_none == 0.0


def test_cli_prints_one_line_per_model(
    crop_folder: Path, model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert crop_bench.main(["--crops", str(crop_folder), str(model), str(model)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == lines[1]
    assert lines[0].startswith("cls.onnx (32 px): ")
    assert "detectors' boxes 0.667 (3)" in lines[0] and "top-1 0.800 (5)" in lines[0]


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda root: root, "is not a folder"),
        (lambda root: (root / "07_1m").mkdir(parents=True) or root, "not a class folder"),
        (lambda root: (root / "00_1m").mkdir(parents=True) or root, "no crops"),
    ],
)
def test_bad_folders_are_refused_in_one_line(
    tmp_path: Path, model: Path, make: object, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make(tmp_path / "val")  # type: ignore[operator]
    assert crop_bench.main(["--crops", str(root), str(model)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_model_of_another_side_reads_the_crops_resized(
    crop_folder: Path, model: Path, tmp_path: Path
) -> None:
    """A 16 px model (fixed input) reads the 32 px crops resized to its side, as a look of another
    size does in the app: the same colours, the same reading."""
    small = tmp_path / "small.onnx"
    classifier_model(small, SIZE // 2, None, classes=NONE + 1, targets=(RED, GREEN, NONE))
    crop_set = load_crops(crop_folder)
    assert crop_bench.model_side(small) == SIZE // 2
    assert reading(first_look(small, crop_set.crops), crop_set) == reading(
        first_look(model, crop_set.crops), crop_set
    )


def _dynamic(source: Path, target: Path, imgsz: str | None) -> Path:
    """`source` with its height and width left open, and `imgsz` written as an ultralytics export does."""
    onnx_model = onnx.load(str(source))
    for dim in list(onnx_model.graph.input[0].type.tensor_type.shape.dim)[2:]:
        dim.dim_param = "side"
    if imgsz is not None:
        onnx_model.metadata_props.add(key="imgsz", value=imgsz)
    onnx.save(onnx_model, str(target))
    return target


def test_an_open_sized_model_reads_at_the_side_its_export_wrote(model: Path, tmp_path: Path) -> None:
    assert crop_bench.model_side(_dynamic(model, tmp_path / "a.onnx", "[24, 24]")) == 24
    assert crop_bench.model_side(_dynamic(model, tmp_path / "b.onnx", None)) is None  # the crops' side
    assert crop_bench.model_side(_dynamic(model, tmp_path / "c.onnx", "oops")) is None


def test_an_unreadable_model_is_refused_in_one_line(crop_folder: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(CropBenchError, match=r"crop_bench: cannot read .*broken\.onnx as an ONNX model"):
        first_look(broken, load_crops(crop_folder).crops)


def test_a_model_without_no_tile_is_refused(crop_folder: Path, tmp_path: Path) -> None:
    other = tmp_path / "tiles.onnx"
    classifier_model(other, SIZE, None)
    with pytest.raises(CropBenchError, match=r"tiles\.onnx: classifier has 49 outputs, expected 50"):
        first_look(other, load_crops(crop_folder).crops)


def test_a_usage_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # argparse's three-line usage block stood above "the following arguments are required"
    with pytest.raises(SystemExit) as stopped:
        crop_bench.main([])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("error: the following arguments are required: --crops, models")
        and err.count("\n") == 1
    )
