"""`python -m datasets.synth`: YOLO files, data.yaml, meta JSON, made_with.json, and one-line errors."""

from __future__ import annotations

import json
import platform
import re
import signal
from pathlib import Path

import numpy as np
import pytest
import yaml

from datasets import synth
from datasets.synth import list_styles, made_with, main, render_scene, rerender_scene, scene_seed
from vision.classes import CLASS_INDEX, CLASSES


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("synth")
    assert (
        main(["--out", str(path), "--n", "4", "--seed", "3", "--styles", "procedural", "--size", "480"]) == 0
    )
    return path


def test_writes_one_image_label_and_meta_per_scene(out: Path) -> None:
    names = sorted(p.stem for p in (out / "images").glob("*.jpg"))
    assert names == ["000000", "000001", "000002", "000003"]
    assert sorted(p.stem for p in (out / "labels").glob("*.txt")) == names
    assert sorted(p.stem for p in (out / "meta").glob("*.json")) == names


def test_yolo_labels_are_valid_and_match_meta(out: Path) -> None:
    for label in (out / "labels").glob("*.txt"):
        meta = json.loads((out / "meta" / f"{label.stem}.json").read_text())
        lines = label.read_text().splitlines()
        assert len(lines) == len(meta["tiles"])
        for line, tile in zip(lines, meta["tiles"], strict=True):
            fields = line.split()
            assert len(fields) == 5
            cls = int(fields[0])
            assert cls == CLASS_INDEX[tile["code"]]
            cx, cy, w, h = map(float, fields[1:])
            assert 0 < w <= 1 and 0 < h <= 1
            assert cx - w / 2 + 1e-6 >= 0 and cx + w / 2 <= 1 + 1e-6
            assert cy - h / 2 + 1e-6 >= 0 and cy + h / 2 <= 1 + 1e-6


def test_data_yaml_names_are_the_class_codes(out: Path) -> None:
    data = yaml.safe_load((out / "data.yaml").read_text())
    assert [data["names"][i] for i in range(len(CLASSES))] == list(CLASSES)
    assert data["nc"] == 49
    for split in ("train", "val"):
        listed = (out / data[split]).read_text().split()
        assert listed and all((out / p).exists() for p in listed)


def test_meta_re_renders_the_same_scene(out: Path) -> None:
    meta = json.loads((out / "meta" / "000002.json").read_text())
    assert meta["seed"] == scene_seed(3, 2)
    assert meta["image"] == "images/000002.jpg"
    _, again = render_scene(meta["seed"], meta["style"], size=480)
    assert again["tiles"] == meta["tiles"]
    assert rerender_scene(meta)[1] == {**meta, "image": ""}  # the run writes where the image lies


def test_a_scene_drawn_from_several_styles_re_renders_from_its_meta_alone(tmp_path: Path) -> None:
    # the style's draw moves the seed's stream: naming the style alone gave another scene
    others = [style for style in list_styles() if style != "procedural"]
    if not others:
        pytest.skip("one style installed: nothing to draw from")
    pool = ["procedural", others[0]]
    photo, meta = render_scene(scene_seed(7, 0), None, 320, styles=pool)
    assert meta["style_pool"] == pool
    again_photo, again = rerender_scene(json.loads(json.dumps(meta)))
    assert again == meta and np.array_equal(again_photo, photo)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["--n", "1"], "--out", id="no-out"),
        pytest.param(["--out", "X", "--n", "-1"], "--n must be >= 1", id="negative-n"),
        pytest.param(["--out", "X", "--n", "0"], "--n must be >= 1", id="no-scenes"),
        pytest.param(["--out", "X", "--n", "1", "--seed", "-1"], "--seed must be >= 0", id="negative-seed"),
        pytest.param(
            ["--out", "X", "--n", "1", "--val-every", "-1"], "--val-every must be >= 0", id="val-negative"
        ),
        pytest.param(["--out", "X", "--n", "1", "--styles", " , "], "--styles names no style", id="no-style"),
        pytest.param(["--out", "X", "--styles", "nope"], "unknown style", id="bad-style"),
        pytest.param(["--out", "X", "--n", "1", "--size", "5"], "size", id="bad-size"),
        pytest.param(["--out", "X", "--n", "1", "--focus", "melds"], "unknown focus", id="bad-focus"),
    ],
)
def test_bad_input_is_one_line_on_stderr(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(tmp_path / a) if a == "X" else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err


def test_contact_sheet_draws_every_class_of_each_style(tmp_path: Path) -> None:
    from PIL import Image

    from datasets.contact_sheet import HEADER_H, LABEL_W
    from datasets.contact_sheet import main as sheet_main

    out = tmp_path / "sheet.png"
    assert sheet_main(["--out", str(out), "--styles", "procedural,procedural_bold", "--tile", "32"]) == 0
    sheet = np.asarray(Image.open(out).convert("RGB")).astype(int)
    assert sheet.shape[0] == HEADER_H + 2 * (32 + 3) + 3
    tile_w = round(32 * 192 / 256)
    assert sheet.shape[1] == LABEL_W + len(CLASSES) * (tile_w + 3) + 3
    # each cell holds a face: mostly its light ground, unlike the sheet's dark grey
    for row in range(2):
        y0 = HEADER_H + 3 + row * 35
        for k in range(len(CLASSES)):
            x0 = LABEL_W + 3 + k * (tile_w + 3)
            cell = sheet[y0 + 4 : y0 + 28, x0 + 4 : x0 + tile_w - 4]
            differs = np.abs(cell - [70, 74, 80]).max(axis=2) > 25
            assert differs.mean() > 0.5, (row, CLASSES[k])


def test_contact_sheet_rejects_unknown_style(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from datasets.contact_sheet import main as sheet_main

    assert sheet_main(["--out", str(tmp_path / "s.png"), "--styles", "nope"]) == 2
    err = capsys.readouterr().err.strip()
    assert "unknown style" in err and "\n" not in err


def test_parallel_workers_write_the_same_files(out: Path, tmp_path: Path) -> None:
    argv = ["--n", "4", "--seed", "3", "--styles", "procedural", "--size", "480", "--workers", "2"]
    assert main(["--out", str(tmp_path), *argv]) == 0
    for name in ("000000", "000003"):
        assert (tmp_path / "labels" / f"{name}.txt").read_text() == (
            out / "labels" / f"{name}.txt"
        ).read_text()
        assert json.loads((tmp_path / "meta" / f"{name}.json").read_text()) == json.loads(
            (out / "meta" / f"{name}.json").read_text()
        )


def test_a_set_says_what_drew_it(out: Path) -> None:
    made = json.loads((out / "made_with.json").read_text())
    assert made["commit"] is None or re.fullmatch(r"[0-9a-f]{40}\+?", made["commit"])
    assert made["python"] == platform.python_version()
    assert made["packages"]["numpy"] == np.__version__
    assert made["packages"]["opencv-python"] is not None and made["packages"]["pillow"] is not None
    assert all(isinstance(name, str) for name in [*made["art"], *made["fonts"]])


def test_made_with_names_the_art_packages_by_their_files(tmp_path: Path) -> None:
    (tmp_path / "debs").mkdir()
    (tmp_path / "wheels").mkdir()
    (tmp_path / "debs" / "xmahjongg_3.7-5_amd64.deb").write_bytes(b"")
    (tmp_path / "wheels" / "mahjong_learner-0.1.1-py3-none-any.whl").write_bytes(b"")
    (tmp_path / "debs" / "notes.txt").write_text("not a package")
    assert made_with(tmp_path)["art"] == [
        "mahjong_learner-0.1.1-py3-none-any.whl",
        "xmahjongg_3.7-5_amd64.deb",
    ]
    assert made_with(None)["art"] == []


def test_a_set_drawn_outside_a_checkout_names_no_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(synth, "REPOSITORY", tmp_path)
    assert synth.generator_commit() is None
    assert made_with(None)["commit"] is None


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        pytest.param("--seed", "-1", "--seed must be >= 0, got -1", id="seed"),
        pytest.param("--start", "-2", "--start must be >= 0, got -2", id="start"),
        pytest.param("--n", "0", "--n must be >= 1, got 0", id="n"),
    ],
)
def test_a_count_out_of_range_is_named_alone(
    flag: str, value: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # one line listing --n, --start and --seed left the user to find which one was wrong
    argv = {"--out": str(tmp_path / "x"), "--n": "1", flag: value}
    assert main([item for pair in argv.items() for item in pair]) == 2
    assert capsys.readouterr().err.strip() == f"error: {message}"


def test_an_empty_out_writes_nothing_into_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--out "$DIR"` with DIR unset wrote a whole set into the current folder (the repository)
    monkeypatch.chdir(tmp_path)
    assert main(["--out", "", "--n", "1", "--size", "160", "--styles", "procedural"]) == 2
    assert "--out names no folder" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_an_out_that_is_a_file_or_under_one_is_one_plain_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "photo.jpg"
    file.write_bytes(b"")
    assert main(["--out", str(file), "--n", "1"]) == 2
    assert capsys.readouterr().err.strip() == f"error: --out {file} is a file, not a folder"
    # a folder that cannot be made is said with its path, not Python's "[Errno 20] Not a directory: ..."
    assert main(["--out", str(file / "set"), "--n", "1", "--size", "160", "--styles", "procedural"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: cannot write {file / 'set'}") and "Errno" not in err and "\n" not in err


def test_a_number_that_is_no_number_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # argparse's own usage block above the error was nine lines
    with pytest.raises(SystemExit) as exit_info:
        main(["--out", "x", "--n", "abc"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--n: invalid int value: 'abc'" in err


def test_a_run_says_where_it_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # without tqdm (the train extra) a finished run printed nothing at all
    assert main(["--out", str(tmp_path), "--n", "1", "--size", "160", "--styles", "procedural"]) == 0
    assert capsys.readouterr().out.strip().startswith(f"wrote 1 scene to {tmp_path}:")


def test_ctrl_c_is_one_line_and_exit_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def stopped(*_args: object, **_kwargs: object) -> list[str]:
        raise KeyboardInterrupt

    monkeypatch.setattr(synth, "generate", stopped)
    assert main(["--out", str(tmp_path), "--n", "1", "--styles", "procedural"]) == 130
    err = capsys.readouterr().err
    assert err.startswith("stopped (Ctrl-C)") and err.count("\n") == 1


def test_help_says_each_default_and_the_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    for said in (
        "(default 100)",
        "(default 0)",
        "(default 1280)",
        "(default 10;",
        "(default 1)",
        "Exit status:",
        "--list-styles lists them",
    ):
        assert said in text, said


@pytest.mark.parametrize(
    ("out", "says"),
    [
        pytest.param("sheet.txt", "give it an image extension, e.g. .png or .jpg", id="extension"),
        pytest.param("", "--out needs a file name", id="empty"),
        pytest.param("DIR", "it is a folder", id="folder"),
        pytest.param("FILE/sheet.png", "is a file, not a folder", id="under-a-file"),
    ],
)
def test_contact_sheet_refuses_a_file_it_cannot_write_in_one_line_before_drawing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    out: str,
    says: str,
) -> None:
    # `--out sheet.txt` and `--out ""` ended in PIL's KeyError traceback, after every style was drawn
    from datasets import contact_sheet

    def no_drawing(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the sheet was drawn before --out was checked")

    monkeypatch.setattr(contact_sheet, "contact_sheet", no_drawing)
    (tmp_path / "FILE").write_bytes(b"")
    given = out.replace("DIR", str(tmp_path)).replace("FILE", str(tmp_path / "FILE"))
    assert contact_sheet.main(["--out", given, "--styles", "procedural"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and says in err and err.count("\n") == 1


def test_contact_sheet_usage_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from datasets.contact_sheet import main as sheet_main

    with pytest.raises(SystemExit) as exit_info:
        sheet_main([])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_contact_sheet_reads_styles_as_the_generator_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from datasets.contact_sheet import main as sheet_main

    # `--styles " , "` was "unknown styles , ;"
    assert sheet_main(["--out", str(tmp_path / "s.png"), "--styles", " , "]) == 2
    assert (
        capsys.readouterr().err == "error: --styles names no style; leave it out for every installed style\n"
    )


def test_the_workers_leave_ctrl_c_to_the_parent() -> None:
    # Ctrl-C reaches every process of the terminal's group: a worker printed its KeyboardInterrupt
    # traceback above the run's one line
    with synth.worker_pool(1) as pool:
        assert pool.apply(signal.getsignal, (signal.SIGINT,)) == signal.SIG_IGN
