"""Hypothesis invariants of the pattern tables (RULES.md), over the metamorphic tests' richer hands (flies,
seven pairs, thirteen wonders, circumstances, a discarder): how the rows add up to the tai, what a limit
hand and a bomb do, which rows replace which, that the best reading counts, and that the order the tiles,
melds and bonus tiles are given in changes nothing a player reads, the words included.

Hunt harder with
`METAMORPHIC_EXAMPLES=5000 python -m pytest -o addopts='' tests/scoring/test_table_invariants.py`.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from scoring import MalformedHandError, parse_hand_string, score_json
from scoring.rulesets import get_ruleset
from tests.scoring.test_metamorphic import _settings, any_hand

RULES = st.sampled_from(["singapore", "malaysian"])


def _result(hand: dict[str, Any]) -> dict[str, Any] | None:
    """The hand's result, or None for input that cannot be a hand (a strategy's fly in a kong)."""
    try:
        return score_json(hand)
    except MalformedHandError:
        return None


def _shuffled(hand: dict[str, Any], seed: int) -> dict[str, Any]:
    """The same hand with its concealed tiles, its melds, each meld's tiles and its bonus tiles in another
    order."""
    shuffler = random.Random(seed)
    concealed = hand["concealed"]
    tiles = parse_hand_string(concealed) if isinstance(concealed, str) else list(concealed)
    shuffler.shuffle(tiles)
    melds = [
        dict(meld, tiles=shuffler.sample(list(meld["tiles"]), len(meld["tiles"]))) for meld in hand["melds"]
    ]
    shuffler.shuffle(melds)
    return {
        **hand,
        "concealed": tiles,
        "melds": melds,
        "bonus": shuffler.sample(list(hand["bonus"]), len(hand["bonus"])),
    }


@_settings(120)
@given(rules=RULES, data=st.data())
def test_the_order_tiles_melds_and_bonus_tiles_are_given_in_changes_nothing(
    rules: str, data: st.DataObject
) -> None:
    # STYLE.md: "tai does not depend on tile order"; here for every field of the result, words too, and
    # for hands with flies, seven pairs and circumstances (tests/scoring/test_properties.py's hands have none)
    hand = data.draw(any_hand(rules))
    result = _result(hand)
    if result is None:
        return
    moved = _result(_shuffled(hand, data.draw(st.integers(0, 2**32))))
    assert moved is not None
    assert moved == result


@_settings(150)
@given(rules=RULES, data=st.data())
def test_the_rows_add_up_to_the_raw_tai_as_rules_md_says(rules: str, data: st.DataObject) -> None:
    hand = data.draw(any_hand(rules))
    result = _result(hand)
    if result is None or not result["patterns"]:
        return
    ruleset = get_ruleset(rules)
    rows = {row.key: row for row in ruleset.patterns}
    lines = result["patterns"]
    keys = [line["key"] for line in lines]
    max_tai = hand["options"].get("max_tai", 5 if rules == "singapore" else 10)
    limit_lines = [line for line in lines if line["key"] in rows and rows[line["key"]].limit]
    if limit_lines:
        # "a limit hand scores max_tai" (Singapore); "a limit-type hand sets the fan to its value (5, or
        # 10) whatever else it holds, and bombs do not apply to it" (Malaysian): limit rows alone, the
        # highest of them the raw tai
        assert len(limit_lines) == len(lines), keys
        for line in limit_lines:
            value = rows[line["key"]].tai
            assert line["tai"] == (max_tai if value is None else value), line
        assert result["raw_tai"] == max(line["tai"] for line in lines)
        return
    # summed rows: each pattern's tai from its table row (times its count), replaced rows absent
    for line in lines:
        if line["key"] == "bomb":
            continue
        value = rows[line["key"]].tai or 0
        # a row's tai is its table value times how often it applies (two dragon pongs: 2)
        assert line["tai"] % value == 0 if value else line["tai"] == 0, line
        replaced = set(rows[line["key"]].replaces) & set(keys)
        assert not replaced, (line["key"], replaced)
    total = sum(line["tai"] for line in lines if line["key"] != "bomb")
    bombs = [line for line in lines if line["key"] == "bomb"]
    if bombs:
        # "Several bombs still double once" (RULES.md, Malaysian)
        [bomb] = bombs
        assert rules == "malaysian"
        assert any(rows[key].bomb for key in keys if key != "bomb")
        assert bomb["tai"] == total
        assert result["raw_tai"] == 2 * total
    else:
        assert not any(rows[key].bomb for key in keys) or total == 0
        assert result["raw_tai"] == total
    assert result["tai"] == min(result["raw_tai"], max_tai) or not result["valid"]


@_settings(150)
@given(rules=RULES, data=st.data())
def test_no_other_reading_scores_above_the_one_counted(rules: str, data: st.DataObject) -> None:
    # RULES.md: "Among all decompositions of a hand, the one with the highest capped tai counts (ties:
    # highest raw tai)"; Malaysian: "the best-scoring reading counts"
    hand = data.draw(any_hand(rules))
    result = _result(hand)
    if result is None:
        return
    for other in result["other_readings"]:
        assert (other["tai"], other["raw_tai"]) <= (result["tai"], result["raw_tai"]), other


@_settings(120)
@given(data=st.data())
def test_a_fly_kept_as_bonus_adds_one_fan_before_the_bombs(data: st.DataObject) -> None:
    # RULES.md (Malaysian): "A fly that the player keeps aside as a bonus tile (listed in bonus) is +1 fan
    # each", and bombs double the total fan. With a bonus tile already held, ping hu (no bonus tiles) and
    # the kong-replacement bomb (a kong and no bonus tile) are settled already; a fourth fly is a limit
    hand = data.draw(any_hand("malaysian"))
    assume(hand["bonus"])
    flies = hand["bonus"].count("fly") + list(hand["concealed"]).count("fly")
    assume(flies < 3)
    before = _result(hand)
    after = _result({**hand, "bonus": [*hand["bonus"], "fly"]})
    assume(before is not None and after is not None and before["valid"] == after["valid"] is True)
    rows = {row.key: row for row in get_ruleset("malaysian").patterns}
    assume(not any(rows[line["key"]].limit for line in before["patterns"] if line["key"] in rows))
    summed = sum(line["tai"] for line in before["patterns"] if line["key"] != "bomb")
    bombed = any(line["key"] == "bomb" for line in before["patterns"])
    assert after["raw_tai"] == (summed + 1) * (2 if bombed else 1), (before["patterns"], after["patterns"])
