"""Hard negatives mined from a run: for each query, the documents the run ranked highest that are not relevant —
the model's own confusions, taken home as training data.

Two guards against false negatives. The qrels': a rel=2 document is never a negative, nor the C2C anchor (the
query's own code, which the run may rank first). And execution's: a document the ``executed`` view makes relevant
(a passing solution of the query's own source problem in a language of one of its rel=2 documents, which CoREB's
labels leave unjudged or grade a trap: ``qrels_executed``) is left out too, and counted per task (``left_out``).
``keep_correct=True`` keeps those, each labelled ``passing_trap``, ``passing_judged_negative`` or
``passing_unjudged`` (its released grade, prefixed), for analysis; the ``triplets`` format has no place for a label
and refuses them. Every other negative keeps its rank and its grade for the query (``trap`` for a rel=1 document,
``judged_negative`` for rel=0, ``unjudged``).

sentence-transformers' ``util.mine_hard_negatives`` does the same from a model's embeddings, guarded only by the
positives it is given (by text); it cannot mine from a BM25 run or an imported one, nor tell a trap from an
unjudged document. The ``triplets`` format is its ``n-tuple`` output (``anchor``, ``positive``, ``negative_1`` …),
so either trains the same way; ``samples`` is the protocol's schema with each negative's rank and grade.

Example (CoREB-mini and a BM25 run in ``root``):
    >>> mined = mine_run(bm25, k=3, root=root)
    >>> mined.release, mined.k, len(mined.samples) > 0, sorted(set(mined.negatives["grade"]))
    ('demo_v2603', 3, True, ['trap', 'unjudged'])
    >>> mined.left_out()["c2c"] > 0 and not mined.negatives["correct"].any()
    True
"""
from __future__ import annotations

from pathlib import Path
from typing import IO, NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from coreb_core.atomic import atomic_open
from coreb_core.data.schema import CORPUS_OF_TASK, NEGATIVE, POSITIVE, TASK_NAMES, TRAP
from coreb_core.data.store import Store
from coreb_core.errors import CorebError, check_choice
from coreb_core.progress import Progress, silent
from coreb_core.runs.folders import read_hits, run_meta
from coreb_core.training.sample_files import TRIPLET_COLUMNS, write_samples_to
from coreb_core.training.samples import LONG_TASK, Passage, Sample

TRIPLETS, SAMPLES = "triplets", "samples"
FORMATS = (TRIPLETS, SAMPLES)
GRADE_WORDS = {TRAP: "trap", NEGATIVE: "judged_negative"}  # a grade's name for a mined negative
UNJUDGED = "unjudged"
PASSING = "passing_"  # prefixed to the released grade of a negative the executed view makes relevant
GRADES = ("trap", "judged_negative", UNJUDGED, PASSING + "trap", PASSING + "judged_negative", PASSING + UNJUDGED)
K = 5
_COLUMNS = ["task", "query_id", "doc_id", "rank", "grade", "correct"]


class MinedNegatives(NamedTuple):
    """What ``mine_run`` found: one sample per (query, positive) with the run's top ``k`` negatives as its hard
    negatives; one row per (query, negative) with its rank, grade and whether the executed view makes it relevant
    (``negatives``); and the documents the executed view makes relevant that the run ranked among them and that
    were left out (``left``, empty with ``keep_correct``)."""

    run_id: str
    release: str
    k: int
    samples: list[Sample]
    negatives: pd.DataFrame  # task, query_id, doc_id, rank, grade, correct (one row per query and negative)
    short: int  # queries whose run held fewer than k negatives in its stored list (their samples hold fewer)
    keep_correct: bool  # the executed view's relevant documents were kept (labelled passing_…), not left out
    left: pd.DataFrame  # task, query_id, doc_id, rank, grade, correct: the left-out ones (grade: its released one)

    def grade_counts(self) -> dict[str, int]:
        """Negatives per grade (``GRADES``: trap, judged_negative, unjudged, then the passing_… ones kept with
        ``keep_correct``), over the distinct (query, document) pairs."""
        counts = self.negatives["grade"].value_counts()
        return {g: int(counts.get(g, 0)) for g in GRADES}

    def left_out(self) -> dict[str, int]:
        """Per task, the distinct (query, document) pairs left out because the executed view makes them relevant:
        each ranked above the query's last mined negative, so each would have been a negative without the guard."""
        counts = self.left["task"].value_counts()
        return {t: int(counts.get(t, 0)) for t in TASK_NAMES}

    def correct_kept(self) -> dict[str, int]:
        """Per task, the negatives the executed view makes relevant that ``keep_correct`` kept (0 without it)."""
        counts = self.negatives.loc[self.negatives["correct"], "task"].value_counts()
        return {t: int(counts.get(t, 0)) for t in TASK_NAMES}

    def triplets(self) -> pd.DataFrame:
        """The n-tuple table sentence-transformers trains on: ``anchor`` (the query), ``positive``, ``negative_1`` …
        ``negative_k``; samples with fewer than k negatives are left out (every row has the same columns)."""
        full = [s for s in self.samples if len(s.hard_neg) == self.k]
        rows = [[s.query, s.pos[0].text, *(p.text for p in s.hard_neg)] for s in full]
        columns = [*TRIPLET_COLUMNS, *(f"negative_{i}" for i in range(1, self.k + 1))]
        return pd.DataFrame(rows, columns=columns)


def check_format(fmt: str, keep_correct: bool = False) -> str:
    """``fmt`` when it is one of ``FORMATS`` and can hold what is mined: the ``triplets`` format has no place for a
    label, so it refuses the correct code ``keep_correct`` keeps (every column is a training input).

    >>> check_format("pairs")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: unknown mining format 'pairs'; choose one of triplets, samples
    >>> check_format("triplets", keep_correct=True)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: --keep-correct: the triplets format has no place for a label (every column is a training input), so the correct code it keeps would train as negatives; use --format samples, whose negatives carry their grade (passing_trap, passing_unjudged, …)
    """
    check_choice(fmt, FORMATS, "mining format")
    if keep_correct and fmt == TRIPLETS:
        raise CorebError("--keep-correct: the triplets format has no place for a label (every column is a training "
                         "input), so the correct code it keeps would train as negatives; use --format samples, whose "
                         "negatives carry their grade (passing_trap, passing_unjudged, …)")
    return fmt


def correct_pairs(store: Store) -> dict[tuple[str, str, str], int]:
    """(task, query id, document id) -> its released grade (-1: unjudged), for every document the ``executed`` view
    makes relevant (rel=2 there) that the released qrels do not (T2C and C2C: passing code of the query's own
    problem in a positive's language; never the C2C anchor).

    >>> with Store("demo_v2603", root) as store:
    ...     pairs = correct_pairs(store)
    >>> sorted({t for t, _, _ in pairs}), sorted(set(pairs.values()))
    (['c2c'], [-1, 1])
    """
    rows = store.sql("""SELECT e.task, e.query_id, e.doc_id, COALESCE(r.relevance, -1)
                        FROM qrels_executed e LEFT JOIN qrels r USING (task, query_id, doc_id)
                        WHERE e.relevance = ? AND COALESCE(r.relevance, -1) <> ?""", [POSITIVE, POSITIVE]).fetchall()
    return {(str(t), str(q), str(d)): int(r) for t, q, d, r in rows}


def grade_word(relevance: int, correct: bool) -> str:
    """A mined negative's grade: its released grade's name, prefixed ``passing_`` when the executed view makes it
    relevant.

    >>> grade_word(1, False), grade_word(-1, True)
    ('trap', 'passing_unjudged')
    """
    word = GRADE_WORDS.get(relevance, UNJUDGED)
    return PASSING + word if correct else word


def mine_run(run_id: str, k: int = K, root: Path | None = None, progress: Progress = silent,
             keep_correct: bool = False) -> MinedNegatives:
    """The top ``k`` negatives of each query with a positive, in the run's order (see the module): never a rel=2
    document nor the C2C anchor; a document the executed view makes relevant is left out (and counted in
    ``left``) unless ``keep_correct``, which keeps it labelled ``passing_…``.

    A query whose stored list holds fewer than ``k`` of them (a run stored with a small ``--top-k``) keeps those
    it has and is counted in ``short``.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise CorebError(f"--k: must be a whole number of at least 1, not {k!r}")
    meta = run_meta(run_id, root)
    release = meta.made_on()
    with Store(release, root) as store:  # before the run is read: the cheaper refusal first
        largest = max((n for (n,) in store.sql("SELECT count(*) FROM documents GROUP BY corpus").fetchall()), default=0)
    if k > largest:  # was: accepted, and the triplets table built k columns (3.8 GB in 30 s for k = 10**20, no line)
        raise CorebError(f"--k {k}: more negatives per query than the {largest:,} documents of {release}'s largest "
                         "corpus; give at most that many")
    progress("reading the run", 0.05)
    hits = read_hits(run_id, root, ["task", "query_id", "doc_id", "rank", "in_top_k"])
    hits = hits[hits["in_top_k"].astype(bool) & hits["doc_id"].notna()]
    hits = hits.astype({"task": str, "query_id": str, "doc_id": str}).sort_values(["task", "query_id", "rank"])
    with Store(release, root) as store:
        queries = store.df("SELECT task, query_id, subtask, query, anchor_code_id FROM queries")
        qrels = store.df("SELECT task, query_id, doc_id, relevance FROM qrels")
        docs = store.df("SELECT corpus, doc_id, content FROM documents")
        correct = correct_pairs(store)
    progress("choosing the negatives", 0.3)
    texts = {c: dict(zip(part["doc_id"], part["content"])) for c, part in docs.groupby("corpus")}
    grade = {(t, q, d): int(r) for t, q, d, r in qrels.itertuples(index=False)}
    anchors = {(t, q): a for t, q, a in zip(queries["task"], queries["query_id"], queries["anchor_code_id"])
               if isinstance(a, str)}
    # plain lists first: zipping the run's Arrow-backed columns (some 800,000 rows) cost seconds per zip
    task_of, query_of = hits["task"].tolist(), hits["query_id"].tolist()
    keys = list(zip(task_of, query_of, hits["doc_id"].tolist()))
    ranked = hits.assign(relevance=[grade.get(key, -1) for key in keys],
                         anchor=[anchors.get((t, q)) == d for t, q, d in keys],
                         correct=[key in correct for key in keys])
    candidates = ranked[(ranked["relevance"] != POSITIVE) & ~ranked["anchor"]]
    by = ["task", "query_id"]
    if keep_correct:
        negatives, left = candidates.groupby(by, sort=False).head(k), candidates.iloc[:0]
    else:
        negatives = candidates[~candidates["correct"]].groupby(by, sort=False).head(k)
        # a left-out document counts when it ranks above the query's last negative (any rank when it has fewer
        # than k): each would have been one of its negatives without the guard
        sizes = negatives.groupby(by, sort=False)["rank"].agg(["size", "max"])
        last = {key: (m if n >= k else np.inf) for key, n, m in zip(sizes.index, sizes["size"], sizes["max"])}
        passed = candidates[candidates["correct"]]
        bound = np.array([last.get(key, np.inf) for key in zip(passed["task"], passed["query_id"])], dtype=float)
        left = passed[passed["rank"].to_numpy(dtype=float) < bound]
    negatives = negatives.assign(grade=[grade_word(r, c) for r, c in zip(negatives["relevance"],
                                                                          negatives["correct"])])
    left = left.assign(grade=[grade_word(r, False) for r in left["relevance"]])
    by_query = {key: part for key, part in negatives.groupby(by, sort=False)}
    positives = qrels[qrels["relevance"] == POSITIVE].sort_values(["task", "query_id", "doc_id"])
    info = queries.set_index(by)
    listed = set(zip(task_of, query_of)) & set(info.index)
    samples, used, short = [], set(), 0
    for task in TASK_NAMES:
        corpus = texts.get(CORPUS_OF_TASK[task], {})
        for qid, pos in positives[positives["task"] == task].groupby("query_id", sort=True):
            if (task, qid) not in listed:
                continue  # the run has no list for this query (a run of other tasks)
            part = by_query.get((task, qid))
            mined = () if part is None else tuple(
                Passage(d, corpus[d], int(r), g) for d, r, g in zip(part["doc_id"], part["rank"], part["grade"]))
            short += len(mined) < k
            used.add((task, qid))
            q = info.loc[(task, qid)]
            for d in pos["doc_id"]:
                samples.append(Sample(qid, LONG_TASK[task], q["subtask"], q["query"], (Passage(d, corpus[d]),),
                                      mined, ()))
    progress("mined", 1.0)

    def of_used(frame: pd.DataFrame) -> pd.DataFrame:
        inside = [key in used for key in zip(frame["task"], frame["query_id"])]
        return frame[np.array(inside, dtype=bool)][_COLUMNS].reset_index(drop=True)

    return MinedNegatives(run_id, release, k, samples, of_used(negatives), short, keep_correct, of_used(left))


def write_mined(mined: MinedNegatives, path: Path, fmt: str = TRIPLETS) -> int:
    """Write ``mined`` to ``path`` in one atomic step (parquet for ``.parquet``, else JSON lines); the rows written.
    ``triplets``: the n-tuple table; ``samples``: the protocol's schema (negatives with rank and grade)."""
    check_format(fmt, mined.keep_correct)
    path = Path(path)
    with atomic_open(path, "wb") as f:
        return write_mined_to(f, mined, fmt, parquet=path.suffix == ".parquet")


def write_mined_to(f: IO[bytes], mined: MinedNegatives, fmt: str = TRIPLETS, parquet: bool = False) -> int:
    """``mined`` into an open binary file (a download's bytes, or a file's); the rows written."""
    check_format(fmt, mined.keep_correct)
    if fmt == SAMPLES:
        write_samples_to(f, mined.samples, parquet)
        return len(mined.samples)
    table = mined.triplets()
    if parquet:
        pq.write_table(pa.Table.from_pandas(table, preserve_index=False), f)
    else:
        f.write(table.to_json(orient="records", lines=True, force_ascii=False).encode("utf-8"))
    return len(table)
