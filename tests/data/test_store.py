"""DuckDB views over a cached release: joins, parameters, and readers during writes."""
from __future__ import annotations

import threading

from coreb_core.data.ingest import import_release
from coreb_core.data.sources import read_local
from coreb_core.data.store import Store, list_releases
from tests import dump


def _import(tmp_path, cache, name="r", data=None):
    src = dump.write_parquet_folder(tmp_path / f"src-{name}", data or dump.rows())
    import_release(read_local(src)[2], name, cache)


def test_judgments_join_queries_documents_and_grades(tmp_path, cache):
    _import(tmp_path, cache)
    with Store("r", cache) as s:
        rows = s.sql("""SELECT doc_id, grade, language, model, passed, test_passed, test_total, doc_problem_id
                        FROM judgments WHERE query_id = ? ORDER BY doc_id""",
                     ["q_t2c_search_python_0002"]).fetchall()
        assert rows == [
            ("code_v202601_00001", "positive", "python", "claude-sonnet-4-5", True, 4, 4, "lcb_3487"),
            ("code_v202601_00002", "trap", "cpp", "claude-sonnet-4-5", True, 4, 4, "lcb_3487"),
            ("code_v202601_00003", "trap", "python", "gemini-3-flash", False, 2, 4, "lcb_3487"),
        ]
        q = s.sql("SELECT task, target_language, anchor_code_id, problem_id FROM queries ORDER BY query_id").fetchall()
        assert q == [
            ("c2c", None, "code_v202601_00001", "lcb_3487"),
            ("c2t", None, "code_v202601_00001", "lcb_3487"),
            ("c2t", None, "code_v202601_00005", "lcb_abc380_d"),
            ("t2c", None, None, "lcb_3487"),
            ("t2c", "python", None, "lcb_3487"),
        ]
        noise = s.sql("SELECT count(*) FROM documents WHERE is_noise AND problem_id = $pid", {"pid": "lcb_3487"})
        assert noise.fetchone()[0] == 4


def test_parameters_are_data_not_sql(tmp_path, cache):
    _import(tmp_path, cache)
    with Store("r", cache) as s:
        hostile = "x' OR '1'='1"
        assert s.sql("SELECT count(*) FROM queries WHERE query_id = ?", [hostile]).fetchone()[0] == 0


def test_readers_never_fail_while_imports_swap_the_release(tmp_path, cache):
    _import(tmp_path, cache)
    errors: list[BaseException] = []
    counts: list[int] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            try:
                with Store("r", cache) as s:
                    counts.append(s.sql("SELECT count(*) FROM judgments").fetchone()[0])
            except BaseException as exc:  # noqa: BLE001 - any failure is the finding
                errors.append(exc)

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    long_lived = Store("r", cache)
    for _ in range(6):
        _import(tmp_path, cache, "r", dump.rows())
        assert long_lived.sql("SELECT count(*) FROM qrels").fetchone()[0] == 15
    stop.set()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    assert counts and set(counts) == {15}
    assert list_releases(cache) == ["r"]
