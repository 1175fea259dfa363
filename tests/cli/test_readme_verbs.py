"""The README's verb table is the CLI's: every verb the parser has is a row, every row a verb, and every example
in the table parses (so an option renamed in the code cannot stay in the README)."""
from __future__ import annotations

import re
import shlex

import pytest

from coreb_core.cli import COMMANDS, build_parser
from tests.builders import REPO


def readme_rows() -> list[tuple[str, str]]:
    """(verb, example) of each row of the README's table under "## Command line"."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Command line", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z-]+)` \|.*\| `([^`]+)` \|$", section, flags=re.M)
    assert rows, "no verb table found under '## Command line'"
    return rows


def test_every_verb_has_a_row_and_every_row_is_a_verb():
    listed = [verb for verb, _ in readme_rows()]
    assert sorted(set(listed)) == sorted(listed), "a verb listed twice"
    assert set(listed) == set(COMMANDS)


@pytest.mark.parametrize("verb,example", readme_rows())
def test_each_example_parses(verb, example):
    argv = shlex.split(example)
    assert argv[0] == verb
    assert build_parser().parse_args(argv).command == verb
