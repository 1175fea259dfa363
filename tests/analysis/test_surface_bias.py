"""Surface bias on the tiny hand-made release (tests/dump.py): token Jaccard, the best trap and positive
of each decided query, and the shares, every number worked out by hand below."""
import math

import numpy as np
import pandas as pd
import pytest

from coreb_core.analysis.proportions import two_proportion_p, wilson_interval
from coreb_core.analysis.traps.surface import CORRECT, TRAP_WIN, jaccard, judged_overlap, surface_bias, surface_summary
from coreb_core.evaluation.evaluate import trap_table
from coreb_core.evaluation.join import release_index
from coreb_core.retrieval.search import code_tokens
from tests.builders import Q1, Q2, QC, QM, QT, code, tiny_hits

TEXT1, TEXT2 = "text_v202601_00001", "text_v202601_00002"
NOISE = "text_v202601_00001_noise{}".format

# Tokens (code_tokens: words of 2+ letters, capital runs, digit runs, lower-cased):
#   code n  "# solution n in <lang>\nprint(sum(map(int, input().split())))"
#           -> solution, n, in, <lang>, print, sum, map, int, input, split   (10)
#   Q1 "Sum of two integers." -> sum, of, two, integers (4);  Q2 "python add two ints" -> python, add, two, ints (4)
#   QC and QT are code 1's text; QM is code 5's text
#   text 1 "Add two numbers read from input." -> add, two, numbers, read, from, input (6)
#   noise i "Multiply two numbers, variant i." -> multiply, two, numbers, variant, i (5)
#   text 2 "Count vowels in a word." -> count, vowels, in, word (4: "a" is one letter)
BY_HAND = {
    (Q1, code(3)): 1 / 13, (Q1, code(1)): 1 / 13,  # only "sum" shared
    (Q2, code(1)): 1 / 13, (Q2, code(2)): 0.0, (Q2, code(3)): 1 / 13,  # "python" or nothing
    (QC, code(2)): 8 / 12, (QC, code(4)): 8 / 12, (QC, code(3)): 9 / 11,  # all but number and language; + python
    (QT, TEXT1): 1 / 15, (QT, NOISE(1)): 1 / 14, (QT, NOISE(2)): 0.0,  # "input"; the digit "1"; nothing
    (QM, TEXT2): 1 / 13,  # "in"
}


def overlap(store, query_id: str, doc_id: str) -> float:
    index = release_index(store)
    j = index.judged("qrels")
    key = index.query_pos.get_loc(query_id) * index.n_docs + index.docs.get_loc(doc_id)
    return float(judged_overlap(store)[np.searchsorted(j.keys, key)])


def test_tokens_and_jaccard_by_hand(tiny_store):
    assert code_tokens("Count vowels in a word.") == ["count", "vowels", "in", "word"]
    assert jaccard({"a", "b"}, {"b", "c"}) == pytest.approx(1 / 3)
    assert jaccard(set(), set()) == 0.0
    for (query_id, doc_id), expected in BY_HAND.items():
        assert overlap(tiny_store, query_id, doc_id) == pytest.approx(expected), (query_id, doc_id)
    assert judged_overlap(tiny_store) is judged_overlap(tiny_store)  # once per release version


def runs(store):
    a = tiny_hits(store, {Q1: [code(3), code(1), code(2), code(4)], Q2: [code(2), code(1), code(3)],
                          QC: [code(1), code(3), code(2)],  # code 1 is QC's anchor: dropped, code 3 moves to 1
                          QT: [TEXT1, NOISE(1), NOISE(2)], QM: [TEXT2]})
    b = tiny_hits(store, {Q1: [code(1), code(3)], Q2: [code(1)],  # Q2: no trap stored
                          QC: [code(2), code(1), code(3)], QT: [NOISE(1), TEXT1]})
    return {"a": a, "b": b}


def test_pairs_by_hand(tiny_store):
    bias = surface_bias(tiny_store, runs(tiny_store))
    pairs = bias.pairs.set_index(["run", "query_id"])
    assert (("a", QM) not in pairs.index) and len(pairs) == 8  # QM has no trap: decided neither way
    expected = {  # outcome, trap, trap rank, positive, positive rank, trap higher
        ("a", Q1): (TRAP_WIN, code(3), 1, code(1), 2, False),  # 1/13 against 1/13: a tie is not higher
        ("a", Q2): (TRAP_WIN, code(2), 1, code(1), 2, False),  # 0 against 1/13
        ("a", QC): (TRAP_WIN, code(3), 1, code(2), 2, True),  # 9/11 against 8/12, ranks after the anchor left
        ("a", QT): (CORRECT, NOISE(1), 2, TEXT1, 1, True),  # 1/14 against 1/15
        ("b", Q1): (CORRECT, code(3), 2, code(1), 1, False),
        ("b", Q2): (CORRECT, code(2), None, code(1), 1, False),  # no trap stored: the first by doc id stands in
        ("b", QC): (CORRECT, code(3), 2, code(2), 1, True),
        ("b", QT): (TRAP_WIN, NOISE(1), 1, TEXT1, 2, True),
    }
    for key, (outcome, trap, t_rank, positive, p_rank, higher) in expected.items():
        row = pairs.loc[key]
        assert (row["outcome"], row["trap_id"], row["positive_id"], bool(row["trap_higher"])) == \
            (outcome, trap, positive, higher), key
        assert (math.isnan(row["trap_rank"]) if t_rank is None else row["trap_rank"] == t_rank), key
        assert row["positive_rank"] == p_rank, key
        assert row["trap_overlap"] == pytest.approx(BY_HAND[(key[1], trap)])
        assert row["positive_overlap"] == pytest.approx(BY_HAND[(key[1], positive)])
    # The trap wins are exactly trap_table's "trap above the first positive".
    for name, hits in runs(tiny_store).items():
        table = trap_table(tiny_store, hits)
        assert sorted(pairs.xs(name)[pairs.xs(name)["outcome"] == TRAP_WIN].index) == \
            sorted(table[table["trap_above_positive"]]["query_id"].astype(str))


def test_summary_by_hand(tiny_store):
    summary = surface_bias(tiny_store, runs(tiny_store)).summary
    got = {(r.run, r.task): (r.trap_wins, r.wins_trap_higher, r.correct, r.correct_trap_higher)
           for r in summary.itertuples()}
    assert got == {("a", "c2c"): (1, 1, 0, 0), ("a", "c2t"): (0, 0, 1, 1), ("a", "t2c"): (2, 0, 0, 0),
                   ("b", "c2c"): (0, 0, 1, 1), ("b", "c2t"): (1, 1, 0, 0), ("b", "t2c"): (0, 0, 2, 0)}
    a_t2c = summary[(summary["run"] == "a") & (summary["task"] == "t2c")].iloc[0]
    assert a_t2c["share_wins_trap_higher"] == 0.0 and math.isnan(a_t2c["share_correct_trap_higher"])
    assert math.isnan(a_t2c["p_value"])  # nothing to compare with
    assert a_t2c["mean_trap_overlap_wins"] == pytest.approx((1 / 13 + 0) / 2)
    assert a_t2c["mean_positive_overlap_wins"] == pytest.approx(1 / 13)
    finding = surface_bias(tiny_store, runs(tiny_store)).findings("t2c")[0]
    assert (finding.run, finding.trap_wins, finding.share_wins) == ("a", 2, 0.0)


def test_anchor_exclusion_moves_the_ranks(tiny_store):
    hits = runs(tiny_store)["a"]
    kept = surface_bias(tiny_store, {"a": hits}, anchor_exclusion=False).pairs.set_index("query_id").loc[QC]
    assert (kept["trap_rank"], kept["positive_rank"]) == (2.0, 3.0)  # the anchor keeps rank 1


def test_shares_intervals_and_test_by_hand():
    # 10 trap wins (8 with the trap higher), 10 correct orderings (2 with the trap higher).
    pairs = pd.DataFrame({"run": "r", "task": "t2c", "outcome": [TRAP_WIN] * 10 + [CORRECT] * 10,
                          "trap_overlap": 0.3, "positive_overlap": 0.2,
                          "trap_higher": [True] * 8 + [False] * 2 + [True] * 2 + [False] * 8})
    row = surface_summary(pairs).iloc[0]
    assert (row["share_wins_trap_higher"], row["share_correct_trap_higher"]) == (0.8, 0.2)
    assert row["difference"] == pytest.approx(0.6)
    # Wilson 95% of 8/10 and 2/10 (tables: 0.490-0.943 and 0.057-0.510).
    assert (row["wins_low"], row["wins_high"]) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert (row["correct_low"], row["correct_high"]) == pytest.approx((0.0567, 0.5098), abs=1e-4)
    # Pooled share 0.5: se = sqrt(0.25 * 0.2), z = 0.6 / se = 2.683, p = erfc(z / sqrt 2).
    z = 0.6 / math.sqrt(0.25 * 0.2)
    assert row["p_value"] == pytest.approx(math.erfc(z / math.sqrt(2))) and row["p_value"] == pytest.approx(0.0073, abs=1e-4)
    low, high = wilson_interval(np.array([0]), np.array([0]))
    assert math.isnan(low[0]) and math.isnan(high[0])
    assert two_proportion_p(np.array([3]), np.array([3]), np.array([5]), np.array([5]))[0] == 1.0  # both all higher
    # By subtask too: the grouping columns are the caller's.
    assert list(surface_summary(pairs.assign(subtask="s"), ("run", "task", "subtask")).columns[:3]) == \
        ["run", "task", "subtask"]


def test_json_records_have_no_nan(tiny_store):
    records = surface_bias(tiny_store, runs(tiny_store)).to_json()
    assert len(records) == 6 and records[0]["run"] == "a"
    assert all(v is None or not (isinstance(v, float) and math.isnan(v)) for r in records for v in r.values())
