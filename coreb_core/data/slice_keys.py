"""Slices by any metadata column: a query grouped by a field of itself, of its anchor code, or of its positives.

A *slice key* names one field of one subject, written ``subject.field``:

- ``query.<field>``: a column or meta field of the query's own row (``query.anchor_model``: the model that wrote
  a C2C/C2T anchor; ``query.sub_query_type``; ``query.text_type``; ``query.original_query_type``);
- ``anchor.<field>``: of the C2C/C2T anchor code's corpus row (``anchor.pass_rate``, ``anchor.solution_key``);
  T2C queries have no anchor ("no anchor");
- ``positive.<field>``: of the query's rel=2 documents (``positive.model``: the generator of the T2C solutions
  that count; ``positive.text_style``; ``positive.passed``): the one value they share, else "mixed"; a number
  is their mean (``positive.pass_rate``: the share of passing positives); a query without one "no positive".

A bare field is a query field (``anchor_model`` is ``query.anchor_model``) and a ``meta_`` prefix, as the hub's
flat columns spell it, is dropped (``positive.meta_pass_rate`` is ``positive.pass_rate``). Fields are the
release's own: a name it does not hold is refused with the names it does, so nothing a user types reaches SQL
but a name read from the release. A numeric field with more than ``MAX_LEVELS`` distinct values is cut into
equal-count bins, numbered and named by their range ("2: 393–666"); a value a quarter of the queries share keeps
its own group ("= 1").

Example (CoREB-mini demo_v2603):
    >>> key = SliceKey.parse("positive.meta_model")
    >>> str(key), sorted(set(slice_labels(store, key)))
    ('positive.model', ['mini-verbose', 'mixed', 'no positive', 'none'])
    >>> SliceKey.parse("query.nonesuch").check(store)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: demo_v2603 has no query field 'nonesuch'; it has: ...
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from coreb_core.data.schema import CONFIGS, TASKS
from coreb_core.data.store import Store
from coreb_core.errors import CorebError

SUBJECTS = ("query", "anchor", "positive")
MAX_LEVELS = 8
NUMERIC_BINS = 4
NO_ANCHOR, NO_POSITIVE, MIXED, MISSING = "no anchor", "no positive", "mixed", "none"
# Texts, ids and the packed meta object are no slice: every query has its own.
_NOT_FIELDS = {"query", "code", "text", "abbreviated_text", "meta", "query_id", "code_id", "text_id"}
_CORPUS_OF_TASK = {name: task.corpus.name for name, task in TASKS.items()}
_QUERIES_OF_TASK = {name: task.queries.name for name, task in TASKS.items()}
_NUMERIC_META = {"pass_rate", "test_passed", "test_total", "noise_variation", "num_relevant_docs",
                 "num_target_solutions"}


class SliceKey(NamedTuple):
    """One field of one subject; ``str`` is its one canonical spelling (``positive.pass_rate``)."""

    subject: str
    field: str

    def __str__(self) -> str:
        return f"{self.subject}.{self.field}"

    @classmethod
    def parse(cls, text: str) -> "SliceKey":
        """``subject.field``, ``field`` (a query field) or either with the hub's ``meta_`` prefix.

        >>> SliceKey.parse("anchor_model"), str(SliceKey.parse("anchor.meta_pass_rate"))
        (SliceKey(subject='query', field='anchor_model'), 'anchor.pass_rate')
        """
        subject, _, field = text.strip().rpartition(".")
        subject = subject or "query"
        if subject not in SUBJECTS:
            raise CorebError(f"slice {text!r}: the part before the dot must be one of {', '.join(SUBJECTS)}")
        field = field.removeprefix("meta_")
        if not field:
            raise CorebError(f"slice {text!r} names no field")
        return cls(subject, field)

    def check(self, store: Store) -> "SliceKey":
        """This key, if the release holds its field; else a CorebError naming the fields it holds."""
        fields = slice_fields(store)[self.subject]
        if self.field not in fields:
            raise CorebError(f"{store.release} has no {self.subject} field {self.field!r}; it has: "
                             f"{', '.join(sorted(fields))}")
        return self


def _table_fields(store: Store, config: str) -> tuple[list[str], list[str]]:
    """A config table's sliceable columns and the meta fields its rows carry."""
    columns = [c for c in CONFIGS[config].column_names if c not in _NOT_FIELDS]
    keys = store.sql(f"SELECT DISTINCT unnest(json_keys(meta)) FROM {config} WHERE meta IS NOT NULL").fetchall()
    return columns, sorted(k for (k,) in keys if k not in _NOT_FIELDS)


def slice_fields(store: Store) -> dict[str, set[str]]:
    """The fields of each subject the release holds (read once per version).

    >>> sorted(slice_fields(store)["anchor"])[:3]  # demo_v2603
    ['code_length', 'language', 'model']
    """
    if "slice_fields" not in store.cache:
        def fields(configs: list[str]) -> set[str]:
            out: set[str] = set()
            for config in configs:
                columns, meta = _table_fields(store, config)
                out |= set(columns) | set(meta)
            return out
        store.cache["slice_fields"] = {"query": fields(list(_QUERIES_OF_TASK.values())),
                                       "anchor": fields(["code_corpus"]),
                                       "positive": fields(sorted(set(_CORPUS_OF_TASK.values())))}
    return store.cache["slice_fields"]


def _value_sql(store: Store, config: str, field: str, alias: str) -> str:
    """The SQL of one field of ``config``'s rows (NULL where the table lacks it). ``field`` is a name read
    from the release (``SliceKey.check``), quoted all the same."""
    columns, meta = _table_fields(store, config)
    if field in columns:
        return f'CAST({alias}."{field.replace(chr(34), chr(34) * 2)}" AS VARCHAR)'
    if field in meta:
        path = "'$.\"" + field.replace("'", "''").replace('"', '\\"') + "\"'"
        return f"json_extract_string({alias}.meta, {path})"
    return "NULL::VARCHAR"


def _numeric(field: str) -> bool:
    return field in _NUMERIC_META or field.endswith("_length") or field == "label"


def _raw_values(store: Store, key: SliceKey) -> pd.DataFrame:
    """query_id, value (strings; a positive key: one row per positive)."""
    parts = []
    for task, config in _QUERIES_OF_TASK.items():
        if key.subject == "query":
            parts.append(f"SELECT query_id, {_value_sql(store, config, key.field, 'q')} AS value FROM {config} q")
        elif key.subject == "anchor":
            if task == "t2c":
                continue
            value = _value_sql(store, "code_corpus", key.field, "d")
            parts.append(f"""SELECT q.query_id, {value} AS value FROM {config} q
                             JOIN code_corpus d ON d.code_id = json_extract_string(q.meta, '$.anchor_code_id')""")
        else:
            corpus = _CORPUS_OF_TASK[task]
            id_column = CONFIGS[corpus].id_column
            value = _value_sql(store, corpus, key.field, "d")
            parts.append(f"""SELECT r.query_id, {value} AS value FROM {TASKS[task].qrels.name} r
                             JOIN {corpus} d ON d.{id_column} = r.doc_id WHERE r.relevance = 2""")
    return store.df(" UNION ALL ".join(parts))


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _bins(values: pd.Series) -> pd.Series:
    """Numbers with few distinct values as they are. Otherwise a value that a ``NUMERIC_BINS``-th of the queries
    share keeps its own group ("= 1": a skewed share such as the positives' pass rate is not averaged away) and the
    rest go into equal-count bins, numbered so that they sort in order ("2: 393–666"); equal values never split."""
    numbers = pd.to_numeric(values, errors="coerce")
    present = numbers.dropna()
    if present.nunique() <= MAX_LEVELS:
        return numbers.map(lambda v: MISSING if pd.isna(v) else f"{v:g}")
    out = pd.Series(MISSING, index=values.index, dtype=object)
    counts = present.value_counts()
    heavy = counts.index[counts >= len(present) / NUMERIC_BINS]
    at_heavy = present.isin(heavy)
    out[present.index[at_heavy]] = present[at_heavy].map(lambda v: f"= {_number(v)}")
    rest = present[~at_heavy]
    if len(rest):
        codes = pd.qcut(rest, max(1, NUMERIC_BINS - len(heavy)), labels=False, duplicates="drop")
        ranges = rest.groupby(codes).agg(["min", "max"])
        labels = {code: f"{n}: {_number(lo)}–{_number(hi)}"
                  for n, (code, (lo, hi)) in enumerate(ranges.iterrows(), 1)}
        out[rest.index] = codes.map(labels)
    return out


def slice_labels(store: Store, key: SliceKey) -> np.ndarray:
    """Each query's label under ``key``, in ``Store.query_facts`` order (object array of strings).

    >>> labels = slice_labels(store, SliceKey.parse("query.anchor_model"))  # demo_v2603
    >>> len(labels) == len(store.query_facts), sorted(set(labels))
    (True, ['mini-concise', 'mini-verbose', 'none'])
    """
    key.check(store)
    memo = store.cache.setdefault("slice_labels", {})
    if str(key) in memo:
        return memo[str(key)]
    raw = _raw_values(store, key)
    ids = store.query_ids
    if key.subject == "positive":
        if _numeric(key.field):
            per_query = pd.to_numeric(raw["value"], errors="coerce").groupby(raw["query_id"]).mean()
        else:
            distinct = raw.fillna({"value": MISSING}).groupby("query_id")["value"].agg(lambda v: set(v))
            per_query = distinct.map(lambda s: next(iter(s)) if len(s) == 1 else MIXED)
        labels = pd.Series(per_query.reindex(ids).to_numpy(), dtype=object)
        missing = ~ids.isin(per_query.index)
    else:
        per_query = raw.drop_duplicates("query_id").set_index("query_id")["value"]
        labels = pd.Series(per_query.reindex(ids).to_numpy(), dtype=object)
        missing = ~ids.isin(per_query.index)
    if _numeric(key.field):
        labels = _bins(labels)
    labels = labels.fillna(MISSING).astype(str)
    if key.subject != "query":
        labels[missing] = NO_ANCHOR if key.subject == "anchor" else NO_POSITIVE
    memo[str(key)] = out = labels.to_numpy(dtype=object)
    return out
