"""Sampled hands are plausible winning hands the scorer accepts as input."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from datasets.hands import Dims, lay_hand, sample_hand
from vision.classes import BONUS_CODES, CLASSES

DIMS = Dims(w=26.0, h=35.0, t=18.0, ivory=0.6)


def _meld_ok(kind: str, tiles: list[str]) -> bool:
    if kind == "chow":
        suits = {t[1] for t in tiles}
        ranks = sorted(int(t[0]) for t in tiles)
        return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + 3))
    return len(set(tiles)) == 1 and len(tiles) == (3 if kind == "pong" else 4)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_sampled_hand_is_four_sets_and_a_pair(seed: int) -> None:
    hand = sample_hand(np.random.default_rng(seed))
    assert len(hand.concealed) + 3 * len(hand.melds) == 14
    counts = Counter(hand.concealed)
    for meld in hand.melds:
        assert _meld_ok(meld.kind, list(meld.tiles)), meld
        counts.update(meld.tiles)
    for code, n in counts.items():
        assert code in CLASSES and code not in BONUS_CODES, code
        assert n <= 4, (code, n)
    singles = [b for b in hand.bonus if b not in ("face", "fly")]
    assert len(singles) == len(set(singles)), "flowers, seasons and animals are one of each"
    assert all(b in BONUS_CODES or b == "fly" for b in hand.bonus)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_laid_hand_shows_every_tile_once_in_its_group(seed: int) -> None:
    rng = np.random.default_rng(seed)
    hand = sample_hand(rng)
    b = lay_hand(hand, rng, DIMS)
    kinds = Counter(g.kind for g in b.groups)
    assert kinds["concealed"] == 1 and kinds["meld"] == len(hand.melds)
    assert kinds["bonus"] == (1 if hand.bonus else 0)
    assert sum(len(g.tiles) for g in b.groups) == len(b.tiles)
    shown = Counter(t.code for t in b.tiles if t.face_up)
    hidden = sum(1 for t in b.tiles if not t.face_up)
    total = len(hand.concealed) + sum(len(m.tiles) for m in hand.melds) + len(hand.bonus)
    assert sum(shown.values()) + hidden == total
    # no two tiles of the hand lie on top of each other
    pts = np.array([(t.x, t.y) for t in b.tiles])
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2) + np.eye(len(pts)) * 1e9
    assert d.min() > DIMS.w * 0.9


def test_the_scorer_accepts_sampled_hands() -> None:
    for seed in range(40):
        sampled = sample_hand(np.random.default_rng(seed))
        hand = sampled.as_json()
        data = {"rules": sampled.rules, **hand}
        try:
            out = scoring.score_json(data)
        except scoring.MalformedHandError as exc:  # pragma: no cover - the failure message is the point
            pytest.fail(f"seed {seed}: scorer rejects {hand}: {exc}")
        # a winning hand may still score below the minimum, but never uses tiles outside its set
        assert out["valid"] or out["reason"] == "below_minimum", (hand, out.get("message"))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_distractors_never_land_on_other_tiles(seed: int) -> None:
    from datasets.hands import add_distractors
    from datasets.synth import CLASS_WEIGHTS

    rng = np.random.default_rng(seed)
    b = lay_hand(sample_hand(rng), rng, DIMS)
    add_distractors(b, rng, list(CLASSES), CLASS_WEIGHTS)
    pts = np.array([(t.x, t.y) for t in b.tiles if not t.hidden])
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2) + np.eye(len(pts)) * 1e9
    assert d.min() > DIMS.w * 0.9


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_table_shows_no_more_copies_of_a_face_than_one_set_holds(seed: int) -> None:
    from datasets.synth import _lay_table
    from vision.tile_set import COPIES_IN_SET

    _, _, tiles, _ = _lay_table(np.random.default_rng(seed))
    shown = Counter(t.code for t in tiles if t.code != "back")
    assert all(n <= COPIES_IN_SET[code] for code, n in shown.items()), shown


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_tiles_around_a_hand_are_of_its_rule_sets_set(seed: int) -> None:
    # a Singapore game's discards hold no face or fly, a Malaysian one's no bamboo or characters
    from datasets.synth import _lay_table
    from vision.tile_set import rule_set_faces

    _, hand, tiles, _ = _lay_table(np.random.default_rng(seed))
    if hand is not None:
        outside = {t.code for t in tiles} - rule_set_faces(hand.rules) - {"back"}
        assert not outside, (hand.rules, outside)


def test_codes_drawn_for_distractors_stop_at_the_copies_a_set_has() -> None:
    from datasets.hands import Placed, draw_codes

    placed = [Placed("S1", 0.0, 0.0, 0.0), Placed("3m", 0.0, 0.0, 0.0)] + [Placed("back", 0.0, 0.0, 0.0)] * 9
    pool = ["S1", "3m", "back"]
    codes = draw_codes(np.random.default_rng(0), pool, np.array([0.8, 0.19, 0.01]), 40, placed)
    counts = Counter(codes)
    assert counts["S1"] == 0 and counts["3m"] == 3 and counts["back"] == 37
    assert draw_codes(np.random.default_rng(0), ["S1"], np.array([1.0]), 5, placed) == []
