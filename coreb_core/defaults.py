"""What a fresh clone needs: a benchmark and two default runs. The benchmark is the real CoREB when it can be
had (``COREB_DATA=DIR``: a local copy, imported; else the hub, fetched with progress when it answers) and
CoREB-mini otherwise (offline, bundled). The first page waits only for the fast part (the data and the BM25
run, seconds); the MiniLM run (minutes on a CPU) is then a background job on the job board
(``coreb_core.retrieval.jobs``), shown and cancellable in every page's sidebar like a user's run.

Example (a fresh cache folder beside ``root``; the MiniLM job is cancelled before it loads anything):

    >>> import tempfile
    >>> fresh = Path(tempfile.mkdtemp(dir=root.parent))
    >>> needs_defaults(fresh)
    True
    >>> ensure_defaults(root=fresh, models=FIRST_MODELS)         # what the first page waits for (seconds)
    ['bm25__demo_v2603__...']
    >>> job = start_later_default(fresh)                         # the rest: a background job
    >>> board(fresh).wait(job).run_id                            # minutes on a CPU   # doctest: +SKIP
    'minilm-official__demo_v2603__...'
    >>> board(fresh).cancel(job); first_page_rendered(); board(fresh).wait(job).status
    'cancelled'
    >>> needs_defaults(fresh), ensure_defaults(root=fresh, models=FIRST_MODELS)
    (False, [])
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

from coreb_core.data.schema import HUB_RELEASES
from coreb_core.data.store import list_releases
from coreb_core.paths import cache_root, runs_dir
from coreb_core.progress import Progress, part_of, silent
from coreb_core.retrieval.jobs import DEFAULT, RunRequest, board
from coreb_core.runs.folders import list_runs

DEFAULT_RELEASE = "demo_v2603"  # CoREB-mini's test release: the offline default
REAL_RELEASE = "release_v2603"  # the real test release, the default whenever it is cached
DATA_ENV = "COREB_DATA"  # a local copy of the real CoREB for the first launch (a release folder or their parent)
FIRST_MODELS = ("bm25",)  # seconds: the first page waits for these
LATER_MODEL = "minilm"  # minutes on a CPU: a background job once the first page has rendered
DEFAULT_MODELS = (*FIRST_MODELS, LATER_MODEL)


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

    Example (fresh cache folders beside ``root``, offline; importing the real copy takes minutes, so is skipped):

    >>> import tempfile
    >>> first_data(root=Path(tempfile.mkdtemp(dir=root.parent)))
    'built CoREB-mini'
    >>> os.environ["COREB_DATA"] = "../shared/coreb_real"                   # doctest: +SKIP
    >>> first_data(root=Path(tempfile.mkdtemp(dir=root.parent)))            # doctest: +SKIP
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

    Example (CoREB-mini and a BM25 run in ``root``; then a fresh cache folder):

    >>> needs_defaults(root)
    False
    >>> import tempfile
    >>> fresh = Path(tempfile.mkdtemp(dir=root.parent))
    >>> needs_defaults(fresh)        # empty
    True
    >>> _ = ensure_defaults(root=fresh, models=FIRST_MODELS)
    >>> needs_defaults(fresh)
    False
    """
    releases = list_releases(root)
    return not releases or (default_release(releases) in (REAL_RELEASE, DEFAULT_RELEASE)
                            and not list_runs(default_release(releases), root))


def ensure_defaults(progress: Progress = silent, root: Path | None = None,
                    models: tuple[str, ...] = DEFAULT_MODELS) -> list[str]:
    """Cache a benchmark when none is (``first_data``), and runs of ``models`` when the default release has
    none. Returns the run ids created.

    Example (a fresh cache folder beside ``root``; the default models' MiniLM run takes minutes, so is skipped):

    >>> import tempfile
    >>> fresh = Path(tempfile.mkdtemp(dir=root.parent))
    >>> ensure_defaults(root=fresh, models=FIRST_MODELS)
    ['bm25__demo_v2603__...']
    >>> ensure_defaults(root=fresh)   # nothing left to do: the default release has a run
    []
    >>> ensure_defaults(root=Path(tempfile.mkdtemp(dir=root.parent)))       # doctest: +SKIP
    ['bm25__demo_v2603__...', 'minilm-official__demo_v2603__...']
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


_FIRST_PAGE = threading.Event()  # set by first_page_rendered: the default job may start loading
FIRST_PAGE_WAIT_S = 30.0  # start anyway after this long (a first page that stopped early never says so)
_STARTED: dict[str, str | None] = {}  # per cache folder: the default job this process submitted (None: none needed)
_LOCK = threading.Lock()


def first_page_rendered() -> None:
    """Let the default job start: the app calls this once its first page has rendered, so that loading a
    model (seconds of CPU and the GIL) does not slow that page down.

    >>> first_page_rendered(); _FIRST_PAGE.is_set()
    True
    """
    _FIRST_PAGE.set()


def start_later_default(root: Path | None = None, model: str = LATER_MODEL) -> str | None:
    """Submit the default run of ``model`` on the default release, when that release lacks one, to the job
    board (``coreb_core.retrieval.jobs``: its progress and Cancel show in every page's sidebar), at most
    once per process and cache folder; the job id, or None when nothing was needed. The job waits for
    ``first_page_rendered`` (at most ``FIRST_PAGE_WAIT_S``) before it loads anything.

    Example (CoREB-mini and a BM25 run in ``root``; the MiniLM job is cancelled before it loads anything):

    >>> job = start_later_default(root)
    >>> board(root).state(job).origin, start_later_default(root) == job == later_default(root)
    ('default', True)
    >>> board(root).cancel(job); first_page_rendered(); board(root).wait(job).status
    'cancelled'
    """
    root = root or cache_root()  # pinned now: the job must not follow a later change of COREB_CACHE
    key = str(runs_dir(root).resolve())
    with _LOCK:
        if key not in _STARTED:
            release = _default_release(root)
            needed = model not in {m.model for m in list_runs(release, root)}
            _STARTED[key] = (board(root).submit(RunRequest(model, release), root=root, origin=DEFAULT,
                                                after=_FIRST_PAGE, after_timeout_s=FIRST_PAGE_WAIT_S)
                             if needed else None)
        return _STARTED[key]


def later_default(root: Path | None = None) -> str | None:
    """The default job ``start_later_default`` submitted in this process for this cache (none: None).

    >>> later_default(Path("/nonexistent-cache")) is None
    True
    """
    return _STARTED.get(str(runs_dir(root).resolve()))
