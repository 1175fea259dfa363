"""Display labels for the vocabulary of ``coreb_core.data.schema``."""

TASK_LABELS = {"t2c": "Text → code (T2C)", "c2c": "Code → code (C2C)", "c2t": "Code → text (C2T)"}
GROUPINGS = ("task", "subtask", "language", "anchor_language", "problem")
