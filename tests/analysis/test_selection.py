"""coreb_core.analysis.selection on two runs (BM25 and the Trigrams stand-in for MiniLM: ``fake_dense``) and the
published figures (the page is tested in tests/app/test_page_selection.py)."""
import numpy as np


def test_recommend_and_published_units(fake_dense):
    from coreb_core.analysis.selection import recommend, recommend_published
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.evaluation.schemes import V2
    from coreb_core.present.numbers import pct
    from coreb_core.present.selection import evidence_sentence, summary_markdown
    from coreb_core.results.published import published_rows
    from coreb_core.runs.folders import read_hits, run_meta

    root, dense, bm25 = fake_dense
    metas = {r: run_meta(r, root) for r in (bm25, dense)}
    with Store("demo_v2603", root) as s:
        tables = analyse_many(s, {r: read_hits(r, root) for r in metas}, (V2,), traps=True)
        rec = recommend(s, tables.per_query("v2"), tables.traps, metas, ("t2c",), ("any",), None, "queries")
    row = rec.ranked.set_index("run").loc[bm25]
    per = tables.per_query("v2").query("task == 't2c'")
    traps = tables.traps.query("task == 't2c'")
    anyq = per["query_id"].astype(str).str.contains("_any_")
    assert row["queries"] == 120 == anyq[per["run"] == bm25].sum()  # T2C _any: 24 canonical + 24 full + 72 search
    assert pct(row["mean"]) == round(per[(per["run"] == bm25) & anyq]["ndcg_at_10"].mean() * 100, 1)
    t_any = traps["query_id"].astype(str).str.contains("_any_")
    assert pct(row["trap_share"]) == round(traps[(traps["run"] == bm25) & t_any]["trap_above_positive"].mean() * 100, 1)
    assert "scheme v2" in evidence_sentence(rec, "v2")
    # published: all languages -> paper Table 3; C2C by language -> Table 15; T2C by language -> not applicable
    ranked, _ = recommend_published(published_rows(), ("t2c", "c2c", "c2t"), ("any", "python", "java", "cpp", "go",
                                                                             "ruby"), 8.0)
    c2llm = ranked.set_index("model").loc["C2LLM-7B"]
    assert pct(c2llm["mean"]) == round(np.mean([0.443, 0.659, 0.795]) * 100, 1) and c2llm["params_b"] == 7.0
    assert (ranked["evidence"] == "published figures only").all()
    c2c, _ = recommend_published(published_rows(), ("c2c",), ("python", "cpp"), None)
    assert pct(c2c.set_index("model").loc["GemEmb-2", "c2c"]) == round((0.681 + 0.789) / 2 * 100, 1)
    none, excluded = recommend_published(published_rows(), ("t2c",), ("python",), None)
    assert none.empty and set(excluded["reason"]) == {"no published T2C figures per language"}
    text = summary_markdown(rec, ranked, "v2", "demo_v2603")
    assert text.startswith("# CoREB model selection") and "published figures only" in text


def test_recommendation_lead_is_the_paired_test_of_the_top_two(fake_dense):
    # issue 12: the recommendation's "significant after Holm" comes from a paired test of the first
    # run against the second on the queries both scored
    from coreb_core.analysis.selection import parameter_text, recommend
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.evaluation.schemes import V2
    from coreb_core.evaluation.significance import DEFAULT_PERMUTATIONS, adaptive_limit, randomization_test
    from coreb_core.runs.folders import read_hits, run_meta

    root = fake_dense[0]
    metas = {r: run_meta(r, root) for r in fake_dense[1:]}
    with Store("demo_v2603", root) as s:
        tables = analyse_many(s, {r: read_hits(r, root) for r in metas}, (V2,), traps=True)
        rec = recommend(s, tables.per_query("v2"), tables.traps, metas, ("t2c",), ("any",), None, "queries")
    top, second = rec.ranked["run"].tolist()
    lead = rec.lead
    assert (lead.a, lead.b, lead.task, lead.shared) == (top, second, "t2c", 120)
    per = tables.per_query("v2").astype({"query_id": str, "run": str})
    per = per[(per["task"] == "t2c") & per["query_id"].str.contains("_any_")]
    a = per[per["run"] == top].set_index("query_id")["ndcg_at_10"]
    b = per[per["run"] == second].set_index("query_id")["ndcg_at_10"].reindex(a.index)
    delta = (a - b).to_numpy()
    assert lead.delta == np.float64(delta.mean()) or abs(lead.delta - delta.mean()) < 1e-12
    assert abs(lead.delta - (rec.ranked["mean"].iloc[0] - rec.ranked["mean"].iloc[1])) < 1e-12
    # the selection's tests are adaptive (issue 48): the p of the same flips, drawn on where they count too few
    assert lead.p == randomization_test(delta, max_permutations=adaptive_limit(DEFAULT_PERMUTATIONS))
    assert lead.p_holm == lead.p  # one comparison: Holm changes nothing
    assert lead.significant == (lead.p_holm < 0.05) and lead.wins + lead.ties + lead.losses == 120
    assert lead.ci_low <= lead.delta <= lead.ci_high
    assert [parameter_text(v) for v in (0.0227, 0.01, 7.0, None)] == ["22.7 M", "10 M", "7 B", "not reported"]
