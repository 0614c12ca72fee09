"""Reading within one set: no face more often than a set holds it, the likeliest such reading."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.classes import BACK, CLASS_INDEX, CLASSES
from vision.tile_set import (
    COPIES_IN_SET,
    assign_within_set,
    copies_allowed,
    face_mask,
    min_cost_assignment,
    rule_set_faces,
    tiles_in_words,
    within_faces,
)


def _brute_force(cost: np.ndarray) -> float:
    n, m = cost.shape
    return min(sum(cost[i, cols[i]] for i in range(n)) for cols in itertools.permutations(range(m), n))


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 5), st.integers(0, 3), st.integers(0, 2**32 - 1), st.booleans())
def test_assignment_is_one_to_one_and_as_cheap_as_brute_force(
    n: int, extra: int, seed: int, ties: bool
) -> None:
    rng = np.random.default_rng(seed)
    cost = rng.integers(0, 4, (n, n + extra)).astype(float) if ties else rng.uniform(0, 10, (n, n + extra))
    columns = min_cost_assignment(cost)
    assert len(set(columns.tolist())) == n
    assert cost[np.arange(n), columns].sum() == pytest.approx(_brute_force(cost))


def test_a_set_holds_four_of_each_face_one_of_each_bonus_tile_and_any_number_of_backs() -> None:
    assert sum(COPIES_IN_SET[c] for c in CLASSES if c not in ("face", "fly", BACK)) == 148
    limits = copies_allowed(20)
    assert limits[CLASS_INDEX["3m"]] == 4 and limits[CLASS_INDEX["S1"]] == 1
    assert limits[CLASS_INDEX["cat"]] == 1 and limits[CLASS_INDEX["fly"]] == 4
    assert limits[CLASS_INDEX[BACK]] == 20


def _rows(*rows: dict[str, float]) -> np.ndarray:
    out = np.full((len(rows), len(CLASSES)), 1e-4)
    for i, row in enumerate(rows):
        for code, p in row.items():
            out[i, CLASS_INDEX[code]] = p
    return out / out.sum(axis=1, keepdims=True)


def test_first_choices_that_fit_the_set_are_kept() -> None:
    probs = _rows({"3m": 0.5, "5m": 0.4}, {"3m": 0.6}, {"3m": 0.9}, {"3m": 0.7}, {"back": 0.9}, {"back": 0.8})
    assert [CLASSES[i] for i in assign_within_set(probs)] == ["3m", "3m", "3m", "3m", "back", "back"]


def test_three_tiles_read_as_the_one_s1_go_to_their_next_likeliest_free_faces() -> None:
    probs = _rows(
        {"S1": 0.46, "S2": 0.38},
        {"S1": 0.53, "F1": 0.19},
        {"S1": 0.40, "S2": 0.27, "S3": 0.2},
    )
    # S1 to the surest; of the other two, S2 to the one that loses least by giving it up
    assert [CLASSES[i] for i in assign_within_set(probs)] == ["S2", "S1", "S3"]


def test_a_fifth_copy_goes_to_the_least_sure_tile() -> None:
    probs = _rows(*[{"9m": p, "8m": 0.2} for p in (0.9, 0.8, 0.75, 0.7, 0.5)])
    assert [CLASSES[i] for i in assign_within_set(probs)] == ["9m"] * 4 + ["8m"]


def test_copies_held_face_down_are_no_tile_read_face_ups() -> None:
    # a concealed kong laid S back back S holds two S face down: four more S read face up are two too
    # many, and the least sure two go to their next likeliest faces
    probs = _rows(*[{"S": p, "W": 0.3} for p in (0.9, 0.8, 0.7, 0.6)])
    assert [CLASSES[i] for i in assign_within_set(probs)] == ["S"] * 4
    assert [CLASSES[i] for i in assign_within_set(probs, hidden={"S": 2})] == ["S", "S", "W", "W"]
    assert [CLASSES[i] for i in assign_within_set(probs, hidden={"S": 4})] == ["W"] * 4  # all four hidden


def test_the_backs_of_a_kong_whose_face_shows_are_counted_as_that_face() -> None:
    from vision.layout import Layout, TileGroup
    from vision.pipeline import hidden_copies

    box = (0.0, 0.0, 1.0, 1.0)
    layout = Layout(
        groups=(
            TileGroup("meld", "kong", True, (0, 1, 2, 3), ("S", "back", "back", "S"), box),
            TileGroup("meld", "kong", True, (4, 5, 6, 7), ("back",) * 4, box),  # face unknown
            TileGroup("meld", "pong", False, (8, 9, 10), ("C", "C", "C"), box),
            TileGroup("unused", None, False, (11,), ("back",), box),
        )
    )
    assert hidden_copies(layout) == {"S": 2}
    assert hidden_copies(None) == {}


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_any_reading_keeps_to_the_set_and_no_other_is_likelier(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    # few likely classes, so the set's limits bind often
    logits = rng.normal(0, 1, (n, len(CLASSES)))
    logits[:, [CLASS_INDEX["S1"], CLASS_INDEX["3m"]]] += 4
    probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    chosen = assign_within_set(probs)
    assert (np.bincount(chosen, minlength=len(CLASSES)) <= copies_allowed(n)).all()
    # swapping any two tiles' classes, or moving one tile to a free class, is never likelier
    score = np.log(probs[np.arange(n), chosen]).sum()
    counts = np.bincount(chosen, minlength=len(CLASSES))
    free = np.flatnonzero(counts < copies_allowed(n))
    for i in range(n):
        best_move = np.log(probs[i, free]).max() - np.log(probs[i, chosen[i]])
        assert best_move <= 1e-9
        for j in range(i + 1, n):
            swapped = np.log(probs[i, chosen[j]]) + np.log(probs[j, chosen[i]])
            assert swapped <= np.log(probs[i, chosen[i]]) + np.log(probs[j, chosen[j]]) + 1e-9
    assert np.isfinite(score)


def test_bad_probability_shapes_are_refused() -> None:
    with pytest.raises(ValueError):
        assign_within_set(np.ones((3, 10)))
    with pytest.raises(ValueError):
        min_cost_assignment(np.ones((3, 2)))


def test_no_tiles_is_no_reading() -> None:
    assert assign_within_set(np.zeros((0, len(CLASSES)))).shape == (0,)


# The Malaysian set's faces (RULES.md: dots, winds, dragons, flowers, seasons, animals, face, fly).
MALAYSIAN = frozenset(
    [f"{n}p" for n in range(1, 10)]
    + ["E", "S", "W", "N", "C", "F", "P"]
    + ["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4", "cat", "rat", "rooster", "centipede", "face", "fly"]
)


def test_the_malaysian_faces_here_are_the_scoring_rule_sets() -> None:
    import scoring

    ruleset = scoring.get_ruleset("malaysian")
    assert {str(t) for t in ruleset.set_tiles(scoring.default_options("malaysian"))} == MALAYSIAN


def test_a_malaysian_set_without_the_north_wind_holds_no_north_and_singapores_set_ignores_it() -> None:
    from scoring import OptionError

    assert rule_set_faces("malaysian") == MALAYSIAN
    assert rule_set_faces("malaysian", {"north_wind": False}) == MALAYSIAN - {"N"}
    assert rule_set_faces("malaysian", {"north_wind": True, "max_tai": 8}) == MALAYSIAN
    assert rule_set_faces("singapore", {"north_wind": False}) == rule_set_faces("singapore")
    assert "N" in rule_set_faces("singapore")
    with pytest.raises(OptionError, match="north_wind"):
        rule_set_faces("malaysian", {"north_wind": "maybe"})


def test_a_tile_read_as_bamboo_in_a_malaysian_set_is_read_as_its_likeliest_dots() -> None:
    probs = _rows({"5s": 0.6, "5p": 0.3, "6p": 0.1}, {"E": 0.9, "fly": 0.1})
    assert [CLASSES[i] for i in assign_within_set(probs)] == ["5s", "E"]
    kept = within_faces(probs, MALAYSIAN)
    assert [CLASSES[i] for i in assign_within_set(kept, MALAYSIAN)] == ["5p", "E"]
    assert kept[0, CLASS_INDEX["5p"]] == pytest.approx(0.75, abs=0.01) and kept[0, CLASS_INDEX["5s"]] == 0
    # the Singapore set has no fly: the wind is all that is left of the second tile
    singapore = frozenset(CLASSES) - {"face", "fly", BACK}
    assert within_faces(probs, singapore)[1, CLASS_INDEX["E"]] == pytest.approx(1.0, abs=0.01)


def test_a_tile_given_wholly_to_faces_outside_the_set_is_spread_over_the_set() -> None:
    only_1m = np.zeros((1, len(CLASSES)))
    only_1m[0, CLASS_INDEX["1m"]] = 1.0
    kept = within_faces(only_1m, MALAYSIAN)
    assert kept.sum() == pytest.approx(1.0)
    assert (kept[0, ~face_mask(MALAYSIAN)] == 0).all()
    # a tile read face up is spread over the set's faces, not onto a face-down tile
    assert kept[0, CLASS_INDEX[BACK]] == 0
    assert np.ptp(kept[0, [CLASS_INDEX[c] for c in MALAYSIAN]]) == pytest.approx(0.0)


def test_no_faces_named_leaves_the_reading_alone_and_unknown_codes_are_refused() -> None:
    probs = _rows({"5s": 0.6, "5p": 0.4})
    assert np.array_equal(within_faces(probs, None), probs.astype(np.float32))
    assert face_mask(None).all() and face_mask(MALAYSIAN)[CLASS_INDEX[BACK]]
    with pytest.raises(ValueError, match="5z"):
        face_mask(["5z"])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_a_reading_within_a_rule_sets_faces_never_names_another_face(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    logits = rng.normal(0, 2, (n, len(CLASSES)))
    probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    kept = within_faces(probs, MALAYSIAN)
    assert np.allclose(kept.sum(axis=1), 1.0, atol=1e-5)
    chosen = assign_within_set(kept, MALAYSIAN)
    assert {CLASSES[i] for i in chosen} <= MALAYSIAN | {BACK}
    assert (np.bincount(chosen, minlength=len(CLASSES)) <= copies_allowed(n, MALAYSIAN)).all()
    # where no limit binds, each tile is its likeliest face of the set
    if (np.bincount(kept.argmax(axis=1), minlength=len(CLASSES)) <= copies_allowed(n, MALAYSIAN)).all():
        assert np.array_equal(chosen, kept.argmax(axis=1))


@pytest.mark.parametrize(
    ("codes", "words"),
    [
        (["face"], "a Malaysian face tile"),
        (["fly", "fly"], "Malaysian fly tiles (飛)"),
        (["face", "fly", "face"], "2 Malaysian face tiles and a Malaysian fly tile (飛)"),
        # a set lacks a whole suit: the tiles are named by it, each counted, in the order met
        (["1m", "1s", "5s"], "a character tile (萬) and 2 bamboo tiles (索)"),
        (["N"], "a North wind"),
    ],
)
def test_tiles_another_set_holds_are_named_in_a_players_words(codes: list[str], words: str) -> None:
    # an audit: "(face)" read to a Singapore player as a note on a face, not as the Malaysian face tiles
    assert tiles_in_words(codes) == words


def test_the_line_on_another_sets_tiles_names_them_in_words_not_codes() -> None:
    from vision.pipeline import _outside_set_warning

    (line,) = _outside_set_warning(["face"])
    assert line == (
        "1 tile looks like a Malaysian face tile, not in this set: it is read as this set's likeliest "
        "tile. Is the photo of another rule set's tiles?"
    )
    assert "(face)" not in line
