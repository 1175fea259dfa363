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


@pytest.fixture(scope="session")
def mini_cache(tmp_path_factory) -> Path:
    """Both CoREB-mini releases, built once per test session into a private cache."""
    from coreb_core.mini.build import RELEASES, build_release

    root = tmp_path_factory.mktemp("mini-cache")
    for release in RELEASES:
        build_release(release, root)
    return root


@pytest.fixture
def tiny_store(tmp_path):
    """The hand-made dump of tests/dump.py, cached and opened as a Store."""
    import dump
    from coreb_core.ingest import import_release
    from coreb_core.sources import read_local
    from coreb_core.store import Store

    root = tmp_path / "tiny-cache"
    import_release(read_local(dump.write_parquet_folder(tmp_path / "tiny", dump.rows()))[2], "tiny", root)
    with Store("tiny", root) as store:
        yield store
