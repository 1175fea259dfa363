"""A stored run's join, kept beside it: the run read once against a release's judged pairs.

Every metric CoREB reports reads only the evaluator's ranks of judged documents, so once a run has been
read against the judged pairs (``join.join_run``: a few arrays the size of the qrels, never of the run)
nothing else of its ranked list is needed to score it again. The join is written to
``data_cache/joins/<run_id>/<key>.npy`` (atomically) the first time a stored run is scored, and read from
there afterwards: a real-release run of 821,480 rows scores from about 100 KiB, without parquet, codes or
the C2T rows beyond rank 100 that only the v1 view's noise counts need.

The key names everything the join depends on: the run's ``hits.parquet`` (``join.content_digest``, the
SHA-256 of its bytes: a replaced run, or one rewritten in place at the same size with its modification time
put back, is a new key; size, modification time and inode, the key before, survive such a rewrite; a join that
reads the judged rows alone hashes the bytes it reads, ``read_digest``), the
release version the Store opened (its folder; a re-import is a new version), the judged views, anchor
exclusion and whether noise texts were counted. Each file carries a digest of its bytes
(``join.checked_npy``): a file that fails it (a flipped byte), cannot be read or whose arrays do not fit the
index is ignored and rebuilt, never trusted and never fatal.

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

import hashlib
import os
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from coreb_core.atomic import atomic_write_bytes
from coreb_core.errors import CorebError
from coreb_core.evaluation.join import (
    CodedRun,
    JointJudged,
    ReleaseIndex,
    RunJoin,
    checked_npy,
    code_table,
    content_digest,
    excluded_docs,
    file_identity,
    join_run,
    joint_judged,
    read_checked_file,
)
from coreb_core.paths import joins_dir
from coreb_core.runs.folders import fingerprint, judged_row_groups, judged_rows, run_order, run_path

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
    hits = run_path(stored.run_id, stored.root) / "hits.parquet"
    return fingerprint([stored.run_id, read_digest(index, hits, views, noise), str(index.store.folder),
                        ",".join(views), str(anchor_exclusion), str(noise)])


_READ_DIGESTS: dict[str, tuple[str, str]] = {}  # hits file and version -> (its file_identity when hashed, digest)


def read_digest(index: ReleaseIndex, hits: Path, views: tuple[str, ...], noise: bool) -> str:
    """The SHA-256 of the bytes of ``hits`` a join against ``views`` reads: with the judged rows alone
    (``judged_rows_suffice``, a ``JudgedRows`` file of the index's version) the file up to the end of those row
    groups and its footer (about 100 KiB of a real run's 3.6 MB: hashing the whole file took longer than
    reading the rows), else the whole file (``join.content_digest``). Hashed once per process and file version."""
    version = Path(index.store.folder).name
    if judged_rows_suffice(index, joint_judged(index, views), noise):
        identity, memo = file_identity(hits), f"{hits}\0{version}"
        seen = _READ_DIGESTS.get(memo)
        if seen is not None and seen[0] == identity:
            return seen[1]
        digest = _judged_digest(hits, version)
        if digest is not None:
            _READ_DIGESTS[memo] = (identity, digest)
            return digest
    return content_digest(hits)


def _judged_digest(hits: Path, version: str) -> str | None:
    """The SHA-256 of ``hits`` up to the end of its judged rows' column chunks, then of its footer; None when the
    file is not laid out as ``JudgedRows`` for ``version`` (or cannot be read: the whole file's digest says so)."""
    try:
        with pq.ParquetFile(hits) as file:
            layout = judged_rows(file)
            if layout is None or layout.version != version:
                return None
            chunks = [file.metadata.row_group(g).column(c) for g in judged_row_groups(file, layout)
                      for c in range(file.metadata.num_columns)]
        end = max((c.dictionary_page_offset if c.has_dictionary_page else c.data_page_offset) + c.total_compressed_size
                  for c in chunks)
        with open(hits, "rb") as f:
            head = f.read(end)
            f.seek(-8, os.SEEK_END)
            footer = int.from_bytes(f.read(4), "little")
            f.seek(-8 - footer, os.SEEK_END)
            tail = f.read(footer + 8)
    except (OSError, ValueError, pa.ArrowException):
        return None
    return hashlib.sha256(b"judged rows\0" + head + tail).hexdigest()


def stored_join(index: ReleaseIndex, stored: StoredRun, joint: JointJudged, anchor_exclusion: bool,
                noise: bool) -> RunJoin:
    """The join of a stored run against ``joint`` (``join.join_run``): from memory, else from its file,
    else computed from its hits and written for next time."""
    views = tuple(sorted(joint.where))
    key = join_key(index, stored, views, anchor_exclusion, noise)
    memo = index.memo.setdefault("stored_joins", {})
    if key not in memo:
        file = joins_dir(stored.root) / stored.run_id / f"{key}.npy"
        joined = _load(file, index, joint, anchor_exclusion, noise)
        if joined is None:
            joined = join_run(index, read_coded(index, stored, judged_rows_suffice(index, joint, noise)), joint,
                              anchor_exclusion, noise)
            _save(file, joined)
        memo[key] = joined
    return memo[key]


def join_ready(index: ReleaseIndex, stored: StoredRun, joint: JointJudged, anchor_exclusion: bool, noise: bool) -> bool:
    """Whether ``stored_join`` would read no ranked list: the join is in memory or its file is there (a file
    that turns out not to fit is still rebuilt)."""
    key = join_key(index, stored, tuple(sorted(joint.where)), anchor_exclusion, noise)
    return key in index.memo.get("stored_joins", {}) or (joins_dir(stored.root) / stored.run_id / f"{key}.npy").exists()


def judged_rows_suffice(index: ReleaseIndex, joint: JointJudged, noise: bool) -> bool:
    """Whether a join against ``joint`` reads nothing beyond a run's judged rows (``runs.folders.JudgedRows``, for
    this index's version): noise texts kept (counting them reads every C2T hit above a judged one) and every
    joint pair among the ``qrels`` view's pairs or a C2C anchor (v2, and the views inside it). Memoised per
    index and set of views."""
    if noise:
        return False
    memo = index.memo.setdefault("judged_rows_suffice", {})
    views = tuple(sorted(joint.where))
    if views not in memo:
        # Both key arrays are sorted: a search, no set operation (this runs for every fresh index's first key).
        keys, qrels = joint.pairs.keys, index.judged("qrels").keys
        found = qrels[np.minimum(np.searchsorted(qrels, keys), max(len(qrels) - 1, 0))] == keys if len(qrels) else \
            np.zeros(len(keys), dtype=bool)
        rest = keys[~found]
        memo[views] = bool((index.anchor[rest // index.n_docs] == rest % index.n_docs).all())
    return memo[views]


def read_coded(index: ReleaseIndex, stored: StoredRun, judged_only: bool = False) -> CodedRun:
    """A stored run coded against ``index`` (``join.code_table``) in the run's order; with ``judged_only`` and
    a file laid out as ``JudgedRows`` for the index's version, only its judged rows (all such a join reads)."""
    path = run_path(stored.run_id, stored.root) / "hits.parquet"
    try:
        with pq.ParquetFile(path) as file:
            layout = judged_rows(file)
            if layout is not None and judged_only and layout.version == Path(index.store.folder).name:
                return code_table(index, read_run_table(stored, judged_row_groups(file, layout)))
    except (OSError, pa.ArrowException):
        raise CorebError(f"{path}: not a readable parquet file") from None
    coded = code_table(index, read_run_table(stored))
    order = run_order(coded.q_local, np.where(np.isfinite(coded.rank), coded.rank, -1), layout.rows) if layout else None
    if order is None:
        return coded
    # Every row, back in the run's order (the scan reads each query's rows together, in rank order).
    return coded._replace(q_local=coded.q_local[order], d_local=coded.d_local[order], rank=coded.rank[order])


def read_run_table(stored: StoredRun, row_groups: list[int] | None = None) -> pa.Table:
    """The columns of a stored run's ``hits.parquet`` that its join reads (of ``row_groups`` only, when given),
    as Arrow, in the file's order (``join.code_table`` codes them without pandas: the first read of a run is
    mostly this decoding). One thread per file: the evaluation already reads several runs at once.
    ``ParquetFile.read`` decodes in the calling thread, in one chunk per row group; ``pq.read_table`` goes
    through the dataset scanner, which took twice as long on a run of 7.7 M rows and did not gain from a second
    thread."""
    path = run_path(stored.run_id, stored.root) / "hits.parquet"
    try:
        with pq.ParquetFile(path) as file:
            if row_groups is not None:
                return file.read_row_groups(row_groups, columns=list(CODED_COLUMNS), use_threads=False)
            return file.read(columns=list(CODED_COLUMNS), use_threads=False)
    except (OSError, pa.ArrowException):
        raise CorebError(f"{path}: not a readable parquet file") from None


def _load(file: Path, index: ReleaseIndex, joint: JointJudged, anchor_exclusion: bool, noise: bool
          ) -> RunJoin | None:
    """The join in ``file`` when it is one for this index and these pairs; None otherwise (missing,
    unreadable, or of another shape: it is then rebuilt)."""
    n_queries, n_pairs = index.n_queries, len(joint.pairs.keys)
    data = read_checked_file(file)  # None: missing, unreadable, or its digest fails (a flipped byte)
    if not (data is not None and data.dtype == np.float64 and data.shape == (n_queries + 3 * n_pairs,)):
        return None
    in_run = data[:n_queries]
    if not np.isin(in_run, (0.0, 1.0)).all():
        return None
    rank, excluded_above, noise_above = data[n_queries:].reshape(3, n_pairs)
    return RunJoin(in_run.astype(np.bool_), joint, rank, excluded_above, noise_above if noise else None,
                   excluded_docs(index, anchor_exclusion))


def _save(file: Path, joined: RunJoin) -> None:
    """Write the join atomically, as one float64 array (``in_run`` as 0/1, then per joint pair the stored rank,
    the excluded hits above and the noise hits above: one ``.npy`` reads in a tenth of the time of an ``.npz``
    of four arrays); keep the run's newest ``KEEP_PER_RUN`` files. A cache that cannot be written (a read-only
    cache folder) only costs the next scoring its read."""
    noise = joined.noise_above if joined.noise_above is not None else np.zeros_like(joined.rank)
    data = np.concatenate([joined.in_run.astype(np.float64), joined.rank, joined.excluded_above, noise])
    try:
        atomic_write_bytes(file, checked_npy(data))
        # Older joins of the run, and files of the earlier .npz format.
        older = sorted((p for p in file.parent.glob("*.np[yz]") if p != file), key=lambda p: p.stat().st_mtime_ns)
        for stale in older[:max(0, len(older) + 1 - KEEP_PER_RUN)]:
            stale.unlink(missing_ok=True)
    except OSError:
        pass
