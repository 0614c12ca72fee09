"""`python -m scoring FILE [--json] [--rules NAME] [--seat E] [--prevailing S] [--self-drawn | --discard]
[--winning-tile 3m] [--discarder W] [--pay-all] [--circumstance NAME ...] [--option max_tai=10]`: score a
hand given as JSON (`-` reads stdin).

Exit 0: a valid win; 1: a well-formed hand that is not a valid win; 2: malformed input (one line on stderr);
`EXIT_STATUS` is what `--help` and docs/scoring.md say of each.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import textwrap
import unicodedata
from typing import Any

from scoring.api import (
    hand_of,
    limits_not_added,
    other_reading_lines,
    place_hint,
    read_inputs,
    reading_warning_lines,
    score_json,
    unused_beside,
    unused_beside_warning,
)
from scoring.console import (
    OneLineParser,
    escape_what_cannot_print,
    file_error_words,
    is_terminal,
    names_a_terminal,
    say,
)
from scoring.errors import (
    MOST_BYTES_A_CHARACTER,
    MalformedHandError,
    json_object,
    json_value,
    printable,
    text_within,
)
from scoring.hand import CIRCUMSTANCES, WINNING_TILE_PLACES, hand_from_json
from scoring.options import option_assignments, option_lines, points_word, rules_in_force
from scoring.payout import format_amount, instant_text
from scoring.rulesets import RULESET_NAMES
from scoring.tiles import TILE_CODES_HELP

# the app's typed fields' reader: a hand typed there (`123M`, 東東東, 🀇🀈🀉, 紅中) is read alike here, by
# one parser (an audit: the command line refused what the app took)
from scoring.typed import TYPED_ALSO
from scoring.typed_fields import typed_circumstances, typed_hand, typed_one, typed_options
from scoring.winning_tiles import Outcome, changes_the_score, ways_text, winning_tile_outcomes

# The breakdown's own marks, which no tile code explains (an audit: a new reader met [111s] and
# <5555s> in the Reading line with nothing to say what they are).
READING_HELP = (
    "the breakdown's Reading line: [456s] a meld laid down exposed, <5555s> a concealed kong (or a "
    "set given as concealed), 456p(fly=6p) a fly standing for 6p; each pattern row gives its tai "
    "(fan) and why; the payout's signed amounts (+ receives, - pays) sum to zero."
)

# what a hand typed in the app's fields may hold beside the codes, said as the app says it
TYPED_HELP = (
    "The tile fields (concealed, a meld's tiles, bonus) and --winning-tile read tiles as the app's typed "
    f"hand does: in any letter case (123M, ccc, f1). {TYPED_ALSO} The file's winds (seat_wind, "
    "prevailing_wind, discarder_wind) read as --seat does, its rules as --rules does."
)


# each exit status `main` gives, as --help and docs/scoring.md say them (an audit: 141 went unsaid), in the
# form `python -m vision` says its own (`vision.cli.EXIT_STATUS`)
EXIT_STATUS = (
    "Exit status: 0 a valid win; 1 a well-formed hand that is not a valid win; 2 with one line on stderr"
    " when the input is malformed, the command line is wrong, the output cannot be written, or on an"
    " internal error (a bug, never a traceback); 130 interrupted (Ctrl-C); 141 when the reader of the"
    " output went away (`| head`)."
)


def _options_epilog() -> str:
    """The tile codes, and every house rule `--option` takes with its defaults: a table must not need
    RULES.md to find them (an audit guessed RRR for the red dragons)."""
    lines = [*textwrap.wrap(TILE_CODES_HELP, width=100), "", *textwrap.wrap(TYPED_HELP, width=100), ""]
    lines += [*textwrap.wrap(READING_HELP, width=100), ""]
    lines += textwrap.wrap(
        f"circumstances (--circumstance NAME, repeatable; docs/scoring.md says what each is): "
        f"{', '.join(CIRCUMSTANCES)}",
        width=100,
    )
    lines += ["", 'options (--option NAME=VALUE, or the JSON\'s "options" object):']
    for name, default, help_text in option_lines():
        lines.append(f"  {name} = {default}")
        lines.extend(textwrap.wrap(help_text, width=96, initial_indent="      ", subsequent_indent="      "))
    return "\n".join([*lines, "", *textwrap.wrap(EXIT_STATUS, width=100)])


def _place_word(text: str) -> str:
    """A place flag's word in any case and spacing (`Hand`), as argparse's choices compare it."""
    return text.strip().lower()


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="python -m scoring",
        description="Score a mahjong hand given as JSON.",
        epilog=_options_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", help="hand JSON file, or - for stdin (also the output of python -m vision PHOTO --json)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a readable breakdown")
    # each default said (an audit: `--discarder E` met "the winner's own seat", the seat E unsaid)
    parser.add_argument(
        "--rules", help="rule set: singapore or malaysian, any case (default: the file's, else singapore)"
    )
    parser.add_argument(
        "--seat",
        help="the winner's seat wind E S W N, any case, or east ... north, 東 南 西 北 (Malaysian: E S W; "
        "default: the file's, else E)",
    )
    parser.add_argument(
        "--prevailing",
        help="prevailing wind E S W N, read as --seat is (no N with --option north_wind=false; default: the "
        "file's, else E)",
    )
    drawn = parser.add_mutually_exclusive_group()
    drawn.add_argument("--self-drawn", action="store_true", help="the winning tile was self-drawn")
    drawn.add_argument(
        "--discard",
        action="store_true",
        help="the winning tile was a discard (over the file's; with neither flag: the file's, else a"
        " discard)",
    )
    parser.add_argument(
        "--winning-tile", help="the winning tile, e.g. 3m, typed as the app reads it (3M, 紅中, 🀄 too)"
    )
    parser.add_argument(
        "--discarder",
        help="the seat that discarded the winning tile, read as --seat is (under --pay-all: the liable one)",
    )
    parser.add_argument(
        "--winning-tile-into",
        choices=(*WINNING_TILE_PLACES, "either"),
        type=_place_word,  # `Hand` as the file's `"winning_tile_into": "Hand"` is read (stage 89)
        help="where the winning discard went: hand (every laid-down meld was claimed before it) or meld "
        "(an exposed chow or pong laid down with it); either (or unsaid): the place that scores best counts",
    )
    parser.add_argument("--pay-all", action="store_true", help="pay-all: one liable player pays everything")
    parser.add_argument(
        "--circumstance",
        action="append",
        default=[],
        metavar="NAME",
        help="how it was won, e.g. robbing_kong (repeatable; the list is below)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override an option, e.g. max_tai=10 (repeatable)",
    )
    return parser


# A hand, a photo's reading or the app's case file is kilobytes. Read no further than this: a file of
# tens of megabytes took minutes to refuse, and /dev/zero or an endless pipe was read until memory ran out.
MAX_INPUT_CHARS = 4_000_000
MAX_BYTES = MOST_BYTES_A_CHARACTER * MAX_INPUT_CHARS  # read no more: over the limit in any encoding


TYPING_PROMPT = (
    'reading the hand from the terminal: type its JSON, e.g. {"concealed": "123m 456p 789s CCC 55p"},'
    " then Ctrl-D on a line of its own (Ctrl-C stops)"
)


# how the photo formats `python -m vision` reads begin (HEIC and AVIF: an ISO box `ftyp` at byte 4)
PHOTO_STARTS = (b"\xff\xd8\xff", b"\x89PNG", b"GIF8", b"BM", b"II*\x00", b"MM\x00*")


def looks_like_a_photo(data: bytes) -> bool:
    """Whether `data` begins as a photo does: samples/ holds each hand's photo beside its JSON, and a
    photo given here was "not UTF-8 text, nor UTF-16 with a byte-order mark" (an audit)."""
    return (
        data.startswith(PHOTO_STARTS)
        or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")
        or data[4:8] == b"ftyp"
    )


def _refuse_a_photo(data: bytes, name: str, path: str) -> None:
    if looks_like_a_photo(data):
        raise MalformedHandError(
            f"{name} is a photo, not a hand's JSON: read its tiles with"
            f" python -m vision {path} --json | python -m scoring -"
        )


def _read(path: str) -> dict[str, Any]:
    name = "the standard input" if path == "-" else path
    try:
        if path == "-":
            if sys.stdin is None:  # started with its input closed (`<&-`)
                raise MalformedHandError("cannot read the standard input: it is closed")
            if is_terminal(sys.stdin):  # `python -m scoring -` typed alone sat silent, waiting (an audit)
                say(TYPING_PROMPT)
            # as bytes, decoded as a file is: a stray byte is refused alike, not read as an escape
            # over the limit in any encoding is refused undecoded: decoding a cut that split a character
            # would have said "not UTF-8 text"
            raw = sys.stdin.buffer.read(MAX_BYTES + 1) if hasattr(sys.stdin, "buffer") else None
            _refuse_a_photo(raw or b"", name, path)
            text = (
                text_within(raw, name, MAX_INPUT_CHARS)
                if raw is not None
                else sys.stdin.read(MAX_INPUT_CHARS + 1)
            )
        else:
            if names_a_terminal(path):  # `/dev/stdin` typed at a terminal waits as `-` does: said alike
                say(TYPING_PROMPT)
            # as bytes, for the encoding a user's editor saved it in (UTF-16 from Notepad), as the app
            # opens it (`app_ui.case_open`)
            with open(path, "rb") as handle:
                raw = handle.read(MAX_BYTES + 1)
            _refuse_a_photo(raw, name, path)
            text = text_within(raw, name, MAX_INPUT_CHARS)
    except OSError as error:
        raise MalformedHandError(f"cannot read {path}: {file_error_words(error)}") from None
    except UnicodeDecodeError:  # a text standard input (no bytes to read) given bytes it cannot decode
        raise MalformedHandError(f"{name} is not UTF-8 text") from None
    if text is None or len(text) > MAX_INPUT_CHARS:
        raise MalformedHandError(_too_large(name))
    return json_object(text, name, "a hand")


def _too_large(name: str) -> str:
    return f"{name} is too large to be a hand (over {MAX_INPUT_CHARS:,} characters)"


# each flag that gives a field of the file, as argparse names it, and the field
FLAG_FIELDS = (
    ("rules", "rules"),
    ("seat", "seat_wind"),
    ("prevailing", "prevailing_wind"),
    ("winning_tile", "winning_tile"),
    ("discarder", "discarder_wind"),
)


def flagged_fields(args: argparse.Namespace) -> dict[str, str]:
    """The fields a flag gave, each with its flag (`seat_wind` -> `--seat`); `rules` is left out, as
    its flag bears its name and the word is prose in other messages ("not part of singapore rules")."""
    return {
        field: f"--{flag.replace('_', '-')}"
        for flag, field in FLAG_FIELDS
        if field != "rules" and getattr(args, flag) is not None
    }


def in_flag_words(message: str, flagged: dict[str, str]) -> str:
    """An error `message` with each field a flag gave named by the flag: "--winning-tile: unknown tile
    code '5q'", not "winning_tile: ...", where the 5q was typed on the command line (an audit); a
    field read from the file keeps its name."""
    for field, flag in flagged.items():
        message = re.sub(rf"\b{field}\b", flag, message)
    return message


def said_in_flag_words(result: dict[str, Any], flagged: dict[str, str]) -> dict[str, Any]:
    """The result for the text breakdown, its verdict and warnings naming each field a flag gave by the
    flag, as errors do (`in_flag_words`): `--discarder E` with the default seat E read "discarder_wind E
    is the winner's own seat", a field the user never typed (an audit). The JSON keeps the fields' names."""
    return {
        **result,
        "message": in_flag_words(result["message"], flagged),
        "warnings": [in_flag_words(warning, flagged) for warning in result["warnings"]],
    }


def flag_value(flag: str, value: str) -> str:
    """A flag's value as the scoring reads it (`typed_one` of the field it gives)."""
    return typed_one(dict(FLAG_FIELDS)[flag], value)


def apply_flags(data: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The file's fields with the command-line flags laid over them."""
    data = dict(data)
    for flag, field in FLAG_FIELDS:
        value = getattr(args, flag)
        if value is not None and not value.strip():
            # an empty flag (`--seat "$SEAT"` with SEAT unset) would quietly leave the default standing
            raise MalformedHandError(f"--{flag.replace('_', '-')} needs a value")
        if value is not None:
            data[field] = flag_value(flag, value)
    if args.self_drawn or args.discard:
        data["self_drawn"] = bool(args.self_drawn)
    if args.winning_tile_into == "either":
        data.pop("winning_tile_into", None)  # over a file's place, as --discard is over its self-draw
        if isinstance(data.get("hand"), dict):
            data["hand"] = {key: value for key, value in data["hand"].items() if key != "winning_tile_into"}
    elif args.winning_tile_into:
        data["winning_tile_into"] = args.winning_tile_into
    if args.pay_all:
        data["pay_all"] = True
    if args.circumstance:
        given = data.get("circumstances") or []
        # one name, as the scoring reads a file's (an audit, stage 78: the flag refused it)
        if isinstance(given, str):
            given = [given]
        if not isinstance(given, list):
            raise MalformedHandError(f"circumstances must be a list, got {json_value(given)}")
        typed = [code for name in args.circumstance for code in typed_circumstances(name)]
        data["circumstances"] = [*given, *(name for name in typed if name not in given)]
    if args.option:
        given = data.get("options")
        if given is not None and not isinstance(given, dict):
            raise MalformedHandError(f"options must be an object, got {json_value(given)}")
        # the flags' names in any case, as the file's are (`typed_hand`); OptionError is malformed
        data["options"] = dict(given or {}) | typed_options(option_assignments(args.option))
    return data


def scored_alike(saved: dict[str, Any], flagged: dict[str, Any]) -> bool:
    """Whether the flags leave what is scored as the file has it (`--seat E` on a case saved for
    East, or with no seat: East): its saved result is then still compared (before stage 81 any flag
    dropped the comparison). A file that cannot be read is not alike, and its error is said later."""
    if flagged == saved:
        return True
    try:
        before, after = read_inputs(saved), read_inputs(flagged)
    except MalformedHandError:
        return False
    return (before.hand, before.context, before.options) == (after.hand, after.context, after.options) and (
        before.ruleset.name == after.ruleset.name
    )


def _player(share: dict[str, Any]) -> str:
    """A payout's player: its role, and its seat where known ("discarder (S)"). The liable player of
    a pay-all is named so, as the result's message names it (the JSON reports it as `discarder`)."""
    role = "liable player" if share.get("liable") else str(share["role"])
    return f"{role} ({share['seat']})" if share.get("seat") else role


def other_rules_hint(data: dict[str, Any], result: dict[str, Any]) -> str | None:
    """Where the hand's tiles are not in its rule set's set but are in another's (a Malaysian reading
    scored without --rules), the --rules to give."""
    if result.get("reason") != "tile_not_in_set":
        return None
    if score_json({**data, "options": {}}).get("reason") != "tile_not_in_set":
        return None  # an option left the tiles out (north_wind off): the message says which
    for name in RULESET_NAMES:
        if name == result.get("rules"):
            continue
        try:
            again = score_json({**data, "rules": name})
        except MalformedHandError:
            continue
        if again.get("reason") != "tile_not_in_set":
            return f"Hint: the tiles are all in the {name.capitalize()} set: give --rules {name}."
    return None


# the longest pattern's name with its Chinese name, as a console shows it ("Bomb: fully concealed, won
# on a discard (门清吃胡)"): the tai column stands clear of every name
NAME_COLUMNS = 50


def padded(text: str, columns: int) -> str:
    """`text` padded to `columns` as a console shows it: a Chinese character takes two (an audit saw
    the tai column wander by the patterns' Chinese names)."""
    width = sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)
    return text + " " * max(columns - width, 0)


def winning_tile_ways(data: dict[str, Any], result: dict[str, Any]) -> list[Outcome]:
    """Where no winning tile is given and it changes the score (a photo's reading never has one: a
    sequence hand then reads as no win), each tile that may have won it and the score it gives; else
    none."""
    if data.get("winning_tile"):
        return []
    hand, _ = hand_from_json(data)  # the tiles as lists, as the app's scoring input holds them
    as_lists = {
        "concealed": list(hand.concealed),
        "melds": [{"kind": m.kind, "tiles": list(m.tiles), "concealed": m.concealed} for m in hand.melds],
        "bonus": list(hand.bonus),
    }
    outcomes = winning_tile_outcomes({**data, **as_lists})
    return outcomes if changes_the_score(result, outcomes) else []


def seats_hint(result: dict[str, Any]) -> str | None:
    """Where the payout names a player by role alone (a discard win, or a pay-all, with no
    `discarder_wind`), the flag that names every seat: an audit read "discarder -16, other -8, other
    -8" and could not tell who pays what."""
    players = result["payout"]["players"] if result.get("valid") else []
    if all(player.get("seat") for player in players):
        return None
    return (
        "Hint: give --discarder SEAT (a file's discarder_wind: the discarder's seat, or under pay-all "
        "the liable player's) to name every player's seat."
    )


def place_line(data: dict[str, Any], result: dict[str, Any]) -> str | None:
    """Where the winning discard went changes the score and the input does not say: each place's score
    and the flag that settles it."""
    hint = place_hint(data, result)
    return f"{hint}. Give it with --winning-tile-into hand or meld." if hint else None


def winning_tile_line(ways: list[Outcome], unit: str) -> str | None:
    """The breakdown's last line for `winning_tile_ways`."""
    if not ways:
        return None
    return f"The winning tile changes the score: won on {ways_text(ways, unit)}. Give it with --winning-tile."


def ways_json(ways: list[Outcome]) -> list[dict[str, Any]]:
    """`winning_tile_ways` as the JSON output carries them: `--json` had no word of them (stage 77)."""
    return [{"tiles": list(way.tiles), "valid": way.valid, "tai": way.tai} for way in ways]


def render(result: dict[str, Any], in_force: str | None = None) -> str:
    """A readable breakdown of the output JSON; `in_force`: the options it was scored under, in words
    (`options.rules_in_force`)."""
    unit = result["unit"]
    lines = [f"Rules: {result['rules']}" + (f" ({in_force})" if in_force else "")]
    if result["arrangement"]:
        lines.append(f"Reading: {result['arrangement']}")
    for pattern in result["patterns"]:
        name = f"{pattern['name']} ({pattern['name_zh']})"
        lines.append(f"  {padded(name, NAME_COLUMNS)} {pattern['tai']:>3}  {pattern['reason']}")
    if result["valid"]:
        total = f"Total: {result['tai']} {unit}"
        if result["raw_tai"] != result["tai"]:
            total += f" (raw {result['raw_tai']})"
        if result["points"] is not None:
            total += f" = {result['points']} {points_word(result['points'])}"
        not_added = limits_not_added(result)
        lines.append(total + (f" ({not_added})" if not_added else ""))
    lines.append(result["message"])
    payout = result["payout"]
    if result["valid"]:
        shares = ", ".join(
            f"{_player(share)} {format_amount(share['amount'], signed=True)}" for share in payout["players"]
        )
        lines.append(f"Payout: {shares}")
        if payout.get("basis"):
            lines.append(f"  ({payout['basis']})")
    lines.extend(other_reading_lines(result))
    for item in payout["instant_payouts"]:
        lines.append(f"Instant payout: {instant_text(item)}")
    lines.extend(f"Warning: {warning}" for warning in result["warnings"])
    return "\n".join(printable(line) for line in lines)


def main(argv: list[str] | None = None) -> int:
    """Score the command line's hand (the module docstring); Ctrl-C is exit 130, not a traceback (an
    audit: one waiting on the standard input showed Python's)."""
    try:
        return _score(argv)
    except KeyboardInterrupt:
        return 130


def _score(argv: list[str] | None) -> int:
    escape_what_cannot_print()
    args: argparse.Namespace | None = None
    try:
        args = _parser().parse_args(argv)
        given = _read(args.file)
        as_saved = typed_hand(hand_of(given))
        data = apply_flags(as_saved, args)
        if not scored_alike(as_saved, data):
            # the result a case was saved with is of the case as saved, not of what the flags ask
            data.pop("result", None)
        result = score_json(data)
        result["warnings"].extend(unused_beside_warning(key) for key in unused_beside(given))
        result["warnings"].extend(reading_warning_lines(given))
        ways = winning_tile_ways(data, result)
        if args.json:
            result["winning_tile_ways"] = ways_json(ways)
        unit = str(result.get("unit") or "tai")
        hints = (
            []
            if args.json
            else [
                winning_tile_line(ways, unit),
                place_line(data, result),
                other_rules_hint(data, result),
                seats_hint(result),
            ]
        )
        inputs = read_inputs(hand_of(data))
        in_force = rules_in_force(inputs.ruleset.name, inputs.options, inputs.ruleset.unit_name)
    except MalformedHandError as error:
        say(f"error: {in_flag_words(str(error), flagged_fields(args)) if args else error}")
        return 2
    except Exception as error:  # a bug must still not show a traceback to a player
        say(f"error: internal error while scoring: {type(error).__name__}: {error}")
        return 2
    try:
        if sys.stdout is None:  # started with its output closed (`>&-`)
            raise OSError("standard output is closed")
        if args.json:
            print(json.dumps(result, ensure_ascii=False, indent=2))
        else:
            print(render(said_in_flag_words(result, flagged_fields(args)), in_force))
        for hint in filter(None, hints):
            print(printable(hint))
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader of our output went away (`| head`): stop quietly, as other command-line tools do
        _drop_output()
        return 141
    except OSError as error:  # a full disk: what was not written is said, once
        say(f"error: cannot write the output: {error.strerror or error}")
        _drop_output()
        return 2
    return 0 if result["valid"] else 1


def _drop_output() -> None:
    """Send what is left of stdout nowhere: Python would complain again when it flushes it at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
