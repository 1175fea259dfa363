"""Verbs of runs and results: the model registry, running retrieval (one run, or a sweep of many), listing, naming
and exporting runs, importing results."""
from __future__ import annotations

import argparse
import json
import sys

from coreb_core.cli.registry import (
    COUNT,
    DEVICE,
    TASK_LIST,
    UsageError,
    command,
)
from coreb_core.data.schema import TASK_NAMES
from coreb_core.errors import CorebError
from coreb_core.input_paths import check_input_path
from coreb_core.text import capped, terminal_safe


def _models_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true")


@command("models", arguments=_models_arguments,
         help="the model registry")
def _models(args: argparse.Namespace) -> int:
    from coreb_core.retrieval.models import registry_table

    rows = registry_table()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'id':<22} {'kind':<6} {'params':>8}  {'re-run':<6} name — card prompts (profile card)")
    for r in rows:
        params = f"{r['params_b']:.2f}B" if r["params_b"] else "-"
        aliases = f" (also {', '.join(r['aliases'])})" if r["aliases"] else ""
        print(f"{r['id']:<22} {r['kind']:<6} {params:>8}  {'yes' if r['re_runnable'] else 'no':<6} "
              f"{r['name']}{'@' + r['revision'][:10] if r['revision'] else ''}{aliases} — {r['card_note']}")
    print("Profiles: official (default) encodes as coreb_runner 0.1.0 made the leaderboard (AutoModel, no prompts, "
          "512 tokens, mean pooling); card applies each model's own prompts verbatim (see --json for the texts).")
    print("API models (kind api): official profile only, key from an environment variable, token and cost estimate "
          "before a run (run --estimate); see docs/api-models.md.")
    print("Also accepted: a local sentence-transformers folder, or a hub name org/model.")
    return 0


def _run_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.retrieval.profiles import BACKENDS, DEFAULT_PROFILE, PROFILES

    p.add_argument("--model", required=True, help="registry id (see models), local sentence-transformers folder, or org/model")
    p.add_argument("--release", required=True)
    p.add_argument("--profile", choices=PROFILES, default=DEFAULT_PROFILE,
                   help="official (default): encode as coreb_runner 0.1.0 made the published numbers (transformers "
                        "AutoModel, no prompts, 512 tokens, mean pooling); card: as the model's own card says "
                        "(sentence-transformers, its prompts verbatim, its length)")
    p.add_argument("--backend", choices=BACKENDS, default="torch",
                   help="torch (default): the official profile on PyTorch fp32; openvino: the same model exported to "
                        "OpenVINO, fp32 (CPU only; vectors within cosine 0.9999999 of PyTorch's); openvino-bf16: the "
                        "same in bfloat16 (faster; nDCG@10 within 0.002 of fp32 on the real release). Each backend "
                        "has its own embedding cache")
    p.add_argument("--tasks", type=TASK_LIST, default=",".join(TASK_NAMES), help="comma-separated, each once")
    p.add_argument("--device", type=DEVICE, default="auto", help="auto (cuda, then mps, then cpu), cpu, cuda, cuda:1, mps")
    p.add_argument("--batch-size", type=COUNT, default=64)
    p.add_argument("--top-k", type=COUNT, default=100)
    p.add_argument("--rerank", default=None, help="a CrossEncoder folder or hub name to rerank the first stage")
    p.add_argument("--rerank-depth", type=COUNT, default=128)
    p.add_argument("--estimate", action="store_true",
                   help="API models: print the token and cost estimate (texts not in the embedding cache) and stop")


@command("run", arguments=_run_arguments,
         help="re-run retrieval for a model on a cached release (cached embeddings, exact search)")
def _run(args: argparse.Namespace) -> int:
    from coreb_core.progress import TqdmProgress
    from coreb_core.retrieval.pipeline import estimate_api_run, rerank_run, run_retrieval
    from coreb_core.runs.cost import cost_words
    from coreb_core.runs.folders import run_meta
    from coreb_core.views.scores import new_run_scores

    # An API model's token and cost estimate, before anything is sent (docs/api-models.md)
    estimate = estimate_api_run(args.model, args.release, args.tasks)
    if estimate is not None:
        print(f"estimate: {estimate.words()}", file=sys.stderr)
    if args.estimate:
        if estimate is None:
            raise UsageError("--estimate: only an API model has a token and cost estimate")
        return 0
    bar = TqdmProgress(f"{args.model} ({args.profile}) on {args.release}")
    try:
        # A reranker sees the first stage's stored prefix: store at least the rerank depth.
        top_k = max(args.top_k, args.rerank_depth) if args.rerank else args.top_k
        result = run_retrieval(args.model, args.release, args.tasks, args.device, args.batch_size, top_k, bar,
                               profile=args.profile, backend=args.backend)
    finally:
        bar.close()
    for line in result.warnings:  # a damaged embedding cache shard, re-encoded: said, not silently used
        print(f"warning: {terminal_safe(line)}", file=sys.stderr)
    print(f"run {result.run_id}: encoded {result.texts_encoded} texts in {result.seconds:.1f} s")
    print(f"  cost: {cost_words(run_meta(result.run_id).cost)}")
    for task, value in new_run_scores(result.run_id).items():
        print(f"  {task} nDCG@10 (v2) {value:.4f}")
    if args.rerank:
        bar = TqdmProgress(f"rerank with {args.rerank}")
        try:
            reranked = rerank_run(result.run_id, args.rerank, args.rerank_depth, device=args.device, progress=bar)
        finally:
            bar.close()
        print(f"run {reranked.run_id} (reranked top-{args.rerank_depth} of {result.run_id}) in {reranked.seconds:.1f} s")
        for task, value in new_run_scores(reranked.run_id).items():
            print(f"  {task} nDCG@10 (v2) {value:.4f}")
    return 0


def _sweep_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.retrieval.profiles import DEFAULT_PROFILE, PROFILES

    p.add_argument("--models", nargs="+", required=True, metavar="MODEL",
                   help="registry ids (see models), local sentence-transformers folders or org/model names")
    p.add_argument("--releases", nargs="+", required=True, metavar="RELEASE", help="cached releases")
    p.add_argument("--profiles", nargs="+", choices=PROFILES, default=[DEFAULT_PROFILE],
                   help="encoding profiles of each dense model (default: official); a lexical model has none and "
                        "runs once")
    p.add_argument("--devices", nargs="+", type=DEVICE, default=None, metavar="DEVICE",
                   help="one run at a time on each (default: every GPU of this machine, else the CPU); each must "
                        "exist here. With --ray: cpu or cuda (a GPU per dense run)")
    p.add_argument("--ray", default=None, metavar="ADDRESS",
                   help="run each item as a Ray task: local (a Ray of this machine) or HOST:PORT of a running "
                        "cluster (ray start --head), whose workers share this cache folder; needs the ray extra "
                        "(requirements-ray.txt)")
    p.add_argument("--json", action="store_true", help="the summary rows as JSON")


def _sweep_lines():
    """A sweep's progress on stderr (``SweepEvents``): a line as each run starts and ends, and one every 10 s while
    a run reports progress (several devices run at once: one bar each would tangle)."""
    import time

    from coreb_core.retrieval.sweep import STORED, SweepEvents, SweepItem, SweepRow

    class SweepLines(SweepEvents):
        EVERY_S = 10.0

        def __init__(self) -> None:
            self.number: dict[SweepItem, int] = {}
            self.last: dict[SweepItem, float] = {}
            self.total = 0

        def line(self, item: SweepItem, text: str) -> None:
            print(terminal_safe(f"[{self.number.get(item, 0)}/{self.total}] {item.title}: {text}"), file=sys.stderr,
                  flush=True)

        def planned(self, skipped: list[SweepRow], pending: list[SweepItem]) -> None:
            self.total = len(pending)
            print(f"sweep: {len(skipped) + len(pending)} runs: {len(skipped)} stored already (skipped), "
                  f"{len(pending)} to make", file=sys.stderr, flush=True)

        def started(self, item: SweepItem, device: str) -> None:
            self.number[item] = len(self.number) + 1
            self.last[item] = time.monotonic()
            self.line(item, f"started on {device}")

        def step(self, item: SweepItem, message: str, fraction: float) -> None:
            if time.monotonic() - self.last.get(item, 0.0) >= self.EVERY_S:
                self.last[item] = time.monotonic()
                self.line(item, f"{fraction:.0%} {message}")

        def ended(self, row: SweepRow) -> None:
            if row.status == STORED:
                speed = f", {row.texts_per_s:,.0f} texts/s" if row.texts_per_s else ""
                self.line(row.item, f"stored in {row.seconds:.1f} s{speed} (run {row.run_id})")
            else:
                self.line(row.item, f"failed after {row.seconds:.1f} s: {row.error}")

    return SweepLines()


@command("sweep", arguments=_sweep_arguments,
         help="one run per model, release and profile, resumable (a run already stored is skipped, a failed one "
              "retried on the next call), one at a time per GPU or as Ray tasks; a summary table; exit status 1 "
              "when some run failed, 2 for bad input")
def _sweep(args: argparse.Namespace) -> int:
    from coreb_core.retrieval.sweep import FAILED, SKIPPED, STORED, sweep

    events = _sweep_lines()
    if args.ray is not None:  # was: `--ray ''` (false) ran locally, exit 0
        from coreb_core.retrieval.sweep_ray import check_address, sweep_on_ray

        check_address(args.ray)
        result = sweep_on_ray(args.models, args.releases, args.ray, args.profiles, args.devices, events=events)
    else:
        result = sweep(args.models, args.releases, args.profiles, args.devices, events=events)
    if args.json:
        print(json.dumps([row.to_json() for row in result.rows], indent=1))
    else:
        print(f"{'model':<22} {'profile':<9} {'release':<16} {'status':<8} {'seconds':>8} {'texts/s':>10}  run")
        for row in result.rows:
            speed = f"{row.texts_per_s:,.0f}" if row.texts_per_s else "-"
            print(terminal_safe(f"{row.item.model[:22]:<22} {row.item.profile or '-':<9} {row.item.release[:16]:<16} "
                                f"{row.status:<8} {row.seconds:>8.1f} {speed:>10}  {row.run_id or '-'}"))
        print(f"{len(result.rows)} runs: {result.count(STORED)} stored, {result.count(SKIPPED)} skipped, "
              f"{result.count(FAILED)} failed in {result.seconds:.1f} s")
    for row in result.rows:
        if row.status == FAILED:
            print(terminal_safe(f"failed: {row.item.title}: {row.error}"), file=sys.stderr)
    return 1 if result.count(FAILED) else 0


def _runs_arguments(p: argparse.ArgumentParser) -> None:
    runs = p.add_subparsers(dest="runs_command", required=True)
    q = runs.add_parser("list", help="every stored run: its name, tags, id and measured cost")
    q.add_argument("--release", default=None, help="only the runs of this release")
    q.add_argument("--json", action="store_true")
    q = runs.add_parser("rename", help="give a run a new name (shown everywhere instead of its id)")
    q.add_argument("run_id")
    q.add_argument("name", help="at most 80 characters, one line; distinct within the run's release")
    q = runs.add_parser("tag", help="add free-text tags to a run (or remove them with --untag)")
    q.add_argument("run_id")
    # "+" (not "*"), so that `tag ID --untag T` still gives T to the tags; not required, so that the tags
    # may all come as --tag (checked in _runs)
    q.add_argument("tags", nargs="+", default=[], help="each at most 40 characters, no comma; one starting "
                                                       "with '-' after '--' or as --tag=-x").required = False
    q.add_argument("--tag", action="append", default=[], metavar="TAG", dest="more_tags",
                   help="one more tag, e.g. --tag=-draft (a tag starting with '-' reads as an option otherwise)")
    q.add_argument("--untag", action="store_true", help="remove the given tags instead of adding them")


@command("runs", arguments=_runs_arguments,
         help="list stored runs by name; rename or tag one")
def _runs(args: argparse.Namespace) -> int:
    from coreb_core.runs.cost import cost_brief
    from coreb_core.runs.folders import rename_run, run_listing, tag_run
    from coreb_core.runs.meta import run_created

    if args.runs_command == "rename":
        meta = rename_run(args.run_id, args.name)
        print(f"run {terminal_safe(meta.run_id)} is now named {terminal_safe(repr(meta.name))}")
    elif args.runs_command == "tag":
        given = [*args.tags, *args.more_tags]
        if not given:
            raise UsageError("runs tag: give at least one tag (one starting with '-' as --tag=-x, or after --)")
        meta = tag_run(args.run_id, remove=given) if args.untag else tag_run(args.run_id, add=given)
        tags = ", ".join(meta.tags or ()) or "(none)"
        print(terminal_safe(f"run {meta.run_id} ({meta.name}) tags: {tags}"))
    else:
        listing = run_listing(args.release)
        for bad in listing.skipped:  # not runs (an older version's, edited by hand): said, never fatal
            print(terminal_safe(f"skipped run folder {bad.folder}: {bad.reason}"), file=sys.stderr)
        metas = sorted(listing.runs, key=lambda m: (str(m.release), run_created(m), m.run_id))
        if args.json:
            print(json.dumps([{"run_id": m.run_id, "name": m.name, "release": m.release, "tags": list(m.tags or ()),
                               "created": run_created(m) or None, "cost": m.cost.to_json() if m.cost else None}
                              for m in metas], indent=1))
            return 0
        for m in metas:
            tags = f"  [{', '.join(m.tags)}]" if m.tags else ""
            print(f"{terminal_safe(f'{m.name}{tags}')}\n  {terminal_safe(m.run_id)}\n  {cost_brief(m.cost)}")
        print(f"{len(metas)} runs")
    return 0


def _export_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.evaluation.export import FORMATS as EXPORT_FORMATS

    p.add_argument("--run", required=True)
    p.add_argument("--format", choices=EXPORT_FORMATS, required=True)
    p.add_argument("--out", required=True)


@command("export", arguments=_export_arguments,
         help="export a run as TREC, official runner JSON, or an MTEB result")
def _export(args: argparse.Namespace) -> int:
    from coreb_core.views.export import depth_warning, export

    path = export(args.run, args.format, args.out)
    print(terminal_safe(f"exported {args.run} as {args.format} to {path}"))  # was: a path's ESC bytes printed raw
    warning = depth_warning(args.run, args.format)
    if warning:  # was: no word that @1000 from a top-100 run is not the official runner's @1000
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def _import_results_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path")
    p.add_argument("--release", default=None, help="attach runs (TREC files, runner predictions) to this cached release")
    p.add_argument("--task", choices=TASK_NAMES, default=None)
    p.add_argument("--model", default=None, help="model name for runner outputs and TREC runs (default: folder/file name)")


@command("import-results", arguments=_import_results_arguments,
         help="import MTEB result trees, official runner outputs, TREC runs, exported runs")
def _import_results(args: argparse.Namespace) -> int:
    from coreb_core.results.imported import import_results

    report = import_results(check_input_path(args.path), args.release, args.task, args.model)
    problems = [s for s in report.skipped if not s.startswith("(note)")]
    if not report.imported and problems:  # nothing imported: each reason is an error, and the status says so
        cut = capped(problems)  # a folder like /etc: 20 reasons and a count, not a thousand lines
        raise CorebError("\n".join(cut.shown + ([cut.more] if cut.more else [])))
    skipped = capped(report.skipped)
    for line in skipped.shown:
        print(f"skipped: {terminal_safe(line)}", file=sys.stderr)
    if skipped.more:
        print(skipped.more, file=sys.stderr)
    for run_id in report.runs:
        print(f"run {terminal_safe(run_id)}")
    print(f"imported {report.imported} files ({report.rows} numbers, {len(report.runs)} runs); "
          f"skipped {len(problems)} files")
    return 0


def _results_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true")
    p.add_argument("--source-kind", choices=["mteb", "coreb-runner", "published"], default=None)
    p.add_argument("--no-published", action="store_true")


@command("results", arguments=_results_arguments,
         help="every stored number with its provenance (imported and published)")
def _results(args: argparse.Namespace) -> int:
    from coreb_core.results.imported import all_rows, short_source

    rows = all_rows(include_published=not args.no_published)
    if args.source_kind:
        rows = [r for r in rows if r["source_kind"] == args.source_kind]
    if args.json:
        print(json.dumps(rows, indent=1, default=str))
        return 0
    print(f"{'kind':<12} {'model':<40} {'task':<20} {'subset':<12} {'metric':<26} {'value':>7}  "
          f"{'release':<12} source [scheme]")
    for r in rows:
        model, task, subset, label = (terminal_safe(str(r[k])) for k in ("model", "task", "subset", "label"))
        release = terminal_safe(str(r.get("dataset_revision") or "-"))[:12]
        print(f"{r['source_kind']:<12} {model[:40]:<40} {task:<20} {subset[:12]:<12} "
              f"{label:<26} {r['value']:.5f}  {release:<12} {terminal_safe(short_source(r['source']))} "
              f"[{terminal_safe(r['scheme'])}]")
    print(f"{len(rows)} numbers")
    return 0

