"""The sidebar's rule set and house rules in the page's address (`?rules=malaysian&unit=0.5`), so that a
reload brings them back and a bookmark opens the table's rules.

A page holding a hand kept its house rules through a reload (they are the kept case's), but rules set
before the first hand were lost: a phone's browser reloads a page it put away while the camera took the
photo, and the photo was then read and paid under the defaults (an audit, stage 87: unit 0.5 and max tai
10 set at the start of the evening came back as 1 and 5). Only what differs from the rule set's defaults
is written, in the sidebar's own form (a payout table as typed), so the address stays short.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

import scoring
from app_ui.options import OptionSpec, option_specs
from app_ui.rules_panel import option_applies, widget_value
from scoring.options import exact_number

RULES_KEY = "rules"  # the address's key for the rule set; each house rule goes under its option's name
BROUGHT = "house_from_address"  # the session read its address's house rules (once, on its first run)


@dataclass(frozen=True)
class HouseRules:
    """What an address gives: its rule set, the sidebar's values of its house rules (`store`, by option
    name) and each `refused` key=value, as the address wrote it, that gives none."""

    rules: str
    store: Mapping[str, Any]
    refused: tuple[str, ...] = ()


def address_params(rules: str, store: Mapping[str, Any]) -> dict[str, str]:
    """The address's keys for rule set `rules` and the sidebar's values `store` (by option name): the
    rule set where it is not the first, and each option it reads set otherwise than its default."""
    params = {} if rules == scoring.RULESET_NAMES[0] else {RULES_KEY: rules}
    for spec in _specs(rules):
        if spec.name not in store or not option_applies(spec, rules):
            continue
        value, default = widget_value(spec, store[spec.name]), widget_value(spec, spec.default)
        if value != default:
            params[spec.name] = _text(value)
    return params


def house_rules(params: Mapping[str, str]) -> HouseRules | None:
    """The rule set and house rules an address's `params` give; None where it names neither (a page's
    address naming only a case). A value the sidebar could not hold (`unit=abc`, `max_tai=-1`) is
    refused, so the box is drawn at its default rather than failing to draw."""
    named = params.get(RULES_KEY, scoring.RULESET_NAMES[0])
    rules = named if named in scoring.RULESET_NAMES else scoring.RULESET_NAMES[0]
    specs = _specs(rules)
    given = {spec.name: params[spec.name] for spec in specs if spec.name in params}
    if RULES_KEY not in params and not given:
        return None
    refused = [] if named == rules else [f"{RULES_KEY}={named}"]
    store: dict[str, Any] = {}
    for spec in specs:
        if spec.name not in given:
            continue
        value = sidebar_value(spec, given[spec.name])
        if value is None or not option_applies(spec, rules):
            refused.append(f"{spec.name}={given[spec.name]}")
        else:
            store[spec.name] = value
    return HouseRules(rules, store, tuple(refused))


def sidebar_value(spec: OptionSpec, text: str) -> Any:
    """`text` from the address as option `spec`'s sidebar box holds it, or None where the box could not
    (no number, one under its least, a choice it does not offer). A payout table stays the text typed:
    the sidebar reads it and says what is wrong with it, as it does for one typed there."""
    if spec.kind == "bool":
        return {"true": True, "false": False}.get(text.strip().lower())
    if spec.kind == "choice":
        return text if text in spec.choices else None
    if spec.kind in ("int", "float"):
        try:
            number = float(text)
        except ValueError:
            return None
        least = spec.least or 0
        if not math.isfinite(number) or number < least or (spec.most is not None and number > spec.most):
            return None
        if spec.kind == "int":
            return int(number) if number.is_integer() else None
        return number
    return text


def bring_back_house_rules() -> None:
    """On a session's first run, the rule set and house rules its address gives, set before the sidebar
    is drawn (a kept case opened after them sets its own); a value refused is said in one line."""
    state = st.session_state
    if BROUGHT in state:
        return
    state[BROUGHT] = True
    given = house_rules(dict(st.query_params.to_dict()))
    if given is None:
        return
    state["rules"] = given.rules
    state["option_store"].setdefault(given.rules, {}).update(given.store)
    if given.refused:
        state["house_address_note"] = (
            f"The page's address gives {', '.join(given.refused)}, which the sidebar cannot take: "
            "left at the rule set's default."
        )


def address_house_rules(rules: str, store: Mapping[str, Any]) -> None:
    """Write the sidebar's rule set and house rules (`store`, by option name) into the page's address,
    and drop those set back to their defaults or read by another rule set only (switched from); the
    address changes only where they did."""
    wanted = address_params(rules, store)
    for key in (RULES_KEY, *(spec.name for spec in _specs(rules))):
        if key in wanted and st.query_params.get(key) != wanted[key]:
            st.query_params[key] = wanted[key]
        elif key not in wanted and key in st.query_params:
            del st.query_params[key]


def _specs(rules: str) -> list[OptionSpec]:
    return option_specs(scoring.Options, scoring.default_options(rules))


def _text(value: Any) -> str:
    """A sidebar value as the address writes it: `true`, `0.5`, `10`, a choice or the table as typed."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return exact_number(value)
    return str(value)
