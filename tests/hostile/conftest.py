"""The hostile-input catalogue: each test gives one input the app or the CLI accepts in a malformed or
malicious form and checks the contract every input keeps (README, "What it withstands"):

- the CLI prints exactly one line, ``error: …``, naming the file, row and field (or the argument), exits
  with status 2 and prints no traceback (``refuses``);
- the app shows an error message, never an exception box (``shows_error``);
- the cache is byte-identical afterwards (``unchanged``).

Files are grouped by what is attacked: ``test_releases`` (import and pruning), ``test_run_folders``,
``test_console`` (SQL), ``test_data_rows`` (values inside data files), ``test_server_paths`` (paths,
special and huge files), ``test_cli_arguments``, ``test_display`` (markup and terminal escapes),
``test_fuzz`` (random rows, bounded time).
"""
from __future__ import annotations

import contextlib
import hashlib
import shutil
from pathlib import Path
from typing import Iterator

import pytest


def tree_digest(root: Path) -> dict[str, str]:
    """Every entry under ``root``: relative path -> sha256 of a file, ``-> target`` of a link, ``dir``."""
    out = {}
    for path in sorted(Path(root).rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            out[rel] = f"-> {path.readlink()}"
        elif path.is_dir():
            out[rel] = "dir"
        else:
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


DERIVED = ("joins",)  # rebuildable caches a valid run's evaluation may write (coreb_core/evaluation/stored_joins.py)


@contextlib.contextmanager
def unchanged(root: Path) -> Iterator[None]:
    """Assert that nothing under ``root`` was added, removed or changed by the block (temp files included), but
    for the derived ``joins/`` a valid run's evaluation may add beside the refused input."""
    def digest() -> dict:
        return {k: v for k, v in tree_digest(root).items() if k.split("/")[0] not in DERIVED}

    before = digest()
    yield
    after = digest()
    added, removed = sorted(after.keys() - before.keys()), sorted(before.keys() - after.keys())
    changed = sorted(k for k in before.keys() & after.keys() if before[k] != after[k])
    assert not (added or removed or changed), f"cache touched: added {added}, removed {removed}, changed {changed}"


def flat_hub_release(tmp_path: Path, change) -> Path:
    """The tiny release of tests/dump.py as hub rows (flat ``meta_*`` columns) in ``<config>.jsonl`` files,
    after ``change`` (a function that edits the rows of every config in place)."""
    import json

    from tests import dump

    rows = {config: dump.hub_rows(records) for config, records in dump.rows().items()}
    change(rows)
    folder = tmp_path / "flat"
    folder.mkdir()
    for config, records in rows.items():
        (folder / f"{config}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return folder


def refuses(argv: list[str], capsys, *mentions: str) -> str:
    """Run the CLI in-process on ``argv``; assert status 2, one ``error: …`` line on stderr mentioning each
    of ``mentions``, and no traceback. Returns that line."""
    from coreb_core.cli import main

    code = main(argv)
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert "Traceback" not in err + out, err
    assert code == 2, f"exit status {code}, stderr {err!r}"
    assert len(lines) == 1 and lines[0].startswith("error: "), f"expected one error line, got {lines!r}"
    for m in mentions:
        assert m in lines[0], f"{m!r} not in {lines[0]!r}"
    return lines[0]


def shows_error(at, *mentions: str) -> str:
    """An AppTest after ``run()``: no exception box, and an error message mentioning each of ``mentions``.
    Returns the message."""
    assert not at.exception, [e.value for e in at.exception]
    texts = [e.value for e in at.error]
    hits = [t for t in texts if all(m in t for m in mentions)]
    assert hits, f"no error mentioning {mentions}: {texts}"
    return hits[0]


@pytest.fixture
def own_cache(mini_data, tmp_path, monkeypatch) -> Path:
    """A private copy of the CoREB-mini cache (both releases, no runs) as COREB_CACHE for one test."""
    root = tmp_path / "cache"
    shutil.copytree(mini_data, root, symlinks=True, ignore=shutil.ignore_patterns("runs", "embeddings", "results"))
    monkeypatch.setenv("COREB_CACHE", str(root))
    return root


@pytest.fixture
def tiny_cache(cache) -> Path:
    """A private cache (COREB_CACHE) holding only the tiny hand-made release of tests/dump.py, as ``tiny``:
    for cases that need a release but not CoREB-mini (this takes a fraction of a second)."""
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from tests import dump

    import_release(read_local(dump.write_parquet_folder(cache.parent / "tiny-src", dump.rows()))[2], "tiny", cache)
    return cache


@pytest.fixture
def tiny(tiny_cache, tmp_path, monkeypatch) -> Path:
    """``tiny_cache``, with server-side imports allowed only under ``tmp_path / "in"`` (COREB_IMPORT_ROOTS)."""
    (tmp_path / "in").mkdir()
    monkeypatch.setenv("COREB_IMPORT_ROOTS", str(tmp_path / "in"))
    return tiny_cache
