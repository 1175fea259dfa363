"""What a fresh clone needs before the first page renders: CoREB-mini and two default runs.

Example (an empty cache folder ``root``; builds demo_v2602/demo_v2603 and runs bm25 and minilm on
demo_v2603, which takes minutes, so not doctested):
    >>> needs_defaults(root)
    True
    >>> ensure_defaults(root=root)
    ['bm25__demo_v2603__20261201T063510-68929c', 'minilm-official__demo_v2603__20261201T063729-08715e']
    >>> needs_defaults(root), ensure_defaults(root=root)
    (False, [])
"""
from __future__ import annotations

from pathlib import Path

from coreb_core.progress import Progress, silent
from coreb_core.runs.run import list_runs
from coreb_core.data.store import list_releases

DEFAULT_RELEASE = "demo_v2603"
DEFAULT_MODELS = ("bm25", "minilm")


def needs_defaults(root: Path | None = None) -> bool:
    """Whether ``ensure_defaults`` has work to do: no release cached, or the demo release has no run.

    Example (a cache folder ``root``; not doctested):

    >>> needs_defaults(root)        # empty
    True
    >>> _ = ensure_defaults(root=root)
    >>> needs_defaults(root)
    False
    """
    return not list_releases(root) or (DEFAULT_RELEASE in list_releases(root) and not list_runs(DEFAULT_RELEASE, root))


def ensure_defaults(progress: Progress = silent, root: Path | None = None) -> list[str]:
    """Build CoREB-mini when no release is cached, and the default runs when the demo release has none.
    Returns the run ids created.

    Example (an empty cache folder ``root``; takes minutes, so not doctested):

    >>> ensure_defaults(root=root)
    ['bm25__demo_v2603__20261201T063510-68929c', 'minilm-official__demo_v2603__20261201T063729-08715e']
    >>> ensure_defaults(root=root)   # nothing left to do
    []
    """
    from coreb_core.data.mini.build import build_demo
    from coreb_core.retrieval.pipeline import run_retrieval

    if not list_releases(root):
        build_demo(root=root, progress=lambda m, f: progress(f"building CoREB-mini: {m}", 0.1 * f))
    created = []
    if DEFAULT_RELEASE in list_releases(root) and not list_runs(DEFAULT_RELEASE, root):
        for i, model in enumerate(DEFAULT_MODELS):
            base, span = 0.1 + 0.9 * i / len(DEFAULT_MODELS), 0.9 / len(DEFAULT_MODELS)
            result = run_retrieval(model, DEFAULT_RELEASE, root=root,
                                   progress=lambda m, f, model=model: progress(f"default run {model}: {m}", base + span * f))
            created.append(result.run_id)
    progress("ready", 1.0)
    return created
