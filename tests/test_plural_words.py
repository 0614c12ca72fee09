"""A count said to a user is said in words ("1 box", "2 boxes"), never as "2 box(es)": an audit found
"left out 19 box(es)" in a reader's line. `vision.lines.count_of` words it, for the reader and the app."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

from app_ui.photo_reading import NO_TILES_FOUND, no_tiles_line
from vision.lines import count_of

ROOT = Path(__file__).resolve().parents[1]
# a noun with its plural ending in brackets, as "tile(s)" or "box(es)"
BRACKETED_PLURAL = re.compile(r"[a-z]\((?:s|es)\)")


def test_a_count_is_said_in_words() -> None:
    assert [count_of(n, "tile") for n in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]
    assert [count_of(n, "box", "boxes") for n in (1, 19)] == ["1 box", "19 boxes"]


def _formatted_strings(path: Path) -> list[tuple[int, str]]:
    """The f-strings of `path` (what a line is built from), with their line numbers."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [
        (token.start[0], token.string)
        for token in tokens
        if token.type == tokenize.STRING and "f" in token.string.split("'")[0].split('"')[0].lower()
    ]


@pytest.mark.parametrize("package", ["vision", "app_ui", "datasets", "scoring", "bench"])
def test_no_line_built_for_a_user_brackets_a_plural(package: str) -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in sorted((ROOT / package).glob("*.py"))
        for line, text in _formatted_strings(path)
        if BRACKETED_PLURAL.search(text)
    ]
    assert not found, found


@pytest.mark.parametrize(("count", "said"), [(1, "1 shape looked like tiles"), (19, "19 shapes looked like")])
def test_the_no_tiles_line_still_reads_the_reader_s_count_of_boxes(count: int, said: str) -> None:
    # the app reads the reader's count back from its line (`photo_reading._REFUSED`): its words changed
    hold = "holds" if count == 1 else "hold"
    line = f"left out {count_of(count, 'box', 'boxes')} that {hold} no tile, at (1, 2)"
    assert said in no_tiles_line("x.png", [NO_TILES_FOUND, line])
