"""Command line: ``python -m coreb_core <command>``.

Every command turns a ``CorebError`` into plain lines on stderr and exit status 2; no traceback
reaches the user for bad input.

Example:
    >>> build_parser().parse_args(["run", "--model", "bm25", "--release", "demo_v2603"]).profile
    'official'
"""
from __future__ import annotations

import argparse
import json
import math
import numbers
import os
import sys
from pathlib import Path
from typing import Callable

from coreb_core.data.measures import SELECTION_METRICS
from coreb_core.data.schema import GROUPINGS, LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.errors import CorebError, file_error
from coreb_core.input_paths import check_input_path, unconfined
from coreb_core.text import capped, p_text, terminal_safe

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {}


def command(name: str):
    """Register the decorated function as the handler of CLI command ``name`` (in ``COMMANDS``).

    >>> sorted(COMMANDS)
    ['compare', 'contrast', 'demo', 'difficulty', 'eval', 'export', 'fetch', 'import-data', 'import-results', 'info',
     'models', 'report', 'rerank-errors', 'results', 'run', 'runs', 'select', 'sql', 'stability', 'traps']
    """
    def register(fn: Callable[[argparse.Namespace], int]):
        COMMANDS[name] = fn
        return fn
    return register


@command("fetch")
def _fetch(args: argparse.Namespace) -> int:
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_hub

    raw = read_hub(args.release, args.revision)
    path = import_release(raw, args.release)
    print(f"fetched {args.release} into {path}")
    return 0


@command("import-data")
def _import_data(args: argparse.Namespace) -> int:
    from coreb_core.paths import release_dir
    from coreb_core.results.uploads import import_dataset

    release, counts = import_dataset(check_input_path(args.directory), args.release, args.split)
    listed = ", ".join(f"{name}={n}" for name, n in counts.items())
    print(f"imported {release} into {release_dir(release)}: {listed}")
    return 0


@command("info")
def _info(args: argparse.Namespace) -> int:
    from coreb_core.data.store import info

    report = info()
    if args.json:
        print(json.dumps(report, indent=2, sort_keys=True))
        return 0
    if not report["releases"]:
        print(f"no releases cached in {report['cache']}; run: python -m coreb_core demo")
    for release, data in report["releases"].items():
        print(f"{release}")
        for config, n in data["rows"].items():
            print(f"  {config:<20} {n:>7,} rows")
        for task, c in data["tasks"].items():
            print(f"  {task}: {c['queries']:,} queries, {c['positives']:,} positives, {c['traps']:,} traps, "
                  f"{c['judged_negatives']:,} judged negatives")
    return 0


@command("demo")
def _demo(args: argparse.Namespace) -> int:
    import time

    from tqdm import tqdm

    from coreb_core.data.mini.build import RELEASES, build_release

    releases = [args.release] if args.release else list(RELEASES)
    for release in releases:
        start = time.perf_counter()
        with tqdm(total=100, desc=f"{release}: judging", unit="%", leave=False, disable=None) as bar:
            def progress(msg: str, frac: float) -> None:
                bar.n = round(100 * frac)
                bar.refresh()
            name, path = build_release(release, scale=args.scale, run_toolchains=args.run_toolchains,
                                       progress=progress)
        print(f"built {name} into {path} in {time.perf_counter() - start:.1f} s")
    return 0


@command("eval")
def _eval(args: argparse.Namespace) -> int:
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import DENOMINATORS, aggregate, coverage, evaluate, summary
    from coreb_core.evaluation.schemes import Scheme
    from coreb_core.runs.folders import read_hits, run_meta
    from coreb_core.runs.trec import read_trec_run

    try:
        scheme = Scheme.parse(args.scheme)
    except ValueError as exc:
        raise CorebError(str(exc)) from None
    store = Store(args.release)
    if args.run:
        meta = run_meta(args.run)
        if meta.release not in (None, args.release):
            raise CorebError(f"run {args.run} was made on release {meta.release}, not {args.release}")
        hits, source = read_hits(args.run), f"run:{args.run}"
    else:
        task_of = dict(store.sql("SELECT query_id, task FROM queries").fetchall())
        hits, source = read_trec_run(check_input_path(args.run_file), task_of), f"trec:{args.run_file}"
    if args.task:
        hits = hits[hits["task"] == args.task]
    anchor_exclusion = scheme.anchor_exclusion(not args.no_anchor_exclusion)  # mteb keeps the anchor
    per_query = evaluate(store, hits, scheme, anchor_exclusion=anchor_exclusion)
    covered = coverage(store, per_query, scheme)
    report = {"release": args.release, "scheme": str(scheme), "scheme_description": scheme.description,
              "anchor_exclusion": anchor_exclusion, "source": source, **summary(per_query),
              "coverage": {t: {**c._asdict(), "missing": c.missing} for t, c in covered.items()},
              "denominators": DENOMINATORS}
    for c in covered.values():
        if c.warning():
            print(f"warning: {terminal_safe(c.warning())}", file=sys.stderr)
    if args.by:
        table = aggregate(store, per_query, args.by)
        groups: dict = {}
        for row in table.to_dict("records"):
            task, key = row.pop("task"), row.pop(args.by)
            groups.setdefault(task, {})[str(key)] = row
        report["groups"] = groups
    if args.json:
        print(json.dumps(report, indent=2, sort_keys=False, default=float))
        return 0
    print(f"{terminal_safe(source)} on {args.release}, scheme {scheme} ({scheme.description})")
    for task, m in report["tasks"].items():
        task_cover = covered.get(task)
        zero = (f" ({task_cover.without_relevant:,} without a relevant document, scoring 0)"
                if task_cover and task_cover.without_relevant else "")
        print(f"  {task}: {m['queries']:>5} queries{zero}  nDCG@10 {m['ndcg_at_10']:.4f}  MAP@10 {m['map_at_10']:.4f}  "
              f"Recall@10 {m['recall_at_10']:.4f}  MRR@10 {m['mrr_at_10']:.4f}  nDCG@1000 {m['ndcg_at_1000']:.4f}")
    print(f"  {DENOMINATORS}")
    for task, groups in report.get("groups", {}).items():  # --by: the breakdown, in text too
        print(f"  {task} by {args.by}:")
        for key, m in groups.items():
            print(f"    {terminal_safe(key)[:40]:<40} {int(m['queries']):>5} queries  nDCG@10 {m['ndcg_at_10']:.4f}  "
                  f"MAP@10 {m['map_at_10']:.4f}  Recall@10 {m['recall_at_10']:.4f}")
    o = report["overall_mean_of_tasks"]
    if o:
        print(f"  overall nDCG@10: query-weighted (as paper Table 3) "
              f"{report['overall_query_weighted']['ndcg_at_10']:.4f}; mean of tasks (as the README's Avg) "
              f"{o['ndcg_at_10']:.4f}")
    return 0


@command("models")
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
    print("Also accepted: a local sentence-transformers folder, or a hub name org/model.")
    return 0


@command("run")
def _run(args: argparse.Namespace) -> int:
    from coreb_core.evaluation.evaluate import score_run
    from coreb_core.progress import TqdmProgress
    from coreb_core.retrieval.pipeline import rerank_run, run_retrieval

    bar = TqdmProgress(f"{args.model} ({args.profile}) on {args.release}")
    try:
        # A reranker sees the first stage's stored prefix: store at least the rerank depth.
        top_k = max(args.top_k, args.rerank_depth) if args.rerank else args.top_k
        result = run_retrieval(args.model, args.release, args.tasks, args.device, args.batch_size, top_k, bar,
                               profile=args.profile)
    finally:
        bar.close()
    for line in result.warnings:  # a damaged embedding cache shard, re-encoded: said, not silently used
        print(f"warning: {terminal_safe(line)}", file=sys.stderr)
    print(f"run {result.run_id}: encoded {result.texts_encoded} texts in {result.seconds:.1f} s")
    for task, value in score_run(result.run_id).items():
        print(f"  {task} nDCG@10 (v2) {value:.4f}")
    if args.rerank:
        bar = TqdmProgress(f"rerank with {args.rerank}")
        try:
            reranked = rerank_run(result.run_id, args.rerank, args.rerank_depth, device=args.device, progress=bar)
        finally:
            bar.close()
        print(f"run {reranked.run_id} (reranked top-{args.rerank_depth} of {result.run_id}) in {reranked.seconds:.1f} s")
        for task, value in score_run(reranked.run_id).items():
            print(f"  {task} nDCG@10 (v2) {value:.4f}")
    return 0


@command("import-results")
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


@command("results")
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


@command("export")
def _export(args: argparse.Namespace) -> int:
    from coreb_core.evaluation.export import export_run

    path = export_run(args.run, args.format, Path(args.out))
    print(f"exported {args.run} as {args.format} to {path}")
    return 0


@command("runs")
def _runs(args: argparse.Namespace) -> int:
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
                               "created": run_created(m) or None} for m in metas], indent=1))
            return 0
        for m in metas:
            tags = f"  [{', '.join(m.tags)}]" if m.tags else ""
            print(f"{terminal_safe(f'{m.name}{tags}')}\n  {terminal_safe(m.run_id)}")
        print(f"{len(metas)} runs")
    return 0


@command("report")
def _report(args: argparse.Namespace) -> int:
    from coreb_core.report import build_report, check_out, write_report

    out = check_out(Path(args.out))  # before the slow part: nothing is evaluated for an unusable --out
    html = build_report(args.release, args.runs, args.scheme, args.task or TASK_NAMES, args.languages or LANGUAGE_SCOPES,
                        args.max_params, args.metric, not args.no_anchor_exclusion, args.average)
    write_report(out, html)
    print(f"wrote {out} ({len(html.encode('utf-8')) / 1024:.0f} KiB)")
    return 0


@command("select")
def _select(args: argparse.Namespace) -> int:
    from coreb_core.analysis.selection import recommend_stored
    from coreb_core.present.numbers import points
    from coreb_core.present.selection import (
        evidence_sentence,
        left_out_sentence,
        params_words,
        recommendation_sentence,
        selection_header,
        versus_first_words,
    )

    chosen = recommend_stored(args.release, args.runs, args.scheme, args.task or TASK_NAMES,
                              args.languages or LANGUAGE_SCOPES, args.max_params, args.metric,
                              not args.no_anchor_exclusion, args.average)
    rec = chosen.recommendation
    if args.json:
        # Strict JSON: a p-value without a test (the first run, a run sharing no query with it) is null, not NaN.
        print(json.dumps(_json_ready({
            "release": args.release, "scheme": str(chosen.scheme), "metric": rec.metric, "tasks": list(rec.tasks),
            "languages": list(rec.languages), "budget_b": rec.budget_b, "average": rec.average,
            "verdict": recommendation_sentence(rec),
            "standings": [{**s._asdict(), "compared": s.compared} for s in rec.standings],
            "left_out": [{**x._asdict(), "tasks": list(x.tasks), "sentence": left_out_sentence(x)}
                         for x in rec.left_out],
            "excluded": rec.excluded.to_dict("records")}), indent=1, allow_nan=False))
        return 0
    print(terminal_safe(selection_header(rec, str(chosen.scheme), args.release)))
    print(terminal_safe(recommendation_sentence(rec)))
    print(terminal_safe(evidence_sentence(rec, str(chosen.scheme))))
    for s in rec.standings:
        vs = "" if s.rank == 1 else f"  vs #1: {versus_first_words(s)}"
        print(terminal_safe(f"{s.rank:>3}. {s.model}  {points(s.mean)} [{points(s.ci_low)}–{points(s.ci_high)}]  "
                            f"trap {points(s.trap_share)}%  {params_words(s.params_b)}  {s.queries} queries{vs}"))
    for left in rec.left_out:
        print(terminal_safe(f"  {left_out_sentence(left)}"))
    return 0


def _json_ready(value: object) -> object:
    """``value`` with every NaN or infinite float (numpy's too) as None, so that ``json.dumps(allow_nan=False)``
    writes strict JSON.

    >>> _json_ready({"p": float("nan"), "xs": [1.5, float("inf")], "t": (1,)})
    {'p': None, 'xs': [1.5, None], 't': [1]}
    """
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    if isinstance(value, bool) or not isinstance(value, numbers.Real):  # numpy's numbers register as Real
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    return float(value) if math.isfinite(value) else None


@command("sql")
def _sql(args: argparse.Namespace) -> int:
    from coreb_core.analysis.console_tables import console_tables
    from coreb_core.data.sql_console import SqlConsole, check_select
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.evaluation.schemes import V1, V2, Scheme
    from coreb_core.runs.folders import read_hits, run_meta
    from coreb_core.runs.meta import run_name

    if args.query is None and args.runs and " " in args.runs[-1].strip():
        # `sql --runs A B "SELECT …"`: --runs took the query too; a run id holds no space, a query does
        args.query, args.runs = args.runs[-1], args.runs[:-1]
    if args.query is None:
        raise CorebError("sql: give one SELECT statement")
    check_select(args.query)  # before the release is copied and the runs are scored
    try:
        scheme = Scheme.parse(args.scheme)
    except ValueError as exc:
        raise CorebError(str(exc)) from None
    with Store(args.release) as store:
        metas = {run_id: run_meta(run_id) for run_id in args.runs or ()}
        other = [f"{r} ({m.release})" for r, m in metas.items() if m.release not in (None, args.release)]
        if other:
            raise CorebError(f"runs made on another release than {args.release}: {', '.join(other)}")
        hits = {run_id: read_hits(run_id) for run_id in metas}
        # the same schemes as the Data page's console: the chosen one, v2 and v1
        evaluation = (analyse_many(store, hits, tuple(dict.fromkeys([scheme, V2, V1])),
                                   scheme.anchor_exclusion(not args.no_anchor_exclusion))
                      if hits else None)
        tables = console_tables(hits, {r: run_name(m) for r, m in metas.items()}, evaluation)
        console = SqlConsole(store, extra_tables=tables.as_dict())
        try:
            result = console.query(args.query)
        finally:
            console.close()
    frame = result.frame
    if args.json:
        if frame.columns.duplicated().any():
            raise CorebError("--json needs distinct column names; rename the repeated ones with AS")
        print(frame.to_json(orient="records", date_format="iso", indent=1))
    else:
        # Text cells with their control characters escaped (terminal_safe): a value cannot move the cursor,
        # recolour or clear the terminal, or break a table row.
        text = frame.map(lambda v: terminal_safe(v) if isinstance(v, str) else v) if len(frame) else frame
        print(text.to_string(index=False) if len(frame) else "  ".join(terminal_safe(c) for c in frame.columns))
        print(f"{len(frame):,} rows")
    for note in result.notes():
        print(f"note: {note}", file=sys.stderr)
    return 0


def _records(frame) -> list[dict]:
    """A frame as JSON-ready row objects (NaN -> null, numpy numbers -> plain numbers)."""
    return json.loads(frame.to_json(orient="records"))


@command("traps")
def _traps(args: argparse.Namespace) -> int:
    from coreb_core.analysis.agreement import trap_agreement
    from coreb_core.analysis.slices import length_slices
    from coreb_core.analysis.surface_bias import surface_bias
    from coreb_core.analysis.trap_wins import trap_wins, why_traps_win
    from coreb_core.analysis.traps import share_lost
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.present.trap_patterns import agreement_sentence, duel_sentence, jaccard_sentence
    from coreb_core.runs.folders import read_hits, run_meta
    from coreb_core.runs.meta import run_name

    repeated = sorted({r for r in args.run if args.run.count(r) > 1})
    if repeated:
        raise CorebError(f"--run names {terminal_safe(repeated[0])} more than once")
    with Store(args.release) as store:
        hits = {}
        for run_id in args.run:
            meta = run_meta(run_id)
            if meta.release not in (None, args.release):
                raise CorebError(f"run {run_id} was made on release {meta.release}, not {args.release}")
            hits[run_id] = read_hits(run_id)
        wins = trap_wins(store, hits, not args.no_anchor_exclusion, args.task)
        surface = surface_bias(store, wins)
        per_query = analyse_many(store, hits, anchor_exclusion=not args.no_anchor_exclusion).per_query("v2")
        slices = length_slices(store, wins, per_query)
    agreement = trap_agreement(wins)
    why = why_traps_win(wins)
    kinds, bugs, by_task = why.kinds_by_subtask, why.bugs, why.kinds_by_task
    curve, margins, gaps = why.near_miss, why.margins, why.rank_gaps
    if args.json:
        report = {"release": args.release, "runs": list(args.run), "task": args.task,
                  "anchor_exclusion": not args.no_anchor_exclusion,
                  "kinds": {"by_task": _records(by_task), "by_subtask": _records(kinds), "bugs": _records(bugs)},
                  "near_miss": _records(curve),
                  "margins": {"quantiles": _records(margins), "rank_gap_histogram": _records(gaps)},
                  "surface_bias": surface.to_json(),
                  "agreement": {"counts": _records(agreement.counts), "pairs": _records(agreement.pairs),
                                "traps_beating_all": _records(agreement.traps_beating_all())},
                  "slices": {"metric": slices.metric, "quantiles": slices.quantiles,
                             "by_query_length": _records(slices.by_query_length),
                             "by_document_length": _records(slices.by_document_length),
                             "duels": _records(slices.duels)}}
        print(json.dumps(report, indent=1))
        return 0
    anchor = "C2C anchor excluded" if not args.no_anchor_exclusion else "C2C anchor kept"
    print(f"why traps win on {args.release} ({anchor}; a trap win = a rel=1 trap ranked above the query's best positive)")
    for run_id in args.run:
        print(f"run {terminal_safe(run_id)}")
        mine = by_task[by_task["run"] == run_id]
        for task, rows in mine.groupby("task", sort=True):
            total = int(rows["trap_wins"].sum())
            parts = ", ".join(f"{r.kind} {r.trap_wins} ({r.share_of_wins:.0%})" for r in rows.itertuples()
                              if r.trap_wins > 0)
            lost, with_positive = int(rows["queries_with_win"].iloc[0]), int(rows["queries"].iloc[0])
            # Of the queries with a positive: only those can be lost (share_lost, the one definition).
            share = f" ({share_lost(lost, with_positive):.1%})" if with_positive else ""
            print(f"  {task}: {total} trap wins; {lost:,} of {with_positive:,} queries with a positive lost to a "
                  f"trap{share}; {parts or 'none'}")
        for r in bugs[bugs["run"] == run_id].itertuples():
            print(f"  {r.task} bug {r.bug}: {r.trap_wins} of {r.judged} outrank the best positive ({r.win_rate:.0%})")
        for r in curve[curve["run"] == run_id].itertuples():
            print(f"  near-miss curve: pass {r.bin_low:.0%}–{r.bin_high:.0%}: {r.outranking}/{r.failing} failing "
                  f"solutions outrank the best positive ({r.probability:.0%}, 95% CI {r.low:.0%}–{r.high:.0%})")
        for r in margins[margins["run"] == run_id].itertuples():
            if r.queries:
                print(f"  {r.task} {r.measure} of trap wins: median {r.median:.4g} (q25 {r.q25:.4g}, q75 {r.q75:.4g}; "
                      f"{r.queries} queries, {r.unmeasured} without a listed positive)")
        for f in surface.findings():
            if f.run == run_id:
                print(f"  {f.task} surface bias: the trap shares more words with the query in {f.wins_trap_higher} of "
                      f"{f.trap_wins} trap wins, against {f.correct_trap_higher} of {f.correct} correct orderings "
                      f"({p_text(f.p_value)})")
        for r in slices.duels[slices.duels["run"] == run_id].itertuples():
            print("  " + duel_sentence(r.task, "length duels", r.decided, r.longer_first, r.longer_low, r.longer_high))
    names = {run_id: terminal_safe(run_name(run_meta(run_id))) for run_id in args.run}
    for task in sorted(agreement.counts["task"].unique()):
        print(agreement_sentence(task, *agreement.beating_all(task), len(agreement.runs)))
    for r in agreement.pairs.itertuples():
        print(jaccard_sentence(r.task, names[r.run_a], names[r.run_b], r.both, r.either, r.jaccard))
    return 0


@command("difficulty")
def _difficulty(args: argparse.Namespace) -> int:
    from coreb_core.analysis.difficulty import hardest_problems, problem_difficulty
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import read_hits, run_meta
    from coreb_core.runs.meta import run_name

    repeated = sorted({r for r in args.run if args.run.count(r) > 1})
    if repeated:
        raise CorebError(f"--run names {terminal_safe(repeated[0])} more than once")
    names = {}
    for run_id in args.run:
        meta = run_meta(run_id)
        if meta.made_on() != args.release:
            raise CorebError(f"run {run_id} was made on release {meta.made_on()}, not {args.release}")
        names[run_id] = run_name(meta)
    with Store(args.release) as store:
        per_query = analyse_many(store, {r: read_hits(r) for r in args.run},
                                 anchor_exclusion=not args.no_anchor_exclusion).per_query("v2")
        hard = problem_difficulty(store, per_query, args.metric, task=args.task)
    if args.json:
        print(json.dumps({"release": args.release, "runs": list(args.run), "metric": hard.metric, "task": hard.task,
                          "problems": _records(hard.problems), "per_run": _records(hard.per_run),
                          "correlations": _records(hard.correlations)}, indent=1))
        return 0
    print(f"per-problem difficulty on {args.release} ({hard.metric} under v2, a problem's mean = the mean of the "
          f"runs' means over its queries on a task; hardest first)")
    for r in hardest_problems(hard, n=args.limit).itertuples():
        who = f", hardest for {terminal_safe(names.get(r.hardest_run, r.hardest_run))}" \
            if isinstance(r.hardest_run, str) else ""
        print(f"  {r.task} {r.problem_id}: mean {r.mean * 100:.1f} over {r.queries} queries, spread "
              f"{r.spread * 100:.1f} points{who}; worst query {r.worst_query}")
    for r in hard.correlations.itertuples():
        print(f"{r.task}: Spearman's rho of {terminal_safe(names[r.a])} and {terminal_safe(names[r.b])} over "
              f"{r.problems} problems: {r.spearman:.2f}")
    return 0


@command("rerank-errors")
def _rerank_errors(args: argparse.Namespace) -> int:
    from coreb_core.analysis.rerank_errors import rerank_errors_of
    from coreb_core.runs.folders import run_meta
    from coreb_core.runs.meta import run_name

    errors = rerank_errors_of(args.run, anchor_exclusion=not args.no_anchor_exclusion)
    if args.json:
        print(json.dumps({"reranked": errors.reranked, "first_stage": errors.first_stage, "release": errors.release,
                          "depth": errors.depth, "anchor_exclusion": errors.anchor_exclusion,
                          "summary": _records(errors.summary), "by_kind": _records(errors.by_kind)}, indent=1))
        return 0
    first, reranked = (terminal_safe(run_name(run_meta(r))) for r in (errors.first_stage or "", errors.reranked or ""))
    print(f"{reranked} against its first stage {first} (top {errors.depth} reranked; right = no trap above the "
          "best positive; broken = right before, a trap above it after; rescued = the opposite)")
    for r in errors.summary.itertuples():
        print(f"  {r.task}: a positive within the top {errors.depth} for {r.ceiling} of {r.with_positive} queries "
              f"({r.ceiling_share * 100:.1f}%); broken {r.broken}, rescued {r.rescued}, net {r.net:+d}")
        for k in errors.by_kind[(errors.by_kind["task"] == r.task)
                                & ((errors.by_kind["broken"] > 0) | (errors.by_kind["rescued"] > 0))].itertuples():
            print(f"    {k.kind}: broken {k.broken}, rescued {k.rescued}")
    return 0


def _stored_runs(release: str, run_ids: list[str]) -> dict[str, str]:
    """Run id -> name of stored runs made on ``release``; one-line errors for a repeat or another release."""
    from coreb_core.runs.folders import run_meta
    from coreb_core.runs.meta import run_name

    repeated = sorted({r for r in run_ids if run_ids.count(r) > 1})
    if repeated:
        raise CorebError(f"--run names {terminal_safe(repeated[0])} more than once")
    names = {}
    for run_id in run_ids:
        meta = run_meta(run_id)
        if meta.made_on() != release:
            raise CorebError(f"run {run_id} was made on release {meta.made_on()}, not {release}")
        names[run_id] = run_name(meta)
    return names


@command("compare")
def _compare(args: argparse.Namespace) -> int:
    from coreb_core.analysis.comparison import pair_table, pair_verdicts, split_runs
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.evaluation.significance import Correction
    from coreb_core.present.display import verdict_sentence
    from coreb_core.runs.folders import read_hits

    names = _stored_runs(args.release, args.run)
    if len(names) < 2:
        raise CorebError("compare needs two or more runs")
    if args.baseline is not None and args.baseline not in names:
        raise CorebError(f"--baseline {terminal_safe(args.baseline)} is not one of the --run ids")
    correction = Correction.parse(args.correction)
    with Store(args.release) as store:
        per_query = analyse_many(store, {r: read_hits(r) for r in names},
                                 anchor_exclusion=not args.no_anchor_exclusion).per_query("v2")
    runs = split_runs(per_query, args.task, list(names))
    pairs = pair_table(runs, args.metric, labels=names, baseline=args.baseline, correction=correction)
    verdicts = pair_verdicts(runs, pairs, args.task, correction=correction, baseline=args.baseline)
    if args.json:
        print(json.dumps({"release": args.release, "task": args.task, "metric": args.metric,
                          "baseline": args.baseline, "correction": str(correction),
                          "verdicts": [{**v._asdict(), "correction": str(v.correction)} for v in verdicts]},
                         indent=1, default=float))
        return 0
    for v in verdicts:  # a pair that shares no query has no test to report (a run made for other tasks)
        print(terminal_safe(verdict_sentence(v, names)) + (f" Paired t-test: p = {v.p_ttest:.3g}." if v.shared else ""))
    return 0


@command("contrast")
def _contrast(args: argparse.Namespace) -> int:
    from coreb_core.analysis.comparison import pair_deltas, split_runs
    from coreb_core.analysis.rank_contrast import anchor_exclusions, contrasting_queries
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import read_hits

    names = _stored_runs(args.release, args.run)
    if len(names) != 2:
        raise CorebError("contrast compares exactly two runs: --run A B")
    a, b = list(names)
    hits = {r: read_hits(r) for r in names}
    with Store(args.release) as store:
        per_query = analyse_many(store, hits, anchor_exclusion=not args.no_anchor_exclusion).per_query("v2")
        exclude = {} if args.no_anchor_exclusion else anchor_exclusions(store)
    deltas = pair_deltas(split_runs(per_query, args.task, [a, b]), a, b, args.metric)
    found = contrasting_queries(hits[a], hits[b], args.k, args.measure, args.limit, per_query=deltas,
                                task=args.task, exclude=exclude)
    if args.json:
        print(json.dumps({"release": args.release, "task": args.task, "a": a, "b": b, "k": found.k,
                          "measure": found.measure.name, "queries": found.queries, "mean": found.mean,
                          "rows": _records(found.rows)}, indent=1))
        return 0
    if not found.queries:
        print(f"{terminal_safe(names[a])} and {terminal_safe(names[b])} share no query on {args.task}: there is "
              "nothing to contrast.")
        return 0
    print(f"{terminal_safe(names[a])} against {terminal_safe(names[b])} on {args.task}, top {found.k}: mean "
          f"{found.measure.name} {found.mean:.3f} over {found.queries} queries; the {len(found.rows)} that agree least "
          f"(Δ = {args.metric} of a − b under v2):")
    for r in found.rows.itertuples():
        delta = getattr(r, "delta", float("nan"))
        print(f"  {r.query_id}: tau-AP {r.tau_ap:+.3f}, weighted tau {r.weighted_tau:+.3f}, "
              f"{r.overlap} of the top {found.k} shared, Δ {delta * 100:+.1f} points")
    return 0


@command("stability")
def _stability(args: argparse.Namespace) -> int:
    from coreb_core.analysis.stability import STABILITY_LEVELS, model_difference, release_stability
    from coreb_core.analysis.trap_wins import trap_wins
    from coreb_core.data.store import Store
    from coreb_core.present.trap_patterns import shift_text
    from coreb_core.runs.folders import read_hits, run_meta
    from coreb_core.runs.meta import run_name

    if args.run == args.against:
        raise CorebError("--run and --against name the same run: stability compares one model on two releases")
    different = model_difference(run_meta(args.run), run_meta(args.against))
    if different and not args.any_model:  # before the slow part; the flag keeps the comparison possible
        raise CorebError(f"{terminal_safe(different)}: stability compares one model on two releases (a change "
                         "would be the model's, not the release's); --any-model compares them anyway")
    wins = []
    for run_id in (args.run, args.against):
        release = run_meta(run_id).made_on()
        with Store(release) as store:
            wins.append(trap_wins(store, {run_id: read_hits(run_id)}, not args.no_anchor_exclusion, args.task))
    shift = release_stability(*wins)
    if args.json:
        print(json.dumps({"run_a": shift.run_a, "release_a": shift.release_a, "run_b": shift.run_b,
                          "release_b": shift.release_b, "anchor_exclusion": not args.no_anchor_exclusion,
                          **{f"by_{level}": _records(shift.level(level)) for level in STABILITY_LEVELS}}, indent=1))
        return 0
    names = [terminal_safe(run_name(run_meta(r))) for r in (shift.run_a, shift.run_b)]
    print(f"trap-win rates (a trap ranked above the query's best positive, per judged trap of queries with a "
          f"positive): {names[0]} (a) against {names[1]} (b); b − a with Newcombe's 95% interval")
    for level in STABILITY_LEVELS:
        frame = shift.level(level)
        if frame.empty:
            print(f"by {level}: neither release records one")
            continue
        print(f"by {level}:")
        for r in frame.itertuples():
            print(f"  {r.task} {terminal_safe(getattr(r, level))}: a {r.wins_a}/{r.traps_a}, b {r.wins_b}/{r.traps_b}, "
                  f"b − a {shift_text(r.difference, r.low, r.high)}")
    return 0


class UsageError(CorebError):
    """A command line argparse refuses; shown like every other error, as one ``error: …`` line."""


class _Parser(argparse.ArgumentParser):
    """argparse, except that a refused command line raises ``UsageError`` (``main`` prints one line,
    exit status 2) instead of printing the usage block and exiting.

    >>> build_parser().parse_args(["run", "--model", "bm25"])
    Traceback (most recent call last):
    coreb_core.cli.UsageError: the following arguments are required: --release
    """

    def error(self, message: str):
        raise UsageError(message.removeprefix("argument "))


def _checked(check: Callable, name: str) -> Callable[[str], object]:
    """An argparse ``type`` from a library check: the check's CorebError becomes argparse's message
    (``--top-k: …``), so the command line and the library refuse the same values in the same words."""
    def convert(text: str):
        try:
            return check(text)
        except CorebError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = name
    return convert


def _count(text: str) -> int:
    value = int(text) if text.strip().isascii() and text.strip().isdigit() else 0
    if value < 1:
        raise CorebError(f"must be a whole number of at least 1, not {text!r}")
    return value


def _tasks(text: str) -> tuple[str, ...]:
    from coreb_core.retrieval.pipeline import check_tasks

    return check_tasks(t.strip() for t in text.split(",") if t.strip())


def _device(text: str) -> str:
    from coreb_core.retrieval.device import check_device

    return check_device(text)


def _budget(text: str) -> float:
    from coreb_core.analysis.selection import check_budget

    try:  # the library's check (finite, 0 or more), worded with the text as typed
        value = float(text)
        check_budget(value)
        return value
    except (ValueError, CorebError):
        raise CorebError(f"must be a finite number of billions, 0 or more, not {text!r}") from None


def _metric(text: str) -> str:
    """A per-query metric column (``ndcg_at_10``) or any spelling ``Measure.parse`` reads (``nDCG@10``)."""
    from coreb_core.data.measures import column_named, measures

    column = column_named(text, [m.column for m in measures()])
    if column is None:
        raise CorebError(f"unknown metric {text!r}; choose a per-query column such as ndcg_at_10 or recall_at_100 "
                         "(ndcg, map, recall, precision, mrr, hit_rate at 1, 3, 5, 10, 20, 100 or 1000), or nDCG@10")
    return column


COUNT, TASK_LIST, DEVICE = _checked(_count, "count"), _checked(_tasks, "tasks"), _checked(_device, "device")
BUDGET, METRIC = _checked(_budget, "budget"), _checked(_metric, "metric")


def _selection_arguments(p: argparse.ArgumentParser) -> None:
    """The constraints of a model selection: shared by ``select`` and ``report``."""
    p.add_argument("--release", required=True)
    p.add_argument("--runs", nargs="+", default=None, help="run ids (default: every stored run of the release)")
    p.add_argument("--task", nargs="+", choices=TASK_NAMES, default=None, help="tasks that matter (default: all)")
    p.add_argument("--languages", nargs="+", choices=LANGUAGE_SCOPES, default=None,
                   help="languages that matter (default: all; T2C: the constraint, C2C/C2T: the query code's)")
    p.add_argument("--metric", choices=SELECTION_METRICS, default="ndcg_at_10")
    p.add_argument("--max-params", type=BUDGET, default=None, help="parameter limit in billions (default: none)")
    p.add_argument("--scheme", default="v2", help="v2 (official, default), v1, traps_as_hits, trec, file:<name>")
    p.add_argument("--average", choices=["tasks", "queries"], default="tasks",
                   help="tasks: mean of task means (default, as the README's Avg); queries: query-weighted")
    p.add_argument("--no-anchor-exclusion", action="store_true", help="keep the C2C anchor in ranked lists (as MTEB)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command, with its options and defaults.

    >>> args = build_parser().parse_args(["run", "--model", "bm25", "--release", "demo_v2603"])
    >>> args.command, args.model, args.profile, args.tasks, args.device, args.top_k
    ('run', 'bm25', 'official', ('t2c', 'c2c', 'c2t'), 'auto', 100)
    """
    # The choices come from the modules that own them (one vocabulary), imported here, not when the CLI loads.
    from coreb_core.data.mini.build import RELEASES as MINI_RELEASES
    from coreb_core.evaluation.export import FORMATS as EXPORT_FORMATS
    from coreb_core.retrieval.profiles import DEFAULT_PROFILE, PROFILES

    parser = _Parser(prog="python -m coreb_core", description="CoREB error-analysis toolkit")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("fetch", help="download a release from the hub (hq-bench/coreb) into the cache")
    p.add_argument("--release", required=True, help="hub split, e.g. release_v2603")
    p.add_argument("--revision", default=None, help="hub git revision (commit, tag or branch)")

    p = sub.add_parser("import-data", help="import a local copy (hub layout, <config>.parquet folder, or JSONL)")
    p.add_argument("directory")
    p.add_argument("--release", default=None, help="cache name for the release (default: the hub split)")
    p.add_argument("--split", default=None, help="which hub release folder to import when there are several")

    p = sub.add_parser("demo", help="build CoREB-mini (the bundled demo benchmark) into the cache")
    p.add_argument("--release", choices=MINI_RELEASES, default=None, help="only this release")
    p.add_argument("--scale", type=COUNT, default=1, help="write an N-times larger synthetic variant <release>_xN")
    p.add_argument("--run-toolchains", action="store_true",
                   help="also execute C++/Java/Go/Ruby solutions when their toolchain is installed "
                        "(default: Python is executed, other languages use the verdicts recorded with verdicts.json)")

    p = sub.add_parser("eval", help="score a stored run or a TREC run file with CoREB's official semantics")
    p.add_argument("--release", required=True)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--run", help="a stored run id")
    src.add_argument("--run-file", help="a TREC run file: qid Q0 docid rank score tag")
    p.add_argument("--task", choices=TASK_NAMES)
    p.add_argument("--scheme", default="v2", help="v2 (official, default), v1 (CoREB v1 rules rebuilt from v2, T2C as the paper says), v1_gen (the same, T2C as the generator code reads them), traps_as_hits (sensitivity view), trec, mteb (MTEB's CoREB tasks: positives only, queries without one left out, C2C anchor kept), or file:<name> (e.g. file:v1)")
    p.add_argument("--no-anchor-exclusion", action="store_true", help="keep the C2C anchor in ranked lists (as MTEB)")
    p.add_argument("--by", choices=list(GROUPINGS))
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("models", help="the model registry")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("run", help="re-run retrieval for a model on a cached release (cached embeddings, exact search)")
    p.add_argument("--model", required=True, help="registry id (see models), local sentence-transformers folder, or org/model")
    p.add_argument("--release", required=True)
    p.add_argument("--profile", choices=PROFILES, default=DEFAULT_PROFILE,
                   help="official (default): encode as coreb_runner 0.1.0 made the published numbers (transformers "
                        "AutoModel, no prompts, 512 tokens, mean pooling); card: as the model's own card says "
                        "(sentence-transformers, its prompts verbatim, its length)")
    p.add_argument("--tasks", type=TASK_LIST, default=",".join(TASK_NAMES), help="comma-separated, each once")
    p.add_argument("--device", type=DEVICE, default="auto", help="auto (cuda, then mps, then cpu), cpu, cuda, cuda:1, mps")
    p.add_argument("--batch-size", type=COUNT, default=64)
    p.add_argument("--top-k", type=COUNT, default=100)
    p.add_argument("--rerank", default=None, help="a CrossEncoder folder or hub name to rerank the first stage")
    p.add_argument("--rerank-depth", type=COUNT, default=128)

    p = sub.add_parser("import-results", help="import MTEB result trees, official runner outputs, TREC runs, exported runs")
    p.add_argument("path")
    p.add_argument("--release", default=None, help="attach runs (TREC files, runner predictions) to this cached release")
    p.add_argument("--task", choices=TASK_NAMES, default=None)
    p.add_argument("--model", default=None, help="model name for runner outputs and TREC runs (default: folder/file name)")

    p = sub.add_parser("results", help="every stored number with its provenance (imported and published)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--source-kind", choices=["mteb", "coreb-runner", "published"], default=None)
    p.add_argument("--no-published", action="store_true")

    p = sub.add_parser("export", help="export a run as TREC, official runner JSON, or an MTEB result")
    p.add_argument("--run", required=True)
    p.add_argument("--format", choices=EXPORT_FORMATS, required=True)
    p.add_argument("--out", required=True)

    p = sub.add_parser("runs", help="list stored runs by name; rename or tag one")
    runs = p.add_subparsers(dest="runs_command", required=True)
    q = runs.add_parser("list", help="every stored run: its name, tags and id")
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

    p = sub.add_parser("report", help="write a self-contained HTML report for stakeholders (prints to two A4 pages)")
    _selection_arguments(p)
    p.add_argument("--out", required=True, help="the HTML file to write, e.g. report.html")

    p = sub.add_parser("select", help="rank stored runs for chosen tasks, languages and a parameter limit: the Model "
                                      "selection page's verdict, in the same words")
    _selection_arguments(p)
    p.add_argument("--json", action="store_true", help="the standings as JSON (fractions, p-values, records)")

    p = sub.add_parser("sql", help="one read-only SELECT over a cached release and chosen runs (the Data page's "
                                   "SQL console: no writes, no files, no network; rows, bytes and cells capped)")
    p.add_argument("query", nargs="?", default=None,
                   help="one SELECT (or WITH … SELECT, DESCRIBE, SHOW, SUMMARIZE) statement")
    p.add_argument("--release", required=True)
    p.add_argument("--runs", nargs="+", default=None,
                   help="run ids whose hits and per-query metrics become the tables hits and metrics (default: none)")
    p.add_argument("--scheme", default="v2", help="the metrics table's scheme besides v2 and v1, e.g. traps_as_hits")
    p.add_argument("--no-anchor-exclusion", action="store_true", help="keep the C2C anchor in ranked lists (as MTEB)")
    p.add_argument("--json", action="store_true", help="a list of row objects instead of a table")

    p = sub.add_parser("traps", help="why traps win: trap kinds, the near-miss curve, the margins and the surface bias of stored runs")
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="one or more stored run ids")
    p.add_argument("--task", choices=TASK_NAMES, default=None)
    p.add_argument("--no-anchor-exclusion", action="store_true", help="keep the C2C anchor in ranked lists (as MTEB)")
    p.add_argument("--json", action="store_true",
                   help="one object: kinds, near_miss, margins, surface_bias, agreement, slices (fractions 0..1, "
                        "ranks as scored)")

    p = sub.add_parser("difficulty", help="per-problem difficulty across stored runs, and how alike the runs rank the "
                                          "problems (Spearman)")
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="one or more stored run ids of the release")
    p.add_argument("--task", choices=TASK_NAMES, default=None)
    p.add_argument("--metric", default="ndcg_at_10", help="a per-query metric column, e.g. ndcg_at_10, recall_at_100")
    p.add_argument("--limit", type=COUNT, default=10, help="the hardest problems shown")
    p.add_argument("--no-anchor-exclusion", action="store_true", help="keep the C2C anchor in ranked lists (as MTEB)")
    p.add_argument("--json", action="store_true", help="one object: problems, per_run, correlations (fractions 0..1)")

    p = sub.add_parser("rerank-errors", help="what a reranked run did to its first stage: the ceiling, queries "
                                             "broken and rescued, by trap kind")
    p.add_argument("--run", required=True, help="a stored reranked run (run --rerank)")
    p.add_argument("--no-anchor-exclusion", action="store_true", help="keep the C2C anchor in ranked lists (as MTEB)")
    p.add_argument("--json", action="store_true", help="one object: summary, by_kind (fractions 0..1)")

    p = sub.add_parser("compare", help="paired tests of stored runs: every pair or each against a --baseline, with "
                                       "Holm, Bonferroni or BH correction and the t-test beside randomization")
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs="+", required=True, help="two or more stored run ids of the release")
    p.add_argument("--task", choices=TASK_NAMES, required=True)
    p.add_argument("--metric", type=METRIC, default="ndcg_at_10",
                   help="a per-query metric: ndcg_at_10 (default), map_at_10, recall_at_100, … or nDCG@10")
    p.add_argument("--baseline", default=None, help="compare each other run against this one (PyTerrier's baseline=)")
    p.add_argument("--correction", default="holm", help="holm (default), bonferroni or bh (Benjamini-Hochberg)")
    p.add_argument("--no-anchor-exclusion", action="store_true", help="keep the C2C anchor in ranked lists (as MTEB)")
    p.add_argument("--json", action="store_true", help="the verdicts as objects (fractions 0..1)")

    p = sub.add_parser("contrast", help="the queries whose two rankings differ most (tau-AP or weighted tau of the "
                                        "top k), with each query's metric difference")
    p.add_argument("--release", required=True)
    p.add_argument("--run", nargs=2, required=True, metavar=("A", "B"), help="two stored run ids of the release")
    p.add_argument("--task", choices=TASK_NAMES, required=True)
    p.add_argument("--measure", default="tau_ap", help="tau_ap (default) or weighted_tau")
    p.add_argument("--k", type=COUNT, default=10, help="the depth of each list compared")
    p.add_argument("--limit", type=COUNT, default=20)
    p.add_argument("--metric", type=METRIC, default="ndcg_at_10",
                   help="the per-query metric whose difference is shown (ndcg_at_10, recall_at_100, … or nDCG@10)")
    p.add_argument("--no-anchor-exclusion", action="store_true", help="keep the C2C anchor in ranked lists (as MTEB)")
    p.add_argument("--json", action="store_true", help="one object: mean and the contrasting rows")

    p = sub.add_parser("stability", help="one model on two releases: trap-win rates by kind, bug kind and subtask, "
                                         "with Newcombe 95%% intervals of the change")  # %% : argparse %-formats help
    p.add_argument("--run", required=True, help="a stored run on one release")
    p.add_argument("--against", required=True, help="a stored run of the same model on the other release")
    p.add_argument("--any-model", action="store_true",
                   help="allow --against to be another model (or a run that records none): the change is then "
                        "the model's and the release's together")
    p.add_argument("--task", choices=TASK_NAMES, default=None)
    p.add_argument("--no-anchor-exclusion", action="store_true", help="keep the C2C anchor in ranked lists (as MTEB)")
    p.add_argument("--json", action="store_true", help="one object: by_kind, by_bug, by_subtask (fractions 0..1)")

    p = sub.add_parser("info", help="releases in the cache, row counts, positives and traps per task")
    p.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status (2 for a CorebError, whose lines go to stderr as ``error: …``).

    >>> main(["eval", "--release", "no_such_release", "--run", "r1"])   # stderr: error: release 'no_such_release' is not in the cache …
    2
    >>> main(["run", "--model", "bm25", "--release", "demo_v2603", "--top-k", "0"])   # stderr: error: --top-k: must be …
    2
    """
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # --help printed the usage (a refusal raises UsageError instead)
            return int(exc.code or 0)
        with unconfined():  # the CLI reads any path its user names; the web app confines its paths
            return COMMANDS[args.command](args)
    except BrokenPipeError:
        # The reader went away (`… | head`): stop quietly, as Unix tools do; stdout goes to /dev/null so the
        # interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (CorebError, OSError) as exc:
        # An OSError is the file system's (an unreadable file, a read-only cache): one line naming the path.
        text = str(exc if isinstance(exc, CorebError) else file_error(exc))
        for line in text.splitlines():
            print(f"error: {terminal_safe(line)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
