"""Fuzzing of the hand-string and JSON parsers (issue 7): any input gives a result or a
`MalformedHandError`, never another exception. Inputs that once crashed are kept below as a corpus."""

from __future__ import annotations

import contextlib
import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import MalformedHandError, parse_hand_string, score_json
from scoring.__main__ import main
from scoring.hand import CIRCUMSTANCES, INPUT_FIELDS

# Every input field, plus meld and option keys, so nested objects get fuzzed too.
KEYS = [
    *sorted(INPUT_FIELDS),
    "kind",
    "tiles",
    "tiles",
    "max_tai",
    "unit",
    "payout_table",
    "payout_scheme",
    "min_tai",
]
TOKENS = st.sampled_from(
    [
        "1m",
        "9p",
        "5s",
        "E",
        "N",
        "C",
        "F",
        "P",
        "F1",
        "S4",
        "cat",
        "fly",
        "face",
        "back",
        "123m",
        "55p",
        "CCC",
        "",
        "0m",
        "1111m",
        "fly fly",
        "x",
    ]
)
ATOMS = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10**6), st.floats(allow_nan=True), TOKENS, st.text(max_size=8)
)
JSON = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)
    ),
    max_leaves=20,
)
MELD = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["chow", "pong", "kong", "eye"]),
        "tiles": st.one_of(TOKENS, st.lists(TOKENS, max_size=5)),
    },
    optional={"concealed": ATOMS},
)
HAND_TILES = ["1p", "2p", "3p", "5p", "9p", "1m", "E", "N", "C", "fly"]
HANDS = st.fixed_dictionaries(
    {
        "concealed": st.one_of(
            st.lists(st.sampled_from(HAND_TILES), max_size=15),
            st.text(alphabet="1239mpsENCF fly", max_size=20),
        )
    },
    optional={
        "rules": st.sampled_from(["singapore", "malaysian", "x"]),
        "options": st.dictionaries(
            st.sampled_from(
                ["max_tai", "min_tai", "unit", "payout_scheme", "payout_table", "self_draw_tai", "bogus"]
            ),
            JSON,
            max_size=3,
        ),
        "melds": st.lists(MELD, max_size=5),
        "bonus": st.lists(TOKENS, max_size=9),
        "winning_tile": ATOMS,
        "self_drawn": ATOMS,
        "seat_wind": ATOMS,
        "pay_all": ATOMS,
        "circumstances": st.one_of(
            ATOMS,
            st.lists(
                st.sampled_from([*CIRCUMSTANCES, "x"]),
                max_size=3,
            ),
        ),
    },
)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def _score_or_malformed(data: Any) -> None:
    try:
        result = score_json(data)
    except MalformedHandError as error:
        assert "\n" not in str(error)
        return
    assert isinstance(result["valid"], bool)
    json.dumps(result, allow_nan=False)  # the output is plain JSON: no NaN or infinity


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_parse_hand_string_never_crashes(text: str) -> None:
    try:
        tiles = parse_hand_string(text)
    except MalformedHandError:
        return
    assert all(isinstance(tile, str) for tile in tiles)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789mpsESWNCFPflyacertod ,", max_size=40))
def test_parse_hand_string_near_misses(text: str) -> None:
    with contextlib.suppress(MalformedHandError):
        parse_hand_string(text)


@FUZZ
@given(JSON)
def test_score_json_any_json_value(data: Any) -> None:
    _score_or_malformed(data)


@FUZZ
@given(HANDS)
def test_score_json_hand_like_objects(data: dict[str, Any]) -> None:
    _score_or_malformed(data)


# Inputs that crashed (a non-`MalformedHandError` exception, or a non-finite payout) before they were fixed.
CRASHERS = [
    pytest.param({"concealed": "123m 456p 789s CCC 55p", "options": {"max_tai": math.inf}}, id="max-tai-inf"),
    pytest.param({"concealed": "123m 456p 789s CCC 55p", "options": {"max_tai": math.nan}}, id="max-tai-nan"),
    pytest.param({"concealed": "123m 456p 789s CCC 55p", "options": {"unit": math.nan}}, id="unit-nan"),
    pytest.param({"concealed": "123m 456p 789s CCC 55p", "options": {"unit": 1e308}}, id="unit-overflow"),
    pytest.param(
        {
            "concealed": "123m 456p 789s CCC 55p",
            "options": {"payout_scheme": "table", "payout_table": [math.inf]},
        },
        id="table-inf",
    ),
    pytest.param({"concealed": "123m 456p 789s CCC 55p", "melds": {}}, id="melds-empty-object"),
    pytest.param({"concealed": "123m 456p 789s CCC 55p", "options": []}, id="options-empty-list"),
    pytest.param(
        {"concealed": "19m 19p 19s ESWNCFP 1m", "melds": [{"kind": "pong", "tiles": "EEE"}]},
        id="thirteen-wonders-with-meld",
    ),
    pytest.param({"concealed": ["fly"] * 14, "rules": "malaysian"}, id="fourteen-flies"),
    pytest.param(
        {"concealed": "", "bonus": ["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"], "winning_tile": "1m"},
        id="eight-flowers-winning-tile-absent",
    ),
]


@pytest.mark.parametrize("data", CRASHERS)
def test_crasher_corpus(data: dict[str, Any]) -> None:
    _score_or_malformed(data)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=200))
def test_cli_any_bytes(tmp_path_factory: pytest.TempPathFactory, raw: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "hand.json"
    path.write_bytes(raw)
    assert main([str(path), "--json"]) in (0, 1, 2)
