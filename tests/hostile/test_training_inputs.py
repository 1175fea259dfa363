"""Training inputs (``samples --out``, ``mine --out``, ``train-reranker --samples/--base/--out``) in malformed and
malicious forms: a samples file that is not JSON, not UTF-8, empty, a device, a folder, of another schema, with one
bad field or tied to no cached release (the leak guard fails closed, as it does on a test release not named or not
cached); output paths that are a device, a folder or inside the cache. Each gets one ``error: …`` line (naming the
file, line and field for a bad samples file) and exit 2; nothing is written and the cache is byte-identical. No
training starts: every refusal comes before the model loads."""
from __future__ import annotations

import json

import pytest

from tests.hostile.conftest import refuses, unchanged

RELEASE = "demo_v2603"
GOOD = {"query_id": "q_t2c_search_go_0001", "task": "text2code", "subtask": "t2c_search_go", "query": "Sum.",
        "pos": [{"id": "code_v202603_00001", "text": "a+b"}], "hard_neg": [], "easy_neg": []}


def line(**changes) -> str:
    row = {**GOOD, **changes}
    return json.dumps({k: v for k, v in row.items() if v is not ...}) + "\n"


SAMPLE_FILES = {
    "not json": ("{not json\n", "row 1: field '-': not JSON"),
    "a list": ("[1, 2]\n", "row 1: field '-': must be a JSON object"),
    "missing pos": (line(pos=...), "row 1: field 'pos': missing"),
    "empty pos": (line(pos=[]), "field 'pos': must hold at least one positive"),
    "passage without id": (line(pos=[{"text": "x"}]), "field 'pos[0]': must be an object"),
    "unknown task": (line(task="text2sql"), "field 'task': must be one of"),
    "foreign subtask": (line(subtask="c2c_cross_lang"), "field 'subtask': is not a subtask of text2code"),
    "numeric query id": (line(query_id=7), "field 'query_id': must be a non-empty text"),
    "second line bad": (line() + line(hard_neg="x"), "row 2: field 'hard_neg': must be a list"),
    "triplets": ('{"anchor": "q", "positive": "p", "negative_1": "n"}\n', "this is a triplets file"),
    "empty": ("", "holds no sample"),
}


@pytest.mark.parametrize("case", sorted(SAMPLE_FILES))
def test_a_bad_samples_file_is_refused_before_training(own_cache, tmp_path, capsys, case):
    text, message = SAMPLE_FILES[case]
    path = tmp_path / "samples.jsonl"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "reranker"
    with unchanged(own_cache):
        refuses(["train-reranker", "--samples", str(path), "--base", "minilm", "--out", str(out)], capsys,
                str(path), message)
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["cache", "samples.jsonl"]


@pytest.mark.parametrize("case", ["not utf-8", "device", "folder", "missing", "bad parquet"])
def test_an_unreadable_samples_path_is_refused(own_cache, tmp_path, capsys, case):
    path = {"device": "/dev/zero", "folder": str(tmp_path), "missing": str(tmp_path / "none.jsonl")}.get(case)
    if case == "not utf-8":
        path = str(tmp_path / "latin1.jsonl")
        (tmp_path / "latin1.jsonl").write_bytes(b'{"query": "caf\xe9"}\n')
    elif case == "bad parquet":
        path = str(tmp_path / "bad.parquet")
        (tmp_path / "bad.parquet").write_bytes(b"PAR1 not really")
    with unchanged(own_cache):
        refuses(["train-reranker", "--samples", path, "--base", "minilm", "--out", str(tmp_path / "r")], capsys)
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("verb", ["samples", "mine"])
@pytest.mark.parametrize("target", ["/dev/null", "cache", "folder"])
def test_an_output_that_is_a_device_a_folder_or_in_the_cache_is_refused(own_cache, tmp_path, capsys, verb, target):
    out = {"/dev/null": "/dev/null", "cache": str(own_cache / "runs" / "x.jsonl"), "folder": str(tmp_path)}[target]
    argv = (["samples", "--release", RELEASE] if verb == "samples" else ["mine", "--run", "any_run"]) + ["--out", out]
    with unchanged(own_cache):
        refuses(argv, capsys, out if target != "cache" else "inside the cache folder")
    assert not (own_cache / "runs" / "x.jsonl").exists()


@pytest.mark.parametrize("out", ["/dev/null", "cache"])
def test_a_reranker_folder_in_the_cache_or_on_a_device_is_refused(own_cache, tmp_path, capsys, out):
    path = "/dev/null" if out == "/dev/null" else str(own_cache / "rerankers" / "mine")
    samples = tmp_path / "s.jsonl"
    samples.write_text(line(), encoding="utf-8")
    with unchanged(own_cache):
        refuses(["train-reranker", "--samples", str(samples), "--base", "minilm", "--out", path], capsys)


@pytest.mark.parametrize("base, message", [("bm25", "a lexical model has no weights"),
                                           ("gemini-embedding-2", "an API model has no weights"),
                                           ("../no/such/folder", "no such model folder")])
def test_a_base_that_is_no_cross_encoder_is_refused(own_cache, tmp_path, capsys, base, message):
    samples = tmp_path / "s.jsonl"
    samples.write_text(line(), encoding="utf-8")
    with unchanged(own_cache):
        refuses(["train-reranker", "--samples", str(samples), "--base", base, "--out", str(tmp_path / "r")], capsys,
                message)


def test_a_folder_that_is_no_transformers_model_is_refused(own_cache, tmp_path, capsys):
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "no-such-architecture"}')
    samples = tmp_path / "s.jsonl"
    samples.write_text(line(), encoding="utf-8")
    refuses(["train-reranker", "--samples", str(samples), "--base", str(folder), "--out", str(tmp_path / "r")],
            capsys, "not a transformers model folder")


@pytest.mark.parametrize("test_release, message", [
    (RELEASE, "row 1: field 'query_id': demo_v2602 has no text2code query q_t2c_search_go_0001, and no other cached "
              "release holds this sample: samples tied to no cached release cannot be checked"),
    ("release_v2603", "--test-release release_v2603: not in the cache"),
    ("", "--test-release: name the release the reranker will be tested on"),
])
def test_samples_the_leak_guard_cannot_check_are_refused(own_cache, tmp_path, capsys, test_release, message):
    """The leak guard fails closed: a well-formed sample of no cached release, or a test release that is not named
    or not cached, is refused before any model loads (it used to train and record ``release: null``)."""
    samples = tmp_path / "s.jsonl"
    samples.write_text(line(), encoding="utf-8")
    with unchanged(own_cache):
        refuses(["train-reranker", "--samples", str(samples), "--base", "minilm", "--out", str(tmp_path / "r"),
                 "--test-release", test_release], capsys, message)
    assert not (tmp_path / "r").exists()
