"""Slices by any metadata column (``coreb_core.data.slice_keys``) on CoREB-mini's BM25 run: each query's label is the
one read straight from the release's parquet (DuckDB, not the module's SQL), ``eval --by`` means are the plain means
of the per-query scores over those labels, the trap breakdown groups the same way, and a bad or hostile key is one
error line that names what the release holds and leaves the cache untouched."""
from __future__ import annotations

import json

import duckdb
import numpy as np
import pandas as pd
import pytest

from coreb_core.data.slice_keys import MIXED, NO_ANCHOR, NO_POSITIVE, SliceKey, _bins, slice_labels
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import evaluate
from coreb_core.paths import release_dir
from coreb_core.runs.folders import read_hits
from tests.builders import run_cli
from tests.hostile.conftest import tree_digest

RELEASE = "demo_v2603"


def straight(root, sql: str) -> pd.DataFrame:
    """``sql`` over the cached release's parquet files, each config a table of its name."""
    con = duckdb.connect()
    for path in release_dir(RELEASE, root).glob("*.parquet"):
        con.execute(f"CREATE VIEW {path.stem} AS SELECT * FROM read_parquet('{path}')")
    return con.sql(sql).df()


def labels_by_id(root, key: str) -> dict[str, str]:
    with Store(RELEASE, root) as store:
        return dict(zip(store.query_facts["query_id"], slice_labels(store, SliceKey.parse(key))))


def test_query_anchor_and_positive_labels_are_the_release_values(lexical_cache):
    root, _ = lexical_cache
    model = labels_by_id(root, "query.anchor_model")
    raw = straight(root, "SELECT query_id, anchor_model FROM code2code_queries")
    assert {q: model[q] for q in raw["query_id"]} == dict(zip(raw["query_id"], raw["anchor_model"]))
    assert {model[q] for q in model if q.startswith("q_t2c")} == {"none"}  # T2C queries have no anchor model

    passed = labels_by_id(root, "anchor.meta_passed")  # the hub's flat spelling reads the same field
    anchors = straight(root, """SELECT q.query_id, json_extract_string(c.meta, '$.passed') AS passed
                                FROM code2text_queries q JOIN code_corpus c
                                  ON c.code_id = json_extract_string(q.meta, '$.anchor_code_id')""")
    assert {q: passed[q] for q in anchors["query_id"]} == dict(zip(anchors["query_id"], anchors["passed"]))
    assert {passed[q] for q in passed if q.startswith("q_t2c")} == {NO_ANCHOR}

    generator = labels_by_id(root, "positive.model")
    positives = straight(root, """SELECT r.query_id, c.model FROM
                                    (SELECT * FROM text2code_qrels UNION ALL SELECT * FROM code2code_qrels) r
                                  JOIN code_corpus c ON c.code_id = r.doc_id WHERE r.relevance = 2""")
    expected = positives.groupby("query_id")["model"].agg(lambda m: m.iloc[0] if m.nunique() == 1 else MIXED)
    assert {q: generator[q] for q in expected.index} == expected.to_dict()
    assert MIXED in expected.values and len(set(expected.values)) >= 2  # the fixture exercises both outcomes
    without = straight(root, "SELECT query_id FROM code2text_queries WHERE query_id NOT IN "
                             "(SELECT query_id FROM code2text_qrels WHERE relevance = 2)")["query_id"]
    assert len(without) and {generator[q] for q in without} == {NO_POSITIVE}


def test_a_positive_number_is_the_positives_mean(lexical_cache):
    root, _ = lexical_cache
    rate = labels_by_id(root, "positive.pass_rate")
    raw = straight(root, """SELECT r.query_id, avg(CAST(json_extract_string(c.meta, '$.pass_rate') AS DOUBLE)) AS r
                            FROM text2code_qrels r JOIN code_corpus c ON c.code_id = r.doc_id
                            WHERE r.relevance = 2 GROUP BY 1""")
    shown = {f"{v:g}" for v in raw["r"]}
    if len(shown) <= 8:  # few values: shown as they are
        assert {q: rate[q] for q in raw["query_id"]} == {q: f"{v:g}" for q, v in zip(raw["query_id"], raw["r"])}
    else:
        assert all(rate[q] != "none" for q in raw["query_id"])


def test_numbers_with_many_values_are_cut_into_ordered_bins_that_never_split_a_value():
    values = pd.Series([1.0] * 50 + list(np.linspace(0, 0.9, 40)) + [np.nan] * 3)
    labels = _bins(values)
    assert labels[:50].eq("= 1").all()  # half the queries share 1: its own group
    assert labels[-3:].eq("none").all()
    rest = labels[50:90]
    assert sorted(rest.unique()) == list(rest.unique())  # numbered bins sort in value order
    assert rest.nunique() == 3 and rest.value_counts().max() - rest.value_counts().min() <= 1
    ties = _bins(pd.Series([5.0] * 30 + list(range(10, 20))))
    assert ties[:30].nunique() == 1
    few = _bins(pd.Series([0.0, 1.0, 1.0, np.nan]))
    assert few.tolist() == ["0", "1", "1", "none"]


@pytest.mark.parametrize("key", ["query.anchor_model", "positive.model", "query.sub_query_type"])
def test_eval_by_a_metadata_field_is_the_mean_over_its_labels(lexical_cache, key):
    root, runs = lexical_cache
    done = run_cli("eval", "--release", RELEASE, "--run", runs["bm25"], "--by", key, "--json",
                   env={"COREB_CACHE": str(root)})
    assert done.returncode == 0, done.stderr
    groups = json.loads(done.stdout)["groups"]
    with Store(RELEASE, root) as store:
        per_query = evaluate(store, read_hits(runs["bm25"], root))
    labels = labels_by_id(root, key)
    per_query["label"] = per_query["query_id"].map(labels)
    expected = per_query.groupby(["task", "label"])["ndcg_at_10"].agg(["mean", "size"])
    shown = {(task, label): (m["ndcg_at_10"], m["queries"]) for task, g in groups.items() for label, m in g.items()}
    assert set(shown) == set(expected.index)
    for cell, (mean, queries) in shown.items():
        assert mean == pytest.approx(expected.loc[cell, "mean"], abs=1e-12) and queries == expected.loc[cell, "size"]


def test_the_trap_breakdown_groups_by_the_same_labels(lexical_cache):
    root, runs = lexical_cache
    done = run_cli("traps", "--release", RELEASE, "--run", runs["bm25"], "--task", "c2t", "--by",
                   "meta_anchor_model", "--json", env={"COREB_CACHE": str(root)})
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["breakdown"]
    labels = labels_by_id(root, "query.anchor_model")
    counts = pd.Series([labels[q] for q in labels if q.startswith("q_c2t")]).value_counts().to_dict()
    assert {r["query.anchor_model"]: r["queries"] for r in rows} == counts


@pytest.mark.parametrize("key, says", [
    ("bogus.model", "must be one of query, anchor, positive"),
    ("query.", "names no field"),
    ("query.query", "has no query field 'query'"),  # texts are no slice
    ("positive.meta", "has no positive field 'meta'"),
    ("query.x\"; DROP TABLE code_corpus; --", "has no query field"),
    ("anchor.model') OR 1=1 --", "has no anchor field"),
    ("query.../../etc/passwd", "must be one of"),
])
def test_a_bad_key_is_one_error_line_and_changes_nothing(lexical_cache, key, says):
    root, runs = lexical_cache
    assert run_cli("eval", "--release", RELEASE, "--run", runs["bm25"], env={"COREB_CACHE": str(root)}).returncode == 0
    before = tree_digest(root)  # after a good call: it may keep the run's join beside it
    for verb in (["eval", "--run", runs["bm25"]], ["traps", "--run", runs["bm25"]]):
        done = run_cli(verb[0], "--release", RELEASE, *verb[1:], "--by", key, env={"COREB_CACHE": str(root)})
        assert done.returncode == 2 and done.stderr.count("error:") == 1 and says in done.stderr, done.stderr
        assert done.stdout == ""
    assert tree_digest(root) == before
    with Store(RELEASE, root) as store, pytest.raises(CorebError):
        slice_labels(store, SliceKey.parse(key))


def test_the_trap_page_groups_by_a_metadata_field_from_the_url_and_the_menu(lexical_cache):
    from tests.builders import app_test

    root, runs = lexical_cache
    at = app_test("traps.py", root, {"release": RELEASE, "runs": [runs["bm25"]], "task": "c2c",
                                     "level": "metadata field", "slice": "query.anchor_model"}, timeout=300).run()
    assert not at.exception
    assert at.selectbox(key="trap_slice").value == "query.anchor_model"
    table = at.dataframe[0].value
    labels = labels_by_id(root, "query.anchor_model")
    counts = pd.Series([labels[q] for q in labels if q.startswith("q_c2c")]).value_counts().to_dict()
    assert dict(zip(table["group"], table["queries"])) == counts
    at.selectbox(key="trap_slice").set_value("positive.model").run()  # another field from the menu
    assert not at.exception
    assert at.query_params["slice"] == "positive.model"
    generator = labels_by_id(root, "positive.model")
    expected = pd.Series([generator[q] for q in generator if q.startswith("q_c2c")]).value_counts().to_dict()
    assert dict(zip(at.dataframe[0].value["group"], at.dataframe[0].value["queries"])) == expected
    at.radio(key="trap_level").set_value("subtask").run()  # back to a fixed level: the slice leaves the URL
    assert "slice" not in at.query_params and not at.exception
