"""Plain helpers the tests share: the repository root, the CLI as a user runs it, one page under AppTest."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "tests" / "artifacts"


def run_cli(*args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``python -m coreb_core`` as a user would, in a fresh process."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "coreb_core", *args], cwd=REPO, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


def app_test(page: str, cache: Path, params: dict | None = None, timeout: float = 120):
    """AppTest of one page script with the app's cache and URL parameters."""
    from streamlit.testing.v1 import AppTest

    os.environ["COREB_CACHE"] = str(cache)
    at = AppTest.from_file(str(REPO / "pages" / page), default_timeout=timeout)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    return at
