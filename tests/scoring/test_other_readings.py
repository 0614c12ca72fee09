"""A hand that reads more than one way names the best other readings and what they score
(`other_readings`), so a table asking "why not read it as pongs?" is answered on every surface; and a
sequence hand says the wait it passed on (an audit of the explanations, stage 81)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app_ui.summary import summary_text
from scoring import parse_hand_string, score_json
from scoring.api import other_reading_lines
from scoring.engine import OTHER_READINGS
from tests.scoring.strategies import hand_json
from tests.scoring.test_winning_tile_into import MALAYSIAN_BOMB

ROOT = Path(__file__).resolve().parents[2]

# 111m 222m 333m read as pongs or as three 123m chows: full flush either way; as chows the sequence
# hand fails on the single wait for 7m
FLUSH_TIE = {
    "concealed": "111m 222m 333m 77m",
    "melds": [{"kind": "chow", "tiles": "789m"}],
    "winning_tile": "7m",
}


def _cli(data: dict[str, Any]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "-"],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    return done.stdout


def test_a_tie_names_the_other_reading_and_why_its_sequence_hand_failed() -> None:
    result = score_json(dict(FLUSH_TIE))
    assert (result["arrangement"], result["tai"]) == ("111m 222m 333m [789m] 77m", 4)  # found first
    [other] = result["other_readings"]
    assert (other["arrangement"], other["tai"]) == ("123m 123m 123m [789m] 77m", 4)
    [line] = other_reading_lines(result)
    assert "a tie: either reading scores the same" in line
    assert "sequence hand not awarded: won on 7m from a discard" in line
    assert line in _cli(FLUSH_TIE).splitlines()


def test_a_lower_reading_is_named_with_its_rows() -> None:
    # self-drawn: as chows a sequence hand (4) and fully concealed (1); as pongs only the 1
    result = score_json({"concealed": "111m 222m 333m 456p 77s", "winning_tile": "3m", "self_drawn": True})
    assert (result["arrangement"], result["tai"]) == ("123m 123m 123m 456p 77s", 5)
    assert other_reading_lines(result) == [
        "Also read as 111m 222m 333m 456p 77s: 1 tai (Fully concealed, self-drawn 1), lower than the reading "
        "counted"
    ]


def test_a_malaysian_seven_pairs_names_the_chows_it_beat() -> None:
    data = {
        "rules": "malaysian",
        "concealed": "22p 33p 44p EE 55p 66p 77p",
        "winning_tile": "7p",
        "bonus": ["face"],
    }
    result = score_json(data)
    assert result["tai"] == 6
    lines = other_reading_lines(result)
    assert lines[0].startswith("Also read as 234p 234p 567p 567p EE: 4 fan (")
    summary = summary_text(
        {
            **data,
            "concealed": parse_hand_string(str(data["concealed"])),
            "melds": [],
            "seat_wind": "E",
            "prevailing_wind": "E",
            "self_drawn": False,
        },
        result,
    )
    assert f"  {lines[0]}" in summary.splitlines()


def test_a_hand_below_the_minimum_names_its_other_reading_too() -> None:
    # a chicken hand: why is it no sequence hand? the chow reading says (the single wait on 3m)
    result = score_json({"concealed": "111m 222m 333m 456p 77s", "winning_tile": "3m"})
    assert result["reason"] == "below_minimum"
    [line] = other_reading_lines(result)
    assert line.startswith("Also read as 123m 123m 123m 456p 77s: 0 tai, no win either; ")
    assert "sequence hand not awarded: won on 3m" in line


def test_tied_limit_readings_quote_the_most_the_other_rows_give() -> None:
    # a heavenly hand (5 fan, not added): as chows the rest gives full flush and ping hu, doubled, 10
    # at the cap; as pongs less. The note had quoted whichever reading was found first (6)
    data = {
        "rules": "malaysian",
        "concealed": "111p 222p 333p 456p 99p",
        "self_drawn": True,
        "winning_tile": "9p",
        "circumstances": ["heavenly"],
    }
    result = score_json(data)
    assert result["tai"] == 5
    assert [w for w in result["warnings"] if "not added" in w] == [
        "the fan is set to 5 by heavenly hand, not added to the rest (RULES.md): "
        "the hand's other patterns alone would give 10 fan"
    ]
    # the reading counted is the one whose other rows give most: the chows
    assert result["arrangement"] == "123p 123p 123p 456p 99p"


def test_a_sequence_hand_says_the_wait_and_the_meld_the_winning_tile_completed() -> None:
    # 4m counted into the pair is a single wait (no sequence hand); completing the exposed 23m it was
    # a wait on 1m or 4m
    data = {
        "concealed": "456p 789s 234s 44m",
        "melds": [{"kind": "chow", "tiles": "234m"}],
        "winning_tile": "4m",
    }
    [row] = [p for p in score_json(data)["patterns"] if p["key"] == "sequence_hand"]
    assert row["reason"].endswith(
        "fair wait: waited on 1m or 4m, won on 4m (a discard), completing the chow 234m"
    )
    self_drawn = {"concealed": "123m 456p 789s 234s 77m", "winning_tile": "7m", "self_drawn": True}
    [row] = [p for p in score_json(self_drawn)["patterns"] if p["key"] == "sequence_hand"]
    assert row["reason"].endswith("a closed, edge or single wait on 7m, which counts when self-drawn")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=st.sampled_from(["singapore", "malaysian"]))
def test_other_readings_are_distinct_and_score_no_more_than_the_one_counted(
    data: st.DataObject, rules: str
) -> None:
    result = score_json(data.draw(hand_json(rules)))
    others = result["other_readings"]
    assert len(others) <= OTHER_READINGS
    laid_out = [result["arrangement"], *(other["arrangement"] for other in others)]
    assert len(set(laid_out)) == len(laid_out)
    assert all(other["tai"] <= result["tai"] for other in others)
    assert [other["tai"] for other in others] == sorted((other["tai"] for other in others), reverse=True)
    if not result["valid"] and result["reason"] != "below_minimum":
        assert others == []


def test_of_many_other_readings_only_the_best_two_are_named() -> None:
    # three flies read six more ways that score otherwise (6, 6, 5, 4, 4 and 2 fan): the two best are named
    result = score_json({"rules": "malaysian", "concealed": "fly fly fly 123p 456p 789p 11p"})
    assert (result["arrangement"], result["tai"]) == ("123p 456p 789p 789p(fly=7p/8p/9p) 11p", 10)
    assert [(other["arrangement"], other["tai"]) for other in result["other_readings"]] == [
        ("111p 345p 678p 789p(fly=7p/8p) 22p(fly=2p)", 6),
        ("123p 456p 789p EEE(fly=E/E/E) 11p", 6),
    ]


def test_a_reading_scored_row_for_row_as_one_shown_gives_its_place_to_another() -> None:
    # 22p-88p: several chow layouts score alike (full flush 3 + ping hu 4, doubled: 14), beaten by the seven
    # pairs (all dots 5 + full flush 3, doubled: 16); the chow layouts, alike row for row, are named once
    data = {"rules": "malaysian", "concealed": "22p 33p 44p 55p 66p 77p 88p", "winning_tile": "8p"}
    result = score_json(data)
    read = (result["arrangement"], result["tai"], result["raw_tai"])
    assert read == ("22p 33p 44p 55p 66p 77p 88p", 10, 16)
    assert [(other["arrangement"], other["raw_tai"]) for other in result["other_readings"]] == [
        ("345p 345p 678p 678p 22p", 14)
    ]


def test_a_full_flush_sequence_hand_says_its_wait_too() -> None:
    result = score_json({"concealed": "123m 234m 456m 789m 55m", "winning_tile": "4m"})
    [row] = [p for p in result["patterns"] if p["key"] == "full_flush_sequence"]
    assert row["reason"].startswith(
        "full flush sequence hand: four chows and a plain pair, no bonus tiles, fair"
    )


def test_a_wait_on_a_tile_all_four_of_which_are_held_is_said_to_be_none() -> None:
    # 45m waits on 3m or 6m, but the two exposed 678m chows and the 66m pair hold all four 6m
    data = {
        "concealed": "345m 66m 789p",
        "melds": [{"kind": "chow", "tiles": "678m"}, {"kind": "chow", "tiles": "678m"}],
        "winning_tile": "3m",
    }
    notes = [w for w in score_json(data)["warnings"] if w.startswith("sequence hand not awarded")]
    assert notes == [
        "sequence hand not awarded: won on 3m from a discard with a closed, edge or single wait (only one "
        "tile completed it as four chows and a pair; 6m would have too, but the hand holds all four)"
    ]


def test_where_the_winning_discard_went_is_said_of_a_reading_that_puts_it_elsewhere() -> None:
    # the bomb stands on 2p completing the exposed 234p (the hand concealed until the win); had the chow
    # been claimed before, 2p went into the pair, and the hand is no win (an audit, stage 81)
    result = score_json(MALAYSIAN_BOMB)
    assert result["tai"] == 8 and any(p["key"] == "bomb" for p in result["patterns"])
    assert other_reading_lines(result) == [
        "Also read as 111p 456p 789p [234p] 22p, the winning 2p in the hand (every meld claimed before it): "
        "4 fan (Animal 1, Full flush 3), no win: below the minimum"
    ]


def test_of_fly_readings_alike_the_flies_stand_with_the_highest_tiles() -> None:
    # 78p and a fly, laid as 789p, had read as 345p(fly=3p) 678p (two audits, stage 81)
    data = {"rules": "malaysian", "concealed": "123p 456p 78p fly EEE SS", "bonus": ["face", "face"]}
    assert score_json({**data, "winning_tile": "S"})["arrangement"] == "123p 456p 789p(fly=9p) EEE SS"
    # a pong is not split for a fly standing beside an honour (a review: SSS(fly=S) and 11p had won the tie)
    pongs = {"rules": "malaysian", "concealed": "111p 555p 23p fly EEE SS", "bonus": ["face", "face"]}
    assert score_json({**pongs, "winning_tile": "S"})["arrangement"] == "111p 234p(fly=4p) 555p EEE SS"
