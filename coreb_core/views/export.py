"""A stored run written in another format (the ``export`` verb): TREC, the official runner's JSON, an MTEB result."""
from __future__ import annotations

from pathlib import Path

from coreb_core.evaluation.export import export_run


def export(run_id: str, fmt: str, out: Path | str, root: Path | None = None) -> Path:
    """Write the stored run ``run_id`` in ``fmt`` (one of ``evaluation.export.FORMATS``) at ``out``; the file or
    folder written (``export_run``: refused in one line when ``out`` cannot take it)."""
    return export_run(run_id, fmt, out, root)
