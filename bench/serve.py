"""A Streamlit script served on 127.0.0.1 for a bench, as `streamlit run` serves the app: the one way the benches
start a server, wait for its health check and stop it.

Example (the app itself, on a free port; needs minutes of a real server, so it is not run here):

    >>> with served(REPO / "app.py", {"COREB_CACHE": "/tmp/cache"}, Path("/tmp/s.log")) as (url, healthy_s):  # doctest: +SKIP
    ...     print(url.startswith("http://127.0.0.1:"), healthy_s < 60)
    True True
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parent.parent
SERVER_FLAGS = ["--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
                "--server.fileWatcherType", "none"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(script: Path, env: dict[str, str], log: Path, cwd: Path = REPO, start: float | None = None,
           timeout_s: float = 120.0) -> Iterator[tuple[str, float]]:
    """``streamlit run script`` with ``env`` added to this process's, its output in ``log``: yields (its base URL,
    seconds from ``start`` (default: now) until its health check answered), and stops it after the block. Exits
    with the log's tail when the server dies or does not answer within ``timeout_s``."""
    start = time.perf_counter() if start is None else start
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port), *SERVER_FLAGS]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env={**os.environ, "PYTHONUNBUFFERED": "1", **env}, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
            if proc.poll() is not None or time.perf_counter() - start > timeout_s:
                raise SystemExit(f"the server of {script} did not answer:\n" + log.read_text(errors="replace")[-3000:])
        yield base, time.perf_counter() - start
    finally:
        proc.terminate()
        proc.wait(timeout=30)
