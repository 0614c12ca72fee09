"""`app_ui.change_note`: the line saying what a change did to the score."""

from __future__ import annotations

from typing import Any

import scoring
from app_ui.change_note import NOT_SCORED, change_note, changed_fields
from app_ui.summary import with_option_labels

HAND = {"rules": "singapore", "concealed": "123m 456p 789s SSS 55p", "seat_wind": "S", "prevailing_wind": "E"}


def scored(**fields: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    data = {**HAND, **fields}
    return data, scoring.score_json(data)


def test_a_change_that_moves_the_score_is_named_with_both_scores() -> None:
    before, before_result = scored()
    now, result = scored(seat_wind="E")  # SSS is no longer the seat's wind: no win
    assert change_note(before, before_result, now, result) == (
        "1 tai → not a valid win after: seat wind South → East."
    )
    both = scored(seat_wind="S", prevailing_wind="S")
    assert change_note(before, before_result, *both) == "1 tai → 2 tai after: prevailing wind East → South."


def test_a_self_draw_of_a_concealed_hand_scores_more_and_says_why() -> None:
    before, before_result = scored()
    now, result = scored(self_drawn=True)  # fully concealed and self-drawn: +1
    assert (
        change_note(before, before_result, now, result) == "1 tai → 2 tai after: won by discard → self-draw."
    )


def test_the_same_tai_with_another_payout_says_the_payout_changed() -> None:
    before, before_result = scored(discarder_wind="W")
    now, result = scored(discarder_wind="W", pay_all=True)  # the discarder pays all
    assert (
        change_note(before, before_result, now, result)
        == "1 tai, the payout changed after: pay-all off → on."
    )


def test_a_field_a_note_told_is_left_out_where_another_change_says_why_the_score_moved() -> None:
    # a toast under "South is the winner's seat now: who discarded is not said" said the discarder twice
    before, before_result = scored(seat_wind="E", discarder_wind="S")
    now, result = scored()
    told = {"discarder_wind"}
    assert change_note(before, before_result, now, result) == (
        "not a valid win → 1 tai after: seat wind East → South; who discarded South → not said."
    )
    assert change_note(before, before_result, now, result, told=told) == (
        "not a valid win → 1 tai after: seat wind East → South."
    )
    # the only change told: the line keeps it, not "after: ."
    before, before_result = scored(discarder_wind="W")
    now, result = scored(discarder_wind="W", pay_all=True)
    assert change_note(before, before_result, now, result, told={"pay_all"}) == (
        "1 tai, the payout changed after: pay-all off → on."
    )
    assert changed_fields(before, now, told={"pay_all"}) == []


def test_no_win_either_side_says_no_payout_moved_only_the_reason() -> None:
    # 11 tiles: no win under Singapore rules (the count) nor Malaysian (the count, and m and s tiles)
    short = "123m 456p 789s 22m"
    before, before_result = scored(concealed=short)
    now, result = scored(concealed=short, rules="malaysian")
    assert before_result["reason"] != result["reason"]
    assert change_note(before, before_result, now, result) == (
        "still not a valid win, now for another reason after: rule set Singapore (4 players) → "
        "Malaysian (3 players)."
    )
    # the same reason: nothing moved, whatever else changed (the 4 and 3 players' zero payouts alike)
    same, same_result = scored(concealed=short, seat_wind="W")
    assert same_result["reason"] == before_result["reason"]
    assert change_note(before, before_result, same, same_result) is None


def test_a_score_after_a_run_that_scored_nothing_is_told_against_that_run() -> None:
    # stage 71 (an audit): an undo after a run left unscored (a meld of two tiles) was told against the
    # score before that run, naming a correction the page had undone already
    short = "123m 456p 789s 22m"
    before = {**HAND, "concealed": short}
    now, result = scored()
    regrouped = [{"action": "regroup", "tile": 7, "code": "2m", "from": "hand", "to": "meld 1"}]
    said = change_note(before, NOT_SCORED, now, result, (regrouped, []))
    assert said == "not scored → 1 tai after: #7 2m hand → meld 1 undone."
    lost, lost_result = scored(seat_wind="E")
    said = change_note(before, NOT_SCORED, lost, lost_result, (regrouped, []))
    assert said is not None and said.startswith("not scored → not a valid win after:")
    assert change_note(before, NOT_SCORED, before, NOT_SCORED) is None


def test_nothing_is_said_where_the_score_stands_or_only_the_tiles_are_the_same() -> None:
    before, before_result = scored()
    assert change_note(before, before_result, before, before_result) is None
    # the discarder named: the amounts stand (it only names a seat)
    now, result = scored(discarder_wind="W")
    assert change_note(before, before_result, now, result) is None


def test_a_self_draw_does_not_say_the_discarder_it_sets_aside_was_taken_away() -> None:
    # an audit read "who discarded South → not said" beside "won by discard → self-draw", though the
    # seat comes back with a discard
    before = {**HAND, "discarder_wind": "W"}
    assert changed_fields(before, {**HAND, "self_drawn": True}) == ["won by discard → self-draw"]
    back = changed_fields({**HAND, "self_drawn": True}, before)
    assert back == ["won by self-draw → discard", "who discarded not said → West"]
    liable = changed_fields(before, {**HAND, "self_drawn": True, "pay_all": True, "discarder_wind": "N"})
    assert "liable player West → North" in liable, liable
    # a replacement tile's win is a self-draw whatever the radio says (a review)
    replaced = changed_fields(before, {**HAND, "circumstances": ["replacement_tile"]})
    assert replaced == [
        "special circumstances none → Won on a replacement tile, flower or kong (花上/杠上)"
    ], replaced


def test_changed_fields_say_each_field_in_words() -> None:
    before = {**HAND, "pay_all": False, "circumstances": []}
    now = {
        **HAND,
        "pay_all": True,
        "circumstances": ["robbing_kong"],
        "winning_tile": "5p",
        "concealed": "123m 456p 789s SSS 66p",
        "options": {"max_tai": 10},
    }
    assert changed_fields(before, now) == [
        "winning tile not set → 5p",
        "special circumstances none → Robbing the kong (抢杠)",
        "pay-all off → on",
        "Max tai 5 → 10",  # stage 55: "house rules" left the table guessing which
        "the tiles",
    ]


def test_a_rule_set_switch_is_not_called_a_change_of_house_rules() -> None:
    # each rule set brings its own option defaults: the user changed no house rule
    before = {**HAND, "options": {"max_tai": 5}}
    now = {**HAND, "rules": "malaysian", "options": {"max_tai": 10}}
    assert changed_fields(before, now) == ["rule set Singapore (4 players) → Malaysian (3 players)"]


def test_a_house_rule_and_a_correction_are_named_with_their_values() -> None:
    # stage 55: "after: house rules." and "after: the tiles." named neither
    before, before_result = scored(options={"unit": 1})
    now, result = scored(options={"unit": 0.5})
    assert change_note(before, before_result, now, result) == "1 tai, the payout changed after: Unit 1 → 0.5."
    tiles, tiles_result = scored(options={"unit": 1}, bonus="cat")
    cat = [{"action": "add", "code": "cat", "group": "bonus"}]
    said = change_note(before, before_result, tiles, tiles_result, ((), cat))
    assert said == "1 tai → 2 tai after: cat added to bonus."
    undone = change_note(tiles, tiles_result, before, before_result, (cat, []))
    assert undone == "2 tai → 1 tai after: cat added to bonus undone."


def test_instant_payouts_or_patterns_that_move_under_the_same_tai_are_said() -> None:
    kong = {"concealed": "123m 456p 789s 55p", "winning_tile": "5p", "seat_wind": "W"}
    hidden = {"kind": "kong", "tiles": ["5s"] * 4, "concealed": True}
    before = {**kong, "melds": [hidden]}
    now = {**kong, "melds": [{**hidden, "concealed": False}]}
    exposed = [{"action": "kong", "group": "meld 1", "code": "5s", "concealed": False}]
    assert changed_fields(before, now, ((), exposed)) == ["marked the 5s kong exposed"]
    said = change_note(
        before,
        scoring.score_json(before),
        now,
        scoring.score_json(now),
        ((), exposed),
    )
    assert said is not None and "the instant payouts changed after: marked the 5s kong exposed" in said
    # a West seat's pong of West in an East round, then an East seat's in a West round: 1 tai each
    west = {"concealed": "123m 456p 789s 55p WWW", "winning_tile": "5p"}
    seat = {**west, "seat_wind": "W", "prevailing_wind": "E"}
    seat_result = scoring.score_json(seat)
    round_ = {**west, "seat_wind": "E", "prevailing_wind": "W"}
    said = change_note(seat, seat_result, round_, scoring.score_json(round_))
    assert said is not None and said.startswith("1 tai, the patterns changed (Seat wind pong → "), said


def test_a_second_tile_added_like_the_first_is_named_and_a_reread_says_so() -> None:
    # an audit's line: "after: the tiles." for a second 3m added (its words matched the first's)
    before = {**HAND, "bonus": "cat"}
    now = {**HAND, "bonus": "cat rat"}
    one = [{"action": "add", "code": "3m", "group": "hand"}]
    two = one * 2
    assert changed_fields(before, now, (one, two)) == ["3m added to hand"]
    assert changed_fields(now, before, (two, one)) == ["3m added to hand undone"]
    # a photo read again for another rule set changes tiles no correction names
    switched = {**now, "rules": "malaysian"}
    assert changed_fields(before, switched)[-1] == "the tiles read again"
    assert changed_fields(before, now)[-1] == "the tiles"


def test_a_house_rule_set_to_what_it_was_is_no_change_and_pay_all_names_the_liable_player() -> None:
    # the default table as the options hold it (pairs in tuples) and as the sidebar gives it (lists)
    default = scoring.default_options("singapore").payout_table
    before = {**HAND, "options": {"payout_scheme": "standard"}}
    as_lists = [[float(v) for v in pair] for pair in default]  # type: ignore[union-attr]
    now = {**HAND, "options": {"payout_scheme": "table", "payout_table": as_lists}}
    assert changed_fields(before, now) == ["Payout scheme Standard (2/1 x base) → Payout table"]
    liable = changed_fields({**HAND, "pay_all": True, "discarder_wind": "N"}, {**HAND, "pay_all": True})
    assert liable == ["liable player North → not said"]
    assert changed_fields({**HAND, "discarder_wind": "N"}, HAND) == ["who discarded North → not said"]


def test_the_scorings_warnings_name_the_pages_boxes_not_its_fields() -> None:
    # a self-draw with a discarder still set: the scoring's warning names its input field
    data = {**HAND, "discarder_wind": "W", "self_drawn": True}
    warnings = scoring.score_json(data)["warnings"]
    shown = [with_option_labels(w) for w in warnings]
    assert any("“Discarded by” ignored" in w for w in shown), shown
    assert not any("discarder_wind" in w for w in shown)
    assert with_option_labels("min_tai 7 is above max_tai 5") == "“Min tai” 7 is above “Max tai” 5"


def test_a_hand_that_wants_its_winning_tile_is_told_by_what_the_tiles_give() -> None:
    # the review of stage 78's fix: a minimum raised said "still not a valid win, now for another
    # reason", and a cap that took the tiles' 4 tai to 3 said nothing
    from app_ui.winning_hint import Outcome, winning_tile_outcomes
    from scoring import parse_hand_string, score_json

    chow = {"kind": "chow", "tiles": ["2s", "3s", "4s"], "concealed": False}
    base = {"concealed": parse_hand_string("123m 456p 789s 55m"), "melds": [chow], "bonus": [], "options": {}}

    def scored(options: dict[str, int]) -> tuple[dict[str, Any], dict[str, Any], list[Outcome]]:
        data = {**base, "options": options}
        return data, score_json(data), winning_tile_outcomes(data)

    (d1, r1, o1), (d2, r2, o2), (d3, r3, o3) = scored({}), scored({"min_tai": 2}), scored({"max_tai": 3})
    assert change_note(d1, r1, d2, r2, ways=(o1, o2)) is None  # the tiles give as they gave
    said = change_note(d1, r1, d3, r3, ways=(o1, o3))
    assert said is not None and said.startswith(
        "no win or 4 tai by the winning tile → no win or 3 tai by the winning tile after:"
    ), said


def test_a_valid_hand_whose_unset_winning_tile_scores_otherwise_after_a_change_is_told() -> None:
    # stage 78: a cap that took the tiles' 10 tai to 5 said nothing, the hand 4 tai as it stands either way
    from app_ui.winning_hint import Outcome, winning_tile_outcomes
    from scoring import parse_hand_string, score_json

    base = {
        "concealed": parse_hand_string("123m 234m 456m 789m 55m"),
        "melds": [],
        "bonus": [],
        "options": {},
    }

    def scored(options: dict[str, int]) -> tuple[dict[str, Any], dict[str, Any], list[Outcome]]:
        data = {**base, "options": options}
        return data, score_json(data), winning_tile_outcomes(data)

    (d1, r1, o1), (d2, r2, o2) = scored({"max_tai": 10}), scored({"max_tai": 5})
    assert r1["valid"] and r1["tai"] == r2["tai"], (r1, r2)
    assert [o.tai for o in o1] != [o.tai for o in o2], (o1, o2)
    said = change_note(d1, r1, d2, r2, ways=(o1, o2))
    assert said == "4 tai as it stands; what each winning tile would give changed after: Max tai 10 → 5.", (
        said
    )
    # the winning tile set, on which it scores as it stood: the score stayed, and says so
    [tile] = [outcome.tiles[0] for outcome in o1 if outcome.valid and outcome.tai == r1["tai"]]
    d4 = {**d1, "winning_tile": tile}
    r4 = score_json(d4)
    assert (r4["valid"], r4["tai"]) == (True, r1["tai"]), r4
    assert change_note(d1, r1, d4, r4, ways=(o1, [])) == f"still 4 tai after: winning tile not set → {tile}."
    # and unset again: the per-tile list is back, the score as it stands the same
    assert change_note(d4, r4, d1, r1, ways=([], o1)) == f"still 4 tai after: winning tile {tile} → not set."


def test_a_kong_gone_or_back_with_its_tick_is_no_tick_the_user_set() -> None:
    # a tile of a kong ticked exposed deleted: the kong is a pong, its tick's record goes; the line had
    # said "marked the 5s kong concealed again", which the user never did
    hand = {"concealed": "123m 456p 789s 55p", "winning_tile": "5p", "seat_wind": "W"}
    kong = {**hand, "melds": [{"kind": "kong", "tiles": ["5s"] * 4, "concealed": False}]}
    pong = {**hand, "melds": [{"kind": "pong", "tiles": ["5s"] * 3, "concealed": False}]}
    exposed = [{"action": "kong", "group": "meld 1", "code": "5s", "concealed": False}]
    deleted = [{"action": "delete", "tile": 12, "code": "5s", "group": "meld 1"}]
    gone = changed_fields(kong, pong, (exposed, deleted))
    assert gone == ["#12 5s deleted", "meld 1 (5s kong) set exposed undone"], gone
    back = changed_fields(pong, kong, (deleted, exposed))
    assert back == ["meld 1 (5s kong) set exposed", "#12 5s deleted undone"], back
    # the kong standing, its tick set back as the hand has it: the user's own tick
    concealed = {**kong, "melds": [{"kind": "kong", "tiles": ["5s"] * 4, "concealed": True}]}
    assert changed_fields(kong, concealed, (exposed, [])) == ["marked the 5s kong concealed again"]


def test_a_kong_whose_four_tiles_change_face_under_its_tick_is_no_tick_set() -> None:
    # the tick is kept by the kong's group: four 6s corrected to 7s, or that change undone, had read
    # "marked the 7s kong exposed" (or "the 6s kong") beside the tiles' steps, a tick the user never set
    hand = {"concealed": "123m 456p 789s 55p", "winning_tile": "5p", "seat_wind": "W"}
    six = {**hand, "melds": [{"kind": "kong", "tiles": ["6s"] * 4, "concealed": False}]}
    seven = {**hand, "melds": [{"kind": "kong", "tiles": ["7s"] * 4, "concealed": False}]}
    tick: dict[str, Any] = {"action": "kong", "group": "meld 1", "concealed": False}
    changes: list[dict[str, Any]] = [
        {"action": "change", "tile": n, "from": "6s", "to": "7s"} for n in (12, 13, 14, 15)
    ]
    before, now = [{**tick, "code": "6s"}], [*changes, {**tick, "code": "7s"}]
    steps = [f"#{n} 6s → 7s" for n in (12, 13, 14, 15)]
    assert changed_fields(six, seven, (before, now)) == steps
    assert changed_fields(seven, six, (now, before)) == [f"{step} undone" for step in steps]
    # ticked the other way as its tiles changed: a tick the user set, naming the kong as it is now
    concealed = {**seven, "melds": [{"kind": "kong", "tiles": ["7s"] * 4, "concealed": True}]}
    ticked = [*changes, {**tick, "code": "7s", "concealed": True}]
    assert changed_fields(six, concealed, (before, ticked)) == [*steps, "marked the 7s kong concealed"]


def test_tiles_added_in_one_change_are_counted_as_the_corrections_line_lists_them() -> None:
    # an audit: *Or type several* listed each tile in the toast, under the result and under the table
    before = {**HAND, "bonus": "cat"}
    now = {**HAND, "bonus": "cat F1"}
    changed = {"action": "change", "tile": 2, "from": "2m", "to": "3m"}
    added = [
        {"action": "add", "tile": 15, "code": "E", "group": "hand"},
        {"action": "add", "tile": 16, "code": "E", "group": "hand"},
        {"action": "add", "tile": 17, "code": "F1", "group": "bonus"},
    ]
    assert changed_fields(before, now, ([changed], [changed, *added])) == [
        "3 tiles added, listed in Your corrections"
    ]
    # one tile added is named, as any one correction is; undone, they are no longer listed there
    assert changed_fields(before, now, ([], added[:1])) == ["#15 E added to hand"]
    assert changed_fields(now, before, (added[:2], [])) == [
        "#15 E added to hand undone",
        "#16 E added to hand undone",
    ]
    # with another step in the same change, that step is named beside the count
    both = changed_fields(before, now, ([], [added[0], changed, added[1]]))
    assert sorted(both) == ["#2 2m → 3m", "2 tiles added, listed in Your corrections"]
