"""The SQL console (``coreb_core.data.sql_console``: the Data page's SQL section and ``python -m coreb_core sql``)
attacked with queries that ask for too much or for what it must not do: megabyte cells, a result of many
wide columns, too many columns, a sort that would spill to disk, and statements that write, read a file,
attach a database, change a setting, install an extension or come two at a time; a 24 GB list DuckDB's
memory limit does not see (the issue's ``unnest(range(3000000000))``), a list grown page by page past every
limit, a function call deaf to DuckDB's interrupt; statements DuckDB files under another kind (CHECKPOINT,
INSTALL, USE, RESET, ANALYZE) or none (UPDATE EXTENSIONS); errors whose advice is a refused SET or INSTALL;
settings, table functions and errors that would show the server's folders. Each comes back cut to the
console's caps and fast, or fails with one line (no server path in it); the worker that ran it is bounded
in memory and time; nothing is written to the cache or the working directory."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from coreb_core.data.sql_console import SQL_BYTE_CAP, SQL_CELL_CAP, SQL_COLUMN_CAP, ConsoleError, SqlConsole
from coreb_core.data.store import Store
from tests.builders import REFUSED_SQL, REPO, app_test
from tests.hostile.conftest import refuses, shows_error, unchanged

MEGABYTE_CELLS = "SELECT repeat('y', 1000000) AS s FROM range(3000)"  # the query: 3 GB of text
WIDE_ROWS = "SELECT " + ", ".join(f"repeat('w', 1999) AS c{i}" for i in range(50)) + " FROM range(10000)"  # 1 GB
# 160 MB to sort; a window, not ORDER BY, which under the console's row limit becomes a top-N heap
SPILLING_SORT = "SELECT i, row_number() OVER (ORDER BY hash(i)) AS r FROM range(20000000) t(i)"
TASK_COUNTS = "SELECT task, count(*) AS queries FROM queries GROUP BY task ORDER BY task"
# The query: one list of 3e9 BIGINTs (24 GB) that DuckDB's memory_limit does not count; the kernel's
# overcommit let it fill 19 GB before the OOM killer took the whole process.
HUGE_UNNEST = "SELECT count(*) FROM (SELECT unnest(range(3000000000)) AS x)"
GROWING_LIST = "SELECT len(list(i)) AS n FROM range(1000000000) t(i)"  # 8 GB, allocated 16 MB at a time
DEAF_TO_INTERRUPT = "SELECT len(list_sort(range(20000000))) AS n"  # one function call: seconds, no interrupt check
WORKER_LIMIT_LINE = ("the query needs more than the {} GB of memory the console's process may hold and was "
                     "stopped: narrow it with WHERE, LIMIT or fewer columns")
# Statements DuckDB files under another kind (or none): refused under the name they are written with.
RENAMED = {"CHECKPOINT": "CHECKPOINT", "FORCE CHECKPOINT": "FORCE CHECKPOINT", "-- tidy up\ncheckpoint": "CHECKPOINT",
           "USE memory": "USE", "RESET memory_limit": "RESET", "ANALYZE": "ANALYZE", "UPDATE EXTENSIONS": "UPDATE"}
HOSTILE_SQL = {**REFUSED_SQL,
               "SET enable_external_access = true": "not SET",
               "INSERT INTO code_corpus SELECT * FROM code_corpus": "not INSERT",
               "SELECT * FROM glob('/*')": "disabled by configuration"}


@pytest.fixture(scope="module")
def console(mini_data):
    with Store("demo_v2603", mini_data) as store, SqlConsole(store) as console:
        yield console


@pytest.fixture
def empty_cwd(tmp_path, monkeypatch):
    """An empty working directory: where DuckDB's default temp folder (``./.tmp``) would appear."""
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    return cwd


# ------------------------------------------------------------------ the library

def test_megabyte_cells_come_back_cut_and_fast(console):
    """was: 25 s and 4.3 GB, every 1 MB cell held in full (and rendered, and turned into a CSV)"""
    start = time.perf_counter()
    result = console.query(MEGABYTE_CELLS)
    assert time.perf_counter() - start < 10
    assert result.frame.memory_usage(deep=True).sum() < SQL_BYTE_CAP
    assert len(result.frame) == 3000 and not result.truncated
    assert result.cut_cells == 3000
    assert set(result.frame["s"]) == {"y" * SQL_CELL_CAP + "…"}
    assert any(f"longer than {SQL_CELL_CAP:,} characters" in note for note in result.notes())


def test_wide_rows_stop_at_the_byte_cap(console):
    """was: the whole 1 GB result held in memory (10,000 rows of 50 cells of 2 kB)"""
    start = time.perf_counter()
    result = console.query(WIDE_ROWS)
    assert time.perf_counter() - start < 10
    assert result.frame.memory_usage(deep=True).sum() < SQL_BYTE_CAP
    assert 0 < len(result.frame) < 10_000 and result.truncated and result.byte_capped
    assert result.cut_cells == 0
    assert any(f"{SQL_BYTE_CAP // 1_000_000} MB" in note for note in result.notes())


def test_too_many_columns_refused(console):
    """was: accepted; DuckDB computes 2,048 rows of every column at once, however many there are"""
    sql = "SELECT " + ", ".join(f"{i} AS c{i}" for i in range(SQL_COLUMN_CAP + 1))
    with pytest.raises(ConsoleError) as err:
        console.query(sql)
    assert str(err.value) == (f"the query returns {SQL_COLUMN_CAP + 1} columns; the console shows at most "
                              f"{SQL_COLUMN_CAP}: name the columns you need")
    assert len(console.query(sql.replace(f", {SQL_COLUMN_CAP} AS c{SQL_COLUMN_CAP}", "")).frame.columns) == SQL_COLUMN_CAP


def test_spilling_sort_writes_no_file(mini_data, empty_cwd):
    """was: the sort spilled into ./.tmp in the server's working directory and left the files there"""
    with Store("demo_v2603", mini_data) as store, unchanged(mini_data):
        small = SqlConsole(store, memory_limit="64MB")
        start = time.perf_counter()
        with pytest.raises(ConsoleError) as err:
            small.query(SPILLING_SORT)
        assert list(empty_cwd.iterdir()) == []  # not even while the console is open
        small.close()
    assert time.perf_counter() - start < 10
    assert str(err.value).startswith("the query needs more than the console's 64MB of memory")
    assert "\n" not in str(err.value)
    assert list(empty_cwd.iterdir()) == []


# ------------------------------------------------------------------ the CLI

def test_cli_sql_prints_a_table(own_cache, empty_cwd, capsys):
    """was: no sql command (argparse: invalid choice)"""
    from coreb_core.cli import main

    with unchanged(own_cache):
        assert main(["sql", TASK_COUNTS, "--release", "demo_v2603"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert [line.split() for line in lines] == [["task", "queries"], ["c2c", "144"], ["c2t", "336"], ["t2c", "720"],
                                                ["3", "rows"]]
    assert err == "" and list(empty_cwd.iterdir()) == []


def test_cli_sql_json(own_cache, capsys):
    """was: no sql command"""
    from coreb_core.cli import main

    assert main(["sql", TASK_COUNTS, "--release", "demo_v2603", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == [{"task": "c2c", "queries": 144}, {"task": "c2t", "queries": 336},
                               {"task": "t2c", "queries": 720}]


def test_cli_sql_run_tables(own_cache, capsys):
    """was: no sql command; --runs adds the runs' hits and per-query metrics as in the app"""
    from coreb_core.cli import main
    from coreb_core.runs.folders import write_run
    from coreb_core.runs.hits import hits_from_scores

    with Store("demo_v2603", own_cache) as store:
        query = store.sql("SELECT query_id FROM queries WHERE task = 't2c' ORDER BY query_id LIMIT 1").fetchone()[0]
        docs = [d for (d,) in store.sql("SELECT code_id FROM code_corpus ORDER BY code_id LIMIT 3").fetchall()]
    write_run(hits_from_scores("t2c", [query], docs, np.array([[0.9, 0.5, 0.1]])),
              {"run_id": "r1", "release": "demo_v2603", "model": "bm25"}, own_cache)
    sql = ("SELECT (SELECT count(*) FROM hits WHERE run_id = 'r1') AS hits, "
           f"(SELECT count(*) FROM metrics WHERE run_id = 'r1' AND scheme = 'v2' AND query_id = '{query}') AS metrics")
    assert main(["sql", sql, "--release", "demo_v2603", "--runs", "r1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"hits": 3, "metrics": 1}]


def test_cli_sql_megabyte_cells(own_cache, capsys):
    """was: no sql command; the cut cells are said on stderr, not mixed into the rows"""
    from coreb_core.cli import main

    assert main(["sql", MEGABYTE_CELLS, "--release", "demo_v2603", "--json"]) == 0
    out, err = capsys.readouterr()
    rows = json.loads(out)
    assert len(rows) == 3000 and {r["s"] for r in rows} == {"y" * SQL_CELL_CAP + "…"}
    assert err.splitlines() == [f"note: 3,000 cells longer than {SQL_CELL_CAP:,} characters are cut"]


@pytest.mark.parametrize("sql", list(HOSTILE_SQL))
def test_cli_sql_refuses(own_cache, empty_cwd, capsys, sql):
    """was: no sql command (argparse: invalid choice, usage lines)"""
    with unchanged(own_cache):
        refuses(["sql", sql, "--release", "demo_v2603"], capsys, HOSTILE_SQL[sql])
    assert list(empty_cwd.iterdir()) == []


@pytest.mark.parametrize("argv, mention", [
    (["--release", "no_such_release"], "no_such_release"),
    (["--release", "demo_v2603", "--runs", "no_such_run"], "no_such_run"),
])
def test_cli_sql_refuses_arguments(own_cache, capsys, argv, mention):
    """was: no sql command"""
    with unchanged(own_cache):
        refuses(["sql", "SELECT 1", *argv], capsys, mention)


# ------------------------------------------------------------------ the app

def test_data_page_megabyte_cells_notice(own_cache):
    """was: 126 s and 5.8 GB for range(1500), no message; the page rendered every cell and built the CSV"""
    at = app_test("data.py", own_cache, {"release": "demo_v2603", "section": "sql"}).run()
    at.text_area(key="sql_text").set_value(MEGABYTE_CELLS)
    start = time.perf_counter()
    at.button(key="sql_go").click().run(timeout=30)
    assert time.perf_counter() - start < 15
    assert not at.exception and not at.error
    assert any(f"longer than {SQL_CELL_CAP:,} characters" in w.value for w in at.warning)
    frame = [d.value for d in at.dataframe if list(d.value.columns) == ["s"]][0]
    assert len(frame) == 3000 and frame["s"].str.len().max() == SQL_CELL_CAP + 1


# ------------------------------------------------------------------ issue 31: statements, advice, server paths

@pytest.mark.parametrize("sql", list(RENAMED))
def test_statements_refused_under_their_written_name(console, sql):
    """was: CHECKPOINT refused as 'not CALL', USE and RESET as 'not SET', ANALYZE as 'not VACUUM', INSTALL as
    'not LOAD'; UPDATE EXTENSIONS raised ValueError '29 is not a valid StatementType' (a traceback in the CLI)"""
    with pytest.raises(ConsoleError) as err:
        console.query(sql)
    assert str(err.value) == f"only a single SELECT (or WITH … SELECT) statement is allowed, not {RENAMED[sql]}"


@pytest.mark.parametrize("sql", ["CHECKPOINT", "UPDATE EXTENSIONS"])
def test_cli_sql_refuses_renamed_statements(own_cache, capsys, sql):
    """was: 'not CALL' for CHECKPOINT; a ValueError traceback for UPDATE EXTENSIONS"""
    with unchanged(own_cache):
        refuses(["sql", sql, "--release", "demo_v2603"], capsys, f"statement is allowed, not {RENAMED[sql]}")


@pytest.mark.parametrize("sql, expected", [
    ("SELECT " + "(" * 1100 + "1" + ")" * 1100, "Parser Error: Max expression depth limit of 1000 exceeded."),
    ("SELECT * FROM st_read('x.shp')", 'Catalog Error: Table Function with name "st_read" is not in the catalog, '
                                       'but it exists in the spatial extension.'),
])
def test_errors_suggest_no_refused_statement(console, sql, expected):
    """was: 'Use "SET max_expression_depth TO x" to increase the maximum expression depth.' and 'Please try
    installing and loading the spatial extension: INSTALL spatial; LOAD spatial;': both refused by the console"""
    with pytest.raises(ConsoleError) as err:
        console.query(sql)
    assert str(err.value) == expected


def test_no_server_path_in_settings_or_errors(console, mini_data):
    """was: duckdb_settings() and current_setting('secret_directory') showed /root/.duckdb/stored_secrets, and
    errors named ~/.duckdb/extensions/… and the cache's own folders"""
    server_paths = [str(Path.home()), str(mini_data), os.getcwd()]
    settings = console.query("SELECT name, value FROM duckdb_settings()").frame
    shown = [str(v) for v in settings["value"]]
    assert [v for v in shown if any(p in v for p in server_paths)] == []
    assert console.query("SELECT current_setting('secret_directory') AS s, current_setting('extension_directory') "
                         "AS e").frame.iloc[0].tolist() == ["<none>", "<none>"]
    messages = []
    for sql in ("SELECT * FROM duckdb_extensions()", "SELECT * FROM duckdb_secrets()",
                f"SELECT * FROM read_parquet('{mini_data}/coreb/demo_v2603/code_corpus.parquet')",
                f"SELECT * FROM read_csv('{Path.home()}/notes.csv')"):
        with pytest.raises(ConsoleError) as err:
            console.query(sql)
        messages.append(str(err.value))
    assert [m for m in messages if any(p in m for p in server_paths)] == []
    assert messages[2:] == ['Permission Error: Cannot access file "<cache>/coreb/demo_v2603/code_corpus.parquet" - '
                            'file system operations are disabled by configuration',
                            'Permission Error: Cannot access file "<home>/notes.csv" - file system operations are '
                            'disabled by configuration']


# ------------------------------------------------------------------ issue 31: memory and time the worker may take

_BOUND_SCRIPT = """
import json, resource, sys, time
from pathlib import Path
hard = resource.getrlimit(resource.RLIMIT_AS)[1]  # a net for the machine, should the bound fail
resource.setrlimit(resource.RLIMIT_AS, (12 * 2**30 if hard == resource.RLIM_INFINITY else min(hard, 12 * 2**30), hard))
from coreb_core.data.sql_console import ConsoleError, SqlConsole
from coreb_core.data.store import Store

with Store("demo_v2603", Path(sys.argv[1])) as store:
    # DuckDB's own limit far above the worker's: only the operating system's cap can stop these queries
    console = SqlConsole(store, memory_limit="16GB", worker_memory=2**30)
out = {"warm": console.query("SELECT 1 AS x").frame["x"].tolist()}
for sql in sys.argv[2:]:
    start = time.perf_counter()
    try:
        console.query(sql)
        out[sql] = [None, time.perf_counter() - start]
    except ConsoleError as exc:
        out[sql] = [str(exc), time.perf_counter() - start]
out["after"] = console.query("SELECT 42 AS x").frame["x"].tolist()
console.close()
# this process's own peak (VmHWM: ru_maxrss would carry over the pytest process it was forked from)
out["self_mb"] = [int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM")][0] / 1024
out["workers_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # the workers, reaped
print(json.dumps(out))
"""


def test_huge_values_stop_at_the_workers_memory(mini_data):
    """was: the issue's unnest query held 19 GB for 50 s until the kernel's OOM killer ended the whole process (in
    the app: the server, for every user); DuckDB's memory_limit bounds neither it nor a list grown page by page"""
    done = subprocess.run([sys.executable, "-c", _BOUND_SCRIPT, str(mini_data), HUGE_UNNEST, GROWING_LIST],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out["warm"] == [1] and out["after"] == [42]  # the console answers again after each
    for sql in (HUGE_UNNEST, GROWING_LIST):
        message, seconds = out[sql]
        assert message == WORKER_LIMIT_LINE.format(1)
        assert seconds < 60
    assert out["workers_mb"] < 1.25 * 1024  # the 1 GB cap on data, plus the worker's code pages
    assert out["self_mb"] < 700  # the caller never held the query's data


def test_a_query_deaf_to_the_interrupt_is_killed(mini_data):
    """was: DuckDB's interrupt waits for a running function call: list_sort of 20 million numbers ran on for
    11 s past a 0.2 s limit and then answered"""
    with Store("demo_v2603", mini_data) as store, SqlConsole(store, grace_s=0.5) as console:
        assert console.query("SELECT 1 AS x").frame["x"].tolist() == [1]  # the worker is up
        start = time.perf_counter()
        with pytest.raises(ConsoleError) as err:
            console.query(DEAF_TO_INTERRUPT, timeout_s=0.2)  # killed at 0.7 s; the sort takes seconds
        assert time.perf_counter() - start < 5
        assert str(err.value) == "the query ran longer than 0.2 s and was stopped"
        assert console.query("SELECT 2 AS x").frame["x"].tolist() == [2]  # a fresh worker


def test_cli_sql_huge_unnest_is_one_line(own_cache, capsys):
    """was: `sql "SELECT count(*) FROM (SELECT unnest(range(3000000000)) AS x)"` killed by the OOM killer after 50 s
    holding 19 GB"""
    start = time.perf_counter()
    with unchanged(own_cache):
        line = refuses(["sql", HUGE_UNNEST, "--release", "demo_v2603"], capsys)
    assert line == "error: " + WORKER_LIMIT_LINE.format(4)
    assert time.perf_counter() - start < 60


def test_data_page_huge_unnest_shows_an_error(own_cache):
    """was: the query took the Streamlit server (every user's session) down with it"""
    at = app_test("data.py", own_cache, {"release": "demo_v2603", "section": "sql"}).run()
    at.text_area(key="sql_text").set_value(HUGE_UNNEST)
    at.button(key="sql_go").click().run(timeout=60)
    shows_error(at, "GB of memory the console's process may hold")
    at.text_area(key="sql_text").set_value("SELECT 7 AS x")
    at.button(key="sql_go").click().run(timeout=60)
    assert not at.exception and not at.error
    assert [d.value["x"].tolist() for d in at.dataframe if list(d.value.columns) == ["x"]] == [[7]]
