"""Server-side paths, special and huge files, file-system errors: what ``import-data``, ``import-results``
and ``eval --run-file`` (and the Run retrieval page's "by path" imports) do with a path the user types.

Every path typed into the web app is confined to the import roots (``COREB_IMPORT_ROOTS``; each test sets
its own), symlinks resolved first, while the CLI reads any path its user names; FIFOs, devices and files over the size limit are refused before anything opens them;
a folder of junk gives at most 20 skipped-file lines and a count; no error quotes a file that is not
recognisably ours; permission errors are one line naming the path.

Root ignores file modes, so the chmod cases are skipped under root and the same handlers are reached by
making ``open`` / ``os.scandir`` raise ``PermissionError`` for the path (``_deny``); the unwritable cache
is made real under root with ``chattr +i`` where the file system supports it.
"""
from __future__ import annotations

import builtins
import contextlib
import io
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import dump
from tests.builders import REPO
from tests.hostile.conftest import refuses, unchanged

SECRET = "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI"
ROOT_USER = os.geteuid() == 0


def _trec(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("q_t2c_search_python_0002 Q0 code_v202601_00001 1 2.0 mine\n")
    return path


def _deny(monkeypatch, *denied: Path) -> None:
    """``open``, ``os.open``, ``os.listdir`` and ``os.scandir`` of ``denied`` raise PermissionError, as for
    a file or folder the server's user may not read (root may read anything, so this stands in)."""
    denied_set = {str(p) for p in denied}

    def guard(real):
        def call(path, *args, **kwargs):
            if os.fspath(path) in denied_set if isinstance(path, (str, os.PathLike)) else False:
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return real(path, *args, **kwargs)
        return call

    for module, name in ((builtins, "open"), (io, "open"), (os, "open"), (os, "listdir"), (os, "scandir")):
        monkeypatch.setattr(module, name, guard(getattr(module, name)))


@contextlib.contextmanager
def _read_only(folder: Path):
    """Make ``folder`` unwritable for real: file modes for a normal user, ``chattr +i`` for root (skips
    where the file system has no immutable flag)."""
    dirs = [folder, *(p for p in folder.rglob("*") if p.is_dir() and not p.is_symlink())]
    if not ROOT_USER:
        modes = {d: d.stat().st_mode for d in dirs}
        for d in dirs:
            d.chmod(0o555)
        try:
            yield
        finally:
            for d, mode in modes.items():
                d.chmod(mode)
        return
    if not shutil.which("chattr") or subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
        pytest.skip("root ignores file modes and this file system has no immutable flag (chattr +i)")
    try:
        subprocess.run(["chattr", "+i", *map(str, dirs)], check=True, capture_output=True)
        yield
    finally:
        subprocess.run(["chattr", "-i", *map(str, dirs)], capture_output=True)


# ---------------------------------------------------------------- a folder like /etc

def test_folder_of_junk_shows_twenty_lines_and_a_count_and_no_secret(tiny, tmp_path, capsys):
    """was: one stderr line per file (1,068 for /etc), and a file whose first line has six tokens
    showed its second line: "row 2 … expected 6 columns …: 'AWS_SECRET_ACCESS_KEY=…'". Nothing imports,
    so every reason is an error line: 20 of them and a count."""
    etc = tmp_path / "in" / "etc"
    etc.mkdir()
    for i in range(1100):
        (etc / f"junk{i:04d}.conf").write_text(f"setting_{i} = yes\n")
    (etc / "deploy.env").write_text(f"# written by the deploy tool on host\n{SECRET}\n")
    (etc / "looks.trec").write_text(f"q1 Q0 d1 1 0.5 run\n{SECRET}\n")
    with unchanged(tiny):
        assert main_quiet(["import-results", str(etc), "--release", "tiny"]) == 2
    out, err = capsys.readouterr()
    assert SECRET not in out + err and "wJalr" not in out + err and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 21 and all(line.startswith(f"error: {etc}/") for line in lines[:20]), lines[:3]
    assert lines[-1] == "error: … and 1,082 more files skipped", lines[-1]


def main_quiet(argv: list[str]) -> int:
    from coreb_core.cli import main

    return main(argv)


def test_trec_error_in_an_unrecognised_file_quotes_no_line(tiny, tmp_path, capsys):
    """was: eval --run-file on a file whose first line has six tokens quoted its second line."""
    env = tmp_path / "in" / "deploy.env"
    env.write_text(f"# written by the deploy tool on host\n{SECRET}\n")
    line = refuses(["eval", "--release", "tiny", "--run-file", str(env)], capsys, str(env), "not a TREC run")
    assert "wJalr" not in line and "deploy tool" not in line


def test_trec_error_in_a_run_file_names_row_without_quoting_it(tiny, tmp_path, capsys):
    """was: "row 2: … expected 6 columns …: 'AWS_SECRET_ACCESS_KEY=…'" (the whole line quoted)."""
    run = tmp_path / "in" / "run.trec"
    run.write_text(f"q_t2c_search_python_0002 Q0 code_v202601_00001 1 2.0 mine\n{SECRET}\n")
    line = refuses(["eval", "--release", "tiny", "--run-file", str(run)], capsys, str(run), "row 2", "found 1")
    assert "wJalr" not in line


# ---------------------------------------------------------------- outside the roots

# The web app's paths are confined to the import roots; the CLI is its user's own shell and reads any path
# they name (issue 23: ``eval --run-file /tmp/x.trec`` was refused). Both go through ``check_input_path``
# and the readers below, confined unless inside ``unconfined()``.

def _confined_import(kind: str, path: Path, root: Path) -> None:
    """What the Run retrieval page's by-path imports call."""
    from coreb_core.input_paths import check_input_path
    from coreb_core.results.imported import import_results
    from coreb_core.results.uploads import import_dataset

    if kind == "data":
        import_dataset(check_input_path(path), "r", root=root)
    else:
        report = import_results(check_input_path(path), "tiny", root=root)
        if report.skipped:
            raise AssertionError("; ".join(report.skipped))


def test_cli_reads_paths_outside_the_import_roots(tiny, tmp_path, capsys):
    """was: ``eval --run-file`` and ``import-data`` refused any path outside COREB_IMPORT_ROOTS."""
    from coreb_core.cli import main

    run = _trec(tmp_path / "out" / "run.trec")
    src = dump.write_parquet_folder(tmp_path / "out" / "ds", dump.rows())
    assert main(["eval", "--release", "tiny", "--run-file", str(run)]) == 0, capsys.readouterr().err
    assert main(["import-data", str(src), "--release", "r"]) == 0, capsys.readouterr().err
    assert "imported r " in capsys.readouterr().out


def test_cli_still_refuses_special_files_outside_the_roots(tiny, tmp_path, capsys):
    with unchanged(tiny):
        refuses(["eval", "--release", "tiny", "--run-file", "/dev/zero"], capsys, "/dev/zero", "not a regular file")


@pytest.mark.parametrize("kind", ["data", "results"])
def test_web_path_outside_the_import_roots_is_refused(tiny, tmp_path, kind):
    """was: any path the server's user can read (/etc imported file by file)."""
    from coreb_core.errors import CorebError

    outside = tmp_path / "out"
    outside.mkdir()
    with unchanged(tiny), pytest.raises(CorebError, match="outside the import folders"):
        _confined_import(kind, outside, tiny)


def test_etc_is_outside_the_default_roots(tiny, monkeypatch):
    """was: import-results /etc listed 1,068 files."""
    from coreb_core.errors import CorebError

    monkeypatch.delenv("COREB_IMPORT_ROOTS")
    with unchanged(tiny), pytest.raises(CorebError, match="^/etc: outside the import folders"):
        _confined_import("results", Path("/etc"), tiny)


def test_path_with_a_nul_character_is_refused(tiny, capsys):
    """was: ValueError traceback ("embedded null byte")."""
    refuses(["eval", "--release", "tiny", "--run-file", "run\x00.trec"], capsys, "NUL character")


def test_symlink_out_of_a_root_is_refused(tiny, tmp_path):
    """was: a link inside an allowed folder read whatever it points at."""
    from coreb_core.errors import CorebError

    outside = _trec(tmp_path / "out" / "run.trec")
    (tmp_path / "in" / "link.trec").symlink_to(outside)
    (tmp_path / "in" / "linked").symlink_to(outside.parent, target_is_directory=True)
    with unchanged(tiny):
        for link in ("link.trec", "linked"):
            with pytest.raises(CorebError, match=f"{link}: outside the import folders"):
                _confined_import("results", tmp_path / "in" / link, tiny)


def test_symlink_inside_a_folder_pointing_out_is_skipped(tiny, tmp_path):
    """was: import-results followed a link in the folder to a file outside it and imported it as a run."""
    outside = _trec(tmp_path / "out" / "run.trec")
    folder = tmp_path / "in" / "results"
    folder.mkdir()
    (folder / "run.trec").symlink_to(outside)
    with unchanged(tiny), pytest.raises(AssertionError, match="run.trec: outside the import folders"):
        _confined_import("results", folder, tiny)


def test_dataset_file_linked_out_of_the_roots_is_refused(tiny, tmp_path):
    """was: a dataset folder's code_corpus.parquet could be a link to any file of the server."""
    from coreb_core.errors import DataError

    src = dump.write_parquet_folder(tmp_path / "in" / "ds", dump.rows())
    shutil.move(src / "code_corpus.parquet", tmp_path / "out.parquet")
    (src / "code_corpus.parquet").symlink_to(tmp_path / "out.parquet")
    with unchanged(tiny), pytest.raises(DataError, match="code_corpus.parquet.*outside the import folders"):
        _confined_import("data", src, tiny)


# ---------------------------------------------------------------- special and huge files

def test_fifo_as_dataset_file_and_run_file_is_refused_without_hanging(tiny, tmp_path):
    """was: both hung for ever (reading a FIFO waits for a writer)."""
    ds = dump.write_jsonl(tmp_path / "in" / "ds", dump.rows())
    (ds / "code_corpus_v2.jsonl").unlink()
    os.mkfifo(ds / "code_corpus_v2.jsonl")
    run = tmp_path / "in" / "run.trec"
    os.mkfifo(run)
    env = {**os.environ, "COREB_CACHE": str(tiny), "COREB_IMPORT_ROOTS": str(tmp_path / "in"),
           "PYTHONPATH": str(REPO)}
    with unchanged(tiny):
        for argv, path in ((["import-data", str(ds), "--release", "r"], ds / "code_corpus_v2.jsonl"),
                           (["eval", "--release", "tiny", "--run-file", str(run)], run)):
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "coreb_core", *argv], cwd=REPO, env=env,
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
            assert done.stderr.strip().splitlines() == [done.stderr.strip()]
            assert str(path) in done.stderr and "not a regular file (a FIFO)" in done.stderr, done.stderr
            assert time.perf_counter() - start < 30


def test_dev_zero_as_run_file_is_refused(tiny, tmp_path, capsys, monkeypatch):
    """was: read until memory ran out."""
    monkeypatch.setenv("COREB_IMPORT_ROOTS", os.pathsep.join([str(tmp_path / "in"), "/dev"]))
    (tmp_path / "in" / "zero.trec").symlink_to("/dev/zero")
    with unchanged(tiny):
        refuses(["eval", "--release", "tiny", "--run-file", "/dev/zero"], capsys, "/dev/zero",
                "not a regular file (a character device)")
        refuses(["eval", "--release", "tiny", "--run-file", str(tmp_path / "in" / "zero.trec")], capsys,
                "zero.trec", "not a regular file (a character device)")


def test_file_over_the_size_limit_is_refused(tiny, tmp_path, capsys, monkeypatch):
    """was: any size was read whole into memory."""
    from coreb_core import input_paths

    monkeypatch.setattr(input_paths, "MAX_FILE_BYTES", 100)
    run = tmp_path / "in" / "big.trec"
    run.write_text("q_t2c_search_python_0002 Q0 code_v202601_00001 1 2.0 mine\n" * 5)
    with unchanged(tiny):
        refuses(["eval", "--release", "tiny", "--run-file", str(run)], capsys, str(run), "over the size limit")
        refuses(["import-results", str(run.parent), "--release", "tiny"], capsys, "big.trec", "over the size limit")


# ---------------------------------------------------------------- permissions

@pytest.mark.skipif(ROOT_USER, reason="root reads files whatever their mode; test_unreadable_* (simulated) cover it")
def test_unreadable_dataset_file_by_mode(tiny, tmp_path, capsys):
    """was: PermissionError traceback."""
    src = dump.write_jsonl(tmp_path / "in" / "ds", dump.rows())
    (src / "code_corpus_v2.jsonl").chmod(0)
    with unchanged(tiny):
        refuses(["import-data", str(src), "--release", "r"], capsys, "code_corpus_v2.jsonl", "Permission denied")


def test_unreadable_dataset_file(tiny, tmp_path, capsys, monkeypatch):
    """was: PermissionError traceback from read_bytes."""
    src = dump.write_jsonl(tmp_path / "in" / "ds", dump.rows())
    _deny(monkeypatch, src / "code_corpus_v2.jsonl")
    with unchanged(tiny):
        refuses(["import-data", str(src), "--release", "r"], capsys, "code_corpus_v2.jsonl", "Permission denied")


def test_unreadable_dataset_folder(tiny, tmp_path, capsys, monkeypatch):
    """was: PermissionError traceback from listing the folder."""
    src = dump.write_jsonl(tmp_path / "in" / "ds", dump.rows())
    _deny(monkeypatch, src)
    with unchanged(tiny):
        refuses(["import-data", str(src), "--release", "r"], capsys, str(src), "Permission denied")


def test_unreadable_results_subfolder_is_one_skipped_line(tiny, tmp_path, capsys, monkeypatch):
    """was: silently left out (the user never learnt a folder was not read)."""
    folder = tmp_path / "in" / "results"
    _trec(folder / "ok" / "run.trec")
    (folder / "private").mkdir()
    _deny(monkeypatch, folder / "private")
    with unchanged(tiny / "coreb"):
        assert main_quiet(["import-results", str(folder), "--release", "tiny"]) == 0
    out, err = capsys.readouterr()
    assert [l for l in err.splitlines()] == [f"skipped: {folder / 'private'}: cannot list the folder (Permission denied)"]
    assert "1 runs" in out


def test_unwritable_cache(tiny, tmp_path, capsys):
    """was: PermissionError traceback (the cache is unchanged either way)."""
    src = dump.write_parquet_folder(tmp_path / "in" / "ds", dump.rows())
    run = _trec(tmp_path / "in" / "res" / "run.trec")
    with _read_only(tiny), unchanged(tiny):
        for argv in (["import-data", str(src), "--release", "r"], ["import-results", str(run), "--release", "tiny"]):
            line = refuses(argv, capsys, str(tiny))
            assert "Permission denied" in line or "Operation not permitted" in line, line


def test_unwritable_cache_simulated(tiny, tmp_path, capsys, monkeypatch):
    """was: PermissionError traceback; the write is made to fail as a read-only cache makes it fail."""
    src = dump.write_parquet_folder(tmp_path / "in" / "ds", dump.rows())
    real_mkdir = os.mkdir

    def mkdir(path, *args, **kwargs):
        if str(path).startswith(str(tiny)):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_mkdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "mkdir", mkdir)
    with unchanged(tiny):
        refuses(["import-data", str(src), "--release", "r"], capsys, str(tiny), "Permission denied")


# ---------------------------------------------------------------- the page

def test_page_path_import_outside_the_roots_is_an_error_box(tiny, tmp_path):
    """was: the page imported any server path (the by-path tabs of both import panels)."""
    from coreb_core.present.format import plain
    from tests.builders import app_test
    from tests.hostile.conftest import shows_error

    outside = dump.write_parquet_folder(tmp_path / "out" / "ds", dump.rows())
    at = app_test("run_retrieval.py", tiny, {"release": "tiny"}).run()
    at.text_input(key="ds_release").set_value("r")
    at.text_input(key="ds_path").set_value(str(outside)).run()
    with unchanged(tiny):
        at.button(key="ds_go").click().run()
        shows_error(at, plain(outside), "outside the import folders")
        at.text_input(key="res_path").set_value("/etc").run()
        at.button(key="res_go").click().run()
        shows_error(at, "/etc", "outside the import folders")


def test_page_junk_folder_shows_twenty_errors_and_a_count(tiny, tmp_path):
    """was: one error box per file (1,068 for /etc)."""
    from tests.builders import app_test

    junk = tmp_path / "in" / "junk"
    junk.mkdir()
    for i in range(40):
        (junk / f"junk{i:02d}.conf").write_text("x\n")
    at = app_test("run_retrieval.py", tiny, {"release": "tiny"}).run()
    at.text_input(key="res_path").set_value(str(junk)).run()
    with unchanged(tiny):
        at.button(key="res_go").click().run()
    assert not at.exception
    errors = [e.value for e in at.error]
    # one line saying nothing was imported (issue 31: no success box when nothing imports), 20 reasons, a count
    assert len(errors) == 22 and errors[0].startswith("Nothing was imported"), errors[:2]
    assert errors[-1] == "… and 20 more files skipped", errors[-2:]
