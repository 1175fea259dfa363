"""Chores behind the import boxes of the Run retrieval page: uploaded files saved to a temporary
folder, then imported as a release (``coreb_core.data.ingest``) or as results and runs
(``coreb_core.runs.results``)."""
from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Iterable

from coreb_core.errors import CorebError, DataError, DataProblem

_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,200}$")


def save_uploads(files: Iterable[tuple[str, bytes]], folder: Path) -> list[Path]:
    """Write uploaded (name, bytes) pairs flat into ``folder``; names must be plain file names."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in files:
        base = Path(name).name
        if base != name or not _SAFE_NAME.match(base):
            raise DataError([DataProblem(name, "-", "-", "file names may hold only letters, digits, '_', '-', '.'")])
        (folder / base).write_bytes(data)
        written.append(folder / base)
    return written


def import_dataset(directory: Path, release: str | None = None, split: str | None = None,
                   root: Path | None = None) -> tuple[str, dict[str, int]]:
    """Validate and cache a local copy (hub layout, <config>.parquet folder or runner JSONL).

    Returns (release, rows per config). Raises DataError (one DataProblem per line) or CorebError."""
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local

    layout, found, raw = read_local(Path(directory).expanduser(), split or None)
    name = (release or "").strip() or found
    if not name:
        raise CorebError(f"a {layout} layout names no release: give the release a name")
    import_release(raw, name, root)
    return name, {config: len(table.rows) for config, table in raw.items()}


def import_uploaded_dataset(files: Iterable[tuple[str, bytes]], release: str | None = None,
                            split: str | None = None, root: Path | None = None) -> tuple[str, dict[str, int]]:
    """import_dataset over uploaded files, written to a temporary folder removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="coreb-upload-") as tmp:
        save_uploads(files, Path(tmp))
        return import_dataset(Path(tmp), release, split, root)


def import_uploaded_results(files: Iterable[tuple[str, bytes]], release: str | None = None, task: str | None = None,
                            model: str | None = None, root: Path | None = None):
    """coreb_core.runs.results.import_results over uploaded files (a temporary folder, removed afterwards)."""
    from coreb_core.runs.results import import_results

    with tempfile.TemporaryDirectory(prefix="coreb-results-") as tmp:
        save_uploads(files, Path(tmp))
        return import_results(Path(tmp), release or None, task or None, model or None, root)
