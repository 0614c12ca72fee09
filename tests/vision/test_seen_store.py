"""A photo's models' output kept on disk reads back as it was, and the bench settles it again alike."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from tests.vision.scenes import detector_rows, scene
from tests.vision.test_bench import _synthetic_set
from tests.vision.tinymodels import write_models
from vision.bench import main
from vision.pipeline import Seen
from vision.seen_store import SeenStoreError, load_seen, save_seen, seen_path


def _seen(image_hw: tuple[int, int] | None, sharpness: float | None) -> Seen:
    rng = np.random.default_rng(7)
    return Seen(
        xyxy=rng.uniform(0, 500, (3, 4)).astype(np.float32),
        det_score=rng.uniform(0, 1, 3).astype(np.float32),
        probabilities=rng.dirichlet(np.ones(49), 3).astype(np.float32),
        angle=np.array([0.5, np.nan, -12.0], np.float32),
        rejected_xyxy=np.zeros((0, 4), np.float32),
        image_hw=image_hw,
        gain=1.6,
        white=0.02,
        filled=0.0,
        sharpness=sharpness,
        evenness=None if sharpness is None else 0.42,
    )


@pytest.mark.parametrize(("image_hw", "sharpness"), [((960, 1280), 41.5), (None, None)])
def test_a_saved_reading_reads_back_as_it_was(
    tmp_path: Path, image_hw: tuple[int, int] | None, sharpness: float | None
) -> None:
    seen = _seen(image_hw, sharpness)
    path = seen_path(tmp_path, Path("images/000007.jpg"))
    save_seen(path, seen, 0.5)
    back, factor = load_seen(path)
    assert path.name == "000007.npz" and factor == 0.5
    for name in ("xyxy", "det_score", "probabilities", "angle", "rejected_xyxy"):
        np.testing.assert_array_equal(getattr(back, name), getattr(seen, name))
        assert getattr(back, name).dtype == getattr(seen, name).dtype
    assert (back.image_hw, back.gain, back.white, back.filled, back.sharpness, back.evenness) == (
        image_hw,
        seen.gain,
        seen.white,
        seen.filled,
        sharpness,
        seen.evenness,  # the shake line reads it again
    )


def test_a_reading_saved_before_the_shake_line_reads_back_without_evenness(tmp_path: Path) -> None:
    path = tmp_path / "old.npz"
    save_seen(path, _seen((960, 1280), 0.1), 1.0)
    with np.load(path) as data:
        old = {name: data[name] for name in data.files if name != "evenness"}
    np.savez_compressed(path, **old)
    back = load_seen(path)[0]
    assert back.sharpness == 0.1 and back.evenness is None  # told by its sharpness alone, as before


def test_where_a_photo_lay_on_a_screenshot_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "shot.npz"
    framed = dataclasses.replace(_seen((2532, 1170), None), content_xyxy=(0, 827, 1170, 1705))
    save_seen(path, framed, 1.0)
    assert load_seen(path)[0].content_xyxy == (0, 827, 1170, 1705)
    save_seen(path, _seen((960, 1280), None), 1.0)
    assert load_seen(path)[0].content_xyxy is None


def test_a_missing_or_broken_reading_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(SeenStoreError, match=r"no saved reading 000001\.npz in .*--save-seen"):
        load_seen(tmp_path / "000001.npz")
    (tmp_path / "000002.npz").write_bytes(b"not a zip")
    with pytest.raises(SeenStoreError, match="not a saved reading"):
        load_seen(tmp_path / "000002.npz")


def test_the_bench_settles_saved_readings_again_to_the_same_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models = write_models(tmp_path / "models", detector_rows(scene(600, 1000), (384, 640)))
    _synthetic_set(tmp_path / "synth")
    synth, kept = str(tmp_path / "synth"), tmp_path / "kept"
    saved, settled = tmp_path / "saved.json", tmp_path / "settled.json"
    assert (
        main(["--synthetic", synth, "--models", str(models), "--save-seen", str(kept), "--json", str(saved)])
        == 0
    )
    assert (kept / "000001.npz").is_file() and "--save-seen" in (kept / "saved_with.json").read_text()
    capsys.readouterr()
    assert main(["--synthetic", synth, "--from-seen", str(kept), "--json", str(settled)]) == 0
    assert (
        f"settled again from the readings in {kept} (python -m vision.bench --synthetic"
        in capsys.readouterr().out
    )
    (before,), (after,) = json.loads(saved.read_text()), json.loads(settled.read_text())
    for key in ("precision", "recall", "f1", "exact_photos", "exact_hands", "confusions", "kinds"):
        assert before[key] == after[key]
    assert before["recall"] == 0.75  # the set's 9s is not found: a figure that could differ


def test_readings_of_turned_photos_are_not_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _synthetic_set(tmp_path / "synth")
    args = ["--synthetic", str(tmp_path / "synth"), "--save-seen", str(tmp_path / "kept"), "--turn", "90"]
    assert main(args) == 2
    assert "--save-seen keeps photos read as stored" in capsys.readouterr().err
    assert not (tmp_path / "kept").exists()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--grid", "1"], "--grid was fixed when the readings were saved"),
        (["--turn", "90"], "--turn was fixed when the readings were saved"),
        (["--save-seen", "other"], "give --save-seen or --from-seen, not both"),
        (["--real", "."], "one set at a time"),
    ],
)
def test_what_the_models_saw_by_is_not_given_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    _synthetic_set(tmp_path / "synth")
    (tmp_path / "kept").mkdir()
    (tmp_path / "labels.json").write_text("[]")
    extra = [str(tmp_path) if arg == "." else arg for arg in extra]
    assert main(["--synthetic", str(tmp_path / "synth"), "--from-seen", str(tmp_path / "kept"), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_whole_photos_blur_is_kept_and_an_older_reading_has_none(tmp_path: Path) -> None:
    path = tmp_path / "shaken.npz"
    shaken = dataclasses.replace(_seen((960, 1280), None), whole_sharpness=0.55, whole_evenness=0.2)
    save_seen(path, shaken, 1.0)
    back = load_seen(path)[0]
    assert (back.whole_sharpness, back.whole_evenness) == (0.55, 0.2)
    with np.load(path) as data:
        old = {name: data[name] for name in data.files if not name.startswith("whole_")}
    np.savez_compressed(path, **old)
    back = load_seen(path)[0]
    assert back.whole_sharpness is None and back.whole_evenness is None


def test_a_reading_saved_with_its_looks_keeps_them_and_one_without_reads_back_none(tmp_path: Path) -> None:
    seen = _seen((960, 1280), 41.5)
    looks = np.random.default_rng(3).normal(size=(3, 8)).astype(np.float32)
    save_seen(tmp_path / "a.npz", dataclasses.replace(seen, descriptors=looks), 1.0)
    back, _ = load_seen(tmp_path / "a.npz")
    assert back.descriptors is not None
    np.testing.assert_allclose(back.descriptors, looks, rtol=1e-2, atol=1e-2)  # kept as float16
    save_seen(tmp_path / "b.npz", seen, 1.0)
    assert load_seen(tmp_path / "b.npz")[0].descriptors is None
