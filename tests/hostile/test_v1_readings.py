"""The two readings of CoREB's v1 rules for T2C: the paper's (scheme ``v1``: every solution of the queried
problem in the query's language constraint) and the official generator code's (scheme ``v1_gen``: the passing
solutions only on canonical and full retro, every solution on search). C2C and C2T are the same under both.
Hand-checked on the tiny dump, then the overall deflation of the real release under each reading."""
from __future__ import annotations

from math import log2

import pytest

from coreb_core.evaluation.evaluate import analyse_many, evaluate
from coreb_core.evaluation.schemes import SIDEBAR_SCHEMES, V1, V1_GEN, V2, Scheme
from tests.builders import Q1, Q2, QC, QT, code, row, tiny_hits


def text(n: int, noise: int | None = None) -> str:
    return f"text_v202601_{n:05d}" + (f"_noise{noise}" if noise else "")


def test_v1_gen_is_a_named_scheme_beside_v1():
    assert Scheme.parse("v1_gen") == V1_GEN and str(V1_GEN) == "v1_gen"
    assert (V1_GEN.qrels_view, V1_GEN.drops_noise_texts, V1_GEN.keeps_anchor) == ("qrels_v1_gen", True, False)
    assert "passing solutions only" in V1_GEN.description and "generator" in V1_GEN.description
    assert "paper" in V1.description and "v1_gen" in V1.description
    assert "v1_gen" in SIDEBAR_SCHEMES


def test_v1_gen_view_by_hand(tiny_store):
    # P1's solutions: code1 (python, pass), code2 (cpp, pass), code3 (python, FAIL), code4 (java, pass).
    # Q1 canonical_retro_any: passing only -> code1, code2, code4; code3 (a v2 trap) stays judged with grade 0.
    # Q2 search_python: every python solution -> code1, code3; code2 (a v2 trap) grade 0.
    got = tiny_store.sql("SELECT query_id, doc_id, relevance FROM qrels_v1_gen WHERE task = 't2c' "
                         "ORDER BY query_id, doc_id").fetchall()
    assert got == [(Q1, code(1), 1), (Q1, code(2), 1), (Q1, code(3), 0), (Q1, code(4), 1),
                   (Q2, code(1), 1), (Q2, code(2), 0), (Q2, code(3), 1)]
    same = ("SELECT task, query_id, doc_id, relevance FROM {} WHERE task <> 't2c' ORDER BY ALL")
    assert tiny_store.sql(same.format("qrels_v1_gen")).fetchall() == tiny_store.sql(same.format("qrels_v1_rules")).fetchall()


def test_v1_gen_counts_passing_solutions_only_on_canonical_retro(tiny_store):
    # Q1: the failing code3 at rank 1, then code1, code2, code4.
    hits = tiny_hits(tiny_store, {Q1: [code(3), code(1), code(2), code(4)]})
    gen, paper, v2 = (row(evaluate(tiny_store, hits, s), Q1) for s in (V1_GEN, V1, V2))
    assert paper["ndcg_at_10"] == pytest.approx(1.0)  # every solution relevant, all four on top
    expected = (1 / log2(3) + 1 / log2(4) + 1 / log2(5)) / (1 + 1 / log2(3) + 1 / log2(4))
    assert gen["ndcg_at_10"] == pytest.approx(expected)
    assert gen["recall_at_1"] == 0.0 and gen["mrr_at_10"] == pytest.approx(1 / 2)
    assert gen.to_dict() == pytest.approx(v2.to_dict())  # here the generator's positives are v2's


def test_v1_gen_counts_every_solution_on_search_and_reads_c2c_c2t_as_v1(tiny_store):
    hits = tiny_hits(tiny_store, {Q2: [code(2), code(3), code(1)], QC: [code(1), code(3), code(2), code(5), code(4)],
                                  QT: [text(1, 1), text(1, 4), text(2), text(1), text(1, 2)]})
    gen, paper = evaluate(tiny_store, hits, V1_GEN), evaluate(tiny_store, hits, V1)
    for query in (Q2, QC, QT):
        assert row(gen, query).to_dict() == pytest.approx(row(paper, query).to_dict()), query
    # Q2: code3 (failing python) counts under both readings: relevant at ranks 2 and 3
    assert row(gen, Q2)["ndcg_at_10"] == pytest.approx((1 / log2(3) + 1 / log2(4)) / (1 + 1 / log2(3)))
    assert row(gen, QT)["ndcg_at_10"] == pytest.approx(1 / log2(3))  # the noise texts leave the list


def test_overall_deflation_of_the_real_release_under_each_reading(real_cache):
    """Issue 31's figures: BM25's overall (query-weighted) v1 - v2 nDCG@10 on release_v2603 is 12.7 points under
    the paper's reading and 10.9 under the generator's; bm25s-mteb 7.9 and 6.7. The generator's T2C relevant
    pairs are exactly the v2 positives, so its T2C drop is 0."""
    from coreb_core.data.store import Store
    from coreb_core.runs.folders import list_runs, read_hits

    runs = {m.model: m.run_id for m in list_runs("release_v2603", real_cache)}
    with Store("release_v2603", real_cache) as store:
        differ = store.sql("SELECT count(*) FROM (SELECT query_id, doc_id FROM qrels_v1_gen WHERE task = 't2c' AND "
                           "relevance = 1 EXCEPT SELECT query_id, doc_id FROM qrels WHERE task = 't2c' AND relevance = 2)"
                           " UNION ALL SELECT count(*) FROM (SELECT query_id, doc_id FROM qrels WHERE task = 't2c' AND "
                           "relevance = 2 EXCEPT SELECT query_id, doc_id FROM qrels_v1_gen WHERE task = 't2c' AND "
                           "relevance = 1)").fetchall()
        assert differ == [(0,), (0,)]
        tables = analyse_many(store, {m: read_hits(runs[m], real_cache) for m in ("bm25", "bm25s-mteb")},
                              (V2, V1, V1_GEN))
    means = {s: tables.per_query(s).groupby("run", observed=True)["ndcg_at_10"].mean() for s in ("v2", "v1", "v1_gen")}
    drops = {(run, s): round(float(means[s][run] - means["v2"][run]) * 100, 1)
             for run in ("bm25", "bm25s-mteb") for s in ("v1", "v1_gen")}
    assert drops == {("bm25", "v1"): 12.7, ("bm25", "v1_gen"): 10.9, ("bm25s-mteb", "v1"): 7.9,
                     ("bm25s-mteb", "v1_gen"): 6.7}
    t2c = {s: tables.per_query(s).query("task == 't2c'").groupby("run", observed=True)["ndcg_at_10"].mean()
           for s in ("v2", "v1_gen")}
    assert (t2c["v1_gen"] - t2c["v2"]).abs().max() < 1e-12
