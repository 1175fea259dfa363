"""Hard negatives mined from a run: for each query, the documents the run ranked highest that are not positives —
the model's own confusions, taken home as training data.

The qrels guard against false negatives: a rel=2 document is never a negative, and the C2C anchor (the query's own
code, which the run may rank first) is never one either. Each negative keeps its rank and its grade for the query
(``trap`` for a rel=1 document, ``judged_negative`` for rel=0, ``unjudged``).

sentence-transformers' ``util.mine_hard_negatives`` does the same from a model's embeddings, guarded only by the
positives it is given (by text); it cannot mine from a BM25 run or an imported one, nor tell a trap from an
unjudged document. The ``triplets`` format is its ``n-tuple`` output (``anchor``, ``positive``, ``negative_1`` …),
so either trains the same way; ``samples`` is the protocol's schema with each negative's rank and grade.

Example (CoREB-mini and a BM25 run in ``root``):
    >>> mined = mine_run(bm25, k=3, root=root)
    >>> mined.release, mined.k, len(mined.samples) > 0, sorted(set(mined.negatives["grade"]))
    ('demo_v2603', 3, True, ['trap', 'unjudged'])
"""
from __future__ import annotations

from pathlib import Path
from typing import IO, NamedTuple

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
K = 5


class MinedNegatives(NamedTuple):
    """What ``mine_run`` found: one sample per (query, positive) with the run's top ``k`` non-positives as its
    hard negatives, and one row per (query, negative) with its rank and grade (``negatives``)."""

    run_id: str
    release: str
    k: int
    samples: list[Sample]
    negatives: pd.DataFrame  # task, query_id, doc_id, rank, grade (one row per query and negative)
    short: int  # queries whose run held fewer than k non-positives in its stored list (their samples hold fewer)

    def grade_counts(self) -> dict[str, int]:
        """Negatives per grade (trap, judged_negative, unjudged), over the distinct (query, document) pairs."""
        counts = self.negatives["grade"].value_counts()
        return {g: int(counts.get(g, 0)) for g in ("trap", "judged_negative", UNJUDGED)}

    def triplets(self) -> pd.DataFrame:
        """The n-tuple table sentence-transformers trains on: ``anchor`` (the query), ``positive``, ``negative_1`` …
        ``negative_k``; samples with fewer than k negatives are left out (every row has the same columns)."""
        full = [s for s in self.samples if len(s.hard_neg) == self.k]
        rows = [[s.query, s.pos[0].text, *(p.text for p in s.hard_neg)] for s in full]
        columns = [*TRIPLET_COLUMNS, *(f"negative_{i}" for i in range(1, self.k + 1))]
        return pd.DataFrame(rows, columns=columns)


def check_format(fmt: str) -> str:
    """``fmt`` when it is one of ``FORMATS``.

    >>> check_format("pairs")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: unknown mining format 'pairs'; choose one of triplets, samples
    """
    return check_choice(fmt, FORMATS, "mining format")


def mine_run(run_id: str, k: int = K, root: Path | None = None, progress: Progress = silent) -> MinedNegatives:
    """The top ``k`` non-positive documents of each query with a positive, in the run's order (see the module).

    A query whose stored list holds fewer than ``k`` of them (a run stored with a small ``--top-k``) keeps those
    it has and is counted in ``short``.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise CorebError(f"--k: must be a whole number of at least 1, not {k!r}")
    meta = run_meta(run_id, root)
    release = meta.made_on()
    progress("reading the run", 0.05)
    hits = read_hits(run_id, root, ["task", "query_id", "doc_id", "rank", "in_top_k"])
    hits = hits[hits["in_top_k"].astype(bool) & hits["doc_id"].notna()]
    hits = hits.astype({"task": str, "query_id": str, "doc_id": str}).sort_values(["task", "query_id", "rank"])
    with Store(release, root) as store:
        queries = store.df("SELECT task, query_id, subtask, query, anchor_code_id FROM queries")
        qrels = store.df("SELECT task, query_id, doc_id, relevance FROM qrels")
        docs = store.df("SELECT corpus, doc_id, content FROM documents")
    progress("choosing the negatives", 0.3)
    texts = {c: dict(zip(part["doc_id"], part["content"])) for c, part in docs.groupby("corpus")}
    grade = {(t, q, d): int(r) for t, q, d, r in qrels.itertuples(index=False)}
    anchors = {(t, q): a for t, q, a in zip(queries["task"], queries["query_id"], queries["anchor_code_id"])
               if isinstance(a, str)}
    ranked = hits.assign(relevance=[grade.get(key, -1) for key in zip(hits["task"], hits["query_id"], hits["doc_id"])],
                         anchor=[anchors.get((t, q)) == d for t, q, d in zip(hits["task"], hits["query_id"],
                                                                             hits["doc_id"])])
    negatives = ranked[(ranked["relevance"] != POSITIVE) & ~ranked["anchor"]]
    negatives = negatives.groupby(["task", "query_id"], sort=False).head(k)
    negatives = negatives.assign(grade=[GRADE_WORDS.get(r, UNJUDGED) for r in negatives["relevance"]])
    by_query = {key: part for key, part in negatives.groupby(["task", "query_id"], sort=False)}
    positives = qrels[qrels["relevance"] == POSITIVE].sort_values(["task", "query_id", "doc_id"])
    info = queries.set_index(["task", "query_id"])
    listed = set(zip(hits["task"], hits["query_id"])) & set(info.index)
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
    kept = negatives[[key in used for key in zip(negatives["task"], negatives["query_id"])]]
    progress("mined", 1.0)
    return MinedNegatives(run_id, release, k, samples, kept[["task", "query_id", "doc_id", "rank", "grade"]]
                          .reset_index(drop=True), short)


def write_mined(mined: MinedNegatives, path: Path, fmt: str = TRIPLETS) -> int:
    """Write ``mined`` to ``path`` in one atomic step (parquet for ``.parquet``, else JSON lines); the rows written.
    ``triplets``: the n-tuple table; ``samples``: the protocol's schema (negatives with rank and grade)."""
    check_format(fmt)
    path = Path(path)
    with atomic_open(path, "wb") as f:
        return write_mined_to(f, mined, fmt, parquet=path.suffix == ".parquet")


def write_mined_to(f: IO[bytes], mined: MinedNegatives, fmt: str = TRIPLETS, parquet: bool = False) -> int:
    """``mined`` into an open binary file (a download's bytes, or a file's); the rows written."""
    if fmt == SAMPLES:
        write_samples_to(f, mined.samples, parquet)
        return len(mined.samples)
    table = mined.triplets()
    if parquet:
        pq.write_table(pa.Table.from_pandas(table, preserve_index=False), f)
    else:
        f.write(table.to_json(orient="records", lines=True, force_ascii=False).encode("utf-8"))
    return len(table)
