"""Ghost tiles: faint mirrored copies of the scene's tiles on glossy tables, never over a tile."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import datasets.ghosts as ghosts
import datasets.synth as synth
from datasets.ghosts import draw_ghosts, ghost_rng, mirror_matrix, tile_mask


def _apply(matrix: np.ndarray, point: tuple[float, float]) -> np.ndarray:
    return matrix[:, :2] @ np.array(point) + matrix[:, 2]


def test_mirror_keeps_points_on_its_line_and_undoes_itself() -> None:
    angle, point = 0.7, (120.0, 80.0)
    matrix = mirror_matrix(angle, point, (0.0, 0.0))
    on_line = (point[0] + 50 * np.cos(angle), point[1] + 50 * np.sin(angle))
    np.testing.assert_allclose(_apply(matrix, on_line), on_line, atol=1e-3)
    off_line = (10.0, 200.0)
    np.testing.assert_allclose(_apply(matrix, tuple(_apply(matrix, off_line))), off_line, atol=1e-3)
    assert np.linalg.det(matrix[:, :2]) == pytest.approx(-1.0, abs=1e-5)  # a mirror, not a turn
    moved = mirror_matrix(angle, point, (30.0, -5.0))
    np.testing.assert_allclose(_apply(moved, on_line), np.add(on_line, (30.0, -5.0)), atol=1e-3)


def _table_with_tiles() -> tuple[np.ndarray, np.ndarray]:
    before = np.full((240, 320, 3), 60.0, np.float32)
    after = before.copy()
    for x in (100, 140, 180):
        cv2.rectangle(after, (x, 100), (x + 34, 146), (235.0, 230.0, 220.0), -1)
        cv2.circle(after, (x + 17, 123), 8, (200.0, 30.0, 30.0), -1)
    return before, after


def test_ghosts_change_the_table_only_and_never_a_tile() -> None:
    before, after = _table_with_tiles()
    tiles = tile_mask(before, after) > 0
    drew = 0
    for seed in range(20):
        img = after.copy()
        found = draw_ghosts(img, before, "glass", ghost_rng(seed), tile_px=46.0)
        np.testing.assert_array_equal(img[tiles], after[tiles])
        changed = np.abs(img - after).max(axis=2) > 2
        assert bool(found) == bool(changed.any())
        for ghost in found:
            x1, y1, x2, y2 = ghost.xyxy
            assert ghost.kind == "ghost"
            assert 0 <= x1 < x2 <= 320 and 0 <= y1 < y2 <= 240
        drew += bool(found)
    assert 5 <= drew < 20  # glass mirrors in most scenes, not all


def test_cloth_and_felt_show_no_ghosts() -> None:
    before, after = _table_with_tiles()
    for surface in ("cloth", "felt"):
        for seed in range(10):
            img = after.copy()
            assert draw_ghosts(img, before, surface, ghost_rng(seed), tile_px=46.0) == []
            np.testing.assert_array_equal(img, after)


def test_ghosts_leave_the_scene_otherwise_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    def has_ghost(seed: int) -> bool:
        return any(p["kind"] == "ghost" for p in synth.render_scene(seed, "procedural", 320)[1]["props"])

    seed = next(s for s in range(60) if has_ghost(s))
    with_ghosts, meta = synth.render_scene(seed, "procedural", 320)
    monkeypatch.setattr(ghosts, "SHARE_BY_SURFACE", {})
    without, plain_meta = synth.render_scene(seed, "procedural", 320)
    assert meta["tiles"] == plain_meta["tiles"]
    assert [p for p in meta["props"] if p["kind"] != "ghost"] == plain_meta["props"]
    assert not np.array_equal(with_ghosts, without)


def test_a_chosen_surface_keeps_the_tiles_and_is_recorded() -> None:
    _, drawn = synth.render_scene(5, "procedural", 320)
    _, glass = synth.render_scene(5, "procedural", 320, surface="glass")
    assert glass["background"] == "glass" and glass["surface"] == "glass" and "surface" not in drawn
    assert [t["code"] for t in glass["tiles"]] == [t["code"] for t in drawn["tiles"]]
    photo, meta = synth.render_scene(5, "procedural", 320, surface="glass")
    assert meta == glass and photo.shape[:2] == (meta["height"], meta["width"])
    with pytest.raises(synth.SynthError, match="unknown surface"):
        synth.render_scene(5, "procedural", 320, surface="lava")


def test_the_cli_renders_on_a_chosen_surface(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        synth.main(
            [
                "--out",
                str(tmp_path),
                "--n",
                "2",
                "--styles",
                "procedural",
                "--size",
                "240",
                "--surface",
                "glass",
            ]
        )
        == 0
    )
    metas = sorted((tmp_path / "meta").glob("*.json"))
    assert len(metas) == 2 and all('"surface": "glass"' in p.read_text() for p in metas)
    assert synth.main(["--out", str(tmp_path), "--n", "1", "--surface", "lava"]) == 2
    assert "unknown surface 'lava'" in capsys.readouterr().err
