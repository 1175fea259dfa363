"""The command line on the real release: the breakdown of ``eval --by`` in text too, ``results`` with the
release and source of every number (no server path), ``sql --runs A B "SELECT …"``."""
from __future__ import annotations

from tests.builders import run_cli


def _runs(root) -> dict[str, str]:
    from coreb_core.runs.folders import list_runs

    return {m.model: m.run_id for m in list_runs("release_v2603", root)}


def test_eval_by_prints_the_breakdown_without_json(real_cache):
    """was: the groups were computed and dropped unless --json was given."""
    done = run_cli("eval", "--release", "release_v2603", "--run", _runs(real_cache)["bm25"], "--task", "t2c",
                   "--by", "subtask", env={"COREB_CACHE": str(real_cache)})
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if "t2c_search_go" in line]
    assert len(lines) == 1 and "nDCG@10 0.00" in lines[0]  # T2C search: near 0 on the real release
    assert "t2c by subtask:" in done.stdout and done.stdout.count("queries  nDCG@10") >= 18


def test_results_names_release_and_source_without_the_servers_path(real_cache):
    done = run_cli("results", "--source-kind", "mteb", env={"COREB_CACHE": str(real_cache)})
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if "CorebT2CRetrieval" in line and "nDCG@10 " in line)
    assert "mteb:mteb__baseline-bm25s/0_1_10" in row and "/shared/" not in done.stdout
    assert "release" in done.stdout.splitlines()[0] and "source" in done.stdout.splitlines()[0]


def test_sql_runs_then_the_query(real_cache):
    """was: --runs took the query as a third run id ("the following arguments are required: query")."""
    runs = _runs(real_cache)
    done = run_cli("sql", "--release", "release_v2603", "--runs", runs["bm25"], runs["bm25s-mteb"],
                   "SELECT count(DISTINCT run_id) AS n FROM metrics", "--json", env={"COREB_CACHE": str(real_cache)})
    assert done.returncode == 0, done.stderr
    assert '"n":2' in done.stdout.replace(" ", "")
