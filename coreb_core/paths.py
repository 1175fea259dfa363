"""Where the cache lives. ``COREB_CACHE`` overrides the default ``<repo>/data_cache``.

Every path takes an optional ``root`` (a cache folder) so tests and benches work in private caches.

Example:
    >>> release_dir("demo_v2603", Path("/tmp/cache")), runs_dir(Path("/tmp/cache"))
    (PosixPath('/tmp/cache/coreb/demo_v2603'), PosixPath('/tmp/cache/runs'))
"""
from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def cache_root() -> Path:
    """``$COREB_CACHE`` when set, else ``<repo>/data_cache``.

    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"COREB_CACHE": "/tmp/cache"}):
    ...     cache_root()
    PosixPath('/tmp/cache')
    """
    return Path(os.environ.get("COREB_CACHE", REPO_ROOT / "data_cache"))


def datasets_dir(root: Path | None = None) -> Path:
    """``data_cache/coreb``: one entry per release, each holding ``<config>.parquet``.

    >>> datasets_dir(Path("/tmp/cache"))
    PosixPath('/tmp/cache/coreb')
    """
    return (root or cache_root()) / "coreb"


def release_dir(release: str, root: Path | None = None) -> Path:
    """``data_cache/coreb/<release>``: a link to the release's current immutable version folder.

    >>> release_dir("demo_v2603", Path("/tmp/cache"))
    PosixPath('/tmp/cache/coreb/demo_v2603')
    """
    return datasets_dir(root) / release


def runs_dir(root: Path | None = None) -> Path:
    """``data_cache/runs/<run_id>/``: ``hits.parquet`` and ``run.json`` (provenance) per run.

    >>> runs_dir(Path("/tmp/cache"))
    PosixPath('/tmp/cache/runs')
    """
    return (root or cache_root()) / "runs"


def joins_dir(root: Path | None = None) -> Path:
    """``data_cache/joins/<run_id>/<key>.npy``: each stored run read once against a release's judged pairs
    (``coreb_core.evaluation.stored_joins``), so scoring it again reads no ranked list.

    >>> joins_dir(Path("/tmp/cache"))
    PosixPath('/tmp/cache/joins')
    """
    return (root or cache_root()) / "joins"


def embeddings_dir(root: Path | None = None) -> Path:
    """``data_cache/embeddings/<model identity>/shard-*.npz``: cached vectors, shared by all runs.

    >>> embeddings_dir(Path("/tmp/cache"))
    PosixPath('/tmp/cache/embeddings')
    """
    return (root or cache_root()) / "embeddings"


def results_file(root: Path | None = None) -> Path:
    """``data_cache/results/results.parquet``: every imported number, one row each.

    >>> results_file(Path("/tmp/cache"))
    PosixPath('/tmp/cache/results/results.parquet')
    """
    return (root or cache_root()) / "results" / "results.parquet"


def rerankers_dir(root: Path | None = None) -> Path:
    """``data_cache/rerankers/<name>/``: cross-encoders trained from the app (the CLI writes where its user says).

    >>> rerankers_dir(Path("/tmp/cache"))
    PosixPath('/tmp/cache/rerankers')
    """
    return (root or cache_root()) / "rerankers"


def judgments_file(root: Path | None = None) -> Path:
    """``data_cache/judgments.duckdb``: the researchers' judgments of (query, document) pairs
    (``coreb_core.data.judgments``). It lies outside ``coreb/``, so re-importing a release keeps it.

    >>> judgments_file(Path("/tmp/cache"))
    PosixPath('/tmp/cache/judgments.duckdb')
    """
    return (root or cache_root()) / "judgments.duckdb"
