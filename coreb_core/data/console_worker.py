"""The SQL console's worker process (``coreb_core.data.sql_console`` starts and talks to it).

DuckDB's ``memory_limit`` bounds only what its buffer manager holds: one huge list value
(``unnest(range(3000000000))`` asks for 32 GB in one allocation) or a growing string is allocated beside it,
and the kernel's overcommit lets such an allocation succeed and fill the machine page by page. So the
console's queries run here, in a process of their own whose data size the operating system caps
(``RLIMIT_DATA``: an allocation past it fails at once, DuckDB answers ``bad allocation``), and which the
console kills when a query runs past its time. Whatever happens to this process, the server or the CLI
that started it carries on.

The worker holds the private in-memory copy of one release (the tables it is sent), switches off every
file and network access, extension loading and the settings that name server paths, locks the
configuration, and then answers one request at a time on its pipe. It imports only DuckDB and Arrow (a
restart costs well under a second of imports); results go back as Arrow tables, the console turns them into
frames. The console starts it as ``python -m coreb_core.data.console_worker <socket fd> <data bytes>`` with its
stdout and stderr on /dev/null: a crash inside DuckDB must not add lines to the CLI's one error line.
"""
from __future__ import annotations

import resource
import signal
import sys
import threading
from multiprocessing.connection import Connection
from typing import Any, NamedTuple

import duckdb
import pyarrow as pa

# DuckDB types of a fixed, small size: they come back as they are. Every other type (text, blobs, lists,
# structs, maps, bit strings, big numbers, variants) comes back as text cut to the cell cap.
FIXED_SIZE_TYPES = frozenset({
    "boolean", "tinyint", "smallint", "integer", "bigint", "hugeint", "utinyint", "usmallint", "uinteger",
    "ubigint", "uhugeint", "float", "double", "decimal", "date", "time", "time_ns", "time with time zone",
    "timestamp", "timestamp_s", "timestamp_ms", "timestamp_ns", "timestamp with time zone", "interval", "uuid",
    "enum", "null"})
# Settings whose defaults name folders of the server (~/.duckdb/...): duckdb_settings(), current_setting()
# and error messages would show them. Nothing is read from or written to them (no file access, no extensions).
HIDDEN_PATH = "<none>"
_LOCKDOWN = (f"SET secret_directory = '{HIDDEN_PATH}'", f"SET extension_directory = '{HIDDEN_PATH}'",
             "SET autoinstall_known_extensions = false", "SET autoload_known_extensions = false",
             "SET enable_external_access = false", "SET python_enable_replacements = false")


class Caps(NamedTuple):
    """What one query may bring back (the console's SQL_*_CAP constants)."""
    rows: int
    columns: int
    cell: int
    bytes: int
    batch_rows: int


class Answer(NamedTuple):
    """One query's rows within the caps, as Arrow: ``cut`` are the positions of the columns whose cells were
    cut inside DuckDB to ``cell + 1`` characters (the ``+ 1`` says a cell was longer)."""
    table: pa.Table
    cut: list[int]
    byte_capped: bool


class Failure(NamedTuple):
    """Why a request failed: ``kind`` is ``timeout``, ``memory`` (DuckDB's limit or the process's) or
    ``error``; ``message`` is DuckDB's text (the console makes it one line)."""
    kind: str
    message: str


class Refused(Exception):
    """A query the console's caps refuse before running it (the message is the console's)."""


def serve(conn: Connection, data_bytes: int) -> None:
    """The worker's main loop: cap the data size, then answer ``(verb, *args)`` requests with ``("ok", value)``
    or ``("failed", Failure)`` until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the CLI: the parent ends, and this process with it
    resource.setrlimit(resource.RLIMIT_DATA, (data_bytes, data_bytes))
    con: duckdb.DuckDBPyConnection | None = None
    while True:
        try:
            verb, *args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if verb == "load":
                con = load(*args)
                reply: tuple[str, Any] = ("ok", None)
            elif con is None:
                reply = ("failed", Failure("error", "the console holds no release"))
            elif verb == "query":
                reply = ("ok", query(con, *args))
            else:
                reply = ("ok", schema(con))
        except duckdb.InterruptException:
            reply = ("failed", Failure("timeout", ""))
        except duckdb.OutOfMemoryException as exc:
            reply = ("failed", Failure("memory", str(exc)))
        except MemoryError:
            reply = ("failed", Failure("memory", "bad allocation"))
        except Refused as exc:
            reply = ("failed", Failure("refused", str(exc)))
        except Exception as exc:  # a DuckDB error (syntax, catalog, permission …): its own words
            reply = ("failed", Failure("error", str(exc)))
        try:
            conn.send(reply)
        except MemoryError:  # pickling the answer outgrew the limit
            conn.send(("failed", Failure("memory", "bad allocation")))


def load(tables: dict[str, pa.Table], views: str, memory_limit: str) -> duckdb.DuckDBPyConnection:
    """A private in-memory database holding ``tables`` and the ``views`` over them, locked down."""
    # No temp directory: DuckDB would spill big sorts and joins into ./.tmp of the server's working
    # directory. It can only be set when connecting (enable_external_access locks it, and so does the lock).
    con = duckdb.connect(":memory:", config={"temp_directory": ""})
    for name, table in tables.items():
        con.register("_source", table)
        con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM _source')
        con.unregister("_source")
    con.execute(views)
    for setting in (*_LOCKDOWN, f"SET memory_limit = '{memory_limit}'", "SET lock_configuration = true"):
        con.execute(setting)
    return con


def query(con: duckdb.DuckDBPyConnection, sql: str, caps: Caps, timeout_s: float) -> Answer:
    """Run one (already checked) SELECT on a fresh cursor within ``caps``; DuckDB interrupts it after
    ``timeout_s`` (the time covers running and reading)."""
    cur = con.cursor()
    timer = threading.Timer(timeout_s, cur.interrupt)
    timer.start()
    try:
        relation, cut = bounded(cur.sql(sql), caps)
        reader = relation.limit(caps.rows + 1).to_arrow_reader(caps.batch_rows)
        batches, held, byte_capped = [], 0, False
        for batch in reader:
            while batch.num_rows and held + batch.nbytes > caps.bytes:
                batch, byte_capped = batch.slice(0, batch.num_rows // 2), True
            batches.append(batch)
            held += batch.nbytes
            if byte_capped:
                break
        reader.close()  # DuckDB stops computing rows nobody reads
        return Answer(pa.Table.from_batches(batches, reader.schema), cut, byte_capped)
    finally:
        timer.cancel()
        cur.close()


def bounded(relation: duckdb.DuckDBPyRelation, caps: Caps) -> tuple[duckdb.DuckDBPyRelation, list[int]]:
    """``relation`` with every cell of a type of unbounded size as text of at most ``caps.cell + 1``
    characters, and the positions of those columns; Refused beyond ``caps.columns`` columns."""
    names, types = relation.columns, relation.types
    if len(names) > caps.columns:
        raise Refused(f"the query returns {len(names)} columns; the console shows at most "
                      f"{caps.columns}: name the columns you need")
    exprs, cut = [], []
    for i, (name, kind) in enumerate(zip(names, types), start=1):
        alias = '"' + name.replace('"', '""') + '"'
        if kind.id in FIXED_SIZE_TYPES:
            exprs.append(f"#{i} AS {alias}")
        else:
            text = f"#{i}" if kind.id == "varchar" else f"CAST(#{i} AS VARCHAR)"
            exprs.append(f"left({text}, {caps.cell + 1}) AS {alias}")
            cut.append(i - 1)
    return relation.project(", ".join(exprs)), cut


def schema(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """table, kind (table or view), column, type of every table and view the console holds."""
    cur = con.cursor()
    try:
        return cur.execute("""
            SELECT table_name AS "table", CASE WHEN t.table_name IS NULL THEN 'view' ELSE 'table' END AS kind,
                   column_name AS "column", data_type AS type
            FROM duckdb_columns() c LEFT JOIN duckdb_tables() t USING (table_name)
            WHERE c.schema_name = 'main' ORDER BY "table", column_index""").to_arrow_table()
    finally:
        cur.close()


if __name__ == "__main__":
    # Through the module's own name, so that what it sends back unpickles as coreb_core.data.console_worker.*
    from coreb_core.data import console_worker

    console_worker.serve(Connection(int(sys.argv[1])), int(sys.argv[2]))
