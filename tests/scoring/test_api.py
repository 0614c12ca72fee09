"""`scoring.api` helpers the command line and the app share."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import score_json
from scoring.api import limits_not_added


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (  # two limit rows of 5 over a total of 5
            {"concealed": "111m 999m 111p 999s 11s", "self_drawn": True},
            "the rows add to 10, but a limit hand scores its highest limit, not their sum: 5 tai",
        ),
        (  # Malaysian: the highest limit row, then the cap (a review: "scores the limit once: 10" over 7)
            {
                "concealed": "EEE SSS WWW NNN CC",
                "rules": "malaysian",
                "self_drawn": True,
                "options": {"max_tai": 7},
            },
            "the rows add to 15, but a limit hand scores its highest limit, not their sum: 10 fan, "
            "capped at 7",
        ),
    ],
)
def test_a_limit_hands_rows_adding_to_more_than_its_total_are_explained(
    data: dict[str, Any], said: str
) -> None:
    assert limits_not_added(score_json(data)) == said


@pytest.mark.parametrize(
    "result",
    [
        score_json({"concealed": "123m 456p 789s CCC 55p"}),  # no limit: the rows are the total
        score_json({"concealed": "123m 456p 789s 22m 55p"}),  # no win
        score_json(
            {"concealed": "123m 456p 789s CCC 55p", "options": {"max_tai": 1}}
        ),  # capped, no limit row
        {"valid": True, "limit": True, "patterns": [{"tai": 5}]},  # a result missing its raw total
    ],
)
def test_nothing_is_said_where_the_rows_are_the_total_or_no_limit_hand(result: dict[str, Any]) -> None:
    assert limits_not_added(result) is None
