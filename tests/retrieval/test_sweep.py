"""The sweep (issue 37, items 1-2): a two-model, two-release lexical matrix is stored once, a second call stores nothing
new, a failing item fails alone and is retried on the next call, bad input is one ``error:`` line and exit 2 before any
work, a sweep killed with SIGKILL leaves no half-written run, and ``--ray local`` makes the same runs as the local
sweep. CoREB-mini's lexical runs take a second or two each; the Ray test about 13 s (Ray's start and stop)."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from coreb_core.paths import datasets_dir, runs_dir
from coreb_core.retrieval import sweep as sweep_module
from coreb_core.retrieval.sweep import FAILED, SKIPPED, STORED, SweepItem, cuda_count, sweep
from coreb_core.runs.folders import check_run_folder, list_runs, read_hits, run_listing
from tests.builders import REPO, run_cli

MODELS = ["bm25", "bm25s-mteb"]
RELEASES = ["demo_v2603", "demo_v2602"]
MATRIX = [SweepItem(m, r, None) for m in MODELS for r in RELEASES]


def fresh_cache(mini_data: Path, folder: Path) -> Path:
    """Both CoREB-mini releases and no run."""
    shutil.copytree(datasets_dir(mini_data), datasets_dir(folder))
    return folder


@pytest.fixture
def sweep_cache(mini_data, tmp_path, monkeypatch) -> Path:
    root = fresh_cache(mini_data, tmp_path / "cache")
    monkeypatch.setenv("COREB_CACHE", str(root))
    return root


def runs_made(root: Path) -> list[tuple[str, str]]:
    return sorted((str(m.model), str(m.release)) for m in list_runs(None, root))


def assert_no_half_run(root: Path) -> None:
    """Every entry of the runs folder is a complete run: no temporary, nothing a reader would skip."""
    entries = sorted(p.name for p in runs_dir(root).iterdir()) if runs_dir(root).is_dir() else []
    assert [e for e in entries if e.startswith(".")] == []
    for entry in entries:
        check_run_folder(runs_dir(root) / entry)
    assert run_listing(None, root).skipped == []


def test_the_matrix_is_stored_once_and_a_second_call_stores_nothing(sweep_cache):
    first = sweep(MODELS, RELEASES, ["official", "card"], ["cpu"], root=sweep_cache)
    assert [row.item for row in first.rows] == MATRIX  # a lexical model runs once whatever the profiles
    assert [row.status for row in first.rows] == [STORED] * 4
    assert all(row.device == "cpu" and row.texts_per_s and row.texts_per_s > 0 and row.seconds > 0
               for row in first.rows)
    assert runs_made(sweep_cache) == sorted((m, r) for m in MODELS for r in RELEASES)

    again = sweep(MODELS, RELEASES, root=sweep_cache)
    assert [row.status for row in again.rows] == [SKIPPED] * 4
    assert [row.run_id for row in again.rows] == [row.run_id for row in first.rows]
    assert [row.texts_per_s for row in again.rows] == [row.texts_per_s for row in first.rows]
    assert len(list_runs(None, sweep_cache)) == 4
    assert_no_half_run(sweep_cache)


def test_a_failing_item_fails_alone_and_is_retried_on_the_next_call(sweep_cache, monkeypatch):
    real = sweep_module.run_retrieval

    def failing(model, release, **options):
        if (model, release) == ("bm25s-mteb", "demo_v2603"):
            raise RuntimeError("index exploded\nsecond line")
        return real(model, release, **options)

    monkeypatch.setattr(sweep_module, "run_retrieval", failing)
    first = sweep(MODELS, RELEASES, root=sweep_cache)
    assert [row.status for row in first.rows] == [STORED, STORED, FAILED, STORED]
    assert first.rows[2].error == "index exploded second line" and first.rows[2].run_id is None
    assert ("bm25s-mteb", "demo_v2603") not in runs_made(sweep_cache)
    assert_no_half_run(sweep_cache)

    monkeypatch.setattr(sweep_module, "run_retrieval", real)
    retried = sweep(MODELS, RELEASES, root=sweep_cache)
    assert [row.status for row in retried.rows] == [SKIPPED, SKIPPED, STORED, SKIPPED]
    assert runs_made(sweep_cache) == sorted((m, r) for m in MODELS for r in RELEASES)


def test_cli_sweep_summary_and_exit_status(sweep_cache, monkeypatch):
    done = run_cli("sweep", "--models", *MODELS, "--releases", *RELEASES, "--devices", "cpu")
    assert done.returncode == 0, done.stderr
    table = done.stdout.splitlines()
    assert table[0].split() == ["model", "profile", "release", "status", "seconds", "texts/s", "run"]
    assert [line.split()[:4] for line in table[1:5]] == [[m, "-", r, "stored"] for m in MODELS for r in RELEASES]
    assert table[5].startswith("4 runs: 4 stored, 0 skipped, 0 failed in ")
    assert "sweep: 4 runs: 0 stored already (skipped), 4 to make" in done.stderr
    assert done.stderr.count("started on cpu") == 4 and done.stderr.count(": stored in ") == 4

    again = run_cli("sweep", "--models", *MODELS, "--releases", *RELEASES, "--json")
    assert again.returncode == 0, again.stderr
    rows = json.loads(again.stdout)
    assert [(r["model"], r["release"], r["status"]) for r in rows] == [(m, r, SKIPPED) for m in MODELS
                                                                        for r in RELEASES]
    assert {r["run_id"] for r in rows} == {m.run_id for m in list_runs(None, sweep_cache)}

    def failing(model, release, **options):
        raise RuntimeError("no memory left")

    monkeypatch.setattr(sweep_module, "run_retrieval", failing)
    failed = run_cli("sweep", "--models", "bm25", "--releases", "demo_v2603", "--profiles", "card", "--devices", "cpu")
    assert failed.returncode == 0, "a stored run is skipped, never re-made"
    shutil.rmtree(runs_dir(sweep_cache))
    failed = run_cli("sweep", "--models", "bm25", "--releases", "demo_v2603")
    assert failed.returncode == 1
    assert "failed: bm25 on demo_v2603: no memory left" in failed.stderr
    assert "1 runs: 0 stored, 0 skipped, 1 failed" in failed.stdout


def _bad_device() -> str:
    return "cuda:0" if cuda_count() == 0 else f"cuda:{cuda_count()}"


@pytest.mark.parametrize("argv,message", [
    (["--models", "bm25", "nomodel"], "error: unknown model 'nomodel'"),
    (["--releases", "demo_v2603", "release_v9999"], "error: release 'release_v9999' is not in the cache"),
    (["--devices", "<bad>"], "error: device "),
    (["--devices", "cpu", "cpu"], "error: device 'cpu' is given twice"),
    (["--ray", "127.0.0.1:1"], "error: "),
    (["--ray", "no-port"], "error: --ray 'no-port': use local, HOST:PORT"),
])
def test_bad_input_is_one_error_line_and_exit_2_before_any_work(sweep_cache, argv, message):
    argv = [_bad_device() if a == "<bad>" else a for a in argv]
    base = {"--models": ["bm25"], "--releases": ["demo_v2603"]}
    for option, values in base.items():
        if option not in argv:
            argv = [option, *values, *argv]
    done = run_cli("sweep", *argv)
    assert done.returncode == 2
    assert done.stderr.startswith(message) and len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stdout == ""
    assert not runs_dir(sweep_cache).exists() or list(runs_dir(sweep_cache).iterdir()) == []


def test_unreachable_ray_address_is_refused_in_seconds(sweep_cache):
    pytest.importorskip("ray")
    start = time.monotonic()
    done = run_cli("sweep", "--models", "bm25", "--releases", "demo_v2603", "--ray", "127.0.0.1:1")
    assert done.returncode == 2 and time.monotonic() - start < 10
    assert done.stderr.startswith("error: Ray address 127.0.0.1:1 cannot be reached (")
    assert len(done.stderr.splitlines()) == 1


# A sweep whose bm25s-mteb runs hang after the bm25 runs are stored: killed there with SIGKILL.
SLOW_SWEEP = """
import pathlib, sys, time
from coreb_core.retrieval import search
real = search.LEXICAL["bm25s-mteb"]
def slow(queries, docs):
    pathlib.Path(sys.argv[1]).write_text("scoring")
    time.sleep(120)
    return real(queries, docs)
search.LEXICAL["bm25s-mteb"] = slow
from coreb_core.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_a_sweep_killed_mid_run_leaves_no_half_written_run(sweep_cache, tmp_path):
    marker = tmp_path / "scoring"
    argv = ["sweep", "--models", *MODELS, "--releases", *RELEASES]
    proc = subprocess.Popen([sys.executable, "-c", SLOW_SWEEP, str(marker), *argv], cwd=REPO,
                            env={**os.environ, "COREB_CACHE": str(sweep_cache)}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert marker.exists(), "the sweep never reached its third run"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    assert runs_made(sweep_cache) == [("bm25", "demo_v2602"), ("bm25", "demo_v2603")]
    assert_no_half_run(sweep_cache)
    resumed = sweep(MODELS, RELEASES, root=sweep_cache)
    assert [row.status for row in resumed.rows] == [SKIPPED, SKIPPED, STORED, STORED]
    assert_no_half_run(sweep_cache)


@pytest.fixture
def no_ray_left():
    """Whatever the test does, no Ray stays up after it (``ray_session`` stops the Ray it started)."""
    ray = pytest.importorskip("ray")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    yield ray
    if ray.is_initialized():
        ray.shutdown()


def hits_of(root: Path, run_id: str) -> pd.DataFrame:
    hits = read_hits(run_id, root)
    for column in ("task", "query_id", "doc_id"):
        hits[column] = hits[column].astype(str)
    return hits.sort_values(["task", "query_id", "rank", "doc_id"]).reset_index(drop=True)


def test_ray_local_makes_the_same_runs_as_the_local_sweep(mini_data, tmp_path, monkeypatch, no_ray_left):
    local_root = fresh_cache(mini_data, tmp_path / "local")
    ray_root = fresh_cache(mini_data, tmp_path / "ray")
    local = sweep(MODELS, RELEASES, root=local_root)
    done = run_cli("sweep", "--models", *MODELS, "--releases", *RELEASES, "--ray", "local", "--json",
                   env={"COREB_CACHE": str(ray_root)})
    assert done.returncode == 0, done.stderr
    assert not no_ray_left.is_initialized()
    rows = json.loads(done.stdout)
    assert [(r["model"], r["release"], r["status"], r["device"]) for r in rows] == [
        (m, r, STORED, "cpu") for m in MODELS for r in RELEASES]
    assert runs_made(ray_root) == runs_made(local_root)
    for row, ray_row in zip(local.rows, rows):
        pd.testing.assert_frame_equal(hits_of(local_root, row.run_id), hits_of(ray_root, ray_row["run_id"]))
    assert_no_half_run(ray_root)
    # the runs Ray stored are found by the local sweep: nothing is made twice
    assert [row.status for row in sweep(MODELS, RELEASES, root=ray_root).rows] == [SKIPPED] * 4


def test_a_cancelled_sweep_job_stores_nothing_more(sweep_cache):
    """The app's sweep job (``jobs.sweep_job``): a cancel during a run fails that run (nothing stored), starts no
    other, and ends the job cancelled."""
    from coreb_core.retrieval.jobs import RunCancelled, sweep_job

    seen = []

    def progress(message, fraction):
        seen.append(message)
        if message.startswith("[2/4]") and "searched" in message:
            raise RunCancelled("job")

    with pytest.raises(RunCancelled):
        sweep_job(MODELS, RELEASES, ["official"], sweep_cache, progress)
    assert runs_made(sweep_cache) == [("bm25", "demo_v2603")]
    assert_no_half_run(sweep_cache)
    assert not any(m.startswith("[3/4]") for m in seen)


def test_a_stored_dense_run_is_found_by_its_encoder_identity(fake_dense):
    """A dense run stored by ``run`` (here encoded by the Trigrams stand-in under minilm's official encoding) is the
    sweep's run: same model, release, profile, corpus, encoder and prompts, so it is skipped, not made again."""
    root, dense, bm25 = fake_dense
    result = sweep(["minilm", "bm25"], ["demo_v2603"], ["official"], ["cpu"], root=root)
    assert [(row.item, row.status, row.run_id) for row in result.rows] == [
        (SweepItem("minilm", "demo_v2603", "official"), SKIPPED, dense), (SweepItem("bm25", "demo_v2603", None),
                                                                         SKIPPED, bm25)]
