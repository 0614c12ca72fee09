"""Scene rendering: tight boxes (checked against pixels), visibility rule, angles, determinism."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from datasets.hands import Dims, Placed
from datasets.render import MIN_VISIBLE, look_at
from datasets.synth import SynthError, _angle, render_placed, render_scene
from vision.classes import BACK, CLASSES, FLOWERS, SEASONS

DIMS = Dims(w=26.0, h=35.0, t=18.0, ivory=0.6)
BG = (40, 90, 60)
W, H = 640, 480


def _camera(tilt_deg: float = 0.0, roll: float = 0.0, dist: float = 500.0):
    return look_at(np.zeros(3), math.radians(tilt_deg), math.pi / 2, dist, roll, 800.0, W, H)


def _ink_box(img: np.ndarray) -> tuple[int, int, int, int]:
    mask = np.abs(img.astype(np.int16) - np.array(BG)).max(axis=2) > 12
    ys, xs = np.nonzero(mask)
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


@pytest.mark.parametrize(
    ("up_deg", "tilt", "face_up"),
    [
        pytest.param(0, 0, True, id="upright-top-down"),
        pytest.param(30, 0, True, id="rotated-30"),
        pytest.param(90, 25, True, id="sideways-tilted"),
        pytest.param(180, 40, True, id="upside-down-40deg"),
        pytest.param(-63, 35, False, id="face-down-tilted"),
        pytest.param(0, 35, "standing", id="standing-tilted"),
        pytest.param(25, 10, "standing", id="standing-turned"),
    ],
)
def test_box_is_tight_around_the_drawn_tile(up_deg: float, tilt: float, face_up: bool | str) -> None:
    standing = face_up == "standing"
    tile = Placed(
        "7s" if face_up else BACK, 0.0, 0.0, math.radians(up_deg), face_up=bool(face_up), standing=standing
    )
    img, labels = render_placed([tile], DIMS, _camera(tilt), "procedural", W, H, BG)
    assert len(labels) == 1
    box = labels[0].xyxy
    ink = _ink_box(img)
    assert np.allclose(box, ink, atol=2), (box, ink)


def test_boxes_of_a_touching_row_do_not_swallow_neighbours() -> None:
    tiles = [Placed(code, x * 26.4, 0.0, 0.0) for x, code in enumerate(("1m", "2m", "3m"))]
    _, labels = render_placed(tiles, DIMS, _camera(30), "procedural", W, H, BG)
    assert [lab.index for lab in labels] == [0, 1, 2]
    xs = [lab.xyxy for lab in labels]
    for a, b in itertools.pairwise(xs):
        assert a[0] < b[0] and a[2] < b[2]
        assert b[0] - a[2] < 3  # touching tiles: boxes meet, no big gap, no big overlap
        assert a[2] - b[0] < (a[2] - a[0]) * 0.35


@pytest.mark.parametrize(
    ("x_mm", "labelled"),
    [
        pytest.param(0.0, True, id="inside"),
        pytest.param(190.0, True, id="mostly-inside"),
        pytest.param(203.0, False, id="mostly-outside"),
        pytest.param(400.0, False, id="outside"),
    ],
)
def test_tiles_cut_by_the_frame_follow_the_visible_share_rule(x_mm: float, labelled: bool) -> None:
    tile = Placed("C", x_mm, 0.0, 0.0)
    _img, labels = render_placed([tile], DIMS, _camera(), "procedural", W, H, BG)
    assert bool(labels) == labelled
    if labels:
        assert labels[0].visible >= MIN_VISIBLE
        assert labels[0].xyxy[0] >= 0 and labels[0].xyxy[2] <= W


def test_the_hidden_lower_wall_tile_gets_no_label() -> None:
    tiles = [
        Placed(BACK, 0.0, 0.0, 0.0, z=0.0, face_up=False, hidden=True),
        Placed(BACK, 0.0, 0.0, 0.0, z=DIMS.t, face_up=False),
    ]
    _, labels = render_placed(tiles, DIMS, _camera(20), "procedural", W, H, BG)
    assert [lab.index for lab in labels] == [1]


@pytest.mark.parametrize(
    ("up_deg", "expected"),
    [
        pytest.param(0, 0.0, id="upright"),
        pytest.param(90, 90.0, id="top-left"),
        pytest.param(-90, -90.0, id="top-right"),
        pytest.param(180, 180.0, id="upside-down"),
    ],
)
def test_angle_is_the_tiles_in_plane_rotation(up_deg: float, expected: float) -> None:
    tile = Placed("E", 0.0, 0.0, math.radians(up_deg))
    _, labels = render_placed([tile], DIMS, _camera(), "procedural", W, H, BG)
    got = _angle(labels[0].quad)
    assert abs((got - expected + 180) % 360 - 180) < 1.0


def test_quad_starts_at_the_tiles_own_top_left_and_runs_clockwise() -> None:
    tile = Placed("E", 0.0, 0.0, 0.0)
    _, labels = render_placed([tile], DIMS, _camera(), "procedural", W, H, BG)
    tl, tr, br, bl = labels[0].quad
    assert tl[0] < tr[0] and tl[1] < bl[1] and br[0] > bl[0] and br[1] > tr[1]


def test_render_scene_is_deterministic_per_seed() -> None:
    a, meta_a = render_scene(7, "procedural", size=320)
    b, meta_b = render_scene(7, "procedural", size=320)
    c, _ = render_scene(8, "procedural", size=320)
    assert np.array_equal(a, b) and meta_a == meta_b
    assert not np.array_equal(a[: c.shape[0], : c.shape[1]], c[: a.shape[0], : a.shape[1]])


@pytest.mark.parametrize("seed", [pytest.param(s, id=f"seed{s}") for s in range(6)])
def test_meta_follows_the_contract(seed: int) -> None:
    img, meta = render_scene(seed, "procedural", size=480)
    h, w = img.shape[:2]
    assert img.dtype == np.uint8 and img.shape[2] == 3
    assert (meta["width"], meta["height"]) == (w, h)
    assert meta["style"] == "procedural" and meta["seed"] == seed
    for t in meta["tiles"]:
        assert t["code"] in CLASSES
        x0, y0, x1, y1 = t["xyxy"]
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        assert len(t["quad"]) == 4 and -180 <= t["angle"] <= 180
        assert (t["code"] == BACK) == (not t["face_up"])
        assert 0 <= t["group"] < len(meta["groups"])
    for g in meta["groups"]:
        assert g["kind"] in ("concealed", "meld", "bonus", "distractor")
        assert all(meta["tiles"][i]["group"] == meta["groups"].index(g) for i in g["tiles"])
    if meta["hand"] is not None:
        hand = meta["hand"]
        sets = sum(3 for m in hand["melds"])
        assert len(hand["concealed"]) + sets == 14


def test_bad_size_is_a_one_line_error() -> None:
    with pytest.raises(SynthError, match="size"):
        render_scene(1, "procedural", size=10)


def test_unknown_style_is_a_one_line_error() -> None:
    with pytest.raises(SynthError, match="unknown style"):
        render_scene(1, "no-such-style", size=320)


def _short_sides(meta: dict) -> list[float]:
    return [min(x1 - x0, y1 - y0) for x0, y0, x1, y1 in (t["xyxy"] for t in meta["tiles"])]


def test_bonus_focus_shows_flowers_and_seasons_close_up() -> None:
    bonus_metas = [render_scene(seed, "procedural", size=640, focus="bonus")[1] for seed in range(4)]
    hands_metas = [render_scene(seed, "procedural", size=640)[1] for seed in range(4)]
    codes = [t["code"] for m in bonus_metas for t in m["tiles"]]
    assert sum(code in FLOWERS + SEASONS for code in codes) >= 0.3 * len(codes)
    assert all(m["focus"] == "bonus" and m["hand"] is None for m in bonus_metas)
    assert all("focus" not in m for m in hands_metas)
    close = np.median([s for m in bonus_metas for s in _short_sides(m)])
    usual = np.median([s for m in hands_metas for s in _short_sides(m)])
    assert close > 1.5 * usual


def test_bonus_focus_re_renders_from_its_meta() -> None:
    _, meta = render_scene(11, "procedural", size=480, focus="bonus")
    _, again = render_scene(meta["seed"], meta["style"], size=480, focus=meta["focus"])
    assert again["tiles"] == meta["tiles"]


def test_unknown_focus_is_a_one_line_error() -> None:
    with pytest.raises(SynthError, match="unknown focus"):
        render_scene(1, "procedural", size=320, focus="melds")
