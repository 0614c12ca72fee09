"""Streamlit's "magic" writes any bare expression of app.py onto the page: a string split over two
lines by mistake (`x = (...) + "a "` then `"b"` on the next line) shows up as stray text in the sidebar."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.app.conftest import APP


def _bare_values(tree: ast.AST) -> list[int]:
    """Lines of expression statements that are not calls and not docstrings."""
    lines: list[int] = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        for block in (body, getattr(node, "orelse", None), getattr(node, "finalbody", None)):
            if not isinstance(block, list):
                continue
            for index, statement in enumerate(block):
                if not isinstance(statement, ast.Expr) or isinstance(statement.value, ast.Call | ast.Await):
                    continue
                docstring = index == 0 and isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
                if not (docstring and isinstance(statement.value, ast.Constant)):
                    lines.append(statement.lineno)
    return lines


# app.py's sections now live in app_ui/ (191c85d), where magic writes nothing: a string split there by
# the same mistake is dropped from the page without a word, so the modules are held to the same rule
PAGE_FILES = [APP, *sorted((APP.parent / "app_ui").glob("*.py"))]


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda path: path.name)
def test_the_app_has_no_bare_expression_for_streamlit_to_write(path: Path) -> None:
    assert _bare_values(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_a_string_left_on_its_own_line_is_found() -> None:
    source = 'def f():\n    """doc"""\n    x = "a " + "b"\n    "c"\n    return x\n'
    assert _bare_values(ast.parse(source)) == [4]
