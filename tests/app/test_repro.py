"""Every number reproducible: the case the page offers, replayed by `python -m scoring` and opened in
the app again, gives the tai, patterns and payouts the page showed."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import random
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import scoring
from app_ui.summary import amount_text, instant_line, player_label, seat_label
from scoring import __main__ as cli
from scoring.payout import format_amount
from tests.app.conftest import APP

# the fields `python -m scoring` scores (the case's record of its photo and corrections aside)
SCORING_FIELDS = (
    "rules",
    "options",
    "concealed",
    "melds",
    "bonus",
    "self_drawn",
    "seat_wind",
    "prevailing_wind",
    "circumstances",
    "pay_all",
    "winning_tile",
    "discarder_wind",
    "bonus_from_deal",
)


def fresh() -> AppTest:
    return AppTest.from_file(str(APP), default_timeout=60).run()


def typed(at: AppTest, concealed: str, melds: str = "", kongs: str = "", bonus: str = "") -> AppTest:
    for key, value in (
        ("typed_concealed", concealed),
        ("typed_melds", melds),
        ("typed_kongs", kongs),
        ("typed_bonus", bonus),
    ):
        at.text_input(key=key).set_value(value)
    return at.button(key="typed_use").click().run()


def opened(case: dict[str, Any]) -> AppTest:
    """The case opened in a new session, as a user opens a file downloaded earlier."""
    at = fresh()
    data = json.dumps(case, indent=2, ensure_ascii=False).encode()
    at.file_uploader(key="case_upload").upload("mahjong-case.json", data, "application/json")
    return at.run()


def replayed(case: dict[str, Any], tmp_path: Path) -> tuple[int, dict[str, Any] | None]:
    """`python -m scoring CASE.json --json` (in process): its exit status and its output."""
    path = tmp_path / "mahjong-case.json"
    path.write_text(json.dumps(case, indent=2, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = cli.main([str(path), "--json"])
    return status, (json.loads(out.getvalue()) if out.getvalue().strip() else None)


def scored(case: dict[str, Any]) -> dict[str, Any]:
    """The scoring fields as the file has them (JSON: a payout table's pairs are lists)."""
    out = json.loads(json.dumps({key: case.get(key) for key in SCORING_FIELDS}))
    out["circumstances"] = sorted(out["circumstances"] or [])  # the order they were ticked in is no fact
    return out


def test_a_case_with_an_unfinished_meld_and_bonus_tiles_held_from_the_deal_opens_again(
    tmp_path: Path,
) -> None:
    # the file opened with an empty bonus row while it still named the tiles held from the deal: the
    # scoring refused them ("bonus_from_deal lists F1, which is not in the bonus row") and the app's
    # own download did not open
    at = typed(fresh(), "123m 456p 22m", melds="CCC 789s", bonus="F1 cat")
    at.multiselect(key="bonus_from_deal").set_value(["F1", "cat"]).run()
    rows = len(at.session_state["base"].rows)
    last_of_789s = 12  # 123m 456p 22m are rows 0-7, CCC 8-10, 789s 11-13
    assert rows == 16 and at.session_state["base"].rows[last_of_789s].code == "8s"
    at.session_state[f"tiles_{at.session_state['version']}"] = {
        "edited_rows": {},
        "added_rows": [],
        "deleted_rows": [last_of_789s],
    }
    at.run()
    case = at.session_state["case_json"]
    assert case["result"] is None and case["bonus_from_deal"] == ["F1", "cat"]
    assert replayed(case, tmp_path)[0] == 2  # refused, as the page scored nothing
    again = opened(case)
    assert not again.exception and not [e.value for e in again.error]
    assert scored(again.session_state["case_json"]) == scored(case)
    # and once the meld is whole again, the tiles held from the deal still count
    assert again.multiselect(key="bonus_from_deal").value == ["F1", "cat"]


# --------------------------------------------------------------------------- app == CLI == reopened

# hands that win, lose, cap or pay instantly under each rule set: (concealed, melds, concealed kongs, bonus)
HANDS = {
    "singapore": [
        ("123m 456p 789s 22m", "CCC", "", "F1 cat"),
        ("123m 456p 22m", "CCC FFF", "", "S2"),
        ("111m 222m 333m EE", "555m", "", "F1 F2 F3 F4 rat"),
        ("1m 9m 1p 9p 1s 9s E S W N C F P P", "", "", ""),
        ("234s 666s 888s FF", "234s", "", ""),
        ("123m 456m 789p 234s 55s", "", "", "cat rat"),
        ("123m 456p 22m", "789s", "5555s", "F3 S3 rooster centipede"),
        ("1m 3m 5m 7p 9p 2s 4s 6s E S W N C F", "", "", "F1"),
    ],
    "malaysian": [
        ("111p 222p 333p 99p", "555p", "", "F1"),
        ("fly 2p3p 456p 789p EE", "CCC", "", "face"),
        ("123p 456p 99p", "CCfly 7p8pfly", "", "fly F4"),
        ("EEE SSS WWW 11p", "NNN", "", ""),
        ("123p 456p 789p 99p", "EEE", "", "face face S1"),
        ("123p 234p 789p 99p", "", "5555p", "F2"),
    ],
}
SEATS = {"singapore": "ESWN", "malaysian": "ESW"}


def house_rules(rng: random.Random, rules: str) -> dict[str, Any]:
    """Sidebar options to set: fractional units, every payout scheme and table, caps and minimums."""
    if rules == "malaysian":
        return {
            "min_tai": rng.choice([0, 1, 5]),
            "max_tai": rng.choice([5, 8, 10]),
            "points_per_fan": rng.choice([1, 15, 20]),
            "malaysian_payment": rng.choice(["seed", "discarder_and_other"]),
        }
    scheme = rng.choice(["standard", "shooter_pays", "table"])
    options: dict[str, Any] = {
        "unit": rng.choice([1.0, 0.3, 0.125, 0.5, 2.0]),
        "payout_scheme": scheme,
        "min_tai": rng.choice([0, 1, 2]) if scheme != "table" else 1,
        "max_tai": rng.choice([3, 5, 10]),
        "instant_payouts": rng.random() < 0.8,
        "self_draw_tai": rng.random() < 0.3,
    }
    if scheme == "table":
        options["payout_table"] = rng.choice(["0.3/0.1, 1.25, 2.5/1", "4/2, 7/3, 11/5, 20/10, 40/20"])
    return options


def set_house_rules(at: AppTest, rules: str, options: dict[str, Any]) -> None:
    for name, value in options.items():
        key = f"opt_{rules}_{name}"
        if name == "payout_table":
            at.run()  # its box takes text once the table scheme is chosen
            at.text_input(key=key).set_value(value)
        elif isinstance(value, bool):
            at.checkbox(key=key).set_value(value)
        elif isinstance(value, str):
            at.selectbox(key=key).set_value(value)
        else:
            at.number_input(key=key).set_value(value)


PATTERN_LINE = re.compile(r"^- \*\*.+\*\* .* · \*\*-?\d+\*\* \S+ — ")


def page(at: AppTest) -> dict[str, Any]:
    """What the result section shows: the tai line, each pattern line, each player's amount, the
    instant payouts."""
    markdown = [m.value for m in at.markdown]
    instant = [
        text for before, text in itertools.pairwise(markdown) if before.startswith("**Instant payouts**")
    ]
    payouts = [t.value for t in at.table if "Amount" in list(t.value.columns)]
    return {
        "tai": [s.value for s in at.success],
        "patterns": [line for text in markdown for line in text.split("\n") if PATTERN_LINE.match(line)],
        "payout": [tuple(row) for row in payouts[-1].reset_index().itertuples(index=False)]
        if payouts
        else [],
        "instant": instant[-1].split("\n") if instant else [],
    }


def as_shown(result: dict[str, Any] | None, cap: int) -> dict[str, Any]:
    """What the page shows for a scoring output, in the page's own words, under a cap of `cap`."""
    if result is None:
        return {"tai": [], "patterns": [], "payout": [], "instant": []}
    unit = result["unit"]
    valid = bool(result["valid"])
    points = f" = **{format_amount(result['points'])} points**" if result.get("points") is not None else ""
    tai = (
        f"**{result['tai']} {unit}**"
        + (f" (raw {result['raw_tai']}, capped)" if result["raw_tai"] != result["tai"] else "")
        + points
        # a limit-type hand set below the cap (Malaysian) is no hand at the limit
        + ((" — limit hand" if result["tai"] < cap else " — at the limit") if result.get("limit") else "")
    )
    players = result["payout"]["players"] if valid else []
    return {
        "tai": [tai] if valid else [],
        "patterns": [
            f"- **{p['name']}** {p['name_zh']} · **{p['tai']}** {unit} — {p['reason']}"
            for p in result["patterns"]
        ],
        "payout": [_payout_row(p, result["payout"]["instant_payouts"]) for p in players],
        "instant": [f"- {instant_line(item)}" for item in result["payout"]["instant_payouts"]],
    }


def _payout_row(player: dict[str, Any], instant: list[dict[str, Any]]) -> tuple[str, ...]:
    """A payout table row; with instant payouts, the player's net beside the amount: the winner
    receives each payout's total, every other player pays its share."""
    row = (player_label(player), seat_label(player), amount_text(player["amount"]))
    if not instant:
        return row
    key = "total" if player["role"] == "winner" else "from_each"
    moved = sum((Decimal(str(item[key])) for item in instant), Decimal(0))
    net = Decimal(str(player["amount"])) + (moved if player["role"] == "winner" else -moved)
    return (*row, amount_text(net))


def won_as(at: AppTest, rng: random.Random, rules: str) -> None:
    """Seat, prevailing wind, discard or self-draw, winning tile, a circumstance, pay-all, discarder,
    bonus tiles held from the deal: each set as a user sets it."""
    seat = rng.choice(SEATS[rules])
    at.selectbox(key="seat_wind").set_value(seat)
    at.selectbox(key="prevailing_wind").set_value(rng.choice("ESWN"))
    at.radio(key="won_by").set_value(rng.choice(["discard", "self-drawn"]))
    if rng.random() < 0.6:
        at.selectbox(key="winning_tile").set_value(rng.choice(at.selectbox(key="winning_tile").options))
    if rng.random() < 0.15:  # most hands are won in no special circumstance (and some exclude others)
        # among those the box offers, as a user picks one (a kong's replacement tile only with a kong)
        box = at.multiselect(key="circumstances")
        offered = [key for key in scoring.circumstances_for(rules) if box.format_func(key) in box.options]
        box.set_value([rng.choice(offered)])
    if rng.random() < 0.2:
        at.checkbox(key="pay_all").check()
    at.run()
    if any(box.key == "discarder_wind" for box in at.selectbox) and rng.random() < 0.7:
        at.selectbox(key="discarder_wind").set_value(rng.choice([s for s in SEATS[rules] if s != seat]))
    held = [box for box in at.multiselect if box.key == "bonus_from_deal"]
    if held and rng.random() < 0.5:
        held[0].set_value(rng.sample(list(held[0].options), 1))
    at.run()


def corrected(at: AppTest, rng: random.Random, rules: str) -> None:
    """A correction in the tile table: a tile changed, added or deleted, or a kong ticked otherwise."""
    what = rng.choice(["none", "none", "none", "change", "add", "delete", "kong"])
    rows = len(at.session_state["base"].rows)
    suit = "p" if rules == "malaysian" else rng.choice("mps")
    edits: dict[str, Any] = {"edited_rows": {}, "added_rows": [], "deleted_rows": []}
    if what == "change":
        edits["edited_rows"] = {str(rng.randrange(rows)): {"tile": f"{rng.randint(1, 9)}{suit}"}}
    elif what == "add":
        edits["added_rows"] = [{"tile": rng.choice(["cat", "F2", "C"])}]
    elif what == "delete":
        edits["deleted_rows"] = [rng.randrange(rows)]
    kongs = [box for box in at.checkbox if str(box.key).startswith("concealed_")]
    if what == "kong" and kongs:
        kongs[0].set_value(not kongs[0].value).run()
    elif what in ("change", "add", "delete"):
        at.session_state[f"tiles_{at.session_state['version']}"] = edits
        at.run()


@pytest.mark.parametrize("seed", range(20))
def test_the_page_the_cli_and_the_case_reopened_give_the_same_numbers(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    rules = "malaysian" if seed % 3 == 2 else "singapore"
    at = fresh()
    if rules != "singapore":
        at.selectbox(key="rules").set_value(rules).run()
    set_house_rules(at, rules, house_rules(rng, rules))
    concealed, melds, kongs, bonus = rng.choice(HANDS[rules])
    typed(at, concealed, melds, kongs, bonus)
    won_as(at, rng, rules)
    corrected(at, rng, rules)
    assert not at.exception
    case = at.session_state["case_json"]
    shown = page(at)
    cap = case["options"]["max_tai"]
    assert shown == as_shown(case["result"], cap)  # the case records the result the page showed
    status, replay = replayed(case, tmp_path)
    if case["result"] is None:  # nothing scored (a meld left unfinished): refused there too
        assert status == 2
    else:
        assert replay is not None and status == (0 if replay["valid"] else 1)
        assert as_shown(replay, cap) == shown
        for key in ("valid", "tai", "raw_tai", "points", "patterns", "payout"):
            assert replay[key] == case["result"][key], key
    again = opened(case)
    assert not again.exception and "case_json" in again.session_state
    assert scored(again.session_state["case_json"]) == scored(case)
    assert page(again) == shown
