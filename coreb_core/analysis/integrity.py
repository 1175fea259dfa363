"""Release integrity: two releases used as train and test must share no source problem (the reranker protocol and
any train-on-one, test-on-the-other use rest on it), nor near-duplicate texts; and an id names a document of one
release only (release_v2603 reuses every code id of release_v2602 for other documents, so nothing may be joined
across releases by id: runs, embeddings and samples are tied to their release by its name and texts).

Near-duplicates here are texts equal once case and whitespace are normalised (a cheap, exact test: a renamed
variable or an edited comment is not caught).

Example (both CoREB-mini releases in ``root``):
    >>> with Store("demo_v2602", root) as a, Store("demo_v2603", root) as b:
    ...     check = release_integrity(a, b)
    >>> check.releases, check.passed == (not check.shared_problems and not check.shared_texts)
    (('demo_v2602', 'demo_v2603'), True)
"""
from __future__ import annotations

import re
from typing import NamedTuple

from coreb_core.data.store import Store

_SPACE = re.compile(r"\s+")


def normalised(text: str) -> str:
    """``text`` in lower case with every run of whitespace one space, trimmed: what near-duplicates share.

    >>> normalised("  def F(x):\\n\\treturn x ")
    'def f(x): return x'
    """
    return _SPACE.sub(" ", text).strip().lower()


class ReleaseIntegrity(NamedTuple):
    """What two releases share: source problems, texts (equal once normalised), and ids that name different texts."""

    releases: tuple[str, str]
    problems: tuple[int, int]  # distinct source problems of each release (queries and documents)
    shared_problems: tuple[str, ...]
    shared_texts: tuple[tuple[str, str], ...]  # (id in the first release, id in the second) of equal texts
    reused_ids: int  # ids present in both releases that name different texts
    same_ids: int  # ids present in both releases with the same text

    @property
    def passed(self) -> bool:
        """No shared problem and no shared text: the releases can train and test."""
        return not self.shared_problems and not self.shared_texts


def _problems(store: Store) -> set[str]:
    rows = store.sql("SELECT problem_id FROM queries UNION SELECT problem_id FROM documents").fetchall()
    return {str(p) for (p,) in rows if p is not None}


def _texts(store: Store) -> dict[str, str]:
    """Doc or query id -> normalised text, every document and query of the release."""
    rows = store.sql("SELECT doc_id, content FROM documents UNION ALL SELECT query_id, query FROM queries").fetchall()
    return {i: normalised(t) for i, t in rows if isinstance(t, str)}


def release_integrity(first: Store, second: Store) -> ReleaseIntegrity:
    """What ``first`` and ``second`` share (see the module)."""
    pa, pb = _problems(first), _problems(second)
    ta, tb = _texts(first), _texts(second)
    by_text: dict[str, str] = {}
    for i, t in ta.items():
        by_text.setdefault(t, i)
    shared = tuple(sorted((by_text[t], i) for i, t in tb.items() if t and t in by_text))
    common = ta.keys() & tb.keys()
    reused = sum(ta[i] != tb[i] for i in common)
    return ReleaseIntegrity((first.release, second.release), (len(pa), len(pb)), tuple(sorted(pa & pb)), shared,
                            reused, len(common) - reused)
