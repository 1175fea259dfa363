"""A stored run scored from the join kept beside it (``coreb_core/evaluation/stored_joins.py``) gives the numbers
its hits give, reads no ranked list once the join is written, and never trusts a join file that does not fit."""
from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pytest

from coreb_core.data.store import Store
from coreb_core.evaluation import stored_joins
from coreb_core.evaluation.evaluate import analyse_many
from coreb_core.evaluation.schemes import V1, V2
from coreb_core.evaluation.stored_joins import StoredRun
from coreb_core.paths import joins_dir
from coreb_core.runs.folders import read_hits, write_run


@pytest.fixture
def stored(lexical_cache, tmp_path):
    """A private copy of the lexical cache without the join files other tests' evaluations left there (its join files
    are this test's own)."""
    root = tmp_path / "cache"
    shutil.copytree(lexical_cache[0], root, ignore=shutil.ignore_patterns("joins"))
    return root, lexical_cache[1]


def _tables(store, runs):
    ev = analyse_many(store, runs, (V2, V1), traps=True, groupings=("task",))
    return ev.per_query(V2), ev.per_query(V1), ev.traps


def test_stored_runs_score_as_their_hits_and_read_no_list_the_second_time(stored, monkeypatch):
    root, ids = stored
    with Store("demo_v2603", root) as store:
        from_hits = _tables(store, {rid: read_hits(rid, root) for rid in ids.values()})
        store.cache.clear()
        first = _tables(store, {rid: StoredRun(rid, root) for rid in ids.values()})
        files = sorted(p.parent.name for p in joins_dir(root).glob("*/*.npy"))
        assert files == sorted(ids.values())  # one join per run, under its id
        store.cache.clear()  # a fresh index: only the files remain

        def no_reading(*_args, **_kwargs):
            raise AssertionError("a ranked list was read")

        monkeypatch.setattr(stored_joins, "read_run_table", no_reading)
        second = _tables(store, {rid: StoredRun(rid, root) for rid in ids.values()})
    for a, b, c in zip(from_hits, first, second):
        pd.testing.assert_frame_equal(a, b)
        pd.testing.assert_frame_equal(a, c)
    bm25 = from_hits[0][(from_hits[0]["run"] == ids["bm25"]) & (from_hits[0]["task"] == "t2c")]
    assert round(float(bm25["ndcg_at_10"].mean()), 4) == 0.2998  # BM25 on demo_v2603, as documented


@pytest.mark.parametrize("damage", ["garbage", "empty", "wrong shape", "pickled object"])
def test_a_join_file_that_does_not_fit_is_rebuilt_not_trusted(stored, damage):
    root, ids = stored
    run_id = ids["bm25"]
    with Store("demo_v2603", root) as store:
        want = analyse_many(store, {"r": StoredRun(run_id, root)}, (V2,)).per_query(V2)
        (file,) = joins_dir(root).glob(f"{run_id}/*.npy")
        if damage == "garbage":
            file.write_bytes(b"\x93NUMPY not really")
        elif damage == "empty":
            file.write_bytes(b"")
        elif damage == "wrong shape":  # a join of another release: the wrong length
            np.save(file, np.ones(3 + 3 * 2))
        else:
            with open(file, "wb") as f:
                np.save(f, np.array([{"rank": 1}], dtype=object), allow_pickle=True)
        store.cache.clear()
        got = analyse_many(store, {"r": StoredRun(run_id, root)}, (V2,)).per_query(V2)
    pd.testing.assert_frame_equal(want, got)
    data = np.load(file, allow_pickle=False)  # rebuilt in place: in_run, then rank, excluded and noise above per pair
    assert data.dtype == np.float64 and (len(data) - store.query_facts.shape[0]) % 3 == 0


def test_a_replaced_run_gets_a_new_join(stored):
    root, ids = stored
    run_id = ids["bm25"]
    with Store("demo_v2603", root) as store:
        before = analyse_many(store, {"r": StoredRun(run_id, root)}, (V2,)).per_query(V2)
        hits = read_hits(run_id, root)
        worse = hits[hits["rank"] > 1].copy()  # every query loses its first hit
        meta = {"run_id": run_id, "model": "bm25", "release": "demo_v2603", "name": "bm25 · replaced"}
        shutil.rmtree(root / "runs" / run_id)
        write_run(worse, meta, root)
        store.cache.clear()
        after = analyse_many(store, {"r": StoredRun(run_id, root)}, (V2,)).per_query(V2)
        direct = analyse_many(store, {"r": worse}, (V2,)).per_query(V2)
    pd.testing.assert_frame_equal(after, direct)
    assert after["ndcg_at_10"].mean() != pytest.approx(before["ndcg_at_10"].mean())


def test_naming_a_new_run_opens_no_hits_file(stored):
    """Saving a run reads the other runs' run.json only: a damaged hits file elsewhere neither slows it nor stops it."""
    from coreb_core.runs.folders import list_runs, named_runs
    from coreb_core.runs.hits import hits_from_scores

    root, ids = stored
    (root / "runs" / ids["bm25s-mteb"] / "hits.parquet").write_bytes(b"not parquet")
    names = {m.run_id: m.name for m in named_runs("demo_v2603", root)}
    assert set(names) == set(ids.values())  # the damaged run still holds its name
    new = write_run(hits_from_scores("t2c", ["q1"], ["d1"], np.array([[0.5]])),
                    {"run_id": "new-bm25", "model": "bm25", "release": "demo_v2603"}, root)
    taken = names[ids["bm25"]]
    assert {m.run_id: m.name for m in named_runs("demo_v2603", root)}[new] == f"{taken} (2)"
    assert ids["bm25s-mteb"] not in {m.run_id for m in list_runs("demo_v2603", root)}  # the listing still skips it
