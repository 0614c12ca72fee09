"""Fine-tuning the text look end to end (vision.text_look_tune): its crops, the fused file split back
into backbone and head, the tuned weights written back into the graph, and the training command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from tests.vision.textlook_faces import brush_faces, made_up_head, scene_folder
from vision.classes import CLASSES
from vision.sidecar import TextLookConfig
from vision.text_look import face_crops
from vision.text_look_train import (
    RECOGNISER_INPUT,
    backbone,
    backbone_session,
    features,
    fused_model,
    recogniser,
)
from vision.text_look_tune import (
    KEPT_TURNS,
    TuneSettings,
    fused_parts,
    load_crops,
    turned,
    with_initializers,
    write_crops,
    write_tuned,
)

ROOT = Path(__file__).resolve().parents[2]
TRAIN = (sys.executable, "-m", "vision.train")
CODES = ("1m", "E", "5p")


@pytest.fixture(scope="module")
def cut() -> onnx.ModelProto:
    return backbone(recogniser())


def _session(model: onnx.ModelProto) -> ort.InferenceSession:
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


def test_the_four_turns_of_the_kept_crops_are_the_run_times_within_rounding() -> None:
    photo, boxes = brush_faces(CODES)
    kept = face_crops(photo, boxes, 0.03, 48, KEPT_TURNS)
    assert kept.shape == (3, 2, 48, 48, 3)
    run_time = face_crops(photo, boxes, 0.03, 48)  # (N, 4, S, S, 3)
    for turn in range(4):
        x = turned(kept, np.full(len(kept), turn))
        assert x.shape == (3, 3, 48, 48) and x.dtype == np.float32
        expected = run_time[:, turn].transpose(0, 3, 1, 2) / 255.0
        assert np.abs(x - expected).mean() < 0.01, f"turn {turn}"
    # a half turn really turns: turn 2 is not turn 0
    assert np.abs(turned(kept, np.zeros(3, int)) - turned(kept, np.full(3, 2))).mean() > 0.05


def test_crops_are_written_for_every_tile_and_read_back_in_order(tmp_path: Path) -> None:
    first = scene_folder(tmp_path / "a", ("2s", "W"))
    second = scene_folder(tmp_path / "b", ("C",))
    config = TextLookConfig(file="")
    assert write_crops(first, tmp_path / "a.npz", config, None) == 2
    assert write_crops(second, tmp_path / "b.npz", config, None) == 1
    crops, labels = load_crops([tmp_path / "a.npz", tmp_path / "b.npz"])
    assert crops.shape == (3, 2, 48, 48, 3) and crops.dtype == np.uint8
    assert [CLASSES[i] for i in labels] == ["2s", "W", "C"]


def test_constant_weights_become_initializers_and_compute_the_same(cut: onnx.ModelProto) -> None:
    constants = sum(node.op_type == "Constant" for node in cut.graph.node)
    assert constants > 0, "PP-OCRv4's file holds its weights as Constant nodes"
    moved = with_initializers(cut)
    assert not any(node.op_type == "Constant" for node in moved.graph.node)
    assert len(moved.graph.initializer) == len(cut.graph.initializer) + constants
    x = np.random.default_rng(0).uniform(-1, 1, (2, 3, 48, 48)).astype(np.float32)
    (a,) = _session(cut).run(None, {RECOGNISER_INPUT: x})
    (b,) = _session(moved).run(None, {RECOGNISER_INPUT: x})
    np.testing.assert_array_equal(a, b)


def test_a_fused_text_look_splits_back_into_its_backbone_and_head(cut: onnx.ModelProto) -> None:
    photo, boxes = brush_faces(CODES)
    crops = face_crops(photo, boxes, 0.03, 48).reshape(-1, 48, 48, 3)
    head = made_up_head(480 * 6)
    parts_cut, parts_head = fused_parts(fused_model(cut, head, 48))
    for field in ("mean", "scale", "hidden_weight", "hidden_bias", "out_weight", "out_bias"):
        np.testing.assert_allclose(getattr(parts_head, field), getattr(head, field), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(
        features(backbone_session(parts_cut, 1), crops), features(backbone_session(cut, 1), crops), atol=1e-5
    )
    # and fused again, it is the same text look
    images = (crops.transpose(0, 3, 1, 2) / 255.0).astype(np.float32)
    (before,) = _session(fused_model(cut, head, 48)).run(None, {"images": images})
    (after,) = _session(fused_model(parts_cut, parts_head, 48)).run(None, {"images": images})
    np.testing.assert_allclose(after, before, atol=1e-5)


def test_a_file_that_is_not_a_text_look_is_refused(cut: onnx.ModelProto) -> None:
    from vision.text_look_train import TextLookError

    with pytest.raises(TextLookError, match="not a text look"):
        fused_parts(cut)


# With torch (the `train` extra)


def test_tuned_weights_written_back_compute_what_torch_computes(cut: onnx.ModelProto) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx2torch")
    from vision.text_look_tune import _build, tuned_cut

    moved = with_initializers(cut)
    net = _build(moved, made_up_head(480 * 6)).eval()
    x = np.random.default_rng(1).uniform(-1, 1, (2, 3, 48, 48)).astype(np.float32)
    (untouched,) = _session(tuned_cut(moved, net.backbone)).run(None, {RECOGNISER_INPUT: x})
    (original,) = _session(moved).run(None, {RECOGNISER_INPUT: x})
    np.testing.assert_allclose(untouched, original, atol=1e-4)
    with torch.no_grad():  # change every convolution, as training would
        for module in net.backbone.modules():
            if isinstance(module, torch.nn.Conv2d):
                module.weight.mul_(1.1)
        wanted = net.backbone(torch.from_numpy(x)).numpy()
    (written,) = _session(tuned_cut(moved, net.backbone)).run(None, {RECOGNISER_INPUT: x})
    assert np.abs(written - original).max() > 0.1
    np.testing.assert_allclose(written, wanted, atol=1e-3 * np.abs(wanted).max())


def test_augmenting_keeps_the_batch_shape_and_range() -> None:
    torch = pytest.importorskip("torch")
    from vision.text_look_tune import augment

    photo, boxes = brush_faces(CODES)
    x = torch.from_numpy(turned(face_crops(photo, boxes, 0.03, 48, KEPT_TURNS), np.array([0, 1, 3])))
    out = augment(x.clone(), torch.Generator().manual_seed(0))
    assert out.shape == x.shape and float(out.min()) >= 0.0 and float(out.max()) <= 1.0
    assert float((out - x).abs().mean()) > 0.01  # it does change the crops


@pytest.mark.slow
def test_a_few_steps_of_tuning_write_a_text_look_the_pipeline_can_read(
    cut: onnx.ModelProto, tmp_path: Path
) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("onnx2torch")
    start = tmp_path / "start.onnx"
    onnx.save(fused_model(cut, made_up_head(480 * 6), 48), str(start))
    write_crops(scene_folder(tmp_path / "s", CODES), tmp_path / "c.npz", TextLookConfig(file=""), None)
    out = tmp_path / "out"
    out.mkdir()
    (out / "models.json").write_text(json.dumps({"detector": {}, "classifier": {}}))
    config = TextLookConfig(file="", weight=0.5, unsure_below=0.8)
    logged: list[str] = []
    target = write_tuned(
        start,
        [tmp_path / "c.npz"],
        [tmp_path / "c.npz"],
        out,
        config,
        TuneSettings(steps=2, batch=4),
        logged.append,
    )
    assert target == out / "tile_text_look.onnx"
    assert any("val accuracy before" in line for line in logged)
    assert any("step 2/2" in line for line in logged)
    section = json.loads((out / "models.json").read_text())["text_look"]
    assert section["file"] == "tile_text_look.onnx" and section["weight"] == 0.5
    photo, boxes = brush_faces(CODES)
    images = (face_crops(photo, boxes, 0.03, 48).reshape(-1, 48, 48, 3).transpose(0, 3, 1, 2) / 255.0).astype(
        np.float32
    )
    (tuned,) = _session(onnx.load(str(target))).run(None, {"images": images})
    (before,) = _session(onnx.load(str(start))).run(None, {"images": images})
    assert tuned.shape == (len(images), len(CLASSES))
    np.testing.assert_allclose(tuned.sum(axis=1), 1.0, atol=1e-4)
    assert np.abs(tuned - before).max() > 1e-4  # two steps moved it


def test_the_tuning_command_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    for extra in (["--crops", str(tmp_path / "no.npz")], ["--crops", "x.npz", "--steps", "0"]):
        run = subprocess.run(
            [*TRAIN, "text-look-tune", "--start", str(tmp_path / "no.onnx"), "--out", str(tmp_path), *extra],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert run.returncode != 0
        assert run.stderr.strip().count("\n") == 0 and "text-look-tune" in run.stderr, run.stderr


def test_a_text_look_over_another_backbone_splits_back_where_its_head_starts() -> None:
    from tests.vision.test_text_look import _same_upper_model

    tiny = _same_upper_model()  # SAME_UPPER pads, its backbone output named "pooled"
    crops = np.random.default_rng(2).integers(0, 255, (2, 48, 48, 3), dtype=np.uint8)
    head = made_up_head(features(backbone_session(tiny, 1), crops).shape[1])
    parts_cut, parts_head = fused_parts(fused_model(tiny, head, 48))
    assert parts_cut.graph.output[0].name == "pooled"
    np.testing.assert_allclose(parts_head.out_weight, head.out_weight, rtol=1e-6)
    # the split keeps the explicit pads the fusing wrote, so torch can take it
    assert not [a for n in parts_cut.graph.node for a in n.attribute if a.name == "auto_pad"]
    np.testing.assert_allclose(
        features(backbone_session(parts_cut, 1), crops), features(backbone_session(tiny, 1), crops), atol=1e-5
    )
    pytest.importorskip("onnx2torch")
    from vision.text_look_tune import _build

    torch = pytest.importorskip("torch")
    net = _build(parts_cut, parts_head).eval()
    images = (crops.transpose(0, 3, 1, 2) / 255.0).astype(np.float32)
    (fused,) = _session(fused_model(parts_cut, parts_head, 48)).run(None, {"images": images})
    with torch.no_grad():
        wanted = torch.softmax(net(torch.from_numpy(images)), dim=1).numpy()
    np.testing.assert_allclose(wanted, fused, atol=1e-4)


def test_tuned_weights_of_a_convolution_with_uneven_pads_are_written_back() -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx2torch")
    from tests.vision.test_text_look import _same_upper_model
    from vision.text_look_train import explicit_pads
    from vision.text_look_tune import _build, tuned_cut

    # 48 px through a 3x3 kernel at stride 2: one pixel of padding, at the end, which onnx2torch
    # builds as a pad before the convolution
    cut = explicit_pads(_same_upper_model(kernel=3), 48)
    x = np.random.default_rng(3).uniform(-1, 1, (2, 3, 48, 48)).astype(np.float32)
    crops = np.random.default_rng(4).integers(0, 255, (2, 48, 48, 3), dtype=np.uint8)
    net = _build(cut, made_up_head(features(backbone_session(cut, 1), crops).shape[1])).eval()
    with torch.no_grad():
        for module in net.backbone.modules():
            if isinstance(module, torch.nn.Conv2d):
                module.weight.mul_(1.5)
        wanted = net.backbone(torch.from_numpy(x)).numpy()
    (written,) = _session(tuned_cut(cut, net.backbone)).run(None, {"x": x})
    (original,) = _session(cut).run(None, {"x": x})
    assert np.abs(written - original).max() > 0.1
    np.testing.assert_allclose(written, wanted, atol=1e-4 * np.abs(wanted).max())
