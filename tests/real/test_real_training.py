"""The reranker protocol on the real releases: the article's sample counts (3,803 training samples of release_v2602,
3,692 test samples of release_v2603) with every property on every sample and the same bytes twice; hard negatives
mined from a real BM25 run; a bounded training from the bundled MiniLM weights on release_v2602's samples that
lowers the held-out loss, its reranked release_v2603 run scored; and the refusals. A copy of ``real_cache`` holds
what these tests add; the training and its reranked run are session fixtures (tests/real/conftest.py), which
tests/real/test_real_rerank_errors.py reads too."""
from __future__ import annotations

import json

import pytest

from coreb_core.data.store import Store
from tests.builders import run_cli
from tests.sample_checks import check_sample_lines

# Counted on the real rows (one sample per (query, rel=2 document) of each query with a rel=1 document)
TRAIN_COUNTS = {"t2c": 2372, "c2c": 367, "c2t": 1064}  # release_v2602, the train rule: 3,803
TEST_COUNTS = {"t2c": 2249, "c2c": 623, "c2t": 820}  # release_v2603, the test rule (c2t_match left out): 3,692


@pytest.fixture(scope="module")
def cache(training_cache):
    """The session's copy of ``real_cache`` for the reranker protocol (tests/real/conftest.py): the samples, the
    trained reranker and its reranked run are there."""
    return training_cache


def test_the_training_samples_are_the_articles_3803(cache, train_file):
    out, counts = train_file
    assert counts["samples"] == 3803 and counts["rule"] == "train" and counts["by_task"] == TRAIN_COUNTS
    with Store("release_v2602", cache) as store:
        rows = check_sample_lines(store, out)
    assert len(rows) == 3803 and sum(r["subtask"] == "c2t_match" for r in rows) == 206


def test_the_test_samples_are_the_articles_3692_and_the_same_bytes_twice(cache, test_file, tmp_path):
    env = {"COREB_CACHE": str(cache)}
    (a, counts), b = test_file, tmp_path / "b.jsonl"
    assert counts["samples"] == 3692 and counts["rule"] == "test" and counts["by_task"] == TEST_COUNTS
    assert "c2t_match" not in counts["by_subtask"] and counts["by_subtask"]["c2c_cross_lang"] == 429
    assert run_cli("samples", "--release", "release_v2603", "--out", str(b), env=env).returncode == 0
    assert a.read_bytes() == b.read_bytes()
    with Store("release_v2603", cache) as store:
        assert len(check_sample_lines(store, a)) == 3692
    # the other rule, one option away: every subtask, 3,882 (190 of them c2t_match)
    done = run_cli("samples", "--release", "release_v2603", "--rule", "train", "--out", str(b), "--json", env=env)
    assert json.loads(done.stdout)["samples"] == 3882 and json.loads(done.stdout)["by_subtask"]["c2t_match"] == 190


def test_mined_negatives_of_a_real_bm25_run_load_and_hold_no_positive(cache, mined_file):
    import datasets

    out, summary = mined_file
    loaded = datasets.load_dataset("json", data_files=str(out), split="train")
    assert len(loaded) == summary["samples"] == 4447 and summary["negatives_by_grade"]["trap"] > 1000
    with Store("release_v2603", cache) as store:
        positives = set(store.sql("SELECT query_id, doc_id FROM qrels WHERE relevance = 2").fetchall())
    negatives = [(row["query_id"], n["id"]) for row in loaded for n in row["hard_neg"]]
    assert len(negatives) == 5 * len(loaded) and not positives & set(negatives)


def test_training_lowers_the_held_out_loss(trained):
    out, result = trained
    assert result["release"] == "release_v2602" and result["steps"] == 16 and result["held_out"] >= 48
    assert result["loss_after"] < result["loss_before"], result
    provenance = json.loads((out / "coreb_reranker.json").read_text())
    assert provenance["base"] == "minilm" and provenance["loss"].startswith("LambdaLoss")
    assert (out / "config.json").is_file() and not list(out.parent.glob(".*.tmp"))


def test_the_trained_reranker_reranks_release_v2603(cache, trained, reranked):
    meta, stdout = reranked
    assert meta.reranker == str(trained[0]) and meta.rerank_depth == 10 and meta.tasks == ("c2c",)
    assert stdout.count("c2c nDCG@10 (v2)") == 2


def test_the_pages_set_the_trained_reranker_beside_the_articles(cache, reranked):
    """The Overview's reranker table and Compare's reranker stage show the reranked run, its training and its
    nDCG@10 change beside the article's rerankers; the numbers are the evaluator's."""
    from coreb_core.evaluation.evaluate import score_run
    from tests.builders import app_test

    meta, _ = reranked
    after, before = score_run(meta.run_id, cache)["c2c"], score_run(str(meta.first_stage), cache)["c2c"]
    params = {"release": "release_v2603", "runs": [str(meta.first_stage), meta.run_id], "task": "c2c"}
    overview = app_test("overview.py", cache, params, timeout=300).run()
    assert not overview.exception
    table = next(d.value for d in overview.dataframe if "source" in d.value.columns and "c2c_delta" in d.value.columns)
    ours = table[table["source"].str.startswith("ours:")]
    assert len(ours) == 1 and "trained on release_v2602" in ours["source"].iloc[0]
    assert ours["c2c_delta"].iloc[0] * 100 == pytest.approx((after - before) * 100)
    assert (table["source"] != ours["source"].iloc[0]).sum() == 5  # the five published rerankers beside it
    compare = app_test("compare.py", cache, {**params, "rerank": meta.run_id}, timeout=300).run()
    assert not compare.exception and not compare.error
    text = " ".join(m.value for m in compare.markdown) + " ".join(c.value for c in compare.caption)
    assert f"nDCG@10 {before * 100:.1f} → {after * 100:.1f}" in text and "the article's rerankers" in text
    assert "trained here from minilm on" in text and "held-out loss" in text


@pytest.mark.parametrize("case", ["test release", "triplets", "not a cross-encoder", "not a folder", "exists"])
def test_bad_training_input_gets_one_error_line_and_writes_nothing(cache, train_file, tmp_path, case):
    env = {"COREB_CACHE": str(cache)}
    samples, base, out = train_file[0], "minilm", tmp_path / "reranker"
    if case == "test release":
        samples = tmp_path / "test.jsonl"
        assert run_cli("samples", "--release", "release_v2603", "--out", str(samples), env=env).returncode == 0
        message = "samples of release_v2603, the test release"
    elif case == "triplets":
        from coreb_core.runs.folders import list_runs

        bm25 = next(m.run_id for m in list_runs("release_v2603", cache) if m.model == "bm25")
        samples = tmp_path / "triplets.jsonl"
        assert run_cli("mine", "--run", bm25, "--out", str(samples), env=env).returncode == 0
        message = "this is a triplets file"
    elif case == "not a cross-encoder":
        base, message = "bm25", "a lexical model has no weights"
    elif case == "not a folder":
        base, message = str(train_file[0]), "not a model folder"
    else:
        out.mkdir()
        (out / "keep.txt").write_text("mine")
        message = "exists and is not empty"
    done = run_cli("train-reranker", "--samples", str(samples), "--base", base, "--out", str(out), "--max-steps", "1",
                   env=env)
    assert done.returncode == 2 and done.stderr.count("error:") == 1 and message in done.stderr, done.stderr
    assert (case == "exists" and [p.name for p in out.iterdir()] == ["keep.txt"]) or not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
