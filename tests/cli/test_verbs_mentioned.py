"""Every ``python -m coreb_core <verb>`` the app says (library and page strings, an export's files, README.md,
docs/*.md) names a verb of the CLI registry: the official-runner export once told users to run ``evaluate`` (the verb
is ``eval``)."""
from __future__ import annotations

import json
import re

from coreb_core.cli import COMMANDS
from tests.builders import REPO, run_cli

MENTION = re.compile(r"python -m coreb_core[ \t]+([A-Za-z][\w-]*)")
SOURCES = ("README.md", "docs/*.md", "coreb_core/**/*.py", "ui/**/*.py", "pages/**/*.py", "app.py")


def mentions(text: str) -> list[str]:
    return MENTION.findall(text)


def test_every_verb_the_docs_and_the_code_name_is_a_verb():
    wrong = [f"{path.relative_to(REPO)}: {verb}"
             for pattern in SOURCES for path in sorted(REPO.glob(pattern))
             for verb in mentions(path.read_text(encoding="utf-8")) if verb not in COMMANDS]
    assert wrong == []


def test_an_exported_runner_json_names_a_real_verb(lexical_copy, tmp_path):
    _, run = lexical_copy
    assert run_cli("export", "--run", run, "--format", "coreb", "--out", str(tmp_path / "co")).returncode == 0
    why = json.loads((tmp_path / "co" / "text2code.json").read_text())["cutoffs_left_out_why"]
    assert mentions(why) == ["eval"]  # was: evaluate
    # and the command it gives runs as written: eval needs the release beside the run
    argv = why.split("`python -m coreb_core ", 1)[1].split("`", 1)[0].split()
    assert argv == ["eval", "--release", "demo_v2603", "--run", run]
    assert run_cli(*argv, "--task", "t2c").returncode == 0
