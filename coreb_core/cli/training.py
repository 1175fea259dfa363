"""Verbs of training data: the reranker protocol's samples (samples), hard negatives mined from a run (mine) and a
cross-encoder trained on samples (train-reranker)."""
from __future__ import annotations

import argparse
import json
import sys

from coreb_core.atomic import check_target, remove_stale_cache_temps, remove_stale_temps
from coreb_core.cli.registry import COUNT, DEVICE, command
from coreb_core.errors import CorebError
from coreb_core.input_paths import check_input_path
from coreb_core.text import terminal_safe


def _whole(text: str) -> int:
    """A whole number of 0 or more (``--hard 0`` asks for no hard negatives)."""
    if not (text.strip().isascii() and text.strip().isdigit()):
        raise argparse.ArgumentTypeError(f"must be a whole number of 0 or more, not {text!r}")
    return int(text)


def _samples_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.training.samples import EASY, HARD, RULES, SEED

    p.add_argument("--release", required=True)
    p.add_argument("--out", required=True, help="the file to write: JSON lines (.jsonl), or parquet (.parquet)")
    p.add_argument("--rule", choices=RULES, default=None,
                   help="train: every subtask (the article's 3,803 on release_v2602); test: every subtask but "
                        "c2t_match (its 3,692 on release_v2603). Default: test for release_v2603, train otherwise")
    p.add_argument("--hard", type=_whole, default=HARD, help="up to this many of the query's rel=1 documents")
    p.add_argument("--easy", type=_whole, default=EASY,
                   help="this many unjudged documents of other problems from the task's corpus")
    p.add_argument("--seed", type=_whole, default=SEED, help="which negatives (the same seed gives the same file)")
    p.add_argument("--json", action="store_true", help="the counts as one JSON object")


@command("samples", arguments=_samples_arguments,
         help="the reranker protocol's samples of a release (1 positive, hard and easy negatives), as JSON lines")
def _samples(args: argparse.Namespace) -> int:
    from coreb_core.training.sample_files import write_samples
    from coreb_core.views import training
    from coreb_core.views.output import render

    out = check_target(args.out, hint="name a file such as train.jsonl")
    view = training.samples(args.release, args.rule, args.hard, args.easy, args.seed)
    write_samples(view.samples, out)
    print(render(view, args.json))
    if not args.json:
        print(f"wrote {terminal_safe(str(out))}")
    return 0


def _mine_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.training.mining import FORMATS, TRIPLETS, K

    p.add_argument("--run", required=True, help="a stored run id")
    p.add_argument("--out", required=True, help="the file to write: JSON lines (.jsonl), or parquet (.parquet)")
    p.add_argument("--k", type=COUNT, default=K, help="negatives per query: the run's top k non-positives")
    p.add_argument("--format", choices=FORMATS, default=TRIPLETS,
                   help="triplets: anchor, positive, negative_1 … (sentence-transformers' n-tuple); samples: the "
                        "protocol's schema, each negative with its rank and grade (trap, judged_negative, unjudged)")
    p.add_argument("--keep-correct", action="store_true",
                   help="keep the documents the executed view makes relevant (passing code of the query's problem in "
                        "a positive's language), labelled passing_trap, passing_judged_negative or passing_unjudged; "
                        "left out by default. --format samples only (a triplet has no place for a label)")
    p.add_argument("--test-release", default=None,
                   help="the release a reranker is tested on: mining it is for analysis, not training, and the output "
                        "says so (default: the run's benchmark's test release, release_v2603 or CoREB-mini's "
                        "demo_v2603)")
    p.add_argument("--json", action="store_true", help="the counts as one JSON object")


@command("mine", arguments=_mine_arguments,
         help="hard negatives mined from a run: its top non-positives per query (rel=2 and passing code of the "
              "query's problem never a negative)")
def _mine(args: argparse.Namespace) -> int:
    from coreb_core.training.mining import check_format, write_mined
    from coreb_core.views import training
    from coreb_core.views.output import render

    check_format(args.format, args.keep_correct)  # before the run is read: the cheaper refusal first
    out = check_target(args.out, hint="name a file such as negatives.jsonl")
    if args.test_release is not None and not args.test_release:
        raise CorebError("--test-release: name a release (or leave the option out for the run's benchmark's)")
    # what a killed mine left: its .<out>.tmp beside --out (any earlier --out of this folder), and cache temporaries
    remove_stale_temps([out.absolute().parent], suffixes=(".jsonl", ".parquet"))
    remove_stale_cache_temps()
    view = training.mined(args.run, args.k, keep_correct=args.keep_correct, test_release=args.test_release)
    rows = write_mined(view.mined, out, args.format)
    print(render(view, args.json))
    if not args.json:
        print(f"wrote {rows:,} {args.format} rows to {terminal_safe(str(out))}")
    return 0


def _train_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.training.reranker import TrainingConfig

    d = TrainingConfig()
    p.add_argument("--samples", required=True, help="a samples file (python -m coreb_core samples / mine --format samples)")
    p.add_argument("--base", required=True,
                   help="the weights to start from: minilm (the bundled all-MiniLM-L6-v2, a fresh head), a local "
                        "transformers folder, or a hub name")
    p.add_argument("--out", required=True, help="a new folder for the trained reranker")
    p.add_argument("--epochs", type=float, default=d.epochs)
    p.add_argument("--max-steps", type=COUNT, default=None, help="stop after this many steps (bounds the time)")
    p.add_argument("--batch-size", type=COUNT, default=d.batch_size, help="samples per step")
    p.add_argument("--negatives", type=COUNT, default=d.negatives,
                   help="negatives per sample in its list, hard ones first (default 7: 3 hard, 4 easy)")
    p.add_argument("--learning-rate", type=float, default=d.learning_rate)
    p.add_argument("--max-length", type=COUNT, default=d.max_length, help="tokens per (query, document) pair")
    p.add_argument("--eval-samples", type=COUNT, default=d.eval_samples,
                   help="held out (whole queries) to measure the loss before and after")
    p.add_argument("--seed", type=_whole, default=d.seed)
    p.add_argument("--device", type=DEVICE, default=d.device)
    p.add_argument("--test-release", default=None,
                   help="refuse samples of this release or sharing a problem with it; it must be cached (default: the "
                        "test release of the samples' benchmark, release_v2603 for CoREB's, demo_v2603 for CoREB-mini's). "
                        "Every line of --samples must be tied to one other cached release")
    p.add_argument("--json", action="store_true", help="the result as one JSON object")


@command("train-reranker", arguments=_train_arguments,
         help="train a cross-encoder on samples with sentence-transformers' CrossEncoderTrainer (run --rerank uses it)")
def _train(args: argparse.Namespace) -> int:
    from coreb_core.progress import TqdmProgress
    from coreb_core.training.reranker import TrainingConfig, check_config, train_reranker

    config = check_config(TrainingConfig(args.epochs, args.max_steps, args.batch_size, args.negatives,
                                         args.learning_rate, args.max_length, args.eval_samples, args.seed, args.device))
    out = check_target(args.out, folder=True, hint="name a new folder for the reranker")
    samples = check_input_path(args.samples)
    if samples.is_dir():
        raise CorebError(f"{samples} is a folder; --samples names a samples file")
    bar = TqdmProgress(f"training from {args.base}")
    try:
        result = train_reranker(samples, args.base, out, config, args.test_release, bar)
    finally:
        bar.close()
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return 0
    print(f"trained {terminal_safe(str(result.out))} from {terminal_safe(args.base)} on {result.trained:,} samples of "
          f"{result.release} ({result.held_out} held out): {result.steps} steps in "
          f"{result.seconds:.0f} s on {result.device}")
    print(f"  held-out loss {result.loss_before:.4f} before, {result.loss_after:.4f} after")
    print(f"  rerank with it: python -m coreb_core run --model M --release R --rerank {terminal_safe(str(result.out))}",
          file=sys.stdout)
    return 0
