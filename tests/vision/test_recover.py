"""A checkpoint rebuilt from an exported classifier reads as the ONNX file does, and starts training.

The BatchNorm arithmetic and the refusals run everywhere; the round trip through ultralytics needs
the `train` extra (torch) and is skipped without it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import onnx
import pytest

from tests.vision.tinymodels import classifier_model
from vision.ensemble import join_files
from vision.half_weights import half_weights
from vision.recover import (
    CLASSIFIER,
    RecoverError,
    batchnorm_after_fused,
    calibration_inputs,
    named_weights,
    onnx_weights,
)
from vision.train import main as train_main


def test_batchnorm_after_fused_adds_the_bias_in_eval_and_training_mode() -> None:
    rng = np.random.default_rng(3)
    channels, eps = 5, 1e-3
    y = rng.normal(rng.normal(size=channels) * 4, rng.uniform(0.1, 3, channels), size=(64, channels))
    bias = rng.normal(size=channels)
    mean, var = y.mean(axis=0), y.var(axis=0)
    bn = batchnorm_after_fused(bias, mean, var, eps)
    eval_mode = bn.weight * (y - bn.running_mean) / np.sqrt(bn.running_var + eps) + bn.bias
    np.testing.assert_allclose(eval_mode, y + bias, atol=1e-9)
    # on a batch with the fitted statistics, training mode (the batch's own) reads the same
    training_mode = bn.weight * (y - mean) / np.sqrt(var + eps) + bn.bias
    np.testing.assert_allclose(training_mode, y + bias, atol=1e-9)


def test_a_file_that_is_not_a_trainable_model_is_refused_in_one_line(tmp_path: Path) -> None:
    text = tmp_path / "notes.onnx"
    text.write_text("not a model")
    with pytest.raises(RecoverError, match="cannot read"):
        onnx_weights(text)
    tiny = tmp_path / "tiny.onnx"
    classifier_model(tiny, 16, None)
    refusal = r"neither a yolo11n-cls\.yaml classifier nor a yolo11n\.yaml detector"
    with pytest.raises(RecoverError, match=refusal):
        onnx_weights(tiny)
    with pytest.raises(SystemExit) as stop:
        train_main(["recover", "--onnx", str(tiny), "--data", str(tmp_path), "--out", str(tmp_path / "x.pt")])
    assert "neither a yolo11n-cls.yaml classifier" in str(stop.value.code)
    assert not (tmp_path / "x.pt").exists()
    joined = tmp_path / "joined.onnx"
    join_files(tiny, tiny, 0.5, joined)
    with pytest.raises(RecoverError, match=r"joins two classifiers: take it apart first .*split"):
        onnx_weights(joined)


def test_weights_stored_as_float16_are_read_under_their_own_names_as_float32(tmp_path: Path) -> None:
    # a detector shipped as two averaged in float16 (stage 64) is taken apart by `split` into halves
    # that `recover` must still read as the export named its weights
    full = tmp_path / "full.onnx"
    classifier_model(full, 16, None)
    half = tmp_path / "half.onnx"
    half_weights(full, half)
    exact = named_weights(onnx.load(str(full)))
    stored = onnx.load(str(half))
    assert any(init.name.endswith("_fp16") for init in stored.graph.initializer)
    read = named_weights(stored)
    assert read.keys() == exact.keys()
    for name, values in exact.items():
        assert read[name].dtype == values.dtype
        np.testing.assert_allclose(read[name], values, rtol=1e-3, atol=1e-4)


def _crops_folder(root: Path, count: int = 12) -> Path:
    rng = np.random.default_rng(0)
    for i in range(count):
        folder = root / "classifier" / "train" / f"{i % 3:02d}_x"
        folder.mkdir(parents=True, exist_ok=True)
        image = np.full((40, 30, 3), rng.integers(0, 255, 3), np.uint8)
        cv2.rectangle(image, (5, 8), (20, 30), tuple(int(v) for v in rng.integers(0, 255, 3)), -1)
        cv2.imwrite(str(folder / f"{i}.jpg"), image)
    return root


def test_calibration_inputs_are_model_sized_rgb_in_unit_range(tmp_path: Path) -> None:
    crops = calibration_inputs(_crops_folder(tmp_path), 24, 24, 5)
    assert crops.shape == (5, 3, 24, 24) and crops.dtype == np.float32
    assert crops.min() >= 0.0 and crops.max() <= 1.0
    with pytest.raises(RecoverError, match="no images"):
        calibration_inputs(tmp_path / "empty", 24, 24, 5)


def test_a_detectors_scenes_are_letterboxed_not_stretched(tmp_path: Path) -> None:
    folder = tmp_path / "detector" / "images" / "train"
    folder.mkdir(parents=True)
    scene = np.zeros((40, 80, 3), np.uint8)
    scene[:, :40] = (255, 0, 0)  # the left half blue in BGR
    cv2.imwrite(str(folder / "a.png"), scene)
    (folder / "a.txt").write_text("0 0.5 0.5 0.1 0.1\n")  # labels are not images
    boxed = calibration_inputs(tmp_path, 32, 32, 4, letterboxed=True)
    assert boxed.shape == (1, 3, 32, 32)
    # 80 x 40 fits as 32 x 16: grey bands above and below, the scene's halves kept apart
    assert np.allclose(boxed[0, :, 0, 16], 114 / 255, atol=0.01)
    assert boxed[0, 2, 16, 4] > 0.9 and boxed[0, 2, 16, 28] < 0.1
    stretched = calibration_inputs(tmp_path, 32, 32, 4)
    assert stretched[0, 2, 0, 4] > 0.9  # no band: the scene fills the square


def test_a_data_folder_gives_the_detector_its_scenes_and_the_classifier_its_crops(tmp_path: Path) -> None:
    data = _crops_folder(tmp_path / "data")  # 12 crops under data/classifier/
    scene = tmp_path / "scenes" / "000000.png"
    scene.parent.mkdir()
    cv2.imwrite(str(scene), np.full((40, 80, 3), 200, np.uint8))
    (data / "train.txt").write_text(f"{scene}\n")
    (data / "detector").mkdir()
    assert len(calibration_inputs(data, 32, 32, 50, letterboxed=True)) == 1
    assert len(calibration_inputs(data, 32, 32, 50)) == 12


def _trained_looking(model: Any) -> Any:
    """`model` (an ultralytics model, random init) with BatchNorms as training leaves them and no
    two convolution biases alike (the exporter keeps one copy of equal initializers), fused."""
    torch: Any = pytest.importorskip("torch")
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.running_mean.normal_(0, 0.5)
                module.running_var.uniform_(0.5, 2.0)
                module.weight.uniform_(0.5, 1.5)
                module.bias.normal_(0, 0.2)
            elif (
                isinstance(module, torch.nn.Conv2d) and module.bias is not None and module.bias.requires_grad
            ):
                module.bias.add_(torch.randn_like(module.bias) * 0.1)  # the detector head's start equal
    return model.fuse().eval()


def _export(model: Any, path: Path, size: int, names: dict[int, str], any_batch: bool) -> None:
    """`model`'s first output exported as ultralytics exports it (parameter names model.N....), with
    its names and size in the metadata; `any_batch` False: one image at a time, as the detector."""
    torch: Any = pytest.importorskip("torch")
    module_base: Any = torch.nn.Module

    class FirstOutput(module_base):
        def __init__(self) -> None:
            super().__init__()
            self.model = model.model

        def forward(self, x: object) -> object:
            out = model(x)
            return out[0] if isinstance(out, tuple) else out

    batch_axis = {"images": {0: "batch"}, "output0": {0: "batch"}} if any_batch else None
    torch.onnx.export(
        FirstOutput(),
        torch.zeros(1, 3, size, size),
        str(path),
        input_names=["images"],
        output_names=["output0"],
        dynamic_axes=batch_axis,
        opset_version=17,
        dynamo=False,
    )
    exported = onnx.load(str(path))
    onnx.helper.set_model_props(exported, {"names": str(names), "imgsz": f"[{size}, {size}]"})
    onnx.save(exported, str(path))


def _exported_classifier(path: Path, classes: int, size: int) -> None:
    """A randomly initialised yolo11n-cls with trained-looking BatchNorms, fused and exported."""
    pytest.importorskip("torch").manual_seed(0)
    tasks = pytest.importorskip("ultralytics.nn.tasks")
    model = _trained_looking(tasks.ClassificationModel("yolo11n-cls.yaml", nc=classes, verbose=False))
    _export(model, path, size, {i: f"{i:02d}_c{i}" for i in range(classes)}, any_batch=True)


@pytest.mark.slow
def test_recovered_checkpoint_reads_as_the_onnx_file(tmp_path: Path) -> None:
    source = tmp_path / "cls.onnx"
    _exported_classifier(source, classes=6, size=32)
    torch = pytest.importorskip("torch")
    out = tmp_path / "recovered.pt"
    train_main(["recover", "--onnx", str(source), "--crops", str(_crops_folder(tmp_path)), "--out", str(out)])
    assert onnx_weights(source)[2] is CLASSIFIER
    checkpoint = torch.load(out, map_location="cpu", weights_only=False)
    model = checkpoint["model"].eval()
    assert model.names == {i: f"{i:02d}_c{i}" for i in range(6)}
    assert checkpoint["train_args"] == {"task": "classify", "imgsz": 32}
    crops = np.random.default_rng(1).uniform(0, 1, (4, 3, 32, 32)).astype(np.float32)
    import onnxruntime as ort

    session = ort.InferenceSession(str(source), providers=["CPUExecutionProvider"])
    theirs = session.run(None, {"images": crops})[0]
    with torch.no_grad():
        ours = model(torch.from_numpy(crops))
    ours = (ours[0] if isinstance(ours, tuple) else ours).numpy()
    np.testing.assert_allclose(ours, theirs, atol=1e-4)
    assert any(isinstance(m, torch.nn.BatchNorm2d) for m in model.modules())  # trainable again


def _exported_detector(path: Path, size: int) -> None:
    """A randomly initialised one-class yolo11n with trained-looking BatchNorms, fused and exported
    for one image at a time, as the shipped detector is."""
    pytest.importorskip("torch").manual_seed(0)
    tasks = pytest.importorskip("ultralytics.nn.tasks")
    model = _trained_looking(tasks.DetectionModel("yolo11n.yaml", nc=1, verbose=False))
    _export(model, path, size, {0: "item"}, any_batch=False)


@pytest.mark.slow
def test_a_recovered_detector_reads_as_the_onnx_file(tmp_path: Path) -> None:
    source = tmp_path / "det.onnx"
    _exported_detector(source, size=64)
    torch = pytest.importorskip("torch")
    from vision.recover import DETECTOR

    assert onnx_weights(source)[2] is DETECTOR
    scenes = tmp_path / "detector" / "images" / "train"
    scenes.mkdir(parents=True)
    rng = np.random.default_rng(2)
    for i in range(6):
        cv2.imwrite(str(scenes / f"{i}.jpg"), rng.integers(0, 255, (48, 80, 3), dtype=np.uint8))
    out = tmp_path / "det.pt"
    train_main(["recover", "--onnx", str(source), "--data", str(tmp_path), "--out", str(out)])
    checkpoint = torch.load(out, map_location="cpu", weights_only=False)
    assert checkpoint["train_args"] == {"task": "detect", "imgsz": 64}
    model = checkpoint["model"].eval()
    assert model.names == {0: "item"}
    import onnxruntime as ort

    session = ort.InferenceSession(str(source), providers=["CPUExecutionProvider"])
    image = rng.uniform(0, 1, (1, 3, 64, 64)).astype(np.float32)
    theirs = session.run(None, {"images": image})[0]
    with torch.no_grad():
        ours = model(torch.from_numpy(image))[0].numpy()
    assert ours.shape == theirs.shape
    # box coordinates in pixels of a 64 px input, scores in 0..1
    np.testing.assert_allclose(ours, theirs, atol=2e-3)
    assert any(isinstance(m, torch.nn.BatchNorm2d) for m in model.modules())
