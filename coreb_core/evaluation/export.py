"""Export a stored run for others: a TREC run, the official runner's JSON shapes, an MTEB result.

- ``trec``: ``qid Q0 docid rank score tag``, 1-based ranks, scores written exactly (``repr``). Our
  ranks already follow trec_eval's order (score descending, ties by doc id descending), so trec_eval
  and pytrec_eval reproduce them. A query with an empty list has no line (TREC cannot say "empty"). A
  stored run holds its top-k and, below it, each query's judged documents at their true ranks; the file
  has both, and trec_eval (ignoring the rank column) reads the judged ones at k+1, k+2, …: scored from the
  file, cutoffs below the run's top-k equal ours, deeper ones may not (at the top-k itself, the C2C
  anchor's drop moves position k+1 up).
- ``coreb``: per task ``<task>.json`` (``{"metrics": {"NDCG": {"NDCG@10": …}, "MAP", "Recall",
  "Precision"}}`` under v2 at the official k) and ``<task>_predictions.json``
  (``{query_id: [{"corpus_id", "score", "rank"}, …]}``, a query that retrieved nothing as ``[]``). As the
  runner's keys mean: ``metrics`` is ``EvaluateRetrieval.evaluate``'s, which keeps the C2C anchor in the
  list; ``code2code.json`` also holds the runner's ``_recompute_c2c_without_anchor`` keys beside it
  (``ndcg_at_k``, ``recall_at_k``, ``mrr_at_k``, k in 1, 5, 10, 20), anchor excluded. The folder agrees
  with itself: the official evaluator scoring the predictions gets the JSON's numbers at every cutoff the
  JSON states. A cutoff the predictions cannot carry (deeper than each query's gap-free top of the list,
  below which only its judged documents follow at their true ranks: scored from the file they would sit
  right under the top) is left out and named in ``cutoffs_left_out`` (``anchor_cutoffs_left_out`` for the
  recompute keys), with ``cutoffs_left_out_why``.
- ``mteb``: ``<model>/<revision>/Coreb{T2C,C2C,C2T}Retrieval.json`` and ``model_meta.json`` in MTEB's
  layout, with our v2 numbers (marked with ``coreb_scheme``; MTEB's own qrels differ).

Example (CoREB-mini and a BM25 run in ``root``; written to a scratch folder beside it):
    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp(dir=root.parent))
    >>> export_run(bm25, "trec", out / "bm25.trec", root).name
    'bm25.trec'
    >>> sorted(p.name for p in export_run(bm25, "coreb", out / "coreb", root).iterdir())
    ['code2code.json', 'code2code_predictions.json', 'code2text.json', 'code2text_predictions.json',
     'text2code.json', 'text2code_predictions.json']
    >>> folder = export_run(bm25, "mteb", out / "mteb", root)
    >>> folder.relative_to(out).as_posix(), sorted(p.name for p in folder.iterdir())
    ('mteb/bm25s/no_revision_available',
     ['CorebC2CRetrieval.json', 'CorebC2TRetrieval.json', 'CorebT2CRetrieval.json', 'model_meta.json'])
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from coreb_core.atomic import atomic_write_text, check_target
from coreb_core.data.measures import NDCG_10, measures
from coreb_core.data.schema import TASKS
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import evaluate, summary
from coreb_core.evaluation.official import ANCHOR_K, OFFICIAL_K
from coreb_core.evaluation.schemes import V2
from coreb_core.runs.folders import read_hits, run_meta

FORMATS = ("trec", "coreb", "mteb")
OFFICIAL_TOP_K = 1000  # coreb_runner's search keeps each query's top 1000 (official.official_dense_search's top_k)


def _atomic_write(path: Path, text: str) -> None:
    atomic_write_text(path, text)


def _ranked(run_id: str, root: Path | None) -> pd.DataFrame:
    hits = read_hits(run_id, root)
    hits = hits[hits["doc_id"].notna()].astype({"task": str, "query_id": str, "doc_id": str})
    return hits.sort_values(["task", "query_id", "rank"], ignore_index=True)


def trec_depth(run_id: str, root: Path | None = None) -> float:
    """The deepest cutoff a TREC export of the run scores as the run (``carried_depth`` of its lists, every task):
    a run stored at top 100 gives 100; ``inf`` when no list has a gap (every list is the whole corpus, or imported
    whole). The official runner keeps each query's top ``OFFICIAL_TOP_K``, so cutoffs deeper than this differ.

    >>> trec_depth(bm25, root)
    100
    """
    return carried_depth(_ranked(run_id, root))


def _export_trec(run_id: str, out: Path, root: Path | None = None) -> Path:
    hits = _ranked(run_id, root)
    tag = "".join(c if c.isalnum() or c in "-_." else "_" for c in run_id)[:64]
    lines = [f"{q} Q0 {d} {int(r)} {float(s)!r} {tag}" for q, d, r, s in
             zip(hits["query_id"], hits["doc_id"], hits["rank"], hits["score"])]
    _atomic_write(out, "\n".join(lines) + "\n")
    return out


def _official_metrics(per_query: pd.DataFrame, ks: tuple[int, ...] = OFFICIAL_K) -> dict:
    """Our v2 means in the runner's JSON shape (5-decimal rounding, as the runner writes them), at ``ks``."""
    m = summary(per_query)["tasks"]
    (task,) = m
    values = m[task]
    families = [measures((family,), ks) for family in ("ndcg", "map", "recall", "precision")]
    return {"metrics": {family[0].official_family: {m.official: round(values[m.column], 5) for m in family}
                        for family in families}}


def carried_depth(hits: pd.DataFrame, dropped: pd.Series | None = None) -> float:
    """The deepest cutoff at which a file of these lists scores as the run: every query's list, read in
    order without the ``dropped`` rows (what the scorer removes: own-id hits, the C2C anchor), must hold the
    run's true ranks 1, 2, 3, … down to the cutoff or to its end. A stored run holds its top k and, below a gap,
    its judged documents at their true ranks; an evaluator that ranks by score (pytrec_eval) reads those at
    k+1, k+2, …, so k is the limit. ``inf`` when no list has a gap.

    >>> hits = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q2"], "rank": [1, 2, 40, 1]})
    >>> carried_depth(hits), carried_depth(hits[hits["rank"] < 40])
    (2, inf)
    """
    hits = hits.sort_values(["query_id", "rank"], kind="stable")
    gone = (pd.Series(False, index=hits.index) if dropped is None else dropped.reindex(hits.index, fill_value=False))
    # a dropped row moves every row below it one place up, in the scorer's list and in the run's own ranks
    above = gone.astype(int).groupby(hits["query_id"], observed=True).cumsum() - gone.astype(int)
    kept = hits[~gone.to_numpy()]
    rank = kept["rank"].to_numpy() - above[~gone.to_numpy()].to_numpy()
    position = kept.groupby("query_id", observed=True).cumcount().to_numpy() + 1
    wrong = position[rank != position]
    return float("inf") if len(wrong) == 0 else int(wrong.min()) - 1


LEFT_OUT_WHY = ("The predictions hold each query's ranked list without a gap down to rank {depth} only; below it "
                "they hold its judged documents at their true ranks, which an evaluator ranking by score reads "
                "right below rank {depth}. Scored from the predictions, these cutoffs would not be the run's, so "
                "they are not written; `python -m coreb_core eval --release {release} --run {run}` scores them on the stored run.")


def _export_coreb(run_id: str, out: Path, root: Path | None = None) -> Path:
    meta = run_meta(run_id, root)
    hits = _ranked(run_id, root)
    stored = read_hits(run_id, root)
    with Store(meta.made_on(), root) as store:
        anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE task = 'c2c'").fetchall())
        for task in sorted(set(stored["task"].astype(str))):
            long = TASKS[task].long_name
            group = hits[hits["task"] == task]
            task_hits = stored[stored["task"].astype(str) == task]
            # Every query of the run, one that retrieved nothing as [] (pytrec_eval scores it 0 and counts it).
            listed: dict[str, list[dict[str, object]]] = {q: [] for q in sorted(set(task_hits["query_id"].astype(str)))}
            listed.update({q: [{"corpus_id": d, "score": float(s), "rank": int(r)}
                               for d, s, r in zip(g["doc_id"], g["score"], g["rank"])]
                           for q, g in group.groupby("query_id", sort=True)})
            _atomic_write(out / f"{long}_predictions.json", json.dumps(listed))
            # Only the cutoffs the predictions carry: scored from them, the official evaluator gets these numbers.
            depth = carried_depth(group, group["doc_id"] == group["query_id"])
            ks = tuple(k for k in OFFICIAL_K if k <= depth)
            # The runner's metrics keep the anchor; only its C2C recompute drops it.
            result = _official_metrics(evaluate(store, task_hits, V2, anchor_exclusion=False, ks=OFFICIAL_K), ks)
            left_out = {"cutoffs_left_out": [k for k in OFFICIAL_K if k not in ks]}
            if task == "c2c":
                anchor_depth = carried_depth(group, group["doc_id"] == group["query_id"].map(anchors))
                anchor_ks = tuple(k for k in ANCHOR_K if k <= anchor_depth)
                without = summary(evaluate(store, task_hits, V2, anchor_exclusion=True, ks=ANCHOR_K))["tasks"][task]
                result.update({f"{family}_at_{k}": without[f"{family}_at_{k}"]
                               for k in anchor_ks for family in ("ndcg", "recall", "mrr")})
                left_out["anchor_cutoffs_left_out"] = [k for k in ANCHOR_K if k not in anchor_ks]
                depth = depth if left_out["cutoffs_left_out"] else anchor_depth  # the depth the note is about
            if any(left_out.values()):
                result.update({key: value for key, value in left_out.items() if value})
                result["cutoffs_left_out_why"] = LEFT_OUT_WHY.format(depth=depth, release=meta.made_on(), run=run_id)
            _atomic_write(out / f"{long}.json", json.dumps(result, indent=4))
    return out


def _export_mteb(run_id: str, out: Path, root: Path | None = None) -> Path:
    meta = run_meta(run_id, root)
    spec = meta.model_spec or {}
    name = spec.get("name") if spec.get("id") not in ("minilm", "bm25") else {"minilm": "sentence-transformers/all-MiniLM-L6-v2",
                                                                           "bm25": "bm25s"}[spec["id"]]
    name = name or meta.model or "unknown"
    revision = spec.get("revision") or "no_revision_available"
    folder = out / name.replace("/", "__") / revision
    hits = read_hits(run_id, root)
    with Store(meta.made_on(), root) as store:
        per_query = evaluate(store, hits, V2)
    for task, values in summary(per_query)["tasks"].items():
        entry = {k: v for k, v in values.items() if k != "queries" and not k.startswith(("dcg", "idcg"))}
        entry.update({"main_score": values[NDCG_10.column], "hf_subset": "default", "languages": ["eng-Latn", "python-Code"]})
        result = {"dataset_revision": meta.release, "task_name": TASKS[task].mteb_retrieval, "mteb_version": None,
                  "scores": {"test": [entry]}, "evaluation_time": None, "kg_co2_emissions": None,
                  "coreb_scheme": "v2 (official CoREB scoring, C2C anchor excluded), not MTEB's positives-only qrels",
                  "coreb_run_id": run_id, "coreb_profile": meta.profile}
        _atomic_write(folder / f"{TASKS[task].mteb_retrieval}.json", json.dumps(result, indent=2))
    _atomic_write(folder / "model_meta.json", json.dumps({"name": name, "revision": revision,
                                                          "n_parameters": None, "similarity_fn_name": "cosine"}, indent=2))
    return folder


def export_run(run_id: str, fmt: str, out: Path | str, root: Path | None = None) -> Path:
    """Write a stored run in ``fmt`` (one of FORMATS) at ``out``; returns the file or folder written.

    Example (CoREB-mini and a BM25 run in ``root``; written to a scratch folder beside it):

    >>> import tempfile
    >>> path = export_run(bm25, "trec", Path(tempfile.mkdtemp(dir=root.parent)) / "bm25.trec", root)
    >>> path.read_text().splitlines()[0].rsplit(" ", 1)[0]
    'q_c2c_cross_lang_0025 Q0 code_v202603_00024 1 160.12664794921875'
    """
    if fmt not in FORMATS:
        raise CorebError(f"unknown export format {fmt!r}; use {', '.join(FORMATS)}")
    # trec writes one file; coreb and mteb write a folder of files. Checked before the run is read.
    # A FIFO, a device or a path inside the cache (a run's own folder) is refused too.
    out = check_target(out, folder=fmt != "trec", hint="name a file such as run.trec", cache=root)
    run_meta(run_id, root)  # an unknown run fails before anything is written
    try:
        return {"trec": _export_trec, "coreb": _export_coreb, "mteb": _export_mteb}[fmt](run_id, out, root)
    except OSError as exc:  # a full disk, a folder where a file of the export goes, …
        raise CorebError(f"cannot write {out}: {exc.strerror or type(exc).__name__}") from None
