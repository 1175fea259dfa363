"""``--help`` at every level of the command line: ``python -m coreb_core --help``, ``<verb> --help`` for every
verb the parser has, and ``runs <sub> --help`` for nested verbs (found by walking the parser, not listed by
hand). argparse %-formats every help string, so a bare ``%`` in one ("95% intervals") ended the top-level help
in a ``TypeError`` traceback. Each must print its usage to stdout, nothing to stderr, and return status 0.
"""
from __future__ import annotations

import argparse

import pytest

from coreb_core.cli import build_parser, main


def _verbs(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path of the parser: ``()``, ``("run",)``, ``("runs", "list")``, …"""
    out = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += _verbs(sub, (*path, name))
    return out


VERBS = _verbs(build_parser())


@pytest.mark.parametrize("verb", VERBS, ids=lambda v: " ".join(v) or "(top)")
def test_help_prints_usage_and_exits_0(verb, capsys):
    """was: `python -m coreb_core --help` ended in `TypeError: %i format: a real number is required, not dict`
    (the stability verb's help said "95% intervals"), and `main([..., "--help"])` raised SystemExit."""
    code = main([*verb, "--help"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    assert "Traceback" not in out
    assert out.startswith(f"usage: python -m coreb_core {' '.join(verb)}".rstrip())


def test_top_level_help_lists_every_verb_with_its_help(capsys):
    """was: a traceback instead of the list; the stability line now shows its literal "95%"."""
    from coreb_core.cli import COMMANDS

    assert main(["--help"]) == 0
    out = capsys.readouterr().out

    missing = [name for name in COMMANDS if f"    {name}" not in out]
    assert not missing, missing
    # the walk that parametrizes the test above finds every command and the nested runs verbs
    assert {v[0] for v in VERBS if len(v) == 1} == set(COMMANDS)
    assert {("runs", "list"), ("runs", "rename"), ("runs", "tag")} <= set(VERBS)
    assert "Newcombe 95% intervals" in " ".join(out.split())


def test_every_help_string_formats(capsys):
    """was: one help string with a bare % broke argparse's %-formatting; every action's help formats now."""
    parser = build_parser()
    stack = [parser]
    while stack:
        p = stack.pop()
        p.format_help()  # raises on a bad % anywhere in this parser's own arguments
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                stack.extend(action.choices.values())
