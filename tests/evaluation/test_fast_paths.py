"""The evaluation's fast paths give exactly what the paths they shortcut give: a release index read from its file
equals one coded from the Store (and a file that does not fit is rebuilt), a run coded from Arrow equals the run
coded from pandas, and a run that leaves judged queries out scores them as one that lists them all scores its own."""
from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import analyse_many
from coreb_core.evaluation.join import code_table, index_file, release_index
from coreb_core.evaluation.schemes import V1, V2
from coreb_core.evaluation.stored_joins import CODED_COLUMNS, StoredRun, read_coded
from coreb_core.runs.folders import read_hits


@pytest.fixture
def stored(lexical_cache, tmp_path):
    """A private copy of the lexical cache without any join or index file."""
    root = tmp_path / "cache"
    shutil.copytree(lexical_cache[0], root, ignore=shutil.ignore_patterns("joins"))
    return root, lexical_cache[1]


def _index_arrays(index) -> dict[str, np.ndarray]:
    out = {"anchor": index.anchor, "self_doc": index.self_doc, "noise_doc": index.noise_doc}
    for view in ("qrels", "qrels_v1_rules"):
        for name, values in index.judged(view)._asdict().items():
            out[f"{view}.{name}"] = values
    return out


def test_an_index_read_from_its_file_equals_one_coded_from_the_store(stored):
    root, _ = stored
    with Store("demo_v2603", root) as store:
        coded = release_index(store)
        want = _index_arrays(coded)
        folder = index_file(store)
        assert sorted(p.name for p in folder.iterdir()) == ["docs.npy", "documents.npy", "qrels.npy",
                                                            "qrels_v1_rules.npy"]
        store.cache.pop("release_index")
        read = release_index(store)
        assert read is not coded
        pd.testing.assert_index_equal(read.docs, coded.docs, exact=True)
        got = _index_arrays(read)
    for name, values in want.items():
        assert got[name].dtype == values.dtype, name
        np.testing.assert_array_equal(got[name], values, err_msg=name)


@pytest.mark.parametrize("damage", ["garbage", "empty", "wrong length", "floats"])
def test_an_index_file_that_does_not_fit_is_rebuilt(stored, damage):
    root, ids = stored
    with Store("demo_v2603", root) as store:
        want = analyse_many(store, {"r": StoredRun(ids["bm25"], root)}, (V2,)).per_query(V2)
        folder = index_file(store)
        for file in folder.iterdir():
            if damage == "garbage":
                file.write_bytes(b"\x93NUMPY not really")
            elif damage == "empty":
                file.write_bytes(b"")
            elif damage == "wrong length":
                np.save(file, np.arange(7, dtype=np.int64))
            else:
                np.save(file, np.zeros(30))
        store.cache.clear()
        got = analyse_many(store, {"r": StoredRun(ids["bm25"], root)}, (V2,)).per_query(V2)
        store.cache.clear()
        again = analyse_many(store, {"r": StoredRun(ids["bm25"], root)}, (V2,)).per_query(V2)  # from rebuilt files
    pd.testing.assert_frame_equal(want, got)
    pd.testing.assert_frame_equal(want, again)


def test_a_run_coded_from_arrow_equals_the_run_coded_from_pandas(stored):
    root, ids = stored
    with Store("demo_v2603", root) as store:
        index = release_index(store)
        for run_id in ids.values():
            from_pandas = index.code_run(read_hits(run_id, root, columns=CODED_COLUMNS))
            from_arrow = read_coded(index, StoredRun(run_id, root))  # every row, in the run's order
            for name in ("query_map", "doc_map", "rank"):
                np.testing.assert_array_equal(getattr(from_arrow, name), getattr(from_pandas, name), err_msg=name)
            # Local codes may be numbered apart; what they stand for is the same per row.
            for local, mapping in (("q_local", "query_map"), ("d_local", "doc_map")):
                a, p = getattr(from_arrow, local), getattr(from_pandas, local)
                assert a.dtype.kind == "i" and a.dtype.itemsize >= 2
                np.testing.assert_array_equal(np.where(a >= 0, from_arrow._asdict()[mapping][a], -2),
                                              np.where(p >= 0, from_pandas._asdict()[mapping][p], -2))


def test_arrow_chunks_with_their_own_dictionaries_nulls_and_plain_strings(stored, tmp_path):
    """A table whose chunks carry different dictionaries, with an empty-list marker (null doc and rank), and one
    with plain string columns: the same codes as pandas gives."""
    root, ids = stored
    with Store("demo_v2603", root) as store:
        index = release_index(store)
        queries = list(index.query_pos[:3])
        docs = list(index.docs[:4])
        frame = pd.DataFrame({"query_id": [queries[0]] * 3 + [queries[1]] * 2 + [queries[2]],
                              "doc_id": [docs[0], docs[1], "not-a-doc", docs[3], docs[2], None],
                              "rank": pd.array([1, 2, 3, 1, 2, None], dtype="Int32")})
        want = index.code_run(frame)
        first, second = frame.iloc[:3], frame.iloc[3:]
        chunked = pa.concat_tables([pa.Table.from_pandas(part.astype({"query_id": "category", "doc_id": "category"}),
                                                         preserve_index=False) for part in (first, second)])
        assert chunked.column("doc_id").num_chunks == 2
        plain = pa.Table.from_pandas(frame.astype({"query_id": object, "doc_id": object}), preserve_index=False)
        for table in (chunked, plain):
            got = code_table(index, table)
            np.testing.assert_array_equal(got.rank, want.rank)
            for local, mapping in (("q_local", "query_map"), ("d_local", "doc_map")):
                a, p = getattr(got, local), getattr(want, local)
                np.testing.assert_array_equal(np.where(a >= 0, got._asdict()[mapping][a], -2),
                                              np.where(p >= 0, want._asdict()[mapping][p], -2))
        # And the parquet round trip the stored runs take.
        pq.write_table(chunked, tmp_path / "hits.parquet")
        got = code_table(index, pq.read_table(tmp_path / "hits.parquet"))
        np.testing.assert_array_equal(got.rank, want.rank)


def test_a_run_that_leaves_queries_out_scores_the_rest_as_a_full_run_does(stored):
    root, ids = stored
    with Store("demo_v2603", root) as store:
        hits = read_hits(ids["bm25"], root)
        queries = hits["query_id"].astype(str)
        kept = queries.isin(sorted(set(queries))[::2])
        ev = analyse_many(store, {"full": hits, "half": hits[kept.to_numpy()]}, (V2, V1), traps=True)
        for scheme in (V2, V1):
            table = ev.per_query(scheme)
            full = table[table["run"] == "full"].drop(columns="run").set_index("query_id")
            half = table[table["run"] == "half"].drop(columns="run").set_index("query_id")
            assert 0 < len(half) < len(full)
            pd.testing.assert_frame_equal(half, full.loc[half.index])
