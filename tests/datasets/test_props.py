"""Props on the table: sharp non-tile objects at the tiles' scale, recorded in the scene meta."""

from __future__ import annotations

import numpy as np
import pytest

import datasets.props as props_module
import datasets.synth as synth
from datasets.props import KINDS, draw_props, draw_under_glass, prop_rng, under_glass_rng


def _scene_with_props(size: int = 480) -> tuple[int, np.ndarray, dict]:
    for seed in range(40):
        img, meta = synth.render_scene(seed, "procedural", size=size)
        if any(p["kind"] in KINDS for p in meta["props"]):
            return seed, img, meta
    raise AssertionError("no scene of 40 has props")


def test_props_change_the_photo_only_in_and_just_around_their_boxes() -> None:
    flat = np.full((300, 400, 3), 128.0, np.float32)
    for seed in range(30):
        img = flat.copy()
        props = draw_props(img, prop_rng(seed), tile_px=40.0)
        changed = np.abs(img - flat).max(axis=2) > 3
        near = np.zeros(changed.shape, bool)
        for prop in props:
            assert prop.kind in KINDS
            x1, y1, x2, y2 = prop.xyxy
            assert 0 <= x1 < x2 <= 400 and 0 <= y1 < y2 <= 300
            assert changed[int(y1) : int(y2), int(x1) : int(x2)].any()
            pad = 12  # the soft shadow beside a prop
            near[max(0, int(y1) - pad) : int(y2) + pad, max(0, int(x1) - pad) : int(x2) + pad] = True
        assert not (changed & ~near).any()
        if not props:
            assert not changed.any()


def test_some_scenes_have_props_and_a_scene_repeats_with_its_props() -> None:
    with_props = 0
    for seed in range(12):
        _, meta = synth.render_scene(seed, "procedural", size=320)
        with_props += bool(meta["props"])
    assert 2 <= with_props <= 10
    seed, img, meta = _scene_with_props()
    again, meta_again = synth.render_scene(seed, "procedural", size=480)
    assert np.array_equal(img, again) and meta_again["props"] == meta["props"]


def test_props_leave_the_tiles_and_every_other_draw_of_a_scene_as_they_were(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed, img, meta = _scene_with_props()
    monkeypatch.setattr(synth, "draw_props", lambda *_: [])
    bare, bare_meta = synth.render_scene(seed, "procedural", size=480)
    on_top = [p for p in meta["props"] if p["kind"] in KINDS]
    assert bare_meta["tiles"] == meta["tiles"] and bare_meta["props"] == [
        p for p in meta["props"] if p not in on_top
    ]
    differs = np.abs(img.astype(int) - bare.astype(int)).max(axis=2) > 40
    near = np.zeros(differs.shape, bool)
    for prop in on_top:
        x1, y1, x2, y2 = (int(v) for v in prop["xyxy"])
        near[max(0, y1 - 40) : y2 + 40, max(0, x1 - 40) : x2 + 40] = True
    assert differs[near].any() and not differs[~near].any()


def test_things_under_the_glass_only_under_a_glass_top_and_only_in_their_boxes() -> None:
    flat = np.full((300, 400, 3), 90.0, np.float32)
    drew = 0
    for seed in range(30):
        for surface in ("wood", "cloth", "felt"):
            img = flat.copy()
            assert draw_under_glass(img, surface, under_glass_rng(seed), tile_px=40.0) == []
            np.testing.assert_array_equal(img, flat)
        img = flat.copy()
        found = draw_under_glass(img, "glass", under_glass_rng(seed), tile_px=40.0)
        changed = np.abs(img - flat).max(axis=2) > 3
        near = np.zeros(changed.shape, bool)
        for thing in found:
            assert thing.kind.startswith("under:") and thing.kind.removeprefix("under:") in KINDS
            x1, y1, x2, y2 = thing.xyxy
            assert 0 <= x1 < x2 <= 400 and 0 <= y1 < y2 <= 300
            pad = 8  # the blur round its edge
            near[max(0, int(y1) - pad) : int(y2) + pad, max(0, int(x1) - pad) : int(x2) + pad] = True
        assert not (changed & ~near).any()
        drew += bool(found)
    assert 5 <= drew < 30


def test_things_under_the_glass_leave_the_scene_otherwise_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    def under(seed: int) -> bool:
        return any(
            p["kind"].startswith("under:") for p in synth.render_scene(seed, "procedural", 320)[1]["props"]
        )

    seed = next(s for s in range(200) if under(s))
    with_them, meta = synth.render_scene(seed, "procedural", 320)
    monkeypatch.setattr(props_module, "SHARE_UNDER_GLASS", 0.0)
    without, plain_meta = synth.render_scene(seed, "procedural", 320)
    assert meta["tiles"] == plain_meta["tiles"]
    assert [p for p in meta["props"] if not p["kind"].startswith("under:")] == plain_meta["props"]
    assert not np.array_equal(with_them, without)
