"""``python -m coreb_core eval``: stored runs and TREC files, JSON shape, groups, bad files."""
from __future__ import annotations

import json

import numpy as np
import pytest

from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import evaluate, summary
from coreb_core.evaluation.schemes import V1, V2
from coreb_core.runs.folders import new_run_id, write_run
from coreb_core.runs.hits import concat_hits, hits_from_scores
from tests.builders import run_cli


@pytest.fixture
def stored_run(mini_data):
    """A random run over every task of demo_v2603, stored in the mini cache."""
    with Store("demo_v2603", mini_data) as store:
        frames = []
        rng = np.random.default_rng(5)
        for task, corpus in (("t2c", "code"), ("c2c", "code"), ("c2t", "text")):
            qids = [r[0] for r in store.sql("SELECT query_id FROM queries WHERE task = ? ORDER BY 1", [task]).fetchall()]
            docs = [r[0] for r in store.sql("SELECT doc_id FROM documents WHERE corpus = ?", [corpus]).fetchall()]
            frames.append(hits_from_scores(task, qids, docs, rng.random((len(qids), len(docs))), top_k=20))
        hits = concat_hits(frames)
        run_id = new_run_id("random", "demo_v2603")
        write_run(hits, {"run_id": run_id, "release": "demo_v2603", "model": "random"}, mini_data)
        return run_id, hits, summary(evaluate(store, hits, V2)), summary(evaluate(store, hits, V1))


def test_eval_json_equals_library(mini_data, stored_run):
    run_id, _, v2, v1 = stored_run
    env = {"COREB_CACHE": str(mini_data)}
    for scheme, expected in (("v2", v2), ("v1", v1)):
        done = run_cli("eval", "--release", "demo_v2603", "--run", run_id, "--scheme", scheme, "--json", env=env)
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert report["release"] == "demo_v2603" and report["scheme"] == scheme
        assert set(report["tasks"]) == {"t2c", "c2c", "c2t"}
        for task in report["tasks"]:
            for name in ("ndcg_at_10", "map_at_10", "recall_at_10", "precision_at_10", "mrr_at_10", "hit_rate_at_10"):
                assert report["tasks"][task][name] == pytest.approx(expected["tasks"][task][name], abs=1e-12)


def test_eval_groups_and_trec_file(mini_data, stored_run, tmp_path):
    run_id, hits, v2, _ = stored_run
    trec = tmp_path / "run.trec"
    with trec.open("w") as f:
        for r in hits.itertuples():
            f.write(f"{r.query_id} Q0 {r.doc_id} {r.rank} {r.score!r} test\n")
    env = {"COREB_CACHE": str(mini_data)}
    done = run_cli("eval", "--release", "demo_v2603", "--run-file", str(trec), "--task", "t2c", "--by", "subtask",
                   "--json", env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert list(report["tasks"]) == ["t2c"]
    assert report["tasks"]["t2c"]["ndcg_at_10"] == pytest.approx(v2["tasks"]["t2c"]["ndcg_at_10"], abs=1e-12)
    groups = report["groups"]["t2c"]
    assert len(groups) == 18 and sum(g["queries"] for g in groups.values()) == report["tasks"]["t2c"]["queries"]


def test_eval_refuses_bad_input_in_one_line(mini_data, tmp_path):
    env = {"COREB_CACHE": str(mini_data)}
    bad = tmp_path / "bad.trec"
    bad.write_text("q_t2c_search_any_0001 Q0 code_v202603_00001 1 nan x\n")
    for args, expected in ((["--run-file", str(bad)], "bad.trec: row 1: field 'score': must be finite"),
                           (["--run", "nope"], "run 'nope' not found"),
                           (["--run-file", str(bad), "--scheme", "v3"], "unknown scheme 'v3'")):
        done = run_cli("eval", "--release", "demo_v2603", *args, env=env)
        assert done.returncode == 2 and expected in done.stderr and "Traceback" not in done.stderr
