"""The sidebar's rule set and options, each drawn from `scoring.Options` (its fields' types, help and
the rule sets they apply to), each rule set keeping its own values through a session."""

from __future__ import annotations

import dataclasses
from typing import Any

import streamlit as st

import scoring
from app_ui import tile_sets
from app_ui.options import (
    OptionSpec,
    OptionValueError,
    choice_box_label,
    choices_help,
    format_number_list,
    option_label,
    option_specs,
    parse_number_list,
    sidebar_help,
)
from app_ui.summary import RULE_LABELS


def option_applies(spec: OptionSpec, rules: str) -> bool:
    """Options a rule set ignores (Singapore's payout scheme under Malaysian rules, Malaysian points
    under Singapore's) are hidden: changing them would change nothing."""
    return not spec.rules or rules in spec.rules


def _option_label(spec: OptionSpec, rules: str) -> str:
    """The option's label in the rule set's unit ("Min fan" under Malaysian rules)."""
    return option_label(spec, scoring.get_ruleset(rules).unit_name)


def _option_widget(spec: OptionSpec, key: str, label: str, rules: str, disabled: bool = False) -> Any:
    spec = dataclasses.replace(spec, help=sidebar_help(spec, rules))
    if spec.kind == "list":
        how = (
            "Type one entry per tai, separated by commas: an amount (8) or shooter/each (4/2: the shooter "
            "pays 4 on a discard, each loser 2 on a self-draw)."
        )
        help_text = (spec.help + " " if spec.help else "") + how
        return st.text_input(label, key=key, help=help_text, disabled=disabled)
    if spec.kind == "bool":
        return st.checkbox(label, key=key, help=spec.help or None)
    if spec.kind == "choice":
        return st.selectbox(
            label,
            list(spec.choices),
            key=key,
            help=(spec.help + " " if spec.help else "") + choices_help(spec.choices),
            format_func=choice_box_label,
        )
    # bounded as the scoring takes the option alone (its field's metadata: points per fan 0 had been
    # taken here and refused in the result, an audit), else at 0: no option is meaningfully negative;
    # bounds between options (min tai at most max tai) are the scoring's to say
    if spec.kind == "int":
        least, most = int(spec.least or 0), None if spec.most is None else int(spec.most)
        return st.number_input(
            label, min_value=least, max_value=most, step=1, key=key, help=spec.help or None
        )
    if spec.kind == "float":
        least_amount, most_amount = float(spec.least or 0), None if spec.most is None else float(spec.most)
        # "%g": the amount as typed (0.125), not rounded to two places while the scoring uses it whole
        return st.number_input(
            label,
            min_value=least_amount,
            max_value=most_amount,
            step=0.5,
            format="%g",
            key=key,
            help=spec.help or None,
        )
    return st.text_input(label, key=key, help=spec.help or None)


def widget_value(spec: OptionSpec, value: Any) -> Any:
    """An option's value in its widget's form: a payout table as the text typed, a choice the list
    offers, and each number kind its own type (number_input refuses to mix int and float)."""
    if spec.kind == "list":
        return format_number_list(value) if not isinstance(value, str) else value
    if spec.kind == "choice" and value not in spec.choices:
        return spec.choices[0]
    if spec.kind == "float":
        return float(value)
    if spec.kind == "int":
        return int(value)
    return value


def rules_ui() -> tuple[str, dict[str, Any], list[str]]:
    """Rule set and every option (generated from `scoring.Options`), in the sidebar.

    Each rule set keeps its own option values: switching rule sets shows that set's defaults the first
    time and the user's choices after that.
    """
    problems: list[str] = []
    wanted = st.session_state.pop("rules_wanted", None)
    if wanted in scoring.RULESET_NAMES and wanted != st.session_state.get("rules"):
        st.session_state["rules"] = wanted  # before the box is drawn: Streamlit lets a key be set only then
        label = RULE_LABELS.get(wanted, wanted)
        st.session_state["rules_note"] = f"Rule set now {label}: the sample is a hand of that game."
    with st.sidebar:
        st.header("Rules")
        rules = st.selectbox(
            "Rule set", list(scoring.RULESET_NAMES), key="rules", format_func=lambda r: RULE_LABELS.get(r, r)
        )
        defaults = scoring.default_options(rules)
        store: dict[str, dict[str, Any]] = st.session_state["option_store"].setdefault(rules, {})
        values: dict[str, Any] = {}
        specs = option_specs(scoring.Options, defaults)
        for spec in specs:
            key = f"opt_{rules}_{spec.name}"
            if key not in st.session_state:
                st.session_state[key] = widget_value(spec, store.get(spec.name, spec.default))
            if not option_applies(spec, rules):
                values[spec.name] = store.get(spec.name, spec.default)
                continue
            # the table is read only under the table scheme: greyed out otherwise, its text kept
            unused = spec.name == "payout_table" and values.get("payout_scheme") != "table"
            value = _option_widget(spec, key, _option_label(spec, rules), rules, disabled=unused)
            store[spec.name] = value
            if spec.kind == "list":
                try:
                    value = parse_number_list(value or "")
                except OptionValueError as exc:
                    if not unused:  # said, so no payout rests silently on a table the user did not type
                        default = format_number_list(spec.default)
                        problems.append(
                            f"{spec.label}: {exc}; until it is fixed, the default ({default}) is used."
                        )
                    value = spec.default
                if unused:
                    # kept in its box, but not scored with (python -m scoring would warn it unread)
                    value = spec.default
            if spec.kind == "int":
                value = int(value)
            values[spec.name] = value
        if st.button("Reset options to the rule set's defaults", key="reset_options"):
            for spec in specs:
                st.session_state.pop(f"opt_{rules}_{spec.name}", None)
            st.session_state["option_store"][rules] = {}
            st.rerun()
    return rules, _jsonable(values), problems


def stored_options(rules: str) -> dict[str, Any]:
    """The options the sidebar holds for `rules` as the scoring takes them (a payout table typed
    wrongly, or not read, as its default, as `rules_ui` scores it), before the sidebar is drawn."""
    store: dict[str, Any] = st.session_state.get("option_store", {}).get(rules, {})
    values: dict[str, Any] = {}
    for spec in option_specs(scoring.Options, scoring.default_options(rules)):
        value = store.get(spec.name, spec.default)
        if spec.kind == "list" and isinstance(value, str):
            try:
                value = parse_number_list(value)
            except OptionValueError:
                value = spec.default
        values[spec.name] = value
    if values.get("payout_scheme") != "table" and "payout_table" in values:
        # read only under the table scheme, as `rules_ui` scores it: no house rule of the page's
        values["payout_table"] = scoring.default_options(rules).payout_table
    return values


def _jsonable(values: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}


def chosen_rules() -> str:
    """The rule set chosen in the sidebar (its first, Singapore, before the box is first drawn)."""
    return str(st.session_state.get("rules") or scoring.RULESET_NAMES[0])


def chosen_set() -> str:
    """The set a photo is read as (`tile_sets.set_name`): the sidebar's rule set's, less the faces its
    options there leave out (a Malaysian set without North)."""
    rules = chosen_rules()
    store: dict[str, Any] = st.session_state.get("option_store", {}).get(rules, {})
    return tile_sets.set_name(rules, store)
