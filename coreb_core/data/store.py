"""DuckDB views over the cached parquet of one release.

Each ``Store`` owns a private in-memory DuckDB connection whose views read the parquet files
directly. No database file exists, so any number of readers (browser sessions, CLI calls) run
side by side without a lock, and a writer swapping in a new release never blocks them.

The Store also owns what is derived from one version's files: the query facts
(``query_facts``, ``with_query_facts``) and a per-version memo (``cache``) where higher layers keep
their own derived structures (evaluation's integer index), so no layer attaches state to a Store
and data never imports them.

Example (CoREB-mini: ``coreb_core.data.mini.build.build_release("demo_v2603", root)``):
    >>> store = Store("demo_v2603", root)
    >>> store.sql("SELECT task, count(*) AS n FROM queries GROUP BY task ORDER BY task").fetchall()
    [('c2c', 144), ('c2t', 336), ('t2c', 720)]
"""
from __future__ import annotations

import atexit
import weakref
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar

import duckdb
import numpy as np
import pandas as pd

from coreb_core.data.schema import CONFIGS, NEGATIVE, POSITIVE, TASKS, TRAP
from coreb_core.errors import CorebError
from coreb_core.paths import datasets_dir, release_dir

# The facts of a query that per-query tables carry after ``with_query_facts`` (``query_facts`` has
# these plus task, query_id and anchor_code_id; ``with_query_facts`` also offers the ``query`` text).
T = TypeVar("T")
QUERY_FACTS = ("subtask", "target_language", "anchor_language", "problem_id")


def list_releases(root: Path | None = None) -> list[str]:
    """Releases present in the cache (folders or links holding every config).

    >>> list_releases(root)  # a cache holding both CoREB-mini releases
    ['demo_v2602', 'demo_v2603']
    """
    base = datasets_dir(root)
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir()
                  if not p.name.startswith(".") and all((p / f"{c}.parquet").exists() for c in CONFIGS))


def _extra_qrels_names(folder: Path) -> list[str]:
    """Other qrel sets stored beside the v2 ones, e.g. ``v1`` for ``text2code_qrels_v1.parquet``."""
    names = []
    for f in sorted(folder.glob("text2code_qrels_*.parquet")):
        name = f.stem.removeprefix("text2code_qrels_")
        if all((folder / f"{t.long_name}_qrels_{name}.parquet").exists() for t in TASKS.values()):
            names.append(name)
    return names


def _sql_literal(text: str) -> str:
    """Quote a string for the few DDL spots DuckDB cannot parameterise (our own file paths)."""
    return "'" + text.replace("'", "''") + "'"


_META = "json_extract_string(meta, '$.{}')"
# The v1 rules' view, once for each reading of its T2C rule (``t2c_only``: the extra condition on a solution).
_V1_VIEW = """CREATE VIEW {name} AS
  WITH relevant AS (
    SELECT 't2c' AS task, q.query_id, d.doc_id
    FROM queries q JOIN documents d
      ON d.corpus = 'code' AND d.problem_id = q.problem_id
         AND (q.target_language IS NULL OR d.language = q.target_language)
    WHERE q.task = 't2c' AND q.query_id IN (SELECT query_id FROM qrels WHERE task = 't2c'){t2c_only}
    UNION
    SELECT task, query_id, doc_id FROM qrels WHERE task IN ('c2c', 'c2t') AND relevance = {{positive}}
  )
  SELECT task, query_id, doc_id, 1 AS relevance FROM relevant
  UNION ALL
  SELECT r.task, r.query_id, r.doc_id, 0 FROM qrels r ANTI JOIN relevant v USING (query_id, doc_id);
"""
VIEWS = ("""
CREATE VIEW queries AS
  SELECT 't2c' AS task, query_id, query, subtask,
         {pid} AS problem_id, NULLIF(language_constraint, 'none') AS target_language,
         NULL::VARCHAR AS anchor_language, NULL::VARCHAR AS anchor_model, NULL::VARCHAR AS anchor_code_id,
         NULL::BIGINT AS label, meta
  FROM text2code_queries
  UNION ALL
  SELECT 'c2c', query_id, query, subtask, {pid}, NULL, anchor_language, anchor_model, {anchor}, NULL, meta
  FROM code2code_queries
  UNION ALL
  SELECT 'c2t', query_id, query, subtask, {pid},
         CASE WHEN regexp_matches(subtask, '_(python|java|cpp|go|ruby)$')
              THEN regexp_extract(subtask, '_([a-z]+)$', 1) END,
         anchor_language, anchor_model, {anchor}, label, meta
  FROM code2text_queries;

CREATE VIEW qrels AS
  SELECT 't2c' AS task, query_id, doc_id, relevance FROM text2code_qrels
  UNION ALL SELECT 'c2c', query_id, doc_id, relevance FROM code2code_qrels
  UNION ALL SELECT 'c2t', query_id, doc_id, relevance FROM code2text_qrels;

CREATE VIEW documents AS
  SELECT 'code' AS corpus, code_id AS doc_id, code AS content, language, model, {pid} AS problem_id,
         TRY_CAST(json_extract(meta, '$.passed') AS BOOLEAN) AS passed,
         TRY_CAST(json_extract(meta, '$.test_passed') AS BIGINT) AS test_passed,
         TRY_CAST(json_extract(meta, '$.test_total') AS BIGINT) AS test_total,
         FALSE AS is_noise, meta
  FROM code_corpus
  UNION ALL
  SELECT 'text', text_id, text, NULL, NULL,
         COALESCE({orig}, {pid}), NULL, NULL, NULL,
         COALESCE(TRY_CAST(json_extract(meta, '$.is_noise_sample') AS BOOLEAN), FALSE), meta
  FROM text_corpus;

-- CoREB's v1 (binary) qrels rebuilt from this v2 release by the v1 rules (paper App. A.4/A.8):
-- T2C every solution of the query's problem inside its language constraint, passing or failing;
-- C2C and C2T the v2 positives (C2T noise texts are dropped from the ranking by the evaluator).
-- Relevant pairs get grade 1 (v1's binary "relevant", not a trap); every other v2-judged pair stays
-- with grade 0, so the v1 view is averaged over exactly the v2 queries.
""" + _V1_VIEW.format(name="qrels_v1_rules", t2c_only="") + """
-- The same v1 rules as the official generator's code reads them (scheme v1_gen): T2C canonical and full
-- retro count the passing solutions only (query_corpus_dataset_maker.py builds those positives from
-- correct_code_flat_by_problem), T2C search every solution (its _create_text2code_entries takes
-- all_code_by_problem); C2C and C2T as qrels_v1_rules. A solution whose passing is unknown is not counted.
""" + _V1_VIEW.format(name="qrels_v1_gen",
                     t2c_only="\n      AND (COALESCE(d.passed, FALSE) OR starts_with(q.subtask, 't2c_search'))") + """
-- Relevance verified by execution (scheme executed): v2's grades, plus every passing solution of the query's source
-- problem in a language of one of the query's rel=2 documents, promoted to rel=2 (T2C and C2C; the C2C anchor is
-- never relevant; C2T unchanged). CoREB's generator labels by who wrote a solution (C2C) and samples at most 3 traps,
-- so correct code is left unjudged or graded a trap; ``meta_passed`` says it runs correctly.
CREATE VIEW qrels_executed AS
  WITH positive_languages AS (
    SELECT DISTINCT r.task, r.query_id, d.language
    FROM qrels r JOIN documents d ON d.corpus = 'code' AND d.doc_id = r.doc_id
    WHERE r.task IN ('t2c', 'c2c') AND r.relevance = {positive}
  ), promoted AS (
    SELECT DISTINCT q.task, q.query_id, d.doc_id
    FROM queries q
    JOIN positive_languages l ON l.task = q.task AND l.query_id = q.query_id
    JOIN documents d ON d.corpus = 'code' AND d.problem_id = q.problem_id AND d.language = l.language
    WHERE COALESCE(d.passed, FALSE) AND d.doc_id IS DISTINCT FROM q.anchor_code_id
  )
  SELECT r.task, r.query_id, r.doc_id,
         CASE WHEN p.doc_id IS NULL THEN r.relevance ELSE {positive} END AS relevance
  FROM qrels r LEFT JOIN promoted p USING (task, query_id, doc_id)
  UNION ALL
  SELECT p.task, p.query_id, p.doc_id, {positive} FROM promoted p ANTI JOIN qrels r USING (task, query_id, doc_id);

-- MTEB's CoREB qrels: the positives only; a query without one (C2T's c2t_match label-0 pairs) has none.
CREATE VIEW qrels_positives AS
  SELECT task, query_id, doc_id, relevance FROM qrels WHERE relevance = {positive};

CREATE VIEW judgments AS
  SELECT r.task, r.query_id, q.subtask, q.problem_id AS query_problem_id, r.doc_id, r.relevance,
         CASE r.relevance WHEN {positive} THEN 'positive' WHEN {trap} THEN 'trap' ELSE 'judged_negative' END AS grade,
         d.problem_id AS doc_problem_id, d.language, d.model, d.passed, d.test_passed, d.test_total, d.is_noise
  FROM qrels r
  JOIN queries q USING (task, query_id)
  LEFT JOIN documents d ON d.doc_id = r.doc_id AND d.corpus = CASE r.task WHEN 'c2t' THEN 'text' ELSE 'code' END;
""").format(pid=_META.format("source_problem_id"), anchor=_META.format("anchor_code_id"),
           orig=_META.format("original_problem_id"),
           # Grades come from the vocabulary; DDL takes no parameters, and these are our own integers.
           positive=int(POSITIVE), trap=int(TRAP))


def check_cached(release: str, root: Path | None = None) -> Path:
    """The release's folder in the cache; a one-line CorebError naming what is missing when it is not cached.

    >>> check_cached("no_such_release", root)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: release 'no_such_release' is not in the cache (...); missing ... Run: python -m coreb_core demo, import-data or fetch
    """
    folder = release_dir(release, root)
    missing = [c for c in CONFIGS if not (folder / f"{c}.parquet").exists()]
    if missing:
        raise CorebError(f"release {release!r} is not in the cache ({folder}); missing {', '.join(missing)}. "
                         f"Run: python -m coreb_core demo, import-data or fetch")
    return folder


class Store:
    """Read-only SQL over one cached release.

    >>> with Store("demo_v2603", root) as store:  # CoREB-mini
    ...     store.row_counts()["text2code_queries"], store.judgment_counts()["t2c"]["positives"]
    (720, 2802)
    """

    def __init__(self, release: str, root: Path | None = None) -> None:
        check_cached(release, root)
        self.release = release
        self.root = root
        self.con = duckdb.connect(":memory:")
        _OPEN.add(self)
        self._follow(self._open_views)

    def _follow(self, action: Callable[[], T]) -> T:
        """``action`` on this Store's version; when it cannot read a file because newer imports pruned that
        version (its folder may still be there, its files going), open the release's current version and
        try again. An unreadable current version is a real error and is raised."""
        for _ in range(5):
            try:
                return action()
            except (duckdb.IOException, FileNotFoundError):
                if release_dir(self.release, self.root).resolve() == getattr(self, "folder", None):
                    raise
                self._open_views_quietly()
        return action()

    def _open_views_quietly(self) -> None:
        """``_open_views``, where a version pruned meanwhile only means: try again (``_follow``)."""
        try:
            self._open_views()
        except (duckdb.IOException, FileNotFoundError):
            pass

    def _open_views(self) -> None:
        # Resolve the link once: this Store keeps reading the version it opened even if a
        # writer swaps in a newer one meanwhile.
        folder = release_dir(self.release, self.root).resolve()
        for config in CONFIGS:
            path = _sql_literal(str(folder / f"{config}.parquet"))
            self.con.execute(f"CREATE OR REPLACE VIEW {config} AS SELECT * FROM read_parquet({path})")
        self.con.execute(VIEWS.replace("CREATE VIEW", "CREATE OR REPLACE VIEW"))
        extra_qrels = _extra_qrels_names(folder)
        # Per-version memo: whatever is derived from this version's files (``query_facts``, the
        # evaluator's integer index) lives here, so it is dropped when the Store follows the link
        # to a newer version. Keys are the owning verb's name.
        for name in extra_qrels:
            parts = [f"SELECT '{task}' AS task, query_id, doc_id, relevance FROM read_parquet("
                     f"{_sql_literal(str(folder / f'{TASKS[task].long_name}_qrels_{name}.parquet'))})"
                     for task in TASKS]
            self.con.execute(f"CREATE OR REPLACE VIEW qrels_{name} AS " + " UNION ALL ".join(parts))
        # Only once every view reads the new version (a version pruned halfway leaves the old one named,
        # so ``_follow`` tries again).
        self.cache: dict[str, Any] = {}
        self.folder, self.extra_qrels = folder, extra_qrels

    def sql(self, query: str, params: Sequence[Any] | dict[str, Any] | None = None,
            frames: dict[str, Any] | None = None) -> duckdb.DuckDBPyConnection:
        """Run parameterised SQL (``?`` or ``$name`` placeholders) on a fresh cursor, so one Store
        can serve several threads. ``frames`` registers DataFrames as tables for this call only."""
        def run() -> duckdb.DuckDBPyConnection:
            cur = self.con.cursor()
            for name, frame in (frames or {}).items():
                cur.register(name, frame)
            return cur.execute(query, params or [])
        return self._follow(run)

    def df(self, query: str, params: Sequence[Any] | dict[str, Any] | None = None):
        return self.sql(query, params).df()

    @property
    def query_facts(self) -> pd.DataFrame:
        """One row per query, ordered by task and id (the order evaluation codes queries in): task,
        query_id, subtask, target_language ("any" when unconstrained), anchor_language, problem_id,
        anchor_code_id. Read once per version; treat it as read-only.

        >>> store.query_facts[["task", "query_id", "subtask", "target_language"]].head(2)  # demo_v2603
          task               query_id         subtask target_language
        0  c2c  q_c2c_cross_lang_0025  c2c_cross_lang             any
        1  c2c  q_c2c_cross_lang_0026  c2c_cross_lang             any
        """
        if "query_facts" not in self.cache:
            self.cache["query_facts"] = self.df("""
                SELECT task, query_id, subtask, COALESCE(target_language, 'any') AS target_language,
                       anchor_language, problem_id, anchor_code_id FROM queries ORDER BY task, query_id""")
        return self.cache["query_facts"]

    @property
    def query_ids(self) -> pd.Index:
        """The query ids of ``query_facts`` as an Index: a query's position is its integer code.

        >>> store.query_ids.get_indexer(["q_c2c_cross_lang_0026", "q_t2c_search_go_0645"])  # demo_v2603
        array([  1, 971])
        """
        if "query_ids" not in self.cache:
            ids = pd.Index(self.query_facts["query_id"])
            if not ids.is_unique:
                raise CorebError("query ids repeat across tasks; evaluation needs them unique within a release")
            self.cache["query_ids"] = ids
        return self.cache["query_ids"]

    def row_counts(self) -> dict[str, int]:
        return {c: (self.sql(f"SELECT count(*) FROM {c}").fetchone() or (0,))[0] for c in CONFIGS}

    def judgment_counts(self) -> dict[str, dict[str, int]]:
        """Queries, positives (rel=2), traps (rel=1) and judged negatives (rel=0) per task.

        >>> store.judgment_counts()["c2c"]  # demo_v2603
        {'queries': 144, 'positives': 360, 'traps': 432, 'judged_negatives': 0}
        """
        rows = self.sql("""
            SELECT task,
                   (SELECT count(*) FROM queries q WHERE q.task = r.task) AS queries,
                   count(*) FILTER (relevance = ?) AS positives,
                   count(*) FILTER (relevance = ?) AS traps,
                   count(*) FILTER (relevance = ?) AS judged_negatives
            FROM qrels r GROUP BY task ORDER BY task""", [POSITIVE, TRAP, NEGATIVE]).fetchall()
        return {t: {"queries": q, "positives": p, "traps": tr, "judged_negatives": n} for t, q, p, tr, n in rows}

    def check_depth(self, k: int, flag: str = "--k") -> int:
        """``k`` when a ranked list of this release can be that deep: at most the documents of its largest corpus, or
        10 (was: ``audit --k 10**20`` and ``contrast --k 10**12`` ran and printed "top 100000000000000000000");
        else a one-line CorebError naming the limit.

        >>> store.check_depth(307)  # demo_v2603: 307 code documents
        307
        >>> store.check_depth(10**20)
        Traceback (most recent call last):
        coreb_core.errors.CorebError: --k 100000000000000000000: deeper than the 307 documents of demo_v2603's largest corpus; give at most 307
        """
        largest = max((n for (n,) in self.sql("SELECT count(*) FROM documents GROUP BY corpus").fetchall()), default=0)
        limit = max(largest, 10)  # 10, the depth nDCG@10 reads and the verbs' default, even in a smaller release
        if k > limit:
            raise CorebError(f"{flag} {k}: deeper than the {largest:,} documents of {self.release}'s largest corpus; "
                             f"give at most {limit:,}")
        return k

    def close(self) -> None:
        self.con.close()
        _OPEN.discard(self)

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# Stores not closed yet: the app's cached ones live as long as the server.
_OPEN: weakref.WeakSet[Store] = weakref.WeakSet()


@atexit.register
def _release_connections() -> None:
    """At interpreter exit, close the Stores still open and drop their connections. A DuckDB connection still
    alive when the interpreter tears DuckDB down (a daemon thread's frames keep the app's cached Stores
    reachable) makes nanobind report every DuckDB object as leaked. A query already running on a cursor runs
    on to its end; a later one fails, in a process that is ending."""
    for store in list(_OPEN):
        store.close()
        del store.con


def with_query_facts(store: Store, per_query: pd.DataFrame, columns: Sequence[str] = QUERY_FACTS) -> pd.DataFrame:
    """``per_query`` (any frame with a ``query_id`` column) with ``columns`` of each row's query
    appended: any of ``query_facts``'s columns, or ``query`` for the query text. Rows keep their
    order; the index is reset; an id not in the release gets missing values.

    >>> from coreb_core.evaluation.evaluate import evaluate
    >>> from coreb_core.runs.folders import read_hits
    >>> per_query = evaluate(store, read_hits(bm25))[["task", "query_id", "ndcg_at_10"]].head(2)  # demo_v2603
    >>> with_query_facts(store, per_query, ("subtask", "anchor_language"))
      task               query_id  ndcg_at_10         subtask anchor_language
    0  c2c  q_c2c_cross_lang_0025    0.760640  c2c_cross_lang            ruby
    1  c2c  q_c2c_cross_lang_0026    0.946902  c2c_cross_lang          python
    """
    positions = store.query_ids.get_indexer(per_query["query_id"])
    known = [c for c in columns if c != "query"]
    facts = store.query_facts.iloc[np.maximum(positions, 0)][known].reset_index(drop=True)
    if (positions < 0).any():
        facts = facts.where(pd.Series(positions >= 0), None)
    if "query" in columns:
        # Query texts are large and rarely wanted: read only those of these rows.
        ids = pd.DataFrame({"query_id": pd.unique(per_query["query_id"].astype(str))})
        texts = dict(store.sql("SELECT q.query_id, q.query FROM ids JOIN queries q USING (query_id)",
                               frames={"ids": ids}).fetchall())
        facts["query"] = per_query["query_id"].astype(str).map(texts).to_numpy()
    return pd.concat([per_query.reset_index(drop=True), facts[list(columns)]], axis=1)


def info(root: Path | None = None) -> dict[str, Any]:
    """Everything ``python -m coreb_core info`` reports.

    >>> info(root)["releases"]["demo_v2603"]["tasks"]["c2c"]  # a cache holding CoREB-mini demo_v2603
    {'queries': 144, 'positives': 360, 'traps': 432, 'judged_negatives': 0}
    """
    out: dict[str, Any] = {"cache": str(datasets_dir(root)), "releases": {}}
    for release in list_releases(root):
        with Store(release, root) as store:
            out["releases"][release] = {"rows": store.row_counts(), "tasks": store.judgment_counts()}
    return out
