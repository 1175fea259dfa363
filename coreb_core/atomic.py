"""Atomic writes: write beside the target under a temporary name, then rename into place.

A rename within one folder is atomic on POSIX, so a reader sees the old file (or folder) or the new
one, never a half-written one; a writer killed midway leaves at most the temporary, which readers
ignore (their names start with a dot or end in ``.tmp``). A writer that fails with an exception
removes its temporary.

Example:
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> atomic_write_text(folder / "a.txt", "hello")
    >>> (folder / "a.txt").read_text()
    'hello'
"""
from __future__ import annotations

import os
import shutil
import stat
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

from coreb_core.errors import CorebError
from coreb_core.input_paths import file_problem
from coreb_core.paths import cache_root


def default_tmp(path: Path) -> Path:
    """``.<name>.tmp`` beside ``path``: hidden, and in the same folder so the rename stays atomic.

    >>> default_tmp(Path("cache/results/results.parquet")).as_posix()
    'cache/results/.results.parquet.tmp'
    """
    return path.with_name(f".{path.name}.tmp")


def check_target(path: Path | str, folder: bool = False, hint: str = "name a file", cache: Path | None = None) -> Path:
    """``path`` itself when a file (or, with ``folder``, a folder) the user named can be written there; else a
    one-line CorebError, before any work. Refused: a file path that is a folder; a folder path that is a file;
    any existing path that is not a regular file or a folder (a FIFO, a device such as /dev/null, a socket:
    the final rename would put a regular file in its place, for the whole machine when run as root); a path
    inside the cache folder (``cache``, default ``cache_root()``; links resolved), which only the cache's own
    writers change; a nearest existing parent that is a file or not writable.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_target(folder / "new" / "run.trec").name
    'run.trec'
    >>> check_target(folder, hint="name a file such as run.trec")   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: ... is a folder; name a file such as run.trec
    >>> _ = (folder / "f").write_text("")
    >>> check_target(folder / "f", folder=True)   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: .../f is a file; name a folder
    >>> check_target(folder / "f" / "out", folder=True)   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: cannot write .../f/out: .../f is not a folder
    >>> check_target(Path("/dev/null"), hint="name a file such as report.html")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: /dev/null: not a regular file (a character device); name a file such as report.html
    >>> check_target(folder / "cache" / "runs" / "r1", folder=True, cache=folder / "cache")   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: .../cache/runs/r1: inside the cache folder .../cache; write outside it

    A path as typed (a string) is refused empty, and, for a file, ending in ``/`` (a folder, as for ``cp``):
    ``Path`` would read ``''`` as ``.`` and ``newdir/`` as a file ``newdir``.

    >>> check_target("", hint="name a file such as run.trec")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: an empty path names no file (it would be the current folder); name a file such as run.trec
    >>> check_target("newdir/", hint="name a file such as run.trec")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: newdir/ ends with '/', so it names a folder; name a file such as newdir/run.trec
    """
    if isinstance(path, str):
        if not path:
            raise CorebError(f"an empty path names no {'folder' if folder else 'file'} (it would be the current "
                             f"folder); {hint}")
        if not folder and path.endswith(("/", os.sep)):  # was: written as a file named newdir
            words, such, example = hint.rpartition(" such as ")
            raise CorebError(f"{path} ends with '/', so it names a folder; "
                             + (f"{words} such as {path}{example}" if such else hint))
    if "\x00" in str(path):  # no file name holds one; os.stat would raise ValueError
        raise CorebError(f"{str(path)!r}: a path cannot hold a NUL character")
    path = Path(path)
    try:
        info: os.stat_result | None = os.stat(path)  # follows links: a link to /dev/null is /dev/null
    except (FileNotFoundError, NotADirectoryError):  # new (or under a file: said below)
        info = None
    except OSError as exc:  # a link loop, a folder that cannot be searched
        raise CorebError(f"cannot write {path}: {exc.strerror or type(exc).__name__}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        if not folder:
            raise CorebError(f"{path} is a folder; {hint}")
    elif info is not None and not stat.S_ISREG(info.st_mode):
        raise CorebError(f"{path}: {file_problem(path)}; {'name a folder' if folder else hint}")
    elif info is not None and folder:
        raise CorebError(f"{path} is a file; name a folder")
    root = Path(cache if cache is not None else cache_root()).resolve()
    resolved = path.resolve()
    if resolved == root or resolved.is_relative_to(root):
        raise CorebError(f"{path}: inside the cache folder {root}; write outside it")
    nearest = path.absolute() if folder and info is not None else path.absolute().parent
    while not nearest.exists():
        nearest = nearest.parent
    if not nearest.is_dir():
        raise CorebError(f"cannot write {path}: {nearest} is not a folder")
    if not os.access(nearest, os.W_OK | os.X_OK):
        raise CorebError(f"cannot write {path}: {nearest} is not writable")
    return path


STALE_TEMP_S = 3600.0  # a temporary nothing was written to for an hour: its writer is gone (as embeddings.STALE_TMP_S)


def is_temp_name(name: str) -> bool:
    """Whether ``name`` is one of the temporaries this project's writers make: hidden and ending in ``.tmp``
    (``default_tmp``, ``.<name>.<pid>.tmp``, the reranker's work folder) or a ``.tmp-…`` folder (a run, an import).

    >>> [is_temp_name(n) for n in (".hits.parquet.tmp", ".tmp-bm25__demo__x", "shard-1.npz.tmp", "run.tmp", "r1")]
    [True, True, True, False, False]
    """
    return name.startswith(".tmp-") or name.endswith(".tmp") and (name.startswith(".") or name.startswith("shard-"))


def _newest_mtime(path: Path) -> float:
    """The latest modification time of ``path`` and, for a folder, of anything inside it (a writer adding files or
    appending to one keeps it recent)."""
    newest = os.lstat(path).st_mtime
    if path.is_dir() and not path.is_symlink():
        for inner in path.rglob("*"):
            try:
                newest = max(newest, os.lstat(inner).st_mtime)
            except OSError:
                pass
    return newest


def remove_stale_temps(folders: Iterator[Path] | list[Path], max_age_s: float = STALE_TEMP_S,
                       now: float | None = None, suffixes: tuple[str, ...] | None = None) -> list[Path]:
    """Remove the temporaries (``is_temp_name``) directly inside each of ``folders`` that nothing was written to for
    ``max_age_s`` seconds: what a killed writer leaves (a sweep's ``.tmp-<run>`` folder, an embedding shard's
    ``.tmp``, a half-written ``--out``). The rule is age only: a temporary's name carries no process that could be
    asked whether it still lives (and a cache shared by Ray workers has other machines' processes), while a live
    writer keeps its temporary recent. With ``suffixes``, only ``default_tmp``'s temporaries of files ending so
    (``.x.jsonl.tmp``): in a user's folder, where other programs' temporaries may lie. Returns what was removed; a
    folder that does not exist is skipped.

    >>> import tempfile, time
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name in (".old.tmp", ".new.tmp", "keep.jsonl"):
    ...     _ = (folder / name).write_text("x")
    >>> os.utime(folder / ".old.tmp", (time.time() - 7200, time.time() - 7200))
    >>> [p.name for p in remove_stale_temps([folder])], sorted(p.name for p in folder.iterdir())
    (['.old.tmp'], ['.new.tmp', 'keep.jsonl'])
    """
    removed = []
    now = time.time() if now is None else now
    for folder in folders:
        try:
            entries = [e for e in Path(folder).iterdir() if is_temp_name(e.name) and (
                suffixes is None or e.name.startswith(".") and e.name.removesuffix(".tmp").endswith(suffixes))]
        except OSError:  # absent, or not a folder
            continue
        for entry in entries:
            try:
                if now - _newest_mtime(entry) <= max_age_s:
                    continue
            except OSError:  # gone meanwhile (its writer renamed it into place)
                continue
            _remove(entry)
            removed.append(entry)
    return removed


def remove_stale_cache_temps(root: Path | None = None) -> list[Path]:
    """``remove_stale_temps`` in the cache folders a run, a sweep or a mining writes to: ``runs/`` (its ``.tmp-<run>``
    folders), each ``embeddings/<identity>/`` (shard temporaries), ``joins/`` and each of its folders. Called as a
    sweep or ``mine`` starts (was: a killed one's temporaries stayed forever)."""
    from coreb_core.paths import embeddings_dir, joins_dir, runs_dir

    base = Path(root or cache_root())
    folders = [runs_dir(base), joins_dir(base)]
    for parent in (embeddings_dir(base), joins_dir(base), joins_dir(base) / "@release"):
        try:
            folders += [f for f in parent.iterdir() if f.is_dir() and not is_temp_name(f.name)]
        except OSError:
            pass
    return remove_stale_temps(folders)


def _remove(path: Path) -> None:
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()
    except OSError:
        pass


@contextmanager
def atomic_path(path: Path, tmp: Path | None = None) -> Iterator[Path]:
    """Yield a temporary path for a writer that takes a path (``to_parquet``, ``write_table``); on
    success it replaces ``path``. The parent folder is created.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with atomic_path(folder / "sub" / "a.txt") as tmp:
    ...     _ = tmp.write_text("written under " + tmp.name)
    >>> (folder / "sub" / "a.txt").read_text(), sorted(p.name for p in (folder / "sub").iterdir())
    ('written under .a.txt.tmp', ['a.txt'])
    """
    path = Path(path)
    tmp = Path(tmp) if tmp is not None else default_tmp(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        yield tmp
        _check_replaceable(path)
        os.replace(tmp, path)
    except OSError as exc:
        _remove(tmp)
        raise _named(exc, path) from None
    except BaseException:
        _remove(tmp)
        raise


def _check_replaceable(path: Path) -> None:
    """A CorebError when the entry at ``path`` (the link itself, not its target) is a FIFO, a device or a
    socket: the rename would put a regular file in its place. The last guard; ``check_target`` says it first.

    >>> _check_replaceable(Path("/dev/null"))
    Traceback (most recent call last):
    coreb_core.errors.CorebError: /dev/null: not a regular file (a character device); not replaced
    """
    try:
        mode = os.lstat(path).st_mode
    except OSError:  # absent (the usual case): the rename makes it
        return
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode) or stat.S_ISDIR(mode)):
        raise CorebError(f"{path}: {file_problem(path)}; not replaced")


def _named(exc: OSError, path: Path) -> OSError:
    """``exc`` with ``path`` as its file name when it has none (a full disk's write: "No space left on device"
    alone would not say which file), so that ``errors.file_error`` names it.

    >>> str(_named(OSError(28, "No space left on device"), Path("/srv/out/run.trec")))
    "[Errno 28] No space left on device: '/srv/out/run.trec'"
    """
    if exc.filename is not None or exc.errno is None:
        return exc
    return OSError(exc.errno, exc.strerror, str(path))  # OSError picks the subclass of the errno


@contextmanager
def atomic_open(path: Path, mode: str = "wb", tmp: Path | None = None, fsync: bool = False,
                encoding: str | None = None) -> Iterator[IO]:
    """Yield a file object open on a temporary file; on success it is (optionally fsynced and)
    renamed onto ``path``.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with atomic_open(folder / "a.txt", "w", encoding="utf-8") as f:
    ...     _ = f.write("hello")
    >>> (folder / "a.txt").read_text()
    'hello'
    """
    with atomic_path(path, tmp) as tmp_path:
        with open(tmp_path, mode, encoding=encoding) as f:
            yield f
            if fsync:
                f.flush()
                os.fsync(f.fileno())


def atomic_write_bytes(path: Path, data: bytes, tmp: Path | None = None) -> None:
    """Replace ``path`` with ``data`` in one atomic step.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> atomic_write_bytes(folder / "a.bin", b"\\x00\\x01")
    >>> (folder / "a.bin").read_bytes()
    b'\\x00\\x01'
    """
    with atomic_open(path, "wb", tmp) as f:
        f.write(data)


def atomic_write_text(path: Path, text: str, tmp: Path | None = None, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` in one atomic step.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> atomic_write_text(folder / "a.txt", "hello")
    >>> (folder / "a.txt").read_text()
    'hello'
    """
    with atomic_open(path, "w", tmp, encoding=encoding) as f:
        f.write(text)


@contextmanager
def atomic_folder(path: Path, tmp: Path, create: bool = True) -> Iterator[Path]:
    """Yield ``tmp`` (created unless ``create`` is False, for writers such as ``copytree`` that make
    it themselves) to be filled; on success it is renamed to ``path``, on failure removed.
    ``path`` must not exist yet (a folder cannot replace a non-empty folder).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with atomic_folder(folder / "run", folder / ".tmp-run") as tmp:
    ...     _ = (tmp / "hits.parquet").write_bytes(b"")
    >>> sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))
    ['run', 'run/hits.parquet']
    """
    path, tmp = Path(path), Path(tmp)
    if create:
        tmp.mkdir()
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as exc:
        _remove(tmp)
        raise _named(exc, path) from None
    except BaseException:
        _remove(tmp)
        raise


def swap_symlink(link: Path, target: Path, tmp: Path) -> None:
    """Point ``link`` at ``target`` (stored relative to the link's folder) in one atomic step: a new
    link made under the name ``tmp`` replaces the old one.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "v1").mkdir(); (folder / "v2").mkdir()
    >>> swap_symlink(folder / "current", folder / "v1", folder / ".current.tmp")
    >>> swap_symlink(folder / "current", folder / "v2", folder / ".current.tmp")
    >>> os.readlink(folder / "current")
    'v2'
    """
    os.symlink(os.path.relpath(target, link.parent), tmp)
    try:
        os.replace(tmp, link)
    except BaseException:
        _remove(tmp)
        raise
