"""The line that says what a change did to the score: "4 tai -> 2 tai after: seat wind East -> South".

At a table in dispute, one player changes the seat or the winning tile and the result redraws: the
numbers alone do not say that they moved, nor why. The scoring input of the run before and of this
run are compared, field by field, and where the score or the payout moved, the line names both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import scoring
from app_ui.options import option_label, option_specs
from app_ui.summary import RULE_LABELS, WIND_LABELS, circumstance_label, option_value_words, score_words

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
# The result of a run that scored nothing (a meld left unfinished, a house rule out of range): the next
# score is told against it, not against the score before it, which the page no longer showed.
NOT_SCORED: dict[str, Any] = {"valid": False, "reason": "not_scored"}


def change_note(
    before: Mapping[str, Any],
    before_result: Mapping[str, Any],
    now: Mapping[str, Any],
    result: Mapping[str, Any],
    corrected: tuple[Sequence[str], Sequence[str]] = ((), ()),
) -> str | None:
    """What moved the score between two scorings (`before` and `now`: the scoring inputs; their
    results beside them; `corrected`: the tile table's corrections in words, before and now), or None
    where the score, the payouts and the patterns are as they were, or nothing the user sets changed."""
    if _outcome(before_result) == _outcome(result):
        return None
    changes = changed_fields(before, now, corrected)
    if not changes:
        return None
    was, is_now = _words(before_result), _words(result)
    if was == is_now and _outcome(before_result)[:3] != _outcome(result)[:3] and not result.get("valid"):
        # no win either side: no payout moved, only why it is no win (said just below the line)
        moved = "still not a valid win, now for another reason"
    elif was != is_now:
        moved = f"{was} → {is_now}"
    else:
        moved = f"{is_now}, {_what_moved(before_result, result)}"
    return f"{moved} after: {'; '.join(changes)}."


def changed_fields(
    before: Mapping[str, Any],
    now: Mapping[str, Any],
    corrected: tuple[Sequence[str], Sequence[str]] = ((), ()),
) -> list[str]:
    """Each field the user sets that differs between two scoring inputs, in words ("seat wind East ->
    South"), each house rule by name and value ("Unit 1 → 0.5"), and the tiles by the corrections made
    or undone (`corrected`: in words, before and now; "the tiles" where none says it)."""
    rules = str(now.get("rules") or "singapore")
    # under pay-all the seat is the liable player's, as its box says
    fields = {**FIELD_WORDS, **({"discarder_wind": "liable player"} if now.get("pay_all") else {})}
    said = [
        f"{words} {_value(key, before.get(key), rules)} → {_value(key, now.get(key), rules)}"
        for key, words in fields.items()
        if key != "options" and _given(before.get(key)) != _given(now.get(key))
    ]
    # another rule set brings its own defaults: no house rule the user changed
    if before.get("rules") == now.get("rules") and before.get("options") != now.get("options"):
        options = option_changes(rules, before.get("options") or {}, now.get("options") or {})
        said.extend(options or ["house rules"])
    if any(before.get(key) != now.get(key) for key in TILE_FIELDS):
        # a photo is read again as another rule set's tiles: no correction of the user's says why
        read_again = before.get("rules") != now.get("rules")
        said.extend(correction_changes(*corrected) or ["the tiles read again" if read_again else "the tiles"])
    return said


def option_changes(rules: str, before: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """Each option of the rule set set otherwise now, by the sidebar's label, from and to ("Unit 1 →
    0.5"): "house rules" alone left a table guessing which (stage 55)."""
    unit_name = scoring.get_ruleset(rules).unit_name
    out = []
    for spec in option_specs(scoring.Options, scoring.default_options(rules)):
        if spec.rules and rules not in spec.rules:
            continue
        was, is_now = before.get(spec.name, spec.default), now.get(spec.name, spec.default)
        if was != is_now:
            words = [option_value_words(spec.name, spec.kind, value) for value in (was, is_now)]
            if words[0] != words[1]:  # a default given as a list or a tuple is no change to say
                out.append(f"{option_label(spec, unit_name)} {words[0]} → {words[1]}")
    return out


def correction_changes(before: Sequence[str], now: Sequence[str]) -> list[str]:
    """The corrections made since (as the corrections line words them) and those undone, each as
    often as it was made or undone (two tiles of 3m added read alike)."""
    made, undone = Counter(now) - Counter(before), Counter(before) - Counter(now)
    return [*made.elements(), *(f"{c} undone" for c in undone.elements())]


def _outcome(result: Mapping[str, Any]) -> tuple[Any, ...]:
    if not result.get("valid"):
        # a hand that is no win pays nothing whatever the rule set's players: why it is no win counts,
        # and the instant payouts (a kong's), which are paid win or not
        return (False, result.get("reason"), result.get("message"), _instant(result))
    payout = result.get("payout") or {}
    players = payout.get("players") or []
    return (
        bool(result.get("valid")),
        result.get("tai"),
        tuple(p.get("amount") for p in players),
        _instant(result),
        _patterns(result),
    )


def _instant(result: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(
        (item.get("name"), item.get("from_each"), item.get("total"))
        for item in (result.get("payout") or {}).get("instant_payouts") or []
    )


def _patterns(result: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(sorted(str(p.get("name")) for p in result.get("patterns") or []))


def _words(result: Mapping[str, Any]) -> str:
    if result.get("reason") == NOT_SCORED["reason"]:
        return "not scored"
    return score_words(dict(result)).replace("*", "")


def _what_moved(before: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    """What moved where the score's words stand: the payout, the instant payouts, or the patterns (a
    West seat's pong for a prevailing wind's, the total the same)."""
    if _outcome(before)[:3] != _outcome(now)[:3]:
        return "the payout changed"
    if _instant(before) != _instant(now):
        return "the instant payouts changed"
    gone = [p for p in _patterns(before) if p not in _patterns(now)]
    new = [p for p in _patterns(now) if p not in _patterns(before)]
    return f"the patterns changed ({', '.join(gone) or 'none'} → {', '.join(new) or 'none'})"


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
