"""Two classifiers joined into one ONNX graph: the joined file reads the weighted average of what each
reads, runs in the app's classifier unchanged, and pairs that cannot be joined are refused in a line."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from tests.vision.tinymodels import BLUE, GREEN, RED, classifier_model, write_models
from vision.classes import CLASS_INDEX, CLASSES
from vision.ensemble import JOINED_KEY, EnsembleError, Members, join_files, joined, split, split_file
from vision.onnx_models import TileClassifier, make_session
from vision.sidecar import load_config
from vision.train import main as train_main

SIZE = 16
NAMES = "{0: '00_1m', 1: '01_2m'}"


def _crops(*rgb: tuple[int, int, int]) -> np.ndarray:
    return np.stack([np.full((SIZE, SIZE, 3), colour, np.uint8) for colour in rgb])


def _read(path: Path, crops: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path))
    blob = crops.transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    return np.asarray(session.run(None, {session.get_inputs()[0].name: blob})[0])


@pytest.fixture
def two(tmp_path: Path) -> tuple[Path, Path]:
    """Two classifiers that read a red crop differently (1m and 5m), green and blue alike."""
    first, second = tmp_path / "first.onnx", tmp_path / "second.onnx"
    classifier_model(first, SIZE, None)
    classifier_model(second, SIZE, None, targets=(CLASS_INDEX["5m"], GREEN, BLUE))
    return first, second


@pytest.mark.parametrize("weight", [0.0, 0.3, 0.5, 1.0])
def test_joined_reads_the_weighted_average(two: tuple[Path, Path], tmp_path: Path, weight: float) -> None:
    crops = _crops((250, 0, 0), (0, 250, 0), (10, 20, 200), (120, 90, 30))
    out = tmp_path / "joined.onnx"
    join_files(two[0], two[1], weight, out)
    expected = weight * _read(two[0], crops) + (1 - weight) * _read(two[1], crops)
    np.testing.assert_allclose(_read(out, crops), expected, atol=1e-6)


def test_joined_splits_a_disputed_crop_and_keeps_agreement(two: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "joined.onnx"
    join_files(two[0], two[1], 0.5, out)
    probs = _read(out, _crops((250, 0, 0), (0, 250, 0)))
    assert probs[0, RED] == pytest.approx(probs[0, CLASS_INDEX["5m"]], abs=1e-6)
    assert probs[0, RED] > 0.45
    assert probs[1].argmax() == GREEN and probs[1, GREEN] > 0.9
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-5)


def test_the_app_runs_a_joined_classifier_unchanged(two: tuple[Path, Path], tmp_path: Path) -> None:
    models = write_models(tmp_path / "models", np.zeros((1, 5), np.float32), cls_size=SIZE)
    join_files(two[0], two[1], 0.75, models / "tile_classifier.onnx")
    config = load_config(models).classifier
    reader = TileClassifier.from_session(make_session(models / "tile_classifier.onnx"), config)
    probs = reader.classify(_crops((250, 0, 0)))
    # four turned views of a flat crop read alike: the average is the joined graph's own reading
    assert probs[0, RED] > probs[0, CLASS_INDEX["5m"]] > 0.1


def test_first_models_class_names_and_a_record_are_kept(tmp_path: Path) -> None:
    first, second = tmp_path / "a.onnx", tmp_path / "b.onnx"
    classifier_model(first, SIZE, None, classes=2, names=NAMES, targets=(0, 1, 1))
    classifier_model(second, SIZE, None, classes=2, names=NAMES, targets=(0, 1, 1))
    out = tmp_path / "joined.onnx"
    join_files(first, second, 0.25, out)
    metadata = {p.key: p.value for p in onnx.load(str(out)).metadata_props}
    assert metadata["names"] == NAMES
    assert metadata[JOINED_KEY] == "0.25 x a.onnx + 0.75 x b.onnx"


def test_joined_twice_nests_without_name_clashes(two: tuple[Path, Path], tmp_path: Path) -> None:
    pair = tmp_path / "pair.onnx"
    join_files(two[0], two[1], 0.5, pair)
    third = tmp_path / "third.onnx"
    classifier_model(third, SIZE, None, targets=(RED, CLASS_INDEX["9p"], BLUE))
    out = tmp_path / "three.onnx"
    join_files(pair, third, 2 / 3, out)
    crops = _crops((0, 250, 0))
    expected = (_read(two[0], crops) + _read(two[1], crops) + _read(third, crops)) / 3
    np.testing.assert_allclose(_read(out, crops), expected, atol=1e-6)


def test_different_inputs_outputs_or_classes_are_refused(tmp_path: Path) -> None:
    base = tmp_path / "base.onnx"
    classifier_model(base, SIZE, None, classes=2, names=NAMES, targets=(0, 1, 1))
    other_size, other_classes, other_names = (tmp_path / f"{n}.onnx" for n in ("size", "classes", "names"))
    classifier_model(other_size, SIZE * 2, None, classes=2, names=NAMES, targets=(0, 1, 1))
    classifier_model(other_classes, SIZE, None, classes=3, targets=(0, 1, 2))
    classifier_model(other_names, SIZE, None, classes=2, names="{0: '00_2m', 1: '01_1m'}", targets=(0, 1, 1))
    refusals = ((other_size, "inputs differ"), (other_classes, "outputs differ"), (other_names, "classes"))
    for other, why in refusals:
        with pytest.raises(EnsembleError, match=why):
            join_files(base, other, 0.5, tmp_path / "out.onnx")
    with pytest.raises(EnsembleError, match=r"\[0, 1\]"):
        joined(onnx.load(str(base)), onnx.load(str(base)), 1.5)


def test_cli_refuses_a_file_that_is_not_a_model_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_model = tmp_path / "labels.json"
    not_a_model.write_text(json.dumps({"a": 1}))
    model = tmp_path / "model.onnx"
    classifier_model(model, SIZE, None)
    out = tmp_path / "out.onnx"
    with pytest.raises(SystemExit) as stop:
        train_main(["ensemble", "--first", str(model), "--second", str(not_a_model), "--out", str(out)])
    message = str(stop.value.code)
    assert "cannot read" in message and "labels.json" in message and "\n" not in message
    assert not out.exists()
    train_main(
        ["ensemble", "--first", str(model), "--second", str(model), "--weight", "0.4", "--out", str(out)]
    )
    assert "0.4 x" in capsys.readouterr().out
    crops = _crops((0, 0, 250))
    np.testing.assert_allclose(_read(out, crops), _read(model, crops), atol=1e-6)


def _pixel_model(path: Path, side: int, seed: int) -> None:
    """A classifier of fixed `side`-pixel crops whose reading depends on every pixel (a dense layer),
    so that it reads a crop resized some other way than the joined graph's differently."""
    shape = (3 * side * side, len(CLASSES))
    weights = np.random.default_rng(seed).normal(0.0, 0.05, shape).astype(np.float32)
    graph = helper.make_graph(
        [
            helper.make_node("Flatten", ["images"], ["flat"], axis=1),
            helper.make_node("MatMul", ["flat", "weights"], ["logits"]),
            helper.make_node("Softmax", ["logits"], ["output0"], axis=1),
        ],
        "pixel_classifier",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, side, side])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, ["batch", len(CLASSES)])],
        initializer=[numpy_helper.from_array(weights, "weights")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def _any_size_model(path: Path) -> None:
    """The tiny classifier (a mean over the crop), its input of any height and width."""
    classifier_model(path, SIZE, None)
    model = onnx.load(str(path))
    dims = model.graph.input[0].type.tensor_type.shape.dim
    dims[2].dim_param, dims[3].dim_param = "height", "width"
    onnx.save(model, str(path))


def test_a_second_model_of_another_size_reads_the_crop_resized(tmp_path: Path) -> None:
    first, second, out = tmp_path / "any.onnx", tmp_path / "eight.onnx", tmp_path / "joined.onnx"
    _any_size_model(first)
    _pixel_model(second, 8, seed=3)
    join_files(first, second, 0.4, out, second_size=8)
    crops = np.random.default_rng(4).integers(0, 256, (3, SIZE, SIZE, 3), dtype=np.uint8)
    # bilinear, pixel centres aligned (cv2.resize's way), on the crop's values unrounded
    values = crops.astype(np.float32)
    small = np.stack([cv2.resize(c, (8, 8), interpolation=cv2.INTER_LINEAR) for c in values])
    expected = 0.4 * _read(first, crops) + 0.6 * _read(second, small)
    np.testing.assert_allclose(_read(out, crops), expected, atol=1e-5)
    nearest = np.stack([cv2.resize(c, (8, 8), interpolation=cv2.INTER_NEAREST) for c in crops])
    assert np.abs(_read(out, crops) - (0.4 * _read(first, crops) + 0.6 * _read(second, nearest))).max() > 1e-4
    record = {p.key: p.value for p in onnx.load(str(out)).metadata_props}[JOINED_KEY]
    assert record == "0.4 x any.onnx + 0.6 x eight.onnx at 8 px"


def test_another_size_is_refused_for_a_first_model_of_fixed_size(tmp_path: Path) -> None:
    fixed, any_size, eight = tmp_path / "fixed.onnx", tmp_path / "any.onnx", tmp_path / "eight.onnx"
    classifier_model(fixed, SIZE, None)
    _any_size_model(any_size)
    _pixel_model(eight, 8, seed=1)
    with pytest.raises(EnsembleError, match="any input size"):
        join_files(fixed, eight, 0.5, tmp_path / "out.onnx", second_size=8)
    with pytest.raises(EnsembleError, match="inputs differ"):
        join_files(any_size, eight, 0.5, tmp_path / "out.onnx", second_size=12)
    with pytest.raises(EnsembleError, match="8 pixels or more"):
        join_files(any_size, eight, 0.5, tmp_path / "out.onnx", second_size=2)


def _members(joined_path: Path, out_dir: Path) -> tuple[Path, Path, Members]:
    members = split_file(joined_path, out_dir)
    return out_dir / "first.onnx", out_dir / "second.onnx", members


def test_split_gives_back_each_member_and_its_share(two: tuple[Path, Path], tmp_path: Path) -> None:
    pair = tmp_path / "pair.onnx"
    join_files(two[0], two[1], 0.3, pair)
    first, second, members = _members(pair, tmp_path / "members")
    assert (members.weight, members.second_size) == (pytest.approx(0.3), None)
    crops = _crops((250, 0, 0), (0, 250, 0), (120, 90, 30))
    np.testing.assert_allclose(_read(first, crops), _read(two[0], crops), atol=1e-6)
    np.testing.assert_allclose(_read(second, crops), _read(two[1], crops), atol=1e-6)
    # the members differ where the originals do: each is one model, not the average
    assert _read(first, crops)[0].argmax() == RED and _read(second, crops)[0].argmax() == CLASS_INDEX["5m"]
    assert JOINED_KEY not in {p.key for p in members.first.metadata_props}
    again = tmp_path / "again.onnx"
    join_files(first, second, members.weight, again)
    np.testing.assert_allclose(_read(again, crops), _read(pair, crops), atol=1e-6)


def test_split_gives_back_a_second_that_read_resized_crops(tmp_path: Path) -> None:
    first, second, out = tmp_path / "any.onnx", tmp_path / "eight.onnx", tmp_path / "joined.onnx"
    _any_size_model(first)
    _pixel_model(second, 8, seed=5)
    join_files(first, second, 0.4, out, second_size=8)
    got_first, got_second, members = _members(out, tmp_path / "members")
    assert (members.weight, members.second_size) == (pytest.approx(0.4), 8)
    small = np.random.default_rng(6).integers(0, 256, (2, 8, 8, 3), dtype=np.uint8)
    np.testing.assert_allclose(_read(got_second, small), _read(second, small), atol=1e-6)
    crops = np.random.default_rng(7).integers(0, 256, (2, SIZE, SIZE, 3), dtype=np.uint8)
    np.testing.assert_allclose(_read(got_first, crops), _read(first, crops), atol=1e-6)
    second_meta = {p.key: p.value for p in members.second.metadata_props}
    assert second_meta["imgsz"] == "[8, 8]"


def test_split_takes_the_last_join_apart(two: tuple[Path, Path], tmp_path: Path) -> None:
    pair, third, three = tmp_path / "pair.onnx", tmp_path / "third.onnx", tmp_path / "three.onnx"
    join_files(two[0], two[1], 0.5, pair)
    classifier_model(third, SIZE, None, targets=(RED, CLASS_INDEX["9p"], BLUE))
    join_files(pair, third, 2 / 3, three)
    got_pair, got_third, members = _members(three, tmp_path / "members")
    assert members.weight == pytest.approx(2 / 3)
    crops = _crops((0, 250, 0), (250, 0, 0))
    np.testing.assert_allclose(_read(got_pair, crops), _read(pair, crops), atol=1e-6)
    np.testing.assert_allclose(_read(got_third, crops), _read(third, crops), atol=1e-6)
    record = {p.key: p.value for p in members.first.metadata_props}[JOINED_KEY]
    assert record == "0.5 x first.onnx + 0.5 x second.onnx"  # the pair's own record, as before
    inner_first, inner_second, _ = _members(got_pair, tmp_path / "inner")
    np.testing.assert_allclose(_read(inner_first, crops), _read(two[0], crops), atol=1e-6)
    np.testing.assert_allclose(_read(inner_second, crops), _read(two[1], crops), atol=1e-6)


def test_split_refuses_a_model_that_is_not_joined_in_one_line(tmp_path: Path) -> None:
    plain = tmp_path / "plain.onnx"
    classifier_model(plain, SIZE, None)
    with pytest.raises(EnsembleError, match="not a joined classifier"):
        split(onnx.load(str(plain)))
    out = tmp_path / "members"
    with pytest.raises(SystemExit) as stop:
        train_main(["split", "--joined", str(plain), "--out", str(out)])
    assert "not a joined" in str(stop.value.code) and "\n" not in str(stop.value.code)
    assert not (out / "first.onnx").exists()
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    with pytest.raises(SystemExit) as stop:  # --out names a folder
        train_main(["split", "--joined", str(plain), "--out", str(a_file)])
    assert "is a file" in str(stop.value.code) and "\n" not in str(stop.value.code)
