"""Check one or more CoREB-mini problem folders: format, then every solution on the tests.

Usage: python -m coreb_core.data.mini.check_problem coreb_core/data/mini/problems/demo_v2602/p01_meeting_rooms [...]
Prints one line per solution and exits non-zero when a problem breaks the rules in FORMAT.md.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from coreb_core.data.mini.judge import LANGUAGE_BY_SUFFIX, judge_solution, toolchain_available

REQUIRED_KEYS = {"slug", "title", "topic", "statement", "canonical", "search_queries", "noise", "tests"}
STYLES = ("concise", "verbose")
TOPICS = {"greedy", "dp", "graphs", "strings", "math", "data_structures"}


def check(folder: Path) -> list[str]:
    """The rule breaks of one problem folder (empty when it is fine); prints one line per solution run.

    Example (solutions run only where their toolchain is on PATH, so the lines depend on the machine;
    here without go and ruby):

    >>> check(Path("coreb_core/data/mini/problems/demo_v2603/p01_fuel_loop"))   # doctest: +SKIP
      ok  concise.cpp: 10/10
      skip concise.go (no toolchain for go)
      ok  concise.java: 10/10
      ok  concise.py: 10/10
      skip concise.rb (no toolchain for ruby)
      ok  fail_concise_edgecase.java: 7/10
      ok  fail_concise_wrongcmp.py: 7/10
      ok  fail_verbose_overflow.cpp: 8/10
      ok  verbose.cpp: 10/10
      skip verbose.go (no toolchain for go)
      ok  verbose.java: 10/10
      ok  verbose.py: 10/10
      skip verbose.rb (no toolchain for ruby)
    []
    """
    errors: list[str] = []
    spec = json.loads((folder / "problem.json").read_text(encoding="utf-8"))
    missing = REQUIRED_KEYS - spec.keys()
    if missing:
        errors.append(f"{folder}: problem.json misses {sorted(missing)}")
        return errors
    if spec["topic"] not in TOPICS:
        errors.append(f"{folder}: topic {spec['topic']!r} not in {sorted(TOPICS)}")
    if len(spec["noise"]) != 4:
        errors.append(f"{folder}: needs exactly 4 noise descriptions")
    if not 2 <= len(spec["search_queries"]) <= 4:
        errors.append(f"{folder}: needs 2-4 search queries")
    if len(spec["tests"]) < 6:
        errors.append(f"{folder}: needs at least 6 tests")
    sols = folder / "solutions"
    for style in STYLES:
        for suffix in LANGUAGE_BY_SUFFIX:
            if not (sols / f"{style}{suffix}").exists():
                errors.append(f"{folder}: missing solutions/{style}{suffix}")
    fails = sorted(p for p in sols.iterdir() if p.name.startswith("fail_"))
    if len(fails) < 2:
        errors.append(f"{folder}: needs at least 2 failing variants")
    for src in sorted(sols.iterdir()):
        lang = LANGUAGE_BY_SUFFIX.get(src.suffix)
        if lang is None:
            errors.append(f"{src}: unknown suffix")
            continue
        if not toolchain_available(lang):
            print(f"  skip {src.name} (no toolchain for {lang})")
            continue
        v = judge_solution(src, spec["tests"])
        should_pass = not src.name.startswith("fail_")
        status = "ok " if v.passed == should_pass else "BAD"
        print(f"  {status} {src.name}: {v.test_passed}/{v.test_total}")
        if v.passed != should_pass:
            errors.append(f"{src}: expected {'pass' if should_pass else 'fail'}, got {v.test_passed}/{v.test_total}")
    return errors


def main(argv: list[str]) -> int:
    """Check every folder named in ``argv``; print the errors; 1 when there are any, else 0.

    >>> main([])
    0
    """
    all_errors: list[str] = []
    for arg in argv:
        print(arg)
        all_errors += check(Path(arg))
    for e in all_errors:
        print("ERROR", e)
    return 1 if all_errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
