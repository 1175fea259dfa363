"""A run's measured cost (coreb_core.runs.cost): recorded by every new retrieval run, read back from run.json,
absent ("not measured") in older runs, refused in one line when malformed."""
import json
import shutil

import numpy as np
import pytest

from coreb_core.errors import CorebError
from coreb_core.paths import datasets_dir
from coreb_core.retrieval.pipeline import run_retrieval
from coreb_core.runs.cost import RunCost
from coreb_core.runs.folders import run_meta
from coreb_core.runs.meta import RunMeta


@pytest.fixture
def mini_root(mini_data, tmp_path):
    root = tmp_path / "cache"
    shutil.copytree(datasets_dir(mini_data), datasets_dir(root))
    return root


class _Hashing:
    """A stand-in encoder: a fixed 8-dimensional vector per text, no torch, milliseconds."""

    calls = 0

    def encode(self, texts, batch_size, **options):
        _Hashing.calls += 1
        return np.array([[(hash(t) >> s) % 97 + 1.0 for s in range(8)] for t in texts], dtype=np.float32)


def _texts(root, release="demo_v2603"):
    """Texts a run encodes once each (the official profile has no prompts, so one text met twice is encoded at
    its first step), counted per step in the run's order (T2C, C2C, C2T; documents, then queries); and the texts
    BM25 scores."""
    from coreb_core.data.store import Store
    from coreb_core.retrieval.pipeline import load_task

    with Store(release, root) as s:
        seen: set[str] = set()
        docs = queries = 0
        for task in ("t2c", "c2c", "c2t"):
            data = load_task(s, task)
            docs += len(set(data.docs) - seen)
            seen |= set(data.docs)
            queries += len(set(data.queries) - seen)
            seen |= set(data.queries)
        scored = s.sql("SELECT (SELECT count(*) FROM queries) + (SELECT count(*) FROM documents WHERE corpus = 'code') * 2"
                       " + (SELECT count(*) FROM documents WHERE corpus = 'text')").fetchone()[0]
    return int(docs), int(queries), int(scored)


def test_bm25_run_records_its_cost(mini_root):
    run = run_retrieval("bm25", "demo_v2603", root=mini_root).run_id
    cost = run_meta(run, mini_root).cost
    _, _, scored = _texts(mini_root)
    assert cost is not None and cost.kind == "lexical" and cost.device == "cpu" and cost.precision == "none"
    assert cost.texts == scored == cost.documents + cost.queries and cost.cached == 0  # every text of every task
    assert cost.seconds > 0 and cost.texts_per_s is not None and cost.texts_per_s > 0
    assert cost.ms_per_text == pytest.approx(1000 / cost.texts_per_s)
    assert cost.documents_s == cost.queries_s == 0  # BM25 indexes and scores in one call: not split
    assert cost.peak_rss_gb is not None and 0.05 < cost.peak_rss_gb < 64 and cost.rss_scope == "run"
    assert cost.gpu_peak_gb is None and cost.batch_size is None and cost.threads is None and cost.cpus >= 1
    stored = json.loads((mini_root / "runs" / run / "run.json").read_text())["cost"]
    assert stored["texts"] == scored and stored["texts_per_s"] == pytest.approx(cost.texts_per_s, rel=1e-3)


def test_encoder_run_records_texts_speed_and_cache_service(mini_root):
    encoder = _Hashing()
    first = run_retrieval("minilm", "demo_v2603", device="cpu", batch_size=16, root=mini_root,
                          model_loader=lambda spec, encoding, device: encoder)
    cost = run_meta(first.run_id, mini_root).cost
    docs, queries, _ = _texts(mini_root)
    assert cost.kind == "encode" and cost.device == "cpu" and cost.precision == "float32" and cost.batch_size == 16
    assert cost.texts == first.texts_encoded == docs + queries  # each distinct text once (the code corpus shared)
    assert (cost.documents, cost.queries) == (docs, queries)
    assert cost.cached == 0  # each text the run needed was encoded by it (once), none came from an earlier run
    assert cost.seconds == pytest.approx(cost.documents_s + cost.queries_s, abs=1e-3) and cost.texts_per_s > 0
    assert cost.rates()["documents_per_s"] > 0 and cost.rates()["queries_per_s"] > 0
    # the same run again: every vector from the cache, so no speed of the model is claimed
    again = run_meta(run_retrieval("minilm", "demo_v2603", device="cpu", root=mini_root,
                                   model_loader=lambda spec, encoding, device: encoder).run_id, mini_root).cost
    assert (again.texts, again.cached, again.texts_per_s, again.ms_per_text) == (0, docs + queries, None, None)
    assert not again.speed_measured and again.peak_rss_gb is not None and again.peak_memory_gb is None  # no model


def test_a_run_json_without_cost_reads_as_not_measured_and_round_trips():
    old = {"run_id": "r1", "model": "bm25", "release": "demo_v2603", "timings_s": {"total": 1.0}}
    meta = RunMeta.from_json(old)
    assert meta.cost is None and meta.to_json() == old
    cost = RunCost("encode", "cuda", "bf16", 100, 2.0, 5, 60, 1.5, 40, 0.5, 32, 4, 16, 3.2, "run", 1.1)
    again = RunMeta.from_json(json.loads(json.dumps(RunMeta("r2", cost=cost).to_json())))
    assert again.cost == cost and again.cost.peak_memory_gb == 1.1  # CUDA: the GPU peak


@pytest.mark.parametrize("block,message", [
    ({"kind": "encode", "device": "cpu", "precision": "fp32", "texts": 10, "seconds": "fast"},
     "field 'cost.seconds' is str, expected a number"),
    ({"kind": "encode", "device": "cpu", "precision": "fp32", "texts": 10}, "field 'cost.seconds' is missing"),
    ({"kind": "encode", "device": "cpu", "precision": "fp32", "texts": 10, "seconds": 1.0, "peak_rss_gb": -1},
     "field 'cost.peak_rss_gb' is -1, expected a finite number, 0 or more"),
    ({"kind": "encode", "device": "cpu", "precision": "fp32", "texts": 1.5, "seconds": 1.0},
     "field 'cost.texts' is float, expected a whole number"),
    ({"kind": "gpu", "device": "cpu", "precision": "fp32", "texts": 1, "seconds": 1.0},
     "field 'cost.kind' is 'gpu', expected one of encode, lexical"),
    ([1, 2], "field 'cost' is list, expected an object"),
])
def test_a_malformed_cost_block_is_one_line_naming_file_and_field(tmp_path, block, message):
    from coreb_core.paths import runs_dir
    from coreb_core.runs.folders import write_run
    from coreb_core.runs.hits import hits_from_scores

    write_run(hits_from_scores("t2c", ["q1"], ["d1"], np.array([[0.5]])), RunMeta("r1", release="v"), tmp_path)
    path = runs_dir(tmp_path) / "r1" / "run.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "cost": block}))  # edited by hand, or format drift
    with pytest.raises(CorebError) as err:
        run_meta("r1", tmp_path)
    text = str(err.value)
    assert "\n" not in text and text == f"{path}: {message}"


def test_nan_in_a_cost_block_is_refused():
    with pytest.raises(CorebError, match=r"^runs/x/run.json: field 'cost.seconds' is nan, expected a finite number"):
        RunMeta.from_json(json.loads('{"run_id": "x", "cost": {"kind": "encode", "device": "cpu", "precision": "fp32",'
                                     ' "texts": 1, "seconds": NaN}}'), "runs/x/run.json")
