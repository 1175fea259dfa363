"""Command-line arguments: argparse's own errors, `run` arguments out of range or repeated, a local model
folder whose JSON configuration is broken, and `export --out` at a path that cannot take the export.
Each is refused before any work with one ``error: …`` line naming the argument (or the file), exit
status 2, and the cache stays byte-identical; an export refused leaves no temporary file behind.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.hostile.conftest import refuses, unchanged

RUN = ["run", "--model", "bm25", "--release", "tiny"]


# ---------------------------------------------------------------- argparse's own errors

@pytest.mark.parametrize("argv, mentions", [
    (["run", "--model", "bm25"], ["the following arguments are required: --release"]),
    (["export", "--run", "r", "--format", "xml", "--out", "x"], ["--format: invalid choice: 'xml'"]),
    (["no-such-command"], ["invalid choice: 'no-such-command'"]),
    (["run", "--model", "bm25", "--release", "tiny", "--batch-size", "many"], ["--batch-size", "'many'"]),
], ids=["missing-required", "bad-choice", "unknown-command", "not-an-int"])
def test_argparse_errors_are_one_line(tiny_cache, capsys, argv, mentions):
    """was: a usage block, then SystemExit(2) out of main()."""
    with unchanged(tiny_cache):
        line = refuses(argv, capsys, *mentions)
    assert "usage:" not in line and not line.startswith("error: argument ")


# ---------------------------------------------------------------- run arguments

@pytest.mark.parametrize("option, value", [("--top-k", "-5"), ("--top-k", "0"), ("--batch-size", "0"),
                                           ("--rerank-depth", "-1")])
def test_run_count_below_one(tiny_cache, capsys, option, value):
    """was: accepted; --top-k -5 stored a BM25 run with its judged documents only."""
    with unchanged(tiny_cache):
        refuses([*RUN, option, value], capsys, f"{option}: ", "at least 1", repr(value))


def test_run_unknown_device(tiny_cache, capsys):
    """was: accepted (BM25 stored a run; a dense model failed inside torch)."""
    with unchanged(tiny_cache):
        refuses([*RUN, "--device", "foo"], capsys, "--device: ", "'foo'", "auto, cpu, cuda, cuda:N or mps")


@pytest.mark.parametrize("extra, mentions", [
    (["--backend", "gpu"], ["--backend: invalid choice: 'gpu'"]),
    (["--backend", "openvino", "--profile", "card"], ["--backend openvino runs the official profile on the CPU only",
                                                      "profile card on cpu"]),
], ids=["unknown-backend", "openvino-with-card"])
def test_run_backend_refused_before_any_work(tiny_cache, capsys, extra, mentions):
    """OpenVINO runs the official profile on the CPU only; anything else is one line, nothing exported or stored."""
    with unchanged(tiny_cache):
        refuses(["run", "--model", "minilm", "--release", "tiny", "--device", "cpu", *extra], capsys, *mentions)


@pytest.mark.parametrize("tasks, mentions", [("", ["at least one"]), (" , ", ["at least one"]),
                                             ("t2c,t2c", ["t2c", "twice"]), ("t2c,x2y", ["unknown task 'x2y'"])],
                         ids=["empty", "commas-only", "repeated", "unknown"])
def test_run_tasks_empty_repeated_or_unknown(tiny_cache, capsys, tasks, mentions):
    """was: '' stored an empty run; 't2c,t2c' stored every hit twice (and its export was refused on re-import)."""
    with unchanged(tiny_cache):
        refuses([*RUN, "--tasks", tasks], capsys, "--tasks: ", *mentions)


def test_library_refuses_what_the_cli_refuses(tiny_cache):
    """was: run_retrieval accepted no tasks, a repeated task, top_k 0 and device 'foo' (the app calls it directly)."""
    from coreb_core.errors import CorebError
    from coreb_core.retrieval.pipeline import run_retrieval

    with unchanged(tiny_cache):
        for kwargs, message in [({"tasks": ()}, "at least one"), ({"tasks": ("c2c", "c2c")}, "twice"),
                                ({"top_k": 0}, "at least 1"), ({"batch_size": -1}, "at least 1"),
                                ({"device": "foo"}, "auto, cpu, cuda")]:
            with pytest.raises(CorebError, match=message):
                run_retrieval("bm25", "tiny", **kwargs, root=tiny_cache)


# ---------------------------------------------------------------- a local model folder

def _model_folder(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "my-model"
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.json").write_text(text)
    return folder


def test_model_folder_config_without_model_type(tmp_path, tiny_cache, capsys):
    """was: a ValueError traceback from transformers' tokenizer after seconds of loading."""
    folder = _model_folder(tmp_path, config="{}")
    with unchanged(tiny_cache):
        refuses([*RUN[:2], str(folder), *RUN[3:]], capsys, str(folder / "config.json"), "'model_type'")


@pytest.mark.parametrize("text, mentions", [("{broken", ["not valid JSON"]), ("[1, 2]", ["a JSON object"]),
                                            ('{"prompts": {"query": 7}}', ["'prompts'", "strings"])],
                         ids=["not-json", "a-list", "prompt-not-text"])
@pytest.mark.parametrize("profile", ["official", "card"])
def test_model_folder_broken_sentence_transformers_config(tmp_path, tiny_cache, capsys, profile, text, mentions):
    """was: a JSONDecodeError traceback (card profile), or an OSError one from transformers (official)."""
    folder = _model_folder(tmp_path, config='{"model_type": "bert"}', config_sentence_transformers=text)
    with unchanged(tiny_cache):
        refuses([*RUN[:2], str(folder), *RUN[3:], "--profile", profile], capsys,
                str(folder / "config_sentence_transformers.json"), *mentions)


def test_model_folder_that_transformers_cannot_load(tmp_path, tiny_cache, monkeypatch):
    """was: the OSError traceback of transformers (here a folder without weights; the loader is replaced by
    one raising that error, since the real one takes half a minute to import)."""
    from coreb_core.errors import CorebError
    from coreb_core.retrieval.pipeline import run_retrieval
    from coreb_core.retrieval.runner_encoder import RunnerEncoder

    folder = _model_folder(tmp_path, config='{"model_type": "bert"}')

    def no_weights(name, *args, **kwargs):
        raise OSError(f"Error no file named model.safetensors, or pytorch_model.bin, found in directory {name}.")

    monkeypatch.setattr(RunnerEncoder, "load", no_weights)
    with unchanged(tiny_cache), pytest.raises(CorebError) as err:
        run_retrieval(str(folder), "tiny", ("t2c",), root=tiny_cache)
    assert str(err.value).splitlines() == [f"{folder}: transformers cannot load this model folder (OSError: Error no "
                                           f"file named model.safetensors, or pytorch_model.bin, found in directory "
                                           f"{folder}.)"]


# ---------------------------------------------------------------- export --out

@pytest.fixture
def run_id(tiny_cache) -> str:
    from coreb_core.runs.folders import write_run
    from coreb_core.runs.hits import hits_from_scores

    hits = hits_from_scores("t2c", ["q_t2c_canonical_retro_any_0001"], ["code_v202601_00001", "code_v202601_00002"],
                            np.array([[0.5, 0.9]]))
    return write_run(hits, {"run_id": "r1", "model": "bm25", "release": "tiny"}, tiny_cache)


def test_export_trec_onto_an_existing_folder(tmp_path, tiny_cache, run_id, capsys):
    """was: IsADirectoryError traceback from the final rename."""
    out = tmp_path / "out"
    out.mkdir()
    with unchanged(tiny_cache), unchanged(tmp_path / "out"):
        refuses(["export", "--run", run_id, "--format", "trec", "--out", str(out)], capsys, str(out), "is a folder")
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(("cache", "tiny"))) == ["out"]


@pytest.mark.parametrize("fmt", ["trec", "coreb", "mteb"])
def test_export_under_a_file(tmp_path, tiny_cache, run_id, capsys, fmt):
    """was: FileExistsError / NotADirectoryError traceback from mkdir."""
    (tmp_path / "file").write_text("x")
    out = tmp_path / "file" / "export"
    with unchanged(tiny_cache):
        refuses(["export", "--run", run_id, "--format", fmt, "--out", str(out)], capsys,
                f"cannot write {out}: {tmp_path / 'file'} is not a folder")
    assert (tmp_path / "file").read_text() == "x"


@pytest.mark.parametrize("fmt", ["coreb", "mteb"])
def test_export_folder_onto_a_file(tmp_path, tiny_cache, run_id, capsys, fmt):
    """was: FileExistsError / NotADirectoryError traceback from mkdir."""
    (tmp_path / "file").write_text("x")
    with unchanged(tiny_cache):
        refuses(["export", "--run", run_id, "--format", fmt, "--out", str(tmp_path / "file")], capsys,
                str(tmp_path / "file"), "is a file")
    assert (tmp_path / "file").read_text() == "x"


# ---------------------------------------------------------------- traps (issue 14's CLI)

@pytest.mark.parametrize("argv, mentions", [
    (["traps", "--release", "tiny", "--run", "../r1"], ["../r1"]),
    (["traps", "--release", "tiny", "--run", "no_such_run"], ["no_such_run"]),
    (["traps", "--release", "nope", "--run", "r1"], ["nope"]),
    (["traps", "--release", "tiny", "--run", "r1", "--task", "t2x"], ["--task", "'t2x'"]),
    (["traps", "--release", "tiny"], ["--run"]),
    (["traps", "--release", "tiny", "--run", "r1", "r1"], ["--run", "r1", "more than once"]),
], ids=["run-outside-runs", "unknown-run", "unknown-release", "bad-task", "no-run", "repeated-run"])
def test_traps_arguments(tiny_cache, run_id, capsys, argv, mentions):
    """The traps command refuses a run id with a path, an unknown run or release and a bad task in one line."""
    with unchanged(tiny_cache):
        refuses(argv, capsys, *mentions)


def test_a_reader_that_leaves_early_gets_no_error(mini_data):
    """`python -m coreb_core sql … | head -1`: the CLI stops quietly when its reader closes the pipe (it printed
    "error: Broken pipe" and exited 2)."""
    import os
    import subprocess
    import sys

    from tests.builders import REPO

    env = {**os.environ, "COREB_CACHE": str(mini_data)}
    proc = subprocess.Popen([sys.executable, "-m", "coreb_core", "sql", "SELECT * FROM documents",
                             "--release", "demo_v2603"], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline()  # the header, then the reader leaves
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "error" not in err, err


# ---------------------------------------------------------------- compare, contrast, select and report arguments (issue 31, 13)

@pytest.fixture
def two_runs(tiny_cache, run_id) -> tuple[str, str]:
    from coreb_core.runs.folders import write_run
    from coreb_core.runs.hits import hits_from_scores

    hits = hits_from_scores("t2c", ["q_t2c_canonical_retro_any_0001"], ["code_v202601_00001", "code_v202601_00002"],
                            np.array([[0.9, 0.5]]))
    return run_id, write_run(hits, {"run_id": "r2", "model": "minilm", "release": "tiny"}, tiny_cache)


@pytest.mark.parametrize("verb", [["compare", "--json"], ["compare"], ["contrast"], ["contrast", "--json"]],
                         ids=["compare-json", "compare", "contrast", "contrast-json"])
def test_unknown_metric_of_compare_and_contrast(tiny_cache, two_runs, capsys, verb):
    """was: `compare … --metric nope --json` and `contrast … --metric nope` ended in a KeyError traceback."""
    argv = [verb[0], "--release", "tiny", "--run", *two_runs, "--task", "t2c", "--metric", "nope", *verb[1:]]
    with unchanged(tiny_cache):
        refuses(argv, capsys, "--metric: ", "unknown metric 'nope'", "ndcg_at_10")


def test_compare_metric_in_any_spelling(tiny_cache, two_runs, capsys):
    """was: `--metric nDCG@10` (the spelling every table prints) was a KeyError; it names the column ndcg_at_10."""
    import json

    from coreb_core.cli import main

    assert main(["compare", "--release", "tiny", "--run", *two_runs, "--task", "t2c", "--metric", "nDCG@10",
                 "--json"]) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["metric"] == "ndcg_at_10"


@pytest.mark.parametrize("verb", [["compare"], ["tiers"], ["contrast"], ["difficulty"], ["select"],
                                  ["report", "--out", "r.html"]])
def test_every_metric_option_parses_any_spelling_to_one_measure(verb):
    """`--metric nDCG@10` and `--metric ndcg_at_10` are one Measure on every verb that takes a metric (parsed once,
    at the edge); left out, the option is nDCG@10."""
    from coreb_core.cli import build_parser
    from coreb_core.data.measures import NDCG_10, Measure

    base = [verb[0], "--release", "tiny", *(["--run", "a", "b", "--task", "t2c"] if verb[0] != "select" and
                                            verb[0] != "report" else []), *verb[1:]]
    parsed = [build_parser().parse_args([*base, "--metric", m]).metric for m in ("nDCG@10", "ndcg_at_10", "NDCG@10")]
    assert parsed == [NDCG_10] * 3 and isinstance(parsed[0], Measure)
    assert build_parser().parse_args(base).metric == NDCG_10
    assert build_parser().parse_args([*base, "--metric", "MAP@10"]).metric == Measure("map", 10)


@pytest.mark.parametrize("verb", ["compare", "tiers", "contrast", "difficulty", "select"])
def test_bogus_metric_is_one_line_naming_the_option_and_the_spellings(tiny_cache, capsys, verb):
    """`--metric bogus@x`: exit status 2 and one line that names --metric and the accepted spellings."""
    argv = [verb, "--release", "tiny", *(["--run", "a", "b", "--task", "t2c"] if verb != "select" else []),
            "--metric", "bogus@x"]
    with unchanged(tiny_cache):
        refuses(argv, capsys, "--metric: ", "unknown metric 'bogus@x'", "ndcg_at_10", "nDCG@10")


@pytest.mark.parametrize("verb", ["report", "select"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1", "1e999", "NaN"])
def test_parameter_limit_not_a_finite_count(tmp_path, tiny_cache, run_id, capsys, verb, value):
    """was: `report --max-params nan` was accepted (a report with "at most nan M parameters"), as were inf and -1."""
    out = ["--out", str(tmp_path / "r.html")] if verb == "report" else []
    with unchanged(tiny_cache):
        refuses([verb, "--release", "tiny", "--max-params", value, *out], capsys, "--max-params: ", repr(value))
    assert not (tmp_path / "r.html").exists()


def test_library_refuses_the_parameter_limit_the_cli_refuses(tiny_cache, run_id):
    """was: recommend_stored(budget_b=nan) ranked every run (no comparison with nan is true: none excluded)."""
    from coreb_core.analysis.selection import recommend_stored
    from coreb_core.errors import CorebError

    for budget in (float("nan"), float("inf"), -0.5):
        with pytest.raises(CorebError, match="parameter limit"):
            recommend_stored("tiny", budget_b=budget)
