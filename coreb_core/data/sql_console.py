"""A locked-down read-only SQL console over one cached release (the Data page's SQL box).

The console copies one release into a private in-memory DuckDB database (the eight configs as
tables, the Store's derived views ``queries``, ``qrels``, ``documents``, ``judgments`` recreated over
them, extra qrel sets such as ``qrels_v1`` copied as tables), then switches off every file and
network access (``enable_external_access = false``), Python replacement scans, and locks the
configuration so no statement can switch them back on. The app adds the chosen runs' ``hits`` and
per-query ``metrics`` as two more tables the same way (``extra_tables``), before the lock. Only one SELECT (or WITH … SELECT, DESCRIBE,
SHOW, SUMMARIZE: whatever DuckDB parses as a SELECT statement) is accepted; rows are capped and every
error is one line.

Example (CoREB-mini built into a cache folder ``root``; not doctested):
    >>> from coreb_core.data.store import Store
    >>> console = SqlConsole(Store("demo_v2603", root))
    >>> console.query("SELECT count(*) AS n FROM queries WHERE task = 't2c'").frame["n"].tolist()
    [720]
    >>> console.query("COPY queries TO '/tmp/x.csv'")
    Traceback (most recent call last):
    coreb_core.data.sql_console.ConsoleError: only a single SELECT (or WITH … SELECT) statement is allowed, not COPY
"""
from __future__ import annotations

import threading
import time
import warnings
from typing import Mapping, NamedTuple

import duckdb
import pandas as pd

from coreb_core.errors import CorebError
from coreb_core.data.schema import CONFIGS
from coreb_core.data.store import VIEWS, Store

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
    """The rows of one console query (at most the cap), whether more existed, and the time it took.

    Example (CoREB-mini built into a cache folder ``root``; not doctested):

    >>> result = SqlConsole(Store("demo_v2603", root)).query("SELECT query_id FROM queries ORDER BY query_id", max_rows=2)
    >>> result.frame["query_id"].tolist(), result.truncated
    (['q_c2c_cross_lang_0025', 'q_c2c_cross_lang_0026'], True)
    """
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
    """Read-only SQL over a private in-memory copy of one release (see the module docstring).

    Example (CoREB-mini built into a cache folder ``root``; not doctested):

    >>> console = SqlConsole(Store("demo_v2603", root))
    >>> console.query("SELECT task, count(*) AS queries FROM queries GROUP BY task ORDER BY task").frame
      task  queries
    0  c2c      144
    1  c2t      336
    2  t2c      720
    >>> console.close()
    """

    def __init__(self, store: Store, memory_limit: str = SQL_MEMORY_LIMIT,
                 extra_tables: Mapping[str, pd.DataFrame] | None = None) -> None:
        """``extra_tables`` (name -> frame, e.g. ``RUN_TABLES`` from ``console_tables``) are copied in as
        tables too, by the app and before the lock: user SQL can only read them."""
        self.release = store.release
        self.con = duckdb.connect(":memory:")
        copied = list(CONFIGS) + [f"qrels_{name}" for name in store.extra_qrels]
        for name in copied:
            with warnings.catch_warnings():  # the copy is what we want here
                warnings.simplefilter("ignore")
                table = store.sql(f"SELECT * FROM {name}").to_arrow_table()
            self._copy(name, table)
        self.con.execute(VIEWS)  # the Store's own view definitions, reused as they are
        extra = dict(extra_tables or {})
        for name, frame in extra.items():
            if not name.isidentifier() or name in copied or name in _DERIVED_VIEWS:
                raise ValueError(f"cannot add a console table named {name!r}")
            self._copy(name, frame)
        self.tables = copied[: len(CONFIGS)] + list(_DERIVED_VIEWS) + copied[len(CONFIGS):] + list(extra)
        for setting in ("SET enable_external_access = false", "SET python_enable_replacements = false",
                        f"SET memory_limit = '{memory_limit}'", "SET lock_configuration = true"):
            self.con.execute(setting)

    def _copy(self, name: str, source) -> None:
        """A private table ``name`` holding a copy of an arrow table or a frame (before the lock only)."""
        self.con.register("_source", source)
        self.con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM _source')
        self.con.unregister("_source")

    def check(self, sql: str) -> None:
        """Raise ConsoleError unless ``sql`` is exactly one SELECT statement.

        Example (CoREB-mini built into a cache folder ``root``; not doctested):

        >>> console = SqlConsole(Store("demo_v2603", root))
        >>> console.check("SELECT 1")
        >>> console.check("DROP TABLE queries")
        Traceback (most recent call last):
        coreb_core.data.sql_console.ConsoleError: only a single SELECT (or WITH … SELECT) statement is allowed, not DROP
        """
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
        """Run one checked SELECT on a fresh cursor; at most ``max_rows`` rows come back.

        Example (CoREB-mini built into a cache folder ``root``; not doctested):

        >>> console = SqlConsole(Store("demo_v2603", root))
        >>> console.query("SELECT count(*) AS n FROM queries WHERE task = 't2c'").frame["n"].tolist()
        [720]
        """
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
        """table, kind (table or view), column, type: what the console can query.

        Example (CoREB-mini built into a cache folder ``root``; not doctested):

        >>> SqlConsole(Store("demo_v2603", root)).schema().head(3)
                 table   kind    column     type
        0  code_corpus  table   code_id  VARCHAR
        1  code_corpus  table      code  VARCHAR
        2  code_corpus  table  language  VARCHAR
        """
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
        """Drop the private in-memory database.

        Example (CoREB-mini built into a cache folder ``root``; not doctested):

        >>> console = SqlConsole(Store("demo_v2603", root))
        >>> console.close()
        """
        self.con.close()
