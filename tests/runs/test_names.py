"""Run names and tags: defaults distinct within a release, older run.json files, rename and tag from the
library and the CLI, bad input refused with one line."""
import json

import numpy as np
import pytest

from coreb_core.errors import CorebError
from coreb_core.runs.folders import list_runs, read_run_meta, rename_run, run_meta, run_path, tag_run, write_run
from coreb_core.runs.hits import hits_from_scores
from coreb_core.runs.meta import NAME_MAX, RunMeta
from tests.builders import run_cli
from ui.widgets import run_label, run_tooltip


def _hits():
    return hits_from_scores("t2c", ["q1"], ["d1", "d2"], np.array([[0.5, 0.9]]))


def _write(root, run_id, **meta):
    return write_run(_hits(), RunMeta(run_id, **meta), root)


def test_default_names_are_model_profile_release_and_distinct(cache):
    _write(cache, "a", model="minilm", profile="card", release="demo_v2603", created="2026-12-01T01:00:00")
    _write(cache, "b", model="minilm", profile="card", release="demo_v2603", created="2026-12-01T02:00:00")
    _write(cache, "c", model="minilm", profile="card", release="demo_v2603", created="2026-12-01T03:00:00")
    _write(cache, "d", model="bm25", release="demo_v2603", kind="retrieval")
    _write(cache, "e", model="mine", release="tiny", kind="imported")
    _write(cache, "f", model="minilm", profile="card", release="demo_v2602")
    names = {m.run_id: m.name for m in list_runs(root=cache)}
    assert names == {"a": "minilm · card · demo_v2603", "b": "minilm · card · demo_v2603 (2)",
                     "c": "minilm · card · demo_v2603 (3)", "d": "bm25 · demo_v2603", "e": "mine · tiny",
                     "f": "minilm · card · demo_v2602"}
    # stored in run.json at creation, so a later run never renumbers an earlier one
    assert json.loads((run_path("b", cache) / "run.json").read_text())["name"] == "minilm · card · demo_v2603 (2)"
    assert [run_label(m) for m in list_runs("demo_v2603", cache)] == [names[r] for r in "abcd"]


def test_older_run_json_without_name_still_loads(cache):
    for run_id, created in (("old2", "2026-11-02T00:00:00"), ("old1", "2026-11-01T00:00:00")):
        folder = cache / "runs" / run_id
        folder.mkdir(parents=True)
        _hits().to_parquet(folder / "hits.parquet")
        (folder / "run.json").write_text(json.dumps({"run_id": run_id, "model": "bm25", "release": "v",
                                                     "created": created, "note": "kept"}))
    assert read_run_meta(cache / "runs" / "old1" / "run.json").name is None  # as stored
    # named in creation order, not id order
    assert run_meta("old1", cache).name == "bm25 · v" and run_meta("old2", cache).name == "bm25 · v (2)"
    _write(cache, "new", model="bm25", release="v")
    assert run_meta("new", cache).name == "bm25 · v (3)"
    # tagging an old run keeps its unknown keys and freezes the name it was shown under
    tag_run("old2", ["x"], root=cache)
    stored = json.loads((cache / "runs" / "old2" / "run.json").read_text())
    assert stored["name"] == "bm25 · v (2)" and stored["tags"] == ["x"] and stored["note"] == "kept"


def test_rename_and_tag(cache):
    _write(cache, "r1", model="bm25", release="v")
    _write(cache, "r2", model="bm25", release="v")
    _write(cache, "r3", model="bm25", release="w")
    assert rename_run("r2", "  BM25 k1=0.9 ", cache).name == "BM25 k1=0.9"
    assert run_meta("r2", cache).name == "BM25 k1=0.9"
    assert rename_run("r3", "BM25 k1=0.9", cache).name == "BM25 k1=0.9"  # another release: allowed
    with pytest.raises(CorebError, match="^name 'bm25 k1=0.9' is already used by run r2 on release v; choose another$"):
        rename_run("r1", "bm25 k1=0.9", cache)
    assert tag_run("r1", ["baseline", "demo", "baseline"], root=cache).tags == ("baseline", "demo")
    assert tag_run("r1", ["final"], remove=["demo", "absent"], root=cache).tags == ("baseline", "final")
    meta = run_meta("r1", cache)
    assert meta.tags == ("baseline", "final") and meta.name == "bm25 · v"
    assert run_tooltip(meta) == "id `r1` · tags: baseline, final"
    assert not list((cache / "runs" / "r1").glob(".*"))  # the temp file was renamed away


@pytest.mark.parametrize("name, message", [
    ("", "run name is empty"),
    ("   ", "run name is empty"),
    ("x" * (NAME_MAX + 1), f"run name is {NAME_MAX + 1} characters long; at most {NAME_MAX} are allowed"),
    ("a\nb", "run name 'a\\nb' holds a control character ('\\n'); use plain text on one line"),
    ("a\x1b[31mb", "run name 'a\\x1b[31mb' holds a control character ('\\x1b'); use plain text on one line"),
])
def test_bad_names_are_refused(cache, name, message):
    _write(cache, "r1", model="bm25", release="v")
    with pytest.raises(CorebError) as err:
        rename_run("r1", name, cache)
    assert str(err.value) == message
    assert run_meta("r1", cache).name == "bm25 · v"  # unchanged


def test_bad_tags_and_unknown_runs_are_refused(cache):
    _write(cache, "r1", model="bm25", release="v")
    for tag, message in (("a,b", "tag 'a,b' holds a comma; give each tag separately"), ("", "tag is empty"),
                         ("t\tx", "tag 't\\tx' holds a control character ('\\t'); use plain text on one line")):
        with pytest.raises(CorebError) as err:
            tag_run("r1", [tag], root=cache)
        assert str(err.value) == message
    with pytest.raises(CorebError, match="^run 'nope' not found in "):
        rename_run("nope", "x", cache)
    assert run_meta("r1", cache).tags is None


def test_cli_rename_tag_list(cache):
    _write(cache, "r1", model="bm25", release="v")
    env = {"COREB_CACHE": str(cache)}
    done = run_cli("runs", "rename", "r1", "my bm25", env=env)
    assert done.returncode == 0 and done.stdout == "run r1 is now named 'my bm25'\n"
    done = run_cli("runs", "tag", "r1", "baseline", "demo", env=env)
    assert done.returncode == 0 and done.stdout == "run r1 (my bm25) tags: baseline, demo\n"
    done = run_cli("runs", "tag", "r1", "--untag", "demo", env=env)
    assert done.returncode == 0 and done.stdout == "run r1 (my bm25) tags: baseline\n"
    done = run_cli("runs", "list", "--json", env=env)
    assert json.loads(done.stdout) == [{"run_id": "r1", "name": "my bm25", "release": "v", "tags": ["baseline"],
                                        "created": None, "cost": None}]
    for args, line in ((("rename", "nope", "x"), f"error: run 'nope' not found in {cache / 'runs'}\n"),
                       (("rename", "r1", ""), "error: run name is empty\n"),
                       (("rename", "r1", "x" * 81), "error: run name is 81 characters long; at most 80 are allowed\n"),
                       (("rename", "r1", "a\x07b"),
                        "error: run name 'a\\x07b' holds a control character ('\\x07'); use plain text on one line\n"),
                       (("tag", "nope", "t"), f"error: run 'nope' not found in {cache / 'runs'}\n")):
        done = run_cli("runs", *args, env=env)
        assert (done.returncode, done.stderr, done.stdout) == (2, line, "")
    assert run_meta("r1", cache).name == "my bm25"
