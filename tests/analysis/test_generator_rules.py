"""The official generator's rules (``analysis.generator_rules``) on a hand-made release whose every pair has a known
verdict: the positive rule of each subtask (T2C retro passing only, T2C search failing too, C2C mono_lang / cross_lang
with its lexicographic rule / cross_model, C2T the description), the hard-negative pool with its priorities and cap,
the C2C target languages, and the classes; then on CoREB-mini, which is built by these rules: its qrels agree with them
pair for pair."""
from __future__ import annotations

from pathlib import Path
from typing import get_args

import pandas as pd
import pytest

from coreb_core.analysis.generator_rules import (
    CLASSES,
    CandidateClass,
    allowed_language,
    c2c_target_languages,
    classify,
    classify_pairs,
    rule_frame,
)
from coreb_core.data.store import Store

A, B = "lcb_1000", "lcb_2000"
# Model names as release_v2602 spells them: the rules read the query's anchor_model, never a literal name.
C, G = "claude-4-sonnet", "gemini-3-flash"


def _code(n: int, lang: str, model: str, pid: str, passed: bool) -> dict:
    return {"code_id": f"code_v202601_{n:05d}", "code": f"# {n} {lang}\n", "language": lang, "model": model,
            "code_length": 8, "meta": {"source_problem_id": pid, "passed": passed, "test_passed": 4 if passed else 1,
                                       "test_total": 4}}


def cid(n: int) -> str:
    return f"code_v202601_{n:05d}"


CODE = [  # problem A: many failing solutions (pools over the cap); problem B: few (pools reach the third tier)
    _code(1, "python", C, A, True), _code(2, "cpp", C, A, True), _code(3, "java", C, A, True),
    _code(4, "python", G, A, True), _code(5, "cpp", G, A, False), _code(6, "java", G, A, False),
    _code(7, "go", C, A, False), _code(8, "ruby", G, A, False), _code(9, "python", G, A, False),
    _code(10, "python", C, A, False),
    _code(11, "python", C, B, True), _code(12, "go", C, B, True), _code(13, "python", G, B, True),
    _code(14, "ruby", G, B, False), _code(15, "go", G, B, True),
]


def _t2c(qid: str, subtask: str, lang: str | None, pid: str) -> dict:
    return {"query_id": qid, "query": "a task", "split": "text2code", "subtask": subtask, "query_type": "x",
            "sub_query_type": "x", "language_constraint": lang or "none", "meta": {"source_problem_id": pid}}


def _c2c(qid: str, subtask: str, anchor: int, pid: str, targets: list[str] | None) -> dict:
    doc = CODE[anchor - 1]
    meta = {"source_problem_id": pid, "anchor_code_id": cid(anchor)}
    if targets is not None:
        meta["target_languages"] = targets
    return {"query_id": qid, "query": doc["code"], "split": "code2code", "subtask": subtask,
            "anchor_language": doc["language"], "anchor_model": doc["model"], "meta": meta}


def _c2t(qid: str, subtask: str, pid: str, label: int | None = None) -> dict:
    return {"query_id": qid, "query": CODE[0]["code"], "split": "code2text", "subtask": subtask,
            "anchor_language": "python", "anchor_model": C, "label": label, "text_id": None,
            "meta": {"source_problem_id": pid, "anchor_code_id": cid(1)}}


def _text(tid: str, pid: str, noise: bool) -> dict:
    meta = {"source_problem_id": f"{pid}_n" if noise else pid, **({"is_noise_sample": True,
                                                                  "original_problem_id": pid} if noise else {})}
    return {"text_id": tid, "text_style": "noise" if noise else "full", "text": tid, "text_length": 5,
            "abbreviated_text": None, "meta": meta}


TEXT = ([_text("text_v202601_00001", A, False)] + [_text(f"text_v202601_00001_noise{i}", A, True) for i in range(1, 5)]
        + [_text("text_v202601_00002", B, False)] + [_text(f"text_v202601_00002_noise{i}", B, True) for i in (1, 2)])

QUERIES = {
    "t2c": [_t2c("q_t2c_full_retro_python_0001", "t2c_full_retro_python", "python", A),
            _t2c("q_t2c_search_python_0002", "t2c_search_python", "python", A),
            _t2c("q_t2c_full_retro_any_0003", "t2c_full_retro_any", None, A),
            _t2c("q_t2c_search_any_0004", "t2c_search_any", None, A),
            _t2c("q_t2c_canonical_retro_go_0005", "t2c_canonical_retro_go", "go", B)],
    "c2c": [_c2c("q_c2c_cross_lang_0001", "c2c_cross_lang", 2, A, ["java"]),
            _c2c("q_c2c_mono_lang_0002", "c2c_mono_lang", 4, A, None),
            _c2c("q_c2c_cross_model_0003", "c2c_cross_model", 4, A, ["cpp", "java"]),
            _c2c("q_c2c_mono_lang_0004", "c2c_mono_lang", 13, B, None),
            _c2c("q_c2c_cross_lang_0005", "c2c_cross_lang", 11, B, None)],  # no target_languages: the rule's
    "c2t": [_c2t("q_c2t_full_retro_any_0001", "c2t_full_retro_any", A),
            _c2t("q_c2t_match_0002", "c2t_match", A, 0),
            _c2t("q_c2t_full_retro_any_0003", "c2t_full_retro_any", B)],
}
NOISE_A = [f"text_v202601_00001_noise{i}" for i in range(1, 5)]
QRELS = {
    "t2c": [("q_t2c_full_retro_python_0001", cid(1), 2), ("q_t2c_full_retro_python_0001", cid(4), 2),
            ("q_t2c_full_retro_python_0001", cid(9), 1), ("q_t2c_full_retro_python_0001", cid(10), 1),
            ("q_t2c_full_retro_python_0001", cid(5), 1)]
    + [("q_t2c_search_python_0002", cid(n), 2) for n in (1, 4, 9, 10)]
    + [("q_t2c_search_python_0002", cid(n), 1) for n in (5, 6, 7)]
    + [("q_t2c_full_retro_any_0003", cid(n), 2) for n in (1, 2, 3, 4)]
    + [("q_t2c_full_retro_any_0003", cid(n), 1) for n in (5, 6, 7)]
    + [("q_t2c_search_any_0004", cid(n), 2) for n in range(1, 11)]
    + [("q_t2c_canonical_retro_go_0005", cid(12), 2), ("q_t2c_canonical_retro_go_0005", cid(15), 2),
       ("q_t2c_canonical_retro_go_0005", cid(14), 1), ("q_t2c_canonical_retro_go_0005", cid(11), 1),
       ("q_t2c_canonical_retro_go_0005", cid(13), 1)],
    "c2c": [("q_c2c_cross_lang_0001", cid(3), 2)] + [("q_c2c_cross_lang_0001", cid(n), 1) for n in (6, 7, 8)]
    + [("q_c2c_mono_lang_0002", cid(1), 2)] + [("q_c2c_mono_lang_0002", cid(n), 1) for n in (10, 5, 6)]
    + [("q_c2c_cross_model_0003", cid(2), 2), ("q_c2c_cross_model_0003", cid(3), 2)]
    + [("q_c2c_cross_model_0003", cid(n), 1) for n in (7, 8, 9)]
    # mono_lang on B: a pool of 3 (14 failing, then 12 and 15 passing); 15 left unjudged: "would be rel=1"
    + [("q_c2c_mono_lang_0004", cid(11), 2), ("q_c2c_mono_lang_0004", cid(14), 1), ("q_c2c_mono_lang_0004", cid(12), 1)]
    + [("q_c2c_cross_lang_0005", cid(12), 2)] + [("q_c2c_cross_lang_0005", cid(n), 1) for n in (14, 13, 15)],
    "c2t": [("q_c2t_full_retro_any_0001", "text_v202601_00001", 2)]
    + [("q_c2t_full_retro_any_0001", d, 1) for d in NOISE_A[:3]]
    + [("q_c2t_match_0002", d, 1) for d in NOISE_A[1:]]
    + [("q_c2t_full_retro_any_0003", "text_v202601_00002", 2),
       ("q_c2t_full_retro_any_0003", "text_v202601_00002_noise1", 1),
       ("q_c2t_full_retro_any_0003", NOISE_A[0], 1)],
}


@pytest.fixture(scope="module")
def rules_store(tmp_path_factory):
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from tests import dump

    tmp = tmp_path_factory.mktemp("rules")

    def qrels(task: str) -> list[dict]:
        return [{"query_id": q, "doc_id": d, "relevance": r} for q, d, r in QRELS[task]]

    rows = {"code_corpus": CODE, "text_corpus": TEXT, "text2code_queries": QUERIES["t2c"],
            "code2code_queries": QUERIES["c2c"], "code2text_queries": QUERIES["c2t"],
            "text2code_qrels": qrels("t2c"), "code2code_qrels": qrels("c2c"), "code2text_qrels": qrels("c2t")}
    root = tmp / "cache"
    import_release(read_local(dump.write_parquet_folder(tmp / "rules", rows))[2], "rules", root)
    with Store("rules", root) as store:
        yield store


def _verdicts(store: Store, query: str) -> dict[str, tuple[bool, int, int]]:
    frame = rule_frame(store)
    part = frame[frame["query_id"] == query]
    return {d: (bool(p), int(t), int(n)) for d, p, t, n in zip(part["doc_id"], part["positive"], part["priority"],
                                                               part["pool_size"])}


def _positives(store: Store, query: str) -> set[str]:
    return {d for d, (p, _, _) in _verdicts(store, query).items() if p}


def _pool(store: Store, query: str) -> dict[str, int]:
    return {d: t for d, (_, t, _) in _verdicts(store, query).items() if t}


def test_the_classes_are_one_vocabulary():
    assert get_args(CandidateClass) == tuple(CLASSES)
    assert CLASSES["would_be_positive"] == "would be rel=2" and CLASSES["trap_beyond_cap"] == "trap beyond the cap"


def test_t2c_positives_retro_passing_search_every_solution(rules_store):
    assert _positives(rules_store, "q_t2c_full_retro_python_0001") == {cid(1), cid(4)}
    assert _positives(rules_store, "q_t2c_search_python_0002") == {cid(1), cid(4), cid(9), cid(10)}  # failing too
    assert _positives(rules_store, "q_t2c_full_retro_any_0003") == {cid(n) for n in (1, 2, 3, 4)}
    assert _positives(rules_store, "q_t2c_search_any_0004") == {cid(n) for n in range(1, 11)}
    assert _positives(rules_store, "q_t2c_canonical_retro_go_0005") == {cid(12), cid(15)}


def test_t2c_pool_priorities(rules_store):
    # two failing in the constraint (tier 1) are fewer than 3: every other failing one joins (tier 2)
    assert _pool(rules_store, "q_t2c_full_retro_python_0001") == {cid(9): 1, cid(10): 1, cid(5): 2, cid(6): 2,
                                                                 cid(7): 2, cid(8): 2}
    # search: the failing solutions in the constraint are positives, so tier 1 is empty
    assert _pool(rules_store, "q_t2c_search_python_0002") == {cid(n): 2 for n in (5, 6, 7, 8)}
    assert _pool(rules_store, "q_t2c_full_retro_any_0003") == {cid(n): 1 for n in range(5, 11)}
    assert _pool(rules_store, "q_t2c_search_any_0004") == {}  # every solution is a positive
    # problem B: one failing solution, so the passing non-positives join (tier 3): a pool of 3, judged whole
    assert _pool(rules_store, "q_t2c_canonical_retro_go_0005") == {cid(14): 2, cid(11): 3, cid(13): 3}


def test_c2c_positives_follow_the_anchor_not_model_names(rules_store):
    # cross_lang: the anchor's model, another language, a greater code id (1 is python by the same model, but smaller)
    assert _positives(rules_store, "q_c2c_cross_lang_0001") == {cid(3)}
    assert _positives(rules_store, "q_c2c_mono_lang_0002") == {cid(1)}  # python, the other model
    assert _positives(rules_store, "q_c2c_cross_model_0003") == {cid(2), cid(3)}  # the other model, not python
    assert _positives(rules_store, "q_c2c_mono_lang_0004") == {cid(11)}
    assert _positives(rules_store, "q_c2c_cross_lang_0005") == {cid(12)}
    # the anchor is never a positive nor in the pool
    assert _verdicts(rules_store, "q_c2c_cross_lang_0001")[cid(2)][:2] == (False, 0)


def test_c2c_pool_priorities(rules_store):
    # cross_lang tier 1: failing in another language than the anchor's (cpp), any model: 5 is cpp, left out
    assert _pool(rules_store, "q_c2c_cross_lang_0001") == {cid(n): 1 for n in (6, 7, 8, 9, 10)}
    # mono_lang tier 1: failing python by the other model (10); then every failing one (tier 2)
    assert _pool(rules_store, "q_c2c_mono_lang_0002") == {cid(10): 1, **{cid(n): 2 for n in (5, 6, 7, 8, 9)}}
    # cross_model tier 1: failing, the other model, another language (7 only); then every failing one
    assert _pool(rules_store, "q_c2c_cross_model_0003") == {cid(7): 1, **{cid(n): 2 for n in (5, 6, 8, 9, 10)}}
    # problem B: tier 3 fills the pool to 3 with passing non-positives (never the anchor or a positive)
    assert _pool(rules_store, "q_c2c_mono_lang_0004") == {cid(14): 2, cid(12): 3, cid(15): 3}
    assert _pool(rules_store, "q_c2c_cross_lang_0005") == {cid(14): 1, cid(13): 3, cid(15): 3}
    assert _verdicts(rules_store, "q_c2c_mono_lang_0004")[cid(12)][2] == 3


def test_c2c_target_languages(rules_store):
    targets = c2c_target_languages(rules_store)
    assert targets.to_dict() == {"q_c2c_cross_lang_0001": ("java",), "q_c2c_mono_lang_0002": ("python",),
                                 "q_c2c_cross_model_0003": ("cpp", "java"), "q_c2c_mono_lang_0004": ("python",),
                                 "q_c2c_cross_lang_0005": ("go",)}  # 0005: no meta field, the rule's positives
    pairs = pd.DataFrame({"task": "c2c", "query_id": "q_c2c_cross_lang_0001", "doc_id": [cid(1), cid(3), cid(7)]})
    # python (1) and go (7) are other languages than the anchor's, but not the generator's targets of this query
    assert allowed_language(rules_store, pairs).tolist() == [False, True, False]
    t2c = pd.DataFrame({"task": "t2c", "query_id": ["q_t2c_full_retro_python_0001", "q_t2c_full_retro_any_0003"],
                        "doc_id": [cid(2), cid(2)]})
    assert allowed_language(rules_store, t2c).tolist() == [False, True]


def test_c2t_positive_and_pool(rules_store):
    assert _positives(rules_store, "q_c2t_full_retro_any_0001") == {"text_v202601_00001"}
    assert _positives(rules_store, "q_c2t_match_0002") == set()  # label 0: no positive
    assert _pool(rules_store, "q_c2t_full_retro_any_0001") == {d: 1 for d in NOISE_A}
    # problem B has 2 noise descriptions: kept whole, and the other problems' noise fills the 3 (tier 2)
    frame = classify(rules_store, pd.DataFrame({"task": "c2t", "query_id": "q_c2t_full_retro_any_0003",
                                                "doc_id": ["text_v202601_00002_noise2", NOISE_A[1],
                                                           "text_v202601_00001"]}))
    assert frame[["priority", "pool_size", "class"]].values.tolist() == [
        [1, 6, "would_be_trap"], [2, 6, "trap_beyond_cap"], [0, 0, "other"]]


@pytest.mark.parametrize("task,query,doc,expected", [
    ("t2c", "q_t2c_full_retro_python_0001", cid(6), "trap_beyond_cap"),  # tier 2 of a pool of 6
    ("t2c", "q_t2c_full_retro_python_0001", cid(9), "trap_by_rule"),
    ("t2c", "q_t2c_full_retro_python_0001", cid(2), "other"),  # passing cpp: tier 3 never reached
    ("t2c", "q_t2c_search_python_0002", cid(8), "trap_beyond_cap"),
    ("c2c", "q_c2c_cross_lang_0001", cid(9), "trap_beyond_cap"),
    ("c2c", "q_c2c_cross_lang_0001", cid(1), "other"),  # same model, but a smaller code id: no positive
    ("c2c", "q_c2c_cross_lang_0001", cid(5), "other"),  # failing in the anchor's language: not tier 1
    ("c2c", "q_c2c_mono_lang_0004", cid(15), "would_be_trap"),  # a pool of 3 the qrels judge only 2 of
    ("c2c", "q_c2c_mono_lang_0004", cid(12), "trap_by_rule"),
    ("c2c", "q_c2c_cross_model_0003", cid(3), "would_be_positive"),
    ("c2t", "q_c2t_full_retro_any_0001", NOISE_A[3], "trap_beyond_cap"),
    ("c2t", "q_c2t_match_0002", "text_v202601_00001", "other"),
])
def test_classes(rules_store, task, query, doc, expected):
    assert classify_pairs(rules_store, task, query, [doc]).tolist() == [expected]


def test_an_unjudged_positive_by_rule_is_a_missed_positive(tmp_path):
    """Drop a rel=2 judgment: the pair is unjudged, and the generator's rule says it would be rel=2."""
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from tests import dump

    qrels = [(q, d, r) for q, d, r in QRELS["c2c"] if not (q == "q_c2c_cross_model_0003" and d == cid(3))]
    rows = {"code_corpus": CODE, "text_corpus": TEXT, "text2code_queries": QUERIES["t2c"],
            "code2code_queries": QUERIES["c2c"], "code2text_queries": QUERIES["c2t"],
            **{f"{name}_qrels": [{"query_id": q, "doc_id": d, "relevance": r} for q, d, r in QRELS[task]]
               for name, task in (("text2code", "t2c"), ("code2text", "c2t"))},
            "code2code_qrels": [{"query_id": q, "doc_id": d, "relevance": r} for q, d, r in qrels]}
    root = tmp_path / "cache"
    import_release(read_local(dump.write_parquet_folder(tmp_path / "rules", rows))[2], "missed", root)
    with Store("missed", root) as store:
        series = classify_pairs(store, "c2c", "q_c2c_cross_model_0003", [cid(3), cid(2)])
    assert series.to_dict() == {cid(3): "would_be_positive", cid(2): "would_be_positive"}
    assert series.index.name == "doc_id"


def test_coreb_mini_agrees_with_the_rules(mini_data: Path):
    """CoREB-mini is built by the generator's rules: the rule's positives are its rel=2 pairs, every trap of a query's
    problem is in the pool, each query has min(pool, 3) of them, and no unjudged document sits in a pool judged whole.
    Its c2t_match follows coreb 0.1.0 (no noise traps), so the C2T pool leaves c2t_match out there."""
    with Store("demo_v2603", mini_data) as store:
        frame = rule_frame(store)
        merged = frame.merge(store.df("SELECT task, query_id, doc_id, relevance FROM qrels"),
                             on=["task", "query_id", "doc_id"], how="left")
        unjudged = merged[merged["relevance"].isna()]
        classes = pd.concat([unjudged["task"], classify(store, unjudged)["class"]], axis=1)
    assert (merged["positive"] == (merged["relevance"] == 2)).all()
    traps = merged[merged["relevance"] == 1]
    assert (traps["priority"] > 0).all() and traps.groupby("task").size().to_dict() == {"c2c": 432, "c2t": 864,
                                                                                        "t2c": 1934}
    assert not unjudged["judged_whole"].any()
    pools = frame[frame["priority"] > 0].groupby("query_id")["pool_size"].first()
    judged = traps.groupby("query_id").size()
    assert set(judged.index) == set(pools.index) and (judged == pools.clip(upper=3)[judged.index]).all()
    assert classes.groupby(["task", "class"]).size().to_dict() == {
        ("c2c", "other"): 885, ("c2c", "trap_beyond_cap"): 165, ("c2t", "other"): 216,
        ("c2t", "trap_beyond_cap"): 288, ("t2c", "other"): 2432, ("t2c", "trap_beyond_cap"): 2042}
