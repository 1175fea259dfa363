"""Model selection (``select``, ``report``, the Model selection page) and ``stability`` given runs that do not
fit the question: a run made with ``--tasks c2c`` ranked among full runs on all three tasks, two runs that share
no query, a strict JSON reader of ``select --json``, and ``stability`` given two different models.

A run that lacks a chosen task is left out of the ranking with a sentence saying why (its mean would be over other
tasks than the others'); two runs without a query in common are "not compared", never "p = 1"; ``select --json``
is strict JSON (null, not NaN); ``stability`` refuses two different models in one line unless ``--any-model``.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.hostile.conftest import refuses, unchanged

ALL = ["--release", "demo_v2603"]


def _strict(text: str):
    """json.loads that refuses NaN and Infinity (as JavaScript's JSON.parse and jq do)."""
    def reject(token: str):
        raise ValueError(f"not JSON: {token}")
    return json.loads(text, parse_constant=reject)


@pytest.fixture(scope="module")
def runs_cache(mini_data, tmp_path_factory) -> Path:
    """CoREB-mini with three BM25-family runs on demo_v2603 (all tasks; C2C only; MTEB's BM25 recipe, all tasks)
    and BM25 on demo_v2602. Read-only for the tests (they write outside it)."""
    from coreb_core.retrieval.pipeline import run_retrieval

    root = tmp_path_factory.mktemp("selection") / "cache"
    shutil.copytree(mini_data, root, symlinks=True, ignore=shutil.ignore_patterns("runs", "embeddings", "results"))
    made = {"full": run_retrieval("bm25", "demo_v2603", root=root).run_id,
            "c2c": run_retrieval("bm25", "demo_v2603", ("c2c",), root=root).run_id,
            "mteb": run_retrieval("bm25s-mteb", "demo_v2603", root=root).run_id,
            "old": run_retrieval("bm25", "demo_v2602", root=root).run_id}
    (root / "made.json").write_text(json.dumps(made))
    return root


@pytest.fixture
def sel_cache(runs_cache, monkeypatch) -> Path:
    monkeypatch.setenv("COREB_CACHE", str(runs_cache))
    return runs_cache


@pytest.fixture
def made(runs_cache) -> dict[str, str]:
    return json.loads((runs_cache / "made.json").read_text())


# ---------------------------------------------------------------- a run lacking a chosen task

def test_select_leaves_out_a_run_without_a_chosen_task(sel_cache, made, capsys):
    """was: the C2C-only run was ranked on C2C alone against BM25's mean of three tasks (and the gap tested)."""
    from coreb_core.cli import main

    with unchanged(sel_cache):
        assert main(["select", *ALL, "--runs", made["full"], made["c2c"], "--json"]) == 0
    out = _strict(capsys.readouterr().out)
    assert [s["run"] for s in out["standings"]] == [made["full"]]
    (left,) = out["left_out"]
    assert (left["run"], left["why"], left["tasks"]) == (made["c2c"], "missing_tasks", ["t2c", "c2t"])
    assert left["sentence"].endswith("is left out: it has no evaluated T2C and C2T queries, so its mean would not "
                                     "cover every chosen task.")
    assert out["excluded"][0]["reason"] == "no evaluated queries in T2C, C2T"
    assert out["verdict"].startswith("Choose bm25") and "it is the only run that qualifies" in out["verdict"]


def test_select_text_says_why_a_run_is_left_out(sel_cache, made, capsys):
    """was: the C2C-only run ranked first (46.3, on C2C alone, 144 queries) and the three-task BM25 (38.3)
    "below (p < 0.001)"."""
    from coreb_core.cli import main

    assert main(["select", *ALL, "--runs", made["full"], made["c2c"]]) == 0
    lines = capsys.readouterr().out.splitlines()
    ranked = [line for line in lines if line.lstrip().startswith(("1.", "2."))]
    assert len(ranked) == 1 and ranked[0].lstrip().startswith("1. ")
    assert lines[-1].strip().endswith("is left out: it has no evaluated T2C and C2T queries, so its mean would not "
                                      "cover every chosen task.")


def test_a_run_covering_the_chosen_task_is_ranked(sel_cache, made, capsys):
    """was: (control of the rule above) with C2C alone chosen, the C2C-only run is ranked: it covers the selection."""
    from coreb_core.cli import main

    assert main(["select", *ALL, "--runs", made["full"], made["c2c"], "--task", "c2c", "--json"]) == 0
    out = _strict(capsys.readouterr().out)
    assert sorted(s["run"] for s in out["standings"]) == sorted([made["full"], made["c2c"]])
    assert out["left_out"] == []
    # the same BM25 on the same queries: every query ties, nothing significant, and p is a number
    second = out["standings"][1]
    assert (second["wins"], second["losses"], second["significant"]) == (0, 0, False)
    assert second["p_holm"] is not None


def test_report_says_why_a_run_is_left_out(sel_cache, made, tmp_path, capsys):
    """was: the report's leaderboard ranked the C2C-only run beside the three-task run."""
    from coreb_core.cli import main

    out = tmp_path / "r.html"
    with unchanged(sel_cache):
        assert main(["report", *ALL, "--runs", made["full"], made["c2c"], "--out", str(out)]) == 0, \
            capsys.readouterr().err
    html = out.read_text()
    leaderboard = html.split("<h2>Leaderboard", 1)[1].split("</table>", 1)[0]
    assert leaderboard.count("<tr>") == 2  # the header and the full run
    assert "is left out: it has no evaluated T2C and C2T queries" in html


def test_library_leaves_out_the_run_with_a_typed_reason(sel_cache, made):
    """was: recommend() ranked a run on whichever chosen tasks it had."""
    from coreb_core.analysis.selection import MISSING_TASKS, recommend_stored

    rec = recommend_stored("demo_v2603", [made["full"], made["c2c"]], n_permutations=200).recommendation
    assert [s.run for s in rec.standings] == [made["full"]]
    assert [(x.run, x.why, x.tasks) for x in rec.left_out] == [(made["c2c"], MISSING_TASKS, ("t2c", "c2t"))]
    assert rec.excluded["run"].tolist() == [made["c2c"]]


def test_selection_page_leaves_out_the_run_and_says_why(sel_cache, made):
    """was: the page ranked the C2C-only run second, on C2C alone, with a verdict against the full run."""
    from tests.builders import app_test

    at = app_test("selection.py", sel_cache, {"release": "demo_v2603", "runs": [made["full"], made["c2c"]]}).run()
    assert not at.exception and not at.error
    ranked = next(d.value for d in at.dataframe if "ci_low" in d.value.columns)
    assert ranked["run"].tolist() == [made["full"]]
    excluded = next(d.value for d in at.dataframe if "reason" in d.value.columns and "run" in d.value.columns)
    assert excluded["run"].tolist() == [made["c2c"]]
    # said beside the verdict, in its box: visible without scrolling to the table below
    texts = [t.value for t in at.text]
    verdict = next(i for i, t in enumerate(texts) if " ranks first with mean " in t)
    assert texts[verdict + 1].endswith("is left out: it has no evaluated T2C and C2T queries, so its mean would not "
                                       "cover every chosen task."), texts


# ---------------------------------------------------------------- strict JSON

def test_select_json_is_strict_json(sel_cache, made, capsys):
    """was: `"p": NaN` for the first run (json.dumps's default), which JSON.parse and jq refuse."""
    from coreb_core.cli import main

    assert main(["select", *ALL, "--runs", made["full"], made["mteb"], "--json"]) == 0
    text = capsys.readouterr().out
    out = _strict(text)
    assert "NaN" not in text
    assert [s["rank"] for s in out["standings"]] == [1, 2]
    assert (out["standings"][0]["p"], out["standings"][0]["p_holm"]) == (None, None)
    from coreb_core.data.store import Store

    with Store("demo_v2603", sel_cache) as store:  # both runs score every query of the release
        queries = store.sql("SELECT count(*) FROM queries").fetchone()[0]
    assert 0 <= out["standings"][1]["p_holm"] <= 1 and out["standings"][1]["compared"] == queries


# ---------------------------------------------------------------- two runs sharing no query

@pytest.fixture
def disjoint_runs(tiny_cache) -> tuple[str, str]:
    """Two T2C runs of the tiny release, each on one of its two T2C queries: no query in common."""
    from coreb_core.runs.folders import write_run
    from coreb_core.runs.hits import hits_from_scores

    docs = ["code_v202601_00001", "code_v202601_00002"]
    a = write_run(hits_from_scores("t2c", ["q_t2c_canonical_retro_any_0001"], docs, np.array([[0.9, 0.5]])),
                  {"run_id": "ra", "model": "bm25", "release": "tiny"}, tiny_cache)
    b = write_run(hits_from_scores("t2c", ["q_t2c_search_python_0002"], docs, np.array([[0.5, 0.9]])),
                  {"run_id": "rb", "model": "minilm", "release": "tiny"}, tiny_cache)
    return a, b


def test_select_two_runs_sharing_no_query(tiny_cache, disjoint_runs, capsys):
    """was: "vs #1: not distinguishable (p = 1)" and a verdict comparing two means over different queries."""
    from coreb_core.cli import main

    assert main(["select", "--release", "tiny", "--task", "t2c", "--runs", *disjoint_runs]) == 0
    out = capsys.readouterr().out
    assert "share no query in T2C (all languages), so they cannot be compared" in out
    assert "vs #1: not compared: no query in common" in out
    assert "p = 1" not in out and "nan" not in out.lower()


def test_select_json_two_runs_sharing_no_query(tiny_cache, disjoint_runs, capsys):
    """was: the second run's p = 1.0 (or NaN), as if a test had been made."""
    from coreb_core.cli import main

    assert main(["select", "--release", "tiny", "--task", "t2c", "--runs", *disjoint_runs, "--json"]) == 0
    second = _strict(capsys.readouterr().out)["standings"][1]
    assert (second["compared"], second["p"], second["p_holm"], second["significant"]) == (0, None, None, False)


# ---------------------------------------------------------------- stability with two models

def test_stability_refuses_two_different_models(sel_cache, made, capsys):
    """was: MTEB's BM25 recipe on v2603 set against our BM25 on v2602 without a word, as one model's shift."""
    with unchanged(sel_cache):
        refuses(["stability", "--run", made["old"], "--against", made["mteb"]], capsys,
                f"run {made['old']} is bm25, run {made['mteb']} is bm25s-mteb", "--any-model")


def test_stability_any_model_compares_anyway(sel_cache, made, capsys):
    """was: (the flag is new) the refusal above must leave a way to compare two models on purpose."""
    from coreb_core.cli import main

    assert main(["stability", "--run", made["old"], "--against", made["mteb"], "--any-model", "--json"]) == 0
    out = _strict(capsys.readouterr().out)
    assert (out["release_a"], out["release_b"]) == ("demo_v2602", "demo_v2603")
