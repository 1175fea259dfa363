"""The release index and the run join: every id of a release coded once (``ReleaseIndex``), a run's hits joined
to the judged pairs of the schemes' qrels views in one pass (``join_run``), and the ranks the official rule gives
each judged document (``view_ranks``, ``judged_ranks``: own-id and C2C-anchor hits dropped above it). What
``coreb_core.evaluation.evaluate`` scores, and what the analyses reuse without evaluating again.

Example (CoREB-mini and a BM25 run in ``root``; ``store`` is demo_v2603):
    >>> from coreb_core.runs.folders import read_hits
    >>> index = release_index(store)
    >>> scored, qpos, rank, grade = judged_ranks(index, index.code_run(read_hits(bm25, root)))
    >>> len(scored), int((rank <= 10).sum())   # queries scored, judged pairs the run ranks in a top 10
    (1200, 2623)
"""
from __future__ import annotations

import hashlib
import io
import shutil
import threading
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from coreb_core.atomic import atomic_write_bytes
from coreb_core.data.schema import GROUPINGS
from coreb_core.data.slice_keys import SliceKey, slice_labels
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.judged_pairs import JudgedPairs, code_dtype
from coreb_core.evaluation.kernels import ideal_gains
from coreb_core.evaluation.schemes import Scheme
from coreb_core.paths import joins_dir
from coreb_core.runs.folders import fingerprint


class Judged(NamedTuple):
    """Qrels of one view as sorted integer keys (query code * n_docs + doc code)."""

    keys: np.ndarray
    qcode: np.ndarray
    grade: np.ndarray
    has_qrels: np.ndarray  # per query code


class CodedRun(NamedTuple):
    """A run's rows as small local codes plus their mapping to release codes (``query_map[q_local]``
    is the release's query code, -1 for a query not in the release; likewise documents, -1 also for
    the empty-list marker): the scan maps them per row, so no per-row code array is materialised."""

    q_local: np.ndarray  # per row; -1 for a missing value
    query_map: np.ndarray  # per local code
    d_local: np.ndarray
    doc_map: np.ndarray
    rank: np.ndarray  # per row, float (inf for the empty-list marker), or int32 when no row is that marker


class ReleaseIndex:
    """Integer codes for one release's queries, documents and qrels (built lazily, cached).

    Queries come from the Store (``Store.query_facts``: their facts, and their order is their code);
    documents, qrel views and scheme-specific ideal gains are coded here, as only evaluation needs them.

    >>> index = release_index(store)  # demo_v2603
    >>> index.queries is store.query_facts, index.query_pos is store.query_ids, index.judged("qrels").keys.size
    (True, True, 6728)
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.queries = store.query_facts
        self.query_pos = store.query_ids
        self.task_array = self.queries["task"].to_numpy(dtype=object)
        self.query_array = self.queries["query_id"].to_numpy(dtype=object)
        self.n_queries = len(self.queries)
        self.c2t_query = (self.queries["task"] == "c2t").to_numpy()
        # The codes depend only on the release version's files: read from the index file when one fits.
        self._file = index_file(store)
        docs, codes = _load_array(self._file / "docs.npy", "U"), _load_array(self._file / "documents.npy", "i")
        if docs is None or codes is None or len(codes) != 2 * self.n_queries + len(docs):
            docs, codes = self._code_documents()
            _save_array(self._file / "docs.npy", docs)
            _save_array(self._file / "documents.npy", codes)
        self.docs = pd.Index(docs.astype(object))
        self.n_docs = len(self.docs)
        self.anchor, self.self_doc = codes[:self.n_queries], codes[self.n_queries:2 * self.n_queries]
        self.noise_doc = codes[2 * self.n_queries:].astype(bool)
        self.has_self_doc = bool((self.self_doc >= 0).any())
        self._judged: dict[str, Judged] = {}
        self.memo: dict[str, dict] = {}  # derived structures, e.g. joint judged pairs per set of views
        self._ideal: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    def _code_documents(self) -> tuple[np.ndarray, np.ndarray]:
        """The document ids, sorted (a document's position is its code), and one int64 array: each query's
        C2C anchor and own id as document codes (-1: none), then per document 1 for a noise text; read from
        the Store."""
        docs = pd.Index(self.store.sql("SELECT DISTINCT doc_id FROM documents ORDER BY 1").df()["doc_id"])

        def doc_codes(ids: pd.Series) -> np.ndarray:
            return docs.get_indexer(ids.fillna("\0missing")).astype(np.int64)

        noise = self.store.sql("SELECT doc_id FROM documents WHERE is_noise").df()["doc_id"]
        noise_doc = np.zeros(len(docs), dtype=np.int64)
        noise_doc[docs.get_indexer(noise)] = 1
        anchor = doc_codes(self.queries["anchor_code_id"].where(self.queries["task"] == "c2c"))
        self_doc = doc_codes(self.queries["query_id"])  # a query id that is also a doc id
        return np.asarray(docs, dtype=str), np.concatenate([anchor, self_doc, noise_doc])

    def judged(self, view: str) -> Judged:
        if view not in self._judged:
            file = self._file / f"{view}.npy" if view in version_views(self.store) else None
            packed = _load_array(file, "i") if file is not None else None
            if packed is None or (len(packed) - self.n_queries) % 3 or len(packed) < self.n_queries:
                packed = self._code_judged(view)
                if file is not None:
                    _save_array(file, packed)
            # keys, qcode, grade per pair (sorted by key), then has_qrels per query code.
            keys, qcode, grade = packed[:len(packed) - self.n_queries].reshape(3, -1)
            self._judged[view] = Judged(keys, qcode, grade, packed[len(packed) - self.n_queries:].astype(bool))
        return self._judged[view]

    def _code_judged(self, view: str) -> np.ndarray:
        """A view's judged pairs from the Store, packed as one int64 array (see ``judged``)."""
        q = self.store.sql(f"SELECT query_id, doc_id, relevance FROM {view}").df()
        qc = self.query_pos.get_indexer(q["query_id"])
        dc = self.docs.get_indexer(q["doc_id"])
        keys = qc.astype(np.int64) * self.n_docs + dc
        order = np.argsort(keys, kind="stable")
        has = np.zeros(self.n_queries, dtype=np.int64)
        has[qc] = 1
        return np.concatenate([keys[order], qc[order].astype(np.int64),
                               q["relevance"].to_numpy()[order].astype(np.int64), has])

    def ideal(self, view: str, scheme: Scheme, ks) -> tuple[np.ndarray, np.ndarray]:
        """Relevant counts and IDCG@k per query code: properties of the qrels, computed once."""
        key = (view, str(scheme), tuple(ks))
        if key not in self._ideal:
            j = self.judged(view)
            self._ideal[key] = ideal_gains(j.qcode, j.grade, self.n_queries, scheme, ks)
        return self._ideal[key]

    @cached_property
    def group_codes(self) -> dict[str, tuple[np.ndarray, pd.Index]]:
        out = {}
        for by, column in GROUPINGS.items():
            codes, values = pd.factorize(self.queries[column].fillna("none"), sort=True)
            out[by] = (codes, np.asarray(values, dtype=object))
        codes, values = pd.factorize(self.queries["task"], sort=True)
        out["task"] = (codes, np.asarray(values, dtype=object))
        return out

    def codes_for(self, by: str) -> tuple[np.ndarray, np.ndarray]:
        """Group codes per query code and the group values, for one of GROUPINGS, "task" or a metadata slice
        key (``coreb_core.data.slice_keys``: ``positive.pass_rate``, ``query.anchor_model``…).

        >>> codes, values = release_index(store).codes_for("query.anchor_model")  # demo_v2603
        >>> list(values), len(codes) == release_index(store).n_queries
        (['mini-concise', 'mini-verbose', 'none'], True)
        """
        if by in self.group_codes:
            return self.group_codes[by]
        if by not in self.memo.setdefault("slice_codes", {}):
            codes, values = pd.factorize(slice_labels(self.store, SliceKey.parse(by)), sort=True)
            self.memo["slice_codes"][by] = (codes, np.asarray(values, dtype=object))
        return self.memo["slice_codes"][by]

    def code_run(self, hits: pd.DataFrame) -> CodedRun:
        q_local, query_map = local_codes(hits["query_id"], self.query_pos)
        d_local, doc_map = local_codes(hits["doc_id"], self.docs)
        ranks = hits["rank"]
        # Integer ranks convert directly (stored runs are nullable Int32: the empty-list marker is NA);
        # anything else goes through to_numeric.
        if ranks.dtype.kind not in "iu":
            ranks = pd.to_numeric(ranks)
        plain_int = isinstance(ranks.dtype, np.dtype) and ranks.dtype.kind in "iu"  # cannot hold a missing value
        rank = ranks.to_numpy(dtype=np.float64) if plain_int else ranks.to_numpy(dtype=np.float64, na_value=np.inf)
        # Which queries the run lists is found by the scan, which reads every row anyway.
        return CodedRun(q_local, query_map, d_local, doc_map, rank)


def code_table(index: ReleaseIndex, table: pa.Table) -> CodedRun:
    """``ReleaseIndex.code_run`` of a run read as an Arrow table (``query_id``, ``doc_id``, ``rank``), without
    pandas: a stored run's id columns are dictionary-encoded, so their indices are the local codes and only
    the dictionaries (a few thousand ids) are looked up; nulls become -1 and a null rank (the empty-list
    marker) ``inf``, as ``code_run`` gives them.

    >>> table = pa.table({"query_id": pa.array(["q1", "q1", "q2"]).dictionary_encode(),
    ...                   "doc_id": pa.array(["d1", "d2", None]).dictionary_encode(), "rank": pa.array([1, 2, None])})
    >>> coded = code_table(release_index(store), table)  # demo_v2603: neither id is in it
    >>> coded.q_local.tolist(), coded.query_map.tolist(), coded.d_local.tolist(), coded.rank.tolist()
    ([0, 0, 1], [-1, -1], [0, 1, -1], [1.0, 2.0, inf])
    """
    if not all(_one_dictionary(table.column(c)) for c in ("query_id", "doc_id")):
        table = table.unify_dictionaries()  # one dictionary per column, shared by its chunks
    # The runs of a release mostly list the same ids in the same order: a dictionary equal to the last one
    # seen takes its positions without looking the ids up again (tens of thousands of strings at 10x).
    seen = index.memo.setdefault("dictionaries", {})
    q_local, query_map = _arrow_codes(table.column("query_id"), index.query_pos, seen, "query_id")
    d_local, doc_map = _arrow_codes(table.column("doc_id"), index.docs, seen, "doc_id")
    ranks = table.column("rank")
    if ranks.null_count:
        ranks = pc.fill_null(pc.cast(ranks, pa.float64()), np.inf)
    # A stored run's int32 ranks stay int32 (the scan reads them as they are); anything else becomes float64.
    rank = ranks.to_numpy()
    if rank.dtype != np.int32:
        rank = rank.astype(np.float64, copy=False)
    return CodedRun(q_local, query_map, d_local, doc_map, rank)


def _one_dictionary(column: pa.ChunkedArray) -> bool:
    """Whether every chunk of ``column`` has the same dictionary (as parquet gives a column chunk's batches),
    or the column is not dictionary-encoded at all."""
    if not pa.types.is_dictionary(column.type) or column.num_chunks < 2:
        return True
    first = column.chunk(0).dictionary
    return all(c.dictionary.equals(first) for c in column.chunks[1:])


def _arrow_codes(column: pa.ChunkedArray, index: pd.Index, seen: dict | None = None, name: str = ""
                 ) -> tuple[np.ndarray, np.ndarray]:
    """``local_codes`` of an Arrow column: its dictionary indices (a signed integer type of at least 16 bits,
    -1 for null) and each dictionary entry's position in ``index`` (int64, -1 when absent)."""
    if not pa.types.is_dictionary(column.type):
        column = column.dictionary_encode().unify_dictionaries()
    chunks = column.chunks
    if not chunks:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    parts = [c.indices if not c.indices.null_count else pc.fill_null(c.indices, -1) for c in chunks]
    # The indices stay narrow (int16 for a stored run of up to 32,767 ids): the scan reads them as they are.
    codes = np.concatenate([part.to_numpy(zero_copy_only=False) for part in parts])
    if codes.dtype.kind not in "iu" or codes.dtype.itemsize < 2:
        codes = codes.astype(code_dtype(codes.dtype))
    dictionary = chunks[0].dictionary
    last = seen.get(name) if seen is not None else None
    if last is not None and last[0].equals(dictionary):
        return codes, last[1]
    mapping = index.get_indexer(dictionary.to_numpy(zero_copy_only=False)).astype(np.int64, copy=False)
    mapping.flags.writeable = False  # shared by the runs whose dictionary is this one
    if seen is not None:
        seen[name] = (dictionary, mapping)
    return codes, mapping


def local_codes(column: pd.Series, index: pd.Index) -> tuple[np.ndarray, np.ndarray]:
    """A column's local codes (int64, -1 for a missing value) and each local code's position in
    ``index`` (-1 when absent). Categorical columns look up only their categories; others hash
    their strings once and look up only the distinct ones."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes, uniques = column.cat.codes.to_numpy(), column.cat.categories
    else:
        codes, uniques = pd.factorize(column)
    return codes.astype(np.int64, copy=False), index.get_indexer(uniques).astype(np.int64, copy=False)


def codes_in(column: pd.Series, index: pd.Index) -> np.ndarray:
    """Global integer codes of a column (-1 for a value not in ``index``)."""
    codes, mapping = local_codes(column, index)
    if len(codes) and codes.min() >= 0:  # no missing value: one gather, no mask
        return mapping[codes]
    return np.where(codes >= 0, mapping[codes], -1)


INDEX_FORMAT = "release-index-1"  # a new format is a new key: older files are never read
KEEP_INDEX_FILES = 8  # index folders kept (one per release version and code of the views in use)


def file_identity(path: Path) -> str:
    """What a derived file's key knows of the file it was derived from when reading it whole is not worth it (a
    release version's files, which an import never rewrites): size, modification time, inode and status-change
    time (ctime). A rewrite in place at the same size with its modification time put back (``os.utime``) keeps
    the first three, but the kernel sets the ctime on every write and on ``utime`` itself, and no call sets it
    back. A chmod, chown or rename changes the ctime too: the derived file is then rebuilt once.

    >>> import os, tempfile
    >>> path = Path(tempfile.mkdtemp()) / "hits.parquet"
    >>> _ = path.write_bytes(b"12345")
    >>> before, mtime = file_identity(path), path.stat().st_mtime_ns
    >>> with open(path, "r+b") as f:
    ...     _ = f.write(b"54321")
    >>> os.utime(path, ns=(mtime, mtime))
    >>> file_identity(path) == before
    False
    """
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ino}:{stat.st_ctime_ns}"


_DIGESTS: dict[str, tuple[str, str]] = {}  # path -> (its file_identity when hashed, the digest)


def content_digest(path: Path) -> str:
    """The SHA-256 of the file's bytes, what a stored run's join is keyed on: no rewrite keeps it, whatever it
    does to the file's times, and a copy or a chmod does not change it. Hashed once per process and file version
    (``file_identity``: a rewrite changes the ctime, so it is hashed again): 2.4 ms for the real release's BM25
    hits file (3.6 MB, 821,480 rows) on a warm page cache; a ``stat`` each call after that.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "hits.parquet"
    >>> _ = path.write_bytes(b"12345")
    >>> content_digest(path)[:16]
    '5994471abb01112a'
    """
    identity = file_identity(path)
    seen = _DIGESTS.get(str(path))
    if seen is not None and seen[0] == identity:
        return seen[1]
    with open(path, "rb") as f:
        digest = hashlib.file_digest(f, "sha256").hexdigest()
    _DIGESTS[str(path)] = (identity, digest)
    return digest


def index_file(store: Store) -> Path:
    """The folder holding a release version's coded index, ``data_cache/joins/@release/<key>/`` (``@`` is in no
    run id). The key names all the codes depend on: the version's folder and its files (``file_identity``),
    and the SQL that defines the Store's views; so a re-import, a changed file or a changed view
    definition is a new folder, and nothing is trusted that does not fit."""
    from coreb_core.data.store import VIEWS

    folder = Path(store.folder)
    files = sorted(folder.glob("*.parquet"))
    stats = [f"{f.name}:{file_identity(f)}" for f in files]
    return joins_dir(store.root) / "@release" / fingerprint([INDEX_FORMAT, str(folder), VIEWS, *stats])


def version_views(store: Store) -> set[str]:
    """The qrels views whose rows follow from the version's files alone (the Store's built-in views and its
    stored qrels files), so their codes may be kept in ``index_file``; a judged view (applied judgments) is not."""
    return {"qrels", "qrels_v1_rules", "qrels_executed", "qrels_positives", *(f"qrels_{n}" for n in store.extra_qrels)}


# evaluate() joins runs on a thread pool, and np.load parses each array's header with ast.literal_eval: on
# CPython 3.11 two threads parsing at once can fail with "SystemError: AST constructor recursion depth mismatch"
# (python/cpython#106905; seen in the suite). The reads (joins, index files) are small; one at a time costs
# nothing measurable.
_READING = threading.Lock()
# A derived array file is the .npy bytes, then this mark and a digest of them: a flipped byte anywhere (header or
# data) fails the digest and the file is rebuilt, never read as other numbers. np.load alone still reads such a
# file (it stops at the array's end). SHA-256 cut to 16 bytes: this CPU hashes it twice as fast as BLAKE2b (SHA
# instructions; 0.17 against 0.34 ms for 300 KB), which was a quarter of a cached evaluation of 11 real runs. Files
# written with the BLAKE2b mark before still read.
CHECK_MARK = b"coreb-sha256-16:"
_OLD_MARK = b"coreb-blake2b-16"
_DIGEST_BYTES = 16


def _digest(payload: bytes, mark: bytes) -> bytes:
    if mark == _OLD_MARK:
        return hashlib.blake2b(payload, digest_size=_DIGEST_BYTES).digest()
    return hashlib.sha256(payload).digest()[:_DIGEST_BYTES]


def checked_npy(array: np.ndarray) -> bytes:
    """``array`` as .npy bytes (no pickles) followed by ``CHECK_MARK`` and their digest (``read_checked_npy``).

    >>> raw = checked_npy(np.arange(3.0))
    >>> read_checked_npy(raw).tolist(), read_checked_npy(raw[:20] + bytes([raw[20] ^ 1]) + raw[21:])
    ([0.0, 1.0, 2.0], None)
    """
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=False)
    payload = buffer.getvalue()
    return payload + CHECK_MARK + _digest(payload, CHECK_MARK)


def read_checked_npy(raw: bytes) -> np.ndarray | None:
    """The array of ``checked_npy`` bytes; None when the digest does not match (a flipped or missing byte, a file
    of an earlier format) or the bytes hold no plain array."""
    tail = len(CHECK_MARK) + _DIGEST_BYTES
    payload, mark, digest = raw[:-tail], raw[-tail:-_DIGEST_BYTES], raw[-_DIGEST_BYTES:]
    if len(raw) < tail or mark not in (CHECK_MARK, _OLD_MARK) or _digest(payload, mark) != digest:
        return None
    try:
        with _READING:
            data = np.load(io.BytesIO(payload), allow_pickle=False)
    except (OSError, ValueError, EOFError, TypeError):  # TypeError: a dtype numpy does not know
        return None
    return data if isinstance(data, np.ndarray) else None


def read_checked_file(file: Path) -> np.ndarray | None:
    """``read_checked_npy`` of a file; None when it is missing or unreadable."""
    try:
        return read_checked_npy(file.read_bytes())
    except OSError:
        return None


def _load_array(file: Path, kind: str) -> np.ndarray | None:
    """The 1-d array in ``file`` (no pickles) when it is of ``kind`` ("i": int64, "U": text); None when the
    file is missing, unreadable, fails its digest or holds something else (it is then rebuilt)."""
    data = read_checked_file(file)
    fits = data is not None and data.ndim == 1 and (data.dtype == np.int64 if kind == "i" else data.dtype.kind == "U")
    return data if fits else None


def _save_array(file: Path, array: np.ndarray) -> None:
    """Write ``array`` atomically into ``file`` (``checked_npy``), keeping the newest ``KEEP_INDEX_FILES`` index
    folders. A cache that cannot be written (a read-only cache folder) only costs the next index its reads."""
    try:
        atomic_write_bytes(file, checked_npy(array))
        folders = sorted((p for p in file.parent.parent.iterdir() if p.is_dir() and p != file.parent),
                         key=lambda p: p.stat().st_mtime_ns)
        for stale in folders[:max(0, len(folders) + 1 - KEEP_INDEX_FILES)]:
            shutil.rmtree(stale, ignore_errors=True)
    except OSError:
        pass


def release_index(store: Store) -> ReleaseIndex:
    """The Store's index, built once and kept in the Store's per-version memo (``Store.cache``), so a
    Store that re-opens a newer version builds a new one.

    >>> index = release_index(store)  # demo_v2603
    >>> index.n_queries, index.n_docs, release_index(store) is index
    (1200, 427, True)
    """
    if "release_index" not in store.cache:
        store.cache["release_index"] = ReleaseIndex(store)
    return store.cache["release_index"]


def qrels_view(store: Store, scheme: Scheme) -> str:
    """The Store view of ``scheme``'s judgments; a loud error when a stored qrels file is missing.

    >>> from coreb_core.evaluation.schemes import V1, V2
    >>> qrels_view(store, V2), qrels_view(store, V1)  # demo_v2603
    ('qrels', 'qrels_v1_rules')
    """
    if scheme.name == "judged":  # a view of the judgments applied now, named by their fingerprint
        from coreb_core.data.judgments import judged_qrels_view

        return judged_qrels_view(store)
    if scheme.name == "file" and scheme.qrels_file not in store.extra_qrels:
        raise CorebError(f"release {store.release} has no stored qrels '{scheme.qrels_file}' "
                         f"(available: {', '.join(store.extra_qrels) or 'none'})")
    return scheme.qrels_view


class RunJoin(NamedTuple):
    """One run matched once against every judged pair of the views being scored (their union).

    The pass over the run's rows happens here, once per run; each view then reads its pairs' values
    and applies the drops on its judged pairs only. Nothing here grows with the run's rows, so a join
    is what ``coreb_core.evaluation.stored_joins`` keeps beside a stored run."""

    in_run: np.ndarray  # per query code: the run lists it (an empty list counts)
    joint: "JointJudged"
    rank: np.ndarray  # per joint pair: the stored rank, inf when the run does not list it
    excluded_above: np.ndarray  # per joint pair: own-id / C2C-anchor hits above it (the official rank rule)
    noise_above: np.ndarray | None  # per joint pair: C2T noise hits above it, for views that drop noise texts
    excluded: list[np.ndarray]  # per query code, a document that always leaves its list (own id, C2C anchor)


class JointJudged(NamedTuple):
    """The union of several views' judged pairs, and where each view's pairs sit in it."""

    pairs: JudgedPairs  # sorted, unique keys, split per query
    where: dict[str, np.ndarray]  # view -> position in ``keys`` of each of its (sorted) pairs


def joint_judged(index: ReleaseIndex, views: tuple[str, ...]) -> JointJudged:
    """The union of ``views``' judged pairs (memoised per index and set of views)."""
    memo = index.memo.setdefault("joint", {})
    if views not in memo:
        parts = [index.judged(v).keys for v in views]
        keys = np.unique(np.concatenate(parts)) if len(parts) > 1 else parts[0]
        memo[views] = JointJudged(JudgedPairs.build(keys, index.n_queries, index.n_docs),
                                  {v: np.searchsorted(keys, k) for v, k in zip(views, parts)})
    return memo[views]


def excluded_docs(index: ReleaseIndex, anchor_exclusion: bool) -> list[np.ndarray]:
    """Per query code, the documents that always leave its list: its own id (where one is a document) and,
    with ``anchor_exclusion``, the C2C anchor."""
    return ([index.self_doc] if index.has_self_doc else []) + ([index.anchor] if anchor_exclusion else [])


def join_run(index: ReleaseIndex, run: CodedRun, joint: JointJudged, anchor_exclusion: bool = True,
             noise: bool = False) -> RunJoin:
    """Read a coded run against the joint judged pairs (``JudgedPairs.scan``): one pass over its rows."""
    excluded = excluded_docs(index, anchor_exclusion)
    no_doc = np.full(index.n_queries, -1, dtype=np.int64)
    scan = joint.pairs.scan(run.q_local, run.query_map, run.d_local, run.doc_map, run.rank, index.self_doc,
                            index.anchor if anchor_exclusion else no_doc, index.noise_doc,
                            index.c2t_query if noise else np.zeros(index.n_queries, dtype=bool))
    return RunJoin(scan.in_run, joint, scan.rank, scan.excluded_above, scan.noise_above if noise else None, excluded)


def view_ranks(index: ReleaseIndex, joined: RunJoin, view: str = "qrels", drop_noise: bool = False
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Evaluated query codes and, per judged pair of those queries, (query position, rank or inf, grade).

    Ranks are the evaluator's: the query's own id, the C2C anchor (when the join excluded it) and, with
    ``drop_noise``, every noise description in a C2T list leave the list, and hits below move up.
    Only the pairs of the run's evaluated queries are touched (a view's pairs are sorted by query)."""
    j = index.judged(view)
    every = _view_pairs(index, view, joined.joint, np.flatnonzero(j.has_qrels))
    if joined.in_run[every.scored].all():  # the run lists every judged query (the usual case): pairs computed once
        scored, lengths, jq, jd, where, qpos, grade = every
    else:
        scored, lengths, jq, jd, where, qpos, grade = _view_pairs(index, view, joined.joint,
                                                                  np.flatnonzero(joined.in_run & j.has_qrels))
    # The official rule (``judged_pairs.dropped_above``): dropped hits leave the list and every hit
    # below moves up by the number of dropped hits above it.
    rank = joined.rank[where] - joined.excluded_above[where]
    if drop_noise:
        assert joined.noise_above is not None  # joined with noise whenever a view drops it
        rank = rank - joined.noise_above[where]
    for doc_of_query in joined.excluded:
        rank = np.where(doc_of_query[jq] == jd, np.inf, rank)
    if drop_noise:
        rank = np.where(index.noise_doc[jd] & index.c2t_query[jq], np.inf, rank)
    return scored, qpos, rank, grade


class ViewPairs(NamedTuple):
    """The judged pairs of a view's queries ``scored``, in the view's (query-sorted) order: per scored query
    its number of pairs; per pair its query and document codes, its position in the joint pairs, the scored
    query's position and the grade. Read-only: the arrays for every judged query are shared by all runs."""

    scored: np.ndarray
    lengths: np.ndarray
    jq: np.ndarray
    jd: np.ndarray
    where: np.ndarray
    qpos: np.ndarray
    grade: np.ndarray


def _view_pairs(index: ReleaseIndex, view: str, joint: JointJudged, scored: np.ndarray) -> ViewPairs:
    """``ViewPairs`` of ``scored``; memoised on the index when ``scored`` is every judged query of the view."""
    j = index.judged(view)
    memo = index.memo.setdefault("view_pairs", {})
    key = (view, tuple(sorted(joint.where)))
    every = len(scored) == int(j.has_qrels.sum())
    if every and key in memo:
        return memo[key]
    # The pairs of the scored queries: contiguous ranges of the query-sorted pairs.
    bounds = np.searchsorted(j.qcode, np.stack([scored, scored + 1]))
    lengths = bounds[1] - bounds[0]
    pairs = np.repeat(bounds[0] - np.r_[0, np.cumsum(lengths)[:-1]], lengths) + np.arange(lengths.sum())
    jq = j.qcode[pairs]
    jd = j.keys[pairs] - jq.astype(np.int64) * index.n_docs
    out = ViewPairs(scored, lengths, jq, jd, joint.where[view][pairs], np.repeat(np.arange(len(scored)), lengths),
                    j.grade[pairs])
    if every:
        for array in out:
            array.flags.writeable = False
        memo[key] = out
    return out


def judged_ranks(index: ReleaseIndex, run: CodedRun, view: str = "qrels", anchor_exclusion: bool = True,
                 drop_noise: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One run against one view: the evaluated query codes and, per judged pair of those queries,
    (query position, rank or inf, grade) (``join_run`` + ``view_ranks``).

    >>> from coreb_core.runs.folders import read_hits
    >>> index = release_index(store)  # demo_v2603, a BM25 run
    >>> scored, qpos, rank, grade = judged_ranks(index, index.code_run(read_hits(bm25)))
    >>> len(scored), len(qpos), int(grade.max())
    (1200, 6728, 2)
    """
    joint = joint_judged(index, (view,))
    return view_ranks(index, join_run(index, run, joint, anchor_exclusion, drop_noise), view, drop_noise)
