"""The special circumstances box offers only those the hand can have (RULES.md: "Circumstances must be
possible for the hand"), keeping a tick already given: an audit was offered *Won on a kong's
replacement tile* for a hand with no kong, which the result then said could not fit."""

from __future__ import annotations

import json
import re
from typing import Any

from streamlit.testing.v1 import AppTest

from app_ui.hand_build import circumstances_lacking, circumstances_shown
from app_ui.summary import CIRCUMSTANCE_LABELS, circumstances_help
from tests.app.test_app import edit_tiles, no_problem, open_case_file, result_text, typed_hand

KONG = {"kind": "kong", "tiles": ["5s"] * 4, "concealed": False}
PONG = {"kind": "pong", "tiles": ["5s"] * 3}
KONG_REPLACEMENT = "Won on a kong's replacement tile (杠上开花)"
HEAVENLY = "Heavenly hand (天胡, East's dealt hand)"


def _hand_needs(hand: dict[str, Any]) -> dict[str, str]:
    """What the hand's tiles lack, on a discard win, leaving out what a discard rules out alone."""
    return {k: v for k, v in circumstances_lacking(hand, self_drawn=False).items() if k != "last_tile"}


def test_a_hand_without_a_kong_lacks_the_replacement_circumstances() -> None:
    lacking = _hand_needs({"concealed": ["1m"], "melds": [PONG], "bonus": []})
    assert lacking == {
        "replacement_tile": "needs a kong or a bonus tile in the hand",
        "kong_replacement": "needs a kong in the hand",
        "kong_on_kong": "needs two kongs in the hand",
    }
    # a flower's replacement is a replacement tile too; one kong is no kong on kong; two are
    assert set(_hand_needs({"melds": [PONG], "bonus": ["F1"]})) == {"kong_replacement", "kong_on_kong"}
    assert set(_hand_needs({"melds": [KONG]})) == {"kong_on_kong"}
    assert _hand_needs({"melds": [KONG, KONG]}) == {}


def test_robbing_the_kong_needs_a_win_on_a_discard() -> None:
    assert "robbing_kong" in circumstances_lacking({"melds": [KONG, KONG]}, self_drawn=True)
    assert "robbing_kong" not in circumstances_lacking({"melds": [KONG, KONG]}, self_drawn=False)


def test_the_last_tile_needs_a_self_draw() -> None:
    # RULES.md: `last_tile` a self-draw; the scoring refuses it on a discard (impossible_context), and
    # the box had offered it there alone of the circumstances a discard rules out (stage 89)
    on_discard = circumstances_lacking({"melds": [KONG, KONG]}, self_drawn=False)
    assert on_discard == {"last_tile": "needs a self-draw (the wall's last tile drawn)"}
    assert "last_tile" not in circumstances_lacking({"melds": [KONG, KONG]}, self_drawn=True)


def test_a_tick_already_given_is_still_shown() -> None:
    offered = ("replacement_tile", "kong_replacement", "last_tile")
    assert circumstances_shown(offered, {"kong_replacement", "replacement_tile"}, ()) == ["last_tile"]
    shown = circumstances_shown(offered, {"kong_replacement"}, ["kong_replacement"])
    assert shown == ["replacement_tile", "kong_replacement", "last_tile"]


def test_the_help_says_what_a_circumstance_left_out_needs() -> None:
    offered = ("kong_replacement", "last_tile")
    lines = circumstances_help(offered, "singapore", {"kong_replacement": "needs a kong in the hand"}).split(
        "\n"
    )
    assert lines == [
        "- Last tile of the wall (海底捞月): self-drawn on the last tile of the wall.",
        "",
        "Not possible for this hand:",
        f"- {KONG_REPLACEMENT}: needs a kong in the hand.",
    ]


def test_the_page_offers_a_kong_replacement_only_with_a_kong_and_keeps_its_tick(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="555s")
    box = app.multiselect(key="circumstances")
    assert KONG_REPLACEMENT not in box.options
    assert f"{KONG_REPLACEMENT}: needs a kong in the hand." in (box.help or "")
    typed_hand(app, "123m 456p 789s 22m", kongs="5555s")
    assert KONG_REPLACEMENT in app.multiselect(key="circumstances").options
    app.multiselect(key="circumstances").set_value(["kong_replacement"]).run()
    assert "won on a replacement tile" in result_text(app), result_text(app)
    # a tile of the kong deleted: the tick stays, shown, and the result says why it does not fit ...
    edit_tiles(app, {"edited_rows": {}, "added_rows": [], "deleted_rows": [14]})
    no_problem(app)
    box = app.multiselect(key="circumstances")
    assert box.value == ["kong_replacement"] and KONG_REPLACEMENT in box.options
    assert "the hand has no kong" in result_text(app), result_text(app)
    # ... and the kong put back, it scores again
    app.button(key="undo_last").click().run()
    no_problem(app)
    assert app.multiselect(key="circumstances").value == ["kong_replacement"]
    assert "won on a replacement tile" in result_text(app), result_text(app)


def test_a_case_ticking_a_kong_replacement_without_a_kong_opens_and_says_why(app: AppTest) -> None:
    case = {"concealed": "123m 456p 789s 22m", "melds": [PONG], "circumstances": ["kong_replacement"]}
    open_case_file(app, json.dumps(case).encode())
    no_problem(app)
    assert app.multiselect(key="circumstances").value == ["kong_replacement"]
    assert "the hand has no kong" in result_text(app), result_text(app)


def test_a_self_draw_is_not_offered_robbing_the_kong(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", kongs="5555s")
    assert "Robbing the kong (抢杠)" in app.multiselect(key="circumstances").options
    app.radio(key="won_by").set_value("self-drawn").run()
    box = app.multiselect(key="circumstances")
    assert "Robbing the kong (抢杠)" not in box.options
    assert "Robbing the kong (抢杠): needs a win on another player's tile" in (box.help or "")


def test_an_empty_choice_box_says_none_in_the_page_s_words(app: AppTest) -> None:
    # a walkthrough: Streamlit's "Choose options" stood under the winning tile's "(not set)", as if a
    # circumstance and a bonus tile held from the deal had to be chosen
    typed_hand(app, "123m 456p 789s 22m", melds="CCC", bonus="F1 cat")
    no_problem(app)
    for key in ("circumstances", "bonus_from_deal"):
        box = app.multiselect(key=key)
        assert box.value == [] and box.proto.placeholder == "(none)", (key, box.proto.placeholder)


def test_every_circumstance_is_named_as_a_singapore_table_calls_it() -> None:
    # a walkthrough: four of the nine had their Chinese name, the heavenly and humanly hands none
    for key, label in CIRCUMSTANCE_LABELS.items():
        assert re.search(r"\([^)]*[\u4e00-\u9fff][^)]*\)$", label), (key, label)


def test_the_first_turn_hands_need_the_seat_and_the_win_rules_md_gives_them() -> None:
    # RULES.md: heavenly a self-draw by the East seat, earthly and humanly a seat other than East, a
    # humanly hand a discard; Malaysian rules' earthly hand is never self-drawn
    hand = {"melds": [KONG, KONG]}
    first_turn = {"heavenly", "earthly", "humanly"}

    def lacking(drawn: bool, seat: str, rules: str = "singapore") -> dict[str, str]:
        return {k: v for k, v in circumstances_lacking(hand, drawn, seat, rules).items() if k in first_turn}

    assert lacking(True, "E") == {
        "earthly": "needs a seat other than East",
        "humanly": "needs a seat other than East, and a win on a discard",
    }
    assert lacking(False, "E") == {
        "heavenly": "needs a self-draw",
        "earthly": "needs a seat other than East",
        "humanly": "needs a seat other than East",
    }
    assert lacking(False, "S") == {"heavenly": "needs a self-draw by the East seat"}
    assert lacking(True, "S") == {
        "heavenly": "needs the East seat (the dealer)",
        "humanly": "needs a win on a discard, not a self-draw",
    }
    assert (
        lacking(True, "S", "malaysian")["earthly"] == "needs a win on East's first discard, not a self-draw"
    )
    # no seat given: the hand's needs alone
    assert not set(circumstances_lacking(hand, False)) & first_turn


def test_a_south_seat_s_discard_win_is_not_offered_a_heavenly_hand(app: AppTest) -> None:
    # a walkthrough: offered to a South seat's discard win, the result then said it did not fit
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.selectbox(key="seat_wind").set_value("S").run()
    box = app.multiselect(key="circumstances")
    assert HEAVENLY not in box.options and "Humanly hand (人胡)" in box.options
    assert f"{HEAVENLY}: needs a self-draw by the East seat." in (box.help or ""), box.help
    app.radio(key="won_by").set_value("self-drawn").run()
    box = app.multiselect(key="circumstances")
    assert HEAVENLY not in box.options and "Humanly hand (人胡)" not in box.options
    assert "Humanly hand (人胡): needs a win on a discard, not a self-draw." in (box.help or ""), box.help
    app.selectbox(key="seat_wind").set_value("E").run()
    box = app.multiselect(key="circumstances")
    assert HEAVENLY in box.options and "Earthly hand (地胡)" not in box.options
    # a tick already given stays shown when the seat is set after it, and the result says why
    app.multiselect(key="circumstances").set_value(["heavenly"]).run()
    app.selectbox(key="seat_wind").set_value("W").run()
    no_problem(app)
    box = app.multiselect(key="circumstances")
    assert box.value == ["heavenly"] and HEAVENLY in box.options
    assert "a heavenly hand is a self-draw by the East seat" in result_text(app), result_text(app)
