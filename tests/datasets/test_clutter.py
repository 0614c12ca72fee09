"""Clutter (chrome, bags, paper, fingers, hubs): drawn only when asked for, only in its boxes, recorded in
the meta."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import datasets.synth as synth
from datasets.clutter import DEFAULT_KINDS, KINDS, clutter_rng, draw_clutter, place


def test_no_clutter_unless_asked_for() -> None:
    flat = np.full((200, 300, 3), 100.0, np.float32)
    for seed in range(10):
        img = flat.copy()
        assert draw_clutter(img, "wood", clutter_rng(seed), 40.0, share=0.0) == []
        np.testing.assert_array_equal(img, flat)


@pytest.mark.parametrize("surface", ["wood", "glass"])
@pytest.mark.parametrize("asked", [DEFAULT_KINDS, KINDS])
def test_clutter_changes_the_photo_only_in_and_just_around_its_boxes(
    surface: str, asked: tuple[str, ...]
) -> None:
    flat = np.full((300, 400, 3), 128.0, np.float32)
    kinds = set()
    for seed in range(30):
        img = flat.copy()
        found = draw_clutter(img, surface, clutter_rng(seed), 40.0, share=1.0, kinds=asked)
        assert 1 <= len(found) <= 3
        changed = np.abs(img - flat).max(axis=2) > 3
        near = np.zeros(changed.shape, bool)
        for thing in found:
            kinds.add(thing.kind.removeprefix("clutter:"))
            x1, y1, x2, y2 = thing.xyxy
            assert 0 <= x1 < x2 <= 400 and 0 <= y1 < y2 <= 300
            assert changed[int(y1) : int(y2), int(x1) : int(x2)].any()
            pad = 10  # a shadow, or the blur of the glass or of a finger out of focus
            near[max(0, int(y1) - pad) : int(y2) + pad, max(0, int(x1) - pad) : int(x2) + pad] = True
        assert not (changed & ~near).any()
    assert kinds == set(asked)


def test_fingers_come_in_at_the_frames_edge_and_cover_part_of_it() -> None:
    edges = set()
    for seed in range(40):
        img = np.full((300, 400, 3), 128.0, np.float32)
        for thing in draw_clutter(img, "wood", clutter_rng(seed), 40.0, share=1.0, kinds=("finger",)):
            x1, y1, x2, y2 = thing.xyxy
            touches = {"left": x1 == 0, "top": y1 == 0, "right": x2 == 400, "bottom": y2 == 300}
            assert any(touches.values()), thing
            assert (x2 - x1) * (y2 - y1) < 0.8 * 300 * 400  # part of the frame, not all of it
            edges |= {name for name, touched in touches.items() if touched}
    assert edges == {"left", "top", "right", "bottom"}


def test_the_default_kinds_are_the_first_three_and_draw_as_when_none_are_named() -> None:
    assert KINDS[: len(DEFAULT_KINDS)] == DEFAULT_KINDS == ("chrome", "bag", "paper")
    for seed in range(8):
        named = np.full((200, 300, 3), 90.0, np.float32)
        unnamed = named.copy()
        found = draw_clutter(named, "glass", clutter_rng(seed), 30.0, 1.0, kinds=DEFAULT_KINDS)
        assert draw_clutter(unnamed, "glass", clutter_rng(seed), 30.0, 1.0) == found
        np.testing.assert_array_equal(named, unnamed)


def test_a_placed_patch_turns_about_its_middle_and_lands_on_the_centre() -> None:
    patch = np.full((10, 40, 3), 200.0, np.float32)  # 40 wide, 10 high
    layer, mask = place(patch, np.ones((10, 40), np.float32), (60.0, 50.0), 90.0, (100, 120))
    ys, xs = np.nonzero(mask > 0.5)
    assert abs(xs.mean() - 60) < 1 and abs(ys.mean() - 50) < 1
    assert 8 <= np.ptp(xs) + 1 <= 12 and 38 <= np.ptp(ys) + 1 <= 42  # a quarter turn: now tall
    inside = mask > 0.99
    # premultiplied: the patch's own colour where it covers the frame fully
    np.testing.assert_allclose(layer[inside], 200.0, atol=1e-3)
    assert not layer[mask == 0].any()


def test_a_scene_without_clutter_is_as_it_was_and_with_it_only_the_clutter_differs() -> None:
    plain, plain_meta = synth.render_scene(3, "procedural", 480)
    again, again_meta = synth.render_scene(3, "procedural", 480, clutter=0.0)
    assert np.array_equal(plain, again) and "clutter" not in again_meta
    busy, meta = synth.render_scene(3, "procedural", 480, clutter=1.0)
    assert meta["clutter"] == 1.0 and meta["tiles"] == plain_meta["tiles"]
    added = [p for p in meta["props"] if p["kind"].startswith("clutter:")]
    assert added and [p for p in meta["props"] if p not in added] == plain_meta["props"]
    differs = np.abs(busy.astype(int) - plain.astype(int)).max(axis=2) > 40
    near = np.zeros(differs.shape, bool)
    for thing in added:
        x1, y1, x2, y2 = (int(v) for v in thing["xyxy"])
        near[max(0, y1 - 30) : y2 + 30, max(0, x1 - 30) : x2 + 30] = True
    assert differs[near].any() and not differs[~near].any()
    redone, redone_meta = synth.rerender_scene(meta)
    assert np.array_equal(redone, busy) and redone_meta == meta
    assert "clutter_kinds" not in meta  # the default kinds are not written


def test_kinds_other_than_the_default_are_recorded_and_rendered_again_from_the_meta() -> None:
    photo, meta = synth.render_scene(5, "procedural", 400, clutter=1.0, clutter_kinds=("finger", "hub"))
    assert meta["clutter_kinds"] == ["finger", "hub"]
    assert {p["kind"] for p in meta["props"] if p["kind"].startswith("clutter:")} <= {
        "clutter:finger",
        "clutter:hub",
    }
    redone, redone_meta = synth.rerender_scene(meta)
    assert np.array_equal(redone, photo) and redone_meta == meta


def test_a_share_of_clutter_outside_0_to_1_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(synth.SynthError, match="clutter"):
        synth.render_scene(1, "procedural", 320, clutter=1.5)
    assert synth.main(["--out", str(tmp_path / "x"), "--n", "1", "--clutter", "-0.1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --clutter") and "\n" not in err


def test_an_unknown_clutter_kind_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(synth.SynthError, match="unknown clutter kind"):
        synth.render_scene(1, "procedural", 320, clutter=1.0, clutter_kinds=("cat",))
    out = tmp_path / "x"
    assert synth.main(["--out", str(out), "--n", "1", "--clutter", "1", "--clutter-kinds", "finger,cat"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: unknown clutter kind cat;") and "finger" in err and "\n" not in err
    assert not out.exists()
