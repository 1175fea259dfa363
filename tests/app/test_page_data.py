"""The Data page (statistics, SQL console) and its ui helpers (the library: tests/data/test_sql_console.py,
tests/data/test_statistics.py; the audit queue's counts: tests/analysis/test_audit.py). On CoREB-mini alone
(``mini_data``) or with its lexical runs (``lexical_cache``): the fast loop."""
import pytest

from coreb_core.data.store import Store
from coreb_core.present.format import plain
from tests.builders import REFUSED_SQL, app_test

# ------------------------------------------------------------------ the page

def test_data_page_statistics(mini_data):
    # The sidebar's release first (it opens on demo_v2603 by default)
    first_view = app_test("data.py", mini_data).run()
    assert [s.value for s in first_view.subheader] == [plain("demo_v2603"), plain("demo_v2602"), "Release integrity"]
    # the two CoREB-mini releases share no problem: the check passes
    assert first_view.success[0].value.startswith("PASSED: demo\\_v2602")
    at = app_test("data.py", mini_data, {"release": "demo_v2602"}).run()
    assert not at.exception
    # Release names are Markdown-escaped in headers (a name such as a-__b__ would otherwise render bold).
    assert [s.value for s in at.subheader] == [plain("demo_v2602"), plain("demo_v2603"), "Release integrity"]
    with Store("demo_v2602", mini_data) as store:
        rows, jc = store.row_counts(), store.judgment_counts()
    first = at.dataframe[0].value
    assert dict(zip(first["config"], first["rows"])) == rows
    judged = at.dataframe[1].value.set_index("task")
    assert judged.loc["c2t", "traps"] == jc["c2t"]["traps"] == 288 * 3 + 24  # retro: 3 noise; match: label 0
    assert judged.loc["c2c", "positives"] == jc["c2c"]["positives"] == 24 * (1 + 10 + 4)  # mono, cross_lang 4+3+2+1, cross_model
    assert len(at.get("vega_lite_chart")) == 4  # two altair charts per release
    assert any("rel=2" in c.value for c in at.caption)


def test_data_page_sql_console(mini_data):
    at = app_test("data.py", mini_data, {"release": "demo_v2603", "section": "sql"}).run()
    sql = "SELECT count(*) AS n FROM judgments WHERE task = 'c2t' AND grade = 'trap'"
    at.text_area(key="sql_text").set_value(sql)
    at.button(key="sql_go").click().run()
    assert not at.exception and not at.error
    with Store("demo_v2603", mini_data) as store:
        expected = store.sql("SELECT count(*) FROM qrels WHERE task = 'c2t' AND relevance = 1").fetchone()[0]
    frames = [d.value for d in at.dataframe if list(d.value.columns) == ["n"]]
    assert frames and frames[0]["n"].tolist() == [expected] == [888]
    assert any("SQL console over cached `demo_v2603` · 1 rows" in c.value for c in at.caption)


@pytest.mark.parametrize("sql", list(REFUSED_SQL))
def test_data_page_sql_refusals(mini_data, sql):
    at = app_test("data.py", mini_data, {"release": "demo_v2603", "section": "sql"}).run()
    at.text_area(key="sql_text").set_value(sql)
    at.button(key="sql_go").click().run()
    assert not at.exception
    assert [e.value for e in at.error] == [plain(REFUSED_SQL[sql])]


def test_data_page_console_is_a_section_at_the_top(mini_data):
    at = app_test("data.py", mini_data, {"release": "demo_v2603"}).run()
    assert not at.exception
    assert "SQL console" in at.caption[0].value  # the page says at once that the console exists
    assert not at.text_area  # statistics first; the console is one click away
    assert "section" not in at.query_params
    at.button_group(key="data_section").set_value("SQL console").run()
    assert not at.exception and not at.subheader  # the console alone, above the fold
    assert at.query_params["section"] == "sql"  # a copied URL opens the console
    assert at.text_area(key="sql_text").value.startswith("SELECT task, count(*)")


def test_data_page_sql_console_run_tables(lexical_cache):
    from coreb_core.evaluation.evaluate import evaluate
    from coreb_core.runs.folders import read_hits

    app_cache, default_run_ids = lexical_cache
    runs = [default_run_ids["bm25"], default_run_ids["bm25s-mteb"]]
    at = app_test("data.py", app_cache, {"release": "demo_v2603", "section": "sql", "runs": runs}).run()
    at.text_area(key="sql_text").set_value(
        "SELECT run_id, count(*) AS n FROM hits GROUP BY run_id ORDER BY run_id")
    at.button(key="sql_go").click().run()
    assert not at.exception and not at.error
    got = [d.value for d in at.dataframe if list(d.value.columns) == ["run_id", "n"]][0]
    assert dict(zip(got["run_id"], got["n"])) == {r: len(read_hits(r, app_cache)) for r in runs}
    at.text_area(key="sql_text").set_value(
        "SELECT avg(ndcg_at_10) AS m FROM metrics WHERE scheme = 'v2' AND task = 't2c' AND run_id = "
        f"'{default_run_ids['bm25']}'")
    at.button(key="sql_go").click().run()
    with Store("demo_v2603", app_cache) as store:
        expected = evaluate(store, read_hits(default_run_ids["bm25"], app_cache))
    got = [d.value for d in at.dataframe if list(d.value.columns) == ["m"]][0]["m"].iloc[0]
    assert got == pytest.approx(expected.loc[expected["task"] == "t2c", "ndcg_at_10"].mean(), abs=1e-12)
    # both example queries over the run tables run without error and return rows
    for name in ("Traps ranked above the first positive, per run", "Queries where one run beats another (nDCG@10, v2)"):
        at.selectbox(key="sql_example").set_value(name).run()
        at.button(key="sql_go").click().run()
        assert not at.exception and not at.error
        assert any(c.value.startswith("Source: SQL console") and " 0 rows" not in c.value for c in at.caption)
