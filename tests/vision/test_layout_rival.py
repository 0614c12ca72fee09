"""A meld laid at one end of the concealed row, a little apart: the layout reads it one way and asks
about the other (`Layout.rival`, `vision.layout_read.end_meld_rival`)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.layout_sim import place
from vision.layout import Layout, layout_hand
from vision.layout_melds import read_meld
from vision.lines import MELD_RIVAL, texts

ANGLES = [0.0, 90.0, 180.0, 37.0, 301.0]
# sorted as a player holds them, so the winds' pong may close the concealed hand as well
SORTED_HAND = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E"
# a chow of bamboo after the dragons would leave the concealed hand unsorted
UNSORTED_HAND = "2m 3m 4m 5p 5p 5p 7s 8s 9s C C"


def laid_out(hand_row: str, meld: str, gap: float, angle: float) -> Layout:
    return layout_hand(place([[hand_row, f"+{gap} {meld}"]], angle_deg=angle).detections())


@pytest.mark.parametrize("angle", ANGLES)
def test_a_pong_a_little_apart_is_read_concealed_and_asked_about(angle: float) -> None:
    layout = laid_out(SORTED_HAND, "W W W", 0.26, angle)
    assert sorted(layout.hand["concealed"]) == sorted([*SORTED_HAND.split(), "W", "W", "W"])
    assert layout.hand["melds"] == []
    assert layout.rival is not None and layout.rival.laid
    assert [(g.meld, g.codes) for g in layout.rival.melds] == [("pong", ("W", "W", "W"))]
    assert 0 < layout.rival.cost <= 0.3
    assert layout.warnings[-1] == (
        "W W W (pong) at one end of the hand lies a little apart from it: read as concealed; if it was "
        "laid down as exposed, set its group to a meld"
    )
    # said to be about the melds read either way, for a UI that says it by its button (not by its words)
    assert [line.about for line in layout.lines] == [None] * (len(layout.lines) - 1) + [MELD_RIVAL]
    assert texts(layout.lines) == layout.warnings


@pytest.mark.parametrize("angle", ANGLES)
def test_a_chow_close_to_an_unsorted_end_is_read_exposed_and_asked_about(angle: float) -> None:
    layout = laid_out(UNSORTED_HAND, "6s 7s 8s", 0.12, angle)
    assert sorted(layout.hand["concealed"]) == sorted(UNSORTED_HAND.split())
    assert [(m["kind"], sorted(m["tiles"]), m["concealed"]) for m in layout.hand["melds"]] == [
        ("chow", ["6s", "7s", "8s"], False)
    ]
    assert layout.rival is not None and not layout.rival.laid
    assert [(g.meld, sorted(g.codes)) for g in layout.rival.melds] == [("chow", ["6s", "7s", "8s"])]
    assert "close to one end of the hand: read as exposed" in layout.warnings[-1]


@pytest.mark.parametrize("angle", ANGLES)
@pytest.mark.parametrize("gap", [0.05, 0.7])
def test_no_question_where_the_gap_settles_it(gap: float, angle: float) -> None:
    """Touching, the row is one concealed hand; 0.7 of a tile apart, the pong is laid down."""
    layout = laid_out(SORTED_HAND, "W W W", gap, angle)
    assert layout.rival is None
    assert len(layout.hand["melds"]) == (1 if gap > 0.5 else 0)
    assert not any("end of the hand" in w for w in layout.warnings)


def test_a_hand_with_its_melds_on_their_own_row_is_not_asked_about() -> None:
    layout = layout_hand(place([[SORTED_HAND], ["W W W"]]).detections())
    assert layout.rival is None
    assert len(layout.hand["melds"]) == 1


def test_the_question_travels_in_the_json() -> None:
    layout = laid_out(SORTED_HAND, "W W W", 0.26, 0.0)
    data = json.loads(json.dumps(layout.to_json()))
    assert data["rival"]["laid"] is True
    assert [m["codes"] for m in data["rival"]["melds"]] == [["W", "W", "W"]]
    assert all(len(m["indices"]) == 3 for m in data["rival"]["melds"])
    assert "rival" not in laid_out(SORTED_HAND, "W W W", 0.7, 0.0).to_json()


@settings(max_examples=60, deadline=None)
@given(
    gap=st.floats(0.0, 1.0),
    angle=st.floats(0.0, 360.0),
    case=st.sampled_from([(SORTED_HAND, "W W W"), (UNSORTED_HAND, "6s 7s 8s"), (SORTED_HAND, "E E E E")]),
)
def test_the_other_reading_moves_whole_melds_and_keeps_the_hand_whole(
    gap: float, angle: float, case: tuple[str, str]
) -> None:
    """Whatever the gap, a rival moves only melds the layout's hand holds (concealed when it would lay
    them out, exposed when it would take them in), and the hand keeps its 14 tiles either way."""
    hand_row, meld = case
    layout = laid_out(hand_row, meld, gap, angle)
    if layout.rival is None:
        return
    placed = {g.kind: g for g in layout.groups}
    for group in layout.rival.melds:
        assert group.meld is not None and read_meld(list(group.codes)) is not None
        if layout.rival.laid:
            assert set(group.indices) <= set(placed["concealed"].indices)
        else:
            assert any(g.kind == "meld" and g.indices == group.indices for g in layout.groups)
    moved = sum(len(g.indices) for g in layout.rival.melds)
    concealed_then = len(layout.hand["concealed"]) + (-moved if layout.rival.laid else moved)
    melds_then = len(layout.hand["melds"]) + (len(layout.rival.melds) * (1 if layout.rival.laid else -1))
    assert concealed_then + 3 * melds_then == 14
