"""Paths typed into the web app (the Run retrieval page's "by path" imports) are read on the server, so
they are confined and checked before anything opens them:

- a path must lie, symlinks resolved, inside an import root: ``$COREB_IMPORT_ROOTS`` (folders joined
  with ``os.pathsep``), by default the repository and the user's home folder. The CLI is its user's own
  shell, which may read any file already: inside ``unconfined()`` (the CLI's commands) the only root is
  the file system's, and the checks below still hold;
- only regular files are read: a FIFO would block the reader for ever, a device such as /dev/zero
  never ends (``os.stat`` tells them apart without opening them);
- no file over ``MAX_FILE_BYTES`` is read.

Example:
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "run.trec").write_text("q1 Q0 d1 1 0.9 bm25\\n")
    >>> os.mkfifo(folder / "pipe")
    >>> files, skipped = readable_files(folder, roots=[folder])
    >>> [f.name for f in files], [s.split(": ", 1)[1] for s in skipped]
    (['run.trec'], ['not a regular file (a FIFO)'])
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import stat
from pathlib import Path
from typing import Iterable, Iterator

from coreb_core.errors import CorebError, DataError, DataProblem
from coreb_core.paths import REPO_ROOT

ROOTS_ENV = "COREB_IMPORT_ROOTS"
MAX_FILE_BYTES = 2 * 1024 ** 3  # far above any CoREB file (the real release's largest is about 10 MB)

_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


_UNCONFINED: contextvars.ContextVar[bool] = contextvars.ContextVar("coreb_unconfined", default=False)


@contextlib.contextmanager
def unconfined() -> Iterator[None]:
    """Paths read inside this block may lie anywhere (the CLI: its user names them in their own shell).
    Special files and the size limit are still refused.

    >>> with unconfined():
    ...     [str(p) for p in import_roots()]
    ['/']
    """
    token = _UNCONFINED.set(True)
    try:
        yield
    finally:
        _UNCONFINED.reset(token)


def import_roots() -> list[Path]:
    """The folders imports may read from, resolved: ``$COREB_IMPORT_ROOTS`` or the repository and home
    (the file system's root inside ``unconfined()``).

    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {ROOTS_ENV: os.pathsep.join(["/srv/data", "/tmp/../opt"])}):
    ...     [str(p) for p in import_roots()]
    ['/srv/data', '/opt']
    """
    if _UNCONFINED.get():
        return [Path(os.sep)]
    configured = os.environ.get(ROOTS_ENV, "")
    if configured.strip():
        folders = [Path(p).expanduser() for p in configured.split(os.pathsep) if p.strip()]
    else:
        folders = [REPO_ROOT, Path.home()]
    return [p.resolve() for p in folders]


def _roots_text() -> str:
    return f"{', '.join(map(str, import_roots()))}; {ROOTS_ENV} sets them"


def allowed_roots(folder: Path) -> list[Path]:
    """The import roots and ``folder`` itself: what files found in ``folder`` (a folder given by the user,
    already checked, or a temporary folder of uploads) may resolve into.

    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {ROOTS_ENV: "/srv/data"}):
    ...     [str(p) for p in allowed_roots(Path("/tmp/uploads/../uploads"))]
    ['/srv/data', '/tmp/uploads']
    """
    return [*import_roots(), Path(folder).resolve()]


def _outside(path: Path, roots: Iterable[Path]) -> bool:
    try:
        resolved = Path(path).resolve()
    except (OSError, RuntimeError):  # a link loop: it leads nowhere we may read
        return True
    return not any(resolved == root or resolved.is_relative_to(root) for root in roots)


def file_problem(path: Path, roots: Iterable[Path] | None = None) -> str | None:
    """Why the file at ``path`` must not be read, or None: outside ``roots`` once links are resolved
    (checked only when ``roots`` is given), not a regular file, or over ``MAX_FILE_BYTES``. Never opens it.

    >>> file_problem(Path("/dev/zero"))
    'not a regular file (a character device)'
    >>> file_problem(Path("/etc/hostname"), roots=[Path("/home")])
    'outside the import folders'
    """
    path = Path(path)
    if roots is not None and _outside(path, roots):
        return "outside the import folders"
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "no such file (or a link to nothing)"
    except OSError as exc:
        return f"cannot read it ({exc.strerror or type(exc).__name__})"
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "a special file")
        return f"not a regular file ({kind})"
    if info.st_size > MAX_FILE_BYTES:
        return f"over the size limit ({info.st_size:,} bytes; at most {MAX_FILE_BYTES:,})"
    return None


def check_file(path: Path, roots: Iterable[Path] | None = None) -> Path:
    """``path`` when ``file_problem`` finds nothing wrong, else a one-line DataError naming it.

    >>> check_file(Path("/dev/zero"))
    Traceback (most recent call last):
    coreb_core.errors.DataError: /dev/zero: row -: field '-': not a regular file (a character device)
    """
    problem = file_problem(path, roots)
    if problem:
        raise DataError([DataProblem(str(path), "-", "-", problem)])
    return Path(path)


def check_input_path(path: str | Path) -> Path:
    """A file or folder path typed by the user, ``~`` expanded; a one-line CorebError naming it when it
    lies outside the import roots (links resolved), does not exist, or is a file ``file_problem`` refuses.

    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {ROOTS_ENV: os.pathsep.join(["/srv/data", "/home/me"])}):
    ...     check_input_path("/etc")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: /etc: outside the import folders (/srv/data, /home/me; COREB_IMPORT_ROOTS sets them)
    """
    if "\x00" in str(path):  # no file name holds one; pathlib would raise ValueError deep inside
        raise CorebError(f"{str(path)!r}: a path cannot hold a NUL character")
    given = Path(path).expanduser()
    # Roots first: whether a path outside them exists is none of the user's business.
    if _outside(given, import_roots()):
        raise CorebError(f"{given}: outside the import folders ({_roots_text()})")
    try:
        is_dir = given.is_dir()
        exists = is_dir or given.exists()
    except OSError as exc:
        raise CorebError(f"{given}: cannot read it ({exc.strerror or type(exc).__name__})") from None
    if not exists:
        raise CorebError(f"{given}: no such file or folder")
    if not is_dir:
        problem = file_problem(given)
        if problem:
            raise CorebError(f"{given}: {problem}")
    return given


def readable_files(folder: Path, roots: Iterable[Path] | None = None) -> tuple[list[Path], list[str]]:
    """Every file under ``folder`` that may be read, sorted, and a ``"PATH: reason"`` line for each one
    that may not (see ``file_problem``) and each sub-folder that cannot be listed. Links to folders are
    not followed; links to files are, when they land inside ``roots`` (default: ``allowed_roots(folder)``).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "zero").symlink_to("/dev/zero")
    >>> (folder / "hosts").symlink_to("/etc/hosts")
    >>> for line in readable_files(folder, roots=[folder, Path("/dev")])[1]:
    ...     print(line.replace(str(folder), "FOLDER"))
    FOLDER/hosts: outside the import folders
    FOLDER/zero: not a regular file (a character device)
    """
    roots = allowed_roots(folder) if roots is None else list(roots)
    files: list[Path] = []
    skipped: list[str] = []

    def unlisted(exc: OSError) -> None:
        skipped.append(f"{exc.filename}: cannot list the folder ({exc.strerror or type(exc).__name__})")

    for top, dirs, names in os.walk(folder, onerror=unlisted):
        dirs.sort()
        for name in sorted(names):
            path = Path(top) / name
            problem = file_problem(path, roots)
            if problem:
                skipped.append(f"{path}: {problem}")
            else:
                files.append(path)
    return sorted(files), skipped
