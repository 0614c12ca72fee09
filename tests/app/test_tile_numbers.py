"""A tile number, once given in a case, names that tile alone (stage 74): a tile deleted keeps its
number, so a tile added after the table's last row was deleted and folded in is numbered above every
number the case has given (it took the deleted tile's: "#4 F1 deleted", then the cat added was #4,
and the case file named #4 twice); and a tile added is named in the corrections by its number, each
tile's net change ("#5 4m added to hand", not "3m added to hand; #5 3m → 4m")."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import scoring
from app_ui import case, case_file, case_open, hand_build, table_edits, undo
from app_ui.case import BONUS, HAND, TileRow, row_numbers
from app_ui.change_note import correction_changes
from app_ui.summary import correction_words, corrections_line
from app_ui.table_edits import net_corrections
from tests.app.conftest import APP
from tests.app.fakes import FakeReader, photo_bytes, scene
from vision.detections import Detections

READ = (
    TileRow("1m", HAND, 0.9),
    TileRow("2m", HAND, 0.9),
    TileRow("3m", HAND, 0.9),
    TileRow("F1", BONUS, 0.9),
)
PHOTO = case.Base(rows=READ, source="photo", name="hand.jpg")


def last_deleted_and_folded() -> case.Base:
    """The table with its last tile (#4 F1) deleted, folded in with a face changed beside it (a face
    changed folds the table's edits into its rows: `session.settle_corrected_tiles`)."""
    folded = table_edits.fold_edits(PHOTO, {"edited_rows": {"0": {"tile": "4m"}}, "deleted_rows": [3]})
    assert row_numbers(folded.rows) == [1, 2, 3]
    return folded


def numbers_named(saved: Mapping[str, Any]) -> dict[int, set[tuple[str, str]]]:
    """Each number a case file names, with the tiles it names: (where, face as first named) — a
    read tile by its reading, an added one by its addition; a number naming two tiles has two."""
    named: dict[int, set[tuple[str, str]]] = {}
    read = {item["tile"]: item["code"] for item in saved["photo_tiles"]}
    for number, code in read.items():
        named.setdefault(number, set()).add(("read", code))
    added = [c for c in saved["corrections"] if c.get("action") == "add" and "tile" in c]
    for change in added:
        named.setdefault(change["tile"], set()).add(("added", change["code"]))
    for change in saved["corrections"]:
        number = change.get("tile")
        if number is not None and number not in named:
            named.setdefault(number, set()).add(("?", ""))  # a change to a tile neither read nor added
    deleted = {c["tile"] for c in saved["corrections"] if c.get("action") == "delete"}
    for item in saved["tiles"]:
        number = item["tile"]
        assert number not in deleted, f"#{number} is deleted in the corrections and a tile of the table"
        if number not in named:
            named.setdefault(number, set()).add(("table", item["code"]))
    return named


def assert_each_number_names_one_tile(saved: Mapping[str, Any]) -> None:
    twice = {n: tiles for n, tiles in numbers_named(saved).items() if len(tiles) > 1}
    assert not twice, twice
    numbers = [item["tile"] for item in saved["tiles"]]
    assert len(numbers) == len(set(numbers)), numbers


def saved_case(base: case.Base, edits: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The case file the page offers for `base` with the table's `edits`, its rows numbered as the page
    numbers them (`hand_view`: after every number the case gave)."""
    rows = table_edits.apply_edits(base.rows, edits, table_edits.last_number(base))
    build = hand_build.build_hand(rows, base.meld_concealed)
    data = hand_build.scoring_input(build.hand, case.Context(), "singapore", {})
    return case_file.case_json(data, base, rows, edits, None)


def test_a_tile_added_after_the_last_was_deleted_and_folded_takes_a_new_number() -> None:
    folded = last_deleted_and_folded()
    assert table_edits.last_number(folded) == 4  # #4 was given, to the F1 deleted
    added = table_edits.with_added_tile(folded, {}, "cat")
    assert [(r.code, r.number) for r in added.rows][-1] == ("cat", 5)  # not #4
    # named by that number in the corrections, which still name #4 as the F1 deleted
    assert net_corrections(list(map(dict, added.earlier))) == [
        {"action": "change", "tile": 1, "from": "1m", "to": "4m"},
        {"action": "delete", "tile": 4, "code": "F1"},
        {"action": "add", "tile": 5, "code": "cat", "group": BONUS},
    ]
    line = "Your corrections: #1 1m → 4m; #4 F1 deleted; #5 cat added to bonus"
    assert corrections_line(net_corrections(list(map(dict, added.earlier)))) == line


def test_a_row_added_in_the_table_is_numbered_so_before_it_is_folded_in() -> None:
    folded = last_deleted_and_folded()
    edits = {"edited_rows": {}, "added_rows": [{"tile": "cat"}, {"tile": None}, {"tile": "P"}]}
    given = table_edits.last_number(folded)
    rows = table_edits.apply_edits(folded.rows, edits, given)
    assert [(r.code, r.number) for r in rows][3:] == [("cat", 5), ("P", 6)]  # the blank row: none
    # the corrections name them by the numbers the rows have, given the same `after`
    assert [c.get("tile") for c in table_edits.corrections(folded.rows, edits, given)] == [5, 6]
    # without it, by their faces alone (the table shows them as "new" until folded in)
    assert [c.get("tile") for c in table_edits.corrections(folded.rows, edits)] == [None, None]


@pytest.mark.parametrize("folded_first", [True, False], ids=["added-by-its-face", "row-added-in-the-table"])
def test_the_case_file_names_each_number_once(folded_first: bool) -> None:
    folded = last_deleted_and_folded()
    if folded_first:
        saved = saved_case(table_edits.with_added_tile(folded, {}, "cat"))
    else:
        saved = saved_case(folded, {"edited_rows": {}, "added_rows": [{"tile": "cat"}], "deleted_rows": []})
    assert_each_number_names_one_tile(saved)
    assert [(t["tile"], t["code"]) for t in saved["tiles"]] == [(1, "4m"), (2, "2m"), (3, "3m"), (5, "cat")]
    assert {"action": "add", "tile": 5, "code": "cat", "group": BONUS} in saved["corrections"]


def test_a_case_file_opened_again_keeps_every_number_given() -> None:
    # a cat added (#5) and deleted again: its number stays named in the file, so the tile added
    # after the case is opened again is #6, not the cat's #5 (nor the F1's #4)
    cat = table_edits.with_added_tile(last_deleted_and_folded(), {}, "cat")
    gone = table_edits.fold_edits(cat, {"edited_rows": {}, "added_rows": [], "deleted_rows": [3]})
    first = saved_case(gone)
    assert first["corrections"][-2:] == [
        {"action": "add", "tile": 5, "code": "cat", "group": BONUS},
        {"action": "delete", "tile": 5, "code": "cat"},
    ]
    assert_each_number_names_one_tile(first)
    opened = case_open.open_case("saved.json", case_file.case_bytes(first)).base
    assert table_edits.last_number(opened) == 5
    rooster = table_edits.with_added_tile(opened, {}, "rooster")
    assert rooster.rows[-1].number == 6
    second = saved_case(rooster)
    assert_each_number_names_one_tile(second)
    assert [c.get("tile") for c in second["corrections"]] == [1, 4, 5, 5, 6]
    # and again, a row added in the table of the case opened from that file
    again = case_open.open_case("again.json", json.dumps(second).encode()).base
    rows = table_edits.apply_edits(
        again.rows, {"added_rows": [{"tile": "P"}]}, table_edits.last_number(again)
    )
    assert rows[-1].number == 7


@pytest.mark.parametrize(
    ("steps", "net"),
    [
        pytest.param(
            [
                {"action": "add", "tile": 16, "code": "3m", "group": HAND},
                {"action": "change", "tile": 16, "from": "3m", "to": "4m"},
            ],
            [{"action": "add", "tile": 16, "code": "4m", "group": HAND}],
            id="added-then-changed",
        ),
        pytest.param(
            [
                {"action": "add", "tile": 16, "code": "3m", "group": HAND},
                {"action": "regroup", "tile": 16, "code": "3m", "from": HAND, "to": "meld 1"},
                {"action": "change", "tile": 16, "from": "3m", "to": "4m", "by": "set offer"},
            ],
            [{"action": "add", "tile": 16, "code": "4m", "group": "meld 1"}],
            id="added-then-moved-and-changed",
        ),
        pytest.param(
            [
                {"action": "add", "tile": 16, "code": "3m", "group": HAND},
                {"action": "change", "tile": 16, "from": "3m", "to": "4m"},
                {"action": "delete", "tile": 16, "code": "4m"},
            ],
            [
                {"action": "add", "tile": 16, "code": "3m", "group": HAND},
                {"action": "delete", "tile": 16, "code": "3m"},
            ],
            id="added-then-deleted-keeps-its-number-named",
        ),
        pytest.param(
            [
                {"action": "add", "tile": 17, "code": "cat", "group": BONUS},
                {"action": "change", "tile": 3, "from": "C", "to": "P"},
                {"action": "add", "code": "rooster", "group": BONUS},
            ],
            [
                {"action": "change", "tile": 3, "from": "C", "to": "P"},
                {"action": "add", "tile": 17, "code": "cat", "group": BONUS},
                {"action": "add", "code": "rooster", "group": BONUS},  # a case saved before: no number
            ],
            id="by-number-then-rows-added-without-one",
        ),
    ],
)
def test_a_tile_added_is_written_down_by_its_net_addition(
    steps: list[dict[str, Any]], net: list[dict[str, Any]]
) -> None:
    assert net_corrections(steps) == net
    assert net_corrections(net) == net


def test_the_corrections_line_names_a_tile_added_by_its_number_and_nets_its_change() -> None:
    folded = table_edits.with_added_tile(PHOTO, {}, "3m")
    assert folded.rows[-1].number == 5
    changed = table_edits.fold_edits(folded, {"edited_rows": {"4": {"tile": "4m"}}})
    words = [correction_words(c) for c in net_corrections(list(map(dict, changed.earlier)))]
    assert words == ["#5 4m added to hand"]  # not "3m added to hand; #5 3m → 4m"
    assert correction_words({"action": "add", "code": "3m", "group": HAND}) == "3m added to hand"


def added(code: str, group: str = HAND, tile: int | None = 5) -> dict[str, Any]:
    """A tile added: numbered as it was folded into the table, or (`tile` None) a row not yet."""
    return {"action": "add", "code": code, "group": group} | ({} if tile is None else {"tile": tile})


@pytest.mark.parametrize(
    ("before", "now", "said"),
    [
        pytest.param([added("3m")], [added("4m")], ["#5 3m → 4m"], id="its-face"),
        pytest.param([added("3m")], [added("3m", "meld 1")], ["#5 3m hand → meld 1"], id="its-group"),
        pytest.param([added("3m", tile=None)], [added("3m")], [], id="numbered-as-it-is-folded"),
        pytest.param(
            [added("3m", tile=None)],
            [added("4m")],
            ["#5 4m added to hand", "3m added to hand undone"],
            id="folded-as-another-face",
        ),
        pytest.param(
            [added("3m", tile=None), {"action": "change", "tile": 1, "from": "1m", "to": "2m"}],
            [{"action": "change", "tile": 1, "from": "1m", "to": "4m"}, added("3m")],
            ["#1 2m → 4m"],
            id="folded-by-a-face-changed",
        ),
        pytest.param(
            [added("4m")],
            [added("3m"), {"action": "delete", "tile": 5, "code": "3m"}],
            ["#5 3m deleted"],
            id="deleted",
        ),
        pytest.param(
            [added("3m"), {"action": "delete", "tile": 5, "code": "3m"}],
            [added("4m")],
            ["#5 3m → 4m", "#5 3m deleted undone"],
            id="back-from-deleted",
        ),
        pytest.param([], [added("3m")], ["#5 3m added to hand"], id="added"),
        pytest.param([added("3m")], [], ["#5 3m added to hand undone"], id="undone"),
        pytest.param(
            [added("3m", tile=None)],
            [added("3m", tile=None), added("3m", tile=None)],
            ["3m added to hand"],
            id="a-second-row-like-the-first",
        ),
    ],
)
def test_the_change_note_tells_a_tile_added_by_its_step(
    before: list[dict[str, Any]], now: list[dict[str, Any]], said: list[str]
) -> None:
    assert correction_changes(before, now) == said


def test_the_page_numbers_a_tile_added_after_the_last_was_deleted_above_it_and_a_reload_keeps_it(
    install: Callable[[FakeReader | None], None],
) -> None:
    from tests.app.test_kept_case import reloaded

    install(FakeReader())
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    at.run()
    read = at.session_state["base"].rows
    last, first = read[-1], read[0]
    other = "9s" if first.code != "9s" else "8s"
    # the last tile deleted, and a tile's face changed beside it: the edits are folded into the rows
    edits = {"edited_rows": {"0": {"tile": other}}, "added_rows": [], "deleted_rows": [len(read) - 1]}
    at.session_state[f"tiles_{at.session_state['version']}"] = edits
    at.run()
    assert not at.exception
    assert row_numbers(at.session_state["base"].rows) == list(range(1, len(read)))
    version = at.session_state["version"]
    at.selectbox(key=f"add_tile_{version}").set_value("cat").run()
    at.button(key=f"add_tile_go_{version}").click().run()
    assert not at.exception
    cat = at.session_state["base"].rows[-1]
    assert (cat.code, cat.number) == ("cat", len(read) + 1)  # not the deleted tile's
    saved = at.session_state["case_json"]
    assert_each_number_names_one_tile(saved)
    line = (
        f"Your corrections: #1 {first.code} → {other}; #{len(read)} {last.code} deleted; "
        f"#{len(read) + 1} cat added to bonus"
    )
    assert line in [c.value for c in at.caption]

    again = reloaded(at)
    assert not again.exception
    assert again.session_state["case_json"]["tiles"] == saved["tiles"]
    assert line in [c.value for c in again.caption]
    version = again.session_state["version"]
    again.selectbox(key=f"add_tile_{version}").set_value("rooster").run()
    again.button(key=f"add_tile_go_{version}").click().run()
    assert not again.exception
    rooster = again.session_state["base"].rows[-1]
    assert (rooster.code, rooster.number) == ("rooster", len(read) + 2)
    after = again.session_state["case_json"]
    assert_each_number_names_one_tile(after)
    assert Counter(c.get("action") for c in after["corrections"])["add"] == 2


# --- a step undone keeps the numbers it gave ----------------------------------------------------
# Undo brings back a base from before a tile was added, which names that tile nowhere: numbered from
# it alone, the next tile added took the number again ("#5 cat", undo, "#5 rat"). The case counts the
# numbers it gave (`Base.numbered_up_to`), and a table started again on it keeps that count.


def undone_to(before: case.Base, now: case.Base, edits: Mapping[str, Any] | None = None) -> case.Base:
    """`before` brought back by *Undo the last tile change* over the table `now` (with its `edits`), as
    `session.set_base` brings it back: the same case, every number the table on screen gave kept."""
    back = undo.restored(case.TableState(before, {}, {}))
    return table_edits.numbering_kept(back, table_edits.numbers_given(now, edits))


def test_a_tile_added_after_an_undo_takes_a_new_number() -> None:
    cat = table_edits.with_added_tile(PHOTO, {}, "cat")
    assert cat.rows[-1].number == 5
    back = undone_to(PHOTO, cat)
    assert back.rows == PHOTO.rows and back.earlier == ()  # the cat is gone, its addition too
    assert table_edits.last_number(back) == 5  # yet its number stays given
    rat = table_edits.with_added_tile(back, {}, "rat")
    assert [(r.code, r.number) for r in rat.rows][-1] == ("rat", 6)  # not the cat's #5
    # a row added in the table and not yet folded in has its number too (on the photo, in the file)
    assert table_edits.numbers_given(PHOTO, {"added_rows": [{"tile": "cat"}]}) == 5
    assert table_edits.last_number(undone_to(PHOTO, PHOTO, {"added_rows": [{"tile": "cat"}]})) == 5
    # and *Undo my corrections* keeps them as a step back does
    assert table_edits.last_number(table_edits.numbering_kept(rat.undone(), 6)) == 6


def test_no_count_below_0_numbers_a_tile_below_1() -> None:
    # a count a file edited by hand set below 0 (`undo_kept` reads it as 0): the next tile is still #1
    empty = case.Base(source="typed", numbered_up_to=-5)
    assert table_edits.last_number(empty) == 0
    assert table_edits.with_added_tile(empty, {}, "cat").rows[-1].number == 1


def test_a_tile_number_is_a_whole_number_above_0() -> None:
    assert [case.positive_int(v) for v in (1, 7, 0, -5, True, 2.0, "3", None)] == [1, 7, *[None] * 6]


def test_a_step_undone_brings_back_its_tiles_with_their_own_numbers() -> None:
    # the cat added (#5), the rat after it (#6): stepping back past the rat brings the cat back as #5
    cat = table_edits.with_added_tile(PHOTO, {}, "cat")
    rat = table_edits.with_added_tile(cat, {}, "rat")
    back = undone_to(cat, rat)
    assert [(r.code, r.number) for r in back.rows][-1] == ("cat", 5)
    assert table_edits.with_added_tile(back, {}, "P").rows[-1].number == 7
    assert table_edits.numbering_kept(rat, 6) is rat  # a base naming the number already: itself


def test_a_case_file_keeps_the_numbers_an_undo_took_back() -> None:
    back = undone_to(PHOTO, table_edits.with_added_tile(PHOTO, {}, "cat"))
    saved = saved_case(back)
    assert saved["source"]["numbered_up_to"] == 5  # named nowhere else in the file
    assert not any(c.get("tile") == 5 for c in saved["corrections"])
    opened = case_open.open_case("saved.json", case_file.case_bytes(saved)).base
    assert table_edits.last_number(opened) == 5
    assert table_edits.with_added_tile(opened, {}, "rat").rows[-1].number == 6
    # saved again as opened, and again as a reloaded page saves it (its own source): still said
    assert saved_case(opened)["source"]["numbered_up_to"] == 5
    restored = dataclasses.replace(opened, restored=True)
    assert saved_case(restored)["source"]["numbered_up_to"] == 5
    # a file from before, without it, opens numbered by what it names
    older = {**saved, "source": {k: v for k, v in saved["source"].items() if k != "numbered_up_to"}}
    assert table_edits.last_number(case_open.open_case("old.json", json.dumps(older).encode()).base) == 4
    # python -m scoring leaves a case's `source` alone: no "ignored unknown field" for it
    hand = {"concealed": "123m 456m 789m 123p 55p", "source": saved["source"]}
    assert not [w for w in scoring.score_json(hand)["warnings"] if "unknown" in w]


def test_the_page_gives_no_number_twice_through_undo_and_a_reload(
    install: Callable[[FakeReader | None], None],
) -> None:
    from tests.app.test_kept_case import reloaded

    def add(at: AppTest, code: str) -> TileRow:
        version = at.session_state["version"]
        at.selectbox(key=f"add_tile_{version}").set_value(code).run()
        at.button(key=f"add_tile_go_{version}").click().run()
        assert not at.exception
        row: TileRow = at.session_state["base"].rows[-1]
        assert row.code == code
        return row

    install(FakeReader())
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    at.run()
    read = len(at.session_state["base"].rows)
    assert add(at, "cat").number == read + 1
    at.button(key="undo_last").click().run()  # the cat is gone
    assert len(at.session_state["base"].rows) == read
    assert add(at, "rat").number == read + 2  # not the cat's
    at.button(key="undo").click().run()  # *Undo my corrections*: the rat is gone, the photo as read
    assert [r.code for r in at.session_state["base"].rows][-1] != "rat"
    saved = at.session_state["case_json"]
    assert saved["source"]["numbered_up_to"] == read + 2 and saved["corrections"] == []
    assert_each_number_names_one_tile(saved)

    again = reloaded(at)  # the page's case, kept on disk, opened again
    assert not again.exception
    assert again.session_state["case_json"]["source"]["numbered_up_to"] == read + 2
    assert add(again, "rooster").number == read + 3
    again.button(key="undo_last").click().run()  # a step brought back by the reload, undone
    assert not again.exception and len(again.session_state["base"].rows) == read
    assert add(again, "P").number == read + 4
    assert_each_number_names_one_tile(again.session_state["case_json"])


def test_a_tile_a_reload_reads_afresh_takes_no_number_the_case_gave(
    install: Callable[[FakeReader | None], None],
) -> None:
    # the photo brought back by a reload, where the models now box a tile a pixel over: that tile is
    # not the one the case named, and is numbered after every number the case gave, the number of a
    # tile the user added and undid included (it had been numbered after the photo's alone, as that one)
    from tests.app.test_kept_case import reloaded

    first = scene(bonus=())  # no bonus row: its last tiles, three alike, keep their order numbered anew
    install(FakeReader({90: first}))
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    at.run()
    read = len(at.session_state["base"].rows)
    version = at.session_state["version"]
    at.selectbox(key=f"add_tile_{version}").set_value("cat").run()
    at.button(key=f"add_tile_go_{version}").click().run()
    assert at.session_state["base"].rows[-1].number == read + 1
    at.button(key="undo_last").click().run()  # the cat is gone, its number still given
    assert at.session_state["case_json"]["source"]["numbered_up_to"] == read + 1

    boxes = first.xyxy.tolist()
    boxes[read - 2] = [boxes[read - 2][0] + 1, boxes[read - 2][1], boxes[read - 2][2] + 1, boxes[read - 2][3]]
    install(FakeReader({90: Detections.from_codes(list(first.codes), boxes, first.confidence.tolist())}))
    again = reloaded(at)
    assert not again.exception and again.session_state["base"].source == "photo"  # the photo came back
    numbers = row_numbers(again.session_state["base"].rows)
    assert read + 1 not in numbers and read + 2 in numbers, numbers


def test_a_saved_tile_number_below_1_or_a_flag_names_no_tile() -> None:
    from app_ui.reload import saved_numbers

    box = [10.0, 20.0, 30.0, 40.0]
    records = [
        {"tile": 3, "box": box},
        {"tile": True, "box": [0, 0, 1, 1]},
        {"tile": -2, "box": [5, 5, 6, 6]},
    ]
    assert list(saved_numbers(records).values()) == [3]  # True and -2 are numbered afresh


def test_a_file_s_tile_numbers_are_capped_and_the_app_s_own_are_not() -> None:
    # stage 78: a file's number of thousands of digits broke the next number written; the review of
    # that fix: capped everywhere, the app's own next number past the cap went unsaid
    from app_ui.case import MAX_TILE_NUMBER, file_number, positive_int

    past = MAX_TILE_NUMBER + 1
    assert file_number(past) is None and file_number(MAX_TILE_NUMBER) == MAX_TILE_NUMBER
    assert positive_int(past) == past
    assert correction_words({"action": "add", "tile": past, "code": "cat", "group": "bonus"}) == (
        f"#{past} cat added to bonus"
    )
