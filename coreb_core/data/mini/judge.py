"""Judge CoREB-mini solutions against their problem's tests.

Python solutions always run (in one subprocess per solution, every test
in-process, so a build of ~200 solutions takes seconds). C++, Java, Go and
Ruby run when their toolchain is on PATH; otherwise the caller falls back to
the recorded verdicts in ``verdicts.json``.

Example:
    >>> folder = Path(__file__).parent / "problems" / "demo_v2603" / "p01_fuel_loop"
    >>> tests = json.loads((folder / "problem.json").read_text(encoding="utf-8"))["tests"]
    >>> verdict = judge_solution(folder / "solutions" / "concise.py", tests)
    >>> verdict.test_passed, verdict.test_total
    (10, 10)
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

LANGUAGE_BY_SUFFIX = {".py": "python", ".cpp": "cpp", ".java": "java", ".go": "go", ".rb": "ruby"}
TOOLCHAIN = {"cpp": "g++", "java": "javac", "go": "go", "ruby": "ruby"}
PER_TEST_TIMEOUT_S = 10.0

# Runs every test of one Python solution inside one interpreter: stdin/stdout are
# swapped per test and the file is exec'd as __main__ in fresh globals.
_PY_HARNESS = r"""
import io, json, sys
src_path, tests_path = sys.argv[1], sys.argv[2]
code = compile(open(src_path, encoding="utf-8").read(), src_path, "exec")
tests = json.load(open(tests_path, encoding="utf-8"))
real_out, outs = sys.stdout, []
for t in tests:
    sys.stdin = io.TextIOWrapper(io.BytesIO(t["input"].encode()), encoding="utf-8")
    buf = io.BytesIO(); sys.stdout = io.TextIOWrapper(buf, encoding="utf-8")
    try:
        exec(code, {"__name__": "__main__"})
        err = None
    except SystemExit as e:
        err = None if e.code in (None, 0) else f"exit {e.code}"
    except BaseException as e:
        err = type(e).__name__
    sys.stdout.flush()
    outs.append({"output": buf.getvalue().decode("utf-8", "replace"), "error": err})
sys.stdout = real_out
print(json.dumps(outs))
"""


class Verdict(NamedTuple):
    """Outcome of one solution on its problem's tests.

    >>> Verdict(passed=False, test_passed=7, test_total=10, verified_by="recorded").passed
    False
    """

    passed: bool
    test_passed: int
    test_total: int
    verified_by: str  # "executed" or "recorded"


def outputs_match(actual: str, expected: str) -> bool:
    """Token-wise comparison, as competitive judges do (whitespace-insensitive).

    >>> outputs_match("3 4\\n", " 3  4"), outputs_match("3 4", "34")
    (True, False)
    """
    return actual.split() == expected.split()


def toolchain_available(language: str) -> bool:
    """Whether solutions in ``language`` can run here (Python always; others need their compiler on PATH).

    >>> toolchain_available("python")
    True
    """
    return language == "python" or shutil.which(TOOLCHAIN[language]) is not None


def _verdict(outputs: list[str | None], tests: list[dict]) -> Verdict:
    ok = sum(1 for out, t in zip(outputs, tests) if out is not None and outputs_match(out, t["output"]))
    return Verdict(ok == len(tests), ok, len(tests), "executed")


def _judge_python(src: Path, tests: list[dict]) -> Verdict:
    with tempfile.TemporaryDirectory() as tmp:
        tests_path = Path(tmp) / "tests.json"
        tests_path.write_text(json.dumps(tests), encoding="utf-8")
        try:
            proc = subprocess.run(
                [sys.executable, "-c", _PY_HARNESS, str(src), str(tests_path)],
                capture_output=True, text=True, timeout=PER_TEST_TIMEOUT_S * max(1, len(tests)),
            )
            results = json.loads(proc.stdout)
        except (subprocess.TimeoutExpired, json.JSONDecodeError):
            return Verdict(False, 0, len(tests), "executed")
    return _verdict([r["output"] if r["error"] is None else None for r in results], tests)


def _build(src: Path, language: str, workdir: Path) -> list[str] | None:
    """Compile when needed; return the command that runs the program, or None if it does not build."""
    env = dict(os.environ, GOCACHE=str(workdir / "gocache"), GOPATH=str(workdir / "gopath"))
    if language == "ruby":
        return ["ruby", str(src)]
    if language == "cpp":
        cmd, run = ["g++", "-O2", "-std=c++17", "-o", str(workdir / "prog"), str(src)], [str(workdir / "prog")]
    elif language == "java":
        shutil.copy(src, workdir / "Main.java")
        cmd, run = ["javac", "-d", str(workdir), str(workdir / "Main.java")], ["java", "-Xss64m", "-cp", str(workdir), "Main"]
    elif language == "go":
        cmd, run = ["go", "build", "-o", str(workdir / "prog"), str(src)], [str(workdir / "prog")]
    else:
        raise ValueError(f"unknown language {language!r}")
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    return run if done.returncode == 0 else None


def _judge_compiled(src: Path, language: str, tests: list[dict]) -> Verdict:
    with tempfile.TemporaryDirectory() as tmp:
        run = _build(src, language, Path(tmp))
        if run is None:
            return Verdict(False, 0, len(tests), "executed")
        outputs: list[str | None] = []
        for t in tests:
            try:
                proc = subprocess.run(run, input=t["input"], capture_output=True, text=True, timeout=PER_TEST_TIMEOUT_S)
                outputs.append(proc.stdout if proc.returncode == 0 else None)
            except subprocess.TimeoutExpired:
                outputs.append(None)
    return _verdict(outputs, tests)


def judge_solution(src: Path, tests: list[dict]) -> Verdict:
    """Run one solution file on every test and count the tests it passes.

    >>> folder = Path(__file__).parent / "problems" / "demo_v2603" / "p01_fuel_loop"
    >>> tests = json.loads((folder / "problem.json").read_text(encoding="utf-8"))["tests"]
    >>> judge_solution(folder / "solutions" / "fail_concise_wrongcmp.py", tests)
    Verdict(passed=False, test_passed=7, test_total=10, verified_by='executed')
    """
    language = LANGUAGE_BY_SUFFIX[src.suffix]
    if language == "python":
        return _judge_python(src, tests)
    return _judge_compiled(src, language, tests)
