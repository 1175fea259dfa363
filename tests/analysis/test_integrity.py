"""Release integrity: CoREB-mini's two releases pass (no shared problem, no shared text); a crafted release that
repeats a problem of the other fails, with exit status 1 and the problem named; the real releases: tests/real."""
from __future__ import annotations

import json
import shutil

import pyarrow.parquet as pq

from coreb_core.paths import datasets_dir
from tests.builders import run_cli


def test_the_mini_releases_pass_and_a_repeated_problem_fails(mini_data, tmp_path):
    root = tmp_path / "cache"
    shutil.copytree(datasets_dir(mini_data) / "demo_v2602", datasets_dir(root) / "demo_v2602")
    shutil.copytree(datasets_dir(mini_data) / "demo_v2603", datasets_dir(root) / "demo_v2603")
    env = {"COREB_CACHE": str(root)}
    ok = run_cli("integrity", "--releases", "demo_v2602", "demo_v2603", "--json", env=env)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["passed"] is True and json.loads(ok.stdout)["shared_problems"] == []
    # crafted: demo_v2603 with one of its T2C queries moved onto a demo_v2602 problem
    crafted = datasets_dir(root) / "crafted"
    shutil.copytree(datasets_dir(root) / "demo_v2603", crafted)
    other = pq.read_table(datasets_dir(root) / "demo_v2602" / "text2code_queries.parquet").to_pylist()[0]["meta"]
    stolen = json.loads(other)["source_problem_id"]
    rows = pq.read_table(crafted / "text2code_queries.parquet")
    records = rows.to_pylist()
    meta = json.loads(records[0]["meta"])
    meta["source_problem_id"] = stolen
    records[0]["meta"] = json.dumps(meta)
    pq.write_table(type(rows).from_pylist(records, schema=rows.schema), crafted / "text2code_queries.parquet")
    bad = run_cli("integrity", "--releases", "demo_v2602", "crafted", env=env)
    assert bad.returncode == 1 and bad.stdout.startswith("FAILED:") and stolen in bad.stdout
    missing = run_cli("integrity", "--releases", "demo_v2602", "no_such_release", env=env)
    assert missing.returncode == 2 and missing.stderr.count("error:") == 1
