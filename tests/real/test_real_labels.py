"""Issue 45 on the real release_v2603: what the corrected labels change (``changes``), and judgments (``judge``,
``judgments``, the ``judged`` scheme) on the real texts, kept across a re-import of the release."""
from __future__ import annotations

import json
import shutil

import pytest

from coreb_core.data.judgments import agreement, judge, list_judgments
from coreb_core.data.store import Store
from coreb_core.runs.folders import list_runs
from tests.builders import run_cli
from tests.conftest import REAL_DATA

RELEASE = "release_v2603"


def _runs(root) -> dict[str, str]:
    return {m.model: m.run_id for m in list_runs(RELEASE, root)}


def test_changes_under_executed_labels(real_cache):
    runs = _runs(real_cache)
    done = run_cli("changes", "--release", RELEASE, "--run", runs["bm25"], runs["bm25s-mteb"], "--json",
                   env={"COREB_CACHE": str(real_cache)})
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    table = {(r["run"], r["task"]): r for r in data["tasks"]}
    bm25, lexical = table[(runs["bm25"], "c2c")], table[(runs["bm25s-mteb"], "c2c")]
    assert (round(bm25["base"], 4), round(bm25["other"], 4)) == (0.3548, 0.3450)
    assert (bm25["moved"], bm25["up"], bm25["down"]) == (139, 63, 76)
    assert (round(lexical["base"], 4), round(lexical["other"], 4), lexical["moved"]) == (0.2983, 0.2905, 120)
    assert all(r["moved"] == 0 for (_, task), r in table.items() if task != "c2c")
    assert data["verdict_flips"] is False and not any(r["moved"] for r in data["runs"])
    assert [r["run"] for r in data["runs"]] == [runs["bm25"], runs["bm25s-mteb"]]


@pytest.fixture
def judging_cache(real_cache, tmp_path):
    """A copy of the real cache to judge in (the session's cache is shared and never written)."""
    copy = tmp_path / "cache"
    shutil.copytree(real_cache, copy, symlinks=True, ignore=shutil.ignore_patterns("joins"))
    return copy


def test_judgments_on_the_real_release_rescore_and_survive_a_reimport(judging_cache):
    from coreb_core.results.uploads import import_dataset

    root = judging_cache
    env = {"COREB_CACHE": str(root)}
    bm25 = _runs(root)["bm25"]
    with Store(RELEASE, root) as store:  # an unjudged passing solution the executed view promotes, and a trap
        rows = store.sql("""
            SELECT e.query_id, e.doc_id, r.relevance FROM qrels_executed e LEFT JOIN qrels r USING (task, query_id, doc_id)
            WHERE e.task = 'c2c' AND e.relevance = 2 AND (r.relevance IS NULL OR r.relevance = 1)
            ORDER BY r.relevance NULLS FIRST, e.query_id, e.doc_id""").fetchall()
    from coreb_core.runs.folders import read_hits

    hits = read_hits(bm25, root)
    top10 = set(zip(hits.loc[hits["rank"] <= 10, "query_id"].astype(str), hits.loc[hits["rank"] <= 10, "doc_id"]))
    promoted = next(r for r in rows if r[2] is None and (r[0], r[1]) in top10)  # BM25 ranks it in its top 10
    trap = rows[-1]
    assert trap[2] == 1
    for annotator, grade in (("ada", 2), ("grace", 2)):
        made = run_cli("judge", "--release", RELEASE, "--query", promoted[0], "--doc", promoted[1], "--grade",
                       str(grade), "--annotator", annotator, env=env)
        assert made.returncode == 0, made.stderr
    judge(RELEASE, trap[0], trap[1], 2, "ada", note="passes every test", root=root)
    judge(RELEASE, trap[0], trap[1], 1, "grace", root=root)
    [pair] = agreement(RELEASE, root)
    assert (pair.annotator_a, pair.annotator_b, pair.pairs, pair.observed) == ("ada", "grace", 2, 0.5)

    def judged_scores():
        out = run_cli("eval", "--release", RELEASE, "--run", bm25, "--task", "c2c", "--scheme", "judged", "--by",
                      "query", "--json", env=env)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    before = judged_scores()
    v2 = json.loads(run_cli("eval", "--release", RELEASE, "--run", bm25, "--task", "c2c", "--by", "query", "--json",
                            env=env).stdout)
    # the judgments of a top-10 document moved its query, and the task's mean with it
    assert before["tasks"]["c2c"]["ndcg_at_10"] > v2["tasks"]["c2c"]["ndcg_at_10"]
    # a re-import of the same release (a new version of its files) keeps every judgment, and each still applies
    import_dataset(REAL_DATA, split=RELEASE, root=root)
    assert len(list_judgments(RELEASE, root)) == 4
    assert judged_scores() == before
    listing = run_cli("judgments", "--release", RELEASE, "--json", env=env)
    assert listing.returncode == 0, listing.stderr
    statuses = sorted(j["status"] for j in json.loads(listing.stdout)["judgments"])
    assert statuses == ["applied", "applied", "superseded", "superseded"]
    out = root.parent / "judged.qrels"
    exported = run_cli("judgments", "--release", RELEASE, "--export", "trec", "--out", str(out), env=env)
    assert exported.returncode == 0, exported.stderr
    lines = set(out.read_text().splitlines())
    assert f"{promoted[0]} 0 {promoted[1]} 2" in lines and f"{trap[0]} 0 {trap[1]} 1" in lines
    with Store(RELEASE, root) as store:
        assert len(lines) == store.sql("SELECT count(*) FROM qrels").fetchone()[0] + 1  # one pair added
