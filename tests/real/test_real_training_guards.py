"""Training data without false negatives, and the leak guard failing closed, on the real releases: BM25's mined
negatives of release_v2603 hold no document the executed view makes relevant (it left out 132 C2C ones at the
default k; before the guard 231 of its 1,869 C2C negatives at k=3 were passing code of the query's own problem),
``--keep-correct`` keeps them labelled, the protocol's hard negatives that are passing code are counted, and
train-reranker refuses the test samples with a training line appended (at that line) and mined negatives of the
test release. Nothing is added to ``real_cache``: every file goes to a temporary folder."""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from coreb_core.data.store import Store
from tests.builders import run_cli

TEST, TRAIN = "release_v2603", "release_v2602"
TASKS = ("t2c", "c2c", "c2t")


@pytest.fixture(scope="module")
def env(real_cache):
    return {"COREB_CACHE": str(real_cache)}


@pytest.fixture(scope="module")
def bm25(real_cache):
    from coreb_core.runs.folders import list_runs

    return next(m.run_id for m in list_runs(TEST, real_cache) if m.model == "bm25")


@pytest.fixture(scope="module")
def correct(real_cache) -> dict[tuple[str, str], int]:
    """(query id, document id) -> released grade (-1 unjudged) of every document the executed view makes relevant
    and the released qrels do not, straight from SQL: 246 unjudged and 229 rel=1, all C2C."""
    with Store(TEST, real_cache) as store:
        rows = store.sql("""SELECT e.task, e.query_id, e.doc_id, r.relevance FROM qrels_executed e
                            LEFT JOIN qrels r USING (task, query_id, doc_id)
                            WHERE e.relevance = 2 AND (r.relevance IS NULL OR r.relevance < 2)""").fetchall()
    assert {t for t, *_ in rows} == {"c2c"}
    return {(q, d): -1 if r is None else int(r) for _, q, d, r in rows}


def mine(env, bm25, out: Path, *args: str) -> tuple[dict, list[dict]]:
    done = run_cli("mine", "--run", bm25, "--out", str(out), "--format", "samples", "--json", *args, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), [json.loads(x) for x in out.read_text().splitlines()]


def test_default_mining_gives_no_executed_relevant_negative(env, bm25, correct, mined_file, tmp_path):
    summary, rows = mined_file[1], [json.loads(x) for x in mined_file[0].read_text().splitlines()]
    assert len(rows) == summary["samples"] == 4447 and summary["k"] == 5
    negatives = [(r["query_id"], p["id"]) for r in rows for p in r["hard_neg"]]
    assert len(negatives) == 5 * len(rows) and not set(negatives) & set(correct)
    assert summary["left_out_by_task"] == {"t2c": 0, "c2c": 132, "c2t": 0}
    assert summary["for_training"] is False and "release_v2603 is the test release" in summary["test_release_note"]
    text = run_cli("mine", "--run", bm25, "--out", str(tmp_path / "t.jsonl"), env=env).stdout
    assert "left out 132 documents the executed view makes relevant" in text and "T2C 0, C2C 132, C2T 0" in text
    assert ("release_v2603 is the test release: these negatives are for analysis, not training; train-reranker "
            "refuses them") in text


@pytest.mark.parametrize("k, entries, unjudged, traps, distinct", [
    ("3", 1869, 107, 124, 68),  # the issue's figures: 231 of BM25's 1,869 C2C negatives (12.4 %)
    ("5", 3115, 194, 238, 126),  # the default k: 432 of 3,115 (13.9 %)
])
def test_before_the_guard_these_were_negatives_and_keep_correct_labels_them(env, bm25, correct, tmp_path, k, entries,
                                                                            unjudged, traps, distinct):
    """``--keep-correct`` mines as before the guard; each sample's C2C negatives that the executed view makes
    relevant are labelled passing_unjudged or passing_trap (entries counted per sample, as a trainer reads them)."""
    summary, rows = mine(env, bm25, tmp_path / "kept.jsonl", "--k", k, "--keep-correct")
    c2c = [(r["query_id"], p) for r in rows if r["task"] == "code2code" for p in r["hard_neg"]]
    passing = [(q, p) for q, p in c2c if (q, p["id"]) in correct]
    assert len(c2c) == entries and len(passing) == unjudged + traps
    assert sum(p["grade"] == "passing_unjudged" for _, p in passing) == unjudged
    assert sum(p["grade"] == "passing_trap" for _, p in passing) == traps
    assert all(p["grade"] == ("passing_unjudged" if correct[(q, p["id"])] == -1 else "passing_trap")
               for q, p in passing)
    assert not any(p["grade"].startswith("passing_") for q, p in c2c if (q, p["id"]) not in correct)
    assert summary["correct_kept_by_task"] == {"t2c": 0, "c2c": distinct, "c2t": 0}
    assert summary["left_out_by_task"] == {"t2c": 0, "c2c": 0, "c2t": 0}
    refused = run_cli("mine", "--run", bm25, "--out", str(tmp_path / "t.jsonl"), "--keep-correct", env=env)
    assert refused.returncode == 2 and "the triplets format has no place for a label" in refused.stderr


@pytest.mark.parametrize("release, hard, passing", [
    (TRAIN, {"t2c": 6560, "c2c": 1101, "c2t": 3192}, {"t2c": 0, "c2c": 272, "c2t": 0}),  # train rule: 3,803 samples
    (TEST, {"t2c": 6199, "c2c": 1869, "c2t": 2460}, {"t2c": 0, "c2c": 749, "c2t": 0}),  # test rule: 3,692 samples
])
def test_the_protocols_hard_negatives_that_are_passing_code_are_counted(env, train_file, test_file, tmp_path,
                                                                         release, hard, passing):
    """The protocol is unchanged (its hard negatives are the released rel=1); its output says how many of them are
    passing code of the query's own problem in a positive's language (the JSON of the session's samples files)."""
    counts = (train_file if release == TRAIN else test_file)[1]
    assert counts["hard_negatives_by_task"] == hard and counts["passing_hard_negatives_by_task"] == passing
    text = run_cli("samples", "--release", release, "--out", str(tmp_path / "s.jsonl"), env=env).stdout
    assert f"C2C {passing['c2c']:,} of {hard['c2c']:,}" in text


@pytest.fixture(scope="module")
def sample_files(train_file, test_file, tmp_path_factory):
    """The session's samples files of both releases (tests/real/conftest.py), as train.jsonl and test.jsonl."""
    folder = tmp_path_factory.mktemp("real-guard")
    for name, (path, _) in (("train", train_file), ("test", test_file)):
        shutil.copyfile(path, folder / f"{name}.jsonl")
    return folder


def refused(env, samples: Path, out: Path) -> str:
    done = run_cli("train-reranker", "--samples", str(samples), "--base", "minilm", "--out", str(out), "--max-steps",
                   "1", env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and done.stderr.startswith("error: "), done.stderr
    assert not out.exists()
    return done.stderr


def test_the_test_samples_with_a_training_line_are_refused_at_that_line(env, sample_files, tmp_path):
    mixed = tmp_path / "m.jsonl"
    mixed.write_text((sample_files / "test.jsonl").read_text()
                     + (sample_files / "train.jsonl").read_text().splitlines(keepends=True)[0])
    error = refused(env, mixed, tmp_path / "rr")
    assert f"{mixed}: row 3693: field '" in error
    assert f"(rows 1–3692 are samples of {TEST}; this row is a sample of {TRAIN}): a samples file must be of one " \
           "release" in error


def test_mined_negatives_of_the_test_release_are_refused(env, mined_file, tmp_path):
    mined = mined_file[0]
    error = refused(env, mined, tmp_path / "rr")
    assert f"{mined}: row 1: these are samples of {TEST}, the test release" in error


def test_the_guard_ties_the_training_file_in_seconds(real_cache, sample_files):
    """A set lookup per line, each release's Store opened once: release_v2602's 3,803 lines tie to it (about 1.5 s
    on the project's 2 cores, the file read included)."""
    from coreb_core.training.reranker import check_training_samples

    start = time.perf_counter()
    samples, release = check_training_samples(sample_files / "train.jsonl", TEST, real_cache)
    assert release == TRAIN and len(samples) == 3803
    assert time.perf_counter() - start < 20
