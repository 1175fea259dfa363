"""Every page is a list of sections over views (issue 46): each section a function whose refusal is shown in it
(``ui.widgets.guarded``), and the module itself holds little more than the calls of its sections.

What counts as "outside functions": a page's top-level statements other than imports, its docstring, function and
class definitions — module constants (labels, column orders) and the calls that lay the sections out."""
import ast
from pathlib import Path

import pytest

from tests.builders import REPO

MAX_LINES_OUTSIDE = 40
PAGE_FILES = sorted((REPO / "pages").glob("*.py")) + [REPO / "app.py"]


def lines_outside_functions(source: str) -> int:
    """Source lines of top-level statements that are not imports, the docstring, defs or classes.

    >>> lines_outside_functions('\"\"\"Doc.\"\"\"\\nimport x\\nA = 1\\ndef f():\\n    return 2\\nf()\\n')
    2
    """
    lines: set[int] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue  # a docstring or a string used as a comment
        lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return len(lines)


def guarded_sections(source: str) -> list[str]:
    """Top-level functions decorated with ``guarded`` (alone or under ``st.fragment``)."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef):
            names = {d.id if isinstance(d, ast.Name) else getattr(d, "attr", "") for d in node.decorator_list}
            if "guarded" in names:
                found.append(node.name)
    return found


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.name)
def test_a_page_module_holds_layout_only(path: Path):
    assert lines_outside_functions(path.read_text(encoding="utf-8")) <= MAX_LINES_OUTSIDE


@pytest.mark.parametrize("path", [p for p in PAGE_FILES if p.name != "app.py"], ids=lambda p: p.name)
def test_a_page_is_a_list_of_guarded_sections(path: Path):
    assert len(guarded_sections(path.read_text(encoding="utf-8"))) >= 2


def test_the_count_sees_a_flat_script():
    flat = "import streamlit as st\n" + "".join(f"st.write({i})\n" for i in range(MAX_LINES_OUTSIDE + 1))
    assert lines_outside_functions(flat) == MAX_LINES_OUTSIDE + 1
    assert guarded_sections("@guarded\ndef a():\n    pass\n@st.fragment\n@guarded\ndef b():\n    pass\n") == ["a", "b"]
