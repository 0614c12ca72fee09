"""Which circumstances each rule set offers (the app builds its choices from this)."""

import pytest

from scoring import MalformedHandError, circumstances_for
from scoring.hand import CIRCUMSTANCES


def test_singapore_offers_every_circumstance_in_canonical_order() -> None:
    assert circumstances_for("singapore") == CIRCUMSTANCES


@pytest.mark.parametrize("absent", ["humanly", "robbing_eighth"])
def test_malaysian_has_no_humanly_hand_nor_robbing_the_eighth(absent: str) -> None:
    offered = circumstances_for("malaysian")
    assert absent not in offered
    assert "kong_replacement" in offered


def test_unknown_rules_are_malformed() -> None:
    with pytest.raises(MalformedHandError, match="unknown rules 'riichi'"):
        circumstances_for("riichi")
