import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A private, empty data_cache for one test."""
    root = tmp_path / "cache"
    root.mkdir()
    monkeypatch.setenv("COREB_CACHE", str(root))
    return root


def run_cli(*args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``python -m coreb_core`` as a user would, in a fresh process."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "coreb_core", *args], cwd=REPO, env=full_env,
                          capture_output=True, text=True, timeout=timeout)
