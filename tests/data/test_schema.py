"""One vocabulary: task, language and grouping lists are spelled only in ``coreb_core/data/schema.py`` (and the
sidebar's schemes only in ``coreb_core/evaluation/schemes.py``).

A guard on the source: every other module of coreb_core, ui and pages must take TASK_NAMES,
LANGUAGES, LANGUAGE_SCOPES, the grades and CORPUS_OF_TASK from the schema instead of repeating them."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from coreb_core.data import schema

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "coreb_core" / "data" / "schema.py"

_TASK = r"""["'](?:t2c|c2c|c2t)["']"""
_LANG = r"""["'](?:python|java|cpp|go|ruby)["']"""
# Three quoted task names in a row ("t2c", "c2c", "c2t" in any order), a comma-joined task list,
# two quoted languages in a row, or a task -> corpus mapping spelled out.
PATTERNS = {
    "task list": re.compile(rf"{_TASK}\s*,\s*{_TASK}\s*,\s*{_TASK}"),
    "comma-joined task list": re.compile(r"\b(?:t2c|c2c|c2t),(?:t2c|c2c|c2t),(?:t2c|c2c|c2t)\b"),
    "language list": re.compile(rf"{_LANG}\s*,\s*{_LANG}(?!\s*:)"),  # not a dict keyed by language
    "task -> corpus map": re.compile(rf"""{_TASK}\s*:\s*["'](?:code|text)["']"""),
    # the breakdowns (schema.GROUPINGS): two grouping names in a row, e.g. an argparse choices list
    "grouping list": re.compile(r"""["']language["']\s*,\s*["']anchor_language["']\s*,\s*["']problem["']"""),
    # the sidebar's schemes (schemes.SIDEBAR_SCHEMES) spelled out
    "scheme list": re.compile(r"""["']v2["']\s*,\s*["']v1["']\s*,\s*["']traps_as_hits["']"""),
}


def _sources() -> list[Path]:
    files = [p for folder in ("coreb_core", "ui", "pages") for p in (ROOT / folder).rglob("*.py")]
    # The mini release's problem solutions are sample programs, not app code.
    return [p for p in files + [ROOT / "app.py"] if p != SCHEMA and "problems" not in p.relative_to(ROOT).parts
            and p.exists()]


def _docstring_lines(source: str) -> set[int]:
    """Line numbers inside docstrings: their examples print real outputs, which may list every task."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def test_schema_vocabulary() -> None:
    assert schema.TASK_NAMES == ("t2c", "c2c", "c2t")
    assert schema.LANGUAGE_SCOPES == ("any",) + schema.LANGUAGES
    assert (schema.NEGATIVE, schema.TRAP, schema.POSITIVE) == schema.GRADES == (0, 1, 2)
    assert schema.CORPUS_OF_TASK == {"t2c": "code", "c2c": "code", "c2t": "text"}


def test_guard_catches_a_repeated_list() -> None:
    assert PATTERNS["task list"].search('TASKS = ("t2c", "c2c", "c2t")')
    assert PATTERNS["comma-joined task list"].search('default="t2c,c2c,c2t"')
    assert PATTERNS["language list"].search("LANGS = ['python', 'java', 'cpp']")
    assert PATTERNS["task -> corpus map"].search('{"t2c": "code", "c2t": "text"}')
    assert not PATTERNS["task list"].search('if task in ("c2c", "c2t"):')
    assert PATTERNS["grouping list"].search('choices=["subtask", "language", "anchor_language", "problem", "query"]')
    assert PATTERNS["scheme list"].search('schemes = ["v2", "v1", "traps_as_hits", "trec"]')
    assert not PATTERNS["language list"].search('{"cpp": "g++", "go": "go", "ruby": "ruby"}')
    example = 'def f():\n    """\n    >>> f()\n    ("t2c", "c2c", "c2t")\n    """\n    x = 1\n'
    assert _docstring_lines(example) == {2, 3, 4, 5}


def test_no_task_or_language_list_outside_schema() -> None:
    found = []
    for path in _sources():
        source = path.read_text(encoding="utf-8")
        examples = _docstring_lines(source)
        for number, line in enumerate(source.splitlines(), 1):
            if number in examples:
                continue
            for kind, pattern in PATTERNS.items():
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {kind}: {line.strip()}")
    assert not found, "take these names from coreb_core.data.schema:\n" + "\n".join(found)
