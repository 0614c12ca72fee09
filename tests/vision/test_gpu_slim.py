"""`python -m vision.gpu.slim`: a checkpoint cut to its half-precision weights, for the GPU lease."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from vision.gpu.slim import main


def test_the_weights_go_half_and_the_optimiser_goes(tmp_path: Path) -> None:
    torch: Any = pytest.importorskip("torch")
    layer = torch.nn.Linear(4, 3)
    source, target = tmp_path / "last.pt", tmp_path / "out" / "det.pt"
    target.parent.mkdir()
    torch.save({"model": layer, "ema": None, "optimizer": {"state": torch.zeros(1000)}, "epoch": 7}, source)
    main([str(source), str(target)])
    slimmed = torch.load(target, map_location="cpu", weights_only=False)
    assert slimmed["model"].weight.dtype == torch.float16
    assert torch.allclose(slimmed["model"].weight.float(), layer.weight.half().float())
    assert slimmed["ema"] is None and "optimizer" not in slimmed and slimmed["epoch"] == 7
    assert [p.name for p in target.parent.iterdir()] == ["det.pt"]  # no partial file left


def test_it_wants_two_paths() -> None:
    with pytest.raises(SystemExit, match="usage"):
        main(["only-one"])


def test_a_checkpoint_caught_mid_write_leaves_the_last_copy(tmp_path: Path) -> None:
    torch: Any = pytest.importorskip("torch")
    source, target = tmp_path / "last.pt", tmp_path / "det.pt"
    torch.save({"model": torch.nn.Linear(64, 64), "epoch": 3}, source)
    main([str(source), str(target)])
    kept = target.read_bytes()
    whole = source.read_bytes()
    source.write_bytes(whole[: len(whole) // 2])  # as a copier finds it while ultralytics saves
    with pytest.raises(SystemExit, match=r"slim: cannot read .*left as it was"):
        main([str(source), str(target)])
    assert target.read_bytes() == kept
