"""What the Data and Run retrieval pages do, without Streamlit: dataset statistics, a locked-down
read-only SQL console, and the chores around running retrieval and importing data or results.

The SQL console copies one release into a private in-memory DuckDB database (the eight configs as
tables, the Store's derived views ``queries``, ``qrels``, ``documents``, ``judgments`` recreated over
them, extra qrel sets such as ``qrels_v1`` copied as tables), then switches off every file and
network access (``enable_external_access = false``), Python replacement scans, and locks the
configuration so no statement can switch them back on. Only one SELECT (or WITH … SELECT, DESCRIBE,
SHOW, SUMMARIZE: whatever DuckDB parses as a SELECT statement) is accepted; rows are capped and every
error is one line.

Example:
    >>> from coreb_core.data.store import Store
    >>> console = SqlConsole(Store("demo_v2603"))
    >>> console.query("SELECT count(*) AS n FROM queries WHERE task = 't2c'").frame["n"].tolist()
    [216]
    >>> console.query("COPY queries TO '/tmp/x.csv'")
    Traceback (most recent call last):
    ConsoleError: only a single SELECT (or WITH … SELECT) statement is allowed, not COPY
    >>> release_statistics(Store("demo_v2603"))["judgments"].set_index("task").loc["t2c", "traps"]
    np.int64(...)
    >>> eta_seconds(elapsed=30.0, fraction=0.25)
    90.0
"""
from __future__ import annotations

import re
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any, Iterable, NamedTuple

import duckdb
import pandas as pd

from coreb_core.errors import CorebError, DataError, DataProblem
from coreb_core.retrieval.models import registry_table
from coreb_core.data.schema import CONFIGS, TASKS
from coreb_core.data.store import Store

SQL_ROW_CAP = 10_000
SQL_TIMEOUT_S = 30.0
SQL_MEMORY_LIMIT = "2GB"
EXAMPLE_QUERIES = {
    "Queries per task": "SELECT task, count(*) AS queries FROM queries GROUP BY task ORDER BY task",
    "Traps per T2C subtask": ("SELECT subtask, count(*) FILTER (relevance = 1) AS traps,\n"
                              "       count(*) FILTER (relevance = 2) AS positives\n"
                              "FROM judgments WHERE task = 't2c' GROUP BY subtask ORDER BY subtask"),
    "Failing solutions per language": ("SELECT language, count(*) AS failing FROM documents\n"
                                       "WHERE corpus = 'code' AND NOT passed GROUP BY language ORDER BY failing DESC"),
    "Tables and columns": "SELECT table_name, column_name, data_type FROM duckdb_columns() ORDER BY table_name",
}
_DERIVED_VIEWS = ("queries", "qrels", "documents", "judgments")


class ConsoleError(CorebError):
    """A refused or failed console statement; the message is always one line."""


class QueryResult(NamedTuple):
    frame: pd.DataFrame  # at most the row cap
    truncated: bool  # more rows existed than were returned
    seconds: float


def one_line(message: str) -> str:
    """DuckDB's multi-line errors (hint, ``LINE 1:`` and caret lines) as one line.

    >>> one_line('Catalog Error: Table with name x does not exist!\\nDid you mean "t"?\\n\\nLINE 1: FROM x\\n  ^')
    'Catalog Error: Table with name x does not exist! Did you mean "t"?'
    """
    parts = [line.strip() for line in str(message).splitlines()]
    parts = [p for p in parts if p and not p.startswith("LINE ") and set(p) != {"^"}]
    return " ".join(parts) or "unknown error"


class SqlConsole:
    """Read-only SQL over a private in-memory copy of one release (see the module docstring)."""

    def __init__(self, store: Store, memory_limit: str = SQL_MEMORY_LIMIT) -> None:
        from coreb_core.data.store import _VIEWS  # the Store's own view definitions, reused as they are

        self.release = store.release
        self.con = duckdb.connect(":memory:")
        copied = list(CONFIGS) + [f"qrels_{name}" for name in store.extra_qrels]
        for name in copied:
            with warnings.catch_warnings():  # the copy is what we want here
                warnings.simplefilter("ignore")
                table = store.sql(f"SELECT * FROM {name}").to_arrow_table()
            self.con.register("_source", table)
            self.con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM _source')
            self.con.unregister("_source")
        self.con.execute(_VIEWS)
        self.tables = copied[: len(CONFIGS)] + list(_DERIVED_VIEWS) + copied[len(CONFIGS):]
        for setting in ("SET enable_external_access = false", "SET python_enable_replacements = false",
                        f"SET memory_limit = '{memory_limit}'", "SET lock_configuration = true"):
            self.con.execute(setting)

    def check(self, sql: str) -> None:
        """Raise ConsoleError unless ``sql`` is exactly one SELECT statement."""
        if not sql.strip():
            raise ConsoleError("the query is empty: write one SELECT statement")
        try:
            statements = self.con.extract_statements(sql)
        except duckdb.Error as exc:
            raise ConsoleError(one_line(str(exc))) from None
        if len(statements) != 1:
            raise ConsoleError(f"only a single statement is allowed; this text holds {len(statements)}")
        kind = statements[0].type
        if kind != duckdb.StatementType.SELECT:
            raise ConsoleError("only a single SELECT (or WITH … SELECT) statement is allowed, "
                               f"not {kind.name}")

    def query(self, sql: str, max_rows: int = SQL_ROW_CAP, timeout_s: float = SQL_TIMEOUT_S) -> QueryResult:
        """Run one checked SELECT on a fresh cursor; at most ``max_rows`` rows come back."""
        self.check(sql)
        start = time.perf_counter()
        cur = self.con.cursor()
        timer = threading.Timer(timeout_s, cur.interrupt)
        timer.start()
        try:
            cur.execute(sql)
            chunks, rows = [], 0
            while rows <= max_rows:
                chunk = cur.fetch_df_chunk(5)
                if chunk.empty:
                    if not chunks:
                        chunks.append(chunk)
                    break
                chunks.append(chunk)
                rows += len(chunk)
        except duckdb.InterruptException:
            raise ConsoleError(f"the query ran longer than {timeout_s:g} s and was stopped") from None
        except duckdb.Error as exc:
            raise ConsoleError(one_line(str(exc))) from None
        finally:
            timer.cancel()
            cur.close()
        frame = pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0]
        truncated = len(frame) > max_rows
        return QueryResult(frame.iloc[:max_rows].reset_index(drop=True), truncated, time.perf_counter() - start)

    def schema(self) -> pd.DataFrame:
        """table, kind (table or view), column, type: what the console can query."""
        cur = self.con.cursor()
        try:
            frame = cur.execute("""
                SELECT table_name AS "table", CASE WHEN t.table_name IS NULL THEN 'view' ELSE 'table' END AS kind,
                       column_name AS "column", data_type AS type
                FROM duckdb_columns() c LEFT JOIN duckdb_tables() t USING (table_name)
                WHERE c.schema_name = 'main' ORDER BY "table", column_index""").df()
        finally:
            cur.close()
        order = {name: i for i, name in enumerate(self.tables)}
        return frame.sort_values("table", key=lambda s: s.map(order), kind="stable").reset_index(drop=True)

    def close(self) -> None:
        self.con.close()


# ---------------------------------------------------------------- dataset statistics

def release_statistics(store: Store) -> dict[str, pd.DataFrame]:
    """Counts describing one release, from the Store's views.

    ``rows`` (config, rows), ``judgments`` (task, queries, positives = rel 2, traps = rel 1, judged
    negatives = rel 0; Store.judgment_counts), ``subtasks`` (task, subtask, queries), ``code``
    (language, verdict pass/fail/unknown, documents) and ``text`` (kind description/noise, documents)."""
    rows = pd.DataFrame(list(store.row_counts().items()), columns=["config", "rows"])
    counts = store.judgment_counts()
    judgments = pd.DataFrame([{"task": t, **counts.get(t, {"queries": 0, "positives": 0, "traps": 0,
                                                            "judged_negatives": 0})} for t in TASKS])
    subtasks = store.df("SELECT task, subtask, count(*) AS queries FROM queries GROUP BY ALL ORDER BY task, subtask")
    code = store.df("""
        SELECT language, CASE WHEN passed THEN 'pass' WHEN NOT passed THEN 'fail' ELSE 'unknown' END AS verdict,
               count(*) AS documents
        FROM documents WHERE corpus = 'code' GROUP BY ALL ORDER BY language, verdict DESC""")
    text = store.df("""
        SELECT CASE WHEN is_noise THEN 'noise' ELSE 'description' END AS kind, count(*) AS documents
        FROM documents WHERE corpus = 'text' GROUP BY ALL ORDER BY kind""")
    return {"rows": rows, "judgments": judgments, "subtasks": subtasks, "code": code, "text": text}


# ---------------------------------------------------------------- running retrieval

def model_table() -> pd.DataFrame:
    """The registry as the model picker shows it: id, kind, name, params_b, re_runnable, why_not."""
    rows = registry_table()
    frame = pd.DataFrame([{k: r[k] for k in ("id", "kind", "name", "revision", "params_b", "re_runnable",
                                             "trust_remote_code", "card_note")} for r in rows])
    frame["why_not"] = [None if r["re_runnable"] else
                        "API-only: its published figures are shown on the overview, it cannot be re-run here"
                        for r in rows]
    return frame


def prompt_table(model: str, profile: str) -> pd.DataFrame:
    """The prompts a run of ``model`` under ``profile`` applies, per task and side, with their source
    (columns task, query, document, source; empty for a model without an encoder)."""
    from coreb_core.retrieval.models import resolve
    from coreb_core.retrieval.profiles import encoding_for

    spec = resolve(model)
    if spec.kind != "dense":
        return pd.DataFrame(columns=["task", "query", "document", "source"])
    encoding = encoding_for(spec, profile, "cpu")
    return pd.DataFrame([{"task": task, **encoding.prompt(task)._asdict()} for task in TASKS])


def cuda_status() -> tuple[bool, str]:
    """Whether torch sees a CUDA device, and a line saying so. torch is imported only when a driver exists."""
    from coreb_core.retrieval.models import _accelerator_possible

    if not _accelerator_possible():
        return False, "CUDA unavailable: no NVIDIA driver on this machine (auto uses the CPU)"
    try:
        import torch
    except ImportError:
        return False, "CUDA unavailable: torch is not installed"
    if torch.cuda.is_available():
        names = ", ".join(torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count()))
        return True, f"CUDA available: {torch.cuda.device_count()} device(s): {names}"
    return False, f"CUDA unavailable: torch {torch.__version__} sees no CUDA device (the CPU build?)"


def eta_seconds(elapsed: float, fraction: float) -> float | None:
    """Seconds left if the rest goes as fast as what is done; None before there is anything to go by."""
    if fraction <= 0.01 or elapsed <= 0:
        return None
    return max(0.0, elapsed * (1.0 - min(fraction, 1.0)) / fraction)


def progress_text(message: str, elapsed: float, fraction: float) -> str:
    """``t2c: documents 3/8 · 12 s elapsed · about 30 s left``."""
    left = eta_seconds(elapsed, fraction)
    tail = "estimating time left" if left is None else f"about {_duration(left)} left"
    return f"{message} · {_duration(elapsed)} elapsed · {tail}"


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds} s" if seconds < 90 else f"{seconds // 60} min {seconds % 60:02d} s"


def ndcg_frame(ndcg_at_10: dict[str, float]) -> pd.DataFrame:
    """task, ndcg_at_10 (task order t2c, c2c, c2t) from RetrievalResult.ndcg_at_10."""
    return pd.DataFrame([{"task": t, "ndcg_at_10": float(ndcg_at_10[t])} for t in TASKS if t in ndcg_at_10])


# ---------------------------------------------------------------- imports

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


def error_lines(exc: Exception) -> list[str]:
    """One line per problem: each DataProblem of a DataError, else the message's lines joined."""
    if isinstance(exc, DataError) and exc.problems:
        return [str(p) for p in exc.problems]
    return [one_line(str(exc))]


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>|~$#!])")


def plain(text: Any) -> str:
    """Backslash-escape Markdown so that data shown in st.error/st.success stays literal text.

    >>> plain("file_a.jsonl: row 3: *bold*")
    'file\\\\_a.jsonl: row 3: \\\\*bold\\\\*'
    """
    return _MD_SPECIAL.sub(r"\\\1", str(text))
