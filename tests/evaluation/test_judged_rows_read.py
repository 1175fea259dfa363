"""A stored run's first read under v2 decodes only its judged rows (``runs.folders.JudgedRows``) and scores as its
hits do; a reading that needs more (v1's noise counts, another release version's qrels) reads every row, put back
in the run's order, and scores the same; a run stored the plain way (every run stored before) scores the same."""
from __future__ import annotations

import json
import shutil

import pandas as pd
import pyarrow.parquet as pq
import pytest

from coreb_core.data.store import Store
from coreb_core.evaluation import stored_joins
from coreb_core.evaluation.evaluate import analyse_many
from coreb_core.evaluation.schemes import EXECUTED, V1, V2
from coreb_core.evaluation.stored_joins import StoredRun
from coreb_core.runs.folders import JUDGED_ROWS_KEY, judged_rows, read_hits, run_path, write_run


@pytest.fixture
def stored(lexical_cache, tmp_path):
    """A private copy of the lexical cache without any join file."""
    root = tmp_path / "cache"
    shutil.copytree(lexical_cache[0], root, ignore=shutil.ignore_patterns("joins"))
    return root, lexical_cache[1]["bm25"]


@pytest.fixture
def rows_read(monkeypatch):
    """The rows of every ranked list the evaluation reads, per call."""
    read, real = [], stored_joins.read_run_table

    def counting(*args, **kwargs):
        table = real(*args, **kwargs)
        read.append(table.num_rows)
        return table

    monkeypatch.setattr(stored_joins, "read_run_table", counting)
    return read


def _scores(store, run, schemes):
    store.cache.clear()  # a fresh index: nothing memoised
    ev = analyse_many(store, {"r": run}, schemes)
    return [ev.per_query(s) for s in schemes]


@pytest.mark.parametrize("schemes", [(V2,), (V2, EXECUTED), (V2, V1)])
def test_a_first_read_decodes_the_judged_rows_when_they_suffice(stored, rows_read, schemes):
    root, run_id = stored
    hits = read_hits(run_id, root)
    with Store("demo_v2603", root) as store, pq.ParquetFile(run_path(run_id, root) / "hits.parquet") as file:
        judged = judged_rows(file).rows
        want = _scores(store, hits, schemes)
        got = _scores(store, StoredRun(run_id, root), schemes)
    for a, b in zip(want, got):
        pd.testing.assert_frame_equal(a, b)
    # v2 reads the judged rows alone; executed judges promoted pairs beyond the qrels and v1 counts noise texts:
    # every row.
    assert rows_read == ([judged] if schemes == (V2,) else [len(hits)])
    assert judged < len(hits) / 4


def test_a_run_laid_out_for_another_version_is_read_whole(stored, rows_read):
    root, run_id = stored
    path = run_path(run_id, root) / "hits.parquet"
    with pq.ParquetFile(path) as file:
        layout = judged_rows(file)
        table = file.read()
        groups = [file.metadata.row_group(i).num_rows for i in range(file.metadata.num_row_groups)]
    moved = json.dumps({"rows": layout.rows, "version": "release_v0-elsewhere"}).encode()
    table = table.replace_schema_metadata({**table.schema.metadata, JUDGED_ROWS_KEY: moved})
    with pq.ParquetWriter(path, table.schema, compression="zstd") as writer:  # the same row groups
        start = 0
        for n in groups:
            writer.write_table(table.slice(start, n))
            start += n
    hits = read_hits(run_id, root)
    with Store("demo_v2603", root) as store:
        want = _scores(store, hits, (V2,))
        got = _scores(store, StoredRun(run_id, root), (V2,))
    pd.testing.assert_frame_equal(want[0], got[0])
    assert rows_read == [len(hits)]


def test_a_run_stored_the_plain_way_scores_the_same(stored, rows_read):
    root, run_id = stored
    hits = read_hits(run_id, root)
    write_run(hits, {"run_id": "plain", "release": "demo_v2603"}, root)  # as every run stored before
    with Store("demo_v2603", root) as store:
        want = _scores(store, StoredRun(run_id, root), (V2, V1))
        got = _scores(store, StoredRun("plain", root), (V2, V1))
    for a, b in zip(want, got):
        pd.testing.assert_frame_equal(a, b)
    assert rows_read[-1] == len(hits)


def test_a_v2_join_hashes_the_bytes_it_reads_and_follows_a_rewrite(stored, monkeypatch):
    """The key of a join that reads the judged rows alone hashes those rows' row groups and the footer, not the
    whole file; a file rewritten in place (its modification time put back) with other judged rows gets a new join."""
    import os

    from coreb_core.evaluation import join

    root, run_id = stored
    path = run_path(run_id, root) / "hits.parquet"
    hashed = []
    real = stored_joins.content_digest
    monkeypatch.setattr(stored_joins, "content_digest", lambda p: hashed.append(p) or real(p))
    join._DIGESTS.clear()
    with Store("demo_v2603", root) as store:
        before = _scores(store, StoredRun(run_id, root), (V2,))[0]
        assert hashed == []  # v2: the judged rows' bytes only
        _scores(store, StoredRun(run_id, root), (V2, V1))
        assert set(hashed) == {path}  # v1 reads every row: the whole file
        hits = read_hits(run_id, root)
        worse = hits[hits["rank"] > 1].reset_index(drop=True)  # every query loses its first hit
        write_run(worse, {"run_id": "worse", "release": "demo_v2603"}, root, store=store)
        stat = path.stat()
        new = (run_path("worse", root) / "hits.parquet").read_bytes()
        with open(path, "r+b") as f:  # in place: the same inode
            f.write(new)
            f.truncate(len(new))
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        assert path.stat().st_ino == stat.st_ino
        after = _scores(store, StoredRun(run_id, root), (V2,))[0]
        direct = _scores(store, worse, (V2,))[0]
    pd.testing.assert_frame_equal(after, direct)
    assert after["ndcg_at_10"].mean() < before["ndcg_at_10"].mean() - 0.05
