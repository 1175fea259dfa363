"""coreb_core.data.sql_console on CoREB-mini: read-only, capped, timed, one-line errors (the Data page is
tested in tests/app/test_page_data.py)."""
import pytest

from coreb_core.data.sql_console import ConsoleError, SqlConsole, one_line
from coreb_core.data.store import Store
from tests.builders import REFUSED_SQL


@pytest.fixture(scope="module")
def console(mini_data):
    with Store("demo_v2603", mini_data) as store, SqlConsole(store) as console:
        yield console


def test_console_select_counts(console, mini_data):
    with Store("demo_v2603", mini_data) as store:
        expected = store.sql("SELECT count(*) FROM judgments WHERE task = 't2c' AND relevance = 1").fetchone()[0]
    assert expected == 1934  # parquet count; 3 per query but none for search_any and fewer where pools are small
    result = console.query("WITH j AS (SELECT * FROM judgments WHERE task = 't2c') "
                           "SELECT count(*) AS n FROM j WHERE relevance = 1;")
    assert result.frame["n"].tolist() == [1934] and not result.truncated
    assert console.query("SELECT count(*) AS n FROM qrels_v1 WHERE task = 't2c'").frame["n"].tolist() == [3070]
    assert console.query("SELECT count(*) AS n FROM code_corpus").frame["n"].tolist() == [307]


def test_console_caps_rows(console):
    capped = console.query("SELECT * FROM range(25000)", max_rows=10_000)
    assert len(capped.frame) == 10_000 and capped.truncated
    exact = console.query("SELECT * FROM range(10000)", max_rows=10_000)
    assert len(exact.frame) == 10_000 and not exact.truncated
    empty = console.query("SELECT query_id FROM queries WHERE false")
    assert list(empty.frame.columns) == ["query_id"] and len(empty.frame) == 0


@pytest.mark.parametrize("sql", list(REFUSED_SQL))
def test_console_refuses(console, sql):
    with pytest.raises(ConsoleError) as err:
        console.query(sql)
    assert str(err.value) == REFUSED_SQL[sql]
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("sql", ["SET enable_external_access = true", "SELECT * FROM read_parquet('/etc/*.parquet')",
                                 "SELECT * FROM glob('/*')", "LOAD httpfs", "DROP TABLE code_corpus",
                                 "INSERT INTO code_corpus SELECT * FROM code_corpus", "PRAGMA show_tables",
                                 "SELECT * FROM secret_frame"])
def test_console_no_escape(console, sql):
    secret_frame = [1]  # noqa: F841  (a Python replacement scan must not see it)
    with pytest.raises(ConsoleError) as err:
        console.query(sql)
    assert "\n" not in str(err.value)
    assert console.query("SELECT count(*) AS n FROM code_corpus").frame["n"].tolist() == [307]


def test_console_timeout(console):
    with pytest.raises(ConsoleError, match="longer than 0.2 s"):
        console.query("SELECT count(*) FROM range(1000000000000)", timeout_s=0.2)


def test_one_line():
    assert one_line('Catalog Error: no x!\nDid you mean "t"?\n\nLINE 1: FROM x\n        ^') == \
        'Catalog Error: no x! Did you mean "t"?'
