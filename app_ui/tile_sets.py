"""The set of tiles a photo is read as, by name: a rule set's faces, less those its options leave out
("malaysian without N"); its codes and its name in words.

One small concept of its own: the photo path, the typed hand and the tile key all ask which faces the
set on the table holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The options that change which faces a set holds (RULES.md: a Malaysian set may leave out North).
SET_OPTIONS: tuple[str, ...] = ("north_wind",)

_WITHOUT = " without "


def set_name(rules: str, options: Mapping[str, Any] | None = None) -> str:
    """The name of the set a photo's tiles are read as: the rule set's, and the faces its `options`
    leave out of its usual set ("malaysian without N"). Options that change no face are not read."""
    from vision.tile_set import rule_set_faces

    given = {name: value for name, value in (options or {}).items() if name in SET_OPTIONS}
    try:
        left_out = sorted(rule_set_faces(rules) - rule_set_faces(rules, given))
    except ValueError:  # a bad option value: the usual set (the scoring says what is wrong with it)
        left_out = []
    return rules + (_WITHOUT + " ".join(left_out) if left_out else "")


def tiles_in_set(name: str) -> frozenset[str]:
    """Every code the set `name` (`set_name`; a rule set's name) holds, a face-down tile too."""
    from vision.tile_set import rule_set_faces

    rules, _, left_out = name.partition(_WITHOUT)
    return (rule_set_faces(rules) - set(left_out.split())) | {"back"}


def set_words(name: str, labels: Mapping[str, str]) -> str:
    """The set `name` in words, its rule set by `labels`: "Malaysian (3 players) tiles without N"."""
    rules, _, left_out = name.partition(_WITHOUT)
    return f"{labels.get(rules, rules)} tiles" + (_WITHOUT + left_out if left_out else "")
