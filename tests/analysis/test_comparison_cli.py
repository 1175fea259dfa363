"""`compare` (baseline, corrections, the t-test) and `contrast` (tau-AP, weighted tau) on the command line, on the
tiny hand-made release: each prints what the library computes, and refuses bad arguments in one line."""
import json

import pytest

from coreb_core.analysis.comparison import pair_table, pair_verdicts, split_runs
from coreb_core.analysis.rank_contrast import contrasting_queries
from coreb_core.data.measures import NDCG_10
from coreb_core.evaluation.evaluate import analyse_many
from tests.builders import code, run_cli, tiny_hits

Q1, Q2, Q3 = "q_t2c_canonical_retro_any_0001", "q_t2c_search_python_0002", "q_c2c_cross_lang_0001"
LISTS = {
    "a": {Q1: [code(1), code(2), code(4), code(3)], Q2: [code(1), code(3), code(2)]},
    "b": {Q1: [code(3), code(1), code(2), code(4)], Q2: [code(3), code(2), code(1)]},
    "c": {Q1: [code(4), code(3), code(2), code(1)], Q2: [code(2), code(1), code(3)]},
}


@pytest.fixture
def stored(tiny_store):
    from coreb_core.runs.folders import write_run

    for name, lists in LISTS.items():
        write_run(tiny_hits(tiny_store, lists), {"run_id": name, "release": "tiny", "model": name,
                                                 "kind": "synthetic"}, tiny_store.root)
    return tiny_store, {"COREB_CACHE": str(tiny_store.root)}


def test_compare_against_a_baseline_with_bonferroni(stored):
    store, env = stored
    done = run_cli("compare", "--release", "tiny", "--run", "a", "b", "c", "--task", "t2c", "--baseline", "a",
                   "--correction", "bonferroni", "--json", env=env)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)["verdicts"]
    per_query = split_runs(analyse_many(store, {r: tiny_hits(store, LISTS[r]) for r in LISTS}).per_query("v2"),
                           "t2c", list(LISTS))
    pairs = pair_table(per_query, baseline="a", correction="bonferroni")
    expected = pair_verdicts(per_query, pairs, "t2c", correction="bonferroni", baseline="a")
    # Two pairs, each other run against the baseline (not all three pairs), Bonferroni over two tests.
    assert len(shown) == 2 and {v["b"] for v in shown} | {v["a"] for v in shown} == {"a", "b", "c"}
    assert [(v["a"], v["b"], v["p_adjusted"], v["p_ttest"]) for v in shown] == \
        [(v.a, v.b, v.p_adjusted, v.p_ttest) for v in expected]
    assert all(v["correction"] == "bonferroni" and v["p_adjusted"] == min(1.0, 2 * v["p"]) for v in shown)
    text = run_cli("compare", "--release", "tiny", "--run", "a", "b", "--task", "t2c", env=env)
    assert text.returncode == 0 and "after Holm correction" in text.stdout and "Paired t-test: p =" in text.stdout


def test_contrast_prints_the_library_rows(stored):
    store, env = stored
    done = run_cli("contrast", "--release", "tiny", "--run", "a", "b", "--task", "t2c", "--k", "3", "--json", env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    expected = contrasting_queries(tiny_hits(store, LISTS["a"]), tiny_hits(store, LISTS["b"]), k=3, task="t2c")
    assert report["queries"] == expected.queries == 2
    assert [(r["query_id"], round(r["tau_ap"], 9)) for r in report["rows"]] == \
        [(q, round(t, 9)) for q, t in zip(expected.rows["query_id"], expected.rows["tau_ap"])]  # JSON: 10 digits


@pytest.mark.parametrize("args, message", [
    (("compare", "--release", "tiny", "--run", "a", "--task", "t2c"), "two or more runs"),
    (("compare", "--release", "tiny", "--run", "a", "b", "--task", "t2c", "--baseline", "z"), "is not one of"),
    (("compare", "--release", "tiny", "--run", "a", "b", "--task", "t2c", "--correction", "sidak"),
     "unknown correction 'sidak'"),
    (("compare", "--release", "tiny", "--run", "a", "a", "--task", "t2c"), "more than once"),
    (("contrast", "--release", "tiny", "--run", "a", "b", "--task", "t2c", "--k", "0"), "--k"),
    (("contrast", "--release", "tiny", "--run", "a", "../b", "--task", "t2c"), "not a run id"),
    (("contrast", "--release", "tiny", "--run", "a", "b", "--task", "t2c", "--measure", "spearman"), "spearman"),
])
def test_bad_arguments_are_one_line(stored, args, message):
    _, env = stored
    bad = run_cli(*args, env=env)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and message in bad.stderr, bad.stderr


def test_difficulty_verb_and_its_errors(stored):
    from coreb_core.analysis.difficulty import problem_difficulty

    store, env = stored
    done = run_cli("difficulty", "--release", "tiny", "--run", "a", "b", "--task", "t2c", "--json", env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    per_query = analyse_many(store, {r: tiny_hits(store, LISTS[r]) for r in ("a", "b")}).per_query("v2")
    hard = problem_difficulty(store, per_query, NDCG_10, task="t2c")
    assert [(r["problem_id"], round(r["mean"], 9)) for r in report["problems"]] == \
        [(p, round(m, 9)) for p, m in zip(hard.problems["problem_id"], hard.problems["mean"])]
    text = run_cli("difficulty", "--release", "tiny", "--run", "a", "b", env=env)
    assert text.returncode == 0 and "per-problem difficulty on tiny" in text.stdout
    for args, message in ((("--run", "a", "--limit", "0"), "--limit"), (("--run", "a", "--metric", "x"), "unknown metric"),
                          (("--run", "../a"), "not a run id"), (("--run", "a", "a"), "more than once")):
        bad = run_cli("difficulty", "--release", "tiny", *args, env=env)
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and message in bad.stderr, bad.stderr
