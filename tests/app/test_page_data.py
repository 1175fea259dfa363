"""The Data page (statistics, SQL console) and its helpers (coreb_core.data.statistics, coreb_core.data.sql_console)."""
import pytest

from tests.builders import app_test

from coreb_core.data.sql_console import ConsoleError, SqlConsole, one_line
from coreb_core.data.statistics import release_statistics
from ui.format import plain
from coreb_core.data.store import Store

REFUSED = {
    "CREATE TABLE t AS SELECT 1": "only a single SELECT (or WITH … SELECT) statement is allowed, not CREATE",
    "COPY queries TO '/tmp/x.csv'": "only a single SELECT (or WITH … SELECT) statement is allowed, not COPY",
    "SELECT * FROM read_csv('/etc/passwd')": 'Permission Error: Cannot access file "/etc/passwd" - file system '
                                             'operations are disabled by configuration',
    "ATTACH 'x.db'": "only a single SELECT (or WITH … SELECT) statement is allowed, not ATTACH",
    "INSTALL httpfs": "only a single SELECT (or WITH … SELECT) statement is allowed, not LOAD",
    "SELECT 1; SELECT 2": "only a single statement is allowed; this text holds 2",
}


@pytest.fixture(scope="module")
def console(mini_cache):
    with Store("demo_v2603", mini_cache) as store:
        yield SqlConsole(store)


def test_console_select_counts(console, mini_cache):
    with Store("demo_v2603", mini_cache) as store:
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


@pytest.mark.parametrize("sql", list(REFUSED))
def test_console_refuses(console, sql):
    with pytest.raises(ConsoleError) as err:
        console.query(sql)
    assert str(err.value) == REFUSED[sql]
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


def test_one_line_and_plain():
    assert one_line('Catalog Error: no x!\nDid you mean "t"?\n\nLINE 1: FROM x\n        ^') == \
        'Catalog Error: no x! Did you mean "t"?'
    assert plain("a_b.jsonl: *x* [y](z) `c`") == r"a\_b.jsonl: \*x\* \[y\](z) \`c\`"


def test_release_statistics(mini_cache):
    with Store("demo_v2603", mini_cache) as store:
        stats = release_statistics(store)
        assert dict(zip(stats["rows"]["config"], stats["rows"]["rows"])) == store.row_counts()
        jc = store.judgment_counts()
    assert stats["judgments"].set_index("task").loc["t2c"].to_dict() == jc["t2c"]
    # 24 problems x 30 queries; positives: 4 retro queries x 10 passing per problem + 6 search queries per
    # solution (its _any and its language, for each of 3 searches) x 307 solutions
    assert jc["t2c"] == {"queries": 720, "positives": 24 * 40 + 6 * 307, "traps": 1934, "judged_negatives": 0}
    sub = stats["subtasks"].set_index("subtask")["queries"]
    assert len(sub) == 34 and sub.sum() == 720 + 144 + 336 and sub["c2t_match"] == 48
    code = stats["code"].groupby("verdict")["documents"].sum().to_dict()
    assert code == {"pass": 240, "fail": 67}
    assert stats["code"].set_index(["language", "verdict"]).loc[("python", "fail"), "documents"] == 24
    assert dict(zip(stats["text"]["kind"], stats["text"]["documents"])) == {"description": 24, "noise": 96}


# ------------------------------------------------------------------ the page

def test_data_page_statistics(app_cache):
    at = app_test("data.py", app_cache).run()
    assert not at.exception
    assert [s.value for s in at.subheader] == ["demo_v2602", "demo_v2603"]
    with Store("demo_v2602", app_cache) as store:
        rows, jc = store.row_counts(), store.judgment_counts()
    first = at.dataframe[0].value
    assert dict(zip(first["config"], first["rows"])) == rows
    judged = at.dataframe[1].value.set_index("task")
    assert judged.loc["c2t", "traps"] == jc["c2t"]["traps"] == 288 * 3 + 24  # retro: 3 noise; match: label 0
    assert judged.loc["c2c", "positives"] == jc["c2c"]["positives"] == 24 * (1 + 10 + 4)  # mono, cross_lang 4+3+2+1, cross_model
    assert len(at.get("vega_lite_chart")) == 4  # two altair charts per release
    assert any("rel=2" in c.value for c in at.caption)


def test_data_page_sql_console(app_cache):
    at = app_test("data.py", app_cache, {"release": "demo_v2603"}).run()
    sql = "SELECT count(*) AS n FROM judgments WHERE task = 'c2t' AND grade = 'trap'"
    at.text_area(key="sql_text").set_value(sql)
    at.button(key="sql_go").click().run()
    assert not at.exception and not at.error
    with Store("demo_v2603", app_cache) as store:
        expected = store.sql("SELECT count(*) FROM qrels WHERE task = 'c2t' AND relevance = 1").fetchone()[0]
    frames = [d.value for d in at.dataframe if list(d.value.columns) == ["n"]]
    assert frames and frames[0]["n"].tolist() == [expected] == [888]
    assert any("SQL console over cached `demo_v2603` · 1 rows" in c.value for c in at.caption)


@pytest.mark.parametrize("sql", list(REFUSED))
def test_data_page_sql_refusals(app_cache, sql):
    at = app_test("data.py", app_cache, {"release": "demo_v2603"}).run()
    at.text_area(key="sql_text").set_value(sql)
    at.button(key="sql_go").click().run()
    assert not at.exception
    assert [e.value for e in at.error] == [plain(REFUSED[sql])]
