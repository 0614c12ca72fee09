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
