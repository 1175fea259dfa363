"""On the real release_v2603: each lexical run made here measured its cost (every text it indexed and scored,
on the CPU), and Model selection's speed and memory limits act on it alike on the page and in `select --json`."""
from __future__ import annotations

import json

from tests.builders import app_test, run_cli


def test_real_lexical_runs_measured_their_cost_and_the_limits_use_it(real_cache, real_runs):
    from coreb_core.data.store import Store
    from coreb_core.runs.folders import run_meta

    with Store("release_v2603", real_cache) as s:  # T2C and C2C each index the code corpus
        queries, code, text = (s.sql(q).fetchone()[0] for q in (
            "SELECT count(*) FROM queries", "SELECT count(*) FROM documents WHERE corpus = 'code'",
            "SELECT count(*) FROM documents WHERE corpus = 'text'"))
    costs = {model: run_meta(run, real_cache).cost for model, run in real_runs.items() if model.startswith("bm25")}
    for cost in costs.values():
        assert cost is not None and (cost.kind, cost.device, cost.cached) == ("lexical", "cpu", 0)
        assert (cost.documents, cost.queries) == (2 * code + text, queries) and cost.texts_per_s > 0
        assert 0.05 < cost.peak_rss_gb < 64
    env = {"COREB_CACHE": str(real_cache)}
    runs = [real_runs["bm25"], real_runs["bm25s-mteb"]]
    slow = max(c.ms_per_text for c in costs.values())
    limit = f"{slow * 2:g}"
    data = json.loads(run_cli("select", "--release", "release_v2603", "--runs", *runs, "--task", "t2c",
                              "--max-ms-per-text", limit, "--json", env=env, timeout=600).stdout)
    assert sorted(s["run"] for s in data["standings"]) == sorted(runs) and not data["left_out"]
    assert all(s["cost"]["texts"] == s["cost"]["documents"] + s["cost"]["queries"] for s in data["standings"])
    # Lexical runs encode nothing: an encoding-speed limit does not apply to them (issue 48); their figure is per
    # query (index and search), in its own column, and no run is left out for speed
    at = app_test("selection.py", real_cache, {"release": "release_v2603", "runs": runs, "sel_tasks": "t2c",
                                               "max_ms": f"{min(c.ms_per_text for c in costs.values()) / 2:g}"},
                  timeout=300).run()
    assert not at.exception and not at.error
    ranked = next(d.value for d in at.dataframe if "ms_per_query" in d.value.columns)
    assert sorted(ranked["run"]) == sorted(runs) and (ranked["ms_per_query"] > 0).all()
    assert not any("ms per text exceed the" in str(v) for d in at.dataframe if "reason" in d.value.columns
                   for v in d.value["reason"])
