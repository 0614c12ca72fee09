"""The line that says what a change did to the score: "4 tai -> 2 tai after: seat wind East -> South".

At a table in dispute, one player changes the seat or the winning tile and the result redraws: the
numbers alone do not say that they moved, nor why. The scoring input of the run before and of this
run are compared, field by field, and where the score or the payout moved, the line names both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app_ui.summary import RULE_LABELS, WIND_LABELS, circumstance_label, score_words

# the scoring input's fields a user sets, in the order the page asks them, with their words
FIELD_WORDS = {
    "rules": "rule set",
    "seat_wind": "seat wind",
    "prevailing_wind": "prevailing wind",
    "self_drawn": "won by",
    "winning_tile": "winning tile",
    "circumstances": "special circumstances",
    "pay_all": "pay-all",
    "discarder_wind": "who discarded",
    "bonus_from_deal": "bonus tiles held from the deal",
    "options": "house rules",
}
TILE_FIELDS = ("concealed", "melds", "bonus")


def change_note(
    before: Mapping[str, Any],
    before_result: Mapping[str, Any],
    now: Mapping[str, Any],
    result: Mapping[str, Any],
) -> str | None:
    """What moved the score between two scorings (`before` and `now`: the scoring inputs; their
    results beside them), or None where the score and the payout are as they were, or nothing the
    user sets changed."""
    if _outcome(before_result) == _outcome(result):
        return None
    changes = changed_fields(before, now)
    if not changes:
        return None
    was, is_now = _words(before_result), _words(result)
    moved = f"{was} → {is_now}" if was != is_now else f"{is_now}, the payout changed"
    return f"{moved} after: {'; '.join(changes)}."


def changed_fields(before: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """Each field the user sets that differs between two scoring inputs, in words ("seat wind East ->
    South"); the tiles as one ("the tiles")."""
    rules = str(now.get("rules") or "singapore")
    said = [
        f"{words} {_value(key, before.get(key), rules)} → {_value(key, now.get(key), rules)}"
        for key, words in FIELD_WORDS.items()
        if key != "options" and _given(before.get(key)) != _given(now.get(key))
    ]
    # another rule set brings its own defaults: no house rule the user changed
    if before.get("rules") == now.get("rules") and before.get("options") != now.get("options"):
        said.append("house rules")
    if any(before.get(key) != now.get(key) for key in TILE_FIELDS):
        said.append("the tiles")
    return said


def _outcome(result: Mapping[str, Any]) -> tuple[Any, ...]:
    players = (result.get("payout") or {}).get("players") or []
    return (bool(result.get("valid")), result.get("tai"), tuple(p.get("amount") for p in players))


def _words(result: Mapping[str, Any]) -> str:
    return score_words(dict(result)).replace("*", "")


def _given(value: Any) -> Any:
    """A field's value with "not given" said one way: absent, None, false, an empty list alike."""
    return value or None


def _value(key: str, value: Any, rules: str) -> str:
    if key in ("seat_wind", "prevailing_wind", "discarder_wind"):
        return WIND_LABELS.get(str(value), "not said") if value else "not said"
    if key == "self_drawn":
        return "self-draw" if value else "discard"
    if key == "pay_all":
        return "on" if value else "off"
    if key == "rules":
        return RULE_LABELS.get(str(value), str(value))
    if key == "circumstances":
        return ", ".join(circumstance_label(str(c), rules) for c in value) if value else "none"
    if key == "bonus_from_deal":
        return " ".join(map(str, value)) if value else "none"
    return str(value) if value else "not set"
