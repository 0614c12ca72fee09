"""Scoring hand after hand on one page (an audit of a night's play, stage 82): a retyped hand brings the
last win back in one tap, the typed fields clear in one, a field left from the last hand is named, the
summary gives each player's sum with the instant payouts, and a hand that is no win says nobody pays."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tests.app.test_app import no_problem, open_case_file, summary, texts, typed_hand


def test_a_retyped_hand_brings_the_last_win_back_in_one_tap(app: AppTest) -> None:
    typed_hand(app, "123s 456s 789s 99s", melds="PPP")
    app.selectbox(key="seat_wind").set_value("S").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    app.selectbox(key="winning_tile").set_value("9s").run()
    before = [t for t in texts(app, "success") if "tai" in t]
    typed_hand(app, "123s 456s 789s 99s", melds="FFF")  # the dragon mistyped, put right
    no_problem(app)
    assert app.radio(key="won_by").value == "discard"
    assert any(t.startswith("New hand: cleared") for t in texts(app, "info")), texts(app, "info")
    app.button(key="bring_back_win").click().run()
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "9s"
    assert app.radio(key="won_by").value == "self-drawn"
    assert app.selectbox(key="seat_wind").value == "S"
    assert any(t.startswith("Brought back how the last hand was won") for t in texts(app, "info"))
    assert [t for t in texts(app, "success") if "tai" in t] == before
    assert not [button for button in app.button if button.key == "bring_back_win"]


def test_the_last_win_is_offered_until_a_box_it_would_set_is_set(app: AppTest) -> None:
    typed_hand(app, "123s 456s 789s 99s", melds="PPP")
    app.radio(key="won_by").set_value("self-drawn").run()
    typed_hand(app, "123s 456s 789s 99s", melds="FFF")
    # the seat, asked about beside its box, first: the offer stays (a hostile test, stage 82)
    app.selectbox(key="seat_wind").set_value("W").run()
    assert [button for button in app.button if button.key == "bring_back_win"]
    app.selectbox(key="winning_tile").set_value("1s").run()
    assert not [button for button in app.button if button.key == "bring_back_win"]
    app.selectbox(key="winning_tile").set_value("(not set)").run()
    assert not [button for button in app.button if button.key == "bring_back_win"]  # taken back: gone


def test_the_last_win_is_not_offered_for_an_opened_case_or_under_another_rule_set(app: AppTest) -> None:
    typed_hand(app, "123p 456p 789p 99p", melds="CCC")
    app.radio(key="won_by").set_value("self-drawn").run()
    typed_hand(app, "123p 456p 789p 99p", melds="PPP")
    assert [button for button in app.button if button.key == "bring_back_win"]
    app.selectbox(key="rules").set_value("malaysian").run()
    assert not [button for button in app.button if button.key == "bring_back_win"]
    app.selectbox(key="rules").set_value("singapore").run()
    typed_hand(app, "123p 456p 789p 99p", melds="FFF")
    app.radio(key="won_by").set_value("self-drawn").run()
    typed_hand(app, "123p 456p 789p 99p", melds="CCC")
    assert [button for button in app.button if button.key == "bring_back_win"]
    case = {"concealed": "123m 456m 789m 22p", "melds": [{"tiles": "PPP"}]}
    open_case_file(app, json.dumps(case).encode())
    no_problem(app)
    assert not [button for button in app.button if button.key == "bring_back_win"]


def test_the_last_win_stays_offered_when_the_north_wind_is_left_out_or_put_back(app: AppTest) -> None:
    # leaving the North wind out changes no seat nor circumstance (a review, stage 83: the offer went as
    # on a switch of rule set)
    app.selectbox(key="rules").set_value("malaysian").run()
    typed_hand(app, "123p 456p 789p 99p", melds="CCC")
    app.radio(key="won_by").set_value("self-drawn").run()
    typed_hand(app, "123p 456p 789p 99p", melds="PPP")
    assert [button for button in app.button if button.key == "bring_back_win"]
    app.checkbox(key="opt_malaysian_north_wind").uncheck().run()
    no_problem(app)
    assert [button for button in app.button if button.key == "bring_back_win"]
    app.checkbox(key="opt_malaysian_north_wind").check().run()
    app.button(key="bring_back_win").click().run()
    no_problem(app)
    assert app.radio(key="won_by").value == "self-drawn"


def test_a_pay_all_win_brought_back_keeps_the_discarder_set_aside(app: AppTest) -> None:
    typed_hand(app, "123s 456s 789s 99s", melds="PPP")
    app.selectbox(key="discarder_wind").set_value("S").run()
    app.checkbox(key="pay_all").check().run()
    app.selectbox(key="discarder_wind").set_value("W").run()  # the liable player
    typed_hand(app, "123s 456s 789s 99s", melds="FFF")
    app.button(key="bring_back_win").click().run()
    assert app.checkbox(key="pay_all").value and app.selectbox(key="discarder_wind").value == "W"
    app.checkbox(key="pay_all").uncheck().run()
    no_problem(app)
    assert app.selectbox(key="discarder_wind").value == "S"


def test_the_bring_back_button_is_not_offered_where_nothing_was_cleared(app: AppTest) -> None:
    typed_hand(app, "123s 456s 789s 99s", melds="PPP")
    typed_hand(app, "123s 456s 789s 99s", melds="FFF")
    assert not [button for button in app.button if button.key == "bring_back_win"]


def test_clear_the_fields_empties_every_typed_field(app: AppTest) -> None:
    typed_hand(app, "123m 456m 789m 22p", melds="555s", kongs="6666p", bonus="cat rat")
    rows = app.session_state["base"].rows
    app.button(key="typed_clear").click().run()
    no_problem(app)
    for key in ("typed_concealed", "typed_melds", "typed_kongs", "typed_bonus"):
        assert app.text_input(key=key).value == "", key
    assert app.session_state["base"].rows == rows  # the hand on the page stays


def test_fields_left_from_the_last_typed_hand_are_named(app: AppTest) -> None:
    typed_hand(app, "123m 456m 789m 22p", melds="555s", bonus="cat rat")
    assert not any(t.startswith("Kept as typed") for t in texts(app, "info"))
    typed_hand(app, "234p 567p 888s 33m", melds="555s")  # melds and bonus tiles left as they were
    no_problem(app)
    kept = [t for t in texts(app, "info") if t.startswith("Kept as typed for the last typed hand")]
    assert kept == [
        "Kept as typed for the last typed hand: exposed melds 555s; bonus tiles cat rat. If this hand has "
        "none, press *Clear the fields* and type it again."
    ]
    app.text_input(key="typed_bonus").input("").run()  # the fields no longer hold the hand used
    assert not any(t.startswith("Kept as typed") for t in texts(app, "info"))


def test_the_summary_gives_each_players_sum_with_the_instant_payouts(app: AppTest) -> None:
    typed_hand(app, "123m 456m CCC 22p", kongs="5555s", bonus="")  # the red dragons: 1 tai
    app.selectbox(key="winning_tile").set_value("1m").run()
    app.selectbox(key="discarder_wind").set_value("S").run()
    no_problem(app)
    text = summary(app)
    # a concealed kong: 2 units from each of the three others, on top of the win
    assert "Instant: " in text, text
    winner = [line for line in text.splitlines() if line.strip().startswith("Winner")]
    assert winner and "(with instant payouts +" in winner[0], text
    amount, net = winner[0].split(": ", 1)[1].split(" (with instant payouts ")
    assert int(net.rstrip(")")) == int(amount) + 6


def test_a_hand_that_is_no_win_says_nobody_pays(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 222s 99m")
    app.selectbox(key="winning_tile").set_value("1m").run()
    no_problem(app)
    assert any("Not a valid win" in t for t in texts(app, "error")), texts(app, "error")
    assert "**Payout**: none, no win: nobody pays for the hand." in texts(app, "markdown")
    assert "Payout: none, no win: nobody pays for the hand." in summary(app)


def test_a_hand_that_is_no_win_with_a_kong_says_its_instant_payouts_are_still_paid(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 99m", kongs="2222s")
    app.selectbox(key="winning_tile").set_value("1m").run()
    no_problem(app)
    said = "none for the hand, which is no win; the instant payouts below are still paid."
    assert f"**Payout**: {said}" in texts(app, "markdown"), texts(app, "markdown")
    assert f"Payout: {said}" in summary(app)


def _concealed_and_bonus(app: AppTest) -> tuple[list[str], list[str]]:
    case = app.session_state["case_json"]
    return sorted(case["concealed"]), sorted(case["bonus"])


def test_several_missed_tiles_are_added_in_one_go_and_undone_in_one(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s")
    before = _concealed_and_bonus(app)
    version = app.session_state["version"]
    app.text_input(key=f"add_tiles_{version}").input("EEE 55p F1").run()
    app.button(key=f"add_tiles_go_{version}").click().run()
    no_problem(app)
    concealed, bonus = _concealed_and_bonus(app)
    assert concealed == sorted([*before[0], "E", "E", "E", "5p", "5p"]) and bonus == ["F1"]
    app.button(key="undo_last").click().run()
    assert _concealed_and_bonus(app) == before


def test_tiles_typed_to_be_added_are_listed_once_in_your_corrections(app: AppTest) -> None:
    # an audit: the toast and the note under the result listed each tile the corrections line lists
    typed_hand(app, "123m 456p 789s 22m", melds="555s")
    version = app.session_state["version"]
    app.text_input(key=f"add_tiles_{version}").input("EEE F1").run()
    app.button(key=f"add_tiles_go_{version}").click().run()
    no_problem(app)
    toasts = [str(toast.proto.body) for toast in app.toast]
    assert len(toasts) == 1 and "after: 4 tiles added, listed in Your corrections." in toasts[0], toasts
    lines = [*toasts, *texts(app, "info"), *texts(app, "caption")]
    for tile in (
        "#15 E added to hand",
        "#16 E added to hand",
        "#17 E added to hand",
        "#18 F1 added to bonus",
    ):
        assert [line for line in lines if tile in line] == [
            "Your corrections: #15 E added to hand; #16 E added to hand; #17 E added to hand; "
            "#18 F1 added to bonus"
        ], lines


def test_typed_missed_tiles_that_cannot_be_added_are_refused_in_one_line(app: AppTest) -> None:
    typed_hand(app, "123p 456p 789p")
    app.selectbox(key="rules").set_value("malaysian").run()
    before = _concealed_and_bonus(app)
    for typed, said in (
        ("xyz", "Could not add the tiles: cannot read 'xyz'"),
        ("55p 1m", "Could not add the tiles: the chosen set holds no 1m."),
    ):
        version = app.session_state["version"]
        app.text_input(key=f"add_tiles_{version}").input(typed).run()
        app.button(key=f"add_tiles_go_{version}").click().run()
        no_problem(app)
        assert any(t.startswith(said) for t in texts(app, "error")), texts(app, "error")
        assert _concealed_and_bonus(app) == before


def test_the_seat_kept_from_the_last_hand_is_asked_beside_its_box_until_set(app: AppTest) -> None:
    typed_hand(app, "123s 456s 789s 99s", melds="PPP")
    asked = "Kept from the last hand: is North this hand's winner too?"
    app.selectbox(key="seat_wind").set_value("N").run()
    assert asked not in texts(app, "caption")  # the first hand's seat was set for it
    typed_hand(app, "123m 456m 789m 99s", melds="CCC")
    assert asked in texts(app, "caption"), texts(app, "caption")
    app.selectbox(key="seat_wind").set_value("W").run()
    assert not any(t.startswith("Kept from the last hand") for t in texts(app, "caption"))


def test_a_seat_a_rule_set_switch_set_is_not_called_the_last_hands(app: AppTest) -> None:
    app.selectbox(key="seat_wind").set_value("N").run()
    typed_hand(app, "123p 456p 789p 99p", melds="CCC")
    typed_hand(app, "123p 456p 789p 99p", melds="PPP")
    assert any(t.startswith("Kept from the last hand: is North") for t in texts(app, "caption"))
    app.selectbox(key="rules").set_value("malaysian").run()  # no North seat: East now, and said
    no_problem(app)
    assert not any(t.startswith("Kept from the last hand") for t in texts(app, "caption")), texts(
        app, "caption"
    )


def test_pay_all_ticked_again_names_the_liable_player_chosen_before(app: AppTest) -> None:
    typed_hand(app, "123s 456s 789s 99s", melds="PPP")
    app.selectbox(key="discarder_wind").set_value("S").run()
    app.checkbox(key="pay_all").check().run()
    app.selectbox(key="discarder_wind").set_value("N").run()  # the liable player, not the discarder
    app.checkbox(key="pay_all").uncheck().run()
    assert app.selectbox(key="discarder_wind").value == "S"
    app.checkbox(key="pay_all").check().run()
    no_problem(app)
    assert app.selectbox(key="discarder_wind").value == "N"
    # a new hand forgets both
    typed_hand(app, "123s 456s 789s 99s", melds="FFF")
    app.checkbox(key="pay_all").check().run()
    assert app.selectbox(key="discarder_wind").value == "(not said)"


def test_a_set_aside_winning_tile_is_named_as_the_page_showed_it(app: AppTest) -> None:
    # its box said "(not set)" and a caption named it set aside: the new hand's note had named it as if set
    from tests.app.test_app import edit_tiles

    typed_hand(app, "123m 456p 789s 99m", melds="CCC")
    app.selectbox(key="winning_tile").set_value("9m").run()
    nines = [str(i) for i, r in enumerate(app.session_state["base"].rows) if r.code == "9m"]
    edit_tiles(app, {"edited_rows": {i: {"tile": "5m"} for i in nines}, "added_rows": [], "deleted_rows": []})
    assert app.selectbox(key="winning_tile").value == "(not set)"
    assert any("Winning tile 9m set aside" in t for t in texts(app, "caption")), texts(app, "caption")
    typed_hand(app, "123m 456p 789s 55m", melds="CCC")
    app.button(key="typed_replace").click().run()  # the corrections are replaced, as asked
    no_problem(app)
    notes = [t for t in texts(app, "info") if t.startswith("New hand: cleared")]
    assert notes and "winning tile (9m, set aside)" in notes[0], notes
    # brought back, it is set aside again, as this hand holds no 9m
    app.button(key="bring_back_win").click().run()
    no_problem(app)
    assert app.selectbox(key="winning_tile").value == "(not set)"
    assert any("Winning tile 9m set aside" in t for t in texts(app, "caption")), texts(app, "caption")


def test_a_chosen_winning_tile_is_named_as_chosen(app: AppTest) -> None:
    typed_hand(app, "123m 456p 789s 22m", melds="CCC")
    app.selectbox(key="winning_tile").set_value("2m").run()
    typed_hand(app, "123m 456p 789s 33m", melds="CCC")
    notes = [t for t in texts(app, "info") if t.startswith("New hand: cleared")]
    assert notes and "winning tile (2m);" in notes[0], notes
