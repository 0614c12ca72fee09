"""The page's help texts speak the user's words: no option's code, no other rule set's rule, and every
special circumstance said (an audit, stage 76: the payout scheme's help read "standard, shooter_pays
(...) or table", and the circumstances' explained the earthly hand alone)."""

from __future__ import annotations

import re

import pytest

import scoring
from app_ui.options import choice_box_label, option_label, option_specs, sidebar_help
from app_ui.summary import circumstance_label, circumstances_help, with_option_labels

CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # shooter_pays, discarder_and_other, max_tai


@pytest.mark.parametrize("rules", scoring.RULESET_NAMES)
def test_no_sidebar_help_names_a_code_or_the_other_rule_set(rules: str) -> None:
    other = next(name for name in scoring.RULESET_NAMES if name != rules).capitalize()
    specs = option_specs(scoring.Options, scoring.default_options(rules))
    shown = [spec for spec in specs if not spec.rules or rules in spec.rules]
    assert len(shown) >= 5
    for spec in shown:
        words = sidebar_help(spec, rules)
        assert words, spec.name
        assert not CODE.search(words), (spec.name, words)
        assert f"{other}:" not in words and not words.startswith(f"{rules.capitalize()}:"), (spec.name, words)
        assert words[0].isupper(), (spec.name, words)  # a review: "points per fan." after its prefix went
        # a choice is named by the words its box shows (a review: "Discarder and other" named none)
        for choice in spec.choices:
            assert choice_box_label(choice).split(" (")[0] in words, (spec.name, words)


@pytest.mark.parametrize("rules", scoring.RULESET_NAMES)
def test_the_circumstances_help_says_what_each_offered_one_is(rules: str) -> None:
    offered = scoring.circumstances_for(rules)
    lines = circumstances_help(offered, rules).split("\n")
    assert [line.split(": ")[0] for line in lines] == [
        f"- {circumstance_label(key, rules)}" for key in offered
    ]
    earthly = next(line for line in lines if "Earthly" in line)
    assert ("your first draw" in earthly) == scoring.get_ruleset(rules).earthly_self_drawn


def test_the_self_draw_option_is_said_in_the_page_s_words() -> None:
    # a walkthrough: the sidebar's "Self draw tai" beside the page's "Self-drawn"
    labels = {spec.name: option_label(spec) for spec in option_specs(scoring.Options, scoring.Options())}
    assert labels["self_draw_tai"] == "Self-drawn tai"
    assert labels["fully_concealed_tai"] == "Fully concealed tai"  # the others from their names
    assert with_option_labels("self_draw_tai is on") == "“Self-drawn tai” is on"


def test_the_humanly_hand_option_has_its_chinese_name_as_the_circumstance_has() -> None:
    # a walkthrough: the circumstances carry their Chinese names, the sidebar's "Humanly hand" had none
    specs = option_specs(scoring.Options, scoring.default_options("singapore"))
    (humanly,) = [spec for spec in specs if spec.name == "humanly_hand"]
    assert option_label(humanly) == circumstance_label("humanly") == "Humanly hand (人胡)"
