"""Evaluation speed on the real release, side by side with the official procedure and the peers.

Builds, in a temporary cache, the real ``release_v2603`` (``--real``, default ``../shared/coreb_real``)
with its queries repeated ``--scale`` times (×10: 26,010 queries, ids suffixed ``~k``, the same corpora
and judgments), one real BM25 run made by the pipeline and 10 synthetic runs ranked from noisy BM25 scores
exactly as the pipeline ranks (top 100 plus every judged document, C2T stretched for the v1 view: about
800,000 rows per run at ×1). Then, on the same 11 runs (nDCG, MAP, Recall, P at 1/3/5/10/100, v2):

- **official**: ``coreb_core.evaluation.official.official_evaluate`` (pytrec_eval, as coreb_runner's
  ``EvaluateRetrieval.evaluate``), per run and task, fed exactly what the official runner's run dict holds
  for these cutoffs: each query's top 100 (``runner_lists``). coreb_runner 0.1.0 builds that dict in
  ``DenseRetrievalExactSearch.search``: per query the ``top_k`` best documents by score, the document whose id
  is the query's own id left out before the cut (``cid != qid``), nothing added (no judged document below the
  cut; the C2C anchor is there where it ranks, as any document). Its ``top_k`` is ``max(k_values)`` = 1000 and
  it scores @1000 too; every measure at a cutoff ≤ 100 reads only the top 100, so the top 100 gives pytrec_eval
  the same numbers for the least work: the fairest baseline. (Until issue 47 the bench gave it every stored row,
  judged documents below rank 100 and C2T's stretch included: about 3× the work; ``--all-rows`` times that too.)
  The dicts and qrels are built before the clock starts, one run at a time;
- **ours, in memory**: ``analyse_many`` of the runs' hits frames (codes, join, kernels);
- **ours, stored, first read**: ``analyse_many`` of ``StoredRun`` references with no cached join and a fresh
  index: reads each ``hits.parquet`` once and writes its join (``coreb_core/evaluation/stored_joins.py``); the
  release index's codes, made once per release version (``data_cache/joins/@release/``), stay. Runs are stored
  as ``run_retrieval`` stores them: the rows a v2 join reads (judged pairs, anchors, each query's first row:
  about 14,000 of 800,000 at ×1) first, in their own row group (``coreb_core.runs.folders.JudgedRows``), so a
  v2 first read decodes those alone; each hits file is hashed (a join's key is its SHA-256, hashed once per
  process and file version); the removal of the previous pass's joins is outside the clock;
- **ours, stored, joins cached**: the same again from a fresh index: the joins are read from disk, no ranked
  list is;
- **a new process** doing each of the last two (imports outside the clock, the Store's opening and the kernels'
  loading inside): its time and its peak resident memory (VmHWM);
- **peers** (with ``--peers PYTHON``, a venv holding ranx and ir_measures: see bench/README.md): ranx
  ``evaluate`` and ir_measures ``calc_aggregate`` on the same top-100 lists, in their own process.

Numbers are checked equal (every metric, every query of run 0, against pytrec_eval) before any timing; every
side is timed as the best of ``REPEATS`` passes (the official procedure per run), as the machine is shared; the
load average is printed beside each figure. ``--runs 1 11 50`` times the stored path for each count and fits
the exponent of time against runs.

    .venv/bin/python bench/eval_real_bench.py [--scale 10] [--runs 1 11 50] [--peers bench/.peers/bin/python]
"""
from __future__ import annotations

import argparse
import json
import math
import subprocess
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

KS = (1, 3, 5, 10, 100)
FAMILIES = (("ndcg", "NDCG"), ("map", "MAP"), ("recall", "Recall"), ("precision", "P"))


def scaled_copy(real: Path, out: Path, scale: int) -> Path:
    """The real release_v2603 with every query (and its judgments) repeated ``scale`` times."""
    src, dst = real / "release_v2603", out / "release_v2603"
    dst.mkdir(parents=True)
    for f in sorted(src.glob("*.jsonl")):
        lines = f.read_text(encoding="utf-8").splitlines()
        if "queries" in f.name or "qrels" in f.name:
            rows = [json.loads(line) for line in lines]
            lines = [json.dumps({**r, "query_id": f"{r['query_id']}~{k}" if k else r["query_id"]})
                     for k in range(scale) for r in rows]
        (dst / f.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def build(root: Path, real: Path, scale: int, n_runs: int) -> tuple[str, list[str]]:
    from coreb_core.data.store import Store
    from coreb_core.results.uploads import import_dataset
    from coreb_core.retrieval.pipeline import load_task, run_retrieval
    from coreb_core.retrieval.search import bm25_scores
    from coreb_core.runs.folders import new_run_id, write_run
    from coreb_core.runs.hits import concat_hits, hits_from_scores

    release, _ = import_dataset(scaled_copy(real, root / "src", scale), split="release_v2603", root=root)
    run_ids = [run_retrieval("bm25", release, root=root).run_id]
    rng = np.random.default_rng(2603)
    with Store(release, root) as store:
        tasks = [load_task(store, t) for t in ("t2c", "c2c", "c2t")]
        bases = []
        for data in tasks:
            base = bm25_scores(data.queries, data.docs)
            bases.append(base / np.maximum(base.max(axis=1, keepdims=True), 1e-9))
        for r in range(n_runs - 1):  # stored as run_retrieval stores a run: its judged rows first
            parts = [hits_from_scores(task, data.query_ids, data.doc_ids,
                                      base + rng.normal(0.0, 0.05 + 0.05 * (r % 10), size=base.shape),
                                      keep=data.keep, counted=data.counted)
                     for task, data, base in zip(("t2c", "c2c", "c2t"), tasks, bases)]
            run_ids.append(write_run(concat_hits(parts), {"run_id": new_run_id(f"synthetic-{r:02d}", release),
                                                          "release": release, "model": f"synthetic-{r:02d}"}, root,
                                     store=store))
    return release, run_ids


RUNNER_DEPTH = max(KS)  # the deepest cutoff measured: the runner's list below it changes no number here
# Every side is timed as the best of this many passes: the machine is shared, and a pass slowed by another
# process's burst says nothing about either evaluator. The medians of ours are printed beside.
REPEATS = 3


def official_qrels(store) -> dict[str, dict[str, dict[str, int]]]:
    """Per task, the qrels as coreb_runner holds them: ``{query: {doc: relevance}}``."""
    qrels: dict[str, dict[str, dict[str, int]]] = {}
    for t, q, d, r in store.sql("SELECT task, query_id, doc_id, relevance FROM qrels").fetchall():
        qrels.setdefault(t, {}).setdefault(q, {})[d] = r
    return qrels


def runner_rows(hits: pd.DataFrame, depth: int = RUNNER_DEPTH) -> pd.DataFrame:
    """The rows of the official runner's run dict (``DenseRetrievalExactSearch.search``): per query, its own
    id left out first, then the ``depth`` best documents in rank order (score, then doc id descending:
    trec_eval's order, and the runner's heap keeps the larger id on a tie). Nothing is added: no judged
    document below the cut, no stretch.

    >>> hits = pd.DataFrame({"task": "c2c", "query_id": ["q", "q", "q", "r"], "doc_id": ["q", "a", "b", None],
    ...                      "rank": [1, 2, 3, pd.NA], "score": [0.9, 0.8, 0.7, np.nan]})
    >>> runner_rows(hits, depth=1)[["query_id", "doc_id"]].values.tolist()
    [['q', 'a']]
    """
    part = hits[hits["doc_id"].notna()]
    part = part[part["doc_id"].astype(str).to_numpy() != part["query_id"].astype(str).to_numpy()]
    part = part.sort_values(["task", "query_id", "rank"], kind="stable")
    return part[part.groupby(["task", "query_id"], observed=True).cumcount().to_numpy() < depth]


def runner_lists(hits: pd.DataFrame, depth: int = RUNNER_DEPTH) -> dict[str, dict[str, dict[str, float]]]:
    """Per task, the run dict the official runner hands pytrec_eval: ``{query: {doc: score}}`` of ``runner_rows``."""
    per: dict[str, dict[str, dict[str, float]]] = {}
    rows = runner_rows(hits, depth)
    for t, q, d, s in zip(*(rows[c].astype(object if c != "score" else float).tolist()
                             for c in ("task", "query_id", "doc_id", "score"))):
        per.setdefault(t, {}).setdefault(q, {})[d] = s
    return per


def all_rows(hits: pd.DataFrame) -> dict[str, dict[str, dict[str, float]]]:
    """Every stored row as a run dict: what the bench fed pytrec_eval before issue 47 (``--all-rows``)."""
    per: dict[str, dict[str, dict[str, float]]] = {}
    for t, q, d, s in hits[["task", "query_id", "doc_id", "score"]].itertuples(index=False):
        if isinstance(d, str):
            per.setdefault(t, {}).setdefault(q, {})[d] = s
    return per


def official_seconds(frames: list[pd.DataFrame], qrels, lists=runner_lists, repeats: int = REPEATS
                     ) -> tuple[float, int]:
    """Seconds pytrec_eval (``official_evaluate``, per task) takes on every run's dict: per run the best of
    ``repeats`` passes (as ours are timed), summed. Each dict is built before the clock starts and dropped after
    (tens of millions of entries at ×10). Also returns the entries per run."""
    from coreb_core.evaluation.official import official_evaluate

    total, entries = 0.0, 0
    for hits in frames:
        per = lists(hits)
        entries = sum(len(docs) for res in per.values() for docs in res.values())
        best = math.inf
        for _ in range(repeats):
            t0 = time.perf_counter()
            for task, res in per.items():
                official_evaluate(qrels[task], res, KS, round_to=None)
            best = min(best, time.perf_counter() - t0)
        total += best
        del per
    return total, entries


def load() -> str:
    """The machine's load average, printed beside every figure."""
    import os

    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def check_equal(store, hits: pd.DataFrame, qrels, results) -> float:
    """Largest difference, over every metric and query of one run, between ours and pytrec_eval."""
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.evaluation.official import official_evaluate
    from coreb_core.evaluation.schemes import V2

    # official_evaluate is coreb_runner's EvaluateRetrieval.evaluate: the C2C anchor stays in the list there
    # (the runner drops it in a separate step), so the check keeps it too.
    ours = evaluate(store, hits, V2, anchor_exclusion=False, ks=KS).set_index("query_id")
    worst = 0.0
    for task, res in results.items():
        theirs = official_evaluate(qrels[task], res, KS, per_query=True)
        for ours_name, _ in FAMILIES:
            trec = {"ndcg": "ndcg_cut", "map": "map_cut", "recall": "recall", "precision": "P"}[ours_name]
            for k in KS:
                mine = ours.loc[list(theirs), f"{ours_name}_at_{k}"].to_numpy()
                ref = np.array([theirs[q][f"{trec}_{k}"] for q in theirs])
                worst = max(worst, float(np.abs(mine - ref).max()))
    return worst


FRESH = '''
import shutil, sys, time
from pathlib import Path
from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import analyse_many
from coreb_core.evaluation.schemes import V2
from coreb_core.evaluation.stored_joins import StoredRun
from coreb_core.paths import joins_dir
root, release, fresh, ids = Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "1", sys.argv[4:]
if fresh:  # the runs' joins; the release index's codes (made once per release version) stay
    for folder in joins_dir(root).glob("*"):
        if folder.name != "@release":
            shutil.rmtree(folder, ignore_errors=True)
t0 = time.perf_counter()
analyse_many(Store(release, root), {r: StoredRun(r, root) for r in ids}, (V2,), ks=(1, 3, 5, 10, 100))
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent through fork and exec
hwm = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(time.perf_counter() - t0, hwm / 2 ** 20)
'''


def fresh_process(root: Path, release: str, ids: list[str], fresh: bool) -> tuple[float, float]:
    """(peak resident GiB, seconds) of a new interpreter scoring ``ids`` from the stored runs."""
    import sys

    done = subprocess.run([sys.executable, "-c", FRESH, str(root), release, "1" if fresh else "0", *ids],
                          capture_output=True, text=True, check=True)
    seconds, rss = map(float, done.stdout.split())
    return rss, seconds


def timed(fn, repeats: int = REPEATS, setup=lambda: None) -> tuple[float, float, float]:
    """Best and median seconds of ``repeats`` calls, and tracemalloc's peak (GiB) over one more call; ``setup``
    runs before each call, outside the clock."""
    times = []
    for _ in range(repeats):
        setup()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    setup()
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1] / 2 ** 30
    tracemalloc.stop()
    return min(times), sorted(times)[len(times) // 2], peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "coreb_real")
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--runs", type=int, nargs="*", default=[11])
    parser.add_argument("--peers", help="a Python with ranx and ir_measures (bench/README.md)")
    parser.add_argument("--all-rows", action="store_true",
                        help="also time pytrec_eval on every stored row (the bench's baseline before issue 47)")
    args = parser.parse_args()

    from importlib.metadata import version

    import pyarrow.parquet as pq

    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.evaluation.join import release_index
    from coreb_core.evaluation.schemes import V2
    from coreb_core.evaluation.stored_joins import StoredRun
    from coreb_core.paths import joins_dir
    from coreb_core.runs.folders import judged_rows, read_hits, run_path

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        release, run_ids = build(root, args.real, args.scale, max(args.runs))
        print(f"built {release} ×{args.scale} with {len(run_ids)} runs in {time.perf_counter() - t0:.0f} s ({load()})")
        store = Store(release, root)
        ids = run_ids[:11]
        frames = [read_hits(r, root) for r in ids]
        rows = sum(map(len, frames))
        qrels = official_qrels(store)
        print(f"{len(ids)} runs × {store.sql('SELECT count(*) FROM queries').fetchone()[0]:,} queries, "
              f"{rows // len(ids):,} stored rows per run ({(frames[0]['rank'] <= 100).sum():,} of them at rank ≤ 100)")
        print(f"check: ours against pytrec_eval on the runner's top-{RUNNER_DEPTH} lists, every metric and query of "
              f"run 0: max |Δ| = {check_equal(store, frames[0], qrels, runner_lists(frames[0])):.1e}")

        t_official, entries = official_seconds(frames, qrels)
        print(f"official procedure: pytrec_eval (pytrec-eval-terrier {version('pytrec-eval-terrier')}) fed what coreb_runner's run dict holds for "
              f"cutoffs ≤ {RUNNER_DEPTH} (each query's top {RUNNER_DEPTH}, own id left out, nothing added: "
              f"{entries:,} entries per run), 4 families × 5 cutoffs, v2, per task, {len(ids)} runs: "
              f"{t_official:.2f} s (per run the best of {REPEATS}) ({load()})")
        if args.all_rows:
            t_all, entries_all = official_seconds(frames, qrels, all_rows)
            print(f"  for reference, fed every stored row ({entries_all:,} per run; the baseline before issue 47): "
                  f"{t_all:.2f} s ({load()})")
        del qrels
        named = dict(zip(ids, frames))
        analyse_many(store, named, (V2,), ks=KS)  # compiles nothing new; warms the release index
        t_memory, m_memory, peak_memory = timed(lambda: analyse_many(store, named, (V2,), ks=KS))

        def forget_joins() -> None:
            import shutil

            from coreb_core.evaluation import join
            for folder in joins_dir(root).glob("*"):  # the runs' joins; the release index's codes stay
                if folder.name != "@release":
                    shutil.rmtree(folder, ignore_errors=True)
            # A join is keyed on its hits file's SHA-256, hashed once per process and file version: a run read
            # for the first time is hashed too.
            join._DIGESTS.clear()

        def stored(run_list: list[str], fresh_cache: bool) -> None:
            if fresh_cache:
                forget_joins()
            store.cache.pop("release_index", None)  # a new index: nothing memoised in memory
            analyse_many(store, {r: StoredRun(r, root) for r in run_list}, (V2,), ks=KS)

        with pq.ParquetFile(run_path(ids[0], root) / "hits.parquet") as file:
            layout = judged_rows(file)
        print(f"run 0 stored with its judged rows first: {layout.rows if layout else 'none'} of {len(frames[0]):,} "
              f"rows (the first row group; all a v2 first read decodes)")
        t_first, m_first, peak_first = timed(lambda: stored(ids, False), setup=forget_joins)
        t_stored, m_stored, peak_stored = timed(lambda: stored(ids, False))
        index_build, _, _ = timed(lambda: (store.cache.pop("release_index", None),
                                           release_index(store).judged("qrels")))
        for label, t, m, peak in (("ours, in memory (hits frames)", t_memory, m_memory, peak_memory),
                                  ("ours, stored runs, first read (reads each hits.parquet's judged rows, writes its join; "
                                   "the release's index codes kept, made once per release version)", t_first,
                                   m_first, peak_first),
                                  ("ours, stored runs, joins cached (a fresh index)", t_stored, m_stored, peak_stored)):
            print(f"{label}: {t:.3f} s (best of {REPEATS}; median {m:.3f} s), tracemalloc peak {peak:.2f} GiB -> "
                  f"{t_official / t:.1f}x the official procedure ({load()})")
        print(f"  (of which the release index's build, once per release version: {index_build:.3f} s)")
        for fresh in (True, False):  # what a new process (a CLI verb, a new server) holds at its peak
            rss, seconds = fresh_process(root, release, ids, fresh)
            print(f"a new process scoring the {len(ids)} stored runs, {'first read' if fresh else 'joins cached'}: "
                  f"{seconds:.2f} s from opening the Store (kernels loaded from numba's cache inside), "
                  f"peak resident memory {rss:.2f} GiB (imports included) ({load()})")
        if args.peers:
            import pyarrow as pa
            folder = root / "peers"
            folder.mkdir()
            q = store.sql("SELECT task, query_id, doc_id, CASE WHEN relevance >= 2 THEN relevance ELSE 0 END "
                          "AS relevance FROM qrels").df()
            pq.write_table(pa.Table.from_pandas(q, preserve_index=False), folder / "qrels.parquet")
            for i, hits in enumerate(frames):  # the same lists the official procedure was fed
                part = runner_rows(hits)[["task", "query_id", "doc_id", "score"]]
                pq.write_table(pa.Table.from_pandas(part.astype({"task": str, "query_id": str, "doc_id": str}),
                                                    preserve_index=False), folder / f"run-{i:02d}.parquet")
            done = subprocess.run([args.peers, str(Path(__file__).with_name("peers_eval.py")), str(folder)],
                                  capture_output=True, text=True)
            if done.returncode:
                raise SystemExit(f"peers failed: {done.stderr.strip().splitlines()[-1:]}")
            out = json.loads(done.stdout.splitlines()[-1])
            for name in ("ranx", "ir_measures"):
                print(f"{name} {out.get(name + '_version', '')} ({len(ids)} runs, the same top-{RUNNER_DEPTH} lists, "
                      f"its own process): {out[f'{name}_s']:.2f} s -> ours {out[f'{name}_s'] / t_first:.1f}x faster "
                      f"(first read), {out[f'{name}_s'] / t_stored:.1f}x (joins cached) ({load()})")
            from coreb_core.evaluation.evaluate import evaluate, summary

            ours = summary(evaluate(store, frames[0], V2, anchor_exclusion=False, ks=KS))["tasks"]
            print(f"  nDCG@10 of run 0 per task: ranx {out['ranx_ndcg10_first_run']}, ours "
                  f"{ {t: m['ndcg_at_10'] for t, m in ours.items()} }")
        if len(args.runs) > 1:
            points = []
            for n in args.runs:
                stored(run_ids[:n], True)  # joins written
                t, _, _ = timed(lambda n=n: stored(run_ids[:n], False))
                points.append((n, t))
                print(f"stored evaluation of {n} runs: {t:.3f} s ({load()})")
            slope = np.polyfit([math.log(n) for n, _ in points], [math.log(t) for _, t in points], 1)[0]
            print(f"fitted exponent of time against runs ({', '.join(str(n) for n, _ in points)}): {slope:.2f}")

if __name__ == "__main__":
    main()
