"""The reranker protocol's samples on CoREB-mini: every property of a sample, the rules, the seed, a byte-identical
file for the same arguments, and the refusals (the real counts: tests/real/test_real_training.py)."""
from __future__ import annotations

import shutil

import pytest

from coreb_core.data.store import Store
from tests.builders import run_cli
from tests.sample_checks import check_sample_lines

RELEASE = "demo_v2603"


@pytest.fixture
def mini(mini_data, monkeypatch):
    monkeypatch.setenv("COREB_CACHE", str(mini_data))
    return mini_data


@pytest.fixture(scope="module")
def default_samples(mini_data, tmp_path_factory):
    """``samples --release demo_v2603 --out train.jsonl``, no other argument, once for the module (seconds each):
    (the file, the verb's answer)."""
    out = tmp_path_factory.mktemp("samples") / "train.jsonl"
    done = run_cli("samples", "--release", RELEASE, "--out", str(out), env={"COREB_CACHE": str(mini_data)})
    assert done.returncode == 0, done.stderr
    return out, done


def test_every_sample_holds_the_schema_and_the_rule(mini, default_samples):
    out, done = default_samples
    with Store(RELEASE, mini) as store:
        rows = check_sample_lines(store, out)
        # one sample per (query, rel=2 document) of each query with a rel=1 document, counted straight from SQL
        expected = store.sql("""SELECT count(*) FROM qrels p WHERE p.relevance = 2 AND p.query_id IN
                                (SELECT query_id FROM qrels WHERE relevance = 1)""").fetchone()[0]
    assert len(rows) == expected > 0
    assert f"{len(rows):,} samples of {RELEASE} under the train rule" in done.stdout
    assert {r["task"] for r in rows} == {"text2code", "code2code", "code2text"}


def test_the_same_arguments_give_the_same_bytes_and_the_seed_changes_the_negatives(mini, tmp_path, default_samples):
    a, b, c = default_samples[0], tmp_path / "b.jsonl", tmp_path / "c.jsonl"  # a: the module's run, no --seed
    assert run_cli("samples", "--release", RELEASE, "--out", str(b)).returncode == 0
    assert run_cli("samples", "--release", RELEASE, "--out", str(c), "--seed", "1").returncode == 0
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes() and len(a.read_text().splitlines()) == len(c.read_text().splitlines())


def test_the_test_rule_and_the_options(mini, tmp_path, default_samples):
    # CoREB-mini's c2t_match queries have no rel=1 document: both rules give the same samples here (the real
    # release's 190 c2t_match samples: tests/real/test_real_training.py)
    (train, default), test = default_samples, tmp_path / "test.jsonl"  # demo_v2603's default rule is train:
    assert f"samples of {RELEASE} under the train rule" in default.stdout  # the module's run is --rule train
    done = run_cli("samples", "--release", RELEASE, "--out", str(test), "--rule", "test", "--hard", "1", "--easy", "4",
                   "--json")
    assert done.returncode == 0, done.stderr
    import json

    counts = json.loads(done.stdout)
    train_rows = [json.loads(x) for x in train.read_text().splitlines()]
    match = sum(r["subtask"] == "c2t_match" for r in train_rows)
    assert counts["samples"] == len(train_rows) - match and "c2t_match" not in counts["by_subtask"]
    assert counts["rule"] == "test" and counts["hard"] == 1 and counts["easy"] == 4
    assert counts["by_task"]["c2t"] == sum(r["task"] == "code2text" for r in train_rows) - match
    with Store(RELEASE, mini) as store:
        check_sample_lines(store, test, hard=1, easy=4)


def test_a_parquet_file_loads_with_datasets(mini, tmp_path):
    import datasets

    out = tmp_path / "train.parquet"
    assert run_cli("samples", "--release", RELEASE, "--out", str(out)).returncode == 0
    loaded = datasets.load_dataset("parquet", data_files=str(out), split="train")
    assert loaded.column_names == ["query_id", "task", "subtask", "query", "pos", "hard_neg", "easy_neg"]
    assert len(loaded[0]["easy_neg"]) == 29 and set(loaded[0]["pos"][0]) == {"id", "text"}


def test_a_release_without_traps_is_refused_and_nothing_is_written(mini, tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    from coreb_core.paths import datasets_dir

    root = tmp_path / "cache"
    shutil.copytree(datasets_dir(mini) / RELEASE, datasets_dir(root) / RELEASE)
    for name in ("text2code_qrels", "code2code_qrels", "code2text_qrels"):
        path = datasets_dir(root) / RELEASE / f"{name}.parquet"
        table = pq.read_table(path)
        pq.write_table(table.filter(table.column("relevance").to_numpy() != 1), path)
    monkeypatch.setenv("COREB_CACHE", str(root))
    out = tmp_path / "out.jsonl"
    done = run_cli("samples", "--release", RELEASE, "--out", str(out))
    assert done.returncode == 2 and done.stderr.count("error:") == 1
    assert "has no rel=1 documents" in done.stderr and not out.exists() and list(tmp_path.glob(".out*")) == []


@pytest.mark.parametrize("args, message", [
    (["--release", "no_such_release"], "not in the cache"),
    (["--release", RELEASE, "--rule", "dev"], "invalid choice: 'dev'"),
    (["--release", RELEASE, "--hard", "-1"], "must be a whole number of 0 or more"),
    (["--release", RELEASE, "--easy", "x"], "must be a whole number of 0 or more"),
])
def test_bad_arguments_get_one_error_line(mini, tmp_path, args, message):
    out = tmp_path / "s.jsonl"
    done = run_cli("samples", *args, "--out", str(out))
    assert done.returncode == 2 and done.stderr.count("error:") == 1 and message in done.stderr, done.stderr
    assert not out.exists()


def test_an_output_that_is_a_folder_or_inside_the_cache_is_refused(mini, tmp_path):
    for out, message in ((tmp_path, "is a folder"), (mini / "runs" / "s.jsonl", "inside the cache folder")):
        done = run_cli("samples", "--release", RELEASE, "--out", str(out))
        assert done.returncode == 2 and message in done.stderr, done.stderr


def test_the_hard_negatives_that_are_passing_code_are_counted_by_the_verb_and_the_page(mini, tmp_path, default_samples):
    """The protocol keeps the released rel=1 documents as hard negatives; the verb (its last line and --json) and the
    page's caption say how many are passing code the executed view makes relevant, per task, counted here from SQL
    (the real releases' counts: tests/real/test_real_training_guards.py)."""
    import json

    from tests.builders import app_test

    out = tmp_path / "s.jsonl"
    done = run_cli("samples", "--release", RELEASE, "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)
    with Store(RELEASE, mini) as store:
        correct = set(store.sql("""SELECT e.task, e.query_id, e.doc_id FROM qrels_executed e
                                   LEFT JOIN qrels r USING (task, query_id, doc_id)
                                   WHERE e.relevance = 2 AND (r.relevance IS NULL OR r.relevance < 2)""").fetchall())
    short = {"text2code": "t2c", "code2code": "c2c", "code2text": "c2t"}
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    hard = {t: 0 for t in short.values()}
    passing = {t: 0 for t in short.values()}
    for r in rows:
        task = short[r["task"]]
        hard[task] += len(r["hard_neg"])
        passing[task] += sum((task, r["query_id"], p["id"]) in correct for p in r["hard_neg"])
    assert counts["hard_negatives_by_task"] == hard and counts["passing_hard_negatives_by_task"] == passing
    assert passing["c2c"] > 0 and passing["t2c"] == passing["c2t"] == 0
    line = default_samples[1].stdout.splitlines()[-2]  # the same samples, told in lines
    assert line.startswith(f"{sum(passing.values()):,} (") and f"C2C {passing['c2c']:,} of {hard['c2c']:,}" in line
    from coreb_core.paths import datasets_dir

    private = tmp_path / "cache"  # the page in a cache of its own: the shared one stays as built
    shutil.copytree(datasets_dir(mini), datasets_dir(private), ignore=shutil.ignore_patterns(".versions"))
    at = app_test("training.py", private, {"release": RELEASE}, timeout=300).run()
    assert not at.exception
    captions = " ".join(c.value for c in at.caption).replace("\\_", "_")
    assert f"C2C {passing['c2c']:,} of {hard['c2c']:,}" in captions and "passing code" in captions
