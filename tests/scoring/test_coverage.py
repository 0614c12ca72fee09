"""Every row of each rule set's pattern table is hit by at least one golden case (STYLE.md: one golden test
per pattern)."""

from __future__ import annotations

import pytest

from scoring import get_ruleset, score_json
from tests.scoring import test_golden_malaysian, test_golden_singapore

# A dots-only set cannot hold thirteen different terminals and honours.
UNREACHABLE = {"malaysian": {"thirteen_wonders"}, "singapore": set()}


@pytest.mark.parametrize(
    ("rules", "cases"),
    [
        pytest.param("singapore", test_golden_singapore.ALL, id="singapore"),
        pytest.param("malaysian", test_golden_malaysian.ALL, id="malaysian"),
    ],
)
def test_every_pattern_has_a_golden_case(rules: str, cases: list[object]) -> None:
    seen = set()
    for param in cases:
        data = param.values[0]  # type: ignore[attr-defined]
        seen |= {pattern["key"] for pattern in score_json(data)["patterns"]}
    table = {row.key for row in get_ruleset(rules).patterns}
    assert table - seen == UNREACHABLE[rules]
