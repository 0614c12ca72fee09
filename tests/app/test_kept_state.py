"""What the user set stays set: a tile corrected shows as the user's, not with the reader's doubt; a
discarder a self-draw set aside comes back after a reload; a switch of rule set keeps each tile's
number (an audit's findings, stage 73)."""

from __future__ import annotations

from collections.abc import Callable

from streamlit.testing.v1 import AppTest

from app_ui import table_edits
from app_ui.case import TileRow
from app_ui.photo_rows import kept_numbers
from app_ui.tile_editor import CHOSEN_LABEL, RECALLED_LABEL, check_label
from tests.app.conftest import APP
from tests.app.fakes import CONCEALED, FakeReader, photo_bytes, scene
from tests.app.test_kept_case import reloaded, typed

Install = Callable[[FakeReader | None], None]
# The 3-player set has no characters or bamboo: the fake reads them as the dots of their rank.
AS_DOTS = {f"{rank}{suit}": f"{rank}p" for rank in range(1, 10) for suit in "ms"}


def photo_page(install: Install, reader: FakeReader) -> AppTest:
    install(reader)
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    return at.run()


def table(at: AppTest) -> list[tuple[str, str, str]]:
    """The tile table as drawn: each row's number, tile and *Sure?*."""
    frame = at.dataframe[0].value
    return list(zip(frame["n"], frame["tile"], frame["check"], strict=True))


def test_a_corrected_tile_shows_as_the_users_choice_not_with_the_readers_doubt(install: Install) -> None:
    at = photo_page(install, FakeReader({90: scene(low=[4])}))
    assert table(at)[4] == ("5", "5p", "⚠ 30%")
    at.session_state[f"tiles_{at.session_state['version']}"] = {
        "edited_rows": {"4": {"tile": "4m"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    rows = table(at)
    assert rows[4] == ("5", "4m", CHOSEN_LABEL)  # at once, not after a reload
    assert rows[3] == ("4", "4p", "95%")  # the tiles not corrected keep the reader's word
    corrections = at.session_state["case_json"]["corrections"]
    assert corrections == [{"action": "change", "tile": 5, "from": "5p", "to": "4m"}]
    at.button(key="undo_last").click().run()  # one step back: the reading, doubt and all
    assert table(at)[4] == ("5", "5p", "⚠ 30%") and at.session_state["case_json"]["corrections"] == []


def test_the_sure_column_and_what_starts_the_table_again() -> None:
    read = TileRow("5p", confidence=0.3, alternative="4p")
    assert check_label(read, read) == "⚠ 30%"
    assert check_label(TileRow("4m"), read) == CHOSEN_LABEL
    assert check_label(TileRow("4m"), TileRow("4m")) == ""  # a typed tile: no reader's word on it
    # read by the set's lessons, not as the models read it: marked as an unsure tile is, till the user's
    sure = TileRow("F2", confidence=0.9)
    assert check_label(sure, sure, reader_read=True, recalled=True) == RECALLED_LABEL
    assert check_label(TileRow("F3"), sure, reader_read=True, recalled=True) == CHOSEN_LABEL
    assert check_label(sure, sure, reader_read=True) == "90%"
    rows = [read, TileRow("1m")]
    assert table_edits.changes_a_read_tile(rows, {"edited_rows": {"0": {"tile": "4m"}}})
    assert not table_edits.changes_a_read_tile(rows, {"edited_rows": {"0": {"group": "bonus"}}})
    assert not table_edits.changes_a_read_tile(rows, {"edited_rows": {"1": {"tile": "9m"}}})  # typed
    assert not table_edits.changes_a_read_tile(rows, {"edited_rows": {"0": {"tile": "5p"}}})


def test_a_tile_the_user_added_shows_as_the_users_like_one_corrected(install: Install) -> None:
    # an audit: a tile added with *Add a missed tile* had an empty *Sure?* cell, a corrected one "yours"
    at = photo_page(install, FakeReader({90: scene(low=[4])}))
    read = table(at)
    version = at.session_state["version"]
    at.selectbox(key=f"add_tile_{version}").set_value("2m").run()
    at.button(key=f"add_tile_go_{version}").click().run()
    assert not at.exception
    rows = table(at)
    assert rows[:-1] == read  # the tiles read keep the reader's word
    assert rows[-1] == (str(len(read) + 1), "2m", CHOSEN_LABEL)
    # the hand as it came does not hold it; a reading without it, or a saved reading (its tiles each
    # with the reader's confidence) with it but without its confidence, says the same
    assert check_label(TileRow("2m"), None) == CHOSEN_LABEL
    assert check_label(TileRow("2m"), TileRow("2m"), reader_read=True) == CHOSEN_LABEL
    assert check_label(TileRow("2m"), TileRow("2m"), reader_read=False) == ""  # typed: nobody's doubt


def test_a_discarder_a_self_draw_set_aside_comes_back_after_a_reload() -> None:
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    typed(at, "123m 456p 22m 789s", melds="CCC")
    at.selectbox(key="discarder_wind").set_value("S").run()
    at.radio(key="won_by").set_value("self-drawn").run()
    assert "discarder_wind" not in at.session_state["case_json"]  # the case names no discarder
    again = reloaded(at)
    assert not again.exception and again.radio(key="won_by").value == "self-drawn"
    again.radio(key="won_by").set_value("discard").run()
    assert again.selectbox(key="discarder_wind").value == "S"
    assert again.session_state["case_json"]["discarder_wind"] == "S"


def test_a_seat_set_aside_under_pay_all_comes_back_after_a_reload() -> None:
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    typed(at, "123m 456p 22m 789s", melds="CCC")
    at.selectbox(key="discarder_wind").set_value("S").run()
    at.checkbox(key="pay_all").check().run()
    at.selectbox(key="discarder_wind").set_value("W").run()  # the liable player
    again = reloaded(at)
    again.checkbox(key="pay_all").uncheck().run()
    assert again.selectbox(key="discarder_wind").value == "S"


def test_a_switch_of_rule_set_keeps_each_tiles_number(install: Install) -> None:
    # read as Singapore tiles the lower row (1s 2m 3p) is no meld and comes first; as Malaysian, a chow
    at = photo_page(
        install, FakeReader({90: scene(concealed=CONCEALED[:8], meld=["1s", "2m", "3p"])}, outside=AS_DOTS)
    )

    def numbers(page: AppTest) -> dict[tuple[float, ...], int]:
        return {tuple(t["box"]): t["tile"] for t in page.session_state["case_json"]["photo_tiles"]}

    read = numbers(at)
    at.selectbox(key="rules").set_value("malaysian").run()
    assert not at.exception and at.session_state["base"].read_as == "malaysian"
    assert numbers(at) == read
    assert [n for n, _, _ in table(at)] == [str(n) for n in range(1, len(read) + 1)]  # in their order
    again = reloaded(at)  # the photo comes back, its tiles numbered as before
    assert again.session_state["display"] is not None and numbers(again) == read
    at.selectbox(key="rules").set_value("singapore").run()
    assert numbers(at) == read


def test_numbers_kept_by_box_and_a_new_tile_after_them() -> None:
    boxes = [(0.0, 0.0, 1.0, 1.0), (2.0, 0.0, 3.0, 1.0), (4.0, 0.0, 5.0, 1.0)]
    as_read = {0: 2, 1: 3, 2: 1}  # this reading's order: the third box first
    # the third box was not read before
    before: dict[tuple[float, ...], int] = {(0.0, 0.0, 1.0, 1.0): 1, (2.0, 0.0, 3.0, 1.0): 2}
    assert kept_numbers(as_read, boxes, before) == {0: 1, 1: 2, 2: 3}
    assert kept_numbers(as_read, boxes, {}) == as_read
    # the case gave up to #7 (tiles the user added, dropped with the corrections): the new tile is #8
    assert kept_numbers(as_read, boxes, before, after=7) == {0: 1, 1: 2, 2: 8}
    assert kept_numbers(as_read, boxes, before, after=1) == {0: 1, 1: 2, 2: 3}  # under before's: no change
