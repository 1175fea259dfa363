"""Paired comparison of runs on the queries they share.

Thin verbs over small numeric kernels: paired t-test, paired randomization (sign-flip) test,
corrections for multiple comparisons (``Correction``: Holm, Bonferroni, Benjamini-Hochberg; ``adjust``,
``with_correction``),
win/tie/loss, and bootstrap 95% intervals of a run's mean.

Example (two per-query tables sharing q1..q3; each run has one query the other lacks):
    >>> a = pd.DataFrame({"task": ["t2c"] * 4, "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [1.0, 0.5, 0.8, 0.0]})
    >>> b = pd.DataFrame({"task": ["t2c"] * 4, "query_id": ["q1", "q2", "q3", "q5"], "ndcg_at_10": [0.5, 0.5, 0.2, 1.0]})
    >>> c = compare_pair(a, b, NDCG_10.column, "minilm", "bm25", n_permutations=1000)
    >>> c.shared, c.dropped_a, round(c.mean_delta, 4), round(c.p_randomization, 3), (c.wins, c.ties, c.losses)
    (3, 1, 0.3667, 0.511, (2, 1, 0))
"""
from __future__ import annotations

from itertools import combinations
from typing import Literal, NamedTuple, Sequence

import numpy as np
import pandas as pd

from coreb_core.data.measures import NDCG_10
from coreb_core.errors import CorebError
from coreb_core.text import P_RESOLVED_COUNT

KEYS = ["task", "query_id"]
TIE_TOLERANCE = 1e-12
DEFAULT_PERMUTATIONS = 10_000
DEFAULT_BOOTSTRAP = 10_000
# Adaptive flips (issue 48, item 4): 10,000 sign flips gave 0.0007-0.0013 across seeds for a p of 0.0013, and "p <
# 0.001" was printed. A pair whose flips counted fewer than RESOLVED_COUNT extreme patterns (its p's relative Monte-Carlo
# error above 1/sqrt(200), about 7%) gets more flips, up to ADAPTIVE_FACTOR times the base count; the others keep the
# base count's p to the digit. ``coreb_core.text.p_text`` prints only the digits that resolution supports.
RESOLVED_COUNT = P_RESOLVED_COUNT
ADAPTIVE_FACTOR = 20


def adaptive_limit(n_permutations: int) -> int:
    """The most sign flips an adaptive test draws for one pair, from the base count (200,000 for 10,000).

    >>> adaptive_limit(10_000), adaptive_limit(0)
    (200000, 0)
    """
    return ADAPTIVE_FACTOR * max(0, int(n_permutations))


class PairComparison(NamedTuple):
    """Run ``a`` against run ``b`` on one metric, over the queries both scored (``compare_pair``'s result).

    >>> PairComparison._fields[:6]
    ('a', 'b', 'metric', 'shared', 'dropped_a', 'dropped_b')
    """

    a: str
    b: str
    metric: str  # the column compared (a measure's, or a derived score's)
    shared: int  # queries in both runs, the only ones compared
    dropped_a: int  # queries only run a has
    dropped_b: int
    mean_a: float
    mean_b: float
    mean_delta: float  # mean of (a - b)
    p_ttest: float
    p_randomization: float
    wins: int  # queries where a > b
    ties: int
    losses: int


def paired_ttest(delta: np.ndarray) -> float:
    """Two-sided paired t-test p-value; 1.0 when every difference is equal (no evidence).

    >>> round(paired_ttest(np.array([0.1, 0.2, 0.3])), 4)
    0.0742
    """
    return paired_ttests([delta])[0]


def paired_ttests(deltas: Sequence[np.ndarray]) -> list[float]:
    """``paired_ttest`` of each difference vector, those of one length in one call (bitwise the same p-values as one
    at a time: scipy reduces each row as it reduces one vector; 1,225 pairs of 50 runs took 21 s one by one).

    >>> [round(p, 4) for p in paired_ttests([np.array([0.1, 0.2, 0.3]), np.array([0.2, 0.2]), np.array([1.0])])]
    [0.0742, 0.0, 1.0]
    """
    out = [1.0] * len(deltas)
    by_length: dict[int, list[int]] = {}
    for i, delta in enumerate(deltas):
        if len(delta) < 2:
            continue
        if np.allclose(delta, delta[0], atol=TIE_TOLERANCE, rtol=0):  # no spread: a t-test has nothing to say
            out[i] = 1.0 if abs(delta[0]) <= TIE_TOLERANCE else 0.0
        else:
            by_length.setdefault(len(delta), []).append(i)
    if by_length:
        from scipy import stats  # here, not at the top: scipy.stats takes 1-2 s to import, and most pages never test

        for rows in by_length.values():
            p = stats.ttest_1samp(np.stack([deltas[i] for i in rows]), 0.0, axis=1).pvalue
            for i, value in zip(rows, np.atleast_1d(p)):
                out[i] = float(value)
    return out


def randomization_test(delta: np.ndarray, n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0,
                       max_permutations: int | None = None) -> float:
    """Two-sided paired randomization test: flip the sign of each difference at random.

    p = (1 + #{|mean of flipped| >= |observed mean|}) / (1 + n_permutations).

    >>> round(randomization_test(np.array([0.5, 0.5, 0.5]), n_permutations=1000), 4)  # 2 of 8 sign patterns
    0.2468
    """
    return randomization_tests([delta], n_permutations, seed, max_permutations)[0]


def randomization_tests(deltas: Sequence[np.ndarray], n_permutations: int = DEFAULT_PERMUTATIONS,
                        seed: int = 0, max_permutations: int | None = None) -> list[float]:
    """``randomization_test`` of each difference vector, in one pass per length: the sign patterns depend only on
    the seed and the number of queries, so the vectors of one length share one sign matrix, and one matrix product
    per block of 1,000 patterns tests them all (a pair at a time, every pair drew the same matrix again).

    >>> d = [np.array([0.5, 0.5, 0.5]), np.array([0.2, -0.1, 0.4]), np.array([]), np.array([0.3, 0.1, -0.2])]
    >>> [round(p, 4) for p in randomization_tests(d, n_permutations=1000)]
    [0.2468, 0.5115, 1.0, 0.7353]
    """
    columns = [np.asarray(d, dtype=np.float64) for d in deltas]
    zeros: dict[int, int] = {}  # per length, a column of zeros: a pair (delta, 0) flips exactly as delta alone
    pairs = []
    for i in range(len(deltas)):
        n = len(columns[i])
        if n not in zeros:
            zeros[n] = len(columns)
            columns.append(np.zeros(n))
        pairs.append((i, zeros[n]))
    return pair_randomization_tests(columns, pairs, n_permutations, seed, max_permutations)


def pair_randomization_tests(columns: Sequence[np.ndarray], pairs: Sequence[tuple[int, int]],
                             n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0,
                             max_permutations: int | None = None) -> list[float]:
    """``randomization_test`` of ``columns[a] - columns[b]`` for each pair (a, b) of columns of one length: each
    column meets the sign patterns once (S @ X) and a pair's flipped sums are the difference of its two columns'
    (S @ a - S @ b = S @ (a - b)). 50 runs' 1,225 pairs cost 50 columns' products, not 1,225. The p-values are
    ``randomization_tests``' of the differences: the test's tolerance (1e-15 on a mean) is far above the rounding
    of either sum (about 1e-16 of a mean), so only exact ties sit at its edge, and both count them.

    >>> a, b, c = np.array([1.0, 0.5, 0.8]), np.array([0.5, 0.5, 0.2]), np.array([0.0, 1.0, 0.0])
    >>> pair_randomization_tests([a, b, c], [(0, 1), (0, 2)], 1000) == randomization_tests([a - b, a - c], 1000)
    True

    ``max_permutations`` (adaptive; None: every pair gets ``n_permutations``): a pair that counted fewer than
    ``RESOLVED_COUNT`` extreme patterns draws more, the same stream continued in blocks of 1,000 (so its first
    ``n_permutations`` are the fixed test's), doubling until it counts ``RESOLVED_COUNT`` or reaches
    ``max_permutations``; a pair already resolved keeps the fixed test's p to the digit (``pair_randomization_flips``).
    """
    return [p for p, _ in pair_randomization_flips(columns, pairs, n_permutations, seed, max_permutations)]


def pair_randomization_flips(columns: Sequence[np.ndarray], pairs: Sequence[tuple[int, int]],
                             n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0,
                             max_permutations: int | None = None) -> list[tuple[float, int]]:
    """``pair_randomization_tests``' p-values, each with the sign flips it was computed from.

    >>> rng = np.random.default_rng(3)
    >>> x = rng.normal(0.15, 1.0, 400)   # a small p: 10,000 flips count 4 extreme patterns
    >>> fixed = pair_randomization_flips([x, np.zeros(400)], [(0, 1)], 10_000)
    >>> grown = pair_randomization_flips([x, np.zeros(400)], [(0, 1)], 10_000, max_permutations=200_000)
    >>> [(round(p, 6), flips) for p, flips in fixed + grown]
    [(0.0005, 10000), (0.000305, 200000)]
    """
    limit = n_permutations if max_permutations is None else max(n_permutations, max_permutations)
    out: list[tuple[float, int]] = [(1.0, n_permutations)] * len(pairs)
    by_length: dict[int, list[int]] = {}
    for i, (a, b) in enumerate(pairs):
        if len(columns[a]) != len(columns[b]):
            raise ValueError(f"pair {i}: columns of {len(columns[a])} and {len(columns[b])} values")
        if len(columns[a]):
            by_length.setdefault(len(columns[a]), []).append(i)
    for n, members in by_length.items():
        used = sorted({c for i in members for c in pairs[i]})
        at = {c: j for j, c in enumerate(used)}
        block = np.stack([np.asarray(columns[c], dtype=np.float64) for c in used], axis=1)  # n x columns
        first = np.array([at[pairs[i][0]] for i in members])
        second = np.array([at[pairs[i][1]] for i in members])
        observed = np.array([abs((np.asarray(columns[pairs[i][0]], dtype=np.float64)
                                  - np.asarray(columns[pairs[i][1]], dtype=np.float64)).mean()) for i in members])
        rng = np.random.default_rng(seed)  # the same sign patterns as randomization_tests draws for this length
        extreme = np.zeros(len(members), dtype=np.int64)
        drawn = np.zeros(len(members), dtype=np.int64)
        active = np.arange(len(members))  # the pairs still drawing
        done, target = 0, n_permutations
        while len(active):
            # the columns the drawing pairs use: beyond the base, only theirs meet the signs
            cols = np.unique(np.concatenate([first[active], second[active]]))
            at_col = np.full(block.shape[1], -1)
            at_col[cols] = np.arange(len(cols))
            sub = block[:, cols]
            table, totals = (_byte_table(sub), sub.sum(axis=0)) if target > n_permutations else (None, None)
            for start in range(done, target, 1000):
                k = min(1000, target - start)
                if start < n_permutations:  # the base flips: the fixed test's stream, draw for draw
                    signs = (rng.integers(0, 2, size=(k, n), dtype=np.int8) * 2 - 1).astype(np.float64)
                    flipped = signs @ sub
                else:  # more flips: 8 signs per random byte, summed by table (``_byte_sums``)
                    assert table is not None and totals is not None
                    flipped = _byte_sums(rng.integers(0, 256, size=(k, (n + 7) // 8), dtype=np.uint8), table, totals)
                extreme[active] += np.sum(np.abs(flipped[:, at_col[first[active]]] - flipped[:, at_col[second[active]]])
                                          / n >= observed[active] - 1e-15, axis=0)
            drawn[active] = target
            done = target
            # unresolved pairs draw on, doubling, while the limit allows (the fixed test: the limit is the base)
            active = active[extreme[active] < RESOLVED_COUNT] if target < limit else active[:0]
            target = min(limit, 2 * target)
        for j, i in enumerate(members):
            out[i] = ((1 + int(extreme[j])) / (1 + int(drawn[j])), int(drawn[j]))
    return out


_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(np.float64)  # 256 x 8, MSB first


def _byte_table(values: np.ndarray) -> np.ndarray:
    """Per byte position p of the sign patterns and its 256 bit patterns v (most significant bit first), the sum of
    ``values``' rows set in v: (ceil(n / 8) * 256) x columns, row ``256 * p + v`` (``_byte_sums``' table)."""
    n, c = values.shape
    padded = np.zeros((-(-n // 8) * 8, c))
    padded[:n] = values
    return np.einsum("vb,pbc->pvc", _BYTE_BITS, padded.reshape(-1, 8, c)).reshape(-1, c)


def _byte_sums(draws: np.ndarray, table: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """The flipped sums ``signs @ values`` of the sign patterns whose bits are ``draws`` (k x ceil(n / 8) random bytes:
    +1 for a set bit, -1 for a clear one), from ``_byte_table(values)`` and ``totals = values.sum(axis=0)``: a
    gather of k x n / 8 values per column, not a k x n float product (about 10x faster for 1,200 queries). Sums in
    another order than a product's: they may differ by an ulp, far below the test's 1e-15 tolerance.

    >>> rng = np.random.default_rng(0)
    >>> draws, values = rng.integers(0, 256, size=(5, 2), dtype=np.uint8), rng.random((13, 3))
    >>> signs = np.unpackbits(draws, axis=1)[:, :13] * 2.0 - 1
    >>> sums = _byte_sums(draws, _byte_table(values), values.sum(axis=0))
    >>> bool(np.allclose(sums, signs @ values, rtol=0, atol=1e-12))
    True
    """
    at = draws.astype(np.intp) + 256 * np.arange(draws.shape[1])[None, :]
    ones = np.stack([np.take(table[:, j], at).sum(axis=1) for j in range(table.shape[1])], axis=1)
    return 2 * ones - totals


def holm(p_values: list[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the input order.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    order = np.argsort(p_values, kind="stable")
    adjusted = np.empty(m)
    running = 0.0
    for i, idx in enumerate(order):
        running = max(running, min(1.0, (m - i) * p_values[idx]))
        adjusted[idx] = running
    return adjusted.tolist()


def bonferroni(p_values: Sequence[float]) -> list[float]:
    """Bonferroni adjusted p-values (each times the number of tests, capped at 1), in the input order.

    >>> bonferroni([0.01, 0.04, 0.03])  # 3 x each; statsmodels' multipletests(method="bonferroni") agrees
    [0.03, 0.12, 0.09]
    """
    m = len(p_values)
    return [min(1.0, m * float(p)) for p in p_values]


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (false discovery rate), in the input order: the i-th smallest
    p times m / i, then the running minimum from the largest down, capped at 1.

    By hand for 0.01, 0.04, 0.03 (m = 3): sorted 0.01, 0.03, 0.04 give 3 x 0.01 / 1 = 0.03,
    3 x 0.03 / 2 = 0.045, 3 x 0.04 / 3 = 0.04; the minimum from the largest down: 0.04, 0.04, 0.03
    (statsmodels' multipletests(method="fdr_bh") gives the same):

    >>> [round(p, 12) for p in benjamini_hochberg([0.01, 0.04, 0.03])]
    [0.03, 0.04, 0.04]
    """
    m = len(p_values)
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m / np.arange(1, m + 1)
    running = np.minimum.accumulate(scaled[::-1])[::-1]
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(running, 1.0)
    return adjusted.tolist()


_ADJUST = {"holm": holm, "bonferroni": bonferroni, "bh": benjamini_hochberg}
# Other spellings ``Correction.parse`` accepts (statsmodels' method names among them).
_CORRECTION_ALIASES = {"holm-bonferroni": "holm", "bonf": "bonferroni", "fdr_bh": "bh", "benjamini-hochberg": "bh",
                       "benjamini_hochberg": "bh", "fdr": "bh"}


class Correction(NamedTuple):
    """A correction of p-values for multiple comparisons, with one canonical name: ``holm`` (Holm-Bonferroni,
    family-wise error), ``bonferroni`` (family-wise error) or ``bh`` (Benjamini-Hochberg, false discovery
    rate). Hashable; ``str`` is the name. The names in words are ``coreb_core.present.display``'s.

    >>> c = Correction.parse("Benjamini-Hochberg")
    >>> c, str(c), c.controls, c.adjust([0.01, 0.04, 0.03]) == benjamini_hochberg([0.01, 0.04, 0.03])
    (Correction(name='bh'), 'bh', 'fdr', True)
    """

    name: str

    def __str__(self) -> str:
        return self.name

    @property
    def controls(self) -> str:
        """What it bounds below the level: ``fwer`` (any false positive at all) or ``fdr`` (their share).

        >>> [c.controls for c in CORRECTIONS]
        ['fwer', 'fwer', 'fdr']
        """
        return "fdr" if self.name == "bh" else "fwer"

    def adjust(self, p_values: Sequence[float]) -> list[float]:
        """The adjusted p-values, in the input order.

        >>> BONFERRONI.adjust([0.2, 0.6])
        [0.4, 1.0]
        """
        return _ADJUST[self.name](list(p_values))

    @classmethod
    def parse(cls, text: "str | Correction") -> "Correction":
        """A correction from its name or another usual spelling (case-insensitive): ``holm``, ``bonferroni``,
        ``bh``, ``fdr_bh``, ``Benjamini-Hochberg``; a ``Correction`` is returned as is.

        >>> Correction.parse("Holm"), Correction.parse("fdr_bh").name
        (Correction(name='holm'), 'bh')
        """
        if isinstance(text, Correction):
            return text
        key = str(text).strip().lower().replace("–", "-").replace(" ", "-")
        name = _CORRECTION_ALIASES.get(key, key)
        if name not in _ADJUST:
            raise CorebError(f"unknown correction {text!r} (known: {', '.join(_ADJUST)})")
        return cls(name)


HOLM, BONFERRONI, BH = Correction("holm"), Correction("bonferroni"), Correction("bh")
CORRECTIONS: tuple[Correction, ...] = (HOLM, BONFERRONI, BH)
CorrectionName = Literal["holm", "bonferroni", "bh"]  # CORRECTIONS' names as a type


def adjust(p_values: Sequence[float], correction: "Correction | str" = HOLM) -> list[float]:
    """``p_values`` adjusted under ``correction`` (a ``Correction`` or its name), in the input order.

    By hand for 0.01, 0.04, 0.03: Holm multiplies the sorted p-values by 3, 2, 1 and keeps the running
    maximum (0.03, 0.06, 0.06); Bonferroni multiplies each by 3; Benjamini-Hochberg: see
    ``benjamini_hochberg``. All three agree with statsmodels' ``multipletests``:

    >>> [[round(p, 12) for p in adjust([0.01, 0.04, 0.03], c)] for c in ("holm", "bonferroni", "bh")]
    [[0.03, 0.06, 0.06], [0.03, 0.12, 0.09], [0.03, 0.04, 0.04]]
    >>> adjust([], BH)
    []
    """
    return Correction.parse(correction).adjust(p_values)


def bootstrap_ci(values: np.ndarray, n_resamples: int = DEFAULT_BOOTSTRAP, seed: int = 0,
                 level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean over queries.

    >>> bootstrap_ci(np.array([0.0, 1.0, 1.0, 0.0]), n_resamples=1000)
    (0.0, 1.0)
    """
    return bootstrap_cis([values], n_resamples, seed, level)[0]


GATHER_BELOW = 4  # bootstrap_cis: vectors of one length counted as draws from this many on


def bootstrap_cis(vectors: Sequence[np.ndarray], n_resamples: int = DEFAULT_BOOTSTRAP, seed: int = 0,
                  level: float = 0.95) -> list[tuple[float, float]]:
    """``bootstrap_ci`` of each vector, the resampled positions drawn once per length and block of 1,000
    resamples and shared by every vector of that length (they depend only on the seed and the length): the same
    resamples as one vector at a time. A block's means are one matrix product, how often each position was drawn
    times the vectors (a gather of every vector's values per resample cost 50 runs 3 s), from ``GATHER_BELOW``
    vectors of a length on (below, a gather each is cheaper); its sums add the same values in another order, so an
    interval's bounds may move by an ulp against a gather's (1e-12 checked).

    >>> cis = bootstrap_cis([np.array([0.0, 1.0, 1.0, 0.0]), np.array([]), np.array([0.2, 0.4, 0.9, 0.1])], 1000)
    >>> [tuple(round(x, 6) for x in ci) for ci in cis]
    [(0.0, 1.0), (nan, nan), (0.15, 0.725)]
    """
    out: list[tuple[float, float]] = [(float("nan"), float("nan"))] * len(vectors)
    by_length: dict[int, list[int]] = {}
    for i, v in enumerate(vectors):
        if len(v):
            by_length.setdefault(len(v), []).append(i)
    alpha = (1 - level) / 2
    for n, members in by_length.items():
        values = np.stack([np.asarray(vectors[i], dtype=np.float64) for i in members], axis=1)  # n x vectors
        means = np.empty((len(members), n_resamples))
        rng = np.random.default_rng(seed)
        for start in range(0, n_resamples, 1000):
            k = min(1000, n_resamples - start)
            idx = rng.integers(0, n, size=(k, n))
            if len(members) < GATHER_BELOW:  # a gather per vector is cheaper than counting the draws
                for j in range(len(members)):
                    means[j, start:start + k] = values[idx, j].mean(axis=1)
                continue
            drawn = np.bincount((idx + n * np.arange(k)[:, None]).ravel(), minlength=k * n).reshape(k, n)
            means[:, start:start + k] = (drawn.astype(np.float64) @ values / n).T
        for j, i in enumerate(members):
            out[i] = (float(np.quantile(means[j], alpha)), float(np.quantile(means[j], 1 - alpha)))
    return out


def compare_pair(a: pd.DataFrame, b: pd.DataFrame, column: str = NDCG_10.column, name_a: str = "a",
                 name_b: str = "b", n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0,
                 max_permutations: int | None = None) -> PairComparison:
    """Compare two per-query tables (from ``evaluate``) on their shared queries, on their ``column``: any numeric
    column, a measure's (``Measure.column``) or a derived score (the selection's ``score``).

    >>> a = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3"], "ndcg_at_10": [1.0, 0.5, 0.8]})
    >>> b = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3"], "ndcg_at_10": [0.5, 0.5, 0.2]})
    >>> c = compare_pair(a, b, name_a="minilm", name_b="bm25", n_permutations=1000)
    >>> c.shared, (c.wins, c.ties, c.losses), round(c.mean_delta, 3), round(c.p_randomization, 3)
    (3, (2, 1, 0), 0.367, 0.511)
    """
    return compare_pairs([(a, b, name_a, name_b)], column, n_permutations, seed, max_permutations)[0]


def compare_pairs(pairs: Sequence[tuple[pd.DataFrame, pd.DataFrame, str, str]], column: str = NDCG_10.column,
                  n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0,
                  max_permutations: int | None = None) -> list[PairComparison]:
    """``compare_pair`` of each (a, b, name_a, name_b), the randomization tests of all pairs in one pass
    (``pair_randomization_tests``, adaptive up to ``max_permutations``): the same numbers as one pair at a time.

    >>> a = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3"], "ndcg_at_10": [1.0, 0.5, 0.8]})
    >>> b = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3"], "ndcg_at_10": [0.5, 0.5, 0.2]})
    >>> [round(c.p_randomization, 3) for c in compare_pairs([(a, b, "A", "B"), (b, a, "B", "A")], n_permutations=1000)]
    [0.511, 0.511]
    """
    keys: dict[int, pd.DataFrame | None] = {}

    def unique_keys(frame: pd.DataFrame) -> pd.DataFrame | None:
        if id(frame) not in keys:
            keys[id(frame)] = None if frame.duplicated(KEYS).any() else frame[KEYS].reset_index(drop=True)
        return keys[id(frame)]

    columns: list[np.ndarray] = []
    column_of: dict[int, int] = {}  # a frame met aligned -> its column: a run in many pairs is one column

    def own(frame: pd.DataFrame) -> int:
        if id(frame) not in column_of:
            column_of[id(frame)] = len(columns)
            columns.append(frame[column].to_numpy(dtype=np.float64))
        return column_of[id(frame)]

    at: list[tuple[int, int]] = []
    for a, b, _, _ in pairs:
        ka, kb = unique_keys(a), unique_keys(b)
        if ka is not None and kb is not None and ka.equals(kb):
            # the same queries in the same order: the inner merge's rows are the frames' own rows (a merge per
            # pair was most of the time of 50 runs' 1,225 pairs)
            at.append((own(a), own(b)))
            continue
        merged = a[KEYS + [column]].merge(b[KEYS + [column]], on=KEYS, suffixes=("_a", "_b"))
        columns += [merged[f"{column}_a"].to_numpy(dtype=np.float64), merged[f"{column}_b"].to_numpy(dtype=np.float64)]
        at.append((len(columns) - 2, len(columns) - 1))
    values = [(columns[i], columns[j]) for i, j in at]
    deltas = [va - vb for va, vb in values]
    p_randomization = pair_randomization_tests(columns, at, n_permutations, seed, max_permutations)
    p_ttest = paired_ttests(deltas)
    return [PairComparison(
        name_a, name_b, column, len(va), len(a) - len(va), len(b) - len(va),
        float(va.mean()) if len(va) else float("nan"), float(vb.mean()) if len(vb) else float("nan"),
        float(delta.mean()) if len(delta) else float("nan"), t, p,
        int(np.sum(delta > TIE_TOLERANCE)), int(np.sum(np.abs(delta) <= TIE_TOLERANCE)),
        int(np.sum(delta < -TIE_TOLERANCE)),
    ) for (a, b, name_a, name_b), (va, vb), delta, t, p in zip(pairs, values, deltas, p_ttest, p_randomization)]


def run_pairs(runs: Sequence[str], baseline: str | None = None) -> list[tuple[str, str]]:
    """The pairs (a, b) compared: every pair in input order, or with a ``baseline`` each other run against it
    (a = the run, b = the baseline, so a - b is the run's gain over the baseline, PyTerrier's ``baseline=``).

    >>> run_pairs(["A", "B", "C"]), run_pairs(["A", "B", "C"], baseline="B")
    ([('A', 'B'), ('A', 'C'), ('B', 'C')], [('A', 'B'), ('C', 'B')])
    """
    if baseline is None:
        return list(combinations(runs, 2))
    if baseline not in runs:
        raise CorebError(f"the baseline {baseline!r} is not among the runs compared ({', '.join(runs)})")
    return [(r, baseline) for r in runs if r != baseline]


def compare_runs(per_query: dict[str, pd.DataFrame], column: str = NDCG_10.column,
                 n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0, baseline: str | None = None,
                 correction: Correction | str = HOLM, max_permutations: int | None = None) -> pd.DataFrame:
    """Every pair of runs (``run_pairs``: all pairs, or each run against ``baseline``), with the p-values
    Holm-corrected across the pairs (``p_ttest_holm``, ``p_randomization_holm``) and corrected under
    ``correction`` (``p_ttest_adjusted``, ``p_randomization_adjusted``; its name in ``correction``).

    >>> a = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [1.0, 0.5, 0.8, 0.0]})
    >>> b = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q5"], "ndcg_at_10": [0.5, 0.5, 0.2, 1.0]})
    >>> table = compare_runs({"minilm": a, "bm25": b}, n_permutations=1000)
    >>> table[["a", "b", "shared", "mean_delta", "p_randomization_holm"]].round(3).to_dict("records")
    [{'a': 'minilm', 'b': 'bm25', 'shared': 3, 'mean_delta': 0.367, 'p_randomization_holm': 0.511}]
    >>> c = a.assign(ndcg_at_10=0.0)  # three runs against the baseline bm25: two pairs, each x 2 (Bonferroni)
    >>> t = compare_runs({"minilm": a, "bm25": b, "zero": c}, n_permutations=1000, baseline="bm25",
    ...                  correction="bonferroni")
    >>> t[["a", "b"]].values.tolist(), t["correction"].iloc[0]
    ([['minilm', 'bm25'], ['zero', 'bm25']], 'bonferroni')
    >>> t["p_randomization"].round(3).tolist(), t["p_randomization_adjusted"].round(3).tolist()
    ([0.511, 0.247], [1.0, 0.494])
    """
    pairs = [(per_query[x], per_query[y], x, y) for x, y in run_pairs(list(per_query), baseline)]
    rows = [c._asdict() for c in compare_pairs(pairs, column, n_permutations, seed, max_permutations)]
    table = pd.DataFrame(rows, columns=PairComparison._fields)
    if len(table):
        table["p_ttest_holm"] = holm(table["p_ttest"].tolist())
        table["p_randomization_holm"] = holm(table["p_randomization"].tolist())
    return with_correction(table, correction)


def with_correction(table: pd.DataFrame, correction: Correction | str) -> pd.DataFrame:
    """``compare_runs``' table with its p-values adjusted under ``correction`` across its rows (the columns
    ``p_ttest_adjusted``, ``p_randomization_adjusted`` and ``correction``, replaced if there): another
    correction of the same tests, without running them again.

    >>> t = pd.DataFrame({"a": ["x", "x"], "b": ["y", "z"], "p_ttest": [0.01, 0.04], "p_randomization": [0.02, 0.03]})
    >>> with_correction(t, "bonferroni")[["p_ttest_adjusted", "p_randomization_adjusted", "correction"]]
       p_ttest_adjusted  p_randomization_adjusted  correction
    0              0.02                      0.04  bonferroni
    1              0.08                      0.06  bonferroni
    """
    correction = Correction.parse(correction)
    if not len(table):
        return table
    return table.assign(p_ttest_adjusted=correction.adjust(table["p_ttest"].tolist()),
                        p_randomization_adjusted=correction.adjust(table["p_randomization"].tolist()),
                        correction=correction.name)


def intervals(per_query: dict[str, pd.DataFrame], column: str = NDCG_10.column, seed: int = 0) -> pd.DataFrame:
    """Mean and bootstrap 95% interval of ``column`` per run.

    >>> a = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q4"], "ndcg_at_10": [1.0, 0.5, 0.8, 0.0]})
    >>> intervals({"minilm": a}).round(3).to_dict("records")
    [{'run': 'minilm', 'queries': 4, 'mean': 0.575, 'ci_low': 0.2, 'ci_high': 0.9}]
    """
    cis = bootstrap_cis([table[column].to_numpy() for table in per_query.values()], seed=seed)
    rows = [{"run": name, "queries": len(table), "mean": float(table[column].mean()), "ci_low": low, "ci_high": high}
            for (name, table), (low, high) in zip(per_query.items(), cis)]
    return pd.DataFrame(rows)
