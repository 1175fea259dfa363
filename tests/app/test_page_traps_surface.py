"""The Trap analysis page's "Surface bias" and "Embedding map" sections against the library on CoREB-mini
(the numbers themselves are checked by hand in tests/analysis/test_surface_bias.py and test_embedding_map.py).
Fast: BM25 and a dense run encoded by the ``Trigrams`` stand-in (``fake_dense``), not the MiniLM first launch."""
import json

import pytest

from tests.builders import app_test


@pytest.fixture(scope="module")
def root(fake_dense):
    return fake_dense[0]


def test_surface_sentences_and_map(root, fake_dense_runs):
    from coreb_core.analysis.traps.surface import TRAP_WIN, surface_bias
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import trap_table
    from coreb_core.runs.folders import read_hits

    runs = fake_dense_runs
    at = app_test("traps.py", root, {"task": "t2c", "runs": [runs["bm25"], runs["minilm"]]}).run()
    assert not at.exception
    sentences = [m.value for m in at.markdown if "trap win" in m.value]
    assert len(sentences) == 2 and all(s.rstrip().endswith(".") for s in sentences)
    with Store("demo_v2603", root) as store:
        hits = {model: read_hits(runs[model], root) for model in ("bm25", "minilm")}
        bias = surface_bias(store, {runs[model]: h for model, h in hits.items()})
        for model, h in hits.items():
            table = trap_table(store, h)
            finding = next(f for f in bias.findings("t2c") if f.run == runs[model])
            # one trap win per query with a trap above its first positive, as the trap table counts them
            assert finding.trap_wins == int(table[table["task"] == "t2c"]["trap_above_positive"].sum()) > 0
            assert any(f"{finding.share_wins * 100:.1f}% of its {finding.trap_wins} trap wins" in s for s in sentences)
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    bars, scatter = specs[-4], specs[-3]  # then the compressed embeddings' two charts end the page
    assert bars["height"] >= 160 and scatter["height"] >= 160
    assert scatter["mark"]["type"] == "point" and scatter["encoding"]["color"]["title"] == "Grade · kind"
    assert scatter["encoding"]["x"]["title"].startswith("PCA 1")
    # Only the dense run is offered; the query list starts with its trap wins.
    run_box = at.selectbox(key="trap_map_run")
    assert len(run_box.options) == 1 and run_box.value == runs["minilm"]
    won = sorted(bias.pairs[(bias.pairs["run"] == runs["minilm"]) & (bias.pairs["task"] == "t2c")
                            & (bias.pairs["outcome"] == TRAP_WIN)]["query_id"])
    assert at.selectbox(key="trap_map_query").value == won[0]
    assert any("A linear projection" in c.value for c in at.caption)
    # Fixed colours: the query red, positives green, failing solutions orange (not the scheme's next hue).
    colours = dict(zip(scatter["encoding"]["color"]["scale"]["domain"], scatter["encoding"]["color"]["scale"]["range"]))
    assert colours["query"] == "#d62728" and colours["positive"] == "#2ca02c"
    assert colours.get("trap · failing solution") == "#ff7f0e"
    at.number_input(key="trap_map_neighbours").set_value(3).run()
    assert not at.exception and at.query_params["neighbours"] == "3"


def test_map_needs_a_dense_run(root, fake_dense_runs):
    at = app_test("traps.py", root, {"task": "c2c", "runs": [fake_dense_runs["bm25"]]}).run()
    assert not at.exception
    assert any("needs a dense run" in i.value for i in at.info)
    assert len([m for m in at.markdown if "trap win" in m.value]) == 1
