"""House-rule options of RULES.md: one frozen value, field names and defaults exactly as RULES.md names them.

Each field carries `metadata={"help": ...}` so a UI can build its settings from `dataclasses.fields(Options)`.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from scoring.errors import OptionError, json_value

PAYOUT_SCHEMES: tuple[str, ...] = ("standard", "shooter_pays", "table")
MALAYSIAN_PAYMENTS: tuple[str, ...] = ("seed", "discarder_and_other")

# The 3/6 chart of seeds/001: per tai, (shooter pays on a discard, each loser pays on a self-draw).
DEFAULT_PAYOUT_TABLE: tuple[tuple[float, float], ...] = ((4, 2), (7, 3), (11, 5), (20, 10), (40, 20))

TableRow = float | tuple[float, float]

# Amounts above this are typos, and they keep every payout a finite number.
MAX_AMOUNT = 1e12
MIN_AMOUNT = 1e-6  # the smallest amount paid: payouts are rounded to 6 decimals
# 2^(tai-1) payouts grow fast; a cap higher than this is a typo, not a house rule
MAX_TAI = 64

# A whole-number option's metadata "least" and "most" bound the number it takes alone (`_number`,
# `_check_together`: tests/scoring/test_input.py holds them to it), for a settings UI's bounds: the
# sidebar had let points_per_fan 0 be typed, and the scoring then refused it (an audit). Bounds between
# options (min_tai <= max_tai) are the scoring's to say, and so are an amount's (`unit`: its least
# paid and its 6 decimals, which a box's bounds cannot hold, are refused quoting it as typed).
# An option's metadata "rules" names the rule sets that read it (none: every rule set), so a UI can
# leave out the options a rule set ignores.
SINGAPORE_ONLY: tuple[str, ...] = ("singapore",)
MALAYSIAN_ONLY: tuple[str, ...] = ("malaysian",)


@dataclass(frozen=True)
class Options:
    """House rules (RULES.md, Options). Defaults are the Singapore ones; see `default_options`."""

    min_tai: int = field(
        default=1, metadata={"help": "Minimum tai (fan) for a valid win.", "least": 0, "most": MAX_TAI}
    )
    max_tai: int = field(
        default=5,
        metadata={
            "least": 1,
            "most": MAX_TAI,
            "help": "Cap on tai (fan). Singapore: a limit hand scores this cap. Malaysian: a limit-type "
            "hand scores 5 (big four winds 10), within the cap.",
        },
    )
    unit: float = field(
        default=1,
        metadata={
            "rules": SINGAPORE_ONLY,
            "help": "The base of a 1-tai hand (base = unit x 2^(tai - 1); the discarder pays 2 x base), "
            "and the unit of instant payouts; at most 6 decimals.",
        },
    )
    payout_scheme: str = field(
        default="standard",
        metadata={
            "rules": SINGAPORE_ONLY,
            "help": "standard, shooter_pays (discarder pays all on a discard) or table.",
            "choices": PAYOUT_SCHEMES,
        },
    )
    payout_table: tuple[TableRow, ...] = field(
        default=DEFAULT_PAYOUT_TABLE,
        metadata={
            "rules": SINGAPORE_ONLY,
            "help": "For the table scheme, per tai: an amount (base, standard shares) "
            "or [shooter pays on a discard, each loser pays on a self-draw]; amounts as they are "
            "(unit does not scale them; instant payouts stay in units).",
        },
    )
    instant_payouts: bool = field(
        default=True,
        metadata={"rules": SINGAPORE_ONLY, "help": "Show instant payouts: kongs, animal pairs, flower sets."},
    )
    self_draw_tai: bool = field(
        default=False, metadata={"rules": SINGAPORE_ONLY, "help": "A self-drawn win scores +1 tai."}
    )
    fully_concealed_tai: bool = field(
        default=True,
        metadata={
            "rules": SINGAPORE_ONLY,
            "help": "Fully concealed hand won by self-draw scores 1 tai (门清).",
        },
    )
    pure_green: bool = field(
        default=True,
        metadata={"rules": SINGAPORE_ONLY, "help": "Pure green (绿一色) scores 4; off: scored as a flush."},
    )
    humanly_hand: bool = field(
        default=True, metadata={"rules": SINGAPORE_ONLY, "help": "Humanly hand (人胡) is a limit hand."}
    )
    lesser_sequence_wait_rule: bool = field(
        default=False,
        metadata={
            "rules": SINGAPORE_ONLY,
            "help": "Lesser sequence hand (小平胡) also needs a two-sided wait.",
        },
    )
    north_wind: bool = field(
        default=True, metadata={"rules": MALAYSIAN_ONLY, "help": "Malaysian: the set keeps the North wind."}
    )
    points_per_fan: int = field(
        default=20,
        metadata={
            "rules": MALAYSIAN_ONLY,
            "least": 1,
            "most": int(MAX_AMOUNT),
            "help": "Malaysian: points per fan.",
        },
    )
    malaysian_payment: str = field(
        default="seed",
        metadata={
            "rules": MALAYSIAN_ONLY,
            "help": "Malaysian: seed (on a discard the discarder pays 2 x points, the third player nothing; "
            "on a self-draw each pays the points) or discarder_and_other (discarder 2 x, other 1 x; "
            "on a self-draw each pays 2 x points).",
            "choices": MALAYSIAN_PAYMENTS,
        },
    )


_RULESET_DEFAULTS: dict[str, Mapping[str, Any]] = {
    "singapore": {},
    "malaysian": {"min_tai": 5, "max_tai": 10},
}


def default_options(rules_name: str = "singapore") -> Options:
    """The RULES.md defaults of a rule set (`"singapore"`: min 1 / max 5; `"malaysian"`: min 5 / max 10)."""
    from scoring.errors import RulesetError

    if rules_name not in _RULESET_DEFAULTS:
        raise RulesetError(f"unknown rules {rules_name!r} (expected one of: {', '.join(_RULESET_DEFAULTS)})")
    return Options(**_RULESET_DEFAULTS[rules_name])


def exact_number(value: float) -> str:
    """A number as typed, every digit and no exponent (0.0000015, not 1.5e-06 or a rounded 0.000002),
    a whole one without its `.0`: how an option's value is quoted back."""
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return format(Decimal(repr(float(value))), "f")


def points_word(count: object) -> str:
    """ "point" for one, "points" for any other count: points per fan 1 (a house rule) had been said as
    "1 points a fan"."""
    return "point" if count == 1 else "points"


# the options that are amounts paid (the payout table's rows and the unit): each must be positive
_AMOUNTS = ("unit", "payout_table")


# the least whole number each option takes alone (its metadata "least"; 0 where it has none)
_LEAST: dict[str, int] = {
    option.name: int(option.metadata.get("least", 0)) for option in dataclasses.fields(Options)
}


def _shown(value: int | float) -> str:
    """A number past the bounds as the user wrote it, or a plain number: 1e13 had been quoted back as
    10000000000000.0 (an audit). Past 1e21 (where JSON writers turn to an exponent) it is said as
    `1e+300`, and a whole number too long to print by its size alone."""
    if isinstance(value, int):
        return str(value) if value.bit_length() < 64 else "a larger number"
    if not math.isfinite(value):
        return repr(value)
    return exact_number(value) if abs(value) < 1e21 else f"{value:g}"


def _number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise OptionError(f"option {name} must be a number, got {json_value(value)}")
    # a huge whole number is past float (isfinite would raise) and past printing (over 4,300 digits)
    within = (
        abs(value) <= MAX_AMOUNT
        if isinstance(value, int)
        else math.isfinite(value) and abs(value) <= MAX_AMOUNT
    )
    if not within:
        raise OptionError(f"option {name} must be a finite number up to {MAX_AMOUNT:g}, got {_shown(value)}")
    positive = name in _AMOUNTS or _LEAST.get(name, 0) > 0
    if value <= 0 if positive else value < 0:
        # one message for every value below the least, 0 and -1 alike (an audit: unit 0 had been "must
        # be positive" and -1 "must not be negative")
        what = f"option {name}{' amounts' if name == 'payout_table' else ''}"
        bound = "must be positive" if positive else "must not be negative"
        raise OptionError(f"{what} {bound}, got {exact_number(value)}")
    if 0 < value < MIN_AMOUNT:
        # amounts are paid to 6 decimals (scoring.payout): a smaller one would be paid as 0
        raise OptionError(
            f"option {name} is under {MIN_AMOUNT:.6f}, the smallest amount paid, got {exact_number(value)}"
        )
    if isinstance(value, float) and Decimal(repr(value)).as_tuple().exponent < -6:  # type: ignore[operator]
        # paid to 6 decimals, a finer amount would be rounded in each share, and the shares would no
        # longer add up to the winner's 4 x base, nor the basis' arithmetic read right
        raise OptionError(
            f"option {name} has more than 6 decimals, got {exact_number(value)}: amounts are paid to 0.000001"
        )
    return value


def _convert(name: str, value: object) -> object:
    """Check one option value against its field's type; return it in the field's form."""
    if name in ("min_tai", "max_tai", "points_per_fan"):
        number = _number(name, value)
        if number != int(number):
            raise OptionError(f"option {name} must be a whole number, got {json_value(value)}")
        return int(number)
    if name == "unit":
        return _number(name, value)
    if name in ("payout_scheme", "malaysian_payment"):
        return value  # checked with the options as a whole (_check_together), wherever they come from
    if name == "payout_table":
        if not isinstance(value, list | tuple) or not value:
            raise OptionError(
                f"option payout_table must be a non-empty list of amounts, got {json_value(value)}"
            )
        rows: list[TableRow] = []
        for row in value:
            if isinstance(row, list | tuple):
                if len(row) != 2:
                    raise OptionError(
                        f"option payout_table row {json_value(row)} must be [shooter pays, each pays on"
                        " self-draw]"
                    )
                rows.append((_number(name, row[0]), _number(name, row[1])))
            else:
                rows.append(_number(name, row))
        return tuple(rows)
    if not isinstance(value, bool):
        raise OptionError(f"option {name} must be true or false, got {json_value(value)}")
    return value


def option_assignments(items: Sequence[str]) -> dict[str, object]:
    """Command-line `--option` items (`max_tai=10`, `north_wind=false`) as name -> value: a value is
    JSON (10, true, [1,2]), a boolean or number typed loosely (`False`, `.5`) or else text
    (shooter_pays). Raises `OptionError` on an item that is not NAME=VALUE; names and values are
    checked where the options are built (`options_from_mapping`)."""
    options: dict[str, object] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"--option takes NAME=VALUE, got {json_value(item)}")
        options[name.strip()] = _typed_value(text.strip())
    return options


def _typed_value(text: str) -> object:
    """A command-line value as JSON reads it, and as a person types it where JSON is stricter:
    `False`, `TRUE` (booleans) and `.5`, `07`, `+7` (numbers); else the text itself."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON, a whole number too long for Python, or nested too
        pass  # deep for it (an audit, stage 78: "[" x 3000 was an internal error): read on below
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        number = float(text)
    except ValueError:
        return text
    # nan and inf are words a choice option would never take, and checked as numbers where they are
    return int(number) if number.is_integer() else number


def options_from_mapping(base: Options, overrides: Mapping[str, object]) -> Options:
    """`base` with the given fields replaced (None keeps `base`'s), each checked; raises `OptionError`
    naming every bad name and value, in the order given (so a file is mended in one pass)."""
    names = {f.name for f in dataclasses.fields(Options)}
    changes: dict[str, Any] = {}
    unknown: list[str] = []
    faults: list[str] = []
    for name, value in overrides.items():
        if name not in names:
            unknown.append(name)
            faults.append(f"unknown option {name!r}")
            continue
        if value is None:
            continue  # JSON null means the default, as it does for the hand's own fields
        try:
            changes[name] = _convert(name, value)
        except OptionError as error:
            faults.append(str(error))
    if faults:
        known = f" (known: {', '.join(sorted(names))})" if unknown else ""
        raise OptionError("; ".join(faults) + known)
    # every caller's `base` is a rule set's defaults: what the overrides leave is said as the default
    return checked_options(dataclasses.replace(base, **changes), given=set(changes))


def unread_options(rules_name: str, options: Options, given: Mapping[str, object]) -> list[str]:
    """The options `given` that rule set `rules_name` does not read (its metadata "rules" names other
    rule sets), set otherwise than that rule set's default in `options`: a house rule the scoring
    passes over, to warn of (one left at its default says nothing)."""
    defaults = default_options(rules_name)
    return [
        option.name
        for option in dataclasses.fields(Options)
        if option.name in given
        and not read_by(rules_name, option.name)
        and getattr(options, option.name) != getattr(defaults, option.name)
    ]


def option_value_text(value: object) -> str:
    """An option's value as typed on the command line (`true`, `[[4, 2], [7, 3]]`, `standard`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return json.dumps([list(row) if isinstance(row, tuple) else row for row in value])
    return exact_number(value) if isinstance(value, int | float) else str(value)


def option_lines() -> list[tuple[str, str, str]]:
    """Each option as (name, its default under each rule set that reads it, its help): the reference
    `python -m scoring --help` prints and docs/scoring.md's table copies."""
    from scoring.rulesets import RULESET_NAMES

    lines = []
    for option in dataclasses.fields(Options):
        readers = [name for name in RULESET_NAMES if read_by(name, option.name)]
        values = {name: option_value_text(getattr(default_options(name), option.name)) for name in readers}
        if len(set(values.values())) == 1:
            default = next(iter(values.values()))
            default += "" if len(readers) > 1 else f" ({readers[0]} only)"
        else:
            default = ", ".join(f"{value} ({name})" for name, value in values.items())
        lines.append((option.name, default, str(option.metadata.get("help", ""))))
    return lines


def read_by(rules_name: str, option_name: str) -> bool:
    """Whether rule set `rules_name` reads the option (its metadata "rules" names the sets that do)."""
    option = next(option for option in dataclasses.fields(Options) if option.name == option_name)
    return rules_name in option.metadata.get("rules", (rules_name,))


def checked_options(options: Options, given: Collection[str] | None = None) -> Options:
    """`options` with each value checked and in its field's form, as JSON's are (a whole number given as
    10.0 is 10, payout table rows given as lists are pairs), and checked together (`_check_together`;
    `given`: the names the user set, None for all, as an `Options` built in code sets them)."""
    if not isinstance(options, Options):
        raise OptionError(f"options must be an Options value, got {type(options).__name__}")
    converted: dict[str, Any] = {
        option.name: _convert(option.name, getattr(options, option.name))
        for option in dataclasses.fields(Options)
    }
    options = dataclasses.replace(options, **converted)
    _check_together(options, given)
    return options


# A JSON amount that is not whole is a double, exact to about 15 significant digits: past that the
# payout line and the basis would disagree in the last digits (an audit, stage 80: unit 999999999.999999
# at 5 tai paid +23,999,999,999.999977 against losers' 3 x 7,999,999,999.999992). Whole amounts are
# exact JSON integers at any size, so only stakes with decimals are bounded.
EXACT_DIGITS = 15
LARGEST_SHARE = 6  # the most a win pays, in bases: three losers paying 2 x base on a self-draw
# the most instant payouts pay together, in units: every item held from the deal (the flowers' and
# the seasons' sets 4 each, the animals 4 and their two pairs 4 each, the own flower and season 4),
# from each of three opponents
LARGEST_INSTANT = 72


def _decimals(value: float) -> int:
    exponent = Decimal(repr(float(value))).normalize().as_tuple().exponent
    return max(0, -int(exponent))


def check_exact_amounts(options: Options, ruleset_name: str) -> None:
    """Raise `OptionError` where Singapore stakes with decimals could make an amount of more digits than
    a JSON number holds exactly: the most a win pays (6 bases of `unit` at `max_tai`, or 6 of the payout
    table's largest, as a table scheme pays its rows) and, with instant payouts, the most they pay
    together (`LARGEST_INSTANT` units). Malaysian payments are whole points."""
    if ruleset_name != "singapore":
        return
    table = options.payout_scheme == "table"
    rows = [value for row in options.payout_table for value in (row if isinstance(row, tuple) else (row,))]
    stakes = [*rows] if table else [options.unit]
    largest = LARGEST_SHARE * (max(rows) if table else options.unit * 2.0 ** (options.max_tai - 1))
    if options.instant_payouts:
        stakes.append(options.unit)
        largest += LARGEST_INSTANT * options.unit
    decimals = max(_decimals(value) for value in stakes)
    if decimals and largest * 10**decimals >= 10**EXACT_DIGITS:
        unit = exact_number(options.unit)
        named = "option payout_table" if table else f"option unit {unit} with max_tai {options.max_tai}"
        if table and options.instant_payouts:
            named += f" and unit {unit}"
        raise OptionError(
            f"{named} could pay up to {largest:,.0f}, too many digits to pay exactly to {decimals} "
            f"decimal{'s' if decimals > 1 else ''}: lower the stakes, or use whole amounts"
        )


def _check_together(options: Options, given: Collection[str] | None = None) -> None:
    """Raise `OptionError` for option values, each of its field's type already, that contradict each
    other or make no sense (an `Options` built in code is checked as strictly as JSON); `given`: the
    options the user set (None: all of them), the others said as the defaults they are."""
    # each value on its own (max_tai 0, unit -1) is checked where it is converted (`_number`)
    if options.min_tai > options.max_tai:
        # a bound not given is the rule set's default, said so: "above max_tai 5" alone had left the
        # user to guess where the 5 came from (an audit)
        min_tai, max_tai = (
            f"{name} {getattr(options, name)}" + ("" if given is None or name in given else " (the default)")
            for name in ("min_tai", "max_tai")
        )
        raise OptionError(f"option {min_tai} is above {max_tai}")
    if options.max_tai > MAX_TAI:
        raise OptionError(f"option max_tai {options.max_tai} is too large (at most {MAX_TAI})")
    # the one check of the choices, for JSON and for an Options built in code alike: a misspelt one
    # must not fall through to another scheme's payments
    for name, choices in (("payout_scheme", PAYOUT_SCHEMES), ("malaysian_payment", MALAYSIAN_PAYMENTS)):
        value = getattr(options, name)
        if value not in choices:
            raise OptionError(f"option {name} must be one of {', '.join(choices)}, got {json_value(value)}")
    if options.payout_scheme == "table" and options.min_tai < 1:
        # the table's first row is the 1-tai amount: a 0-tai win has no row to pay
        raise OptionError(
            "option min_tai must be 1 or more with payout_scheme table: payout_table starts at 1 tai"
        )


def _table_paid_text(options: Options) -> str:
    """The payout table's rows a win can be paid by, to the cap, and how many past it are never used:
    a table longer than the cap had been written out whole (an audit: 100,000 rows made the first line
    800 KB long)."""
    table = options.payout_table
    paid = option_value_text(table[: options.max_tai])
    past = len(table) - options.max_tai
    return paid if past <= 0 else f"{paid} (and {past} row{'s' if past > 1 else ''} past the cap, never paid)"


# the options `rules_in_force` names first, whatever their value: what a table reading a score must know
_ALWAYS_SAID = ("min_tai", "max_tai", "unit", "points_per_fan")


def rules_in_force(rules_name: str, options: Options, unit_name: str) -> str:
    """The minimum, the cap and the stake a score was reached under, then every other option set
    otherwise than the rule set's default ("min 1 / max 10 tai, unit 1, house rules: pure_green=false"):
    a replayed case or a pasted summary that named none let a table assume the defaults (an audit, stage
    81: a summary of 13 tai under max 13 read as a 5-tai cap)."""
    defaults = default_options(rules_name)
    parts = [f"min {options.min_tai} / max {options.max_tai} {unit_name}"]
    table = read_by(rules_name, "payout_scheme") and options.payout_scheme == "table"
    if table:  # the amounts are the table's; the unit is the instant payouts' stake, where they are paid
        instant = f", instant payouts at unit {exact_number(options.unit)}" if options.instant_payouts else ""
        parts.append(f"amounts from the payout table {_table_paid_text(options)}{instant}")
    elif read_by(rules_name, "unit"):
        parts.append(f"unit {exact_number(options.unit)}")
    if read_by(rules_name, "points_per_fan"):
        parts.append(f"{options.points_per_fan} {points_word(options.points_per_fan)} a {unit_name}")
    others = [
        f"{option.name}={option_value_text(getattr(options, option.name))}"
        for option in dataclasses.fields(Options)
        if option.name not in _ALWAYS_SAID
        # the table is said with its scheme, and not at all under another (it is not used)
        and option.name != "payout_table"
        and not (table and option.name == "payout_scheme")
        and read_by(rules_name, option.name)
        and getattr(options, option.name) != getattr(defaults, option.name)
    ]
    if others:
        parts.append("house rules: " + ", ".join(others))
    return ", ".join(parts)
