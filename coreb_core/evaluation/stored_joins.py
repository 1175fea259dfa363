"""A stored run's join, kept beside it: the run read once against a release's judged pairs.

Every metric CoREB reports reads only the evaluator's ranks of judged documents, so once a run has been
read against the judged pairs (``join.join_run``: a few arrays the size of the qrels, never of the run)
nothing else of its ranked list is needed to score it again. The join is written to
``data_cache/joins/<run_id>/<key>.npz`` (atomically) the first time a stored run is scored, and read from
there afterwards: a real-release run of 821,480 rows scores from about 100 KiB, without parquet, codes or
the C2T rows beyond rank 100 that only the v1 view's noise counts need.

The key names everything the join depends on: the run's ``hits.parquet`` (size, modification time, inode:
a replaced run is a new file), the release version the Store opened (its folder; a re-import is a new
version), the judged views, anchor exclusion and whether noise texts were counted. A file whose arrays do
not fit the index is ignored and rebuilt, never trusted.

Example (CoREB-mini and a BM25 run in ``root``; ``store`` is demo_v2603):
    >>> from coreb_core.evaluation.join import joint_judged, release_index
    >>> index = release_index(store)
    >>> joint = joint_judged(index, ("qrels",))
    >>> first = stored_join(index, StoredRun(bm25, root), joint, anchor_exclusion=True, noise=False)
    >>> again = stored_join(index, StoredRun(bm25, root), joint, anchor_exclusion=True, noise=False)
    >>> again is first, int(first.in_run.sum())   # memoised per index; 1,200 queries listed
    (True, 1200)
"""
from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import NamedTuple

import numpy as np

from coreb_core.atomic import atomic_write_bytes
from coreb_core.evaluation.join import JointJudged, ReleaseIndex, RunJoin, excluded_docs, join_run
from coreb_core.paths import joins_dir
from coreb_core.runs.folders import fingerprint, read_hits, run_path

CODED_COLUMNS = ("query_id", "doc_id", "rank")  # all ``ReleaseIndex.code_run`` reads
KEEP_PER_RUN = 8  # join files kept per run (one per release version, views and options in use)


class StoredRun(NamedTuple):
    """A run by reference: scored from its cached join when there is one, else read once (``stored_join``).
    ``analyse_many`` takes it wherever it takes a run's hits."""

    run_id: str
    root: Path | None = None


def join_key(index: ReleaseIndex, stored: StoredRun, views: tuple[str, ...], anchor_exclusion: bool,
             noise: bool) -> str:
    """What the join of ``stored`` against ``views`` depends on, as a short hash (see the module's notes)."""
    stat = (run_path(stored.run_id, stored.root) / "hits.parquet").stat()
    return fingerprint([stored.run_id, str(stat.st_size), str(stat.st_mtime_ns), str(stat.st_ino),
                        str(index.store.folder), ",".join(views), str(anchor_exclusion), str(noise)])


def stored_join(index: ReleaseIndex, stored: StoredRun, joint: JointJudged, anchor_exclusion: bool,
                noise: bool) -> RunJoin:
    """The join of a stored run against ``joint`` (``join.join_run``): from memory, else from its file,
    else computed from its hits and written for next time."""
    views = tuple(sorted(joint.where))
    key = join_key(index, stored, views, anchor_exclusion, noise)
    memo = index.memo.setdefault("stored_joins", {})
    if key not in memo:
        file = joins_dir(stored.root) / stored.run_id / f"{key}.npz"
        joined = _load(file, index, joint, anchor_exclusion, noise)
        if joined is None:
            hits = read_hits(stored.run_id, stored.root, columns=CODED_COLUMNS)
            joined = join_run(index, index.code_run(hits), joint, anchor_exclusion, noise)
            _save(file, joined)
        memo[key] = joined
    return memo[key]


# evaluate() joins runs on a thread pool, and np.load parses each array's header with ast.literal_eval: on
# CPython 3.11 two threads parsing at once can fail with "SystemError: AST constructor recursion depth mismatch"
# (python/cpython#106905; seen in the suite). The reads are small; one at a time costs nothing measurable.
_READING = threading.Lock()


def _load(file: Path, index: ReleaseIndex, joint: JointJudged, anchor_exclusion: bool, noise: bool
          ) -> RunJoin | None:
    """The join in ``file`` when it is one for this index and these pairs; None otherwise (missing,
    unreadable, or of another shape: it is then rebuilt)."""
    n_pairs = len(joint.pairs.keys)
    try:
        with _READING, np.load(file, allow_pickle=False) as data:
            arrays = {name: data[name] for name in ("in_run", "rank", "excluded_above", "noise_above")}
    except (OSError, ValueError, KeyError, EOFError):  # EOFError: an empty file
        return None
    shapes_fit = (arrays["in_run"].shape == (index.n_queries,) and arrays["in_run"].dtype == np.bool_
                  and all(arrays[n].shape == (n_pairs,) and arrays[n].dtype == np.float64
                          for n in ("rank", "excluded_above", "noise_above")))
    if not shapes_fit:
        return None
    return RunJoin(arrays["in_run"], joint, arrays["rank"], arrays["excluded_above"],
                   arrays["noise_above"] if noise else None, excluded_docs(index, anchor_exclusion))


def _save(file: Path, joined: RunJoin) -> None:
    """Write the join atomically; keep the run's newest ``KEEP_PER_RUN`` files. A cache that cannot be
    written (a read-only cache folder) only costs the next scoring its read."""
    buffer = io.BytesIO()
    noise = joined.noise_above if joined.noise_above is not None else np.zeros_like(joined.rank)
    np.savez(buffer, in_run=joined.in_run, rank=joined.rank, excluded_above=joined.excluded_above, noise_above=noise)
    try:
        atomic_write_bytes(file, buffer.getvalue())
        older = sorted((p for p in file.parent.glob("*.npz") if p != file), key=lambda p: p.stat().st_mtime_ns)
        for stale in older[:max(0, len(older) + 1 - KEEP_PER_RUN)]:
            stale.unlink(missing_ok=True)
    except OSError:
        pass
