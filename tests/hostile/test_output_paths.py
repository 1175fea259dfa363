"""Output paths: ``report --out`` and ``export --out`` (trec, coreb, mteb) pointed at a FIFO, a device
(/dev/null, or a link to it), a path inside the cache (a run's own folder, or a link leading there), and a
write that fails on a full disk. Each is refused before anything is written, with one ``error: …`` line naming
the path; the FIFO and the device stay what they were, and the cache is byte-identical.

The final rename once put a regular file in place of a FIFO or a device: run as root, ``--out /dev/null``
would have replaced /dev/null for the whole machine. These tests run as whatever user runs the suite (root in
CI's container), so a guard below turns any rename onto a path under /dev into a test failure instead of
letting old code do it.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np
import pytest

from tests.hostile.conftest import refuses, unchanged


class RenamedOntoDev(AssertionError):
    """Raised by the guard instead of renaming a file onto /dev/…; not an OSError, so nothing catches it."""


@pytest.fixture(autouse=True)
def no_rename_onto_dev(monkeypatch):
    """Safety for old code: os.replace / os.rename onto /dev/… fail the test and leave the device alone."""
    real_replace, real_rename = os.replace, os.rename

    def guarded(real):
        def call(src, dst, *args, **kwargs):
            if Path(dst).absolute().parts[:2] == ("/", "dev"):
                raise RenamedOntoDev(f"would have replaced {dst}")
            return real(src, dst, *args, **kwargs)
        return call

    monkeypatch.setattr(os, "replace", guarded(real_replace))
    monkeypatch.setattr(os, "rename", guarded(real_rename))


@pytest.fixture
def run_id(tiny_cache) -> str:
    from coreb_core.runs.folders import write_run
    from coreb_core.runs.hits import hits_from_scores

    hits = hits_from_scores("t2c", ["q_t2c_canonical_retro_any_0001"], ["code_v202601_00001", "code_v202601_00002"],
                            np.array([[0.5, 0.9]]))
    return write_run(hits, {"run_id": "r1", "model": "bm25", "release": "tiny"}, tiny_cache)


def _device(path: str) -> tuple[int, int, int]:
    info = os.stat(path)
    return info.st_mode, info.st_rdev, info.st_ino


def _export(run_id: str, fmt: str, out: Path | str) -> list[str]:
    return ["export", "--run", run_id, "--format", fmt, "--out", str(out)]


def _report(out: Path | str) -> list[str]:
    return ["report", "--release", "tiny", "--task", "t2c", "--out", str(out)]


# ---------------------------------------------------------------- FIFOs and devices

@pytest.mark.parametrize("fmt", ["trec", "coreb", "mteb"])
def test_export_onto_a_fifo(tmp_path, tiny_cache, run_id, capsys, fmt):
    """was: trec renamed a regular file over the FIFO; coreb and mteb failed with a traceback (or wrote under it)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with unchanged(tiny_cache):
        refuses(_export(run_id, fmt, fifo), capsys, str(fifo), "not a regular file (a FIFO)")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name not in ("cache", "tiny-src")) == ["pipe"]


def test_report_onto_a_fifo(tmp_path, tiny_cache, run_id, capsys):
    """was: the report was built, then renamed over the FIFO (a regular file in its place)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with unchanged(tiny_cache):
        refuses(_report(fifo), capsys, str(fifo), "not a regular file (a FIFO)", "report.html")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("argv", [lambda r: _export(r, "trec", "/dev/null"), lambda r: _report("/dev/null")],
                         ids=["export-trec", "report"])
def test_dev_null_is_refused_and_untouched(tiny_cache, run_id, capsys, argv):
    """was: accepted; a temporary /dev/.null.tmp was renamed over /dev/null (as root: for the whole machine)."""
    before = _device("/dev/null")
    with unchanged(tiny_cache):
        refuses(argv(run_id), capsys, "/dev/null", "not a regular file (a character device)")
    assert _device("/dev/null") == before
    assert not Path("/dev/.null.tmp").exists()


def test_a_link_to_a_device_is_refused(tmp_path, tiny_cache, run_id, capsys):
    """was: accepted; the link was replaced by the export (what the user named was the device)."""
    link = tmp_path / "out.trec"
    link.symlink_to("/dev/null")
    with unchanged(tiny_cache):
        refuses(_export(run_id, "trec", link), capsys, str(link), "a character device")
    assert link.is_symlink() and os.readlink(link) == "/dev/null"


def test_the_last_rename_refuses_a_fifo_too(tmp_path):
    """was: atomic_write_text renamed its temporary over a FIFO (any writer, not only the CLI's --out)."""
    from coreb_core.atomic import atomic_write_text
    from coreb_core.errors import CorebError

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(CorebError, match="not a regular file"):
        atomic_write_text(fifo, "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]  # the temporary is gone


# ---------------------------------------------------------------- inside the cache

@pytest.mark.parametrize("fmt, where", [("coreb", "runs/r1"), ("mteb", "runs/r1"), ("trec", "runs/r1/r1.trec"),
                                        ("coreb", "."), ("trec", "export.trec")],
                         ids=["coreb-run-folder", "mteb-run-folder", "trec-in-run-folder", "coreb-cache-root",
                              "trec-cache-root"])
def test_export_inside_the_cache(tiny_cache, run_id, capsys, fmt, where):
    """was: written there: coreb merged its JSON files into the run's own folder in the cache."""
    out = tiny_cache / where
    with unchanged(tiny_cache):
        refuses(_export(run_id, fmt, out), capsys, str(out), "inside the cache folder")


def test_export_through_a_link_into_the_cache(tmp_path, tiny_cache, run_id, capsys):
    """was: written there: a link outside the cache led the export into the run's folder."""
    link = tmp_path / "elsewhere"
    link.symlink_to(tiny_cache / "runs" / "r1")
    with unchanged(tiny_cache):
        refuses(_export(run_id, "coreb", link), capsys, str(link), "inside the cache folder")


def test_report_inside_the_cache(tiny_cache, run_id, capsys):
    """was: the report was written into the cache folder."""
    out = tiny_cache / "runs" / "report.html"
    with unchanged(tiny_cache):
        refuses(_report(out), capsys, str(out), "inside the cache folder")


def test_export_beside_the_cache_still_works(tmp_path, tiny_cache, run_id, capsys):
    """was: (the refusals above must not catch a sibling whose name starts like the cache's) cache2/ is fine."""
    from coreb_core.cli import main

    out = tmp_path / f"{tiny_cache.name}2" / "r1.trec"
    assert main(_export(run_id, "trec", out)) == 0, capsys.readouterr().err
    assert out.read_text().split()[:3] == ["q_t2c_canonical_retro_any_0001", "Q0", "code_v202601_00002"]


# ---------------------------------------------------------------- a full disk

@pytest.fixture
def full_disk(tmp_path, monkeypatch) -> Path:
    """Every atomic write's temporary is a link to /dev/full: each write fails with ENOSPC, as on a full disk."""
    import coreb_core.atomic

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    tmp = tmp_path / "full"
    monkeypatch.setattr(coreb_core.atomic, "default_tmp", lambda path: (tmp.unlink(missing_ok=True),
                                                                        tmp.symlink_to("/dev/full"), tmp)[2])
    return tmp


def test_full_disk_names_the_file(tiny_cache, run_id, capsys, full_disk):
    """was: `error: No space left on device`, naming no file."""
    from coreb_core.runs.folders import run_path

    run_json = run_path("r1", tiny_cache) / "run.json"
    with unchanged(tiny_cache):
        refuses(["runs", "rename", "r1", "new name"], capsys, f"error: {run_json}: No space left on device")
    assert not full_disk.exists()  # the temporary (here a link) is removed, /dev/full itself untouched
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
