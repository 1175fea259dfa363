"""Display labels for the vocabulary of ``coreb_core.data.schema``."""

TASK_LABELS = {"t2c": "Text → code (T2C)", "c2c": "Code → code (C2C)", "c2t": "Code → text (C2T)"}

# Trap kinds (coreb_core.analysis.trap_kinds.TRAP_KINDS) and pass-fraction bins (coreb_core.analysis.trap_wins).
TRAP_KIND_LABELS = {"failing_solution": "failing solution", "wrong_language": "correct, wrong language",
                    "other_model": "correct, other model", "noise_description": "noise description",
                    "judged_non_match": "judged non-match", "not_a_positive": "correct, not a positive"}
SLICE_LABELS = {"query_length": "query length", "document_length": "positive length"}
PASS_BIN_LABELS = {"gross": "gross (< 20% of tests)", "partial": "partial", "near_miss": "near-miss (≥ 80% of tests)"}
