"""Runs that share no query on the task compared: a BM25 run made with ``--tasks c2c`` beside a full BM25 run
(and MTEB's BM25 recipe, for three runs) on CoREB-mini's demo_v2603, compared on T2C, on the Compare runs page
and with the ``compare`` and ``contrast`` verbs (issue 31, item 3)."""
from __future__ import annotations

import shutil

import pytest

from coreb_core.analysis.comparison import pair_deltas, split_runs
from tests.builders import app_test
from tests.hostile.conftest import unchanged

RELEASE = "demo_v2603"


@pytest.fixture(scope="module")
def c2c_beside_full(mini_data, tmp_path_factory):
    """A cache with three runs of demo_v2603: BM25 on every task, BM25 on C2C only, MTEB's BM25 on every task."""
    from coreb_core.retrieval.pipeline import run_retrieval

    root = tmp_path_factory.mktemp("no-shared") / "cache"
    shutil.copytree(mini_data, root, symlinks=True, ignore=shutil.ignore_patterns("runs", "embeddings", "results"))
    runs = {"full": run_retrieval("bm25", RELEASE, root=root).run_id,
            "c2c": run_retrieval("bm25", RELEASE, tasks=("c2c",), root=root).run_id,
            "mteb": run_retrieval("bm25s-mteb", RELEASE, root=root).run_id}
    return root, runs


def test_pair_deltas_of_runs_sharing_no_query_keep_their_columns(c2c_beside_full):
    """was: without a shared query ``pair_deltas(…, store=…)`` left out the subtask and query columns, and the
    Compare page's ``deltas["query"]`` raised KeyError: 'query'."""
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import read_hits

    root, runs = c2c_beside_full
    with Store(RELEASE, root) as store:
        per_query = analyse_many(store, {r: read_hits(r, root) for r in (runs["full"], runs["c2c"])}).per_query("v2")
        parts = split_runs(per_query, "t2c", [runs["full"], runs["c2c"]])
        deltas = pair_deltas(parts, runs["full"], runs["c2c"], store=store)
    assert len(parts[runs["full"]]) == 720 and len(parts[runs["c2c"]]) == 0
    assert len(deltas) == 0
    assert {"query_id", "delta", "outcome", "subtask", "query"} <= set(deltas.columns)


def test_compare_page_says_a_run_scored_no_query_of_the_task(c2c_beside_full):
    """was: an exception box, KeyError: 'query' (the pair of a C2C-only run and a full run on T2C)."""
    root, runs = c2c_beside_full
    with unchanged(root):
        at = app_test("compare.py", root, {"release": RELEASE, "task": "t2c",
                                           "runs": [runs["full"], runs["c2c"]]}).run()
    assert not at.exception, [e.value for e in at.exception]
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 1 and "scored no Text → code (T2C) query" in warnings[0], warnings
    assert "(2)" in warnings[0]  # the label of the C2C-only run (the second BM25 run of the release)
    assert not at.dataframe  # no empty tables under it
    assert at.query_params["compare"] == [runs["full"], runs["c2c"]]  # the link keeps the runs


def test_compare_page_with_a_pair_that_shares_no_query_among_three(c2c_beside_full):
    """was: an exception box, KeyError: 'query', when the chosen pair (``pair=`` in a link) was the C2C-only run
    and another."""
    root, runs = c2c_beside_full
    ids = [runs["full"], runs["c2c"], runs["mteb"]]
    with unchanged(root):
        at = app_test("compare.py", root, {"release": RELEASE, "task": "t2c", "runs": ids,
                                           "pair": f"{runs['full']},{runs['c2c']}",
                                           "contrast": f"{runs['full']},{runs['c2c']}"}).run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.warning) == 1 and "scored no Text → code (T2C) query" in at.warning[0].value
    assert at.selectbox(key="compare_pair").value == (runs["full"], runs["c2c"])
    deltas = [d.value for d in at.dataframe if "outcome" in d.value.columns]
    assert len(deltas) == 1 and len(deltas[0]) == 0  # the pair's per-query table: empty, no error
    pairs = [d.value for d in at.dataframe if "mean_delta" in d.value.columns][0]
    shared = dict(zip(zip(pairs["a"], pairs["b"]), pairs["shared"]))
    assert shared[(runs["full"], runs["mteb"])] == 720 and shared[(runs["full"], runs["c2c"])] == 0


@pytest.mark.parametrize("verb, words", [("compare", "share no queries on T2C nDCG@10: there is nothing to compare."),
                                         ("contrast", "share no query on t2c: there is nothing to contrast.")])
def test_cli_says_the_runs_share_no_query(c2c_beside_full, monkeypatch, capsys, verb, words):
    """was: ``compare`` added "Paired t-test: p = 1." to "nothing to compare", and ``contrast`` printed
    "mean tau_ap nan over 0 queries"."""
    from coreb_core.cli import main

    root, runs = c2c_beside_full
    monkeypatch.setenv("COREB_CACHE", str(root))
    with unchanged(root):
        code = main([verb, "--release", RELEASE, "--task", "t2c", "--run", runs["full"], runs["c2c"]])
    out, err = capsys.readouterr()
    assert code == 0 and not err
    lines = out.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith(words), lines
