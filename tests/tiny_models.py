"""Tiny random-weight models of the registry's architectures, built offline, for the encoder parity tests.

Each family is one ``transformers`` architecture of the registry (``FAMILIES``): a config class with tiny sizes
(hidden 32, 2 layers, 4 query heads over 2 key/value heads), weights drawn from a fixed seed, and a word-level
tokenizer trained here on a few strings (the card prompts among them, so prompts become real tokens). The folder
is both a transformers folder (``AutoModel``/``AutoTokenizer``, what the official profile and the runner load) and
a sentence-transformers folder (``modules.json``, ``sentence_bert_config.json``, ``1_Pooling``, ``2_Normalize``,
``config_sentence_transformers.json``: what the card profile loads), with the pooling the family's cards use.

The tokenizer is a stand-in: the real models' byte-level BPE vocabularies are on the hub. What the tests compare is
two encoders on one and the same folder, so only the tokenizer's special tokens matter here: ``<|endoftext|>`` is
the pad token (and, for Qwen3, appended to every text, as the Qwen3-Embedding card's last-token pooling expects)
and the padding side stored in ``tokenizer_config.json`` is "left", the side Qwen3-Embedding's card loads its
tokenizer with. The real tokenizers' own files are on the hub and are not checked here; the card profile takes
the registry's ``card_padding_side`` when it gives one (C2LLM), else the tokenizer's own.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

EOS = "<|endoftext|>"
UNK = "<unk>"
# The real models' positions (32768 for Qwen3-Embedding and Qwen2.5-Coder): the card profile keeps the card's
# length only up to the transformer's positions, and the official profile refuses fewer than 512. RoPE models
# hold no table per position, so this costs nothing.
POSITIONS = 32768


class Family(NamedTuple):
    """One architecture of the registry, as the tiny model reproduces it."""
    name: str  # transformers model_type
    registry_ids: tuple[str, ...]  # the registry entries of this architecture
    pooling: str  # the sentence-transformers pooling of the family's cards: "lasttoken" or "mean"
    padding_side: str  # the tiny tokenizer's own padding side
    append_eos: bool  # the tokenizer appends <|endoftext|> to every text (Qwen3-Embedding's does)
    st_prompts: dict[str, str]  # config_sentence_transformers.json prompts (generic ones, as the real files hold)


FAMILIES: dict[str, Family] = {
    "qwen3": Family("qwen3", ("qwen3-embedding-0.6b", "qwen3-embedding-4b", "qwen3-embedding-8b", "f2llm-0.6b",
                              "f2llm-1.7b", "f2llm-4b"), "lasttoken", "left", True,
                    {"query": "Instruct: Given a web search query, retrieve relevant passages that answer the query\n"
                              "Query:", "document": ""}),
    "qwen2": Family("qwen2", ("jina-code-0.5b", "jina-code-1.5b", "bge-code-v1"), "lasttoken", "left", False, {}),
}

# A few texts for the tokenizer's vocabulary; the registry's card prompts are added in ``_vocabulary_texts``.
_CORPUS = [
    "def add(a, b): return a + b",
    "def read_file(path): with open(path) as f: return f.read()",
    "class Stack: def push(self, x): self.items.append(x)",
    "for i in range(10): print(i)",
    "int main() { return 0; }",
    "public static void main(String[] args) { System.out.println(x); }",
    "Sort a list of numbers and return the largest one.",
    "Given a string, count the vowels in it.",
    "Returns the sum of two numbers.",
    "Reads a file and returns its content as text.",
]


def _vocabulary_texts() -> list[str]:
    from coreb_core.retrieval.models import REGISTRY

    prompts = [text for spec in REGISTRY.values() for p in spec.card.values() for text in (p.query, p.document)]
    st_prompts = [text for family in FAMILIES.values() for text in family.st_prompts.values()]
    return _CORPUS + prompts + st_prompts


def _tokenizer(family: Family):
    """A word-level tokenizer (whitespace and punctuation split) trained on ``_vocabulary_texts``."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    raw = Tokenizer(models.WordLevel(unk_token=UNK))
    raw.pre_tokenizer = pre_tokenizers.Whitespace()
    raw.train_from_iterator(_vocabulary_texts(), trainers.WordLevelTrainer(special_tokens=[EOS, UNK]))
    if family.append_eos:
        eos_id = raw.token_to_id(EOS)
        raw.post_processor = processors.TemplateProcessing(single=f"$A {EOS}", pair=f"$A {EOS} $B {EOS}",
                                                           special_tokens=[(EOS, eos_id)])
    return PreTrainedTokenizerFast(tokenizer_object=raw, eos_token=EOS, pad_token=EOS, unk_token=UNK,
                                   padding_side=family.padding_side, model_max_length=POSITIONS)


def _config(family: Family, vocab_size: int, pad_id: int):
    """Tiny sizes; ``pad_id`` (<|endoftext|>) is the eos and bos token."""
    from transformers import Qwen2Config, Qwen3Config

    sizes = dict(vocab_size=vocab_size, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                 num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=POSITIONS,
                 eos_token_id=pad_id, bos_token_id=pad_id, tie_word_embeddings=True,
                 initializer_range=0.1)  # wider than the default 0.02, so texts differ more
    # No pad_token_id in the config: it would make <|endoftext|> the embedding's padding_idx, whose row a random
    # init leaves at zero, so the token Qwen3 appends (and last-token pooling reads) would carry nothing. Trained
    # weights have no such zero row; the tokenizer still pads with <|endoftext|>.
    if family.name == "qwen3":
        return Qwen3Config(head_dim=8, **sizes)
    if family.name == "qwen2":
        return Qwen2Config(**sizes)
    raise ValueError(f"no tiny config for {family.name}")


def build_tiny_model(family_name: str, folder: Path, seed: int = 0) -> Path:
    """Write a tiny random-weight model of ``family_name`` (a key of ``FAMILIES``) into ``folder``; returns it."""
    import torch
    from transformers import AutoModel

    family = FAMILIES[family_name]
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = _tokenizer(family)
    tokenizer.save_pretrained(folder)
    torch.manual_seed(seed)
    model = AutoModel.from_config(_config(family, len(tokenizer), tokenizer.pad_token_id), dtype=torch.float32)
    model.save_pretrained(folder)
    hidden = model.config.hidden_size
    modules = [{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
               {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
               {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}]
    (folder / "modules.json").write_text(json.dumps(modules, indent=2))
    (folder / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": POSITIONS, "do_lower_case": False}))
    (folder / "1_Pooling").mkdir(exist_ok=True)
    pooling = {"word_embedding_dimension": hidden, "pooling_mode_cls_token": False,
               "pooling_mode_mean_tokens": family.pooling == "mean", "pooling_mode_max_tokens": False,
               "pooling_mode_mean_sqrt_len_tokens": False, "pooling_mode_weightedmean_tokens": False,
               "pooling_mode_lasttoken": family.pooling == "lasttoken", "include_prompt": True}
    (folder / "1_Pooling" / "config.json").write_text(json.dumps(pooling, indent=2))
    (folder / "2_Normalize").mkdir(exist_ok=True)
    (folder / "config_sentence_transformers.json").write_text(json.dumps(
        {"prompts": family.st_prompts, "default_prompt_name": None, "similarity_fn_name": "cosine"}, indent=2))
    return folder
