"""The article's "three hard negatives" on the real releases (issue 48, item 7): the samples with fewer, as
``samples --json`` counts them, read from the summaries the session already makes (``train_file``, ``test_file``: no
``samples`` call of its own; tests/cli/test_small_truths.py checks on CoREB-mini that the count is the file's)."""
from __future__ import annotations


def test_358_release_v2602_training_samples_hold_fewer_than_three_hard_negatives(train_file):
    _, summary = train_file
    assert summary["samples_by_hard_negatives"] == {"1": 198, "2": 160, "3": 3445}


def test_314_release_v2603_test_samples_hold_fewer_than_three_hard_negatives(test_file):
    _, summary = test_file
    assert summary["samples_by_hard_negatives"] == {"1": 234, "2": 80, "3": 3378}
