"""A researcher's judgments of (query, document) pairs of a cached release: grade 0, 1 or 2, annotator, note.

Judgments live in one DuckDB file of the cache, ``data_cache/judgments.duckdb`` (``paths.judgments_file``), outside
the release folders, so re-importing a release keeps them. Each judgment is appended, never updated: the latest
judgment of a pair by an annotator is that annotator's, and the latest of a pair overall is the one applied. A
judgment belongs to the texts it judged (``query_sha256``, ``doc_sha256``: the Store's ``queries.query`` and
``documents.content``), because ids are reused across releases and re-imports with other texts: one whose texts
changed is *stale* and no longer applies.

Two processes (the app, a CLI) may judge at once: DuckDB lets one process write a file, so each read or write opens
the file, does its work and closes it at once, retrying a held lock for up to ``LOCK_WAIT_S`` seconds; within one
process a lock serialises them.

``judged_qrels_view`` makes the ``judged`` scheme's view: the v2 qrels with each applied judgment's grade.

Example (CoREB-mini in ``root``, a private copy of the cache):
    >>> j = judge("demo_v2603", "q_t2c_canonical_retro_any_0001", "code_v202603_00018", 1, "alice", root=root)
    >>> j.task, j.grade, j.annotator, j.note
    ('t2c', 1, 'alice', None)
    >>> current_judgments(store)
      task                        query_id              doc_id  relevance
    0  t2c  q_t2c_canonical_retro_any_0001  code_v202603_00018          1
    >>> judge("demo_v2603", "q_t2c_canonical_retro_any_0001", "code_v202603_00018", 3, "alice", root=root)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: grade: must be 0, 1 or 2 (0 not relevant, 1 trap or partial, 2 relevant), not 3
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
import time
import unicodedata
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, NamedTuple, Sequence

import duckdb
import numpy as np
import pandas as pd

from coreb_core.atomic import atomic_write_text, check_target
from coreb_core.data.schema import CORPUS_OF_TASK, GRADES, TASK_NAMES, TASKS
from coreb_core.data.store import Store, check_cached
from coreb_core.errors import CorebError
from coreb_core.paths import judgments_file, release_dir
from coreb_core.text import nfc_forms, quoted_id

GRADE_WORDS = {0: "not relevant", 1: "trap or partial", 2: "relevant"}
ANNOTATOR_MAX = 64
NOTE_MAX = 2000
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as the start of a formula
LOCK_WAIT_S = 10.0  # how long a write waits for another process's hold on the file
EXPORT_FORMATS = ("trec", "coreb")
STATUSES = ("applied", "superseded", "stale")

_TABLE = """CREATE TABLE IF NOT EXISTS judgments (
  id BIGINT PRIMARY KEY, release VARCHAR NOT NULL, task VARCHAR NOT NULL, query_id VARCHAR NOT NULL,
  doc_id VARCHAR NOT NULL, grade TINYINT NOT NULL CHECK (grade IN (0, 1, 2)), annotator VARCHAR NOT NULL,
  note VARCHAR, judged_at TIMESTAMP NOT NULL, query_sha256 VARCHAR NOT NULL, doc_sha256 VARCHAR NOT NULL)"""
_COLUMNS = ("id", "release", "task", "query_id", "doc_id", "grade", "annotator", "note", "judged_at",
            "query_sha256", "doc_sha256")
# One process at a time writes the file (DuckDB's lock); in this process one thread at a time opens it (two
# connections of one process to one file in different modes are refused by DuckDB).
_FILE_LOCK = threading.Lock()
_VIEW_LOCK = threading.Lock()  # one thread at a time creates a Store's judged view (a catalog write)


class Judgment(NamedTuple):
    """One stored judgment: which pair of which release, the grade, who, why, when (UTC), and the texts judged.

    >>> Judgment(1, "demo_v2603", "t2c", "q1", "d1", 2, "alice", None,
    ...          datetime(2026, 12, 6, tzinfo=timezone.utc), "ab", "cd").grade_words
    'relevant'
    """

    id: int
    release: str
    task: str
    query_id: str
    doc_id: str
    grade: int
    annotator: str
    note: str | None
    judged_at: datetime
    query_sha256: str
    doc_sha256: str

    @property
    def grade_words(self) -> str:
        """The grade in words: 0 not relevant, 1 trap or partial, 2 relevant."""
        return GRADE_WORDS[self.grade]

    def to_json(self) -> dict[str, Any]:
        """The judgment as plain JSON values (the time in ISO 8601, UTC).

        >>> Judgment(1, "r", "t2c", "q1", "d1", 0, "bob", "n", datetime(2026, 12, 6, tzinfo=timezone.utc),
        ...          "ab", "cd").to_json()["judged_at"]
        '2026-12-06T00:00:00+00:00'
        """
        return {**self._asdict(), "judged_at": self.judged_at.isoformat()}


class JudgmentSummary(NamedTuple):
    """What a release's judgments come to: how many were stored, how many pairs they judge, how many pairs have a
    judgment applied, how many judgments a later one of the same texts replaced, and how many judge texts that changed
    since (stale: they no longer apply).

    >>> JudgmentSummary(5, 3, 2, 2, 1, ("alice", "bob")).stale
    1
    """

    judgments: int
    pairs: int
    applied: int
    superseded: int
    stale: int
    annotators: tuple[str, ...]


class Agreement(NamedTuple):
    """Two annotators on the pairs both judged (each one's latest judgment of the same texts): how many, the share
    given the same grade, and Cohen's kappa over grades 0/1/2 (None where chance agreement is 1: both gave one grade
    throughout, so kappa is undefined).

    >>> Agreement("alice", "bob", 4, 0.75, 0.6).kappa
    0.6
    """

    annotator_a: str
    annotator_b: str
    pairs: int
    observed: float
    kappa: float | None

    def line(self) -> str:
        """One sentence, as the CLI and the app say it.

        >>> Agreement("alice", "bob", 4, 0.75, 0.6).line()
        'alice and bob: 4 shared pairs, 75% the same grade, Cohen kappa 0.60'
        >>> Agreement("alice", "bob", 1, 1.0, None).line()
        'alice and bob: 1 shared pair, 100% the same grade, Cohen kappa undefined (one grade throughout)'
        """
        kappa = "undefined (one grade throughout)" if self.kappa is None else f"{self.kappa:.2f}"
        return (f"{self.annotator_a} and {self.annotator_b}: {self.pairs:,} shared pair{'s' * (self.pairs != 1)}, "
                f"{self.observed:.0%} the same grade, Cohen kappa {kappa}")


# ------------------------------------------------------------------ checks: one line naming the field


def _shown(value: object, limit: int = 40) -> str:
    """A refused value for an error line: its repr with every non-ASCII character escaped, cut to ``limit``."""
    return quoted_id(value, limit) if isinstance(value, str) else ascii(value)[:limit]


def check_grade(value: object) -> int:
    """``value`` as a grade: exactly 0, 1 or 2 (an int, or its digit as text, as a command line gives it); anything
    else (3, -1, 2.5, "2.5", True, nan) is one CorebError line naming the field.

    >>> check_grade(2), check_grade("0")
    (2, 0)
    >>> check_grade(True)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: grade: must be 0, 1 or 2 (0 not relevant, 1 trap or partial, 2 relevant), not True
    >>> check_grade("2.5")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: grade: must be 0, 1 or 2 (0 not relevant, 1 trap or partial, 2 relevant), not '2.5'
    """
    grade: int | None = None
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        grade = int(value)
    elif isinstance(value, str) and value in ("0", "1", "2"):
        grade = int(value)
    if grade not in GRADES:
        raise CorebError(f"grade: must be 0, 1 or 2 (0 not relevant, 1 trap or partial, 2 relevant), not {_shown(value)}")
    assert grade is not None
    return grade


def _code_point(char: str) -> str:
    return f"U+{ord(char):04X}"


def check_annotator(name: object) -> str:
    """``name`` (in NFC) as an annotator's name: 1 to 64 characters, no control, format or other invisible character
    (Unicode category C*: ESC, NUL, a line break, U+202E), not starting with a character a spreadsheet reads as a
    formula (``= + - @``, tab, CR), no space at either end. Refused, never rewritten: one CorebError line.

    >>> check_annotator("Ada Lovelace")
    'Ada Lovelace'
    >>> check_annotator("=HYPERLINK(\\"http://x\\")")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: annotator: starts with '=', which a spreadsheet reads as a formula; start with a letter
    >>> check_annotator("eve\\x1b[31m")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: annotator: holds U+001B, a control or invisible character; use letters, digits, spaces and punctuation
    """
    if not isinstance(name, str):
        raise CorebError(f"annotator: must be text, not {_shown(name)}")
    name = unicodedata.normalize("NFC", name)
    if not name.strip():
        raise CorebError("annotator: empty; give your name or initials")
    if len(name) > ANNOTATOR_MAX:
        raise CorebError(f"annotator: {len(name):,} characters; at most {ANNOTATOR_MAX}")
    if name.startswith(FORMULA_STARTS):
        raise CorebError(f"annotator: starts with {name[0]!r}, which a spreadsheet reads as a formula; "
                         "start with a letter")
    bad = [c for c in name if unicodedata.category(c).startswith("C")]
    if bad:
        raise CorebError(f"annotator: holds {_code_point(bad[0])}, a control or invisible character; "
                         "use letters, digits, spaces and punctuation")
    if name != name.strip():
        raise CorebError(f"annotator: {_shown(name)} starts or ends with a space")
    return name


def check_note(note: object) -> str | None:
    """``note`` as a judgment's note: None for none (or empty), else text of at most 2,000 characters with no control
    or invisible character other than a line break (``\\n``) and a tab. One CorebError line otherwise.

    >>> check_note("passes the tests;\\nsee line 3"), check_note("")
    ('passes the tests;\\nsee line 3', None)
    >>> check_note("ding\\x07")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: note: holds U+0007, a control or invisible character (line breaks and tabs are kept)
    """
    if note is None or note == "":
        return None
    if not isinstance(note, str):
        raise CorebError(f"note: must be text, not {_shown(note)}")
    if len(note) > NOTE_MAX:
        raise CorebError(f"note: {len(note):,} characters; at most {NOTE_MAX:,}")
    bad = [c for c in note if c not in "\n\t" and unicodedata.category(c).startswith("C")]
    if bad:
        raise CorebError(f"note: holds {_code_point(bad[0])}, a control or invisible character "
                         "(line breaks and tabs are kept)")
    return note


def text_sha256(text: str) -> str:
    """The sha256 of a query's or a document's text (UTF-8) that a judgment records.

    >>> text_sha256("def f(): pass")[:12]
    '3c70e0681767'
    """
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# ------------------------------------------------------------------ the file: opened briefly, one writer at a time


def _held(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "lock" in text and ("could not set" in text or "conflicting" in text)


def _create(path: Path) -> None:
    """Make the judgments file, with its table, in one step another process cannot see halfway: built under a
    temporary name, then linked into place (a link never replaces a file: where another process made it first, its
    file stays). DuckDB writes a new file's header after creating it, so a file opened while being created read as
    "not a valid DuckDB database file"."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for stale in (tmp, tmp.with_name(tmp.name + ".wal")):
            stale.unlink(missing_ok=True)
        con = duckdb.connect(str(tmp))
        try:
            con.execute(_TABLE)
        finally:
            con.close()
        try:
            os.link(tmp, path)
        except FileExistsError:  # another process made it meanwhile: theirs is the file
            pass
        except OSError:  # a file system without hard links: a rename, unless the file appeared meanwhile
            if not path.exists():
                os.replace(tmp, path)
    except OSError as exc:
        raise CorebError(f"cannot write {path}: {exc.strerror or type(exc).__name__}") from None
    except duckdb.Error as exc:
        raise CorebError(f"cannot write the judgments file {path}: {str(exc).splitlines()[0]}") from None
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + ".wal")):
            leftover.unlink(missing_ok=True)


@contextmanager
def _opened(root: Path | None, write: bool) -> Iterator[duckdb.DuckDBPyConnection | None]:
    """A connection to the judgments file for one read or one write, closed at once; None for a read when the file
    does not exist yet. A lock another process holds is waited for (short backoff, up to ``LOCK_WAIT_S``); then, and
    on a file DuckDB cannot open, one CorebError line naming the file."""
    path = judgments_file(root)
    with _FILE_LOCK:
        if not write and not path.exists():
            yield None
            return
        if write and not path.exists():
            _create(path)
        deadline, pause = time.monotonic() + LOCK_WAIT_S, 0.02
        while True:
            try:
                con = duckdb.connect(str(path), read_only=not write)
                break
            except duckdb.Error as exc:
                if not _held(exc):
                    raise CorebError(f"cannot {'write' if write else 'read'} the judgments file {path}: "
                                     f"{str(exc).splitlines()[0]}") from None
                if time.monotonic() >= deadline:
                    raise CorebError(f"the judgments file {path} is held by another process (the app or a "
                                     f"command) for over {LOCK_WAIT_S:g} s; try again") from None
                time.sleep(pause)
                pause = min(pause * 2, 0.25)
        try:
            yield con
        except duckdb.Error as exc:
            raise CorebError(f"the judgments file {path} cannot be used: {str(exc).splitlines()[0]}") from None
        finally:
            con.close()


def _rows(release: str, root: Path | None) -> pd.DataFrame:
    """Every stored judgment of ``release``, in the order they were made (by id), as a frame of ``_COLUMNS``."""
    with _opened(root, write=False) as con:
        if con is None or not (con.execute(
                "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'judgments'").fetchone() or (0,))[0]:
            frame = pd.DataFrame({c: pd.Series(dtype=object) for c in _COLUMNS})
        else:
            frame = con.execute(f"SELECT {', '.join(_COLUMNS)} FROM judgments WHERE release = ? ORDER BY id",
                                [release]).df()
    return frame.astype({"id": "int64", "grade": "int64"})


def _judgment(row: dict[str, Any]) -> Judgment:
    stamp = pd.Timestamp(row["judged_at"]).to_pydatetime().replace(tzinfo=timezone.utc)
    note = row["note"] if isinstance(row["note"], str) else None
    return Judgment(int(row["id"]), str(row["release"]), str(row["task"]), str(row["query_id"]), str(row["doc_id"]),
                    int(row["grade"]), str(row["annotator"]), note, stamp, str(row["query_sha256"]),
                    str(row["doc_sha256"]))


# ------------------------------------------------------------------ judging


def _find_query(store: Store, query_id: str) -> tuple[str, str, str]:
    """(stored id, task, text) of a query id of the store's release, in either Unicode normal form."""
    for form in nfc_forms(query_id):
        row = store.sql("SELECT query_id, task, query FROM queries WHERE query_id = ?", [form]).fetchone()
        if row is not None:
            return str(row[0]), str(row[1]), str(row[2])
    raise CorebError(f"query: unknown query id {quoted_id(query_id)} in release {store.release}")


def _find_document(store: Store, doc_id: str, task: str) -> tuple[str, str]:
    """(stored id, text) of a document of the store's release that a query of ``task`` judges (its corpus)."""
    corpus = CORPUS_OF_TASK[task]
    found: list[str] = []
    for form in nfc_forms(doc_id):
        rows = store.sql("SELECT doc_id, corpus, content FROM documents WHERE doc_id = ?", [form]).fetchall()
        for stored, kind, content in rows:
            if kind == corpus:
                return str(stored), str(content)
            found.append(str(kind))
    if found:
        raise CorebError(f"doc: {quoted_id(doc_id)} is a {found[0]} document; a {task} query judges {corpus} documents")
    raise CorebError(f"doc: unknown document id {quoted_id(doc_id)} in release {store.release}")


def judge(release: str, query_id: str, doc_id: str, grade: object, annotator: str, note: str | None = None,
          root: Path | None = None) -> Judgment:
    """Check and store one judgment of (query, document) of a cached release; returns it as stored.

    Refused, each as one CorebError line naming the field: a grade other than exactly 0, 1 or 2; an annotator's name
    that is empty, over 64 characters, holds a control or invisible character or starts like a spreadsheet formula;
    a note over 2,000 characters or with a control character (other than a line break or a tab); a release not
    cached; a query or document id the release does not hold; a document of the other corpus (T2C and C2C queries
    judge code, C2T queries text). Nothing is ever updated: a new judgment is appended, and the latest counts.

    >>> j = judge("demo_v2603", "q_c2t_full_retro_any_0001", "text_v202603_00001", 2, "bob", "the statement", root)
    >>> j.task, j.grade_words, j.note, len(j.doc_sha256)
    ('c2t', 'relevant', 'the statement', 64)
    >>> judge("demo_v2603", "q_c2t_full_retro_any_0001", "code_v202603_00001", 2, "bob", root=root)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: doc: 'code_v202603_00001' is a code document; a c2t query judges text documents
    """
    checked_grade, checked_annotator, checked_note = check_grade(grade), check_annotator(annotator), check_note(note)
    if not isinstance(release, str) or not release:
        raise CorebError(f"release: must be a release name, not {_shown(release)}")
    for field, value in (("query", query_id), ("doc", doc_id)):
        if not isinstance(value, str):
            raise CorebError(f"{field}: must be an id, not {_shown(value)}")
    check_cached(release, root)
    with Store(release, root) as store:
        stored_query, task, query_text = _find_query(store, query_id)
        stored_doc, doc_text = _find_document(store, doc_id, task)
    now = datetime.now(timezone.utc)
    made = Judgment(0, release, task, stored_query, stored_doc, checked_grade, checked_annotator, checked_note, now,
                    text_sha256(query_text), text_sha256(doc_text))
    values = [*made[1:8], now.replace(tzinfo=None), *made[9:]]  # judged_at stored as a UTC timestamp
    with _opened(root, write=True) as con:
        assert con is not None
        con.execute(_TABLE)
        con.execute("BEGIN TRANSACTION")
        try:
            new_id = int((con.execute("SELECT COALESCE(max(id), 0) + 1 FROM judgments").fetchone() or (1,))[0])
            con.execute(f"INSERT INTO judgments ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
                        [new_id, *values])
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    return made._replace(id=new_id)


def list_judgments(release: str, root: Path | None = None) -> list[Judgment]:
    """Every judgment of ``release``, in the order they were made (none when the file or the release has none).

    >>> _ = judge("demo_v2603", "q_t2c_canonical_retro_any_0001", "code_v202603_00018", 2, "alice", root=root)
    >>> _ = judge("demo_v2603", "q_t2c_canonical_retro_any_0001", "code_v202603_00018", 0, "alice", root=root)
    >>> [(j.id, j.grade) for j in list_judgments("demo_v2603", root)], list_judgments("demo_v2602", root)
    ([(1, 2), (2, 0)], [])
    """
    return [_judgment(row) for row in _rows(release, root).to_dict("records")]


# ------------------------------------------------------------------ which judgments apply


def _current_texts(store: Store, rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with ``applies``: the query's and document's texts in ``store`` still hash to the judged ones."""
    if rows.empty:
        return rows.assign(applies=pd.Series(dtype=bool))
    queries = pd.DataFrame({"query_id": pd.unique(rows["query_id"].astype(str))})
    docs = rows[["task", "doc_id"]].drop_duplicates().astype(str)
    docs = docs.assign(corpus=docs["task"].map(CORPUS_OF_TASK))[["corpus", "doc_id"]].drop_duplicates()
    query_texts = dict(store.sql("SELECT q.query_id, q.query FROM wanted JOIN queries q USING (query_id)",
                                 frames={"wanted": queries}).fetchall())
    doc_texts = {(c, d): t for c, d, t in store.sql(
        "SELECT d.corpus, d.doc_id, d.content FROM wanted JOIN documents d USING (corpus, doc_id)",
        frames={"wanted": docs}).fetchall()}
    query_hash = {q: text_sha256(t) for q, t in query_texts.items()}
    doc_hash = {key: text_sha256(t) for key, t in doc_texts.items()}
    now_query = rows["query_id"].map(query_hash)
    now_doc = pd.Series([doc_hash.get((CORPUS_OF_TASK.get(t, ""), d)) for t, d in zip(rows["task"], rows["doc_id"])],
                        index=rows.index, dtype=object)
    return rows.assign(applies=(now_query == rows["query_sha256"]) & (now_doc == rows["doc_sha256"]))


def judgment_table(store: Store) -> pd.DataFrame:
    """Every judgment of the store's release in the order made, with ``status``: ``applied`` (the latest judgment of
    its pair among those of the pair's current texts), ``superseded`` (a later one of the same texts applies) or
    ``stale`` (the query's or the document's text changed since: it no longer applies).

    >>> _ = judge("demo_v2603", "q_t2c_canonical_retro_any_0001", "code_v202603_00018", 2, "alice", root=root)
    >>> _ = judge("demo_v2603", "q_t2c_canonical_retro_any_0001", "code_v202603_00018", 1, "bob", root=root)
    >>> judgment_table(store)[["id", "annotator", "grade", "status"]]
       id annotator  grade      status
    0   1     alice      2  superseded
    1   2       bob      1     applied
    """
    rows = _current_texts(store, _rows(store.release, store.root))
    status = pd.Series("stale", index=rows.index, dtype=object)
    live = rows[rows["applies"]]
    if not live.empty:
        latest = live.groupby(["task", "query_id", "doc_id"], sort=False)["id"].transform("max")
        status[live.index] = np.where(live["id"] == latest, "applied", "superseded")
    return rows.drop(columns="applies").assign(status=status).reset_index(drop=True)


def current_judgments(store: Store) -> pd.DataFrame:
    """The judgments that apply to ``store``'s release now, one row per pair: task, query_id, doc_id, relevance (the
    grade of the latest judgment of the pair whose query and document texts are the store's current ones), sorted.

    >>> _ = judge("demo_v2603", "q_c2c_cross_lang_0025", "code_v202603_00053", 2, "alice", root=root)
    >>> current_judgments(store).to_dict("records")
    [{'task': 'c2c', 'query_id': 'q_c2c_cross_lang_0025', 'doc_id': 'code_v202603_00053', 'relevance': 2}]
    """
    table = judgment_table(store)
    applied = table[table["status"] == "applied"]
    out = applied[["task", "query_id", "doc_id", "grade"]].rename(columns={"grade": "relevance"})
    out = out.astype({"task": str, "query_id": str, "doc_id": str, "relevance": "int64"})
    return out.sort_values(["task", "query_id", "doc_id"], ignore_index=True)


def judgment_summary(store: Store) -> JudgmentSummary:
    """How many judgments the store's release has, how many pairs, how many applied, superseded and stale.

    >>> _ = judge("demo_v2603", "q_c2c_cross_lang_0025", "code_v202603_00053", 2, "alice", root=root)
    >>> judgment_summary(store)
    JudgmentSummary(judgments=1, pairs=1, applied=1, superseded=0, stale=0, annotators=('alice',))
    """
    table = judgment_table(store)
    counts = table["status"].value_counts()
    pairs = len(table[["task", "query_id", "doc_id"]].drop_duplicates())
    return JudgmentSummary(len(table), pairs, int(counts.get("applied", 0)), int(counts.get("superseded", 0)),
                           int(counts.get("stale", 0)), tuple(sorted(set(table["annotator"].astype(str)))))


def _fingerprint(applied: pd.DataFrame, ids: Sequence[int]) -> str:
    if applied.empty:
        return "none"
    digest = hashlib.sha256()
    for (task, query, doc, relevance), jid in zip(applied[["task", "query_id", "doc_id", "relevance"]].itertuples(
            index=False, name=None), ids):
        digest.update(json.dumps([int(jid), task, query, doc, int(relevance)]).encode("utf-8"))
    return digest.hexdigest()[:16]


def _applied(store: Store) -> tuple[pd.DataFrame, list[int]]:
    """The applied judgments (task, query_id, doc_id, relevance; sorted) and their ids, in the same order."""
    table = judgment_table(store)
    applied = table[table["status"] == "applied"].sort_values(["task", "query_id", "doc_id"], ignore_index=True)
    frame = applied[["task", "query_id", "doc_id", "grade"]].rename(columns={"grade": "relevance"})
    return frame.astype({"task": str, "query_id": str, "doc_id": str, "relevance": "int64"}), list(applied["id"])


def judgments_fingerprint(release: str, root: Path | None = None) -> str:
    """A short hex digest of the judgments that apply to ``release`` now (the pairs, their grades and which judgment
    gave each): a new judgment that applies changes it. ``"none"`` when none applies. The ``judged`` scheme's view and
    every cache keyed on it are named by it.

    >>> judgments_fingerprint("demo_v2603", root)
    'none'
    >>> _ = judge("demo_v2603", "q_c2c_cross_lang_0025", "code_v202603_00053", 2, "alice", root=root)
    >>> len(judgments_fingerprint("demo_v2603", root))
    16
    """
    stored = _rows(release, root)
    if stored.empty:
        return "none"
    try:
        version = str(release_dir(release, root).resolve(strict=True))
    except OSError:
        version = ""
    # The release's version and the judgments made decide it: computed once per such state (pages ask on every run).
    key = (release, str(judgments_file(root).resolve()), version, tuple(stored["id"]))
    if key not in _FINGERPRINTS:
        with Store(release, root) as store:
            found = _fingerprint(*_applied(store))
        if len(_FINGERPRINTS) >= 64:
            _FINGERPRINTS.clear()
        _FINGERPRINTS[key] = found
    return _FINGERPRINTS[key]


_FINGERPRINTS: dict[tuple, str] = {}


def judged_qrels_view(store: Store) -> str:
    """Create (or replace) on ``store`` the ``judged`` scheme's qrels view and return its name,
    ``qrels_judged_<fingerprint>``: columns task, query_id, doc_id, relevance; the v2 ``qrels`` with each applied
    judgment's grade in place of the pair's, and judged pairs the qrels lack added with their grade. Grade 0 keeps
    the pair, with relevance 0 (its query stays scored).

    >>> _ = judge("demo_v2603", "q_c2c_cross_lang_0025", "code_v202603_00053", 2, "alice", root=root)
    >>> name = judged_qrels_view(store)
    >>> name.startswith("qrels_judged_"), store.sql(f"SELECT relevance FROM {name} WHERE query_id = ? AND doc_id = ?",
    ...                                             ["q_c2c_cross_lang_0025", "code_v202603_00053"]).fetchall()
    (True, [(2,)])
    """
    applied, ids = _applied(store)
    fingerprint = _fingerprint(applied, ids)
    name, table = f"qrels_judged_{fingerprint}", f"judgments_applied_{fingerprint}"
    with _VIEW_LOCK:  # catalog writes of two threads on one connection would conflict
        exists = store.sql("SELECT count(*) FROM duckdb_views() WHERE view_name = ?", [name]).fetchone()
        if exists and exists[0]:
            return name
        # Our own names (a hex digest or "none"); the rows come in as a registered frame, never as SQL text.
        store.sql(f"CREATE OR REPLACE TABLE {table} AS SELECT task::VARCHAR AS task, query_id::VARCHAR AS query_id, "
                  "doc_id::VARCHAR AS doc_id, relevance::TINYINT AS relevance FROM applied",
                  frames={"applied": applied})
        store.sql(f"""CREATE OR REPLACE VIEW {name} AS
            SELECT r.task, r.query_id, r.doc_id, COALESCE(j.relevance, r.relevance) AS relevance
            FROM qrels r LEFT JOIN {table} j USING (task, query_id, doc_id)
            UNION ALL
            SELECT j.task, j.query_id, j.doc_id, j.relevance FROM {table} j ANTI JOIN qrels r USING (task, query_id, doc_id)""")
    return name


# ------------------------------------------------------------------ agreement between annotators


def _kappa(a: Sequence[int], b: Sequence[int]) -> float | None:
    """Cohen's kappa of two raters' grades 0/1/2 (the exact formula): (p_o - p_e) / (1 - p_e), None when p_e is 1.

    >>> _kappa([2, 2, 1, 0], [2, 1, 1, 0])   # p_o 3/4, p_e (1*1 + 1*2 + 2*1)/16 = 5/16: (12 - 5) / (16 - 5)
    0.6363636363636364
    >>> _kappa([2, 2], [2, 2]) is None
    True
    """
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b)) / n
    expected = sum((list(a).count(g) / n) * (list(b).count(g) / n) for g in GRADES)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def cohen_kappa(a: Sequence[int], b: Sequence[int]) -> float | None:
    """Cohen's kappa over grades 0/1/2: scikit-learn's ``cohen_kappa_score`` where it is installed, else the exact
    formula; None when chance agreement is 1 (both raters gave one and the same grade throughout).

    >>> round(cohen_kappa([2, 2, 1, 0], [2, 1, 1, 0]), 4), cohen_kappa([1, 1, 1], [1, 1, 1])
    (0.6364, None)
    """
    exact = _kappa(a, b)
    if exact is None:
        return None
    try:
        from sklearn.metrics import cohen_kappa_score
    except ImportError:  # an optional dependency: the formula is exact
        return exact
    return float(cohen_kappa_score(list(a), list(b), labels=list(GRADES)))


def agreement(release: str, root: Path | None = None) -> list[Agreement]:
    """For each two annotators who judged a same pair of the same texts (each one's latest judgment of it): the
    number of such pairs, the share given the same grade and Cohen's kappa. Sorted by the annotators' names.

    >>> q, docs = "q_c2c_cross_lang_0025", ["code_v202603_00053", "code_v202603_00197", "code_v202603_00211"]
    >>> for doc, a, b in zip(docs, [2, 1, 0], [2, 1, 1]):
    ...     _ = judge("demo_v2603", q, doc, a, "alice", root=root), judge("demo_v2603", q, doc, b, "bob", root=root)
    >>> [a.line() for a in agreement("demo_v2603", root)]
    ['alice and bob: 3 shared pairs, 67% the same grade, Cohen kappa 0.50']
    """
    rows = _rows(release, root)
    if rows.empty:
        return []
    key = ["task", "query_id", "doc_id", "query_sha256", "doc_sha256"]
    latest = rows.sort_values("id").groupby([*key, "annotator"], sort=False).tail(1)
    grades = latest.pivot_table(index=key, columns="annotator", values="grade", aggfunc="last")
    names = sorted(str(c) for c in grades.columns)
    out = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            both = grades[[first, second]].dropna()
            if both.empty:
                continue
            a, b = both[first].astype(int).tolist(), both[second].astype(int).tolist()
            observed = sum(x == y for x, y in zip(a, b)) / len(a)
            out.append(Agreement(first, second, len(a), observed, cohen_kappa(a, b)))
    return out


# ------------------------------------------------------------------ export


def judged_qrels(store: Store) -> pd.DataFrame:
    """Every v2 qrel of the store's release with the applied judgments (``judged_qrels_view``), sorted by task, query
    and document: task, query_id, doc_id, relevance.

    >>> judged_qrels(store)["task"].value_counts().to_dict()   # no judgment yet: the v2 qrels
    {'t2c': 4736, 'c2t': 1200, 'c2c': 792}
    """
    view = judged_qrels_view(store)
    frame = store.sql(f"SELECT task, query_id, doc_id, relevance FROM {view} ORDER BY task, query_id, doc_id").df()
    return frame.astype({"relevance": "int64"})


def export_judged_qrels(release: str, fmt: str, out: Path | str, root: Path | None = None) -> Path:
    """Write the release's v2 qrels with the judgments applied: ``trec`` one file of ``qid 0 docid rel`` lines;
    ``coreb`` a folder of the hub's per-task files, ``<task>_qrels.jsonl`` (``text2code_qrels.jsonl``, …), each line
    ``{"query_id", "doc_id", "relevance"}``. ``out`` is checked first (not a folder for a file, not a FIFO or a device,
    not inside the cache); each file is written atomically. Returns ``out``.

    >>> import tempfile
    >>> scratch = Path(tempfile.mkdtemp(dir=root.parent))
    >>> _ = judge("demo_v2603", "q_c2c_cross_lang_0025", "code_v202603_00053", 0, "alice", root=root)
    >>> path = export_judged_qrels("demo_v2603", "trec", scratch / "judged.qrels", root)
    >>> [line for line in path.read_text().splitlines() if "code_v202603_00053" in line and "0025" in line]
    ['q_c2c_cross_lang_0025 0 code_v202603_00053 0']
    >>> sorted(p.name for p in export_judged_qrels("demo_v2603", "coreb", scratch / "coreb", root).iterdir())
    ['code2code_qrels.jsonl', 'code2text_qrels.jsonl', 'text2code_qrels.jsonl']
    """
    if fmt not in EXPORT_FORMATS:
        raise CorebError(f"export: unknown format {_shown(fmt)}; use {' or '.join(EXPORT_FORMATS)}")
    out = check_target(out, folder=fmt == "coreb",
                       hint="name a file such as judged.qrels" if fmt == "trec" else "name a folder", cache=root)
    check_cached(release, root)
    with Store(release, root) as store:
        qrels = judged_qrels(store)
    try:
        if fmt == "trec":
            lines = [f"{q} 0 {d} {int(r)}\n" for q, d, r in zip(qrels["query_id"], qrels["doc_id"], qrels["relevance"])]
            atomic_write_text(out, "".join(lines))
            return out
        for task in TASK_NAMES:
            rows = qrels[qrels["task"] == task]
            text = "".join(json.dumps({"query_id": q, "doc_id": d, "relevance": int(r)}, ensure_ascii=False) + "\n"
                           for q, d, r in zip(rows["query_id"], rows["doc_id"], rows["relevance"]))
            atomic_write_text(out / TASKS[task].qrels.jsonl_names[0], text)
    except OSError as exc:  # a full disk, a folder where a file goes
        raise CorebError(f"cannot write {out}: {exc.strerror or type(exc).__name__}") from None
    return out
