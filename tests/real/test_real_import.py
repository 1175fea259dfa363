"""The real CoREB (shared/coreb_real): both releases import in each shape a user has them, with exactly the
rows, positives and traps of the export, and the hub's row shape (flat ``meta_*`` columns, null noise flags,
float labels) reaches the cache as the generator's nested meta."""
from __future__ import annotations

import json

import pytest

from tests.builders import run_cli
from tests.conftest import REAL_DATA, real_release_folder

# Counted in the export itself (a line per row; qrels by grade); rows equal the dataset README and paper.
REAL_ROWS = {
    "release_v2603": {"code_corpus": 1744, "text_corpus": 875, "text2code_queries": 1123, "code2code_queries": 278,
                      "code2text_queries": 1200, "text2code_qrels": 5950, "code2code_qrels": 1457,
                      "code2text_qrels": 4610},
    "release_v2602": {"code_corpus": 1670, "text_corpus": 835, "text2code_queries": 1165, "code2code_queries": 169,
                      "code2text_queries": 1270, "text2code_qrels": 6062, "code2code_qrels": 874,
                      "code2text_qrels": 4874},
}
REAL_TASKS = {
    "release_v2603": {"t2c": {"queries": 1123, "positives": 2814, "traps": 3136, "judged_negatives": 0},
                      "c2c": {"queries": 278, "positives": 623, "traps": 834, "judged_negatives": 0},
                      "c2t": {"queries": 1200, "positives": 1010, "traps": 3600, "judged_negatives": 0}},
    "release_v2602": {"t2c": {"queries": 1165, "positives": 2742, "traps": 3320, "judged_negatives": 0},
                      "c2c": {"queries": 169, "positives": 367, "traps": 507, "judged_negatives": 0},
                      "c2t": {"queries": 1270, "positives": 1064, "traps": 3810, "judged_negatives": 0}},
}


def _counted_in_export(release: str) -> tuple[dict, dict]:
    """Rows and grades counted straight from the JSONL lines, independently of the importer."""
    folder = real_release_folder(release)
    rows = {c: sum(1 for line in (folder / f"{c}.jsonl").open() if line.strip()) for c in REAL_ROWS[release]}
    tasks = {}
    for short, long in (("t2c", "text2code"), ("c2c", "code2code"), ("c2t", "code2text")):
        grades = [json.loads(line)["relevance"] for line in (folder / f"{long}_qrels.jsonl").open()]
        tasks[short] = {"queries": rows[f"{long}_queries"], "positives": grades.count(2), "traps": grades.count(1),
                        "judged_negatives": grades.count(0)}
    return rows, tasks


@pytest.mark.parametrize("release", ["release_v2603", "release_v2602"])
def test_the_export_holds_the_counts_this_suite_expects(release):
    assert _counted_in_export(release) == (REAL_ROWS[release], REAL_TASKS[release])


def test_both_real_releases_import_by_folder_and_by_parent_with_exact_counts(tmp_path):
    cache = tmp_path / "cache"
    env = {"COREB_CACHE": str(cache)}
    one = run_cli("import-data", str(real_release_folder("release_v2603")), env=env)
    assert one.returncode == 0, one.stderr
    assert "imported release_v2603 " in one.stdout  # the folder names the release
    refused = run_cli("import-data", str(REAL_DATA), env=env)
    assert refused.returncode == 2 and "--split" in refused.stderr and "release_v2602" in refused.stderr
    two = run_cli("import-data", str(REAL_DATA), "--split", "release_v2602", env=env)
    assert two.returncode == 0, two.stderr
    info = json.loads(run_cli("info", "--json", env=env).stdout)
    for release in REAL_ROWS:
        assert info["releases"][release]["rows"] == REAL_ROWS[release]
        assert info["releases"][release]["tasks"] == REAL_TASKS[release]


def test_hub_rows_reach_the_cache_as_the_generators_meta(real_cache):
    from coreb_core.data.store import Store

    with Store("release_v2603", real_cache) as store:
        noise = dict(store.sql("SELECT is_noise, count(*) FROM documents WHERE corpus = 'text' GROUP BY ALL").fetchall())
        assert noise == {False: 175, True: 700}  # 175 originals have a null flag: not noise
        anchors = store.sql("SELECT count(*) FROM queries WHERE task = 'c2c' AND anchor_code_id LIKE 'code_%'").fetchone()
        assert anchors == (278,)
        passed = dict(store.sql("SELECT passed, count(*) FROM documents WHERE corpus = 'code' GROUP BY ALL").fetchall())
        assert sum(passed.values()) == 1744 and None not in passed
        labels = dict(store.sql("SELECT label, count(*) FROM queries WHERE subtask = 'c2t_match' GROUP BY ALL").fetchall())
        assert labels == {0: 190, 1: 190}  # floats 0.0 / 1.0 in the export
        targets = store.sql("SELECT meta FROM code2code_queries WHERE json_extract(meta, '$.target_languages') "
                            "IS NOT NULL LIMIT 1").fetchone()[0]
        assert isinstance(json.loads(targets)["target_languages"], list)
        problems = store.sql("SELECT count(DISTINCT problem_id) FROM queries WHERE problem_id IS NULL").fetchone()
        assert problems == (0,)


def test_datasets_load_dataset_rows_import_as_the_hub_would(tmp_path):
    """fetch's path: ``datasets`` rows (here ``load_dataset("json")`` over the real export standing in for the
    hub's parquet) through the same normaliser, to the same cache bytes as the folder import."""
    import datasets
    import pyarrow.parquet as pq

    from coreb_core.data.ingest import import_release
    from coreb_core.data.schema import CONFIGS
    from coreb_core.data.sources import dataset_tables, read_local

    folder = real_release_folder("release_v2603")
    loaded = dataset_tables(lambda c: datasets.load_dataset("json", data_files=str(folder / f"{c}.jsonl"),
                                                            split="train", cache_dir=str(tmp_path / "hf")),
                            lambda c: f"hub:hq-bench/coreb/{c}/release_v2603")
    assert sorted(loaded["code_corpus"].rows[0]) == sorted(json.loads((folder / "code_corpus.jsonl").open().readline()))
    import_release(loaded, "via_datasets", tmp_path / "cache")
    import_release(read_local(folder)[2], "via_folder", tmp_path / "cache")
    for config in CONFIGS:
        a = pq.read_table(tmp_path / "cache" / "coreb" / "via_datasets" / f"{config}.parquet")
        b = pq.read_table(tmp_path / "cache" / "coreb" / "via_folder" / f"{config}.parquet")
        assert a.equals(b), config
