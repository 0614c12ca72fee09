"""`scoring.errors.brief`: every error line a user sees is one line of bounded length."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import brief, printable


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
