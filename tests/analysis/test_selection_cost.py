"""Model selection under speed and memory limits (issue 36, item 3): runs over a limit or without the measurement
it needs are left out with the reason said; the verdict states the chosen run's cost; the select verb takes the
limits and its --json carries each run's cost."""
import json
from dataclasses import replace

import pandas as pd
import pytest

from coreb_core.runs.cost import RunCost, cost_words
from tests.builders import run_cli

FAST = RunCost("lexical", "cpu", "none", texts=1000, seconds=0.5, peak_rss_gb=0.6, rss_scope="run")  # 0.5 ms/text
SLOW = RunCost("encode", "cpu", "float32", texts=1000, seconds=4.0, peak_rss_gb=2.5, rss_scope="run")  # 4 ms/text
CACHED = RunCost("encode", "cpu", "float32", texts=0, seconds=0.0, cached=1000, peak_rss_gb=0.9, rss_scope="run")


@pytest.fixture(scope="module")
def evaluated(lexical_cache):
    """The two lexical runs' per-query scores and traps on demo_v2603 (read-only)."""
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.evaluation.schemes import V2
    from coreb_core.runs.folders import read_hits, run_meta

    root, runs = lexical_cache
    metas = {r: run_meta(r, root) for r in runs.values()}
    store = Store("demo_v2603", root)
    tables = analyse_many(store, {r: read_hits(r, root) for r in metas}, (V2,), traps=True)
    return store, tables, metas, runs


def _recommend(evaluated, costs, **limits):
    from coreb_core.analysis.selection import recommend

    store, tables, metas, runs = evaluated
    metas = {r: replace(m, cost=costs[m.model]) for r, m in metas.items()}
    return recommend(store, tables.per_query("v2"), tables.traps, metas, ("t2c",), n_permutations=200, **limits)


def test_speed_limit_leaves_out_the_slow_and_the_unmeasured(evaluated):
    from coreb_core.analysis.selection import OVER_SPEED, SPEED_UNMEASURED
    from coreb_core.present.selection import evidence_sentence, left_out_sentence, recommendation_sentence

    runs = evaluated[3]
    rec = _recommend(evaluated, {"bm25": FAST, "bm25s-mteb": SLOW}, max_ms_per_text=1.0)
    assert [s.run for s in rec.standings] == [runs["bm25"]] and rec.standings[0].cost == FAST
    (left,) = rec.left_out
    assert (left.run, left.why, left.measured, left.limit) == (runs["bm25s-mteb"], OVER_SPEED, 4.0, 1.0)
    assert rec.excluded["reason"].tolist() == ["4 ms per text exceed the 1 ms limit"]
    assert left_out_sentence(left) == "bm25s-mteb · demo_v2603 is left out: its 4 ms per text exceed the 1 ms limit."
    assert "among our runs with at most 1 ms per text" in recommendation_sentence(rec)
    assert evidence_sentence(rec, "v2").endswith(f" Its cost: {cost_words(FAST)}.")
    assert cost_words(FAST) == ("0.5 ms per text (index and search, no encoder; wall only, load unknown) on cpu; "
                                "peak memory 0.60 GB (process RSS)")
    row = rec.ranked.iloc[0]  # lexical: per query (here no query count: per text), off the encoding axis
    assert (row["ms_per_query"], row["peak_memory_gb"]) == (0.5, 0.6) and pd.isna(row["texts_per_s"])
    # not measured: an older run (no cost) and a run whose vectors all came from the cache; neither passes silently
    rec = _recommend(evaluated, {"bm25": None, "bm25s-mteb": CACHED}, max_ms_per_text=100.0)
    assert not rec.standings and [x.why for x in rec.left_out] == [SPEED_UNMEASURED, SPEED_UNMEASURED]
    assert sorted(rec.excluded["reason"]) == ["speed not measured", "speed not measured (vectors from the embedding cache)"]
    assert recommendation_sentence(rec).startswith("No run qualifies for T2C · all languages · no parameter limit · "
                                                   "at most 100 ms per text")


def test_memory_limit_and_no_limit(evaluated):
    from coreb_core.analysis.selection import MEMORY_UNMEASURED, OVER_MEMORY

    runs = evaluated[3]
    rec = _recommend(evaluated, {"bm25": FAST, "bm25s-mteb": SLOW}, max_memory_gb=1.0)
    assert [s.run for s in rec.standings] == [runs["bm25"]]
    assert [(x.why, x.measured) for x in rec.left_out] == [(OVER_MEMORY, 2.5)]
    assert rec.excluded["reason"].tolist() == ["2.5 GB peak memory exceeds the 1 GB limit"]
    # a run served by the cache loaded no model: its process peak is not the model's memory, so it is unmeasured
    rec = _recommend(evaluated, {"bm25": FAST, "bm25s-mteb": CACHED}, max_memory_gb=1.0)
    assert [s.run for s in rec.standings] == [runs["bm25"]] and [x.why for x in rec.left_out] == [MEMORY_UNMEASURED]
    assert rec.excluded["reason"].tolist() == ["peak memory not measured (vectors from the embedding cache: no model "
                                               "loaded)"]
    rec = _recommend(evaluated, {"bm25": None, "bm25s-mteb": FAST}, max_memory_gb=1.0)
    assert [x.why for x in rec.left_out] == [MEMORY_UNMEASURED] and rec.left_out[0].run == runs["bm25"]
    # no cost limit: nothing is left out for its cost, measured or not
    rec = _recommend(evaluated, {"bm25": None, "bm25s-mteb": SLOW})
    assert len(rec.standings) == 2 and not rec.left_out


def test_select_verb_takes_the_limits_and_json_carries_the_cost(unmeasured_cost_cache):
    root, runs = unmeasured_cost_cache
    env = {"COREB_CACHE": str(root)}
    done = run_cli("select", "--release", "demo_v2603", "--task", "t2c", "--max-ms-per-text", "1000", "--json", env=env)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["max_ms_per_text"] == 1000.0 and data["max_memory_gb"] is None
    (kept,) = data["standings"]
    assert kept["run"] == runs["bm25"] and kept["cost"]["kind"] == "lexical" and kept["cost"]["device"] == "cpu"
    # a lexical run: its figure is per query (index and search), not an encoding speed (issue 48)
    assert kept["texts_per_s"] is None and kept["ms_per_text"] is None and kept["ms_per_query"] > 0
    assert kept["cost"]["cpu_s"] > 0 and kept["speed_basis"] == "cpu"
    assert [(x["run"], x["why"]) for x in data["left_out"]] == [(runs["bm25s-mteb"], "speed_unmeasured")]
    done = run_cli("select", "--release", "demo_v2603", "--task", "t2c", "--max-memory-gb", "0.001", env=env)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[1].startswith("No run qualifies for T2C · all languages · no parameter "
                                                        "limit · at most 0.001 GB peak memory")
    assert any("GB peak memory exceeds the 0.001 GB limit" in line for line in lines)
    assert any("its run recorded no peak memory" in line for line in lines)
    # no limit: both ranked, each line with its cost (or "cost not measured")
    done = run_cli("select", "--release", "demo_v2603", "--task", "t2c", env=env)
    ranked = [line for line in done.stdout.splitlines() if line[:5].strip().rstrip(".").isdigit()]
    assert len(ranked) == 2 and sum("CPU-ms per query (index and search" in line for line in ranked) == 1
    assert sum("cost not measured" in line for line in ranked) == 1
    assert "Its cost: " in done.stdout.splitlines()[2] or "Its cost was not measured." in done.stdout.splitlines()[2]
    listing = json.loads(run_cli("runs", "list", "--release", "demo_v2603", "--json", env=env).stdout)
    costs = {r["run_id"]: r["cost"] for r in listing}
    assert costs[runs["bm25s-mteb"]] is None and costs[runs["bm25"]]["texts"] > 0


@pytest.mark.parametrize("option", ["--max-ms-per-text", "--max-memory-gb"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "1e999", "fast"])
def test_cost_limits_not_a_finite_positive_number_are_one_error_line(unmeasured_cost_cache, capsys, option, value):
    from coreb_core.cli import main

    root, _ = unmeasured_cost_cache
    with pytest.MonkeyPatch.context() as env:
        env.setenv("COREB_CACHE", str(root))
        code = main(["select", "--release", "demo_v2603", option, value])
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and not out and "Traceback" not in err
    assert lines == [f"error: {option}: must be a finite number above 0, not {value!r}"]


def test_library_refuses_what_the_cli_refuses(unmeasured_cost_cache):
    from coreb_core.analysis.selection import recommend_stored
    from coreb_core.errors import CorebError

    root, _ = unmeasured_cost_cache
    for kwargs, message in (({"max_ms_per_text": float("nan")}, "the ms per text limit must be a finite number above 0"),
                            ({"max_memory_gb": -2.0}, "the GB of peak memory limit must be a finite number above 0")):
        with pytest.raises(CorebError, match=message):
            recommend_stored("demo_v2603", root=root, **kwargs)
