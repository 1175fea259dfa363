"""The reranker protocol's samples: one positive, up to three hard negatives (the query's rel=1 traps) and about
29 easy negatives (unjudged documents of other problems) per sample, in the article's schema.

CoREB's article trains a reranker on release v202602 and tests it on release v202603 (the two share no problem),
with 3,803 training and 3,692 test samples. It does not state how a sample is made; its counts fix the rule:
one sample per (query, rel=2 document) of every query that has at least one rel=1 document gives exactly 3,803
on release_v2602 (T2C 2,372, C2C 367, C2T 1,064) and 3,882 on release_v2603, of which 190 are c2t_match samples:
3,882 − 190 = 3,692. So the ``train`` rule takes every subtask, the ``test`` rule every subtask but c2t_match;
``default_rule`` gives ``test`` for the protocol's test release and ``train`` for any other.

Which negatives a sample holds is seeded: ``random.Random`` seeded with the text ``coreb-samples:<seed>:<query
id>:<positive id>``, so the same release and arguments give the same samples on any machine and Python.

Example (CoREB-mini in ``root``):
    >>> with Store("demo_v2603", root) as store:
    ...     samples = build_samples(store, TRAIN)
    >>> s = samples[0]
    >>> s.task, s.subtask, len(s.pos), len(s.hard_neg), len(s.easy_neg)
    ('text2code', 't2c_canonical_retro_any', 1, 3, 29)
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Iterable, NamedTuple

import numpy as np
import pandas as pd

from coreb_core.data.schema import CORPUS_OF_TASK, POSITIVE, SUBTASKS, TASK_NAMES, TASKS, TRAP
from coreb_core.data.store import Store
from coreb_core.errors import CorebError, check_choice

TRAIN, TEST = "train", "test"
RULES = (TRAIN, TEST)
RULE_TEXT = {TRAIN: "every subtask (the article's 3,803 training samples of release_v2602)",
             TEST: "every subtask but c2t_match (the article's 3,692 test samples of release_v2603)"}
LEFT_OUT = {TRAIN: frozenset(), TEST: frozenset({"c2t_match"})}  # subtasks a rule leaves out
PROTOCOL_TRAIN, PROTOCOL_TEST = "release_v2602", "release_v2603"  # the article's train and test releases
MINI_TEST = "demo_v2603"  # CoREB-mini's stand-in for the test release (coreb_core.defaults)
TEST_RELEASES = (PROTOCOL_TEST, MINI_TEST)


def test_release_of(release: str) -> str:
    """The test release of the benchmark ``release`` belongs to: CoREB-mini's for a ``demo_`` release, else the
    protocol's.

    >>> test_release_of("release_v2602"), test_release_of("demo_v2602"), test_release_of("my_copy")
    ('release_v2603', 'demo_v2603', 'release_v2603')
    """
    return MINI_TEST if release.startswith("demo_") else PROTOCOL_TEST
HARD, EASY, SEED = 3, 29, 0  # the article's mix: 1 positive, 3 hard negatives, about 29 easy negatives
LONG_TASK = {name: task.long_name for name, task in TASKS.items()}  # t2c -> text2code (the schema's spelling)
SHORT_TASK = {long: short for short, long in LONG_TASK.items()}


class Passage(NamedTuple):
    """One document of a sample: its corpus id and its text, unchanged. Mined negatives also carry where the run
    ranked them (``rank``) and their grade for the query (``grade``: trap, judged_negative or unjudged).

    >>> Passage("code_v202603_00009", "def f(): pass").to_json()
    {'id': 'code_v202603_00009', 'text': 'def f(): pass'}
    """

    id: str
    text: str
    rank: int | None = None
    grade: str | None = None

    def to_json(self) -> dict:
        out: dict = {"id": self.id, "text": self.text}
        if self.rank is not None:
            out["rank"] = self.rank
        if self.grade is not None:
            out["grade"] = self.grade
        return out


class Sample(NamedTuple):
    """One training or test sample of the reranker protocol (one JSON object per line of a samples file).

    >>> Sample("q_t2c_canonical_retro_any_0001", "text2code", "t2c_canonical_retro_any", "Sum two numbers.",
    ...        (Passage("code_v202603_00009", "a+b"),), (), ()).to_json()["task"]
    'text2code'
    """

    query_id: str
    task: str  # text2code, code2code or code2text
    subtask: str
    query: str
    pos: tuple[Passage, ...]
    hard_neg: tuple[Passage, ...]
    easy_neg: tuple[Passage, ...]

    def to_json(self) -> dict:
        """The article's schema, keys in its order."""
        return {"query_id": self.query_id, "task": self.task, "subtask": self.subtask, "query": self.query,
                "pos": [p.to_json() for p in self.pos], "hard_neg": [p.to_json() for p in self.hard_neg],
                "easy_neg": [p.to_json() for p in self.easy_neg]}

    @property
    def short_task(self) -> str:
        """``t2c``, ``c2c`` or ``c2t``."""
        return SHORT_TASK[self.task]


def default_rule(release: str) -> str:
    """``test`` for the protocol's test release, ``train`` for any other.

    >>> default_rule("release_v2603"), default_rule("release_v2602"), default_rule("demo_v2603")
    ('test', 'train', 'train')
    """
    return TEST if release == PROTOCOL_TEST else TRAIN


def check_rule(rule: str) -> str:
    """``rule`` when it is one of ``RULES``, else a one-line CorebError.

    >>> check_rule("dev")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: unknown sample rule 'dev'; choose one of train, test
    """
    return check_choice(rule, RULES, "sample rule")


def _check_negatives(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CorebError(f"--{what}: must be a whole number of 0 or more, not {value!r}")
    return value


def _seeded(seed: int, query_id: str, pos_id: str) -> random.Random:
    # A text seed is hashed with SHA-512 by random.seed (version 2): the same on every machine and Python.
    return random.Random(f"coreb-samples:{seed}:{query_id}:{pos_id}")


class _Release(NamedTuple):
    """What building samples reads from a release, in one go."""

    queries: pd.DataFrame  # task, query_id, subtask, query, problem_id, anchor_code_id
    qrels: pd.DataFrame  # task, query_id, doc_id, relevance
    texts: dict[str, dict[str, str]]  # corpus kind -> doc id -> text
    problem: dict[str, dict[str, str | None]]  # corpus kind -> doc id -> source problem
    easy_pool: dict[str, list[str]]  # corpus kind -> doc ids in id order, one per distinct text


def _read(store: Store) -> _Release:
    queries = store.df("SELECT task, query_id, subtask, query, problem_id, anchor_code_id FROM queries "
                       "ORDER BY task, query_id")
    qrels = store.df("SELECT task, query_id, doc_id, relevance FROM qrels ORDER BY task, query_id, doc_id")
    docs = store.df("SELECT corpus, doc_id, content, problem_id FROM documents ORDER BY corpus, doc_id")
    texts, problem, pool = {}, {}, {}
    for corpus, part in docs.groupby("corpus", sort=True):
        texts[str(corpus)] = dict(zip(part["doc_id"], part["content"]))
        problem[str(corpus)] = dict(zip(part["doc_id"], part["problem_id"]))
        # one id per distinct text (the smallest): a sample never holds the same text twice
        pool[str(corpus)] = part.drop_duplicates("content")["doc_id"].tolist()
    return _Release(queries, qrels, texts, problem, pool)


def build_samples(store: Store, rule: str, hard: int = HARD, easy: int = EASY, seed: int = SEED,
                  tasks: Iterable[str] = TASK_NAMES) -> list[Sample]:
    """The release's samples under ``rule``: one per (query, rel=2 document) of each query with a rel=1 document,
    in task order (T2C, C2C, C2T), then query id, then positive id.

    Hard negatives: up to ``hard`` of the query's rel=1 documents (a seeded choice when it has more), in id
    order. Easy negatives: ``easy`` documents of the task's corpus (code for T2C and C2C, text for C2T), a seeded
    choice among those the query does not judge, of another problem than the query's (an unjudged document of its
    own problem may be a correct answer nobody judged), never the C2C anchor (the query's own code), never a text
    already in the sample. Every text is the corpus's, unchanged. A release without rel=1 documents has no
    samples: a CorebError says so.

    >>> with Store("demo_v2603", root) as store:
    ...     samples = build_samples(store, TEST, hard=2, easy=5, seed=7)
    >>> {len(s.hard_neg) for s in samples}, {len(s.easy_neg) for s in samples}
    ({2}, {5})
    """
    check_rule(rule)
    hard, easy = _check_negatives(hard, "hard"), _check_negatives(easy, "easy")
    data = _read(store)
    if not (data.qrels["relevance"] == TRAP).any():
        raise CorebError(f"release {store.release} has no rel=1 documents (traps): the protocol's samples need "
                         "queries with at least one")
    # (task, query id) -> its judged (doc id, grade) pairs: plain dicts, where a pandas group per query cost seconds
    grades: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for t, qid, doc, rel in zip(data.qrels["task"], data.qrels["query_id"], data.qrels["doc_id"],
                                data.qrels["relevance"]):
        grades.setdefault((t, qid), []).append((doc, int(rel)))
    samples: list[Sample] = []
    for task in tasks:
        corpus = CORPUS_OF_TASK[task]
        texts, problem, pool = data.texts[corpus], data.problem[corpus], data.easy_pool.get(corpus, [])
        # the easy pool's ids by position, its position of each distinct text, its positions of each problem:
        # a query's candidates are the pool less a few positions, in pool order (one mask, not a scan per query)
        pool_ids = np.asarray(pool, dtype=object)
        at_text = {texts[d]: i for i, d in enumerate(pool)}
        of_problem: dict[str, list[int]] = {}
        for i, d in enumerate(pool):
            if (name := problem[d]) is not None:
                of_problem.setdefault(name, []).append(i)
        for q in data.queries[data.queries["task"] == task].itertuples(index=False):
            if q.subtask in LEFT_OUT[rule] or (task, q.query_id) not in grades:
                continue
            judged = grades[(task, q.query_id)]
            traps = sorted(d for d, r in judged if r == TRAP)
            if not traps:
                continue
            positives = sorted(d for d, r in judged if r == POSITIVE)
            anchor = q.anchor_code_id if isinstance(q.anchor_code_id, str) else None
            shut = {d for d, _ in judged} | ({anchor} if anchor else set())
            # out of the pool: a shut document's text (its pool id, the shut one itself when it is in the pool)
            # and every document of the query's problem
            out = [at_text[texts[d]] for d in shut if d in texts and texts[d] in at_text]
            keep = np.ones(len(pool), dtype=bool)
            keep[out] = False
            if q.problem_id is not None and q.problem_id == q.problem_id:  # a problem (None and NaN are none)
                keep[of_problem.get(q.problem_id, [])] = False
            candidates = pool_ids[keep].tolist()
            for pos in positives:
                rng = _seeded(seed, q.query_id, pos)
                chosen = sorted(rng.sample(traps, hard)) if len(traps) > hard else traps
                easy_ids = rng.sample(candidates, min(easy, len(candidates)))
                samples.append(Sample(q.query_id, LONG_TASK[task], q.subtask, q.query,
                                      (Passage(pos, texts[pos]),),
                                      tuple(Passage(d, texts[d]) for d in chosen),
                                      tuple(Passage(d, texts[d]) for d in easy_ids)))
    return samples


class SampleCounts(NamedTuple):
    """How many samples per task and per subtask (``task`` short names, in the schema's order).

    >>> SampleCounts(3, {"t2c": 2, "c2c": 1, "c2t": 0}, {"t2c_search_go": 2, "c2c_cross_lang": 1}).by_task["t2c"]
    2
    """

    total: int
    by_task: dict[str, int]
    by_subtask: dict[str, int]

    def table(self) -> pd.DataFrame:
        """One row per subtask with a sample (task, subtask, samples), in the schema's order, then a row per
        task (subtask ``all``)."""
        rows = [{"task": t, "subtask": s, "samples": self.by_subtask[s]}
                for t in TASK_NAMES for s in SUBTASKS[t] if self.by_subtask.get(s)]
        rows += [{"task": t, "subtask": "all", "samples": self.by_task[t]} for t in TASK_NAMES]
        return pd.DataFrame(rows, columns=["task", "subtask", "samples"])


def sample_counts(samples: Iterable[Sample]) -> SampleCounts:
    """Counts of ``samples`` per task and subtask.

    >>> with Store("demo_v2603", root) as store:
    ...     counts = sample_counts(build_samples(store, TRAIN))
    >>> counts.total == sum(counts.by_task.values()) == sum(counts.by_subtask.values())
    True
    """
    samples = list(samples)
    by_task = Counter(s.short_task for s in samples)
    by_subtask = Counter(s.subtask for s in samples)
    return SampleCounts(len(samples), {t: by_task.get(t, 0) for t in TASK_NAMES}, dict(by_subtask))
