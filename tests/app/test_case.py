"""The app's pure helpers: tile-table edits, meld kinds, hand building, readings, option widgets."""

from __future__ import annotations

import codecs
import dataclasses
import datetime
import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring
from app_ui import (
    art,
    case,
    case_file,
    case_open,
    hand_build,
    photo_rows,
    result_panel,
    table_edits,
    tile_sets,
)
from app_ui.art import (
    LEFT_OUT_COLOUR,
    LOW_CONF_COLOUR,
    PlacedBlock,
    annotate_photo,
    group_blocks,
    hand_picture,
    label_width,
    place_blocks,
    tile_image,
)
from app_ui.case import BONUS, HAND, IGNORE, MELD_GROUPS, TileRow
from app_ui.options import OptionValueError, format_number_list, option_specs, parse_number_list
from tests.vision.layout_sim import place
from vision.classes import CLASS_INDEX, CLASSES
from vision.detections import Detections
from vision.layout import layout_hand
from vision.pipeline import Reading

BASE = (
    TileRow("1m", HAND, 0.9, (0, 0, 10, 10)),
    TileRow("2m", HAND, 0.3, (10, 0, 20, 10), alternative="3m"),
    TileRow("C", "meld 1", 0.9),
    TileRow("F1", BONUS, 0.9),
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        pytest.param(None, ["1m", "2m", "C", "F1"], id="no-edits"),
        pytest.param({"edited_rows": {"1": {"tile": "3m"}}}, ["1m", "3m", "C", "F1"], id="change-str-key"),
        pytest.param({"edited_rows": {1: {"tile": "3m"}}}, ["1m", "3m", "C", "F1"], id="change-int-key"),
        pytest.param({"deleted_rows": [0, 3]}, ["2m", "C"], id="delete"),
        pytest.param(
            {"added_rows": [{"tile": "9p"}, {}, {"tile": "zz"}]},
            ["1m", "2m", "C", "F1", "9p"],
            id="add-skips-blank-and-unknown",
        ),
        pytest.param(
            {"edited_rows": {"0": {"tile": "nonsense"}}}, ["1m", "2m", "C", "F1"], id="bad-code-ignored"
        ),
    ],
)
def test_apply_edits(edits: dict | None, expected: list[str]) -> None:
    assert [r.code for r in table_edits.apply_edits(BASE, edits)] == expected


def test_rows_keep_their_table_numbers_after_a_deletion_above_them() -> None:
    numbered = table_edits.numbered_edits(BASE, {"deleted_rows": [0], "added_rows": [{"tile": "9p"}]})
    assert [(n, r.code) for n, r in numbered] == [(2, "2m"), (3, "C"), (4, "F1"), (None, "9p")]


def test_photo_labels_carry_the_numbers_given() -> None:
    photo = np.full((300, 400, 3), 40, np.uint8)
    row = TileRow("1m", HAND, 0.9, (150, 100, 250, 230))
    as_first = np.asarray(annotate_photo(photo, [row], numbers=[1]))
    as_seventh = np.asarray(annotate_photo(photo, [row], numbers=[7]))
    assert (as_first != as_seventh).any()  # the label drawn differs: "1" against "7"
    unnumbered = np.asarray(annotate_photo(photo, [row], numbers=[None]))
    assert (unnumbered == 40).all()  # a row with no table number is not drawn


def test_changed_tile_is_no_longer_unsure_and_added_bonus_goes_to_bonus() -> None:
    rows = table_edits.apply_edits(
        BASE, {"edited_rows": {"1": {"tile": "3m"}}, "added_rows": [{"tile": "cat"}]}
    )
    assert not rows[1].low_confidence and rows[1].alternative is None
    assert rows[1].box == BASE[1].box
    assert rows[-1].group == BONUS


def test_corrections_list_every_edit() -> None:
    edits = {
        "edited_rows": {"1": {"tile": "3m", "group": "meld 2"}},
        "deleted_rows": [3],
        "added_rows": [{"tile": "9p", "group": "hand"}],
    }
    assert table_edits.corrections(BASE, edits) == [
        {"action": "change", "tile": 2, "from": "2m", "to": "3m"},
        {"action": "regroup", "tile": 2, "code": "3m", "from": "hand", "to": "meld 2"},  # as it now reads
        {"action": "delete", "tile": 4, "code": "F1"},
        {"action": "add", "code": "9p", "group": "hand"},
    ]
    assert table_edits.has_edits(edits)
    assert not table_edits.has_edits({"edited_rows": {}, "added_rows": [], "deleted_rows": []})


@pytest.mark.parametrize(
    ("codes", "kind"),
    [
        pytest.param([], None, id="empty"),
        pytest.param(["1m", "2m", "3m"], "chow", id="chow"),
        pytest.param(["3m", "1m", "2m"], "chow", id="chow-unordered"),
        pytest.param(["1m", "2m", "4m"], None, id="gap"),
        pytest.param(["1m", "2p", "3m"], None, id="two-suits"),
        pytest.param(["C", "C", "C"], "pong", id="pong"),
        pytest.param(["5p"] * 4, "kong", id="kong"),
        pytest.param(["C", "C", "F"], None, id="mixed-honours"),
        pytest.param(["C", "C", "fly"], "pong", id="fly-pong"),
        pytest.param(["1p", "fly", "3p"], "chow", id="fly-chow"),
        pytest.param(["E", "S", "W"], None, id="winds-are-no-chow"),
        pytest.param(["1m", "1m"], None, id="pair"),
        pytest.param(["5p", "fly", "fly"], "pong", id="two-flies-make-a-pong-not-a-chow"),
        pytest.param(["5p", "5p", "5p", "fly"], None, id="no-fly-in-a-kong"),
        pytest.param(["fly", "fly", "fly"], None, id="only-flies"),
    ],
)
def test_meld_kind(codes: list[str], kind: str | None) -> None:
    assert hand_build.meld_kind(codes)[0] == kind


@pytest.mark.parametrize(
    ("meld", "reason"),
    [
        (["5p", "5p", "5p", "fly"], "fly cannot stand in a kong"),
        (["1m", "2m", "4m"], "a chow is three consecutive tiles of one suit"),
        (["C", "C", "F"], "a pong is three equal tiles"),
        (["1m", "1m"], "a meld has 3 or 4 tiles, not 2"),
    ],
)
def test_a_group_that_is_no_meld_says_the_engines_reason(meld: list[str], reason: str) -> None:
    rows = [TileRow(c) for c in ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "2p", "2p"]]
    build = hand_build.build_hand([*rows, *(TileRow(c, "meld 1") for c in meld)], {})
    (problem,) = build.problems
    assert f"Meld 1 ({' '.join(meld)}) is not a chow, pong or kong ({reason})" in problem
    assert build.hand["melds"] == []


def test_a_meld_of_one_tile_and_two_flies_is_scored_as_the_pong_it_is() -> None:
    rows = [TileRow(c) for c in ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "2p", "2p"]]
    build = hand_build.build_hand([*rows, *(TileRow(c, "meld 1") for c in ("5p", "fly", "fly"))], {})
    assert build.problems == ()
    assert build.hand["melds"] == [{"kind": "pong", "tiles": ["5p", "fly", "fly"], "concealed": False}]
    result = scoring.score_json({**build.hand, "rules": "malaysian"})
    assert "[555p(fly=5p/5p)]" in result["arrangement"]  # the engine takes it as laid down


def test_build_hand_resolves_concealed_kong_backs() -> None:
    rows = [TileRow(c) for c in ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "2p"]]
    rows += [TileRow(c, "meld 1") for c in ("back", "5s", "5s", "back")]
    build = hand_build.build_hand(rows, {"meld 1": True})
    assert build.problems == ()
    assert build.hand["melds"] == [{"kind": "kong", "tiles": ["5s"] * 4, "concealed": True}]
    # Fully concealed (a concealed kong keeps it so) and self-drawn: 1 tai.
    assert scoring.score_json({**build.hand, "self_drawn": True})["tai"] == 1


@pytest.mark.parametrize(
    ("rows", "problem"),
    [
        pytest.param([], "No tiles in the hand yet", id="nothing"),
        pytest.param([TileRow("back")], "face-down tile is in the hand", id="back-in-hand"),
        pytest.param([TileRow("1m"), TileRow("3m", BONUS)], "3m cannot be a bonus tile", id="bad-bonus"),
        pytest.param(
            [TileRow("1m"), *(TileRow(c, "meld 2") for c in ("1m", "5p", "9s"))],
            "Meld 2 (1m 5p 9s) is not a chow, pong or kong",
            id="bad-meld",
        ),
        pytest.param(
            [TileRow("1m"), *(TileRow("back", "meld 1") for _ in range(4))],
            "Meld 1 is face-down",
            id="all-backs",
        ),
    ],
)
def test_build_hand_problems(rows: list[TileRow], problem: str) -> None:
    assert any(p.startswith(problem) or problem in p for p in hand_build.build_hand(rows, {}).problems)


def test_winning_tile_choices_are_distinct_hand_tiles() -> None:
    hand = {
        "concealed": ["1m", "1m", "2m"],
        "melds": [{"kind": "pong", "tiles": ["C", "C", "fly"]}],
        "bonus": ["F1"],
    }
    assert hand_build.hand_tile_choices(hand) == ["1m", "2m", "C"]


def test_a_bonus_tile_left_in_the_hand_is_not_offered_as_the_winning_tile() -> None:
    # a fuzzing helper (stage 77): F1 moved into the hand was offered, chosen, and the case then opened
    # no more (its reload said "no longer kept")
    hand = {"concealed": ["1m", "1m", "F1", "cat", "face"], "melds": [], "bonus": []}
    assert hand_build.hand_tile_choices(hand) == ["1m"]


def test_a_saved_table_naming_a_bonus_tile_as_its_winning_tile_opens_with_it_set_aside() -> None:
    rows = [
        {"tile": n + 1, "code": code, "group": HAND}
        for n, code in enumerate(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "2m", "C", "C"])
    ] + [{"tile": 14, "code": "F1", "group": HAND}]
    data = {
        "rules": "singapore",
        "concealed": [r["code"] for r in rows],
        "winning_tile": "F1",
        "tiles": rows,
        "source": {"kind": "typed", "name": "typed hand"},
    }
    opened = case_open.open_case("my.json", json.dumps(data).encode())
    assert any(
        "names F1 as the winning tile, which no hand is won on: it is set aside" in n for n in opened.notes
    )
    assert [row.code for row in opened.base.rows].count("F1") == 1


@pytest.mark.parametrize(
    ("mark", "encoding"),
    [
        pytest.param(codecs.BOM_UTF8, "utf-8", id="utf-8-bom"),
        pytest.param(codecs.BOM_UTF16_LE, "utf-16-le", id="utf-16-le"),
        pytest.param(codecs.BOM_UTF16_BE, "utf-16-be", id="utf-16-be"),
    ],
)
def test_a_case_saved_in_an_editors_encoding_opens_as_its_utf_8_does(mark: bytes, encoding: str) -> None:
    # an audit: a case saved again by Windows Notepad as "Unicode" (UTF-16) was "not UTF-8 text"
    text = json.dumps(
        {"concealed": "123m 456p 789s 22m", "melds": [{"kind": "pong", "tiles": "CCC"}], "note": "東 清一色"},
        ensure_ascii=False,
    )
    as_utf8 = case_open.open_case("case.json", text.encode())
    opened = case_open.open_case("case.json", mark + text.encode(encoding))
    assert [row.code for row in opened.base.rows].count("C") == 3
    assert (opened.base.rows, opened.context, opened.notes) == (
        as_utf8.base.rows,
        as_utf8.context,
        as_utf8.notes,
    )


@pytest.mark.parametrize(
    ("mark", "encoding"),
    [pytest.param(b"", "utf-8", id="utf-8"), pytest.param(codecs.BOM_UTF16_LE, "utf-16-le", id="utf-16")],
)
def test_the_case_size_limit_counts_text_not_bytes(
    mark: bytes, encoding: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an audit: the limit counted bytes, so a case saved as UTF-16 was refused at half the text
    monkeypatch.setattr(case_open, "MAX_CASE_CHARACTERS", 1000)
    case = json.dumps({"concealed": "123m 456p 789s 22m", "melds": [{"kind": "pong", "tiles": "CCC"}]})
    within = case + " " * (1000 - len(case))
    opened = case_open.open_case("case.json", mark + within.encode(encoding))
    assert [row.code for row in opened.base.rows].count("C") == 3
    with pytest.raises(case_open.CaseFileError) as refused:
        case_open.open_case("case.json", mark + (within + " ").encode(encoding))
    assert str(refused.value) == "case.json is too large to be a case file (over 1,000 characters)"


def test_a_case_file_over_any_encoding_s_limit_is_refused_undecoded(monkeypatch: pytest.MonkeyPatch) -> None:
    from scoring import errors

    def decoded(*_: object) -> str:
        raise AssertionError("decoded bytes over the limit in any encoding")

    monkeypatch.setattr(case_open, "MAX_CASE_CHARACTERS", 1000)
    monkeypatch.setattr(errors, "decoded_text", decoded)
    with pytest.raises(case_open.CaseFileError, match="too large to be a case file"):
        case_open.open_case("case.json", b" " * 4001)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param('{"concealed": "123m", "note": "café"}'.encode("latin-1"), id="latin-1"),
        pytest.param('{"concealed": "123m"}'.encode("utf-16-le"), id="utf-16-without-its-mark"),
        pytest.param('{"concealed": "123m"}'.encode("utf-32"), id="utf-32"),
    ],
)
def test_a_case_in_another_encoding_is_refused_in_one_line(data: bytes) -> None:
    with pytest.raises(case_open.CaseFileError) as refused:
        case_open.open_case("case.json", data)
    assert str(refused.value) == "case.json is not UTF-8 text, nor UTF-16 with a byte-order mark"


def test_winning_tile_choices_come_in_the_suits_order_not_the_tables() -> None:
    # stage 71 (an audit): a photo's hand offered 4m, F, 7m, 9m, 9p, 3m, 2m, 1m, ... as it lay
    hand = {
        "concealed": ["4m", "F", "F", "7m", "9m", "9p", "3m", "2m", "1m"],
        "melds": [{"kind": "chow", "tiles": ["7p", "8p", "9p"]}, {"kind": "pong", "tiles": ["8m"] * 3}],
    }
    choices = hand_build.hand_tile_choices(hand)
    assert choices == ["1m", "2m", "3m", "4m", "7m", "8m", "9m", "7p", "8p", "9p", "F"]


def test_a_concealed_fly_may_be_the_winning_tile_and_the_scoring_takes_it() -> None:
    # seeds/004: a fly drawn last completes the hand like any tile; one standing in a laid-out pong
    # was not the claimed discard, so it is not offered there
    concealed = ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "C", "fly"]
    hand = {"concealed": concealed, "melds": [{"kind": "pong", "tiles": ["E", "E", "fly"]}], "bonus": ["fly"]}
    choices = hand_build.hand_tile_choices(hand)
    assert choices == ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "E", "C", "fly"]
    without = hand_build.hand_tile_choices({**hand, "concealed": [*concealed[:-1], "C"]})
    assert "fly" not in without
    data = {
        **hand,
        "rules": "malaysian",
        "winning_tile": "fly",
        "self_drawn": True,
        "seat_wind": "S",
        "prevailing_wind": "E",
    }
    assert scoring.score_json(data)["reason"] != "winning_tile_not_in_hand"


def test_winning_tile_choices_leave_out_a_kongs_tiles_the_scoring_refuses() -> None:
    hand = {
        "concealed": ["2m", "2m", "2m", "3m", "4m", "9p", "9p"],
        "melds": [
            {"kind": "kong", "tiles": ["7m"] * 4, "concealed": True},
            {"kind": "kong", "tiles": ["E"] * 4},
            {"kind": "chow", "tiles": ["6s", "7s", "8s"]},
        ],
    }
    choices = hand_build.hand_tile_choices(hand)
    assert choices == ["2m", "3m", "4m", "9p", "6s", "7s", "8s"]
    # every choice offered is one the scoring takes: none fails as "not in the hand"
    for tile in choices:
        data = {**hand, "winning_tile": tile, "seat_wind": "E", "prevailing_wind": "E"}
        assert scoring.score_json(data)["reason"] != "winning_tile_not_in_hand"
    refused = scoring.score_json({**hand, "winning_tile": "7m", "seat_wind": "E", "prevailing_wind": "E"})
    assert refused["reason"] == "winning_tile_not_in_hand" and "lies only in a kong" in refused["message"]


def test_rows_from_reading_without_layout_and_with_runner_up() -> None:
    detections = Detections.from_codes(["3m", "F2"], [[0, 0, 10, 10], [20, 0, 30, 10]], [0.4, 0.9])
    probabilities = np.zeros((2, len(CLASSES)), np.float32)
    probabilities[0, CLASS_INDEX["3m"]], probabilities[0, CLASS_INDEX["8m"]] = 0.4, 0.35
    probabilities[1, CLASS_INDEX["F2"]] = 0.9
    rows, concealed = photo_rows.rows_from_reading(detections, None, probabilities)
    assert [(r.code, r.group) for r in rows] == [("3m", HAND), ("F2", BONUS)]
    assert rows[0].low_confidence and rows[0].alternative == "8m"
    assert concealed == {}


def test_a_tile_moved_off_its_first_choice_offers_that_choice() -> None:
    # read as S2 because a surer tile took the set's one S1: the alternative is S1, not S2 again
    detections = Detections.from_codes(["S1", "S2"], [[0, 0, 10, 10], [20, 0, 30, 10]], [0.5, 0.3])
    probabilities = np.zeros((2, len(CLASSES)), np.float32)
    probabilities[0, CLASS_INDEX["S1"]], probabilities[0, CLASS_INDEX["S2"]] = 0.55, 0.2
    probabilities[1, CLASS_INDEX["S1"]], probabilities[1, CLASS_INDEX["S2"]] = 0.46, 0.38
    rows, _ = photo_rows.rows_from_reading(detections, None, probabilities)
    assert [(r.code, r.alternative) for r in rows] == [("S1", "S2"), ("S2", "S1")]


def test_case_json_replays_with_scoring() -> None:
    concealed = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "2m"]
    rows = [TileRow(c) for c in concealed] + [TileRow("C", "meld 1")] * 3
    build = hand_build.build_hand(rows, {})
    data = hand_build.scoring_input(
        build.hand, case.Context(self_drawn=True, winning_tile="2m"), "singapore", {}
    )
    result = scoring.score_json(data)
    out = case_file.case_json(data, case.Base(rows=tuple(rows), source="typed"), rows, None, result)
    replayed = scoring.score_json(out)
    assert replayed["tai"] == result["tai"] == 1
    assert out["photo_tiles"] == [] and out["corrections"] == [] and len(out["tiles"]) == 14
    # what the case records beside the hand is expected there: no "unknown field" warning on replay
    assert not any("unknown field" in w for w in replayed["warnings"]), replayed["warnings"]
    assert any("unknown field: typo" in w for w in scoring.score_json({**out, "typo": 1})["warnings"])


def test_option_specs_cover_every_field() -> None:
    specs = {s.name: s for s in option_specs(scoring.Options, scoring.default_options("malaysian"))}
    assert specs["min_tai"].kind == "int" and specs["min_tai"].default == 5
    assert specs["unit"].kind == "float"
    assert specs["payout_scheme"].kind == "choice" and "table" in specs["payout_scheme"].choices
    assert specs["pure_green"].kind == "bool"
    assert specs["payout_table"].kind == "list"
    assert all(s.help for s in specs.values())


@pytest.mark.parametrize(
    ("text", "values"),
    [
        pytest.param("4/2, 7/3, 11", [[4, 2], [7, 3], 11], id="pairs-and-amount"),
        pytest.param("1.5; 3", [1.5, 3], id="semicolons-fractions"),
    ],
)
def test_payout_table_text_round_trips(text: str, values: list) -> None:
    assert parse_number_list(text) == values
    assert parse_number_list(format_number_list(values)) == values


@pytest.mark.parametrize("text", ["4/x", "1/2/3", "lots", "1e400", "2, nan"])
def test_payout_table_text_errors_quote_the_entry(text: str) -> None:
    with pytest.raises(OptionValueError, match="'"):
        parse_number_list(text)


@pytest.mark.parametrize("text", ["", " , ;"])
def test_a_payout_table_with_no_amount_is_refused_in_words(text: str) -> None:
    with pytest.raises(OptionValueError, match=r"^no amount typed \(one per tai"):
        parse_number_list(text)


def test_pictures_are_drawn_for_every_code() -> None:
    for code in CLASSES:
        assert tile_image(code).size == (54, 72)
    picture = hand_picture([("hand", ["1m"] * 14, False), ("meld 1 kong", ["5s"] * 4, True)])
    assert picture is not None and picture.width <= 8 * 56 + 12
    assert hand_picture([]) is None
    photo = np.zeros((2000, 3000, 3), np.uint8)
    shown = annotate_photo(photo, [TileRow("1m", HAND, 0.3, (100, 100, 200, 250))])
    assert max(shown.size) == 1280  # big photos are shown at most 1280 px
    # The unsure tile is outlined in the unsure colour.
    assert tuple(np.asarray(shown)[int(100 * 1280 / 3000), int(150 * 1280 / 3000)]) == LOW_CONF_COLOUR


def test_app_warnings_name_moved_tiles_by_face_and_drop_pixel_lines() -> None:
    from app_ui.reading import app_warnings, moved_faces
    from vision.lines import LAYOUT, SET_COPIES, UNSURE, Line, texts
    from vision.pipeline import _set_lines, _uncertain_lines

    # what the reader says when two tiles lose S1 and F2 to surer tiles
    boxes = [[800, 900, 920, 1020], [800, 350, 900, 470], [100, 100, 200, 240]]
    detections = Detections.from_codes(["S2", "F3", "5m"], boxes, [0.3, 0.3, 0.9])
    probabilities = np.zeros((3, len(CLASSES)), np.float32)
    probabilities[0, CLASS_INDEX["S1"]], probabilities[0, CLASS_INDEX["S2"]] = 0.36, 0.34
    probabilities[1, CLASS_INDEX["F2"]], probabilities[1, CLASS_INDEX["F3"]] = 0.57, 0.31
    probabilities[2, CLASS_INDEX["5m"]] = 0.5
    tile_lines = (*_uncertain_lines(detections, probabilities), *_set_lines(detections, probabilities))
    assert [line.tiles for line in tile_lines] == [(2,), (0,), (1,)]
    # dropped as lines on a tile's reading, which the page says its own way, not by their words
    assert [line.about for line in tile_lines] == [UNSURE, SET_COPIES, SET_COPIES]
    assert [w.split(":")[0] for w in texts(tile_lines)] == [
        "unsure tile at (150, 170)",
        "tile at (860, 960) read as S2 (0.34), not S1 (0.36)",
        "tile at (850, 410) read as F3 (0.31), not F2 (0.57)",
    ]
    moved = moved_faces(detections, probabilities)
    assert moved == [("S2", "S1"), ("F3", "F2")]
    layout_line = Line(
        "one row of tiles with no gaps: read as one concealed hand; mark exposed melds by hand", LAYOUT
    )
    shown = app_warnings((*tile_lines, layout_line), moved)
    assert len(shown) == 2
    assert shown[0].startswith("2 tiles read as another face") and "S2 (not S1), F3 (not F2)" in shown[0]
    assert shown[1] == layout_line.text
    assert app_warnings((layout_line,)) == (layout_line.text,)
    assert moved_faces(detections, None) == [] and moved_faces(detections, probabilities[:2]) == []


def test_app_warnings_put_a_second_hand_in_the_photo_first() -> None:
    # a second hand puts every other line in doubt: an audit (stage 83) found it fourth of four, under
    # a line on the set's copies, which the second hand's tiles had taken
    from app_ui.reading import app_warnings
    from vision.layout import another_hand_lines
    from vision.lines import LAYOUT, SECOND_HAND, SET_COPIES, TILE, lines_of, texts

    (two_hands,) = texts(
        another_hand_lines(range(20), ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E"] * 2)
    )
    away = "20 tiles away from the hand and its melds (1m x2, ...): not counted"
    unsure = "tile at (9, 9) read as S2 (0.34), not S1 (0.36): a set has one S1"
    lines = [
        *lines_of([unsure], TILE, SET_COPIES),
        *lines_of([away], LAYOUT),
        *lines_of([two_hands], LAYOUT, SECOND_HAND),
    ]
    shown = app_warnings(lines, [("S2", "S1")])
    assert shown[0] == two_hands, shown
    # ranked by what the line is about, not by its words (the layout says so: test_layout_failure_modes)
    assert app_warnings([*lines[:2], *lines_of([two_hands], LAYOUT)])[-1] == two_hands
    assert shown[1].startswith("1 tile read as another face") and shown[2] == away
    assert app_warnings(lines[1:2]) == (away,)


def test_app_warnings_put_the_photos_own_faults_before_the_lines_on_tiles() -> None:
    # a shaken photo's line stood under the ways to a win it had blurred (stage 84): retaking mends all
    # (the kinds the reader gives these lines: tests/vision/test_glare.py, the reader's lines' facts, and
    # test_pipeline.py, the small tiles' line)
    from app_ui.reading import app_warnings
    from vision.exposure import dark_warning, overexposed_warning
    from vision.glare import face_glare_lines, glare_lines
    from vision.layout import another_hand_lines
    from vision.lines import LAYOUT, PHOTO, SECOND_HAND, lines_of, texts
    from vision.pipeline import damaged_warning, small_photo_warning, small_tiles_warning
    from vision.sharpness import blur_lines, whole_blur_lines

    said = [
        *damaged_warning(0.3),
        *small_photo_warning((300, 400)),
        *dark_warning(2.5),
        *overexposed_warning(0.5),
        *small_tiles_warning(np.array([[0, 0, 10, 14]] * 3, np.float32), np.ones(3, np.float32)),
    ]
    faults = [
        *lines_of(said, PHOTO),
        *blur_lines(0.05),
        *blur_lines(0.2, 0.3),
        *whole_blur_lines(0.3),
        *glare_lines([(10.0, 20.0)]),
        *glare_lines([(10.0, 20.0), (30.0, 40.0)]),
        *face_glare_lines(np.array([[0, 0, 10, 10]], np.float32), [0]),
    ]
    assert len(faults) == 11 and len({f.text for f in faults}) == 11, faults
    away = "2 tiles away from the hand and its melds (1m x2): not counted"
    ways = "The tiles are one or two away from a winning hand in more than one way: #14 as 3m"
    (two_hands,) = texts(
        another_hand_lines(range(20), ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E"] * 2)
    )
    shown = app_warnings(
        (*lines_of([away], LAYOUT), *faults, *lines_of([two_hands], LAYOUT, SECOND_HAND)), win_options=ways
    )
    assert shown[0] == two_hands, shown
    assert list(shown[1:12]) == [app_warnings((f,))[0] for f in faults], shown
    assert shown[12:] == (ways, away), shown


def test_app_warnings_say_where_to_choose_the_rule_set_for_tiles_of_another_set() -> None:
    from app_ui.reading import app_warnings
    from vision.lines import OTHER_SET, Line
    from vision.pipeline import _outside_set_warning

    (line,) = _outside_set_warning(["fly", "fly"])
    (shown,) = app_warnings((Line(line, about=OTHER_SET),))
    said = "choose that rule set in the sidebar (or the house rule that keeps those tiles) to read them again"
    assert shown.startswith(line) and said in shown
    # told so by what the line is about, not by its words (the reader says so: test_pipeline)
    assert app_warnings((Line(line),)) == (line,)


def test_the_melds_read_either_way_are_said_by_tile_number_by_what_the_line_is_about() -> None:
    # the page's line points at the offer's button; found by what the reader's line is about, not by
    # matching its words again (`rival_warning`), so a layout's reworded line is still swapped
    from app_ui.reading import meld_offer_of, offered
    from vision.lines import LAYOUT, MELD_RIVAL, Line

    hand = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E"
    layout = layout_hand(place([[hand, "+0.26 W W W"]]).detections())
    assert layout.rival is not None
    number = {i: i + 1 for i in range(14)}
    offer = meld_offer_of(layout.rival, number)
    assert (
        offer is not None
        and offer.line
        and offer.melds == (tuple(number[i] for i in layout.rival.melds[0].indices),)
    )
    away = Line("1 tile away from the hand and its melds (rat): not counted", LAYOUT)
    reworded = Line("the pong at the end may be laid down", LAYOUT, about=MELD_RIVAL)
    assert offered([away, reworded], offer) == [away, Line(offer.line, LAYOUT, about=MELD_RIVAL)]
    assert offered([away, reworded], None) == [away, reworded]
    # the rival's words with nothing said of what they are about are left as they are
    plain = Line(layout.warnings[-1], LAYOUT)
    assert offered([plain], offer) == [plain]
    assert meld_offer_of(layout.rival, {}) is None


def test_the_page_says_a_stand_in_readings_warnings_where_its_lines_do_not_say_them() -> None:
    # a stand-in reader that put lines of its own before the layout's warnings had lost them on the page
    # (the page took the layout's lines alone); a real reading's lines say its warnings, or it is refused
    from types import SimpleNamespace

    from app_ui.reading import reader_lines
    from vision.lines import LAYOUT, SECOND_HAND, TILE, Line

    two_hands = Line("the photo seems to hold more than one hand (12 ...)", LAYOUT, about=SECOND_HAND)
    said = SimpleNamespace(warnings=(two_hands.text,), lines=(two_hands,))
    assert reader_lines(said) == (two_hands,)
    more = SimpleNamespace(warnings=("no tiles found", two_hands.text), lines=(two_hands,))
    assert reader_lines(more) == (Line("no tiles found", TILE), Line(two_hands.text, TILE))
    assert reader_lines(SimpleNamespace(warnings=("a line",))) == (Line("a line", TILE),)


def test_app_warnings_tell_tiles_moved_to_make_a_win_from_tiles_moved_for_the_set() -> None:
    from app_ui.reading import app_warnings, moved_faces

    boxes = [[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]]
    detections = Detections.from_codes(["S2", "5p", "1m"], boxes, [0.3, 0.4, 0.9])
    probabilities = np.zeros((3, len(CLASSES)), np.float32)
    probabilities[0, CLASS_INDEX["S1"]], probabilities[0, CLASS_INDEX["S2"]] = 0.36, 0.34
    probabilities[1, CLASS_INDEX["6p"]], probabilities[1, CLASS_INDEX["5p"]] = 0.55, 0.4
    probabilities[2, CLASS_INDEX["1m"]] = 0.9
    won = (1,)
    set_moved = moved_faces(detections, probabilities, [0, 2])
    win_moved = moved_faces(detections, probabilities, won)
    assert set_moved == [("S2", "S1")] and win_moved == [("5p", "6p")]
    shown = app_warnings((), set_moved, win_moved)
    assert shown[0].startswith("1 tile read as another face") and "S2 (not S1)" in shown[0]
    assert "5p" not in shown[0]
    assert shown[1].startswith("1 unsure tile read as a likely runner-up") and "5p (not 6p)" in shown[1]
    assert "winning hand" in shown[1]


def test_ways_to_a_win_about_as_likely_are_offered_by_tile_number() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from app_ui.reading import read_tiles
    from vision.lines import UNSURE, Line

    assert case.win_ways_line([]) is None and case.win_ways_line([[(3, "5p")]]) is None
    line = case.win_ways_line([[(10, "7p")], [(11, "5p"), (4, "1m")]])
    assert line is not None and "#10 as 7p; or #11 as 5p and #4 as 1m" in line

    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "5p", "7p"]
    tiles = place([[" ".join(codes)], ["C C C"]])
    detections = tiles.detections()
    # the layout's reading order runs right to left here, so the table's numbers differ from indices
    flipped = Detections(
        detections.xyxy[::-1].copy(), detections.confidence, detections.class_id[::-1].copy()
    )
    five, seven = flipped.codes.index("5p"), len(flipped.codes) - 1 - flipped.codes[::-1].index("7p")

    @dataclass(frozen=True)
    class _Reader:
        def read(self, rgb: np.ndarray, source_scale: float = 1.0, faces: object = None) -> Reading:
            layout = layout_hand(flipped)
            ways = (((five, CLASS_INDEX["7p"]),), ((seven, CLASS_INDEX["5p"]),))
            line = Line("a line about one tile", tiles=(five,), about=UNSURE)
            return Reading(flipped, layout, (line.text,), {}, win_options=ways, lines=(line,))

    with ThreadPoolExecutor(1) as pool:
        read = read_tiles(_Reader(), np.zeros((8, 8, 3), np.uint8), pool, timeout_s=10)
    numbers = {row.box: n for n, row in enumerate(read.rows, start=1)}

    def number_of(index: int) -> int:
        x1, y1, x2, y2 = (float(v) for v in flipped.xyxy[index])
        return numbers[(x1, y1, x2, y2)]

    five_no, seven_no = number_of(five), number_of(seven)
    assert (five_no, seven_no) != (five + 1, seven + 1)  # numbered by place, not by index
    (offer,) = [w for w in read.warnings if "more than one way" in w]
    assert f"#{five_no} as 7p; or #{seven_no} as 5p" in offer
    assert "a line about one tile" not in read.warnings
    assert read.win_ways == (((five_no, "7p"),), ((seven_no, "5p"),))
    base = case.Base(rows=read.rows, source="photo", warnings=read.warnings, win_ways=read.win_ways)
    taken = table_edits.take_way(base, None, read.win_ways[1])
    assert taken.rows[seven_no - 1].code == "5p" and hand_build.build_hand(taken.rows, {}).problems == ()
    assert offer not in taken.notes and taken.open_ways == ()


WAYS_BASE = case.Base(
    rows=BASE,
    source="photo",
    warnings=("a line", str(case.win_ways_line([[(2, "3m")], [(1, "2m"), (4, "F2")]]))),
    win_ways=(((2, "3m"),), ((1, "2m"), (4, "F2"))),
)


def test_taking_a_way_changes_its_tiles_and_keeps_the_users_edits() -> None:
    edits = {
        "edited_rows": {"1": {"tile": "9m", "group": "meld 2"}, "2": {"tile": "P"}},
        "added_rows": [{"tile": "N"}],
    }
    taken = table_edits.take_way(WAYS_BASE, edits, WAYS_BASE.win_ways[0])
    # the way names tile 2: its code is the way's (the newer choice), its new group the user's
    assert [(r.code, r.group) for r in taken.rows] == [
        ("1m", HAND),
        ("3m", "meld 2"),
        ("P", "meld 1"),
        ("F1", BONUS),
        ("N", HAND),
    ]
    assert taken.rows[1].confidence is None and taken.rows[1].alternative is None
    assert taken.photo_rows == BASE and taken.open_ways == () and taken.notes == ("a line",)
    assert list(taken.earlier) == [
        {"action": "regroup", "tile": 2, "code": "2m", "from": HAND, "to": "meld 2"},
        {"action": "change", "tile": 3, "from": "C", "to": "P"},
        {"action": "add", "tile": 5, "code": "N", "group": HAND},  # numbered as it is folded in
        {"action": "change", "tile": 2, "from": "2m", "to": "3m", "by": "win option"},
    ]


def test_a_way_leaves_a_deleted_tile_deleted_and_undo_returns_to_the_reading() -> None:
    taken = table_edits.take_way(WAYS_BASE, {"deleted_rows": [0]}, WAYS_BASE.win_ways[1], {"meld 1": True})
    assert taken.meld_concealed == {"meld 1": True}
    assert [r.code for r in taken.rows] == ["2m", "C", "F2"]
    assert list(taken.earlier) == [
        {"action": "delete", "tile": 1, "code": "1m"},
        {"action": "change", "tile": 4, "from": "F1", "to": "F2", "by": "win option"},
    ]
    undone = taken.undone()
    assert undone.rows == BASE and undone.earlier == () and undone.as_read is None
    assert undone.meld_concealed == {} and undone.undone() == undone
    assert undone.open_ways == WAYS_BASE.win_ways and undone.notes == WAYS_BASE.warnings


def test_edits_folded_into_the_table_keep_the_ways_open_but_those_naming_a_deleted_tile() -> None:
    assert table_edits.fold_edits(WAYS_BASE, {}) is WAYS_BASE
    assert table_edits.fold_edits(WAYS_BASE, table_edits.normal_edits(None)) is WAYS_BASE
    changed = table_edits.fold_edits(WAYS_BASE, {"edited_rows": {"2": {"tile": "P"}}})
    assert [r.code for r in changed.rows] == ["1m", "2m", "P", "F1"] and changed.photo_rows == BASE
    assert changed.open_ways == WAYS_BASE.win_ways and changed.notes == WAYS_BASE.warnings
    assert list(changed.earlier) == [{"action": "change", "tile": 3, "from": "C", "to": "P"}]
    # stage 56: tiles keep their numbers through a fold, so a row added leaves every way open (they
    # had all closed, the numbers then shifting) ...
    added = table_edits.fold_edits(WAYS_BASE, {"added_rows": [{"tile": "N"}]})
    assert added.open_ways == WAYS_BASE.win_ways and added.notes == WAYS_BASE.warnings
    # ... and a row deleted closes only the ways naming its tile: #1 goes with the second way, and
    # a single way left is offered by its button alone, its line gone
    deleted = table_edits.fold_edits(WAYS_BASE, {"deleted_rows": [0]})
    assert deleted.open_ways == (((2, "3m"),),) and deleted.notes == ("a line",)
    assert deleted.undone().open_ways == WAYS_BASE.win_ways
    taken = table_edits.take_way(deleted, {}, deleted.open_ways[0])
    assert [r.code for r in taken.rows] == ["3m", "C", "F1"]  # #2 found by its number, not its place
    # once a way is taken, folding edits does not open them again
    assert table_edits.fold_edits(taken, {"edited_rows": {"0": {"tile": "2m"}}}).open_ways == ()
    assert table_edits.normal_edits({"edited_rows": {"1": {"tile": "P"}}}) == {
        "edited_rows": {"1": {"tile": "P"}},
        "added_rows": [],
        "deleted_rows": [],
    }


def test_the_case_json_keeps_the_photo_reading_and_every_correction_after_a_way() -> None:
    taken = table_edits.take_way(WAYS_BASE, {"edited_rows": {"0": {"tile": "4m"}}}, WAYS_BASE.win_ways[0])
    later = {"edited_rows": {"2": {"tile": "F"}}}
    rows = table_edits.apply_edits(taken.rows, later)
    out = case_file.case_json({}, taken, rows, later, None)
    assert [t["code"] for t in out["photo_tiles"]] == ["1m", "2m", "C", "F1"]
    assert [t["code"] for t in out["tiles"]] == ["4m", "3m", "F", "F1"]
    assert [(c["tile"], c.get("to")) for c in out["corrections"]] == [(1, "4m"), (2, "3m"), (3, "F")]


def test_a_fold_keeps_every_tile_s_number_and_an_old_renumbered_case_is_marked() -> None:
    from app_ui.summary import corrections_line

    # a row deleted, then folded into the table (as an undo, a way taken or a reload does): the tiles
    # keep the numbers they were read with (stage 55: the table was numbered afresh, and the photo's
    # labels and the corrections line no longer matched it)
    edits = {"edited_rows": {}, "added_rows": [{"tile": "cat"}], "deleted_rows": [0]}
    folded = table_edits.fold_edits(WAYS_BASE, edits)
    assert case.row_numbers(folded.rows) == [2, 3, 4, 5]  # the cat after every tile read
    later = {"edited_rows": {"1": {"tile": "F"}}}
    out = case_file.case_json({}, folded, table_edits.apply_edits(folded.rows, later), later, None)
    # each tile's net change (`net_corrections`) by tile number, then the rows added
    assert [c["action"] for c in out["corrections"]] == ["delete", "change", "add"]
    assert [t["tile"] for t in out["tiles"]] == [2, 3, 4, 5]
    assert out["corrections"][1]["tile"] == 3 and out["photo_tiles"][2]["code"] == "C"  # #3 as read
    line = "Your corrections: #1 1m deleted; #3 C → F; #5 cat added to bonus"
    assert corrections_line(out["corrections"]) == line
    # reopened, the table keeps those numbers: nothing was numbered afresh
    assert not table_edits.numbered_afresh(out["corrections"], table_edits.apply_edits(folded.rows, later))
    # a case saved before stage 55 was: its table 1, 2, ... though #1 was deleted
    old = [TileRow("2m", "hand"), TileRow("C", "hand")]
    assert table_edits.numbered_afresh([{"action": "delete", "tile": 1, "code": "1m"}], old)
    assert not table_edits.numbered_afresh(
        [{"action": "delete", "tile": 3, "code": "F1"}], old
    )  # the last row


def test_a_reopened_old_case_marks_its_new_corrections_as_numbered_afresh() -> None:
    saved = {
        "concealed": ["2m", "C"],
        "source": {"kind": "photo", "name": "hand.jpg"},
        "photo_tiles": [{"tile": 1, "code": "1m"}, {"tile": 2, "code": "2m"}, {"tile": 3, "code": "C"}],
        "corrections": [{"action": "delete", "tile": 1, "code": "1m"}],
        "tiles": [{"tile": 1, "code": "2m", "group": "hand"}, {"tile": 2, "code": "C", "group": "hand"}],
    }
    reopened = case_open.open_case("saved.json", json.dumps(saved).encode()).base
    rows = reopened.rows
    edits = {"edited_rows": {"1": {"tile": "F"}}}
    out = case_file.case_json({}, reopened, table_edits.apply_edits(rows, edits), edits, None)
    assert [c["action"] for c in out["corrections"]] == ["delete", table_edits.RENUMBERED, "change"]
    assert out["source"]["opened_from"] == saved["source"]
    # nothing after the mark: no mark
    alone = case_file.case_json({}, reopened, list(rows), None, None)["corrections"]
    assert [c["action"] for c in alone] == ["delete"]
    # a case a reload brought back is the case itself: its own source, no file it was opened from (with
    # the highest tile number the case has given, which a case file's `source` says since)
    restored = dataclasses.replace(reopened, restored=True)
    own = case_file.case_json({}, restored, list(rows), None, None)["source"]
    assert own == {"kind": "photo", "name": "hand.jpg", "numbered_up_to": 3}


def _photo_case(edits: dict[str, Any]) -> tuple[dict[str, Any], case.Base]:
    """A photo's case, saved with `edits` to its table: a 7m kong laid face up and marked concealed."""
    codes = ["2m", "2m", "2m", "3m", "4m", "9p", "9p", "6s", "7s", "8s"]
    groups = ["hand"] * 7 + ["meld 1"] * 3
    pairs = enumerate(zip(codes, groups, strict=True))
    read = [TileRow(c, g, 0.9, (10.0 * i, 0.0, 10.0 * i + 9, 14.0)) for i, (c, g) in pairs]
    read += [TileRow("7m", "meld 2", 0.8, (200.0 + 10 * k, 0.0, 209.0 + 10 * k, 14.0)) for k in range(4)]
    base = case.Base(rows=tuple(read), source="photo", name="hand.jpg", sha256="ab" * 32, size=(640, 480))
    base = dataclasses.replace(base, meld_concealed={"meld 2": True})
    rows = table_edits.apply_edits(base.rows, edits)
    build = hand_build.build_hand(rows, base.meld_concealed)
    data = hand_build.scoring_input(build.hand, case.Context(winning_tile="9p"), "singapore", {})
    try:
        result: dict[str, Any] | None = scoring.score_json(data)
    except scoring.MalformedHandError:
        result = None  # the app shows why, and still offers the case for download
    return case_file.case_json(data, base, rows, edits, result), base


def test_the_corrections_line_says_where_an_old_case_s_table_was_numbered_afresh() -> None:
    from app_ui.summary import corrections_line
    from app_ui.table_edits import RENUMBERED, corrections_so_far

    deleted: list[dict[str, Any]] = [
        {"action": "change", "tile": 1, "from": "5s", "to": "5p"},
        {"action": "delete", "tile": 3, "code": "5s"},
        {"action": RENUMBERED},
    ]
    now = [{"action": "change", "tile": 3, "from": "2s", "to": "9s"}]
    assert corrections_line(corrections_so_far(deleted, now)) == (
        "Your corrections: #1 5s → 5p; #3 5s deleted; then, numbered as the table is now, #3 2s → 9s"
    )
    assert corrections_so_far(deleted, []) == deleted[:2]  # nothing after the mark: nothing to mark


def test_a_tile_is_marked_unsure_below_the_readers_own_mark() -> None:
    from vision.detections import UNSURE_BELOW

    assert case.LOW_CONFIDENCE == UNSURE_BELOW == 0.6  # the app marks what --annotate draws orange
    assert TileRow(code="1m", group=HAND, confidence=0.55).low_confidence
    assert not TileRow(code="1m", group=HAND, confidence=0.6).low_confidence
    assert not TileRow(code="1m", group=HAND).low_confidence  # a typed tile is the user's own


def test_a_code_renamed_by_a_re_read_is_followed_only_where_all_its_tiles_agree() -> None:
    def rows(*codes: str) -> list[TileRow]:
        box = [(i * 10.0, 0.0, i * 10.0 + 9, 12.0) for i in range(len(codes))]
        return [TileRow(code=c, group=HAND, box=b) for c, b in zip(codes, box, strict=True)]

    before = rows("E", "E", "1s", "2p")
    assert photo_rows.renamed_by_reread("E", before, rows("fly", "fly", "1p", "2p")) == "fly"
    assert photo_rows.renamed_by_reread("E", before, rows("fly", "N", "1p", "2p")) is None  # they disagree
    assert photo_rows.renamed_by_reread("E", before, rows("fly", "E", "1p", "2p")) is None  # an E is left
    assert photo_rows.renamed_by_reread("2p", before, rows("fly", "fly", "1p", "2p")) is None  # unchanged
    assert photo_rows.renamed_by_reread("C", before, rows("fly", "fly", "1p", "2p")) is None  # no such tile


def test_a_photos_reading_or_a_scene_opens_as_its_hand_under_the_rule_set_it_names_or_the_apps() -> None:
    reading = {
        "image": {"width": 640, "height": 480},
        "detections": [],
        "hand": {
            "concealed": ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "fly", "5p", "5p"],
            "melds": [{"kind": "kong", "tiles": ["C", "C", "C", "C"], "concealed": True}],
            "bonus": ["face"],
        },
        "warnings": [],
    }
    data = json.dumps(reading).encode()
    opened = case_open.open_case("reading.json", data, "malaysian")
    assert opened.rules == "malaysian"
    assert [(r.code, r.group) for r in opened.base.rows][-6:] == [
        ("5p", HAND),
        ("C", "meld 1"),
        ("C", "meld 1"),
        ("C", "meld 1"),
        ("C", "meld 1"),
        ("face", BONUS),
    ]
    assert opened.base.meld_concealed == {"meld 1": True}
    assert case_open.open_case("reading.json", data).rules == "singapore"
    assert not opened.notes
    beside = case_open.open_case(
        "reading.json", json.dumps({**reading, "bonus": ["cat"]}).encode(), "malaysian"
    )
    assert beside.notes == (
        'Bonus written beside "hand" is not used: the hand\'s own bonus stands (correct it inside "hand").',
    )
    scene = json.loads((ROOT / "samples" / "malaysian.json").read_text())
    from_scene = case_open.open_case("malaysian.json", json.dumps(scene).encode(), "singapore")
    assert from_scene.rules == "malaysian" and len(from_scene.base.rows) > 13
    with pytest.raises(case_open.CaseFileError, match="holds no tiles"):
        case_open.open_case("empty.json", json.dumps({**reading, "hand": {"concealed": []}}).encode())


def test_a_case_python_m_scoring_scores_opens_with_what_the_rule_set_cannot_hold_said() -> None:
    # a Malaysian case of the North round, naming a Singapore circumstance: scoring warns and scores it
    hand = {
        "rules": "malaysian",
        "concealed": "123p 456p 789p SS CCC",
        "seat_wind": "W",
        "prevailing_wind": "N",
        "circumstances": ["humanly", "last_tile"],
        "self_drawn": True,
    }
    assert "humanly is not part of malaysian rules; ignored" in scoring.score_json(hand)["warnings"]
    opened = case_open.open_case("north.json", json.dumps(hand).encode())
    assert opened.context.prevailing_wind == "N"
    assert opened.context.circumstances == ("last_tile",)
    assert opened.notes == ("The Malaysian rules know no humanly: left out.",)
    with pytest.raises(case_open.CaseFileError, match="N is not a seat in the malaysian rules"):
        case_open.open_case("north.json", json.dumps({**hand, "seat_wind": "N"}).encode())


def test_a_north_round_without_the_north_wind_is_compared_as_the_page_scores_it() -> None:
    # python -m scoring refuses the round; the page opens it as East (and says so), so a saved result
    # of the same hand is no change to report
    hand: dict[str, Any] = {
        "rules": "malaysian",
        "options": {"north_wind": False},
        "concealed": "111p 222p 333p 44p",
        "melds": [{"kind": "pong", "tiles": "999p"}],
        "seat_wind": "S",
    }
    saved = scoring.score_json(hand)
    case = {**hand, "prevailing_wind": "N", "result": saved}
    assert saved["valid"] and scoring.score_json(case)["reason"] == "impossible_context"
    opened = case_open.open_case("north.json", json.dumps(case).encode())
    assert opened.context.prevailing_wind == "N" and opened.notes == ()
    worse = {**case, "result": {**saved, "valid": False, "message": "Not a valid win: 2 fan."}}
    assert "scores now as" in case_open.open_case("north.json", json.dumps(worse).encode()).notes[0]


def test_a_photos_reading_opens_with_the_readers_warnings_said() -> None:
    # `python -m vision --json | python -m scoring -` keeps them; the app opening the file must too
    reading = {
        "image": {"width": 640, "height": 480},
        "detections": [],
        "hand": {"concealed": "123m 456p 789s CCC 55p"},
        "warnings": ["tile 3 is unsure (1s or C?)", "2 tiles at the edge may be cut off."],
    }
    opened = case_open.open_case("reading.json", json.dumps(reading).encode())
    assert opened.notes == (
        "The photo's reading: tile 3 is unsure (1s or C?).",
        "The photo's reading: 2 tiles at the edge may be cut off.",
    )
    # the reader's advice to its command line is said as the page's (stage 72, an audit)
    question = (
        "1 tile looks like a Malaysian fly tile (飛), not in this set: it is read as this set's likeliest "
        "tile. Is the photo of another rule set's tiles?"
    )
    advised = {
        **reading,
        "warnings": [f"{question} If so, give --rules malaysian, here and to python -m scoring."],
    }
    said = case_open.open_case("reading.json", json.dumps(advised).encode()).notes
    assert said == (
        f"The photo's reading: {question} If so, choose Malaysian (3 players) rules in the sidebar.",
    )
    assert "--rules" not in said[0] and "python -m" not in said[0]
    # a case file's own "warnings" (not a reading: no detections) are not the photo's
    typed = {"concealed": "123m 456p 789s CCC 55p", "warnings": ["tile 3 is unsure"]}
    assert not case_open.open_case("typed.json", json.dumps(typed).encode()).notes


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ({"seat_wind": "S", "discarder_wind": "S"}, "South as the discarder, the winner's own seat"),
        (
            {"seat_wind": "S", "discarder_wind": "S", "self_drawn": True, "pay_all": True},
            "the winner's own seat",
        ),
        (
            {"rules": "malaysian", "discarder_wind": "N"},
            "North as the discarder, no seat in the Malaysian rules",
        ),
    ],
)
def test_a_discarder_python_m_scoring_refuses_opens_unsaid_and_said(
    given: dict[str, object], why: str
) -> None:
    hand = {"concealed": "123p 456p 789p 111p 55p", **given}
    assert scoring.score_json(hand)["reason"] == "impossible_context"
    opened = case_open.open_case("hand.json", json.dumps(hand).encode())
    assert opened.context.discarder_wind is None
    assert len(opened.notes) == 1 and why in opened.notes[0] and "impossible" in opened.notes[0]
    # a self-draw ignores the discarder (python -m scoring warns and scores): nothing to say
    drawn = {**hand, "self_drawn": True, "pay_all": False}
    assert (
        "discarder_wind ignored: a self-drawn win has no discarder" in scoring.score_json(drawn)["warnings"]
    )
    assert not case_open.open_case("hand.json", json.dumps(drawn).encode()).notes


def test_a_case_opened_and_saved_again_keeps_its_table_and_its_trail_to_the_photo() -> None:
    saved, _ = _photo_case({"edited_rows": {"1": {"tile": "1m"}}})  # 2m read where 1m lies
    data = json.dumps(saved).encode()
    opened = case_open.open_case("case1.json", data)
    # the table as saved: same numbers, groups, confidences and boxes, the kong still concealed
    assert case_file.rows_to_json(opened.base.rows) == saved["tiles"]
    assert opened.base.meld_concealed == {"meld 2": True}
    assert opened.base.sha256 == case.photo_digest(data)
    # a correction after opening is numbered as that table, after the saved ones
    edits = {"edited_rows": {"6": {"tile": "8p"}}}
    rows = table_edits.apply_edits(opened.base.rows, edits)
    build = hand_build.build_hand(rows, opened.base.meld_concealed)
    again_in = hand_build.scoring_input(build.hand, opened.context, opened.rules, opened.options)
    again = case_file.case_json(again_in, opened.base, rows, edits, scoring.score_json(again_in))
    assert again["photo_tiles"] == saved["photo_tiles"] and len(again["photo_tiles"]) == 14
    assert again["corrections"] == [
        *saved["corrections"],
        {"action": "change", "tile": 7, "from": "9p", "to": "8p"},
    ]
    assert again["source"]["kind"] == "case" and again["source"]["name"] == "case1.json"
    assert again["source"]["opened_from"] == saved["source"] and saved["source"]["name"] == "hand.jpg"
    assert [t["code"] for t in again["tiles"]][6] == "8p"


@pytest.mark.parametrize(
    ("edits", "problem"),
    [
        pytest.param({"edited_rows": {"0": {"tile": "rat"}}}, "bonus tile rat", id="bonus-tile-in-the-hand"),
        pytest.param(
            {"edited_rows": {"3": {"tile": "2m"}, "4": {"tile": "2m"}}}, "5 copies", id="fifth-copy"
        ),
        pytest.param({"edited_rows": {"5": {"tile": "back"}}}, "face-down", id="back-in-the-hand"),
        pytest.param(
            {"edited_rows": {str(k): {"tile": "back"} for k in range(10, 14)}}, "", id="kong-all-face-down"
        ),
        pytest.param({"edited_rows": {"7": {"group": "meld 1"}}}, "", id="group-that-is-no-meld"),
    ],
)
def test_a_downloaded_case_the_table_cannot_score_yet_opens_as_it_was_saved(
    edits: dict[str, Any], problem: str
) -> None:
    """The user's unfinished corrections survive a download: the file opens with its table as saved,
    for the user to finish, where before it was refused (or lost the tiles it could not score)."""
    saved, base = _photo_case(edits)
    rows = table_edits.apply_edits(base.rows, edits)
    build = hand_build.build_hand(rows, base.meld_concealed)
    try:
        why = str(
            scoring.score_json(hand_build.scoring_input(build.hand, case.Context(), "singapore", {}))[
                "message"
            ]
        )
    except scoring.MalformedHandError as error:
        why = str(error)
    assert problem in why + " ".join(build.problems)
    assert build.problems or saved["result"] is None or not saved["result"]["valid"]
    opened = case_open.open_case("unfinished.json", json.dumps(saved).encode())
    assert case_file.rows_to_json(opened.base.rows) == saved["tiles"]
    assert opened.context.winning_tile == "9p"
    assert [t["code"] for t in saved["tiles"]] == [r.code for r in rows]


def test_a_case_whose_table_no_longer_matches_its_hand_opens_from_the_hand() -> None:
    saved, _ = _photo_case({})
    saved["concealed"] = ["1m", "2m", "3m", "2m", "2m", "9p", "9p"]  # edited by hand: the table is stale
    opened = case_open.open_case("edited.json", json.dumps(saved).encode())
    assert [r.code for r in opened.base.rows if r.group == "hand"] == saved["concealed"]
    assert all(r.box is None for r in opened.base.rows)
    assert opened.base.meld_concealed == {"meld 2": True}
    # a file with no record at all opens as before, with none
    plain = case_open.open_case(
        "plain.json", json.dumps({"concealed": saved["concealed"], "melds": saved["melds"]}).encode()
    )
    assert plain.base.history is None


def test_labels_find_free_spots_and_crowded_tiles_keep_their_number() -> None:
    from app_ui.art import free_spot

    taken: list[tuple[float, float, float, float]] = []
    # a tight cluster of tiles: each label lands clear of every label before it, inside the image
    for k in range(12):
        box = (100.0 + 12 * (k % 4), 100.0 + 15 * (k // 4), 130.0 + 12 * (k % 4), 140.0 + 15 * (k // 4))
        spot = free_spot(box, (20.0, 10.0), taken, (400, 300))
        if spot is None:
            continue
        rect = (spot[0] - 2, spot[1] - 2, spot[0] + 22, spot[1] + 12)
        assert all(rect[2] <= o[0] or o[2] <= rect[0] or rect[3] <= o[1] or o[3] <= rect[1] for o in taken)
        assert rect[0] >= 0 and rect[1] >= 0 and rect[2] <= 400 and rect[3] <= 300
        taken.append(rect)
    assert len(taken) >= 6
    # every spot taken: none is offered
    everywhere = [(0.0, 0.0, 400.0, 300.0)]
    assert free_spot((100.0, 100.0, 130.0, 140.0), (20.0, 10.0), everywhere, (400, 300)) is None
    # a crowded photo still draws (numbers alone where no label fits)
    photo = np.full((300, 400, 3), 200, np.uint8)
    rows = [TileRow("1m", HAND, 0.9, (100 + 8 * k, 100, 130 + 8 * k, 140)) for k in range(20)]
    assert annotate_photo(photo, rows).size == (400, 300)


def test_the_summary_of_eight_flowers_says_the_hand_has_no_tiles_and_the_win_is_self_drawn() -> None:
    from app_ui.summary import summary_text

    data = {
        "rules": "singapore",
        "concealed": [],
        "melds": [],
        "bonus": ["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"],
        "seat_wind": "E",
        "prevailing_wind": "E",
        "self_drawn": False,
    }
    lines = summary_text(data, scoring.score_json(data)).splitlines()
    assert "Hand: (no tiles) | bonus: F1 F2 F3 F4 S1 S2 S3 S4" in lines, lines
    assert any(line.startswith("Seat E, prevailing E, self-drawn (") for line in lines), lines


def test_an_unsure_tiles_runner_up_is_offered_only_where_the_rule_set_holds_it() -> None:
    rows = [
        (1, case.TileRow(code="3p", group="hand", confidence=0.2, alternative="5s")),
        (2, case.TileRow(code="cat", group="bonus", confidence=0.2, alternative="face")),
        (3, case.TileRow(code="9s", group="hand", confidence=0.99, alternative="6s")),
    ]
    assert photo_rows.unsure_tiles(rows, tile_sets.tiles_in_set("singapore")) == ["1 (3p or 5s?)", "2"]
    assert photo_rows.unsure_tiles(rows, tile_sets.tiles_in_set("malaysian")) == ["1", "2 (cat or face?)"]


def test_the_photo_is_cropped_to_its_tiles_only_where_they_fill_little_of_it() -> None:
    from app_ui.photo_view import tiles_window

    tiles = [(100.0 + 40 * i, 300.0, 140.0 + 40 * i, 356.0) for i in range(5)]  # 40 x 56 px tiles
    x1, y1, x2, y2 = tiles_window(tiles, (1280, 960)) or (0, 0, 0, 0)
    margin = 0.05 * 1280  # more than a tile's long side here
    assert (x1, y1) == (int(100 - margin), int(300 - margin))
    assert (x2, y2) == (int(300 + margin + 1), int(356 + margin + 1))
    row = [(100.0 + 40 * i, 30.0, 140.0 + 40 * i, 86.0) for i in range(5)]
    assert tiles_window(row, (400, 120)) is None  # the tiles and their margin are most of it
    assert tiles_window([], (1280, 960)) is None
    # the window never leaves the picture, and boxes past its edge are clipped to it (or dropped)
    assert tiles_window([(0.0, 0.0, 40.0, 56.0)], (1280, 960)) == (0, 0, 105, 121)
    assert tiles_window([(-500.0, -500.0, -400.0, -400.0)], (1280, 960)) is None
    x1, y1, x2, y2 = tiles_window([(1200.0, 10.0, 1400.0, 100.0)], (1280, 960)) or (0, 0, 0, 0)
    assert x1 < x2 <= 1280 and y1 < y2


def test_the_tiles_part_of_a_photo_is_cut_from_its_full_resolution() -> None:
    from app_ui.photo_view import DISPLAY_MAX_SIDE, in_picture, photo_view

    photo = np.full((3000, 4000, 3), 150, np.uint8)  # lit: shown as it is
    # a row of 14 tiles 60 px wide: 19 px in the whole photo's copy, too small for a label each
    boxes = [(1000.0 + 62 * i, 1500.0, 1060.0 + 62 * i, 1580.0) for i in range(14)]
    photo[1530:1550, 1030:1040] = (250, 20, 20)  # a red mark in the first tile
    view = photo_view(photo, boxes)
    assert max(view.whole.shape[:2]) == DISPLAY_MAX_SIDE and view.whole_scale == DISPLAY_MAX_SIDE / 4000
    assert view.tiles is not None and view.tiles_xyxy is not None
    assert view.tiles_scale >= 2.5 * view.whole_scale  # the tiles come out larger
    assert max(view.tiles.shape[:2]) <= DISPLAY_MAX_SIDE
    for cropped in (True, False):
        picture, origin, scale = view.picture(cropped)
        x1, y1, x2, y2 = in_picture((1030.0, 1530.0, 1040.0, 1550.0), origin, scale)
        centre = picture[round((y1 + y2) / 2), round((x1 + x2) / 2)]
        assert centre[0] > 200 and centre[1] < 80, (cropped, centre)  # the mark is where the box says
    # tiles filling most of the photo: no part kept, the whole photo is drawn on
    filling = photo_view(photo, [(100.0, 100.0, 3900.0, 2900.0)])
    assert filling.tiles is None and filling.picture(True)[0] is filling.whole
    # a photo of display size is kept as it is; a small one is enlarged to be drawn on (an audit: the
    # labels drawn on a 200 x 150 photo were a blur once the page stretched it)
    shown = np.full((600, 800, 3), 200, np.uint8)
    assert photo_view(shown, []).whole is shown and photo_view(shown, []).whole_scale == 1.0
    small = np.full((150, 200, 3), 200, np.uint8)
    small[70:80, 20:30] = (250, 20, 20)
    view = photo_view(small, [(10.0, 60.0, 40.0, 100.0)])
    assert view.whole.shape[:2] == (600, 800) and view.whole_scale == 4.0
    picture, origin, scale = view.picture(True)
    x1, y1, x2, y2 = in_picture((20.0, 70.0, 30.0, 80.0), origin, scale)
    assert picture[round((y1 + y2) / 2), round((x1 + x2) / 2)][0] > 200  # the mark where the box says


def test_a_dark_photo_is_shown_brightened_as_it_was_read() -> None:
    from app_ui.photo_view import photo_view
    from vision.exposure import gain_for

    dark = np.full((600, 800, 3), 20, np.uint8)
    dark[300:340, 100:700] = 40  # a row of dim tiles
    read_with = gain_for(dark)  # the gain the reader reads it with (`Seen.gain`)
    view = photo_view(dark, [(100.0, 300.0, 700.0, 340.0)], read_with)
    assert view.gain == gain_for(dark) > 1.0
    assert view.whole.mean() > 1.5 * dark.mean()
    lit = np.full((600, 800, 3), 200, np.uint8)
    assert photo_view(lit, []).gain == 1.0 and photo_view(lit, []).whole is lit


def _overlapping_pairs(labels: list[tuple[float, float, float, float]]) -> int:
    return sum(
        a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
        for i, a in enumerate(labels)
        for b in labels[i + 1 :]
    )


@settings(max_examples=25, deadline=None)
@given(
    tile_width=st.integers(min_value=26, max_value=80),
    gap=st.integers(min_value=0, max_value=12),
    rows_of_tiles=st.integers(min_value=1, max_value=3),
)
def test_tile_labels_never_cover_each_other(tile_width: int, gap: int, rows_of_tiles: int) -> None:
    from app_ui.art import annotate_photo_and_labels

    photo = np.full((960, 1280, 3), 90, np.uint8)
    groups = [HAND, MELD_GROUPS[0], BONUS]
    height = round(1.35 * tile_width)
    rows = [
        TileRow("1m", groups[r], 0.4 if k % 5 == 0 else 0.95, box)
        for r in range(rows_of_tiles)
        for k in range(14)
        for box in [
            (
                60.0 + k * (tile_width + gap),
                300.0 + r * (height + 3 * gap),
                60.0 + k * (tile_width + gap) + tile_width,
                300.0 + r * (height + 3 * gap) + height,
            )
        ]
    ]
    _, _, labels = annotate_photo_and_labels(photo, rows)
    assert len(labels) == len(rows) + rows_of_tiles  # a label per tile and per group
    assert _overlapping_pairs(labels) == 0


def test_crowded_tiles_are_labelled_by_their_numbers_alone() -> None:
    from app_ui.art import annotate_photo_and_labels

    photo = np.full((960, 1280, 3), 90, np.uint8)
    # two rows of 18 px tiles 1 px apart: no room for "12 1m" above or below each, room for "12"
    rows = [
        TileRow("1m", group, 0.95, (400.0 + 19 * k, top, 418.0 + 19 * k, top + 24.0))
        for group, top in ((HAND, 400.0), (MELD_GROUPS[0], 426.0))
        for k in range(14)
    ]
    _, _, labels = annotate_photo_and_labels(photo, rows)
    tile_labels = labels[2:]  # after the groups' names
    assert _overlapping_pairs(labels) == 0
    assert max(x2 - x1 for x1, _, x2, _ in tile_labels) < 30  # numbers, not "12 1m"
    # roomy tiles keep their codes
    roomy = [TileRow("1m", HAND, 0.95, (200.0 + 70 * k, 400.0, 260.0 + 70 * k, 480.0)) for k in range(14)]
    _, _, labels = annotate_photo_and_labels(photo, roomy)
    assert min(x2 - x1 for x1, _, x2, _ in labels[1:]) > 30


def test_the_tile_key_names_the_rule_set_s_tiles() -> None:
    from app_ui.summary import tile_key

    singapore, malaysian = (tile_key(tile_sets.tiles_in_set(name)) for name in ("singapore", "malaysian"))
    assert "1m–9m" in singapore and "1s–9s" in singapore and "fly" not in singapore
    assert "1m" not in malaysian and "1s" not in malaysian and "1p–9p" in malaysian and "fly" in malaysian
    assert "E S W N winds" in malaysian
    without_north = tile_key(tile_sets.tiles_in_set(tile_sets.set_name("malaysian", {"north_wind": False})))
    assert "E S W winds" in without_north and " N " not in without_north


@pytest.mark.parametrize(
    ("rules", "options"),
    [("singapore", {}), ("malaysian", {}), ("malaysian", {"north_wind": False})],
)
def test_the_prevailing_wind_box_offers_the_rounds_the_scoring_allows(
    rules: str, options: dict[str, Any]
) -> None:
    # the box knows the set by name, the scoring by its options: one rule, the same rounds
    from app_ui.context_panel import round_winds

    chosen = dataclasses.replace(scoring.default_options(rules), **options)
    expected = list(scoring.get_ruleset(rules).round_winds(chosen))
    assert round_winds(tile_sets.set_name(rules, options)) == expected
    assert ("N" in expected) == options.get("north_wind", True)


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("hand *one* $5$ [x](http:__e).jpg", r"hand \*one\* \$5\$ \[x\](http:\_\_e).jpg"),
        ("hand :smile: b.jpg", r"hand \:smile\: b.jpg"),  # Streamlit's emoji, matched on the text as typed
        ("x :red[y].jpg", r"x \:red\[y\].jpg"),
        ("a:smile:b.jpg", r"a\:smile\:b.jpg"),
        ("# big.jpg", r"\# big.jpg"),
        ("1. first.jpg", r"1\. first.jpg"),
        ("<b>x</b>.png", r"\<b\>x\</b\>.png"),
        ("notes.jpg: not a supported image", "notes.jpg: not a supported image"),  # nothing to escape
        ("option max_tai must", "option max_tai must"),  # an underscore inside a word is no emphasis
        ("a &amp; b", r"a \&amp; b"),  # an entity would show as its character
        ("one\n# two", "one\n\\# two"),  # a heading on any line
        ("see http://e.x", r"see http:\/\/e.x"),  # an address or e-mail GitHub's Markdown would link
        ("www.e.x and a@b.c", r"www\.e.x and a\@b.c"),
        ("file.www.x", "file.www.x"),  # no address
    ],
)
def test_a_file_name_is_shown_as_typed_not_as_markdown(name: str, shown: str) -> None:
    from app_ui.summary import plain

    assert plain(name) == shown


def test_a_kong_with_a_tile_face_down_is_concealed_unless_the_user_says_otherwise() -> None:
    # a player builds the kong in the table from face-down rows: an exposed kong lies face up
    rows = [TileRow(c) for c in ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "2m"]]
    rows += [TileRow(c, "meld 1") for c in ("back", "8p", "8p", "back")]
    assert hand_build.build_hand(rows, {}).hand["melds"][0]["concealed"] is True
    assert hand_build.build_hand(rows, {"meld 1": False}).hand["melds"][0]["concealed"] is False
    face_up = [*rows[:11], *(TileRow("8p", "meld 1") for _ in range(4))]
    assert hand_build.build_hand(face_up, {}).hand["melds"][0]["concealed"] is False


def test_a_saved_kong_lying_all_face_down_stays_concealed_once_its_face_is_named() -> None:
    # the case leaves such a kong out of its melds (its face unsaid): reopened (a reload), it came
    # back exposed when the user then named its face
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2m", "2m"]
    tiles = [{"tile": i + 1, "code": c, "group": HAND} for i, c in enumerate(hand)]
    tiles += [{"tile": 12 + i, "code": "back", "group": "meld 1"} for i in range(4)]
    saved = {"concealed": hand, "melds": [], "bonus": [], "tiles": tiles}
    opened = case_open.open_case("case.json", json.dumps(saved).encode())
    assert opened.base.meld_concealed == {"meld 1": True}
    named = [
        *opened.base.rows[:11],
        dataclasses.replace(opened.base.rows[11], code="9s"),
        *opened.base.rows[12:],
    ]
    melds = hand_build.build_hand(named, opened.base.meld_concealed).hand["melds"]
    assert melds == [{"kind": "kong", "tiles": ["9s"] * 4, "concealed": True}]


def test_the_result_names_the_payout_table_scheme_without_the_sidebar_s_pointer() -> None:
    from app_ui.summary import house_rules

    said = house_rules(
        "singapore", {**scoring.default_options("singapore").__dict__, "payout_scheme": "table"}
    )
    assert any(line.endswith(": Payout table") for line in said), said
    assert not any("(below)" in line for line in said)


def test_a_saved_tiles_runner_up_comes_back_so_an_opened_case_names_both_faces() -> None:
    # a case opened without its photo has no reading to ask: the file must carry the runner-up
    rows = [
        case.TileRow("1s", confidence=0.31, box=(0.0, 0.0, 10.0, 14.0), alternative="F2"),
        case.TileRow("2m"),
    ]
    saved = case_file.rows_to_json(rows)
    assert saved[0]["runner_up"] == "F2" and "runner_up" not in saved[1]
    back = [case_open._saved_row(item) for item in saved]
    assert back[0] is not None and back[0].alternative == "F2"
    assert photo_rows.unsure_tiles([(1, back[0])], tile_sets.tiles_in_set("singapore")) == ["1 (1s or F2?)"]
    # a runner-up no app would write (not a code, or the tile's own) is not taken
    assert case_open._saved_row({**saved[0], "runner_up": "dog"}).alternative is None  # type: ignore[union-attr]
    assert case_open._saved_row({**saved[0], "runner_up": "1s"}).alternative is None  # type: ignore[union-attr]


@pytest.mark.parametrize("options", [False, 0, "", []], ids=["false", "zero", "empty-text", "list"])
def test_a_case_whose_options_are_no_object_is_refused_in_one_line(options: object) -> None:
    # read as "no options" before, the check of its tile counts then scored it and raised a traceback
    data = json.dumps({"concealed": "123m 456p 789s CCC 55p", "options": options}).encode()
    with pytest.raises(case_open.CaseFileError, match=r"^c\.json: options must be an object, not "):
        case_open.open_case("c.json", data)


@pytest.mark.parametrize(
    "value", [10**400, float("nan"), float("inf")], ids=["int-too-large", "nan", "infinity"]
)
def test_a_saved_table_with_a_number_no_float_holds_opens_without_it(value: float) -> None:
    saved, _ = _photo_case({})
    saved["tiles"][0]["confidence"] = value
    saved["tiles"][1]["box"] = [0, 0, value, 14]
    opened = case_open.open_case("c.json", json.dumps(saved).encode())  # Python's JSON writes NaN, reads it
    assert opened.base.rows[0].confidence is None and opened.base.rows[1].box is None
    assert opened.base.rows[2].box is not None  # the rest of the table as saved


@pytest.mark.parametrize(
    ("field", "value"),
    [("melds", 7), ("concealed", 7), ("bonus", 1.5), ("meld tiles", 1.5)],
    ids=["melds-a-number", "concealed-a-number", "bonus-a-number", "meld-tiles-a-number"],
)
def test_a_saved_table_beside_a_field_that_is_no_list_gives_the_scoring_s_error(
    field: str, value: object
) -> None:
    saved, _ = _photo_case({})
    if field == "meld tiles":
        saved["melds"][0]["tiles"] = value
    else:
        saved[field] = value
    with pytest.raises(case_open.CaseFileError, match=r"^c\.json: "):
        case_open.open_case("c.json", json.dumps(saved).encode())


def test_the_pictures_show_every_tile_of_the_table_a_group_that_is_no_meld_too() -> None:
    rows = [
        *(TileRow(code, HAND) for code in ["9s", "9s", "1m", "2m", "3m"]),
        TileRow("9s", "meld 2"),  # moved there first, its meld not finished
        *(TileRow("C", "meld 1") for _ in range(3)),
        TileRow("F1", BONUS),
    ]
    build = hand_build.build_hand(rows, {})
    blocks = group_blocks(build.hand, build.meld_groups, rows)
    assert blocks == [
        ("hand", ["9s", "9s", "1m", "2m", "3m"], False),
        ("meld 1 pong", ["C", "C", "C"], False),
        ("meld 2: no meld yet", ["9s"], False),
        ("bonus", ["F1"], False),
    ]
    assert sum(len(codes) for _, codes, _ in blocks) == len(rows)


def test_a_group_label_never_runs_into_the_next_group_s() -> None:
    # an audit (the concealed-kong sample, #7 and #8 moved to the hand): under the lone 7p left in
    # meld 1, "meld 1: no meld yet" and "meld 2 pong" ran together as "meld 1: no meld yetmeld 2 pong"
    groups = [
        ("hand", ["1m"] * 10, False),
        ("meld 1: no meld yet", ["7p"], False),
        ("meld 2 pong", ["C"] * 3, False),
        ("meld 3 kong (concealed)", ["5s"] * 4, True),
        ("bonus", ["F1"], False),
    ]
    placed = place_blocks(groups, label_width)
    for block in placed:
        assert block.width >= label_width(block.label), block  # the label lies within its block
    lines: dict[int, list[PlacedBlock]] = {}
    for block in placed:
        lines.setdefault(block.y, []).append(block)
    for line in lines.values():
        for left, right in itertools.pairwise(line):
            assert left.x + left.width < right.x, (left, right)  # a gap between, label and all
    lone = next(block for block in placed if block.label.startswith("meld 1"))
    after = next(block for block in placed if block.label == "meld 2 pong")
    assert lone.y == after.y  # the case the audit saw: side by side on one line
    picture = hand_picture(groups)
    assert picture is not None and picture.width == 8 * 56


def test_a_reread_names_each_tile_it_laid_in_another_group() -> None:
    before = [
        TileRow("3p", HAND, box=(0.0, 0, 10, 10)),
        TileRow("face", HAND, box=(10.0, 0, 20, 10)),
        TileRow("5p", HAND, box=(20.0, 0, 30, 10)),
        TileRow("cat", BONUS, box=(40.0, 0, 50, 10)),
    ]
    after = [
        TileRow("3p", "meld 1", box=(0.0, 0, 10, 10)),
        TileRow("1p", "meld 1", box=(10.0, 0, 20, 10)),
        TileRow("cat", BONUS, box=(40.0, 0, 50, 10)),
        TileRow("5p", IGNORE, box=(20.0, 0, 30, 10)),
    ]
    moves = photo_rows.reread_regroups(before, after)
    assert moves == [(1, "3p", HAND, "meld 1"), (2, "1p", HAND, "meld 1"), (4, "5p", HAND, IGNORE)]
    assert photo_rows.regroup_words(moves) == (
        "#1 3p hand → meld 1, #2 1p hand → meld 1, #4 5p hand → ignore (not counted)"
    )
    assert photo_rows.reread_regroups(before, before) == []


def test_boxes_the_reader_left_out_are_dashed_in_grey_under_the_tiles() -> None:
    photo = np.full((400, 600, 3), 40, np.uint8)
    left_out = [(300.0, 100.0, 360.0, 180.0)]
    tile = [TileRow("1m", HAND, 0.9, (100, 100, 160, 180))]
    shown = np.asarray(annotate_photo(photo, tile, None, None, left_out))
    grey = np.all(shown[100, 300:361] == LEFT_OUT_COLOUR, axis=1)  # along its top edge
    assert 0.3 < grey.mean() < 0.8  # dashes, not a line
    assert np.all(shown[140, 320:340] == 40)  # inside the box: the photo as it was
    assert not np.any(np.all(np.asarray(annotate_photo(photo, tile)) == LEFT_OUT_COLOUR, axis=2))


def test_a_tile_added_by_its_face_keeps_the_tables_edits_and_kong_ticks() -> None:
    rows = (*(case.TileRow("5s", "meld 1") for _ in range(4)), case.TileRow("1m", HAND))
    base = case.Base(rows=rows, source="photo", meld_concealed={"meld 1": False})
    edits = {"edited_rows": {"4": {"tile": "2m"}}, "added_rows": [], "deleted_rows": []}
    added = table_edits.with_added_tile(base, edits, "F1", {"meld 1": True})
    assert [(r.code, r.group) for r in added.rows][-2:] == [("2m", HAND), ("F1", BONUS)]
    assert added.meld_concealed == {"meld 1": True}
    # the reading's ticks stay what a tick is a correction against (an audit, stage 77: the tick, now
    # the base's, was no correction any more)
    assert added.flags_as_read == {"meld 1": False}
    assert list(added.earlier) == [
        {"action": "change", "tile": 5, "from": "1m", "to": "2m"},
        {"action": "add", "tile": 6, "code": "F1", "group": BONUS},
    ]
    with pytest.raises(ValueError, match="not a tile code"):
        table_edits.with_added_tile(base, edits, "9z")


def test_a_kong_tick_stays_a_correction_when_a_tile_is_added_after_it() -> None:
    from app_ui.case_file import case_corrections
    from app_ui.hand_build import build_hand

    def saved(base: case.Base, ticks: dict[str, bool]) -> list[dict[str, object]]:
        """The case file's corrections with the page's ticks `ticks`, as app.py weighs them."""
        kongs = table_edits.kong_corrections(build_hand(list(base.rows), ticks), base.flags_as_read)
        return case_corrections(base, None, kongs)

    rows = (*(case.TileRow("N", "meld 1") for _ in range(4)), case.TileRow("1m", HAND))
    base = case.Base(rows=rows, source="photo", meld_concealed={"meld 1": True})
    added = table_edits.with_added_tile(base, None, "cat", {"meld 1": False})
    assert {"action": "kong", "group": "meld 1", "code": "N", "concealed": False} in saved(
        added, {"meld 1": False}
    )
    # ticked back as read on the page after the fold, or folded again so: no kong entry
    assert not any(c.get("action") == "kong" for c in saved(added, {"meld 1": True}))
    back = table_edits.with_added_tile(added, None, "rat", {"meld 1": True})
    assert not any(c.get("action") == "kong" for c in saved(back, {"meld 1": True}))
    # the kong a pong since (a fuzzing helper, stage 77: the tick's entry stayed beside a pong)
    pong = table_edits.fold_edits(added, {"edited_rows": {}, "added_rows": [], "deleted_rows": [0]})
    assert not any(c.get("action") == "kong" for c in saved(pong, {"meld 1": False})), saved(pong, {})


def test_app_warnings_point_to_the_dashed_boxes_not_to_pixels() -> None:
    # stage 71 (an audit): "left out 1 box(es) that hold no tile, at (445, 199)" told a user nothing
    from app_ui.reading import app_warnings
    from vision.lines import LAYOUT, Line, texts
    from vision.pipeline import _rejected_lines

    rejected = np.array([[10, 10, 60, 80], [300, 0, 340, 50], [100, 300, 150, 370]], np.float32)
    lines = _rejected_lines(rejected, image_hw=(400, 400))
    assert [line.split(", at (")[0] for line in texts(lines)] == [
        "left out 2 boxes that hold no tile",
        "left out 1 box at the photo's edge, too cut to read as a tile",
    ]
    assert app_warnings(tuple(lines)) == (
        "left out 2 boxes that hold no tile: dashed grey on the photo",
        "left out 1 box at the photo's edge, too cut to read as a tile: dashed grey on the photo",
    )
    other = "1 tile away from the hand and its melds (rat): not counted"
    assert app_warnings((Line(other, LAYOUT),)) == (other,)


def test_a_table_taller_than_its_cap_says_its_last_rows_lie_below() -> None:
    # stage 71 (an audit): with 18 tiles the rows the reader asked to check lay below the table's foot
    from app_ui.tile_editor import ROW_PX, TABLE_MAX_PX, rows_below_note

    fits = TABLE_MAX_PX // ROW_PX - 1  # the header and this many rows
    assert rows_below_note(fits) is None and rows_below_note(14) is None
    said = f"{fits + 1} tiles, more than the table's height shows: scroll inside it for the last ones."
    assert rows_below_note(fits + 1) == said


def test_a_self_draw_leaves_out_the_tiles_only_in_exposed_sets_as_the_scoring_does() -> None:
    # an audit (the high-score sample, self-drawn) was offered 6s, 7s and 8s of an exposed chow, and
    # 7s picked was "not a valid win": a self-drawn tile never completes a set claimed from a discard
    hand = {
        "concealed": ["2m", "2m", "2m", "3m", "4m", "7m", "7m", "7m", "9p", "9p", "7s"],
        "melds": [
            {"kind": "chow", "tiles": ["6s", "7s", "8s"], "concealed": False},
            {"kind": "pong", "tiles": ["C", "C", "C"], "concealed": True},  # a file may say so
        ],
    }
    drawn = hand_build.hand_tile_choices(hand, self_drawn=True)
    # 7s stays: the concealed tiles hold one; a meld marked concealed holds the tile as they do
    assert drawn == ["2m", "3m", "4m", "7m", "9p", "7s", "C"]
    assert hand_build.hand_tile_choices(hand) == ["2m", "3m", "4m", "7m", "9p", "6s", "7s", "8s", "C"]
    base = {**hand, "seat_wind": "E", "prevailing_wind": "E", "self_drawn": True}
    for tile in hand_build.hand_tile_choices(hand):
        refused = scoring.score_json({**base, "winning_tile": tile})["reason"] == "winning_tile_not_in_hand"
        assert refused == (tile not in drawn), tile  # the list and the scoring agree tile by tile


def test_a_winning_tile_chosen_on_a_discard_stays_offered_after_a_switch_to_self_drawn() -> None:
    hand = {"concealed": ["2m", "3m", "4m"], "melds": [{"kind": "chow", "tiles": ["6s", "7s", "8s"]}]}
    assert hand_build.winning_tile_choices(hand, True, [None, None]) == ["2m", "3m", "4m"]
    # the user's 7s stays in its place; a tile the hand does not hold at all is not brought in
    assert hand_build.winning_tile_choices(hand, True, ["7s", "9p"]) == ["2m", "3m", "4m", "7s"]
    assert hand_build.winning_tile_choices(hand, False, ["7s"]) == ["2m", "3m", "4m", "6s", "7s", "8s"]


def test_a_downloaded_case_is_named_after_its_hand_and_the_minute_in_safe_characters() -> None:
    when = datetime.datetime(2026, 1, 2, 3, 4)

    def named(source: dict[str, Any] | None) -> str:
        return case_file.download_name({"source": source}, when)

    assert (
        named({"kind": "photo", "name": "IMG 1234 (2).HEIC"}) == "mahjong-case-IMG-1234-2-20260102-0304.json"
    )
    assert named({"kind": "typed", "name": "typed hand"}) == "mahjong-case-typed-20260102-0304.json"
    assert named({"kind": "photo", "name": "東.jpg"}) == "mahjong-case-photo-20260102-0304.json"
    assert named({"kind": "case", "name": "../a b/hand.json"}) == "mahjong-case-hand-20260102-0304.json"
    # a case opened again is named after where its hand first came from, not "mahjong-case-mahjong-case-"
    opened = {"kind": "photo", "name": "IMG_1.jpg"}
    again = {"kind": "case", "name": "mahjong-case-IMG_1-20250101-1200.json", "opened_from": opened}
    assert (
        named({"kind": "case", "name": "x.json", "opened_from": again})
        == "mahjong-case-IMG_1-20260102-0304.json"
    )
    assert named({**again, "opened_from": None}) == "mahjong-case-IMG_1-20260102-0304.json"
    # a browser's copy of one (" (1)"), and the bare name every download had before: no name twice
    copy = {"kind": "case", "name": "mahjong-case-IMG_1-20260101-1200 (1).json"}
    assert named(copy) == "mahjong-case-IMG_1-20260102-0304.json"
    assert named({"kind": "case", "name": "mahjong-case.json"}) == "mahjong-case-hand-20260102-0304.json"
    assert named({"kind": "case", "name": "mahjong-case (2).json"}) == "mahjong-case-hand-20260102-0304.json"
    # a name that only begins so is the user's own
    assert (
        named({"kind": "case", "name": "mahjong-cases.json"})
        == "mahjong-case-mahjong-cases-20260102-0304.json"
    )
    assert named(None) == "mahjong-case-hand-20260102-0304.json"


def test_a_case_keeps_its_download_time_while_its_bytes_stay_the_same() -> None:
    first, later = datetime.datetime(2026, 1, 2, 3, 4), datetime.datetime(2026, 1, 2, 3, 9)
    kept = result_panel.stamp_for("abc", None, first)
    assert result_panel.stamp_for("abc", kept, later) == ("abc", first)  # a rerun of the same case
    assert result_panel.stamp_for("def", kept, later) == ("def", later)  # the case changed


def test_a_chow_is_drawn_in_rank_order_not_as_the_photo_lays_it() -> None:
    # an audit: the high-score sample's meld 1 was drawn 8s 7s 6s while the summary said [678s]
    rows = [
        *(TileRow(code, HAND) for code in ["2m", "3m", "4m", "9p", "9p"]),
        *(TileRow(code, "meld 1") for code in ["8s", "7s", "6s"]),
        *(TileRow(code, "meld 2") for code in ["C", "C", "C"]),
    ]
    build = hand_build.build_hand(rows, {})
    blocks = group_blocks(build.hand, build.meld_groups, rows)
    assert blocks[1] == ("meld 1 chow", ["6s", "7s", "8s"], False)
    assert blocks[0][1] == ["2m", "3m", "4m", "9p", "9p"]  # the concealed tiles as they lie
    assert build.hand["melds"][0]["tiles"] == ["8s", "7s", "6s"]  # the hand scored is left as laid
    # a fly stands in the gap it fills, else after the tiles it joins
    assert art.chow_in_order(["7p", "fly", "5p"]) == ["5p", "fly", "7p"]
    assert art.chow_in_order(["6p", "fly", "5p"]) == ["5p", "6p", "fly"]


def test_a_face_down_kong_without_a_flag_is_no_correction_however_often_it_is_folded() -> None:
    # a review (stage 77): a kong laid face down in a group the base had no flag for was written "set
    # concealed" on every fold, as a missing flag was read as exposed where the hand reads it concealed
    from app_ui.case_file import case_corrections
    from app_ui.hand_build import build_hand

    rows = (
        *(case.TileRow(code, "meld 1") for code in ("back", "5s", "5s", "back")),
        case.TileRow("1m", HAND),
    )
    base = case.Base(rows=rows, source="photo", meld_concealed={})
    assert table_edits.kong_corrections(build_hand(list(rows), {}), {}) == []
    edits = {"edited_rows": {"4": {"tile": "2m"}}, "added_rows": [], "deleted_rows": []}
    twice = table_edits.fold_edits(table_edits.fold_edits(base, edits), edits)
    assert not any(c.get("action") == "kong" for c in twice.earlier), twice.earlier
    assert not any(c.get("action") == "kong" for c in case_corrections(twice, None, ())), twice.earlier


def test_a_case_file_naming_a_key_twice_is_refused_as_the_scoring_refuses_it() -> None:
    # which of two "concealed" a case means cannot be told: the app had opened the last one, unsaid
    data = b'{"concealed": "123m 456p 789s CCC 55p", "seat_wind": "S", "seat_wind": "W"}'
    with pytest.raises(case_open.CaseFileError, match=r'case\.json gives the key "seat_wind" twice'):
        case_open.open_case("case.json", data)


def test_the_page_names_the_tiles_away_from_the_hand_and_a_second_hand_by_their_numbers(
    tmp_path: Path,
) -> None:
    # the page said "13 tile(s) away from the hand and its melds (back x2, N x2, ...)", and the user hunted
    # for them in a table of 27 rows; the reader's own words (python -m vision) still count them
    import time

    from app_ui.reading import photo_read
    from tests.vision.scenes import detector_rows, scene
    from tests.vision.seen_sim import plain, table_read_surely
    from tests.vision.tinymodels import write_models
    from vision.lines import number_spans
    from vision.pipeline import TileReader

    reader = TileReader.load(write_models(tmp_path, detector_rows(scene(600, 1000), (384, 640))))
    # the other hand lies above the one read: its tiles come first by index, last by number
    other, hand = "1p 2p 3p back back 4s 5s 6s 7m 8m 9m N N", "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E W W"
    reading = reader.settle(table_read_surely([[other], [hand]], row_gap=4))
    read = photo_read(reading, time.perf_counter())
    numbers = case.row_numbers(read.rows)
    away = [n for n, row in zip(numbers, read.rows, strict=True) if row.group == IGNORE]
    face_up = [
        n for n, row in zip(numbers, read.rows, strict=True) if row.group == IGNORE and row.code != "back"
    ]
    assert sorted(row.code for row in read.rows if row.group == IGNORE) == sorted(other.split())
    assert plain(number_spans(face_up)) == "15–17, 20–27"  # the backs are not another hand's
    named = "(back x2, N x2, 1p, 2p, 3p, 4s, ...)"
    assert reading.warnings == (
        f"13 tiles away from the hand and its melds {named}: not counted",
        "the photo seems to hold more than one hand (11 face-up tiles away from the one read): take each "
        "hand in a photo of its own",
    )
    # the numbers name the tiles, and the table beside shows their faces: no list of faces on the page
    assert read.warnings == (
        f"the photo seems to hold another hand (tiles {number_spans(face_up)}): take each hand in a photo of "
        "its own",
        f"tiles {number_spans(away)} lie away from the hand and its melds: not counted",
    )


def test_a_case_typed_as_in_the_app_opens_as_python_m_scoring_reads_it() -> None:
    # `python -m scoring` reads a file's tiles and winds as the app's typed field reads them; *Open a
    # case* refused the same file ("unknown tile code '123M'", "seat wind must be E, S, W or N")
    typed = {
        "concealed": "123M 456p 789s 紅中紅中紅中 55p",
        "seat_wind": "south",
        "prevailing_wind": "西",
        "discarder_wind": "e",
    }
    as_codes = {
        "concealed": "123m 456p 789s CCC 55p",
        "seat_wind": "S",
        "prevailing_wind": "W",
        "discarder_wind": "E",
    }
    opened = case_open.open_case("typed.json", json.dumps(typed).encode("utf-8"))
    coded = case_open.open_case("codes.json", json.dumps(as_codes).encode("utf-8"))
    assert [row.code for row in opened.base.rows] == [row.code for row in coded.base.rows]
    assert (opened.context.seat_wind, opened.context.prevailing_wind) == ("S", "W")
    assert opened.context == coded.context


def test_app_warnings_say_the_tiles_they_name_are_marked_on_the_photo_above_them() -> None:
    # a walkthrough: "They are marked ? below" sent a phone's user down past the tile pictures, which
    # mark nothing; the lines stand under the photo, which marks them
    from app_ui.reading import app_warnings

    (moved,) = app_warnings((), moved=[("6p", "9p")])
    assert moved.endswith("6p (not 9p). They are marked ? on the photo."), moved
    (won,) = app_warnings((), won=[("5s", "5p")])
    assert won.endswith("5s (not 5p). Check them: they are marked ? on the photo."), won
