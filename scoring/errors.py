"""Named errors for input that cannot be a hand at all (the CLI's exit 2).

A well-formed hand that is not a valid win is never an error: it is a `Score` with `valid=False`.
"""

from __future__ import annotations

import codecs
import json
import unicodedata
from typing import Any


class MalformedHandError(ValueError):
    """Input that cannot be a hand: the message is one line a player can act on."""


class UnknownTileError(MalformedHandError):
    """A token that is not a tile code of RULES.md; the message quotes the token."""


class HandStringError(MalformedHandError):
    """A compact hand string with a group that cannot be read (e.g. digits with no suit letter)."""


class MeldError(MalformedHandError):
    """A declared meld whose tiles do not form its kind; `where` names the meld in the input
    (`melds[1]`), before the message, as a tile's field is named; `reason` is the message without it."""

    def __init__(self, reason: str, where: str = "") -> None:
        super().__init__(f"{where}: {reason}" if where else reason)
        self.reason = reason
        self.where = where


class OptionError(MalformedHandError):
    """An unknown option name, a value of the wrong type, or values that contradict each other."""


class RulesetError(MalformedHandError):
    """An unknown rule set name."""


# a value's kind in JSON's words: what a user wrote in a file, not Python's names for it
_JSON_KINDS: dict[type, str] = {
    type(None): "null",
    str: "text",
    list: "a list",
    tuple: "a list",
    dict: "an object",
    bool: "true or false",
    int: "a number",
    float: "a number",
}


# an error line quotes what it was given; a pasted list of two million items must not make a line of
# megabytes
BRIEF_LIMIT = 300


def brief(message: str, limit: int = BRIEF_LIMIT) -> str:
    """`message` as one line of at most `limit` characters, its middle cut to an ellipsis where
    longer: what went wrong is said at the start ("cannot write") and often why at the end."""
    line = printable(" ".join(str(message).split()))
    if len(line) <= limit:
        return line
    head = limit * 2 // 3
    return line[:head] + "\u2026" + line[len(line) - (limit - head - 1) :]


def printable(text: str) -> str:
    """`text` with its control characters written as escapes (`\\x1b`): a file named with an escape
    sequence must not recolour or rewrite the user's terminal when a message names it."""
    return "".join(repr(char)[1:-1] if unicodedata.category(char) == "Cc" else char for char in text)


def json_value(value: object) -> str:
    """`value` as the JSON a user wrote it (`null`, `["E"]`, `{"a": 1}`), not Python's repr (`None`,
    `['E']`): an error line quotes what was written (an audit, stage 77). Text stays quoted as
    Python's repr quotes it, so that an option typed on the command line reads as before."""
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return repr(value)


def json_kind(value: object) -> str:
    """What `value` is, as JSON names it ("a list", "text", "null"); Python's name for anything else."""
    return _JSON_KINDS.get(type(value), type(value).__name__)


# The byte-order marks of the encodings an editor saves a JSON file in: UTF-8 (with or without one) and
# UTF-16 (Windows Notepad's "Unicode"); UTF-32's first, as its little-endian mark starts as UTF-16's does
_UTF32_MARKS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)
_MARKED = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


def decoded_text(data: bytes, name: str) -> str:
    """The text of file `name` (`data` as read): UTF-8, or UTF-8 or UTF-16 after a byte-order mark, as
    a user's editor saves it; else MalformedHandError in one line (an audit: a case saved as UTF-16 by
    Notepad was refused as "not UTF-8 text"). A NUL byte is no JSON in UTF-8: UTF-16 without its mark
    is refused so too, where it had been "not valid JSON: Expecting property name"."""
    refused = MalformedHandError(f"{name} is not UTF-8 text, nor UTF-16 with a byte-order mark")
    if data.startswith(_UTF32_MARKS):
        raise refused
    mark, encoding = next(((m, e) for m, e in _MARKED if data.startswith(m)), (b"", "utf-8"))
    try:
        text = data[len(mark) :].decode(encoding)
    except UnicodeDecodeError:
        raise refused from None
    if not mark and "\0" in text:
        raise refused
    return text


# the most bytes a character takes in the encodings `decoded_text` reads (UTF-8: 4; UTF-16: 2 or 4)
MOST_BYTES_A_CHARACTER = 4


def text_within(data: bytes, name: str, most: int) -> str | None:
    """The text of file `name` (`decoded_text`), or None where it holds over `most` characters: a limit
    in characters, so a file saved as UTF-16 is held to the same length of text as its UTF-8 (an audit:
    the app's byte limit refused a Notepad "Unicode" case at half the text). Bytes over any encoding's
    `most` characters are not decoded at all, to bound the memory a huge file takes."""
    if len(data) > MOST_BYTES_A_CHARACTER * most:
        return None
    text = decoded_text(data, name)
    return None if len(text) > most else text


class _DuplicateKey(Exception):
    """A JSON object naming one key twice (not a ValueError: `json_object` tells it from json's own)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's pairs as a dict, refusing a key given twice: json keeps the last value without a
    word, and a file with two "concealed" settles a dispute by whichever came last (an audit)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _DuplicateKey(key)
        data[key] = value
    return data


# json's messages in a player's words, by how each starts (Python 3.11's, and 3.13's trailing commas):
# "Expecting ',' delimiter at line 1 column 26" quoted the parser to a user who had missed a comma (an
# audit). The position json gives is kept, as the place to look.
_JSON_TROUBLES: tuple[tuple[str, str], ...] = (
    ("Expecting ',' delimiter", "a comma is missing"),
    ("Expecting ':' delimiter", "a colon is missing after a key"),
    # a trailing comma before } reads so too, before Python 3.13
    (
        "Expecting property name",
        "a key in double quotes should stand here; is there a comma too many, or single quotes?",
    ),
    ("Expecting value", "a value should stand here; is there a comma too many, or text in single quotes?"),
    ("Unterminated string", "a text in quotes starts here and is never closed"),
    ("Invalid control character", "a line break or tab inside quotes; write it as \\n or \\t"),
    ("Invalid \\uXXXX escape", "a \\u escape needs four hex digits"),
    ("Invalid \\escape", "a backslash inside quotes starts no escape; write \\\\ for one"),
    ("Extra data", "more follows the end of the JSON object"),
    ("Illegal trailing comma", "a comma too many before a closing bracket"),
)


def json_trouble(name: str, error: json.JSONDecodeError) -> str:
    """The one line saying where and why file `name` is not valid JSON, in plain words: where json puts
    it, as line and column, and what is wrong there (`_JSON_TROUBLES`; a message of json's not among
    them says only where)."""
    why = next((said for start, said in _JSON_TROUBLES if error.msg.startswith(start)), None)
    here = error.doc[error.pos :]
    if error.msg.startswith(("Expecting value", "Extra data")) and not error.doc[
        : error.pos
    ].lstrip().startswith(("{", "[", '"')):
        # a text file, a photo's name, a hand typed alone (`123m 456p ...` read as the number 123, then
        # more: "more follows the end of the JSON object" said nothing of what a file holds; stage 89)
        why = "it does not start as JSON does: a hand's file starts with {"
    elif here.startswith(("True", "False", "None")):
        # Python's words, typed into a file (stage 89: "is there a comma too many?" said nothing of them)
        why = "JSON writes true, false and null in small letters"
    elif here.startswith(("\u201c", "\u201d", "\u2018", "\u2019")):
        # a phone's or word processor's curly quotes (stage 89: told of commas and single quotes)
        why = 'curly quotes: JSON takes straight double quotes (")'
    where = f"line {error.lineno}, column {error.colno}"
    return f"{name} is not valid JSON ({where}: {why})" if why else f"{name} is not valid JSON ({where})"


def json_object(text: str, name: str, what: str) -> dict[str, Any]:
    """`text` (from file `name`) read as a JSON object, or MalformedHandError in one line; `what` it must
    be ("a hand", "a case") names what a too deeply nested file cannot be. A key given twice in one
    object, at any depth, is refused: which value was meant cannot be told."""
    if not text.strip():  # `python -m vision PHOTO --json | python -m scoring -` where vision failed
        raise MalformedHandError(f"{name} is empty")
    try:
        # some editors on Windows start UTF-8 files with a byte-order mark
        data = json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_refuse_duplicates)
    except _DuplicateKey as duplicate:
        key = brief(json.dumps(duplicate.key, ensure_ascii=False), 100)
        raise MalformedHandError(
            f"{name} gives the key {key} twice in one object: say it once, with the value meant"
        ) from None
    except json.JSONDecodeError as error:
        raise MalformedHandError(json_trouble(name, error)) from None
    except RecursionError:
        raise MalformedHandError(f"{name} is nested too deeply to be {what}") from None
    except ValueError:  # a whole number of over 4,300 digits, which Python refuses to convert
        raise MalformedHandError(f"{name} holds a number too long to read") from None
    if not isinstance(data, dict):
        raise MalformedHandError(f"{name} must hold a JSON object, not {json_kind(data)}")
    return data
