"""The Trap analysis page's "Compressed embeddings" section against the compress verb (issue 36, item 4), on a dense
run encoded by the ``Trigrams`` stand-in (``fake_dense``)."""
import json

from tests.builders import app_test


def test_section_shows_the_verbs_figures(fake_dense, capsys):
    from coreb_core.cli import main

    root, dense, bm25 = fake_dense
    at = app_test("traps.py", root, {"task": "c2t", "runs": [bm25, dense]}, timeout=300).run()
    assert not at.exception
    assert "Compressed embeddings" in [s.value for s in at.subheader]
    run_box = at.selectbox(key="trap_compress_run")
    assert len(run_box.options) == 1 and run_box.value == dense  # only the dense run
    table = next(d.value for d in at.dataframe if "bytes_per_vector" in d.value.columns)
    assert main(["compress", "--release", "demo_v2603", "--run", dense, "--task", "c2t", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert len(table) == len(rows) == 6  # the full 64 dimensions and 32 below them, 3 precisions each
    for shown, verb in zip(table.itertuples(), rows):
        assert (shown.dims, shown.precision, shown.bytes_per_vector) == (verb["dims"], verb["precision"],
                                                                          verb["bytes_per_vector"])
        assert shown.ndcg_at_10 == verb["ndcg_at_10"] and shown.lost_share == verb["lost_share"]
    # two charts against bytes per vector (log 2): nDCG@10 and the share lost to a trap
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")][-2:]
    assert [s["layer"][0]["encoding"]["y"]["field"] for s in specs] == ["ndcg_at_10", "lost_share"]
    assert all(s["layer"][0]["encoding"]["x"]["scale"]["type"] == "log" for s in specs)
    sentence = next(m.value for m in at.markdown if "smallest variant" in m.value)
    full = next(r for r in rows if r["full"])
    assert f"**{full['ndcg_at_10'] * 100:.1f}**" in sentence and "4 bytes" in sentence  # 32 binary dimensions
    assert any("reproduces the run's scores" in c.value for c in at.caption)


def test_section_needs_a_dense_run(fake_dense):
    root, _, bm25 = fake_dense
    at = app_test("traps.py", root, {"task": "c2c", "runs": [bm25]}, timeout=300).run()
    assert not at.exception
    assert any("Compressed embeddings need a dense run" in i.value for i in at.info)
