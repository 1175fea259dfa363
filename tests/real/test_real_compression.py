"""Compressed embeddings on the real release_v2603 (issue 36, item 4), with a dense run of the ``Trigrams`` stand-in
encoder (seconds, where MiniLM takes ten minutes: docs/analyses.md, section 10 has MiniLM's figures): at the real
scale too, the full width at float32 reproduces the run's hits and scores exactly, and every variant is scored."""
from __future__ import annotations

import shutil


def test_compression_reproduces_a_dense_run_on_the_real_release(real_cache, tmp_path):
    import pandas as pd

    from coreb_core.analysis.compression import compressed_hits, compression
    from coreb_core.data.store import Store
    from coreb_core.paths import datasets_dir
    from coreb_core.retrieval.pipeline import run_retrieval
    from coreb_core.runs.folders import read_hits, run_meta
    from tests.builders import FAKE_WIDTH, Trigrams

    root = tmp_path / "cache"  # the shared real cache gets no run: a copy of its releases
    shutil.copytree(datasets_dir(real_cache), datasets_dir(root), symlinks=True)
    run = run_retrieval("minilm", "release_v2603", root=root, model_loader=lambda *a: Trigrams()).run_id
    with Store("release_v2603", root) as store:
        meta = run_meta(run, root)
        _, variants = compressed_hits(store, meta, dims=[], precisions=["float32"], root=root)
        (mine,) = variants.values()
        key = ["task", "query_id", "rank"]
        kinds = {"task": str, "query_id": str, "doc_id": str, "rank": "int64"}
        pd.testing.assert_frame_equal(mine.astype(kinds).sort_values(key, ignore_index=True),
                                      read_hits(run, root).astype(kinds).sort_values(key, ignore_index=True)[mine.columns],
                                      check_exact=True)
        result = compression(store, meta, dims=[16], root=root)
    assert result.reproduces and result.width == FAKE_WIDTH
    t = result.table
    assert len(t) == 2 * 3 * 3 and dict(zip(t["task"], t["with_positive"])) == {"t2c": 1123, "c2c": 278, "c2t": 1010}
    assert (t[t["full"]]["ndcg_change"] == 0).all()
