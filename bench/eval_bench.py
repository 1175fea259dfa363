"""Evaluation speed at real scale: ours (everything) against the official procedure.

Real scale: 11 runs x 2,601 queries (CoREB v2603 has 1,123 T2C + 278 C2C + 1,200 C2T) x top-100
plus judged documents, on CoREB-mini scaled 6x (built into a temporary cache). Both sides start
from runs already in memory, as the official runner does.

- ours: all metric families (nDCG, Recall, P, MAP, MRR, hit rate) at k in {1,3,5,10,20,100},
  under v2 and v1, C2C anchor exclusion, trap statistics, and the groupings by subtask, language,
  anchor language and problem;
- official: ``coreb_core.evaluation.official.official_evaluate`` (pytrec_eval: map_cut, ndcg_cut, recall, P at
  k in {1,3,5,10,100,1000}, the four metric families) per task.

    .venv/bin/python bench/eval_bench.py        # real scale (CoREB-mini x6)
    .venv/bin/python bench/eval_bench.py --10x  # 10x real scale (CoREB-mini x60): time and peak memory
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from coreb_core.data.mini.build import build_release  # noqa: E402
from coreb_core.data.store import Store  # noqa: E402
from coreb_core.evaluation.evaluate import analyse_many, evaluate  # noqa: E402
from coreb_core.evaluation.official import official_evaluate  # noqa: E402
from coreb_core.evaluation.schemes import V1, V2  # noqa: E402
from coreb_core.runs.hits import concat_hits, hits_from_scores

REAL_QUERIES = {"t2c": 1123, "c2c": 278, "c2t": 1200}
N_RUNS, TOP_K = 11, 100


def make_runs(store: Store, rng: np.random.Generator):
    runs: list[pd.DataFrame] = [[] for _ in range(N_RUNS)]
    qrels_by_task = {}
    want = dict(REAL_QUERIES)
    available = dict(store.sql("SELECT task, count(*) FROM queries GROUP BY 1").fetchall())
    short = sum(max(0, want[t] - available[t]) for t in want)  # move what a task lacks to the others
    for t in sorted(want, key=lambda t: available[t] - want[t], reverse=True):
        extra = min(short, available[t] - want[t]) if available[t] > want[t] else 0
        want[t] = min(available[t], want[t] + extra)
        short -= extra
    for task, corpus in (("t2c", "code"), ("c2c", "code"), ("c2t", "text")):
        qids = [r[0] for r in store.sql("SELECT query_id FROM queries WHERE task = ? ORDER BY 1", [task]).fetchall()]
        qids = sorted(rng.choice(qids, size=want[task], replace=False).tolist())
        docs = [r[0] for r in store.sql("SELECT doc_id FROM documents WHERE corpus = ? ORDER BY 1", [corpus]).fetchall()]
        col = {d: i for i, d in enumerate(docs)}
        qrels: dict[str, dict[str, int]] = {}
        for q, d, r in store.sql("SELECT query_id, doc_id, relevance FROM qrels WHERE task = ?", [task]).fetchall():
            qrels.setdefault(q, {})[d] = r
        qrels = {q: qrels[q] for q in qids if q in qrels}
        qrels_by_task[task] = qrels
        for r in range(N_RUNS):
            scores = rng.random((len(qids), len(docs)))
            for i, q in enumerate(qids):  # judged documents score higher, more so for stronger runs
                for d, g in qrels.get(q, {}).items():
                    scores[i, col[d]] += rng.random() * (0.2 + 0.08 * r) * g
            runs[r].append(hits_from_scores(task, qids, docs, scores, TOP_K, keep={q: list(qrels.get(q, {})) for q in qids}))
    return [concat_hits(parts) for parts in runs], qrels_by_task


def make_runs_fast(store: Store, rng: np.random.Generator, per_task: dict[str, int]) -> list[pd.DataFrame]:
    """Synthetic runs over ``per_task`` queries, without a dense score matrix (too slow at 10x): per
    query 100 distinct random documents plus its judged ones, which score higher for stronger runs."""
    frames: list[list[pd.DataFrame]] = [[] for _ in range(N_RUNS)]
    for task, corpus in (("t2c", "code"), ("c2c", "code"), ("c2t", "text")):
        all_q = [r[0] for r in store.sql("SELECT query_id FROM queries WHERE task = ? ORDER BY 1", [task]).fetchall()]
        qids = pd.Index(sorted(rng.choice(all_q, size=min(per_task[task], len(all_q)), replace=False).tolist()))
        docs = pd.Index([r[0] for r in store.sql("SELECT doc_id FROM documents WHERE corpus = ? ORDER BY 1",
                                                 [corpus]).fetchall()])
        qrels = store.sql("SELECT query_id, doc_id, relevance FROM qrels WHERE task = ?", [task]).df()
        jq, jd, grade = qids.get_indexer(qrels["query_id"]), docs.get_indexer(qrels["doc_id"]), qrels["relevance"].to_numpy()
        jq, jd, grade = jq[jq >= 0], jd[jq >= 0], grade[jq >= 0]
        n_q, n_d = len(qids), len(docs)
        depth = min(TOP_K, n_d)
        for r in range(N_RUNS):
            # Distinct documents per query: an arithmetic progression with a prime stride.
            start = rng.integers(0, n_d, n_q)[:, None]
            q = np.r_[np.repeat(np.arange(n_q), depth), jq]
            d = np.r_[((start + np.arange(depth)[None, :] * 7919) % n_d).ravel(), jd]
            judged = np.r_[np.zeros(n_q * depth, dtype=bool), np.ones(len(jq), dtype=bool)]
            score = np.r_[rng.random(n_q * depth), rng.random(len(jq)) + rng.random(len(jq)) * (0.2 + 0.08 * r) * grade]
            # One row per (query, document), the judged one when both exist.
            key = q.astype(np.int64) * n_d + d
            order = np.lexsort((judged, key))
            last = np.r_[key[order][1:] != key[order][:-1], True]
            keep = order[last]
            q, d, judged, score = q[keep], d[keep], judged[keep], score[keep]
            order = np.lexsort((-d, -score, q))  # score descending, ties by doc id descending
            q, d, judged, score = q[order], d[order], judged[order], score[order]
            first = np.searchsorted(q, q, "left")
            rank = np.arange(len(q)) - first + 1
            keep = (rank <= depth) | judged  # a judged document is kept wherever it ranks
            frames[r].append(pd.DataFrame({
                "task": pd.Categorical.from_codes(np.zeros(keep.sum(), dtype=np.int8), [task]),
                "query_id": pd.Categorical.from_codes(q[keep], qids),
                "doc_id": pd.Categorical.from_codes(d[keep], docs),
                "rank": rank[keep].astype(np.int32), "score": score[keep], "in_top_k": rank[keep] <= depth}))
    return [concat_hits(parts) for parts in frames]


def peak_rss_mb() -> float:
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ours(store: Store, runs: dict[str, pd.DataFrame]) -> None:
    analyse_many(store, runs, (V2, V1), traps=True,
                 groupings=("task", "subtask", "language", "anchor_language", "problem"))


def official(results: dict[str, dict[str, dict[str, float]]], qrels_by_task) -> None:
    for task, res in results.items():
        official_evaluate(qrels_by_task[task], res)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        name, _ = build_release("demo_v2603", root, scale=6)
        print(f"built {name} in {time.perf_counter() - t0:.1f} s")
        store = Store(name, root)
        runs, qrels_by_task = make_runs(store, np.random.default_rng(0))
        n_queries = runs[0].groupby(["task", "query_id"]).ngroups
        dicts = []
        for hits in runs:
            per_task: dict[str, dict[str, dict[str, float]]] = {}
            for t, q, d, s in hits[["task", "query_id", "doc_id", "score"]].itertuples(index=False):
                per_task.setdefault(t, {}).setdefault(q, {})[d] = s
            dicts.append(per_task)
        print(f"{N_RUNS} runs x {n_queries:,} queries x top-{TOP_K} (+ judged), {sum(len(h) for h in runs):,} rows")
        named = {f"run{i:02d}": hits for i, hits in enumerate(runs)}
        ours(store, {"warm-up": runs[0]})  # builds the release index once (cached per Store)
        t0 = time.perf_counter()
        ours(store, named)
        t_ours = time.perf_counter() - t0
        t0 = time.perf_counter()
        for d in dicts:
            official(d, qrels_by_task)
        t_official = time.perf_counter() - t0
        print(f"ours (6 families x 6 cutoffs, v2 + v1, traps, 5 groupings): {t_ours:.2f} s")
        print(f"official procedure (pytrec_eval, 4 families x 6 cutoffs, v2): {t_official:.2f} s")
        print(f"speed-up: {t_official / t_ours:.1f}x  (target >= 5x)")
        verify = evaluate(store, runs[0], V2)
        ref = official_evaluate(qrels_by_task["t2c"], dicts[0]["t2c"], [10], round_to=None)["NDCG@10"]
        print(f"check: t2c nDCG@10 ours {verify[verify.task == 't2c'].ndcg_at_10.mean():.6f} official {ref:.6f}")


def main_10x() -> None:
    """10x real scale: every query count x10 (26,010 queries) drawn from CoREB-mini x60 (72,000
    queries, 25,620 documents), 11 runs. Targets: full evaluation <= 2 s, peak memory <= 2 GB."""
    import tracemalloc

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        name, _ = build_release("demo_v2603", root, scale=60)
        print(f"built {name} in {time.perf_counter() - t0:.1f} s")
        store = Store(name, root)
        runs = make_runs_fast(store, np.random.default_rng(0), {t: 10 * n for t, n in REAL_QUERIES.items()})
        n_queries = runs[0].groupby(["task", "query_id"], observed=True).ngroups
        print(f"{N_RUNS} runs x {n_queries:,} queries x top-{TOP_K} (+ judged), {sum(len(h) for h in runs):,} rows; "
              f"release: {store.sql('SELECT count(*) FROM queries').fetchone()[0]:,} queries, "
              f"{store.sql('SELECT count(*) FROM documents').fetchone()[0]:,} documents")
        named = {f"run{i:02d}": hits for i, hits in enumerate(runs)}
        rss_before = peak_rss_mb()
        t0 = time.perf_counter()
        ours(store, {"warm-up": runs[0]})  # builds the release index (once per Store)
        print(f"ours, index build + 1-run warm-up: {time.perf_counter() - t0:.2f} s")
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            ours(store, named)
            times.append(time.perf_counter() - t0)
        rss_after = peak_rss_mb()
        tracemalloc.start()
        ours(store, named)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        t_ours = sorted(times)[1]
        print(f"ours, full evaluation of {N_RUNS} runs (6 families x 6 cutoffs, v2 + v1, traps, 5 groupings): "
              f"median of 3 {t_ours:.2f} s (runs: {', '.join(f'{x:.2f}' for x in times)}; target <= 2 s)")
        print(f"peak memory of one full evaluation: tracemalloc {peak / 2**30:.2f} GiB; process ru_maxrss grew "
              f"{(rss_after - rss_before) / 1024:.2f} GiB over index + evaluations (target <= 2 GB)")
        # The official procedure on the same runs, as the runner does it: dicts, pytrec_eval, per task.
        qrels_by_task: dict[str, dict[str, dict[str, int]]] = {}
        for t, q, d, r in store.sql("SELECT task, query_id, doc_id, relevance FROM qrels").fetchall():
            qrels_by_task.setdefault(t, {}).setdefault(q, {})[d] = r
        t_official = 0.0
        for hits in runs:
            per_task: dict[str, dict[str, dict[str, float]]] = {}
            for t, q, d, sc in hits[["task", "query_id", "doc_id", "score"]].itertuples(index=False):
                per_task.setdefault(t, {}).setdefault(q, {})[d] = sc
            qrels = {t: {q: qrels_by_task[t][q] for q in res if q in qrels_by_task[t]} for t, res in per_task.items()}
            t0 = time.perf_counter()
            official(per_task, qrels)
            t_official += time.perf_counter() - t0
        print(f"official procedure (pytrec_eval, 4 families x 6 cutoffs, v2 only) on the same {N_RUNS} runs: "
              f"{t_official:.2f} s -> ours is {t_official / t_ours:.1f}x faster")

if __name__ == "__main__":
    import sys

    main_10x() if "--10x" in sys.argv[1:] else main()
