"""The official CoREB generator's own grading rules, applied to any (query, document) pair of a cached release: would
the generator's positive rule select the document (rel=2), is it in the generator's hard-negative pool (rel=1, at most
three drawn), and so which class an unjudged or trap-graded document falls in.

The rules are those of ``coreb_runner/runners/query_corpus_dataset_maker.py`` (coreb 0.1.0), expressed through the
query's own fields (``anchor_model``, ``anchor_language``, ``anchor_code_id``, ``target_language``, ``label``) rather
than the model names the generator hard-codes (``claude-sonnet-4-5`` / ``gemini-3-flash``; release_v2602 calls the
first ``claude-4-sonnet``). A solution passes when ``meta.passed`` is true (the generator's
``meta.get('passed', False)``: unknown counts as failing). Only documents of the query's own problem
(``source_problem_id``) can be positives or pool members, but for C2T's second tier (below).

Positive rule (rel=2):
- T2C ``canonical_retro`` / ``full_retro``: the passing solutions, in the language constraint when there is one;
  T2C ``search``: every solution, passing or failing, in the language constraint (``_create_text2code_entries``);
- C2C (passing solutions only, never the anchor): ``mono_lang``: in the anchor's language by another model than the
  anchor's; ``cross_lang``: by the anchor's model, in another language, with a code id greater than the anchor's
  (lexicographic: each unordered pair is asked once); ``cross_model``: by another model, in another language;
- C2T: the problem's description (its one non-noise text); a ``c2t_match`` label-0 query has none.

Hard-negative pool (rel=1; ``_select_{t2c,c2c,c2t}_hard_negatives``), the positives (and the C2C anchor) excluded,
built by priority: 1. failing solutions that match the subtask's constraint (T2C: in the language constraint, any when
none; C2C ``cross_lang``: in another language than the anchor's; ``mono_lang``: another model, the anchor's language;
``cross_model``: another model, another language); 2. while the pool holds fewer than 3: any failing solution of the
problem; 3. while it still holds fewer than 3: the problem's passing solutions that are not positives. A pool over the
cap of 3 gives 3 drawn at random (``random.sample``); a pool of 3 or fewer is judged whole. C2T: 1. the problem's noise
descriptions; 2. while fewer than 3: noise descriptions of other problems, drawn to fill the 3. coreb 0.1.0's
``_generate_c2t_match`` draws no trap at all, but the real releases grade each ``c2t_match`` query with three of its
problem's noise descriptions as the other C2T subtasks, so the C2T pool applies to ``c2t_match`` too.

The classes (``CLASSES``: canonical name -> display words), for a pair the qrels leave unjudged or grade a trap:
``would_be_positive`` ("would be rel=2": the positive rule selects it: a missed positive by the generator's own rule),
``trap_beyond_cap`` ("trap beyond the cap": unjudged, in a pool of more than 3 that the draw left it out of),
``would_be_trap`` ("would be rel=1": unjudged although the generator judges it whole: in a pool of 3 or fewer, or in
C2T's first tier when it holds fewer than 3), ``trap_by_rule`` ("trap by the rule": graded rel=1 and in the pool: the
generator's own trap), ``other`` (neither rule selects it).

Example (CoREB-mini, built by these rules):
    >>> pairs = pd.DataFrame({"task": "c2c", "query_id": "q_c2c_cross_lang_0025",
    ...                       "doc_id": ["code_v202603_00197", "code_v202603_00053", "code_v202603_00227"]})
    >>> classify(store, pairs)["class"].tolist(), CLASSES["trap_beyond_cap"]
    (['would_be_positive', 'trap_by_rule', 'other'], 'trap beyond the cap')
"""
from __future__ import annotations

import json
from typing import Literal, Sequence

import numpy as np
import pandas as pd

from coreb_core.data.schema import TRAP
from coreb_core.data.store import Store

CAP = 3  # the generator's target_count: at most 3 hard negatives per query
CandidateClass = Literal["would_be_positive", "trap_beyond_cap", "would_be_trap", "trap_by_rule", "other"]
# canonical name -> display words (the ui and the verb show these)
CLASSES: dict[str, str] = {
    "would_be_positive": "would be rel=2",
    "trap_beyond_cap": "trap beyond the cap",
    "would_be_trap": "would be rel=1",
    "trap_by_rule": "trap by the rule",
    "other": "other",
}
RULE_COLUMNS = ["task", "query_id", "doc_id", "positive", "priority", "pool_size", "judged_whole"]
CLASS_COLUMNS = ["positive", "in_pool", "priority", "pool_size", "class"]


def _query_rows(store: Store) -> pd.DataFrame:
    """Every query with the fields its rules read, and its C2C target languages (``meta.target_languages``)."""
    queries = store.df("""SELECT task, query_id, subtask, problem_id, target_language, anchor_language, anchor_model,
                                 anchor_code_id, label, json_extract(meta, '$.target_languages') AS target_languages
                          FROM queries ORDER BY task, query_id""")
    queries["target_languages"] = [tuple(json.loads(v)) if isinstance(v, str) else None
                                   for v in queries["target_languages"]]
    return queries


def _flag(values: pd.Series) -> np.ndarray:
    """Where a nullable boolean column is true (missing counts as false: the generator's ``get('passed', False)``)."""
    return values.astype("boolean").fillna(False).to_numpy(dtype=bool)


def positive_rule(frame: pd.DataFrame) -> np.ndarray:
    """Where the generator's positive rule selects the document, for a frame of (query, document of the query's
    problem) rows: the query's ``task``, ``subtask``, ``target_language`` (None when unconstrained),
    ``anchor_language``, ``anchor_model``, ``anchor_code_id`` and ``label``; the document's ``doc_id``, ``language``,
    ``model``, ``passed`` and ``is_noise``.

    >>> frame = pd.DataFrame({"task": ["c2c", "c2c", "t2c", "t2c"],
    ...     "subtask": ["c2c_cross_lang", "c2c_cross_lang", "t2c_search_go", "t2c_full_retro_go"],
    ...     "target_language": [None, None, "go", "go"], "anchor_language": ["python", "python", None, None],
    ...     "anchor_model": ["m", "m", None, None], "anchor_code_id": ["code_2", "code_2", None, None],
    ...     "label": [None] * 4, "doc_id": ["code_1", "code_3", "code_4", "code_4"],
    ...     "language": ["go", "go", "go", "go"], "model": ["m"] * 4, "passed": [True, True, False, False],
    ...     "is_noise": [False] * 4})
    >>> positive_rule(frame).tolist()  # cross_lang: only a greater code id; search: failing solutions too
    [False, True, True, False]
    """
    task = frame["task"].astype(object).to_numpy()
    subtask = frame["subtask"].astype(object).fillna("").astype(str)
    language = frame["language"].astype(object).to_numpy()
    model = frame["model"].astype(object).to_numpy()
    doc = frame["doc_id"].astype(str).to_numpy()
    target = frame["target_language"].astype(object)
    target = target.where(target.notna() & (target != "any") & (target != "none"))
    anchor_language = frame["anchor_language"].astype(object).to_numpy()
    anchor_model = frame["anchor_model"].astype(object).to_numpy()
    anchor = frame["anchor_code_id"].astype(object).fillna("").astype(str).to_numpy()
    passed = _flag(frame["passed"])
    in_target = (target.isna() | (frame["language"].astype(object) == target)).to_numpy()
    search = subtask.str.startswith("t2c_search").to_numpy()
    t2c = (task == "t2c") & in_target & (passed | search)
    mono = subtask.eq("c2c_mono_lang").to_numpy()
    cross_lang = subtask.eq("c2c_cross_lang").to_numpy()
    cross_model = subtask.eq("c2c_cross_model").to_numpy()
    same_model = model == anchor_model
    same_language = language == anchor_language
    c2c = ((task == "c2c") & passed & (doc != anchor)
           & ((mono & same_language & ~same_model) | (cross_lang & same_model & ~same_language & (doc > anchor))
              | (cross_model & ~same_model & ~same_language)))
    label = pd.to_numeric(frame["label"], errors="coerce").to_numpy()
    c2t = (task == "c2t") & ~_flag(frame["is_noise"]) & ~(subtask.eq("c2t_match").to_numpy() & (label == 0))
    return t2c | c2c | c2t


def _constraint_failing(frame: pd.DataFrame, failing: np.ndarray) -> np.ndarray:
    """The pool's first tier: failing solutions that match the subtask's constraint (T2C's language constraint, or any
    language without one; C2C's per-subtask model and language filter)."""
    task = frame["task"].to_numpy()
    subtask = frame["subtask"].astype(object).fillna("").astype(str)
    language = frame["language"].astype(object).to_numpy()
    same_language = language == frame["anchor_language"].astype(object).to_numpy()
    other_model = frame["model"].astype(object).to_numpy() != frame["anchor_model"].astype(object).to_numpy()
    target = frame["target_language"].astype(object)
    in_target = (target.isna() | (frame["language"].astype(object) == target)).to_numpy()
    c2c = ((subtask.eq("c2c_cross_lang").to_numpy() & ~same_language)
           | (subtask.eq("c2c_mono_lang").to_numpy() & other_model & same_language)
           | (subtask.eq("c2c_cross_model").to_numpy() & other_model & ~same_language))
    return failing & np.where(task == "t2c", in_target, c2c)


def rule_frame(store: Store) -> pd.DataFrame:
    """Every (query, document of the query's problem in the corpus the query searches) with the generator's verdict:
    ``positive`` (the positive rule selects it), ``priority`` (the pool tier that takes it in: 1, 2 or 3; 0 when it is
    not in the pool), ``pool_size`` (the query's whole pool, before the draw; C2T: its own problem's part and, when that
    holds fewer than 3, the other problems' noise descriptions) and ``judged_whole`` (the generator keeps it for sure:
    a pool of at most 3, or C2T's first tier below 3). Read once per release version (``store.cache``).

    >>> frame = rule_frame(store)  # CoREB-mini
    >>> frame.columns.tolist()
    ['task', 'query_id', 'doc_id', 'positive', 'priority', 'pool_size', 'judged_whole']
    """
    if "generator_rules" in store.cache:
        return store.cache["generator_rules"]
    queries = _query_rows(store)
    docs = store.df("""SELECT corpus, doc_id, problem_id, language, model, passed, is_noise FROM documents
                       WHERE problem_id IS NOT NULL""")
    queries["corpus"] = np.where(queries["task"] == "c2t", "text", "code")
    frame = queries.merge(docs, on=["corpus", "problem_id"], how="inner", sort=False)
    frame["target_language"] = frame["target_language"].where(frame["task"] == "t2c")  # C2T's is its anchor's
    frame["positive"] = positive_rule(frame)
    anchor = frame["doc_id"].astype(str).to_numpy() == frame["anchor_code_id"].astype(object).fillna("").to_numpy()
    excluded = frame["positive"].to_numpy() | anchor
    code = (frame["corpus"] == "code").to_numpy()
    passed = _flag(frame["passed"])
    failing = code & ~passed & ~excluded
    correct = code & passed & ~excluded
    noise = _flag(frame["is_noise"]) & ~excluded
    if not _match_has_traps(store):  # coreb 0.1.0's c2t_match draws no trap (CoREB-mini)
        noise &= ~frame["subtask"].eq("c2t_match").to_numpy()
    first = np.where(code, _constraint_failing(frame, failing), noise)
    key = frame["query_id"]

    def per_query(values: np.ndarray) -> np.ndarray:
        return pd.Series(values, index=frame.index).groupby(key).transform("sum").to_numpy()

    n_first = per_query(first)
    second = code & (n_first < CAP) & failing & ~first  # the generator's tier 2 (T2C unconstrained: tier 1 already)
    n_second = per_query(first | second)
    third = code & (n_second < CAP) & correct
    priority = np.select([first, second, third], [1, 2, 3], default=0)
    in_pool = priority > 0
    pool_size = per_query(in_pool)
    judged_whole = in_pool & (pool_size <= CAP)
    text = ~code
    if text.any():  # C2T: a first tier below 3 is kept whole and filled from other problems' noise descriptions
        others = _other_noise(store, queries)
        extra = frame["query_id"].map(others).fillna(0).to_numpy(dtype=int)
        pool_size = np.where(text & (n_first < CAP), n_first + extra, pool_size)
        judged_whole = np.where(text, in_pool & (n_first <= CAP), judged_whole)
    frame["priority"], frame["pool_size"], frame["judged_whole"] = priority, pool_size, judged_whole
    frame = frame[RULE_COLUMNS].reset_index(drop=True)
    store.cache["generator_rules"] = frame
    return frame


def _match_has_traps(store: Store) -> bool:
    """Whether the release grades ``c2t_match`` queries with noise descriptions as traps, as the real releases do
    (coreb 0.1.0's ``_generate_c2t_match``, and CoREB-mini after it, draw none)."""
    row = store.sql("""SELECT count(*) FROM judgments WHERE subtask = 'c2t_match' AND relevance = ? AND is_noise""",
                    [int(TRAP)]).fetchone()
    return bool(row and row[0])


def _other_noise(store: Store, queries: pd.DataFrame) -> pd.Series:
    """C2T query id -> how many noise descriptions other problems have (the generator's second C2T tier), for the
    queries that have a pool."""
    per_problem = store.df("SELECT problem_id, count(*) AS n FROM documents WHERE corpus = 'text' AND is_noise "
                           "GROUP BY problem_id")
    total = int(per_problem["n"].sum())
    own = queries["problem_id"].map(dict(zip(per_problem["problem_id"], per_problem["n"]))).fillna(0)
    pooled = queries["task"].eq("c2t") & (queries["subtask"].ne("c2t_match") | _match_has_traps(store))
    return pd.Series((total - own).to_numpy(dtype=int), index=queries["query_id"])[pooled.to_numpy()]


def c2c_target_languages(store: Store) -> pd.Series:
    """C2C query id -> the languages its positives may be in, as the generator defines them: ``cross_lang`` and
    ``cross_model`` their ``meta.target_languages`` (the languages of the positives it wrote; without that field, the
    languages the positive rule selects), ``mono_lang`` the anchor's language.

    >>> c2c_target_languages(store)["q_c2c_cross_lang_0025"]  # CoREB-mini
    ('cpp', 'go', 'java', 'python')
    """
    queries = _query_rows(store)
    queries = queries[queries["task"] == "c2c"]
    rules = rule_frame(store)
    docs = store.df("SELECT doc_id, language FROM documents WHERE corpus = 'code'")
    selected = rules[rules["positive"] & (rules["task"] == "c2c")].merge(docs, on="doc_id")
    by_rule = selected.groupby("query_id")["language"].agg(lambda v: tuple(sorted(set(v))))
    languages = []
    for q in queries.itertuples(index=False):
        if q.subtask == "c2c_mono_lang":
            languages.append((q.anchor_language,) if isinstance(q.anchor_language, str) else ())
        elif q.target_languages is not None:
            languages.append(tuple(q.target_languages))
        else:
            languages.append(by_rule.get(q.query_id, ()))
    return pd.Series(languages, index=pd.Index(queries["query_id"], name="query_id"), dtype=object,
                     name="target_languages")


def allowed_language(store: Store, pairs: pd.DataFrame) -> np.ndarray:
    """Where a (task, query_id, doc_id) pair's document is in a language the generator lets the query's positives be
    in: T2C its language constraint (any without one), C2C ``c2c_target_languages``, C2T any text.

    >>> pairs = pd.DataFrame({"task": "c2c", "query_id": "q_c2c_cross_lang_0025",
    ...                       "doc_id": ["code_v202603_00240", "code_v202603_00227"]})
    >>> allowed_language(store, pairs).tolist()  # ruby, the anchor's language, is no target of this cross_lang query
    [False, True]
    """
    if pairs.empty:
        return np.zeros(0, dtype=bool)
    queries = _query_rows(store)[["query_id", "target_language"]]
    docs = store.df("SELECT doc_id, language FROM documents WHERE corpus = 'code'")
    merged = pairs[["task", "query_id", "doc_id"]].merge(queries, on="query_id", how="left").merge(
        docs, on="doc_id", how="left")
    targets = c2c_target_languages(store)
    c2c_ok = [lang in (targets.get(q) or ()) for q, lang in zip(merged["query_id"], merged["language"])]
    t2c_ok = (merged["target_language"].isna() | (merged["target_language"] == merged["language"])).to_numpy()
    task = merged["task"].to_numpy()
    return np.select([task == "t2c", task == "c2c"], [t2c_ok, np.array(c2c_ok, dtype=bool)], default=True)


def classify(store: Store, pairs: pd.DataFrame) -> pd.DataFrame:
    """The generator's verdict on each (``task``, ``query_id``, ``doc_id``) pair of ``pairs``, on the same index:
    ``positive`` (its positive rule selects the document), ``in_pool`` (its hard-negative pool holds it),
    ``priority`` (the pool tier, 0 outside), ``pool_size`` and ``class`` (one of ``CLASSES``' names; the qrels' grade
    of the pair tells an unjudged pool member, ``trap_beyond_cap`` or ``would_be_trap``, from a judged one,
    ``trap_by_rule``). A document of another problem is ``other``, but a C2T noise description that the second tier
    may draw.

    >>> pairs = pd.DataFrame({"task": ["t2c"], "query_id": ["q_t2c_canonical_retro_any_0001"],
    ...                       "doc_id": ["code_v202603_00090"]})
    >>> classify(store, pairs)[["in_pool", "priority", "class"]].to_dict("records")  # CoREB-mini
    [{'in_pool': True, 'priority': 1, 'class': 'trap_by_rule'}]
    """
    if pairs.empty:
        return pd.DataFrame({"positive": pd.Series(dtype=bool), "in_pool": pd.Series(dtype=bool),
                             "priority": pd.Series(dtype=int), "pool_size": pd.Series(dtype=int),
                             "class": pd.Series(dtype=object)}, index=pairs.index)
    keys = pairs[["task", "query_id", "doc_id"]].astype(str).reset_index(drop=True)
    rules = rule_frame(store)
    merged = keys.merge(rules, on=["task", "query_id", "doc_id"], how="left")
    grades = store.df("SELECT task, query_id, doc_id, relevance FROM qrels")
    merged = merged.merge(grades, on=["task", "query_id", "doc_id"], how="left")
    positive = merged["positive"].astype("boolean").fillna(False).to_numpy(dtype=bool)
    priority = merged["priority"].fillna(0).to_numpy(dtype=int)
    pool_size = merged["pool_size"].fillna(0).to_numpy(dtype=int)
    whole = merged["judged_whole"].astype("boolean").fillna(False).to_numpy(dtype=bool)
    outside = merged["positive"].isna().to_numpy() & (merged["task"] == "c2t").to_numpy()
    if outside.any():  # C2T second tier: another problem's noise description, drawn while the own ones are below 3
        priority, pool_size, whole = _second_c2t_tier(store, merged, outside, priority, pool_size, whole)
    in_pool = priority > 0
    unjudged = merged["relevance"].isna().to_numpy()
    trap = (merged["relevance"] == int(TRAP)).to_numpy()
    kind = np.select([positive, in_pool & unjudged & ~whole, in_pool & unjudged & whole, in_pool & trap],
                     ["would_be_positive", "trap_beyond_cap", "would_be_trap", "trap_by_rule"],
                     default="other").astype(object)
    return pd.DataFrame({"positive": positive, "in_pool": in_pool, "priority": priority, "pool_size": pool_size,
                         "class": kind}, index=pairs.index)


def _second_c2t_tier(store: Store, merged: pd.DataFrame, outside: np.ndarray, priority: np.ndarray,
                     pool_size: np.ndarray, whole: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The verdicts of C2T pairs whose document is of another problem: in the pool (tier 2) when it is a noise
    description and the query's own problem has fewer than 3; kept for sure when the others fill no more than 3."""
    rules = rule_frame(store)
    own = rules[(rules["task"] == "c2t") & (rules["priority"] == 1)].groupby("query_id").size()
    noise = set(store.df("SELECT doc_id FROM documents WHERE corpus = 'text' AND is_noise")["doc_id"])
    others = _other_noise(store, _query_rows(store))
    priority, pool_size, whole = priority.copy(), pool_size.copy(), whole.copy()
    for i in np.flatnonzero(outside):
        query, doc = merged.at[i, "query_id"], merged.at[i, "doc_id"]
        n_own = int(own.get(query, 0))
        if doc in noise and n_own < CAP and query in others.index:
            priority[i], pool_size[i] = 2, n_own + int(others[query])
            whole[i] = int(others[query]) <= CAP - n_own
    return priority, pool_size, whole


def classify_pairs(store: Store, task: str, query_id: str, doc_ids: Sequence[str]) -> pd.Series:
    """One query's documents -> their class (one of ``CLASSES``' names), indexed by doc id in the order given: what the
    inspector shows beside a query's unjudged and trap documents (``CLASSES[name]`` are its words).

    >>> classify_pairs(store, "c2c", "q_c2c_cross_lang_0025", ["code_v202603_00227", "code_v202603_00053"]).to_dict()
    {'code_v202603_00227': 'other', 'code_v202603_00053': 'trap_by_rule'}
    """
    pairs = pd.DataFrame({"task": task, "query_id": query_id, "doc_id": list(doc_ids)}, dtype=object)
    classes = classify(store, pairs)["class"]
    return pd.Series(classes.to_numpy(), index=pd.Index(list(doc_ids), name="doc_id"), name="class", dtype=object)
