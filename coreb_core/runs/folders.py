"""Runs on disk: one folder per run under the cache's ``runs/`` (``hits.parquet`` and ``run.json``), written
atomically, checked when read (a folder that is not a run is listed with its reason, never fatal), listed per
release, renamed and tagged in place.

Example (a cache folder ``root``; not doctested):
    >>> run_id = write_run(hits, {"run_id": "r1", "model": "bm25", "release": "demo_v2603"}, root)  # doctest: +SKIP
    >>> [m.run_id for m in list_runs("demo_v2603", root)]  # doctest: +SKIP
    ['r1']
"""
from __future__ import annotations

import hashlib
import json
import time
import unicodedata
import uuid
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection, Iterable, Mapping, NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from coreb_core.atomic import atomic_folder, atomic_write_text
from coreb_core.data.schema import TASK_NAMES
from coreb_core.errors import CorebError, DataError, DataProblem
from coreb_core.paths import runs_dir
from coreb_core.runs.hits import (
    HITS_SCHEMA,
    hits_from_scores,  # noqa: F401  (the examples below build runs with it)
)
from coreb_core.runs.meta import (
    RunMeta,
    check_name_free,
    check_run_id,
    check_run_name,
    check_tag,
    default_run_name,
    distinct_name,
    name_runs,
)
from coreb_core.text import quoted_id

if TYPE_CHECKING:
    from coreb_core.data.store import Store


def update_run(run_id: str, name: str | None = None, tags: Iterable[str] | None = None,
               root: Path | None = None) -> RunMeta:
    """Set a stored run's name and/or its whole list of tags (None: keep), in its ``run.json``, in one
    atomic write; its updated provenance. Everything is checked before anything is written: a one-line
    CorebError for an unknown run, a bad name (``check_run_name``), a name another run of the same
    release already has or one that looks like it (``check_name_free``), or a bad tag (``check_tag``).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> hits = hits_from_scores("t2c", ["q1"], ["d1"], np.array([[0.5]]))
    >>> _ = write_run(hits, {"run_id": "r1", "model": "bm25", "release": "v"}, root)
    >>> _ = write_run(hits, {"run_id": "r2", "model": "bm25", "release": "v"}, root)
    >>> meta = update_run("r2", " bm25 tuned ", ["baseline", "baseline"], root)
    >>> meta.name, meta.tags, run_meta("r2", root).name
    ('bm25 tuned', ('baseline',), 'bm25 tuned')
    >>> update_run("r1", "BM25 tuned", root=root)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: name 'BM25 tuned' is already used by run r2 on release v; choose another
    """
    meta = run_meta(run_id, root)
    # What is stored already is kept as it is (names and tags stored before a check existed still load and
    # stay); only what changes is checked.
    if name is not None and name != meta.name:
        name = check_run_name(name)
        if name != meta.name:
            check_name_free(name, run_id, named_runs(meta.release, root))
    if tags is not None:
        tags = tuple(dict.fromkeys(t if t in (meta.tags or ()) else check_tag(t) for t in tags))
    meta = replace(meta, name=meta.name if name is None else name, tags=meta.tags if tags is None else tags)
    # run.json is replaced in one rename: a reader sees the old or the new provenance, never half of it.
    text = json.dumps(meta.to_json(), indent=2, sort_keys=True, default=str)
    atomic_write_text(run_path(run_id, root) / "run.json", text)
    return meta


def rename_run(run_id: str, name: str, root: Path | None = None) -> RunMeta:
    """Give a stored run a new name (``update_run`` with a name: the same checks).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = write_run(hits_from_scores("t2c", ["q1"], ["d1"], np.array([[0.5]])), {"run_id": "r1", "model": "bm25"}, root)
    >>> run_meta("r1", root).name, rename_run("r1", "my bm25", root).name
    ('bm25', 'my bm25')
    """
    return update_run(run_id, name=name, root=root)


def tag_run(run_id: str, add: Iterable[str] = (), remove: Iterable[str] = (), root: Path | None = None) -> RunMeta:
    """Add and remove free-text tags of a stored run (kept in the order given; adding a tag it has or
    removing one it lacks changes nothing); its updated provenance. A one-line CorebError for an
    unknown run or a bad tag (``check_tag``).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = write_run(hits_from_scores("t2c", ["q1"], ["d1"], np.array([[0.5]])), {"run_id": "r1", "model": "bm25"}, root)
    >>> tag_run("r1", ["baseline", "demo"], root=root).tags
    ('baseline', 'demo')
    >>> tag_run("r1", ["final"], remove=["demo"], root=root).tags, run_meta("r1", root).tags
    (('baseline', 'final'), ('baseline', 'final'))
    """
    add = [check_tag(t) for t in add]
    # a tag to remove is only looked for, so one stored before the checks (say in NFD) can still be removed
    remove = {unicodedata.normalize("NFC", t.strip()) for t in remove}
    kept = [t for t in run_meta(run_id, root).tags or () if unicodedata.normalize("NFC", t) not in remove]
    return update_run(run_id, tags=kept + add, root=root)


def new_run_id(label: str, release: str) -> str:
    """A fresh run id: the label made file-name safe (ASCII letters and digits, '-', '_', '.'), the
    release, a timestamp and a random tail.

    >>> new_run_id("BM25 (k1=1.5)", "demo_v2603")  # doctest: +ELLIPSIS
    'BM25--k1-1.5__demo_v2603__...-...'
    """
    safe = "".join(c if c.isascii() and c.isalnum() or c in "-_." else "-" for c in label).strip("-.")[:48] or "run"
    return f"{safe}__{release}__{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:6]}"


def write_run(hits: pd.DataFrame, meta: RunMeta | Mapping[str, Any], root: Path | None = None,
              store: Store | None = None) -> str:
    """Store a run atomically: written to a temp folder, renamed into place. ``meta`` may also be a
    plain ``run.json``-shaped mapping (tests write minimal ones). With ``store`` (the release version the run
    was made on), the rows a join against its judged pairs reads come first in their own row group
    (``JudgedRows``); ``read_hits`` gives the rows back in the run's order either way.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> hits = hits_from_scores("t2c", ["q1"], ["d1", "d2"], np.array([[0.5, 0.9]]))
    >>> write_run(hits, RunMeta("r1", release="demo_v2603", model="bm25"), root)
    'r1'
    >>> sorted(p.name for p in (root / "runs" / "r1").iterdir())
    ['hits.parquet', 'run.json']

    A run stored without a name gets its default one, distinct within its release:

    >>> write_run(hits, RunMeta("r2", release="demo_v2603", model="bm25"), root)
    'r2'
    >>> run_meta("r1", root).name, run_meta("r2", root).name
    ('bm25 · demo_v2603', 'bm25 · demo_v2603 (2)')
    """
    if not isinstance(meta, RunMeta):
        meta = RunMeta.from_json(meta, "write_run meta")
    check_run_id(meta.run_id, "write_run: ")  # before any path is made of it
    if not meta.name:  # named once, at creation, so that a later run does not renumber it
        meta = replace(meta, name=distinct_name(default_run_name(meta),
                                                (m.name for m in named_runs(meta.release, root) if m.name)))
    run_id = meta.run_id
    base = runs_dir(root)
    base.mkdir(parents=True, exist_ok=True)
    with atomic_folder(base / run_id, base / f".tmp-{run_id}") as tmp:
        frame = hits[[f.name for f in HITS_SCHEMA]].copy()
        for column in ("task", "query_id", "doc_id"):
            frame[column] = frame[column].astype("category")  # dictionary-encoded on disk, categorical on read
        frame["rank"] = frame["rank"].astype("Int32")
        table = pa.Table.from_pandas(frame, preserve_index=False)
        judged = judged_mask(frame, store) if store is not None and store.release == meta.release else None
        if store is None or judged is None:
            pq.write_table(table, tmp / "hits.parquet", compression="zstd")
        else:
            _write_judged_first(table, judged, store.folder.name, tmp / "hits.parquet")
        (tmp / "run.json").write_text(json.dumps(meta.to_json(), indent=2, sort_keys=True, default=str))
        check_run_folder(tmp)  # the schema every run folder meets, before the rename makes it visible
    return run_id


def run_path(run_id: str, root: Path | None = None) -> Path:
    """The folder of a stored run; a CorebError when ``run_id`` is not a run id (``check_run_id``: a path
    such as ``../x`` never leaves the runs folder) or the run is missing or incomplete.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = write_run(hits_from_scores("t2c", ["q1"], ["d1"], np.array([[0.5]])), {"run_id": "r1"}, root)
    >>> run_path("r1", root).relative_to(root).as_posix()
    'runs/r1'
    """
    path = runs_dir(root) / check_run_id(run_id)
    if not (path / "hits.parquet").exists() or not (path / "run.json").exists():
        raise CorebError(f"run {quoted_id(run_id)} not found in {runs_dir(root)}")
    return path


def read_hits(run_id: str, root: Path | None = None, columns: Collection[str] | None = None) -> pd.DataFrame:
    """A stored run's hits, as written by ``write_run`` (only ``columns`` when given: evaluation reads
    query_id, doc_id and rank).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = write_run(hits_from_scores("t2c", ["q1"], ["d1", "d2"], np.array([[0.5, 0.9]])), {"run_id": "r1"}, root)
    >>> read_hits("r1", root)
      task query_id doc_id  rank  score  in_top_k
    0  t2c       q1     d2     1    0.9      True
    1  t2c       q1     d1     2    0.5      True
    """
    path = run_path(run_id, root) / "hits.parquet"
    try:
        with pq.ParquetFile(path) as file:
            layout = judged_rows(file)
        if layout is None:
            return pd.read_parquet(path, columns=list(columns) if columns is not None else None)
        # Judged rows first (``JudgedRows``): read with what puts the rows back in the run's order.
        wanted = list(columns) if columns is not None else [f.name for f in HITS_SCHEMA]
        frame = pd.read_parquet(path, columns=list(dict.fromkeys(wanted + ["query_id", "rank"])))
    except (OSError, pa.ArrowException):
        raise CorebError(f"{path}: not a readable parquet file") from None
    order = run_order(frame["query_id"].cat.codes.to_numpy(),
                      frame["rank"].to_numpy(dtype=np.int64, na_value=-1), layout.rows)
    if order is not None:
        frame = frame.take(order).reset_index(drop=True)
    return frame[wanted]


# Key of hits.parquet's key-value metadata that says the file is laid out as ``JudgedRows`` (JSON of its fields).
JUDGED_ROWS_KEY = b"coreb.judged_rows"


class JudgedRows(NamedTuple):
    """How ``write_run`` lays out a run made on a known release version: its first ``rows`` rows, in row groups of
    their own, are every row that pairs a query with a document of the version's ``qrels`` view or with the query's
    anchor or own id, and each query's first row (the one an empty list has); the other rows follow. Both parts
    keep the run's order. A join against judged pairs that are all among those (``coreb_core.evaluation.
    stored_joins``: v2 and the views inside it, noise texts kept) reads only the first part: on the real release
    about 14,000 of a run's 800,000 rows, the rest being mostly C2T's stretch and unjudged hits.
    ``version`` is the release version's folder name (``Store.folder``): another version's qrels may differ."""

    rows: int
    version: str


def judged_mask(frame: pd.DataFrame, store: Store) -> np.ndarray | None:
    """Per row of ``frame`` (categorical ids, as ``write_run`` stores them), whether it is among the first part of
    ``JudgedRows`` for ``store``'s version; None when the rows are not grouped by query in increasing rank (a
    run from elsewhere): such a run is stored as it is."""
    q = frame["query_id"].cat.codes.to_numpy().astype(np.int64)
    d = frame["doc_id"].cat.codes.to_numpy().astype(np.int64)
    rank = frame["rank"].to_numpy(dtype=np.int64, na_value=-1)
    if not len(q) or (q < 0).any():
        return None
    first = np.r_[True, q[1:] != q[:-1]]
    if np.unique(q[first]).size != int(first.sum()) or (np.diff(rank)[~first[1:]] <= 0).any():
        return None
    queries, docs = frame["query_id"].cat.categories, frame["doc_id"].cat.categories
    pairs = store.sql("SELECT query_id, doc_id FROM qrels UNION ALL "
                      "SELECT query_id, anchor_code_id FROM queries WHERE anchor_code_id IS NOT NULL").df()
    pq_, pd_ = queries.get_indexer(pairs["query_id"]), docs.get_indexer(pairs["doc_id"])
    kept = np.unique(pq_[(pq_ >= 0) & (pd_ >= 0)].astype(np.int64) * len(docs) + pd_[(pq_ >= 0) & (pd_ >= 0)])
    keys = q * len(docs) + d
    at = np.minimum(np.searchsorted(kept, keys), max(len(kept) - 1, 0))
    judged = (kept[at] == keys) if len(kept) else np.zeros(len(q), dtype=bool)
    own = queries.get_indexer(docs)  # per document, the query of that id (-1: none)
    return judged & (d >= 0) | first | (d < 0) | ((d >= 0) & (own[np.maximum(d, 0)] == q))


def _write_judged_first(table: pa.Table, judged: np.ndarray, version: str, path: Path) -> None:
    """``table`` written as ``JudgedRows``: the judged rows, then the others, each ``write_table`` its own row groups."""
    rows = int(judged.sum())
    table = table.take(np.r_[np.flatnonzero(judged), np.flatnonzero(~judged)])
    layout = json.dumps(JudgedRows(rows, version)._asdict()).encode()
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), JUDGED_ROWS_KEY: layout})
    with pq.ParquetWriter(path, table.schema, compression="zstd") as writer:
        writer.write_table(table.slice(0, rows))
        if rows < len(table):
            writer.write_table(table.slice(rows))


def judged_rows(file: pq.ParquetFile) -> JudgedRows | None:
    """The layout ``file`` says it has (``JudgedRows``), when that fits the file: its judged rows end at a row
    group's end. None for a file written without it (every run stored before it) or one that does not fit."""
    raw = (file.schema_arrow.metadata or {}).get(JUDGED_ROWS_KEY)
    if raw is None:
        return None
    try:
        found = json.loads(raw)
        layout = JudgedRows(int(found["rows"]), str(found["version"]))
    except (ValueError, TypeError, KeyError):
        return None
    data, ends = file.metadata, 0
    for i in range(data.num_row_groups):
        ends += data.row_group(i).num_rows
        if ends == layout.rows:
            return layout
    return None


def judged_row_groups(file: pq.ParquetFile, layout: JudgedRows) -> list[int]:
    """The row groups holding ``layout``'s judged rows (``judged_rows`` checked that they end at a group's end)."""
    groups: list[int] = []
    ends = 0
    while ends < layout.rows:
        ends += file.metadata.row_group(len(groups)).num_rows
        groups.append(len(groups))
    return groups


def run_order(query: np.ndarray, rank: np.ndarray, first: int) -> np.ndarray | None:
    """The positions that put a ``JudgedRows`` file's rows (``query``: codes of one dictionary; ``rank``: integers,
    -1 for none) back in the run's order: each part keeps that order and holds each query's rows in increasing
    rank, and every query's first row is among the first ``first`` rows, so the run's order is a merge on (the
    query's place among the first rows, rank). None when the rows do not fit that (they are then left as read).

    >>> run_order(np.array([0, 1, 0, 0, 1]), np.array([1, 1, 2, 3, 2]), 2).tolist()   # q0: 1 2 3, q1: 1 2
    [0, 2, 3, 1, 4]
    """
    query, rank = np.asarray(query), np.asarray(rank).astype(np.int64, copy=False)
    if not 0 < first < len(query):
        return None
    head, tail = query[:first], query[first:]
    starts = np.flatnonzero(np.r_[True, head[1:] != head[:-1]])
    firsts = head[starts].astype(np.int64)
    if firsts.min() < 0 or tail.min() < 0 or np.unique(firsts).size != len(firsts):
        return None
    place = np.full(max(int(firsts.max()), int(tail.max())) + 1, -1, dtype=np.int64)
    place[firsts] = np.arange(len(firsts))
    # (query's place, rank) as one int64 key per row; ranks are below 2 ** 31
    key = place[tail]
    if key.min() < 0:
        return None
    key <<= 32
    key += rank[first:] + 1
    head_key = (np.repeat(np.arange(len(firsts)), np.diff(np.r_[starts, first])) << 32) + rank[:first] + 1
    if (head_key[1:] <= head_key[:-1]).any() or (key[1:] <= key[:-1]).any():
        return None
    at = np.searchsorted(key, head_key)
    if (key[np.minimum(at, len(key) - 1)] == head_key).any():  # a (query, rank) in both parts
        return None
    return np.insert(np.arange(first, len(query)), at, np.arange(first))


def read_run_meta(path: Path) -> RunMeta:
    """The provenance in one ``run.json`` file, as stored (``run_meta`` also fills in a missing name).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "run.json"
    >>> _ = path.write_text('{"run_id": "r1", "model": "bm25", "release": "demo_v2603"}')
    >>> read_run_meta(path).release
    'demo_v2603'
    """
    path = Path(path)
    try:
        if path.stat().st_size > RUN_JSON_MAX:
            raise CorebError(f"{path}: larger than {RUN_JSON_MAX // 1024} KiB; not a run.json")
        data = json.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise CorebError(f"{path}: cannot be read ({exc.strerror or type(exc).__name__})") from None
    except json.JSONDecodeError as exc:  # its message names line and column, never the text
        raise CorebError(f"{path}: not valid JSON ({exc})") from None
    except (UnicodeDecodeError, RecursionError) as exc:
        raise CorebError(f"{path}: not valid JSON ({type(exc).__name__})") from None
    return RunMeta.from_json(data, path)


RUN_FILES = ("run.json", "hits.parquet")  # all a run folder holds


RUN_JSON_MAX = 1 << 20  # bytes: a run.json is a few KiB; a bigger one is not one


def _hits_type_ok(name: str, kind: pa.DataType) -> bool:
    """Whether a hits column of this arrow type reads as the column ``HITS_SCHEMA`` describes (text
    columns may be dictionary-encoded, as ``write_run`` stores them)."""
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if name in ("task", "query_id", "doc_id"):
        return pa.types.is_string(kind) or pa.types.is_large_string(kind)
    return {"rank": pa.types.is_integer, "score": pa.types.is_floating, "in_top_k": pa.types.is_boolean}[name](kind)


# Hits files found good, by identity (path, inode, size, modification time): runs are written once and
# replaced only by a rename, so each is read once per process, not on every listing (every page render).
_GOOD_HITS: set[tuple[str, int, int, int]] = set()


def _check_hits(path: Path) -> None:
    """A one-line DataError unless ``path`` is a readable parquet file of ``HITS_SCHEMA``'s columns whose
    rows all have a CoREB task and a query id."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise CorebError(f"{path}: cannot be read ({exc.strerror or type(exc).__name__})") from None
    identity = (str(path), stat.st_ino, stat.st_size, stat.st_mtime_ns)
    if identity in _GOOD_HITS:
        return

    def bad(row: int | str, column: str, message: str, value: Any = None) -> DataError:
        return DataError([DataProblem(str(path), row, column, message, value)])

    try:
        schema = pq.read_schema(path)
        for want in HITS_SCHEMA:
            found = schema.get_all_field_indices(want.name)
            if len(found) != 1:
                raise bad("-", want.name, "missing" if not found else "appears more than once")
            kind = schema.field(found[0]).type
            if not _hits_type_ok(want.name, kind):
                raise bad("-", want.name, f"is {kind}, expected {want.type}")
        table = pq.read_table(path, columns=["task", "query_id"])
    except (OSError, pa.ArrowException):
        raise bad("-", "-", "not a readable parquet file") from None
    task = table.column("task").cast(pa.string())
    row = pc.index(pc.fill_null(pc.is_in(task, value_set=pa.array(TASK_NAMES)), False), False).as_py()
    if row >= 0:
        raise bad(row + 1, "task", f"not a CoREB task ({', '.join(TASK_NAMES)})", task[row].as_py())
    row = pc.index(table.column("query_id").is_null(), True).as_py()
    if row >= 0:
        raise bad(row + 1, "query_id", "missing")
    if len(_GOOD_HITS) > 10_000:
        _GOOD_HITS.clear()
    _GOOD_HITS.add(identity)


def check_run_folder(path: Path, releases: Collection[str] | None = None) -> RunMeta:
    """The provenance of the run folder at ``path`` when it meets the schema every run folder meets
    (made by ``write_run``, imported, or found in the cache); else a one-line CorebError naming the file,
    the row where there is one, and the field:

    - ``run.json`` and ``hits.parquet`` are plain files (not links);
    - ``run.json`` is a JSON object of ``RunMeta``'s fields with their types, a safe run id
      (``check_run_id``) and CoREB task names; with ``releases`` given, its release is one of them;
    - ``hits.parquet`` is a readable parquet file with ``HITS_SCHEMA``'s columns (text columns may be
      dictionary-encoded, any integer rank, any float score), each row with a CoREB task and a query id.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = write_run(hits_from_scores("t2c", ["q1"], ["d1"], np.array([[0.5]])), {"run_id": "r1", "release": "v"}, root)
    >>> check_run_folder(root / "runs" / "r1").release
    'v'
    >>> _ = (root / "runs" / "r1" / "hits.parquet").write_bytes(b"not a parquet!!")
    >>> check_run_folder(root / "runs" / "r1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.DataError: .../runs/r1/hits.parquet: row -: field '-': not a readable parquet file
    """
    path = Path(path)
    if not path.is_dir():
        raise CorebError(f"{path}: not a run folder (a folder holding {' and '.join(RUN_FILES)})")
    for name in RUN_FILES:
        file = path / name
        if file.is_symlink():
            raise CorebError(f"{file}: is a link; a run folder holds plain files only")
        if not file.exists():
            raise CorebError(f"{file}: missing (a run folder holds {' and '.join(RUN_FILES)})")
        if not file.is_file():  # a folder, a pipe (reading it would hang), a device
            raise CorebError(f"{file}: not a plain file")
    meta = read_run_meta(path / "run.json")
    if releases is not None and meta.release not in releases:
        if meta.release is None:
            raise CorebError(f"{path / 'run.json'}: field 'release' is missing")
        raise CorebError(f"{path / 'run.json'}: field 'release': {repr(meta.release):.80} is not in the cache "
                         "(import that release first)")
    _check_hits(path / "hits.parquet")
    return meta


def _stored(folder: Path) -> RunMeta:
    """``check_run_folder`` for a folder in the runs folder, whose name must be its run id."""
    meta = check_run_folder(folder)
    if meta.run_id != folder.name:
        raise CorebError(f"{folder / 'run.json'}: field 'run_id': {repr(meta.run_id):.80} is not its folder's name")
    return meta


def run_meta(run_id: str, root: Path | None = None) -> RunMeta:
    """The provenance of a stored run, by id.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = write_run(hits_from_scores("t2c", ["q1"], ["d1"], np.array([[0.5]])), {"run_id": "r1", "model": "bm25"}, root)
    >>> run_meta("r1", root).model
    'bm25'

    A ``run.json`` stored without a name gets its default one (``name_runs``).
    """
    meta = _stored(run_path(run_id, root))
    if meta.name:
        return meta
    return next(m for m in list_runs(meta.release, root) if m.run_id == run_id)


class BadRun(NamedTuple):
    """An entry of the runs folder that is not a run (``check_run_folder`` refused it), e.g. a folder of
    an older version or one edited by hand."""
    folder: str  # its name in the runs folder
    reason: str  # one line, naming the file and field


class RunListing(NamedTuple):
    """What the runs folder holds: the runs (``list_runs``) and the entries skipped because they are not runs."""
    runs: list[RunMeta]
    skipped: list[BadRun]


def run_listing(release: str | None = None, root: Path | None = None) -> RunListing:
    """Every stored run (of one release when ``release`` is given) as ``list_runs`` gives them, and every
    entry of the runs folder that is not a run (of any release: its release cannot be trusted), with the
    reason. A bad entry is skipped, never fatal, so the app and the CLI keep working beside it.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = write_run(hits_from_scores("t2c", ["q1"], ["d1"], np.array([[0.5]])), {"run_id": "r1", "release": "v"}, root)
    >>> (root / "runs" / "edited").mkdir()
    >>> _ = (root / "runs" / "edited" / "run.json").write_text('{"run_id": "edited", "created": 5}')
    >>> listing = run_listing("v", root)
    >>> [m.run_id for m in listing.runs], [(bad.folder, bad.reason.split(": ", 1)[1]) for bad in listing.skipped]
    (['r1'], [('edited', 'missing (a run folder holds run.json and hits.parquet)')])
    """
    base = runs_dir(root)
    if not base.is_dir():
        return RunListing([], [])
    metas, skipped = [], []
    for p in sorted(base.iterdir()):
        if p.name.startswith("."):  # a writer's temporary (atomic.py)
            continue
        try:
            meta = _stored(p)
        except CorebError as exc:
            skipped.append(BadRun(p.name, str(exc).splitlines()[0]))
            continue
        except OSError as exc:  # e.g. a folder we may not read
            skipped.append(BadRun(p.name, f"{p}: cannot be read ({exc.strerror or type(exc).__name__})"))
            continue
        if release is None or meta.release == release:
            metas.append(meta)
    return RunListing(name_runs(metas), skipped)


def named_runs(release: str | None, root: Path | None = None) -> list[RunMeta]:
    """The provenance of every run of ``release``, named as ``list_runs`` names them, read from the
    ``run.json`` files alone: what naming a new run needs. No ``hits.parquet`` is opened, so saving a run
    costs the same with 2 runs stored as with 200 (``list_runs`` checks every hits file once per process).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = write_run(hits_from_scores("t2c", ["q1"], ["d1"], np.array([[0.5]])), {"run_id": "r1", "model": "bm25", "release": "v"}, root)
    >>> [(m.run_id, m.name) for m in named_runs("v", root)]
    [('r1', 'bm25 · v')]
    """
    base = runs_dir(root)
    if not base.is_dir():
        return []
    metas = []
    for folder in sorted(base.iterdir()):
        if folder.name.startswith("."):  # a writer's temporary (atomic.py)
            continue
        try:
            meta = read_run_meta(folder / "run.json")
        except (CorebError, OSError):
            continue  # not a run (``run_listing`` says why); it holds no name to avoid
        if meta.release == release and meta.run_id == folder.name:
            metas.append(meta)
    return name_runs(metas)


def list_runs(release: str | None = None, root: Path | None = None) -> list[RunMeta]:
    """The provenance of every stored run (of one release when ``release`` is given), by run id, each
    with its name (a ``run.json`` stored without one gets its default name, see ``name_runs``). Entries
    that are not runs are left out (``run_listing`` says which and why).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = write_run(hits_from_scores("t2c", ["q1"], ["d1"], np.array([[0.5]])), {"run_id": "r1", "release": "demo_v2603"}, root)
    >>> [m.run_id for m in list_runs("demo_v2603", root)], list_runs("other", root)
    (['r1'], [])
    """
    return run_listing(release, root).runs


def fingerprint(parts: Iterable[str]) -> str:
    """A short stable hash of a sequence of strings (order matters), e.g. a corpus's document ids.

    >>> fingerprint(["d1", "d2"])
    '884869a76bb61fe5'
    """
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:16]
