"""``traps`` prints the numbers the Trap analysis page shows, for the same release, runs, task, scheme and anchor
rule: under v1 and v2 (the trap numbers are grade-based and nDCG@10 is v2's, so they also agree across schemes)."""
from __future__ import annotations

import json

import pytest

from coreb_core.cli import main
from tests.builders import app_test, one_table


def cli_json(capsys, monkeypatch, root, *argv: str) -> dict:
    monkeypatch.setenv("COREB_CACHE", str(root))
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def pct(value: float) -> float:
    return round(value * 100, 1)


@pytest.mark.parametrize("scheme", ["v1", "v2"])
def test_traps_prints_what_the_page_shows(scheme, lexical_cache, capsys, monkeypatch):
    root, runs = lexical_cache
    ids = [runs["bm25"], runs["bm25s-mteb"]]
    at = app_test("traps.py", root, {"release": "demo_v2603", "scheme": scheme, "task": "c2c", "runs": ids,
                                  "level": "subtask"}).run()
    assert not at.exception
    assert [e.value for e in at.error] == []
    page_breakdown = one_table(at, "share_trap_above_positive", "group").set_index(["run", "group"])
    page_kinds = one_table(at, "kind_label", "share_of_top_k")
    view = cli_json(capsys, monkeypatch, root, "traps", "--release", "demo_v2603", "--run", *ids, "--task", "c2c",
                    "--scheme", scheme, "--level", "subtask")
    assert view["scheme"] == scheme
    # the first table: one row per run and C2C subtask
    assert sorted(page_breakdown.index) == sorted((r["run"], r["group"]) for r in view["breakdown"])
    assert len(view["breakdown"]) == 2 * 3
    for row in view["breakdown"]:
        shown = page_breakdown.loc[(row["run"], row["group"])]
        assert shown["share_trap_above_positive"] == pct(row["share_trap_above_positive"])
        assert shown["ndcg_at_10"] == pct(row["ndcg_at_10"])
        assert shown["queries_trap_above_positive"] == row["queries_trap_above_positive"]
        assert shown["traps_in_top_10_per_query"] == pytest.approx(row["traps_in_top_10_per_query"], abs=1e-12)
    # why traps win: kinds by subtask, the same rows and counts
    kinds = sorted((r["run"], r["subtask"], r["kind"], r["trap_wins"], pct(r["share_of_wins"]))
                   for r in view["kinds"]["by_subtask"])
    assert kinds == sorted(zip(page_kinds["run"], page_kinds["subtask"], page_kinds["kind"],
                               page_kinds["trap_wins"], page_kinds["share_of_wins"]))
    assert sum(k[3] for k in kinds) > 0  # something to compare: BM25 loses C2C queries to traps


def test_traps_text_says_the_breakdown_of_the_json(lexical_cache, capsys, monkeypatch):
    root, runs = lexical_cache
    argv = ["traps", "--release", "demo_v2603", "--run", runs["bm25"], "--task", "c2c", "--scheme", "v1"]
    row = cli_json(capsys, monkeypatch, root, *argv)["breakdown"][0]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert (f"  c2c c2c: {row['queries_trap_above_positive']:,} of {row['queries_with_positive']:,} queries with a "
            f"positive lost to a trap ({pct(row['share_trap_above_positive'])}%)") in text
