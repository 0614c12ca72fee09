"""Where `python -m vision.train` trains: the CPU by default, or a lent GPU (`--device`), for a fixed
time (`--hours`); and `soup`, two checkpoints' weights averaged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import vision.train as train
from vision.train import Compute, Optimiser, Run, averaged


def _args(compute: Compute) -> dict[str, Any]:
    return Run(3, 96, 64, Path("/tmp/p"), "cls", 7, None, compute).train_args()


def test_default_run_stays_on_the_cpu_with_no_time_limit() -> None:
    args = _args(Compute())
    assert (args["device"], args["workers"]) == ("cpu", 0)
    assert "time" not in args
    assert args["fliplr"] == 0.0 and args["amp"] is False


def test_a_gpu_run_takes_its_device_loaders_and_hours() -> None:
    args = _args(Compute(device="0", workers=9, hours=0.18))
    assert (args["device"], args["workers"], args["time"]) == ("0", 9, 0.18)
    assert args["epochs"] == 3 and args["imgsz"] == 96


def _runs_handed_over(stage: str, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> list[Run]:
    """The Runs `python -m vision.train STAGE ARGV` hands its trainer (which is not run)."""
    seen: list[Run] = []
    trainer = "train_classifier" if stage == "classifier" else "train_detector"
    monkeypatch.setattr(train, trainer, lambda run, *rest: seen.append(run))
    data = Path(argv[argv.index("--data") + 1])
    (data / "classifier").mkdir(exist_ok=True)  # where each trainer finds its data
    (data / "detector").mkdir(exist_ok=True)
    (data / "detector" / "data.yaml").write_text("")
    train.main([stage, *argv])
    return seen


@pytest.mark.parametrize("stage", ["classifier", "detector"])
def test_the_cli_hands_the_compute_to_the_trainer(
    stage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--data", str(tmp_path), "--device", "0", "--workers", "6", "--hours", "0.5"]
    weights = tmp_path / "w.pt"
    weights.write_bytes(b"")
    seen = _runs_handed_over(
        stage, [*argv, "--epochs", "4", "--name", "n", "--seed", "3", "--weights", str(weights)], monkeypatch
    )
    assert [run.compute for run in seen] == [Compute(device="0", workers=6, hours=0.5)]
    assert (seen[0].epochs, seen[0].name, seen[0].seed, seen[0].resume_from) == (4, "n", 3, str(weights))
    assert seen[0].optimiser == Optimiser()


@pytest.mark.parametrize("stage", ["classifier", "detector"])
def test_both_trainers_take_the_optimiser_rate_and_warm_up(
    stage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--data", str(tmp_path), "--optimizer", "AdamW", "--lr0", "1e-4", "--warmup-epochs", "0"]
    seen = _runs_handed_over(stage, argv, monkeypatch)
    assert [run.optimiser for run in seen] == [Optimiser("AdamW", 1e-4, 0.0)]
    args = seen[0].train_args()
    assert (args["optimizer"], args["lr0"], args["warmup_epochs"]) == ("AdamW", 1e-4, 0.0)


@pytest.mark.parametrize("bad", [["--hours", "0"], ["--hours", "-1"], ["--workers", "-2"]])
def test_bad_compute_is_refused_in_one_line(bad: list[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="--workers must be >= 0 and --hours > 0"):
        train.main(["classifier", "--data", str(tmp_path), *bad])


def test_a_soup_averages_the_float_weights_and_keeps_their_type() -> None:
    first: dict[str, np.ndarray] = {"w": np.array([1.0, 3.0], np.float16), "n": np.array(5, np.int64)}
    second: dict[str, np.ndarray] = {"w": np.array([3.0, -1.0], np.float16), "n": np.array(9, np.int64)}
    out = averaged(first, second, 0.25)
    assert out["w"].dtype == np.float16
    np.testing.assert_array_equal(out["w"], np.array([2.5, 0.0], np.float16))
    assert out["n"] == 9  # counts are the second's, not averaged
    np.testing.assert_array_equal(averaged(first, second, 1.0)["w"], first["w"])


def test_a_soup_of_two_different_models_is_refused_in_one_line() -> None:
    a = {"w": np.zeros(3, np.float32)}
    with pytest.raises(SystemExit, match="different layers"):
        averaged(a, {"v": np.zeros(3, np.float32)}, 0.5)
    with pytest.raises(SystemExit, match=r"w is \(3,\) in one checkpoint and \(4,\)"):
        averaged(a, {"w": np.zeros(4, np.float32)}, 0.5)


@pytest.mark.parametrize("weight", ["-0.1", "1.5"])
def test_a_soup_weight_outside_0_1_is_refused(weight: str, tmp_path: Path) -> None:
    pt = str(tmp_path / "a.pt")
    with pytest.raises(SystemExit, match=r"--weight must be in 0\.\.1"):
        train.main(["soup", "--first", pt, "--second", pt, "--weight", weight, "--out", pt])


def test_random_init_builds_the_scale_asked_for_and_a_checkpoint_its_own() -> None:
    run = Run(3, 96, 64, Path("/tmp/p"), "cls", 7)
    assert run.model(train.CLASSIFIER_YAML) == "yolo11n-cls.yaml"
    assert run.model(train.DETECTOR_YAML) == "yolo11n.yaml"
    larger = Run(3, 96, 64, Path("/tmp/p"), "cls", 7, scale="s")
    assert larger.model(train.CLASSIFIER_YAML) == "yolo11s-cls.yaml"
    resumed = Run(3, 96, 64, Path("/tmp/p"), "cls", 7, "/w/last.pt", scale="s")
    assert resumed.model(train.CLASSIFIER_YAML) == "/w/last.pt"


@pytest.mark.parametrize("stage", ["classifier", "detector"])
def test_the_cli_hands_the_scale_to_the_trainer(
    stage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _runs_handed_over(stage, ["--data", str(tmp_path), "--scale", "s"], monkeypatch)
    assert [run.scale for run in seen] == ["s"]
    assert _runs_handed_over(stage, ["--data", str(tmp_path)], monkeypatch)[0].scale == "n"


def test_a_scale_with_a_checkpoint_is_refused_in_one_line(tmp_path: Path) -> None:
    weights = tmp_path / "w.pt"
    weights.write_bytes(b"")
    argv = ["classifier", "--data", str(tmp_path), "--weights", str(weights), "--scale", "m"]
    with pytest.raises(SystemExit, match="--scale m builds a model from scratch; --weights brings its own"):
        train.main(argv)


def test_an_unknown_scale_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        train.main(["classifier", "--data", str(tmp_path), "--scale", "x"])
    assert stop.value.code == 2
    assert "invalid choice: 'x'" in capsys.readouterr().err


def test_the_classifier_trainer_builds_its_scale_from_the_model_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded: list[str] = []

    class FakeModel:
        def train(self, **kwargs: Any) -> None:
            loaded.append(f"train {kwargs['imgsz']} pretrained={kwargs['pretrained']}")

    def cpu_model(name: str) -> FakeModel:
        loaded.append(name)
        return FakeModel()

    monkeypatch.setattr(train, "_cpu_model", cpu_model)
    train.train_classifier(Run(1, 128, 8, tmp_path, "c", 0, scale="s"), tmp_path)
    assert loaded == ["yolo11s-cls.yaml", "train 128 pretrained=False"]
