"""From error analysis to training data: the reranker protocol's samples (``samples``), hard negatives mined from a
run (``mining``), their files (``sample_files``) and a cross-encoder trained on them (``reranker``)."""
