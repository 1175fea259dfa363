"""A published number reproduced from the real data: MTEB's ``mteb/baseline-bm25s`` CoREB scores
(shared/mteb_results) from our ``bm25s-mteb`` run on release_v2603 scored with scheme ``mteb``."""
from __future__ import annotations

import json

import pytest

from tests.builders import REPO, run_cli

MTEB_BM25 = REPO.parent / "shared" / "mteb_results" / "mteb__baseline-bm25s" / "0_1_10"


def _published(task: str) -> dict:
    path = MTEB_BM25 / f"Coreb{task.upper()}Retrieval.json"
    if not path.is_file():
        pytest.skip(f"MTEB's result files are absent ({path})")
    return json.loads(path.read_text())["scores"]["test"][0]


def test_bm25s_mteb_under_scheme_mteb_equals_mtebs_published_bm25s(real_cache):
    from coreb_core.runs.folders import list_runs

    [run] = [m.run_id for m in list_runs("release_v2603", real_cache) if m.model == "bm25s-mteb"]
    done = run_cli("eval", "--release", "release_v2603", "--run", run, "--scheme", "mteb", "--json",
                   env={"COREB_CACHE": str(real_cache)})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["anchor_exclusion"] is False  # MTEB keeps the C2C anchor
    assert {t: m["queries"] for t, m in report["tasks"].items()} == {"t2c": 1123, "c2c": 278, "c2t": 1010}
    for task, ours in report["tasks"].items():
        published = _published(task)
        for metric in ("ndcg_at_10", "recall_at_10", "map_at_10"):
            assert ours[metric] == pytest.approx(published[metric], abs=1e-5), (task, metric)


def test_scheme_mteb_refuses_anchor_exclusion(real_cache):
    from coreb_core.data.store import Store
    from coreb_core.errors import CorebError
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.evaluation.schemes import MTEB
    from coreb_core.runs.folders import list_runs, read_hits

    [run] = [m.run_id for m in list_runs("release_v2603", real_cache) if m.model == "bm25"]
    with Store("release_v2603", real_cache) as store, pytest.raises(CorebError, match="keeps the C2C anchor"):
        evaluate(store, read_hits(run, real_cache), MTEB, anchor_exclusion=True)
