"""Releases never touch each other: importing one release (and pruning its old versions) leaves every
other release's versions, links and scores exactly as they were, even one whose name starts with the
first one's name and a dash (``demo_v2603`` and ``demo_v2603-fix``)."""
from __future__ import annotations

from coreb_core.data.store import Store, list_releases
from coreb_core.evaluation.evaluate import evaluate, summary
from coreb_core.paths import release_dir
from coreb_core.results.uploads import import_dataset
from coreb_core.runs.hits import hits_from_lists


def _scores(release: str, root) -> dict:
    """nDCG@10 per task of a fixed run: each query's judged documents, in reverse id order."""
    with Store(release, root) as store:
        task_of = dict(store.sql("SELECT query_id, task FROM queries").fetchall())
        judged = store.sql("SELECT query_id, doc_id FROM qrels ORDER BY query_id, doc_id DESC").fetchall()
        lists: dict[str, list[tuple[str, float]]] = {}
        for qid, doc in judged:
            lists.setdefault(qid, []).append((doc, 1.0 / (len(lists.get(qid, ())) + 1)))
        tasks = summary(evaluate(store, hits_from_lists(task_of, lists, "fixed")))["tasks"]
    return {task: values["ndcg_at_10"] for task, values in tasks.items()}


def test_reimporting_a_release_keeps_a_release_named_like_it_with_a_dash(own_cache):
    """was: re-importing demo_v2603 twice deleted demo_v2603-fix's only version (prefix match in pruning)."""
    import_dataset(release_dir("demo_v2603", own_cache), "demo_v2603-fix", root=own_cache)
    before = _scores("demo_v2603-fix", own_cache)
    fix_version = release_dir("demo_v2603-fix", own_cache).resolve()
    for _ in range(2):
        import_dataset(release_dir("demo_v2603", own_cache), "demo_v2603", root=own_cache)
    assert fix_version.is_dir() and release_dir("demo_v2603-fix", own_cache).resolve() == fix_version
    assert "demo_v2603-fix" in list_releases(own_cache)
    assert _scores("demo_v2603-fix", own_cache) == before


def test_a_release_name_with_a_line_break_is_refused(tiny_cache, tmp_path, capsys):
    """Was: "$" in the name pattern let "tiny2\\n" through, a release folder with a newline in its name."""
    from tests import dump
    from tests.hostile.conftest import refuses, unchanged

    src = dump.write_parquet_folder(tmp_path / "src", dump.rows())
    with unchanged(tiny_cache):
        refuses(["import-data", str(src), "--release", "tiny2\n"], capsys, "--release", "release")
