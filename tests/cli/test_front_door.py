"""``python -m coreb_core --help`` in a fresh interpreter, as a user types it: the module entry point itself is the
point here (the in-process tests call ``main``; tests/hostile/test_cli_help.py walks every verb's --help)."""
from coreb_core.cli import ORDER
from tests.builders import run_cli_process


def test_python_m_coreb_core_help_lists_every_verb():
    done = run_cli_process("--help")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    # a verb at the list's indent; the wrapped help lines below it are indented further
    listed = [line.split()[0] for line in done.stdout.splitlines() if line.startswith("    ") and line[4:5].strip()]
    assert [v for v in listed if v in ORDER] == list(ORDER)
