"""Train a cross-encoder reranker the protocol's way: on a release's samples (one positive, its hard and easy
negatives), with sentence-transformers' ``CrossEncoderTrainer`` and its listwise ``LambdaLoss`` (each sample is one
list: the positive labelled 1, its negatives 0), then rerank another release with it (``run --rerank DIR``).

Training never sees the test release, and the guard fails closed: every line of the samples file must be tied to
one and the same cached release (its query's text under its query id and task, its positives' texts under their
ids), not the test release (``--test-release``, the protocol's release_v2603 by default, which must be cached) and
sharing no source problem with it; otherwise a one-line error names the first line that fails. The trained
reranker records that release (the protocol trains on release_v2602 and tests on release_v2603, which share no
problem). The loss is measured
on held-out queries of the training samples before and after training. The model is written to a temporary
folder beside ``out`` and renamed into place when complete, with ``coreb_reranker.json`` (what it was trained on,
how, and its losses): a cancelled or failed training leaves nothing behind.

Example (a few seconds: a tiny bounded training on CoREB-mini's samples; skipped here, see
tests/training/test_reranker.py and tests/real/test_real_training.py):
    >>> result = train_reranker(samples_file, "minilm", out, TrainingConfig(max_steps=4, batch_size=2))  # doctest: +SKIP
    >>> result.loss_after < result.loss_before  # doctest: +SKIP
    True
"""
from __future__ import annotations

import json
import random
import shutil
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from coreb_core.errors import CorebError
from coreb_core.progress import Progress, silent
from coreb_core.retrieval.device import check_device
from coreb_core.retrieval.models import (
    check_length_fits,
    ensure_available,
    folder_positions,
    package_versions,
    pick_device,
    resolve,
)
from coreb_core.retrieval.pair_cut import cut_groups
from coreb_core.training.sample_files import read_numbered_samples, release_indexes, samples_release
from coreb_core.training.samples import PROTOCOL_TEST, PROTOCOL_TRAIN, Sample, test_release_of

PROVENANCE = "coreb_reranker.json"  # beside the weights: what the reranker was trained on and how


class TrainingConfig(NamedTuple):
    """How to train. ``negatives`` per sample enter its list (its hard negatives first, then its easy ones);
    ``max_steps`` bounds the training (None: ``epochs`` full passes); ``eval_samples`` are held out (whole
    queries) to measure the loss before and after."""

    epochs: float = 1.0
    max_steps: int | None = None
    batch_size: int = 8
    negatives: int = 7
    learning_rate: float = 5e-5
    max_length: int = 256
    eval_samples: int = 64
    seed: int = 0
    device: str = "auto"


class TrainingResult(NamedTuple):
    """What a training did: where the reranker is, the release its samples came from, the samples trained on
    and held out, the steps taken, the held-out loss before and after, the first and last logged training
    losses, the device and the wall time."""

    out: Path
    release: str  # the cached release every sample is tied to (the leak guard's check), never the test release
    trained: int
    held_out: int
    steps: int
    loss_before: float
    loss_after: float
    train_loss_first: float | None
    train_loss_last: float | None
    device: str
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {**self._asdict(), "out": str(self.out)}


def check_config(config: TrainingConfig) -> TrainingConfig:
    """``config`` when every number is usable; a one-line CorebError naming the option otherwise.

    >>> check_config(TrainingConfig(batch_size=0))
    Traceback (most recent call last):
    coreb_core.errors.CorebError: --batch-size: must be at least 1, not 0
    """
    for name, value, low in (("batch-size", config.batch_size, 1), ("negatives", config.negatives, 1),
                             ("max-length", config.max_length, 16), ("eval-samples", config.eval_samples, 1)):
        if value < low:
            raise CorebError(f"--{name}: must be at least {low}, not {value}")
    if config.max_steps is not None and config.max_steps < 1:
        raise CorebError(f"--max-steps: must be at least 1, not {config.max_steps}")
    if not (0 < config.epochs <= 100):
        raise CorebError(f"--epochs: must be more than 0 and at most 100, not {config.epochs}")
    if not (0 < config.learning_rate < 1):
        raise CorebError(f"--learning-rate: must be between 0 and 1, not {config.learning_rate}")
    check_device(config.device)
    return config


def base_model_path(base: str) -> str:
    """The weights a training starts from: ``minilm`` (the bundled all-MiniLM-L6-v2), a local folder, or a hub
    name; a one-line CorebError when it is no transformers model that can carry a cross-encoder's head.

    >>> base_model_path("bm25")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: --base bm25: a lexical model has no weights; a cross-encoder starts from a transformers model (e.g. minilm, the bundled all-MiniLM-L6-v2)
    """
    given = Path(base).expanduser()
    if given.is_file():
        raise CorebError(f"--base {base}: a file, not a model folder")
    if base.startswith((".", "/", "~")) and not given.is_dir():
        raise CorebError(f"--base {base}: no such model folder")
    spec = resolve(base)
    if spec.kind == "bm25":
        raise CorebError(f"--base {base}: a lexical model has no weights; a cross-encoder starts from a transformers "
                         "model (e.g. minilm, the bundled all-MiniLM-L6-v2)")
    if spec.kind == "api":
        raise CorebError(f"--base {base}: an API model has no weights here; a cross-encoder starts from a "
                         "transformers model (e.g. minilm)")
    folder = Path(spec.name)
    if not folder.is_dir():
        ensure_available(spec)  # a hub name: cached, or a one-line error offline
        return spec.name
    from transformers import AutoConfig
    from transformers.models.auto.modeling_auto import MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES

    try:
        config = AutoConfig.from_pretrained(str(folder))
    except (OSError, ValueError) as exc:
        raise CorebError(f"--base {base}: not a transformers model folder "
                         f"({' '.join(str(exc).split())[:160]})") from None
    if config.model_type not in MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES:
        raise CorebError(f"--base {base}: a {config.model_type!r} model cannot carry a cross-encoder's "
                         "classification head")
    return str(folder)


def _lists(samples: list[Sample], negatives: int) -> dict[str, list]:
    """The listwise rows LambdaLoss reads: the query, its documents (positive first) and their labels."""
    queries, docs, labels = [], [], []
    for s in samples:
        negs = [p.text for p in (*s.hard_neg, *s.easy_neg)][:negatives]
        for pos in s.pos:
            queries.append(s.query)
            docs.append([pos.text, *negs])
            labels.append([1.0] + [0.0] * len(negs))
    return {"query": queries, "docs": docs, "labels": labels}


def _cut_rows(tokenizer: Any, max_length: int, rows: dict[str, list]) -> dict[str, list]:
    """A batch of ``_lists`` rows with each (query, documents) group cut by ``cut_groups``: the model reads the same
    token ids, and the tokenizer no longer builds every overflow window of two long code texts (most of the
    tokenizing of a training step on code)."""
    cut = cut_groups(tokenizer, list(zip(rows["query"], rows["docs"])), max_length)
    return {**rows, "query": [q for q, _ in cut], "docs": [ds for _, ds in cut]}


def _split(samples: list[Sample], held_out: int, seed: int) -> tuple[list[Sample], list[Sample]]:
    """(train, held out): whole queries, a seeded choice, until ``held_out`` samples (a query's samples stay on
    one side, so the held-out loss is on queries the training never saw)."""
    ids = sorted({s.query_id for s in samples})
    random.Random(f"coreb-held-out:{seed}").shuffle(ids)
    per_query: dict[str, int] = {}
    for s in samples:
        per_query[s.query_id] = per_query.get(s.query_id, 0) + 1
    chosen: set[str] = set()
    n = 0
    for q in ids:
        if n >= held_out or len(chosen) >= len(ids) - 1:
            break
        chosen.add(q)
        n += per_query[q]
    return [s for s in samples if s.query_id not in chosen], [s for s in samples if s.query_id in chosen]


def check_training_samples(path: Path, test_release: str | None, root: Path | None = None
                           ) -> tuple[list[Sample], str]:
    """The samples of ``path`` and the cached release they are tied to; the protocol's leak guard, which fails
    closed. ``test_release`` None: the test release of the benchmark the samples are tied to (``test_release_of``:
    demo_v2603 for CoREB-mini's, release_v2603 for CoREB's). A one-line error naming the file and the first line that
    fails when: ``test_release`` is empty or not cached (nothing to check against); a line is tied to no cached release, or to another release than the lines
    above it (its query's text under its query id and task, its positives' texts under their ids); the file is tied
    to the test release (a mined file of the test release included); a line's query shares its source problem with
    the test release. Each release's Store is opened once, and each line costs a set lookup.

    >>> check_training_samples(Path("train.jsonl"), "")
    Traceback (most recent call last):
    coreb_core.errors.CorebError: --test-release: name the release the reranker will be tested on; the leak guard checks the samples of train.jsonl against it (the protocol's: release_v2603)
    """
    if test_release is not None and not test_release:
        raise CorebError("--test-release: name the release the reranker will be tested on; the leak guard checks "
                         f"the samples of {path} against it (the protocol's: {PROTOCOL_TEST})")
    numbered = read_numbered_samples(path)
    indexes = release_indexes(root)
    if test_release is None:  # not named: the test release of the samples' own benchmark (CoREB-mini's or CoREB's)
        test_release = test_release_of(samples_release(numbered, path, indexes).release)
    if test_release not in indexes:
        raise CorebError(f"--test-release {test_release}: not in the cache, so the samples of {path} cannot be "
                         "checked against it (the leak guard fails closed); import it, or name the cached release "
                         "the reranker will be tested on")
    source = samples_release(numbered, path, indexes)
    first = numbered[0][0]
    if test_release in source.releases:
        raise CorebError(f"{path}: row {first}: these are samples of {test_release}, the test release (as is every "
                         "row of the file; mined negatives of the test release are for analysis, not training): train "
                         f"on another release's samples (the protocol trains on {PROTOCOL_TRAIN}), or name another "
                         "--test-release")
    tested = indexes[test_release].problems
    shared = {p for p in source.problems.values() if p in tested}
    for line, problem in source.problems.items():
        if problem in tested:
            raise CorebError(f"{path}: row {line}: its query's source problem {problem} is also a problem of the test "
                             f"release {test_release} ({len(shared)} of the file's problems are); the protocol trains "
                             "on problems it never tests")
    return [s for _, s in numbered], source.release


def base_positions(weights: str) -> int | None:
    """The positions of the base model ``base_model_path`` found: its folder's ``config.json``, or a hub model's
    cached config; None when it cannot be told here (the training then meets the model's own limit)."""
    folder = Path(weights)
    if folder.is_dir():
        return folder_positions(folder)
    try:
        from transformers import AutoConfig

        positions = getattr(AutoConfig.from_pretrained(weights), "max_position_embeddings", None)
    except (OSError, ValueError):
        return None
    return positions if isinstance(positions, int) and positions > 0 else None


DEFAULT_CONFIG = TrainingConfig()


def train_reranker(samples_path: Path, base: str, out: Path, config: TrainingConfig = DEFAULT_CONFIG,
                   test_release: str | None = None, progress: Progress = silent,
                   root: Path | None = None) -> TrainingResult:
    """Train a cross-encoder from ``base`` on the samples file and write it to the new folder ``out`` (see the
    module). ``progress`` gets a report per step; a ``RunCancelled`` raised there stops the training and leaves
    nothing behind."""
    start = time.perf_counter()
    config = check_config(config)
    out = Path(out)
    if out.is_file():
        raise CorebError(f"{out} is a file; name a new folder for the reranker")
    if out.exists() and any(out.iterdir()):
        raise CorebError(f"{out}: the folder exists and is not empty; name a new folder for the reranker")
    weights = base_model_path(base)  # before the samples are read: the cheaper refusal first
    check_length_fits("--max-length", config.max_length, base_positions(weights))
    samples, release = check_training_samples(Path(samples_path), test_release, root)
    device = pick_device(config.device)
    train, held = _split(samples, config.eval_samples, config.seed)
    if not train:
        raise CorebError(f"{samples_path}: too few samples to train on ({len(samples)}) once "
                         f"{config.eval_samples} are held out; lower --eval-samples")
    if not held:
        raise CorebError(f"{samples_path}: its {len(samples)} samples are of one query; the held-out loss needs whole "
                         "queries of their own: give samples of at least two queries")
    progress("loading the base model", 0.01)
    import torch
    from datasets import Dataset
    from sentence_transformers.cross_encoder import CrossEncoder, CrossEncoderTrainer, CrossEncoderTrainingArguments
    from sentence_transformers.cross_encoder.losses import LambdaLoss
    from transformers import TrainerCallback, set_seed
    from transformers.trainer_callback import PrinterCallback

    set_seed(config.seed)
    model = CrossEncoder(weights, num_labels=1, max_length=config.max_length, device=device)
    train_set, held_set = Dataset.from_dict(_lists(train, config.negatives)), Dataset.from_dict(_lists(held, config.negatives))
    for rows in (train_set, held_set):  # each row as the collator reads it, cut to the ids its truncation keeps
        rows.set_transform(partial(_cut_rows, model.tokenizer, config.max_length))
    losses: list[tuple[int, float]] = []

    class Report(TrainerCallback):  # progress per step; a cancel raised by ``progress`` stops the trainer here
        def on_step_end(self, args, state, control, **kwargs):
            progress(f"training: step {state.global_step}/{state.max_steps}", 0.05 + 0.9 * state.global_step
                     / max(1, state.max_steps))

        def on_log(self, args, state, control, logs=None, **kwargs):
            if logs and "loss" in logs:
                losses.append((state.global_step, float(logs["loss"])))

    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        args = CrossEncoderTrainingArguments(
            output_dir=str(work / "checkpoints"), num_train_epochs=config.epochs,
            max_steps=config.max_steps or -1, per_device_train_batch_size=config.batch_size,
            per_device_eval_batch_size=config.batch_size, learning_rate=config.learning_rate, warmup_steps=0.1,
            logging_steps=max(1, min(10, (config.max_steps or 10) // 5)), save_strategy="no", eval_strategy="no",
            report_to="none", seed=config.seed, data_seed=config.seed, disable_tqdm=True,
            use_cpu=device == "cpu", dataloader_num_workers=0)
        trainer = CrossEncoderTrainer(model=model, args=args, train_dataset=train_set, eval_dataset=held_set,
                                      loss=LambdaLoss(model), callbacks=[Report()])
        trainer.remove_callback(PrinterCallback)  # it prints every log dict to stdout: progress goes through ours
        progress("measuring the held-out loss before training", 0.03)
        before = float(trainer.evaluate()["eval_loss"])
        trainer.train()
        progress("measuring the held-out loss after training", 0.96)
        after = float(trainer.evaluate()["eval_loss"])
        steps = int(trainer.state.global_step)
        shutil.rmtree(work / "checkpoints", ignore_errors=True)
        model.save_pretrained(str(work / "model"))
        result = TrainingResult(out, release, len(train), len(held), steps, round(before, 6), round(after, 6),
                                losses[0][1] if losses else None, losses[-1][1] if losses else None, device,
                                round(time.perf_counter() - start, 1))
        provenance = {**result.to_json(), "samples_file": str(Path(samples_path).resolve()), "base": base,
                      "base_weights": weights, "config": config._asdict(), "loss": "LambdaLoss (NDCGLoss2++)",
                      "test_release": test_release, "train_losses": losses, "packages": package_versions(),
                      "torch_threads": torch.get_num_threads(), "created": time.strftime("%Y-%m-%dT%H:%M:%S")}
        (work / "model" / PROVENANCE).write_text(json.dumps(provenance, indent=1), encoding="utf-8")
        if out.exists():
            out.rmdir()  # empty (checked above): the rename below needs the name free
        (work / "model").rename(out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    progress("done", 1.0)
    return result


def reranker_provenance(folder: Path | str) -> dict[str, Any] | None:
    """The ``coreb_reranker.json`` of a reranker trained here, or None (a reranker from elsewhere).

    >>> reranker_provenance("/nonexistent") is None
    True
    """
    path = Path(folder) / PROVENANCE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
