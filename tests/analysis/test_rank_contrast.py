"""coreb_core.analysis.rank_contrast by hand, and its weighted tau against scipy's on the same placements."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from coreb_core.analysis.rank_contrast import (
    RANK_CORRELATIONS,
    TAU_AP,
    WEIGHTED_TAU,
    Contrasts,
    RankCorrelation,
    contrasting_queries,
    rank_contrasts,
    tau_ap,
    weighted_tau,
)
from coreb_core.errors import CorebError


def hits(lists: dict[str, list[str]], task: str = "t2c") -> pd.DataFrame:
    rows = [(task, q, d, r) for q, docs in lists.items() for r, d in enumerate(docs, 1)]
    return pd.DataFrame(rows, columns=["task", "query_id", "doc_id", "rank"])


def placed(a: list[str], b: list[str], reverse: bool = False) -> tuple[list[str], list[str]]:
    """The module's placements, written out: each list, then the other's documents it lacks, in the other's
    order (or its reverse)."""
    missing_a, missing_b = [d for d in b if d not in a], [d for d in a if d not in b]
    step = -1 if reverse else 1
    return a + missing_a[::step], b + missing_b[::step]


def scipy_weighted_tau(ext_a: list[str], ext_b: list[str]) -> float:
    at_b = {d: i for i, d in enumerate(ext_b)}
    x = -np.arange(len(ext_a), dtype=float)  # scores: higher is better
    y = -np.array([at_b[d] for d in ext_a], dtype=float)
    return float(stats.weightedtau(x, y).statistic)


def tau_ap_by_definition(ranking: list[str], reference: list[str]) -> float:
    """Yilmaz et al. (2008), eq. 1, literally: 2/(n-1) sum_{i=2..n} C(i)/(i-1) - 1."""
    n = len(ranking)
    at = {d: i for i, d in enumerate(reference)}
    total = sum(sum(at[ranking[j]] < at[ranking[i]] for j in range(i)) / i for i in range(1, n))
    return 2 * total / (n - 1) - 1


def test_tau_ap_of_tiny_rankings_by_hand():
    # a = d1 d2 d3, b = d2 d1 d3 (top swap). tau_AP(a|b): a's 2nd, d2, has d1 above; b puts d1 below d2: C=0 -> 0/1.
    # a's 3rd, d3, has d1 and d2 above, both above d3 in b: C=2 -> 2/2. Sum 1: 2/2 * 1 - 1 = 0. The other side,
    # b = d2 d1 d3 against a, is 0 the same way: mean 0. (Kendall's tau: 1/3.)
    assert tau_ap(["d1", "d2", "d3"], ["d2", "d1", "d3"]) == 0.0
    # bottom swap, b = d1 d3 d2: a's d2: d1 above in b too -> 1/1; a's d3: of d1, d2 only d1 above it in b -> 1/2;
    # 2/2 * 1.5 - 1 = 0.5, both sides
    assert tau_ap(["d1", "d2", "d3"], ["d1", "d3", "d2"]) == 0.5
    # four documents, b = d2 d1 d3 d4 against a = d1 d2 d3 d4: a's d2 0/1, d3 2/2, d4 3/3: 2/3 * 2 - 1 = 1/3
    assert tau_ap(["d1", "d2", "d3", "d4"], ["d2", "d1", "d3", "d4"]) == pytest.approx(1 / 3)
    # missing documents: a = d1 d2, b = d2 d3 -> a placed d1 d2 d3, b placed d2 d3 d1.
    # tau_AP(a|b): d2 has d1 above, below d2 in b: 0/1; d3 has d1 (below in b) and d2 (above): 1/2 -> 0.5 - 1 = -0.5.
    # tau_AP(b|a): d3 has d2 above, above in a too: 1/1; d1 has d2, d3 above, both below d1 in a: 0/2 -> 1 - 1 = 0.
    assert tau_ap(["d1", "d2"], ["d2", "d3"]) == -0.25
    assert tau_ap_by_definition(*placed(["d1", "d2"], ["d2", "d3"])) == -0.5
    # disjoint, a = d1 d2, b = e1 e2. In the other's order: d1 d2 e1 e2 against e1 e2 d1 d2: d2 1/1 (d1 above in
    # both), e1 0/2, e2 1/3 (e1 above in both): 2/3 * 4/3 - 1 = -1/9, both sides. Reversed: d1 d2 e2 e1 against
    # e1 e2 d2 d1, every pair disagrees: -1. The mean: -5/9.
    assert tau_ap_by_definition(*placed(["d1", "d2"], ["e1", "e2"])) == pytest.approx(-1 / 9)
    assert tau_ap_by_definition(*placed(["d1", "d2"], ["e1", "e2"], reverse=True)) == -1.0
    assert tau_ap(["d1", "d2"], ["e1", "e2"]) == pytest.approx(-5 / 9)
    # disjoint top 10s are further apart than one swap at the top of the same ten documents
    ten, other = [f"d{i}" for i in range(10)], [f"e{i}" for i in range(10)]
    assert tau_ap(ten, other) < tau_ap(ten, [ten[1], ten[0], *ten[2:]]) == pytest.approx(1 - 2 / 9)


def test_identical_and_reversed_lists():
    docs = [f"d{i}" for i in range(7)]
    assert tau_ap(docs, docs) == 1.0 and weighted_tau(docs, docs) == pytest.approx(1.0)
    assert tau_ap(docs, docs[::-1]) == -1.0 and weighted_tau(docs, docs[::-1]) == pytest.approx(-1.0)
    assert tau_ap(["d1"], ["d1"]) == 1.0  # one document: nothing to disagree about


def test_tau_ap_matches_the_definition_and_weighted_tau_matches_scipy_on_random_lists():
    rng = np.random.default_rng(7)
    pool = [f"d{i}" for i in range(15)]
    for _ in range(200):
        a = list(rng.choice(pool, size=rng.integers(1, 9), replace=False))
        b = list(rng.choice(pool, size=rng.integers(1, 9), replace=False))
        if len(set(a) | set(b)) < 2:
            continue
        placements = [placed(a, b), placed(a, b, reverse=True)]
        sides = [(tau_ap_by_definition(pa, pb) + tau_ap_by_definition(pb, pa)) / 2 for pa, pb in placements]
        assert tau_ap(a, b) == pytest.approx(sum(sides) / 2, abs=1e-12)
        assert weighted_tau(a, b) == pytest.approx(sum(scipy_weighted_tau(*p) for p in placements) / 2, abs=1e-12)


def test_rank_contrasts_over_runs_equal_the_list_functions():
    rng = np.random.default_rng(3)
    pool = [f"d{i}" for i in range(30)]
    lists_a = {f"q{i}": list(rng.choice(pool, size=12, replace=False)) for i in range(40)}
    lists_b = {f"q{i}": list(rng.choice(pool, size=12, replace=False)) for i in range(40)}
    lists_b["q0"] = lists_a["q0"]  # identical
    lists_b["q1"] = lists_a["q1"][:5][::-1] + lists_a["q1"][5:]  # top five reversed
    del lists_b["q39"]  # only run a: not compared
    a = hits(lists_a).sample(frac=1, random_state=0)  # any row order
    b = hits(lists_b)
    table = rank_contrasts(a, b, k=5)
    assert len(table) == 39 and table["query_id"].tolist() == sorted(lists_b)
    for row in table.itertuples():
        ta, tb = lists_a[row.query_id][:5], lists_b[row.query_id][:5]
        assert row.tau_ap == pytest.approx(tau_ap(ta, tb), abs=1e-12)
        assert row.weighted_tau == pytest.approx(weighted_tau(ta, tb), abs=1e-12)
        assert row.overlap == len(set(ta) & set(tb)) and row.union == len(set(ta) | set(tb))
    by_id = table.set_index("query_id")
    assert by_id.loc["q0", "tau_ap"] == 1.0 and by_id.loc["q1", "tau_ap"] == -1.0


def test_exclude_and_task_and_empty_lists():
    a = pd.concat([hits({"q1": ["anchor", "d1", "d2", "d3"]}, "c2c"), hits({"t1": ["x", "y"]})])
    b = pd.concat([hits({"q1": ["d1", "anchor", "d3", "d2"]}, "c2c"), hits({"t1": ["y", "x"]})])
    kept = rank_contrasts(a, b, k=3, task="c2c")
    assert kept["query_id"].tolist() == ["q1"] and kept["overlap"].tolist() == [2]  # anchor and d1
    gone = rank_contrasts(a, b, k=3, task="c2c", exclude={"q1": "anchor"})  # d1 d2 d3 against d1 d3 d2
    assert gone["tau_ap"].tolist() == [0.5] and gone["union"].tolist() == [3]
    assert rank_contrasts(a, b, k=3, task="t2c")["tau_ap"].tolist() == [-1.0]
    empty = a.assign(doc_id=None).head(1)  # a run whose one list is empty (doc_id NULL) compares nothing
    assert rank_contrasts(empty, b).empty and contrasting_queries(empty, b).queries == 0
    with pytest.raises(CorebError, match="at least 1"):
        rank_contrasts(a, b, k=0)


def test_contrasting_queries_picks_the_most_different_rankings():
    a = hits({"q1": ["d1", "d2", "d3"], "q2": ["d1", "d2", "d3"], "q3": ["d1", "d2", "d3"], "q4": ["d1", "d2", "d3"]})
    b = hits({"q1": ["d3", "d2", "d1"], "q2": ["d1", "d2", "d3"], "q3": ["d2", "d1", "d3"], "q4": ["d2", "d1", "d3"]})
    deltas = pd.DataFrame({"task": "t2c", "query_id": ["q1", "q2", "q3", "q4"], "delta": [0.1, 0.0, -0.1, 0.4],
                           "subtask": "s"})
    c = contrasting_queries(a, b, k=3, limit=3, per_query=deltas)
    assert isinstance(c, Contrasts) and c.measure == TAU_AP and (c.k, c.queries) == (3, 4)
    # q1 reversed (-1), then q3 and q4 (top swap, 0): the larger |delta| first (q4), then q3
    assert c.rows["query_id"].tolist() == ["q1", "q4", "q3"]
    assert c.rows["tau_ap"].tolist() == [-1.0, 0.0, 0.0] and c.mean == pytest.approx((-1 + 1 + 0 + 0) / 4)
    assert c.rows["delta"].tolist() == [0.1, 0.4, -0.1] and c.rows["subtask"].tolist() == ["s"] * 3
    w = contrasting_queries(a, b, k=3, measure=WEIGHTED_TAU, limit=None)
    assert w.rows["weighted_tau"].is_monotonic_increasing and len(w.rows) == 4
    assert w.rows["weighted_tau"].iloc[0] == pytest.approx(-1.0) and "delta" not in w.rows


def test_rank_correlations_are_value_objects():
    assert [str(m) for m in RANK_CORRELATIONS] == ["tau_ap", "weighted_tau"]
    assert RankCorrelation.parse("tau-AP") == TAU_AP and RankCorrelation.parse(WEIGHTED_TAU) is WEIGHTED_TAU
    assert len({TAU_AP, RankCorrelation("tau_ap"), WEIGHTED_TAU}) == 2
    with pytest.raises(CorebError, match="unknown rank correlation"):
        RankCorrelation.parse("spearman")
