"""`PORT=8765 make run`: the port reaches the shell quoted and unexpanded, and anything but a whole number from 1 to
65535 is refused in one line before the server starts (``check-port``, which ``run`` runs first)."""
from __future__ import annotations

import os
import subprocess

import pytest

from tests.builders import REPO


def _check(port: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PORT"}
    if port is not None:
        env["PORT"] = port
    return subprocess.run(["make", "-s", "--no-print-directory", "check-port"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("port", [None, "8765", "1", "65535"])
def test_a_port_is_accepted(port):
    done = _check(port)
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.parametrize("port", ["abc", "0", "08", "-1", "65536", "70000", "99999999999999999999", "", " 8501",
                                  "8501\n", "\x1b[31m", "'", "1; touch {tmp}/pwned", "$(touch {tmp}/pwned)",
                                  "$(shell touch {tmp}/pwned)", "`touch {tmp}/pwned`"])
def test_anything_else_is_refused_in_one_line_and_runs_nothing(port, tmp_path):
    port = port.replace("{tmp}", str(tmp_path))
    done = _check(port)
    assert done.returncode == 2
    shown = "".join(c if c.isprintable() else "?" for c in port)  # a newline or a control byte shown as '?'
    assert done.stderr.splitlines()[0] == f"make run: PORT={shown} is not a port: give a whole number from 1 to 65535"
    assert "give a whole number from 1 to 65535" in done.stderr
    assert not (tmp_path / "pwned").exists()
