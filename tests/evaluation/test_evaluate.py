"""Evaluation engine: hand-checked micro fixtures, then parity with the official procedure."""
from __future__ import annotations

import zlib
from math import log2

import numpy as np
import pytest

from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import aggregate, evaluate, summary, trap_table
from coreb_core.evaluation.official import official_c2c_without_anchor, official_evaluate
from coreb_core.evaluation.schemes import TREC, V1, V2, Scheme
from coreb_core.runs.hits import hits_from_lists, hits_from_scores
from tests.builders import Q1, Q2, QC, code, row, tiny_hits

# Q1 qrels: code1, code2, code4 positive (rel 2); code3 trap (rel 1).
# Run: code3 (trap) @1, code1 @2, code5 (unjudged) @3, code2 @4; code4 not retrieved.
Q1_LIST = [code(3), code(1), code(5), code(2)]


def test_v2_micro_fixture(tiny_store):
    m = row(evaluate(tiny_store, tiny_hits(tiny_store, {Q1: Q1_LIST}), V2), Q1)
    dcg = 1 / log2(3) + 1 / log2(5)  # positives at ranks 2 and 4, gain 1
    idcg = 1 + 1 / log2(3) + 1 / log2(4)  # three positives
    assert m["ndcg_at_10"] == pytest.approx(dcg / idcg)
    assert m["ndcg_at_1"] == 0.0
    assert m["ndcg_at_3"] == pytest.approx((1 / log2(3)) / idcg)
    assert m["recall_at_10"] == pytest.approx(2 / 3)
    assert m["recall_at_3"] == pytest.approx(1 / 3)
    assert m["precision_at_3"] == pytest.approx(1 / 3)
    assert m["precision_at_10"] == pytest.approx(2 / 10)
    assert m["map_at_10"] == pytest.approx((1 / 2 + 2 / 4) / 3)
    assert m["mrr_at_10"] == pytest.approx(1 / 2)
    assert m["mrr_at_1"] == 0.0
    assert m["hit_rate_at_1"] == 0.0 and m["hit_rate_at_3"] == 1.0


def test_v1_and_trec_micro_fixture(tiny_store):
    hits = tiny_hits(tiny_store, {Q1: Q1_LIST})
    v1 = row(evaluate(tiny_store, hits, V1), Q1)
    # v1: all four judged documents relevant with gain 1; retrieved at ranks 1, 2, 4
    assert v1["ndcg_at_10"] == pytest.approx((1 + 1 / log2(3) + 1 / log2(5)) /
                                             (1 + 1 / log2(3) + 1 / log2(4) + 1 / log2(5)))
    assert v1["mrr_at_10"] == 1.0
    assert v1["map_at_10"] == pytest.approx((1 / 1 + 2 / 2 + 3 / 4) / 4)
    trec = row(evaluate(tiny_store, hits, TREC), Q1)
    # trec: gain = grade (trap 1, positive 2)
    assert trec["ndcg_at_10"] == pytest.approx((1 + 2 / log2(3) + 2 / log2(5)) /
                                               (2 + 2 / log2(3) + 2 / log2(4) + 1 / log2(5)))
    assert trec["recall_at_10"] == pytest.approx(3 / 4)


def test_file_scheme_needs_stored_qrels(tiny_store):
    from coreb_core.errors import CorebError

    with pytest.raises(CorebError, match="no stored qrels 'v1'"):
        evaluate(tiny_store, tiny_hits(tiny_store, {Q1: Q1_LIST}), Scheme.parse("file:v1"))


def test_anchor_exclusion_micro_fixture(tiny_store):
    # QC anchor code1; positives code2, code4; trap code3.  Run: anchor@1, trap@2, code2@3, code5@4, code4@5
    hits = tiny_hits(tiny_store, {QC: [code(1), code(3), code(2), code(5), code(4)]})
    idcg = 1 + 1 / log2(3)
    on = row(evaluate(tiny_store, hits, V2, anchor_exclusion=True), QC)
    off = row(evaluate(tiny_store, hits, V2, anchor_exclusion=False), QC)
    assert on["ndcg_at_10"] == pytest.approx((1 / log2(3) + 1 / log2(5)) / idcg)  # ranks 2 and 4 after removal
    assert off["ndcg_at_10"] == pytest.approx((1 / log2(4) + 1 / log2(6)) / idcg)  # ranks 3 and 5
    assert on["mrr_at_10"] == pytest.approx(1 / 2) and off["mrr_at_10"] == pytest.approx(1 / 3)
    official = official_c2c_without_anchor({QC: [code(1), code(3), code(2), code(5), code(4)]},
                                           {QC: {code(2): 2, code(4): 2, code(3): 1}}, {QC: code(1)})
    assert on["ndcg_at_10"] == pytest.approx(official["ndcg_at_10"])
    traps = row(trap_table(tiny_store, hits), QC)
    assert (traps["first_positive_rank"], traps["first_trap_rank"], traps["trap_at_1"]) == (2, 1, True)


def test_trap_statistics_micro_fixture(tiny_store):
    hits = tiny_hits(tiny_store, {Q1: Q1_LIST, Q2: [code(1), code(2), code(3)]})
    t = trap_table(tiny_store, hits).set_index("query_id")
    q1 = t.loc[Q1]
    assert q1["first_positive_rank"] == 2 and q1["first_trap_rank"] == 1
    assert q1["traps_above_first_positive"] == 1 and q1["trap_above_positive"] and q1["trap_at_1"]
    assert q1["traps_in_top_10"] == 1
    assert q1["idcg_at_10"] == pytest.approx(1 + 1 / log2(3) + 1 / log2(4))
    v1 = (1 + 1 / log2(3) + 1 / log2(5)) / (1 + 1 / log2(3) + 1 / log2(4) + 1 / log2(5))
    v2 = (1 / log2(3) + 1 / log2(5)) / (1 + 1 / log2(3) + 1 / log2(4))
    assert q1["v1_minus_v2_ndcg_at_10"] == pytest.approx(v1 - v2)
    q2 = t.loc[Q2]  # positive first, then traps code2 and code3
    assert q2["first_positive_rank"] == 1 and q2["traps_above_first_positive"] == 0 and not q2["trap_at_1"]
    assert q2["traps_in_top_10"] == 2 and q2["first_trap_rank"] == 2


def test_missing_and_empty_queries(tiny_store):
    # Q2 absent from the run: not evaluated. QC with an empty list: evaluated, scores 0.
    hits = tiny_hits(tiny_store, {Q1: Q1_LIST, QC: []})
    per_query = evaluate(tiny_store, hits, V2)
    assert sorted(per_query["query_id"]) == [QC, Q1]
    assert row(per_query, QC)["ndcg_at_10"] == 0.0
    s = summary(per_query)
    assert s["tasks"]["t2c"]["queries"] == 1 and s["tasks"]["c2c"]["queries"] == 1
    assert s["overall_mean_of_tasks"]["ndcg_at_10"] == pytest.approx(row(per_query, Q1)["ndcg_at_10"] / 2)


def test_overall_means_are_labelled_and_differ(tiny_store):
    hits = tiny_hits(tiny_store, {Q1: Q1_LIST, Q2: [code(1)], QC: [code(2), code(4)]})  # Q2, QC perfect
    s = summary(evaluate(tiny_store, hits, V2))
    t2c = (row(evaluate(tiny_store, hits, V2), Q1)["ndcg_at_10"] + 1.0) / 2
    assert s["tasks"]["t2c"]["ndcg_at_10"] == pytest.approx(t2c)
    assert s["overall_mean_of_tasks"]["ndcg_at_10"] == pytest.approx((t2c + 1.0) / 2)
    assert s["overall_query_weighted"]["ndcg_at_10"] == pytest.approx((2 * t2c + 1.0) / 3)


# ------------------------------------------------------------------ parity over CoREB-mini

def _release_data(store: Store, task: str):
    corpus = "text" if task == "c2t" else "code"
    qids = [r[0] for r in store.sql("SELECT query_id FROM queries WHERE task = ? ORDER BY 1", [task]).fetchall()]
    docs = [r[0] for r in store.sql("SELECT doc_id FROM documents WHERE corpus = ? ORDER BY 1", [corpus]).fetchall()]
    qrels: dict[str, dict[str, int]] = {}
    for q, d, r in store.sql("SELECT query_id, doc_id, relevance FROM qrels WHERE task = ?", [task]).fetchall():
        qrels.setdefault(q, {})[d] = r
    return qids, docs, qrels


def _make_run(kind: str, qids, docs, qrels, rng) -> dict[str, dict[str, float]]:
    scores = rng.random((len(qids), len(docs)))
    col = {d: i for i, d in enumerate(docs)}
    if kind == "ties":
        scores = np.round(scores, 1)
    if kind == "traps_everywhere":
        for i, q in enumerate(qids):
            for d, r in qrels.get(q, {}).items():
                scores[i, col[d]] = 2.0 + rng.random() if r == 1 else rng.random() * 0.05
    depth = 5 if kind == "short_lists" else 100
    keep = {} if kind == "short_lists" else {q: list(qrels.get(q, {})) for q in qids}
    run: dict[str, dict[str, float]] = {}
    for i, q in enumerate(qids):
        order = np.lexsort((-np.arange(len(docs)), -scores[i]))  # score desc, doc id desc
        chosen = list(order[:depth]) + [col[d] for d in keep.get(q, []) if col[d] not in set(order[:depth])]
        run[q] = {docs[j]: float(scores[i, j]) for j in chosen}
    if kind == "missing_queries":
        run = {q: v for j, (q, v) in enumerate(run.items()) if j % 3}
    if kind == "empty_lists":
        run = {q: ({} if j % 5 == 0 else v) for j, (q, v) in enumerate(run.items())}
    return run


def _ours(store, task, run, scheme, anchor_exclusion=False):
    task_of = {q: task for q in run}
    hits = hits_from_lists(task_of, {q: list(v.items()) for q, v in run.items()}, "parity")
    return evaluate(store, hits, scheme, anchor_exclusion=anchor_exclusion)


RUN_KINDS = ["random", "ties", "missing_queries", "empty_lists", "traps_everywhere", "short_lists"]
PARITY_KS = (1, 3, 5, 10, 20, 100)


@pytest.mark.parametrize("kind", RUN_KINDS)
@pytest.mark.parametrize("task", ["t2c", "c2c", "c2t"])
def test_v2_equals_official_procedure(mini_data, kind, task):
    with Store("demo_v2603", mini_data) as store:
        qids, docs, qrels = _release_data(store, task)
        run = _make_run(kind, qids, docs, qrels, np.random.default_rng(zlib.crc32(f"{kind}-{task}".encode())))  # the same seed in every process
        ours = _ours(store, task, run, V2)
    official = official_evaluate(qrels, {q: dict(v) for q, v in run.items()}, PARITY_KS, round_to=None)
    per_query_official = official_evaluate(qrels, {q: dict(v) for q, v in run.items()}, PARITY_KS, per_query=True)
    assert len(ours) == len(per_query_official)  # the same queries are scored
    for k in PARITY_KS:
        for ours_name, off_name in (("ndcg", "NDCG"), ("recall", "Recall"), ("precision", "P"), ("map", "MAP")):
            assert ours[f"{ours_name}_at_{k}"].mean() == pytest.approx(official[f"{off_name}@{k}"], abs=1e-6), \
                (kind, task, ours_name, k)


@pytest.mark.parametrize("kind", RUN_KINDS)
def test_trec_scheme_equals_plain_pytrec_eval(mini_data, kind):
    import pytrec_eval

    with Store("demo_v2603", mini_data) as store:
        qids, docs, qrels = _release_data(store, "t2c")
        run = _make_run(kind, qids, docs, qrels, np.random.default_rng(7))
        ours = _ours(store, "t2c", run, TREC).set_index("query_id")
    measures = {"ndcg_cut.1,3,5,10,20,100", "recall.1,3,5,10,20,100", "P.1,3,5,10,20,100", "map_cut.1,3,5,10,20,100"}
    plain = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    assert set(plain) == set(ours.index)
    for q, m in plain.items():
        for k in PARITY_KS:
            assert ours.loc[q, f"ndcg_at_{k}"] == pytest.approx(m[f"ndcg_cut_{k}"], abs=1e-9)
            assert ours.loc[q, f"recall_at_{k}"] == pytest.approx(m[f"recall_{k}"], abs=1e-9)
            assert ours.loc[q, f"precision_at_{k}"] == pytest.approx(m[f"P_{k}"], abs=1e-9)
            assert ours.loc[q, f"map_at_{k}"] == pytest.approx(m[f"map_cut_{k}"], abs=1e-9)


def test_c2c_anchor_exclusion_equals_the_runner(mini_data):
    with Store("demo_v2603", mini_data) as store:
        qids, docs, qrels = _release_data(store, "c2c")
        anchors = dict(store.sql("SELECT query_id, anchor_code_id FROM queries WHERE task = 'c2c'").fetchall())
        scores = np.random.default_rng(3).random((len(qids), len(docs)))
        for i, q in enumerate(qids):  # the anchor finds itself first, as in a real dense run
            scores[i, docs.index(anchors[q])] = 1.5
        hits = hits_from_scores("c2c", qids, docs, scores, top_k=100, keep={q: list(qrels[q]) + [anchors[q]] for q in qids})
        ours = evaluate(store, hits, V2, anchor_exclusion=True)
    ranked = {q: g.sort_values("rank")["doc_id"].tolist() for q, g in hits.groupby("query_id")}
    official = official_c2c_without_anchor(ranked, qrels, anchors)
    for k in (1, 5, 10, 20):
        for name in ("ndcg", "recall", "mrr"):
            assert ours[f"{name}_at_{k}"].mean() == pytest.approx(official[f"{name}_at_{k}"], abs=1e-9)


def test_c2t_match_label_zero_queries_score_zero(mini_data):
    with Store("demo_v2603", mini_data) as store:
        qids, docs, qrels = _release_data(store, "c2t")
        negatives = [r[0] for r in store.sql("SELECT query_id FROM queries WHERE subtask = 'c2t_match' AND label = 0"
                                             ).fetchall()]
        # Even a run that puts the paired (non-matching) text first scores 0: the query has no positive.
        run = {q: {d: 1.0 for d in qrels[q]} for q in negatives}
        ours = _ours(store, "c2t", run, V2)
    assert len(ours) == len(negatives) > 0
    assert (ours["ndcg_at_10"] == 0).all() and (ours["recall_at_100"] == 0).all()


def test_aggregate_by_subtask_matches_per_query_means(mini_data):
    with Store("demo_v2603", mini_data) as store:
        qids, docs, qrels = _release_data(store, "t2c")
        run = _make_run("random", qids, docs, qrels, np.random.default_rng(11))
        per_query = _ours(store, "t2c", run, V2)
        table = aggregate(store, per_query, "subtask").set_index("subtask")
        facts = dict(store.sql("SELECT query_id, subtask FROM queries").fetchall())
    per_query["subtask"] = per_query["query_id"].map(facts)
    expected = per_query.groupby("subtask")["ndcg_at_10"].mean()
    assert table["ndcg_at_10"].to_dict() == pytest.approx(expected.to_dict())
    assert table["queries"].sum() == len(per_query)


def test_batched_analysis_equals_one_run_at_a_time(mini_data):
    from coreb_core.evaluation.evaluate import analyse_many

    with Store("demo_v2603", mini_data) as store:
        qids, docs, qrels = _release_data(store, "t2c")
        runs = {}
        for seed in (1, 2):
            run = _make_run("random", qids, docs, qrels, np.random.default_rng(seed))
            runs[f"r{seed}"] = hits_from_lists({q: "t2c" for q in run}, {q: list(v.items()) for q, v in run.items()}, "x")
        tables = analyse_many(store, runs, (V2, V1), traps=True, groupings=("subtask",))
        for name, hits in runs.items():
            single = evaluate(store, hits, V1)
            batched = tables.per_query("v1")[tables.per_query("v1")["run"] == name].drop(columns="run").reset_index(drop=True)
            assert batched["query_id"].astype(str).tolist() == single["query_id"].astype(str).tolist()
            assert np.allclose(batched["ndcg_at_10"], single["ndcg_at_10"])
            traps = trap_table(store, hits)
            assert np.allclose(tables.traps[tables.traps["run"] == name]["v1_minus_v2_ndcg_at_10"],
                               traps["v1_minus_v2_ndcg_at_10"])
            grouped = tables.groups("v2", "subtask")[tables.groups("v2", "subtask")["run"] == name].set_index("subtask")
            expected = aggregate(store, evaluate(store, hits, V2), "subtask").set_index("subtask")
            assert grouped["ndcg_at_10"].to_dict() == pytest.approx(expected["ndcg_at_10"].to_dict())


def test_row_order_of_a_run_does_not_change_any_number(lexical_cache):
    """Stored runs are grouped by query in rank order, and the compiled scan reads them in one pass;
    any other order (shuffled rows, a query's rows split apart) takes the sort-first path and must
    give the same numbers, drops included (C2C anchors, own ids, v1 noise texts)."""
    from coreb_core.defaults import DEFAULT_RELEASE
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import read_hits

    root, runs = lexical_cache  # a BM25 run of the default release, as the first launch makes
    hits = read_hits(runs["bm25"], root)
    shuffled = hits.sample(frac=1.0, random_state=7).reset_index(drop=True)
    with Store(DEFAULT_RELEASE, root) as store:
        ordered = analyse_many(store, {"r": hits}, (V2, V1), traps=True, groupings=("subtask",))
        mixed = analyse_many(store, {"r": shuffled}, (V2, V1), traps=True, groupings=("subtask",))
        for scheme in ("v2", "v1"):
            a, b = ordered.per_query(scheme), mixed.per_query(scheme)
            assert len(a) == 1200 and a.equals(b)
        assert ordered.traps.equals(mixed.traps)
        assert ordered.groups("v2", "subtask").equals(mixed.groups("v2", "subtask"))
        # The drops matter on this run: v1 drops C2T noise texts and C2C anchors leave every list.
        assert (a["ndcg_at_10"] != ordered.per_query("v2")["ndcg_at_10"]).any()


def test_dropped_hits_move_lower_hits_up_by_hand():
    from coreb_core.evaluation.judged_pairs import dropped_above

    # q0 lists ranks 1..4 with rank 2 dropped; q1's rows come first and out of rank order, with a tie
    # at rank 2 (a dropped hit never counts a hit of the same rank as below it).
    qcode = np.array([1, 1, 1, 0, 0, 0, 0])
    rank = np.array([3.0, 2.0, 2.0, 1.0, 2.0, 3.0, 4.0])
    dropped = np.array([False, True, False, False, True, False, False])
    assert dropped_above(qcode, rank, dropped).tolist() == [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]
    # An infinite rank (the empty-list marker) drops nothing; a negative query code counts 0.
    assert dropped_above(np.array([0, 0, -1]), np.array([np.inf, np.inf, 1.0]),
                         np.array([True, False, True])).tolist() == [0.0, 0.0, 0.0]
