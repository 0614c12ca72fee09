"""`vision.train export` takes already-exported ONNX files as they are (a model shipped before, an
ensemble): the sidecar it writes loads in the app, and files without an ultralytics export's class
names are refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import pytest

from tests.vision.tinymodels import classifier_model, detector_model
from vision.classes import CLASS_INDEX, CLASSES
from vision.sidecar import load_config
from vision.train import TRAIN_CLASSES, class_folder
from vision.train import main as train_main

PAIRS = (("det", "tile_detector"), ("cls", "tile_classifier"), ("second", "tile_second_look"))
SECOND = ("1s", "F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4")


def _names(folders: list[str]) -> str:
    return str(dict(enumerate(folders)))


def _with_imgsz(path: Path, size: int) -> None:
    model = onnx.load(str(path))
    onnx.helper.set_model_props(
        model, {**{p.key: p.value for p in model.metadata_props}, "imgsz": f"[{size}, {size}]"}
    )
    onnx.save(model, str(path))


@pytest.fixture
def shipped(tmp_path: Path) -> Path:
    """A detector, a 50-output classifier and a nine-face second look, as ultralytics exports name them."""
    folder = tmp_path / "shipped"
    folder.mkdir()
    detector_model(folder / "det.onnx", np.zeros((1, 5), np.float32), (64, 64))
    folders = [class_folder(i) for i in range(len(TRAIN_CLASSES))]
    classifier_model(folder / "cls.onnx", 32, None, classes=len(TRAIN_CLASSES), names=_names(folders))
    second_folders = [class_folder(CLASS_INDEX[code]) for code in SECOND]
    classifier_model(
        folder / "second.onnx", 48, None, classes=9, names=_names(second_folders), targets=(0, 1, 2)
    )
    _with_imgsz(folder / "second.onnx", 48)
    return folder


def _export(shipped: Path, out: Path, classifier: str = "cls.onnx") -> None:
    train_main(
        [
            "export",
            "--detector", str(shipped / "det.onnx"),
            "--classifier", str(shipped / classifier),
            "--second-look", str(shipped / "second.onnx"),
            "--out", str(out),
            "--det-imgsz", "64",
            "--cls-imgsz", "32",
            "--rotations", "4",
        ]
    )  # fmt: skip


def test_onnx_files_are_taken_as_they_are_and_the_sidecar_loads(shipped: Path, tmp_path: Path) -> None:
    out = tmp_path / "models"
    _export(shipped, out)
    for source, name in (
        ("det", "tile_detector"),
        ("cls", "tile_classifier"),
        ("second", "tile_second_look"),
    ):
        assert (out / f"{name}.onnx").read_bytes() == (shipped / f"{source}.onnx").read_bytes()
    config = load_config(out)
    assert config.classifier.names == CLASSES and config.classifier.reject == "none"
    assert config.classifier.rotations == 4
    assert config.second_look is not None
    assert config.second_look.names == SECOND and config.second_look.imgsz == 48
    assert config.detector.imgsz == (64, 64)


def test_exporting_into_the_folder_the_files_are_in_keeps_them(shipped: Path) -> None:
    for source, name in (
        ("det", "tile_detector"),
        ("cls", "tile_classifier"),
        ("second", "tile_second_look"),
    ):
        (shipped / f"{name}.onnx").write_bytes((shipped / f"{source}.onnx").read_bytes())
    before = (shipped / "tile_classifier.onnx").read_bytes()
    _export(shipped, shipped, classifier="tile_classifier.onnx")
    assert (shipped / "tile_classifier.onnx").read_bytes() == before
    assert json.loads((shipped / "models.json").read_text())["classifier"]["file"] == "tile_classifier.onnx"


def test_a_classifier_without_or_with_other_class_names_is_refused_in_one_line(
    shipped: Path, tmp_path: Path
) -> None:
    classifier_model(shipped / "bare.onnx", 32, None)
    with pytest.raises(SystemExit) as stop:
        _export(shipped, tmp_path / "a", classifier="bare.onnx")
    assert "has no class names" in str(stop.value.code) and "\n" not in str(stop.value.code)
    shuffled = [class_folder(i) for i in range(len(TRAIN_CLASSES))]
    shuffled[0], shuffled[1] = shuffled[1], shuffled[0]
    classifier_model(shipped / "swapped.onnx", 32, None, classes=len(TRAIN_CLASSES), names=_names(shuffled))
    with pytest.raises(SystemExit) as stop:
        _export(shipped, tmp_path / "b", classifier="swapped.onnx")
    assert "differ from" in str(stop.value.code)
    assert not (tmp_path / "b" / "models.json").exists()


def test_an_export_keeps_the_text_and_glyph_looks_of_the_sidecar_it_replaces(shipped: Path) -> None:
    for source, name in PAIRS:
        (shipped / f"{name}.onnx").write_bytes((shipped / f"{source}.onnx").read_bytes())
    looks = {"text_look": {"file": "tile_text_look.onnx", "weight": 0.35}, "glyphs": {"above": 0.2}}
    (shipped / "models.json").write_text(json.dumps({"detector": {}, "second_look": {"stale": 1}, **looks}))
    _export(shipped, shipped, classifier="tile_classifier.onnx")
    written = json.loads((shipped / "models.json").read_text())
    assert {key: written[key] for key in looks} == looks
    assert written["second_look"]["file"] == "tile_second_look.onnx"  # rebuilt, not kept
    (shipped / "models.json").write_text("{not json")
    _export(shipped, shipped, classifier="tile_classifier.onnx")
    assert "text_look" not in json.loads((shipped / "models.json").read_text())


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--second-look", "{tmp}/missing.pt"], "export: no such file: "),
        (["--conf", "5"], "export: --conf must be between 0 and 1, got 5"),
    ],
)
def test_an_export_checks_every_input_before_it_writes_anything(
    shipped: Path, tmp_path: Path, extra: list[str], said: str
) -> None:
    # the ONNX files were written, then the missing second look stopped it: new files, old sidecar
    out = tmp_path / "out"
    argv = ["export", "--detector", str(shipped / "det.onnx"), "--classifier", str(shipped / "cls.onnx")]
    argv += ["--out", str(out), "--det-imgsz", "64", "--cls-imgsz", "32"]
    with pytest.raises(SystemExit) as refused:
        train_main(argv + [arg.replace("{tmp}", str(tmp_path)) for arg in extra])
    assert str(refused.value).startswith(said) and not out.exists()
