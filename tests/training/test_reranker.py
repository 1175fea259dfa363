"""The reranker's leak guard on CoREB-mini, which fails closed: every line of a samples file must be tied to one and
the same cached release (its query's text under its query id and task, its positives' texts under their ids), not
the test release and sharing no source problem with it; otherwise one ``error:`` line names the file and the first
line that fails, before any model loads, and nothing is written. A training on another release's samples records
that release (the real releases: tests/real/test_real_training_guards.py)."""
from __future__ import annotations

import json
import shutil

import pytest

from tests.builders import run_cli

TRAIN, TEST = "demo_v2602", "demo_v2603"


@pytest.fixture(scope="module")
def files(lexical_cache, tmp_path_factory):
    """CoREB-mini's samples of both releases (the train rule) and a BM25 run's mined samples of demo_v2603."""
    root, runs = lexical_cache
    folder = tmp_path_factory.mktemp("guard-samples")
    env = {"COREB_CACHE": str(root)}
    for name, release in (("train", TRAIN), ("test", TEST)):
        done = run_cli("samples", "--release", release, "--out", str(folder / f"{name}.jsonl"), env=env)
        assert done.returncode == 0, done.stderr
    done = run_cli("mine", "--run", runs["bm25"], "--out", str(folder / "mined.jsonl"), "--format", "samples", env=env)
    assert done.returncode == 0, done.stderr
    return root, folder


def refused(root, samples, out, *extra):
    done = run_cli("train-reranker", "--samples", str(samples), "--base", "minilm", "--out", str(out),
                   "--max-steps", "1", *extra, env={"COREB_CACHE": str(root)})
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and done.stderr.startswith("error: "), done.stderr
    assert not out.exists() and not list(out.parent.glob(f".{out.name}.*"))
    return done.stderr


def test_a_mix_of_two_releases_is_refused_at_its_first_line_of_the_other(files, tmp_path):
    """The issue's case: the test samples, then one line of the training release's; it used to train and record
    ``release: null``."""
    root, folder = files
    test_lines = (folder / "test.jsonl").read_text().splitlines(keepends=True)
    train_lines = (folder / "train.jsonl").read_text().splitlines(keepends=True)
    mixed = tmp_path / "m.jsonl"
    mixed.write_text("".join(test_lines) + train_lines[0])
    error = refused(root, mixed, tmp_path / "rr", "--test-release", TEST)
    n = len(test_lines) + 1
    assert f"{mixed}: row {n}: field '" in error
    assert f"(rows 1–{n - 1} are samples of {TEST}; this row is a sample of {TRAIN}): a samples file must be of one " \
           "release" in error
    # the other way round: a training file with a test line in it, named at that line (a blank line is counted)
    mixed.write_text(train_lines[0] + "\n" + "".join(train_lines[1:3]) + test_lines[0] + "".join(train_lines[3:]))
    error = refused(root, mixed, tmp_path / "rr", "--test-release", TEST)
    assert f"{mixed}: row 5: " in error and f"(rows 1–4 are samples of {TRAIN}; this row is a sample of {TEST})" in error


def test_a_file_tied_to_no_cached_release_is_refused(files, tmp_path):
    root, folder = files
    row = json.loads((folder / "train.jsonl").read_text().splitlines()[0])
    for field, change in (("query", {"query": row["query"] + " (edited)"}),
                          ("pos[0]", {"pos": [{**row["pos"][0], "text": row["pos"][0]["text"] + "\n"}]}),
                          ("query_id", {"query_id": "q_no_such_query"})):
        path = tmp_path / "edited.jsonl"
        path.write_text(json.dumps({**row, **change}) + "\n")
        error = refused(root, path, tmp_path / "rr", "--test-release", TEST)
        assert f"{path}: row 1: field '{field}': " in error
        assert "no other cached release holds this sample: samples tied to no cached release cannot be checked" in error


def test_the_test_releases_samples_and_mined_negatives_are_refused(files, tmp_path):
    root, folder = files
    for name in ("test.jsonl", "mined.jsonl"):
        error = refused(root, folder / name, tmp_path / "rr", "--test-release", TEST)
        assert f"{folder / name}: row 1: these are samples of {TEST}, the test release" in error
        assert "mined negatives of the test release are for analysis, not training" in error


def test_the_test_release_must_be_named_and_cached(files, tmp_path):
    root, folder = files
    error = refused(root, folder / "train.jsonl", tmp_path / "rr", "--test-release", "release_v2603")  # not cached
    assert "--test-release release_v2603: not in the cache" in error and "the leak guard fails closed" in error
    # unnamed, it is the test release of the samples' benchmark: CoREB-mini's demo_v2603, which refuses its own
    error = refused(root, folder / "mined.jsonl", tmp_path / "rr")
    assert "these are samples of demo_v2603, the test release" in error
    error = refused(root, folder / "train.jsonl", tmp_path / "rr", "--test-release", "")
    assert "--test-release: name the release the reranker will be tested on" in error


def test_samples_sharing_a_problem_with_the_test_release_are_refused(files, tmp_path):
    """A test release with demo_v2602's problems but other texts (every query edited): the training file ties to
    demo_v2602 alone, and its first line's problem is the test release's."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from coreb_core.paths import datasets_dir

    root, folder = files
    cache = tmp_path / "cache"
    shutil.copytree(datasets_dir(root) / TRAIN, datasets_dir(cache) / TRAIN)
    twin = datasets_dir(cache) / "twin_v2602"
    shutil.copytree(datasets_dir(root) / TRAIN, twin)
    for name in ("text2code_queries", "code2code_queries", "code2text_queries"):
        table = pq.read_table(twin / f"{name}.parquet")
        edited = pa.array([f"{q} (twin)" for q in table.column("query").to_pylist()], pa.string())
        table = table.set_column(table.schema.get_field_index("query"), "query", edited)
        pq.write_table(table, twin / f"{name}.parquet")
    error = refused(cache, folder / "train.jsonl", tmp_path / "rr", "--test-release", "twin_v2602")
    assert f"{folder / 'train.jsonl'}: row 1: its query's source problem " in error
    assert "is also a problem of the test release twin_v2602" in error


@pytest.mark.slow
def test_training_on_the_other_releases_samples_records_it(files, tmp_path):
    """One tiny step from the bundled MiniLM (seconds): the guard passes and the reranker records its release."""
    root, folder = files
    out = tmp_path / "rr"
    done = run_cli("train-reranker", "--samples", str(folder / "train.jsonl"), "--base", "minilm", "--out", str(out),
                   "--test-release", TEST, "--max-steps", "1", "--batch-size", "2", "--negatives", "2",
                   "--max-length", "32", "--eval-samples", "4", "--json", env={"COREB_CACHE": str(root)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["release"] == TRAIN
    provenance = json.loads((out / "coreb_reranker.json").read_text())
    assert provenance["release"] == TRAIN and provenance["test_release"] == TEST


def test_samples_of_one_query_are_refused_before_training(files, tmp_path):
    """Tied to demo_v2602 and passing the guard, but the held-out loss needs a query of its own (it used to end in
    a traceback from the data loader)."""
    root, folder = files
    one = tmp_path / "one.jsonl"
    one.write_text((folder / "train.jsonl").read_text().splitlines(keepends=True)[0])
    error = refused(root, one, tmp_path / "rr", "--test-release", TEST)
    assert "its 1 samples are of one query" in error
