"""Measures as small value objects, in the style of ``ir_measures``: a family and a cutoff, with one
canonical name each.

Three spellings of the same measure meet in this project, and each is derived here, never typed
by hand elsewhere:

- ``str(m)``     the canonical, display name: ``nDCG@10`` (ir_measures / trec_eval style);
- ``m.column``   the column of every per-query and summary table: ``ndcg_at_10`` (MTEB's key);
- ``m.official`` the key of the official runner's metrics JSON: ``NDCG@10``, ``P@10``.

Example:
    >>> m = Measure.parse("nDCG@10")
    >>> m, m.column, m.official
    (Measure(family='ndcg', k=10), 'ndcg_at_10', 'NDCG@10')
    >>> Measure.parse("precision_at_5") == Measure("precision", 5)
    True
    >>> [str(m) for m in measures(("ndcg", "recall"), (1, 10))]
    ['nDCG@1', 'nDCG@10', 'Recall@1', 'Recall@10']
"""
from __future__ import annotations

import re
from typing import Iterable, NamedTuple

# family -> (canonical display prefix, the official runner's JSON family and key prefix)
# (the paper's names; the runner writes HitRate and MRR outside its JSON, kept for symmetry)
_SPELLINGS = {
    "ndcg": ("nDCG", "NDCG", "NDCG"),
    "recall": ("Recall", "Recall", "Recall"),
    "precision": ("P", "Precision", "P"),
    "map": ("MAP", "MAP", "MAP"),
    "mrr": ("MRR", "MRR", "MRR"),
    "hit_rate": ("HitRate", "HitRate", "HitRate"),
}
# ir_measures' names of the same families, accepted when parsing.
_ALIASES = {"r": "recall", "ap": "map", "rr": "mrr", "success": "hit_rate"}
FAMILIES: tuple[str, ...] = tuple(_SPELLINGS)
# The official k (1, 3, 5, 10, 100, 1000) and 20 (the runner's C2C recompute, MTEB).
KS: tuple[int, ...] = (1, 3, 5, 10, 20, 100, 1000)
_BY_PREFIX = {spelling.lower(): family for family, spellings in _SPELLINGS.items() for spelling in spellings}
_BY_PREFIX.update({family: family for family in FAMILIES}, **_ALIASES)


class Measure(NamedTuple):
    """One cutoff measure: ``family`` (one of ``FAMILIES``) at rank ``k``. Hashable, ordered, one name.

    >>> m = Measure("recall", 100)
    >>> str(m), m.column, m.official
    ('Recall@100', 'recall_at_100', 'Recall@100')
    """

    family: str
    k: int

    def __str__(self) -> str:
        return f"{_SPELLINGS[self.family][0]}@{self.k}"

    @property
    def column(self) -> str:
        """The table column holding this measure: ``ndcg_at_10``.

        >>> Measure("precision", 10).column
        'precision_at_10'
        """
        return f"{self.family}_at_{self.k}"

    @property
    def official_family(self) -> str:
        """The family key of the official runner's metrics JSON: ``NDCG``, ``Precision``, …

        >>> Measure("precision", 10).official_family
        'Precision'
        """
        return _SPELLINGS[self.family][1]

    @property
    def official(self) -> str:
        """The measure key inside that family: ``NDCG@10``, ``P@10``.

        >>> Measure("precision", 10).official
        'P@10'
        """
        return f"{_SPELLINGS[self.family][2]}@{self.k}"

    @classmethod
    def parse(cls, text: str) -> "Measure":
        """Any of the three spellings (case-insensitive family), e.g. ``nDCG@10``, ``ndcg_at_10``, ``P@5``.

        >>> Measure.parse("MAP@100")
        Measure(family='map', k=100)
        """
        match = re.fullmatch(r"\s*([A-Za-z_]+?)(?:@|_at_)(\d+)\s*", text)
        family = _BY_PREFIX.get(match.group(1).lower()) if match else None
        if family is None or match is None:
            known = ", ".join(f"{_SPELLINGS[f][0]}@k" for f in FAMILIES)
            raise ValueError(f"unknown measure {text!r} (known: {known}; or their column names such as ndcg_at_10)")
        return cls(family, int(match.group(2)))


# The default measure everywhere a metric is asked for and none is chosen: the paper's headline nDCG@10.
NDCG_10 = Measure("ndcg", 10)
# What a model selection (page, report, CLI ``select``) can rank on: the paper's @10 measures.
SELECTION_MEASURES: tuple[Measure, ...] = (NDCG_10, Measure("map", 10), Measure("recall", 10), Measure("mrr", 10))
SELECTION_METRICS = tuple(m.column for m in SELECTION_MEASURES)  # their columns, the page's choices


def metric_label(column: str) -> str:
    """The canonical name of a metric column, or the column itself when it is no ``Measure``.

    >>> metric_label("ndcg_at_10"), metric_label("capped_recall_at_10")
    ('nDCG@10', 'capped_recall_at_10')
    """
    try:
        return str(Measure.parse(column))
    except ValueError:
        return column


def measures(families: Iterable[str] = FAMILIES, ks: Iterable[int] = KS) -> list[Measure]:
    """Every (family, k) pair, family-major: the column order of per-query tables.

    >>> [m.column for m in measures(("map",), (1, 3))]
    ['map_at_1', 'map_at_3']
    """
    ks = tuple(ks)
    return [Measure(family, k) for family in families for k in ks]

