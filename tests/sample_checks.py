"""The properties every protocol sample must have, checked straight from the release's tables (not through the code
that made the samples): shared by the CoREB-mini tests (tests/training/) and the real-release ones (tests/real/)."""
from __future__ import annotations

import json
from pathlib import Path

from coreb_core.data.store import Store

LONG = {"t2c": "text2code", "c2c": "code2code", "c2t": "code2text"}
CORPUS = {"t2c": "code", "c2c": "code", "c2t": "text"}
KEYS = ["query_id", "task", "subtask", "query", "pos", "hard_neg", "easy_neg"]


def check_sample_lines(store: Store, path: Path, hard: int = 3, easy: int = 29) -> list[dict]:
    """Every line of the samples file ``path`` holds the properties of ``samples``' first line (the issue's list);
    returns the parsed lines. An AssertionError names the first line and property that fails."""
    q = store.df("SELECT task, query_id, subtask, query, problem_id, anchor_code_id FROM queries")
    queries = {r.query_id: r for r in q.itertuples(index=False)}
    grades = {(r.query_id, r.doc_id): int(r.relevance) for r in store.df("SELECT * FROM qrels").itertuples(index=False)}
    docs = store.df("SELECT corpus, doc_id, content, problem_id FROM documents")
    text = {(r.corpus, r.doc_id): r.content for r in docs.itertuples(index=False)}
    problem = {(r.corpus, r.doc_id): r.problem_id for r in docs.itertuples(index=False)}
    traps_of: dict[str, int] = {}
    for (qid, _), g in grades.items():
        traps_of[qid] = traps_of.get(qid, 0) + (g == 1)
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for n, s in enumerate(rows, start=1):
        where = f"line {n} ({s.get('query_id')})"
        assert list(s) == KEYS, where
        query = queries[s["query_id"]]
        task, corpus = query.task, CORPUS[query.task]
        assert s["task"] == LONG[task] and s["subtask"] == query.subtask and s["query"] == query.query, where
        assert traps_of.get(s["query_id"], 0) >= 1, f"{where}: a query without traps"
        assert len(s["pos"]) == 1 and grades[(s["query_id"], s["pos"][0]["id"])] == 2, where
        assert len(s["hard_neg"]) == min(hard, traps_of[s["query_id"]]), where
        assert all(grades.get((s["query_id"], p["id"])) == 1 for p in s["hard_neg"]), where
        assert len(s["easy_neg"]) == easy, where
        for p in s["easy_neg"]:
            assert (s["query_id"], p["id"]) not in grades, f"{where}: judged easy negative {p['id']}"
            assert p["id"] != query.anchor_code_id, f"{where}: the anchor as an easy negative"
            assert problem[(corpus, p["id"])] != query.problem_id, f"{where}: an easy negative of its own problem"
        every = s["pos"] + s["hard_neg"] + s["easy_neg"]
        assert len({p["id"] for p in every}) == len(every), f"{where}: a document twice"
        assert len({p["text"] for p in every}) == len(every), f"{where}: a text twice"
        assert all(p["text"] == text[(corpus, p["id"])] for p in every), f"{where}: a text not the corpus's"
    return rows
