"""Chores behind the import boxes of the Run retrieval page: uploaded files saved to a temporary
folder, then imported as a release (``coreb_core.data.ingest``) or as results and runs
(``coreb_core.results.imported``)."""
from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Iterable

from coreb_core.errors import CorebError, DataError, DataProblem
from coreb_core.progress import Progress, silent

_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,200}$")
# One upload: a hub-layout release is 8 parquet files, a result tree a few hundred small JSONs. Streamlit
# caps each file (.streamlit/config.toml: server.maxUploadSize); these cap the batch before anything is written.
MAX_UPLOAD_FILES = 500
MAX_UPLOAD_BYTES = 1 << 30


def save_uploads(files: Iterable[tuple[str, bytes]], folder: Path) -> list[Path]:
    """Write uploaded (name, bytes) pairs flat into ``folder``; names must be plain file names.

    >>> folder = Path(tempfile.mkdtemp())
    >>> [p.name for p in save_uploads([("run.trec", b"q1 Q0 d1 1 0.9 bm25\\n")], folder)]
    ['run.trec']
    >>> save_uploads([("../evil.txt", b"")], folder)
    Traceback (most recent call last):
    coreb_core.errors.DataError: ../evil.txt: row -: field '-': file names may hold only letters, digits, '_', '-', '.'
    >>> save_uploads([(f"r{i}.trec", b"") for i in range(MAX_UPLOAD_FILES + 1)], folder)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: 501 files uploaded at once: at most 500 (import a larger folder by path)
    """
    files = list(files)
    if len(files) > MAX_UPLOAD_FILES:
        raise CorebError(f"{len(files):,} files uploaded at once: at most {MAX_UPLOAD_FILES:,} "
                         "(import a larger folder by path)")
    total = sum(len(data) for _, data in files)
    if total > MAX_UPLOAD_BYTES:
        raise CorebError(f"{total / 2**20:,.0f} MiB uploaded at once: at most {MAX_UPLOAD_BYTES / 2**20:,.0f} MiB "
                         "(import a larger folder by path)")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in files:
        base = Path(name).name
        if base != name or not _SAFE_NAME.match(base):
            raise DataError([DataProblem(name, "-", "-", "file names may hold only letters, digits, '_', '-', '.'")])
        (folder / base).write_bytes(data)
        written.append(folder / base)
    return written


def _uploaded(text: str, folder: Path) -> str:
    """``text`` with the temporary upload folder taken out of every path: an uploaded file is named as the
    user named it, and the server's temporary folder is never shown.

    >>> _uploaded("/tmp/coreb-results-x1/run.trec: row 2: field 'score': not a number", Path("/tmp/coreb-results-x1"))
    "run.trec: row 2: field 'score': not a number"
    >>> _uploaded("/tmp/coreb-upload-x2: a jsonl layout names no release", Path("/tmp/coreb-upload-x2"))
    'the uploaded files: a jsonl layout names no release'
    """
    for base in dict.fromkeys((str(folder), str(folder.resolve()))):  # /tmp may be a link (macOS)
        text = text.replace(base + "/", "").replace(base, "the uploaded files")
    return text


def _uploaded_error(exc: CorebError, folder: Path) -> CorebError:
    """The same error, its paths named as uploaded (``_uploaded``)."""
    if isinstance(exc, DataError):
        return DataError([DataProblem(_uploaded(p.file, folder), p.row, p.field, _uploaded(p.message, folder),
                                      p.value) for p in exc.problems])
    return CorebError(_uploaded(str(exc), folder))


def import_dataset(directory: Path, release: str | None = None, split: str | None = None,
                   root: Path | None = None) -> tuple[str, dict[str, int]]:
    """Validate and cache a local copy (hub layout, <config>.parquet folder or runner JSONL).

    Returns (release, rows per config). Raises DataError (one DataProblem per line) or CorebError.

    Example (CoREB-mini in ``root``; its release folder is itself a ``<config>.parquet`` folder):

    >>> from coreb_core.paths import release_dir
    >>> import_dataset(release_dir("demo_v2603", root), "demo_copy", root=root)
    ('demo_copy', {'code_corpus': 307, 'text_corpus': 120, 'text2code_queries': 720, 'code2code_queries': 144,
                   'code2text_queries': 336, 'text2code_qrels': 4736, 'code2code_qrels': 792, 'code2text_qrels': 1200})
    """
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local

    layout, found, raw = read_local(Path(directory).expanduser(), split or None)
    name = release if (release or "").strip() else found  # a name is checked as given, never trimmed
    if not name:
        raise CorebError(f"{directory}: a {layout} layout names no release: give the release a name (--release NAME)")
    import_release(raw, name, root)
    return name, {config: len(table.rows) for config, table in raw.items()}


def import_uploaded_dataset(files: Iterable[tuple[str, bytes]], release: str | None = None,
                            split: str | None = None, root: Path | None = None) -> tuple[str, dict[str, int]]:
    """import_dataset over uploaded files, written to a temporary folder removed afterwards.

    Example (CoREB-mini in ``root``):

    >>> from coreb_core.paths import release_dir
    >>> files = [(p.name, p.read_bytes()) for p in sorted(release_dir("demo_v2603", root).glob("*.parquet"))]
    >>> import_uploaded_dataset(files, "demo_upload", root=root)[1]["text2code_queries"]
    720
    """
    with tempfile.TemporaryDirectory(prefix="coreb-upload-") as tmp:
        save_uploads(files, Path(tmp))
        try:
            return import_dataset(Path(tmp), release, split, root)
        except CorebError as exc:
            raise _uploaded_error(exc, Path(tmp)) from None


def import_uploaded_results(files: Iterable[tuple[str, bytes]], release: str | None = None, task: str | None = None,
                            model: str | None = None, root: Path | None = None, progress: Progress = silent):
    """coreb_core.results.imported.import_results over uploaded files (a temporary folder, removed afterwards).

    Example (CoREB-mini in ``root``):

    >>> trec = b"q_t2c_canonical_retro_any_0001 Q0 code_v202603_00018 1 12.5 bm25\\n"
    >>> report = import_uploaded_results([("bm25.trec", trec)], "demo_v2603", root=root)
    >>> report.imported, report.rows, report.runs   # doctest: +ELLIPSIS
    (1, 0, ['bm25__demo_v2603__...'])
    """
    from coreb_core.results.imported import import_results

    with tempfile.TemporaryDirectory(prefix="coreb-results-") as tmp:
        save_uploads(files, Path(tmp))
        try:
            report = import_results(Path(tmp), release or None, task or None, model or None, root, uploaded=True,
                                    progress=progress)
        except CorebError as exc:
            raise _uploaded_error(exc, Path(tmp)) from None
        return report._replace(skipped=[_uploaded(line, Path(tmp)) for line in report.skipped])
