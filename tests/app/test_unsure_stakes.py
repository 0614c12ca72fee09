"""Which unsure tiles decide the score: each read as its runner-up, the hand scored again."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from streamlit.testing.v1 import AppTest

from app_ui.case import BONUS, HAND, IGNORE, Context, TileRow
from app_ui.result_panel import rows_scorer
from app_ui.unsure_stakes import Stake, fits_where_it_lies, score_span, stakes_line, unsure_stakes
from app_ui.winning_hint import Outcome
from tests.app.fakes import FakeReader, photo_bytes, scene
from vision.classes import CLASS_INDEX, CLASSES

SINGAPORE = frozenset(CLASSES) - {"face", "fly", "none"}
SURE, UNSURE = 0.95, 0.3
CODES = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "2m", "C", "C", "C", "F1"]


def hand_rows(low: dict[int, str]) -> list[TileRow]:
    """123m 456p 789s 22m concealed, CCC as meld 1, F1 in the bonus row; `low`: row index -> runner-up
    of a tile read unsurely."""
    groups = [HAND] * 11 + ["meld 1"] * 3 + [BONUS]
    return [
        TileRow(code, group, UNSURE if k in low else SURE, alternative=low.get(k), number=k + 1)
        for k, (code, group) in enumerate(zip(CODES, groups, strict=True))
    ]


def scorer(winning_tile: str | None = "2m") -> Callable[[list[TileRow]], tuple[dict, list[Outcome]] | None]:
    context = Context(seat_wind="E", prevailing_wind="E", winning_tile=winning_tile, discarder_wind="S")
    return rows_scorer({"meld 1": False}, context, "singapore", {})


def now_of(rows: list[TileRow], winning_tile: str | None = "2m") -> str:
    scored = scorer(winning_tile)(rows)
    assert scored is not None
    return score_span(*scored)


def test_a_bonus_tile_whose_runner_up_is_another_seat_s_flower_decides_the_score() -> None:
    rows = hand_rows({14: "F2"})
    now = now_of(rows)
    assert now == "**2 tai**"  # dragon pong 1 + East's own flower 1
    deciding, leaving = unsure_stakes(rows, SINGAPORE, now, scorer())
    assert deciding == [Stake(15, "F1", "F2", "**1 tai**")] and leaving == []
    assert (
        stakes_line(deciding, leaving, now)
        == "Tile 15 decides the score: as F1, **2 tai**; as F2, **1 tai**."
    )


def test_runner_ups_that_leave_the_score_are_said_to_leave_it() -> None:
    # 1m as 4m: 234m is still a chow; 9s as 6s: 6s 7s 8s is too (pair 2m, win on 2m)
    rows = hand_rows({0: "4m", 8: "6s"})
    now = now_of(rows)
    deciding, leaving = unsure_stakes(rows, SINGAPORE, now, scorer())
    assert deciding == [] and [stake.number for stake in leaving] == [1, 9]
    assert stakes_line(deciding, leaving, now) == (
        "Tiles 1 and 9 read as their runner-ups leave the score as it is (**2 tai**)."
    )


def test_a_runner_up_that_breaks_the_win_is_named_after_those_that_change_the_score() -> None:
    rows = hand_rows({0: "4m", 6: "C", 14: "F2"})  # 7s as C: 8s 9s make no set
    now = now_of(rows)
    deciding, leaving = unsure_stakes(rows, SINGAPORE, now, scorer())
    assert [(s.number, s.then) for s in deciding] == [(7, "not a valid win"), (15, "**1 tai**")]
    assert [s.number for s in leaving] == [1]
    assert stakes_line(deciding, leaving, now) == (
        "Tile 15 decides the score: as F1, **2 tai**; as F2, **1 tai**. "
        "Tile 7 read as its runner-up would make it no win. "
        "Tile 1 read as its runner-up leaves the score as it is."
    )


def test_of_a_hand_that_is_no_win_only_the_tiles_that_would_make_it_one_are_named() -> None:
    rows = hand_rows({6: "C"})
    rows[9] = TileRow("5m", HAND, UNSURE, alternative="2m", number=10)  # 2m of the pair read 5m
    now = now_of(rows)
    assert now == "not a valid win"
    deciding, leaving = unsure_stakes(rows, SINGAPORE, now, scorer())
    assert [(s.number, s.then) for s in deciding] == [(10, "**2 tai**")]
    assert (
        stakes_line(deciding, leaving, now)
        == "Tile 10 decides the score: as 5m, not a valid win; as 2m, **2 tai**."
    )


def test_a_runner_up_the_set_holds_no_more_copies_of_is_not_tried() -> None:
    rows = hand_rows({14: "F2"})
    rows.append(TileRow("F2", BONUS, SURE, number=16))  # F2 read surely: a second F2 is no reading
    deciding, leaving = unsure_stakes(rows, SINGAPORE, now_of(rows), scorer())
    assert deciding == [] and leaving == []


def test_runner_ups_that_cannot_lie_where_the_tile_lies_or_are_outside_the_set_are_not_tried() -> None:
    rows = hand_rows({3: "F2", 14: "1s", 12: "fly"})  # a flower in the hand, 1s in the bonus row, no fly
    deciding, leaving = unsure_stakes(rows, SINGAPORE, now_of(rows), scorer())
    assert deciding == [] and leaving == []
    assert stakes_line(deciding, leaving, "**2 tai**") == ""


def test_a_tile_set_aside_or_sure_or_the_winning_tile_s_last_copy_is_not_tried() -> None:
    rows = hand_rows({})
    rows[14] = TileRow("F1", IGNORE, UNSURE, alternative="F2", number=15)  # not part of the hand
    rows[4] = TileRow("5p", HAND, SURE, alternative="6p", number=5)  # sure: its runner-up is no doubt
    rows[6] = TileRow("7s", HAND, UNSURE, alternative="6s", number=7)  # the only 7s, the winning tile
    deciding, leaving = unsure_stakes(rows, SINGAPORE, now_of(rows, "7s"), scorer("7s"))
    assert deciding == [] and leaving == []


def test_fits_where_it_lies() -> None:
    assert fits_where_it_lies("F2", BONUS) and fits_where_it_lies("cat", BONUS)
    assert not fits_where_it_lies("1s", BONUS) and not fits_where_it_lies("F2", HAND)
    assert fits_where_it_lies("5p", "meld 2") and fits_where_it_lies("fly", HAND)
    assert not fits_where_it_lies("back", HAND)


def test_score_span_without_a_winning_tile_gives_every_score_the_winning_tile_may_give() -> None:
    result = {"valid": False, "tai": 0}
    both = [Outcome(("3p",), True, 4), Outcome(("6p",), True, 2), Outcome(("9s",), False, 0)]
    assert score_span(result, both) == "no win or **2 to 4 tai** by the winning tile"
    assert score_span(result, both[:2]) == "**2 to 4 tai** by the winning tile"
    assert score_span({"valid": True, "tai": 2}, both[1:2]) == "**2 tai**"  # it changes nothing
    assert (
        score_span({"valid": True, "tai": 2}, [Outcome(("3p",), True, 4)]) == "**4 tai** by the winning tile"
    )


def test_the_page_names_the_unsure_tile_that_decides_the_score(
    app: AppTest, install: Callable[[FakeReader | None], None]
) -> None:
    odds = np.zeros((15, len(CLASSES)), np.float32)
    for k, code in enumerate(CODES):
        odds[k, CLASS_INDEX[code]] = 1.0
    odds[14, CLASS_INDEX["F1"]], odds[14, CLASS_INDEX["F2"]] = 0.55, 0.45
    install(FakeReader({90: scene(low=[14])}, probabilities=odds))
    app.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    app.run()
    assert not app.exception
    line = next(w.value for w in app.warning if "the reader is unsure" in w.value)
    assert line.startswith("Please check tile 15 (F1 or F2?): the reader is unsure.")
    assert "Tile 15 decides the score: as F1, " in line and "as F2, " in line
    # corrected, the tile is checked: no doubt is left to weigh
    app.session_state[f"tiles_{app.session_state['version']}"] = {
        "edited_rows": {"14": {"tile": "F2"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    app.run()
    assert not any("decides the score" in w.value for w in app.warning)
