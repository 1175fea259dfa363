"""What a fresh clone needs before the first page renders: CoREB-mini and two default runs.

Example:
    >>> ensure_defaults(progress=print)   # builds demo_v2602/demo_v2603, runs minilm and bm25 on demo_v2603
"""
from __future__ import annotations

from pathlib import Path

from coreb_core.progress import Progress, silent
from coreb_core.runs.run import list_runs
from coreb_core.data.store import list_releases

DEFAULT_RELEASE = "demo_v2603"
DEFAULT_MODELS = ("bm25", "minilm")


def needs_defaults(root: Path | None = None) -> bool:
    return not list_releases(root) or (DEFAULT_RELEASE in list_releases(root) and not list_runs(DEFAULT_RELEASE, root))


def ensure_defaults(progress: Progress = silent, root: Path | None = None) -> list[str]:
    """Build CoREB-mini when no release is cached, and the default runs when the demo release has none.
    Returns the run ids created."""
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
