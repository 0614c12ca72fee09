"""A page the browser reloads opens the case it held (`app_ui.kept_case`)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from streamlit.testing.v1 import AppTest

from app_ui import kept_case
from tests.app.conftest import APP, pressable
from tests.app.fakes import FakeReader, photo_bytes, scene


def typed(at: AppTest, concealed: str, melds: str = "") -> AppTest:
    at.text_input(key="typed_concealed").set_value(concealed)
    at.text_input(key="typed_melds").set_value(melds)
    return at.button(key="typed_use").click().run()


def reloaded(at: AppTest) -> AppTest:
    """A new session at the address the page shows now, as a browser's reload makes."""
    fresh = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in at.query_params.items():
        fresh.query_params[key] = value
    return fresh.run()


def test_a_reloaded_page_brings_back_the_hand_and_how_it_was_won(_own_case_folder: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    assert kept_case.QUERY_KEY not in at.query_params  # nothing kept before there is a hand
    typed(at, "123m 456p 22m 789s", melds="CCC")
    at.selectbox(key="seat_wind").set_value("S").run()
    at.radio(key="won_by").set_value("self-drawn").run()
    before = at.session_state["case_json"]
    name = at.query_params[kept_case.QUERY_KEY]
    assert kept_case.is_name(name) and (_own_case_folder / f"{name}.json").exists()

    again = reloaded(at)
    assert not again.exception
    assert again.selectbox(key="seat_wind").value == "S" and again.radio(key="won_by").value == "self-drawn"
    after = again.session_state["case_json"]
    assert after["result"] == before["result"] and after["concealed"] == before["concealed"]
    assert any("The page was reloaded" in info.value for info in again.info)
    # the reloaded page keeps its own copy: a second tab at the old address is not written over
    assert again.query_params[kept_case.QUERY_KEY] != name


def test_an_address_naming_no_kept_case_starts_afresh(_own_case_folder: Path) -> None:
    for value in ("0" * 32, "../../etc/passwd", "not-a-name"):
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.query_params[kept_case.QUERY_KEY] = value
        at.run()
        assert not at.exception and "case_json" not in at.session_state
        said = "no longer kept" if kept_case.is_name(value) else "names no case"
        assert any(said in info.value for info in at.info), value
        assert kept_case.QUERY_KEY not in at.query_params


def test_a_kept_case_that_no_longer_opens_says_why_not_that_it_expired(_own_case_folder: Path) -> None:
    # a fuzzing helper (stage 77): a kept case the page could not open again was said "no longer kept"
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    typed(at, "123m 456p 22m 789s", melds="CCC")
    path = _own_case_folder / f"{at.query_params[kept_case.QUERY_KEY]}.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "rules": 5}))
    again = reloaded(at)
    assert not again.exception
    said = [info.value for info in again.info if "could not be opened again" in info.value]
    assert said and "rules must be" in said[0] and not any("no longer kept" in i.value for i in again.info), [
        i.value for i in again.info
    ]


def test_a_hand_cleared_is_not_brought_back(_own_case_folder: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    typed(at, "123m 456p 22m 789s", melds="CCC")
    name = at.query_params[kept_case.QUERY_KEY]
    # delete every tile in the table: no hand on the page, none kept
    rows = len(at.session_state["case_json"]["tiles"])
    at.session_state[f"tiles_{at.session_state['version']}"] = {
        "edited_rows": {},
        "added_rows": [],
        "deleted_rows": list(range(rows)),
    }
    at.run()
    assert not (_own_case_folder / f"{name}.json").exists()
    assert not (_own_case_folder / f"{name}.photo").exists()  # a typed hand's: no photo was kept
    # nor does the address name it: a reload of the empty page is no case lost
    assert kept_case.QUERY_KEY not in at.query_params
    again = reloaded(at)
    assert not again.exception and not any("no longer kept" in info.value for info in again.info)


def test_kept_cases_are_whole_named_by_us_and_pruned_after_a_day(_own_case_folder: Path) -> None:
    name = kept_case.new_name()
    kept_case.save(name, json.dumps({"concealed": "123m"}).encode())
    assert kept_case.load(name) == b'{"concealed": "123m"}'
    assert kept_case.load("../" + name) is None and not kept_case.is_name(name.upper())
    assert list(_own_case_folder.iterdir()) == [_own_case_folder / f"{name}.json"]  # no part file left
    old = kept_case.new_name()
    kept_case.save(old, b"{}")
    kept_case.save(old, b"JPEG", kept_case.PHOTO)
    day_ago = time.time() - kept_case.MAX_AGE_S - 60
    for kind in (kept_case.CASE, kept_case.PHOTO):
        os.utime(_own_case_folder / f"{old}{kind}", (day_ago, day_ago))
    left = _own_case_folder / f"{kept_case.new_name()}.4242.part"  # a write a stopped process left
    mine = _own_case_folder / "notes.json"  # MAHJONG_CASE_DIR may name a folder of the user's own
    for path in (left, mine):
        path.write_bytes(b"{}")
        os.utime(path, (day_ago, day_ago))
    assert kept_case.prune() == 3 and kept_case.load(old) is None and kept_case.load(name) is not None
    assert kept_case.load(old, kept_case.PHOTO) is None
    assert not left.exists() and mine.exists()
    kept_case.save(name, b"JPEG", kept_case.PHOTO)
    kept_case.forget(name, (kept_case.PHOTO,))
    assert kept_case.load(name, kept_case.PHOTO) is None and kept_case.load(name) is not None
    kept_case.save(name, b"JPEG", kept_case.PHOTO)
    kept_case.forget(name)
    kept_case.forget(name)  # gone already: nothing to say
    assert kept_case.load(name) is None and kept_case.load(name, kept_case.PHOTO) is None


def photo_with_a_correction(install: Callable[[FakeReader | None], None], reader: FakeReader) -> AppTest:
    """A photo read (the fake's reference hand) and its first tile corrected to 9s."""
    install(reader)
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    at.run()
    edits = {"edited_rows": {"0": {"tile": "9s"}}, "added_rows": [], "deleted_rows": []}
    at.session_state[f"tiles_{at.session_state['version']}"] = edits
    return at.run()


def test_a_photo_s_case_reloaded_twice_is_the_same_case_with_its_photo_and_asks_before_a_photo_replaces_it(
    install: Callable[[FakeReader | None], None], _own_case_folder: Path
) -> None:
    reader = FakeReader()
    at = photo_with_a_correction(install, reader)
    first = at.session_state["case_json"]
    assert first["corrections"] == [{"action": "change", "tile": 1, "from": "1m", "to": "9s"}]
    name = at.query_params[kept_case.QUERY_KEY]
    assert kept_case.load(name, kept_case.PHOTO) == photo_bytes()  # the photo as uploaded
    for reloads in (1, 2):
        at = reloaded(at)
        assert not at.exception
        notes = [info.value for info in at.info]
        assert any("the photo, its tiles, your corrections" in note for note in notes), notes
        assert at.session_state["display"] is not None and reader.calls == 1 + reloads
        case = at.session_state["case_json"]
        # the same case, not one opened from a file inside another: its source, reading and corrections
        assert case["source"] == first["source"] and case["photo_tiles"] == first["photo_tiles"]
        assert case["corrections"] == first["corrections"] and case["result"] == first["result"]
        assert kept_case.load(at.query_params[kept_case.QUERY_KEY], kept_case.PHOTO) == photo_bytes()
    # the corrections live in this page alone: a new photo asks before it replaces them
    at.file_uploader(key="upload").upload("next.jpg", photo_bytes(shade=30), "image/jpeg")
    at.run()
    assert any("will replace them" in warning.value for warning in at.warning)
    assert at.session_state["case_json"]["corrections"] == first["corrections"]


def test_a_reload_keeps_one_photo_file_and_the_reading_s_own_figures(
    install: Callable[[FakeReader | None], None], _own_case_folder: Path
) -> None:
    reader = FakeReader({90: scene(low=[4])})  # tile 5 unsure: its runner-up is offered by number
    at = photo_with_a_correction(install, reader)
    before = at.session_state["base"]
    again = reloaded(at)
    old, new = (_own_case_folder / f"{page.query_params[kept_case.QUERY_KEY]}.photo" for page in (at, again))
    assert old != new and old.stat().st_ino == new.stat().st_ino  # one file under both names
    rows = again.session_state["base"].rows
    # the uncorrected tiles as the reading gives them, not as saved (to 4 places, no runner-up)
    assert [(r.confidence, r.alternative) for r in rows[1:]] == [
        (r.confidence, r.alternative) for r in before.rows[1:]
    ]
    assert rows[0].code == "9s" and rows[0].confidence is None  # the corrected tile was checked


def test_undo_my_corrections_after_a_reload_returns_to_the_photo_s_reading(
    install: Callable[[FakeReader | None], None],
) -> None:
    at = reloaded(photo_with_a_correction(install, FakeReader()))
    assert pressable(at, "undo")
    at.button(key="undo").click().run()
    case = at.session_state["case_json"]
    assert not at.exception and case["corrections"] == []
    assert [tile["code"] for tile in case["tiles"]] == [tile["code"] for tile in case["photo_tiles"]]
    assert case["tiles"][0]["code"] == "1m" and case["concealed"][0] == "1m"


def test_a_photo_not_kept_or_read_otherwise_now_leaves_the_case_as_saved_and_says_so(
    install: Callable[[FakeReader | None], None], _own_case_folder: Path
) -> None:
    at = photo_with_a_correction(install, FakeReader())
    first = at.session_state["case_json"]
    name = at.query_params[kept_case.QUERY_KEY]
    kept_case.forget(name, (kept_case.PHOTO,))
    again = reloaded(at)
    install(
        FakeReader({90: scene(concealed=["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "5m", "5m"])})
    )
    # a photo the models now read otherwise (an update) is not shown over a reading it no longer gives
    kept_case.save(again.query_params[kept_case.QUERY_KEY], photo_bytes(), kept_case.PHOTO)
    for page in (again, reloaded(again)):
        assert not page.exception and page.session_state["display"] is None
        assert any("The photo could not be shown again" in info.value for info in page.info)
        case = page.session_state["case_json"]
        assert case["photo_tiles"] == first["photo_tiles"] and case["corrections"] == first["corrections"]
        # no reading here to go back to: no button that would do nothing
        assert not pressable(page, "undo")


def test_a_photo_is_kept_only_while_its_tiles_are_the_hand(
    install: Callable[[FakeReader | None], None], _own_case_folder: Path
) -> None:
    at = photo_with_a_correction(install, FakeReader())
    name = at.query_params[kept_case.QUERY_KEY]
    at.button(key="undo").click().run()  # the correction dropped: nothing asked
    typed(at, "123m 456p 22m 789s", melds="CCC")
    assert at.session_state["base"].source == "typed"
    assert kept_case.load(name) is not None and kept_case.load(name, kept_case.PHOTO) is None


def test_a_photo_s_hand_emptied_and_undone_still_comes_back_with_its_photo(
    install: Callable[[FakeReader | None], None], _own_case_folder: Path
) -> None:
    install(FakeReader())
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    at.run()
    name = at.query_params[kept_case.QUERY_KEY]
    rows = len(at.session_state["case_json"]["tiles"])
    empty = {"edited_rows": {}, "added_rows": [], "deleted_rows": list(range(rows))}
    at.session_state[f"tiles_{at.session_state['version']}"] = empty
    at.run()
    assert kept_case.load(name) is None and kept_case.load(name, kept_case.PHOTO) == photo_bytes()
    at.button(key="undo").click().run()  # the tiles back: the case is kept again, beside its photo
    assert at.query_params[kept_case.QUERY_KEY] == name and kept_case.load(name) is not None
    again = reloaded(at)
    assert (
        again.session_state["display"] is not None and len(again.session_state["case_json"]["tiles"]) == rows
    )


def test_a_case_file_opened_then_reloaded_says_nothing_of_a_photo_the_page_never_showed(
    install: Callable[[FakeReader | None], None],
) -> None:
    saved = json.dumps(photo_with_a_correction(install, FakeReader()).session_state["case_json"]).encode()
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="case_upload").upload("my.json", saved, "application/json")
    at.run()
    again = reloaded(at)
    notes = [info.value for info in again.info]
    assert any(note.startswith("The page was reloaded: the hand, its corrections,") for note in notes), notes
    assert not any("photo" in note for note in notes), notes


def test_a_reload_shows_the_whole_photo_where_the_page_showed_it(
    install: Callable[[FakeReader | None], None], _own_case_folder: Path
) -> None:
    install(FakeReader({90: scene()}))
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="upload").upload("far.jpg", photo_bytes(width=2000, height=1500), "image/jpeg").run()
    assert at.toggle(key="whole_photo").value is False and "view" not in at.query_params
    at.toggle(key="whole_photo").set_value(True).run()
    assert at.query_params["view"] == "whole"
    again = reloaded(at)
    assert not again.exception
    assert again.toggle(key="whole_photo").value is True  # was shown cropped again
    again.toggle(key="whole_photo").set_value(False).run()
    assert "view" not in again.query_params
    assert reloaded(again).toggle(key="whole_photo").value is False


def test_a_reload_keeps_the_photo_s_numbers_for_the_table_the_photo_and_the_corrections(
    install: Callable[[FakeReader | None], None], _own_case_folder: Path
) -> None:
    # stage 55: the saved table came back numbered 1..n, while the corrections line and the photo's
    # labels kept the reading's numbers (#15 named a tile that was now #14)
    install(FakeReader())
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    at.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    at.run()
    edits = {"edited_rows": {"14": {"tile": "F2"}}, "added_rows": [{"tile": "cat"}], "deleted_rows": [1]}
    at.session_state[f"tiles_{at.session_state['version']}"] = edits
    at.run()
    before = at.session_state["case_json"]
    line = "Your corrections: #2 2m deleted; #15 F1 → F2; #16 cat added to bonus"  # by tile number
    assert line in [c.value for c in at.caption]
    again = reloaded(at)
    assert not again.exception
    case = again.session_state["case_json"]
    numbers = [tile["tile"] for tile in case["tiles"]]
    assert numbers == [1, *range(3, 17)], numbers  # the reading's numbers; the cat after them, #16
    assert case["tiles"] == before["tiles"] and case["corrections"] == before["corrections"]
    captions = [c.value for c in again.caption]
    assert line in captions, captions
    assert not any("numbered as" in c for c in captions), captions
    assert any(c.startswith("Read 15 tiles") for c in captions), captions  # the photo's, not the table's
    base = again.session_state["base"]
    shown = [n for n, _ in __import__("app_ui.table_edits").table_edits.numbered_edits(base.rows, {})]
    assert shown == numbers  # the photo's labels (and the table's # column) are these numbers
