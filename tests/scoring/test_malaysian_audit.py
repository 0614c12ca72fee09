"""Malaysian 3-player audit (stage 56): what a Malaysian player is told of bad input."""

from __future__ import annotations

import pytest

from scoring import MalformedHandError, score_json


def test_bonus_error_names_the_malaysian_bonus_tiles() -> None:
    # a Malaysian bonus row also takes face and fly: the message listed only flowers, seasons and
    # animals, so a Malaysian player was told face and fly do not belong there
    with pytest.raises(MalformedHandError, match=r"1p is not a bonus tile .*face and fly"):
        score_json({"rules": "malaysian", "concealed": "123p 456p 789p 234p 55p", "bonus": ["1p"]})
