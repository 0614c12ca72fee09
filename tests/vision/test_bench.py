"""Benchmark matching rules and the bench CLI on tiny models."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from tests.vision.imagegen import encode
from tests.vision.layout_sim import place
from tests.vision.scenes import detector_rows, scene, textured
from tests.vision.tinymodels import write_models
from vision import bench
from vision.bench import (
    TILE_KINDS,
    Options,
    PhotoResult,
    _photo_bytes,
    bench_real,
    by_kind,
    concurrency,
    counted_tiles,
    format_summary,
    main,
    on_screen,
    scenes_digest,
    slanted,
    summarise,
    taught_truth,
)
from vision.bench_match import (
    TileCounts,
    align,
    hand_read_exactly,
    lines_of_boxes,
    match_boxes,
    match_codes,
    match_rows,
    normalise_hand,
    shows_whole_hand,
)
from vision.bench_stages import Misreads, misreads_in_photo, missed_by_kind, tile_kinds, where_extra_boxes
from vision.box_filters import iou_matrix
from vision.canvas import content_xyxy
from vision.classes import CLASSES
from vision.detections import Detections
from vision.imageio import read_image
from vision.layout import GroupKind, Layout, TileGroup, layout_hand
from vision.pipeline import Reading, TileReader
from vision.set_memory import SetMemory, empty_memory

BOX_A = [0, 0, 10, 10]
BOX_B = [100, 100, 110, 110]


@pytest.mark.parametrize(
    ("pred", "true", "expected"),
    [
        pytest.param([], [], TileCounts(0, 0, 0), id="empty"),
        pytest.param([("1m", BOX_A)], [], TileCounts(0, 1, 0), id="only-extra"),
        pytest.param([], [("1m", BOX_A)], TileCounts(0, 0, 1), id="only-missed"),
        pytest.param([("1m", BOX_A)], [("1m", BOX_A)], TileCounts(1, 0, 0), id="right"),
        pytest.param(
            [("2m", BOX_A)], [("1m", BOX_A)], TileCounts(0, 1, 1, Counter({("1m", "2m"): 1})), id="confused"
        ),
        pytest.param([("1m", [0, 0, 10, 30])], [("1m", BOX_A)], TileCounts(0, 1, 1), id="iou-too-low"),
        pytest.param(
            [("1m", BOX_A), ("1m", [1, 1, 11, 11])],
            [("1m", BOX_A)],
            TileCounts(1, 1, 0),
            id="duplicate-counts-once",
        ),
        pytest.param(
            [("1m", BOX_B), ("5s", BOX_A)],
            [("5s", BOX_A), ("1m", BOX_B)],
            TileCounts(2, 0, 0),
            id="order-free",
        ),
    ],
)
def test_match_boxes(
    pred: list[tuple[str, list[int]]], true: list[tuple[str, list[int]]], expected: TileCounts
) -> None:
    counts = match_boxes(
        np.array([b for _, b in pred], np.float32).reshape(-1, 4),
        [c for c, _ in pred],
        [0.9] * len(pred),
        np.array([b for _, b in true], np.float32).reshape(-1, 4),
        [c for c, _ in true],
    )
    assert counts == dataclasses.replace(expected, marked=0, extra_marked=0)  # all read at 0.9: none unsure


def test_the_unsure_marks_count_the_misread_boxes_among_them() -> None:
    # read: 1m right and sure, 2m right but unsure, 3m misread and unsure, 4m misread and sure, a box on
    # no tile unsure
    boxes = [[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10], [60, 0, 70, 10], [80, 0, 90, 10]]
    counts = match_boxes(
        np.array(boxes, np.float32),
        ["1m", "2m", "3m", "4m", "5m"],
        [0.9, 0.5, 0.3, 0.95, 0.2],
        np.array(boxes[:4], np.float32),
        ["1m", "2m", "9m", "8m"],
    )
    assert (counts.right, counts.extra, counts.marked, counts.extra_marked) == (2, 3, 3, 2)
    summary = summarise("s", [PhotoResult("a", counts, None, 1.0), PhotoResult("b", counts, None, 1.0)])
    assert summary.marks == (6, 4, 6)
    assert "unsure marks (confidence under 0.6): 3.0 a photo, on 4 of the 6 misread boxes (67%)" in (
        format_summary(summary)
    )
    # nothing misread: said so, not "on 0 of the 0 misread boxes (0%)" (an audit)
    right = match_boxes(
        np.array(boxes[:2], np.float32),
        ["1m", "2m"],
        [0.9, 0.5],
        np.array(boxes[:2], np.float32),
        ["1m", "2m"],
    )
    assert "1.0 a photo, no box misread" in format_summary(
        summarise("s", [PhotoResult("a", right, None, 1.0), PhotoResult("b", right, None, 1.0)])
    )
    # a real photo's rows match no box one to one: no marks said
    rows_only = TileCounts(3, 0, 0)
    assert summarise("r", [PhotoResult("a", rows_only, None, 1.0)]).marks is None


@pytest.mark.parametrize(
    ("pred", "true", "expected"),
    [
        pytest.param("", "", TileCounts(0, 0, 0), id="empty"),
        pytest.param("1m 2m 3m", "3m 2m 1m", TileCounts(3, 0, 0), id="order-free"),
        pytest.param("1m 2m 2m", "1m 2m 3m", TileCounts(2, 1, 1, Counter({("3m", "2m"): 1})), id="one-swap"),
        pytest.param("1m 4m 5m", "1m 2m 3m", TileCounts(1, 2, 2), id="two-swaps-no-pairing"),
        pytest.param("1m 2m 3m C", "1m 2m 3m", TileCounts(3, 1, 0), id="extra"),
    ],
)
def test_match_codes(pred: str, true: str, expected: TileCounts) -> None:
    assert match_codes(pred.split(), true.split()) == expected


def test_iou_matrix() -> None:
    iou = iou_matrix(np.array([BOX_A, [5, 0, 15, 10]]), np.array([BOX_A, BOX_B]))
    np.testing.assert_allclose(iou, [[1.0, 0.0], [50 / 150, 0.0]])


def test_normalise_hand_ignores_order() -> None:
    pong = {"kind": "pong", "tiles": ["C"] * 3, "concealed": False}
    unordered_chow = {"kind": "chow", "tiles": ["3s", "1s", "2s"]}
    a = {"concealed": ["2m", "1m"], "melds": [pong, unordered_chow], "bonus": ["F1"]}
    chow = {"kind": "chow", "tiles": ["1s", "2s", "3s"], "concealed": False}
    b = {"concealed": ["1m", "2m"], "melds": [chow, {"kind": "pong", "tiles": ["C"] * 3}], "bonus": ["F1"]}
    assert normalise_hand(a) == normalise_hand(b)
    assert normalise_hand(a) != normalise_hand({**b, "bonus": []})
    assert normalise_hand(None) is None


BLIND_KONG_TABLE = [["E E"], ["1m 2m 3m", "P P P", "back back back back", "7s 7s 7s"]]


def _blind_kong_scene(kong_face: str) -> dict[str, Any]:
    """A scene's ground truth for BLIND_KONG_TABLE: the kong's true face is `kong_face`."""
    codes = [code for row in BLIND_KONG_TABLE for group in row for code in group.split()]
    tiles = [{"code": code, "face_up": code != "back"} for code in codes]
    melds = [
        ("chow", ["1m", "2m", "3m"]),
        ("pong", ["P"] * 3),
        ("kong", [kong_face] * 4),
        ("pong", ["7s"] * 3),
    ]
    return {
        "tiles": tiles,
        "groups": [{"kind": "concealed", "tiles": [0, 1]}]
        + [{"kind": "meld", "tiles": t} for t in ([2, 3, 4], [5, 6, 7], [8, 9, 10, 11], [12, 13, 14])],
        "hand": {
            "concealed": ["E", "E"],
            "melds": [{"kind": k, "tiles": t, "concealed": k == "kong"} for k, t in melds],
            "bonus": [],
        },
    }


def test_a_kong_lying_face_down_is_read_exactly_as_a_kong_of_unknown_face() -> None:
    layout = layout_hand(place(BLIND_KONG_TABLE).detections())
    meta = _blind_kong_scene("9p")
    assert [meta["tiles"][i]["code"] for i in meta["groups"][3]["tiles"]] == ["back"] * 4  # the kong
    # the scoring hand leaves the kong out (its face is not in the photo) ...
    assert normalise_hand(layout.hand) != normalise_hand(meta["hand"])
    # ... and the bench counts it as the kong it is, whatever its face
    assert hand_read_exactly(layout, meta) and hand_read_exactly(layout, _blind_kong_scene("N"))
    assert not hand_read_exactly(
        layout_hand(place([["E E"], ["1m 2m 3m", "P P P", "7s 7s 7s"]]).detections()), meta
    )


def test_summarise_f1() -> None:
    results = [
        PhotoResult("a", TileCounts(8, 2, 0), True, 100.0),
        PhotoResult("b", TileCounts(8, 0, 2), False, 300.0),
    ]
    summary = summarise("x", results)
    assert summary.precision == pytest.approx(16 / 18)
    assert summary.recall == pytest.approx(16 / 18)
    assert summary.exact_photos == 0 and summary.exact_hands == 1 and summary.hand_photos == 2
    assert summary.latency_median_ms == 200.0
    # photos that show no whole hand are not counted either way
    fewer = summarise("x", [*results, PhotoResult("c", TileCounts(8, 0, 0), None, 200.0)])
    assert fewer.exact_hands == 1 and fewer.hand_photos == 2 and fewer.photos == 3
    assert "1/2" in format_summary(fewer)


@pytest.mark.parametrize(
    ("meta", "counted"),
    [
        pytest.param({"hand": {"concealed": ["1m"]}, "complete": True}, True, id="whole"),
        pytest.param({"hand": {"concealed": ["1m"]}}, True, id="older-scene-without-the-flag"),
        pytest.param({"hand": {"concealed": ["1m"]}, "complete": False}, False, id="cut-off-or-hidden"),
        pytest.param({"hand": None, "complete": True}, False, id="loose-tiles"),
    ],
)
def test_only_scenes_showing_a_whole_hand_count_for_exact_hands(meta: dict, counted: bool) -> None:
    assert shows_whole_hand(meta) is counted


def _synthetic_set(root: Path, complete: bool = True, rules: str = "singapore") -> None:
    sc = scene(600, 1000)
    (root / "images").mkdir(parents=True)
    (root / "meta").mkdir()
    (root / "images" / "000001.png").write_bytes(encode(Image.fromarray(sc.rgb), "PNG"))
    meta = {
        "image": "images/000001.png",
        "width": 1000,
        "height": 600,
        "tiles": [{"code": c, "xyxy": b.tolist()} for c, b in zip(sc.codes, sc.boxes, strict=True)]
        + [{"code": "9s", "xyxy": [900, 10, 950, 80]}],
        "hand": {"concealed": ["1m", "1p", "1s", "9s"], "melds": [], "bonus": []},
        "complete": complete,
        "rules": rules,
    }
    (root / "meta" / "000001.json").write_text(json.dumps(meta))


def test_a_photo_shown_on_a_screenshot_is_read_where_it_lies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sc = scene(600, 1000)
    photo = textured(sc)
    shot, (x, y) = on_screen(photo, "white")
    assert shot.shape[1] == 1000 and shot.shape[0] > 2 * 600 and (shot[y : y + 600] == photo).all()
    assert content_xyxy(shot) == (x, y, x + 1000, y + 600)
    # read on the screenshot, each tile is found where it lies in the photo (the tiny detector's boxes
    # land on the tiles only where the photo is read alone, as `vision.canvas` has it read)
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)))
    root = tmp_path / "synth"
    (root / "images").mkdir(parents=True)
    (root / "meta").mkdir()
    (root / "images" / "000001.png").write_bytes(encode(Image.fromarray(photo), "PNG"))
    tiles = [{"code": c, "xyxy": b.tolist()} for c, b in zip(sc.codes, sc.boxes, strict=True)]
    meta = {"image": "images/000001.png", "width": 1000, "height": 600, "tiles": tiles, "hand": {}}
    (root / "meta" / "000001.json").write_text(json.dumps(meta))
    out = tmp_path / "bench.json"
    args = ["--synthetic", str(root), "--models", str(models), "--json", str(out), "--grid", "1"]
    for screen in ([], ["--screenshot", "black"]):
        assert main([*args, *screen]) == 0
        (synthetic,) = json.loads(out.read_text())
        assert synthetic["precision"] == synthetic["recall"] == 1.0, (screen, synthetic)
    assert "shown on a black phone screenshot" in capsys.readouterr().out
    assert main([*args, "--screenshot", "white", "--from-seen", str(tmp_path)]) == 2


def test_bench_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sc = scene(600, 1000)
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)))
    _synthetic_set(tmp_path / "synth")
    real = tmp_path / "real"
    real.mkdir()
    (real / "a.png").write_bytes(encode(Image.fromarray(sc.rgb), "PNG"))
    (real / "b.jpg").write_bytes(b"")
    (real / "labels.json").write_text(
        json.dumps([{"file": "a.png", "tiles": ["1m", "1p", "1s"]}, {"file": "b.jpg", "tiles": ["1m"]}])
    )
    out = tmp_path / "bench.json"
    assert (
        main(
            [
                "--synthetic",
                str(tmp_path / "synth"),
                "--real",
                str(real),
                "--models",
                str(models),
                "--json",
                str(out),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "b.jpg: ERROR file is empty (0 bytes)" in printed
    synthetic, real_summary = json.loads(out.read_text())
    assert synthetic["precision"] == 1.0 and synthetic["recall"] == 0.75  # the 9s was not found
    assert synthetic["exact_photos"] == 0 and synthetic["exact_hands"] == 0 and synthetic["hand_photos"] == 1
    assert set(synthetic["marks"]) == {"marked", "misread_marked", "misread"}  # named as printed
    assert real_summary["photos"] == 2 and real_summary["exact_photos"] == 1 and real_summary["errors"] == 1
    assert real_summary["recall"] == 0.75
    assert synthetic["scenes"] == scenes_digest("synthetic", tmp_path / "synth")
    assert real_summary["scenes"] == scenes_digest("real", real)


def test_the_scenes_digest_tells_renders_and_sets_apart(tmp_path: Path) -> None:
    # stage 71: the ship rule told two renders of HELDOUT3 apart by their tile counts, but not HELDOUT3
    # from HELDOUT_D, the same hands in other art
    _synthetic_set(tmp_path / "a")
    _synthetic_set(tmp_path / "b")
    assert scenes_digest("synthetic", tmp_path / "a") == scenes_digest("synthetic", tmp_path / "b")
    meta_path = tmp_path / "b" / "meta" / "000001.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps({**meta, "style": "xmahjongg_dorothys"}))  # the same tiles, other art
    assert scenes_digest("synthetic", tmp_path / "a") != scenes_digest("synthetic", tmp_path / "b")
    (tmp_path / "a" / "meta" / "000002.json").write_text(json.dumps(meta))
    assert scenes_digest("synthetic", tmp_path / "a", limit=1) != scenes_digest("synthetic", tmp_path / "a")


def test_bench_missing_models(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "labels.json").write_text("[]")
    assert main(["--real", str(tmp_path), "--models", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err.startswith("python -m vision.bench: model files not found")


def test_bench_long_side_maps_boxes_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sc = scene(600, 1000)
    # The tiny detector's boxes are fixed in model pixels, so they land on the tiles at any photo size.
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)))
    _synthetic_set(tmp_path / "synth")
    out = tmp_path / "bench.json"
    args = ["--synthetic", str(tmp_path / "synth"), "--models", str(models), "--json", str(out)]
    assert main([*args, "--long-side", "2000", "--grid", "1", "--rotations", "4"]) == 0
    printed = capsys.readouterr().out
    settings = (
        "grid 1, fine off, contain None, straddle None, odd size off, second chance off;"
        " classifier views 4, odd shape off; within one set, win check, slants squared, rows turned across,"
        " any face;"
        " photos re-encoded at long side 2000"
    )
    assert settings in printed
    (synthetic,) = json.loads(out.read_text())
    assert synthetic["precision"] == 1.0 and synthetic["recall"] == 0.75
    assert main([*args, "--free-reading", "--no-win-check", "--no-square", "--no-rows-across"]) == 0
    assert (
        "; first choices, no win check, slants as they lie, rows as they lie, any face; photos as stored"
        in capsys.readouterr().out
    )


@pytest.mark.parametrize("rules", ["malaysian", "scene"])
def test_bench_reads_each_tile_as_one_of_a_rule_sets_tiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: str
) -> None:
    sc = scene(600, 1000)  # 1m, 1p, 1s: a Malaysian set holds only the dots
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)))
    _synthetic_set(tmp_path / "synth", rules="malaysian")
    out = tmp_path / "bench.json"
    args = [
        "--synthetic",
        str(tmp_path / "synth"),
        "--models",
        str(models),
        "--json",
        str(out),
        "--grid",
        "1",
    ]
    assert main(args) == 0
    assert json.loads(out.read_text())[0]["recall"] == 0.75
    assert main([*args, "--rules", rules]) == 0
    said = ", malaysian faces;" if rules == "malaysian" else ", each scene's rule set's faces;"
    assert said in capsys.readouterr().out
    assert json.loads(out.read_text())[0]["recall"] == 0.25  # 1p alone is read right


def test_bench_overrides_the_detector_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sc = scene(600, 1000)
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)))
    _synthetic_set(tmp_path / "synth")
    args = ["--synthetic", str(tmp_path / "synth"), "--models", str(models)]
    assert main([*args, "--straddle", "0.4", "--odd-size", "1.3", "--odd-size-below", "0.9"]) == 0
    assert "straddle 0.4, odd size x1.3 under 0.9, second chance off;" in capsys.readouterr().out
    assert main([*args, "--odd-size", "0", "--contain", "0.6"]) == 0
    assert "contain 0.6, straddle None, odd size off," in capsys.readouterr().out
    assert main([*args, "--second-chance", "0.1"]) == 0
    assert "second chance from 0.1 where read 0.97+;" in capsys.readouterr().out
    assert main([*args, "--fine-below", "0.05", "--fine-grid", "4"]) == 0
    assert "fine grid 4 under 0.05, contain" in capsys.readouterr().out


def test_concurrency_matches_serial(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640))))
    other = np.ascontiguousarray(sc.rgb[:, ::-1])
    result = concurrency(reader, [sc.rgb, other], workers=3, rounds=3)
    assert (result.reads, result.errors, result.mismatches) == (6, 0, 0)
    assert 0 < result.p50_ms <= result.p95_ms


def test_concurrency_counts_failures(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640))))
    calls = iter(range(100))

    def flaky(detections: Detections) -> tuple[None, tuple[str, ...]]:
        if next(calls) >= 2:  # the serial pass (2 reads) succeeds, every concurrent read fails
            raise RuntimeError("boom")
        return None, ()

    broken = TileReader(reader.detector, reader.classifier, layout=flaky)
    result = concurrency(broken, [sc.rgb, sc.rgb], workers=2, rounds=1)
    assert (result.reads, result.errors, result.mismatches) == (2, 2, 0)


def test_bench_stages_tell_a_missed_tile_from_a_misread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sc = scene(600, 1000)
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)))
    _synthetic_set(tmp_path / "synth")
    out = tmp_path / "bench.json"
    args = ["--synthetic", str(tmp_path / "synth"), "--models", str(models), "--json", str(out)]
    assert main([*args, "--stages"]) == 0
    assert "classifier on true boxes 0.750 of 4 tiles" in capsys.readouterr().out
    _, stages = json.loads(out.read_text())
    # the 9s lies on bare table: the detector misses it, and its crop reads as something else
    assert stages["detector_precision"] == 1.0 and stages["detector_recall"] == 0.75
    assert stages["classifier_accuracy"] == 0.75
    assert stages["worst_classes"][0] == ["9s", 0.0, 1]
    assert stages["extra_where"] == {}  # every box it drew holds a tile
    assert stages["missed_kinds"] == {}  # the scene's tiles are face up, in full view and large
    assert stages["misreads"]["wrong"] == 1  # the 9s: read, and read wrong


def test_extra_boxes_are_told_apart_by_what_lies_under_them() -> None:
    true_xyxy = np.array([[0, 0, 40, 56], [100, 0, 140, 56]], np.float32)
    props = [
        {"kind": "ghost", "xyxy": [200, 0, 260, 60]},
        {"kind": "under:shoe", "xyxy": [300, 0, 380, 50]},
        {"kind": "cup", "xyxy": [400, 0, 460, 60]},
        {"kind": "clutter:bag", "xyxy": [500, 0, 600, 90]},
    ]
    boxes = np.array(
        [
            [0, 0, 40, 56],  # a tile: not extra
            [101, 1, 141, 57],  # the other tile, a little off: not extra
            [210, 5, 250, 55],  # on the ghost
            [310, 5, 350, 45],  # on the shoe under the glass
            [405, 5, 445, 55],  # on the cup
            [520, 10, 560, 66],  # on the bag
            [110, 20, 170, 80],  # half on a tile, its centre on bare table
            [600, 600, 640, 656],  # on nothing
        ],
        np.float32,
    )
    assert where_extra_boxes(boxes, true_xyxy, props) == {
        "ghost": 1,
        "under glass": 1,
        "prop": 1,
        "clutter": 1,
        "part of a tile": 1,
        "elsewhere": 1,
    }
    assert where_extra_boxes(boxes[:2], true_xyxy, props) == {}
    assert where_extra_boxes(boxes[2:3], np.zeros((0, 4), np.float32), []) == {"elsewhere": 1}


def _row(
    n: int, x: float = 100, y: float = 100, w: float = 40, h: float = 56, gap: float = 2
) -> list[list[float]]:
    """`n` touching upright tiles, left to right."""
    return [[x + k * (w + gap), y, x + k * (w + gap) + w, y + h] for k in range(n)]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from("ABCD"), max_size=7), st.lists(st.sampled_from("ABCD"), max_size=7))
def test_an_alignment_pairs_every_tile_once_in_order(true_row: list[str], read_row: list[str]) -> None:
    pairs = align(true_row, read_row)
    assert [t for t, _ in pairs if t is not None] == list(range(len(true_row)))
    assert [r for _, r in pairs if r is not None] == list(range(len(read_row)))
    matches = sum(t is not None and r is not None and true_row[t] == read_row[r] for t, r in pairs)
    # never fewer matches than the common prefix, and a row aligned with itself matches everywhere
    prefix = next(
        (k for k, (a, b) in enumerate(zip(true_row, read_row, strict=False)) if a != b),
        min(len(true_row), len(read_row)),
    )
    assert matches >= prefix
    assert all(t == r for t, r in align(true_row, true_row))
    # only as many tiles unpaired as the lengths differ by: same length, place by place
    unpaired = sum(t is None or r is None for t, r in pairs)
    assert unpaired == abs(len(true_row) - len(read_row))
    if len(true_row) == len(read_row):
        assert pairs == [(k, k) for k in range(len(true_row))]


def test_a_row_read_shifted_by_one_place_is_wrong_at_every_shifted_place() -> None:
    read = match_rows(np.array(_row(4)), ["1s", "S3", "S4", "S2"], [["S1", "S2", "S3", "S4"]])
    assert (read.counts.right, read.counts.extra, read.counts.missed) == (0, 4, 4)
    assert read.counts.confusions == Counter(
        {("S1", "1s"): 1, ("S2", "S3"): 1, ("S3", "S4"): 1, ("S4", "S2"): 1}
    )


def test_rows_and_columns_of_touching_tiles_are_chained_in_reading_order() -> None:
    top, bottom = _row(4), _row(4, y=170)
    shuffled = [bottom[2], top[1], top[3], bottom[0], top[0], bottom[3], top[2], bottom[1]]
    chains = lines_of_boxes(np.array(shuffled))
    as_boxes = [[shuffled[k] for k in chain] for chain in chains]
    assert top in as_boxes and bottom in as_boxes
    # each top tile over its bottom one: four columns of two, top to bottom
    assert sorted(b for b in as_boxes if len(b) == 2) == sorted(
        [[t, b] for t, b in zip(top, bottom, strict=True)]
    )
    column = [[100, 100 + k * 58, 156, 100 + k * 58 + 40] for k in range(3)]  # sideways tiles
    upward = column[::-1]
    assert [[upward[k] for k in c] for c in lines_of_boxes(np.array(upward))] == [column]


def test_a_row_keeps_one_missed_tile_and_splits_at_a_wider_gap() -> None:
    row = _row(6)
    one_gone = np.array(row[:2] + row[3:])
    assert [len(c) for c in lines_of_boxes(one_gone)] == [5]
    three_gone = np.array(row[:2] + row[5:])
    assert lines_of_boxes(three_gone) == [[0, 1]]


def test_a_row_read_in_another_order_is_wrong_where_the_codes_alone_look_right() -> None:
    boxes = np.array(_row(4))
    read = ["F2", "F1", "F3", "F4"]
    by_place = match_rows(boxes, read, [["F1", "F2", "F3", "F4"]])
    assert by_place.counts.right == 2 and by_place.missing == ("F1", "F2") and by_place.extra == ("F1", "F2")
    assert by_place.counts.confusions == Counter({("F1", "F2"): 1, ("F2", "F1"): 1})
    assert match_codes(read, ["F1", "F2", "F3", "F4"]).right == 4


def test_a_missed_tile_costs_only_itself_and_scattered_tiles_match_as_codes() -> None:
    row = _row(5)
    read = match_rows(np.array(row[:2] + row[3:]), ["1m", "2m", "4m", "5m"], [["1m", "2m", "3m", "4m", "5m"]])
    assert read.counts == TileCounts(4, 0, 1) and read.missing == ("3m",)
    apart = np.array([[0, 0, 40, 56], [300, 300, 340, 356], [600, 0, 640, 56]])
    scattered = match_rows(apart, ["E", "S", "W"], [["W"], ["E"], ["N"]])
    assert scattered.counts == match_codes(["E", "S", "W"], ["W", "E", "N"])


def test_tile_size_sweep_shrinks_each_scene_and_maps_its_boxes_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sc = scene(600, 1000)
    # The tiny detector's boxes are fixed in model pixels, so they land on the tiles at any photo size.
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)))
    _synthetic_set(tmp_path / "synth")  # tiles 100 px wide, and a 9s 50 px wide the detector misses
    out = tmp_path / "bench.json"
    args = ["--synthetic", str(tmp_path / "synth"), "--models", str(models), "--json", str(out)]
    assert main([*args, "--tile-sizes", "40,100,200"]) == 0
    assert "tile-size sweep" in capsys.readouterr().out
    sweep = json.loads(out.read_text())[-1]
    assert sweep["name"] == "tile_sizes"
    by_side = {row["short_side_px"]: row for row in sweep["sizes"]}
    # shrunk to 40 % the three tiles are still found where they lie in the scene's own pixels
    assert by_side[40]["photos"] == 1 and by_side[40]["f1"] == pytest.approx(2 * 0.75 / 1.75, abs=1e-4)
    assert by_side[40]["missed_boxes"] == 1 and by_side[40]["exact_photos"] == 0
    assert by_side[100]["f1"] == by_side[40]["f1"]
    assert by_side[200]["photos"] == 0  # never grown: growing adds no detail


@pytest.mark.parametrize("text", ["", "0,16", "12,x"])
def test_tile_size_sweep_refuses_a_bad_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--synthetic", str(tmp_path), "--tile-sizes", text])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "--tile-sizes: expected whole pixel widths" in err and err.count("\n") == 1, err


def test_missed_tiles_are_counted_by_kind() -> None:
    tiles: list[dict[str, Any]] = [
        {"code": "1m", "xyxy": [0, 0, 40, 56]},  # found, of no kind counted
        {"code": "back", "xyxy": [100, 0, 140, 56]},  # face down, found
        {"code": "back", "xyxy": [200, 0, 240, 56], "standing": True},  # face down and standing, missed
        {"code": "2p", "xyxy": [300, 0, 320, 26], "visible": 0.6},  # small and partly hidden, missed
    ]
    boxes = np.array([[0, 0, 40, 56], [102, 2, 142, 58]], np.float32)
    assert missed_by_kind(boxes, tiles) == {
        "face down": (1, 2),
        "standing": (1, 1),
        "partly hidden": (1, 1),
        "small": (1, 1),
    }
    assert tile_kinds(tiles[0]) == []
    assert missed_by_kind(np.zeros((0, 4), np.float32), tiles[:2]) == {"face down": (1, 1)}


def _probabilities(*rows: dict[str, float]) -> np.ndarray:
    """(N, 49) rows giving the named codes their probability and sharing the rest out evenly."""
    out = np.zeros((len(rows), len(CLASSES)), np.float32)
    for i, row in enumerate(rows):
        rest = (1.0 - sum(row.values())) / (len(CLASSES) - len(row))
        out[i] = rest
        for code, probability in row.items():
            out[i, CLASSES.index(code)] = probability
    return out


def test_misreads_are_told_apart_by_what_could_still_reach_them() -> None:
    true_codes = ["6p", "6p", "7p", "1m", "2m"]
    probabilities = _probabilities(
        {"7p": 0.9, "6p": 0.05},  # a sure misread, its true face second, a twin read right
        {"6p": 0.8},  # the twin: right and sure
        {"7p": 0.4, "6p": 0.3},  # right but unsure
        {"3m": 0.4, "2m": 0.3, "1m": 0.2},  # unsure, the true face third
        {"2m": 0.7},  # right
    )
    kept = np.ones(5, bool)
    assert misreads_in_photo(true_codes, probabilities, kept) == Misreads(
        wrong=2, unsure=1, true_second=1, twin_read_right=1
    )
    # a tile left out as "no tile" is missed, not misread; and a twin read unsurely lends nothing
    kept[3] = False
    probabilities[1] = _probabilities({"6p": 0.5})[0]
    assert misreads_in_photo(true_codes, probabilities, kept) == Misreads(wrong=1, true_second=1)
    assert misreads_in_photo([], np.zeros((0, len(CLASSES)), np.float32), np.zeros(0, bool)) == Misreads()


@given(st.lists(st.tuples(st.integers(0, 48), st.integers(0, 48), st.floats(0.05, 0.95)), max_size=12))
@settings(max_examples=60, deadline=None)
def test_misreads_never_count_more_than_the_wrong_reads(rows: list[tuple[int, int, float]]) -> None:
    true_codes = [CLASSES[truth] for truth, _, _ in rows]
    probabilities = _probabilities(*({CLASSES[read]: top} for _, read, top in rows))
    counts = misreads_in_photo(true_codes, probabilities, np.ones(len(rows), bool))
    read = [CLASSES[int(r)] for r in probabilities.argmax(axis=1)]
    wrong = sum(code != truth for code, truth in zip(read, true_codes, strict=True))
    assert counts.wrong == wrong
    assert max(counts.unsure, counts.true_second, counts.twin_read_right) <= counts.wrong


def test_a_turned_photo_is_read_turned_clockwise(tmp_path: Path) -> None:
    rgb = np.zeros((80, 160, 3), np.uint8)
    rgb[:20, :40] = 255  # a white corner, top left
    path = tmp_path / "photo.png"
    Image.fromarray(rgb).save(path)
    data, factor, _ = _photo_bytes(path, None, 90)
    turned = read_image(data).rgb
    assert turned.shape[:2] == (160, 80) and factor == 1.0
    assert turned[:40, -20:].mean() > 200 and turned[:20, :40].mean() < 50  # the corner is now top right


def test_rows_may_be_compared_either_way_on_a_turned_photo() -> None:
    xyxy = np.array([[0, 0, 10, 14], [10, 0, 20, 14], [20, 0, 30, 14]], np.float32)
    read = ["3m", "2m", "1m"]
    assert match_rows(xyxy, read, [["1m", "2m", "3m"]]).counts.right == 1
    assert match_rows(xyxy, read, [["1m", "2m", "3m"]], either_way=True).counts.right == 3


def test_a_slanted_photo_keeps_its_size_its_centre_and_the_table_in_its_corners(tmp_path: Path) -> None:
    rgb = np.full((90, 160, 3), (20, 120, 40), np.uint8)  # a green table
    rgb[35:55, 20:140] = 250  # a white bar across the middle
    out = slanted(rgb, 30.0)
    assert out.shape == rgb.shape
    assert out[45, 80].tolist() == [250, 250, 250]  # the centre stays where it was
    assert out[0, 0].tolist() == [20, 120, 40] and out[-1, -1].tolist() == [20, 120, 40]
    # clockwise on the screen: the bar's right end goes down, its left end up
    assert out[45 + 30, 80 + 45].mean() > 200 and out[45 - 30, 80 - 45].mean() > 200
    assert out[45 - 30, 80 + 45].mean() < 150
    path = tmp_path / "photo.png"
    Image.fromarray(rgb).save(path)
    data, factor, _ = _photo_bytes(path, None, 0, 30.0)
    assert factor == 1.0 and read_image(data).rgb.shape == rgb.shape


def test_a_slanted_real_photo_is_matched_as_multisets(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)))
    real = tmp_path / "real"
    real.mkdir()
    (real / "a.png").write_bytes(encode(Image.fromarray(sc.rgb), "PNG"))
    # labelled with a 2s where the photo shows a 1s, in one row the slant no longer keeps
    (real / "labels.json").write_text(
        json.dumps([{"file": "a.png", "tiles": ["1m", "1p", "2s"], "rows": [["1m", "1p", "2s"]]}])
    )
    slant = bench_real(TileReader.load(models), real, Options(slant=1.0))[0]
    assert (slant.counts.right, slant.counts.extra, slant.counts.missed) == (2, 1, 1)
    assert slant.counts.confusions == {("2s", "1s"): 1}
    assert slant.missing == ("2s",) and slant.extra == ("1s",)


def test_a_turn_that_is_no_quarter_is_refused() -> None:
    with pytest.raises(ValueError, match="turn must be one of 0, 90, 180, 270"):
        Options(turn=45)


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--synthetic", "{tmp}/typo"], "no scenes in"),
        (["--real", "{tmp}"], "no labels.json in"),
        (["--real", "{tmp}/../no_such_folder"], "no folder"),  # an audit: a clone has no ../shared
        (["--real", "{tmp}/real", "--limit", "0"], "--limit must be at least 1, got 0"),
        (["--real", "{tmp}/real", "--concurrency", "-2"], "--concurrency must be 1 or more threads"),
        (["--real", "{tmp}/real", "--json", "{tmp}/no/out.json"], "cannot write"),
        (["--real", "{tmp}/real", "--slant", "50"], "--slant must be within 45 degrees either way, got 50"),
        (["--synthetic", "{tmp}/synth", "--slant", "20"], "--slant is for --real photos"),
        # an audit (stage 77): these ran the models, then failed or benched nothing with exit 0
        (
            ["--real", "{tmp}/real", "--long-side", "0"],
            "--long-side must be a positive number of pixels, got 0",
        ),
        (["--real", "{tmp}/real", "--json", "{tmp}/real"], "cannot write {tmp}/real: it is a folder"),
        (["--real", "{tmp}/real", "--save-seen", "{tmp}/real/labels.json"], "cannot keep the readings in"),
        (["--real", "{tmp}/bad"], '{tmp}/bad/labels.json: label 1 (x.jpg) needs "tiles", a list of codes'),
        (["--real", "{tmp}/notjson"], "{tmp}/notjson/labels.json is not JSON"),
    ],
)
def test_a_set_or_file_named_wrongly_is_one_line_and_exit_2_before_any_bench(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], said: str
) -> None:
    # a mistyped folder benched no photo and printed F1 0.000 with exit 0
    for name, labels in (("real", "[]"), ("bad", '[{"file": "x.jpg", "tiles": 5}]'), ("notjson", "[")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "labels.json").write_text(labels)
    _synthetic_set(tmp_path / "synth")
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in extra] + ["--models", str(tmp_path / "none")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    said = said.replace("{tmp}", str(tmp_path))
    assert err.startswith(f"python -m vision.bench: {said}") and err.count("\n") == 1, err


def test_a_scene_file_not_as_the_generator_writes_it_is_named_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # an audit (stage 77): a meta file holding [] was a TypeError traceback
    models = write_models(tmp_path / "models", detector_rows(scene(600, 1000), (384, 640)))
    _synthetic_set(tmp_path / "synth")
    (tmp_path / "synth" / "meta" / "000000.json").write_text("[]")
    assert main(["--synthetic", str(tmp_path / "synth"), "--models", str(models)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "000000.json is no scene of python -m datasets.synth" in err, err


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--grid", "-1"], "detector grid must be 1..8, got -1"),
        (["--straddle", "5"], "detector straddle must be in (0, 1], got 5.0"),
        (["--odd-size", "-1"], "detector odd_size must be above 1, got -1.0"),
        (["--odd-shape", "0.5"], "classifier odd_shape must be above 1, got 0.5"),
    ],
)
def test_an_override_out_of_its_range_is_one_line_and_exit_2_before_the_bench(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], said: str
) -> None:
    """An audit: these ran the whole bench as given (the odd size with numpy's warnings); they are
    checked as a sidecar's values are."""
    models = write_models(tmp_path / "models", detector_rows(scene(600, 1000), (384, 640)))
    _synthetic_set(tmp_path / "synth")
    assert main(["--synthetic", str(tmp_path / "synth"), "--models", str(models), *flags]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"python -m vision.bench: the flags given: {said}\n" and captured.out == ""


def test_errors_are_counted_by_kind_of_tile_under_the_true_code() -> None:
    boxes = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10], [60, 0, 70, 10]], np.float32)
    # 1m read right, F1 read as S1, E missed, a box read where there is no tile
    counts = match_boxes(
        np.array([boxes[0], boxes[1], [90, 0, 99, 10]], np.float32),
        ["1m", "S1", "2p"],
        [0.9, 0.9, 0.9],
        boxes[:3],
        ["1m", "F1", "E"],
    )
    assert counts.truth == Counter({"1m": 1, "F1": 1, "E": 1})
    assert counts.not_right == Counter({"F1": 1, "E": 1})
    other = match_codes(["1m", "1m"], ["1m", "2m", "F2"])
    assert other.not_right == Counter({"2m": 1, "F2": 1})
    assert by_kind([counts, other]) == [
        ("characters", 2, 3),
        ("winds and dragons", 0, 1),
        ("flowers and seasons", 0, 2),
    ]
    line = format_summary(
        summarise("x", [PhotoResult("a", counts, None, 1.0), PhotoResult("b", other, None, 1.0)])
    )
    assert (
        "read right by kind: characters 2/3 (67%), winds and dragons 0/1 (0%), flowers and seasons 0/2 (0%)"
        in line
    )
    assert "by kind" not in format_summary(summarise("x", [PhotoResult("a", TileCounts(0, 0, 0), None, 1.0)]))


def test_the_kinds_hold_every_face_once() -> None:
    codes = [code for _, kind_codes in TILE_KINDS for code in kind_codes]
    assert sorted(codes) == sorted(CLASSES)


def test_a_photo_labelled_by_rows_counts_its_missing_tiles_by_code() -> None:
    row = _row(5)
    read = match_rows(np.array(row[:2] + row[3:]), ["1m", "2m", "4m", "9m"], [["1m", "2m", "3m", "4m", "5m"]])
    assert read.counts.truth == Counter(["1m", "2m", "3m", "4m", "5m"])
    assert read.counts.not_right == Counter(read.missing) == Counter(["3m", "5m"])


def test_a_row_match_names_the_labelled_tile_each_read_box_stands_for() -> None:
    boxes = np.array(_row(4))
    shifted = match_rows(boxes, ["1s", "S3", "S4", "S2"], [["S1", "S2", "S3", "S4"]])
    assert shifted.truth == ("S1", "S2", "S3", "S4")  # place by place, read wrong or right
    # a row lying the other way round (either_way): each box still gets its own place's tile
    backwards = match_rows(boxes[::-1], ["S4", "S3", "S2", "S1"], [["S1", "S2", "S3", "S4"]], either_way=True)
    assert backwards.truth == ("S4", "S3", "S2", "S1")
    apart = np.array([[0, 0, 40, 56], [300, 300, 340, 356], [600, 0, 640, 56]])
    loose = match_rows(apart, ["E", "S", "W"], [["W"], ["E"], ["N"]])
    assert loose.truth == ("E", None, "W")  # a loose tile read wrong stands for no tile known


def _red_tile_set(tmp_path: Path, reds: Sequence[str]) -> tuple[Path, Path]:
    """(models, scenes): models that read the scene's red tile as 1m and give the tiles' looks, and the
    scene once for each code of `reds`, its red tile labelled so (a set that paints that face red)."""
    sc = scene(600, 1000)
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)), features=True, cls_gain=5.0)
    root = tmp_path / "synth"
    (root / "images").mkdir(parents=True)
    (root / "meta").mkdir()
    for k, red in enumerate(reds, start=1):
        name = f"{k:06d}"
        truth = [red if code == "1m" else code for code in sc.codes]
        (root / "images" / f"{name}.png").write_bytes(encode(Image.fromarray(sc.rgb), "PNG"))
        tiles = [{"code": c, "xyxy": b.tolist()} for c, b in zip(truth, sc.boxes, strict=True)]
        meta = {"image": f"images/{name}.png", "width": 1000, "height": 600, "tiles": tiles, "hand": {}}
        (root / "meta" / f"{name}.json").write_text(json.dumps(meta))
    return models, root


def test_the_bench_learns_a_set_photo_by_photo_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # this set paints its S2 red: the models read it 1m; the labels say S2
    models, root = _red_tile_set(tmp_path, ["S2", "S2"])
    sc = scene(600, 1000)
    out = tmp_path / "bench.json"
    args = ["--synthetic", str(root), "--models", str(models), "--json", str(out), "--grid", "1"]
    assert main(args) == 0
    (alone,) = json.loads(out.read_text())
    assert alone["exact_photos"] == 0 and alone["recall"] == pytest.approx(4 / 6)
    assert main([*args, "--learn"]) == 0
    (taught,) = json.loads(out.read_text())
    # the first photo is read as before and taught; the second is read right
    assert taught["exact_photos"] == 1 and taught["recall"] == pytest.approx(5 / 6)
    assert taught["lines_raised"]["recalled"] == 1
    assert "with a set memory taught the earlier photos' tiles" in capsys.readouterr().out
    plain_models = write_models(tmp_path / "plain", detector_rows(sc, (384, 640)))
    assert main(["--synthetic", str(root), "--models", str(plain_models), "--learn"]) == 2
    assert "--learn needs a classifier that gives its features" in capsys.readouterr().err


def test_the_bench_measures_the_photos_after_those_that_taught_the_set_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # this set paints its S2 red (the models read it 1m); the second photo's labels call it 1m
    models, root = _red_tile_set(tmp_path, ["S2", "1m", "S2"])
    out = tmp_path / "bench.json"
    args = ["--synthetic", str(root), "--models", str(models), "--json", str(out), "--grid", "1", "--learn"]
    teaching = bench.taught_truth
    taught: list[int] = []

    def counted(memory: SetMemory, reading: Reading, truth: Sequence[str | None]) -> SetMemory:
        taught.append(len(truth))
        return teaching(memory, reading, truth)

    monkeypatch.setattr(bench, "taught_truth", counted)
    assert main([*args, "--learn-first", "1", "--measure-from", "1"]) == 0
    assert len(taught) == 1  # the first photo alone taught the memory
    (later,) = json.loads(out.read_text())
    # the two photos after the first, both read with its S2: the second wrong (as labelled), the third right
    assert later["photos"] == 2 and later["exact_photos"] == 1
    assert later["recall"] == pytest.approx(5 / 6)
    said = capsys.readouterr().out
    assert "a set memory taught the first 1 photos' tiles" in said and "after the first 1" in said
    # the same photos by the models alone: the second right (labelled as they read it), the third not
    assert main([*args[:-1], "--measure-from", "1"]) == 0
    (alone,) = json.loads(out.read_text())
    assert alone["photos"] == 2 and alone["exact_photos"] == 1 and alone["confusions"] == [["S2", "1m", 1]]
    assert main([*args[:-1], "--learn-first", "1"]) == 2
    assert "--learn-first needs --learn" in capsys.readouterr().err


def test_the_bench_teaches_only_the_tiles_the_layout_counts_as_the_app_does() -> None:
    def group(kind: GroupKind, indices: tuple[int, ...]) -> TileGroup:
        return TileGroup(kind, None, False, indices, (), (0.0, 0.0, 10.0, 14.0))

    groups = (group("concealed", (0, 1)), group("bonus", (3,)), group("unused", (2,)))  # 2: away, unchecked
    reading = Reading(
        Detections.from_codes(["1m", "2m", "S1", "F1"], [[0, 0, 10, 14]] * 4, [0.9] * 4),
        Layout(groups=groups),
        (),
        {},
        descriptors=np.eye(4, dtype=np.float32),
    )
    assert counted_tiles(reading) == {0, 1, 3}
    memory = taught_truth(empty_memory("k"), reading, ["1m", "2m", "S2", None])
    assert memory.codes == ("1m", "2m")  # the loose S2 untaught; the F1 has no label


def test_a_reading_saved_without_its_looks_is_described_where_its_boxes_lie(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    models = write_models(tmp_path / "models", detector_rows(sc, (384, 640)), features=True, cls_gain=5.0)
    root = tmp_path / "synth"
    (root / "images").mkdir(parents=True)
    (root / "meta").mkdir()
    (root / "images" / "000001.png").write_bytes(encode(Image.fromarray(sc.rgb), "PNG"))
    tiles = [{"code": c, "xyxy": b.tolist()} for c, b in zip(sc.codes, sc.boxes, strict=True)]
    meta = {"image": "images/000001.png", "width": 1000, "height": 600, "tiles": tiles, "hand": {}}
    (root / "meta" / "000001.json").write_text(json.dumps(meta))
    kept = tmp_path / "kept"
    # read at half size: the saved boxes lie in the half-size photo's pixels, not the file's
    args = ["--synthetic", str(root), "--models", str(models), "--grid", "1", "--long-side", "500"]
    assert main([*args, "--save-seen", str(kept)]) == 0
    reader = TileReader.load(models)
    memory = empty_memory(reader.classifier.look_key)
    photo = root / "images" / "000001.png"
    with_looks = bench._timed_read(reader, photo, Options(from_seen=kept), memory=memory)[0]
    saved = dict(np.load(kept / "000001.npz"))
    del saved["descriptors"]  # as a reading saved before stage 86 holds none
    np.savez_compressed(kept / "000001.npz", **saved)
    described = bench._timed_read(reader, photo, Options(from_seen=kept), memory=memory)[0]
    assert with_looks.descriptors is not None and described.descriptors is not None
    np.testing.assert_allclose(described.descriptors, with_looks.descriptors, atol=0.02)
