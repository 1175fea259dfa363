"""Verdicts that say what the test says (issue 48, items 3 and 4), on CoREB-mini: two BM25 runs of one release tie on
every query, and the select, tiers and report words say a tie; a choice among our runs names the published models
above it; a shown difference has no sign when it rounds to zero; a p-value has no more digits than its flips."""
from __future__ import annotations

import re
import shutil
from html import unescape
from pathlib import Path

import pytest

from coreb_core.paths import datasets_dir


@pytest.fixture(scope="module")
def twin_bm25(mini_data, tmp_path_factory) -> tuple[Path, list[str]]:
    """CoREB-mini and two BM25 runs of demo_v2603 (the same hits: 1,200 ties, 0 wins, 0 losses)."""
    from coreb_core.retrieval.pipeline import run_retrieval

    root = tmp_path_factory.mktemp("twins") / "cache"
    shutil.copytree(datasets_dir(mini_data), datasets_dir(root))
    return root, [run_retrieval("bm25", "demo_v2603", root=root).run_id for _ in range(2)]


def _views(root: Path, runs: list[str], **slice_):
    from coreb_core.views import published, selection
    from coreb_core.views.inputs import Inputs
    from coreb_core.views.scope import Scope

    scope, inputs = Scope.of("demo_v2603", runs, root=root), Inputs(root)
    return (selection.build(scope, inputs=inputs, **slice_),
            published.build(scope, inputs=inputs, **{k: v for k, v in slice_.items() if k != "average"}))


def test_a_tie_is_said_as_a_tie(twin_bm25):
    """Before: 'No clear winner: bm25 · demo_v2603 leads bm25 · demo_v2603 (2) … (38.3 vs 38.3, 0.0 points ahead)',
    then 'The recommended run is in tier 1 of 1 …'."""
    root, runs = twin_bm25
    view, _ = _views(root, runs)
    lines = view.lines()
    text = "\n".join(lines)
    assert lines[1] == ("No clear winner: bm25 · demo_v2603 and bm25 · demo_v2603 (2) cannot be told apart on nDCG@10 "
                        "for T2C, C2C, C2T (all languages) among our runs (38.3 and 38.3, p = 1.0 after Holm "
                        "correction).")
    assert lines[2].startswith("bm25 · demo_v2603 is listed first with mean nDCG@10 38.3")
    assert lines[3] == ("No run is recommended: all 2 runs share tier 1, and no significant difference sets any of "
                        "them apart.")
    for word in ("leads", "points ahead", "recommended run", "ranks first"):
        assert word not in text, word


def test_report_says_the_tie_and_the_published_models_above(twin_bm25):
    """Before: 'Choose … among all runs' above published models at 61–65, and '+0.0' in the Δ column of a tie."""
    from coreb_core import report

    root, runs = twin_bm25
    view, figures = _views(root, runs)
    page = unescape(re.sub(r"<[^>]+>", " ", report.html(view, figures)))
    assert "among our runs" in page and "among all runs" not in page
    assert ("Published models score higher on this slice and were not run here: GemEmb-2 64.8, C2LLM-7B 63.2, "
            "Jina-code-emb-1.5B 61.6, C2LLM-0.5B 61.3, Jina-code-emb-0.5B 60.6 and 6 more (published figures, real "
            "CoREB v202603, not this release).") in page
    assert "+0.0" not in page and "leads" not in page and "recommended run" not in page


def test_a_single_run_is_chosen_among_our_runs(twin_bm25):
    root, runs = twin_bm25
    view, figures = _views(root, runs[:1], tasks=("t2c",))
    verdict = view.lines()[1]
    assert verdict.startswith("Choose bm25 · demo_v2603: it is the only run that qualifies for T2C (all languages) "
                              "among our runs")
    assert figures.above_sentence(view.recommendation).startswith(
        "Published models score higher on this slice and were not run here: C2LLM-7B 44.3, GemEmb-2 43.4")


def test_a_published_model_run_here_is_not_named():
    import pandas as pd

    from coreb_core.analysis.selection import Recommendation, Standing
    from coreb_core.data.schema import LANGUAGE_SCOPES
    from coreb_core.present.selection import published_above_sentence

    top = Standing(1, "r", "jina", 0.5, 9, 0.5, 0.4, 0.6, 0.1, 0.0, float("nan"), float("nan"), False, 0, 0, 0)
    rec = Recommendation(pd.DataFrame(), pd.DataFrame(), ("t2c",), LANGUAGE_SCOPES, None, "tasks", standings=(top,))
    pub = pd.DataFrame({"model": ["Jina-code-emb-1.5B", "C2LLM-7B"], "mean": [0.6, 0.7]})
    assert published_above_sentence(rec, pub, "this release", frozenset({"Jina-code-1.5B"})) == (
        "Published models score higher on this slice and were not run here: C2LLM-7B 70.0 (published figures, "
        "this release).")


def test_a_shown_difference_that_rounds_to_zero_has_no_sign():
    """Before: the report printed '+0.0' for a difference of −0.04 points."""
    from coreb_core.present.numbers import shown_difference, signed_points

    assert signed_points(shown_difference(0.38296, 0.3834) / 100) == "0.0"
    assert signed_points(-0.0004) == "0.0"
    assert signed_points(-0.0006) == "−0.1"
