"""The sidebar's rule set and house rules in the page's address (`app_ui.house_address`): set before the
first hand, they were lost when the browser reloaded the page."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

import scoring
from app_ui.house_address import address_params, house_rules, sidebar_value
from app_ui.options import OptionSpec, option_specs
from tests.app.conftest import APP


def spec(name: str, rules: str = "singapore") -> OptionSpec:
    return next(s for s in option_specs(scoring.Options, scoring.default_options(rules)) if s.name == name)


def reloaded(at: AppTest) -> AppTest:
    """A new session on the page's address, as the browser's reload opens it."""
    again = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in at.query_params.items():
        again.query_params[key] = value
    again.run()
    assert not again.exception
    return again


def test_only_the_house_rules_set_otherwise_than_the_defaults_are_written() -> None:
    store = {"unit": 0.5, "max_tai": 10, "min_tai": 1, "instant_payouts": False, "payout_scheme": "standard"}
    assert address_params("singapore", store) == {"unit": "0.5", "max_tai": "10", "instant_payouts": "false"}
    # the rule set when it is not the first, and an option it does not read is left out
    assert address_params("malaysian", {"north_wind": False, "payout_scheme": "table"}) == {
        "rules": "malaysian",
        "north_wind": "false",
    }


def test_an_address_gives_back_what_it_was_written_from() -> None:
    store = {"unit": 0.5, "max_tai": 10, "instant_payouts": False, "payout_table": "4/2, 8/4"}
    given = house_rules(address_params("singapore", store))
    assert given is not None and given.rules == "singapore" and not given.refused
    assert dict(given.store) == store
    assert house_rules({"case": "0123abcd"}) is None  # an address naming a case alone gives no house rules


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("unit", "0.5", 0.5),
        ("unit", "-1", None),  # under the box's least: it could not be drawn
        ("unit", "abc", None),
        ("unit", "nan", None),
        ("max_tai", "10", 10),
        ("max_tai", "2.5", None),
        ("instant_payouts", "FALSE", False),
        ("instant_payouts", "no", None),
        ("payout_scheme", "shooter_pays", "shooter_pays"),
        ("payout_scheme", "everyone", None),
    ],
)
def test_a_value_the_sidebar_cannot_hold_is_refused(name: str, text: str, value: object) -> None:
    assert sidebar_value(spec(name), text) == value


def test_a_refused_value_is_named_and_the_rest_kept() -> None:
    given = house_rules({"rules": "hk", "unit": "2", "max_tai": "x"})
    assert given is not None and given.rules == "singapore"
    assert dict(given.store) == {"unit": 2.0}
    assert given.refused == ("rules=hk", "max_tai=x")


def test_house_rules_set_before_the_first_hand_survive_a_reload(app: AppTest) -> None:
    app.number_input(key="opt_singapore_unit").set_value(0.5).run()
    app.number_input(key="opt_singapore_max_tai").set_value(10).run()
    again = reloaded(app)
    assert again.number_input(key="opt_singapore_unit").value == 0.5
    assert again.number_input(key="opt_singapore_max_tai").value == 10
    # set back to its default, an option leaves the address
    app.number_input(key="opt_singapore_max_tai").set_value(5).run()
    assert "max_tai" not in app.query_params and app.query_params["unit"] == "0.5"


def test_another_rule_set_and_its_house_rules_survive_a_reload(app: AppTest) -> None:
    app.selectbox(key="rules").set_value("malaysian").run()
    app.checkbox(key="opt_malaysian_north_wind").uncheck().run()
    again = reloaded(app)
    assert again.selectbox(key="rules").value == "malaysian"
    assert again.checkbox(key="opt_malaysian_north_wind").value is False
    assert "fan" in again.title[0].value  # the page is the Malaysian game's from its first run


def test_an_address_the_sidebar_cannot_take_is_said_in_one_line_and_the_page_opens() -> None:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["unit"] = "-1"
    at.query_params["max_tai"] = "8"
    at.run()
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "The page's address gives unit=-1, which the sidebar cannot take: left at the rule set's default."
    ]
    assert at.number_input(key="opt_singapore_unit").value == 1
    assert at.number_input(key="opt_singapore_max_tai").value == 8


def test_an_address_is_quoted_as_plain_text_and_in_one_short_line() -> None:
    # anyone may write an address: its words are no Markdown (a link, bold) and a long one is cut
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["unit"] = "[tap](https://example.com) **now** " + "9" * 2000
    at.run()
    assert not at.exception
    (note,) = [str(w.value) for w in at.warning]
    assert note.startswith("The page's address gives unit=\\[tap\\]") and "\\*\\*now\\*\\*" in note
    assert len(note) < 1000
