"""A run written with its Store (``write_run(..., store=)``) keeps the rows a join against the release's judged
pairs reads in row groups of their own, first (``JudgedRows``), and reads back exactly as the run was given:
every column, in the run's order, whatever columns are asked for; ``run_order`` puts any such split back."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from coreb_core.data.store import Store
from coreb_core.runs.folders import judged_rows, read_hits, run_order, run_path, write_run


@pytest.mark.parametrize("seed", range(40))
def test_run_order_puts_any_judged_first_split_back(seed):
    rng = np.random.default_rng(seed)
    n_q = int(rng.integers(1, 30))
    lengths = rng.integers(1, 40, n_q)
    query = np.repeat(rng.permutation(n_q + 5)[:n_q], lengths)  # codes in no particular order
    rank = np.concatenate([np.sort(rng.choice(np.arange(1, 200), n, replace=False)) for n in lengths])
    rank[np.r_[0, np.cumsum(lengths)[:-1]][lengths == 1][:1]] = -1  # an empty list's marker: rank none
    judged = rng.random(len(query)) < rng.choice([0.0, 0.1, 0.9])
    judged[np.r_[0, np.cumsum(lengths)[:-1]]] = True  # each query's first row
    stored = np.r_[np.flatnonzero(judged), np.flatnonzero(~judged)]
    order = run_order(query[stored], rank[stored], int(judged.sum()))
    if judged.all():
        assert order is None  # nothing to merge
    else:
        np.testing.assert_array_equal(stored[order], np.arange(len(query)))


def test_rows_that_do_not_fit_are_left_as_read():
    assert run_order(np.array([0, 1, 1, 1]), np.array([1, 1, 3, 2]), 2) is None  # q1's ranks fall in the tail
    assert run_order(np.array([0, 1, 2]), np.array([1, 1, 1]), 2) is None  # q2's first row is not in the head
    assert run_order(np.array([0, 1, 0]), np.array([1, 1, 1]), 2) is None  # q0 twice at rank 1


def test_a_run_written_with_its_store_reads_back_as_written(lexical_cache, tmp_path):
    root, ids = lexical_cache
    run_id = ids["bm25"]  # written by run_retrieval, with its Store
    path = run_path(run_id, root) / "hits.parquet"
    with Store("demo_v2603", root) as store, pq.ParquetFile(path) as file:
        layout = judged_rows(file)
        assert layout is not None and layout.version == store.folder.name
        first = pq.read_table(path).slice(0, layout.rows).to_pandas()
        pairs = store.sql("SELECT query_id, doc_id FROM qrels").df()
    hits = read_hits(run_id, root)
    # The judged rows come first: every row of a judged pair is among them, and they are few.
    judged = pd.MultiIndex.from_frame(hits[["query_id", "doc_id"]].astype(object)).isin(pd.MultiIndex.from_frame(pairs))
    assert layout.rows == len(first) < len(hits) / 4
    assert int(judged.sum()) <= len(first)
    in_first = pd.MultiIndex.from_frame(first[["query_id", "doc_id"]].astype(object))
    assert pd.MultiIndex.from_frame(hits.loc[judged, ["query_id", "doc_id"]].astype(object)).isin(in_first).all()
    # The same rows stored the plain way (no Store: one part, the run's order) read back identically.
    write_run(hits, {"run_id": "plain", "release": "demo_v2603"}, tmp_path)
    with pq.ParquetFile(run_path("plain", tmp_path) / "hits.parquet") as file:
        assert judged_rows(file) is None
    pd.testing.assert_frame_equal(read_hits(run_id, root), read_hits("plain", tmp_path))
    assert (hits.groupby("query_id", observed=True, sort=False)["rank"].apply(lambda r: r.is_monotonic_increasing)).all()
    for columns in (["task", "doc_id"], ["score", "rank"], ["in_top_k"], ["query_id", "doc_id", "rank"]):
        pd.testing.assert_frame_equal(read_hits(run_id, root, columns), read_hits("plain", tmp_path, columns))


def test_a_run_of_another_release_or_out_of_order_is_stored_as_it_is(lexical_cache, tmp_path):
    root, ids = lexical_cache
    hits = read_hits(ids["bm25"], root)
    with Store("demo_v2603", root) as store:
        write_run(hits, {"run_id": "other", "release": "demo_v2602"}, tmp_path, store=store)
        write_run(hits.iloc[::-1], {"run_id": "reversed", "release": "demo_v2603"}, tmp_path, store=store)
    for run_id, want in (("other", hits), ("reversed", hits.iloc[::-1].reset_index(drop=True))):
        with pq.ParquetFile(run_path(run_id, tmp_path) / "hits.parquet") as file:
            assert judged_rows(file) is None
        pd.testing.assert_frame_equal(read_hits(run_id, tmp_path), want, check_categorical=False)
