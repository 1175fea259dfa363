"""A locked-down read-only SQL console over one cached release (the Data page's SQL box).

The console copies one release into a private in-memory DuckDB database (the eight configs as
tables, the Store's derived views ``queries``, ``qrels``, ``documents``, ``judgments`` recreated over
them, extra qrel sets such as ``qrels_v1`` copied as tables), then switches off every file and
network access (``enable_external_access = false``), Python replacement scans and spilling to disk (no
``temp_directory``: a query that outgrows the memory limit fails instead of writing files), and locks the
configuration so no statement can switch them back on. The app adds the chosen runs' ``hits`` and
per-query ``metrics`` as two more tables the same way (``extra_tables``), before the lock. Only one SELECT (or WITH … SELECT, DESCRIBE,
SHOW, SUMMARIZE: whatever DuckDB parses as a SELECT statement) is accepted; every error is one line.

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
"""
from __future__ import annotations

import threading
import time
import warnings
from typing import Mapping, NamedTuple

import duckdb
import pandas as pd
import pyarrow as pa

from coreb_core.data.schema import CONFIGS
from coreb_core.data.store import VIEWS, Store
from coreb_core.errors import CorebError

SQL_ROW_CAP = 10_000
SQL_BYTE_CAP = 50_000_000  # bytes of one result (as Arrow) held, rendered and offered as a CSV
SQL_CELL_CAP = 2_000  # characters of one cell; longer ones are cut and end in "…"
SQL_COLUMN_CAP = 100
SQL_TIMEOUT_S = 30.0
SQL_MEMORY_LIMIT = "2GB"
_BATCH_ROWS = 256  # rows per Arrow batch read: the byte cap is checked between batches
# DuckDB types of a fixed, small size: they come back as they are. Every other type (text, blobs, lists,
# structs, maps, bit strings, big numbers, variants) comes back as text cut to SQL_CELL_CAP characters.
_FIXED_SIZE_TYPES = frozenset({
    "boolean", "tinyint", "smallint", "integer", "bigint", "hugeint", "utinyint", "usmallint", "uinteger",
    "ubigint", "uhugeint", "float", "double", "decimal", "date", "time", "time_ns", "time with time zone",
    "timestamp", "timestamp_s", "timestamp_ms", "timestamp_ns", "timestamp with time zone", "interval", "uuid",
    "enum", "null"})
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
        return notes


def one_line(message: str) -> str:
    """DuckDB's multi-line errors (hint, ``LINE 1:`` and caret lines) as one line.

    >>> one_line('Catalog Error: Table with name x does not exist!\\nDid you mean "t"?\\n\\nLINE 1: FROM x\\n  ^')
    'Catalog Error: Table with name x does not exist! Did you mean "t"?'
    """
    parts = [line.strip() for line in str(message).splitlines()]
    parts = [p for p in parts if p and not p.startswith("LINE ") and set(p) != {"^"}]
    return " ".join(parts) or "unknown error"


def check_select(sql: str) -> None:
    """Raise ConsoleError unless ``sql`` is exactly one SELECT statement (parsed by DuckDB, not run: the
    CLI checks before it copies a release).

    >>> check_select("SELECT 1")
    >>> check_select("DROP TABLE queries")
    Traceback (most recent call last):
    coreb_core.data.sql_console.ConsoleError: only a single SELECT (or WITH … SELECT) statement is allowed, not DROP
    """
    if not sql.strip():
        raise ConsoleError("the query is empty: write one SELECT statement")
    try:
        with duckdb.connect(":memory:") as con:
            statements = con.extract_statements(sql)
    except duckdb.Error as exc:
        raise ConsoleError(one_line(str(exc))) from None
    if len(statements) != 1:
        raise ConsoleError(f"only a single statement is allowed; this text holds {len(statements)}")
    kind = statements[0].type
    if kind != duckdb.StatementType.SELECT:
        raise ConsoleError("only a single SELECT (or WITH … SELECT) statement is allowed, "
                           f"not {kind.name}")


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
                 extra_tables: Mapping[str, pd.DataFrame] | None = None) -> None:
        """``extra_tables`` (name -> frame, e.g. ``RUN_TABLES`` from ``console_tables``) are copied in as
        tables too, by the app and before the lock: user SQL can only read them."""
        self.release = store.release
        self.memory_limit = memory_limit
        # No temp directory: DuckDB would spill big sorts and joins into ./.tmp of the server's working
        # directory. It can only be set when connecting (enable_external_access locks it, and so does the lock).
        self.con = duckdb.connect(":memory:", config={"temp_directory": ""})
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

    def query(self, sql: str, max_rows: int = SQL_ROW_CAP, timeout_s: float = SQL_TIMEOUT_S) -> QueryResult:
        """Run one SELECT (``check_select``) on a fresh cursor, within the caps (see the module docstring): at most
        ``max_rows`` rows come back.

        Example (CoREB-mini in ``root``):

        >>> console = SqlConsole(Store("demo_v2603", root))
        >>> console.query("SELECT count(*) AS n FROM queries WHERE task = 't2c'").frame["n"].tolist()
        [720]
        >>> console.query("SELECT repeat('y', 1000000) AS s FROM range(3000)").notes()
        ['3,000 cells longer than 2,000 characters are cut']
        """
        check_select(sql)
        start = time.perf_counter()
        cur = self.con.cursor()
        timer = threading.Timer(timeout_s, cur.interrupt)
        timer.start()
        try:
            relation, cut = self._bounded(cur.sql(sql))
            reader = relation.limit(max_rows + 1).to_arrow_reader(_BATCH_ROWS)
            batches, held, byte_capped = [], 0, False
            for batch in reader:
                while batch.num_rows and held + batch.nbytes > SQL_BYTE_CAP:
                    batch, byte_capped = batch.slice(0, batch.num_rows // 2), True
                batches.append(batch)
                held += batch.nbytes
                if byte_capped:
                    break
            reader.close()  # DuckDB stops computing rows nobody reads
            # DuckDB's own conversion to pandas, as for any other query (dates, decimals, NULLs in integers)
            frame = cur.from_arrow(pa.Table.from_batches(batches, reader.schema)).df()
            frame.columns = reader.schema.names  # as the query named them (the copy renames repeated names)
        except duckdb.InterruptException:
            raise ConsoleError(f"the query ran longer than {timeout_s:g} s and was stopped") from None
        except duckdb.OutOfMemoryException:
            raise ConsoleError(f"the query needs more than the console's {self.memory_limit} of memory (nothing "
                               "is written to disk): narrow it with WHERE, LIMIT or fewer columns") from None
        except duckdb.Error as exc:
            raise ConsoleError(one_line(str(exc))) from None
        finally:
            timer.cancel()
            cur.close()
        truncated = byte_capped or len(frame) > max_rows
        frame = frame.iloc[:max_rows].reset_index(drop=True)
        cut_cells = 0
        for i in cut:  # cut inside DuckDB to SQL_CELL_CAP + 1 characters: the "+ 1" says it was longer
            column = frame.iloc[:, i]
            long = column.str.len().fillna(0) > SQL_CELL_CAP
            if long.any():
                cut_cells += int(long.sum())
                frame.isetitem(i, column.where(~long, column.str.slice(0, SQL_CELL_CAP) + "…"))
        return QueryResult(frame, truncated, time.perf_counter() - start, cut_cells, byte_capped)

    @staticmethod
    def _bounded(relation: duckdb.DuckDBPyRelation) -> tuple[duckdb.DuckDBPyRelation, list[int]]:
        """``relation`` with every cell of a type of unbounded size as text of at most SQL_CELL_CAP + 1
        characters, and the positions of those columns; ConsoleError beyond SQL_COLUMN_CAP columns."""
        names, types = relation.columns, relation.types
        if len(names) > SQL_COLUMN_CAP:
            raise ConsoleError(f"the query returns {len(names)} columns; the console shows at most "
                               f"{SQL_COLUMN_CAP}: name the columns you need")
        exprs, cut = [], []
        for i, (name, kind) in enumerate(zip(names, types), start=1):
            alias = '"' + name.replace('"', '""') + '"'
            if kind.id in _FIXED_SIZE_TYPES:
                exprs.append(f"#{i} AS {alias}")
            else:
                text = f"#{i}" if kind.id == "varchar" else f"CAST(#{i} AS VARCHAR)"
                exprs.append(f"left({text}, {SQL_CELL_CAP + 1}) AS {alias}")
                cut.append(i - 1)
        return relation.project(", ".join(exprs)), cut

    def schema(self) -> pd.DataFrame:
        """table, kind (table or view), column, type: what the console can query.

        Example (CoREB-mini in ``root``):

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

        Example (CoREB-mini in ``root``):

        >>> console = SqlConsole(Store("demo_v2603", root))
        >>> console.close()
        """
        self.con.close()
