"""coreb_core.results.published: the transcribed paper, README and project-page figures agree with themselves."""
import numpy as np
import pytest


@pytest.mark.parametrize("table, release", [("paper_table3_v202603_retrieval", "v202603"),
                                            ("paper_table14_v202602_retrieval", "v202602"),
                                            ("page_b312b5b_v202603_retrieval", "v202603")])
def test_published_overall_is_query_weighted(table, release):
    """Table 3's (and Table 14's, the page's) Overall = per-task values weighted by the release's query counts."""
    from coreb_core.results.published import OVERALL_QUERY_COUNTS, published_figures, query_weighted_overall

    counts = OVERALL_QUERY_COUNTS[release]
    for model, v in published_figures()[table].items():
        for metric in ("ndcg10", "recall10"):
            tasks = {t: v[f"{t}_{metric}"] for t in ("t2c", "c2c", "c2t")}
            assert query_weighted_overall(tasks, counts) == pytest.approx(v[f"overall_{metric}"], abs=0.001), \
                (model, metric)
            # the plain mean of tasks is a different quantity: it misses Table 3 for some model by far more
    means = [abs(np.mean([v[f"{t}_ndcg10"] for t in ("t2c", "c2c", "c2t")]) - v["overall_ndcg10"])
             for v in published_figures()[table].values()]
    assert max(means) > 0.02


def test_readme_avg_is_the_mean_of_tasks():
    from coreb_core.results.published import published_figures

    for model, v in published_figures()["readme_v202603_ndcg10"].items():
        assert np.mean([v["t2c"], v["c2c"], v["c2t"]]) == pytest.approx(v["avg_simple_mean"], abs=0.001), model


def test_undated_published_tables_carry_their_release():
    from coreb_core.results.published import published_rows

    rows = published_rows()
    for source in ("published:page_1a0d779_parameter_efficiency",
                   "published:paper_t2c_by_language_avg_over_models_excl_search"):
        assert {r["dataset_revision"] for r in rows if r["source"] == source} == {"v202603"}
    # the efficiency table's overall is Table 3's query-weighted Overall, model for model
    table3 = {r["model"]: r["value"] for r in rows if r["source"] == "published:paper_table3_v202603_retrieval"
              and r["task"] == "overall_query_weighted" and r["metric"] == "ndcg_at_10"}
    page = {r["model"]: r["value"] for r in rows if r["source"] == "published:page_1a0d779_parameter_efficiency"
            and r["metric"] == "ndcg_at_10"}
    shared = {"C2LLM-7B", "C2LLM-0.5B", "F2LLM-4B"} & set(table3) & set(page)
    assert shared and all(page[m] == table3[m] for m in shared)
