"""pair_table / pair_verdicts with a baseline run and a choice of correction (issue 26), by hand; the defaults
(every pair, Holm) are tests/analysis/test_comparison.py's."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from coreb_core.analysis.comparison import PairVerdict, headline_verdict, pair_table, pair_verdicts, run_intervals
from coreb_core.errors import CorebError
from coreb_core.evaluation.significance import BH, BONFERRONI, CORRECTIONS, HOLM, adjust, holm, paired_ttest
from coreb_core.present.display import VERDICT_COLUMNS, VERDICT_SHOWN, verdict_p, verdict_sentence, verdict_table


def runs() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(5)
    qids = [f"q{i}" for i in range(40)]
    base = rng.uniform(0.2, 0.6, 40)
    frame = lambda v: pd.DataFrame({"task": "t2c", "query_id": qids, "ndcg_at_10": v})  # noqa: E731
    return {"bm25": frame(base), "big": frame(base + 0.1), "small": frame(base + rng.normal(0.0, 0.05, 40)),
            "worse": frame(base - 0.03 + rng.normal(0.0, 0.05, 40))}


def test_defaults_keep_every_pair_and_holm():
    per = runs()
    pairs = pair_table(per, n_permutations=500)
    verdicts = pair_verdicts(per, pairs, "t2c")
    assert len(verdicts) == 6
    for v, row in zip(verdicts, pairs.itertuples()):
        assert v.correction == HOLM and v.p_adjusted == v.p_holm == pytest.approx(row.p_randomization_holm)
        assert v.p_ttest == pytest.approx(row.p_ttest) and v.p_ttest_adjusted == pytest.approx(row.p_ttest_holm)
        assert v.significant == (v.p_holm < 0.05)


def test_baseline_compares_each_run_against_it_only():
    per = runs()
    pairs = pair_table(per, n_permutations=500, baseline="bm25")
    assert list(zip(pairs["a"], pairs["b"])) == [("big", "bm25"), ("small", "bm25"), ("worse", "bm25")]
    for c in CORRECTIONS:
        verdicts = pair_verdicts(per, pairs, "t2c", correction=c, baseline="bm25")
        assert [{v.a, v.b} for v in verdicts] == [{"big", "bm25"}, {"small", "bm25"}, {"worse", "bm25"}]
        p = [v.p for v in verdicts]
        assert p == pytest.approx(pairs["p_randomization"].tolist())
        assert [v.p_adjusted for v in verdicts] == pytest.approx(adjust(p, c))  # across the 3 baseline pairs only
        assert [v.p_holm for v in verdicts] == pytest.approx(holm(p))
        assert [v.p_ttest_adjusted for v in verdicts] == pytest.approx(adjust(pairs["p_ttest"].tolist(), c))
        assert all(v.correction == c and v.significant == (v.p_adjusted < 0.05) for v in verdicts)
    big = pair_verdicts(per, pairs, "t2c", baseline="bm25")[0]
    assert (big.a, big.b, big.delta, big.wins) == ("big", "bm25", pytest.approx(0.1), 40)
    delta = (per["big"]["ndcg_at_10"] - per["bm25"]["ndcg_at_10"]).to_numpy()
    assert big.p_ttest == paired_ttest(delta) and big.significant
    # an all-pairs table judged with a baseline keeps the baseline's rows, and corrects across those
    from_all = pair_verdicts(per, pair_table(per, n_permutations=500), "t2c", correction=BONFERRONI, baseline="bm25")
    assert [(v.a, v.b) for v in from_all] == [(v.a, v.b) for v in pair_verdicts(per, pairs, "t2c", baseline="bm25")]
    assert [v.p_adjusted for v in from_all] == pytest.approx([min(1.0, 3 * v.p) for v in from_all])
    with pytest.raises(CorebError, match="baseline 'nope'"):
        pair_table(per, baseline="nope")
    with pytest.raises(CorebError, match="baseline 'nope'"):
        pair_verdicts(per, pairs, "t2c", baseline="nope")


def test_bonferroni_and_bh_can_disagree_on_significance():
    # four pairs whose randomization p are near 0.02: BH keeps them below 0.05, Bonferroni (x 4 or x 3) does not
    p = [0.02, 0.021, 0.022, 0.019]
    assert all(x < 0.05 for x in adjust(p, BH)) and not any(x < 0.05 for x in adjust(p, BONFERRONI))


def test_words_name_the_correction():
    per = runs()
    pairs = pair_table(per, n_permutations=500, baseline="bm25", correction="bh")
    verdicts = pair_verdicts(per, pairs, "t2c", correction="bh", baseline="bm25")
    names = {"bm25": "BM25"}
    sentence = verdict_sentence(verdicts[0], names)
    assert "after Benjamini–Hochberg correction" in sentence and "Holm" not in sentence
    assert "after Bonferroni correction" in verdict_sentence(verdicts[0]._replace(correction=BONFERRONI), names)
    shown = verdict_table(pairs, verdicts, names)
    assert list(shown.columns[:len(VERDICT_COLUMNS)]) == VERDICT_COLUMNS and set(VERDICT_SHOWN) <= set(VERDICT_COLUMNS)
    assert VERDICT_COLUMNS[:7] == ["better", "other", "delta_points", "delta_ci", "p_holm_text", "verdict", "record"]
    from coreb_core.text import p_text

    assert shown["p_text"].tolist() == [p_text(v.p_adjusted) for v in verdicts]
    assert shown["p_ttest_text"].tolist() == [p_text(v.p_ttest_adjusted) for v in verdicts]
    assert shown["p_holm_text"].tolist() == [p_text(v.p_holm) for v in verdicts]
    # a Holm verdict built from the first fourteen fields (Model selection's lead) reads p_holm
    old = PairVerdict("a", "b", "ndcg_at_10", "t2c", 3, 0.1, 0.0, 0.2, 0.01, 0.03, True, 2, 1, 0)
    assert math.isnan(old.p_adjusted) and verdict_p(old) == 0.03 and "(p = 0.030)" in verdict_sentence(old, {})
    assert headline_verdict(verdicts, run_intervals(per)).a == "big"


def test_recorrect_equals_judging_under_that_correction():
    """The page tests once (Holm) and applies the chosen correction after: the same as judging under it."""
    from coreb_core.analysis.comparison import recorrect
    from coreb_core.evaluation.significance import with_correction

    per = runs()
    holm_pairs = pair_table(per, n_permutations=500)
    holm_verdicts = pair_verdicts(per, holm_pairs, "t2c")
    for c in CORRECTIONS:
        direct = pair_verdicts(per, pair_table(per, n_permutations=500, correction=c), "t2c", correction=c)
        assert recorrect(holm_verdicts, c) == direct
        table = with_correction(holm_pairs, c)
        again = pair_table(per, n_permutations=500, correction=c)
        assert table[["p_ttest_adjusted", "p_randomization_adjusted"]].equals(
            again[["p_ttest_adjusted", "p_randomization_adjusted"]])
        assert (table["correction"] == c.name).all() and (holm_pairs["correction"] == "holm").all()
