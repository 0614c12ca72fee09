"""*Undo the last tile change* survives a reload: the steps kept beside the case (`kept_case.UNDO`) as plain
JSON (`app_ui.undo_kept.steps_json`), read back exactly, and brought back for the case reopened alone."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from app_ui import kept_case, table_edits
from app_ui.case import GROUPS, TILE_CODES, AsRead, Base, MeldOffer, TableState, TileRow
from app_ui.undo import UNDO_AT_MOST
from app_ui.undo_kept import (
    STEPS_FORMAT,
    case_record,
    steps_for_case,
    steps_from_json,
    steps_json,
)
from tests.app.conftest import APP, pressable
from tests.app.fakes import FakeReader, photo_bytes
from tests.app.test_kept_case import photo_with_a_correction, reloaded, typed
from tests.app.test_kept_state import AS_DOTS

Install = Callable[[FakeReader | None], None]


def round_trip(steps: list[TableState]) -> list[TableState]:
    """The steps written to the page's file and read back, as a reload reads them."""
    return steps_from_json(json.loads(json.dumps(steps_json(steps))))


# --- the steps as plain JSON ----------------------------------------------------------------------

finite = st.floats(allow_nan=False, allow_infinity=False)
text = st.text(max_size=8)
codes = st.sampled_from(TILE_CODES)
plain = st.recursive(
    st.none() | st.booleans() | st.integers() | finite | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=8,
)
rows = st.builds(
    TileRow,
    code=codes,
    group=st.sampled_from(GROUPS),
    confidence=st.none() | finite,
    box=st.none() | st.tuples(finite, finite, finite, finite),
    alternative=st.none() | codes,
    number=st.none() | st.integers(1, 200),
)
ticks = st.dictionaries(text, st.booleans(), max_size=3)
bases = st.builds(
    Base,
    rows=st.lists(rows, max_size=5).map(tuple),
    source=st.sampled_from(["photo", "typed", "case", "none"]),
    name=text,
    sha256=text,
    size=st.none() | st.tuples(st.integers(1, 9000), st.integers(1, 9000)),
    meld_concealed=ticks,
    layout_hand=st.none() | st.dictionaries(text, plain, max_size=3),
    warnings=st.lists(text, max_size=2).map(tuple),
    timings=st.dictionaries(text, finite, max_size=2),
    win_ways=st.lists(st.lists(st.tuples(st.integers(1, 30), codes), max_size=2).map(tuple), max_size=2).map(
        tuple
    ),
    as_read=st.none() | st.builds(AsRead, st.lists(rows, max_size=3).map(tuple), ticks),
    earlier=st.lists(st.dictionaries(text, plain, max_size=3), max_size=2).map(tuple),
    ways_closed=st.booleans(),
    history=st.none() | st.dictionaries(text, plain, max_size=3),
    restored=st.booleans(),
    read_as=text,
    meld_offer=st.none()
    | st.builds(
        MeldOffer,
        st.booleans(),
        st.lists(st.lists(st.integers(1, 30), max_size=3).map(tuple), max_size=2).map(tuple),
        st.lists(text, max_size=2).map(tuple),
        text,
    ),
    numbered_up_to=st.integers(0, 200),
    recalled=st.lists(st.integers(1, 30), max_size=3).map(tuple),
)
cells = st.none() | st.booleans() | st.integers() | finite | text
edits = st.fixed_dictionaries(
    {
        # the data editor keys its rows by int; a page that sent them through JSON, by text
        "edited_rows": st.dictionaries(
            st.integers(0, 30) | st.integers(0, 30).map(str),
            st.dictionaries(text, cells, max_size=2),
            max_size=3,
        ),
        "added_rows": st.lists(st.dictionaries(text, cells, max_size=2), max_size=2),
        "deleted_rows": st.lists(st.integers(0, 30), max_size=3),
    }
)
states = st.builds(TableState, bases, edits, ticks, st.none() | st.tuples(codes, st.none() | codes))


def numbers(steps: list[TableState]) -> list[list[int | None]]:
    """Each step's tile numbers, which rows compare without (`TileRow.number`)."""
    return [
        [row.number for row in (*s.base.rows, *(s.base.as_read.rows if s.base.as_read else ()))]
        for s in steps
    ]


@settings(max_examples=150, deadline=None)
@given(st.lists(states, max_size=4))
def test_steps_round_trip_through_the_page_s_file_exactly(steps: list[TableState]) -> None:
    back = round_trip(steps)
    assert back == steps and numbers(back) == numbers(steps)
    assert [type(k) for s in back for k in s.edits["edited_rows"]] == [
        type(k) for s in steps for k in s.edits["edited_rows"]
    ]


def test_a_base_the_steps_share_is_written_once_and_the_models_view_never() -> None:
    base = Base(
        rows=(TileRow("1m", confidence=0.5, box=(1.0, 2.0, 3.0, 4.0)),), source="photo", seen=object()
    )
    steps = [TableState(base, {"edited_rows": {0: {"tile": f"{n}m"}}}, {}) for n in range(2, 9)]
    data = steps_json(steps)
    assert len(data["bases"]) == 1 and len(data["steps"]) == 7
    assert round_trip(steps) == steps and round_trip(steps)[0].base.seen is None


def test_every_field_of_a_base_is_kept_but_what_the_models_saw() -> None:
    # a field added to Base must be written for a reload, or said here not to be
    written = set(steps_json([TableState(Base(), {}, {})])["bases"][0])
    every = Base(
        rows=(TileRow("1m"),),
        name="a",
        sha256="b",
        size=(1, 2),
        meld_concealed={"meld 1": True},
        layout_hand={},
        warnings=("w",),
        timings={"t": 1.0},
        win_ways=(((1, "2m"),),),
        as_read=AsRead(()),
        earlier=({},),
        ways_closed=True,
        history={},
        restored=True,
        read_as="singapore",
        meld_offer=MeldOffer(True, (), ()),
        numbered_up_to=7,
        recalled=(3, 5),
    )
    written |= set(steps_json([TableState(every, {}, {})])["bases"][0])
    assert written == {f.name for f in dataclasses.fields(Base)} - {"seen"}


def test_a_step_holding_what_json_would_change_is_left_out_with_the_older_ones() -> None:
    plain_step = TableState(Base(rows=(TileRow("1m"),), source="typed"), {}, {})
    # a tuple would come back a list: not the step it was
    odd = TableState(Base(rows=(TileRow("2m"),), source="typed", earlier=({"tile": (1, 2)},)), {}, {})
    assert round_trip([plain_step, odd, plain_step]) == [plain_step]


ROWS: list[Any] = [{"code": "1m", "group": "hand"}]
GOOD_BASE: dict[str, Any] = {"rows": [0], "source": "typed"}
GOOD_STEP: dict[str, Any] = {"base": 0, "edits": {}, "ticks": {}}


def stored(bases: object, steps: object, rows: object = ROWS, **more: Any) -> dict[str, Any]:
    return {"format": STEPS_FORMAT, "rows": rows, "values": [], "bases": bases, "steps": steps, **more}


def test_the_sidecar_as_written_reads() -> None:  # the cases below each spoil it in one place
    assert len(steps_from_json(stored([GOOD_BASE], [GOOD_STEP]))) == 1


def test_a_count_of_numbers_below_0_reads_as_none_given() -> None:
    # a file edited by hand: "numbered_up_to": -5 had made the next tile added #-4
    [step] = steps_from_json(stored([{**GOOD_BASE, "rows": [], "numbered_up_to": -5}], [GOOD_STEP]))
    assert step.base.numbered_up_to == 0
    assert table_edits.with_added_tile(step.base, {}, "cat").rows[-1].number == 1


def one_row(**row: Any) -> dict[str, Any]:
    return stored([GOOD_BASE], [GOOD_STEP], rows=[{"code": "1m", "group": "hand", **row}])


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(None, id="none"),
        pytest.param([], id="a-list"),
        pytest.param(stored([GOOD_BASE], [GOOD_STEP], format=STEPS_FORMAT + 1), id="other-format"),
        pytest.param(stored([GOOD_BASE], [GOOD_STEP], rows={}), id="rows-no-list"),
        pytest.param(stored({}, [GOOD_STEP]), id="bases-no-list"),
        pytest.param(stored([GOOD_BASE], [{**GOOD_STEP, "base": 1}]), id="no-such-base"),
        pytest.param(stored([GOOD_BASE], [{**GOOD_STEP, "base": True}]), id="base-true"),
        pytest.param(stored([{**GOOD_BASE, "rows": [1]}], [GOOD_STEP]), id="no-such-row"),
        pytest.param(stored([{**GOOD_BASE, "source": None}], [GOOD_STEP]), id="source-null"),
        pytest.param(stored([{**GOOD_BASE, "size": [1e400, 2]}], [GOOD_STEP]), id="size-infinite"),
        pytest.param(one_row(code="xx"), id="unknown-tile"),
        pytest.param(one_row(group="meld 9"), id="unknown-group"),
        pytest.param(one_row(box=[1, 2, 3]), id="box-of-three"),
        pytest.param(one_row(confidence="high"), id="confidence-text"),
        pytest.param(
            stored([GOOD_BASE], [{**GOOD_STEP, "edits": {"edited_rows": [[0, {"tile": ["1m"]}]]}}]),
            id="cell-holding-a-list",
        ),
        pytest.param(
            stored([GOOD_BASE], [{**GOOD_STEP, "edits": {"edited_rows": {"0": {"tile": "1m"}}}}]),
            id="edited-rows-not-pairs",
        ),
        pytest.param(stored([GOOD_BASE], [{**GOOD_STEP, "winning_tile": ["5s"]}]), id="winning-tile-no-pair"),
    ],
)
def test_a_sidecar_that_does_not_read_gives_no_steps(data: object) -> None:
    assert steps_from_json(data) == []


def test_a_step_that_does_not_read_ends_the_list_there() -> None:
    bad = {**GOOD_STEP, "ticks": {"meld 1": "yes"}}
    newer = {**GOOD_STEP, "edits": {"deleted_rows": [0]}}
    assert [s.edits for s in steps_from_json(stored([GOOD_BASE], [GOOD_STEP, bad, newer]))] == [
        {"deleted_rows": [0]}
    ]
    assert len(steps_from_json(stored([GOOD_BASE], [GOOD_STEP] * (UNDO_AT_MOST + 5)))) == UNDO_AT_MOST


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["format", "rows", "bases", "steps"]), plain) | plain)
def test_any_json_at_all_reads_as_steps_or_none_and_never_raises(data: object) -> None:
    assert isinstance(steps_from_json(data), list)
    garbled = stored([data, GOOD_BASE], [{"base": 0}, data, GOOD_STEP], rows=[data, *ROWS])
    assert isinstance(steps_from_json(garbled), list)


# --- the steps of the case reopened -------------------------------------------------------------

PHOTO = Base(
    rows=(TileRow("1m", box=(1.0, 2.0, 3.0, 4.0), confidence=0.9),),
    source="photo",
    name="hand.jpg",
    sha256="abc",
    read_as="singapore",
)
PHOTO_KEPT = {
    "source": {"kind": "photo", "name": "hand.jpg", "sha256": "abc", "read_as": "singapore"},
    "photo_tiles": [{"tile": 1, "code": "1m", "group": "hand", "box": [1.0, 2.0, 3.0, 4.0]}],
    "corrections": [],
}


def step(base: Base) -> TableState:
    return TableState(base, {"edited_rows": {0: {"tile": "9m"}}}, {})


def test_a_photo_s_steps_come_back_with_the_photo_reopened_and_what_the_models_saw_of_it() -> None:
    seen = object()
    reopened = dataclasses.replace(PHOTO, restored=True, seen=seen)
    back = steps_for_case([step(PHOTO), step(PHOTO)], reopened, PHOTO_KEPT)
    assert back == [step(PHOTO), step(PHOTO)] and all(s.base.seen is seen for s in back)
    # a case reopened without its photo has no reading to go back to: its photo's steps go
    as_saved = Base(rows=PHOTO.rows, source="case", restored=True, history=PHOTO_KEPT)
    assert steps_for_case([step(PHOTO)], as_saved, PHOTO_KEPT) == []
    # a step after that reload, of the case as saved, comes back at the next
    assert steps_for_case([step(PHOTO), step(as_saved)], as_saved, PHOTO_KEPT) == [step(as_saved)]


def test_steps_read_as_another_set_or_another_reading_go_with_every_older_one() -> None:
    reopened = dataclasses.replace(PHOTO, restored=True)
    malaysian = dataclasses.replace(PHOTO, read_as="malaysian")
    assert steps_for_case([step(PHOTO), step(malaysian), step(PHOTO)], reopened, PHOTO_KEPT) == [step(PHOTO)]
    read_otherwise = dataclasses.replace(PHOTO, rows=(TileRow("2m", box=(1.0, 2.0, 3.0, 4.0)),))
    assert steps_for_case([step(read_otherwise)], reopened, PHOTO_KEPT) == []
    # the reading's confidences and boxes aside, as the case records them (rounded)
    finer = dataclasses.replace(PHOTO, rows=(TileRow("1m", box=(1.01, 2.0, 3.0, 4.0), confidence=0.91),))
    assert steps_for_case([step(finer)], reopened, PHOTO_KEPT) == [step(finer)]


def test_a_typed_hand_s_steps_come_back_and_another_hand_s_never() -> None:
    hand = Base(rows=(TileRow("1m"),), source="typed", name="typed hand")
    kept = {"source": {"kind": "typed", "name": "typed hand", "sha256": "", "size": None}, "photo_tiles": []}
    reopened = Base(rows=hand.rows, source="case", name="typed hand", restored=True, history=kept)
    assert case_record(reopened) == case_record(hand)
    assert steps_for_case([step(hand), step(reopened)], reopened, kept) == [step(hand), step(reopened)]
    other = dataclasses.replace(hand, source="case", name="my.json", sha256="f00")
    assert steps_for_case([step(other), step(hand)], reopened, kept) == [step(hand)]
    assert steps_for_case([step(hand)], reopened, None) == []  # a kept case with no record: none


# --- the page's file -------------------------------------------------------------------------------


def test_the_page_written_each_run_leaves_the_steps_file_be(_own_case_folder: Path) -> None:
    name = kept_case.new_name()
    kept_case.save(name, json.dumps({"format": 1}).encode(), kept_case.UNDO)
    kept_case.save(name, json.dumps({"discarder_wind": "S"}).encode(), kept_case.PAGE)
    assert kept_case.load_json(name, kept_case.PAGE) == {"discarder_wind": "S"}
    assert kept_case.load_json(name, kept_case.UNDO) == {"format": 1}
    kept_case.save(name, json.dumps({"format": 2}).encode(), kept_case.UNDO)
    assert kept_case.load_json(name, kept_case.PAGE) == {"discarder_wind": "S"}
    assert kept_case.load_json(name, kept_case.UNDO) == {"format": 2}
    for kind in (kept_case.PAGE, kept_case.UNDO):
        for garbage in (b"{not json", b"[" * 100_000, b"\xff\xfe", b"[1, 2]"):
            (_own_case_folder / f"{name}{kind}").write_bytes(garbage)
            assert kept_case.load_json(name, kind) == {}
            kept_case.save(name, b"{}", kind)  # a file not ours is written over
            assert kept_case.load_json(name, kind) == {}
    kept_case.forget(name)
    assert not list(_own_case_folder.glob(f"{name}*"))


# --- the page reloaded -----------------------------------------------------------------------------


def table_codes(at: AppTest) -> list[str]:
    from app_ui.table_edits import apply_edits

    edits = at.session_state[f"tiles_{at.session_state['version']}"] or {}
    return [row.code for row in apply_edits(at.session_state["base"].rows, edits)]


def edit_tiles(at: AppTest, changes: dict[str, Any]) -> AppTest:
    at.session_state[f"tiles_{at.session_state['version']}"] = {
        "edited_rows": changes,
        "added_rows": [],
        "deleted_rows": [],
    }
    return at.run()


def undo_last(at: AppTest) -> AppTest:
    at.button(key="undo_last").click().run()
    assert not at.exception
    return at


def has_undo_last(at: AppTest) -> bool:
    return pressable(at, "undo_last")


def test_a_typed_hand_s_undo_steps_come_back_after_reloads_and_undo_as_before(_own_case_folder: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    typed(at, "123m 456p 22m 789s", melds="CCC")
    edit_tiles(at, {"0": {"tile": "9m"}})
    edit_tiles(at, {"0": {"tile": "9m"}, "1": {"group": "ignore"}})
    steps = at.session_state["undo_list"]
    assert len(steps) == 2
    again = reloaded(reloaded(at))  # twice, nothing done between: the second page keeps them too
    assert not again.exception and again.session_state["undo_list"] == steps and has_undo_last(again)
    for page in (at, again):  # undone here and there alike, step by step
        undo_last(page)
        assert table_codes(page)[:2] == ["9m", "2m"] and page.session_state["case_json"]["corrections"] == [
            {"action": "change", "tile": 1, "from": "1m", "to": "9m"}
        ]
        undo_last(page)
        assert page.session_state["case_json"]["corrections"] == [] and not has_undo_last(page)
    assert reloaded(again).session_state["undo_list"] == []  # none left, none come back


def test_a_photo_s_undo_steps_come_back_with_its_photo(install: Install, _own_case_folder: Path) -> None:
    at = photo_with_a_correction(install, FakeReader())
    again = reloaded(at)
    assert not again.exception and again.session_state["display"] is not None and has_undo_last(again)
    undo_last(again)  # back to the photo's reading, its reader's doubt and all
    case = again.session_state["case_json"]
    assert case["corrections"] == [] and case["tiles"] == case["photo_tiles"]
    undo_last(at)
    assert at.session_state["case_json"]["tiles"] == case["tiles"]


def test_steps_of_the_tiles_read_as_another_set_go_and_the_newer_stay(install: Install) -> None:
    install(FakeReader(outside=AS_DOTS))
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    at.run()
    edit_tiles(at, {"14": {"tile": "F2"}})
    at.selectbox(key="rules").set_value("malaysian").run()  # the correction stays, read as Singapore's
    at.button(key="undo").click().run()  # none left: read again as Malaysian
    assert at.session_state["base"].read_as == "malaysian"
    edit_tiles(at, {"0": {"tile": "9p"}})
    assert len(at.session_state["undo_list"]) == 3
    again = reloaded(at)
    assert not again.exception and again.session_state["base"].read_as == "malaysian"
    assert again.session_state["undo_list"] == at.session_state["undo_list"][-1:]
    undo_last(again)
    assert table_codes(again)[0] == "1p" and not has_undo_last(again)


@pytest.mark.parametrize(
    "garbage",
    [
        pytest.param(b"{not json", id="cut-short"),
        pytest.param(b"[" * 100_000, id="nested-too-deep"),
        pytest.param(json.dumps({"format": 1, "bases": [7], "steps": [1]}).encode(), id="odd"),
    ],
)
def test_a_steps_file_that_does_not_read_leaves_the_case_without_steps(
    garbage: bytes, _own_case_folder: Path
) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    typed(at, "123m 456p 22m 789s", melds="CCC")
    edit_tiles(at, {"0": {"tile": "9m"}})
    (_own_case_folder / f"{at.query_params[kept_case.QUERY_KEY]}{kept_case.UNDO}").write_bytes(garbage)
    again = reloaded(at)
    assert not again.exception and not has_undo_last(again)
    assert again.session_state["case_json"]["corrections"] == at.session_state["case_json"]["corrections"]


def test_a_page_file_that_does_not_read_leaves_the_steps_be(_own_case_folder: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    typed(at, "123m 456p 22m 789s", melds="CCC")
    edit_tiles(at, {"0": {"tile": "9m"}})
    (_own_case_folder / f"{at.query_params[kept_case.QUERY_KEY]}{kept_case.PAGE}").write_bytes(b"{not json")
    again = reloaded(at)
    assert not again.exception and again.session_state["undo_list"] == at.session_state["undo_list"]


def test_another_case_s_steps_are_not_brought_back(_own_case_folder: Path) -> None:
    other = AppTest.from_file(str(APP), default_timeout=60).run()
    typed(other, "111m 456p 22m 789s", melds="CCC")
    edit_tiles(other, {"0": {"tile": "9m"}})
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="case_upload").upload(
        "my.json", json.dumps(other.session_state["case_json"]).encode(), "application/json"
    )
    at.run()
    name, foreign = (page.query_params[kept_case.QUERY_KEY] for page in (at, other))
    # the other page's steps (a typed hand's) beside this page's case (a case file's)
    steps = kept_case.load(foreign, kept_case.UNDO)
    assert steps is not None
    kept_case.save(name, steps, kept_case.UNDO)
    again = reloaded(at)
    assert not again.exception and not has_undo_last(again)


def test_a_case_file_s_steps_come_back_too(_own_case_folder: Path) -> None:
    first = AppTest.from_file(str(APP), default_timeout=60).run()
    typed(first, "123m 456p 22m 789s", melds="CCC")
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="case_upload").upload(
        "my.json", json.dumps(first.session_state["case_json"]).encode(), "application/json"
    )
    at.run()
    edit_tiles(at, {"0": {"tile": "9m"}})
    again = reloaded(at)
    assert not again.exception and again.session_state["undo_list"] == at.session_state["undo_list"]
    undo_last(again)
    assert again.session_state["case_json"]["tiles"] == first.session_state["case_json"]["tiles"]
