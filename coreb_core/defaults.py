"""What a fresh clone needs: a benchmark and two default runs. The benchmark is the real CoREB when it can be
had (``COREB_DATA=DIR``: a local copy, imported; else the hub, fetched with progress when it answers) and
CoREB-mini otherwise (offline, bundled). The first page waits only for the fast part (the data and the BM25
run, seconds); the MiniLM run (minutes on a CPU) is built after it, in a background thread the app starts
once per process and whose state it shows.

Example (an empty cache folder ``root``; builds demo_v2602/demo_v2603 and runs bm25 and minilm on
demo_v2603, which takes minutes, so not doctested):
    >>> needs_defaults(root)
    True
    >>> ensure_defaults(root=root, models=FIRST_MODELS)          # what the first page waits for
    ['bm25__demo_v2603__20261201T063510-68929c']
    >>> [b.model for b in start_later_defaults(root)]            # the rest, in a background thread
    ['minilm']
    >>> [b.wait().run_id for b in later_defaults(root)]
    ['minilm-official__demo_v2603__20261201T063729-08715e']
    >>> needs_defaults(root), ensure_defaults(root=root)
    (False, [])
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from coreb_core.data.schema import HUB_RELEASES
from coreb_core.data.store import list_releases
from coreb_core.paths import cache_root, runs_dir
from coreb_core.progress import Progress, part_of, silent
from coreb_core.runs.folders import list_runs

DEFAULT_RELEASE = "demo_v2603"  # CoREB-mini's test release: the offline default
REAL_RELEASE = "release_v2603"  # the real test release, the default whenever it is cached
DATA_ENV = "COREB_DATA"  # a local copy of the real CoREB for the first launch (a release folder or their parent)
DEFAULT_MODELS = ("bm25", "minilm")
FIRST_MODELS = ("bm25",)  # seconds: the first page waits for these
LATER_MODELS = ("minilm",)  # minutes on a CPU: built after the first page renders


def default_release(releases: list[str]) -> str | None:
    """The release pages open on: the real test release when cached, else CoREB-mini's, else the last one.

    >>> default_release(["demo_v2602", "demo_v2603"]), default_release(["demo_v2603", "release_v2603"])
    ('demo_v2603', 'release_v2603')
    >>> default_release([])
    """
    for name in (REAL_RELEASE, DEFAULT_RELEASE):
        if name in releases:
            return name
    return releases[-1] if releases else None


def _default_release(root: Path | None) -> str:
    return default_release(list_releases(root)) or DEFAULT_RELEASE


def first_data(progress: Progress = silent, root: Path | None = None) -> str:
    """Cache a benchmark on a first launch and say which: ``COREB_DATA`` (every release of the local copy it
    names), else the hub (both releases, when it answers and no offline variable is set), else CoREB-mini.
    A bad ``COREB_DATA`` is an error (the user asked for it); an unreachable hub falls back quietly.

    Example (an empty cache folder ``root``; not doctested):

    >>> os.environ["COREB_DATA"] = "../shared/coreb_real"
    >>> first_data(root=root)
    'imported release_v2602, release_v2603 from ../shared/coreb_real'
    """
    from coreb_core.data.mini.build import build_demo
    from coreb_core.data.sources import offline_flag, read_hub
    from coreb_core.errors import NetworkUnavailable
    from coreb_core.results.uploads import import_dataset

    local = os.environ.get(DATA_ENV, "").strip()
    if local:
        from coreb_core.data.sources import detect_layout, release_folders

        folder = Path(local).expanduser()
        splits = (sorted(release_folders(folder)) if folder.is_dir() and detect_layout(folder) == "releases"
                  else [None])
        names = []
        for i, split in enumerate(splits):
            progress(f"importing {split or folder.name} from {local}", 0.3 * i / len(splits))
            names.append(import_dataset(folder, split=split, root=root)[0])
        return f"imported {', '.join(names)} from {local}"
    if not offline_flag():
        from coreb_core.data.ingest import import_release

        try:
            for i, release in enumerate(HUB_RELEASES):
                step = lambda m, f, i=i, release=release: progress(f"fetching {release} from the hub: {m}",  # noqa: E731
                                                  0.3 * (i + f) / len(HUB_RELEASES))
                import_release(read_hub(release, progress=step), release, root)
            return f"fetched {', '.join(HUB_RELEASES)} from the hub"
        except NetworkUnavailable:
            pass  # offline: the bundled benchmark
    # Recorded verdicts for every language (Python's too): seconds, not a run of every solution's tests;
    # `python -m coreb_core demo` executes the Python ones again.
    build_demo(root=root, progress=lambda m, f: progress(f"building CoREB-mini: {m}", 0.3 * f), execute_python=False)
    return "built CoREB-mini"


def needs_defaults(root: Path | None = None) -> bool:
    """Whether ``ensure_defaults`` has work to do: no release cached, or the default release has no run.

    Example (a cache folder ``root``; not doctested):

    >>> needs_defaults(root)        # empty
    True
    >>> _ = ensure_defaults(root=root)
    >>> needs_defaults(root)
    False
    """
    releases = list_releases(root)
    return not releases or (default_release(releases) in (REAL_RELEASE, DEFAULT_RELEASE)
                            and not list_runs(default_release(releases), root))


def ensure_defaults(progress: Progress = silent, root: Path | None = None,
                    models: tuple[str, ...] = DEFAULT_MODELS) -> list[str]:
    """Cache a benchmark when none is (``first_data``), and runs of ``models`` when the default release has
    none. Returns the run ids created.

    Example (an empty cache folder ``root``; takes minutes, so not doctested):

    >>> ensure_defaults(root=root)
    ['bm25__demo_v2603__20261201T063510-68929c', 'minilm-official__demo_v2603__20261201T063729-08715e']
    >>> ensure_defaults(root=root)   # nothing left to do
    []
    """
    from coreb_core.retrieval.pipeline import run_retrieval

    building = not list_releases(root)
    if building:
        first_data(progress, root)
    created = []
    release = _default_release(root)
    if release in (REAL_RELEASE, DEFAULT_RELEASE) and not list_runs(release, root):
        start = 0.3 if building else 0.0
        for i, model in enumerate(models):
            base, span = start + (1 - start) * i / len(models), (1 - start) / len(models)
            result = run_retrieval(model, release, root=root,
                                   progress=part_of(progress, f"default run {model}: ", base, span))
            created.append(result.run_id)
    progress("ready", 1.0)
    return created


@dataclass
class BackgroundRun:
    """One default run built in a background thread: what it is doing, and its run id or error when done.
    The app reads these fields to say so; ``wait`` blocks until the build ends.

    >>> build = BackgroundRun("minilm", started=time.monotonic() - 12.4)
    >>> build.done, round(build.elapsed()), build.message
    (False, 12, 'waiting for the first page to render')
    """
    model: str
    started: float = field(default_factory=time.monotonic)
    message: str = "waiting for the first page to render"
    fraction: float = 0.0
    run_id: str | None = None  # set when the run is stored
    error: str | None = None  # one line, set when the build failed
    finished: float | None = None
    thread: threading.Thread | None = field(default=None, repr=False)

    @property
    def done(self) -> bool:
        return self.finished is not None

    def elapsed(self) -> float:
        """Seconds since the build started (until it finished, once done)."""
        return (self.finished or time.monotonic()) - self.started

    def wait(self, timeout: float | None = None) -> BackgroundRun:
        """Block until the build ends (or ``timeout`` seconds pass); returns itself."""
        if self.thread is not None:
            self.thread.join(timeout)
        return self

    def report(self, message: str, fraction: float) -> None:
        """The ``Progress`` the build reports to (called from the build thread)."""
        self.message, self.fraction = message, fraction


_BUILDS: dict[str, list[BackgroundRun]] = {}  # per cache folder: this process's background builds
_LOCK = threading.Lock()
_FIRST_PAGE = threading.Event()  # set by first_page_rendered: the background builds may start
FIRST_PAGE_WAIT_S = 30.0  # start anyway after this long (a first page that stopped early never says so)


def first_page_rendered() -> None:
    """Let the background builds start: the app calls this once its first page has rendered, so that
    loading a model (seconds of CPU and the GIL) does not slow that page down.

    >>> first_page_rendered(); _FIRST_PAGE.is_set()
    True
    """
    _FIRST_PAGE.set()


def build_default_run(build: BackgroundRun, root: Path | None = None) -> BackgroundRun:
    """Build one default run on the default release, recording progress, run id or error in ``build``.
    Runs in the calling thread; ``start_later_defaults`` calls it from a background thread.

    Example (CoREB-mini in a cache folder ``root``; takes minutes for minilm, so not doctested):

    >>> build_default_run(BackgroundRun("bm25"), root).run_id
    'bm25__demo_v2603__20261201T063510-68929c'
    """
    from coreb_core.retrieval.pipeline import run_retrieval

    try:
        build.run_id = run_retrieval(build.model, _default_release(root), root=root, progress=build.report).run_id
        build.report("done", 1.0)
    except Exception as exc:  # noqa: BLE001 (a background thread has nobody to raise to: the app shows it)
        build.error = " ".join(str(exc).split()) or type(exc).__name__
    finally:
        build.finished = time.monotonic()
    return build


def start_later_defaults(root: Path | None = None, models: tuple[str, ...] = LATER_MODELS) -> list[BackgroundRun]:
    """Start building the default runs of ``models`` the default release lacks, in one background thread, at
    most once per process and cache folder (a second call returns the first call's builds). The thread
    waits for ``first_page_rendered`` (at most ``FIRST_PAGE_WAIT_S``) before it loads anything.

    Example (CoREB-mini and its BM25 run in a cache folder ``root``; takes minutes, so not doctested):

    >>> [(b.model, b.done) for b in start_later_defaults(root)]
    [('minilm', False)]
    >>> start_later_defaults(root) == later_defaults(root)
    True
    """
    root = root or cache_root()  # pinned now: the thread must not follow a later change of COREB_CACHE
    key = str(runs_dir(root).resolve())
    with _LOCK:
        if key in _BUILDS:
            return _BUILDS[key]
        have = {m.model for m in list_runs(_default_release(root), root)}
        builds = [BackgroundRun(model) for model in models if model not in have]
        _BUILDS[key] = builds
    if builds:
        def work() -> None:
            _FIRST_PAGE.wait(FIRST_PAGE_WAIT_S)
            for build in builds:  # one after another: two encoders at once would share the same cores
                build.started = time.monotonic()
                build_default_run(build, root)

        thread = threading.Thread(target=work, name="coreb-default-runs", daemon=True)
        for build in builds:
            build.thread = thread
        thread.start()
    return builds


def later_defaults(root: Path | None = None) -> list[BackgroundRun]:
    """The background builds ``start_later_defaults`` started in this process for this cache (none: []).

    >>> later_defaults(Path("/nonexistent-cache"))
    []
    """
    return _BUILDS.get(str(runs_dir(root).resolve()), [])
