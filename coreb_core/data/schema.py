"""The shape of CoREB: configs, their columns, tasks, subtasks, languages and id patterns.

Every other module takes its names from here, so a format change is made in one place.
Facts follow ``shared/reference/COREB.md`` (dataset card of ``hq-bench/coreb`` and the
official ``coreb`` runner).
"""
from __future__ import annotations

from typing import Literal, NamedTuple

HUB_REPO = "hq-bench/coreb"
HUB_RELEASES = ("release_v2602", "release_v2603")

LANGUAGES = ("python", "java", "cpp", "go", "ruby")
# A query's language scope: "any" (no language constraint) or one of LANGUAGES. Used for T2C
# language constraints and wherever a language filter or chart axis includes the unconstrained queries.
LANGUAGE_SCOPES = ("any",) + LANGUAGES
POSITIVE = 2  # rel=2: verified-correct solution (T2C search in coreb 0.1.0: any solution) / original description
TRAP = 1  # rel=1: hard negative of the same problem
NEGATIVE = 0  # rel=0: judged negative
GRADES = (NEGATIVE, TRAP, POSITIVE)


class Column(NamedTuple):
    """One column of a config as cached: name, Arrow type name, and whether import demands it.

    >>> CODE_CORPUS.columns[0]
    Column(name='code_id', type='string', required=True)
    """

    name: str
    type: str  # "string" | "int64" | "int8" | "bool" | "json"  ("json" = normalised meta text)
    required: bool


class Config(NamedTuple):
    """One of the eight dataset configs (one parquet per release).

    >>> T2C_QRELS.name, T2C_QRELS.id_column, T2C_QRELS.column_names
    ('text2code_qrels', None, ('query_id', 'doc_id', 'relevance'))
    """

    name: str
    id_column: str | None  # None for qrels (their key is the pair)
    columns: tuple[Column, ...]
    jsonl_names: tuple[str, ...]  # file names used by the official runner's JSONL dumps

    @property
    def column_names(self) -> tuple[str, ...]:
        """The config's column names in order.

        >>> C2C_QRELS.column_names
        ('query_id', 'doc_id', 'relevance')
        """
        return tuple(c.name for c in self.columns)


def _cols(*spec: str) -> tuple[Column, ...]:
    # "name:type" is required, "name:type?" optional.
    out = []
    for s in spec:
        name, typ = s.split(":")
        out.append(Column(name, typ.rstrip("?"), not typ.endswith("?")))
    return tuple(out)


CODE_CORPUS = Config(
    "code_corpus", "code_id",
    _cols("code_id:string", "code:string", "language:string", "model:string", "code_length:int64?", "meta:json"),
    ("code_corpus_v2.jsonl", "code_corpus.jsonl"),
)
TEXT_CORPUS = Config(
    "text_corpus", "text_id",
    _cols("text_id:string", "text_style:string?", "text:string", "text_length:int64?", "abbreviated_text:string?",
          "meta:json"),
    ("text_corpus_v2.jsonl", "text_corpus.jsonl"),
)
T2C_QUERIES = Config(
    "text2code_queries", "query_id",
    _cols("query_id:string", "query:string", "split:string?", "subtask:string", "query_type:string?",
          "sub_query_type:string?", "language_constraint:string?", "meta:json"),
    ("text2code_queries.jsonl",),
)
C2C_QUERIES = Config(
    "code2code_queries", "query_id",
    _cols("query_id:string", "query:string", "split:string?", "subtask:string", "anchor_language:string",
          "anchor_model:string?", "meta:json"),
    ("code2code_queries.jsonl",),
)
C2T_QUERIES = Config(
    "code2text_queries", "query_id",
    _cols("query_id:string", "query:string", "split:string?", "subtask:string", "anchor_language:string?",
          "anchor_model:string?", "label:int64?", "text_id:string?", "meta:json"),
    ("code2text_queries.jsonl",),
)
_QREL_COLS = _cols("query_id:string", "doc_id:string", "relevance:int8")
T2C_QRELS = Config("text2code_qrels", None, _QREL_COLS, ("text2code_qrels.jsonl",))
C2C_QRELS = Config("code2code_qrels", None, _QREL_COLS, ("code2code_qrels.jsonl",))
C2T_QRELS = Config("code2text_qrels", None, _QREL_COLS, ("code2text_qrels.jsonl",))

CONFIGS: dict[str, Config] = {
    c.name: c
    for c in (CODE_CORPUS, TEXT_CORPUS, T2C_QUERIES, C2C_QUERIES, C2T_QUERIES, T2C_QRELS, C2C_QRELS, C2T_QRELS)
}
# The type of each meta field as the real releases hold it (hub columns ``meta_<field>``, the generator's
# nested ``meta``); a null is an absent field. A field not listed here is kept as it comes.
# Kinds: "string", "boolean", "number" (finite int or float), "integer" (a whole number), "list".
META_TYPES: dict[str, str] = {
    "source_problem_id": "string", "solution_key": "string", "passed": "boolean", "pass_rate": "number",
    "test_passed": "integer", "test_total": "integer", "created_at": "string", "corpus_version": "string",
    "original_text_id": "string", "original_problem_id": "string", "is_noise_sample": "boolean",
    "noise_type": "string", "noise_variation": "number", "original_query_type": "string",
    "generator_version": "string", "num_relevant_docs": "number", "models_in_relevant_docs": "list",
    "is_multi_model": "boolean", "target_languages": "list", "num_target_solutions": "integer",
    "task_type": "string", "text_type": "string", "pair_type": "string", "negative_problem_id": "string",
    "available_languages": "list",
}
# Meta fields every row of a config must carry (every real row does): the problem links documents and
# queries; ``passed`` tells a passing solution from a failing one, and a missing one would be read as unknown.
REQUIRED_META: dict[str, tuple[str, ...]] = {
    "code_corpus": ("source_problem_id", "passed"),
    "text_corpus": ("source_problem_id",),
    "text2code_queries": ("source_problem_id",),
    "code2code_queries": ("source_problem_id",),
    "code2text_queries": ("source_problem_id",),
}
# Legacy qrel files name the grade "score"; it is renamed on import.
LEGACY_GRADE_COLUMN = "score"


class Task(NamedTuple):
    """A retrieval direction: which queries, qrels and corpus belong together.

    >>> task = TASKS["c2t"]
    >>> task.long_name, task.corpus.name, task.mteb_retrieval
    ('code2text', 'text_corpus', 'CorebC2TRetrieval')
    """

    name: str  # short name used everywhere: t2c, c2c, c2t
    long_name: str  # official runner's name
    mteb_retrieval: str
    mteb_reranking: str
    queries: Config
    qrels: Config
    corpus: Config


TASKS: dict[str, Task] = {
    "t2c": Task("t2c", "text2code", "CorebT2CRetrieval", "CorebT2CReranking", T2C_QUERIES, T2C_QRELS, CODE_CORPUS),
    "c2c": Task("c2c", "code2code", "CorebC2CRetrieval", "CorebC2CReranking", C2C_QUERIES, C2C_QRELS, CODE_CORPUS),
    "c2t": Task("c2t", "code2text", "CorebC2TRetrieval", "CorebC2TReranking", C2T_QUERIES, C2T_QRELS, TEXT_CORPUS),
}
# The task short names in the paper's order (T2C, C2C, C2T).
TASK_NAMES: tuple[str, ...] = tuple(TASKS)
TaskName = Literal["t2c", "c2c", "c2t"]  # TASK_NAMES as a type (tests/test_vocabularies.py keeps them equal)
# The corpus kind a task searches, as the store's ``documents.corpus`` column names it.
CORPUS_OF_TASK: dict[str, str] = {t.name: t.corpus.name.removesuffix("_corpus") for t in TASKS.values()}
TASK_BY_QUERIES_CONFIG = {t.queries.name: t for t in TASKS.values()}

SUBTASKS: dict[str, tuple[str, ...]] = {
    "t2c": tuple(f"t2c_{kind}_{scope}" for kind in ("canonical_retro", "full_retro", "search")
                 for scope in LANGUAGE_SCOPES),
    "c2c": ("c2c_cross_lang", "c2c_mono_lang", "c2c_cross_model"),
    "c2t": tuple(f"c2t_{kind}_{scope}" for kind in ("canonical_retro", "full_retro") for scope in LANGUAGE_SCOPES)
    + ("c2t_match",),
}
ALL_SUBTASKS = tuple(s for group in SUBTASKS.values() for s in group)
assert len(ALL_SUBTASKS) == 34
LANGUAGE_CONSTRAINTS = ("none",) + LANGUAGES


def subtask_language(subtask: str) -> str | None:
    """The target language a subtask constrains to, or None (``t2c_search_go`` -> ``go``).

    >>> subtask_language("t2c_search_go"), subtask_language("c2c_cross_lang")
    ('go', None)
    """
    tail = subtask.rsplit("_", 1)[-1]
    return tail if tail in LANGUAGES else None


# How per-query metrics can be broken down: grouping name -> the query-fact column it groups by. "task" is always
# there (every mean is per task); the app offers all but "query" (``APP_GROUPINGS``), the CLI's ``eval --by`` all.
GROUPINGS = {"subtask": "subtask", "language": "target_language", "anchor_language": "anchor_language",
             "problem": "problem_id", "query": "query_id"}
APP_GROUPINGS = ("task", *(g for g in GROUPINGS if g != "query"))
Grouping = Literal["subtask", "language", "anchor_language", "problem", "query"]  # GROUPINGS' keys as a type
