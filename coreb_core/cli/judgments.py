"""Verbs of a researcher's own judgments of (query, document) pairs: judge one pair, list a release's judgments with
the annotators' agreement, or export the v2 qrels with the judgments applied (judgments)."""
from __future__ import annotations

import argparse
import json

from coreb_core.cli.registry import UsageError, command
from coreb_core.text import terminal_safe


def _count(n: int, what: str) -> str:
    return f"{n:,} {what}{'s' * (n != 1)}"


def _judge_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--release", required=True, help="a cached release")
    p.add_argument("--query", required=True, help="the query id")
    p.add_argument("--doc", required=True, help="the document id (code for T2C and C2C queries, text for C2T)")
    p.add_argument("--grade", required=True, help="0 not relevant, 1 trap or partial, 2 relevant")
    p.add_argument("--annotator", required=True, help="your name or initials (at most 64 characters)")
    p.add_argument("--note", default=None, help="why (optional, at most 2,000 characters)")
    p.add_argument("--json", action="store_true", help="the judgment stored, as one object")


@command("judge", arguments=_judge_arguments,
         help="judge one (query, document) pair of a cached release: grade 0, 1 or 2, annotator, note; appended to "
              "the cache's judgments (the latest judgment of a pair applies, under the judged scheme)")
def _judge(args: argparse.Namespace) -> int:
    from coreb_core.data.judgments import judge

    j = judge(args.release, args.query, args.doc, args.grade, args.annotator, args.note)
    if args.json:
        print(json.dumps(j.to_json()))
        return 0
    print(terminal_safe(f"judged {j.task} {j.query_id} · {j.doc_id}: {j.grade} ({j.grade_words}) by {j.annotator} on "
                        f"{j.release} (judgment {j.id}, {j.judged_at:%Y-%m-%d %H:%M:%S} UTC)"))
    return 0


def _judgments_arguments(p: argparse.ArgumentParser) -> None:
    from coreb_core.data.judgments import EXPORT_FORMATS

    p.add_argument("--release", required=True, help="a cached release")
    p.add_argument("--export", choices=EXPORT_FORMATS, default=None,
                   help="write the release's v2 qrels with the judgments applied instead: trec (one file of "
                        "'qid 0 docid rel' lines) or coreb (a folder of the hub's <task>_qrels.jsonl files)")
    p.add_argument("--out", default=None, help="with --export: the file (trec) or folder (coreb) to write")
    p.add_argument("--json", action="store_true", help="one object: judgments (each with its status), counts, agreement")


@command("judgments", arguments=_judgments_arguments,
         help="a release's judgments (time, annotator, pair, grade, note; applied, superseded or stale), their counts "
              "and the annotators' agreement (Cohen kappa); or --export the v2 qrels with them applied")
def _judgments(args: argparse.Namespace) -> int:
    from coreb_core.data.judgments import (
        agreement,
        export_judged_qrels,
        judgment_summary,
        judgment_table,
    )
    from coreb_core.data.store import Store, check_cached

    if (args.export is None) != (args.out is None):
        raise UsageError("--export and --out go together: --export trec|coreb --out PATH")
    if args.export is not None:
        out = export_judged_qrels(args.release, args.export, args.out)
        print(terminal_safe(f"wrote the v2 qrels of {args.release} with the judgments applied ({args.export}) to {out}"))
        return 0
    check_cached(args.release)
    with Store(args.release) as store:
        table, summary = judgment_table(store), judgment_summary(store)
    agreements = agreement(args.release)
    rows = [{"id": int(r.id), "judged_at": f"{r.judged_at:%Y-%m-%dT%H:%M:%S}Z", "annotator": r.annotator,  # UTC
             "task": r.task, "query_id": r.query_id, "doc_id": r.doc_id, "grade": int(r.grade),
             "note": r.note if isinstance(r.note, str) else None, "status": r.status}
            for r in table.itertuples(index=False)]
    if args.json:
        print(json.dumps({"release": args.release, "judgments": rows, "counts": summary._asdict(),
                          "agreement": [a._asdict() for a in agreements]}, indent=1))
        return 0
    for r in rows:
        note = f" · note: {r['note']}" if r["note"] else ""
        when = r["judged_at"].replace("T", " ").removesuffix("Z")
        print(terminal_safe(f"{when} UTC {r['annotator']}: {r['task']} {r['query_id']} · {r['doc_id']} = {r['grade']} "
                            f"[{r['status']}]{note}"))
    print(terminal_safe(f"{_count(summary.judgments, 'judgment')} of {_count(summary.pairs, 'pair')} on "
                        f"{args.release}: {summary.applied:,} applied, {summary.superseded:,} superseded, "
                        f"{summary.stale:,} stale (their texts changed since)"))
    for a in agreements:
        print(terminal_safe(a.line()))
    return 0
