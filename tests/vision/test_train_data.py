"""`python -m vision.train data`: classifier crops, and the "no tile" crops cut beside the tiles."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from datasets.synth import main as synth_main
from vision.classes import CLASSES
from vision.sidecar import SECOND_LOOK
from vision.tile_set import COPIES_IN_SET
from vision.train import (
    CLASSIFIER_SIZE,
    _overlaps,
    build_data,
    class_folder,
    hard_negatives,
    main,
    negative_boxes,
    second_look_codes,
)


@st.composite
def tile_rows(draw: st.DrawFn) -> tuple[np.ndarray, int, int]:
    """A photo with a few rows of touching tiles (the hard case: little room between them)."""
    width, height = draw(st.integers(300, 1200)), draw(st.integers(300, 1200))
    tile_w = draw(st.integers(20, 80))
    tile_h = int(tile_w * draw(st.floats(1.2, 1.5)))
    boxes = []
    for row in range(draw(st.integers(1, 3))):
        y = 20 + row * (tile_h + draw(st.integers(0, 40)))
        x = draw(st.integers(0, 60))
        for _ in range(draw(st.integers(1, 14))):
            if x + tile_w < width and y + tile_h < height:
                boxes.append([x, y, x + tile_w, y + tile_h])
            x += tile_w + draw(st.integers(0, 3))
    return np.array(boxes or [[0, 0, tile_w, tile_h]], np.float32), width, height


@settings(max_examples=60, deadline=None)
@given(tile_rows(), st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_no_tile_boxes_hold_no_tile(case: tuple[np.ndarray, int, int], seed: int, n: int) -> None:
    tiles, width, height = case
    boxes = negative_boxes(tiles, width, height, n, np.random.default_rng(seed))
    assert boxes.shape[1] == 4 and len(boxes) <= n
    for box in boxes:
        assert 0 <= box[0] < box[2] <= width and 0 <= box[1] < box[3] <= height
        iou, tile_inside, box_inside = _overlaps(box, tiles)
        # never a real tile, even a badly boxed one, and never a pair of tiles
        assert iou.max() < 0.3 and tile_inside.max() <= 1 / 3 + 1e-6 and box_inside.max() <= 0.5 + 1e-6


@settings(max_examples=40, deadline=None)
@given(tile_rows(), st.integers(0, 2**32 - 1))
def test_no_tile_boxes_on_props_still_hold_no_tile(case: tuple[np.ndarray, int, int], seed: int) -> None:
    tiles, width, height = case
    props = np.array([[0, 0, width / 3, height / 3], [width / 2, height / 2, width, height]], np.float32)
    boxes = negative_boxes(tiles, width, height, 6, np.random.default_rng(seed), props=props)
    for box in boxes:
        assert 0 <= box[0] < box[2] <= width and 0 <= box[1] < box[3] <= height
        iou, tile_inside, box_inside = _overlaps(box, tiles)
        assert iou.max() < 0.3 and tile_inside.max() <= 1 / 3 + 1e-6 and box_inside.max() <= 0.5 + 1e-6


def test_a_third_of_the_no_tile_boxes_sit_on_props() -> None:
    tiles = np.array([[100 + 40 * k, 500, 140 + 40 * k, 556] for k in range(10)], np.float32)
    prop = np.array([[600, 50, 760, 200]], np.float32)
    boxes = negative_boxes(tiles, 800, 600, 300, np.random.default_rng(0), props=prop)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    on_prop = ((centres >= prop[0, :2]) & (centres <= prop[0, 2:])).all(axis=1).mean()
    plain = negative_boxes(tiles, 800, 600, 300, np.random.default_rng(0))
    plain_centres = (plain[:, :2] + plain[:, 2:]) / 2
    by_chance = ((plain_centres >= prop[0, :2]) & (plain_centres <= prop[0, 2:])).all(axis=1).mean()
    assert on_prop > by_chance + 0.2


def test_no_tile_boxes_are_found_beside_a_row_and_are_tile_sized() -> None:
    tiles = np.array([[100 + 40 * k, 200, 140 + 40 * k, 256] for k in range(10)], np.float32)
    boxes = negative_boxes(tiles, 800, 600, 8, np.random.default_rng(0))
    assert len(boxes) == 8
    sides = boxes[:, 2:] - boxes[:, :2]
    assert (sides > 20).all() and (sides < 120).all()
    # the same seed, the same boxes
    np.testing.assert_array_equal(boxes, negative_boxes(tiles, 800, 600, 8, np.random.default_rng(0)))


def test_hard_negatives_keep_only_the_boxes_that_hold_no_tile() -> None:
    tiles = np.array([[100 + 40 * k, 200, 140 + 40 * k, 256] for k in range(6)], np.float32)
    on_table = [500, 400, 540, 456]  # far from every tile: a finger, a card
    past_the_row = [345, 200, 385, 256]  # the table just after the row's last tile
    detected = np.array(
        [
            tiles[2],  # a tile, boxed right
            tiles[3] + [3, -4, 5, 2],  # a tile, boxed loosely
            [120, 200, 160, 256],  # half of two tiles
            [180, 210, 200, 240],  # inside one tile
            on_table,
            past_the_row,
        ],
        np.float32,
    )
    np.testing.assert_array_equal(
        hard_negatives(detected, tiles), np.array([on_table, past_the_row], np.float32)
    )
    assert hard_negatives(np.zeros((0, 4), np.float32), tiles).shape == (0, 4)
    # a scene with no tiles: everything the detector found is something else
    assert len(hard_negatives(detected, np.zeros((0, 4), np.float32))) == len(detected)


def _small_scenes(tmp_path: Path, n: int, seed: int) -> Path:
    scenes = tmp_path / "scenes"
    assert (
        synth_main(
            [
                "--out",
                str(scenes),
                "--n",
                str(n),
                "--seed",
                str(seed),
                "--styles",
                "procedural",
                "--size",
                "480",
            ]
        )
        == 0
    )
    return scenes


def _data(scenes: Path, out: Path, *extra: str) -> None:
    """`vision.train data` on `scenes` into `out`, seed 1, with `extra` options."""
    main(["data", "--scenes", str(scenes), "--out", str(out), "--seed", "1", *extra])


def test_data_stage_writes_a_no_tile_class_only_when_asked(tmp_path: Path) -> None:
    scenes = _small_scenes(tmp_path, 3, seed=4)
    _data(scenes, tmp_path / "plain")
    _data(scenes, tmp_path / "with", "--negatives-per-scene", "3")
    plain = sorted(p.name for p in (tmp_path / "plain" / "classifier" / "train").iterdir())
    both = sorted(p.name for p in (tmp_path / "with" / "classifier" / "train").iterdir())
    assert plain == [class_folder(i) for i in range(len(CLASSES))]
    # the extra folder sorts last, so ultralytics gives it the index after the 49 tiles
    assert both == [*plain, "49_none"] and class_folder(len(CLASSES)) == "49_none"
    none_crops = [*(tmp_path / "with" / "classifier").glob("*/49_none/*.jpg")]
    assert 3 <= len(none_crops) <= 9

    def tile_crops(data: str) -> list[str]:
        crops = (tmp_path / data / "classifier").glob("train/*/*.jpg")
        return sorted(f"{p.parent.name}/{p.name}" for p in crops if p.parent.name != "49_none")

    assert tile_crops("with") == tile_crops("plain") and len(tile_crops("plain")) > 10


def test_data_stage_cuts_what_a_detector_takes_for_a_tile_and_is_not_as_no_tile(tmp_path: Path) -> None:
    scenes = _small_scenes(tmp_path, 3, seed=5)
    corners = np.array(
        [[0, 0, 40, 50], [440, 0, 480, 50], [0, 430, 40, 480], [440, 430, 480, 480]], np.float32
    )
    expected, with_tiles = 0, 0
    for meta_path in (scenes / "meta").glob("*.json"):
        tiles = np.array([t["xyxy"] for t in json.loads(meta_path.read_text())["tiles"]], np.float32)
        if len(tiles):  # a scene of no tiles is cut into nothing
            with_tiles += 1
            expected += len(hard_negatives(np.concatenate([tiles, corners]), tiles))
    seen: list[tuple[int, int]] = []

    def detector(rgb: np.ndarray) -> np.ndarray:
        """Finds every tile (read back from the metas above) and the four corners."""
        seen.append(rgb.shape[:2])
        metas = [json.loads(p.read_text()) for p in (scenes / "meta").glob("*.json")]
        tiles = [t["xyxy"] for m in metas if _same_image(scenes / m["image"], rgb) for t in m["tiles"]]
        return np.concatenate([np.array(tiles, np.float32).reshape(-1, 4), corners])

    build_data(scenes, tmp_path / "hard", 0.3, 1, 1, detectors=[detector])
    build_data(scenes, tmp_path / "plain", 0.3, 1, 1)
    assert len(seen) == with_tiles >= 2 and expected > 0
    hard = [*(tmp_path / "hard" / "classifier").glob("*/49_none/*_hard0_*.jpg")]
    assert (
        len(hard) == expected and len([*(tmp_path / "hard" / "classifier").glob("*/49_none/*")]) == expected
    )

    def tile_crops(data: str) -> list[str]:
        crops = (tmp_path / data / "classifier").glob("*/*/*.jpg")
        return sorted(
            f"{p.parent.parent.name}/{p.parent.name}/{p.name}" for p in crops if "none" not in p.parent.name
        )

    # the tiles are cut as without the detector: the same jitter, the same crops
    assert tile_crops("hard") == tile_crops("plain")


def _same_image(path: Path, rgb: np.ndarray) -> bool:
    decoded = cv2.imread(str(path))
    return decoded is not None and np.array_equal(cv2.cvtColor(decoded, cv2.COLOR_BGR2RGB), rgb)


def test_data_stage_refuses_a_hard_negatives_folder_without_models(tmp_path: Path) -> None:
    scenes = _small_scenes(tmp_path, 1, seed=2)
    with pytest.raises(SystemExit) as raised:
        _data(scenes, tmp_path / "out", "--hard-negatives", str(tmp_path / "nothing"))
    assert str(raised.value.code).startswith(f"data: --hard-negatives {tmp_path / 'nothing'}: ")
    assert "\n" not in str(raised.value.code)


def test_tiles_a_set_holds_once_get_the_extra_crops(tmp_path: Path) -> None:
    scenes = _small_scenes(tmp_path, 4, seed=6)
    _data(scenes, tmp_path / "plain")
    _data(scenes, tmp_path / "rare", "--rare-crops-per-tile", "4")

    def counts(data: str) -> dict[str, int]:
        folders = (tmp_path / data / "classifier" / "train").iterdir()
        return {p.name.split("_", 1)[1]: len([*p.glob("*.jpg")]) for p in folders}

    plain, rare = counts("plain"), counts("rare")
    once = {code for code, n in COPIES_IN_SET.items() if n == 1}
    assert any(plain[code] for code in once), "the scenes hold no bonus tile: pick another seed"
    for code in CLASSES:
        assert rare[code] == (2 * plain[code] if code in once else plain[code])


def test_second_look_data_cuts_only_legible_flowers_and_seasons(tmp_path: Path) -> None:
    scenes = _small_scenes(tmp_path, 4, seed=6)
    metas = [json.loads(p.read_text()) for p in sorted((scenes / "meta").glob("*.json"))]

    def legible(min_side: float) -> int:
        return sum(
            t["code"] in SECOND_LOOK
            and t["face_up"]
            and t["visible"] >= 0.9
            and min(t["xyxy"][2] - t["xyxy"][0], t["xyxy"][3] - t["xyxy"][1]) >= min_side
            for m in metas
            for t in m["tiles"]
        )

    sides = sorted(
        min(t["xyxy"][2] - t["xyxy"][0], t["xyxy"][3] - t["xyxy"][1])
        for m in metas
        for t in m["tiles"]
        if t["code"] in SECOND_LOOK
    )
    assert sides, "the scenes hold no flower or season: pick another seed"
    threshold = sides[len(sides) // 2]  # some tiles above it, some under
    args = ["second-look-data", "--scenes", str(scenes), "--min-side", str(threshold), "--seed", "1"]
    main([*args, "--out", str(tmp_path / "second"), "--val-fraction", "0.25"])
    folders = sorted(p.name for p in (tmp_path / "second" / "classifier" / "train").iterdir())
    assert folders == [class_folder(CLASSES.index(code)) for code in SECOND_LOOK]
    train = [*(tmp_path / "second" / "classifier").glob("train/*/*.jpg")]
    val = [*(tmp_path / "second" / "classifier").glob("val/*/*.jpg")]
    # one crop per legible tile in val, two (jittered) in train
    assert 0 < legible(threshold) < legible(0) and len(train) / 2 + len(val) == legible(threshold)
    # crops come at the classifier's size unless --size names the second look's own
    assert {Image.open(p).size for p in train} == {(CLASSIFIER_SIZE, CLASSIFIER_SIZE)}
    main([*args, "--out", str(tmp_path / "large"), "--val-fraction", "0.25", "--size", "160"])
    large = [*(tmp_path / "large" / "classifier").glob("*/*/*.jpg")]
    assert len(large) == len(train) + len(val) and {Image.open(p).size for p in large} == {(160, 160)}


def test_second_look_data_also_cuts_the_faces_named(tmp_path: Path) -> None:
    scenes = _small_scenes(tmp_path, 4, seed=6)
    metas = [json.loads(p.read_text()) for p in sorted((scenes / "meta").glob("*.json"))]
    birds = sum(t["code"] == "1s" and t["face_up"] and t["visible"] >= 0.9 for m in metas for t in m["tiles"])
    args = [
        "second-look-data",
        "--scenes",
        str(scenes),
        "--min-side",
        "0",
        "--seed",
        "1",
        "--val-fraction",
        "0.25",
    ]
    main([*args, "--out", str(tmp_path / "nine"), "--also", "1s"])
    folders = sorted(p.name for p in (tmp_path / "nine" / "classifier" / "train").iterdir())
    assert folders == [class_folder(CLASSES.index(code)) for code in ("1s", *SECOND_LOOK)]
    crops = [*(tmp_path / "nine" / "classifier").glob(f"*/{class_folder(CLASSES.index('1s'))}/*.jpg")]
    assert birds > 0, "the scenes hold no 1s: pick another seed"
    assert len(crops) >= birds  # one crop per tile in val, two in train
    with pytest.raises(SystemExit, match="--also 9x: not tile codes"):
        main([*args, "--out", str(tmp_path / "bad"), "--also", "9x"])


def test_second_look_codes_come_from_its_class_folders() -> None:
    folders = [class_folder(CLASSES.index(code)) for code in ("1s", *SECOND_LOOK)]
    assert second_look_codes(folders) == ("1s", *SECOND_LOOK)
    assert second_look_codes(folders[1:]) == SECOND_LOOK
    for wrong in (folders[2:], [*folders[1:], folders[0]], ["18_xx", *folders[1:]]):
        with pytest.raises(SystemExit, match="not the flowers and seasons"):
            second_look_codes(wrong)


def test_data_stage_cuts_crops_at_the_size_asked(tmp_path: Path) -> None:
    scenes = _small_scenes(tmp_path, 3, seed=5)
    _data(scenes, tmp_path / "d96")
    _data(scenes, tmp_path / "d128", "--crop-size", "128")

    def crops(data: str) -> dict[str, tuple[int, ...]]:
        folder = tmp_path / data / "classifier"
        return {str(p.relative_to(folder)): Image.open(p).size for p in folder.glob("*/*/*.jpg")}

    small, large = crops("d96"), crops("d128")
    # the same tiles from the same jittered boxes, only cut larger
    assert small.keys() == large.keys() and len(small) > 10
    assert set(small.values()) == {(96, 96)} and set(large.values()) == {(128, 128)}


def _detail(path: Path) -> float:
    """High-frequency energy of a crop: the variance of its Laplacian."""
    grey = np.asarray(Image.open(path).convert("L"), np.float32)
    return float(cv2.Laplacian(grey, cv2.CV_32F).var())


def test_data_stage_cuts_crops_from_scenes_shrunk_to_the_tile_width_asked(tmp_path: Path) -> None:
    scenes = _small_scenes(tmp_path, 3, seed=6)
    _data(scenes, tmp_path / "full", "--crop-size", "64")
    _data(scenes, tmp_path / "small", "--crop-size", "64", "--tile-px", "10:12")

    def crops(data: str) -> dict[str, Path]:
        folder = tmp_path / data / "classifier"
        return {str(p.relative_to(folder)): p for p in folder.glob("*/*/*.jpg")}

    full, small = crops("full"), crops("small")
    # the same tiles at the same size, cut from a scene whose tiles are 10-12 px wide: far less detail
    assert full.keys() == small.keys() and len(full) > 10
    assert {Image.open(p).size for p in small.values()} == {(64, 64)}
    full_detail = np.median([_detail(p) for p in full.values()])
    small_detail = np.median([_detail(p) for p in small.values()])
    assert small_detail < 0.5 * full_detail


@pytest.mark.parametrize("bad", ["12", "0:10", "20:10", "a:b"])
def test_data_stage_refuses_a_tile_width_range_it_cannot_use(tmp_path: Path, bad: str) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["data", "--scenes", str(tmp_path), "--out", str(tmp_path / "out"), "--tile-px", bad])
    assert raised.value.code == 2
