"""Encoding profiles: how a run turns text into vectors, and against what it can be checked.

- ``official`` (the default) encodes as the published CoREB numbers were made: coreb_runner 0.1.0's
  ``HuggingFaceWrapper`` (``coreb_core.retrieval.runner_encoder``): transformers AutoTokenizer/AutoModel, no
  prompt on either side, 512 tokens, mean pooling over the attention mask (or the model's own
  ``sentence_embedding`` output), L2-normalised, float32. Compare its numbers with the leaderboard.
- ``card`` encodes as each model's own card says: sentence-transformers with the model's modules
  (its own pooling), the card's prompts verbatim per task and side (``ModelSpec.card``), the card's
  length. Compare it with the models' own reports (MTEB and the like), not with the leaderboard.

The profile is part of a run's provenance, of its label (``coreb_core.runs.meta.run_name``) and of the
embedding cache's identity, so vectors of one profile are never served to the other.

Example:
    >>> from coreb_core.retrieval.models import resolve
    >>> enc = encoding_for(resolve("minilm"), "official", "cpu")
    >>> enc.backend, enc.max_length, enc.prompts["t2c"].query
    ('transformers', 512, '')
"""
from __future__ import annotations

import hashlib
import json
import pickle
from pathlib import Path
from typing import Literal, NamedTuple

from coreb_core.errors import CorebError
from coreb_core.retrieval.models import (
    REGISTRY,
    TASK_NAMES,
    ModelSpec,
    TaskPrompts,
    load_dense,
    precision_for,
)
from coreb_core.retrieval.runner_encoder import OFFICIAL_MAX_LENGTH, OFFICIAL_PRECISION, RunnerEncoder

PROFILES = ("official", "card")
Profile = Literal["official", "card"]  # PROFILES as a type
DEFAULT_PROFILE = "official"

OFFICIAL_POOLING = ("mean of the last hidden state over the attention mask, or the model's own sentence_embedding "
                    "output when its forward returns one (coreb_runner models.py:158-171)")
OFFICIAL_NOTE = ("coreb_runner 0.1.0 HuggingFaceWrapper (benchmark/models.py:46-218): AutoTokenizer/AutoModel, no "
                 "prompt on queries or documents, truncation at 512 tokens, padding to the longest in the batch, "
                 f"{OFFICIAL_POOLING}, L2-normalised; loaded in float32. Compare with the published leaderboard.")
GEMINI_NOTE = ("coreb_runner 0.1.0 GeminiEmbeddingWrapper (benchmark/models.py:221-412): google-genai embed_content with "
               "task_type RETRIEVAL_QUERY for queries (401-405) and RETRIEVAL_DOCUMENT for documents (407-412), the "
               "API's default output size, empty texts sent as ' ' (326). Re-run here through the same client "
               "(coreb_core.retrieval.api_encoders; docs/api-models.md).")
API_POOLING = "the provider's own (an API returns one vector per text)"


class Encoding(NamedTuple):
    """Everything that fixes a model's vectors under one profile (the model itself aside).

    >>> from coreb_core.retrieval.models import resolve
    >>> enc = encoding_for(resolve("jina-code-0.5b"), "card", "cpu")
    >>> enc.backend, enc.max_length, enc.precision, enc.prompt("c2t").document
    ('sentence-transformers', 8192, 'float32', 'Candidate comment:\\n')
    >>> encoding_for(resolve("minilm"), "official", "cpu").describe()["prompts"]["t2c"]
    {'query': '', 'document': '', 'source': 'coreb_runner adds no prompt (models.py:173-182)'}
    """
    profile: str
    backend: str  # "transformers" (AutoModel, as coreb_runner), "openvino" (the same model exported, on the CPU)
    # or "sentence-transformers" (the model's modules)
    max_length: int | None  # tokens kept per text; None = the model's own maximum
    precision: str  # float32 / float16 / bfloat16
    pooling: str
    prompts: dict[str, TaskPrompts]  # task -> (query, document, source)
    note: str  # what this profile reproduces, and where that was read

    def prompt(self, task: str) -> TaskPrompts:
        """The prompts of ``task``'s two sides (empty ones when the profile has none for it).

        >>> from coreb_core.retrieval.models import resolve
        >>> encoding_for(resolve("minilm"), "official", "cpu").prompt("t2c")
        TaskPrompts(query='', document='', source='coreb_runner adds no prompt (models.py:173-182)')
        """
        return self.prompts.get(task, TaskPrompts("", "", "no prompt"))

    def describe(self) -> dict:
        """A JSON-ready dict of the encoding (stored in a run's provenance).

        >>> from coreb_core.retrieval.models import resolve
        >>> sorted(encoding_for(resolve("minilm"), "official", "cpu").describe())
        ['backend', 'max_length', 'note', 'pooling', 'precision', 'profile', 'prompts']
        """
        return {**self._asdict(), "prompts": {t: p._asdict() for t, p in self.prompts.items()}}


def check_profile(profile: str) -> str:
    """``profile`` itself when it is a known profile, else a CorebError naming the choices.

    >>> check_profile("card")
    'card'
    >>> check_profile("fast")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: unknown profile 'fast'; use official or card
    """
    if profile not in PROFILES:
        raise CorebError(f"unknown profile {profile!r}; use {' or '.join(PROFILES)}")
    return profile


# How the official profile runs its transformer: PyTorch fp32 (default), OpenVINO fp32, OpenVINO bf16 (CPU only).
BACKENDS = ("torch", "openvino", "openvino-bf16")


def encoding_for(spec: ModelSpec, profile: str, device: str, backend: str = "torch") -> Encoding:
    """How ``spec`` encodes under ``profile`` on ``device`` (a dense model; BM25 has no encoder). ``backend``
    "openvino" / "openvino-bf16" run the official profile's transformer on OpenVINO (CPU only; the same weights,
    in float32 / bfloat16).

    >>> from coreb_core.retrieval.models import resolve
    >>> enc = encoding_for(resolve("minilm"), "official", "cpu")
    >>> enc.profile, enc.backend, enc.max_length, enc.precision
    ('official', 'transformers', 512, 'float32')
    >>> enc = encoding_for(resolve("minilm"), "official", "cpu", backend="openvino-bf16")
    >>> enc.backend, enc.precision
    ('openvino', 'bfloat16')
    >>> encoding_for(resolve("minilm"), "card", "cpu", backend="openvino")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: --backend openvino runs the official profile on the CPU only (asked: profile card on cpu)
    """
    check_profile(profile)
    if spec.kind == "api":
        return api_encoding(spec, profile, backend)
    if backend not in BACKENDS:
        raise CorebError(f"unknown backend {backend!r}; use {' or '.join(BACKENDS)}")
    if spec.kind != "dense":
        raise CorebError(f"{spec.id} has no encoder, so it has no encoding profile")
    if backend != "torch" and (profile != "official" or device != "cpu"):
        raise CorebError(f"--backend {backend} runs the official profile on the CPU only (asked: profile {profile} "
                         f"on {device})")
    if profile == "official":
        none = TaskPrompts("", "", "coreb_runner adds no prompt (models.py:173-182)")
        return Encoding("official", "transformers" if backend == "torch" else "openvino", OFFICIAL_MAX_LENGTH,
                        "bfloat16" if backend == "openvino-bf16" else OFFICIAL_PRECISION, OFFICIAL_POOLING,
                        {task: none for task in TASK_NAMES}, OFFICIAL_NOTE)
    prompts = dict(spec.card) if spec.id in REGISTRY else _own_prompts(spec)
    return Encoding("card", "sentence-transformers", spec.card_max_length, precision_for(spec, device),
                    "the model's own sentence-transformers modules", prompts,
                    spec.card_note or "the model's own sentence-transformers configuration")


def api_encoding(spec: ModelSpec, profile: str, backend: str = "torch") -> Encoding:
    """An API model's encoding: one profile (``official``: the provider's API as coreb_runner calls Gemini's), no
    prompt, the side sent as the provider's task type (``coreb_core.retrieval.api_encoders.PROVIDERS``).

    >>> from coreb_core.retrieval.models import resolve
    >>> enc = encoding_for(resolve("gemini-embedding-2"), "official", "cpu")
    >>> enc.backend, enc.precision, enc.prompt("c2c").source
    ('api:gemini', 'float32', 'no prompt; task type RETRIEVAL_QUERY (queries) / RETRIEVAL_DOCUMENT (documents)')
    >>> encoding_for(resolve("voyage-code-3"), "card", "cpu")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: voyage-code-3 is an API model: it has the official profile only (the provider's own encoding)
    """
    from coreb_core.retrieval.api_encoders import PROVIDERS

    if profile != "official":
        raise CorebError(f"{spec.id} is an API model: it has the official profile only (the provider's own encoding)")
    if backend != "torch":
        raise CorebError(f"{spec.id} is an API model: --backend does not apply to it")
    provider = PROVIDERS[spec.provider or ""]
    query, document = provider.task_types
    source = (f"no prompt; task type {query} (queries) / {document} (documents)" if query else
              "no prompt; the API takes no task type")
    note = GEMINI_NOTE if spec.provider == "gemini" else spec.card_note
    return Encoding("official", f"api:{provider.name}", None, "float32", API_POOLING,
                    {task: TaskPrompts("", "", source) for task in TASK_NAMES}, note)


def api_identity(spec: ModelSpec, side: str) -> str:
    """Cache folder name of one side of an API model: provider, model, output dimensions and the side's task type
    (so Gemini's query and document vectors of one text never meet; OpenAI's, which has no task type, share one).

    >>> from coreb_core.retrieval.models import resolve
    >>> gemini, openai = resolve("gemini-embedding-2"), resolve("openai-text-embedding-3-large")
    >>> api_identity(gemini, "query") != api_identity(gemini, "document"), api_identity(openai, "query") == api_identity(openai, "document")
    (True, True)
    """
    from coreb_core.retrieval.api_encoders import PROVIDERS

    parts = {"kind": "api", "provider": spec.provider, "model": spec.name, "dims": spec.dims or "default",
             "task_type": PROVIDERS[spec.provider or ""].task_type(side), "normalize": spec.normalize}
    return "api-" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:20]


def _own_prompts(spec: ModelSpec) -> dict[str, TaskPrompts]:
    """A model outside the registry: the ``query``/``document`` prompts of its own
    config_sentence_transformers.json (read without loading weights), for every task."""
    path = Path(spec.name) / "config_sentence_transformers.json"
    own = (json.loads(path.read_text()).get("prompts") or {}) if path.exists() else {}
    source = f"{path.name} of the model" if own else "the model defines no query/document prompts"
    query, document = own.get("query", ""), own.get("document", own.get("passage", ""))
    return {task: TaskPrompts(query, document, source) for task in TASK_NAMES}


def encoder_identity(spec: ModelSpec, encoding: Encoding) -> str:
    """Cache folder name: a hash of what fixes the encoder (prompts are hashed with each text
    instead, so a prompt change misses the cache for the texts it touches and nothing else).

    >>> from coreb_core.retrieval.models import resolve
    >>> spec = resolve("minilm")
    >>> encoder_identity(spec, encoding_for(spec, "official", "cpu")), encoder_identity(spec, encoding_for(spec, "card", "cpu"))
    ('99a0389adacecf3a9531', 'a4b51bca2527c46385f5')
    """
    # Registry entries are identified by id (the bundled MiniLM's path differs per install).
    return _identity(spec.id if spec.id in REGISTRY else spec.name, spec.revision, spec.normalize, spec.kind,
                     encoding.profile, encoding.backend, encoding.max_length, encoding.precision)


def _identity(name, revision, normalize, kind, profile, backend, max_length, precision) -> str:
    parts = {"name": name, "revision": revision, "normalize": normalize, "kind": kind, "profile": profile,
             "backend": backend, "max_length": max_length, "precision": precision}
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:20]


def run_encoder_identity(model_spec: dict | None, encoding: dict | None) -> str | None:
    """The identity a dense run's vectors were stored under, rebuilt from its provenance
    (``RunMeta.model_spec`` and ``RunMeta.encoding``, as ``run.json`` holds them): the same hash as
    ``encoder_identity``, so a reader finds the run's vectors without loading the model. None when the
    run has no encoder (BM25, imported and reranked runs).

    >>> from coreb_core.retrieval.models import resolve
    >>> spec = resolve("minilm")
    >>> enc = encoding_for(spec, "official", "cpu")
    >>> stored = json.loads(json.dumps([spec.describe(), enc.describe()]))   # as run.json holds them
    >>> run_encoder_identity(*stored) == encoder_identity(spec, enc), run_encoder_identity(resolve("bm25").describe(), None)
    (True, None)
    """
    if not model_spec or not encoding or model_spec.get("kind") != "dense":
        return None
    name = model_spec.get("id") if model_spec.get("id") in REGISTRY else model_spec.get("name")
    return _identity(name, model_spec.get("revision"), model_spec.get("normalize"), model_spec.get("kind"),
                     encoding.get("profile"), encoding.get("backend"), encoding.get("max_length"),
                     encoding.get("precision"))


def load_encoder(spec: ModelSpec, encoding: Encoding, device: str):
    """The encoder object for a profile; both have sentence-transformers' ``encode`` signature.

    An API model's is an ``ApiModel`` (its key read from the environment here), whose ``for_side`` gives the
    encoder of queries or documents.

    >>> from coreb_core.retrieval.models import resolve
    >>> spec = resolve("minilm")
    >>> encoder = load_encoder(spec, encoding_for(spec, "official", "cpu"), "cpu")   # doctest: +SKIP
    >>> type(encoder).__name__, encoder.encode(["def f(): pass"], batch_size=8).shape   # doctest: +SKIP
    ('RunnerEncoder', (1, 384))
    """
    if spec.kind == "api":
        from coreb_core.retrieval.api_encoders import ApiModel

        return ApiModel(spec.id, spec.provider or "", spec.name, spec.dims)
    local = Path(spec.name).is_dir()
    if encoding.backend in ("transformers", "openvino"):
        from coreb_core.retrieval.models import ensure_available

        ensure_available(spec)
        if local and not (Path(spec.name) / "config.json").exists():
            raise CorebError(f"{spec.name}: the official profile loads with transformers AutoModel, which needs "
                             "config.json at the folder's root; use --profile card for this folder")
    try:
        if encoding.backend == "openvino":
            from coreb_core.retrieval.openvino_encoder import OpenVinoEncoder

            # the exported model is the same for both precisions: named by the float32 encoding's identity
            exported = encoder_identity(spec, encoding._replace(precision=OFFICIAL_PRECISION))
            return OpenVinoEncoder.load(spec.name, exported, spec.revision, spec.trust_remote_code, encoding.precision)
        if encoding.backend == "transformers":
            return RunnerEncoder.load(spec.name, device, spec.revision, spec.trust_remote_code, encoding.precision)
        return load_dense(spec, device, encoding.precision, encoding.max_length)
    except (OSError, ValueError, KeyError, RuntimeError, pickle.UnpicklingError) as exc:
        if not local:
            raise
        # A user's folder (missing weights, an unknown architecture, a broken tokenizer, weights that do not fit
        # or unpickle, which ensure_available catches first where it can): the user can act on the first line
        # of the loader's message; the rest is a hint list for developers.
        first = (str(exc).strip().splitlines() or [""])[0][:200]
        raise CorebError(f"{spec.name}: transformers cannot load this model folder ({type(exc).__name__}: "
                         f"{first})") from None


def official_summary(spec: ModelSpec) -> str:
    """One line: what the official profile does for this model.

    >>> from coreb_core.retrieval.models import resolve
    >>> official_summary(resolve("bm25"))
    'lexical baseline (bm25s, k1=1.5, b=0.75, identifier-aware tokens): no encoder, so profiles do not apply'
    """
    if spec.kind == "api":
        return GEMINI_NOTE if spec.provider == "gemini" else spec.card_note
    if spec.kind != "dense":
        return spec.card_note
    return OFFICIAL_NOTE
