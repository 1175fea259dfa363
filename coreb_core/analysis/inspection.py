"""One query under the microscope: find it, show it, and see where each run put its judged documents.

Everything the query inspector page shows is computed here (no Streamlit). Ranks follow the official
semantics of ``coreb_core.evaluation.evaluate``: the query's own id is always dropped from its list, the C2C anchor
is dropped when ``anchor_exclusion`` is on, and documents below a dropped hit move up one rank, so the
ranks shown here are the ranks the metrics were computed on.

Example (CoREB-mini and a BM25 run in ``root``):
    >>> from coreb_core.runs.folders import read_hits
    >>> store = Store("demo_v2603", root)
    >>> found = find_queries(store, task="t2c", text="circular")
    >>> q = query_details(store, found["query_id"][0])
    >>> hits = query_hits(read_hits(bm25, root), q.query_id)
    >>> ranked_list(store, q, hits, anchor_exclusion=True, top=3)[["rank", "doc_id", "relevance"]]
       rank              doc_id  relevance
    0     1  code_v202603_00024        2.0
    1     2  code_v202603_00090        1.0
    2     3  code_v202603_00253        2.0
    >>> positions = judged_positions(store, q, {"bm25": hits}, anchor_exclusion=True)
    >>> positions[["doc_id", "relevance", "rank · bm25"]].tail(2)
                    doc_id  relevance  rank · bm25
    11  code_v202603_00066          1        274.0
    12  code_v202603_00090          1          2.0
"""
from __future__ import annotations

import difflib
from typing import NamedTuple

import numpy as np
import pandas as pd

from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.data.schema import CORPUS_OF_TASK, POSITIVE, TRAP
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import official_ranks as evaluator_ranks
from coreb_core.text import nfc_forms, quoted_id

SNIPPET = 160


class QueryDetails(NamedTuple):
    """A query and its problem, as stored in the release.

    >>> query_details(store, "q_t2c_canonical_retro_any_0001")._fields[:6]  # demo_v2603
    ('query_id', 'task', 'subtask', 'query', 'problem_id', 'target_language')
    """

    query_id: str
    task: str
    subtask: str
    query: str
    problem_id: str | None
    target_language: str | None
    anchor_language: str | None
    anchor_code_id: str | None
    label: int | None
    problem_title: str | None
    problem_statement: str | None
    problem_abbreviated: str | None

    @property
    def corpus(self) -> str:
        """The corpus this query searches: ``text`` for c2t, ``code`` otherwise."""
        return CORPUS_OF_TASK[self.task]

    @property
    def query_is_code(self) -> bool:
        return self.task in ("c2c", "c2t")


def none_if_missing(value):
    """A value read from a table, with SQL NULL, NaN and pandas' NA as None.

    >>> none_if_missing(float("nan")), none_if_missing(pd.NA), none_if_missing(3)
    (None, None, 3)
    """
    if value is None or (isinstance(value, float) and np.isnan(value)) or value is pd.NA:
        return None
    return value


def _like_pattern(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def find_queries(store: Store, task: str | None = None, text: str = "", subtask: str | None = None,
                 target_language: str | None = None, query_ids=None) -> pd.DataFrame:
    """Queries matching every given filter, ordered by task and id.

    >>> find_queries(store, task="t2c", text="circular")[["query_id", "problem_id"]].head(2)  # demo_v2603
                             query_id         problem_id
    0  q_t2c_canonical_retro_any_0001     demo_fuel_loop
    1  q_t2c_canonical_retro_any_0073  demo_quiet_street

    ``text`` matches case-insensitively inside the query id or the query text; ``target_language``
    "any" selects queries without a language constraint; ``query_ids`` restricts to those ids.
    Columns: task, query_id, subtask, target_language, anchor_language, problem_id, query (first line,
    at most 160 characters)."""
    where, params = ["TRUE"], []
    if task:
        where.append("task = ?")
        params.append(task)
    if subtask:
        where.append("subtask = ?")
        params.append(subtask)
    if target_language:
        where.append("COALESCE(target_language, 'any') = ?")
        params.append(target_language)
    if text.strip():
        where.append("(query_id ILIKE ? ESCAPE '\\' OR query ILIKE ? ESCAPE '\\')")
        params += [_like_pattern(text.strip())] * 2
    frame = store.sql(f"""
        SELECT task, query_id, subtask, COALESCE(target_language, 'any') AS target_language, anchor_language,
               problem_id, query
        FROM queries WHERE {' AND '.join(where)} ORDER BY task, query_id""", params).df()
    if query_ids is not None:
        frame = frame[frame["query_id"].isin(set(map(str, query_ids)))].reset_index(drop=True)
    frame["query"] = frame["query"].map(_snippet)
    return frame


def _snippet(text: str | None, limit: int = SNIPPET) -> str:
    if text is None:
        return ""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def facet_values(store: Store, task: str) -> dict[str, list[str]]:
    """Subtasks and target languages present among ``task``'s queries (for filter widgets).

    >>> facet_values(store, "c2c")  # demo_v2603
    {'subtask': ['c2c_cross_lang', 'c2c_cross_model', 'c2c_mono_lang'], 'target_language': ['any']}
    """
    facts = store.query_facts[store.query_facts["task"] == task]
    return {"subtask": sorted(facts["subtask"].unique().tolist()),
            "target_language": sorted(facts["target_language"].unique().tolist())}


def _trap_above_positive_ids(traps: pd.DataFrame, run: str) -> list[str]:
    """Query ids where ``run`` ranks a trap above the first positive (from ``Evaluation.traps`` of analyse_many)."""
    rows = traps[(traps["run"] == run) & traps["trap_above_positive"]]
    return rows["query_id"].astype(str).tolist()


def largest_deltas(per_query: pd.DataFrame, run_a: str, run_b: str, metric: Measure = NDCG_10,
                   task: str | None = None) -> pd.DataFrame:
    """Queries both runs scored, ordered by |a − b| of ``metric`` (largest first).

    Columns: query_id, ``<metric> a``, ``<metric> b``, delta (a − b).

    >>> per_query = pd.DataFrame({"run": ["a", "a", "b", "b"], "query_id": ["q1", "q2", "q1", "q2"],
    ...                           "ndcg_at_10": [1.0, 0.5, 0.2, 0.5]})
    >>> largest_deltas(per_query, "a", "b")
      query_id  ndcg_at_10 a  ndcg_at_10 b  delta
    0       q1           1.0           0.2    0.8
    1       q2           0.5           0.5    0.0
    """
    frame = per_query if task is None else per_query[per_query["task"] == task]
    column = metric.column
    a = frame[frame["run"] == run_a][["query_id", column]].astype({"query_id": str})
    b = frame[frame["run"] == run_b][["query_id", column]].astype({"query_id": str})
    merged = a.merge(b, on="query_id", suffixes=(" a", " b"))
    merged["delta"] = merged[f"{column} a"] - merged[f"{column} b"]
    order = np.lexsort((merged["query_id"].to_numpy(), -merged["delta"].abs().to_numpy()))
    return merged.iloc[order].reset_index(drop=True)


def candidates(store: Store, task: str | None = None, text: str = "", subtask: str | None = None,
               target_language: str | None = None, traps: pd.DataFrame | None = None, trap_run: str | None = None,
               per_query: pd.DataFrame | None = None, delta_runs: tuple[str, str] | None = None,
               metric: Measure = NDCG_10) -> pd.DataFrame:
    """``find_queries`` narrowed by a run-based filter.

    With ``traps`` and ``trap_run``: only queries where that run ranks a trap above the first positive
    (adds ``traps_above_first_positive``, ordered most first). With ``per_query`` and ``delta_runs`` (a, b):
    only queries both runs scored, ordered by the largest |Δ ``metric``| (adds ``<metric> a``,
    ``<metric> b`` and ``delta`` = a − b).

    >>> from coreb_core.evaluation.evaluate import analyse_many
    >>> from coreb_core.runs.folders import read_hits
    >>> traps = analyse_many(store, {"bm25": read_hits(bm25)}, (), traps=True).traps  # demo_v2603
    >>> candidates(store, task="c2c", traps=traps, trap_run="bm25")[["query_id", "traps_above_first_positive"]].head(2)
                     query_id  traps_above_first_positive
    0  q_c2c_cross_model_0130                           3
    1  q_c2c_cross_model_0136                           3
    """
    ids = None
    extra = None
    if traps is not None and trap_run is not None:
        ids = _trap_above_positive_ids(traps, trap_run)
        rows = traps[(traps["run"] == trap_run) & traps["query_id"].isin(ids)]
        extra = pd.DataFrame({"query_id": rows["query_id"].astype(str).to_numpy(),
                              "traps_above_first_positive": rows["traps_above_first_positive"].to_numpy()})
    elif per_query is not None and delta_runs is not None:
        extra = largest_deltas(per_query, delta_runs[0], delta_runs[1], metric, task)
        ids = extra["query_id"].tolist()
    found = find_queries(store, task, text, subtask, target_language, query_ids=ids)
    if extra is None:
        return found
    merged = extra.merge(found, on="query_id", how="inner")
    if "traps_above_first_positive" in merged:
        merged = merged.sort_values(["traps_above_first_positive", "query_id"], ascending=[False, True], kind="stable")
    return merged[list(found.columns) + [c for c in extra.columns if c != "query_id"]].reset_index(drop=True)


def query_details(store: Store, query_id: str) -> QueryDetails:
    """The query, its facts, and its problem's statement (the problem's non-noise text, if any).

    >>> q = query_details(store, "q_t2c_canonical_retro_any_0001")  # demo_v2603
    >>> q.task, q.problem_id, q.corpus
    ('t2c', 'demo_fuel_loop', 'code')
    """
    rows = []
    for form in nfc_forms(query_id):  # as given, then NFC and NFD: a pasted id may be in the other form
        rows = store.sql("""SELECT task, query_id, subtask, query, problem_id, target_language, anchor_language,
                                   anchor_code_id, label FROM queries WHERE query_id = ?""", [form]).fetchall()
        if rows:
            break
    if not rows:
        # The id may come from a link: echo a bounded, escaped form of it (repr shows a NUL as \x00).
        shown = quoted_id(query_id) + (f" ({len(query_id):,} characters)" if len(query_id) > 80 else "")
        raise CorebError(f"query {shown} is not in release {store.release}")
    task, qid, subtask, query, pid, target, anchor_lang, anchor, label = rows[0]
    title = statement = abbreviated = None
    if pid is not None:
        text = store.sql("""SELECT text, abbreviated_text, json_extract_string(meta, '$.title') AS title
                            FROM text_corpus
                            WHERE json_extract_string(meta, '$.source_problem_id') = ?
                              AND NOT COALESCE(TRY_CAST(json_extract(meta, '$.is_noise_sample') AS BOOLEAN), FALSE)
                            ORDER BY text_id LIMIT 1""", [pid]).fetchall()
        if text:
            statement, abbreviated, title = text[0]
    return QueryDetails(qid, task, subtask, query, pid, target, anchor_lang, anchor, none_if_missing(label), title, statement,
                        none_if_missing(abbreviated))


def query_hits(hits: pd.DataFrame, query_id: str) -> pd.DataFrame:
    """The stored rows of one query in a run's hits (rank order; NULL-doc empty-list markers removed).

    >>> from coreb_core.runs.folders import read_hits
    >>> query_hits(read_hits(bm25), "q_t2c_canonical_retro_any_0001").head(2)  # demo_v2603, a BM25 run
                   doc_id  rank      score
    0  code_v202603_00024     1  51.202869
    1  code_v202603_00090     2  39.037704
    """
    rows = hits[(hits["query_id"] == query_id) & hits["doc_id"].notna()]
    out = rows[["doc_id", "rank", "score"]].astype({"doc_id": str}).copy()
    out["rank"] = pd.to_numeric(out["rank"]).astype(np.int64)
    return out.sort_values("rank", kind="stable").reset_index(drop=True)


def official_ranks(details: QueryDetails, rows: pd.DataFrame, anchor_exclusion: bool = True) -> pd.DataFrame:
    """The evaluator's ranks for one query's rows (``coreb_core.evaluation.evaluate.official_ranks``).
    Adds ``stored_rank`` (the rank in the file).

    >>> from coreb_core.runs.folders import read_hits
    >>> q = query_details(store, "q_t2c_canonical_retro_any_0001")  # demo_v2603, a BM25 run
    >>> official_ranks(q, query_hits(read_hits(bm25), q.query_id)).head(2)
       rank              doc_id  stored_rank      score
    0     1  code_v202603_00024            1  51.202869
    1     2  code_v202603_00090            2  39.037704
    """
    return evaluator_ranks(rows, details.query_id, details.task, details.anchor_code_id, anchor_exclusion)


def _judged(store: Store, query_id: str) -> pd.DataFrame:
    return store.sql("SELECT doc_id, relevance FROM qrels WHERE query_id = ?", [query_id]).df()


def _documents(store: Store, corpus: str, doc_ids: list[str]) -> pd.DataFrame:
    frame = pd.DataFrame({"doc_id": pd.Series(doc_ids, dtype=object)})
    return store.sql("""SELECT d.doc_id, d.content, d.language, d.model, d.problem_id, d.passed, d.test_passed,
                               d.test_total, d.is_noise
                        FROM ids JOIN documents d ON d.doc_id = ids.doc_id AND d.corpus = ?""",
                     [corpus], frames={"ids": frame}).df()


def _tests(docs: pd.DataFrame) -> list[str]:
    return [("" if pd.isna(p) or pd.isna(t) else f"{int(p)}/{int(t)}") for p, t in
            zip(docs["test_passed"], docs["test_total"])]


def _pass_fail(passed: pd.Series) -> list[str]:
    return ["" if pd.isna(p) else ("pass" if bool(p) else "fail") for p in passed]


def ranked_list(store: Store, details: QueryDetails, rows: pd.DataFrame, anchor_exclusion: bool = True,
                top: int = 10) -> pd.DataFrame:
    """The run's top ``top`` for the query, with its qrel grades and document facts.

    ``rows`` is ``query_hits(...)``. Columns: rank, doc_id, score, language, model, problem_id,
    pass_fail ("pass"/"fail"/""), tests ("passed/total"), same_problem, text (first 160 characters),
    relevance (2/1/0 or NaN), stored_rank.

    >>> from coreb_core.runs.folders import read_hits
    >>> q = query_details(store, "q_t2c_canonical_retro_any_0001")  # demo_v2603, a BM25 run
    >>> rows = query_hits(read_hits(bm25), q.query_id)
    >>> ranked_list(store, q, rows, top=3)[["rank", "doc_id", "language", "relevance"]]
       rank              doc_id language  relevance
    0     1  code_v202603_00024     ruby        2.0
    1     2  code_v202603_00090      cpp        1.0
    2     3  code_v202603_00253      cpp        2.0
    """
    ranked = official_ranks(details, rows, anchor_exclusion)
    ranked = ranked[ranked["rank"] <= top]
    judged = _judged(store, details.query_id)
    docs = _documents(store, details.corpus, ranked["doc_id"].tolist())
    out = ranked.merge(judged, on="doc_id", how="left").merge(docs, on="doc_id", how="left")
    out = out.sort_values("rank", kind="stable").reset_index(drop=True)
    return pd.DataFrame({
        "rank": out["rank"].astype(np.int64), "doc_id": out["doc_id"],
        "score": out["score"].astype(float), "language": out["language"], "model": out["model"],
        "problem_id": out["problem_id"], "pass_fail": _pass_fail(out["passed"]), "tests": _tests(out),
        "same_problem": (out["problem_id"] == details.problem_id).to_numpy(),
        "text": out["content"].map(_snippet), "relevance": out["relevance"].astype(float),
        "stored_rank": out["stored_rank"].astype(np.int64),
    })


def judged_positions(store: Store, details: QueryDetails, rows_by_run: dict[str, pd.DataFrame],
                     anchor_exclusion: bool = True) -> pd.DataFrame:
    """Where each judged document of the query sits in each run, beyond the top 10 too.

    One row per judged document (positives first, then traps, then judged negatives; by doc id).
    Columns: doc_id, relevance, language, model, pass_fail, tests, then one ``rank · <run>``
    column per run (NaN when the run did not store it, or it was dropped as the anchor).

    >>> from coreb_core.runs.folders import read_hits
    >>> q = query_details(store, "q_t2c_canonical_retro_any_0001")  # demo_v2603, a BM25 run
    >>> positions = judged_positions(store, q, {"bm25": query_hits(read_hits(bm25), q.query_id)})
    >>> positions[["doc_id", "relevance", "rank · bm25"]].head(2)
                   doc_id  relevance  rank · bm25
    0  code_v202603_00018          2        286.0
    1  code_v202603_00024          2          1.0
    """
    judged = _judged(store, details.query_id)
    docs = _documents(store, details.corpus, judged["doc_id"].tolist())
    out = judged.merge(docs, on="doc_id", how="left")
    out = out.sort_values(["relevance", "doc_id"], ascending=[False, True], kind="stable").reset_index(drop=True)
    table = pd.DataFrame({"doc_id": out["doc_id"],
                          "relevance": out["relevance"].astype(int), "language": out["language"],
                          "model": out["model"], "pass_fail": _pass_fail(out["passed"]), "tests": _tests(out)})
    for run, rows in rows_by_run.items():
        ranked = official_ranks(details, rows, anchor_exclusion).set_index("doc_id")["rank"]
        table[f"rank · {run}"] = table["doc_id"].map(ranked).astype(float)
    return table


def outranking_pairs(positions: pd.DataFrame, run: str) -> pd.DataFrame:
    """(trap, positive) pairs where the trap ranks above the positive in ``run``.

    ``positions`` is ``judged_positions(...)``; a retrieved trap also outranks a positive the run did
    not store. Columns: trap, trap_rank, positive, positive_rank (NaN = not stored); ordered by trap
    rank, then positive rank.

    >>> from coreb_core.runs.folders import read_hits
    >>> q = query_details(store, "q_t2c_canonical_retro_any_0001")  # demo_v2603, a BM25 run
    >>> positions = judged_positions(store, q, {"bm25": query_hits(read_hits(bm25), q.query_id)})
    >>> outranking_pairs(positions, "bm25").head(2)
                     trap  trap_rank            positive  positive_rank
    0  code_v202603_00090        2.0  code_v202603_00253            3.0
    1  code_v202603_00090        2.0  code_v202603_00197            4.0
    """
    col = f"rank · {run}"
    if col not in positions:
        raise CorebError(f"run {run!r} is not among the inspected runs")
    traps = positions[(positions["relevance"] == TRAP) & positions[col].notna()]
    positives = positions[positions["relevance"] == POSITIVE]
    pairs = [(t_id, t_rank, p_id, p_rank)
             for t_id, t_rank in zip(traps["doc_id"], traps[col])
             for p_id, p_rank in zip(positives["doc_id"], positives[col]) if pd.isna(p_rank) or t_rank < p_rank]
    frame = pd.DataFrame(pairs, columns=["trap", "trap_rank", "positive", "positive_rank"])
    frame = frame.sort_values(["trap_rank", "positive_rank", "trap", "positive"], na_position="last", kind="stable")
    return frame.reset_index(drop=True)


def document_text(store: Store, details: QueryDetails, doc_id: str) -> str:
    """The full text of a document of the query's corpus.

    >>> q = query_details(store, "q_t2c_canonical_retro_any_0001")  # demo_v2603
    >>> document_text(store, q, "code_v202603_00024").splitlines()[0]
    '# Reads the route and prints the smallest valid starting station (1-based) or -1.'
    """
    rows = []
    for form in nfc_forms(doc_id):  # as given, then NFC and NFD (as query_details)
        rows = store.sql("SELECT content FROM documents WHERE doc_id = ? AND corpus = ?",
                         [form, details.corpus]).fetchall()
        if rows:
            break
    if not rows:
        raise CorebError(f"document {quoted_id(doc_id)} is not in the {details.corpus} corpus of {store.release}")
    return rows[0][0] or ""


def document_language(store: Store, doc_id: str) -> str | None:
    """The programming language of a code document (None for texts and unknown ids).

    >>> document_language(store, "code_v202603_00024"), document_language(store, "no_such_doc")  # demo_v2603
    ('ruby', None)
    """
    rows = store.sql("SELECT language FROM documents WHERE doc_id = ? AND corpus = 'code'", [doc_id]).fetchall()
    return rows[0][0] if rows else None


def unified_diff(left: str, right: str, left_name: str, right_name: str, context: int = 3) -> str:
    """difflib's unified diff of two documents (empty string when they are identical).

    >>> unified_diff("a\\nb\\n", "a\\nc\\n", "trap", "positive").splitlines()[2:]
    ['@@ -1,2 +1,2 @@', ' a', '-b', '+c']"""
    return "".join(difflib.unified_diff(left.splitlines(keepends=True), right.splitlines(keepends=True),
                                        fromfile=left_name, tofile=right_name, n=context))


# ------------------------------------------------------------------ runs side by side
def run_ranks(details: QueryDetails, rows_by_run: dict[str, pd.DataFrame], anchor_exclusion: bool = True) -> pd.DataFrame:
    """Every document any run stored for the query, with its evaluator rank in each run (NaN = not stored).

    Columns: doc_id, then one column per run (named as the key of ``rows_by_run``).

    A second BM25 run that keeps only the top 5 (plus the judged documents every run stores) beside ``bm25``:

    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> from coreb_core.runs.folders import read_hits
    >>> top5 = run_retrieval("bm25", "demo_v2603", tasks=("t2c",), top_k=5, root=root).run_id
    >>> q = query_details(store, "q_t2c_canonical_retro_any_0001")  # demo_v2603
    >>> ranks = run_ranks(q, {"bm25": query_hits(read_hits(bm25), q.query_id),
    ...                       "top 5": query_hits(read_hits(top5), q.query_id)})
    >>> ranks.columns.tolist(), ranks[["bm25", "top 5"]].count().tolist()
    (['doc_id', 'bm25', 'top 5'], [107, 13])
    """
    table = pd.DataFrame({"doc_id": pd.Series([], dtype=object)})
    for run, rows in rows_by_run.items():
        ranked = official_ranks(details, rows, anchor_exclusion)[["doc_id", "rank"]].rename(columns={"rank": run})
        table = table.merge(ranked.astype({run: float}), on="doc_id", how="outer")
    return table.sort_values("doc_id", kind="stable").reset_index(drop=True)


# ------------------------------------------------------------------ trap vs positive, same language
class DiffPair(NamedTuple):
    """A trap and the positive to diff it against.

    ``same_language`` is False when no positive of the query is in the trap's language (texts count
    as one language); ``outranked`` says whether the trap ranks above that positive in the run.
    Ranks are NaN when the run did not store the document.
    """

    trap: str
    trap_rank: float
    trap_language: str | None
    positive: str
    positive_rank: float
    positive_language: str | None
    same_language: bool
    outranked: bool


def outranking_traps(positions: pd.DataFrame, run: str) -> list[str]:
    """The traps that rank above at least one positive in ``run``, best-ranked first (``positions`` is
    ``judged_positions(...)``).

    >>> positions = pd.DataFrame({"doc_id": ["p", "t1", "t2"], "relevance": [2, 1, 1], "language": ["go"] * 3,
    ...                           "rank · r": [2.0, 1.0, 5.0]})
    >>> outranking_traps(positions, "r")
    ['t1']
    """
    pairs = outranking_pairs(positions, run)
    return list(dict.fromkeys(pairs["trap"]))


def diff_pair(positions: pd.DataFrame, run: str, trap: str) -> DiffPair:
    """The positive to show beside ``trap``: one in the trap's language where the query has one (a
    positive the trap outranks first, then the best-ranked), else the best-ranked positive it outranks.

    >>> positions = pd.DataFrame({"doc_id": ["p_py", "p_rb", "t_rb"], "relevance": [2, 2, 1],
    ...                           "language": ["python", "ruby", "ruby"], "rank · r": [3.0, 1.0, 2.0]})
    >>> diff_pair(positions, "r", "t_rb")[3:]
    ('p_rb', 1.0, 'ruby', True, False)
    >>> diff_pair(positions.iloc[[0, 2]], "r", "t_rb")[3:]
    ('p_py', 3.0, 'python', False, True)
    """
    col = f"rank · {run}"
    if col not in positions:
        raise CorebError(f"run {run!r} is not among the inspected runs")
    traps = positions[(positions["doc_id"] == trap) & (positions["relevance"] == TRAP)]
    if traps.empty:
        raise CorebError(f"{trap!r} is not a trap of this query")
    t = traps.iloc[0]
    t_lang, t_rank = none_if_missing(t["language"]), float(t[col])
    positives = positions[positions["relevance"] == POSITIVE]
    if positives.empty:
        raise CorebError("this query has no positive")
    ranks = positives[col].astype(float)
    outranked = ranks.isna() | (t_rank < ranks)
    same = pd.Series([none_if_missing(lang) == t_lang for lang in positives["language"]], index=positives.index)
    # Order: same language first, then outranked by the trap, then the positive's rank (not stored last).
    order = pd.DataFrame({"same": ~same, "out": ~outranked, "rank": ranks.fillna(np.inf),
                          "doc": positives["doc_id"]}).sort_values(["same", "out", "rank", "doc"], kind="stable")
    best = positives.loc[order.index[0]]
    i = order.index[0]
    return DiffPair(trap, t_rank, t_lang, str(best["doc_id"]), float(ranks[i]), none_if_missing(best["language"]),
                    bool(same[i]), bool(outranked[i]))
