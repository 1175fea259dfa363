"""Display labels for the vocabulary of ``coreb_core.data.schema``."""

import re

TASK_LABELS = {"t2c": "Text → code (T2C)", "c2c": "Code → code (C2C)", "c2t": "Code → text (C2T)"}

# Trap kinds (coreb_core.analysis.traps.kinds.TRAP_KINDS) and pass-fraction bins (coreb_core.analysis.traps.wins).
TRAP_KIND_LABELS = {"failing_solution": "failing solution", "wrong_language": "correct, wrong language",
                    "other_model": "correct, other model", "noise_description": "noise description",
                    "judged_non_match": "judged non-match", "not_a_positive": "correct, not a positive"}
SLICE_LABELS = {"query_length": "query length", "document_length": "positive length"}
PASS_BIN_LABELS = {"gross": "gross (< 20% of tests)", "partial": "partial", "near_miss": "near-miss (≥ 80% of tests)"}

# The two trap-win measures, one name each (issue 31): per query and per judged trap. Both count only the queries
# that have a positive (a query without one, C2T's c2t_match label-0 pairs, cannot lose to a trap).
LOST_SHARE = "share of queries lost to a trap"  # coreb_core.analysis.traps.share_lost: lost / queries with a positive
WIN_RATE = "trap-win rate per judged trap"  # trap wins / judged traps of queries with a positive
DENOMINATORS = (f"{LOST_SHARE[0].upper() + LOST_SHARE[1:]}: of the queries with a positive, those where a trap ranks "
                f"above every positive; {WIN_RATE}: of the judged traps of those queries, those ranked above the "
                "query's best positive. A query without a positive (C2T's c2t_match label-0 pairs) cannot lose and "
                "counts in neither.")


def chip_label(label: str) -> str:
    """A published source's label short enough for a picker's chip (three fit beside each other at 1280 px).

    >>> chip_label("paper Table 3 (release v202603)"), chip_label("project page b312b5b (release v202602)")
    ('Table 3 · v202603', 'page b312b5b · v202602')
    >>> chip_label("README (release v202603)"), chip_label("an imported file")
    ('README · v202603', 'an imported file')
    """
    match = re.fullmatch(r"(?:paper |project )?(.+) \(release (v\d+)\)", label)
    return f"{match.group(1)} · {match.group(2)}" if match else label
