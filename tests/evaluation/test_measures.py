"""Measures: one value object per (family, k), one canonical name, every spelling parsed back."""
import pytest

from coreb_core.data.measures import FAMILIES, KS, Measure, measures
from coreb_core.evaluation.kernels import metric_names


def test_every_spelling_round_trips():
    for m in measures(FAMILIES, KS):
        assert Measure.parse(str(m)) == m
        assert Measure.parse(m.column) == m
        assert Measure.parse(m.official) == m


def test_ir_measures_aliases_and_canonical_names():
    assert [str(Measure.parse(s)) for s in ("R@10", "AP@5", "RR@1", "Success@3", "ndcg@10")] == \
        ["Recall@10", "MAP@5", "MRR@1", "HitRate@3", "nDCG@10"]
    assert Measure("precision", 10).official == "P@10" and Measure("precision", 10).official_family == "Precision"


def test_measures_are_hashable_values():
    assert len({Measure("ndcg", 10), Measure.parse("nDCG@10"), Measure.parse("ndcg_at_10")}) == 1


@pytest.mark.parametrize("bad", ["", "nDCG", "nDCG@", "foo@10", "ndcg@-1", "ndcg@10; DROP TABLE x", "ndcg_at_1e3"])
def test_malformed_names_are_refused_in_one_line(bad):
    with pytest.raises(ValueError, match="unknown measure") as info:
        Measure.parse(bad)
    assert "\n" not in str(info.value)


def test_table_columns_follow_the_measures():
    assert metric_names((1, 10)) == [m.column for m in measures(FAMILIES, (1, 10))]
    assert metric_names()[:2] == ["ndcg_at_1", "ndcg_at_3"] and len(metric_names()) == 42  # 6 families x 7 cutoffs (1..1000)


def test_the_default_and_the_selection_measures():
    from coreb_core.data.measures import NDCG_10, SELECTION_MEASURES, SELECTION_METRICS

    assert NDCG_10 == Measure.parse("nDCG@10") and NDCG_10.column == "ndcg_at_10" and str(NDCG_10) == "nDCG@10"
    assert SELECTION_MEASURES[0] == NDCG_10 and all(m.k == 10 for m in SELECTION_MEASURES)
    assert SELECTION_METRICS == ("ndcg_at_10", "map_at_10", "recall_at_10", "mrr_at_10")  # the page's choices
