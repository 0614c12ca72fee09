"""Which unsure tiles decide the score: each read as its runner-up, the hand scored again."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from decimal import Decimal

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from app_ui.case import BONUS, HAND, IGNORE, Context, TileRow
from app_ui.hand_view import check_line, photo_alt, photo_caption, runner_ups
from app_ui.photo_rows import unsure_tiles
from app_ui.result_panel import _stakes_kept, rows_scorer, stakes_of
from app_ui.unsure_stakes import (
    Scored,
    ScoreRows,
    Stake,
    fits_where_it_lies,
    score_span,
    stakes_line,
    units_words,
    unsure_stakes,
)
from app_ui.winning_hint import Outcome
from tests.app.fakes import FakeReader, photo_bytes, scene
from vision.classes import CLASS_INDEX, CLASSES

SINGAPORE = frozenset(CLASSES) - {"face", "fly", "none"}
SURE, UNSURE = 0.95, 0.3
CODES = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "2m", "C", "C", "C", "F1"]
GROUPS = [HAND] * 11 + ["meld 1"] * 3 + [BONUS]


def hand_rows(low: dict[int, str]) -> list[TileRow]:
    """123m 456p 789s 22m concealed, CCC as meld 1, F1 in the bonus row; `low`: row index -> runner-up
    of a tile read unsurely."""
    return [
        TileRow(code, group, UNSURE if k in low else SURE, alternative=low.get(k), number=k + 1)
        for k, (code, group) in enumerate(zip(CODES, GROUPS, strict=True))
    ]


def context(winning_tile: str | None = "2m") -> Context:
    return Context(seat_wind="E", prevailing_wind="E", winning_tile=winning_tile, discarder_wind="S")


def scorer(winning_tile: str | None = "2m", concealed: bool = False) -> ScoreRows:
    return rows_scorer({"meld 1": concealed}, context(winning_tile), "singapore", {})


def weighed(rows: list[TileRow], winning_tile: str | None = "2m") -> tuple[str, list[Stake]]:
    """The hand's score in a few words and its unsure tiles' stakes."""
    score_rows = scorer(winning_tile)
    now: Scored | None = score_rows(rows)
    assert now is not None
    return score_span(*now), unsure_stakes(rows, SINGAPORE, now, score_rows)


def test_a_bonus_tile_whose_runner_up_is_another_seat_s_flower_decides_the_score() -> None:
    now, stakes = weighed(hand_rows({14: "F2"}))
    assert now == "**2 tai**"  # dragon pong 1 + East's own flower 1
    assert stakes == [Stake(15, "F1", "F2", "**2 tai**", "**1 tai**")]
    assert stakes_line(stakes, now) == "Tile 15 decides the score: as F1, **2 tai**; as F2, **1 tai**."


def test_runners_up_that_leave_the_score_are_said_to_leave_it() -> None:
    # 1m as 4m: 234m is still a chow; 9s as 6s: 6s 7s 8s is too (pair 2m, win on 2m)
    now, stakes = weighed(hand_rows({0: "4m", 8: "6s"}))
    assert [(s.number, s.leaves_it) for s in stakes] == [(1, True), (9, True)]
    assert (
        stakes_line(stakes, now)
        == "Tiles 1 and 9 read as their runners-up leave the score as it is (**2 tai**)."
    )


def test_a_runner_up_that_breaks_the_win_is_named_after_those_that_change_the_score() -> None:
    now, stakes = weighed(hand_rows({0: "4m", 6: "C", 14: "F2"}))  # 7s as C: 8s 9s make no set
    assert [(s.number, s.then) for s in stakes] == [
        (1, "**2 tai**"),
        (7, "not a valid win"),
        (15, "**1 tai**"),
    ]
    assert stakes_line(stakes, now) == (
        "Tile 15 decides the score: as F1, **2 tai**; as F2, **1 tai**. "
        "Tile 7 read as its runner-up would make the hand no valid win. "
        "Tile 1 read as its runner-up leaves the score as it is."
    )


def test_of_a_hand_that_is_no_win_only_the_tiles_that_would_make_it_one_are_named() -> None:
    rows = hand_rows({6: "C"})
    rows[9] = TileRow("5m", HAND, UNSURE, alternative="2m", number=10)  # 2m of the pair read 5m
    now, stakes = weighed(rows)
    assert now == "not a valid win"
    assert stakes_line(stakes, now) == "Tile 10 decides the score: as 5m, not a valid win; as 2m, **2 tai**."


def test_with_no_winning_tile_set_every_tile_that_may_have_won_is_weighed() -> None:
    # 22m 3m waits on 2m (a pair wait) or 3m ... : the score by the winning tile, read either way
    rows = hand_rows({14: "F2"})
    now, stakes = weighed(rows, winning_tile=None)
    assert now == score_span(*(scorer(None)(rows) or ({}, [])))
    assert [s.number for s in stakes] == [15]
    assert stakes[0].now == now and stakes[0].then != now and "tai" in stakes[0].then


def test_a_runner_up_that_changes_only_the_instant_payouts_says_so() -> None:
    # cat and rat pay 2 units from each player at once; the cat read as a rooster pays nothing
    rows = [*hand_rows({}), TileRow("cat", BONUS, UNSURE, alternative="rooster", number=16)]
    rows.append(TileRow("rat", BONUS, SURE, number=17))
    now, stakes = weighed(rows)
    assert len(stakes) == 1 and stakes[0].changes_instant_payouts and not stakes[0].leaves_it
    assert stakes_line(stakes, now) == (
        "Tile 16 changes the instant payouts: as cat, 2 units from each player; as rooster, none."
    )


def test_a_no_win_whose_instant_payouts_move_is_not_said_to_be_made_no_win() -> None:
    # instant payouts are paid win or not: the cat read as a rooster changes them, not the win
    rows = [*hand_rows({6: "C"}), TileRow("cat", BONUS, UNSURE, alternative="rooster", number=16)]
    rows[6] = TileRow("C", HAND, SURE, number=7)  # 7s read C: 8s 9s make no set, no win either way
    rows.append(TileRow("rat", BONUS, SURE, number=17))
    now, stakes = weighed(rows)
    assert now == "not a valid win" and [s.number for s in stakes] == [16]
    line = stakes_line(stakes, now)
    assert line == "Tile 16 changes the instant payouts: as cat, 2 units from each player; as rooster, none."


def test_a_runner_up_that_moves_which_winning_tile_scores_what_is_not_said_to_leave_the_score() -> None:
    # an audit: 123m read 234m gives the same span of scores by the winning tile, won on other tiles
    now, stakes = weighed(hand_rows({0: "4m"}), winning_tile=None)
    assert [s.number for s in stakes] == [1] and stakes[0].changes_the_ways and not stakes[0].leaves_it
    assert stakes_line(stakes, now) == (
        "Tile 1 read as its runner-up would change which winning tile scores what: set the winning tile to "
        "weigh it."
    )


def test_instant_payout_units_in_words() -> None:
    assert [units_words(Decimal(n)) for n in ("0", "1", "2", "0.5")] == [
        "none",
        "1 unit",
        "2 units",
        "0.5 units",
    ]


def test_a_runner_up_the_set_holds_no_more_copies_of_is_not_tried() -> None:
    rows = [*hand_rows({14: "F2"}), TileRow("F2", BONUS, SURE, number=16)]  # a second F2 is no reading
    assert weighed(rows)[1] == []


def test_a_fifth_copy_beside_a_concealed_kong_s_backs_is_no_reading() -> None:
    # a review: back 5m 5m back lies as a concealed kong, so an unsure 6m read as 5m is a fifth 5m
    hand = ["1p", "2p", "3p", "4p", "5p", "6p", "C", "C", "C", "6m", "6m"]
    rows = [TileRow(code, HAND, SURE, number=k + 1) for k, code in enumerate(hand)]
    rows[10] = TileRow("6m", HAND, UNSURE, alternative="5m", number=11)
    rows += [
        TileRow(code, "meld 1", SURE, number=12 + k) for k, code in enumerate(["back", "5m", "5m", "back"])
    ]
    score_rows = rows_scorer({"meld 1": True}, context("6m"), "singapore", {})
    now = score_rows(rows)
    assert now is not None and now[0]["valid"]
    assert unsure_stakes(rows, SINGAPORE, now, score_rows) == []


def test_runners_up_that_cannot_lie_where_the_tile_lies_or_are_outside_the_set_are_not_tried() -> None:
    rows = hand_rows({3: "F2", 14: "1s", 12: "fly"})  # a flower in the hand, 1s in the bonus row, no fly
    now, stakes = weighed(rows)
    assert stakes == [] and stakes_line(stakes, now) == ""


def test_a_tile_set_aside_or_sure_or_the_winning_tile_s_last_copy_is_not_tried() -> None:
    rows = hand_rows({})
    rows[14] = TileRow("F1", IGNORE, UNSURE, alternative="F2", number=15)  # not part of the hand
    rows[4] = TileRow("5p", HAND, SURE, alternative="6p", number=5)  # sure: its runner-up is no doubt
    rows[6] = TileRow("7s", HAND, UNSURE, alternative="6s", number=7)  # the only 7s, the winning tile
    assert weighed(rows, "7s")[1] == []


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


def test_the_page_s_reruns_weigh_a_table_once_and_a_renumbered_table_again() -> None:
    rows = hand_rows({14: "F2"})
    _stakes_kept.cache_clear()
    first = stakes_of(rows, {"meld 1": False}, context(), "singapore", {}, SINGAPORE)
    again = stakes_of(rows, {"meld 1": False}, context(), "singapore", {}, SINGAPORE)
    assert first == again and first is not None and _stakes_kept.cache_info().hits == 1
    renumbered = [*rows[:-1], TileRow("F1", BONUS, UNSURE, alternative="F2", number=20)]
    moved = stakes_of(renumbered, {"meld 1": False}, context(), "singapore", {}, SINGAPORE)
    assert moved is not None and [s.number for s in moved[1]] == [20]  # numbers are no part of equality
    assert stakes_of(hand_rows({}), {"meld 1": False}, context(), "singapore", {}, SINGAPORE) is None


def test_the_rows_as_the_page_scored_them_are_not_scored_again_for_the_stakes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app_ui import result_panel

    rows = hand_rows({14: "F2"})
    now = scorer()(rows)
    calls: list[object] = []
    scored = result_panel.score_case

    def counted(*args: object) -> object:
        calls.append(args)
        return scored(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(result_panel, "score_case", counted)
    _stakes_kept.cache_clear()
    alone = stakes_of(rows, {"meld 1": False}, context(), "singapore", {}, SINGAPORE)
    by_itself = len(calls)
    _stakes_kept.cache_clear()
    given = stakes_of(rows, {"meld 1": False}, context(), "singapore", {}, SINGAPORE, now)
    assert given == alone and given is not None
    # only the one runner-up (F2) is scored: the rows as they are were given
    assert (by_itself, len(calls) - by_itself) == (2, 1)


def read_with_doubts(
    app: AppTest, install: Callable[[FakeReader | None], None], doubts: dict[int, tuple[str, str]]
) -> None:
    """The scene's photo uploaded and read, each tile of `doubts` (by detection index) unsure between its
    first and second face, 0.55 to 0.45."""
    odds = np.zeros((15, len(CLASSES)), np.float32)
    for k, code in enumerate(CODES):
        odds[k, CLASS_INDEX[code]] = 1.0
    for k, (first, second) in doubts.items():
        odds[k, CLASS_INDEX[first]], odds[k, CLASS_INDEX[second]] = 0.55, 0.45
    install(FakeReader({90: scene(low=list(doubts))}, probabilities=odds))
    app.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    app.run()


def test_the_page_names_the_unsure_tile_that_decides_the_score(
    app: AppTest, install: Callable[[FakeReader | None], None]
) -> None:
    read_with_doubts(app, install, {14: ("F1", "F2")})
    assert not app.exception
    app.selectbox(key="winning_tile").set_value("2m").run()
    line = next(w.value for w in app.warning if "the reader is unsure" in w.value)
    assert line == (
        "Please check tile 15 (F1 or F2?): the reader is unsure. Tap its second guess below or fix it in "
        "Check the tiles. "
        "Tile 15 decides the score: as F1, **2 tai**; as F2, **1 tai**."
    )
    # corrected, the tile is checked: no doubt is left to weigh
    app.session_state[f"tiles_{app.session_state['version']}"] = {
        "edited_rows": {"14": {"tile": "F2"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    app.run()
    assert not any("decides the score" in w.value for w in app.warning)


def test_an_unsure_tile_s_second_guess_is_taken_with_one_tap_and_undone(
    app: AppTest, install: Callable[[FakeReader | None], None]
) -> None:
    # stage 81 (an audit): on a phone, fixing an unsure tile took about six actions and three screens
    read_with_doubts(app, install, {14: ("F1", "F2")})
    version = app.session_state["version"]
    buttons = [b for b in app.button if b.key and b.key.startswith("runner_up_")]
    assert [(b.key, b.label) for b in buttons] == [(f"runner_up_{version}_15", "#15 as F2")]
    buttons[0].click().run()
    assert not app.exception
    assert app.session_state["base"].rows[14].code == "F2"
    assert not any("the reader is unsure" in w.value for w in app.warning)
    assert not [b for b in app.button if b.key and b.key.startswith("runner_up_")]
    corrections = app.session_state["case_json"]["corrections"]
    assert [(c["tile"], c["to"], c.get("by")) for c in corrections] == [(15, "F2", "runner-up")]
    said = [c.value for c in app.caption if c.value.startswith("Your corrections")]
    assert said == ["Your corrections: #15 F1 → F2 (the reader's second guess, taken)"], said
    app.button(key="undo").click().run()
    assert app.session_state["base"].rows[14].code == "F1"
    assert any("the reader is unsure" in w.value for w in app.warning)


def test_two_unsure_tiles_offer_a_runner_up_each_while_the_set_has_a_copy_left(
    app: AppTest, install: Callable[[FakeReader | None], None]
) -> None:
    # #1 1m and #4 4p unsure, each with 2m its runner-up, three 2m held: one more 2m fits, not two (a
    # review, stage 81: two taps made a fifth 2m)
    read_with_doubts(app, install, {0: ("1m", "2m"), 3: ("4p", "2m")})
    line = next(w.value for w in app.warning if "the reader is unsure" in w.value)
    assert line.startswith(
        "Please check tiles 1 (1m or 2m?), 4 (4p or 2m?): the reader is unsure. Tap a second guess below or "
        "fix them in Check the tiles."
    ), line
    labels = [b.label for b in app.button if b.key and b.key.startswith("runner_up_")]
    assert labels == ["#1 as 2m", "#4 as 2m"]
    next(b for b in app.button if b.label == "#1 as 2m").click().run()
    assert not app.exception
    assert not [b for b in app.button if b.key and b.key.startswith("runner_up_")]  # no fifth 2m offered


def test_the_line_names_the_tiles_a_second_guess_is_offered_for_where_not_all_have_one(
    app: AppTest, install: Callable[[FakeReader | None], None]
) -> None:
    # an audit (stage 87): six unsure tiles, one button, and the line said "tap a second guess below";
    # #5's runner-up F1 is held already (the set has one), so only #15's is offered
    read_with_doubts(app, install, {4: ("5p", "F1"), 14: ("F1", "F2")})
    line = next(w.value for w in app.warning if "the reader is unsure" in w.value)
    assert line.startswith(
        "Please check tiles 5 (5p or F1?), 15 (F1 or F2?): the reader is unsure. Tap tile 15's second guess "
        "below or fix them in Check the tiles."
    ), line
    assert [b.label for b in app.button if b.key and b.key.startswith("runner_up_")] == ["#15 as F2"]


@pytest.mark.parametrize(
    ("low", "offered", "fix"),
    [
        (["3"], [3], "Tap its second guess below or fix it"),
        (["3"], [], "Fix it"),
        (["3", "7"], [3, 7], "Tap a second guess below or fix them"),
        (["3", "7"], [], "Fix them"),
        (["3", "7", "9"], [9], "Tap tile 9's second guess below or fix them"),
        (["3", "7", "9"], [3, 9], "Tap a second guess below (tiles 3 and 9) or fix them"),
        (["1", "3", "7", "9"], [1, 3, 9], "Tap a second guess below (tiles 1, 3 and 9) or fix them"),
    ],
)
def test_the_check_line_offers_the_buttons_there_are(low: list[str], offered: list[int], fix: str) -> None:
    tiles = ("tiles " if len(low) > 1 else "tile ") + ", ".join(low)
    assert check_line(low, offered) == (
        f"Please check {tiles}: the reader is unsure. {fix} in Check the tiles."
    )


def test_an_unsure_tile_left_out_of_the_hand_is_not_asked_to_be_checked() -> None:
    # a walkthrough: a stray tile away from the hand ("not counted") was asked to be checked and its
    # second guess offered; taking it counted as a correction, so a rule-set switch read nothing again
    rows = hand_rows({1: "3m"})
    stray = TileRow("S", IGNORE, UNSURE, box=(0.0, 0.0, 9.0, 9.0), alternative="W", number=16)
    numbered = [(row.number, row) for row in [*rows, stray]]
    assert unsure_tiles(numbered, SINGAPORE) == ["2 (2m or 3m?)"]
    assert runner_ups([*rows, stray], SINGAPORE) == [(2, "3m")]
    assert not stray.to_check and rows[1].to_check
    assert photo_caption("hand.jpg", [stray], found=True) == "hand.jpg: numbers match the tile table."
    assert "unsure" not in photo_alt([stray], [16], {}, 0)
    # moved into the hand, it counts: it is asked again
    counted = dataclasses.replace(stray, group=HAND)
    assert unsure_tiles([(16, counted)], SINGAPORE) == ["16 (S or W?)"]
    assert "are unsure, please check them" in photo_caption("hand.jpg", [counted], found=True)
