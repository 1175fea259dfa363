"""The Data page (statistics, SQL console) and its ui helpers (the library: tests/data/test_sql_console.py,
tests/data/test_statistics.py)."""
import pytest

from tests.builders import REFUSED_SQL, app_test

from ui.format import plain
from coreb_core.data.store import Store


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


@pytest.mark.parametrize("sql", list(REFUSED_SQL))
def test_data_page_sql_refusals(app_cache, sql):
    at = app_test("data.py", app_cache, {"release": "demo_v2603"}).run()
    at.text_area(key="sql_text").set_value(sql)
    at.button(key="sql_go").click().run()
    assert not at.exception
    assert [e.value for e in at.error] == [plain(REFUSED_SQL[sql])]
