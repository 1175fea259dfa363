"""Holm, Bonferroni and Benjamini-Hochberg as value objects, checked by hand (the figures agree with statsmodels'
multipletests, methods holm / bonferroni / fdr_bh, run once outside the suite)."""
from __future__ import annotations

import pandas as pd
import pytest

from coreb_core.errors import CorebError
from coreb_core.evaluation.significance import (
    BH,
    BONFERRONI,
    CORRECTIONS,
    HOLM,
    Correction,
    adjust,
    benjamini_hochberg,
    bonferroni,
    compare_runs,
    holm,
    run_pairs,
)

P = [0.02, 0.001, 0.04, 0.03, 0.5]


def test_three_corrections_by_hand():
    # Holm: sorted 0.001 0.02 0.03 0.04 0.5 times 5 4 3 2 1 = 0.005 0.08 0.09 0.08 0.5, running max 0.005 0.08 0.09
    # 0.09 0.5
    assert adjust(P, HOLM) == pytest.approx([0.08, 0.005, 0.09, 0.09, 0.5]) == holm(P)
    # Bonferroni: 5 x each, capped at 1
    assert adjust(P, "bonferroni") == pytest.approx([0.1, 0.005, 0.2, 0.15, 1.0]) == bonferroni(P)
    # BH: p_(i) * 5 / i = 0.005, 0.05, 0.05, 0.05, 0.5; running minimum from the largest down changes nothing
    assert adjust(P, BH) == pytest.approx([0.05, 0.005, 0.05, 0.05, 0.5]) == benjamini_hochberg(P)
    # BH's step-up: a larger p's smaller ratio lowers the ones below it (0.04 * 3 / 2 = 0.06 > 0.045 = 0.045 * 3 / 3)
    assert benjamini_hochberg([0.04, 0.045, 0.001]) == pytest.approx([0.045, 0.045, 0.003])
    for c in CORRECTIONS:
        assert c.adjust([]) == [] and c.adjust([0.3]) == pytest.approx([0.3])  # one test: nothing to correct
        assert all(x <= 1.0 for x in c.adjust([0.9, 0.8, 0.95]))
    # the ordering the three promise: BH <= Holm <= Bonferroni, each p
    for b, h, f in zip(adjust(P, BH), adjust(P, HOLM), adjust(P, BONFERRONI)):
        assert b <= h + 1e-15 and h <= f + 1e-15


def test_corrections_are_value_objects():
    assert [str(c) for c in CORRECTIONS] == ["holm", "bonferroni", "bh"]
    assert [c.controls for c in CORRECTIONS] == ["fwer", "fwer", "fdr"]
    assert Correction.parse("Benjamini–Hochberg") == BH and Correction.parse("FDR_BH") == BH
    assert Correction.parse("Holm") is not None and Correction.parse(HOLM) is HOLM
    assert len({HOLM, Correction("holm"), BH}) == 2
    with pytest.raises(CorebError, match="unknown correction 'sidak'"):
        adjust([0.1], "sidak")


def table(values: list[float]) -> pd.DataFrame:
    return pd.DataFrame({"task": "t2c", "query_id": [f"q{i}" for i in range(len(values))], "ndcg_at_10": values})


def test_compare_runs_against_a_baseline_with_each_correction():
    runs = {"A": table([1.0, 0.5, 0.2]), "B": table([0.5, 0.5, 0.1]), "C": table([0.0, 0.1, 0.1])}
    assert run_pairs(list(runs), "C") == [("A", "C"), ("B", "C")]
    with pytest.raises(CorebError, match="baseline 'D' is not among"):
        run_pairs(list(runs), "D")
    default = compare_runs(runs, n_permutations=200)
    assert (default["correction"] == "holm").all()
    assert default["p_randomization_adjusted"].tolist() == default["p_randomization_holm"].tolist()
    for c in CORRECTIONS:
        t = compare_runs(runs, n_permutations=200, baseline="C", correction=c)
        assert list(zip(t["a"], t["b"])) == [("A", "C"), ("B", "C")]  # a - b = the run's gain over the baseline
        assert t["mean_delta"].tolist() == pytest.approx([0.5, 0.3])
        assert t["p_ttest_adjusted"].tolist() == pytest.approx(adjust(t["p_ttest"].tolist(), c))
        assert t["p_randomization_adjusted"].tolist() == pytest.approx(adjust(t["p_randomization"].tolist(), c))
        assert t["p_randomization_holm"].tolist() == pytest.approx(holm(t["p_randomization"].tolist()))
        assert (t["correction"] == c.name).all()
