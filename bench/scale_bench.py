"""Fifty models at once (issue 47, item 2): how `select` and the first views of Overview, Model selection and Compare
grow with the number of stored runs, on the real release_v2603.

The cache holds the real release (imported from ``--real``), its BM25 run and 49 synthetic runs made from BM25's
score matrices (per-query normalised scores plus Gaussian noise of increasing strength, ranked and stored as the
pipeline stores any run: top-100 plus every judged document and anchor), so 50 runs in all.

- ``select`` over the first 1, 11, 20 and 50 runs: each timed in a fresh process (its modules imported first, so
  that the interpreter's start and the imports, the same for every size, are left out) with the runs' joins
  cached on disk by an earlier call (nothing of the scores in memory). Target: 50 runs at most 5x 1 run.
- ``--browser``: a Streamlit server on 127.0.0.1 over a cache holding 3 runs, then one holding 20 (the same
  release, joins cached on disk, each server fresh); Debian's chromium opens Overview, Model selection and Compare
  in turn, each page's first view in a new browser context, timed until the page is drawn (``PAGE_DRAWN_JS``, as
  the app bench counts it). Target: 20 runs at most 3x 3 runs.

The exponent of time in runs (time ~ runs^b, fitted in log-log over the sizes measured) is printed for each; the
load average is printed beside every figure.

    .venv/bin/python bench/scale_bench.py [--real ../shared/coreb_real] [--cache DIR] [--browser]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

from bench.page_drawn import CHROMIUM_ARGS, LAST_CHANGE_INIT_JS, PAGE_DRAWN_JS, SCRIPT_DONE_JS  # noqa: E402
from bench.serve import served  # noqa: E402
from bench.synthetic_runs import synthetic_runs  # noqa: E402

RELEASE = "release_v2603"
N_RUNS = 50
SIZES = (1, 11, 20, 50)
SELECT_TARGET = 5.0
PAGES = (("Overview", "overview"), ("Model selection", "selection"), ("Compare", "compare"))
BROWSER_SIZES = (3, 20)
BROWSER_TARGET = 3.0
# What a fresh process imports before the timed call (the verbs import lazily): the same fixed cost at every size.
_TIMED_SELECT = """
import json, sys, time
from coreb_core.cli.main import main
import coreb_core.views.selection, coreb_core.evaluation.evaluate, coreb_core.evaluation.significance, scipy.stats  # noqa
import contextlib, io
argv = json.loads(sys.argv[1])
out = io.StringIO()
start = time.perf_counter()
with contextlib.redirect_stdout(out):
    code = main(argv)
print(json.dumps({"seconds": time.perf_counter() - start, "code": code, "chars": len(out.getvalue())}))
"""


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def build(root: Path, real: Path) -> list[str]:
    """The real release, its BM25 run and 49 synthetic runs in ``root`` (reused when an earlier bench left them):
    the run ids, BM25's first."""
    from coreb_core.data.store import list_releases
    from coreb_core.results.uploads import import_dataset
    from coreb_core.retrieval.pipeline import run_retrieval
    from coreb_core.runs.folders import list_runs

    if RELEASE in list_releases(root):
        runs = sorted(list_runs(RELEASE, root), key=lambda m: (m.model != "bm25", m.model))
        if len(runs) >= N_RUNS:
            print(f"{RELEASE}: reusing the cache in {root} ({len(runs)} runs)")
            return [m.run_id for m in runs[:N_RUNS]]
        shutil.rmtree(root)
    t0 = time.perf_counter()
    import_dataset(real, split=RELEASE, root=root)
    bm25 = run_retrieval("bm25", RELEASE, root=root).run_id
    t1 = time.perf_counter()
    synthetic, _ = synthetic_runs(RELEASE, root, N_RUNS - 1, lambda r: 0.02 + 0.01 * r)
    ids = [bm25, *synthetic]
    print(f"built {RELEASE} and its BM25 run in {t1 - t0:.1f} s, {N_RUNS - 1} synthetic runs in "
          f"{time.perf_counter() - t1:.1f} s ({load()})")
    return ids


def timed_select(root: Path, ids: list[str]) -> float:
    """``select`` over ``ids`` in a fresh process: the seconds of the call alone."""
    argv = ["select", "--release", RELEASE, "--runs", *ids, "--json"]
    env = {**os.environ, "COREB_CACHE": str(root)}
    done = subprocess.run([sys.executable, "-c", _TIMED_SELECT, json.dumps(argv)], cwd=REPO, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"select failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if result["code"] != 0:
        raise SystemExit(f"select exited {result['code']}")
    return float(result["seconds"])


def exponent(sizes: list[int], seconds: list[float]) -> float:
    """b in seconds ~ runs^b, fitted in log-log."""
    return float(np.polyfit(np.log(sizes), np.log(seconds), 1)[0])


def select_scale(root: Path, ids: list[str]) -> bool:
    print(f"\nselect (fresh process, joins cached), {load()}")
    timed_select(root, ids)  # caches every run's joins on disk; its time is not counted
    seconds = []
    for n in SIZES:
        s = min(timed_select(root, ids[:n]) for _ in range(2))
        seconds.append(s)
        print(f"  {n:2d} runs: {s:6.2f} s  ({s / seconds[0]:4.1f}x 1 run)  {load()}")
    ratio = seconds[-1] / seconds[0]
    print(f"  time ~ runs^{exponent(list(SIZES), seconds):.2f} over {SIZES}; 50 runs = {ratio:.1f}x 1 run "
          f"(target <= {SELECT_TARGET:.0f}x): {'met' if ratio <= SELECT_TARGET else 'MISSED'}")
    return ratio <= SELECT_TARGET


def cache_of(root: Path, ids: list[str], into: Path) -> Path:
    """A cache holding the release and only ``ids`` (and their cached joins): hard links, nothing copied."""
    from coreb_core.paths import joins_dir, runs_dir

    if into.exists():
        shutil.rmtree(into)
    for part in ("coreb",):
        shutil.copytree(root / part, into / part, copy_function=os.link)
    for run_id in ids:
        shutil.copytree(runs_dir(root) / run_id, runs_dir(into) / run_id, copy_function=os.link)
        if (joins_dir(root) / run_id).is_dir():
            shutil.copytree(joins_dir(root) / run_id, joins_dir(into) / run_id, copy_function=os.link)
    return into


def first_views(cache: Path, n_runs: int) -> dict[str, float]:
    """A fresh server over ``cache``; each page's first view in a new browser context: seconds until drawn."""
    from playwright.sync_api import sync_playwright

    times: dict[str, float] = {}
    with served(REPO / "app.py", {"COREB_CACHE": str(cache)}, cache.parent / f"server-{n_runs}.log") as (base, _), \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                     headless=True, args=CHROMIUM_ARGS)
        for title, path in PAGES:
            context = browser.new_context(viewport={"width": 1600, "height": 1000})
            context.add_init_script(LAST_CHANGE_INIT_JS)
            tab = context.new_page()
            tab.goto(f"{base}/{path}?release={RELEASE}", wait_until="domcontentloaded")
            tab.wait_for_function(SCRIPT_DONE_JS, timeout=600_000, polling=100)
            times[title] = tab.wait_for_function(PAGE_DRAWN_JS, timeout=600_000, polling=100).json_value() / 1000
            errors = tab.locator('[data-testid="stException"]').count()
            if errors:
                raise SystemExit(f"{title} with {n_runs} runs shows {errors} exception box(es)")
            context.close()
        browser.close()
    return times


def browser_scale(root: Path, ids: list[str], work: Path) -> bool:
    print(f"\nfirst views in chromium (a fresh server per size, joins cached), {load()}")
    found = {}
    for n in BROWSER_SIZES:
        found[n] = first_views(cache_of(root, ids[:n], work / f"cache-{n}"), n)
        print(f"  {n:2d} runs: " + ", ".join(f"{t} {s:.1f} s" for t, s in found[n].items()) + f"  {load()}")
    ok = True
    small, big = BROWSER_SIZES
    for title, _ in PAGES:
        ratio = found[big][title] / found[small][title]
        b = exponent(list(BROWSER_SIZES), [found[small][title], found[big][title]])
        met = ratio <= BROWSER_TARGET
        ok &= met
        print(f"  {title}: {big} runs = {ratio:.1f}x {small} runs (target <= {BROWSER_TARGET:.0f}x): "
              f"{'met' if met else 'MISSED'}; time ~ runs^{b:.2f}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", type=Path, default=REPO.parent / "shared" / "coreb_real")
    parser.add_argument("--cache", type=Path, default=None, help="keep the built cache here (reused next time)")
    parser.add_argument("--browser", action="store_true", help="also time the first views in chromium")
    args = parser.parse_args(argv)
    print(f"{load()} at the start on {os.cpu_count()} cores")
    work = Path(tempfile.mkdtemp(prefix="coreb-scale-"))
    root = args.cache or work / "cache"
    try:
        ids = build(root, args.real)
        ok = select_scale(root, ids)
        if args.browser:
            ok &= browser_scale(root, ids, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n{load()} at the end")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
