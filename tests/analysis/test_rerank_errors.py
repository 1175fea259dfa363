"""coreb_core.analysis.rerank_errors: a reranked run against its first stage (ceiling, broken, rescued, by trap
kind) on hand-written runs over the tiny hand-made release, every figure worked out by hand in the comments;
malformed input; and one real cross-encoder (the bundled MiniLM with a seeded head, tests/rerank_fixtures.py)
reranking a BM25 first stage of CoREB-mini through ``rerank_run``."""
import shutil

import numpy as np
import pytest

from coreb_core.errors import CorebError
from tests.builders import Q1, Q2, QC, QM, QT, code, tiny_hits
from tests.rerank_fixtures import tiny_cross_encoder

T1, T2 = "text_v202601_00001", "text_v202601_00002"
NOISE = [f"text_v202601_00001_noise{i}" for i in (1, 2, 3, 4)]
DEPTH = 3

# The tiny release (tests/dump.py): Q1 positives 1, 2, 4, trap 3 (failing); Q2 positive 1, traps 3 (failing),
# 2 (cpp: wrong language); QC anchor 1, positives 2, 4, trap 3 (failing); QT positive text 1, traps noise 1-3;
# QM positive text 2, no trap. Ranks follow the list order; the reranker saw each first-stage top 3.
FIRST = {
    # trap 3 above positive 1: not right. Ceiling: positive 1 at stored rank 2 <= 3.
    Q1: [code(3), code(1), code(2), code(4), code(5), code(6)],
    # positive 1 first: right. Ceiling: rank 1.
    Q2: [code(1), code(2), code(5), code(3), code(4), code(6)],
    # the anchor (1) leaves the list: positive 2 is evaluator rank 3 but stored rank 4, beyond the candidates
    # (stored ranks 1-3: the anchor took a slot): no ceiling. Right (trap 3 at evaluator rank 4).
    QC: [code(1), code(5), code(6), code(2), code(3), code(4)],
    # positive text 1 first: right. Ceiling: rank 1.
    QT: [T1, NOISE[0], T2, NOISE[1], NOISE[2], NOISE[3]],
    # no trap judged: right at rank 4, but beyond the depth: no ceiling.
    QM: [T1, NOISE[3], NOISE[0], T2, NOISE[1], NOISE[2]],
}
RERANKED = {
    # positive 1 now above trap 3: rescued; the demoted trap is code 3, a failing solution.
    Q1: [code(1), code(3), code(2), code(4), code(5), code(6)],
    # trap 2 promoted over positive 1: broken, by a wrong-language solution.
    Q2: [code(2), code(1), code(5), code(3), code(4), code(6)],
    # the top 3 reordered without a judged document in it: positive 2 still above trap 3, nothing changes.
    QC: [code(6), code(1), code(5), code(2), code(3), code(4)],
    # noise 1 promoted over text 1: broken, by a noise description.
    QT: [NOISE[0], T1, T2, NOISE[1], NOISE[2], NOISE[3]],
    # top 3 reordered, text 2 untouched at rank 4: right in both, nothing changes.
    QM: [NOISE[0], T1, NOISE[3], T2, NOISE[1], NOISE[2]],
}


def _errors(store, first=FIRST, reranked=RERANKED, depth=DEPTH, **kwargs):
    from coreb_core.analysis.rerank_errors import rerank_errors

    return rerank_errors(store, tiny_hits(store, first), tiny_hits(store, reranked), depth, **kwargs)


def test_per_query_flags_and_ranks_as_worked_out_by_hand(tiny_store):
    q = _errors(tiny_store).queries.set_index("query_id")
    assert q.index.tolist() == [QC, QT, QM, Q1, Q2]  # the release's query order (task, then id)
    assert q["ceiling"].to_dict() == {QC: False, QM: False, QT: True, Q1: True, Q2: True}
    assert q["right_first"].to_dict() == {QC: True, QM: True, QT: True, Q1: False, Q2: True}
    assert q["right_reranked"].to_dict() == {QC: True, QM: True, QT: False, Q1: True, Q2: False}
    assert q.index[q["broken"]].tolist() == [QT, Q2] and q.index[q["rescued"]].tolist() == [Q1]
    assert q.loc[[QT, Q2, Q1], "trap_id"].tolist() == [NOISE[0], code(2), code(3)]
    assert q.loc[[QT, Q2, Q1], "trap_kind"].tolist() == ["noise_description", "wrong_language", "failing_solution"]
    assert q.loc[[QC, QM], "trap_kind"].isna().all()
    # Evaluator ranks: QC's anchor left the list, so positive 2 is rank 3 and trap 3 rank 4 (stored 4 and 5).
    assert q.loc[QC, ["first_positive_rank", "first_trap_rank"]].tolist() == [3.0, 4.0]
    assert q.loc[Q1, ["first_positive_rank", "first_trap_rank", "reranked_positive_rank", "reranked_trap_rank"]
                 ].tolist() == [2.0, 1.0, 1.0, 2.0]
    assert np.isnan(q.loc[QM, "first_trap_rank"]) and q.loc[QM, "first_positive_rank"] == 4.0
    assert q.loc[Q2, ["first_trap_wins", "reranked_trap_wins"]].tolist() == [0, 1]


def test_summary_and_kinds_as_worked_out_by_hand(tiny_store):
    errors = _errors(tiny_store)
    s = errors.summary.set_index("task")
    # c2c: QC, no ceiling, right in both. c2t: QT (ceiling, broken), QM (no ceiling, right in both).
    # t2c: Q1 (ceiling, rescued), Q2 (ceiling, broken).
    assert s["queries"].to_dict() == {"c2c": 1, "c2t": 2, "t2c": 2}
    assert s["ceiling_share"].to_dict() == {"c2c": 0.0, "c2t": 0.5, "t2c": 1.0}
    assert s[["right_first", "right_reranked", "broken", "rescued", "net"]].to_dict("index") == {
        "c2c": {"right_first": 1, "right_reranked": 1, "broken": 0, "rescued": 0, "net": 0},
        "c2t": {"right_first": 2, "right_reranked": 1, "broken": 1, "rescued": 0, "net": -1},
        "t2c": {"right_first": 1, "right_reranked": 1, "broken": 1, "rescued": 1, "net": 0}}
    # Every task × kind judged for its queries, with zeros: QC's trap 3 is a failing solution, Q2's trap 2 in cpp.
    assert errors.by_kind.values.tolist() == [
        ["c2c", "failing_solution", 0, 0, 0],
        ["c2t", "noise_description", 1, 0, -1],
        ["t2c", "failing_solution", 0, 1, 1],
        ["t2c", "wrong_language", 1, 0, -1]]
    assert (errors.depth, errors.first_stage, errors.reranked, errors.release) == (DEPTH, None, None, "tiny")


def test_the_anchor_rule_follows_the_option(tiny_store):
    """Without anchor exclusion, QC's anchor (code 1) is an unjudged hit: evaluator ranks are stored ranks."""
    q = _errors(tiny_store, anchor_exclusion=False).queries.set_index("query_id")
    assert q.loc[QC, ["first_positive_rank", "first_trap_rank"]].tolist() == [4.0, 5.0]
    assert not q.loc[QC, "ceiling"]  # the candidates are the stored top 3 either way


def test_a_deeper_depth_reaches_more_positives(tiny_store):
    # depth 4: QC's positive 2 (stored rank 4) and QM's text 2 (rank 4) are now candidates.
    assert _errors(tiny_store, depth=4).summary.set_index("task")["ceiling"].to_dict() == {"c2c": 1, "c2t": 2, "t2c": 2}


def test_stored_runs_by_id(tiny_store):
    from coreb_core.analysis.rerank_errors import rerank_errors_of
    from coreb_core.runs.folders import write_run

    root = tiny_store.root
    write_run(tiny_hits(tiny_store, FIRST), {"run_id": "first", "release": "tiny", "kind": "retrieval"}, root)
    write_run(tiny_hits(tiny_store, RERANKED), {"run_id": "second", "release": "tiny", "kind": "rerank",
                                                "first_stage": "first", "rerank_depth": DEPTH}, root)
    errors = rerank_errors_of("second", root)
    assert (errors.first_stage, errors.reranked, errors.depth) == ("first", "second", DEPTH)
    assert errors.summary.equals(_errors(tiny_store).summary)


def test_malformed_input_is_one_line(tiny_store):
    from coreb_core.analysis.rerank_errors import rerank_errors_of
    from coreb_core.runs.folders import write_run

    without_qm = {q: docs for q, docs in FIRST.items() if q != QM}
    cases = [
        (lambda: _errors(tiny_store, first=without_qm),
         f"the reranked run lists 1 query the first stage does not ({QM}): a reranked run must reorder its "
         "first stage's lists"),
        (lambda: _errors(tiny_store, reranked={q: d for q, d in RERANKED.items() if q != QM}),
         f"the first stage lists 1 query the reranked run does not ({QM}): a reranked run must reorder its "
         "first stage's lists"),
        (lambda: _errors(tiny_store, depth=0), "depth must be a whole number of at least 1, not 0"),
        (lambda: _errors(tiny_store, first={**FIRST, Q1: [code(3), code(1)]}),
         "the first stage stored only its top 2 for 1 queries; reranking the top 3 needs a first stage run with "
         "--top-k 3 or more"),
    ]
    root = tiny_store.root
    write_run(tiny_hits(tiny_store, FIRST), {"run_id": "first", "release": "tiny", "kind": "retrieval"}, root)
    write_run(tiny_hits(tiny_store, RERANKED), {"run_id": "orphan", "release": "tiny", "kind": "rerank",
                                                "first_stage": "gone", "rerank_depth": DEPTH}, root)
    cases += [
        (lambda: rerank_errors_of("first", root),
         "run first is not a reranked run (kind retrieval): it records no first stage and depth"),
        (lambda: rerank_errors_of("orphan", root),
         f"the first stage gone of reranked run orphan is missing (run 'gone' not found in {root / 'runs'})"),
    ]
    for call, message in cases:
        with pytest.raises(CorebError) as err:
            call()
        assert str(err.value) == message and "\n" not in str(err.value)


@pytest.mark.slow  # a model runs (about 10 s on one core): `make test-fast` leaves it out
def test_a_real_cross_encoder_reranks_a_bm25_first_stage(mini_data, tmp_path):
    """rerank_run with a local cross-encoder folder on CoREB-mini's C2C: 144 queries x depth 3, each pair cut to 64
    tokens (what is checked is where the reranker may move documents and how its moves are counted, not how well it
    ranks: 720 pairs of 128 tokens cost about 2.5 times as much)."""
    from coreb_core.analysis.rerank_errors import rerank_errors_of
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.retrieval.pipeline import rerank_run, run_retrieval
    from coreb_core.runs.folders import read_hits, run_meta

    root = tmp_path / "cache"
    shutil.copytree(mini_data, root)
    first = run_retrieval("bm25", "demo_v2603", tasks=("c2c",), root=root, top_k=10).run_id
    model = tiny_cross_encoder(tmp_path / "cross-encoder", max_tokens=64)
    reranked = rerank_run(first, str(model), depth=3, root=root).run_id
    meta = run_meta(reranked, root)
    assert (meta.kind, meta.first_stage, meta.reranker, meta.rerank_depth) == ("rerank", first, str(model), 3)
    errors = rerank_errors_of(reranked, root)
    q = errors.queries
    assert (errors.first_stage, errors.reranked, errors.depth) == (first, reranked, 3)
    assert len(q) == 144 and set(q["task"]) == {"c2c"} and errors.summary["queries"].tolist() == [144]
    # The reranker moved something, and only within its candidates: broken and rescued queries lie in the ceiling.
    assert (q["broken"] | q["rescued"]).any()
    assert not ((q["broken"] | q["rescued"]) & ~q["ceiling"]).any()
    assert not (q["broken"] & q["rescued"]).any()
    # Beyond the ceiling nothing changed: the positive keeps its rank (the top 3 reorders among themselves).
    deep = q[~q["ceiling"]]
    assert (deep["first_positive_rank"] == deep["reranked_positive_rank"]).all()
    # The flags agree with the evaluator's own trap table of each run.
    store = Store("demo_v2603", root)
    for run, column in ((first, "right_first"), (reranked, "right_reranked")):
        table = trap_table(store, read_hits(run, root)).set_index("query_id")
        right = table["first_positive_rank"].notna() & (table["traps_above_first_positive"] == 0)
        assert right.reindex(q["query_id"]).tolist() == q[column].tolist()
    s = errors.summary.iloc[0]
    assert s["net"] == s["rescued"] - s["broken"] == s["right_reranked"] - s["right_first"]
    assert errors.by_kind.groupby("task")[["broken", "rescued"]].sum().iloc[0].tolist() == [s["broken"], s["rescued"]]
    assert q.loc[q["broken"] | q["rescued"], "trap_kind"].notna().all()


def test_cli_rerank_errors(tiny_store):
    import json

    from coreb_core.runs.folders import write_run
    from tests.builders import run_cli

    root = tiny_store.root
    write_run(tiny_hits(tiny_store, FIRST), {"run_id": "first", "release": "tiny", "kind": "retrieval"}, root)
    write_run(tiny_hits(tiny_store, RERANKED), {"run_id": "second", "release": "tiny", "kind": "rerank",
                                                "first_stage": "first", "rerank_depth": DEPTH}, root)
    env = {"COREB_CACHE": str(root)}
    done = run_cli("rerank-errors", "--run", "second", "--json", env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    expected = _errors(tiny_store).summary
    assert [(r["task"], r["broken"], r["rescued"], r["ceiling"]) for r in report["summary"]] == \
        list(zip(expected["task"], expected["broken"], expected["rescued"], expected["ceiling"]))
    text = run_cli("rerank-errors", "--run", "second", env=env)
    assert text.returncode == 0 and f"(top {DEPTH} reranked;" in text.stdout
    for run_id, message in (("first", "is not a reranked run"), ("../x", "not a run id"), ("nope", "not found")):
        bad = run_cli("rerank-errors", "--run", run_id, env=env)
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and message in bad.stderr, bad.stderr
