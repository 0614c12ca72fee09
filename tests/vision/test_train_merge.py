"""`python -m vision.train merge`: several data outputs as one training set, by links."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from vision.train import main, parse_source


def _data(root: Path, name: str, images: int, crops: int) -> Path:
    source = root / name
    for split in ("train", "val"):
        folder = source / "detector" / "images" / split
        folder.mkdir(parents=True)
        for k in range(images):
            (folder / f"{k:06d}.jpg").write_bytes(b"jpg")
        for cls in ("00_1m", "01_2m"):
            crop_dir = source / "classifier" / split / cls
            crop_dir.mkdir(parents=True)
            for k in range(crops):
                (crop_dir / f"{k}.jpg").write_bytes(name.encode())
    return source


def test_merge_samples_images_and_links_every_crop(tmp_path: Path) -> None:
    a, b = _data(tmp_path, "a", 10, 3), _data(tmp_path, "b", 4, 2)
    out = tmp_path / "mix"
    main(["merge", "--out", str(out), "--from", f"{a}:6:2", str(b), "--seed", "1"])
    train = (out / "train.txt").read_text().split()
    val = (out / "val.txt").read_text().split()
    assert len(train) == 6 + 4 and len(val) == 2 + 4
    assert len(set(train)) == len(train) and all(Path(p).is_file() for p in train)
    assert "train: train.txt" in (out / "detector" / "data.yaml").read_text()
    links = sorted((out / "classifier" / "train" / "00_1m").iterdir())
    assert [p.name for p in links] == ["a_0.jpg", "a_1.jpg", "a_2.jpg", "b_0.jpg", "b_1.jpg"]
    assert all(p.is_symlink() for p in links) and links[-1].read_bytes() == b"b"
    # the same seed draws the same images; a merge can feed another merge
    again = tmp_path / "again"
    main(["merge", "--out", str(again), "--from", f"{a}:6:2", str(b), "--seed", "1"])
    assert (again / "train.txt").read_text().split() == train
    nested = tmp_path / "nested"
    main(["merge", "--out", str(nested), "--from", f"{out}:3:1"])
    assert set((nested / "train.txt").read_text().split()) <= set(train)


@pytest.mark.parametrize("text", ["", "a:1:2:3", ":5", "a:x"])
def test_bad_source_is_refused(text: str) -> None:
    with pytest.raises((argparse.ArgumentTypeError, ValueError)):
        parse_source(text)


def test_a_source_that_is_no_data_output_is_refused(tmp_path: Path) -> None:
    # a mistyped --from merged the other folders alone, and said nothing
    with pytest.raises(SystemExit) as refused:
        main(["merge", "--out", str(tmp_path / "m"), "--from", str(tmp_path / "typo")])
    assert "merge: no data output (DIR/classifier) in" in str(refused.value)
    assert not (tmp_path / "m").exists()
    (tmp_path / "a" / "classifier").mkdir(parents=True)
    with pytest.raises(SystemExit) as refused:
        main(
            ["merge", "--out", str(tmp_path / "m"), "--from", str(tmp_path / "a"), str(tmp_path / "a") + "/"]
        )
    assert "more than once" in str(refused.value) and not (tmp_path / "m").exists()


@pytest.mark.parametrize("stage", ["detector", "classifier", "pip-detector"])
def test_training_without_its_data_stops_before_ultralytics_looks_for_it(tmp_path: Path, stage: str) -> None:
    # ultralytics would take a missing folder for a dataset's name and download it
    missing = tmp_path / "nothing"
    with pytest.raises(SystemExit) as refused:
        main([stage, "--data", str(missing), "--epochs", "1", "--project", str(tmp_path / "runs")])
    assert f"{stage}: no training data at {missing}" in str(refused.value)
    assert not missing.exists()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["data", "--scenes", "{tmp}", "--out", "{tmp}/d", "--val-fraction", "2"], "data: --val-fraction"),
        (["data", "--scenes", "{tmp}", "--out", "{tmp}/d", "--crop-size", "0"], "data: --val-fraction"),
        (["data", "--scenes", "{tmp}", "--out", "{tmp}/file"], "data: --out {tmp}/file is a file"),
        (["classifier", "--data", "{tmp}", "--epochs", "0"], "train: --epochs and --batch must be >= 1"),
        (["classifier", "--data", "{tmp}", "--weights", "{tmp}/gone.pt"], "train: --weights {tmp}/gone.pt"),
    ],
)
def test_a_training_command_given_nonsense_says_so_in_one_line(
    tmp_path: Path, argv: list[str], said: str
) -> None:
    (tmp_path / "file").write_text("")
    (tmp_path / "classifier").mkdir()
    with pytest.raises(SystemExit) as refused:
        main([arg.replace("{tmp}", str(tmp_path)) for arg in argv])
    assert str(refused.value).startswith(said.replace("{tmp}", str(tmp_path))), refused.value
