"""Mahjong scoring engine: Singapore (4 players, tai) and Malaysian 3-player (fan) rule sets.

Public API (ARCHITECTURE.md):
- `score_json(data) -> dict`: the CLI's JSON in, JSON out; `MalformedHandError` for input that is no hand.
- `score(hand, context, rules, options) -> Score`: the typed API, with `Hand`, `Meld`, `Context`.
- `Options`, `default_options(rules_name)`, `RULESET_NAMES`, `get_ruleset(name)`.
- `parse_hand_string(s) -> list[str]`, `format_hand(codes) -> str`: compact hand strings, round-trip.
"""

from scoring.api import score_json
from scoring.engine import REASONS, PatternScore, Score, drawn_by_winner, flowers_win, score
from scoring.errors import (
    HandStringError,
    MalformedHandError,
    MeldError,
    OptionError,
    RulesetError,
    UnknownTileError,
)
from scoring.hand import Context, Hand, Meld, hand_from_json
from scoring.options import Options, default_options
from scoring.payout import InstantPayout, Payout, PlayerShare
from scoring.rulesets import RULESET_NAMES, Ruleset, circumstances_for, get_ruleset
from scoring.tiles import format_hand, parse_hand_string

__all__ = [
    "REASONS",
    "RULESET_NAMES",
    "Context",
    "Hand",
    "HandStringError",
    "InstantPayout",
    "MalformedHandError",
    "Meld",
    "MeldError",
    "OptionError",
    "Options",
    "PatternScore",
    "Payout",
    "PlayerShare",
    "Ruleset",
    "RulesetError",
    "Score",
    "UnknownTileError",
    "circumstances_for",
    "default_options",
    "drawn_by_winner",
    "flowers_win",
    "format_hand",
    "get_ruleset",
    "hand_from_json",
    "parse_hand_string",
    "score",
    "score_json",
]
