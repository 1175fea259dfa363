"""A locked-down read-only SQL console over one cached release (the Data page's SQL box).

The console copies one release into a private in-memory DuckDB database (the eight configs as
tables, the Store's derived views ``queries``, ``qrels``, ``documents``, ``judgments`` recreated over
them, extra qrel sets such as ``qrels_v1`` copied as tables), then switches off every file and
network access (``enable_external_access = false``), Python replacement scans and spilling to disk (no
``temp_directory``: a query that outgrows the memory limit fails instead of writing files), and locks the
configuration so no statement can switch them back on. The app adds the chosen runs' ``hits`` and
per-query ``metrics`` as two more tables the same way (``extra_tables``), before the lock. Only one SELECT (or WITH … SELECT, DESCRIBE,
SHOW, SUMMARIZE: whatever DuckDB parses as a SELECT statement; and PIVOT) is accepted; every error is one line, names
no folder of the server (the cache, home and working directory read ``<cache>``, ``<home>``, ``<cwd>``) and
suggests no statement the console refuses.

That database lives in a worker process of its own (``coreb_core.data.console_worker``), started on the first
query, whose data size the operating system caps at ``SQL_WORKER_MEMORY``: DuckDB's ``memory_limit`` does not
bound a single huge value such as ``unnest(range(3000000000))``. A query past that size, or past its time
(DuckDB's own interrupt, then a kill ``SQL_GRACE_S`` later), ends with one line; the next query starts a
fresh worker. The server or the CLI never holds more than the capped result.

What comes back is bounded, so that no query can exhaust the server that holds and renders it: at most
``SQL_COLUMN_CAP`` columns (DuckDB computes 2,048 rows of every column at once), ``SQL_ROW_CAP`` rows and
``SQL_BYTE_CAP`` bytes, read as a stream that stops at the caps, and no cell longer than ``SQL_CELL_CAP``
characters (cut inside DuckDB, before the value is copied out; types of unbounded size such as lists,
structs and blobs come back as their text). The time limit covers running, reading and converting.

Example (CoREB-mini in ``root``):
    >>> from coreb_core.data.store import Store
    >>> console = SqlConsole(Store("demo_v2603", root))
    >>> console.query("SELECT count(*) AS n FROM queries WHERE task = 't2c'").frame["n"].tolist()
    [720]
    >>> console.query("COPY queries TO '/tmp/x.csv'")
    Traceback (most recent call last):
    coreb_core.data.sql_console.ConsoleError: only a single SELECT (or WITH … SELECT) statement is allowed, not COPY
    >>> console.close()
"""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import warnings
import weakref
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Mapping, NamedTuple

import duckdb
import pandas as pd
import pyarrow as pa

from coreb_core.data import console_worker
from coreb_core.data.schema import CONFIGS
from coreb_core.data.store import VIEWS, Store
from coreb_core.errors import CorebError
from coreb_core.paths import cache_root

SQL_ROW_CAP = 10_000
SQL_BYTE_CAP = 50_000_000  # bytes of one result (as Arrow) held, rendered and offered as a CSV
SQL_CELL_CAP = 2_000  # characters of one cell; longer ones are cut and end in "…"
SQL_COLUMN_CAP = 100
SQL_TIMEOUT_S = 30.0
SQL_MEMORY_LIMIT = "2GB"  # DuckDB's own limit: what its buffer manager holds (tables, sorts, joins)
SQL_WORKER_MEMORY = 4 * 2**30  # bytes of data the worker process may hold at all (the operating system's cap)
SQL_GRACE_S = 5.0  # past a query's time, how long DuckDB's own interrupt may take before the worker is killed
_START_TIMEOUT_S = 120.0  # starting a worker and copying the release into it
_BATCH_ROWS = 256  # rows per Arrow batch read: the byte cap is checked between batches
EXAMPLE_QUERIES = {
    "Queries per task": "SELECT task, count(*) AS queries FROM queries GROUP BY task ORDER BY task",
    "Traps per T2C subtask": ("SELECT subtask, count(*) FILTER (relevance = 1) AS traps,\n"
                              "       count(*) FILTER (relevance = 2) AS positives\n"
                              "FROM judgments WHERE task = 't2c' GROUP BY subtask ORDER BY subtask"),
    "Failing solutions per language": ("SELECT language, count(*) AS failing FROM documents\n"
                                       "WHERE corpus = 'code' AND NOT passed GROUP BY language ORDER BY failing DESC"),
    "Traps ranked above the first positive, per run": (
        "-- hits: the chosen runs' stored hits; judgments: the graded qrels (stored ranks, before the evaluator\n"
        "-- drops the query's own id and the C2C anchor)\n"
        "WITH judged AS (\n"
        "  SELECT h.run_id, h.run_name, h.task, h.query_id, h.rank, j.grade\n"
        "  FROM hits h JOIN judgments j USING (task, query_id, doc_id)\n"
        "), first_positive AS (\n"
        "  SELECT run_id, task, query_id, min(rank) AS first_positive_rank\n"
        "  FROM judged WHERE grade = 'positive' GROUP BY ALL\n"
        ")\n"
        "SELECT j.run_name, j.task, count(*) AS traps_above_first_positive,\n"
        "       count(DISTINCT j.query_id) AS queries_affected\n"
        "FROM judged j JOIN first_positive f USING (run_id, task, query_id)\n"
        "WHERE j.grade = 'trap' AND j.rank < f.first_positive_rank\n"
        "GROUP BY ALL ORDER BY j.task, traps_above_first_positive DESC"),
    "Queries where one run beats another (nDCG@10, v2)": (
        "-- metrics: the evaluator's per-query numbers for the chosen runs, one row per run, scheme and query\n"
        "SELECT a.task, a.query_id, a.run_name AS winner, b.run_name AS loser,\n"
        "       round(a.ndcg_at_10, 4) AS winner_ndcg_at_10, round(b.ndcg_at_10, 4) AS loser_ndcg_at_10,\n"
        "       round(a.ndcg_at_10 - b.ndcg_at_10, 4) AS delta\n"
        "FROM metrics a JOIN metrics b USING (scheme, task, query_id)\n"
        "WHERE a.scheme = 'v2' AND a.run_id <> b.run_id AND a.ndcg_at_10 > b.ndcg_at_10\n"
        "ORDER BY delta DESC, a.task, a.query_id"),
    "Tables and columns": "SELECT table_name, column_name, data_type FROM duckdb_columns() ORDER BY table_name",
}
RUN_TABLES = ("hits", "metrics")  # the app's run tables (coreb_core.analysis.console_tables), when given
_DERIVED_VIEWS = ("queries", "qrels", "documents", "judgments")


class ConsoleError(CorebError):
    """A refused or failed console statement; the message is always one line.

    >>> str(ConsoleError("only a single SELECT (or WITH … SELECT) statement is allowed, not DROP"))
    'only a single SELECT (or WITH … SELECT) statement is allowed, not DROP'
    """


class QueryResult(NamedTuple):
    """The rows of one console query (within the caps), whether more existed, the time it took, and what
    was cut.

    Example (CoREB-mini in ``root``):

    >>> result = SqlConsole(Store("demo_v2603", root)).query("SELECT query_id FROM queries ORDER BY query_id", max_rows=2)
    >>> result.frame["query_id"].tolist(), result.truncated, result.notes()
    (['q_c2c_cross_lang_0025', 'q_c2c_cross_lang_0026'], True, ['only the first 2 rows come back (the row cap)'])
    """
    frame: pd.DataFrame  # at most the row cap and SQL_BYTE_CAP bytes
    truncated: bool  # more rows existed than were returned
    seconds: float
    cut_cells: int = 0  # cells longer than SQL_CELL_CAP characters, cut to it
    byte_capped: bool = False  # the rows stopped at SQL_BYTE_CAP (truncated is then true too)
    as_text: tuple[str, ...] = ()  # date, time-stamp or interval columns beyond pandas' range: DuckDB's text

    def notes(self) -> list[str]:
        """One line per cap the result reached, for the page and the CLI to show.

        >>> QueryResult(pd.DataFrame({"s": ["y", "z"]}), True, 0.1, cut_cells=3, byte_capped=True).notes()
        ['only the first 2 rows come back: the result reached the 50 MB cap', '3 cells longer than 2,000 characters are cut']
        """
        notes = []
        if self.byte_capped:
            notes.append(f"only the first {len(self.frame):,} rows come back: the result reached the "
                         f"{SQL_BYTE_CAP / 1e6:g} MB cap")
        elif self.truncated:
            notes.append(f"only the first {len(self.frame):,} rows come back (the row cap)")
        if self.cut_cells:
            notes.append(f"{self.cut_cells:,} {'cell' if self.cut_cells == 1 else 'cells'} longer than "
                         f"{SQL_CELL_CAP:,} characters are cut")
        if self.as_text:
            names = ", ".join(repr(name) for name in self.as_text)
            notes.append(f"{names} shown as text: a value is infinite or lies outside the years 1 to 9999")
        return notes


def one_line(message: str) -> str:
    """DuckDB's multi-line errors (hint, ``LINE 1:`` and caret lines) as one line.

    >>> one_line('Catalog Error: Table with name x does not exist!\\nDid you mean "t"?\\n\\nLINE 1: FROM x\\n  ^')
    'Catalog Error: Table with name x does not exist! Did you mean "t"?'
    """
    parts = [line.strip() for line in str(message).splitlines()]
    parts = [p for p in parts if p and not p.startswith("LINE ") and set(p) != {"^"}]
    return " ".join(parts) or "unknown error"


# Sentences of DuckDB's errors that suggest a statement the console refuses ('Use "SET max_expression_depth
# TO x"', 'INSTALL spatial; LOAD spatial;'): following them would only earn another refusal.
_REFUSED_ADVICE = re.compile(r"\b(SET|RESET|INSTALL|LOAD|PRAGMA|ATTACH|CALL)\s+[\w'\"]")
# DuckDB files some statements under another kind (CHECKPOINT is a CALL, INSTALL a LOAD, USE and RESET a SET,
# ANALYZE a VACUUM): those are named as written.
_RENAMED_KINDS = frozenset({"CALL", "LOAD", "SET", "VACUUM"})
# A PIVOT without an IN list is the one statement DuckDB parses as MULTI: it first reads the pivoted column's values
# into a temporary ENUM type, then selects; nothing outside the console's private database is written (was: refused
# as "not MULTI").
_PIVOT = re.compile(r"\bPIVOT(?:_WIDER)?\b", re.IGNORECASE)


def console_message(message: str) -> str:
    """A DuckDB error as the console shows it: one line, without advice to run a statement it refuses.

    >>> console_message('Parser Error: Max expression depth limit of 1000 exceeded. Use "SET max_expression_depth '
    ...                 'TO x" to increase the maximum expression depth.')
    'Parser Error: Max expression depth limit of 1000 exceeded.'
    """
    sentences = re.split(r"(?<=[.!?;])\s+", one_line(message))
    kept = [s for s in sentences if not _REFUSED_ADVICE.search(s)]
    return " ".join(kept or sentences[:1])


def hide_paths(message: str, paths: Mapping[str, str]) -> str:
    """``message`` with each folder of ``paths`` (folder -> placeholder; longer ones first) replaced.

    >>> hide_paths('Cannot access directory "/srv/app/data_cache/coreb"', {"/srv/app/data_cache": "<cache>"})
    'Cannot access directory "<cache>/coreb"'
    """
    for folder in sorted(paths, key=len, reverse=True):
        if len(folder) > 1:  # never "/": every path starts with it
            message = message.replace(folder, paths[folder])
    return message


def check_select(sql: str) -> None:
    """Raise ConsoleError unless ``sql`` is exactly one SELECT statement (parsed by DuckDB, not run: the
    CLI checks before it copies a release).

    >>> check_select("SELECT 1")
    >>> check_select("DROP TABLE queries")
    Traceback (most recent call last):
    coreb_core.data.sql_console.ConsoleError: only a single SELECT (or WITH … SELECT) statement is allowed, not DROP
    >>> check_select("CHECKPOINT")
    Traceback (most recent call last):
    coreb_core.data.sql_console.ConsoleError: only a single SELECT (or WITH … SELECT) statement is allowed, not CHECKPOINT
    >>> check_select("PIVOT queries ON task USING count(*)")
    """
    if not sql.strip():
        raise ConsoleError("the query is empty: write one SELECT statement")
    try:
        with duckdb.connect(":memory:") as con:
            statements = con.extract_statements(sql)
    except duckdb.Error as exc:
        raise ConsoleError(console_message(str(exc))) from None
    if len(statements) != 1:
        raise ConsoleError(f"only a single statement is allowed; this text holds {len(statements)}")
    try:
        kind: str | None = statements[0].type.name
    except ValueError:  # a kind the Python API has no name for (UPDATE EXTENSIONS)
        kind = None
    if kind == "SELECT" or kind == "MULTI" and _PIVOT.search(statements[0].query):
        return
    written = re.match(r"(?:FORCE\s+)?[A-Za-z]+", statements[0].query.strip())
    if kind is None or (kind in _RENAMED_KINDS and written):
        kind = " ".join(written.group(0).upper().split()) if written else "this statement"
    raise ConsoleError(f"only a single SELECT (or WITH … SELECT) statement is allowed, not {kind}")


_DATE_TYPES = frozenset({"date", "timestamp", "timestamp_s", "timestamp_ms", "timestamp_ns",
                         "timestamp with time zone"})
_MAX_TIMEDELTA_S = 9.2e12  # pandas' timedelta64[us] holds about ±2**63 microseconds


def _frame(table: pa.Table) -> tuple[pd.DataFrame, list[int]]:
    """``table`` as a frame by DuckDB's own conversion to pandas (dates, decimals, NULLs in integers), but for
    the positions it returns: date, time-stamp and interval columns holding a value pandas cannot show as it
    is, which come back as DuckDB's text. ``DATE '5877642-06-25'`` does not convert at all (was: a
    ConversionException traceback), ``'infinity'::TIMESTAMP`` converts to a concrete date in the year 294247,
    and a year past 9999 cannot be printed by pandas.

    >>> frame, as_text = _frame(duckdb.sql("SELECT 'infinity'::DATE AS d, DATE '2024-01-02' AS ok").to_arrow_table())
    >>> frame.iloc[0].tolist(), as_text
    (['infinity', Timestamp('2024-01-02 00:00:00')], [0])
    """
    with duckdb.connect(":memory:") as con:
        relation = con.from_arrow(table)
        checks = {}
        for i, kind in enumerate(relation.types, start=1):
            if kind.id in _DATE_TYPES:
                checks[i - 1] = f"bool_or(NOT isfinite(#{i}) OR year(#{i}) NOT BETWEEN 1 AND 9999)"
            elif kind.id == "interval":
                checks[i - 1] = f"bool_or(abs(epoch(#{i})) > {_MAX_TIMEDELTA_S})"
        as_text = []
        if checks:
            flags = relation.aggregate(", ".join(checks.values())).fetchall()[0]
            as_text = [i for i, flag in zip(checks, flags) if flag]
        if as_text:
            relation = relation.project(", ".join(f"CAST(#{i + 1} AS VARCHAR)" if i in as_text else f"#{i + 1}"
                                                  for i in range(len(relation.types))))
        return relation.df(), as_text


class _Worker(NamedTuple):
    """A running worker process and the console's end of the socket it answers on."""
    process: subprocess.Popen
    conn: Connection


def _stop(worker: _Worker) -> None:
    """Kill a worker and reap it (its memory is the operating system's again)."""
    worker.conn.close()
    worker.process.kill()
    worker.process.wait()


class SqlConsole:
    """Read-only SQL over a private in-memory copy of one release (see the module docstring).

    Example (CoREB-mini in ``root``):

    >>> console = SqlConsole(Store("demo_v2603", root))
    >>> console.query("SELECT task, count(*) AS queries FROM queries GROUP BY task ORDER BY task").frame
      task  queries
    0  c2c      144
    1  c2t      336
    2  t2c      720
    >>> console.close()
    """

    def __init__(self, store: Store, memory_limit: str = SQL_MEMORY_LIMIT,
                 extra_tables: Mapping[str, pd.DataFrame] | None = None, worker_memory: int = SQL_WORKER_MEMORY,
                 grace_s: float = SQL_GRACE_S) -> None:
        """``extra_tables`` (name -> frame, e.g. ``RUN_TABLES`` from ``console_tables``) are copied in as
        tables too, by the app and before the lock: user SQL can only read them. ``worker_memory`` (bytes)
        caps the worker process's data; ``grace_s`` is how long past a query's time it may take to stop."""
        self.release = store.release
        self.memory_limit = memory_limit
        self.worker_memory = worker_memory
        self.grace_s = grace_s
        copied = list(CONFIGS) + [f"qrels_{name}" for name in store.extra_qrels]
        extra = dict(extra_tables or {})
        for name in extra:
            if not name.isidentifier() or name in copied or name in _DERIVED_VIEWS:
                raise ValueError(f"cannot add a console table named {name!r}")
        # What a (re)started worker is sent: Arrow tables, kept here so that a worker killed by a query can
        # be replaced without the Store.
        self._tables: dict[str, pa.Table] = {}
        for name in copied:
            with warnings.catch_warnings():  # the copy is what we want here
                warnings.simplefilter("ignore")
                self._tables[name] = store.sql(f"SELECT * FROM {name}").to_arrow_table()
        with duckdb.connect(":memory:") as con:  # DuckDB's own reading of a frame, as a table made from it
            for name, frame in extra.items():
                self._tables[name] = con.from_df(frame).to_arrow_table()
        self.tables = copied[: len(CONFIGS)] + list(_DERIVED_VIEWS) + copied[len(CONFIGS):] + list(extra)
        root = store.root or cache_root()
        self._paths = {str(root): "<cache>", str(Path(root).resolve()): "<cache>", str(Path.home()): "<home>",
                       os.getcwd(): "<cwd>"}
        self._lock = threading.Lock()  # one request at a time on the pipe (the app shares a console)
        self._worker: _Worker | None = None
        self._finalizer: weakref.finalize | None = None

    def _start(self) -> None:
        """A fresh worker holding this console's tables, locked down (started on the first request)."""
        # A plain `python -m` child, not multiprocessing: no re-import of the caller's main module, no fork of
        # a server's threads. It answers on one end of a socket pair; its output goes nowhere (one error line).
        ours, theirs = socket.socketpair()
        package_parent = str(Path(console_worker.__file__).resolve().parents[2])  # the coreb_core imported here
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_parent, os.environ.get("PYTHONPATH")]))}
        with theirs:
            process = subprocess.Popen(
                [sys.executable, "-m", "coreb_core.data.console_worker", str(theirs.fileno()), str(self.worker_memory)],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, env=env)
        self._worker = _Worker(process, Connection(ours.detach()))
        self._finalizer = weakref.finalize(self, _stop, self._worker)  # a console dropped by a cache ends its worker
        try:
            self._ask("load", (self._tables, VIEWS, self.memory_limit), _START_TIMEOUT_S)
        except ConsoleError:
            self._discard()
            raise

    def _ask(self, verb: str, args: tuple, timeout_s: float) -> Any:
        """Send one request to the worker and wait for its answer at most ``timeout_s`` (plus ``grace_s``
        for DuckDB's own interrupt); a worker that does not answer is killed, one that died (an allocation
        past its memory it could not survive) is reaped. Failures raise ConsoleError."""
        if self._worker is None:
            self._start()
        assert self._worker is not None
        conn = self._worker.conn
        try:
            conn.send((verb, *args))
            if conn.poll(timeout_s + self.grace_s):
                status, value = conn.recv()
            else:
                status, value = "failed", console_worker.Failure("timeout", "")
        except (EOFError, OSError):
            status, value = "failed", console_worker.Failure("died", "")
        if status == "ok":
            return value
        if value.kind in ("timeout", "died"):
            self._discard()
        raise ConsoleError(self._explain(verb, value, timeout_s))

    def _explain(self, verb: str, failure: console_worker.Failure, timeout_s: float) -> str:
        """The one line a failed request answers with."""
        if failure.kind == "timeout":
            if verb == "load":
                return f"copying release {self.release} into the console took longer than {timeout_s:g} s"
            return f"the query ran longer than {timeout_s:g} s and was stopped"
        narrow = "narrow it with WHERE, LIMIT or fewer columns" if verb == "query" else "the release is too large"
        if failure.kind == "died" or (failure.kind == "memory" and "bad allocation" in failure.message):
            what = "the query needs" if verb == "query" else f"release {self.release} needs"
            return (f"{what} more than the {self.worker_memory / 2**30:g} GB of memory the console's process "
                    f"may hold and was stopped: {narrow}")
        if failure.kind == "memory":
            return (f"the query needs more than the console's {self.memory_limit} of memory (nothing is "
                    f"written to disk): {narrow}")
        if failure.kind == "refused":
            return failure.message
        return hide_paths(console_message(failure.message), self._paths)

    def _discard(self) -> None:
        """Kill the worker (a query outlived its time or its memory); the next request starts a fresh one."""
        if self._finalizer is not None:
            self._finalizer()
        self._worker = self._finalizer = None

    def _request(self, verb: str, args: tuple, timeout_s: float) -> Any:
        """``_ask`` for one caller at a time: another waits for the pipe at most ``timeout_s``."""
        if not self._lock.acquire(timeout=timeout_s):
            raise ConsoleError(f"the console was busy with another query for {timeout_s:g} s: try again")
        try:
            return self._ask(verb, args, timeout_s)
        finally:
            self._lock.release()

    def query(self, sql: str, max_rows: int = SQL_ROW_CAP, timeout_s: float = SQL_TIMEOUT_S) -> QueryResult:
        """Run one SELECT (``check_select``) on a fresh cursor, within the caps (see the module docstring): at most
        ``max_rows`` rows come back.

        Example (CoREB-mini in ``root``):

        >>> console = SqlConsole(Store("demo_v2603", root))
        >>> console.query("SELECT count(*) AS n FROM queries WHERE task = 't2c'").frame["n"].tolist()
        [720]
        >>> console.query("SELECT repeat('y', 1000000) AS s FROM range(3000)").notes()
        ['3,000 cells longer than 2,000 characters are cut']
        >>> console.close()
        """
        check_select(sql)
        start = time.perf_counter()
        caps = console_worker.Caps(max_rows, SQL_COLUMN_CAP, SQL_CELL_CAP, SQL_BYTE_CAP, _BATCH_ROWS)
        answer: console_worker.Answer = self._request("query", (sql, caps, timeout_s), timeout_s)
        try:
            frame, as_text = _frame(answer.table)
        except (duckdb.Error, pd.errors.OutOfBoundsDatetime, OverflowError) as exc:  # a type _frame does not know
            raise ConsoleError(f"the result could not be shown: {one_line(str(exc))}") from None
        frame.columns = answer.table.schema.names  # as the query named them (the copy renames repeated names)
        truncated = answer.byte_capped or len(frame) > max_rows
        frame = frame.iloc[:max_rows].reset_index(drop=True)
        cut_cells = 0
        for i in answer.cut:  # cut inside DuckDB to SQL_CELL_CAP + 1 characters: the "+ 1" says it was longer
            column = frame.iloc[:, i]
            long = column.str.len().fillna(0) > SQL_CELL_CAP
            if long.any():
                cut_cells += int(long.sum())
                frame.isetitem(i, column.where(~long, column.str.slice(0, SQL_CELL_CAP) + "…"))
        return QueryResult(frame, truncated, time.perf_counter() - start, cut_cells, answer.byte_capped,
                           tuple(answer.table.schema.names[i] for i in as_text))

    def schema(self) -> pd.DataFrame:
        """table, kind (table or view), column, type: what the console can query.

        Example (CoREB-mini in ``root``):

        >>> with SqlConsole(Store("demo_v2603", root)) as console:
        ...     console.schema().head(3)
                 table   kind    column     type
        0  code_corpus  table   code_id  VARCHAR
        1  code_corpus  table      code  VARCHAR
        2  code_corpus  table  language  VARCHAR
        """
        table: pa.Table = self._request("schema", (), SQL_TIMEOUT_S)
        frame = table.to_pandas()
        order = {name: i for i, name in enumerate(self.tables)}
        return frame.sort_values("table", key=lambda s: s.map(order), kind="stable").reset_index(drop=True)

    def close(self) -> None:
        """End the worker and its private in-memory database (a later query would start a fresh one).

        Example (CoREB-mini in ``root``):

        >>> console = SqlConsole(Store("demo_v2603", root))
        >>> console.close()
        """
        with self._lock:
            self._discard()

    def __enter__(self) -> "SqlConsole":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
