"""What widget each scoring option needs, read from the `scoring.Options` dataclass itself.

The sidebar is generated from `dataclasses.fields(Options)`: a new option in the scoring package shows up
in the app without touching the UI. The widget kind follows the default's type; choices come from the
field's `metadata["choices"]` or its `Literal[...]` annotation.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class OptionSpec:
    name: str
    kind: str  # "bool", "int", "float", "choice", "list", "text"
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()  # the rule sets that read this option; empty: every rule set
    # the least and most number the scoring takes (its field's metadata); None: no bound of its own
    least: float | None = None
    most: float | None = None

    @property
    def label(self) -> str:
        return OPTION_LABELS.get(self.name) or self.name.replace("_", " ").capitalize()


# the options whose field name reads otherwise than the page's words: "Self draw tai" stood in the
# sidebar beside the page's "Self-drawn" (a walkthrough)
# the humanly hand with its Chinese name, as the special circumstances box has it (a walkthrough)
OPTION_LABELS = {"self_draw_tai": "Self-drawn tai", "humanly_hand": "Humanly hand (人胡)"}


# the sidebar's words for the choices of the options that offer some
CHOICE_LABELS = {
    "standard": "Standard (2/1 x base)",
    "shooter_pays": "Shooter pays (4 x base)",
    "table": "Payout table (below)",
    "seed": "Seed (discarder 2 x; self-draw 1 x each)",
    "discarder_and_other": "Discarder 2 x, other 1 x (self-draw 2 x each)",
}


# the sidebar's box shows a choice in about 30 characters (244 px at 1366 and 1920 px wide): the
# longer words of `CHOICE_LABELS` were cut ("Seed (discarder 2 x; self-draw 1 x"); they stay in the
# help, the notes and the summary (stage 55)
CHOICE_SHORT = {
    "seed": "Seed (discarder 2 x)",
    "discarder_and_other": "Discarder 2 x, other 1 x",
}


# the sidebar's help where the scoring's (written for `--option NAME=VALUE`, both rule sets at once)
# names its codes or the other rule set (an audit), each choice by the words its box shows
SIDEBAR_HELP = {
    ("min_tai", "singapore"): "The fewest tai a win must score to be valid.",
    ("min_tai", "malaysian"): "The fewest fan a win must score to be valid.",
    ("max_tai", "singapore"): "The most tai a hand scores: a limit hand scores this cap.",
    ("max_tai", "malaysian"): "The most fan a hand scores: a limit-type hand scores 5 (big four winds 10), "
    "within the cap.",
    ("payout_scheme", "singapore"): "Who pays what on a win. Standard: on a discard the discarder pays "
    "2 x base and each other player 1 x base; on a self-draw each pays 2 x base. Shooter pays: on a "
    "discard the discarder pays 4 x base alone; a self-draw as standard. Payout table: the amounts "
    "typed below, per tai.",
    ("malaysian_payment", "malaysian"): "Who pays what on a win. Seed (discarder 2 x): on a discard the "
    "discarder pays 2 x points and the third player nothing; on a self-draw each pays the points. "
    "Discarder 2 x, other 1 x: on a discard the discarder pays 2 x points and the other player 1 x; on "
    "a self-draw each pays 2 x points.",
}


def sidebar_help(spec: OptionSpec, rules: str) -> str:
    """An option's help in the sidebar of the rule set `rules`: its own words there where the
    scoring's name codes or the other rule set, else the scoring's without a "Malaysian:" the
    Malaysian sidebar need not say."""
    own = SIDEBAR_HELP.get((spec.name, rules))
    if own:
        return own
    words = spec.help.removeprefix("Malaysian: ")
    return words[:1].upper() + words[1:]


def choice_box_label(choice: str) -> str:
    """A choice as its box shows it: short enough to fit the sidebar."""
    return CHOICE_SHORT.get(choice) or CHOICE_LABELS.get(choice, choice)


def choices_help(choices: tuple[str, ...]) -> str:
    """The choices in full words, for the box's help: what its short labels leave out."""
    return "Choices: " + "; ".join(CHOICE_LABELS.get(c, c) for c in choices) + "."


def option_label(spec: OptionSpec, unit_name: str = "tai") -> str:
    """The option's label in a rule set's unit (`unit_name`: "Min fan" under Malaysian rules)."""
    return re.sub(r"\btai\b", unit_name, spec.label)


@functools.lru_cache(maxsize=8)
def _hints(options_cls: type) -> dict[str, Any]:
    """The class's resolved annotations, resolved once per class (`typing.get_type_hints` evaluates
    every string annotation again on each call, ~1 ms for `Options`, three times a rerun); only read."""
    try:
        return typing.get_type_hints(options_cls)
    except Exception:  # an unresolvable annotation only costs us the hint; the default's type is used
        return {}


def _literal_choices(hint: Any) -> tuple[str, ...]:
    for candidate in (hint, *typing.get_args(hint)):
        if typing.get_origin(candidate) is typing.Literal:
            return tuple(str(a) for a in typing.get_args(candidate))
    return ()


def option_specs(options_cls: type, defaults: Any) -> list[OptionSpec]:
    """One spec per option field, with the default taken from the rule set's defaults."""
    specs: list[OptionSpec] = []
    hints = _hints(options_cls)
    for f in dataclasses.fields(options_cls):
        hint = hints.get(f.name)
        default = getattr(defaults, f.name)
        help_text = str(f.metadata.get("help", "")) if f.metadata else ""
        choices = tuple(str(c) for c in (f.metadata.get("choices") or ())) if f.metadata else ()
        if not choices:
            choices = _literal_choices(hint)
        if isinstance(default, bool):
            kind = "bool"
        elif choices:
            kind = "choice"
        elif hint is float or (isinstance(default, float) and hint is not int):
            # `unit: float = 1` has an int default but takes fractions.
            kind = "float"
        elif isinstance(default, int):
            kind = "int"
        elif isinstance(default, list | tuple) or default is None:
            kind = "list"
        else:
            kind = "text"
        rules = tuple(str(r) for r in (f.metadata.get("rules") or ())) if f.metadata else ()
        specs.append(
            OptionSpec(
                name=f.name,
                kind=kind,
                default=default,
                help=help_text,
                choices=choices,
                rules=rules,
                least=f.metadata.get("least"),
                most=f.metadata.get("most"),
            )
        )
    return specs


class OptionValueError(ValueError):
    """An option typed in the sidebar that cannot be read; the message quotes the input."""


Number = float | int
TableEntry = Number | list[Number]


def _number(token: str) -> Number:
    try:
        number = float(token)
    except ValueError as exc:
        raise OptionValueError(f"'{token}' is not a number") from exc
    if not math.isfinite(number):  # '1e400' and 'nan' read as floats, but no table pays them
        raise OptionValueError(f"'{token}' is not a finite number")
    return int(number) if number.is_integer() else number


def parse_number_list(text: str) -> list[TableEntry]:
    """A payout table typed as text, one entry per tai separated by commas: an amount (`4`) or a pair
    `shooter/each` (`4/2`). `"4/2, 7/3, 11"` -> `[[4, 2], [7, 3], 11]`; a bad entry raises
    OptionValueError quoting it."""
    values: list[TableEntry] = []
    for entry in text.replace(";", ",").split(","):
        entry = entry.strip()
        if not entry:
            continue
        if "/" in entry:
            parts = [p.strip() for p in entry.split("/")]
            if len(parts) != 2:
                raise OptionValueError(f"'{entry}' should be one amount or two like 4/2")
            values.append([_number(parts[0]), _number(parts[1])])
        else:
            values.append(_number(entry))
    if not values:
        raise OptionValueError("no amount typed (one per tai, separated by commas, like 1, 2, 4)")
    return values


def _fmt(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def format_number_list(values: Sequence[Any] | None) -> str:
    """The inverse of `parse_number_list`: `((4, 2), 11)` -> `"4/2, 11"`."""
    return ", ".join(
        "/".join(_fmt(v) for v in entry) if isinstance(entry, list | tuple) else _fmt(entry)
        for entry in values or ()
    )
