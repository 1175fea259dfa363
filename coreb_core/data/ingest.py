"""Normalise, validate and cache one CoREB release.

``import_release`` is the single entry point used by ``fetch``, ``import-data`` and the CoREB-mini
builder. It writes every config to a fresh folder and swaps it in only when all checks pass, so a
failed import leaves the cache exactly as it was and readers never see a half-written release.

Example (CoREB-mini in ``root``; its release folder is a ``<config>.parquet`` folder, so it reads back in):
    >>> from coreb_core.data.sources import read_local
    >>> from coreb_core.paths import release_dir
    >>> layout, split, raw = read_local(release_dir("demo_v2603", root))
    >>> import_release(raw, "demo_copy", root).relative_to(root)
    PosixPath('coreb/demo_copy')
    >>> raw["code2code_qrels"].rows[0]["doc_id"] = "code_v202603_99999"
    >>> import_release(raw, "demo_broken", root)       # raises DataError listing every problem  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.DataError: .../code2code_qrels.parquet: row 1: field 'doc_id': unknown document (not in code_corpus): 'code_v202603_99999'
"""
from __future__ import annotations

import ast
import json
import math
import os
import re
import shutil
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from coreb_core.atomic import atomic_folder, swap_symlink
from coreb_core.data.schema import (
    CONFIGS,
    GRADES,
    LANGUAGE_CONSTRAINTS,
    LANGUAGES,
    LEGACY_GRADE_COLUMN,
    META_TYPES,
    REQUIRED_META,
    SUBTASKS,
    TASK_BY_QUERIES_CONFIG,
    TASKS,
    Config,
)
from coreb_core.data.sources import RawTable
from coreb_core.errors import DataError, DataProblem
from coreb_core.paths import datasets_dir, release_dir

MAX_PROBLEMS_SHOWN = 50
RELEASE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_ARROW_TYPES = {"string": pa.string(), "json": pa.string(), "int64": pa.int64(), "int8": pa.int8(), "bool": pa.bool_()}


def _arrow_schema(config: Config) -> pa.Schema:
    return pa.schema([pa.field(c.name, _ARROW_TYPES[c.type], nullable=not c.required) for c in config.columns])


# ---------------------------------------------------------------- normalisation

def _parse_meta(value: Any) -> dict[str, Any]:
    """``meta`` arrives as a struct (dict) or a string holding JSON or a Python-repr dict."""
    if isinstance(value, dict):
        # Struct columns carry every key of every row; a None is an absent key, not a value.
        return {k: v for k, v in value.items() if v is not None}
    if isinstance(value, str):
        for parse in (json.loads, ast.literal_eval):
            try:
                parsed = parse(value)
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                continue
            if isinstance(parsed, dict):
                return parsed
        raise ValueError("meta string is neither a JSON object nor a Python dict")
    raise ValueError(f"meta must be a struct or a string, not {type(value).__name__}")


def _json_default(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


def _meta_json(meta: dict[str, Any]) -> str:
    """One canonical text form (sorted keys) so identical data gives identical bytes."""
    try:
        text = json.dumps(meta, sort_keys=True, ensure_ascii=False, default=_json_default)
    except RecursionError:
        raise ValueError("meta is nested too deeply") from None
    except TypeError:  # keys of mixed types cannot be sorted
        raise ValueError("meta keys must be strings") from None
    if not _encodable(text):
        raise ValueError("meta holds a lone surrogate, which is not valid Unicode")
    return text


def _encodable(text: str) -> bool:
    """False for text holding a lone surrogate (JSON's "\\ud800"): valid JSON, but not Unicode, so
    Arrow cannot store it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# The integer range of each integer column type; a value outside it would overflow in Arrow.
_INT_RANGES = {"int64": (-2 ** 63, 2 ** 63 - 1, "a 64-bit integer"), "int8": (-2 ** 7, 2 ** 7 - 1, "an 8-bit integer")}


# The hub's rows (and so ``datasets``) carry each meta field as a flat column ``meta_<field>``;
# the official generator's JSONL nests them in one ``meta`` object. Both become one ``meta`` value.
FLAT_META_PREFIX = "meta_"
# Where the official loader finds a query's text when ``query`` is empty (``query or code or text``):
# a ``c2t_match`` row may hold its code only in ``code``.
QUERY_TEXT_FALLBACK = ("code", "text")


def _flat_meta(row: dict[str, Any]) -> dict[str, Any]:
    """The ``meta_<field>`` columns of a hub row as one meta dict; a null is an absent field (every hub row
    carries every column of its config), so a null ``meta_is_noise_sample`` reads as "not noise".

    >>> _flat_meta({"code_id": "c", "meta_passed": True, "meta_pass_rate": None, "meta_target_languages": ["go"]})
    {'passed': True, 'target_languages': ['go']}
    """
    return {k[len(FLAT_META_PREFIX):]: v for k, v in row.items()
            if k.startswith(FLAT_META_PREFIX) and v is not None}


def _same(a: Any, b: Any) -> bool:
    """Whether two values of one meta field agree, type included (``True`` is not ``1``).

    >>> _same(True, True), _same(True, 1), _same([1, 2], [1, 2]), _same(0.5, 0.5)
    (True, False, True, True)
    """
    return type(a) is type(b) and a == b


def _disagree(file: str, number: int | str, field: str, flat: Any, nested: Any) -> DataProblem:
    return DataProblem(file, number, f"meta.{field}",
                       f"{FLAT_META_PREFIX}{field} and meta.{field} disagree ({flat!r} against {nested!r})")


def _has_kind(kind: str, value: Any) -> bool:
    """Whether ``value`` is of one of ``META_TYPES``' kinds (an integer-valued float counts as an integer,
    as Arrow and ``datasets`` may hand a nullable integer column over as floats).

    >>> _has_kind("number", 0.5), _has_kind("number", "0.5"), _has_kind("integer", 20.0), _has_kind("boolean", 1)
    (True, False, True, False)
    """
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "list":
        return isinstance(value, (list, tuple))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return kind == "number" or _is_int(value) or float(value).is_integer()


_KIND_NAMES = {"string": "a string", "boolean": "true or false", "number": "a finite number",
               "integer": "a whole number", "list": "a list"}


def _meta_problems(file: str, number: int | str, meta: dict[str, Any]) -> list[DataProblem]:
    """A row's meta fields of the wrong type (``META_TYPES``), and test results that contradict themselves:
    a pass rate outside [0, 1], more tests passed than run.

    >>> for problem in _meta_problems("code.jsonl", 3, {"pass_rate": 1.5, "test_passed": 25, "test_total": 20}):
    ...     print(problem)
    code.jsonl: row 3: field 'meta.pass_rate': must be between 0 and 1: 1.5
    code.jsonl: row 3: field 'meta.test_passed': must not exceed meta.test_total (20): 25
    >>> _meta_problems("code.jsonl", 4, {"pass_rate": "0.5"})
    [DataProblem("code.jsonl: row 4: field 'meta.pass_rate': must be a finite number, not str: '0.5'")]
    """
    problems = []
    for field, value in meta.items():
        kind = META_TYPES.get(field)
        if kind and value is not None and not _has_kind(kind, value):
            problems.append(DataProblem(file, number, f"meta.{field}",
                                        f"must be {_KIND_NAMES[kind]}, not {type(value).__name__}", value))
    if problems:
        return problems
    rate, done, total = meta.get("pass_rate"), meta.get("test_passed"), meta.get("test_total")
    if rate is not None and not 0 <= rate <= 1:
        problems.append(DataProblem(file, number, "meta.pass_rate", "must be between 0 and 1", rate))
    for field, count in (("test_passed", done), ("test_total", total)):
        if count is not None and count < 0:
            problems.append(DataProblem(file, number, f"meta.{field}", "must not be negative", count))
    if done is not None and total is not None and done > total >= 0:
        problems.append(DataProblem(file, number, "meta.test_passed",
                                    f"must not exceed meta.test_total ({total})", done))
    return problems


def _missing_meta(config: Config, file: str, metas: list[tuple[int | str, dict[str, Any]]]) -> list[DataProblem]:
    """Required meta fields (``REQUIRED_META``) a row lacks: one line per row, or one line for the file
    when no row has the field at all (a release without its ``meta_passed`` column).

    >>> from coreb_core.data.schema import CODE_CORPUS
    >>> _missing_meta(CODE_CORPUS, "code.jsonl", [(1, {"source_problem_id": "p"}), (2, {"source_problem_id": "p"})])
    [DataProblem("code.jsonl: row -: field 'meta.passed': required meta field is missing from every row")]
    """
    problems = []
    for field in REQUIRED_META.get(config.name, ()):
        lacking = [number for number, meta in metas if meta.get(field) is None]
        if metas and len(lacking) == len(metas):
            problems.append(DataProblem(file, "-", f"meta.{field}", "required meta field is missing from every row"))
        else:
            problems += [DataProblem(file, number, f"meta.{field}", "required meta field is missing")
                         for number in lacking]
    return problems


def _with_query_text(config: Config, row: dict[str, Any]) -> dict[str, Any]:
    """A query row whose ``query`` is empty takes its text from ``code`` or ``text``, as the official
    loader does (``query or code or text``); other rows are returned as they are.

    >>> from coreb_core.data.schema import C2T_QUERIES
    >>> _with_query_text(C2T_QUERIES, {"query_id": "q", "query": None, "code": "x = 1"})["query"]
    'x = 1'
    """
    # Python truthiness, as the official ``or`` chain: only a missing or empty text falls back.
    if config.name not in TASK_BY_QUERIES_CONFIG or row.get("query"):
        return row
    fallback = next((row[k] for k in QUERY_TEXT_FALLBACK if isinstance(row.get(k), str) and row[k]), None)
    return row if fallback is None else {**row, "query": fallback}


def _normalise(config: Config, raw: RawTable) -> tuple[pa.Table, list[DataProblem]]:
    """Check types of every row and build the cached Arrow table (meta as canonical JSON text)."""
    problems: list[DataProblem] = []
    rows = [_with_query_text(config, r) for r in raw.rows]
    present = set().union(*(r.keys() for r in rows)) if rows else set()
    if any(k.startswith(FLAT_META_PREFIX) for k in present):
        present.add("meta")
    if config.name.endswith("_qrels") and "relevance" not in present and LEGACY_GRADE_COLUMN in present:
        grade_key = LEGACY_GRADE_COLUMN
    else:
        grade_key = "relevance"
    for col in config.columns:
        key = grade_key if col.name == "relevance" else col.name
        if col.required and key not in present:
            problems.append(DataProblem(raw.file, "-", col.name, "required column is missing"))
    if problems:
        return pa.table({}), problems

    out: dict[str, list[Any]] = {c.name: [] for c in config.columns}
    metas: list[tuple[int | str, dict[str, Any]]] = []  # each row's meta, for the required-field check
    for index, row in enumerate(rows):
        number = row.get("__row__", index + 1)
        for col in config.columns:
            key = grade_key if col.name == "relevance" else col.name
            value = row.get(key)
            if col.type == "json" and value is None:
                value = _flat_meta(row) or None  # hub rows: meta as flat columns
            if value is None:
                if col.required:
                    problems.append(DataProblem(raw.file, number, key, "value is missing"))
                elif col.name == "code_length" and isinstance(row.get("code"), str):
                    value = len(row["code"])
                elif col.name == "text_length" and isinstance(row.get("text"), str):
                    value = len(row["text"])
            elif col.type == "json":
                try:
                    meta = _parse_meta(value)
                    flat = _flat_meta(row)
                    # Flat ``meta_*`` columns beside a nested meta join it; a field given in both must agree.
                    bad = [_disagree(raw.file, number, k, flat[k], meta[k]) for k in flat
                           if k in meta and meta[k] is not None and not _same(flat[k], meta[k])]
                    if bad:
                        problems += bad
                        value = None
                    else:
                        # a nested null does not hide a flat value (a struct's null is an absent key)
                        meta = {**flat, **{k: v for k, v in meta.items() if v is not None or k not in flat}}
                        problems += _meta_problems(raw.file, number, meta)
                        metas.append((number, meta))
                        value = _meta_json(meta)
                except ValueError as exc:
                    problems.append(DataProblem(raw.file, number, key, str(exc), value))
                    value = None
            elif col.type == "string":
                if not isinstance(value, str):
                    problems.append(DataProblem(raw.file, number, key, "must be a string", value))
                    value = None
                elif not _encodable(value):
                    problems.append(DataProblem(raw.file, number, key, "holds a lone surrogate, "
                                                "which is not valid Unicode", value))
                    value = None
                elif col.required and not value.strip():
                    problems.append(DataProblem(raw.file, number, key, "must not be empty"))
            elif col.type in {"int64", "int8"}:
                if isinstance(value, float) and value.is_integer():
                    value = int(value)
                low, high, kind = _INT_RANGES[col.type]
                if not _is_int(value):
                    problems.append(DataProblem(raw.file, number, key, "must be an integer", value))
                    value = None
                elif col.name == "relevance" and value not in GRADES:
                    problems.append(DataProblem(raw.file, number, key, "grade must be 0, 1 or 2", value))
                elif not low <= value <= high:
                    problems.append(DataProblem(raw.file, number, key, f"must fit {kind}", value))
                    value = None
            out[col.name].append(value)
    problems += _missing_meta(config, raw.file, metas)
    if problems:
        return pa.table({}), problems
    return pa.Table.from_pydict(out, schema=_arrow_schema(config)), problems


# ---------------------------------------------------------------- validation across configs

def _duplicates(file: str, ids: list[str], field: str) -> list[DataProblem]:
    seen: set[str] = set()
    out = []
    for number, value in enumerate(ids, start=1):
        if value in seen:
            out.append(DataProblem(file, number, field, "duplicate id", value))
        seen.add(value)
    return out


def validate(tables: dict[str, pa.Table], files: dict[str, str]) -> list[DataProblem]:
    """Rules that span rows and configs: unique ids, qrels resolve, known subtasks and languages,
    C2C anchors present in the code corpus.

    Example (CoREB-mini in ``root``):

    >>> from coreb_core.paths import release_dir
    >>> folder = release_dir("demo_v2603", root)
    >>> tables = {name: pq.read_table(folder / f"{name}.parquet") for name in CONFIGS}
    >>> files = {name: f"{name}.parquet" for name in CONFIGS}
    >>> validate(tables, files)
    []
    >>> languages = tables["code_corpus"].column("language").to_pylist()
    >>> tables["code_corpus"] = tables["code_corpus"].set_column(2, "language", pa.array(["cobol"] + languages[1:]))
    >>> validate(tables, files)
    [DataProblem("code_corpus.parquet: row 1: field 'language': unknown language: 'cobol'")]
    """
    problems: list[DataProblem] = []
    ids: dict[str, set[str]] = {}
    for name, config in CONFIGS.items():
        if config.id_column:
            column = tables[name].column(config.id_column).to_pylist()
            problems += _duplicates(files[name], column, config.id_column)
            ids[name] = set(column)

    code = tables["code_corpus"]
    for number, lang in enumerate(code.column("language").to_pylist(), start=1):
        if lang not in LANGUAGES:
            problems.append(DataProblem(files["code_corpus"], number, "language", "unknown language", lang))

    for task in TASKS.values():
        qname, rname = task.queries.name, task.qrels.name
        queries = tables[qname].to_pydict()
        for i, subtask in enumerate(queries["subtask"]):
            if subtask not in SUBTASKS[task.name]:
                problems.append(DataProblem(files[qname], i + 1, "subtask", f"unknown {task.name} subtask", subtask))
        for field in ("anchor_language", "language_constraint"):
            allowed = LANGUAGE_CONSTRAINTS if field == "language_constraint" else LANGUAGES
            for i, value in enumerate(queries.get(field, [])):
                if value is not None and value not in allowed:
                    problems.append(DataProblem(files[qname], i + 1, field, "unknown language", value))
        if task.name == "c2c":
            for i, meta in enumerate(queries["meta"]):
                anchor = json.loads(meta).get("anchor_code_id")
                if anchor is None:
                    problems.append(DataProblem(files[qname], i + 1, "meta.anchor_code_id", "C2C anchor is missing"))
                elif not isinstance(anchor, str):
                    problems.append(DataProblem(files[qname], i + 1, "meta.anchor_code_id",
                                                "must be a string (a code_id)", anchor))
                elif anchor not in ids["code_corpus"]:
                    problems.append(DataProblem(files[qname], i + 1, "meta.anchor_code_id",
                                                "anchor not in code_corpus", anchor))
        qrels = tables[rname].to_pydict()
        docs = ids[task.corpus.name]
        pairs: Counter[tuple[str, str]] = Counter()
        for i, (qid, did) in enumerate(zip(qrels["query_id"], qrels["doc_id"])):
            if qid not in ids[qname]:
                problems.append(DataProblem(files[rname], i + 1, "query_id", f"unknown query (not in {qname})", qid))
            if did not in docs:
                problems.append(DataProblem(files[rname], i + 1, "doc_id",
                                            f"unknown document (not in {task.corpus.name})", did))
            pairs[(qid, did)] += 1
            if pairs[(qid, did)] == 2:
                problems.append(DataProblem(files[rname], i + 1, "doc_id", "duplicate judgment for this query", did))
    return problems


# ---------------------------------------------------------------- atomic write

def _versions_dir(root: Path | None) -> Path:
    return datasets_dir(root) / ".versions"


def _write_release(tables: dict[str, pa.Table], release: str, root: Path | None = None,
                  extra_files: dict[str, pa.Table] | None = None) -> Path:
    """Write a release to a fresh version folder, then atomically point ``<release>`` at it.

    ``data_cache/coreb/<release>`` is a symlink replaced with ``os.replace`` (atomic on POSIX), so a
    reader sees either the old release or the new one, never a mix.
    """
    versions = _versions_dir(root)
    versions.mkdir(parents=True, exist_ok=True)
    stamp = _version_name(release, time.strftime('%Y%m%dT%H%M%S'))
    final = versions / stamp
    with atomic_folder(final, versions / f".tmp-{stamp}") as tmp:
        for name, table in {**tables, **(extra_files or {})}.items():
            pq.write_table(table, tmp / f"{name}.parquet", compression="zstd")
    link = release_dir(release, root)
    if link.exists() and not link.is_symlink():
        # A release folder copied in by hand: keep it as an older version.
        os.rename(link, versions / _version_name(release, "manual"))
    swap_symlink(link, final, link.with_name(f".link-{stamp}"))
    _prune_versions(versions, release, keep={final.name})
    return link


def _version_name(release: str, stamp: str) -> str:
    """The folder name of one version of ``release``: ``<release>-<stamp>-<8 hex digits>``, where the stamp
    is a time (``20261201T063347``) or ``manual`` (a release folder copied in by hand)."""
    return f"{release}-{stamp}-{uuid.uuid4().hex[:8]}"


def is_version_of(name: str, release: str) -> bool:
    """Whether ``name`` is a version folder of ``release`` (``_version_name``), and not one of another
    release whose name merely starts with ``release`` and a dash.

    >>> is_version_of("demo_v2603-20261201T063347-45ed5d4a", "demo_v2603")
    True
    >>> is_version_of("demo_v2603-fix-20261201T063347-45ed5d4a", "demo_v2603")
    False
    """
    return re.fullmatch(re.escape(release) + r"-(\d{8}T\d{6}|manual)-[0-9a-f]{8}", name) is not None


def _prune_versions(versions: Path, release: str, keep: set[str], keep_previous: int = 1) -> None:
    """Drop old versions of ``release`` (its own only: ``is_version_of``), keeping the newest previous one
    for readers still on it."""
    old = sorted((p for p in versions.iterdir() if is_version_of(p.name, release) and p.name not in keep),
                 key=lambda p: p.stat().st_mtime, reverse=True)
    for path in old[keep_previous:]:
        shutil.rmtree(path, ignore_errors=True)


# ---------------------------------------------------------------- entry point

def import_release(raw: dict[str, RawTable], release: str, root: Path | None = None,
                   extra_files: dict[str, pa.Table] | None = None) -> Path:
    """Normalise and validate every config; write only when nothing is wrong.

    Example (CoREB-mini in ``root``):

    >>> from coreb_core.data.sources import read_local
    >>> from coreb_core.paths import release_dir
    >>> layout, split, raw = read_local(release_dir("demo_v2603", root))
    >>> import_release(raw, "demo_copy", root).relative_to(root)
    PosixPath('coreb/demo_copy')
    """
    if not RELEASE_NAME.fullmatch(release):  # fullmatch: "$" alone would let "name\n" through
        raise DataError([DataProblem("--release", "-", "release", "use letters, digits, '_', '-' or '.'", release)])
    problems: list[DataProblem] = []
    tables: dict[str, pa.Table] = {}
    for name, config in CONFIGS.items():
        table, bad = _normalise(config, raw[name])
        problems += bad
        tables[name] = table
    if not problems:
        problems += validate(tables, {name: raw[name].file for name in CONFIGS})
    if problems:
        shown = problems[:MAX_PROBLEMS_SHOWN]
        if len(problems) > MAX_PROBLEMS_SHOWN:
            shown.append(DataProblem("(more)", "-", "-", f"{len(problems) - MAX_PROBLEMS_SHOWN} further problems not shown"))
        raise DataError(shown)
    return _write_release(tables, release, root, extra_files)
