"""`scoring.errors`: every error line a user sees is one line of bounded length, in a player's words."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import MalformedHandError, brief, json_object, json_trouble, printable


@given(st.text(), st.integers(min_value=10, max_value=400))
def test_brief_is_one_line_within_its_limit(message: str, limit: int) -> None:
    line = brief(message, limit)
    assert len(line) <= limit
    assert line == " ".join(line.split())  # no newline, tab or doubled space left
    # control characters (an escape sequence in a file name) are written as escapes, not sent raw
    assert not any(unicodedata.category(char) == "Cc" for char in line)
    whole = printable(" ".join(message.split()))
    if len(whole) <= limit:
        assert line == whole
    else:  # both ends kept: what failed at the start, often why at the end
        head, tail = line.split("\u2026") if line.count("\u2026") == 1 else (line[: limit * 2 // 3], "")
        assert whole.startswith(head) and whole.endswith(tail) and len(line) == limit


def test_brief_keeps_the_reason_at_the_end_of_a_long_quoted_value() -> None:
    line = brief("cannot write /" + "a" * 1000 + ".png: File name too long")
    assert line.startswith("cannot write /aaa") and line.endswith(".png: File name too long")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"a": 1 "b": 2}', "(line 1, column 9: a comma is missing)"),
        ('{"a" 1}', "(line 1, column 6: a colon is missing after a key)"),
        (
            '{"a": 1,}',
            "(line 1, column 9: a key in double quotes should stand here; is there a comma too many",
        ),
        (
            "[1,]",
            "(line 1, column 4: a value should stand here; is there a comma too many, or text in single",
        ),
        ('{\n  "a": "x', "(line 2, column 8: a text in quotes starts here and is never closed)"),
        ('{"a": "x\ty"}', "(line 1, column 9: a line break or tab inside quotes; write it as \\n or \\t)"),
        ('{"a": "\\q"}', "(line 1, column 8: a backslash inside quotes starts no escape"),
        ('{"a": "\\u12"}', "(line 1, column 9: a \\u escape needs four hex digits)"),
        ("{} x", "(line 1, column 4: more follows the end of the JSON object)"),
        ("  hello", "(line 1, column 3: it does not start as JSON does"),
        # stage 89: what players save by hand, each told of commas and single quotes or of "more"
        ("123m 456p 789s CCC 55p", "(line 1, column 4: it does not start as JSON does: a hand's file starts"),
        ('{"self_drawn": True}', "(line 1, column 16: JSON writes true, false and null in small letters)"),
        ('{"melds": None}', "(line 1, column 11: JSON writes true, false and null in small letters)"),
        (
            "{\u201cconcealed\u201d: 1}",
            '(line 1, column 2: curly quotes: JSON takes straight double quotes (")',
        ),
    ],
)
def test_malformed_json_is_said_in_plain_words_where_it_breaks(text: str, said: str) -> None:
    with pytest.raises(MalformedHandError) as refused:
        json_object(text, "hand.json", "a hand")
    line = str(refused.value)
    assert line.startswith("hand.json is not valid JSON " + said), line
    # none of json's own words ("Expecting ',' delimiter", "Unterminated string starting at")
    with pytest.raises(json.JSONDecodeError) as parser:
        json.loads(text)
    assert parser.value.msg.split(" at")[0] not in line and "Expecting" not in line


def test_a_message_json_has_no_words_for_still_says_where() -> None:
    error = json.JSONDecodeError("Some new complaint", '{"a": 1}', 3)
    assert json_trouble("hand.json", error) == "hand.json is not valid JSON (line 1, column 4)"
