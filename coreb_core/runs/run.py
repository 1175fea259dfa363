"""Runs: ranked lists in one canonical format, stored as parquet with provenance.

A run holds, per (task, query), the top-K hits and additionally every judged document and the
C2C anchor wherever they rank, so the position of each positive and trap is exact even beyond K.

Columns of ``hits.parquet``: ``task, query_id, doc_id, rank, score, in_top_k``. Ranks are 1-based
and follow score descending; equal scores are broken by doc id *descending*, which is trec_eval's
(and so pytrec_eval's and the official CoREB evaluator's) rule. Any other rule would make our
metrics differ from the official ones on runs with ties (BM25 has many). "Equal" is as trec_eval
compares: it keeps a score as a 32-bit float, so two scores that differ only beyond float32's
precision tie (``trec_order_key``); the stored score keeps its full value. A query whose list is
empty is kept as one row with ``doc_id`` NULL (it is still evaluated, scoring 0, as pytrec_eval does).

Example:
    >>> hits = hits_from_scores("t2c", ["q1"], ["d1", "d2", "d3"], np.array([[0.5, 0.9, 0.5]]), top_k=3)
    >>> hits[["doc_id", "rank"]].values.tolist()
    [['d2', 1], ['d3', 2], ['d1', 3]]
"""
from __future__ import annotations

import hashlib
import json
import re
import time
import unicodedata
import uuid
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Collection, Iterable, Mapping, NamedTuple, cast

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from coreb_core.atomic import atomic_folder, atomic_write_text
from coreb_core.data.schema import TASK_NAMES
from coreb_core.errors import CorebError, DataError, DataProblem
from coreb_core.input_paths import check_file
from coreb_core.paths import runs_dir

HITS_SCHEMA = pa.schema([("task", pa.string()), ("query_id", pa.string()), ("doc_id", pa.string()),
                         ("rank", pa.int32()), ("score", pa.float64()), ("in_top_k", pa.bool_())])
DEFAULT_TOP_K = 100
MAX_RANK = 2 ** 31 - 1  # ranks are stored as int32
_INTEGER = re.compile(r"^-?[0-9]+$")  # ASCII only: str.isdigit() also accepts '²', which int() refuses


def trec_order_key(scores) -> np.ndarray:
    """Scores as trec_eval orders them: 32-bit floats (its ``sim`` field), so scores that differ only
    beyond float32's precision tie and go by doc id descending. Seen on a random run: 0.98296352 and
    0.98296349 tie in pytrec_eval, which ranked the second one's doc first by its larger id.

    >>> key = trec_order_key([0.9829635217396717, 0.9829634865804816, 0.5])
    >>> bool(key[0] == key[1]), bool(key[1] > key[2])
    (True, True)
    """
    return np.asarray(scores, dtype=np.float64).astype(np.float32)


def hits_from_scores(task: str, query_ids: list[str], doc_ids: list[str], scores: np.ndarray, top_k: int = DEFAULT_TOP_K,
                     keep: Mapping[str, Iterable[str]] | None = None, counted: np.ndarray | None = None) -> pd.DataFrame:
    """Rank a dense score matrix (queries x documents) into run rows.

    ``keep`` names, per query, documents to store wherever they rank (its judged documents and
    its anchor). ``counted`` (a bool per document) stretches each stored prefix until it holds
    ``top_k`` counted documents: C2T lists pass "not a noise text", so that the v1 view, which drops
    noise texts, still has an exact top ``top_k`` after the drop.

    >>> scores = np.array([[0.5, 0.9, 0.5], [0.1, 0.2, 0.3]])
    >>> hits_from_scores("t2c", ["q1", "q2"], ["d1", "d2", "d3"], scores, top_k=1, keep={"q1": ["d1"]})
      task query_id doc_id  rank  score  in_top_k
    0  t2c       q1     d2     1    0.9      True
    1  t2c       q1     d1     3    0.5     False
    2  t2c       q2     d3     1    0.3      True
    """
    doc_array = np.asarray(doc_ids, dtype=object)
    by_id = np.argsort(doc_array, kind="stable")[::-1]
    doc_sorted, s = doc_array[by_id], np.asarray(scores, dtype=np.float64)[:, by_id]
    # Stable sort of -score (as trec_eval compares it) over doc-id-descending columns: score desc, then doc
    # id desc (trec_eval).
    order = np.argsort(-trec_order_key(s), axis=1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, s.shape[1] + 1)[None, :].repeat(s.shape[0], 0), axis=1)
    k = min(top_k, s.shape[1])
    depth = np.full(len(query_ids), k)
    if counted is not None and len(query_ids):
        seen = np.cumsum(np.asarray(counted, dtype=bool)[by_id][order], axis=1)
        reached = seen >= top_k
        depth = np.maximum(depth, np.where(reached.any(axis=1), reached.argmax(axis=1) + 1, s.shape[1]))
    rows_q, cols = np.nonzero(np.arange(s.shape[1])[None, :] < depth[:, None])
    rows_d = order[rows_q, cols]
    if keep:
        col = {d: i for i, d in enumerate(doc_sorted)}
        extra = [(qi, col[d]) for qi, q in enumerate(query_ids) for d in keep.get(q, ()) if d in col]
        if extra:
            eq, ed = np.array(extra).T
            beyond = ranks[eq, ed] > depth[eq]
            rows_q = np.r_[rows_q, eq[beyond]]
            rows_d = np.r_[rows_d, ed[beyond]]
    r = ranks[rows_q, rows_d]
    order = np.lexsort((r, rows_q))
    rows_q, rows_d, r = rows_q[order], rows_d[order], r[order]
    # Categorical columns: compact in memory and on disk, and nearly free to code in evaluation.
    return pd.DataFrame({
        "task": pd.Categorical.from_codes(np.zeros(len(r), dtype=np.int8), [task]),
        "query_id": pd.Categorical.from_codes(rows_q, pd.Index(query_ids)),
        "doc_id": pd.Categorical.from_codes(rows_d, pd.Index(doc_sorted)),
        "rank": r.astype(np.int32), "score": s[rows_q, rows_d], "in_top_k": r <= k,
    })


def concat_hits(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate run rows keeping the id columns categorical (plain ``pd.concat`` of categoricals
    with different categories falls back to strings).

    >>> a = hits_from_scores("t2c", ["q1"], ["d1", "d2"], np.array([[0.5, 0.9]]), top_k=2)
    >>> b = hits_from_scores("c2c", ["q9"], ["d3", "d4"], np.array([[0.2, 0.1]]), top_k=2)
    >>> both = concat_hits([a, b])
    >>> both[["task", "query_id", "doc_id", "rank"]].values.tolist(), str(both["doc_id"].dtype)
    ([['t2c', 'q1', 'd2', 1], ['t2c', 'q1', 'd1', 2], ['c2c', 'q9', 'd3', 1], ['c2c', 'q9', 'd4', 2]], 'category')
    """
    from pandas.api.types import union_categoricals

    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=[f.name for f in HITS_SCHEMA])
    out = pd.concat(frames, ignore_index=True)
    for column in ("task", "query_id", "doc_id"):
        parts = [f[column] if isinstance(f[column].dtype, pd.CategoricalDtype) else f[column].astype("category")
                 for f in frames]
        out[column] = pd.Series(union_categoricals(parts), index=out.index)
    return out


def hits_from_lists(task_of: dict[str, str], lists: dict[str, list[tuple]], source: str) -> pd.DataFrame:
    """Rank explicit (doc, score) lists, as read from TREC files or official predictions, exactly as the
    official evaluator reads them: a hit whose doc id equals its query id is dropped (whether or not that id
    is a corpus document), and the order is score descending, ties by doc id descending (trec_eval, scores
    compared as ``trec_order_key`` does). Any rank in the file is ignored, as trec_eval ignores the column:
    ranks are positions in that order, so a file whose ranks have gaps scores as pytrec_eval scores it.

    >>> lists = {"q1": [("d1", 0.5), ("d2", 0.9), ("d3", 0.5), ("q1", 0.95)]}
    >>> hits_from_lists({"q1": "t2c"}, lists, "example")[["doc_id", "rank"]].values.tolist()
    [['d2', 1], ['d3', 2], ['d1', 3]]
    >>> lists = {"q1": [("d2", 0.9, 1), ("d7", 0.1, 250)]}   # a (doc, score, rank) item: the rank is ignored
    >>> hits_from_lists({"q1": "t2c"}, lists, "example")[["doc_id", "rank"]].values.tolist()
    [['d2', 1], ['d7', 2]]
    """
    problems: list[DataProblem] = []
    records = []
    for qid, pairs in lists.items():
        task = task_of.get(qid)
        if task is None:
            problems.append(DataProblem(source, "-", "query_id", "query not in this release", qid))
            continue
        kept = [(task, qid, p[0], p[1]) for p in pairs if p[0] != qid]  # the official ignore_identical_ids
        records += kept or [(task, qid, None, np.nan)]  # an empty list still counts (it scores 0)
    if problems:
        raise DataError(problems[:20])
    frame = pd.DataFrame.from_records(records, columns=["task", "query_id", "doc_id", "score"])
    frame["key"] = trec_order_key(frame["score"])
    frame = frame.sort_values(["task", "query_id", "key", "doc_id"], ascending=[True, True, False, False],
                              kind="stable", ignore_index=True).drop(columns="key")
    frame["rank"] = (frame.groupby(["task", "query_id"]).cumcount() + 1).astype("Int32")
    frame.loc[frame["doc_id"].isna(), "rank"] = pd.NA
    frame["in_top_k"] = frame["doc_id"].notna()
    for column in ("task", "query_id", "doc_id"):
        frame[column] = frame[column].astype("category")
    return frame[["task", "query_id", "doc_id", "rank", "score", "in_top_k"]]


# ---------------------------------------------------------------- storage

@dataclass(frozen=True)
class RunMeta:
    """A run's provenance, stored as ``run.json`` beside its hits.

    Every key any writer has stored is a field (None: not recorded, e.g. BM25 has no encoding, old
    runs have no profile); keys this class does not know are kept in ``extra`` and written back as
    they were, so a ``run.json`` from an older or newer version round-trips unchanged.

    >>> meta = RunMeta.from_json({"run_id": "r1", "model": "bm25", "tasks": ["t2c"], "note": "kept"})
    >>> meta.model, meta.tasks, meta.get("note"), meta.get("device", "cpu")
    ('bm25', ('t2c',), 'kept', 'cpu')
    >>> meta.to_json()
    {'note': 'kept', 'run_id': 'r1', 'model': 'bm25', 'tasks': ['t2c']}
    """
    run_id: str
    release: str | None = None
    kind: str | None = None  # retrieval, rerank, imported (None: stored before kinds existed)
    model: str | None = None
    profile: str | None = None  # encoding profile of a dense run (official, card)
    label: str | None = None
    name: str | None = None  # the human name shown everywhere (None: not stored yet, see default_run_name)
    tags: tuple[str, ...] | None = None  # free-text tags the user gave
    tasks: tuple[str, ...] | None = None
    created: str | None = None
    source: str | None = None  # imported runs: where they came from
    source_file: str | None = None
    first_stage: str | None = None  # reranked runs: the run they reorder
    reranker: str | None = None
    rerank_depth: int | None = None
    model_spec: dict[str, Any] | None = None
    encoding: dict[str, Any] | None = None
    prompts: dict[str, Any] | None = None
    device: str | None = None
    precision: str | None = None
    batch_size: int | None = None
    top_k: int | None = None
    packages: dict[str, Any] | None = None
    corpus_fingerprint: str | None = None
    texts_encoded: int | None = None
    timings_s: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        """Dict-style read (``meta.get("created", "")``), for readers written against the old dicts.

        >>> meta = RunMeta("r1", model="bm25", extra={"note": "kept"})
        >>> meta.get("model"), meta.get("created", ""), meta.get("note")
        ('bm25', '', 'kept')
        """
        value = getattr(self, key) if key in _META_FIELDS else self.extra.get(key)
        return default if value is None else value

    def __getitem__(self, key: str) -> Any:
        if key in _META_FIELDS:
            return getattr(self, key)
        return self.extra[key]

    def to_json(self) -> dict[str, Any]:
        """The ``run.json`` object: recorded fields (None ones left out) and the unknown keys as read.

        >>> RunMeta("r1", model="bm25", tasks=("t2c",), extra={"note": "kept"}).to_json()
        {'note': 'kept', 'run_id': 'r1', 'model': 'bm25', 'tasks': ['t2c']}
        """
        out = {name: getattr(self, name) for name in _META_FIELDS if getattr(self, name) is not None}
        for name in ("tasks", "tags"):
            if getattr(self, name) is not None:
                out[name] = list(getattr(self, name))
        return {**self.extra, **out}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], source: str | Path = "run.json") -> "RunMeta":
        """Read a ``run.json`` object; a loud one-line error naming ``source`` and the field when a
        known field has the wrong type (format drift).

        >>> RunMeta.from_json({"run_id": "r1", "top_k": 100}).top_k
        100
        >>> RunMeta.from_json({"run_id": "r1", "top_k": "100"}, "runs/r1/run.json")
        Traceback (most recent call last):
        coreb_core.errors.CorebError: runs/r1/run.json: field 'top_k' is str, expected int
        """
        if not isinstance(data, Mapping):
            raise CorebError(f"{source}: run metadata is not a JSON object")
        values: dict[str, Any] = {}
        for name, kinds in _META_TYPES.items():
            value: Any = data.get(name)
            if value is None:
                continue
            if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
                raise CorebError(f"{source}: field {name!r} is {type(value).__name__}, expected "
                                 f"{' or '.join(k.__name__ for k in kinds)}")
            value = cast(Any, value)  # a list for tasks and tags (isinstance above narrowed it to object)
            if name == "tags" and not all(isinstance(t, str) for t in value):
                raise CorebError(f"{source}: field 'tags' holds a non-string item")
            if name == "tasks" and not all(t in TASK_NAMES for t in value):
                bad = next(t for t in value if t not in TASK_NAMES)
                raise CorebError(f"{source}: field 'tasks': {repr(bad):.80} is not a CoREB task "
                                 f"({', '.join(TASK_NAMES)})")
            values[name] = tuple(value) if name in ("tasks", "tags") else value
        if "run_id" not in values:
            raise CorebError(f"{source}: field 'run_id' is missing")
        check_run_id(values["run_id"], f"{source}: field 'run_id': ")
        return cls(**values, extra={k: v for k, v in data.items() if k not in _META_FIELDS})


_META_FIELDS = tuple(f.name for f in fields(RunMeta) if f.name != "extra")
# The JSON types each known field may hold; anything else is format drift.
_META_TYPES: dict[str, tuple[type, ...]] = {
    name: {"tasks": (list, tuple), "tags": (list, tuple), "rerank_depth": (int,), "batch_size": (int,), "top_k": (int,),
           "texts_encoded": (int,), "model_spec": (dict,), "encoding": (dict,), "prompts": (dict,),
           "packages": (dict,), "timings_s": (dict,)}.get(name, (str,))
    for name in _META_FIELDS}


def run_name(meta: RunMeta) -> str:
    """A run's one name, the same in every picker, table, chart, sentence, report, CLI line and SQL
    table: the name it was stored with (or renamed to), else its default ``<model> · <profile> ·
    <release>`` (``default_run_name``).

    >>> run_name(RunMeta("r1", model="minilm", profile="card", release="demo_v2603"))
    'minilm · card · demo_v2603'
    >>> run_name(RunMeta("r1", model="minilm", profile="card", name="minilm baseline"))
    'minilm baseline'
    """
    return meta.name or default_run_name(meta)


NAME_MAX = 80  # characters in a run's name: it must fit a picker and a chart axis
TAG_MAX = 40  # characters in one tag


def default_run_name(meta: RunMeta) -> str:
    """A run's name before the user gives one: ``<model> · <profile> · <release>``, leaving out what the
    run does not have (BM25 and imported runs have no encoding profile). Not yet made distinct: see
    ``name_runs``.

    >>> default_run_name(RunMeta("r1", model="minilm", profile="card", release="demo_v2603"))
    'minilm · card · demo_v2603'
    >>> default_run_name(RunMeta("r2", model="bm25", release="demo_v2603"))
    'bm25 · demo_v2603'
    """
    return " · ".join(str(p) for p in (meta.model or meta.run_id, meta.profile, meta.release) if p)


_ID_TIME = re.compile(r"__(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})-[0-9a-f]+$")


def run_created(meta: RunMeta) -> str:
    """When a run was made, as ISO text: its ``created`` field, else the time in its id (imported runs
    record none), else ``""``. Sorting on it gives creation order.

    >>> run_created(RunMeta("mine__tiny__20261201T010700-25ce00"))
    '2026-12-01T01:07:00'
    >>> run_created(RunMeta("r1", created="2026-11-30T10:00:00")), run_created(RunMeta("r1"))
    ('2026-11-30T10:00:00', '')
    """
    if meta.created:
        return str(meta.created)
    m = _ID_TIME.search(meta.run_id)
    return f"{m[1]}-{m[2]}-{m[3]}T{m[4]}:{m[5]}:{m[6]}" if m else ""


def distinct_name(base: str, taken: Iterable[str]) -> str:
    """``base``, or ``base (2)``, ``base (3)``, … the first one not in ``taken`` (case ignored).

    >>> distinct_name("bm25 · demo_v2603", ["bm25 · demo_v2603", "BM25 · demo_v2603 (2)"])
    'bm25 · demo_v2603 (3)'
    """
    used = {t.casefold() for t in taken}
    name, n = base, 1
    while name.casefold() in used:
        n += 1
        name = f"{base} ({n})"
    return name


def name_runs(metas: Iterable[RunMeta]) -> list[RunMeta]:
    """The same runs, in the same order, each with a ``name``: a stored name is kept; a run stored
    without one (older ``run.json`` files) gets its default name, made distinct within its release in
    creation order (the first ``bm25 · demo_v2603``, the next ``bm25 · demo_v2603 (2)``).

    >>> old = [RunMeta("b", model="bm25", release="v", created="2026-12-02"),
    ...        RunMeta("a", model="bm25", release="v", created="2026-12-01"),
    ...        RunMeta("c", model="bm25", release="w", created="2026-12-03")]
    >>> [m.name for m in name_runs(old)]
    ['bm25 · v (2)', 'bm25 · v', 'bm25 · w']
    """
    metas = list(metas)
    taken: dict[str | None, list[str]] = {}
    for m in metas:
        if m.name:
            taken.setdefault(m.release, []).append(m.name)
    named: dict[str, str] = {}
    for m in sorted((m for m in metas if not m.name), key=lambda m: (run_created(m), m.run_id)):
        names = taken.setdefault(m.release, [])
        named[m.run_id] = distinct_name(default_run_name(m), names)
        names.append(named[m.run_id])
    return [m if m.name else replace(m, name=named[m.run_id]) for m in metas]


def _check_text(text: str, what: str, limit: int) -> str:
    if not isinstance(text, str):
        raise CorebError(f"{what} must be text")
    text = text.strip()
    if not text:
        raise CorebError(f"{what} is empty")
    if len(text) > limit:
        raise CorebError(f"{what} is {len(text)} characters long; at most {limit} are allowed")
    bad = [c for c in text if unicodedata.category(c) in ("Cc", "Zl", "Zp")]
    if bad:
        raise CorebError(f"{what} {text!r} holds a control character ({bad[0]!r}); use plain text on one line")
    return text


def check_run_name(name: str) -> str:
    """A run name as given by the user, stripped; a one-line CorebError when it is empty, longer than
    ``NAME_MAX`` characters or holds a control character (a line break, a tab, an escape).

    >>> check_run_name("  minilm baseline ")
    'minilm baseline'
    >>> check_run_name("two\\nlines")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: run name 'two\\nlines' holds a control character ('\\n'); use plain text on one line
    """
    return _check_text(name, "run name", NAME_MAX)


def check_tag(tag: str) -> str:
    """A tag as given by the user, stripped; a one-line CorebError when it is empty, longer than
    ``TAG_MAX`` characters, holds a comma (the page separates tags with commas) or a control character.

    >>> check_tag(" baseline ")
    'baseline'
    >>> check_tag("a,b")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: tag 'a,b' holds a comma; give each tag separately
    """
    tag = _check_text(tag, "tag", TAG_MAX)
    if "," in tag:
        raise CorebError(f"tag {tag!r} holds a comma; give each tag separately")
    return tag


def parse_tags(text: str) -> list[str]:
    """Tags typed as one comma-separated line, stripped, empty pieces dropped, each checked (``check_tag``).

    >>> parse_tags(" baseline, demo ,, final")
    ['baseline', 'demo', 'final']
    """
    return [check_tag(t) for t in text.split(",") if t.strip()]


def update_run(run_id: str, name: str | None = None, tags: Iterable[str] | None = None,
               root: Path | None = None) -> RunMeta:
    """Set a stored run's name and/or its whole list of tags (None: keep), in its ``run.json``, in one
    atomic write; its updated provenance. Everything is checked before anything is written: a one-line
    CorebError for an unknown run, a bad name (``check_run_name``), a name another run of the same
    release already has (names tell runs apart in every picker), or a bad tag (``check_tag``).

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
    if name is not None:
        name = check_run_name(name)
        for other in list_runs(meta.release, root):
            if other.run_id != run_id and other.release == meta.release and str(other.name).casefold() == name.casefold():
                raise CorebError(f"name {name!r} is already used by run {other.run_id} on release {meta.release}; "
                                 "choose another")
    if tags is not None:
        tags = tuple(dict.fromkeys(check_tag(t) for t in tags))
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
    remove = {check_tag(t) for t in remove}
    kept = [t for t in run_meta(run_id, root).tags or () if t not in remove]
    return update_run(run_id, tags=kept + add, root=root)


# A run id is a folder name under the runs folder: never a path, "..", a hidden temporary (atomic.py) or an
# option-like "-x" on the command line.
RUN_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,199}")
RUN_ID_RULE = "1 to 200 letters, digits, '.', '_' or '-', starting with a letter, a digit or '_'"


def check_run_id(run_id: object, where: str = "") -> str:
    """``run_id`` when it is a safe run id (``RUN_ID``); else a one-line CorebError starting with ``where``.

    >>> check_run_id("bm25__demo_v2603__20261201T062218-f8c8b6")
    'bm25__demo_v2603__20261201T062218-f8c8b6'
    >>> check_run_id("../runs/x")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: not a run id: '../runs/x' (1 to 200 letters, digits, '.', '_' or '-', starting with a letter, a digit or '_')
    """
    if not isinstance(run_id, str) or not RUN_ID.fullmatch(run_id):
        raise CorebError(f"{where}not a run id: {repr(run_id):.80} ({RUN_ID_RULE})")
    return run_id


def new_run_id(label: str, release: str) -> str:
    """A fresh run id: the label made file-name safe (ASCII letters and digits, '-', '_', '.'), the
    release, a timestamp and a random tail.

    >>> new_run_id("BM25 (k1=1.5)", "demo_v2603")  # doctest: +ELLIPSIS
    'BM25--k1-1.5__demo_v2603__...-...'
    """
    safe = "".join(c if c.isascii() and c.isalnum() or c in "-_." else "-" for c in label).strip("-.")[:48] or "run"
    return f"{safe}__{release}__{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:6]}"


def write_run(hits: pd.DataFrame, meta: RunMeta | Mapping[str, Any], root: Path | None = None) -> str:
    """Store a run atomically: written to a temp folder, renamed into place. ``meta`` may also be a
    plain ``run.json``-shaped mapping (tests write minimal ones).

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
                                                (m.name for m in list_runs(meta.release, root)
                                                 if m.name and m.release == meta.release)))
    run_id = meta.run_id
    base = runs_dir(root)
    base.mkdir(parents=True, exist_ok=True)
    with atomic_folder(base / run_id, base / f".tmp-{run_id}") as tmp:
        frame = hits[[f.name for f in HITS_SCHEMA]].copy()
        for column in ("task", "query_id", "doc_id"):
            frame[column] = frame[column].astype("category")  # dictionary-encoded on disk, categorical on read
        frame["rank"] = frame["rank"].astype("Int32")
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp / "hits.parquet", compression="zstd")
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
        raise CorebError(f"run {run_id!r} not found in {runs_dir(root)}")
    return path


def read_hits(run_id: str, root: Path | None = None) -> pd.DataFrame:
    """A stored run's hits, as written by ``write_run``.

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
        return pd.read_parquet(path)
    except (OSError, pa.ArrowException):
        raise CorebError(f"{path}: not a readable parquet file") from None


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


def is_trec_line(line: str) -> bool:
    """Whether ``line`` reads as a TREC run line: six columns, the fifth (the score) a number. A file
    whose first line is not one is not a TREC run, and none of its lines is quoted in an error.

    >>> is_trec_line("q1 Q0 d1 1 0.9 bm25"), is_trec_line("# written by the deploy tool on host")
    (True, False)
    """
    parts = line.split()
    if len(parts) != 6:
        return False
    try:
        float(parts[4])
    except ValueError:
        return False
    return True


def read_trec_run(path: Path, task_of: dict[str, str]) -> pd.DataFrame:
    """Read ``qid Q0 docid rank score tag`` lines. Order comes from the scores (descending, ties by doc
    id descending), and the rank column is ignored, as trec_eval ignores it (``hits_from_lists``). A rank
    that is no 32-bit whole number is refused (one line naming file, row and field). A FIFO, a device or
    a file over the size limit is refused unopened; a file whose first line is not a TREC line is
    refused without quoting it.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "run.trec"
    >>> _ = path.write_text("q1 Q0 d1 1 0.9 bm25\\nq1 Q0 d2 2 0.4 bm25\\n")
    >>> read_trec_run(path, {"q1": "t2c"})
      task query_id doc_id  rank  score  in_top_k
    0  t2c       q1     d1     1    0.9      True
    1  t2c       q1     d2     2    0.4      True
    """
    problems: list[DataProblem] = []
    lists: dict[str, list[tuple]] = {}  # doc, score and the file's rank (checked, then ignored)
    seen: set[tuple[str, str]] = set()
    check_file(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError([DataProblem(str(path), "-", "-", f"cannot read run file ({exc.strerror or type(exc).__name__})")]) from None
    except UnicodeDecodeError as exc:
        raise DataError([DataProblem(str(path), "-", "-", f"not UTF-8 text (byte {exc.start})")]) from None
    first = next(((n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()), None)
    if first and not is_trec_line(first[1]):
        raise DataError([DataProblem(str(path), first[0], "-", "not a TREC run: expected 6 columns, "
                                                                "qid Q0 docid rank score tag, the score a number")])
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 6:
            # The line itself is not quoted: it need not be a run line at all.
            problems.append(DataProblem(str(path), number, "-",
                                        f"expected 6 columns (qid Q0 docid rank score tag), found {len(parts)}"))
            continue
        qid, _, doc, rank, score, _ = parts
        # trec_eval ignores the column (so do we), but a rank that is no number means a broken line
        given = int(rank) if _INTEGER.match(rank) else None
        if given is None or abs(given) > MAX_RANK:
            problems.append(DataProblem(str(path), number, "rank", f"must be a 32-bit whole number (at most {MAX_RANK})",
                                        rank))
            continue
        try:
            value = float(score)
        except ValueError:
            problems.append(DataProblem(str(path), number, "score", "not a number", score))
            continue
        if not np.isfinite(value):
            problems.append(DataProblem(str(path), number, "score", "must be finite", score))
            continue
        if (qid, doc) in seen:
            problems.append(DataProblem(str(path), number, "docid", "duplicate document for this query", doc))
            continue
        seen.add((qid, doc))
        lists.setdefault(qid, []).append((doc, value, given))
    if not lists and not problems:
        problems.append(DataProblem(str(path), "-", "-", "file has no run lines"))
    if problems:
        raise DataError(problems[:20])
    return hits_from_lists(task_of, lists, str(path))
