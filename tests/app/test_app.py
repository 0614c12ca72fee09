"""The app driven through streamlit.testing: photo -> tiles -> corrections -> context -> tai and payout.

The photo path uses a fake tile reader (tests/app/fakes.py) so the tiles are known; the scoring is real.
Reference hand (fakes.scene): 123m 456p 789s 22m concealed, exposed red-dragon pong, plum flower F1.
For the East seat that is 2 tai (dragon pong 1 + seat flower 1): on a discard the discarder pays 4,
the other two 2 each, the winner gets 8 (base = 2^(2-1) = 2).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import scoring
from app_ui import table_edits
from app_ui.result_panel import SUMMARY_LABEL
from tests.app.conftest import APP, captions, pressable
from tests.app.fakes import BONUS, CONCEALED, MELD, FakeReader, photo_bytes, scene
from vision.detections import Detections
from vision.sharpness import WHOLE_SHAKEN_LINE

Install = Callable[[FakeReader | None], None]


def texts(at: AppTest, kind: str) -> list[str]:
    return [str(e.value) for e in getattr(at, kind)]


def result_text(at: AppTest) -> str:
    return "\n".join(texts(at, "success") + texts(at, "error") + texts(at, "markdown"))


def summary(at: AppTest) -> str:
    codes = [str(c.value) for c in at.code]
    assert codes, "no text summary shown"
    return codes[-1]


def payout_rows(at: AppTest) -> dict[str, list[str]]:
    """Payout table: player label -> amounts shown."""
    assert at.table, "no payout table shown"
    frame = at.table[-1].value
    out: dict[str, list[str]] = {}
    for player, amount in zip(frame.index, frame["Amount"], strict=True):
        out.setdefault(str(player), []).append(str(amount))
    return out


def upload(at: AppTest, data: bytes, name: str = "hand.jpg") -> AppTest:
    at.file_uploader(key="upload").upload(name, data, "image/jpeg")
    return at.run()


def edit_tiles(at: AppTest, edits: dict[str, Any]) -> AppTest:
    """Set the tile table's edit state, as the browser's data editor does."""
    at.session_state[f"tiles_{at.session_state['version']}"] = edits
    return at.run()


def no_problem(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def test_start_page_has_no_score_and_no_exception(app: AppTest) -> None:
    no_problem(app)
    assert not app.success
    assert "case_json" not in app.session_state  # no empty case offered for download
    assert any("Upload a photo" in t for t in texts(app, "info"))


def test_upload_reads_tiles_and_scores(app: AppTest, install: Install) -> None:
    reader = FakeReader()
    install(reader)
    upload(app, photo_bytes())
    no_problem(app)
    assert reader.calls == 1
    assert any("2 tai" in t for t in texts(app, "success")), result_text(app)
    pay = payout_rows(app)
    assert pay["Winner"] == ["+8"]
    assert pay["Discarder"] == ["-4"]
    how = "base = unit 1 x 2^(2 - 1) = 2; the discarder pays 2 x base = 4, each other player 1 x base = 2."
    assert f"How: {how}" in texts(app, "caption"), texts(app, "caption")
    assert f"({how})" in summary(app)
    assert pay["Other player"] == ["-2", "-2"]
    text = summary(app)
    assert text.startswith("2 tai")
    hand_line = "Hand: 12223m 456p 789s | melds: [CCC] | bonus: F1  ([..] exposed, <..> concealed kong)"
    assert hand_line in text, text  # in tile order
    # A rerun (any widget) must not run the model again.
    app.checkbox(key="pay_all").check().run()
    assert reader.calls == 1


def test_low_confidence_tile_is_flagged(app: AppTest, install: Install) -> None:
    install(FakeReader({90: scene(low=[4])}))
    upload(app, photo_bytes())
    no_problem(app)
    assert any("check tile 5" in t for t in texts(app, "warning")), texts(app, "warning")


def test_correction_changes_score_immediately(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    # Rows 4-9 are 4p 5p 6p 7s 8s 9s (reading order): make them characters -> half flush (+2).
    changes = {
        str(i): {"tile": code}
        for i, code in zip(range(3, 9), ["4m", "5m", "6m", "7m", "8m", "9m"], strict=True)
    }
    edit_tiles(app, {"edited_rows": changes, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    assert any("4 tai" in t for t in texts(app, "success")), result_text(app)
    # Deleting the flower (last row) takes its tai away again.
    edit_tiles(app, {"edited_rows": changes, "added_rows": [], "deleted_rows": [14]})
    assert any("3 tai" in t for t in texts(app, "success")), result_text(app)
    # The corrections are in the case JSON next to the photo's own reading.
    case = app.session_state["case_json"]
    actions = [c["action"] for c in case["corrections"]]
    assert actions.count("change") == 6 and actions.count("delete") == 1
    assert case["photo_tiles"][3]["code"] == "4p"
    assert case["concealed"][3] == "4m"
    assert case["result"]["tai"] == 3


def test_regroup_and_add_tile(app: AppTest, install: Install) -> None:
    install(FakeReader({90: scene(meld=["C", "C"])}))
    upload(app, photo_bytes())
    # The layout cannot make a meld of two tiles; the user adds the third C to meld 1.
    version = app.session_state["version"]
    base = app.session_state["base"]
    groups = [r.group for r in base.rows]
    meld_rows = [i for i, r in enumerate(base.rows) if r.code == "C"]
    edits = {
        "edited_rows": {str(i): {"group": "meld 1"} for i in meld_rows},
        "added_rows": [{"tile": "C", "group": "meld 1"}],
        "deleted_rows": [],
    }
    app.session_state[f"tiles_{version}"] = edits
    app.run()
    no_problem(app)
    assert any("2 tai" in t for t in texts(app, "success")), (groups, result_text(app))


def test_new_upload_asks_before_discarding_corrections(app: AppTest, install: Install) -> None:
    install(FakeReader({90: scene(), 30: scene(bonus=[])}))
    upload(app, photo_bytes(shade=90))
    edit_tiles(
        app,
        {"edited_rows": {"0": {"tile": "1m"}, "14": {"tile": "F2"}}, "added_rows": [], "deleted_rows": []},
    )
    version = app.session_state["version"]
    upload(app, photo_bytes(shade=30), name="second.jpg")
    no_problem(app)
    assert any("second.jpg" in t and "replace" in t for t in texts(app, "warning")), texts(app, "warning")
    # Nothing changed yet: same table, same corrections.
    assert app.session_state["version"] == version
    app.button(key="pending_keep").click().run()
    assert app.session_state["version"] == version
    assert not any("second.jpg" in t for t in texts(app, "warning"))
    assert any("second.jpg was not read" in str(c.value) for c in app.caption)
    assert case_edits(app)["14"] == {"tile": "F2"}
    # A third photo, and this time the user takes it.
    upload(app, photo_bytes(shade=30), name="third.jpg")
    assert any("third.jpg" in t for t in texts(app, "warning"))
    app.button(key="pending_replace").click().run()
    no_problem(app)
    assert app.session_state["version"] > version
    assert app.session_state["base"].name == "third.jpg"
    assert all(r.code != "F1" for r in app.session_state["base"].rows)


def install_two_ways(install: Install) -> list[str]:
    """A reader whose photo's last concealed tile reads 5m: the hand wins with it as 2m, or with the
    2m before it as 5m (two ways offered); returns the concealed tiles as read."""
    from vision.classes import CLASS_INDEX

    concealed = [*CONCEALED[:-1], "5m"]
    ways = (((10, CLASS_INDEX["2m"]),), ((9, CLASS_INDEX["5m"]),))
    install(FakeReader({90: scene(concealed=concealed)}, ways=ways))
    return concealed


def test_a_way_to_a_win_is_taken_with_a_button_and_the_users_corrections_stay(
    app: AppTest, install: Install
) -> None:
    concealed = install_two_ways(install)
    upload(app, photo_bytes())
    no_problem(app)
    version = app.session_state["version"]
    labels = [b.label for b in app.button if b.key and b.key.startswith(f"way_{version}_")]
    assert labels == ["Take #11 as 2m", "Take #10 as 5m"], labels
    assert any("more than one way" in t for t in texts(app, "warning"))
    # the user corrects the meld first (red to white dragons), then takes the first way
    edit_tiles(app, {"edited_rows": {str(i): {"tile": "P"} for i in (11, 12, 13)}})
    version = app.session_state["version"]  # a tile given another face restarts the table, folded in
    app.button(key=f"way_{version}_0").click().run()
    no_problem(app)
    base = app.session_state["base"]
    assert [r.code for r in base.rows[9:14]] == ["2m", "2m", "P", "P", "P"]
    assert any("2 tai" in t for t in texts(app, "success")), result_text(app)
    assert not any("more than one way" in t for t in texts(app, "warning"))
    assert not [b for b in app.button if b.key and b.key.startswith("way_")]
    corrections = json.loads(json.dumps(app.session_state["case_json"]))["corrections"]
    # each tile's net change, by tile number (`table_edits.net_corrections`)
    assert [(c["tile"], c["to"], c.get("by")) for c in corrections] == [
        (11, "2m", "win option"),
        (12, "P", None),
        (13, "P", None),
        (14, "P", None),
    ]
    # the page names the user's corrections and the way taken (the line went blank once a way was taken)
    trail = "#11 5m → 2m (way to a win taken); #12 C → P; #13 C → P; #14 C → P"
    said = [t for t in captions(app) if t.startswith("Your corrections")]
    assert said == [f"Your corrections: {trail}"]
    # reopened, the case still shows what was corrected before it was saved
    fresh = AppTest.from_file(str(APP), default_timeout=60)
    fresh.run()
    open_case_file(fresh, json.dumps(app.session_state["case_json"]).encode())
    no_problem(fresh)
    said = [t for t in captions(fresh) if t.startswith("Corrected before")]
    assert said == [f"Corrected before the case was saved: {trail}"]
    assert not any(t.startswith("Your corrections") for t in captions(fresh))
    # undo: back to the photo's reading, the ways offered again
    app.button(key="undo").click().run()
    no_problem(app)
    assert [r.code for r in app.session_state["base"].rows[:11]] == concealed
    assert len([b for b in app.button if b.key and b.key.startswith("way_")]) == 2


def codes_now(at: AppTest) -> list[str]:
    """The hand's tiles as the table shows them now: its rows with the edits standing in it."""
    from app_ui.table_edits import apply_edits

    edits = at.session_state[f"tiles_{at.session_state['version']}"] or {}
    return [row.code for row in apply_edits(at.session_state["base"].rows, edits)]


def undo_last(at: AppTest) -> AppTest:
    at.button(key="undo_last").click().run()
    no_problem(at)
    return at


def test_the_last_change_is_undone_one_step_at_a_time(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    # nothing changed yet: greyed out, but in its place, so the table does not move at the first change
    assert app.button(key="undo_last").disabled and app.button(key="undo").disabled
    read = codes_now(app)
    first = {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []}
    edit_tiles(app, first)
    # it says what it undoes: an audit changed a tile, then the seat wind, and "Undo the last change"
    # undid the tile (the winds, how it was won and the rules are no step of it)
    assert app.button(key="undo_last").label == "Undo the last tile change"
    edit_tiles(app, {**first, "edited_rows": {"0": {"tile": "9m"}, "14": {"tile": "F2"}}})
    edit_tiles(
        app, {**first, "edited_rows": {"0": {"tile": "9m"}, "14": {"tile": "F2"}}, "deleted_rows": [13]}
    )
    assert codes_now(app) == ["9m", *read[1:13], "F2"]
    undo_last(app)  # the deleted tile is back, where it was
    assert codes_now(app) == ["9m", *read[1:14], "F2"]
    said = [t for t in captions(app) if t.startswith("Your corrections")]
    assert said == ["Your corrections: #1 1m → 9m; #15 F1 → F2"], said
    undo_last(app)
    assert codes_now(app) == ["9m", *read[1:]]
    undo_last(app)
    assert codes_now(app) == read
    assert not [t for t in captions(app) if t.startswith("Your corrections")]
    assert not pressable(app, "undo_last") and not pressable(app, "undo")
    assert any("2 tai" in t for t in texts(app, "success")), result_text(app)


def _drawn_over_the_table(at: AppTest) -> list[tuple[str, object]]:
    """What the page draws between *Check the tiles* and the tile table, by kind and key, in order."""
    drawn = [(element.type, getattr(element, "key", None)) for element in at.main]
    # a header's value compared alone: a dataframe's has no plain truth value
    said = [str(element.value) if element.type == "header" else "" for element in at.main]  # type: ignore[union-attr]
    heading = said.index("Check the tiles")
    table = next(i for i, (kind, _) in enumerate(drawn) if kind == "dataframe")
    return drawn[heading:table]


def test_the_tile_table_stays_put_at_the_first_correction(app: AppTest) -> None:
    # an audit: the undo buttons and the corrections line first drawn at the first correction, over the
    # table, pushed it down 83 px on a phone, the row just tapped moving from under the finger
    typed_hand(app, "123m 456p 789s CCC 22m")
    before = _drawn_over_the_table(app)
    assert app.button(key="undo_last").disabled and app.button(key="undo").disabled
    edit_tiles(app, {"edited_rows": {"0": {"tile": "4m"}}, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    assert _drawn_over_the_table(app) == before
    assert pressable(app, "undo_last") and pressable(app, "undo")
    assert "Your corrections: #1 1m → 4m" in captions(app)


def test_undoing_all_corrections_or_a_way_taken_can_be_undone_and_a_new_hand_starts_afresh(
    app: AppTest, install: Install
) -> None:
    concealed = install_two_ways(install)
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {"14": {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    version = app.session_state["version"]
    app.button(key=f"way_{version}_0").click().run()
    no_problem(app)
    assert codes_now(app)[10] == "2m" and codes_now(app)[14] == "F2"
    app.button(key="undo").click().run()  # every correction undone, the way's too
    no_problem(app)
    assert codes_now(app) == [*concealed, *MELD, *BONUS]
    undo_last(app)  # back: the way taken, the F2 kept
    assert codes_now(app)[10] == "2m" and codes_now(app)[14] == "F2"
    undo_last(app)  # back before the way: the F2 alone, the ways offered again
    assert codes_now(app) == [*concealed, *MELD, "F2"]
    assert len([b for b in app.button if b.key and b.key.startswith("way_")]) == 2
    upload(app, photo_bytes(shade=30), name="second.jpg")  # asks first: corrections stand
    app.button(key="pending_replace").click().run()
    no_problem(app)
    assert app.session_state["base"].name == "second.jpg"
    assert not pressable(app, "undo_last")


def test_a_kongs_tick_is_undone_too(app: AppTest, install: Install) -> None:
    install(FakeReader({90: scene(meld=["C", "C", "C", "C"])}))
    upload(app, photo_bytes())
    key = f"concealed_{app.session_state['version']}_meld_1"
    assert app.checkbox(key=key).value is False
    app.checkbox(key=key).check().run()
    no_problem(app)
    undo_last(app)
    key = f"concealed_{app.session_state['version']}_meld_1"
    assert app.checkbox(key=key).value is False
    assert not pressable(app, "undo_last")


def test_an_edit_that_makes_a_kong_is_undone_in_one_step(app: AppTest) -> None:
    # the kong's "is concealed" box, first drawn after the edit, is no change of the user's
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    read = codes_now(app)
    edit_tiles(app, {"edited_rows": {}, "added_rows": [{"tile": "C", "group": "meld 1"}], "deleted_rows": []})
    assert codes_now(app) == [*read, "C"]
    assert len(app.session_state["undo_list"]) == 1
    undo_last(app)
    assert codes_now(app) == read
    assert not pressable(app, "undo_last")


def test_upload_without_corrections_replaces_silently(app: AppTest, install: Install) -> None:
    install(FakeReader({90: scene(), 30: scene(bonus=[])}))
    upload(app, photo_bytes(shade=90))
    upload(app, photo_bytes(shade=30), name="second.jpg")
    assert app.session_state["base"].name == "second.jpg"
    assert app.session_state["pending"] is None
    assert not any("second.jpg" in t for t in texts(app, "warning"))


# The 3-player set has no characters or bamboo: the fake reads them as the dots of their rank.
AS_DOTS = {f"{rank}{suit}": f"{rank}p" for rank in range(1, 10) for suit in "ms"}


def test_a_photo_is_read_as_the_rule_sets_tiles_and_read_again_after_a_switch(
    app: AppTest, install: Install
) -> None:
    reader = FakeReader(outside=AS_DOTS)
    install(reader)
    upload(app, photo_bytes())
    no_problem(app)
    singapore = reader.faces_asked[0]
    assert singapore is not None and "1s" in singapore and not {"face", "fly"} & singapore
    assert app.session_state["case_json"]["source"]["read_as"] == "singapore"
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert reader.calls == 1  # read again from what the models saw: no model ran
    base = app.session_state["base"]
    assert base.read_as == "malaysian"
    assert [r.code for r in base.rows[:11]] == [AS_DOTS.get(c, c) for c in CONCEALED]
    notes = texts(app, "info")
    said = [t for t in notes if "read again as Malaysian (3 players) tiles: " in t]
    assert len(said) == 1 and "1m -> 1p, " in said[0] and "7s -> 7p" in said[0] and "4p" not in said[0], notes
    assert "2m -> 2p (x3)" in said[0]
    # what the set lacks comes first: a photo of another game's hand switched by mistake (stage 81)
    assert said[0].startswith(
        "The photo holds characters (m) x5 and bamboo (s) x3, which Malaysian (3 players) tiles lack: if "
        "it is another game's hand, set the rule set back. The photo's tiles read again as"
    ), said[0]
    assert app.session_state["case_json"]["source"]["read_as"] == "malaysian"
    app.selectbox(key="rules").set_value("singapore").run()
    no_problem(app)
    assert [r.code for r in app.session_state["base"].rows[:11]] == CONCEALED
    assert any("2 tai" in t for t in texts(app, "success")), result_text(app)


def test_a_rule_set_without_the_liable_player_s_seat_says_the_seat_is_what_it_lacks(app: AppTest) -> None:
    # an audit read "Malaysian (3 players) has no North liable player"
    typed_hand(app, "123p 456p 789p 22p", melds="555p")
    app.checkbox(key="pay_all").check().run()
    app.selectbox(key="discarder_wind").set_value("N").run()
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    notes = [t for t in texts(app, "info") if t.startswith("Malaysian (3 players) has ")]
    assert notes == [
        "Malaysian (3 players) has no North seat: the liable player is not said now. "
        "Switching back restores it."
    ], texts(app, "info")
    # a seat moved onto the discarder's: said after the seat's line
    app.selectbox(key="rules").set_value("singapore").run()
    app.checkbox(key="pay_all").uncheck().run()
    app.selectbox(key="seat_wind").set_value("N").run()
    app.selectbox(key="discarder_wind").set_value("E").run()
    app.selectbox(key="rules").set_value("malaysian").run()
    notes = [t for t in texts(app, "info") if t.startswith("Malaysian (3 players) has ")]
    assert notes == [
        "Malaysian (3 players) has no North seat: the winner's seat is East now. Who discarded is not "
        "said now: East is the winner's seat. Switching back restores them."
    ], texts(app, "info")
    # a seat the set has, moved onto the hidden discarder's by the user: said alone (a review read
    # "Malaysian (3 players) has who discarded is not said now")
    app.selectbox(key="rules").set_value("singapore").run()
    app.selectbox(key="seat_wind").set_value("W").run()
    app.selectbox(key="discarder_wind").set_value("S").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    app.selectbox(key="seat_wind").set_value("S").run()
    app.selectbox(key="rules").set_value("malaysian").run()
    said = [t for t in texts(app, "info") if "is not said now" in t]
    assert said == [
        "Who discarded is not said now: South is the winner's seat. Switching back restores it."
    ], texts(app, "info")


def test_a_photo_taken_under_malaysian_rules_is_read_as_that_sets_tiles(
    app: AppTest, install: Install
) -> None:
    reader = FakeReader(outside=AS_DOTS)
    install(reader)
    app.selectbox(key="rules").set_value("malaysian").run()
    upload(app, photo_bytes())
    no_problem(app)
    malaysian = reader.faces_asked[0]
    assert malaysian is not None and {"fly", "face", "5p"} <= malaysian and "5s" not in malaysian
    assert all(r.code not in AS_DOTS for r in app.session_state["base"].rows)


def test_a_malaysian_set_without_north_is_read_without_it_and_read_again_when_the_option_changes(
    app: AppTest, install: Install
) -> None:
    winds = ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "N", "N"]
    reader = FakeReader({90: scene(concealed=winds)}, outside={"N": "fly"})
    install(reader)
    app.selectbox(key="rules").set_value("malaysian").run()
    upload(app, photo_bytes())
    no_problem(app)
    assert reader.faces_asked[0] is not None and "N" in reader.faces_asked[0]
    assert [r.code for r in app.session_state["base"].rows[:11]] == winds
    app.checkbox(key="opt_malaysian_north_wind").uncheck().run()
    no_problem(app)
    assert reader.calls == 1  # read again from what the models saw
    base = app.session_state["base"]
    assert base.read_as == "malaysian without N" and [r.code for r in base.rows[9:11]] == ["fly", "fly"]
    said = [t for t in texts(app, "info") if "read again as Malaysian (3 players) tiles without N: " in t]
    assert len(said) == 1 and "N -> fly (x2)" in said[0], texts(app, "info")
    assert app.session_state["case_json"]["source"]["read_as"] == "malaysian without N"
    # a photo taken now is read without North at once
    upload(app, photo_bytes(shade=30), name="second.jpg")
    no_problem(app)
    assert reader.faces_asked[-1] is not None and "N" not in reader.faces_asked[-1]
    assert "fly" in reader.faces_asked[-1]
    app.checkbox(key="opt_malaysian_north_wind").check().run()
    no_problem(app)
    assert app.session_state["base"].read_as == "malaysian"


def photo_won_on_bamboo(app: AppTest, install: Install) -> list[str]:
    """A photo whose hand holds a pair the Malaysian set has not (5s, read as the 5p it most looks like
    there), won on that tile; returns the concealed tiles as read under Singapore rules."""
    pair = ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "5s", "5s"]
    install(FakeReader({90: scene(concealed=pair)}, outside={"5s": "5p"}))
    upload(app, photo_bytes())
    app.selectbox(key="winning_tile").set_value("5s").run()
    return pair


def corrected_then_switched_to_malaysian(app: AppTest, install: Install) -> None:
    """`photo_won_on_bamboo` with tile 15 corrected to F2, then the rule set switched to Malaysian
    (the corrections stand, so its tiles are not read again yet)."""
    photo_won_on_bamboo(app, install)
    edit_tiles(app, {"edited_rows": {"14": {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    app.selectbox(key="rules").set_value("malaysian").run()


def assert_read_as_singapore_with_the_correction(app: AppTest) -> None:
    """The table and winning tile as `corrected_then_switched_to_malaysian` found them: 5s 5s, F2, won
    on 5s."""
    assert codes_now(app)[9:11] == ["5s", "5s"] and codes_now(app)[14] == "F2"
    assert app.selectbox(key="winning_tile").value == "5s"


def test_undo_after_corrections_undone_and_read_again_brings_back_the_winning_tile(
    app: AppTest, install: Install
) -> None:
    # corrections under Singapore, a switch to Malaysian (offered, not taken), then Undo my corrections:
    # with none left, the tiles are read again as Malaysian and the winning tile 5s follows them to 5p;
    # stepping back brings the Singapore names back, and the winning tile with them
    corrected_then_switched_to_malaysian(app, install)
    assert app.selectbox(key="winning_tile").value == "5s"
    app.button(key="undo").click().run()
    no_problem(app)
    assert codes_now(app)[9:11] == ["5p", "5p"] and app.selectbox(key="winning_tile").value == "5p"
    undo_last(app)
    assert_read_as_singapore_with_the_correction(app)


def test_the_winning_tile_follows_its_tiles_through_a_re_read_that_renames_them(
    app: AppTest, install: Install
) -> None:
    pair = photo_won_on_bamboo(app, install)
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "5p"
    notes = [t for t in texts(app, "info") if "read again as" in t]
    assert len(notes) == 1 and notes[0].endswith("The winning tile follows its tiles: 5s -> 5p."), notes
    assert not any("set aside" in t for t in captions(app))
    # a tile read as before keeps the winning tile as it is, and no line says otherwise
    app.selectbox(key="winning_tile").set_value("9p").run()
    app.selectbox(key="rules").set_value("singapore").run()
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "9p"
    assert not any("winning tile follows" in t for t in texts(app, "info"))
    # read as a fly among the concealed tiles, it follows them: a drawn fly may win (seeds/004)
    install(FakeReader({30: scene(concealed=pair)}, outside={"5s": "fly"}))
    upload(app, photo_bytes(shade=30), name="second.jpg")
    app.selectbox(key="winning_tile").set_value("5s").run()
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "fly"
    notes = [t for t in texts(app, "info") if "read again as" in t]
    assert len(notes) == 1 and notes[0].endswith("The winning tile follows its tiles: 5s -> fly."), notes


def test_undoing_a_re_read_that_dropped_corrections_brings_back_the_winning_tile_it_moved(
    app: AppTest, install: Install
) -> None:
    corrected_then_switched_to_malaysian(app, install)
    app.button(key="read_again").click().run()
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "5p"
    undo_last(app)  # the corrections, the Singapore reading and the winning tile as they were
    assert_read_as_singapore_with_the_correction(app)
    # a winning tile the user chose after a change of the table stays through undoing that change
    edit_tiles(app, {"edited_rows": {"0": {"tile": "1m"}}, "added_rows": [], "deleted_rows": []})
    app.selectbox(key="winning_tile").set_value("9p").run()
    undo_last(app)
    assert codes_now(app)[0] == "1p" and app.selectbox(key="winning_tile").value == "9p"


def test_corrections_undone_while_read_as_another_set_come_back_with_one_step(
    app: AppTest, install: Install
) -> None:
    install(FakeReader(outside=AS_DOTS))
    upload(app, photo_bytes())
    first = {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []}
    edit_tiles(app, first)
    edit_tiles(app, {**first, "edited_rows": {"0": {"tile": "9m"}, "14": {"tile": "F2"}}})
    app.selectbox(key="rules").set_value("malaysian").run()  # the corrections stay, read as Singapore's
    assert app.session_state["base"].read_as == "singapore"
    app.button(key="undo").click().run()  # no corrections left: the tiles are read again as Malaysian
    no_problem(app)
    assert app.session_state["base"].read_as == "malaysian" and codes_now(app)[0] == "1p"
    undo_last(app)  # the corrections back, on the tiles as they were read then, with the offer to re-read
    base = app.session_state["base"]
    assert base.read_as == "singapore" and codes_now(app)[0] == "9m" and codes_now(app)[14] == "F2"
    assert [b for b in app.button if b.key == "read_again"]
    undo_last(app)
    assert codes_now(app)[0] == "9m" and codes_now(app)[14] == "F1"


def test_tiles_the_set_lacks_kept_by_corrections_name_the_button_that_reads_them_again(
    app: AppTest, install: Install
) -> None:
    # a walkthrough: under Malaysian rules the result said to correct the photo's 5s by hand, or set the
    # rule set back; the one tap that reads every tile again, a screen above, went unsaid
    install(FakeReader(outside=AS_DOTS))
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {"14": {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    label = "Read the tiles again as Malaysian (3 players) tiles (drops your corrections)"
    assert app.button(key="read_again").label == label
    errors = [t for t in texts(app, "error") if "not in the Malaysian tile set" in t]
    assert len(errors) == 1 and errors[0].endswith(
        f": press *{label}* above, correct the tiles, or change the rule set in the sidebar."
    ), errors
    app.button(key="read_again").click().run()
    assert not any("not in the Malaysian tile set" in t for t in texts(app, "error"))


def test_corrected_tiles_are_read_again_for_another_rule_set_only_when_asked(
    app: AppTest, install: Install
) -> None:
    reader = FakeReader(outside=AS_DOTS)
    install(reader)
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {"14": {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    base = app.session_state["base"]
    assert base.read_as == "singapore" and [r.code for r in base.rows[:11]] == CONCEALED
    assert case_edits(app) == {"14": {"tile": "F2"}}
    notes = texts(app, "info")
    assert any("read as Singapore (4 players) tiles; your corrections are kept" in t for t in notes)
    app.button(key="read_again").click().run()
    no_problem(app)
    base = app.session_state["base"]
    assert base.read_as == "malaysian" and base.rows[0].code == "1p" and base.rows[-1].code == "F1"
    assert not case_has_edits(app)
    assert not [b for b in app.button if b.key == "read_again"]
    assert reader.calls == 1


def test_the_re_read_offer_waits_while_a_new_photo_asks_to_replace_the_corrections(
    app: AppTest, install: Install
) -> None:
    reader = FakeReader({90: scene(), 30: scene(bonus=[])}, outside=AS_DOTS)
    install(reader)
    upload(app, photo_bytes(shade=90))
    edit_tiles(app, {"edited_rows": {"14": {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    app.selectbox(key="rules").set_value("malaysian").run()
    assert not app.button(key="read_again").disabled
    upload(app, photo_bytes(shade=30), name="second.jpg")
    assert any("second.jpg" in t and "replace" in t for t in texts(app, "warning"))
    assert app.button(key="read_again").disabled  # the question about second.jpg comes first
    assert app.button(key="undo").disabled
    app.button(key="pending_keep").click().run()
    no_problem(app)
    assert app.session_state["base"].name == "hand.jpg" and reader.calls == 1
    assert not app.button(key="read_again").disabled


def test_a_photo_with_no_tiles_says_nothing_of_reading_them_again(app: AppTest, install: Install) -> None:
    install(FakeReader({90: scene(concealed=[], meld=[], bonus=[])}, outside=AS_DOTS))
    upload(app, photo_bytes())
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert app.session_state["base"].read_as == "malaysian"
    assert not any("read again" in t or "were read as" in t for t in texts(app, "info")), texts(app, "info")


def test_a_seat_set_to_the_discarders_gives_one_toast(app: AppTest) -> None:
    # two toasts stacked over a fifth of a phone's screen: the note on the discarder, and the score's change
    typed_hand(app, "123m 456p 789s CCC 22m", bonus="F1")
    app.selectbox(key="discarder_wind").set_value("S").run()
    app.selectbox(key="seat_wind").set_value("S").run()
    no_problem(app)
    note = "South is the winner's seat now: who discarded is not said."
    # the page's line under the result says every change; the toast, under the note, says it once
    changed = "Changed: 2 tai → 1 tai after: seat wind East → South"
    assert f"{changed}; who discarded South → not said." in texts(app, "info")
    assert [t.value for t in app.toast] == [f"{note}\n\n{changed}."]


def test_a_rule_set_switch_that_unsets_the_discarder_says_it_once_in_its_toast(app: AppTest) -> None:
    # the switch's note said "who discarded is not said now" and the change line under it in the same
    # toast "who discarded North → not said"
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.selectbox(key="discarder_wind").set_value("N").run()
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    note = (
        "Malaysian (3 players) has no North seat: who discarded is not said now. Switching back restores it."
    )
    assert note in texts(app, "info"), texts(app, "info")
    # the line under the result says every change; the toast, under the note, leaves the discarder out
    assert any(t.endswith("; who discarded North → not said.") for t in texts(app, "info")), texts(
        app, "info"
    )
    (toast,) = [t.value for t in app.toast]
    assert toast.startswith(f"{note}\n\nChanged: "), toast
    assert toast.count("not said") == 1, toast
    assert toast.endswith("after: rule set Singapore (4 players) → Malaysian (3 players)."), toast


def test_a_note_queued_in_a_run_cut_short_by_a_rerun_still_shows_in_the_next_toast(app: AppTest) -> None:
    # pay-all unticked and *Add it* tapped in one run: the button's rerun cut the run after the note was
    # queued, the next run dropped it, and the pay-all change went unsaid (the next run's line is told
    # against the cut run's score)
    typed_hand(app, "123m 456p 789s 22m", melds="CCC", bonus="F1")
    app.selectbox(key="discarder_wind").set_value("S").run()
    app.checkbox(key="pay_all").check().run()
    app.selectbox(key="discarder_wind").set_value("W").run()
    version = app.session_state["version"]
    app.selectbox(key=f"add_tile_{version}").set_value("cat").run()
    app.checkbox(key="pay_all").uncheck()
    app.button(key=f"add_tile_go_{version}").click().run()
    no_problem(app)
    (toast,) = [t.value for t in app.toast]
    note = "Pay-all off: discarded by South again, as before it (West was the liable player)."
    assert toast.startswith(f"{note}\n\nChanged: "), toast
    assert "pay-all on → off" in toast and "cat added to bonus" in toast, toast
    app.run()  # shown once
    assert not app.toast


def case_has_edits(at: AppTest) -> bool:
    key = f"tiles_{at.session_state['version']}"
    edits = at.session_state.get(key)
    return bool(edits) and any(edits.get(k) for k in ("edited_rows", "added_rows", "deleted_rows"))


def test_context_changes_payout(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    app.radio(key="won_by").set_value("self-drawn").run()
    no_problem(app)
    pay = payout_rows(app)
    assert pay["Winner"] == ["+12"], pay
    assert "Discarder" not in pay
    # South seat: F1 is no longer the seat flower -> 1 tai; self-drawn each pays 2.
    app.selectbox(key="seat_wind").set_value("S").run()
    assert any("1 tai" in t for t in texts(app, "success")), result_text(app)
    assert payout_rows(app)["Winner"] == ["+6"]
    # what the change did is said, once: the next run with nothing changed says nothing of it
    assert [t for t in texts(app, "info") if t.startswith("Changed:")] == [
        "Changed: 2 tai → 1 tai after: seat wind East → South."
    ]
    assert [t.value for t in app.toast] == ["Changed: 2 tai → 1 tai after: seat wind East → South."]
    app.run()
    assert not any(t.startswith("Changed:") for t in texts(app, "info"))


def test_context_survives_reruns_and_new_case(app: AppTest, install: Install) -> None:
    install(FakeReader())
    app.selectbox(key="prevailing_wind").set_value("S").run()
    app.checkbox(key="pay_all").check().run()
    upload(app, photo_bytes())
    assert app.selectbox(key="prevailing_wind").value == "S"
    assert app.checkbox(key="pay_all").value is True
    assert "prevailing S" in summary(app)


def test_winning_tile_picked_from_hand(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    options = app.selectbox(key="winning_tile").options
    assert "2m" in options and "C" in options and "F1" not in options
    app.selectbox(key="winning_tile").set_value("2m").run()
    no_problem(app)
    assert "winning tile 2m" in summary(app)


def test_a_sequence_hand_with_no_winning_tile_asks_for_it_not_called_a_loss(app: AppTest) -> None:
    # the box starts unset: scored without it, a 4-tai sequence hand is refused its pattern (the wait
    # decides it), and had been shown in red as no win
    typed_hand(app, "123m 456p 789s 234s 55m", bonus="")
    no_problem(app)
    assert not texts(app, "error") and not texts(app, "success"), result_text(app)
    (ask,) = [t for t in texts(app, "warning") if t.startswith("**Set the winning tile**")]
    assert "Won on 1m, 4p, 6p, 2s, 4s or 9s: 4 tai; 2m, 3m, 5m, 5p, 3s, 7s or 8s: not a win." in ask
    as_it_stands = "As it stands, with no winning tile: Not a valid win"
    assert any(t.startswith(as_it_stands) for t in texts(app, "caption"))
    assert "Score now: set the winning tile to score it" in texts(app, "caption")
    # the scoring's note that no winning tile was given says what the ask says: left to it
    assert not any("no winning tile given" in t for t in texts(app, "info")), texts(app, "info")
    app.selectbox(key="winning_tile").set_value("4s").run()
    assert any("4 tai" in t for t in texts(app, "success")), result_text(app)
    assert not any("Set the winning tile" in t for t in texts(app, "warning"))


def test_a_win_whose_score_the_winning_tile_changes_says_so(app: AppTest) -> None:
    typed_hand(app, "123m 456m 789m 234m 55m", bonus="")  # full flush; a sequence hand on most waits
    no_problem(app)
    assert any("4 tai" in t for t in texts(app, "success")), result_text(app)
    asks = [t for t in texts(app, "warning") if t.startswith("**Set the winning tile**")]
    assert len(asks) == 1 and asks[0].endswith("Won on 1m, 2m, 4m, 5m, 6m or 9m: 5 tai; 3m, 7m or 8m: 4 tai.")
    typed_hand(app, "123m 456p 789s CCC 55p", bonus="")  # 1 tai whichever tile won it: nothing asked
    assert any("1 tai" in t for t in texts(app, "success")), result_text(app)
    assert not any("Set the winning tile" in t for t in texts(app, "warning"))


def test_rule_options_change_result(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    app.number_input(key="opt_singapore_unit").set_value(2.0).run()
    assert payout_rows(app)["Winner"] == ["+16"]
    # A house minimum of 3 tai makes this 2-tai hand not a win, with a reason.
    app.number_input(key="opt_singapore_min_tai").set_value(3).run()
    no_problem(app)
    errors = texts(app, "error")
    assert any(t.startswith("Not a valid win") and "minimum is 3" in t for t in errors), errors


def sidebar_keys(at: AppTest) -> set[str]:
    kinds = ("checkbox", "number_input", "selectbox", "text_input")
    return {str(getattr(w, "key", "")) for kind in kinds for w in at.sidebar.get(kind)}


def test_every_option_a_rule_set_reads_is_in_its_sidebar_and_no_other(app: AppTest) -> None:
    import dataclasses

    import scoring

    def read_by(rules: str) -> set[str]:
        return {
            f"opt_{rules}_{f.name}"
            for f in dataclasses.fields(scoring.Options)
            if rules in f.metadata.get("rules", (rules,))
        }

    every = {f"opt_{r}_{f.name}" for r in scoring.RULESET_NAMES for f in dataclasses.fields(scoring.Options)}
    keys = sidebar_keys(app)
    assert read_by("singapore") <= keys and not (every - read_by("singapore")) & keys
    assert "opt_singapore_points_per_fan" not in keys and "opt_singapore_min_tai" in keys
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    keys = sidebar_keys(app)
    assert read_by("malaysian") <= keys and not (every - read_by("malaysian")) & keys
    # the Singapore payout options change nothing under Malaysian rules, so they are not offered
    assert "opt_malaysian_payout_scheme" not in keys and "opt_malaysian_unit" not in keys
    # Each rule set starts from its own defaults (Malaysian minimum 5 fan), labelled in its unit.
    assert app.number_input(key="opt_malaysian_min_tai").value == 5
    assert app.number_input(key="opt_malaysian_min_tai").label == "Min fan"


def test_a_number_option_box_takes_what_the_scoring_takes(app: AppTest) -> None:
    # an audit: points per fan 0 was taken by its box and refused in the result; the boxes are bounded
    # as the scoring takes each option alone (the browser says a value beyond them at the box)
    assert (
        app.number_input(key="opt_singapore_max_tai").min,
        app.number_input(key="opt_singapore_max_tai").max,
    ) == (
        1,
        64,
    )
    assert app.number_input(key="opt_singapore_min_tai").min == 0
    # an amount's least paid and its 6 decimals are refused in the result, quoting it as typed
    assert app.number_input(key="opt_singapore_unit").min == 0
    app.selectbox(key="rules").set_value("malaysian").run()
    box = app.number_input(key="opt_malaysian_points_per_fan")
    assert (box.min, box.max) == (1, 10**12)
    typed_hand(app, "234p 567p 99p", kongs="1111p CCCC")
    app.number_input(key="opt_malaysian_points_per_fan").set_value(1).run()
    no_problem(app)
    # one point a fan is said so (it had read "1 points a fan"), on the page and in the summary alike
    assert any("min 5 / max 10 fan, 1 point a fan" in caption for caption in captions(app)), captions(app)
    assert "min 5 / max 10 fan, 1 point a fan" in summary(app)
    page = " ".join([*captions(app), summary(app)])
    assert "1 points" not in page and "x 1 point per fan" in page


def test_bad_payout_table_is_explained(app: AppTest) -> None:
    assert app.text_input(key="opt_singapore_payout_table").disabled  # read only under the table scheme
    app.selectbox(key="opt_singapore_payout_scheme").set_value("table").run()
    assert not app.text_input(key="opt_singapore_payout_table").disabled
    app.text_input(key="opt_singapore_payout_table").input("4/2, lots").run()
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m").run()
    app.text_input(key="typed_melds").input("CCC").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert any("'lots' is not a number" in t for t in texts(app, "warning")), texts(app, "warning")
    # the payouts shown rest on the default table, and the warning says so
    assert any("the default (4/2, 7/3," in t for t in texts(app, "warning")), texts(app, "warning")
    app.selectbox(key="opt_singapore_payout_scheme").set_value("standard").run()
    assert not any("is not a number" in t for t in texts(app, "warning")), texts(app, "warning")  # unused


def test_a_typed_meld_with_a_tile_the_set_lacks_says_so(app: AppTest) -> None:
    # an audit (stage 77): `555pfly` under Singapore rules was told "fly cannot stand in a kong"
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m").run()
    app.text_input(key="typed_melds").input("555pfly").run()
    app.button(key="typed_use").click().run()
    said = (
        "Could not use the hand: the meld 5p 5p 5p fly holds fly, which the Singapore (4 players) tiles do "
        "not include."
    )
    assert said in texts(app, "error"), texts(app, "error")
    app.selectbox(key="rules").set_value("malaysian").run()
    app.text_input(key="typed_concealed").input("123p 456p 789p 22p").run()
    app.button(key="typed_use").click().run()
    assert any("fly cannot stand in a kong" in t for t in texts(app, "error")), texts(app, "error")


def test_typed_hand_scores(app: AppTest) -> None:
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m").run()
    app.text_input(key="typed_melds").input("CCC").run()
    app.text_input(key="typed_bonus").input("F1").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert any("2 tai" in t for t in texts(app, "success")), result_text(app)


def test_the_question_about_a_typed_hand_goes_when_the_fields_change(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    typed_hand(app, "123m 456p 789s CCC 55p")
    assert app.session_state["pending_typed"] is not None  # corrections: asked first
    app.text_input(key="typed_concealed").input("123m 456p 789s FFF 55p").run()
    no_problem(app)
    assert app.session_state["pending_typed"] is None  # no button left to use the hand typed before
    assert not any(b.key == "typed_replace" for b in app.button)
    assert any("not the one scored" in t for t in texts(app, "warning"))


def test_a_typed_hand_changed_and_not_used_says_the_result_is_not_its_score(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s CCC 55p")
    assert any("1 tai" in t for t in texts(app, "success")), result_text(app)
    assert not any("not the one scored" in t for t in texts(app, "warning"))
    # the user changes a field and leaves it (a tap elsewhere: a run), pressing neither the button nor
    # Enter: the score is still the old hand's
    app.text_input(key="typed_concealed").input("123m 456p 789s FFF 55p").run()
    no_problem(app)
    assert sum("not the one scored" in t for t in texts(app, "warning")) == 2  # by the fields, by the result
    app.button(key="typed_use").click().run()
    assert not any("not the one scored" in t for t in texts(app, "warning")), texts(app, "warning")
    assert any("1 tai" in t for t in texts(app, "success")), result_text(app)
    assert app.session_state["base"].rows[9].code == "F"
    # what the user typed, shown as typed in the error (no bold or link made of it)
    for typed, shown in (
        ("**bold** 55p", r"'\*\*bold\*\*'"),
        ("[x](http://e.x) 55p", r"'\[x\](http:'"),  # a stroke parts groups, as a space does (stage 89)
    ):
        app.text_input(key="typed_concealed").input(typed).run()
        app.button(key="typed_use").click().run()
        assert any(shown in t for t in texts(app, "error")), texts(app, "error")


def test_a_typing_error_says_the_result_is_still_the_earlier_hand(app: AppTest) -> None:
    app.text_input(key="typed_concealed").input("123M 456P 789s 22m").run()  # any letter case
    app.text_input(key="typed_melds").input("ccc").run()
    app.text_input(key="typed_bonus").input("F1").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert any("2 tai" in t for t in texts(app, "success")), result_text(app)
    assert not any("still the hand before it" in t for t in texts(app, "warning"))
    app.text_input(key="typed_kongs").input("555s").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert any("a concealed kong is four of one tile" in t for t in texts(app, "error")), texts(app, "error")
    assert any("still the hand before it" in t for t in texts(app, "warning")), texts(app, "warning")
    app.text_input(key="typed_kongs").input("").run()
    app.button(key="typed_use").click().run()
    assert not any("still the hand before it" in t for t in texts(app, "warning"))


def test_a_typed_hand_refused_then_the_table_corrected_leaves_one_line_about_it(
    app: AppTest, install: Install
) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    app.text_input(key="typed_concealed").input("555m 456p 789s 234s 55m").run()  # five 5m
    app.button(key="typed_use").click().run()
    refusal = [t for t in texts(app, "error") if t.startswith("Could not use the hand")]
    assert refusal, texts(app, "error")
    assert any("still the hand before it" in t for t in texts(app, "warning"))
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    # the result is the table's as corrected now: nothing says it is "the hand before" the typed one,
    # and the fields keep the refusal's own words, not "press Use this hand", which would refuse again
    assert not any("still the hand before it" in t for t in texts(app, "warning")), texts(app, "warning")
    assert not any("not the one scored" in t for t in texts(app, "warning")), texts(app, "warning")
    assert [t for t in texts(app, "error") if t.startswith("Could not use the hand")] == refusal
    app.text_input(key="typed_concealed").input("123m 456p 789s 234s 55m").run()  # typed anew
    assert any("not the one scored" in t for t in texts(app, "warning")), texts(app, "warning")


@pytest.mark.parametrize(
    ("concealed", "melds", "error"),
    [
        ("", "", "Type at least one tile"),
        ("22m", "CCC FFF PPP EEE SSS", "At most 4 melds"),
        # scoring's own refusals of a hand that cannot be one stopped the page (session 45 audit)
        ("123m 456p 789s EEE 22m cat", "", "bonus tile cat is inside the concealed hand"),
        ("123m 456p 789s 22m back", "", "a face-down tile 'back' can only stand in a concealed kong"),
        ("123m 456p 789s 22m", "F1F1F1", "meld 'F1F1F1': F1 is a bonus tile; type it under Bonus tiles"),
    ],
    ids=["nothing-typed", "five-melds", "animal-among-concealed", "face-down-tile", "pong-of-flowers"],
)
def test_every_typed_hand_refused_says_the_result_is_still_the_earlier_hand(
    app: AppTest, concealed: str, melds: str, error: str
) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    assert not any("still the hand before it" in t for t in texts(app, "warning"))
    typed_hand(app, concealed, melds=melds)
    no_problem(app)
    assert any(error in t for t in texts(app, "error")), texts(app, "error")
    assert any("still the hand before it" in t for t in texts(app, "warning")), texts(app, "warning")


def test_a_typed_meld_of_one_tile_and_two_flies_is_a_pong(app: AppTest) -> None:
    # an exposed chow holds at most one fly, so the table must not call it a chow the engine refuses
    app.selectbox(key="rules").set_value("malaysian").run()
    typed_hand(app, "123p 234p 456p 99p", melds="5pflyfly")
    no_problem(app)
    assert not any("Could not" in t for t in texts(app, "error")), texts(app, "error")
    assert "[555p(fly=5p/5p)]" in summary(app), summary(app)


@pytest.mark.parametrize(
    ("melds", "kongs", "reason"),
    [("555pfly", "", "fly cannot stand in a kong"), ("", "flyflyflyfly", "fly cannot stand in a kong")],
    ids=["exposed", "concealed"],
)
def test_a_typed_kong_holding_a_fly_is_refused_with_the_reason(
    app: AppTest, melds: str, kongs: str, reason: str
) -> None:
    app.selectbox(key="rules").set_value("malaysian").run()
    typed_hand(app, "123p 234p 456p 99p", melds=melds, kongs=kongs)
    no_problem(app)
    assert any(t.startswith("Could not") and reason in t for t in texts(app, "error")), texts(app, "error")


def test_a_typed_meld_shown_with_face_down_tiles_is_the_kong_of_its_face(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="back5s5sback")
    no_problem(app)
    assert not any("Could not" in t for t in texts(app, "error")), texts(app, "error")
    # face down, it is concealed: only a concealed kong lies so
    assert app.session_state["base"].meld_concealed == {"meld 1": True}
    assert "[5555s]" not in summary(app) and "5555s" in summary(app), summary(app)


def test_a_typed_bonus_row_may_hold_four_faces(app: AppTest) -> None:
    # a Malaysian set holds four face tiles: a list that picks each code once could not type them
    app.selectbox(key="rules").set_value("malaysian").run()
    app.text_input(key="typed_bonus").input("face Face face face").run()
    typed_hand(app, "123p 234p 456p 789p 99p")
    no_problem(app)
    assert "All four faces" in result_text(app), result_text(app)


def test_a_typed_bonus_row_refuses_a_hand_tile(app: AppTest) -> None:
    app.text_input(key="typed_bonus").input("F1 3m").run()
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    no_problem(app)
    assert any("3m is not a bonus tile" in t for t in texts(app, "error")), texts(app, "error")


def test_a_tile_the_rule_set_has_not_is_asked_to_be_corrected(app: AppTest) -> None:
    app.selectbox(key="rules").set_value("malaysian").run()
    app.text_input(key="typed_concealed").input("123s 456p 789p 111p 55p").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    errors = texts(app, "error")
    assert any(
        t.startswith(
            "1s, 2s, 3s are not in the Malaysian tile set: correct the tiles, or change the rule set"
        )
        for t in errors
    ), errors
    assert not any("Not a valid win" in t for t in errors), errors


def test_invalid_hand_message(app: AppTest) -> None:
    # Three sets and two pairs is not a winning shape (and seven pairs is not a Singapore win).
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m 55p").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    errors = texts(app, "error")
    assert any(t.startswith("Not a valid win") for t in errors), errors
    assert not app.success


def test_the_no_win_reason_is_said_once_and_the_pasted_summary_keeps_it(app: AppTest) -> None:
    # the red box's reason stood again as the summary's first line, just under it: the summary, for
    # pasting, keeps it, folded away on the page
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m 55p").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    (reason,) = [t for t in texts(app, "error") if t.startswith("Not a valid win")]
    (folded,) = [e for e in app.expander if e.label == SUMMARY_LABEL]
    assert not folded.proto.expanded
    (pasted,) = [str(c.value) for c in folded.code]
    assert pasted.splitlines()[0] == reason.replace("*", ""), (pasted, reason)


def test_malformed_input_is_one_line_error(app: AppTest) -> None:
    app.text_input(key="typed_concealed").input("123m 456x").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert any(t.startswith("Could not read the concealed tiles:") for t in texts(app, "error")), texts(
        app, "error"
    )
    assert not any("still the hand before it" in t for t in texts(app, "warning"))  # there was none


@pytest.mark.parametrize(
    ("key", "typed", "says"),
    [
        ("typed_melds", "CCC 99", "Could not read the exposed melds: '99' needs a suit letter"),
        ("typed_kongs", "555s", "Could not read the concealed kongs: concealed kong '555s'"),
        ("typed_bonus", "F1 9m", "Could not read the bonus tiles: "),
    ],
)
def test_a_field_that_cannot_be_read_is_named(app: AppTest, key: str, typed: str, says: str) -> None:
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m").run()
    app.text_input(key=key).input(typed).run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert any(t.startswith(says) for t in texts(app, "error")), texts(app, "error")


def test_meld_that_is_not_a_set_is_explained(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    meld_row = next(i for i, r in enumerate(app.session_state["base"].rows) if r.code == "C")
    edit_tiles(app, {"edited_rows": {str(meld_row): {"tile": "5s"}}, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    assert any("is not a chow, pong or kong" in t for t in texts(app, "warning")), texts(app, "warning")
    assert not app.success


def test_no_model_message_and_typing_still_works(app: AppTest, install: Install) -> None:
    install(None)
    upload(app, photo_bytes())
    no_problem(app)
    assert any("No tile model is installed" in t for t in texts(app, "error")), texts(app, "error")
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m").run()
    app.text_input(key="typed_melds").input("CCC").run()
    app.button(key="typed_use").click().run()
    assert any("tai" in t for t in texts(app, "success"))


def test_not_an_image_is_one_line_error(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, b"this is not a photo", name="notes.jpg")
    no_problem(app)
    errors = texts(app, "error")
    assert len(errors) == 1 and errors[0].startswith("notes.jpg: ") and "\n" not in errors[0], errors


def test_slow_reader_is_cut_off(monkeypatch: pytest.MonkeyPatch, install: Install) -> None:
    monkeypatch.setitem(os.environ, "MAHJONG_READ_TIMEOUT_S", "0.5")
    install(FakeReader(delay_s=3.0))
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    upload(at, photo_bytes())
    no_problem(at)
    assert any("took longer than 0.5 s" in t for t in texts(at, "error")), texts(at, "error")


def test_case_download_replays_with_scoring(app: AppTest, install: Install) -> None:
    import scoring

    install(FakeReader())
    upload(app, photo_bytes())
    app.radio(key="won_by").set_value("self-drawn").run()
    assert app.get("download_button"), "no download button"
    case = json.loads(json.dumps(app.session_state["case_json"]))
    # The photo's own grouping is what the table starts from.
    base = app.session_state["base"]
    assert {k: case[k] for k in ("concealed", "melds", "bonus")} == {
        k: base.layout_hand[k] for k in ("concealed", "melds", "bonus")
    }
    replay = scoring.score_json(case)
    assert replay["tai"] == case["result"]["tai"] == 2
    assert replay["payout"] == case["result"]["payout"]


def test_the_case_download_is_named_after_the_hand_and_when(app: AppTest, install: Install) -> None:
    # an audit: every download was mahjong-case.json, and several hands piled up as "(1)", "(2)"
    install(FakeReader())
    upload(app, photo_bytes())
    said = app.get("download_button")[0].proto.help  # the file's name, as the help names it
    named = re.search(r"mahjong-case-hand-\d{8}-\d{4}\.json", said)
    assert named is not None, said
    stamp = app.session_state["download_stamp"]
    app.run()  # a rerun that changes nothing keeps the name, whatever the clock says
    assert app.session_state["download_stamp"] == stamp
    assert named[0] in app.get("download_button")[0].proto.help


def test_a_case_with_an_unfinished_meld_keeps_every_tile_and_replays_refused(app: AppTest) -> None:
    import scoring
    from app_ui.case_open import open_case

    typed_hand(app, "123m 456p 789s CCC 55p")
    # one of the three C moved to meld 1 alone: no chow, pong or kong, and the page says so
    edit_tiles(app, {"edited_rows": {"9": {"group": "meld 1"}}, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    assert any("Meld 1 (C) is not a chow, pong or kong" in t for t in texts(app, "warning"))
    case = app.session_state["case_json"]
    assert case["result"] is None
    assert case["concealed"].count("C") == 2 and case["melds"] == [{"tiles": ["C"]}]
    kept = len(case["concealed"]) + sum(len(m["tiles"]) for m in case["melds"]) + len(case["bonus"])
    assert kept == len(case["tiles"]) == 14  # every tile of the table
    with pytest.raises(scoring.MalformedHandError, match="cannot tell the kind of a meld of 1 tile"):
        scoring.score_json(case)  # refused replayed, as on the page
    # opened again (or a reload), the table comes back as saved, the C still alone in meld 1
    opened = open_case("case.json", json.dumps(case).encode())
    assert [(row.code, row.group) for row in opened.base.rows] == [
        (item["code"], item["group"]) for item in case["tiles"]
    ]


def test_case_download_replays_with_the_cli(app: AppTest, install: Install, tmp_path: Any) -> None:
    import subprocess
    import sys

    install(FakeReader())
    upload(app, photo_bytes())
    path = tmp_path / "case.json"
    path.write_text(json.dumps(app.session_state["case_json"]))
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "--json", str(path)],
        capture_output=True,
        text=True,
        cwd=APP.parent,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tai"] == 2


def test_camera_snap_is_read_like_an_upload(app: AppTest, install: Install) -> None:
    reader = FakeReader()
    install(reader)
    app.toggle(key="use_camera").set_value(True).run()
    app.camera_input(key="camera").upload("snap.jpg", photo_bytes())
    app.run()
    no_problem(app)
    assert reader.calls == 1
    assert app.session_state["base"].name == "camera photo"
    assert any("2 tai" in t for t in texts(app, "success")), result_text(app)


def test_pay_all_makes_the_discarder_pay_everything(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    app.checkbox(key="pay_all").check().run()
    no_problem(app)
    pay = payout_rows(app)
    assert pay["Liable player (pays all)"] == ["-8"], pay
    assert pay["Other player"] == ["0", "0"], pay
    assert "Liable player (pays all): -8" in summary(app) and "pay-all" in summary(app)


def test_the_discarder_set_before_pay_all_comes_back_when_it_is_unticked(
    app: AppTest, install: Install
) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    app.selectbox(key="seat_wind").set_value("S").run()
    app.selectbox(key="discarder_wind").set_value("N").run()
    app.checkbox(key="pay_all").check().run()
    app.selectbox(key="discarder_wind").set_value("E").run()  # the liable player
    assert app.session_state["case_json"]["discarder_wind"] == "E"
    app.checkbox(key="pay_all").uncheck().run()
    no_problem(app)
    assert app.selectbox(key="discarder_wind").value == "N"
    assert app.session_state["case_json"]["discarder_wind"] == "N"
    assert any("discarded by North" in t and "East was the liable player" in t for t in texts(app, "info")), (
        texts(app, "info")
    )
    # the toast beside the note says the discarder once: the line under the result says it whole
    assert any(t.endswith("pay-all on → off; who discarded East → North.") for t in texts(app, "info"))
    (toast,) = [t.value for t in app.toast]
    assert toast.endswith("\n\nChanged: 1 tai, the payout changed after: pay-all on → off."), toast
    # a discarder never said: not said again, and said so
    app.selectbox(key="discarder_wind").set_value("(not said)").run()
    app.checkbox(key="pay_all").check().run()
    app.selectbox(key="discarder_wind").set_value("W").run()
    app.checkbox(key="pay_all").uncheck().run()
    assert app.selectbox(key="discarder_wind").value == "(not said)"
    assert any("who discarded is not said again" in t for t in texts(app, "info")), texts(app, "info")
    # unticked on a self-draw: no box, no note; back on a discard, the box and the payout say North
    app.selectbox(key="discarder_wind").set_value("N").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    app.checkbox(key="pay_all").check().run()
    app.selectbox(key="discarder_wind").set_value("E").run()
    app.checkbox(key="pay_all").uncheck().run()
    assert not any("Pay-all off" in t for t in texts(app, "info")), texts(app, "info")
    app.radio(key="won_by").set_value("discard").run()
    no_problem(app)
    assert app.selectbox(key="discarder_wind").value == "N"
    assert app.session_state["case_json"]["discarder_wind"] == "N"


def test_pay_all_ticked_on_a_self_draw_names_no_liable_player_until_one_is_chosen(
    app: AppTest, install: Install
) -> None:
    # an audit: the discarder set before the self-draw became the liable player, charged for all
    install(FakeReader())
    upload(app, photo_bytes())
    app.selectbox(key="discarder_wind").set_value("S").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    app.checkbox(key="pay_all").check().run()
    no_problem(app)
    assert app.selectbox(key="discarder_wind").value == "(not said)"
    assert not app.session_state["case_json"].get("discarder_wind")
    app.checkbox(key="pay_all").uncheck().run()
    app.radio(key="won_by").set_value("discard").run()
    assert app.selectbox(key="discarder_wind").value == "S"  # the discarder comes back on a discard


def test_pay_all_ticked_on_a_replacement_tile_win_names_no_liable_player_either(app: AppTest) -> None:
    # a review: a replacement-tile win is a self-draw whatever the radio says, and its hidden box too
    typed_hand(app, "123m 456p 22m", melds="CCC", kongs="5555s")
    app.selectbox(key="discarder_wind").set_value("W").run()
    app.multiselect(key="circumstances").set_value(["replacement_tile"]).run()
    app.checkbox(key="pay_all").check().run()
    no_problem(app)
    assert app.selectbox(key="discarder_wind").value == "(not said)"
    assert not app.session_state["case_json"].get("discarder_wind")


def test_pay_all_on_a_self_draw_names_no_discarder(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    app.radio(key="won_by").set_value("self-drawn").run()
    app.checkbox(key="pay_all").check().run()
    no_problem(app)
    pay = payout_rows(app)
    assert "Discarder" not in pay and len(pay["Liable player (pays all)"]) == 1, pay
    assert pay["Other player"] == ["0", "0"], pay


def test_a_replacement_tile_win_is_summarised_as_the_self_draw_it_is_scored_as(app: AppTest) -> None:
    typed_hand(app, "123m 456p 22m", melds="CCC", kongs="5555s")
    app.multiselect(key="circumstances").set_value(["replacement_tile"]).run()
    no_problem(app)
    assert app.radio(key="won_by").value == "discard"
    text = summary(app)
    assert "self-drawn (a replacement-tile win is a self-draw)" in text, text
    assert "Won on a replacement tile" in text, text


def test_a_replacement_tile_win_says_so_where_it_is_asked_and_asks_no_discarder(app: AppTest) -> None:
    # an audit saw "Discard" and "Discarded by West" beside a result scored as self-drawn
    typed_hand(app, "123m 456p 22m", melds="CCC", kongs="5555s")
    app.selectbox(key="discarder_wind").set_value("W").run()
    app.multiselect(key="circumstances").set_value(["replacement_tile"]).run()
    no_problem(app)
    assert "Scored as self-drawn: a replacement-tile win is a self-draw." in texts(app, "caption")
    assert not [box for box in app.selectbox if box.key == "discarder_wind"]
    assert not any("Discarded by" in t for t in texts(app, "info")), texts(app, "info")
    app.multiselect(key="circumstances").set_value([]).run()  # a discard again: its discarder back
    no_problem(app)
    assert app.selectbox(key="discarder_wind").value == "W"
    assert "Scored as self-drawn: a replacement-tile win is a self-draw." not in texts(app, "caption")


def test_eight_flowers_alone_are_scored(app: AppTest) -> None:
    app.text_input(key="typed_bonus").input("F1 F2 F3 F4 S1 S2 S3 S4").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert any(t.startswith("**5 tai**") for t in texts(app, "success")), result_text(app)
    assert "Eight flowers" in result_text(app)
    # the eighth flower is drawn by the winner: every loser pays, whatever the radio says
    assert payout_rows(app)["Other player"] == ["-32", "-32", "-32"], payout_rows(app)
    assert "self-drawn (eight flowers are drawn by the winner, a self-draw)" in summary(app)


def test_an_empty_typed_hand_is_refused_and_keeps_the_hand(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.text_input(key="typed_concealed").input("").run()
    app.text_input(key="typed_melds").input("").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert any("Type at least one tile" in t for t in texts(app, "error")), texts(app, "error")
    assert len(app.session_state["base"].rows) == 14


def in_page_order(node: Any) -> list[Any]:
    """The elements under `node` (a tab, the page), in the order the page draws them."""
    out = []
    for index in sorted(getattr(node, "children", None) or {}):
        child = node.children[index]
        out += [child, *in_page_order(child)]
    return out


def test_what_use_this_hand_did_stands_under_its_button_above_the_tile_key(
    app: AppTest, install: Install
) -> None:
    # a walkthrough: on a phone the question before corrections are replaced (and a refusal) stood under
    # the tile key, a screen below the field Enter was pressed in: nothing seemed to happen
    def kinds_after_the_button() -> list[str]:
        drawn = in_page_order(app.tabs[1])
        start = next(k for k, e in enumerate(drawn) if getattr(e, "key", None) == "typed_use")
        said = [e for e in drawn[start:] if e.type in ("error", "warning", "caption")]
        return [e.type for e in said]

    typed_hand(app, "99")
    assert kinds_after_the_button()[:2] == ["error", "caption"], kinds_after_the_button()
    install(FakeReader())
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    typed_hand(app, "123m 456p 789s 22m", melds="PPP")
    assert kinds_after_the_button()[:2] == ["warning", "caption"], kinds_after_the_button()
    assert "will replace them" in next(e.value for e in app.tabs[1].warning)


def test_the_typed_hand_s_buttons_stand_side_by_side_at_their_own_widths(app: AppTest) -> None:
    # a walkthrough: two half-page columns left *Clear the fields* alone mid-page on a laptop
    from streamlit.proto.Block_pb2 import Block

    tab = app.tabs[1]
    assert not tab.columns
    row = next(child for child in tab.children.values() if getattr(child, "key", None) == "typed_buttons")
    assert row.proto.flex_container.direction == Block.FlexContainer.Direction.HORIZONTAL
    keys = [button.key for cell in row.children.values() for button in cell.children.values()]
    assert keys == ["typed_use", "typed_clear"]
    assert all(cell.proto.width_config.use_content for cell in row.children.values())


def test_a_typed_hand_asks_before_replacing_corrections(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    photo_base = app.session_state["base"]
    typed_hand(app, "123m 456p 789s 22m", melds="PPP")
    no_problem(app)
    assert app.session_state["base"] is photo_base  # not replaced yet: the user is asked
    assert any("Using the typed hand will replace them" in t for t in texts(app, "warning"))
    app.button(key="typed_keep").click().run()
    assert app.session_state["base"] is photo_base and app.session_state["pending_typed"] is None
    assert case_edits(app) == {"0": {"tile": "9m"}}
    app.button(key="typed_use").click().run()
    app.button(key="typed_replace").click().run()
    no_problem(app)
    assert app.session_state["base"].source == "typed"
    assert not any("will replace them" in t for t in texts(app, "warning"))


def test_an_option_error_points_at_the_sidebar_in_its_words(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.selectbox(key="opt_singapore_payout_scheme").set_value("table").run()
    app.number_input(key="opt_singapore_min_tai").set_value(0).run()
    no_problem(app)
    errors = texts(app, "error")
    assert any(t.startswith("Check the rules in the sidebar:") and "“Min tai”" in t for t in errors), errors
    assert not any("min_tai" in t or "not a hand" in t for t in errors), errors


def typed_hand(
    app: AppTest, concealed: str, melds: str = "", kongs: str = "", bonus: str | None = None
) -> None:
    """Type a hand and use it; the bonus row as typed before unless `bonus` is given."""
    app.text_input(key="typed_concealed").input(concealed).run()
    app.text_input(key="typed_melds").input(melds).run()
    app.text_input(key="typed_kongs").input(kongs).run()
    if bonus is not None:
        app.text_input(key="typed_bonus").input(bonus).run()
    app.button(key="typed_use").click().run()


def case_edits(app: AppTest) -> dict[str, Any]:
    """The tiles the table holds read otherwise than the photo, by row, as the table's edit state names
    them: a tile the user gave another face is folded into the table's rows (its *Sure?* column then
    says so), so its edit no longer stands in the editor."""
    base = app.session_state["base"]
    key = f"tiles_{app.session_state['version']}"
    rows = table_edits.apply_edits(base.rows, app.session_state.get(key) or {})
    read = base.photo_rows
    return {
        str(i): {"tile": row.code}
        for i, (row, was) in enumerate(zip(rows, read, strict=False))
        if row.code != was.code
    }


def test_malaysian_rules_three_seats(app: AppTest) -> None:
    app.selectbox(key="seat_wind").set_value("N").run()
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert app.selectbox(key="seat_wind").options == ["East", "South", "West"]
    # Dots only, all pongs: full flush 3 + all pongs 2 = 5 fan, the Malaysian minimum; three players pay.
    app.text_input(key="typed_concealed").input("111p 222p 333p 99p").run()
    app.text_input(key="typed_melds").input("555p").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    # the points a Malaysian table pays by stand in the line (stage 81)
    assert any(t.startswith("**5 fan** = **100 points**") for t in texts(app, "success")), result_text(app)
    assert len(app.table[-1].value.index) == 3


def test_winning_tile_no_longer_in_hand_is_dropped(app: AppTest) -> None:
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m").run()
    app.text_input(key="typed_melds").input("CCC").run()
    app.button(key="typed_use").click().run()
    app.selectbox(key="winning_tile").set_value("7s").run()
    app.text_input(key="typed_concealed").input("123m 456p 789p 22m").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "(not set)"
    assert "winning tile 7s" not in summary(app)


def test_a_new_hand_starts_with_no_winning_tile_even_where_it_holds_the_last_ones(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.selectbox(key="winning_tile").set_value("7s").run()
    assert "winning tile 7s" in summary(app)
    typed_hand(app, "789s 456p 123m 55s", melds="FFF")  # 7s is in this hand too
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "(not set)"
    assert "winning tile 7s" not in summary(app)
    assert not any("set aside" in t for t in texts(app, "caption")), texts(app, "caption")
    # and no set-aside tile of the last hand comes back when a tile is edited in
    typed_hand(app, "123m 456p 789s 55s", melds="CCC")
    app.selectbox(key="winning_tile").set_value("2m").run()
    first = next(i for i, r in enumerate(app.session_state["base"].rows) if r.code == "2m")
    edit_tiles(app, {"edited_rows": {str(first): {"tile": "5m"}}, "added_rows": [], "deleted_rows": []})
    assert any("Winning tile 2m set aside" in t for t in texts(app, "caption")), texts(app, "caption")
    typed_hand(app, "234m 345p 678s 789s 55p")
    app.button(key="typed_replace").click().run()  # the corrections are replaced, as asked
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "(not set)"
    assert not any("set aside" in t for t in texts(app, "caption")), texts(app, "caption")


def test_a_kongs_tiles_are_not_offered_as_the_winning_tile(app: AppTest) -> None:
    typed_hand(app, "222m 34m 99p", melds="678s", kongs="7777m")
    no_problem(app)
    offered = app.selectbox(key="winning_tile").options
    assert "7m" not in offered and {"2m", "3m", "4m", "9p", "6s"} <= set(offered), offered


def test_heic_photo_is_read(app: AppTest, install: Install) -> None:
    pillow_heif = pytest.importorskip("pillow_heif")
    import io

    from PIL import Image

    pillow_heif.register_heif_opener()
    out = io.BytesIO()
    Image.new("RGB", (320, 200), (90, 120, 80)).save(out, format="HEIF")
    reader = FakeReader()
    install(reader)
    upload(app, out.getvalue(), name="IMG_0001.HEIC")
    no_problem(app)
    assert reader.calls == 1, texts(app, "error")
    assert any("2 tai" in t for t in texts(app, "success")), result_text(app)


def test_circumstances_follow_the_rule_set(app: AppTest) -> None:
    # a kong in the hand: a kong's replacement tile is offered only to a hand that has one
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m").run()
    app.text_input(key="typed_kongs").input("CCCC").run()
    app.button(key="typed_use").click().run()
    app.selectbox(key="seat_wind").set_value("S").run()  # a humanly hand is a seat other than East's
    assert "Humanly hand (人胡)" in app.multiselect(key="circumstances").options
    # no "Select all": heavenly and earthly hand, say, cannot both be
    assert app.multiselect(key="circumstances").proto.select_all == 0
    app.multiselect(key="circumstances").set_value(["humanly"]).run()
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    offered = app.multiselect(key="circumstances").options
    # Malaysian scores a kong replacement as a bomb, and knows no humanly hand.
    assert "Won on a kong's replacement tile (杠上开花)" in offered
    assert "Humanly hand (人胡)" not in offered
    assert app.multiselect(key="circumstances").value == []


def page_words(at: AppTest) -> list[str]:
    """Every text the page and its sidebar show: element bodies, widget labels and helps."""
    words: list[str] = []

    def walk(node: Any) -> None:
        for name in ("value", "body", "label", "help", "placeholder"):
            try:
                text = getattr(node, name, None)
            except Exception:  # a widget's value read before it has one
                text = None
            if isinstance(text, str):
                words.append(text)
        children = getattr(node, "children", None)
        for child in children.values() if isinstance(children, dict) else ():
            walk(child)

    walk(at.main)
    walk(at.sidebar)
    return words


def test_the_page_says_fan_not_tai_under_malaysian_rules(app: AppTest) -> None:
    # an audit: "Mahjong tai calculator" headed a page whose rules score in fan
    assert app.title[0].value == "🀄 Mahjong tai calculator"
    assert "tai and payouts" in captions(app)[0]
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert app.title[0].value == "🀄 Mahjong fan calculator"
    assert "fan and points" in captions(app)[0]
    typed_hand(app, "234p 567p 99p", kongs="1111p CCCC")
    app.radio(key="won_by").set_value("self-drawn").run()
    no_problem(app)
    assert "8 fan" in result_text(app)
    said = [text for text in page_words(app) if re.search(r"\btai\b", text, re.IGNORECASE)]
    assert not said, said
    # a case whose concealed pong opens among the hand's tiles says what may be lower in fan too
    case = {"rules": "malaysian", "concealed": "234p 567p 99p", "self_drawn": True}
    melds = [{"kind": "pong", "tiles": "EEE", "concealed": True}, {"kind": "kong", "tiles": "CCCC"}]
    open_case_file(app, json.dumps({**case, "melds": melds}).encode(), name="case.json")
    no_problem(app)
    assert any("so its fan may be lower" in t for t in page_words(app)), texts(app, "info")
    said = [text for text in page_words(app) if re.search(r"\btai\b", text, re.IGNORECASE)]
    assert not said, said
    app.selectbox(key="rules").set_value("singapore").run()
    assert app.title[0].value == "🀄 Mahjong tai calculator"


def test_kong_on_kong_under_malaysian_rules_says_it_counts_as_a_kong_replacement(app: AppTest) -> None:
    # RULES.md (Malaysian): a replacement-tile win is +1 once, whichever kind; the choice was offered with
    # Singapore's words alone, and scored as a kong replacement unsaid (an audit)
    typed_hand(app, "234p 567p 99p", kongs="1111p CCCC")
    # Singapore's is a limit of its own
    assert "scored as a kong's replacement tile" not in (app.multiselect(key="circumstances").help or "")
    app.selectbox(key="rules").set_value("malaysian").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    app.multiselect(key="circumstances").set_value(["kong_on_kong"]).run()
    no_problem(app)
    help_text = app.multiselect(key="circumstances").help or ""
    assert "- Kong on kong replacement (杠上杠): " in help_text
    assert "scored as a kong's replacement tile under these rules (+1 fan once)" in help_text, help_text
    notes = texts(app, "info")
    assert any("kong on kong is no pattern of malaysian rules" in t for t in notes), notes
    assert "10 fan" in result_text(app)


def test_a_rule_set_switch_keeps_each_sets_context_and_says_what_it_cannot_hold(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.selectbox(key="seat_wind").set_value("N").run()
    app.selectbox(key="prevailing_wind").set_value("N").run()
    app.multiselect(key="circumstances").set_value(["humanly"]).run()
    singapore_result = result_text(app)
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert app.selectbox(key="seat_wind").value == "E"
    # the North round is a round of the 3-player game too (seeds/004): no seat, but a prevailing wind
    assert app.selectbox(key="prevailing_wind").value == "N"
    notes = texts(app, "info")
    assert any("North seat" in t and "Humanly hand" in t and "prevailing" not in t for t in notes), notes
    # one toast: the note, then what the switch did to the score (two stacked on a phone)
    (note,) = [t for t in notes if "North seat" in t]
    (toast,) = [t.value for t in app.toast]
    assert toast.startswith(f"{note}\n\nChanged: "), toast
    app.selectbox(key="rules").set_value("singapore").run()
    no_problem(app)
    # what the switch alone had changed comes back
    assert app.selectbox(key="seat_wind").value == "N"
    assert app.selectbox(key="prevailing_wind").value == "N"
    assert app.multiselect(key="circumstances").value == ["humanly"]
    assert result_text(app) == singapore_result
    app.selectbox(key="rules").set_value("malaysian").run()
    app.selectbox(key="seat_wind").set_value("S").run()
    app.selectbox(key="rules").set_value("singapore").run()
    # a seat the user set since is the table's fact now, in either rule set
    assert app.selectbox(key="seat_wind").value == "S"
    assert app.selectbox(key="prevailing_wind").value == "N"


def test_a_malaysian_set_without_north_offers_no_north_round_and_a_switch_says_so(app: AppTest) -> None:
    # an audit: North was offered as the prevailing wind of a set the north_wind option had left
    # without North tiles (RULES.md); the seats were East, South and West already
    typed_hand(app, "123p 456p 789p 99p", melds="SSS")
    assert app.selectbox(key="prevailing_wind").options == ["East", "South", "West", "North"]
    app.selectbox(key="prevailing_wind").set_value("N").run()
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert app.selectbox(key="seat_wind").options == ["East", "South", "West"]
    assert app.selectbox(key="prevailing_wind").options == ["East", "South", "West", "North"]
    assert app.selectbox(key="prevailing_wind").value == "N"
    app.checkbox(key="opt_malaysian_north_wind").uncheck().run()
    no_problem(app)
    assert app.selectbox(key="seat_wind").options == ["East", "South", "West"]
    assert app.selectbox(key="prevailing_wind").options == ["East", "South", "West"]
    assert app.selectbox(key="prevailing_wind").value == "E"
    notes = texts(app, "info")
    said = "Malaysian (3 players) without the North wind has no North round: the prevailing wind is East now."
    assert any(said in t and "Switching back restores it." in t for t in notes), notes
    # the option on again, or Singapore rules, bring the North round back
    app.checkbox(key="opt_malaysian_north_wind").check().run()
    no_problem(app)
    assert app.selectbox(key="prevailing_wind").value == "N"
    app.checkbox(key="opt_malaysian_north_wind").uncheck().run()
    app.selectbox(key="rules").set_value("singapore").run()
    no_problem(app)
    assert app.selectbox(key="prevailing_wind").value == "N"
    # a round set since is the table's fact, and carries over where the set holds it
    app.selectbox(key="prevailing_wind").set_value("W").run()
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert app.selectbox(key="prevailing_wind").value == "W"
    assert not any("round" in t for t in texts(app, "info")), texts(app, "info")
    # a case of a set without North naming a North round (python -m scoring calls it impossible)
    case: dict[str, Any] = {
        "rules": "malaysian",
        "options": {"north_wind": False},
        "concealed": "123p 456p 789p 99p",
        "melds": [{"kind": "pong", "tiles": "SSS"}],
        "seat_wind": "S",
        "prevailing_wind": "N",
    }
    open_case_file(app, json.dumps(case).encode(), name="case.json")
    no_problem(app)
    assert app.selectbox(key="prevailing_wind").options == ["East", "South", "West"]
    assert (app.selectbox(key="seat_wind").value, app.selectbox(key="prevailing_wind").value) == ("S", "E")
    said = "The case names a North round, which Malaysian (3 players) without the North wind has not"
    refused = "(python -m scoring calls such a case impossible)"
    assert any(said in t and refused in t for t in texts(app, "info")), texts(app, "info")


def test_a_seat_both_rule_sets_hold_carries_over_a_switch(app: AppTest) -> None:
    # a South seat went back to the seat last stored for the other set, losing its fan unsaid
    typed_hand(app, "123p 456p 789p 99p", melds="SSS")
    app.selectbox(key="rules").set_value("malaysian").run()
    app.selectbox(key="rules").set_value("singapore").run()
    app.selectbox(key="seat_wind").set_value("S").run()
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert app.selectbox(key="seat_wind").value == "S"
    assert "Seat wind" in result_text(app), result_text(app)


def test_a_new_hand_clears_the_last_hands_circumstances_and_pay_all_and_says_so(app: AppTest) -> None:
    typed_hand(app, "123m 456m 789m 123p 55s")
    app.selectbox(key="seat_wind").set_value("S").run()
    app.multiselect(key="circumstances").set_value(["humanly"]).run()
    app.checkbox(key="pay_all").check().run()
    assert "Liable player (pays all)" in payout_rows(app), payout_rows(app)
    typed_hand(app, "234s 666s 888s 33s", melds="FFF")
    no_problem(app)
    assert app.multiselect(key="circumstances").value == []
    assert app.checkbox(key="pay_all").value is False
    assert app.selectbox(key="seat_wind").value == "S"  # the table has not moved
    notes = texts(app, "info")
    assert any("New hand" in t and "Humanly hand (人胡)" in t and "pay-all" in t for t in notes), notes
    assert "Liable player (pays all)" not in payout_rows(app), payout_rows(app)


def test_a_winning_tile_edited_away_is_set_aside_and_comes_back(app: AppTest) -> None:
    typed_hand(app, "234m 345p 678s 789s 55p")
    app.selectbox(key="winning_tile").set_value("2m").run()
    assert any(t.startswith("**4 tai**") for t in texts(app, "success")), result_text(app)
    first = next(i for i, r in enumerate(app.session_state["base"].rows) if r.code == "2m")
    edit_tiles(app, {"edited_rows": {str(first): {"tile": "5m"}}, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "(not set)"
    said = (
        "Winning tile 2m set aside: the hand no longer holds it. It is chosen again once the hand can be "
        "won on it."
    )
    assert said in texts(app, "caption"), texts(app, "caption")
    edit_tiles(app, {"edited_rows": {}, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "2m"
    assert any(t.startswith("**4 tai**") for t in texts(app, "success")), result_text(app)


def test_an_opened_case_starts_at_its_own_winning_tile_not_one_the_last_hand_set_aside(app: AppTest) -> None:
    typed_hand(app, "234m 345p 678s 789s 55p")
    app.selectbox(key="winning_tile").set_value("2m").run()
    first = next(i for i, r in enumerate(app.session_state["base"].rows) if r.code == "2m")
    edit_tiles(app, {"edited_rows": {str(first): {"tile": "5m"}}, "added_rows": [], "deleted_rows": []})
    assert any("Winning tile 2m set aside" in t for t in texts(app, "caption")), texts(app, "caption")
    open_case_file(app, json.dumps({"concealed": "234m 345p 678s 789s 55p"}).encode())
    app.button(key="case_replace").click().run()  # the corrections are replaced, as asked
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "(not set)"
    assert ", winning tile" not in summary(app), summary(app)
    assert "winning_tile" not in app.session_state["case_json"]
    assert not any("set aside" in t for t in texts(app, "caption")), texts(app, "caption")


def test_a_bad_file_taken_over_corrections_leaves_only_its_error(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    version = app.session_state["version"]
    upload(app, b"not an image at all", name="notaphoto.jpg")
    no_problem(app)
    # no question first: a file that is no photo could replace nothing
    assert not any("will replace them" in t for t in texts(app, "warning")), texts(app, "warning")
    assert any("notaphoto.jpg" in t for t in texts(app, "error")), texts(app, "error")
    assert app.session_state["version"] == version and case_edits(app) == {"0": {"tile": "9m"}}
    # the next file: its question stands alone, the earlier file's error gone (both showed at once)
    upload(app, photo_bytes(shade=30), name="second.jpg")
    assert any("second.jpg" in t for t in texts(app, "warning")), texts(app, "warning")
    assert not any("notaphoto.jpg" in t for t in texts(app, "error")), texts(app, "error")
    app.button(key="pending_keep").click().run()
    no_problem(app)
    assert not any("notaphoto.jpg" in t for t in texts(app, "error")), texts(app, "error")


def test_a_photo_not_read_says_the_result_is_still_the_hand_before_it(app: AppTest) -> None:
    # stage 71 (an audit): the earlier hand's full result stood under the refused file's error, unmarked
    upload(app, b"not an image at all", name="first.jpg")  # no hand before it: nothing to say of one
    assert any("first.jpg" in t for t in texts(app, "error")), texts(app, "error")
    assert not any("still the hand before it" in t for t in texts(app, "warning")), texts(app, "warning")
    app.file_uploader(key="upload").clear().run()
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    assert any("1 tai" in t for t in texts(app, "success")), result_text(app)
    upload(app, b"not an image at all", name="notaphoto.jpg")
    no_problem(app)
    assert any("notaphoto.jpg" in t for t in texts(app, "error")), texts(app, "error")
    assert any(t.startswith("The photo gave no hand") for t in texts(app, "warning")), texts(app, "warning")
    # once the table is corrected the result is the table's, no longer "the hand before it"
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    assert any("notaphoto.jpg" in t for t in texts(app, "error")), texts(app, "error")
    assert not any("still the hand before it" in t for t in texts(app, "warning")), texts(app, "warning")


def test_a_photo_with_no_tiles_keeps_the_hand_on_the_page(app: AppTest, install: Install) -> None:
    # stage 72 (an audit): a photo of a bare table wiped a typed hand, its winning tile with it, no undo
    install(FakeReader({30: scene([], [], [])}))
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    assert any("1 tai" in t for t in texts(app, "success")), result_text(app)
    version = app.session_state["version"]
    upload(app, photo_bytes(shade=30), name="bare.jpg")
    no_problem(app)
    said = [t for t in texts(app, "error") if t.startswith("bare.jpg")]
    assert said and "no tiles were found" in said[0] and "hand on the page is kept" in said[0], said
    assert "is it a photo of a mahjong hand?" in said[0], said  # a screenshot is not told to retake it
    assert app.session_state["version"] == version and app.session_state["base"].source == "typed"
    assert any("1 tai" in t for t in texts(app, "success")), result_text(app)
    assert any(t.startswith("The photo gave no hand") for t in texts(app, "warning")), texts(app, "warning")


class _ShakenReader(FakeReader):
    """A reader that finds no tile and says the whole photo looks shaken, as `vision.pipeline` does."""

    def settle(self, seen: Detections, faces: Any = None) -> Any:
        reading = super().settle(seen, faces)
        return dataclasses.replace(reading, warnings=("no tiles found", WHOLE_SHAKEN_LINE, *reading.warnings))


def test_a_shaken_photo_with_no_tiles_is_told_to_retake_not_asked_if_it_shows_a_hand(
    app: AppTest, install: Install
) -> None:
    # stage 84: a strong shake leaves (almost) no tile found, and the page asked whether the photo showed a
    # mahjong hand at all, and to take it closer
    install(_ShakenReader({30: scene([], [], [])}))
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    upload(app, photo_bytes(shade=30), name="shaken.jpg")
    no_problem(app)
    said = [t for t in texts(app, "error") if t.startswith("shaken.jpg")]
    assert said == [
        f"shaken.jpg: no tiles were found on the photo: {WHOLE_SHAKEN_LINE}. The hand on the page is kept."
    ]
    assert app.session_state["base"].source == "typed"


def test_a_photo_with_no_tiles_on_an_empty_page_is_shown_for_tiles_to_be_added(
    app: AppTest, install: Install
) -> None:
    install(FakeReader({30: scene([], [], [])}))
    upload(app, photo_bytes(shade=30), name="bare.jpg")
    no_problem(app)
    assert not any(t.startswith("bare.jpg") for t in texts(app, "error")), texts(app, "error")
    assert app.session_state["base"].source == "photo" and not app.session_state["base"].rows


def test_the_tables_row_count_is_the_tables_as_edited(app: AppTest, install: Install) -> None:
    # stage 72 (an audit): "17 tiles, more than the table's height shows" stood after one was deleted
    install(FakeReader({30: scene(bonus=["F1", "F2", "S1"])}))  # 11 + 3 + 3 = 17 tiles
    upload(app, photo_bytes(shade=30))
    no_problem(app)
    assert any(t.startswith("17 tiles, more than") for t in texts(app, "caption")), texts(app, "caption")
    edit_tiles(app, {"edited_rows": {}, "added_rows": [], "deleted_rows": [16]})
    no_problem(app)
    assert not any("tiles, more than" in t for t in texts(app, "caption")), texts(app, "caption")


def test_the_uploader_says_where_a_saved_case_opens(app: AppTest) -> None:
    # stage 72 (an audit): a case file dropped on the photo uploader met only Streamlit's refusal
    said = [t for t in captions(app) if "marked red" in t]
    assert said and "a saved case (.json) opens in the *Open a case* tab" in said[0], said


def test_the_case_uploader_says_where_a_photo_is_read(app: AppTest) -> None:
    # stage 87 (an audit): a photo dropped in *Open a case* met only "image/jpeg files are not allowed"
    said = [t for t in captions(app) if "marked red" in t and "case file" in t]
    assert said and "a photo of a hand is read in the 📷 Photo tab" in said[0], said


def test_the_case_uploader_s_label_is_in_a_player_s_words(app: AppTest) -> None:
    # a walkthrough: "or a hand python -m scoring takes" stood in the label, a programmer's word to
    # every player; the command line's files are said in its help
    box = app.file_uploader(key="case_upload")
    assert box.proto.label == "Open a case (the JSON file this app downloads)"
    assert "python -m scoring" in box.proto.help and "python -m vision --json" in box.proto.help


def read_again_button(at: AppTest) -> Any:
    """The Photo tab's button that reads the uploader's photo again (there is at most one)."""
    buttons = [b for b in at.button if b.key and b.key.startswith("read_again_")]
    assert len(buttons) == 1, [b.key for b in at.button]
    return buttons[0]


def test_a_photo_the_uploader_still_holds_after_a_typed_hand_says_it_is_no_longer_the_hand(
    app: AppTest, install: Install
) -> None:
    # stage 71 (an audit): after *Use this hand* the uploader still showed the photo above the typed
    # hand's pictures, as if it were the hand scored
    install(FakeReader())
    upload(app, photo_bytes())
    assert not any("no longer the hand" in t for t in captions(app)), captions(app)
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    no_problem(app)
    said = "hand.jpg is no longer the hand on the page: the typed hand took its place."
    assert said in captions(app), captions(app)
    # one press reads it again (the typed hand has no corrections to ask about)
    assert read_again_button(app).label == "Read it again"
    read_again_button(app).click().run()
    no_problem(app)
    assert app.session_state["base"].source == "photo" and app.session_state["base"].name == "hand.jpg"
    assert said not in captions(app)
    # with corrections it asks first; kept, the photo is still offered ("Read it now"), not lost for good
    typed_hand(app, "123m 456p 789s 22m", melds="FFF")
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    read_again_button(app).click().run()
    app.button(key="pending_keep").click().run()
    no_problem(app)
    kept = "hand.jpg was not read: you kept your corrections to the typed hand."
    assert kept in captions(app), captions(app)
    assert read_again_button(app).label == "Read it now"
    read_again_button(app).click().run()
    app.button(key="pending_replace").click().run()
    no_problem(app)
    assert app.session_state["base"].source == "photo" and kept not in captions(app)
    typed_hand(app, "123m 456p 789s 22m", melds="PPP")
    # a file refused is never the hand: its own error says so, and after a typed hand nothing at all
    app.file_uploader(key="upload").clear().run()
    upload(app, b"not an image at all", name="notaphoto.jpg")
    typed_hand(app, "123m 456p 789s 22m", melds="FFF")
    assert not any("no longer the hand" in t for t in captions(app)), captions(app)


def test_a_question_or_error_about_a_file_the_uploader_no_longer_holds_is_dropped(
    app: AppTest, install: Install
) -> None:
    install(FakeReader({90: scene(), 30: scene(bonus=[])}))
    upload(app, photo_bytes(shade=90))
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    version = app.session_state["version"]
    upload(app, photo_bytes(shade=30), name="second.jpg")
    assert any("second.jpg" in t for t in texts(app, "warning")), texts(app, "warning")
    # the user removes the file asked about: the question goes, so no button can read it over the fix
    app.file_uploader(key="upload").clear().run()
    no_problem(app)
    assert app.session_state["pending"] is None
    assert not any("second.jpg" in t for t in texts(app, "warning")), texts(app, "warning")
    assert app.session_state["version"] == version and case_edits(app) == {"0": {"tile": "9m"}}
    # a file that is no photo: its error stands while the uploader holds it, and goes with it
    upload(app, b"not an image at all", name="notaphoto.jpg")
    assert any("notaphoto.jpg" in t for t in texts(app, "error")), texts(app, "error")
    app.run()
    assert any("notaphoto.jpg" in t for t in texts(app, "error")), texts(app, "error")
    app.file_uploader(key="upload").clear().run()
    no_problem(app)
    assert not any("notaphoto.jpg" in t for t in texts(app, "error")), texts(app, "error")
    assert app.session_state["version"] == version and case_edits(app) == {"0": {"tile": "9m"}}


def test_the_summary_shows_the_sets_the_score_was_counted_on(app: AppTest) -> None:
    typed_hand(app, "4722237m 99p 72m", melds="876s")
    no_problem(app)
    assert "Read as: 222m 234m 777m [678s] 99p" in summary(app), summary(app)
    assert "| melds: [678s]  ([..] exposed" in summary(app), summary(app)  # in tile order, as read


def open_case_file(at: AppTest, data: bytes, name: str = "mahjong-case.json") -> AppTest:
    at.file_uploader(key="case_upload").upload(name, data, "application/json")
    return at.run()


def test_a_downloaded_case_opens_again_as_it_was_scored(app: AppTest) -> None:
    app.selectbox(key="rules").set_value("singapore").run()
    app.number_input(key="opt_singapore_max_tai").set_value(8).run()
    typed_hand(app, "123m 456p 22m", melds="CCC", kongs="5555s")
    app.selectbox(key="seat_wind").set_value("S").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    app.selectbox(key="winning_tile").set_value("2m").run()
    app.multiselect(key="circumstances").set_value(["last_tile"]).run()
    app.checkbox(key="pay_all").check().run()
    no_problem(app)
    saved = json.dumps(app.session_state["case_json"]).encode()
    before, tai_before = summary(app), texts(app, "success")

    fresh = AppTest.from_file(str(APP), default_timeout=60)
    fresh.run()
    open_case_file(fresh, saved)
    no_problem(fresh)
    assert texts(fresh, "success") == tai_before, result_text(fresh)
    assert summary(fresh) == before
    assert fresh.number_input(key="opt_singapore_max_tai").value == 8
    assert fresh.selectbox(key="seat_wind").value == "S" and fresh.checkbox(key="pay_all").value
    assert fresh.session_state["base"].meld_concealed == {"meld 2": True}


def test_tiles_held_from_the_deal_open_and_double_as_the_scoring_command_does(app: AppTest) -> None:
    hand = {
        "concealed": "123m 456m 789p 111s CC",
        "bonus": ["F1", "S1", "cat", "rat"],
        "bonus_from_deal": ["F1", "S1", "cat", "rat"],
        "winning_tile": "1m",
    }
    open_case_file(app, json.dumps(hand).encode())
    no_problem(app)
    replayed = scoring.score_json(app.session_state["case_json"])
    assert replayed["payout"]["instant_payouts"] == scoring.score_json(hand)["payout"]["instant_payouts"]
    assert app.multiselect(key="bonus_from_deal").value == ["F1", "S1", "cat", "rat"]
    assert "Held from the deal: F1 S1 cat rat" in summary(app)
    # let go of two: their instant payouts are no longer doubled, and the case file says so
    app.multiselect(key="bonus_from_deal").set_value(["F1", "S1"]).run()
    assert app.session_state["case_json"]["bonus_from_deal"] == ["F1", "S1"]
    halved = scoring.score_json({**hand, "bonus_from_deal": ["F1", "S1"]})["payout"]["instant_payouts"]
    assert app.session_state["case_json"]["result"]["payout"]["instant_payouts"] == halved


def test_a_tile_held_from_the_deal_is_held_again_when_an_edit_brings_it_back(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC", bonus="F2 S2 cat rat")
    app.selectbox(key="seat_wind").set_value("S").run()
    app.multiselect(key="bonus_from_deal").set_value(["cat", "rat"]).run()
    doubled = app.session_state["case_json"]["result"]["payout"]["instant_payouts"]
    rows = app.session_state["case_json"]["tiles"]
    cat = next(str(row["tile"] - 1) for row in rows if row["code"] == "cat")
    edit_tiles(app, {"edited_rows": {cat: {"tile": "rooster"}}, "added_rows": [], "deleted_rows": []})
    assert app.session_state["case_json"].get("bonus_from_deal") == ["rat"]
    assert any("set aside: cat" in t for t in texts(app, "caption")), texts(app, "caption")
    edit_tiles(app, {"edited_rows": {}, "added_rows": [], "deleted_rows": []})  # the edit taken back
    assert app.session_state["case_json"]["bonus_from_deal"] == ["cat", "rat"]
    assert app.session_state["case_json"]["result"]["payout"]["instant_payouts"] == doubled


def test_a_case_s_concealed_chow_opens_among_the_hand_s_tiles(app: AppTest) -> None:
    case = {
        "concealed": "123m 99p",
        "melds": [
            {"kind": "chow", "tiles": "456p", "concealed": True},
            {"kind": "pong", "tiles": "CCC", "concealed": True},
            {"kind": "chow", "tiles": "789s", "concealed": True},
        ],
        "self_drawn": True,
    }
    open_case_file(app, json.dumps(case).encode())
    no_problem(app)
    assert app.session_state["case_json"]["result"]["tai"] == scoring.score_json(case)["tai"] == 2
    (note,) = [t for t in texts(app, "info") if "among the hand's tiles" in t]
    assert "The concealed chow 4p 5p 6p, pong C C C, chow 7s 8s 9s open among the hand's tiles" in note


def test_a_case_s_winning_tile_in_a_kong_is_set_aside_and_said_so(app: AppTest) -> None:
    case = {
        "concealed": "123m 456p 789s 22m",
        "melds": [{"kind": "kong", "tiles": "5555s", "concealed": True}],
    }
    open_case_file(app, json.dumps({**case, "winning_tile": "5s", "self_drawn": True}).encode())
    no_problem(app)
    notes = " ".join(texts(app, "info") + texts(app, "caption"))
    assert "names 5s as the winning tile, which lies only in a kong" in notes, notes
    assert "no 5s in the hand now" not in notes


@pytest.mark.parametrize(
    ("data", "quote"),
    [
        pytest.param(
            b'{"concealed": "123m',
            "broken.json is not valid JSON (line 1, column 15: a text in quotes starts here and is never "
            "closed)",
            id="json",
        ),
        pytest.param(b"[1, 2]", "must hold a JSON object, not a list", id="array"),
        pytest.param(b'{"concealed": "123q"}', "123q", id="tile"),
        # the field the bad code is in is named (an audit: "cannot read '5q'" alone)
        pytest.param(
            b'{"concealed": "123m", "bonus": "F1 5q"}', "broken.json: bonus: cannot read '5q'", id="field"
        ),
        pytest.param(b'{"concealed": "123m", "options": [1]}', "options must be an object", id="options"),
        pytest.param(
            b'{"rules": "malaysian", "concealed": "123p", "seat_wind": "N"}', "N is not a seat", id="seat"
        ),
        pytest.param(b"\xe9", "is not UTF-8 text, nor UTF-16", id="bytes"),
        pytest.param(b" " * 2_000_001, "over 2,000,000 characters", id="too-large"),
        pytest.param(
            b'{"concealed": "123m", "circumstances": [' + b",".join([b"1"] * 300_000) + b"]}",
            "circumstances",
            id="long-quote",
        ),
    ],
)
def test_a_bad_case_file_is_one_line_and_keeps_the_hand(app: AppTest, data: bytes, quote: str) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    base = app.session_state["base"]
    open_case_file(app, data, name="broken.json")
    no_problem(app)
    errors = [t for t in texts(app, "error") if t.startswith("broken.json")]
    assert len(errors) == 1 and quote in errors[0] and "\n" not in errors[0], texts(app, "error")
    assert errors[0].count("broken.json") == 1, errors[0]
    assert len(errors[0]) < 400  # what it quotes is cut, not a page of megabytes
    assert app.session_state["base"] is base


def test_a_case_file_with_a_house_rule_the_scoring_refuses_opens_with_a_note(app: AppTest) -> None:
    # stage 79: one such option (a maximum of -1 tai, an option renamed since) kept the whole case out;
    # it opens at the rule set's default, said, and the page scores it
    data = b'{"concealed": "123m 456p 789s 22m CCC", "options": {"max_tai": -1, "gone": 1}}'
    open_case_file(app, data, name="odd.json")
    no_problem(app)
    assert app.session_state["base"].name == "odd.json"
    notes = "\n".join(texts(app, "info"))
    assert "house rule Max tai cannot be used (option max_tai must be positive, got -1)" in notes, notes
    assert "option 'gone' is no house rule of this app: left out" in notes, notes
    assert app.number_input(key="opt_singapore_max_tai").value == scoring.default_options("singapore").max_tai
    assert "tai" in result_text(app)


def test_a_case_files_error_goes_with_the_file(app: AppTest) -> None:
    # a file refused as no JSON file leaves the uploader empty: the last file's error must not seem its
    open_case_file(app, b"[1, 2]", name="list.json")
    assert any(t.startswith("list.json") for t in texts(app, "error")), texts(app, "error")
    app.file_uploader(key="case_upload").clear().run()
    no_problem(app)
    assert not any(t.startswith("list.json") for t in texts(app, "error")), texts(app, "error")


def test_an_earthly_hand_chosen_stays_chosen_through_a_rule_set_switch(app: AppTest) -> None:
    # the box's label is one for both rule sets (a label that changed would drop the choice); the help
    # and the summary say it as each rule set has it
    typed_hand(app, "123p 456p 789p 555p 22p")
    app.selectbox(key="seat_wind").set_value("S").run()
    app.multiselect(key="circumstances").set_value(["earthly"]).run()
    for rules, said in (
        ("malaysian", "Earthly hand (East's 1st discard)"),
        ("singapore", "or your 1st draw"),
    ):
        app.selectbox(key="rules").set_value(rules).run()
        app.checkbox(key="pay_all").check().run()  # a later, unrelated click
        no_problem(app)
        box = app.multiselect(key="circumstances")
        assert box.value == ["earthly"] and box.format_func("earthly") == "Earthly hand (地胡)"
        assert said in box.help and said in summary(app), (box.help, summary(app))
        app.checkbox(key="pay_all").uncheck().run()


def test_circumstances_that_cannot_be_are_not_blamed_on_the_hand(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    # ticked as East's self-draw, then the seat set: the tick stays, and the result says why
    app.radio(key="won_by").set_value("self-drawn").run()
    app.multiselect(key="circumstances").set_value(["heavenly"]).run()
    app.selectbox(key="seat_wind").set_value("S").run()
    no_problem(app)
    assert app.multiselect(key="circumstances").value == ["heavenly"]
    errors = texts(app, "error")
    assert any(t.startswith("How it was won does not fit:") and "East" in t for t in errors), errors
    assert not any("Not a valid win" in t or ".." in t for t in errors if "does not fit" in t), errors


def test_a_case_opened_over_corrections_asks_first(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    photo_base = app.session_state["base"]
    open_case_file(app, json.dumps({"concealed": "123m 456p 789s 22m 555p"}).encode(), name="old.json")
    no_problem(app)
    assert app.session_state["base"] is photo_base
    assert any("Opening **old.json** will replace them" in t for t in texts(app, "warning"))
    app.button(key="case_replace").click().run()
    no_problem(app)
    assert app.session_state["base"].source == "case" and app.session_state["base"].name == "old.json"
    assert not any("will replace them" in t for t in texts(app, "warning"))


@pytest.mark.parametrize(
    ("rules", "seat", "bonus", "note"),
    [
        pytest.param("singapore", "S", ["F1", "S2", "cat"], "F1: not South's own (F2, S2)", id="other-seat"),
        pytest.param("singapore", "E", ["F1", "S1"], None, id="own"),
        pytest.param("singapore", "S", ["F1", "F2", "F3", "F4"], None, id="complete-set"),
        pytest.param(
            "malaysian", "S", ["F4", "S1"], "S1: not South's own (F2, S2)", id="malaysian-f4-scores"
        ),
    ],
)
def test_flowers_that_score_nothing_are_said_so(
    rules: str, seat: str, bonus: list[str], note: str | None
) -> None:
    from app_ui.summary import idle_bonus_note

    assert idle_bonus_note({"rules": rules, "seat_wind": seat, "bonus": bonus}) == (
        None if note is None else f"{note}, so no {'fan' if rules == 'malaysian' else 'tai'} of their own."
    )


@pytest.mark.parametrize(
    ("concealed", "said"),
    [
        pytest.param("123m 456p 789s 22m", True, id="a-win"),
        pytest.param("123m 456p 789s 2m", False, id="a-tile-short"),  # 13 tiles: no hand, no word on F1
        pytest.param("123m 456p 789s 24m", False, id="no-winning-shape"),
    ],
)
def test_the_flowers_that_score_nothing_are_said_only_where_the_hand_is_scored(
    app: AppTest, concealed: str, said: bool
) -> None:
    # an audit (stage 77): "F1: not South's own" stood above "Not a valid win" for a tile count gone wrong
    app.text_input(key="typed_concealed").input(concealed).run()
    app.text_input(key="typed_melds").input("CCC").run()
    app.text_input(key="typed_bonus").input("F1").run()
    app.button(key="typed_use").click().run()
    app.selectbox(key="seat_wind").set_value("S").run()
    no_problem(app)
    assert any("F1: not South's own" in t for t in captions(app)) == said, captions(app)
    assert ("F1: not South's own" in summary(app)) == said, summary(app)  # in the pasted text too (stage 81)


def test_a_malaysian_case_opens_with_the_options_it_hides(app: AppTest) -> None:
    # the payout table is not offered under Malaysian rules: it must still be sent as a table, not text
    case = {
        "rules": "malaysian",
        "concealed": "111p 222p 333p 99p",
        "melds": [{"kind": "pong", "tiles": "555p"}],
    }
    open_case_file(app, json.dumps(case).encode(), name="my.json")
    no_problem(app)
    assert not texts(app, "error"), texts(app, "error")
    assert any(t.startswith("**5 fan** = **100 points**") for t in texts(app, "success")), result_text(app)


def test_a_photos_reading_opens_under_the_sidebars_rule_set_and_house_rules(app: AppTest) -> None:
    app.selectbox(key="rules").set_value("malaysian").run()
    app.checkbox(key="opt_malaysian_north_wind").uncheck().run()
    app.number_input(key="opt_malaysian_points_per_fan").set_value(50).run()
    hand: dict[str, Any] = {
        "concealed": ["1p", "1p", "1p", "2p", "2p", "2p", "3p", "3p", "3p", "9p", "9p"],
        "melds": [{"kind": "pong", "tiles": ["5p", "5p", "5p"]}],
    }
    reading = {"image": {"width": 9, "height": 9}, "detections": [], "hand": hand, "warnings": []}
    open_case_file(app, json.dumps(reading).encode(), name="reading.json")
    no_problem(app)
    assert app.session_state["base"].name == "reading.json"
    assert app.selectbox(key="rules").value == "malaysian"
    assert app.checkbox(key="opt_malaysian_north_wind").value is False
    assert app.number_input(key="opt_malaysian_points_per_fan").value == 50
    # a scene names its rules but no options: the sidebar's house rules stay
    open_case_file(app, json.dumps({**hand, "rules": "malaysian"}).encode(), name="named.json")
    no_problem(app)
    assert app.number_input(key="opt_malaysian_points_per_fan").value == 50
    assert app.checkbox(key="opt_malaysian_north_wind").value is False
    # a case that names its options opens with them, the others at the rule set's defaults
    named = {**hand, "rules": "malaysian", "options": {"points_per_fan": 30}}
    open_case_file(app, json.dumps(named).encode(), name="case.json")
    no_problem(app)
    assert app.number_input(key="opt_malaysian_points_per_fan").value == 30
    assert app.checkbox(key="opt_malaysian_north_wind").value is True


def test_choices_read_in_words_and_the_malaysian_prevailing_wind_says_it_scores_nothing(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    schemes = app.selectbox(key="opt_singapore_payout_scheme").options
    assert "Shooter pays (4 x base)" in schemes, schemes
    assert not any("shooter_pays" in s for s in schemes), schemes
    assert not any("prevailing wind" in t for t in texts(app, "caption"))
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert any("no fan for the prevailing wind" in t for t in texts(app, "caption")), texts(app, "caption")
    payments = app.selectbox(key="opt_malaysian_malaysian_payment").options
    # stage 55: short enough for the sidebar's box (the longer ones were cut at 1366 px), in full in its help
    assert payments == ["Seed (discarder 2 x)", "Discarder 2 x, other 1 x"], payments
    assert all(len(label) <= 30 for label in [*payments, *schemes]), (payments, schemes)
    helped = app.selectbox(key="opt_malaysian_malaysian_payment").help
    assert "Seed (discarder 2 x; self-draw 1 x each)" in helped, helped


def test_the_readers_notes_are_said_of_the_photo_as_read_once_the_user_corrects(
    app: AppTest, install: Install
) -> None:
    install(FakeReader({90: scene(concealed=CONCEALED[:-1])}))  # a tile short: the reader says so
    upload(app, photo_bytes())
    no_problem(app)
    short = "13 hand tiles (a kong counts as three); a winning hand has 14"
    assert any(t.startswith("The reader says:") and short in t for t in texts(app, "warning"))
    added = [{"tile": "2m", "group": "hand"}]
    edit_tiles(app, {"edited_rows": {}, "added_rows": added, "deleted_rows": []})
    no_problem(app)
    assert not any(short in t for t in texts(app, "warning")), texts(app, "warning")
    said = [t for t in texts(app, "info") if t.startswith("The reader said of the photo as read")]
    assert said and short in said[0], texts(app, "info")


def test_a_hand_no_set_could_hold_is_refused_and_the_hand_on_screen_kept(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    before = summary(app)
    typed_hand(app, "11111m 234p 567s 99s")
    no_problem(app)
    errors = texts(app, "error")
    assert any("5 copies of 1m, but the set has only 4" in t for t in errors), errors
    assert summary(app) == before
    five = {"concealed": ["1m"] * 5 + ["2p", "3p", "4p", "5s", "6s", "7s", "9s", "9s"]}
    open_case_file(app, json.dumps(five).encode(), name="five1m.json")
    no_problem(app)
    assert any(t.startswith("five1m.json: 5 copies of 1m") for t in texts(app, "error")), texts(app, "error")
    assert summary(app) == before


def test_the_copied_summary_is_plain_text(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.radio(key="won_by").set_value("self-drawn").run()
    app.multiselect(key="circumstances").set_value(["last_tile"]).run()
    app.radio(key="won_by").set_value("discard").run()  # the tick stays; it needs a self-draw: no fit
    no_problem(app)
    assert any("*How was it won?*" in t for t in texts(app, "error")), texts(app, "error")
    assert "Change it under How was it won?" in summary(app) and "*" not in summary(app), summary(app)


def pictures(at: AppTest) -> list[Any]:
    """The pictures on the page (the annotated photo's first), in the page's columns too."""

    def elements(node: Any) -> Iterator[Any]:
        yield node
        for child in getattr(node, "children", {}).values():
            yield from elements(child)

    return [img for element in elements(at.main) for img in getattr(element.proto, "imgs", [])]


def image_captions(at: AppTest) -> list[str]:
    return [img.caption for img in pictures(at)]


def test_a_photo_whose_tiles_fill_little_of_it_is_shown_cropped_to_them(
    app: AppTest, install: Install
) -> None:
    install(FakeReader({90: scene(), 30: scene(), 160: scene()}))
    upload(app, photo_bytes(width=2000, height=1500, shade=90))
    no_problem(app)
    assert image_captions(app)[0].startswith("hand.jpg (cropped to the tiles found): "), image_captions(app)
    app.toggle(key="whole_photo").set_value(True).run()
    no_problem(app)
    assert image_captions(app)[0].startswith("hand.jpg: "), image_captions(app)
    # a photo its tiles fill has nothing to crop and no toggle; the next one is shown whole again
    upload(app, photo_bytes(width=420, height=260, shade=30), name="close.jpg")
    assert image_captions(app)[0].startswith("close.jpg: "), image_captions(app)
    assert "whole_photo" not in [toggle.key for toggle in app.toggle]
    upload(app, photo_bytes(width=2000, height=1500, shade=160), name="far.jpg")
    no_problem(app)
    assert image_captions(app)[0].startswith("far.jpg: "), image_captions(app)
    assert app.toggle(key="whole_photo").value


def test_the_photo_and_the_tile_pictures_are_told_in_words_to_a_screen_reader(
    app: AppTest, install: Install
) -> None:
    install(FakeReader({90: scene(low=[4])}))
    upload(app, photo_bytes(shade=90))
    no_problem(app)
    photo_alt, pictures_alt = [img.alt for img in pictures(app)][:2]
    rows = app.session_state["base"].rows
    assert photo_alt.startswith(f"The photo with {len(rows)} tiles boxed, numbered as in the tile table: #1 ")
    assert (
        f"#5 {rows[4].code}, " in photo_alt
        and ", unsure" in photo_alt.split(f"#5 {rows[4].code}")[1].split(";")[0]
    )
    assert pictures_alt.startswith("The tiles drawn by group: hand: ")
    assert all(row.code in pictures_alt for row in rows)


def test_the_photos_caption_says_what_its_boxes_mean_as_far_as_it_has_any(
    app: AppTest, install: Install
) -> None:
    empty = Detections.from_codes([], [], [])
    install(FakeReader({90: scene(low=[4]), 30: scene(), 160: empty}))
    upload(app, photo_bytes(shade=90))
    assert image_captions(app)[0].endswith("tiles marked ? (in orange) are unsure, please check them.")
    upload(app, photo_bytes(shade=30), name="sure.jpg")
    assert image_captions(app)[0] == "sure.jpg (cropped to the tiles found): numbers match the tile table."
    # every tile the photo had deleted: its tiles were found, and the numbers still mean the table's
    edit_tiles(app, {"edited_rows": {}, "added_rows": [], "deleted_rows": list(range(15))})
    assert image_captions(app)[0] == "sure.jpg: numbers match the tile table."
    upload(app, photo_bytes(shade=160), name="bare.jpg")
    app.button(key="pending_replace").click().run()
    no_problem(app)
    assert image_captions(app)[0] == (
        "bare.jpg: no tiles found on the photo: is it a photo of a mahjong hand? "
        "(If so, take it closer where the hand lies far off in it, or add the tiles in Check the tiles.)"
    )


def test_the_rules_line_shows_the_unit_as_typed_beside_its_error(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.number_input(key="opt_singapore_unit").set_value(0.0).run()
    no_problem(app)
    line = [t for t in captions(app) + texts(app, "markdown") if t.startswith("Rules: ")]
    assert line and "unit 0" in line[0] and "unit 1" not in line[0], line
    assert any("“Unit” must be positive, got 0" in t and "0.0" not in t for t in texts(app, "error")), texts(
        app, "error"
    )


def test_a_unit_too_small_to_pay_is_refused_and_shown_as_typed(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.number_input(key="opt_singapore_unit").set_value(0.0000001).run()
    no_problem(app)
    line = [t for t in captions(app) + texts(app, "markdown") if t.startswith("Rules: ")]
    assert line and "unit 0.0000001" in line[0], line
    refused = "“Unit” is under 0.000001, the smallest amount paid, got 0.0000001"
    assert any(refused in t for t in texts(app, "error")), texts(app, "error")


def test_under_the_payout_table_the_rules_line_names_the_instant_payouts_unit(app: AppTest) -> None:
    typed_hand(app, "123m 456p 99p", melds="CCCC", kongs="5555s")
    app.number_input(key="opt_singapore_unit").set_value(0.5).run()
    app.selectbox(key="opt_singapore_payout_scheme").set_value("table").run()
    no_problem(app)
    line = [t for t in captions(app) if t.startswith("Rules: ")]
    assert line and "amounts from the payout table, instant payouts at unit 0.5" in line[0], line
    # the halving the instant payouts show is the unit the line names
    assert any("x 0.5 = 0.5 from each opponent" in t for t in texts(app, "markdown") + captions(app)), texts(
        app, "markdown"
    )
    app.checkbox(key="opt_singapore_instant_payouts").uncheck().run()  # none paid: no unit to name
    line = [t for t in captions(app) if t.startswith("Rules: ")]
    assert line and "amounts from the payout table," in line[0] and "instant payouts at" not in line[0], line


def test_a_hand_that_is_no_win_still_shows_the_instant_payouts_its_case_file_holds(app: AppTest) -> None:
    # a chicken hand with a concealed kong: no win, but the kong is paid when shown (RULES.md, docs/scoring)
    typed_hand(app, "123m 456p 789s 22m", kongs="5555s")
    no_problem(app)
    assert any(t.startswith("Not a valid win") for t in texts(app, "error")), texts(app, "error")
    said = "concealed kong of 5s"
    heading = "**Instant payouts** (settled at once, though the hand is no win)"
    assert heading in texts(app, "markdown") and any(said in t for t in texts(app, "markdown"))
    assert "  Instant: " in summary(app) and said in summary(app), summary(app)


def test_the_text_summary_says_a_limit_hand_is_at_the_limit_as_the_page_does(app: AppTest) -> None:
    typed_hand(app, "19m 19p 19s ESWNCFP 1m")  # thirteen wonders
    no_problem(app)
    assert "— at the limit" in result_text(app), result_text(app)
    assert summary(app).splitlines()[0] == "5 tai, at the limit, Singapore (4 players) rules", summary(app)


def test_a_malaysian_limit_type_hand_below_the_cap_is_a_limit_hand_not_at_the_limit(app: AppTest) -> None:
    # RULES.md: a limit-type hand sets the fan to 5, within a cap of 10: "5 fan, at the limit" under
    # "max 10 fan" read as a cap at 5 (an audit); the command line says "limit hand"
    app.selectbox(key="rules").set_value("malaysian").run()
    typed_hand(app, "55p", kongs="1111p 2222p 3333p 4444p")
    app.radio(key="won_by").set_value("self-drawn").run()
    app.multiselect(key="circumstances").set_value(["heavenly"]).run()
    no_problem(app)
    assert "**5 fan** = **100 points** — limit hand" in texts(app, "success"), texts(app, "success")
    lines = summary(app).splitlines()
    assert lines[0] == "5 fan = 100 points, limit hand, Malaysian (3 players) rules", lines
    # why the rows add to more than it, as before
    assert lines[1] == "The rows add to 10, but a limit hand scores its highest limit, not their sum: 5 fan"
    assert any(t.startswith("the fan is set to 5 by four kongs") for t in texts(app, "info")), texts(
        app, "info"
    )
    # at a cap of 5 it is the cap too
    app.number_input(key="opt_malaysian_max_tai").set_value(5).run()
    assert "**5 fan** = **100 points** — at the limit" in texts(app, "success"), texts(app, "success")


def test_the_photo_says_its_score_and_the_result_says_its_rules(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    no_problem(app)
    # beside "Read N tiles", above the fold on a phone
    assert any(t == "**2 tai** — [see Result below](#result)" for t in texts(app, "markdown")), texts(
        app, "markdown"
    )
    assert any(t.startswith("Rules: Singapore (4 players), min 1 / max 5 tai, unit 1") for t in captions(app))
    app.number_input(key="opt_singapore_max_tai").set_value(8).run()
    assert any("min 1 / max 8 tai" in t for t in captions(app)), captions(app)
    assert any(t.startswith("Tile codes: 1m–9m") for t in captions(app))


def test_corrections_are_listed_beside_the_score(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    assert not any(t.startswith("Your corrections") for t in captions(app))
    edit_tiles(app, {"edited_rows": {"0": {"tile": "7m"}}, "deleted_rows": [1], "added_rows": []})
    no_problem(app)
    said = [t for t in captions(app) if t.startswith("Your corrections")]
    assert said == [f"Your corrections: #1 {CONCEALED[0]} → 7m; #2 {CONCEALED[1]} deleted"], captions(app)


def test_the_newest_question_before_replacing_corrections_stands_alone(
    app: AppTest, install: Install
) -> None:
    install(FakeReader({90: scene(), 30: scene(bonus=[])}))
    upload(app, photo_bytes(shade=90))
    edit_tiles(app, {"edited_rows": {"0": {"tile": "7m"}}, "deleted_rows": [], "added_rows": []})
    upload(app, photo_bytes(shade=30), name="second.jpg")
    assert app.session_state["pending"] is not None
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m").run()
    app.text_input(key="typed_melds").input("CCC").run()
    app.button(key="typed_use").click().run()
    no_problem(app)
    assert app.session_state["pending"] is None and app.session_state["pending_typed"] is not None
    asked = [t for t in texts(app, "warning") if "will replace them" in t]
    assert len(asked) == 1 and "Using the typed hand" in asked[0], asked
    withdrawn = "Reading second.jpg was not done: a newer question took its place"
    app.run()  # the photo still in the uploader is not asked about again
    assert app.session_state["pending"] is None and app.session_state["pending_typed"] is not None
    assert any(t.startswith(withdrawn) for t in texts(app, "info")), texts(app, "info")  # where it was asked
    app.button(key="typed_replace").click().run()
    no_problem(app)
    assert app.session_state["base"].source == "typed"
    assert not any(t.startswith(withdrawn) for t in texts(app, "info"))  # answered: nothing left to say
    # the photo still in the uploader: not read, and not said to be the user's choice
    assert any("second.jpg was not read: a newer question" in t for t in captions(app)), captions(app)
    assert not any("you kept your corrections" in t for t in captions(app)), captions(app)


def test_an_added_row_without_a_tile_says_to_pick_one(app: AppTest, install: Install) -> None:
    install(FakeReader())
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {}, "deleted_rows": [], "added_rows": [{"group": "hand"}]})
    no_problem(app)
    assert any(t.startswith("A row you added has no tile yet") for t in texts(app, "info")), texts(
        app, "info"
    )
    edit_tiles(
        app, {"edited_rows": {}, "deleted_rows": [], "added_rows": [{"group": "hand"}, {}, {"tile": "9p"}]}
    )
    assert any(t.startswith("2 rows you added have no tile yet") for t in texts(app, "info")), texts(
        app, "info"
    )
    edit_tiles(app, {"edited_rows": {}, "deleted_rows": [], "added_rows": [{"tile": "9p", "group": "hand"}]})
    assert not any("no tile yet" in t for t in texts(app, "info"))
    # given its tile, the row is folded into the table (its *Sure?* then "yours"), numbered as it is there
    number = app.dataframe[0].value["n"].iloc[-1]
    assert f"Your corrections: #{number} 9p added to hand" in captions(app), captions(app)


def test_an_added_flower_left_without_a_group_goes_to_the_bonus_row(app: AppTest) -> None:
    # the group column filled "hand" in, and scoring then refused the flower there
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    edit_tiles(app, {"edited_rows": {}, "deleted_rows": [], "added_rows": [{"tile": "F1"}]})
    no_problem(app)
    assert "Your corrections: #15 F1 added to bonus" in captions(app), captions(app)
    assert any(t.startswith("**2 tai**") for t in texts(app, "success")), result_text(app)


def kong_box(app: AppTest, group: str = "meld_1") -> Any:
    return app.checkbox(key=f"concealed_{app.session_state['version']}_{group}")


def test_a_kong_set_exposed_is_a_correction_kept_while_the_kong_is_a_pong_for_a_moment(app: AppTest) -> None:
    # the untick was in no corrections line nor the case file, and came back ticked after a tile edit
    typed_hand(app, "123m 456p 789s 22m", kongs="5555s")
    assert kong_box(app).value is True
    kong_box(app).uncheck().run()
    no_problem(app)
    assert any(t == "Your corrections: meld 1 (5s kong) set exposed" for t in captions(app)), captions(app)
    assert app.session_state["case_json"]["corrections"] == [
        {"action": "kong", "group": "meld 1", "code": "5s", "concealed": False}
    ]
    first = next(i for i, r in enumerate(app.session_state["base"].rows) if r.code == "5s")
    edit_tiles(app, {"edited_rows": {}, "added_rows": [], "deleted_rows": [first]})  # a pong now
    assert not any("kong) is concealed" in str(c.label) for c in app.checkbox)
    edit_tiles(
        app, {"edited_rows": {}, "added_rows": [{"tile": "5s", "group": "meld 1"}], "deleted_rows": [first]}
    )
    no_problem(app)
    assert kong_box(app).value is False
    assert app.session_state["case_json"]["melds"][0]["concealed"] is False


def test_a_kong_tick_is_told_by_what_the_user_did(app: AppTest) -> None:
    # the change line said "meld 1 (5s kong) set exposed undone" as the user ticked the box back: the
    # words did not say the kong was just marked concealed
    typed_hand(app, "123m 456p 789s 22m", kongs="5555s")
    kong_box(app).uncheck().run()
    no_problem(app)
    changed = [t for t in texts(app, "info") if t.startswith("Changed:")]
    assert changed and changed[0].endswith("after: marked the 5s kong exposed."), changed
    kong_box(app).check().run()
    no_problem(app)
    changed = [t for t in texts(app, "info") if t.startswith("Changed:")]
    assert changed and changed[0].endswith("after: marked the 5s kong concealed again."), changed


def test_a_kong_ticked_exposed_then_broken_is_no_tick_set_back(app: AppTest) -> None:
    # a tile of the kong deleted made it a pong: the line said "marked the 5s kong concealed again"
    typed_hand(app, "123m 456p 789s 22m", kongs="5555s")
    kong_box(app).uncheck().run()
    first = next(i for i, r in enumerate(app.session_state["base"].rows) if r.code == "5s")
    edit_tiles(app, {"edited_rows": {}, "added_rows": [], "deleted_rows": [first]})
    no_problem(app)
    changed = [t for t in texts(app, "info") if t.startswith("Changed:")]
    assert changed and changed[0].endswith("5s deleted; meld 1 (5s kong) set exposed undone."), changed


def test_a_kong_set_exposed_stays_a_correction_when_a_tile_is_added_after_it(app: AppTest) -> None:
    # an audit (stage 77): "Add it" after unticking a kong said "meld 1 (5s kong) set exposed undone", and
    # the untick left the corrections line and the case file, though the kong stayed exposed
    typed_hand(app, "123m 456p 789s 22m", kongs="5555s")
    kong_box(app).uncheck().run()
    no_problem(app)
    version = app.session_state["version"]
    app.selectbox(key=f"add_tile_{version}").set_value("cat").run()
    app.button(key=f"add_tile_go_{version}").click().run()
    no_problem(app)
    assert kong_box(app).value is False
    changed = [t for t in texts(app, "info") if t.startswith("Changed:")]
    assert not any("undone" in t for t in changed), changed
    (line,) = [t for t in captions(app) if t.startswith("Your corrections")]
    assert "meld 1 (5s kong) set exposed" in line and "cat added to bonus" in line, line
    corrections = app.session_state["case_json"]["corrections"]
    assert {"action": "kong", "group": "meld 1", "code": "5s", "concealed": False} in corrections, corrections
    # the cat undone: the kong stays as the user set it, and only the cat is said undone
    app.button(key="undo_last").click().run()
    no_problem(app)
    assert kong_box(app).value is False
    changed = [t for t in texts(app, "info") if t.startswith("Changed:")]
    assert changed and "cat added to bonus undone" in changed[0] and "set exposed" not in changed[0], changed
    (line,) = [t for t in captions(app) if t.startswith("Your corrections")]
    assert line == "Your corrections: meld 1 (5s kong) set exposed", line


def test_a_kong_tick_folded_in_goes_with_the_kong(app: AppTest) -> None:
    # a fuzzing helper (stage 77): untick, *Add it*, then delete one of the kong's tiles: the untick's
    # entry stayed in the corrections line and the case file beside the pong it left
    typed_hand(app, "123m 456p 789s 22m", kongs="5555s")
    kong_box(app).uncheck().run()
    version = app.session_state["version"]
    app.selectbox(key=f"add_tile_{version}").set_value("cat").run()
    app.button(key=f"add_tile_go_{version}").click().run()
    first = next(i for i, r in enumerate(app.session_state["base"].rows) if r.code == "5s")
    edit_tiles(app, {"edited_rows": {}, "added_rows": [], "deleted_rows": [first]})
    no_problem(app)
    corrections = app.session_state["case_json"]["corrections"]
    assert not any(c.get("action") == "kong" for c in corrections), corrections
    (line,) = [t for t in captions(app) if t.startswith("Your corrections")]
    assert "kong" not in line, line


def kong_photo_with_two_ways(install: Install) -> None:
    """A reader whose photo holds an exposed kong of C and whose last concealed tile reads 5m (two ways
    to a win, as `install_two_ways`)."""
    from vision.classes import CLASS_INDEX

    ways = (((10, CLASS_INDEX["2m"]),), ((9, CLASS_INDEX["5m"]),))
    install(FakeReader({90: scene(concealed=[*CONCEALED[:-1], "5m"], meld=["C"] * 4)}, ways=ways))


def test_a_kong_tick_folded_in_is_work_a_rule_switch_keeps(app: AppTest, install: Install) -> None:
    # a review (stage 77): a tick a way taken folded into the table counted as no correction of the
    # page's, so a rule-set switch read the photo again and dropped it unasked
    kong_photo_with_two_ways(install)
    upload(app, photo_bytes())
    kong_box(app).check().run()
    app.button(key=f"way_{app.session_state['version']}_0").click().run()
    edit_tiles(app, {"edited_rows": {"10": {"tile": "5m"}}, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    (line,) = [t for t in captions(app) if t.startswith("Your corrections")]
    assert line == "Your corrections: meld 1 (C kong) set concealed", line
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert kong_box(app).value is True
    corrections = app.session_state["case_json"]["corrections"]
    assert {"action": "kong", "group": "meld 1", "code": "C", "concealed": True} in corrections, corrections


def test_a_kong_tick_brought_back_by_a_reload_can_be_set_back(app: AppTest, install: Install) -> None:
    # a review (stage 77): the reload folded the tick's saved entry in too, and an untick after it left
    # "meld 1 (C kong) set concealed" standing beside an unticked box
    from tests.app.test_kept_case import reloaded

    install(FakeReader({90: scene(meld=["C"] * 4)}))
    upload(app, photo_bytes())
    kong_box(app).check().run()
    again = reloaded(app)
    no_problem(again)
    assert kong_box(again).value is True
    assert any(c.get("action") == "kong" for c in again.session_state["case_json"]["corrections"])
    kong_box(again).uncheck().run()
    no_problem(again)
    corrections = again.session_state["case_json"]["corrections"]
    assert not any(c.get("action") == "kong" for c in corrections), corrections
    assert not any(t.startswith("Your corrections") and "kong" in t for t in captions(again)), captions(again)


def test_the_summary_names_the_house_rules_and_the_scorings_notes(app: AppTest) -> None:
    # the text a player pastes to the table said "half flush" with no word of pure green being off
    typed_hand(app, "234s 666s 888s 33s", melds="FFF")
    app.checkbox(key="opt_singapore_pure_green").uncheck().run()
    no_problem(app)
    # the rules line as the page's caption has it, the cap and the stake with it (stage 81)
    assert (
        "Rules: Singapore (4 players), min 1 / max 5 tai, unit 1, house rules: Pure green off"
        in summary(app).splitlines()
    ), summary(app)
    assert any("house rules: Pure green off" in t for t in captions(app)), captions(app)
    app.selectbox(key="seat_wind").set_value("S").run()
    app.multiselect(key="circumstances").set_value(["humanly"]).run()
    app.checkbox(key="opt_singapore_humanly_hand").uncheck().run()
    text = summary(app)
    assert "Note: humanly hand not scored: “Humanly hand (人胡)” is off" in text, text
    assert any("“Humanly hand (人胡)” is off" in t for t in texts(app, "info")), texts(app, "info")


def test_the_payout_names_each_players_seat_once_the_discarder_is_said(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.selectbox(key="seat_wind").set_value("W").run()
    assert app.table[-1].value["Seat"].tolist() == ["West", "—", "—", "—"]
    app.selectbox(key="discarder_wind").set_value("E").run()
    no_problem(app)
    frame = app.table[-1].value
    assert frame["Seat"].tolist() == ["West", "East", "North", "South"], frame
    assert frame["Amount"].tolist() == ["+4", "-2", "-1", "-1"], frame
    assert "  Discarder (East): -2" in summary(app), summary(app)
    case = app.session_state["case_json"]
    assert case["discarder_wind"] == "E"
    fresh = AppTest.from_file(str(APP), default_timeout=60).run()
    open_case_file(fresh, json.dumps(case).encode())
    assert fresh.selectbox(key="discarder_wind").value == "E"
    # the seat the discarder had is the user's own now: not said any more
    app.selectbox(key="seat_wind").set_value("E").run()
    no_problem(app)
    assert app.selectbox(key="discarder_wind").value == "(not said)"
    # a self-draw asks no discarder
    app.radio(key="won_by").set_value("self-drawn").run()
    assert not any(s.key == "discarder_wind" for s in app.selectbox)


def test_the_discarders_seat_survives_a_self_draw_and_back_and_a_rule_switch_says_what_it_drops(
    app: AppTest,
) -> None:
    # the box is not drawn on a self-draw, and Streamlit forgot its value; a switch dropped it unsaid
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.selectbox(key="discarder_wind").set_value("N").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    app.radio(key="won_by").set_value("discard").run()
    no_problem(app)
    assert app.selectbox(key="discarder_wind").value == "N"
    app.selectbox(key="rules").set_value("malaysian").run()
    no_problem(app)
    assert app.selectbox(key="discarder_wind").value == "(not said)"
    assert any("no North seat: who discarded is not said now" in t for t in texts(app, "info")), texts(
        app, "info"
    )
    app.selectbox(key="rules").set_value("singapore").run()
    assert app.selectbox(key="discarder_wind").value == "N"


def test_a_case_naming_the_winner_as_discarder_opens_saying_so(app: AppTest) -> None:
    case = {"concealed": "123m 456p 789s CCC 55p", "seat_wind": "S", "discarder_wind": "S"}
    open_case_file(app, json.dumps(case).encode())
    no_problem(app)
    assert app.selectbox(key="discarder_wind").value == "(not said)"
    assert any("names South as the discarder" in t for t in texts(app, "info")), texts(app, "info")


def test_the_hint_by_the_photo_says_whether_the_tiles_are_read_or_corrected(
    app: AppTest, install: Install
) -> None:
    install(
        FakeReader({90: scene(concealed=["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "5m"])})
    )
    upload(app, photo_bytes())
    assert any(t.startswith("Not a valid win as read") for t in texts(app, "markdown")), texts(
        app, "markdown"
    )
    edit_tiles(app, {"edited_rows": {"0": {"tile": "9m"}}, "added_rows": [], "deleted_rows": []})
    assert any(t.startswith("Not a valid win as corrected") for t in texts(app, "markdown"))
    # the 9m is folded into the table's rows (a tile given another face): set back to 1m there
    edit_tiles(
        app,
        {"edited_rows": {"0": {"tile": "1m"}, "10": {"tile": "2m"}}, "added_rows": [], "deleted_rows": []},
    )
    assert "**2 tai** — [see Result below](#result)" in texts(app, "markdown"), texts(app, "markdown")
    # a winning hand under the minimum is no misreading: the hint says what it is
    app.number_input(key="opt_singapore_min_tai").set_value(3).run()
    hint = [t for t in texts(app, "markdown") if t.endswith("[see Result below](#result)")]
    assert hint and hint[0].startswith("Not a valid win: ") and "minimum is 3 tai" in hint[0], hint


def test_a_new_hand_names_the_last_hand_s_winning_tile_among_what_it_cleared(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 234s 55p")
    app.selectbox(key="winning_tile").set_value("4p").run()
    app.checkbox(key="pay_all").check().run()
    app.selectbox(key="seat_wind").set_value("W").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    typed_hand(app, "123m 456p 789s 234s 66p")  # a typo mended: a new hand, its win said afresh
    no_problem(app)
    notes = [t for t in texts(app, "info") if t.startswith("New hand: cleared")]
    assert notes and "winning tile (4p)" in notes[0] and "pay-all" in notes[0], texts(app, "info")
    assert app.session_state["case_json"].get("winning_tile") is None
    # self-drawn was the last win's too (stage 81: a new photo kept it, unsaid); the seat stays, said
    assert "self-draw (Won by is Discard again)" in notes[0] and "the winner's seat is still West" in notes[0]
    assert app.radio(key="won_by").value == "discard"
    assert app.session_state["case_json"]["self_drawn"] is False
    assert app.session_state["case_json"]["seat_wind"] == "W"


def test_option_errors_and_house_rules_are_in_the_sidebar_s_words_under_each_rule_set(app: AppTest) -> None:
    app.selectbox(key="rules").set_value("malaysian").run()
    typed_hand(app, "123p 456p 789p EEE 22p")
    app.number_input(key="opt_malaysian_min_tai").set_value(9).run()
    app.number_input(key="opt_malaysian_max_tai").set_value(6).run()
    errors = texts(app, "error")
    assert any("“Min fan” 9 is above “Max fan” 6" in t for t in errors), errors
    assert not any("tai" in t for t in errors), errors
    app.number_input(key="opt_malaysian_min_tai").set_value(5).run()
    app.number_input(key="opt_malaysian_max_tai").set_value(10).run()
    app.selectbox(key="opt_malaysian_malaysian_payment").set_value("discarder_and_other").run()
    no_problem(app)
    said = "house rules: Malaysian payment: Discarder 2 x, other 1 x (self-draw 2 x each)"
    assert any(said in t for t in captions(app)), captions(app)
    assert said in summary(app), summary(app)


def test_opening_a_case_says_what_it_changed_in_the_sidebar(app: AppTest) -> None:
    case = {
        "concealed": "123p 456p 789p EEE 22p",
        "rules": "malaysian",
        "options": {"malaysian_payment": "discarder_and_other"},
    }
    app.file_uploader(key="case_upload").upload("my.json", json.dumps(case).encode(), "application/json")
    app.run()
    no_problem(app)
    assert app.session_state["rules"] == "malaysian"
    said = (
        "Opened my.json: rule set now Malaysian (3 players); house rules as the case says: Malaysian payment:"
    )
    assert any(t.startswith(said) for t in texts(app, "info")), texts(app, "info")
    # the same rule set and house rules again: nothing changed, nothing to say
    app.file_uploader(key="case_upload").upload("again.json", json.dumps(case).encode(), "application/json")
    app.run()
    assert app.session_state["base"].name == "again.json"
    assert not any(t.startswith("Opened again.json") for t in texts(app, "info")), texts(app, "info")


def test_opening_a_singapore_case_names_its_caps_and_says_nothing_where_nothing_changed(app: AppTest) -> None:
    # the sidebar keeps a payout table as the text typed and a case as a list: every case opened had
    # said "house rules as the case says: the defaults", and a case that moved max tai said so too
    plain = {"concealed": "123m 456p 789s CCC 55p"}
    app.file_uploader(key="case_upload").upload("plain.json", json.dumps(plain).encode(), "application/json")
    app.run()
    no_problem(app)
    said = (
        "Opened plain.json: the file names no house rules, so the sidebar's are used (the rule set's "
        "defaults, as python -m scoring uses). See the sidebar."
    )
    assert said in texts(app, "info"), texts(app, "info")
    capped = {**plain, "options": {"max_tai": 10, "pure_green": False}}
    app.file_uploader(key="case_upload").upload("cap.json", json.dumps(capped).encode(), "application/json")
    app.run()
    no_problem(app)
    said = "Opened cap.json: house rules as the case says: Max tai: 10, Pure green off. See the sidebar."
    assert said in texts(app, "info"), texts(app, "info")


def test_a_case_naming_no_house_rules_says_the_sidebar_s_are_used_and_names_them(app: AppTest) -> None:
    # stage 55: such a file opened silently under the sidebar's rules, and its money differed from
    # python -m scoring's with nothing to say why
    app.number_input(key="opt_singapore_unit").set_value(0.5).run()
    app.checkbox(key="opt_singapore_pure_green").uncheck().run()
    plain = {"concealed": "123m 456p 789s CCC 55p"}
    app.file_uploader(key="case_upload").upload("plain.json", json.dumps(plain).encode(), "application/json")
    app.run()
    no_problem(app)
    said = (
        "Opened plain.json: the file names no house rules, so the sidebar's are used (Unit: 0.5, Pure "
        "green off; python -m scoring uses the rule set's defaults). See the sidebar."
    )
    assert said in texts(app, "info"), texts(app, "info")


def test_a_case_naming_no_rule_set_opened_under_another_says_which_python_m_scoring_uses(
    app: AppTest,
) -> None:
    # stage 71 (an audit): under the Malaysian sidebar such a file opened "as python -m scoring uses",
    # which scores it under Singapore rules
    app.selectbox(key="rules").set_value("malaysian").run()
    plain = {"concealed": "123p 456p 789p EEE 22p"}
    no_problem(open_case_file(app, json.dumps(plain).encode(), "plain.json"))
    assert app.session_state["rules"] == "malaysian"
    said = (
        "Opened plain.json: the file names no rule set, so the sidebar's is used (Malaysian (3 players); "
        "python -m scoring uses Singapore (4 players)); the file names no house rules, so the sidebar's "
        "are used (the rule set's defaults). See the sidebar."
    )
    assert said in texts(app, "info"), texts(app, "info")
    # naming the rule set, the same file says only what it changed
    open_case_file(app, json.dumps({**plain, "rules": "singapore"}).encode(), "named.json")
    assert any(t.startswith("Opened named.json: rule set now Singapore") for t in texts(app, "info"))


def test_a_score_after_an_unscored_table_is_told_against_that_table(app: AppTest) -> None:
    # stage 71 (an audit): after a run that scored nothing (a meld of two tiles), the next score was told
    # against the score before it, naming corrections the page had since undone
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    assert any("1 tai" in t for t in texts(app, "success")), result_text(app)
    two = {str(k): {"group": "meld 2"} for k in (0, 1)}
    edit_tiles(app, {"edited_rows": two, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    assert not app.success  # a meld of two tiles: not scored
    three = {str(k): {"group": "meld 2"} for k in (0, 1, 2)}
    edit_tiles(app, {"edited_rows": three, "added_rows": [], "deleted_rows": []})
    no_problem(app)
    changed = [t for t in texts(app, "info") if t.startswith("Changed:")]
    assert changed == ["Changed: not scored → 1 tai after: #3 3m hand → meld 2."], changed


def test_undo_the_last_change_says_what_it_undid_and_a_correction_is_named(
    app: AppTest, install: Install
) -> None:
    # stage 55: the undo moved the score with no Changed line, and an edit said only "the tiles"
    install(FakeReader())
    upload(app, photo_bytes())
    edit_tiles(app, {"edited_rows": {"14": {"tile": "F2"}}, "added_rows": [], "deleted_rows": []})
    shown = "\n".join(texts(app, "markdown") + texts(app, "caption") + texts(app, "info"))
    assert "2 tai → 1 tai after: #15 F1 → F2." in shown, shown
    app.button(key="undo_last").click().run()
    no_problem(app)
    shown = "\n".join(texts(app, "markdown") + texts(app, "caption") + texts(app, "info"))
    assert "1 tai → 2 tai after: #15 F1 → F2 undone." in shown, shown


def test_the_camera_asks_for_a_full_hd_frame_and_says_a_frame_is_small(app: AppTest) -> None:
    # unasked, the browser gives the frame at the widget's width on the page (some 360 px on a phone)
    app.toggle(key="use_camera").set_value(True).run()
    assert app.camera_input(key="camera").resolution == "1080p"
    assert any("camera frame is small" in t and "upload a phone photo" in t for t in texts(app, "caption"))
    app.toggle(key="use_camera").set_value(False).run()
    assert not any("camera frame is small" in t for t in texts(app, "caption"))


@pytest.mark.parametrize(
    ("said", "concealed", "melds", "bonus", "codes"),
    [
        (  # the honours' characters and an emoji keyboard's tiles
            "東 南 西 北 中 發 白",
            "🀇🀈🀉 🀙🀚🀛 東東東 55p",
            "中中中",
            "🀢",
            ["1m", "2m", "3m", "1p", "2p", "3p", "E", "E", "E", "5p", "5p", "C", "C", "C", "F1"],
        ),
        (  # the tiles' Chinese names
            "一二三萬",
            "一二三萬 一二三筒 七八九索 五五筒",
            "紅中紅中紅中",
            "梅 春",
            ["1m", "2m", "3m", "1p", "2p", "3p", "7s", "8s", "9s", "5p", "5p", "C", "C", "C", "F1", "S1"],
        ),
    ],
    ids=["characters_and_emoji", "chinese_names"],
)
def test_a_hand_typed_as_the_tiles_show_or_are_called_scores_as_its_codes(
    app: AppTest, said: str, concealed: str, melds: str, bonus: str, codes: list[str]
) -> None:
    assert any(said in t for t in captions(app))  # the typed fields say so
    typed_hand(app, concealed, melds=melds, bonus=bonus)
    no_problem(app)
    assert sorted(row.code for row in app.session_state["base"].rows) == sorted(codes)
    assert any("tai" in t for t in texts(app, "success")), result_text(app)


def test_a_missed_tile_is_added_by_its_face_and_undone(app: AppTest, install: Install) -> None:
    # the fake scene without its pair's second 2m: the user adds it
    install(FakeReader({90: scene(concealed=[*CONCEALED[:-1]])}))
    upload(app, photo_bytes())
    no_problem(app)
    before = list(app.session_state["base"].rows)
    version = app.session_state["version"]
    assert app.button(key=f"add_tile_go_{version}").proto.disabled  # nothing picked yet
    edit_tiles(app, {"edited_rows": {"0": {"tile": "1p"}}, "added_rows": [], "deleted_rows": []})
    version = app.session_state["version"]  # a tile given another face restarts the table, folded in
    options = app.selectbox(key=f"add_tile_{version}").options
    assert any(label.startswith("5p 五筒 ") for label in options), options  # found by its Chinese names too
    app.selectbox(key=f"add_tile_{version}").set_value("2m").run()
    app.button(key=f"add_tile_go_{version}").click().run()
    no_problem(app)
    rows = list(app.session_state["base"].rows)
    assert len(rows) == len(before) + 1
    assert (rows[-1].code, rows[-1].group) == ("2m", "hand")
    assert rows[0].code == "1p"  # the edit standing when the tile was added is kept
    assert rows[-1].number == max(r.number or 0 for r in rows[:-1]) + 1  # no tile takes another's number
    corrections = app.session_state["case_json"]["corrections"]
    assert {"action": "add", "tile": rows[-1].number, "code": "2m", "group": "hand"} in corrections
    assert {"action": "change", "tile": 1, "from": "1m", "to": "1p"} in corrections
    version = app.session_state["version"]
    app.selectbox(key=f"add_tile_{version}").set_value("cat").run()
    app.button(key=f"add_tile_go_{version}").click().run()
    last = app.session_state["base"].rows[-1]
    assert (last.code, last.group) == ("cat", "bonus")
    app.button(key="undo_last").click().run()
    app.button(key="undo_last").click().run()
    no_problem(app)
    edits = app.session_state[f"tiles_{app.session_state['version']}"]
    rows_now = table_edits.apply_edits(app.session_state["base"].rows, edits)
    assert [r.code for r in rows_now] == ["1p", *(r.code for r in before[1:])]


@pytest.mark.parametrize("rules", ["singapore", "malaysian"])
def test_the_typed_fields_examples_are_tiles_of_the_chosen_set(app: AppTest, rules: str) -> None:
    # an audit (stage 78): under Malaysian rules the kongs' field showed 5555s and a typing error's
    # example 123m, tiles that set has not
    from app_ui.tile_sets import tiles_in_set
    from scoring import typed as typed_mod

    app.selectbox(key="rules").set_value(rules).run()
    in_set = tiles_in_set(rules)
    shown = {
        key: app.text_input(key=key).proto.placeholder
        for key in ("typed_concealed", "typed_melds", "typed_kongs")
    }
    tiles = [
        *typed_mod.read_tiles(shown["typed_concealed"]),
        *(tile for meld in typed_mod.read_melds(shown["typed_melds"]) for tile in meld),
        *(tile for kong in typed_mod.read_concealed_kongs(shown["typed_kongs"]) for tile in kong),
    ]
    assert tiles and set(tiles) <= in_set, (shown, set(tiles) - in_set)
    typed_hand(app, "123q")
    refused = " ".join(e.value for e in app.error)
    example = refused.partition("(e.g. ")[2].partition(")")[0]
    assert example and set(typed_mod.read_tiles(example)) <= in_set, refused


HAND_OPENED = {"concealed": "123m 456p 789s 22m CCC", "source": {}}


@pytest.mark.parametrize(
    "entry",
    [
        {"action": "delete"},
        {"action": "kong"},
        {"action": "add"},
        {"action": "change", "tile": 1},
        {"action": "change", "tile": 1, "from": "**1m**", "to": "[a](http://x.y)"},
    ],
)
def test_a_correction_written_by_hand_is_not_said_and_breaks_nothing(
    app: AppTest, entry: dict[str, Any]
) -> None:
    # an audit (stage 78): {"action": "delete"} opened, then every run of the page failed on a KeyError
    good = {"action": "change", "tile": 2, "from": "2m", "to": "3m"}
    open_case_file(app, json.dumps({**HAND_OPENED, "corrections": [entry, good]}).encode())
    assert not app.exception, app.exception
    said = [c.value for c in app.caption if c.value.startswith("Corrected before the case was saved")]
    assert said == ["Corrected before the case was saved: #2 2m → 3m"], said
    app.run()  # and the next run too
    assert not app.exception, app.exception


@pytest.mark.parametrize(
    "case",
    [
        {**HAND_OPENED, "source": {"name": "\ud800"}},
        {**HAND_OPENED, "warnings": ["a\udfff"]},
    ],
)
def test_a_case_with_half_a_character_is_refused_in_one_line(app: AppTest, case: dict[str, Any]) -> None:
    # an audit (stage 78): it opened, then the download or a note failed on a UnicodeEncodeError
    typed_hand(app, "123m 456p 789s 22m", melds="EEE")
    open_case_file(app, json.dumps(case).encode(), "odd.json")
    assert not app.exception, app.exception
    assert [e.value for e in app.error] == [
        "odd.json holds a \\\\u escape that is half a character (a lone surrogate)"
    ], [e.value for e in app.error]
    assert "EEE" in summary(app)  # the hand before it stays


@pytest.mark.parametrize(
    "extra",
    [
        # an audit (stage 78): it opened, and adding a tile failed writing a number of 4,301 digits
        {"source": {"numbered_up_to": int("9" * 4300)}},
        # the review of its fix: a test of numbered_up_to alone passed with such records kept
        {"source": {}, "corrections": [{"action": "delete", "tile": int("9" * 4300), "code": "1m"}]},
    ],
    ids=["numbered_up_to", "a correction"],
)
def test_a_tile_number_of_thousands_of_digits_in_a_file_breaks_no_tile_added(
    app: AppTest, extra: dict[str, Any]
) -> None:
    open_case_file(app, json.dumps({**HAND_OPENED, **extra}).encode())
    key = f"tiles_{app.session_state['version']}"
    app.session_state[key] = {"edited_rows": {}, "added_rows": [{"tile": "cat"}], "deleted_rows": []}
    app.run()
    assert not app.exception, app.exception
    assert "cat added to bonus" in " ".join(c.value for c in app.caption)


def test_a_reading_s_warnings_on_an_opened_case_are_shown_as_written_and_bounded(app: AppTest) -> None:
    # an audit (stage 78): a warning's link, bold and heading were rendered, and 50,000 characters shown
    marked = "see [the fix](https://example.com) **now** # Big heading"
    long = "x" * 50_000
    reading = {"image": {}, "detections": [], "hand": {"concealed": "123m 456p 789s 22m CCC"}}
    open_case_file(app, json.dumps({**reading, "warnings": [marked, long]}).encode())
    assert not app.exception, app.exception
    notes = [i.value for i in app.info if "the fix" in i.value]
    assert len(notes) == 1 and "\\[the fix\\]" in notes[0] and "\\*\\*now\\*\\*" in notes[0], notes
    assert len(notes[0]) < 2_500, len(notes[0])


def test_a_saved_table_does_not_open_a_kong_written_concealed_as_a_word(app: AppTest) -> None:
    # an audit (stage 78): "concealed": "false" opened as a concealed kong (its instant payout doubled)
    # where python -m scoring refuses the file
    tiles = ["1m", "2m", "3m", "4p", "5p", "6p", "2m", "2m", *["5s"] * 4, *["C"] * 3]
    groups = ["hand"] * 8 + ["meld 1"] * 4 + ["meld 2"] * 3
    kong: dict[str, Any] = {"kind": "kong", "tiles": ["5s"] * 4, "concealed": "false"}
    pong = {"kind": "pong", "tiles": ["C"] * 3}
    case = {
        "concealed": tiles[:8],
        "melds": [kong, pong],
        "tiles": [{"code": code, "group": group} for code, group in zip(tiles, groups, strict=True)],
    }
    open_case_file(app, json.dumps(case).encode(), "kong.json")
    assert [e.value for e in app.error] == [
        "kong.json: melds\\[0\\].concealed must be true or false, got 'false'"
    ], [e.value for e in app.error]
    held = {
        **case,
        "melds": [{**kong, "concealed": False}, pong],
        "bonus_from_deal": ["1m"],
    }
    open_case_file(app, json.dumps(held).encode(), "held.json")
    assert [e.value for e in app.error][-1].startswith(
        "held.json: bonus_from_deal lists 1m, which is not a bonus tile"
    )


def test_the_change_line_calls_no_hand_lost_that_wants_its_winning_tile(app: AppTest) -> None:
    # an audit (stage 78): "Changed: 4 tai → not a valid win after: winning tile 1m → not set", above a
    # result asking for the winning tile
    typed_hand(app, "123m 456p 789s 234s 55m")
    app.selectbox(key="winning_tile").set_value("1m").run()
    said = [i.value for i in app.info if i.value.startswith("Changed:")]
    assert said == [
        "Changed: no win or 4 tai by the winning tile → 4 tai after: winning tile not set → 1m."
    ], said
    app.selectbox(key="winning_tile").set_value("(not set)").run()
    said = [i.value for i in app.info if i.value.startswith("Changed:")]
    assert said == [
        "Changed: 4 tai → no win or 4 tai by the winning tile after: winning tile 1m → not set."
    ], said
    assert not any("not a valid win" in t.value for t in app.toast), [t.value for t in app.toast]


def test_a_run_kept_by_the_code_before_an_update_tells_no_change_and_breaks_nothing(app: AppTest) -> None:
    # the review of stage 78: the run before grew a field, and a session open across the update failed
    # on its next change (Streamlit keeps a session's state when the code changes under it)
    typed_hand(app, "123m 456p 789s 234s 55m")
    app.session_state["last_scored"] = app.session_state["last_scored"][:4]
    app.selectbox(key="winning_tile").set_value("1m").run()
    assert not app.exception, [e.value for e in app.exception]
    assert not [i.value for i in app.info if i.value.startswith("Changed:")]
    app.selectbox(key="winning_tile").set_value("(not set)").run()
    assert [i.value for i in app.info if i.value.startswith("Changed:")], "told again from the next run"


def test_the_summary_of_a_hand_that_wants_its_winning_tile_opens_with_the_ask(app: AppTest) -> None:
    # stage 78, trying the app: the chat summary opened "Not a valid win" below the page's ask
    typed_hand(app, "123m 456p 789s 234s 55m")
    lines = summary(app).splitlines()
    assert lines[0] == (
        "Winning tile not set: won on 1m, 4p, 6p, 2s, 4s or 9s: 4 tai; "
        "2m, 3m, 5m, 5p, 3s, 7s or 8s: not a win"
    ), lines
    assert lines[1].startswith("As it stands: Not a valid win"), lines
    app.selectbox(key="winning_tile").set_value("1m").run()
    assert summary(app).splitlines()[0] == "4 tai, Singapore (4 players) rules", summary(app)


def test_the_result_names_the_reading_counted_and_the_other_it_beat(app: AppTest) -> None:
    # stage 81 (an audit): "why not read it as pongs?" had no answer on the page
    typed_hand(app, "111m 222m 333m 456p 77s")
    app.selectbox(key="winning_tile").set_value("3m").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    no_problem(app)
    shown = captions(app)
    assert "Read as: 123m 123m 123m 456p 77s" in shown, shown
    also = (
        "Also read as 111m 222m 333m 456p 77s: 1 tai (Fully concealed, self-drawn 1), lower than the reading "
        "counted"
    )
    assert also in shown and f"  {also}" in summary(app).splitlines(), shown


def test_the_read_as_line_says_what_its_marks_mean(app: AppTest) -> None:
    # a walkthrough: [CCC] for an exposed pong and <5555s> for a concealed kong stood unexplained
    typed_hand(app, "123m 456p 22m", melds="CCC", kongs="5555s")
    no_problem(app)
    (line,) = [t for t in captions(app) if t.startswith("Read as:")]
    assert "[CCC]" in line and "[..] an exposed set, laid down face up" in line, line
    assert "<5555s>" in line and "<..> a concealed kong" in line, line
    typed_hand(app, "123m 456p 22m", melds="CCC 789s")
    (line,) = [t for t in captions(app) if t.startswith("Read as:")]
    assert "<..>" not in line and "[..]" in line, line  # only the marks the line has are explained


def test_the_read_as_key_names_each_mark_it_has() -> None:
    from app_ui.summary import read_as_line

    assert read_as_line("123m 456p 789s 123p 55s") == "Read as: 123m 456p 789s 123p 55s"
    assert read_as_line("123m 456p <5555s> [CCC] 22m") == (
        "Read as: 123m 456p <5555s> [CCC] 22m ([..] an exposed set, laid down face up; <..> a concealed "
        "kong; unmarked, the sets and pair of the tiles in the hand)"
    )


def test_the_players_who_pay_alike_have_one_name_however_the_hand_was_won(app: AppTest) -> None:
    # a walkthrough: "Loser" on a self-draw, "Other player" on a discard
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.selectbox(key="discarder_wind").set_value("W").run()
    no_problem(app)
    assert set(payout_rows(app)) == {"Winner", "Discarder", "Other player"}, payout_rows(app)
    app.radio(key="won_by").set_value("self-drawn").run()
    no_problem(app)
    pay = payout_rows(app)
    assert set(pay) == {"Winner", "Other player"} and len(pay["Other player"]) == 3, pay
    assert "Loser" not in summary(app), summary(app)


def test_the_samples_fold_away_in_the_run_that_reads_an_upload(app: AppTest) -> None:
    # stage 81 (an audit): on a phone they pushed the photo just read below the first screen
    assert not [e for e in app.expander if e.label == "Try a sample photo"]
    upload(app, photo_bytes())
    no_problem(app)
    assert [e.label for e in app.expander if e.label == "Try a sample photo"] == ["Try a sample photo"]


def test_a_hand_below_the_minimum_shows_the_reading_it_was_scored_on(app: AppTest) -> None:
    # stage 81 (an audit): only the summary said it
    typed_hand(app, "123m 567p 789s 345s 66p")
    app.selectbox(key="winning_tile").set_value("3m").run()
    no_problem(app)
    assert "Read as: 123m 567p 345s 789s 66p" in captions(app), captions(app)


def test_the_summary_names_idle_flowers_where_the_unset_winning_tile_decides_the_hand() -> None:
    # as the page does (a review, stage 81: the summary had left the note out there)
    from app_ui.summary import summary_text
    from scoring import parse_hand_string, score_json

    data = {
        "rules": "singapore",
        "concealed": parse_hand_string("123m 456p 789s 234s 55p"),
        "melds": [],
        "bonus": ["F3"],
        "seat_wind": "E",
        "prevailing_wind": "E",
        "self_drawn": False,
        "options": {"lesser_sequence_wait_rule": True},
    }
    result = score_json(dict(data))
    assert result["reason"] == "below_minimum"  # the lesser sequence hand's wait rule needs its winning tile
    assert "F3: not East's own" in summary_text(data, result, ways="1m or 4m: 1 tai")
    # a hand no win for another reason that some winning tile mends: said only with its ways, as the page
    other = {**result, "reason": "impossible_context"}
    assert "F3: not East's own" in summary_text(data, other, ways="1m or 4m: 1 tai")
    assert "F3: not East's own" not in summary_text(data, other)


def test_the_payout_says_it_is_as_it_stands_while_the_winning_tile_would_change_it(app: AppTest) -> None:
    # stage 81 (an audit): the amounts read as what to pay before the winning tile was set
    typed_hand(app, "111m 222m 333m 77m", melds="789m")
    app.selectbox(key="discarder_wind").set_value("S").run()  # who pays is said: the winning tile alone asked
    no_problem(app)
    headings = [t for t in texts(app, "markdown") if t.startswith("**Payout")]
    assert headings == ["**Payout as it stands** (set the winning tile to settle it)"], headings
    app.selectbox(key="winning_tile").set_value("7m").run()
    assert [t for t in texts(app, "markdown") if t.startswith("**Payout")] == ["**Payout**"]


def payout_headings(app: AppTest) -> list[str]:
    return [t for t in texts(app, "markdown") if t.startswith("**Payout")]


def test_a_discard_win_with_no_discarder_is_headed_as_it_stands_until_who_pays_is_said(app: AppTest) -> None:
    # the amounts under a Seat column of dashes were headed "Payout", as if settled: a table could not
    # tell who pays them
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.selectbox(key="winning_tile").set_value("2m").run()
    no_problem(app)
    assert payout_headings(app) == ["**Payout as it stands** (set *Discarded by* to name who pays)"]
    assert "Payout as it stands (set “Discarded by” to name who pays):" in summary(app).splitlines()
    app.selectbox(key="discarder_wind").set_value("S").run()
    assert payout_headings(app) == ["**Payout**"]
    assert "Payout:" in summary(app).splitlines()
    # a self-draw has no discarder: every loser's seat is said
    app.selectbox(key="discarder_wind").set_value("(not said)").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    assert payout_headings(app) == ["**Payout**"]
    # under pay-all the liable player pays all: the box that names him is asked for
    app.checkbox(key="pay_all").check().run()
    no_problem(app)
    assert payout_headings(app) == ["**Payout as it stands** (set *Liable player's seat* to name who pays)"]
    app.selectbox(key="discarder_wind").set_value("W").run()
    assert payout_headings(app) == ["**Payout**"]


def test_the_summary_heads_its_payout_as_the_page_does() -> None:
    # pasted into a chat, a discarder of no seat read as settled: the page's "as it stands" is said too
    from app_ui.summary import summary_text

    data: dict[str, Any] = {
        "rules": "singapore",
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "2m"],
        "melds": [{"kind": "pong", "tiles": ["C", "C", "C"]}],
        "bonus": [],
        "seat_wind": "W",
        "prevailing_wind": "E",
        "self_drawn": False,
        "winning_tile": "2m",
    }

    def heading(data: dict[str, Any], ways: str | None = None) -> list[str]:
        lines = summary_text(data, scoring.score_json(data), ways).splitlines()
        return [line for line in lines if line.startswith("Payout")]

    assert heading(data) == ["Payout as it stands (set “Discarded by” to name who pays):"]
    assert heading({**data, "discarder_wind": "E"}) == ["Payout:"]
    assert heading({**data, "pay_all": True}) == [
        "Payout as it stands (set “Liable player's seat” to name who pays):"
    ]
    assert heading({**data, "discarder_wind": "E"}, ways="2m: 1 tai; 5m: 2 tai") == [
        "Payout as it stands (set the winning tile to settle it):"
    ]
    assert heading({**data, "self_drawn": True}) == ["Payout:"]


def test_the_payout_heading_asks_for_each_thing_unsaid() -> None:
    from app_ui.summary import payout_heading

    unnamed = [{"role": "winner", "seat": "E"}, {"role": "discarder"}, {"role": "other"}]
    named = [
        {"role": "winner", "seat": "E"},
        {"role": "discarder", "seat": "S"},
        {"role": "other", "seat": "W"},
    ]
    drawn = [{"role": "winner", "seat": "E"}, {"role": "loser", "seat": "S"}]
    assert payout_heading(None, named, False) == "**Payout**"
    assert payout_heading(None, drawn, False) == "**Payout**"
    assert (
        payout_heading(None, unnamed, False)
        == "**Payout as it stands** (set *Discarded by* to name who pays)"
    )
    assert payout_heading("set the winning tile", unnamed, True) == (
        "**Payout as it stands** (set the winning tile to settle it; "
        "set *Liable player's seat* to name who pays)"
    )
