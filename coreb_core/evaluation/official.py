"""The official CoREB scoring procedure, reproduced step by step as the reference.

This is ``coreb_runner.benchmark.evaluation.EvaluateRetrieval.evaluate`` (coreb 0.1.0) and the
runner's ``_recompute_c2c_without_anchor``, kept deliberately literal (dicts, pytrec_eval, per-query
loops). Our own evaluator must agree with it; tests and benchmarks compare against this module.
Needs ``pytrec_eval`` (package ``pytrec-eval-terrier``, a dev requirement).

Example:
    >>> official_evaluate({"q": {"d1": 2, "d2": 1}}, {"q": {"d2": 0.9, "d1": 0.8}}, [1, 10])["NDCG@1"]
    0.0
"""
from __future__ import annotations

import math

OFFICIAL_K = (1, 3, 5, 10, 100, 1000)
ANCHOR_K = (1, 5, 10, 20)
RELEVANCE_LEVEL = 2


def official_evaluate(qrels: dict[str, dict[str, int]], results: dict[str, dict[str, float]],
                      k_values=OFFICIAL_K, ignore_identical_ids: bool = True, round_to: int | None = 5,
                      per_query: bool = False) -> dict:
    """NDCG@k, MAP@k, Recall@k, P@k averaged over the queries pytrec_eval scores.

    >>> official_evaluate({"q": {"d1": 2}}, {"q": {"d2": 0.9, "d1": 0.8}}, [1, 10])
    {'NDCG@1': 0.0, 'MAP@1': 0.0, 'Recall@1': 0.0, 'P@1': 0.0, 'NDCG@10': 0.63093, 'MAP@10': 0.5, 'Recall@10': 1.0, 'P@10': 0.1}
    """
    import pytrec_eval

    if ignore_identical_ids:
        results = {q: {d: s for d, s in docs.items() if d != q} for q, docs in results.items()}
    filtered = {q: {d: (r if r >= RELEVANCE_LEVEL else 0) for d, r in docs.items()} for q, docs in qrels.items()}
    measures = {"map_cut." + ",".join(map(str, k_values)), "ndcg_cut." + ",".join(map(str, k_values)),
                "recall." + ",".join(map(str, k_values)), "P." + ",".join(map(str, k_values))}
    scores = pytrec_eval.RelevanceEvaluator(filtered, measures, relevance_level=RELEVANCE_LEVEL).evaluate(results)
    if per_query:
        return scores
    out: dict[str, float] = {}
    n = len(scores)
    for k in k_values:
        for name, key in (("NDCG", "ndcg_cut"), ("MAP", "map_cut"), ("Recall", "recall"), ("P", "P")):
            total = sum(scores[q][f"{key}_{k}"] for q in scores)
            value = total / n if n else 0.0
            out[f"{name}@{k}"] = round(value, round_to) if round_to is not None else value
    return out


def official_mrr(qrels: dict[str, dict[str, int]], results: dict[str, dict[str, float]], k_values=OFFICIAL_K,
                 round_to: int | None = 5) -> dict[str, float]:
    """``coreb_runner`` MRR: hits need relevance > 1; divided by the number of queries in the qrels.

    >>> official_mrr({"q": {"d1": 2}}, {"q": {"d2": 0.9, "d1": 0.8}}, [1, 10])
    {'MRR@1': 0.0, 'MRR@10': 0.5}
    """
    out = {f"MRR@{k}": 0.0 for k in k_values}
    for qid, doc_scores in results.items():
        top = sorted(doc_scores.items(), key=lambda x: x[1], reverse=True)[: max(k_values)]
        relevant = {d for d, r in qrels.get(qid, {}).items() if r > 1}
        for k in k_values:
            for rank, (did, _) in enumerate(top[:k]):
                if did in relevant:
                    out[f"MRR@{k}"] += 1.0 / (rank + 1)
                    break
    n = len(qrels)
    return {key: (round(v / n, round_to) if round_to is not None else v / n) if n else 0.0 for key, v in out.items()}


def official_c2c_without_anchor(predictions: dict[str, list[str]], qrels: dict[str, dict[str, int]],
                                anchor_map: dict[str, str], k_values=ANCHOR_K) -> dict[str, float]:
    """The runner's recomputation for C2C after removing each query's anchor from its ranked list.

    ``predictions`` maps query id to doc ids in rank order (the runner's ``_predictions.json``).

    >>> official_c2c_without_anchor({"q": ["anchor", "d1"]}, {"q": {"d1": 2}}, {"q": "anchor"}, [1])
    {'ndcg_at_1': 1.0, 'recall_at_1': 1.0, 'mrr_at_1': 1.0}
    """
    per: dict[str, list[float]] = {}
    for qid, ranked in predictions.items():
        anchor = anchor_map.get(qid, "")
        ids = [d for d in ranked if d != anchor]
        rel = qrels.get(qid, {})
        filt = {d: (r if r > 1 else 0) for d, r in rel.items()}
        total_rel = sum(1 for v in rel.values() if v > 1)
        for k in k_values:
            dcg = sum(filt.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ids[:k]))
            ideal = sorted((v for v in filt.values() if v > 0), reverse=True)[:k]
            idcg = sum(v / math.log2(i + 2) for i, v in enumerate(ideal))
            per.setdefault(f"ndcg_at_{k}", []).append(dcg / idcg if idcg else 0.0)
            hits = sum(1 for d in ids[:k] if rel.get(d, 0) > 1)
            per.setdefault(f"recall_at_{k}", []).append(hits / total_rel if total_rel else 0.0)
            mrr = next((1.0 / (i + 1) for i, d in enumerate(ids[:k]) if rel.get(d, 0) > 1), 0.0)
            per.setdefault(f"mrr_at_{k}", []).append(mrr)
    return {key: sum(v) / len(v) if v else 0.0 for key, v in per.items()}


def official_dense_search(model, corpus: dict[str, str], queries: dict[str, str], top_k: int = 1000,
                          batch_size: int = 128, corpus_chunk_size: int = 50000) -> dict[str, dict[str, float]]:
    """``DenseRetrievalExactSearch.search`` of coreb_runner: encode every query and the whole corpus
    (longest documents first, in chunks), cosine similarity with torch, top-k per query.
    ``model`` has sentence-transformers' ``encode`` (a SentenceTransformer, or the official profile's
    ``RunnerEncoder``, which returns numpy: both are turned into tensors here).

    >>> import numpy as np
    >>> class Counts:  # a toy encoder: counts of "x" and "y"
    ...     def encode(self, texts, **kwargs):
    ...         return np.array([[t.count("x"), t.count("y")] for t in texts], dtype=np.float32)
    >>> hits = official_dense_search(Counts(), {"d1": "xx", "d2": "y"}, {"q": "x"}, top_k=2)
    >>> {doc: round(score, 3) for doc, score in sorted(hits["q"].items())}
    {'d1': 1.0, 'd2': 0.0}
    """
    import heapq

    import torch

    query_ids = list(queries)
    q = torch.as_tensor(model.encode([queries[i] for i in query_ids], batch_size=batch_size, convert_to_tensor=True,
                                     show_progress_bar=False))
    corpus_ids = sorted(corpus, key=lambda k: len(corpus[k]), reverse=True)
    heaps: dict[str, list] = {qid: [] for qid in query_ids}
    for start in range(0, len(corpus_ids), corpus_chunk_size):
        ids = corpus_ids[start:start + corpus_chunk_size]
        d = torch.as_tensor(model.encode([corpus[i] for i in ids], batch_size=batch_size, convert_to_tensor=True,
                                         show_progress_bar=False))
        scores = torch.nn.functional.normalize(q, dim=1) @ torch.nn.functional.normalize(d, dim=1).T
        scores[torch.isnan(scores)] = -1
        values, idx = torch.topk(scores, min(top_k + 1, scores.shape[1]), dim=1, largest=True, sorted=False)
        for qi, qid in enumerate(query_ids):
            for sub, score in zip(idx[qi].tolist(), values[qi].tolist()):
                cid = ids[sub]
                if cid != qid:
                    if len(heaps[qid]) < top_k:
                        heapq.heappush(heaps[qid], (score, cid))
                    else:
                        heapq.heappushpop(heaps[qid], (score, cid))
    return {qid: {cid: s for s, cid in heap} for qid, heap in heaps.items()}
