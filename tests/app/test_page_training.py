"""The Training data page on CoREB-mini (AppTest): the samples' count as the verb counts them, the viewer's trap
kinds, mining and training as jobs on the job board (a training cancelled leaves nothing), and a bounded training
from base weights given as a local folder (a tiny BERT) that reranks a run end to end. The real release's counts:
tests/real/test_real_training.py."""
from __future__ import annotations

import json

import pytest

from coreb_core.paths import rerankers_dir, runs_dir
from coreb_core.retrieval.jobs import CANCELLED, DONE
from tests.builders import app_test, run_cli
from tests.rerank_fixtures import tiny_bert

RELEASE = "demo_v2603"


def wait_jobs(root):
    from coreb_core.retrieval.jobs import board

    return [board(root).wait(s.job_id, 900) for s in board(root).running()]


def test_the_page_counts_as_the_verb_and_shows_why_a_hard_negative_is_a_trap(lexical_copy, tmp_path):
    root, _ = lexical_copy
    at = app_test("training.py", root, {"release": RELEASE}, timeout=300).run()
    assert not at.exception and not at.error
    done = run_cli("samples", "--release", RELEASE, "--out", str(tmp_path / "s.jsonl"), "--json")
    assert at.metric[0].value == f"{json.loads(done.stdout)['samples']:,}"
    titles = [e.label for e in at.expander]
    hard = [t for t in titles if "hard negative" in t]
    assert hard and all(" — " in t for t in hard)  # each with its trap kind
    assert any("failing" in t or "language" in t or "model" in t for t in hard)
    # a fewer-negatives choice changes what the viewer lists
    at.number_input(key="training_easy").set_value(2).run()
    table = next(d.value for d in at.dataframe if "role" in d.value.columns)
    assert (table["role"] == "easy negative").sum() == 2


def test_mining_runs_as_a_job_and_offers_its_files(lexical_copy):
    root, bm25 = lexical_copy
    at = app_test("training.py", root, {"release": RELEASE, "runs": [bm25]}, timeout=300).run()
    at.number_input(key="training_mine_k").set_value(3)
    at.button(key="training_mine_go").click().run()
    assert not at.exception and not at.error
    assert [s.status for s in wait_jobs(root)] in ([DONE], [])
    at.run()
    text = " ".join(m.value for m in at.markdown)
    assert "the top 3 non-positives" in text and "traps (rel=1)" in text
    labels = [b.label for b in at.get("download_button")]
    assert {"triplets (jsonl)", "triplets (parquet)", "samples (jsonl)"} <= set(labels)


def test_a_cancelled_training_leaves_no_reranker_and_no_run(lexical_copy):
    from coreb_core.retrieval.jobs import board

    root, bm25 = lexical_copy
    before = sorted(p.name for p in runs_dir(root).iterdir())
    at = app_test("training.py", root, {"release": RELEASE, "runs": [bm25]}, timeout=300).run()
    at.selectbox(key="training_train_release").set_value("demo_v2602")
    at.button(key="training_go").click().run()
    assert not at.exception and not at.error
    job = board(root).running()[0]
    assert job.request.kind == "train"
    board(root).cancel(job.job_id)
    assert board(root).wait(job.job_id, 600).status == CANCELLED
    assert sorted(p.name for p in runs_dir(root).iterdir()) == before
    assert not rerankers_dir(root).exists() or not any(rerankers_dir(root).iterdir())


@pytest.mark.slow
def test_a_bounded_training_reranks_a_run_as_a_job(lexical_copy, tmp_path):
    from coreb_core.runs.folders import list_runs

    root, _ = lexical_copy
    base = tiny_bert(tmp_path / "tiny-bert")
    c2c = run_cli("run", "--model", "bm25", "--release", RELEASE, "--tasks", "c2c", "--top-k", "10")
    assert c2c.returncode == 0, c2c.stderr
    first = next(m.run_id for m in list_runs(RELEASE, root) if m.tasks == ("c2c",))
    at = app_test("training.py", root, {"release": RELEASE, "runs": [first]}, timeout=300).run()
    at.selectbox(key="training_train_release").set_value("demo_v2602")
    at.selectbox(key="training_first_stage").set_value(first)
    at.text_input(key="training_base").set_value(str(base))
    at.number_input(key="training_steps").set_value(2)
    at.number_input(key="training_batch").set_value(2)
    at.number_input(key="training_depth").set_value(3)
    at.number_input(key="training_max_length").set_value(64)
    at.number_input(key="training_held_out").set_value(8)
    at.button(key="training_go").click().run()
    states = wait_jobs(root)
    assert [s.status for s in states] == [DONE], states
    at.run()
    assert not at.exception and not at.error
    assert any("held-out loss" in s.value for s in at.success)
    reranked = [m for m in list_runs(RELEASE, root) if m.kind == "rerank"]
    assert len(reranked) == 1 and reranked[0].first_stage == first and reranked[0].rerank_depth == 3
    folder = next(rerankers_dir(root).iterdir())
    assert (folder / "coreb_reranker.json").is_file() and reranked[0].reranker == str(folder)
    assert json.loads((folder / "coreb_reranker.json").read_text())["base"] == str(base)  # the weights chosen
