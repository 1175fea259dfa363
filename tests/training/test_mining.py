"""Hard negatives mined from a run on CoREB-mini: the run's top non-positives in its order, never a rel=2 document
nor the C2C anchor, traps marked; the triplets load with ``datasets`` and train as sentence-transformers' n-tuples."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from coreb_core.data.store import Store
from coreb_core.runs.folders import read_hits
from tests.builders import run_cli

RELEASE = "demo_v2603"


@pytest.fixture
def bm25(lexical_cache, monkeypatch):
    root, runs = lexical_cache
    monkeypatch.setenv("COREB_CACHE", str(root))
    return root, runs["bm25"]


def test_the_negatives_are_the_runs_top_non_positives(bm25, tmp_path):
    root, run = bm25
    out = tmp_path / "mined.jsonl"
    done = run_cli("mine", "--run", run, "--out", str(out), "--k", "4", "--format", "samples")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    hits = read_hits(run, root)
    hits = hits[hits["in_top_k"]].sort_values(["task", "query_id", "rank"])
    with Store(RELEASE, root) as store:
        grades = {(q, d): int(r) for q, d, r in store.sql("SELECT query_id, doc_id, relevance FROM qrels").fetchall()}
        anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE anchor_code_id IS NOT NULL")
                       .fetchall())
    ranked = {q: list(g["doc_id"]) for q, g in hits.groupby("query_id")}
    for r in rows:
        q = r["query_id"]
        expected = [d for d in ranked[q] if grades.get((q, d)) != 2 and d != anchors.get(q)][:4]
        assert [p["id"] for p in r["hard_neg"]] == expected, q
        for p in r["hard_neg"]:
            assert p["grade"] == {1: "trap", 0: "judged_negative"}.get(grades.get((q, p["id"])), "unjudged")
            assert p["rank"] == ranked[q].index(p["id"]) + 1
        assert grades[(q, r["pos"][0]["id"])] == 2 and r["easy_neg"] == []
    # every (query, rel=2 document) of a query the run lists is a sample
    with Store(RELEASE, root) as store:
        positives = store.sql("SELECT count(*) FROM qrels WHERE relevance = 2").fetchone()[0]
    assert len(rows) == positives
    assert any(p["grade"] == "trap" for r in rows for p in r["hard_neg"])
    assert "traps (rel=1)" in done.stdout


def test_triplets_load_with_datasets_in_both_formats(bm25, tmp_path):
    import datasets

    _, run = bm25
    for name, loader in (("t.jsonl", "json"), ("t.parquet", "parquet")):
        out = tmp_path / name
        done = run_cli("mine", "--run", run, "--out", str(out), "--k", "3")
        assert done.returncode == 0, done.stderr
        loaded = datasets.load_dataset(loader, data_files=str(out), split="train")
        assert loaded.column_names == ["anchor", "positive", "negative_1", "negative_2", "negative_3"]
        frame = loaded.to_pandas()
        assert not (frame["positive"] == frame["negative_1"]).any() and len(frame) > 100


def test_no_kept_negative_ranks_below_a_left_out_non_positive(bm25):
    from coreb_core.training.mining import mine_run

    root, run = bm25
    mined = mine_run(run, k=3, root=root)
    t2c = mined.negatives[mined.negatives["task"] == "t2c"]
    hits = read_hits(run, root)
    hits = hits[(hits["task"] == "t2c") & hits["in_top_k"]]
    worst = t2c.groupby("query_id")["rank"].max()
    with Store(RELEASE, root) as store:
        pos = store.df("SELECT query_id, doc_id FROM qrels WHERE task = 't2c' AND relevance = 2")
    others = hits.merge(pos, on=["query_id", "doc_id"], how="left", indicator=True)
    kept = others.set_index(["query_id", "doc_id"]).index.isin(t2c.set_index(["query_id", "doc_id"]).index)
    others = others[(others["_merge"] == "left_only") & ~kept]
    above = others.join(worst.rename("worst"), on="query_id")
    assert not (above["rank"] < above["worst"]).any()
    assert isinstance(t2c, pd.DataFrame) and len(t2c) == 3 * t2c["query_id"].nunique()


def test_mining_a_minilm_run_agrees_with_sentence_transformers(app_cache, default_run_ids):
    """``util.mine_hard_negatives`` (top strategy) with the same model, encoded as the run's official profile
    encodes (mean pooling, 512 tokens), every T2C positive given, finds our top 3 negatives for (nearly) every
    (query, positive) once its guard is taken into account: it keys the positives on the query's text, so where
    several queries share a text (every T2C text of CoREB-mini, e.g. a retro query and its language-constrained
    twins) it leaves out the positives of them all, which may be this query's traps; ours keys on the query id."""
    import datasets
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.util import mine_hard_negatives

    from coreb_core.retrieval.models import bundled_minilm_path
    from coreb_core.training.mining import mine_run

    mined = mine_run(default_run_ids["minilm"], k=30, root=app_cache)
    t2c = [s for s in mined.samples if s.task == "text2code"]
    positives_of_text: dict[str, set[str]] = {}
    for s in t2c:
        positives_of_text.setdefault(s.query, set()).add(s.pos[0].id)
    ours = pd.DataFrame([[s.query, s.pos[0].text, *[p.text for p in s.hard_neg
                                                     if p.id not in positives_of_text[s.query]][:3]] for s in t2c],
                        columns=["anchor", "positive", "negative_1", "negative_2", "negative_3"])
    ours = ours[ours["anchor"].isin(ours["anchor"].drop_duplicates().head(120))]  # every document, 120 queries
    with Store(RELEASE, app_cache) as store:
        corpus = store.df("SELECT content FROM documents WHERE corpus = 'code' ORDER BY doc_id")["content"].tolist()
    model = SentenceTransformer(bundled_minilm_path(), device="cpu")
    model.max_seq_length = 512
    theirs = mine_hard_negatives(datasets.Dataset.from_pandas(ours[["anchor", "positive"]], preserve_index=False),
                                 model, corpus=corpus, num_negatives=3, sampling_strategy="top",
                                 output_format="n-tuple", batch_size=64, verbose=False).to_pandas()
    both = ours.drop_duplicates().merge(theirs.drop_duplicates(), on=["anchor", "positive"], suffixes=("", "_st"))
    negatives = ["negative_1", "negative_2", "negative_3"]
    same = sum(list(r[negatives]) == list(r[[f"{n}_st" for n in negatives]]) for _, r in both.iterrows())
    print(f"\nmine_hard_negatives agrees on {same} of {len(both)} (query, positive) rows")
    assert len(both) == len(ours.drop_duplicates()) > 200
    assert same / len(both) >= 0.99, f"{same} of {len(both)} (query, positive) rows mined alike"  # measured: all


@pytest.mark.parametrize("args, message", [
    (["--run", "no_such_run"], "not found"),
    (["--run", "RUN", "--k", "0"], "must be a whole number of at least 1"),
    (["--run", "RUN", "--format", "pairs"], "invalid choice: 'pairs'"),
])
def test_bad_arguments_get_one_error_line(bm25, tmp_path, args, message):
    out = tmp_path / "m.jsonl"
    done = run_cli("mine", *[bm25[1] if a == "RUN" else a for a in args], "--out", str(out))
    assert done.returncode == 2 and done.stderr.count("error:") == 1 and message in done.stderr, done.stderr
    assert not out.exists()
