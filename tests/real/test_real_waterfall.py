"""The protocol waterfall on the real release_v2603 (issue 36, item 7): BM25's C2C gains 8.4 points when the anchor
leaves its own list and its C2T loses 6.4 when the 190 queries without a positive count; and the ends of the article's
Qwen3 C2C finding: MTEB's files rise with size (37.7 / 48.5 / 54.9), the leaderboard falls (38.4 / 39.2 / 32.0)."""
from __future__ import annotations

import json
from pathlib import Path

from coreb_core.results.imported import all_rows, import_results
from coreb_core.retrieval.models import resolve
from coreb_core.views.waterfall import published_ends
from tests.builders import run_cli

MTEB_RESULTS = Path(__file__).resolve().parents[2].parent / "shared" / "mteb_results"


def test_bm25s_scoring_steps_on_the_real_release(real_cache):
    out = json.loads(run_cli("waterfall", "--release", "release_v2603", "--model", "bm25", "--json",
                             env={"COREB_CACHE": str(real_cache)}).stdout)
    change = {(s["task"], s["step"]): round(s["change"] * 100, 1) for s in out["steps"] if s["change"] is not None}
    assert change == {("t2c", "graded"): 0.0, ("t2c", "anchor"): 0.0, ("c2c", "graded"): 0.0,
                      ("c2c", "anchor"): 8.4, ("c2t", "graded"): -6.4, ("c2t", "anchor"): 0.0}
    queries = {(s["task"], s["step"]): s["queries"] for s in out["steps"]}
    assert queries[("c2t", "mteb")] == 1010 and queries[("c2t", "graded")] == 1200


def test_the_qwen3_c2c_ends_flip_with_the_protocol(tmp_path):
    for size in ("0.6B", "4B", "8B"):
        import_results(MTEB_RESULTS / f"Qwen__Qwen3-Embedding-{size}", root=tmp_path)
    rows = all_rows(tmp_path)
    c2c = {size: published_ends(rows, resolve(f"qwen3-embedding-{size.lower()}"), "release_v2603")["c2c"]
           for size in ("0.6B", "4B", "8B")}
    assert {s: round(e["mteb"] * 100, 1) for s, e in c2c.items()} == {"0.6B": 37.7, "4B": 48.5, "8B": 54.9}
    assert {s: round(e["leaderboard"] * 100, 1) for s, e in c2c.items()} == {"0.6B": 38.4, "4B": 39.2, "8B": 32.0}
