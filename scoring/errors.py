"""Named errors for input that cannot be a hand at all (the CLI's exit 2).

A well-formed hand that is not a valid win is never an error: it is a `Score` with `valid=False`.
"""

from __future__ import annotations

import json


class MalformedHandError(ValueError):
    """Input that cannot be a hand: the message is one line a player can act on."""


class UnknownTileError(MalformedHandError):
    """A token that is not a tile code of RULES.md; the message quotes the token."""


class HandStringError(MalformedHandError):
    """A compact hand string with a group that cannot be read (e.g. digits with no suit letter)."""


class MeldError(MalformedHandError):
    """A declared meld whose tiles do not form its kind."""


class OptionError(MalformedHandError):
    """An unknown option name, a value of the wrong type, or values that contradict each other."""


class RulesetError(MalformedHandError):
    """An unknown rule set name."""


def json_error_text(error: json.JSONDecodeError) -> str:
    """json's complaint and where, in one line: some of its messages end in "at" ("Unterminated string
    starting at"), so the place follows with one "at", not two."""
    return f"{error.msg.removesuffix(' at')} at line {error.lineno} column {error.colno}"
