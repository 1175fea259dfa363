"""Shared fixtures: private caches, CoREB-mini built once per session, the tiny hand-made release,
MiniLM encoded once per session, the default runs. Plain helpers and builders (``run_cli``, ``app_test``,
``tiny_hits``, …) live in ``tests/builders.py``."""
import os
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# Imports by path may read only under the import roots (coreb_core/input_paths.py). Tests import from
# temporary folders and from the shared test data beside the repository; hostile tests set their own.
_REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("COREB_IMPORT_ROOTS", os.pathsep.join([tempfile.gettempdir(), str(_REPO), str(_REPO.parent / "shared")]))


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A private, empty data_cache for one test."""
    root = tmp_path / "cache"
    root.mkdir()
    monkeypatch.setenv("COREB_CACHE", str(root))
    return root


@pytest.fixture(scope="session")
def mini_cache(tmp_path_factory) -> Path:
    """Both CoREB-mini releases, built once per test session into a private cache."""
    from coreb_core.data.mini.build import RELEASES, build_release

    root = tmp_path_factory.mktemp("mini-cache")
    for release in RELEASES:
        build_release(release, root)
    return root


@pytest.fixture
def tiny_store(tmp_path):
    """The hand-made dump of tests/dump.py, cached and opened as a Store."""
    from tests import dump
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from coreb_core.data.store import Store

    root = tmp_path / "tiny-cache"
    import_release(read_local(dump.write_parquet_folder(tmp_path / "tiny", dump.rows()))[2], "tiny", root)
    with Store("tiny", root) as store:
        yield store


@pytest.fixture(scope="session")
def minilm_cold_and_warm(mini_cache, tmp_path_factory):
    """A private copy of the releases with an empty embedding cache, and two identical MiniLM runs
    (default profile) in it: the first encodes, the second must not. Encoded once per session."""
    import shutil

    from coreb_core.retrieval.pipeline import run_retrieval

    root = tmp_path_factory.mktemp("retrieval-cache")
    shutil.copytree(mini_cache / "coreb", root / "coreb", symlinks=True)
    cold = run_retrieval("minilm", "demo_v2603", root=root)
    warm = run_retrieval("minilm", "demo_v2603", root=root)
    return root, cold, warm


@pytest.fixture(scope="session")
def app_cache(mini_cache, minilm_cold_and_warm) -> Path:
    """The mini cache with the first-launch default runs (bm25, minilm on demo_v2603). The MiniLM
    vectors encoded once per session are reused, so its default run loads no model (tests/test_app.py
    covers a real first launch from an empty cache)."""
    import shutil

    from coreb_core.defaults import DEFAULT_MODELS, DEFAULT_RELEASE
    from coreb_core.retrieval.pipeline import run_retrieval
    from coreb_core.runs.run import list_runs

    if not (mini_cache / "embeddings").exists():
        shutil.copytree(minilm_cold_and_warm[0] / "embeddings", mini_cache / "embeddings")

    have = {m["model"] for m in list_runs(DEFAULT_RELEASE, mini_cache) if m.get("kind") == "retrieval"}
    for model in DEFAULT_MODELS:
        if model not in have:
            run_retrieval(model, DEFAULT_RELEASE, root=mini_cache)
    return mini_cache


@pytest.fixture(scope="session")
def default_runs(app_cache) -> dict:
    """Model -> RunMeta of the first-launch default runs (the app cache's default release). Session-wide:
    no test adds runs to the app cache (the Run page tests work on a copy)."""
    from coreb_core.defaults import DEFAULT_RELEASE
    from tests.builders import retrieval_runs

    return retrieval_runs(DEFAULT_RELEASE, app_cache)


@pytest.fixture(scope="session")
def default_run_ids(default_runs) -> dict[str, str]:
    """Model -> run id of the default runs."""
    return {model: meta.run_id for model, meta in default_runs.items()}
