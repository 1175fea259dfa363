"""The SQL console's run tables (coreb_core.analysis.console_tables into coreb_core.data.sql_console) on
CoREB-mini with two synthetic runs: the rows and numbers are the stored hits and the evaluator's, the
example queries answer what they say, and the sandbox still refuses files and writes."""
import pandas as pd
import pytest

from coreb_core.analysis.console_tables import console_tables
from coreb_core.data.sql_console import EXAMPLE_QUERIES, ConsoleError, SqlConsole
from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import analyse_many
from coreb_core.evaluation.schemes import V1, V2
from tests.builders import REFUSED_SQL

TRAPS_FIRST, POSITIVES_FIRST = "traps-first", "positives-first"


def synthetic_run(judgments: pd.DataFrame, order: dict[str, int]) -> pd.DataFrame:
    """Every judged T2C document ranked by grade in ``order`` (then doc id), scores falling with rank."""
    rows = judgments.assign(key=judgments["grade"].map(order)).sort_values(["query_id", "key", "doc_id"])
    rows["rank"] = rows.groupby("query_id").cumcount() + 1
    rows["score"] = 1.0 / rows["rank"]
    return rows.assign(in_top_k=rows["rank"] <= 100)[["task", "query_id", "doc_id", "rank", "score", "in_top_k"]]


@pytest.fixture(scope="module")
def setup(mini_data):
    with Store("demo_v2603", mini_data) as store:
        judgments = store.sql("SELECT task, query_id, doc_id, grade FROM judgments WHERE task = 't2c'").df()
        runs = {TRAPS_FIRST: synthetic_run(judgments, {"trap": 0, "positive": 1, "judged_negative": 2}),
                POSITIVES_FIRST: synthetic_run(judgments, {"positive": 0, "trap": 1, "judged_negative": 2})}
        ev = analyse_many(store, runs, (V2, V1))
        tables = console_tables(runs, {TRAPS_FIRST: "A traps first", POSITIVES_FIRST: "B positives first"}, ev)
        console = SqlConsole(store, extra_tables=tables.as_dict())
        yield console, judgments, runs, ev
        console.close()


def test_console_hits_table_is_the_stored_hits(setup):
    console, _, runs, _ = setup
    frame = console.query("SELECT run_id, run_name, count(*) AS n, min(rank) AS top FROM hits GROUP BY ALL "
                          "ORDER BY run_id").frame
    assert frame["run_id"].tolist() == [POSITIVES_FIRST, TRAPS_FIRST]
    assert frame["run_name"].tolist() == ["B positives first", "A traps first"]
    assert frame["n"].tolist() == [len(runs[POSITIVES_FIRST]), len(runs[TRAPS_FIRST])] == [4736, 4736]
    assert frame["top"].tolist() == [1, 1]
    assert console.query("SELECT column_name FROM duckdb_columns() WHERE table_name = 'hits'").frame[
        "column_name"].tolist() == ["run_id", "run_name", "task", "query_id", "doc_id", "rank", "score"]


def test_console_metrics_table_is_the_evaluators(setup):
    console, _, _, ev = setup
    got = console.query("SELECT run_id, scheme, query_id, ndcg_at_10 FROM metrics ORDER BY scheme, run_id, query_id",
                        max_rows=100_000).frame
    expected = pd.concat([ev.per_query(s).assign(scheme=s) for s in ("v1", "v2")]).rename(columns={"run": "run_id"})
    expected = expected.astype({"run_id": str, "query_id": str}).sort_values(["scheme", "run_id", "query_id"])[["run_id", "scheme", "query_id", "ndcg_at_10"]]
    pd.testing.assert_frame_equal(got, expected.reset_index(drop=True), check_dtype=False)
    assert console.query("SELECT data_type FROM duckdb_columns() WHERE table_name = 'metrics' AND column_name "
                         "IN ('run_id', 'task')").frame["data_type"].tolist() == ["VARCHAR", "VARCHAR"]
    assert sorted(console.query("SELECT DISTINCT scheme FROM metrics").frame["scheme"]) == ["v1", "v2"]


def test_console_example_traps_above_first_positive(setup):
    console, judgments, _, _ = setup
    frame = console.query(EXAMPLE_QUERIES["Traps ranked above the first positive, per run"]).frame
    # traps-first puts every trap of a query with a positive above it; positives-first none
    with_positive = judgments.groupby("query_id")["grade"].transform(lambda g: (g == "positive").any())
    traps = judgments[with_positive & (judgments["grade"] == "trap")]
    assert frame["run_name"].tolist() == ["A traps first"]
    assert frame["traps_above_first_positive"].tolist() == [len(traps)] == [1934]
    assert frame["queries_affected"].tolist() == [traps["query_id"].nunique()]


def test_console_example_one_run_beats_another(setup):
    console, _, _, ev = setup
    frame = console.query(EXAMPLE_QUERIES["Queries where one run beats another (nDCG@10, v2)"]).frame
    per_query = ev.per_query(V2).pivot(index="query_id", columns="run", values="ndcg_at_10")
    b_wins = per_query[per_query[POSITIVES_FIRST] > per_query[TRAPS_FIRST]]
    a_wins = per_query[per_query[TRAPS_FIRST] > per_query[POSITIVES_FIRST]]
    assert len(frame) == len(b_wins) + len(a_wins) and len(b_wins) > 0
    assert (frame["winner"] == "B positives first").sum() == len(b_wins)
    assert (frame["delta"] > 0).all() and frame["delta"].is_monotonic_decreasing


@pytest.mark.parametrize("sql", list(REFUSED_SQL) + [
    "SELECT * FROM read_parquet('data_cache/runs/*/hits.parquet')", "DROP TABLE hits", "DELETE FROM metrics",
    "CREATE VIEW hits2 AS SELECT * FROM hits", "UPDATE hits SET rank = 1", "SET enable_external_access = true"])
def test_console_run_tables_open_no_way_out(setup, sql):
    console = setup[0]
    with pytest.raises(ConsoleError) as err:
        console.query(sql)
    assert "\n" not in str(err.value)
    if sql in REFUSED_SQL:
        assert str(err.value) == REFUSED_SQL[sql]
    assert console.query("SELECT count(*) AS n FROM hits").frame["n"].tolist() == [2 * 4736]


def test_console_refuses_clashing_table_names(mini_data):
    with Store("demo_v2603", mini_data) as store:
        with pytest.raises(ValueError, match="queries"):
            SqlConsole(store, extra_tables={"queries": pd.DataFrame({"x": [1]})})
