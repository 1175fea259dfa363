"""Read CoREB releases from where they come: the hub, a copy of the hub layout, a folder of
``<config>.parquet`` files, or the official runner's JSONL files.

Every reader returns ``{config_name: RawTable}``; ``coreb_core.data.ingest`` normalises and validates.
Unreadable files become ``DataProblem`` lines, never exceptions from deep inside Arrow.
"""
from __future__ import annotations

import json
import os
import re
import socket
import threading
from pathlib import Path
from typing import Any, Callable, NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq

from coreb_core.data.schema import CONFIGS, HUB_REPO
from coreb_core.errors import DataError, DataProblem, NetworkUnavailable
from coreb_core.input_paths import allowed_roots, file_problem

HUB_SHARD = re.compile(r"^(?P<config>[a-z0-9_]+)-(?P<release>[A-Za-z0-9_.]+)-(?P<shard>\d{5})-of-(?P<n>\d{5})\.parquet$")


class RawTable(NamedTuple):
    """Rows of one config as read, with the file they came from (for error lines).

    >>> RawTable("code_corpus.jsonl", [{"code_id": "code_v202603_00001"}]).rows[0]["code_id"]
    'code_v202603_00001'
    """

    file: str
    rows: list[dict[str, Any]]


# ---------------------------------------------------------------- file readers

def _read_parquet_rows(path: Path) -> tuple[list[dict[str, Any]], list[DataProblem]]:
    if path.stat().st_size == 0:
        return [], [DataProblem(str(path), "-", "-", "file is empty")]
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return [], [DataProblem(str(path), "-", "-", f"not a readable parquet file ({first})")]
    try:
        return table.to_pylist(), []
    except UnicodeDecodeError:
        return [], [_undecodable(path, table)]


def _undecodable(path: Path, table: pa.Table) -> DataProblem:
    """The first cell holding text that is not valid UTF-8: Arrow stores such bytes in a string column
    unchecked, Python cannot decode them. Looked for only once a whole-table read has failed."""
    for name in table.column_names:
        for row, cell in enumerate(table.column(name), start=1):
            try:
                cell.as_py()
            except UnicodeDecodeError as exc:
                return DataProblem(str(path), row, name, f"text is not valid UTF-8 (byte {exc.start})")
    return DataProblem(str(path), "-", "-", "text is not valid UTF-8")


def _read_jsonl_rows(path: Path) -> tuple[list[dict[str, Any]], list[DataProblem]]:
    rows: list[dict[str, Any]] = []
    problems: list[DataProblem] = []
    data = path.read_bytes()
    if not data.strip():
        return [], [DataProblem(str(path), "-", "-", "file is empty")]
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            problems.append(DataProblem(str(path), number, "-", f"line is not valid UTF-8 (byte {exc.start})"))
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(DataProblem(str(path), number, "-", f"line is not valid JSON ({exc.msg})"))
            continue
        except RecursionError:
            problems.append(DataProblem(str(path), number, "-", "line is nested too deeply to read"))
            continue
        if not isinstance(obj, dict):
            problems.append(DataProblem(str(path), number, "-", "line is not a JSON object", type(obj).__name__))
            continue
        rows.append({**obj, "__row__": number})
    return rows, problems


def _collect(files: dict[str, list[Path]], reader, folder: Path) -> dict[str, RawTable]:
    """Read each config's file(s); raise one DataError with every unreadable or missing file. A file
    that is special (a FIFO would block for ever), too big, or a link out of ``folder`` and the import
    roots is refused unopened."""
    tables: dict[str, RawTable] = {}
    problems: list[DataProblem] = []
    roots = allowed_roots(folder)
    for config, paths in files.items():
        rows: list[dict[str, Any]] = []
        for path in paths:
            refused = file_problem(path, roots)
            got, bad = ([], [DataProblem(str(path), "-", "-", refused)]) if refused else reader(path)
            rows += got
            problems += bad
        if not paths:
            continue
        if not rows and not any(p.file in {str(x) for x in paths} for p in problems):
            problems.append(DataProblem(str(paths[0]), "-", "-", "file has no rows"))
        tables[config] = RawTable(str(paths[0]), rows)
    if problems:
        raise DataError(problems)
    return tables


# ---------------------------------------------------------------- layouts

# A folder named like a hub split (``release_v2603``) names the release it holds.
RELEASE_FOLDER = re.compile(r"^release_v\d{4}$")


def _layout_of(names: set[str]) -> str | None:
    """The layout of one release folder from its file names, or None."""
    if any(f"{c}.parquet" in names for c in CONFIGS):
        return "parquet"
    if any(n in names for c in CONFIGS.values() for n in c.jsonl_names):
        return "jsonl"
    if any(HUB_SHARD.match(n) for n in names):
        return "hub"
    return None


def detect_layout(directory: Path) -> str:
    """``parquet`` (folder of <config>.parquet), ``jsonl`` (one ``<config>.jsonl`` per config, as the official
    runner and ``datasets`` exports write), ``hub`` (hub parquet shards) or ``releases`` (a folder of release
    folders, each in one of those layouts: a copy of the hub repository, or ``coreb_real/``).

    >>> import tempfile
    >>> base = Path(tempfile.mkdtemp())
    >>> folder = base / "release_v2603"
    >>> folder.mkdir()
    >>> _ = (folder / "text2code_queries.jsonl").write_text("")
    >>> detect_layout(folder), detect_layout(base)
    ('jsonl', 'releases')
    >>> (folder / "empty").mkdir()
    >>> detect_layout(folder / "empty")   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.DataError: .../empty: row -: field '-': no CoREB files found (expected <config>.parquet, ...
    """
    names = {p.name for p in directory.iterdir()} if directory.is_dir() else set()
    layout = _layout_of(names)
    if layout:
        return layout
    if release_folders(directory):
        return "releases"
    raise DataError([DataProblem(str(directory), "-", "-",
                                 "no CoREB files found (expected <config>.parquet, <config>.jsonl, hub parquet "
                                 "shards, or release folders release_v26XX/ holding one of those)")])


def release_folders(directory: Path) -> dict[str, Path]:
    """Sub-folders that each hold one release in a known layout (``release_v2603/...``)."""
    found = {}
    for sub in sorted(p for p in directory.iterdir() if p.is_dir() and not p.name.startswith(".")):
        try:
            names = {f.name for f in sub.iterdir()}
        except OSError:  # unreadable: not a release folder
            continue
        if _layout_of(names):
            found[sub.name] = sub
    return found


def _missing(directory: Path, expected: dict[str, str]) -> list[DataProblem]:
    return [DataProblem(str(directory / name), "-", "-", "file is missing") for name in expected.values()]


def _read_parquet_folder(directory: Path) -> dict[str, RawTable]:
    expected = {c: f"{c}.parquet" for c in CONFIGS}
    missing = {c: n for c, n in expected.items() if not (directory / n).exists()}
    if missing:
        raise DataError(_missing(directory, missing))
    return _collect({c: [directory / n] for c, n in expected.items()}, _read_parquet_rows, directory)


def _read_jsonl_folder(directory: Path) -> dict[str, RawTable]:
    files, missing = {}, {}
    for name, config in CONFIGS.items():
        present = [directory / n for n in config.jsonl_names if (directory / n).exists()]
        if present:
            files[name] = present[:1]  # the first name listed wins (code_corpus_v2 over code_corpus)
        else:
            missing[name] = config.jsonl_names[0]
    if missing:
        raise DataError(_missing(directory, missing))
    return _collect(files, _read_jsonl_rows, directory)


def _read_hub_shards(folder: Path) -> dict[str, RawTable]:
    """One release folder of hub parquet shards (``<config>-<split>-00000-of-00001.parquet``)."""
    files: dict[str, list[Path]] = {c: [] for c in CONFIGS}
    for f in sorted(folder.iterdir()):
        m = HUB_SHARD.match(f.name)
        if m and m["config"] in files:
            files[m["config"]].append(f)
    missing = {c: f"{c}-{folder.name}-00000-of-00001.parquet" for c, fs in files.items() if not fs}
    if missing:
        raise DataError(_missing(folder, missing))
    return _collect(files, _read_parquet_rows, folder)


def _pick_release(directory: Path, folders: dict[str, Path], split: str | None) -> str:
    if split is None:
        if len(folders) != 1:
            raise DataError([DataProblem(str(directory), "-", "--split",
                                         "several releases present, pick one with --split", sorted(folders))])
        return next(iter(folders))
    if split not in folders:
        raise DataError([DataProblem(str(directory), "-", "--split", "release folder not found", split)])
    return split


def read_local(directory: Path, split: str | None = None) -> tuple[str, str | None, dict[str, RawTable]]:
    """Read any local layout. Returns (layout, release name found in the layout or None, tables).

    Example (CoREB-mini in ``root``):

    >>> from coreb_core.paths import release_dir
    >>> layout, release, tables = read_local(release_dir("demo_v2603", root))
    >>> layout, release, len(tables), len(tables["code_corpus"].rows)
    ('parquet', None, 8, 307)
    """
    if not directory.is_dir():
        raise DataError([DataProblem(str(directory), "-", "-", "not a directory")])
    layout = detect_layout(directory)
    if layout == "releases":
        folders = release_folders(directory)
        split = _pick_release(directory, folders, split)
        layout, _, tables = read_local(folders[split])
        return layout, split, tables
    readers = {"parquet": _read_parquet_folder, "jsonl": _read_jsonl_folder, "hub": _read_hub_shards}
    tables = readers[layout](directory)
    named = layout == "hub" or RELEASE_FOLDER.fullmatch(directory.name)
    return layout, directory.name if named else None, tables


# ---------------------------------------------------------------- the hub

HUB_PROBE_TIMEOUT_S = 3.0


def offline_flag() -> str | None:
    """The Hugging Face offline variable that is set (``HF_HUB_OFFLINE`` or ``HF_DATASETS_OFFLINE``), or None.

    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": ""}):
    ...     offline_flag()
    'HF_HUB_OFFLINE'
    >>> with mock.patch.dict(os.environ, {"HF_HUB_OFFLINE": "0", "HF_DATASETS_OFFLINE": "0"}):
    ...     offline_flag() is None
    True
    """
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
        if os.environ.get(var, "").strip().lower() in {"1", "true", "yes", "on"}:
            return var
    return None


def hub_reachable(timeout: float = HUB_PROBE_TIMEOUT_S) -> bool:
    """One TCP connect to the hub endpoint; DNS runs in a thread so it cannot hang past the timeout.

    Example (its answer depends on the network, so it is skipped):

    >>> hub_reachable(timeout=1.0)   # on a machine without network   # doctest: +SKIP
    False
    """
    from urllib.parse import urlparse

    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co")
    host = urlparse(endpoint).hostname or "huggingface.co"
    port = urlparse(endpoint).port or (443 if endpoint.startswith("https") else 80)
    result: list[bool] = []

    def probe() -> None:
        try:
            with socket.create_connection((host, port), timeout=timeout):
                result.append(True)
        except OSError:
            result.append(False)

    t = threading.Thread(target=probe, daemon=True)
    t.start()
    t.join(timeout + 0.5)
    return bool(result and result[0])


def _offline_message(release: str) -> str:
    return (f"cannot reach the Hugging Face hub to fetch {HUB_REPO} {release}. Import a local copy instead: "
            f"python -m coreb_core import-data DIR --release {release} (DIR = a copy of the hub repository, "
            f"a folder of <config>.parquet files, or the official runner's JSONL files)")


def read_hub(release: str, revision: str | None = None,
             progress: Callable[[str, float], None] | None = None) -> dict[str, RawTable]:
    """Load all eight configs of one release with ``datasets.load_dataset``.

    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"HF_HUB_OFFLINE": "1"}):
    ...     read_hub("release_v2603")
    Traceback (most recent call last):
    coreb_core.errors.NetworkUnavailable: HF_HUB_OFFLINE is set; cannot reach the Hugging Face hub to fetch
    hq-bench/coreb release_v2603. Import a local copy instead: python -m coreb_core import-data DIR --release
    release_v2603 (DIR = a copy of the hub repository, a folder of <config>.parquet files, or the official
    runner's JSONL files)
    """
    flag = offline_flag()
    if flag:
        raise NetworkUnavailable(f"{flag} is set; " + _offline_message(release))
    if not hub_reachable():
        raise NetworkUnavailable(_offline_message(release))
    import datasets  # heavy import, only when actually fetching

    return dataset_tables(lambda config: datasets.load_dataset(HUB_REPO, config, split=release, revision=revision),
                          lambda config: f"hub:{HUB_REPO}/{config}/{release}", progress)


def dataset_tables(load: Callable[[str], Any], source: Callable[[str], str],
                   progress: Callable[[str, float], None] | None = None) -> dict[str, RawTable]:
    """Every config as ``load(config)`` returns it (a ``datasets.Dataset``: the hub's rows, flat ``meta_*``
    columns and all), named ``source(config)`` in error lines. ``fetch`` reads the hub through it; tests
    pass ``datasets.load_dataset("json", ...)`` over a local export of the same rows.

    Example (CoREB-mini in ``root``, each config as a ``datasets.Dataset``; then the real export, which takes
    minutes to load, so those lines are skipped):

    >>> import datasets
    >>> import pyarrow.parquet as pq
    >>> from coreb_core.paths import release_dir
    >>> mini = release_dir("demo_v2603", root)
    >>> tables = dataset_tables(lambda c: datasets.Dataset(pq.read_table(mini / f"{c}.parquet")), str)
    >>> len(tables), tables["code_corpus"].file, len(tables["code_corpus"].rows)
    (8, 'code_corpus', 307)
    >>> folder = Path("../shared/coreb_real/release_v2603")
    >>> tables = dataset_tables(lambda c: datasets.load_dataset("json", data_files=str(folder / f"{c}.jsonl"),
    ...                                                         split="train"), str)  # doctest: +SKIP
    >>> len(tables["code_corpus"].rows)   # doctest: +SKIP
    1744
    """
    tables = {}
    for i, config in enumerate(CONFIGS):
        if progress:
            progress(f"loading {config}", i / len(CONFIGS))
        tables[config] = RawTable(source(config), load(config).to_list())
    if progress:
        progress("loaded", 1.0)
    return tables
