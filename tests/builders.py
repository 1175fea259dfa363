"""Plain helpers the tests share: the repository root, the CLI as a user runs it, one page under AppTest,
and small builders (the tiny dump's query ids, hits from hand-written ranked lists, a release's runs).
Fixtures live in ``tests/conftest.py``; test modules import only from here, never from each other."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from coreb_core.runs.folders import list_runs
from coreb_core.runs.hits import hits_from_lists
from coreb_core.runs.meta import RunMeta
from tests import dump

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "tests" / "artifacts"


def _scan_components_once() -> None:
    """Every new ``AppTest`` scans the metadata of every installed distribution for Streamlit v2 components
    (``BidiComponentManager.discover_and_register_components``): about half a second of CPU per page test, the
    greater part of a small page's run, for an answer that cannot change while the tests run (nothing is installed
    meanwhile). The first scan's answer is kept for this process; each caller gets its own list."""
    import functools

    try:
        from streamlit.components.v2 import manifest_scanner
    except ImportError:  # another Streamlit: nothing to keep
        return
    scan = manifest_scanner.scan_component_manifests
    if getattr(scan, "kept_for_tests", False):
        return
    first = functools.cache(lambda: tuple(scan()))

    def kept(max_workers=None):
        return list(first())

    kept.kept_for_tests = True  # type: ignore[attr-defined]
    manifest_scanner.scan_component_manifests = kept


_scan_components_once()  # tests/builders.py is imported while the tests are collected, before any AppTest runs

# Query ids of the tiny hand-made release (tests/dump.py).
Q1, Q2, QC = "q_t2c_canonical_retro_any_0001", "q_t2c_search_python_0002", "q_c2c_cross_lang_0001"
QT, QM = "q_c2t_full_retro_any_0001", "q_c2t_match_0002"

# SQL the console refuses, with the one-line message it gives (the Data page shows the same).
REFUSED_SQL = {
    "CREATE TABLE t AS SELECT 1": "only a single SELECT (or WITH … SELECT) statement is allowed, not CREATE",
    "COPY queries TO '/tmp/x.csv'": "only a single SELECT (or WITH … SELECT) statement is allowed, not COPY",
    "SELECT * FROM read_csv('/etc/passwd')": 'Permission Error: Cannot access file "/etc/passwd" - file system '
                                             'operations are disabled by configuration',
    "ATTACH 'x.db'": "only a single SELECT (or WITH … SELECT) statement is allowed, not ATTACH",
    "INSTALL httpfs": "only a single SELECT (or WITH … SELECT) statement is allowed, not INSTALL",
    "SELECT 1; SELECT 2": "only a single statement is allowed; this text holds 2",
}


def run_cli(*args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the command line as a user would, in this process: ``coreb_core.cli.main`` with the argument list,
    ``env`` set for the call (and restored), stdout and stderr captured; the answer shaped as ``subprocess.run``'s.
    ``timeout`` is the fresh interpreter's (``run_cli_process``) and unused here. A new interpreter costs about 2 s
    of imports per call, which is not what these tests test; ``run_cli_process`` is for those where it is."""
    import contextlib
    import io

    from coreb_core.cli import main

    saved = {k: os.environ.get(k) for k in (env or {})}
    out, err = io.StringIO(), io.StringIO()
    try:
        os.environ.update(env or {})
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return subprocess.CompletedProcess(["python", "-m", "coreb_core", *args], code, out.getvalue(), err.getvalue())


def run_cli_process(*args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``python -m coreb_core`` in a fresh interpreter: for the tests where the process is the point (the
    module entry point itself, what reaches the terminal, an interpreter's exit)."""
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


def one_table(at, *has: str, lacks: tuple[str, ...] = ()) -> pd.DataFrame:
    """The one dataframe on a page with every column in ``has`` and none in ``lacks``."""
    found = [d.value for d in at.dataframe
             if all(c in d.value.columns for c in has) and not any(c in d.value.columns for c in lacks)]
    assert len(found) == 1, f"expected one table with {has} and without {lacks}, found {len(found)}"
    return found[0]


def retrieval_runs(release: str, root: Path) -> dict[str, RunMeta]:
    """Model -> its retrieval run of ``release`` in the cache at ``root`` (the newest where a model has several)."""
    metas = sorted(list_runs(release, root), key=lambda m: m.created or "")
    return {m.model: m for m in metas if m.kind == "retrieval"}


def code(n: int) -> str:
    """The tiny release's code document id number ``n``."""
    return f"code_v202601_{n:05d}"


def scored_hits(store, lists: dict[str, list[tuple[str, float]]], run: str = "test") -> pd.DataFrame:
    """Hits of one run from (doc id, score) lists per query id; each query's task is read from ``store``."""
    task_of = dict(store.sql("SELECT query_id, task FROM queries").fetchall())
    return hits_from_lists(task_of, lists, run)


def every_document_run(cache: Path, release: str, model: str) -> str:
    """Store an imported run of ``release`` that ranks every document of each query's corpus in id order (scores
    1.0, 0.99, …), named after ``model``; returns its run id."""
    from coreb_core.data.store import Store
    from coreb_core.runs.folders import new_run_id, write_run
    from coreb_core.runs.hits import hits_from_lists

    with Store(release, cache) as store:
        task_of = dict(store.sql("SELECT query_id, task FROM queries").fetchall())
        code = [r[0] for r in store.sql("SELECT code_id FROM code_corpus ORDER BY code_id").fetchall()]
        text = [r[0] for r in store.sql("SELECT text_id FROM text_corpus ORDER BY text_id").fetchall()]
    lists = {q: [(d, 1.0 - i / 100) for i, d in enumerate(text if t == "c2t" else code)] for q, t in task_of.items()}
    run_id = new_run_id(model, release)
    write_run(hits_from_lists(task_of, lists, "test"), {"run_id": run_id, "release": release, "model": model,
                                                         "created": "2026-01-01T00:00:00", "kind": "imported"}, cache)
    return run_id


def tiny_hits(store, lists: dict[str, list[str]]) -> pd.DataFrame:
    """Ranked lists given in order; scores strictly decreasing so ranks are as written."""
    return scored_hits(store, {q: [(d, 1.0 - i / 100) for i, d in enumerate(docs)] for q, docs in lists.items()})


def row(per_query: pd.DataFrame, qid: str) -> pd.Series:
    """One query's row of a per-query table."""
    return per_query.set_index("query_id").loc[qid]


def bad_jsonl(tmp_path):
    """The tiny release as JSONL with two bad grades (text2code_qrels row 2, code2code_qrels row 3)."""
    data = dump.rows()
    data["code2code_qrels"][2]["relevance"] = 7
    data["text2code_qrels"][1]["relevance"] = 5
    return dump.write_jsonl(tmp_path / "bad", data)


FAKE_WIDTH = 64  # dimensions of the ``Trigrams`` stand-in encoder


class Trigrams:
    """A stand-in encoder (``model_loader`` of ``run_retrieval``): each text's character trigrams hashed into 64 signed
    dimensions (a lexical vector, so its runs retrieve something), not normalised (the run's search normalises).
    Seconds for CoREB-mini, where MiniLM takes minutes: for tests about what is done with a dense run's vectors."""

    def encode(self, texts, batch_size=32, **options):
        out = np.zeros((len(texts), FAKE_WIDTH), dtype=np.float32)
        for i, text in enumerate(texts):
            text = str(text)
            for j in range(max(1, len(text) - 2)):
                h = hashlib.blake2b(text[j:j + 3].encode(), digest_size=4).digest()
                out[i, h[0] % FAKE_WIDTH] += 1.0 if h[1] % 2 else -1.0
        return out + 0.01  # no all-zero vector
