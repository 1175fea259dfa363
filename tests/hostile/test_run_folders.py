"""Run folders: every run folder (an exported run brought in by ``import-results`` or uploaded on the Run
retrieval page, one ``write_run`` makes, one already in the cache) meets one schema (``check_run_folder``):
``run.json`` a JSON object with a safe run id, fields of the right types, tasks CoREB's and a cached
release; ``hits.parquet`` a readable parquet file of the hits columns. A run id given on the command line
is checked the same way, so no command reads or writes outside the runs folder."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from coreb_core.paths import runs_dir
from coreb_core.results.uploads import import_uploaded_results
from coreb_core.runs.folders import list_runs, write_run
from coreb_core.runs.hits import hits_from_scores
from tests.builders import app_test
from tests.hostile.conftest import refuses, unchanged

RUN_ID = "mine__demo_v2603__20261201T010700-25ce00"
GOOD_META = {"run_id": RUN_ID, "release": "demo_v2603", "model": "mine", "kind": "imported",
             "created": "2026-12-01T01:07:00", "tasks": ["t2c"]}


def _hits() -> pd.DataFrame:
    """Two t2c queries of demo_v2603 and two of its documents."""
    return hits_from_scores("t2c", ["q_t2c_canonical_retro_any_0001", "q_t2c_search_python_0002"],
                            ["code_v202603_00018", "code_v202603_00019"], np.array([[0.5, 0.9], [0.3, 0.1]]))


def exported(tmp_path: Path, meta: object = None, hits: bytes | None = None) -> Path:
    """A run folder as this project exports it (``write_run`` into a scratch cache), then ``run.json``
    replaced by ``meta`` (an object, or bytes as they are) and ``hits.parquet`` by ``hits``."""
    scratch = tmp_path / "scratch"
    write_run(_hits(), GOOD_META, scratch)
    folder = tmp_path / "shared" / "run"
    shutil.copytree(runs_dir(scratch) / RUN_ID, folder)
    if meta is not None:
        (folder / "run.json").write_bytes(meta if isinstance(meta, bytes) else json.dumps(meta).encode())
    if hits is not None:
        (folder / "hits.parquet").write_bytes(hits)
    return folder


def _parquet(tmp_path: Path, frame: pd.DataFrame) -> bytes:
    path = tmp_path / "frame.parquet"
    frame.to_parquet(path, index=False)
    return path.read_bytes()


BAD_META = {
    # was: imported, then every page raised TypeError in the run-list sort
    "created_int": ({**GOOD_META, "created": 5}, ("run.json", "'created'")),
    # was: skipped with exit status 0 ("imported 0 files")
    "a_list": ([GOOD_META], ("run.json", "JSON object")),
    "run_id_int": ({**GOOD_META, "run_id": 7}, ("run.json", "'run_id'")),
    # was: ValueError traceback (the temporary folder name held a '/')
    "run_id_slash": ({**GOOD_META, "run_id": "a/b"}, ("run.json", "'run_id'", "not a run id")),
    # was: copied to runs/.. (the cache's own folder exists, so "imported") or into a hidden folder
    "run_id_dotdot": ({**GOOD_META, "run_id": ".."}, ("run.json", "'run_id'", "not a run id")),
    "run_id_hidden": ({**GOOD_META, "run_id": ".x"}, ("run.json", "'run_id'", "not a run id")),
    "run_id_long": ({**GOOD_META, "run_id": "x" * 300}, ("run.json", "'run_id'", "not a run id")),
    # was: imported; the run then belonged to no release the app shows
    "release_unknown": ({**GOOD_META, "release": "no_such_release"}, ("run.json", "'release'", "no_such_release")),
    "release_missing": ({k: v for k, v in GOOD_META.items() if k != "release"}, ("run.json", "'release'")),
    # was: imported with tasks no page knows
    "tasks_unknown": ({**GOOD_META, "tasks": ["x2y"]}, ("run.json", "'tasks'")),
    # was: skipped with exit status 0
    "not_json": (b"{oops", ("run.json", "not valid JSON")),
    # was: UnicodeDecodeError traceback
    "not_text": (b"\xff\xfe\x00garbage", ("run.json", "not valid JSON")),
    # was: RecursionError traceback
    "deeply_nested": (b"[" * 100_000 + b"]" * 100_000, ("run.json", "not valid JSON")),
}


@pytest.mark.parametrize("case", list(BAD_META))
def test_import_refuses_bad_run_json(case, own_cache, tmp_path, capsys):
    meta, mentions = BAD_META[case]
    folder = exported(tmp_path, meta=meta)
    with unchanged(own_cache):
        refuses(["import-results", str(folder)], capsys, *mentions)


def test_import_refuses_garbage_hits(own_cache, tmp_path, capsys):
    """was: a 15-byte garbage hits.parquet imported; every page then raised ArrowInvalid."""
    folder = exported(tmp_path, hits=b"not a parquet!!")
    with unchanged(own_cache):
        refuses(["import-results", str(folder)], capsys, "hits.parquet", "not a readable parquet file")


def test_import_refuses_hits_of_another_schema(own_cache, tmp_path, capsys):
    """was: imported; the pages then raised KeyError on 'rank'."""
    folder = exported(tmp_path, hits=_parquet(tmp_path, pd.DataFrame({"a": [1], "b": ["x"]})))
    with unchanged(own_cache):
        refuses(["import-results", str(folder)], capsys, "hits.parquet", "field 'task'", "missing")


def test_import_refuses_hits_column_of_wrong_type(own_cache, tmp_path, capsys):
    """was: imported (scores as text); evaluation then failed with a traceback."""
    frame = _hits().astype({"score": str})
    folder = exported(tmp_path, hits=_parquet(tmp_path, frame))
    with unchanged(own_cache):
        refuses(["import-results", str(folder)], capsys, "hits.parquet", "field 'score'")


def test_import_refuses_hits_row_of_unknown_task(own_cache, tmp_path, capsys):
    """was: imported; the run's rows belonged to no task."""
    frame = _hits().astype({"task": str})
    frame.loc[1, "task"] = "x2y"
    folder = exported(tmp_path, hits=_parquet(tmp_path, frame))
    with unchanged(own_cache):
        refuses(["import-results", str(folder)], capsys, "hits.parquet", "row 2", "field 'task'", "x2y")


def test_import_refuses_run_json_without_hits(own_cache, tmp_path, capsys):
    """was: read as runner metrics, skipped as 'wrong shape', exit status 0."""
    folder = exported(tmp_path)
    (folder / "hits.parquet").unlink()
    with unchanged(own_cache):
        refuses(["import-results", str(folder)], capsys, "hits.parquet", "missing")


def test_import_refuses_a_linked_run_json(own_cache, tmp_path, capsys):
    """was: the link was followed and the file it points at copied into the cache."""
    folder = exported(tmp_path)
    elsewhere = tmp_path / "elsewhere.json"
    (folder / "run.json").rename(elsewhere)
    (folder / "run.json").symlink_to(elsewhere)
    with unchanged(own_cache):
        refuses(["import-results", str(folder)], capsys, "run.json", "link")


def test_import_copies_only_the_run_files(own_cache, tmp_path, capsys):
    """was: the whole folder was copied, a link to any file of the server included."""
    folder = exported(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    (folder / "notes.txt").symlink_to(secret)
    from coreb_core.cli import main

    assert main(["import-results", str(folder)]) == 0
    assert sorted(p.name for p in (runs_dir(own_cache) / RUN_ID).iterdir()) == ["hits.parquet", "run.json"]
    assert RUN_ID in [m.run_id for m in list_runs("demo_v2603", own_cache)]


def test_upload_refuses_hits_of_another_schema(own_cache, tmp_path):
    """was: the uploaded run imported ("1 runs"); every page then raised KeyError."""
    folder = exported(tmp_path, hits=_parquet(tmp_path, pd.DataFrame({"a": [1], "b": ["x"]})))
    files = [(p.name, p.read_bytes()) for p in sorted(folder.iterdir())]
    with unchanged(own_cache):
        report = import_uploaded_results(files, "demo_v2603", root=own_cache)
    assert report.runs == [] and report.imported == 0
    assert len(report.skipped) == 1 and "hits.parquet" in report.skipped[0] and "'task'" in report.skipped[0]


def test_run_page_upload_of_garbage_hits_shows_an_error(own_cache, tmp_path):
    """was: "imported 1 files … 1 runs", then ArrowInvalid on every page."""
    folder = exported(tmp_path, hits=b"not a parquet!!")
    at = app_test("run_retrieval.py", own_cache, {"release": "demo_v2603"}).run()
    at.file_uploader(key="res_files").set_value([(p.name, p.read_bytes(), "application/octet-stream")
                                                 for p in sorted(folder.iterdir())]).run()
    with unchanged(own_cache):
        at.button(key="res_up").click().run()
    from tests.hostile.conftest import shows_error

    shows_error(at, "hits.parquet", "not a readable parquet file")


def test_write_run_refuses_an_unsafe_id(own_cache):
    """was: write_run built its folder from the id, so '../x' wrote beside the runs folder."""
    from coreb_core.errors import CorebError

    with unchanged(own_cache), pytest.raises(CorebError, match="not a run id"):
        write_run(_hits(), {**GOOD_META, "run_id": "../x"}, own_cache)


# ---------------------------------------------------------------- run ids on the command line

def _outside_run(own_cache: Path) -> None:
    """A well-formed run folder outside the runs folder, where a path-like run id would reach it."""
    write_run(_hits(), GOOD_META, own_cache / "elsewhere")


@pytest.mark.parametrize("argv", [
    ["eval", "--release", "demo_v2603", "--run", f"../elsewhere/runs/{RUN_ID}"],  # was: evaluated it
    ["export", "--run", f"../elsewhere/runs/{RUN_ID}", "--format", "trec", "--out", "OUT"],  # was: exported it
    ["runs", "rename", f"../elsewhere/runs/{RUN_ID}", "renamed"],  # was: rewrote its run.json
    ["runs", "tag", f"../elsewhere/runs/{RUN_ID}", "tagged"],  # was: rewrote its run.json
], ids=["eval", "export", "rename", "tag"])
def test_cli_refuses_a_path_as_run_id(argv, own_cache, tmp_path, capsys):
    _outside_run(own_cache)
    argv = [str(tmp_path / "out.trec") if a == "OUT" else a for a in argv]
    with unchanged(own_cache):
        refuses(argv, capsys, "not a run id", "../elsewhere")
    assert not (tmp_path / "out.trec").exists()


# ---------------------------------------------------------------- bad folders already in the cache

def _bad_folder_in_cache(own_cache: Path, tmp_path: Path, good: bool = True) -> Path:
    """A run folder edited by hand (``created`` a number) in the cache, beside a good run when ``good``."""
    if good:
        write_run(_hits(), GOOD_META, own_cache)
    bad = exported(tmp_path, meta={**GOOD_META, "run_id": "edited", "created": 5})
    shutil.copytree(bad, runs_dir(own_cache) / "edited")
    return runs_dir(own_cache) / "edited"


def test_listing_skips_a_bad_folder_and_says_why(own_cache, tmp_path):
    """was: list_runs raised for the whole cache (or the run-list sort raised TypeError)."""
    from coreb_core.runs.folders import run_listing

    _bad_folder_in_cache(own_cache, tmp_path)
    garbage = runs_dir(own_cache) / "garbage"
    shutil.copytree(exported(tmp_path / "g", meta={**GOOD_META, "run_id": "garbage"}, hits=b"not a parquet!!"),
                    garbage)
    misnamed = runs_dir(own_cache) / "misnamed"
    shutil.copytree(runs_dir(own_cache) / RUN_ID, misnamed)
    listing = run_listing(root=own_cache)
    assert RUN_ID in [m.run_id for m in listing.runs] and listing.runs == list_runs(root=own_cache)
    reasons = {bad.folder: bad.reason for bad in listing.skipped}
    assert sorted(reasons) == ["edited", "garbage", "misnamed"]
    assert "'created'" in reasons["edited"] and "not a readable parquet file" in reasons["garbage"]
    assert "not its folder's name" in reasons["misnamed"]


def test_runs_list_reports_a_bad_folder_on_stderr(own_cache, tmp_path, capsys):
    """was: error: …/run.json: field 'created' is int, expected str (exit status 2, no run listed)."""
    from coreb_core.cli import main

    _bad_folder_in_cache(own_cache, tmp_path)
    with unchanged(own_cache):
        assert main(["runs", "list"]) == 0
    out, err = capsys.readouterr()
    assert RUN_ID in out and "edited" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("skipped run folder edited: ") and "'created'" in lines[0], lines


@pytest.mark.parametrize("page", ["run_retrieval.py", "overview.py"])
def test_pages_render_beside_a_bad_folder(page, own_cache, tmp_path):
    """was: every page raised (the Run retrieval page included, so it could not be mended from the app)."""
    _bad_folder_in_cache(own_cache, tmp_path, good=False)  # no run to score: the page stays fast
    at = app_test(page, own_cache, {"release": "demo_v2603"})
    with unchanged(own_cache):
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    warnings = [w.value for w in at.sidebar.warning]
    assert any("edited" in w and "created" in w for w in warnings), warnings
