"""Encoder parity per model family (issue 37, item 4): tiny random-weight models of each architecture in the
registry that ``transformers`` builds offline (``tests/tiny_models.py``), encoded by both profiles.

- ``official``: the vectors of ``RunnerEncoder`` (through ``load_encoder``, as a run loads it) equal those of
  coreb_runner 0.1.0's own ``HuggingFaceWrapper`` (the ``coreb`` wheel, fetched with pip) on the same folder and
  texts, to 1e-5, whether batched as the runner batches or as the project does (length-sorted);
- ``card``: the model ``load_encoder`` gives is sentence-transformers with the card's pooling (read back from its
  modules), the card's padding side and length, and with ``encode_texts`` it applies exactly the registry's card
  prompts per task and side: its vectors equal a ``SentenceTransformer`` loaded independently with the card's
  settings and fed ``card prompt + text``, to 1e-5.

Families built: Qwen3 (Qwen3-Embedding 0.6B/4B/8B, F2LLM 0.6B/1.7B/4B) and Qwen2 (jina-code-embeddings 0.5B/1.5B,
bge-code-v1 = CodeR-1.5B). The registry lists no Gemma3 model.

Not buildable offline, so not tested here: C2LLM 0.5B/7B (``trust_remote_code``: its architecture, a Qwen2.5-Coder
backbone with a learned attention-pooling head whose forward returns ``sentence_embedding``, is defined by Python
files in the model's hub repository, which is neither cached nor reachable here; transformers has no class for
it, and a Qwen2 stand-in would test Qwen2, not C2LLM). MiniLM (BERT) has its own parity tests on the real
bundled weights in ``test_retrieval.py``.
"""
from __future__ import annotations

import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from coreb_core.data.schema import TASK_NAMES
from coreb_core.retrieval.encode import encode_texts
from coreb_core.retrieval.models import REGISTRY
from coreb_core.retrieval.profiles import encoding_for, load_encoder
from tests.tiny_models import FAMILIES, build_tiny_model

TOLERANCE = 1e-5
FAMILY_OF = {model_id: family for family, f in FAMILIES.items() for model_id in f.registry_ids}
WORDS = "def add ( a , b ) : return a + b".split()
LONG = " ".join(WORDS * 60)  # 720 words: past the official 512 tokens
TEXTS = [
    "def add(a, b): return a + b",
    "",  # an empty text: padding only (plus the appended <|endoftext|> for Qwen3's tokenizer)
    "Sort a list of numbers and return the largest one.",
    "for i in range(10): print(i)",
    "Reads a file and returns its content as text. " * 12,
    LONG,
    "class Stack: def push(self, x): self.items.append(x)",
    "int main() { return 0; }",
    "Given a string, count the vowels in it.",
    "public static void main(String[] args) { System.out.println(x); }",
]


def test_every_registry_model_is_in_a_built_family_or_listed_as_unbuildable():
    """A new registry model must join a family here or be named as unbuildable in this module's docstring."""
    dense = {s.id for s in REGISTRY.values() if s.kind == "dense"}
    unbuildable = {"c2llm-0.5b", "c2llm-7b"}  # trust_remote_code, architecture on the hub (module docstring)
    assert dense == set(FAMILY_OF) | unbuildable | {"minilm"}
    assert all(REGISTRY[m].trust_remote_code for m in unbuildable)
    assert not set(FAMILY_OF) & unbuildable


@pytest.fixture(scope="session")
def runner_models(tmp_path_factory):
    """coreb_runner 0.1.0's ``benchmark/models.py``, from the ``coreb`` wheel that pip fetches (129 KB).

    Loaded by path as one module: the package's ``coreb_runner/benchmark/__init__.py`` also imports its data
    loaders and evaluation (beir and co.), which the wrapper does not need; ``models.py`` itself imports only
    the standard library and numpy (and ``easyllm_kit`` for its logger, with a stdlib fallback it takes here)."""
    folder = tmp_path_factory.mktemp("coreb-wheel")
    command = [sys.executable, "-m", "pip", "download", "coreb==0.1.0", "--no-deps", "--quiet", "--retries", "1",
               "--timeout", "20", "-d", str(folder)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=180)
        why = done.stderr.strip()[-300:]
    except subprocess.TimeoutExpired:
        why = "pip download took over 180 s"
    wheels = sorted(folder.glob("coreb-0.1.0-*.whl"))
    if not wheels:
        pytest.skip(f"pip could not fetch coreb==0.1.0 (the official runner): {why}")
    with zipfile.ZipFile(wheels[0]) as wheel:
        source = folder / "coreb_runner_models.py"
        source.write_bytes(wheel.read("coreb_runner/benchmark/models.py"))
    spec = importlib.util.spec_from_file_location("coreb_runner_models", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def tiny_folders(tmp_path_factory):
    """family -> its tiny model folder, built on first use."""
    root = tmp_path_factory.mktemp("tiny-models")
    built: dict[str, Path] = {}

    def folder(family: str) -> Path:
        if family not in built:
            built[family] = build_tiny_model(family, root / family)
        return built[family]

    return folder


def _tiny_spec(model_id: str, folder: Path):
    """The registry entry, pointed at the tiny folder (what ``--model`` would resolve for the real model)."""
    return REGISTRY[model_id]._replace(name=str(folder), revision=None)


# ------------------------------------------------------------------ official: RunnerEncoder vs HuggingFaceWrapper

@pytest.fixture(scope="session")
def runner_vectors(runner_models, tiny_folders):
    """family -> the wrapper's vectors of TEXTS (queries and corpus), batches of 4, as the runner encodes."""
    cache: dict[str, tuple] = {}

    def vectors(family: str):
        if family not in cache:
            wrapper = runner_models.HuggingFaceWrapper(str(tiny_folders(family)), device="cpu", batch_size=4,
                                                       normalize_embeddings=True)
            assert wrapper.device == "cpu" and not wrapper._jina_v4
            queries = wrapper.encode_queries(TEXTS, batch_size=4)
            corpus = wrapper.encode_corpus([{"text": t} for t in TEXTS], batch_size=4)
            cache[family] = (wrapper, queries, corpus)
        return cache[family]

    return vectors


@pytest.mark.parametrize("model_id", sorted(FAMILY_OF))
def test_official_profile_equals_coreb_runner(model_id, tiny_folders, runner_vectors):
    family = FAMILY_OF[model_id]
    wrapper, queries, corpus = runner_vectors(family)
    spec = _tiny_spec(model_id, tiny_folders(family))
    encoding = encoding_for(spec, "official", "cpu")
    encoder = load_encoder(spec, encoding, "cpu")
    assert type(encoder).__name__ == "RunnerEncoder" and encoding.max_length == 512
    assert type(encoder.model).__name__ == type(wrapper.model).__name__ == f"{family.capitalize()}Model"
    assert encoder.model.dtype == wrapper.model.dtype  # float32 both (the runner: the checkpoint's, float32 here)

    same_batches = encoder.encode(TEXTS, batch_size=4)
    assert same_batches.dtype == queries.dtype == np.float32 and same_batches.shape == queries.shape == (10, 32)
    assert np.isfinite(same_batches).all()
    assert np.abs(same_batches - queries).max() <= TOLERANCE
    assert np.array_equal(queries, corpus)  # the runner encodes both sides alike: no prompt on either
    # as a run encodes: length-sorted batches, the first of 8 (coreb_core.retrieval.encode), no prompt on either side
    assert {(p.query, p.document) for p in encoding.prompts.values()} == {("", "")}
    run_like = encode_texts(encoder, TEXTS, "", batch_size=4, normalize=spec.normalize)
    assert np.abs(run_like - queries).max() <= TOLERANCE
    assert encoder.pooling_seen == {"mean"}  # a Qwen model returns no sentence_embedding: mean over the mask
    # unit vectors; an empty text that tokenizes to nothing (Qwen2 here: no <|endoftext|> appended) has an all-zero
    # mask, so the runner's mean is 0 / 1e-9 and its vector all zeros, ours too
    empty_tokens = len(encoder.tokenizer("")["input_ids"])
    norms = np.linalg.norm(same_batches, axis=1)
    assert np.allclose(norms, [1.0 if t or empty_tokens else 0.0 for t in TEXTS], atol=1e-5)
    assert empty_tokens == (1 if FAMILIES[family].append_eos else 0)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_official_profile_truncates_at_512_tokens(family, tiny_folders, runner_vectors):
    """Texts equal in their first 512 tokens get one vector (runner and ours); a change before token 512 shows."""
    wrapper = runner_vectors(family)[0]
    spec = _tiny_spec(FAMILIES[family].registry_ids[0], tiny_folders(family))
    encoder = load_encoder(spec, encoding_for(spec, "official", "cpu"), "cpu")
    assert len(encoder.tokenizer(LONG, truncation=True, max_length=512)["input_ids"]) == 512
    tail_changed = LONG + " print"  # the 721st word differs: beyond the 512 kept
    early_changed = " ".join(WORDS * 40) + " print " + " ".join(WORDS * 20)  # the 441st word differs
    ours = encoder.encode([LONG, tail_changed, early_changed], batch_size=3)
    theirs = wrapper.encode_queries([LONG, tail_changed, early_changed], batch_size=3)
    assert np.abs(ours - theirs).max() <= TOLERANCE
    assert np.abs(ours[0] - ours[1]).max() == 0.0
    assert np.abs(ours[0] - ours[2]).max() > 1e-4  # one token of 512 in a mean: small, far above rounding (1e-7)


# ------------------------------------------------------------------ card: load_encoder vs sentence-transformers

def _reference_st(folder: Path, padding_side: str, max_length: int):
    """sentence-transformers with the card's settings, loaded without the project's code."""
    from sentence_transformers import SentenceTransformer

    # processor_kwargs: sentence-transformers 6's name for what load_dense passes as tokenizer_kwargs (deprecated)
    model = SentenceTransformer(str(folder), device="cpu", processor_kwargs={"padding_side": padding_side})
    model.max_seq_length = max_length
    return model


def _card_settings(model_id: str) -> tuple:
    spec = REGISTRY[model_id]
    return FAMILY_OF[model_id], tuple(sorted(spec.card.items())), spec.card_max_length, spec.card_padding_side, \
        spec.dtype, spec.normalize


# One registry model per distinct card setting (Qwen3-Embedding's three sizes share theirs, F2LLM's and
# jina-code's too): the others would encode the same folder with the same settings again.
CARD_MODELS = sorted({_card_settings(m): m for m in sorted(FAMILY_OF, reverse=True)}.values())


def test_card_models_cover_every_card_setting():
    assert CARD_MODELS == ["bge-code-v1", "f2llm-0.6b", "jina-code-0.5b", "qwen3-embedding-0.6b"]
    assert {_card_settings(m) for m in FAMILY_OF} == {_card_settings(m) for m in CARD_MODELS}


@pytest.mark.parametrize("model_id", CARD_MODELS)
def test_card_profile_applies_the_cards_prompts_pooling_padding_and_length(model_id, tiny_folders):
    family = FAMILIES[FAMILY_OF[model_id]]
    registry = REGISTRY[model_id]
    spec = _tiny_spec(model_id, tiny_folders(family.name))
    encoding = encoding_for(spec, "card", "cpu")
    # the registry's card prompts, verbatim, per task and side (not the folder's config_sentence_transformers.json)
    assert encoding.prompts == registry.card and set(encoding.prompts) == set(TASK_NAMES)
    assert (encoding.backend, encoding.max_length, encoding.precision) == ("sentence-transformers",
                                                                          registry.card_max_length, "float32")
    model = load_encoder(spec, encoding, "cpu")
    side = registry.card_padding_side or family.padding_side  # the card's, else the tokenizer's own
    assert type(model).__name__ == "SentenceTransformer"
    assert model.max_seq_length == registry.card_max_length
    assert model.tokenizer.padding_side == side
    assert [type(m).__name__ for m in model] == ["Transformer", "Pooling", "Normalize"]
    assert model[1].pooling_mode == family.pooling
    reference = _reference_st(Path(spec.name), side, registry.card_max_length)

    for task in TASK_NAMES:
        for side_name in ("query", "document"):
            prompt = getattr(encoding.prompt(task), side_name)
            assert prompt == getattr(registry.card[task], side_name)
            ours = encode_texts(model, TEXTS, prompt, batch_size=4, normalize=spec.normalize)
            theirs = reference.encode([prompt + t for t in TEXTS], batch_size=4, normalize_embeddings=True,
                                      convert_to_numpy=True)
            assert np.isfinite(ours).all() and ours.shape == theirs.shape == (10, 32)
            assert np.abs(ours - theirs).max() <= TOLERANCE, (task, side_name)
    if any(p.query for p in registry.card.values()):
        # the prompt is really in the vectors: the same texts without it differ
        task = next(t for t, p in registry.card.items() if p.query)
        bare = reference.encode(TEXTS, batch_size=4, normalize_embeddings=True, convert_to_numpy=True)
        ours = encode_texts(model, TEXTS, encoding.prompt(task).query, batch_size=4, normalize=True)
        assert np.abs(ours - bare).max() > 1e-3


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_card_pooling_is_the_last_token_over_the_card_length(family, tiny_folders):
    """The card vectors are the normalised hidden state of each text's last real token (checked by hand with
    transformers), not the official profile's mean; texts are cut at the card's length, not at 512."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    model_id = FAMILIES[family].registry_ids[0]
    spec = _tiny_spec(model_id, tiny_folders(family))
    card = load_encoder(spec, encoding_for(spec, "card", "cpu"), "cpu")
    official = load_encoder(spec, encoding_for(spec, "official", "cpu"), "cpu")
    texts = [t for t in TEXTS if t]
    ours = encode_texts(card, texts, "", batch_size=4, normalize=True)

    tokenizer = AutoTokenizer.from_pretrained(spec.name)
    transformer = AutoModel.from_pretrained(spec.name, dtype=torch.float32).eval()
    by_hand = []
    for text in texts:  # one at a time: no padding, so the last token is the last position
        encoded = tokenizer([text], return_tensors="pt")
        with torch.no_grad():
            last = transformer(**encoded).last_hidden_state[0, -1]
        by_hand.append(torch.nn.functional.normalize(last, dim=0).numpy())
    assert np.abs(ours - np.stack(by_hand)).max() <= TOLERANCE
    assert np.abs(ours - official.encode(texts)).max() > 1e-2  # last token is not the mean

    length = REGISTRY[model_id].card_max_length
    longer = " ".join(WORDS * (length // 10))
    assert len(tokenizer(longer)["input_ids"]) > length
    kept = card.preprocess([longer])["input_ids"]
    assert kept.shape[-1] == length  # the card's length (8192 for Qwen3-Embedding and jina-code), well past 512


def test_card_padding_side_is_the_specs_when_it_gives_one(tiny_folders):
    """A card padding side (C2LLM's "left" in the registry) reaches the tokenizer, and the vectors are those of
    sentence-transformers loaded with that side. Either side gives the same vectors to rounding: its last-token
    pooling reads the last unmasked position, and RoPE sees relative positions only."""
    vectors = {}
    for side in ("right", "left"):
        spec = _tiny_spec("jina-code-0.5b", tiny_folders("qwen2"))._replace(card_padding_side=side)
        model = load_encoder(spec, encoding_for(spec, "card", "cpu"), "cpu")
        assert model.tokenizer.padding_side == side
        mask = model.preprocess(["a", "def add ( a , b )"])["attention_mask"][0].tolist()
        assert mask == ([1] + [0] * 6 if side == "right" else [0] * 6 + [1])
        reference = _reference_st(Path(spec.name), side, spec.card_max_length)
        prompt = spec.card["t2c"].query
        vectors[side] = encode_texts(model, TEXTS, prompt, batch_size=4, normalize=True)
        theirs = reference.encode([prompt + t for t in TEXTS], batch_size=4, normalize_embeddings=True)
        assert np.abs(vectors[side] - theirs).max() <= TOLERANCE
    assert np.abs(vectors["right"] - vectors["left"]).max() <= TOLERANCE
