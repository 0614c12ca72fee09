"""docs/scoring.md lists every option with its defaults, as the code holds them: a table settling a
dispute reads the house rules there (RULES.md is not in the repository)."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

from scoring.options import Options, option_lines

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"


def _doc_rows() -> dict[str, tuple[str, str]]:
    rows = re.findall(r"^\| `(\w+)` \| (.+?) \| (.+?) \|$", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    return {name: (default, help_text) for name, default, help_text in rows}


def test_the_docs_options_table_is_the_codes_every_option_and_default() -> None:
    documented = _doc_rows()
    assert {name for name, _, _ in option_lines()} == {field.name for field in dataclasses.fields(Options)}
    for name, default, help_text in option_lines():
        assert documented.get(name) == (default, help_text), name


def test_the_help_lists_every_option_with_its_defaults() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "scoring", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "min_tai = 1 (singapore), 5 (malaysian)" in shown
    assert "payout_scheme = standard (singapore only)" in shown
    for field in dataclasses.fields(Options):
        assert f"  {field.name} = " in shown, field.name
