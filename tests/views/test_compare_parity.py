"""``compare``, ``contrast`` and ``difficulty`` print the numbers the Compare page shows for the same release, runs,
task, metric, scheme and anchor rule, under v1 and under v2 (where, unlike the trap numbers, they differ)."""
from __future__ import annotations

import json

import pytest

from coreb_core.cli import main
from tests.builders import app_test, one_table

RELEASE, TASK = "demo_v2603", "t2c"


def pct(value: float) -> float:
    return round(value * 100, 1)


def verb(capsys, monkeypatch, root, *argv: str) -> dict:
    monkeypatch.setenv("COREB_CACHE", str(root))
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def pages(lexical_cache):
    """The Compare page under each scheme, for the two lexical runs (one AppTest run each)."""
    root, runs = lexical_cache
    ids = [runs["bm25"], runs["bm25s-mteb"]]
    shown = {}
    for scheme in ("v1", "v2"):
        at = app_test("compare.py", root, {"release": RELEASE, "scheme": scheme, "task": TASK, "runs": ids,
                                           "compare": ids, "pair": ",".join(ids), "contrast": ",".join(ids)}).run()
        assert not at.exception
        assert [e.value for e in at.error] == []
        shown[scheme] = {"pairs": one_table(at, "delta_points"), "intervals": one_table(at, "ci_low"),
                         "contrasts": one_table(at, "overlap"), "problems": one_table(at, "worst_query")}
    return root, ids, shown


@pytest.mark.parametrize("scheme", ["v1", "v2"])
def test_compare_prints_the_pages_verdicts_and_intervals(scheme, pages, capsys, monkeypatch):
    root, ids, shown = pages
    view = verb(capsys, monkeypatch, root, "compare", "--release", RELEASE, "--run", *ids, "--task", TASK,
                "--scheme", scheme)
    assert view["scheme"] == scheme
    page = shown[scheme]
    assert [pct(v["delta"]) for v in view["verdicts"]] == page["pairs"]["delta_points"].tolist()
    assert [v["shared"] for v in view["verdicts"]] == page["pairs"]["shared"].tolist()
    intervals = page["intervals"].set_index("run")
    for row in view["intervals"]:
        assert intervals.loc[row["run"], "mean"] == pct(row["mean"])
        assert intervals.loc[row["run"], "ci_low"] == pct(row["ci_low"])


@pytest.mark.parametrize("scheme", ["v1", "v2"])
def test_contrast_prints_the_pages_contrasting_queries(scheme, pages, capsys, monkeypatch):
    root, ids, shown = pages
    view = verb(capsys, monkeypatch, root, "contrast", "--release", RELEASE, "--run", *ids, "--task", TASK,
                "--scheme", scheme)
    page = shown[scheme]["contrasts"]
    assert [r["query_id"] for r in view["rows"]] == page["query_id"].tolist()
    assert [round(r["tau_ap"], 12) for r in view["rows"]] == [round(v, 12) for v in page["tau_ap"]]
    assert [pct(r["delta"]) for r in view["rows"]] == page["delta"].tolist()


@pytest.mark.parametrize("scheme", ["v1", "v2"])
def test_difficulty_prints_the_pages_problems(scheme, pages, capsys, monkeypatch):
    root, ids, shown = pages
    view = verb(capsys, monkeypatch, root, "difficulty", "--release", RELEASE, "--run", *ids, "--task", TASK,
                "--scheme", scheme)
    page = shown[scheme]["problems"]
    assert [r["problem_id"] for r in view["problems"]] == page["problem_id"].tolist()
    assert [pct(r["mean"]) for r in view["problems"]] == page["mean"].tolist()


def test_the_scheme_changes_what_both_show(pages):
    """v1 and v2 judge differently, so the page's (and the verbs') numbers move with the scheme."""
    _, _, shown = pages
    assert shown["v1"]["intervals"]["mean"].tolist() != shown["v2"]["intervals"]["mean"].tolist()


@pytest.mark.parametrize("scheme", ["v1", "v2"])
def test_select_prints_the_selection_pages_verdict(scheme, lexical_cache, capsys, monkeypatch):
    root, runs = lexical_cache
    ids = [runs["bm25"], runs["bm25s-mteb"]]
    at = app_test("selection.py", root, {"release": RELEASE, "scheme": scheme, "task": TASK, "runs": ids,
                                         "sel_tasks": "t2c,c2t", "sel_langs": "any,python"}).run()
    assert not at.exception
    assert [e.value for e in at.error] == []
    view = verb(capsys, monkeypatch, root, "select", "--release", RELEASE, "--runs", *ids, "--task", "t2c", "c2t",
                "--languages", "any", "python", "--scheme", scheme)
    page_text = " ".join(m.value for m in at.markdown)
    assert view["verdict"] in page_text.replace("\\", "")
    ranked = one_table(at, "ci_low")
    assert [pct(s["mean"]) for s in view["standings"]] == ranked["mean"].tolist()
