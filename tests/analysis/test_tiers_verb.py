"""The ``tiers`` verb on CoREB-mini's two lexical runs: its JSON is the view's (the tiers of ``rank_tiers`` over the
per-query metrics, one p-value per pair equal to ``compare``'s on the same queries), and hostile choices (an unknown
run, an unknown task, a level outside (0, 1), one run) are one ``error:`` line and exit status 2."""
from __future__ import annotations

import json

import pytest

from tests.builders import run_cli

RELEASE = "demo_v2603"


def test_the_verb_states_the_tiers_and_the_pair_test(lexical_cache):
    root, runs = lexical_cache
    env = {"COREB_CACHE": str(root)}
    ids = [runs["bm25"], runs["bm25s-mteb"]]
    done = run_cli("tiers", "--release", RELEASE, "--run", *ids, "--task", "t2c", "--json", env=env)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["task"], out["metric"], out["correction"], out["alpha"], out["queries"]) == ("t2c", "ndcg_at_10",
                                                                                            "holm", 0.05, 720)
    assert [r["run"] for r in out["runs"]] == ids  # BM25 ahead of MTEB's recipe on T2C
    assert all(r["rank_low"] <= r["rank"] <= r["rank_high"] for r in out["runs"])
    (pair,) = out["pairs"]
    compared = json.loads(run_cli("compare", "--release", RELEASE, "--run", *ids, "--task", "t2c", "--json",
                                  env=env).stdout)["verdicts"][0]
    assert pair["p"] == pytest.approx(compared["p"]) and pair["mean_delta"] == pytest.approx(compared["delta"])
    assert pair["significant"] == compared["significant"] == (out["tiers"] == 2)
    assert [r["tier"] for r in out["runs"]] == ([1, 2] if pair["significant"] else [1, 1])
    text = run_cli("tiers", "--release", RELEASE, "--run", *ids, "--alpha", "0.001", env=env)
    assert text.returncode == 0
    assert text.stdout.startswith("2 runs in 2 tiers on every task, mean of task means (nDCG@10, the 1,200 queries "
                                  "every run scored): tier 1: bm25 · demo_v2603; tier 2: bm25s-mteb · demo_v2603.")


@pytest.mark.parametrize("extra, words", [
    (["--run", "no_such_run", "RUN"], "no_such_run"),
    (["--task", "x2y"], "--task: invalid choice: 'x2y'"),
    (["--alpha", "1.5"], "--alpha: the significance level must be a number between 0 and 1"),
    (["--alpha", "nan"], "--alpha: the significance level must be a number between 0 and 1"),
    (["--alpha", "five"], "--alpha: must be a number between 0 and 1"),
    (["--correction", "sidak"], "unknown correction 'sidak'"),
    (["--run", "RUN"], "tiers need two or more runs"),
])
def test_hostile_choices_are_one_error_line(lexical_cache, extra, words):
    root, runs = lexical_cache
    argv = ["tiers", "--release", RELEASE, "--run", runs["bm25"], runs["bm25s-mteb"], *extra]
    argv = [runs["bm25"] if a == "RUN" else a for a in argv]
    if "--run" in extra:  # the extra --run replaces the first
        first = argv.index("--run")
        del argv[first:first + 3]
    done = run_cli(*argv, env={"COREB_CACHE": str(root)})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("error:") == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert words in done.stderr
