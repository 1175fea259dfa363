"""The generator's rules on the real releases (issue 45, item 2): release_v2603's qrels agree with
``analysis.generator_rules`` pair for pair, and the audit queue of BM25 and bm25s-mteb at k=10 holds 428 candidates,
every one classed: the C2C language rule of the generator (its target languages) leaves 37 of the 158 C2C documents
that "any language but the anchor's" let in; none would be rel=2; the re-gradable traps are the generator's own."""
from __future__ import annotations

import json

import pandas as pd

from tests.builders import run_cli

RELEASE = "release_v2603"


def _runs(real_cache) -> dict[str, str]:
    from coreb_core.runs.folders import list_runs

    return {m.model: m.run_id for m in list_runs(RELEASE, real_cache)}


def test_the_real_qrels_follow_the_generator_rules(real_cache):
    """release_v2603: the positive rule selects exactly the rel=2 pairs; every trap is in its query's pool, each query
    has min(pool, 3) traps, and no unjudged document is in a pool judged whole (0 "would be rel=1"). Of its
    (query, document of the query's problem) pairs left unjudged, none would be rel=2."""
    from coreb_core.analysis.generator_rules import classify, rule_frame
    from coreb_core.data.store import Store

    with Store(RELEASE, real_cache) as store:
        frame = rule_frame(store)
        merged = frame.merge(store.df("SELECT task, query_id, doc_id, relevance FROM qrels"),
                             on=["task", "query_id", "doc_id"], how="outer")
        unjudged = merged[merged["relevance"].isna()]
        classes = pd.concat([unjudged["task"], classify(store, unjudged)["class"]], axis=1)
    assert (merged["positive"].astype("boolean").fillna(False) == (merged["relevance"] == 2)).all()
    traps = merged[merged["relevance"] == 1]
    assert (traps["priority"] > 0).all() and len(traps) == 834 + 3600 + 3136
    pools = frame[frame["priority"] > 0].groupby("query_id")["pool_size"].first()
    judged = traps.groupby("query_id").size()
    assert set(judged.index) == set(pools.index) and (judged == pools.clip(upper=3)[judged.index]).all()
    assert classes.groupby(["task", "class"]).size().to_dict() == {
        ("c2c", "other"): 443, ("c2c", "trap_beyond_cap"): 871, ("c2t", "other"): 190,
        ("c2t", "trap_beyond_cap"): 1200, ("t2c", "other"): 1054, ("t2c", "trap_beyond_cap"): 4179}


def test_the_re_gradable_traps_are_the_generators_own(real_cache):
    """The 229 C2C traps that pass their tests (of the query's problem, in a language of its positives: what the
    executed scheme promotes) are all the generator's third tier, correct non-positives: "trap by the rule". T2C has
    none. release_v2602 has 93, and 7 unjudged C2C documents in pools of 3 or fewer ("would be rel=1")."""
    from coreb_core.analysis.generator_rules import allowed_language, classify, rule_frame
    from coreb_core.data.store import Store

    for release, expected, whole in (("release_v2603", 229, 0), ("release_v2602", 93, 7)):
        with Store(release, real_cache) as store:
            regradable = store.df("""SELECT task, query_id, doc_id FROM judgments WHERE relevance = 1 AND passed
                                     AND doc_problem_id = query_problem_id AND task IN ('t2c', 'c2c')""")
            regradable = regradable[allowed_language(store, regradable)]
            verdict = classify(store, regradable)
            frame = rule_frame(store).merge(store.df("SELECT task, query_id, doc_id, relevance FROM qrels"),
                                            on=["task", "query_id", "doc_id"], how="left")
            promoted = store.sql("""SELECT count(*) FROM qrels_executed e JOIN qrels r USING (task, query_id, doc_id)
                                    WHERE r.relevance = 1 AND e.relevance = 2""").fetchone()
        assert len(regradable) == expected == (promoted or [0])[0] and set(regradable["task"]) == {"c2c"}
        assert set(verdict["class"]) == {"trap_by_rule"} and set(verdict["priority"]) == {3}
        assert int((frame["relevance"].isna() & frame["judged_whole"]).sum()) == whole


def test_the_audit_queue_of_bm25_and_bm25s_classed(real_cache):
    """428 candidates (C2C 37, C2T 187, T2C 204): every C2T and T2C one a trap beyond the cap, C2C 30 of them and 7
    other (the anchor model's own solutions of cross_model queries, a gemini solution of a cross_lang one); 31 passing
    solutions, all C2C; 165 put above every positive by both runs. With --include-traps, 31 re-gradable traps more, each
    a trap by the rule."""
    runs = _runs(real_cache)
    env = {"COREB_CACHE": str(real_cache)}
    done = run_cli("audit", "--release", RELEASE, "--run", runs["bm25"], runs["bm25s-mteb"], "--json", env=env)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    queue = data["candidates"]
    assert len(queue) == 428 and data["class_counts"] == {
        "c2c": {"trap_beyond_cap": 30, "other": 7}, "c2t": {"trap_beyond_cap": 187}, "t2c": {"trap_beyond_cap": 204}}
    passing = [c for c in queue if c["passed"] is True]
    assert len(passing) == 31 and {c["task"] for c in passing} == {"c2c"}
    assert sum(c["runs"] == 2 for c in queue) == 165
    others = [c for c in queue if c["class"] == "other"]
    assert {c["subtask"] for c in others} == {"c2c_cross_model", "c2c_cross_lang"}
    with_traps = json.loads(run_cli("audit", "--release", RELEASE, "--run", runs["bm25"], runs["bm25s-mteb"],
                                    "--include-traps", "--json", env=env).stdout)
    traps = [c for c in with_traps["candidates"] if c["grade"] == "trap"]
    assert len(with_traps["candidates"]) == 459 and len(traps) == 31
    assert {c["class"] for c in traps} == {"trap_by_rule"} and {c["task"] for c in traps} == {"c2c"}
    lines = run_cli("audit", "--release", RELEASE, "--run", runs["bm25"], runs["bm25s-mteb"], env=env).stdout
    assert "  c2c: 37 candidates (30 trap beyond the cap, 7 other; 31 passing solutions" in lines


def test_the_generators_c2c_languages_against_any_but_the_anchors(real_cache):
    """Counted straight from the stored hits: 158 unjudged C2C documents of the query's problem above every positive
    (all of a top 10 without one) in a top 10 of either run when any language but the anchor's is allowed (mono_lang: the anchor's), 37 with the
    generator's target languages (``meta.target_languages``) as the queue reads them."""
    from coreb_core.data.store import Store
    from coreb_core.runs.folders import read_hits

    runs = _runs(real_cache)
    with Store(RELEASE, real_cache) as store:
        queries = store.df("""SELECT query_id, subtask, problem_id, anchor_language, anchor_code_id,
                                     json_extract(meta, '$.target_languages') AS targets FROM queries
                              WHERE task = 'c2c'""").set_index("query_id")
        docs = store.df("SELECT doc_id, problem_id, language FROM documents WHERE corpus = 'code'").set_index("doc_id")
        judged = {(q, d): r for q, d, r in store.sql("SELECT query_id, doc_id, relevance FROM qrels WHERE task = 'c2c'")
                  .fetchall()}
    with_positive = {q for (q, _), r in judged.items() if r == 2}
    loose, generator = set(), set()
    for run in (runs["bm25"], runs["bm25s-mteb"]):
        hits = read_hits(run, real_cache)
        hits = hits[(hits["task"] == "c2c") & hits["in_top_k"]].sort_values(["query_id", "rank"])
        for query, part in hits.groupby("query_id", observed=True):
            q = queries.loc[query]
            ranked = [d for d in part["doc_id"] if d not in (query, q["anchor_code_id"])][:10]
            if query not in with_positive:  # "above every positive" means nothing without one
                continue
            for d in ranked:
                if judged.get((query, d)) == 2:
                    break
                if (query, d) in judged or docs.loc[d, "problem_id"] != q["problem_id"]:
                    continue
                language, mono = docs.loc[d, "language"], q["subtask"] == "c2c_mono_lang"
                if (language == q["anchor_language"]) == mono:
                    loose.add((query, d))
                if language in ([q["anchor_language"]] if mono else json.loads(q["targets"])):
                    generator.add((query, d))
    assert len(loose) == 158 and len(generator) == 37 and generator <= loose
