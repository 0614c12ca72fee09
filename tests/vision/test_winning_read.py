"""A reading one or two unsure tiles away from a win is taken as that win, and only then."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.decompose import sets_and_pair, winning_shape
from scoring.tiles import parse_hand_string
from tests.vision.layout_sim import Placed, place
from vision.classes import CLASS_INDEX, CLASSES
from vision.detections import Detections
from vision.layout import Layout, TileGroup, layout_hand
from vision.lines import WIN_MOVED, WIN_WAYS
from vision.pipeline import TileReader
from vision.winning_read import (
    CLEAR_BY,
    EXTRA_MOVE_COST,
    MAX_MOVES,
    RUNNER_UP_AT_LEAST,
    complete_to_win,
    is_winning_read,
    layout_completes,
)


@pytest.mark.parametrize(
    ("hand", "wins"),
    [
        ("123m 456p 789s CCC 55p", True),
        ("123m 456p 789s CCCC 55p", True),  # a kong is a set of four
        ("1111m 2222m 3333m 4444m 55m", True),  # four kongs
        ("11112222333344m", True),  # no kongs: four chows 1234 ... and the pair 44
        ("11m 22m 33m 44m 55m 66m 77m", True),  # seven pairs (Malaysian)
        ("19m 19p 19s ESWN CFP 1m", True),  # thirteen wonders
        ("123m 456p 789s CCC 56p", False),
        ("19m 19p 19s ESWN CFP 2m", False),
        ("11m 22m 33m 44m 55m 77m 77m", False),  # seven pairs must differ
        ("123m 456p 789s CCC 5p", False),  # 13 tiles
        ("123m 456p 789s CCCC 5555p", False),  # 4 + 4 + 3 x 3: no pair
        ("11111m 456p 789s CC", False),  # a fifth copy
    ],
)
def test_winning_shapes(hand: str, wins: bool) -> None:
    assert winning_shape(parse_hand_string(hand)) is wins


def test_no_fly_or_bonus_tile_is_a_hand_tile() -> None:
    assert not winning_shape([*parse_hand_string("123m 456p 789s CC 55p"), "fly"])
    assert not winning_shape([*parse_hand_string("123m 456p 789s CC 55p"), "F1"])


def test_bonus_tiles_are_set_apart_but_kept_to_one_copy() -> None:
    hand = parse_hand_string("123m 456p 789s CCC 55p")
    assert is_winning_read([*hand, "F1", "S1", "cat"])
    assert not is_winning_read([*hand, "F1", "F1"])


def _probabilities(codes: list[str], sure: float = 0.95) -> np.ndarray:
    """One row per tile, `sure` on its code and the rest spread over the other classes."""
    rows = np.full((len(codes), len(CLASSES)), (1 - sure) / (len(CLASSES) - 1))
    for i, code in enumerate(codes):
        rows[i, CLASS_INDEX[code]] = sure
    return rows


def _unsure(rows: np.ndarray, i: int, first: str, first_p: float, runner: str, runner_p: float) -> None:
    rows[i] = (1 - first_p - runner_p) / (len(CLASSES) - 2)
    rows[i, CLASS_INDEX[first]] = first_p
    rows[i, CLASS_INDEX[runner]] = runner_p


def _read(rows: np.ndarray) -> tuple[list[str], tuple[int, ...]]:
    fix = complete_to_win(rows, rows.argmax(axis=1))
    return [CLASSES[i] for i in fix.class_id], fix.moved


WIN = parse_hand_string("123m 456m 789m 123p 55p")


def test_a_win_as_read_is_kept() -> None:
    rows = _probabilities(WIN)
    _unsure(rows, 13, "5p", 0.5, "6p", 0.45)
    assert _read(rows) == (WIN, ())


def test_one_unsure_tile_is_moved_to_the_runner_up_that_makes_the_win() -> None:
    rows = _probabilities(WIN)
    _unsure(rows, 13, "6p", 0.55, "5p", 0.4)  # read 5p 6p: no pair; its runner-up 5p makes one
    codes, moved = _read(rows)
    assert codes == WIN and moved == (13,)


def test_a_flower_read_as_a_hand_tile_goes_back_to_the_bonus_row() -> None:
    codes = [*WIN, "1s"]  # 15 hand tiles and no kong: one of them is not a hand tile
    rows = _probabilities(codes)
    _unsure(rows, 14, "1s", 0.6, "S1", 0.3)
    assert _read(rows) == ([*WIN, "S1"], (14,))


def test_two_fixes_about_as_likely_leave_the_reading_alone() -> None:
    codes = [*WIN[:12], "5p", "7p"]  # 5p 7p: either could be the other's pair
    rows = _probabilities(codes)
    _unsure(rows, 12, "5p", 0.5, "7p", 0.4)
    _unsure(rows, 13, "7p", 0.5, "5p", 0.4)
    assert _read(rows) == (codes, ())


def test_one_doubtful_tile_beats_two_a_little_less_doubtful() -> None:
    # read 1m 1m 2m 2m 2m 3m: a 1m taken for a 2m (123m 222m) or two 2m for 1m (111m 123m) both win;
    # the two moves' doubts together are about the one's, and one misread is likelier than two
    codes = parse_hand_string("11m 222m 3m 456p 789s NN")
    rows = _probabilities(codes)
    _unsure(rows, 1, "1m", 0.5, "2m", 0.45)
    _unsure(rows, 2, "2m", 0.55, "1m", 0.412)
    _unsure(rows, 3, "2m", 0.55, "1m", 0.412)
    assert _read(rows) == (parse_hand_string("1m 2222m 3m 456p 789s NN"), (1,))
    # without the cost of a second move the two fixes lie within CLEAR_BY: neither would be taken
    moved_both = math.log(0.55 / 0.412) * 2
    assert moved_both - math.log(0.5 / 0.45) < CLEAR_BY < moved_both - math.log(0.5 / 0.45) + EXTRA_MOVE_COST


@pytest.mark.parametrize(("runner_p", "taken"), [(0.19, True), (0.3, False)])
def test_a_fix_twice_as_likely_as_its_rival_is_taken(runner_p: float, taken: bool) -> None:
    codes = [*WIN[:12], "5p", "7p"]  # 5p 7p: either could be the other's pair
    rows = _probabilities(codes)
    _unsure(rows, 12, "5p", 0.5, "7p", 0.4)  # 7p here: 1.25x less likely than as read
    _unsure(rows, 13, "7p", 0.5, "5p", runner_p)  # 5p here: 2.6x (taken) or 1.7x less likely
    assert _read(rows) == (([*WIN[:12], "7p", "7p"], (12,)) if taken else (codes, ()))


def test_an_unlikely_runner_up_is_never_taken() -> None:
    codes = [*WIN[:13], "6p"]
    rows = _probabilities(codes)
    _unsure(rows, 13, "6p", 0.9, "5p", RUNNER_UP_AT_LEAST / 2)
    assert _read(rows) == (codes, ())


def test_three_tiles_off_is_too_far_to_guess() -> None:
    codes = [*WIN[:11], "4p", "6p", "7p"]  # 123m 456m 789m 12p + 4p 6p 7p: three tiles off 3p 5p 5p
    rows = _probabilities(codes)
    for i, runner in zip((11, 12, 13), ("3p", "5p", "5p"), strict=True):
        _unsure(rows, i, codes[i], 0.5, runner, 0.45)
    assert _read(rows) == (codes, ())


def test_a_face_down_tile_leaves_the_reading_alone() -> None:
    codes = [*WIN[:13], "6p", "back"]
    rows = _probabilities(codes)
    _unsure(rows, 13, "6p", 0.55, "5p", 0.4)
    assert _read(rows) == (codes, ())


SUITED = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)]
HONOURS = ["E", "S", "W", "N", "C", "F", "P"]


@st.composite
def near_wins(draw: st.DrawFn) -> tuple[list[str], np.ndarray]:
    """A winning hand (four chows or pongs and a pair) with up to three tiles read as another face,
    each keeping its true face as a runner-up, and the probabilities the classifier gave."""
    hand: list[str] = []
    for _ in range(4):
        if draw(st.booleans()):
            suit, start = draw(st.sampled_from("mps")), draw(st.integers(1, 7))
            hand += [f"{start + k}{suit}" for k in range(3)]
        else:
            hand += [draw(st.sampled_from(SUITED + HONOURS))] * 3
    hand += [draw(st.sampled_from(SUITED + HONOURS))] * 2
    # a set holds four of each tile: a pong of 3m beside a pair of 3m is no hand anyone can hold
    assume(max(Counter(hand).values()) <= 4)
    rows = _probabilities(hand)
    off = draw(st.lists(st.integers(0, 13), max_size=3, unique=True))
    for i in off:
        wrong = draw(st.sampled_from([c for c in SUITED + HONOURS if c != hand[i]]))
        first_p = draw(st.floats(0.3, 0.9))
        _unsure(rows, i, wrong, first_p, hand[i], draw(st.floats(0.01, 1 - first_p)) * 0.999)
    return hand, rows


@settings(max_examples=150, deadline=None)
@given(case=near_wins())
def test_a_fix_is_a_win_within_two_likely_moves(case: tuple[list[str], np.ndarray]) -> None:
    _, rows = case
    read = rows.argmax(axis=1)
    fix = complete_to_win(rows, read)
    changed = tuple(int(i) for i in np.flatnonzero(fix.class_id != read))
    assert changed == tuple(sorted(fix.moved)) and len(changed) <= MAX_MOVES
    if changed:
        assert is_winning_read([CLASSES[i] for i in fix.class_id])
        assert not is_winning_read([CLASSES[i] for i in read])
        assert all(rows[i, fix.class_id[i]] >= RUNNER_UP_AT_LEAST for i in changed)
        assert sum(math.log(rows[i, read[i]] / rows[i, fix.class_id[i]]) for i in changed) <= math.log(30.0)


@settings(max_examples=100, deadline=None)
@given(case=near_wins())
def test_a_win_read_right_is_never_moved(case: tuple[list[str], np.ndarray]) -> None:
    hand, rows = case
    read = rows.argmax(axis=1)
    if [CLASSES[i] for i in read] == hand or is_winning_read([CLASSES[i] for i in read]):
        assert complete_to_win(rows, read).moved == ()


@dataclass(frozen=True)
class _Config:
    imgsz: int = 8
    crop_margin: float = 0.1
    reject_above: float = 0.5
    odd_shape: float | None = None


@dataclass(frozen=True)
class _Detector:
    boxes: np.ndarray

    def detect_with_candidates(
        self, rgb: np.ndarray, grid: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        no_boxes = np.zeros((0, 4), np.float32)
        return self.boxes, np.full(len(self.boxes), 0.9, np.float32), no_boxes, np.zeros(0, np.float32)


@dataclass(frozen=True)
class _Classifier:
    rows: np.ndarray
    config: _Config = _Config()

    def read_boxes(
        self, rgb: np.ndarray, xyxy: np.ndarray, crops: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        return self.rows.astype(np.float32), np.zeros(len(self.rows), np.float32)


def test_the_reader_reports_each_tile_it_moved_to_make_the_win() -> None:
    rows = _probabilities(WIN)
    _unsure(rows, 13, "6p", 0.55, "5p", 0.4)
    boxes = np.array([[20 + 30 * i, 50, 46 + 30 * i, 86] for i in range(len(WIN))], np.float32)
    reader = TileReader(detector=_Detector(boxes), classifier=_Classifier(rows))  # type: ignore[arg-type]
    reading = reader.read(np.zeros((140, 480, 3), np.uint8))
    assert reading.detections.codes == WIN and reading.win_moved == (13,)
    assert reading.class_prob[13] == pytest.approx(0.4)
    (line,) = [said.text for said in reading.lines if said.about == WIN_MOVED]
    assert [w for w in reading.warnings if "winning hand" in w] == [line]
    assert line.startswith("tile at (") and "read as 5p (0.40), not 6p (0.55)" in line
    assert not any("a set has" in w for w in reading.warnings)
    kept = replace(reader, complete_wins=False).read(np.zeros((140, 480, 3), np.uint8))
    assert kept.detections.codes[13] == "6p" and kept.win_moved == ()


@pytest.mark.parametrize(
    ("concealed", "sets", "expected"),
    [
        ("", 0, False),  # no pair
        ("55p", 0, True),  # four melds declared: the pair alone
        ("123m 55p", 1, True),
        ("1111m 55p", 1, True),  # a kong kept in the hand is a set of four
        ("123m 55p", 2, False),  # too few tiles for two sets
        ("11m 13m 33m", 1, False),  # 1m 1m 1m 3m 3m 3m would need another pair
        ("111m 333m 22m", 2, True),
        ("11m 22m 33m 44m 55m 66m 77m", 4, True),  # 123m 123m 456m 456m 77m
        ("11m 99m 11p 99p EE SS WW", 4, False),  # seven pairs, but no four sets and a pair
        ("123m 55p", -1, False),
        ("11111m 55p", 1, False),  # a fifth copy
        ("123m 5p fly", 1, True),  # a fly is wild in the pair ...
        ("111m 2m fly", 1, True),  # ... and in a set
        ("1111m fly", 1, False),  # but never a fifth copy of a tile
        ("fly fly", 0, True),
        ("123m 456m 789m 123p 5p fly", 4, True),
    ],
)
def test_sets_and_pair(concealed: str, sets: int, expected: bool) -> None:
    assert sets_and_pair(parse_hand_string(concealed), sets) is expected


def _layout_of(placed_boxes: np.ndarray) -> Callable[[np.ndarray], Layout]:
    """The layout a reader would make of tiles at `placed_boxes` read as each class."""

    def layout_of(class_id: np.ndarray) -> Layout:
        ones = np.ones(len(class_id), np.float32)
        return layout_hand(Detections(placed_boxes.astype(np.float32), ones, np.asarray(class_id, np.int64)))

    return layout_of


def _table(*parts: Placed) -> tuple[list[str], np.ndarray]:
    codes = [code for part in parts for code in part.codes]
    boxes = np.concatenate([part.detections().xyxy for part in parts])
    return codes, boxes


HAND_TABLE = [["1m 2m 3m 4p 5p 6p 7s 8s 9s E E"], ["C C C"]]
BLIND_KONG_TABLE = [["E E"], ["1m 2m 3m", "P P P", "back back back back", "7s 7s 7s"]]
FAR = (1000.0, 800.0)


@pytest.mark.parametrize(
    "elsewhere",
    [
        pytest.param([["3s", "N", "9m 5p"]], id="loose-tiles"),
        pytest.param([["back back back back back back"]], id="a-wall-of-backs"),
    ],
)
@pytest.mark.parametrize("angle", [0.0, 90.0, 37.0])
def test_tiles_lying_elsewhere_neither_block_the_fix_nor_count_in_it(
    elsewhere: list[list[str]], angle: float
) -> None:
    codes, boxes = _table(
        place(HAND_TABLE, angle, centre=(400.0, 300.0)), place(elsewhere, angle + 90, gap=1.5, centre=FAR)
    )
    east = codes.index("E")  # the pair's first tile, read as W
    rows = _probabilities(codes)
    _unsure(rows, east, "W", 0.55, "E", 0.4)
    read = rows.argmax(axis=1)
    # All tiles of the photo taken for the hand: the tiles elsewhere make a win impossible (or a
    # face-down one leaves the photo alone).
    assert complete_to_win(rows, read).moved == ()
    fix = complete_to_win(rows, read, _layout_of(boxes))
    assert fix.moved == (east,) and CLASSES[fix.class_id[east]] == "E"


def test_a_concealed_kong_of_four_backs_counts_as_a_set() -> None:
    codes, boxes = _table(place(BLIND_KONG_TABLE))
    rows = _probabilities(codes)
    _unsure(rows, 1, "S", 0.55, "E", 0.4)
    fix = complete_to_win(rows, rows.argmax(axis=1), _layout_of(boxes))
    assert fix.moved == (1,)
    assert layout_completes(_layout_of(boxes)(fix.class_id)) is True


def test_a_fix_that_wins_only_with_the_melds_taken_apart_is_not_taken() -> None:
    # Declared: chow 1m 2m 3m, pongs of E and S. With the hand's 9m read as 3m, the tiles together
    # are 111m 22m 333m EEE SSS, a win; as laid down, 1m 1m 2m 3m 3m is no set and pair.
    codes, boxes = _table(place([["1m 1m 2m 3m 9m"], ["1m 2m 3m", "E E E", "S S S"]]))
    rows = _probabilities(codes)
    _unsure(rows, 4, "9m", 0.55, "3m", 0.4)
    read = rows.argmax(axis=1)
    assert complete_to_win(rows, read).moved == (4,)  # every tile taken for the hand
    assert complete_to_win(rows, read, _layout_of(boxes)).moved == ()


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        pytest.param(HAND_TABLE, True, id="a-win"),
        pytest.param([["1m 2m 3m 4p 5p 6p 7s 8s 9s E W"], ["C C C"]], False, id="no-pair"),
        pytest.param(
            [["E E"], ["1m 2m 3m", "P P P", "back back back back", "7s 7s 7s"]], True, id="blind-kong"
        ),
        pytest.param([["1m 2m 3m 4p 5p 6p 7s 8s 9s E fly"], ["C C C"]], True, id="a-fly-in-the-pair"),
        pytest.param([["1m 2m 3m 4p 5p 6p 7s 8s 9s E fly"], ["C C W"]], False, id="a-fly-and-no-meld"),
        pytest.param([["1p 2p 3p 4p 5p 6p 7p 8p 9p E E"], ["C C fly"]], True, id="a-fly-in-a-meld"),
        pytest.param([["1m 1m 2m 2m 3m 3m 5p 5p 6p 6p E E C C"]], True, id="seven-pairs"),
        pytest.param([["1m 1m 2m 2m 3m 3m"], ["E E E", "C C C"]], False, id="no-seven-pairs-with-melds"),
    ],
)
def test_layout_completes(table: list[list[str]], expected: bool | None) -> None:
    codes, boxes = _table(place(table))
    assert layout_completes(_layout_of(boxes)(np.array([CLASS_INDEX[c] for c in codes]))) is expected


def test_fixes_about_as_likely_are_offered_not_taken() -> None:
    # 5p 7p: either could be the other's pair
    codes, boxes = _table(place([["1m 2m 3m 4p 5p 6p 7s 8s 9s 5p 7p"], ["C C C"]]))
    rows = _probabilities(codes)
    _unsure(rows, 9, "5p", 0.5, "7p", 0.4)
    _unsure(rows, 10, "7p", 0.5, "5p", 0.4)
    read = rows.argmax(axis=1)
    fix = complete_to_win(rows, read, _layout_of(boxes))
    assert fix.moved == () and (fix.class_id == read).all()
    five, seven = CLASS_INDEX["5p"], CLASS_INDEX["7p"]
    assert sorted(fix.rivals) == [((9, seven),), ((10, five),)]
    _unsure(rows, 10, "7p", 0.5, "5p", 0.06)  # now one fix is clearly likelier: taken, none offered
    clear = complete_to_win(rows, read, _layout_of(boxes))
    assert clear.moved == (9,) and clear.rivals == ()


def test_a_face_down_tile_among_the_concealed_ones_leaves_the_win_untold() -> None:
    codes = ("1m", "2m", "3m", "back", "E")
    concealed = TileGroup("concealed", None, True, tuple(range(5)), codes, (0.0, 0.0, 150.0, 40.0))
    assert layout_completes(Layout(groups=(concealed,))) is None


def test_a_fly_in_the_hand_is_wild_in_the_check() -> None:
    # 7s 8s fly and E W: no win with the fly as any tile; with W's runner-up E, the fly makes 7s 8s a chow
    codes, boxes = _table(place([["1m 2m 3m 4p 5p 6p 7s 8s fly E E"], ["C C C"]]))
    rows = _probabilities(codes)
    _unsure(rows, 10, "W", 0.55, "E", 0.4)
    fix = complete_to_win(rows, rows.argmax(axis=1), _layout_of(boxes))
    assert fix.moved == (10,) and CLASSES[fix.class_id[10]] == "E"


@settings(max_examples=60, deadline=None)
@given(case=near_wins(), angle=st.sampled_from([0.0, 90.0, 180.0, 23.0]))
def test_a_fix_of_the_hand_as_laid_out_is_a_win_as_laid_out(
    case: tuple[list[str], np.ndarray], angle: float
) -> None:
    hand, rows = case
    _, boxes = _table(place([[" ".join(hand)]], angle))  # one row, no gaps: all concealed
    layout_of = _layout_of(boxes)
    read = rows.argmax(axis=1)
    fix = complete_to_win(rows, read, layout_of)
    changed = tuple(int(i) for i in np.flatnonzero(fix.class_id != read))
    assert changed == tuple(sorted(fix.moved)) and len(changed) <= MAX_MOVES
    if changed:
        assert layout_completes(layout_of(fix.class_id)) is True
        assert layout_completes(layout_of(read)) is False
    if layout_completes(layout_of(read)):
        assert fix.moved == ()


def test_the_reader_offers_ways_to_a_win_about_as_likely_and_moves_none() -> None:
    codes = parse_hand_string("123m 456p 789s CCC 5p 7p")  # one row: the 5p 7p could pair either way
    rows = _probabilities(codes)
    _unsure(rows, 12, "5p", 0.5, "7p", 0.4)
    _unsure(rows, 13, "7p", 0.5, "5p", 0.4)
    boxes = np.array([[20 + 30 * i, 50, 46 + 30 * i, 86] for i in range(len(codes))], np.float32)
    reader = TileReader(detector=_Detector(boxes), classifier=_Classifier(rows))  # type: ignore[arg-type]
    reading = reader.read(np.zeros((140, 480, 3), np.uint8))
    assert reading.detections.codes == codes and reading.win_moved == ()
    assert sorted(reading.win_options) == [((12, CLASS_INDEX["7p"]),), ((13, CLASS_INDEX["5p"]),)]
    (line,) = [said.text for said in reading.lines if said.about == WIN_WAYS]
    assert [w for w in reading.warnings if "about as likely" in w] == [line]
    assert "tile at (" in line and " as 7p; or tile at (" in line and line.endswith(" as 5p")
    assert replace(reader, complete_wins=False).read(np.zeros((140, 480, 3), np.uint8)).win_options == ()
