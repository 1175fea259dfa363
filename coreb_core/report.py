"""The stakeholder report: one self-contained HTML file a person can keep, mail and print.

It names the constraints (release, scheme, tasks, languages, metric, parameter limit, anchor
exclusion), states the recommendation with its evidence, ranks the runs with significance marks
(paired randomization test of each run against the best, Holm-corrected), shows the key charts as
inline SVG (altair rendered by vl-convert: no script, no font or stylesheet fetched) and says
where every number comes from. Print CSS keeps it to at most two A4 pages.

Example (CoREB-mini and a BM25 run in the cache; not doctested):
    >>> html = build_report("demo_v2603", tasks=("t2c",), budget_b=1.0)
    >>> write_report(Path("report.html"), html)
"""
from __future__ import annotations

import html as html_lib
import math
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, NamedTuple, Sequence

import altair as alt
import numpy as np
import pandas as pd

from coreb_core.data.published import comparable_version, release_relation
from coreb_core.analysis.leaderboard import run_params
from coreb_core.analysis.selection import (TABLE3, Recommendation, parameter_text, recommend, recommend_published,
                                           selected_queries, slice_scores)
from coreb_core.atomic import atomic_write_text, check_target
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import Evaluation, analyse_many
from coreb_core.evaluation.schemes import V1, V2, Scheme
from coreb_core.evaluation.significance import compare_pair, holm, intervals
from coreb_core.runs.results import all_rows
from coreb_core.runs.run import RunMeta, list_runs, read_hits, run_meta, run_name
from coreb_core.text import p_text

METRICS = ("ndcg_at_10", "map_at_10", "recall_at_10", "mrr_at_10")
METRIC_LABELS = {"ndcg_at_10": "nDCG@10", "map_at_10": "MAP@10", "recall_at_10": "Recall@10", "mrr_at_10": "MRR@10"}
ALPHA = 0.05
PUBLISHED_ROWS = 5  # published models shown: enough to place our runs, short enough for two pages
PERMUTATIONS = 10_000


class Standing(NamedTuple):
    """One run of the report's leaderboard: its score on the chosen slice (a fraction) and how it
    compares with the best run (paired randomization test on shared queries, Holm across runs).

    >>> Standing._fields[:5]
    ('rank', 'run', 'model', 'params_b', 'queries')
    """

    rank: int
    run: str
    model: str
    params_b: float | None
    queries: int
    mean: float
    ci_low: float
    ci_high: float
    trap_share: float
    delta_vs_best: float  # mean - best mean (0 for the best)
    p_holm: float  # Holm-adjusted p-value against the best (nan for the best)
    wins: int  # queries where this run beats the best
    ties: int
    losses: int


def points(value: float | None) -> str:
    """A fraction as x100 points with one decimal, or an en dash when missing.

    >>> points(0.43219), points(None), points(float("nan"))
    ('43.2', '–', '–')
    """
    return "–" if value is None or pd.isna(value) else f"{float(value) * 100:.1f}"


def slice_frames(per_query: pd.DataFrame, store: Store, runs: Iterable[str], tasks: Sequence[str],
                 languages: Sequence[str], metric: str, average: str = "tasks") -> dict[str, pd.DataFrame]:
    """Per run: its queries in the chosen tasks and languages with ``score``, the per-query ``metric``
    weighted so that the plain mean of ``score`` is the slice score (mean of task means when
    ``average="tasks"``, else query-weighted), as ``coreb_core.analysis.selection`` weights nDCG@10.

    >>> frames = slice_frames(tables.per_query("v2"), store, ["bm25"], ("t2c",), LANGUAGE_SCOPES, "ndcg_at_10")
    >>> round(frames["bm25"]["score"].mean(), 4)   # demo_v2603, not doctested
    0.2998
    """
    wanted = {str(r) for r in runs}
    frames = slice_scores(per_query, selected_queries(store, tasks, languages), average, metric)
    return {run: frame for run, frame in frames.items() if run in wanted}


def standings(frames: dict[str, pd.DataFrame], rec: Recommendation, metas: dict[str, RunMeta],
              n_permutations: int = PERMUTATIONS, seed: int = 0) -> list[Standing]:
    """The runs ``rec`` ranked (within the budget) ordered by their slice score, each compared with the
    best on shared queries (paired randomization test, Holm-corrected across the comparisons).

    >>> [s.rank for s in standings(frames, rec, metas)]   # two runs, not doctested
    [1, 2]
    """
    kept = [r for r in rec.ranked["run"].astype(str) if r in frames and len(frames[r])]
    if not kept:
        return []
    ci = intervals({r: frames[r] for r in kept}, "score", seed=seed).set_index("run")
    trap = rec.ranked.set_index("run")["trap_share"]
    order = sorted(kept, key=lambda r: (-ci.loc[r, "mean"], r))
    best = order[0]
    tests = [compare_pair(frames[r], frames[best], "score", r, best, n_permutations, seed) for r in order[1:]]
    adjusted = holm([t.p_randomization for t in tests]) if tests else []
    out = [Standing(1, best, run_name(metas[best]) if best in metas else best, run_params(metas.get(best)),
                    int(ci.loc[best, "queries"]), float(ci.loc[best, "mean"]), float(ci.loc[best, "ci_low"]),
                    float(ci.loc[best, "ci_high"]), float(trap.get(best, np.nan)), 0.0, math.nan, 0, 0, 0)]
    for i, (r, t, p) in enumerate(zip(order[1:], tests, adjusted), start=2):
        out.append(Standing(i, r, run_name(metas[r]) if r in metas else r, run_params(metas.get(r)),
                            int(ci.loc[r, "queries"]), float(ci.loc[r, "mean"]), float(ci.loc[r, "ci_low"]),
                            float(ci.loc[r, "ci_high"]), float(trap.get(r, np.nan)),
                            float(ci.loc[r, "mean"] - ci.loc[best, "mean"]), float(p), t.wins, t.ties, t.losses))
    return out


def recommendation_sentence(board: list[Standing], slice_words: str, metric: str, scheme: str) -> str:
    """The recommendation in one sentence, with its evidence (x100 points, interval, significance).

    >>> best = Standing(1, "r1", "minilm", 0.0227, 720, 0.48, 0.45, 0.51, 0.31, 0.0, float("nan"), 0, 0, 0)
    >>> second = Standing(2, "r2", "bm25", None, 720, 0.467, 0.44, 0.50, 0.4, -0.013, 0.39, 300, 100, 320)
    >>> print(recommendation_sentence([best, second], "T2C · all languages · no parameter limit", "ndcg_at_10", "v2"))
    For T2C · all languages · no parameter limit, choose minilm: mean nDCG@10 48.0 (95% CI 45.0–51.0, 720 queries, scheme v2), a trap above the first positive on 31.0% of queries; it leads bm25 by 1.3 points, not significant after Holm correction (p = 0.39), 320 wins / 100 ties / 300 losses.
    """
    label = METRIC_LABELS.get(metric, metric)
    if not board:
        return f"No run qualifies for {slice_words}."
    top = board[0]
    text = (f"For {slice_words}, choose {top.model}: mean {label} {points(top.mean)} (95% CI {points(top.ci_low)}–"
            f"{points(top.ci_high)}, {top.queries} queries, scheme {scheme}), a trap above the first positive on "
            f"{points(top.trap_share)}% of queries")
    if len(board) == 1:
        return text + "; it is the only run that qualifies."
    second = board[1]
    verdict = ("significant" if second.p_holm < ALPHA else "not significant") + " after Holm correction"
    # wins/losses of the runner-up against the best, told from the best's side
    return (text + f"; it leads {second.model} by {-second.delta_vs_best * 100:.1f} points, {verdict} "
            f"({p_text(second.p_holm)}), {second.losses} wins / {second.ties} ties / {second.wins} losses.")


def slice_words(tasks: Sequence[str], languages: Sequence[str], budget_b: float | None) -> str:
    """The chosen slice in words.

    >>> slice_words(("t2c", "c2c"), LANGUAGE_SCOPES, 1.0)
    'T2C, C2C · all languages · at most 1 B parameters'
    """
    langs = "all languages" if set(LANGUAGE_SCOPES) <= set(languages) else ", ".join(languages)
    budget = "no parameter limit" if budget_b is None else f"at most {budget_b:g} B parameters"
    return f"{', '.join(t.upper() for t in tasks)} · {langs} · {budget}"


def svg(chart: alt.TopLevelMixin) -> str:
    """An altair chart as inline SVG markup: rendered offline by vl-convert, XML namespaces dropped
    (HTML5 needs none) so the page names no URL at all.

    >>> "<svg" in svg(alt.Chart(pd.DataFrame({"a": [1]})).mark_bar().encode(x="a:Q"))
    True
    """
    import vl_convert as vlc

    markup = vlc.vegalite_to_svg(chart.to_dict())
    return re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", markup)


def _task_chart(frames: dict[str, pd.DataFrame], board: list[Standing], metric: str) -> alt.Chart:
    rows = [{"model": s.model, "task": t.upper(), "value": round(float(g.loc[g["task"] == t, metric].mean()) * 100, 1)}
            for s in board for t, g in [(t, frames[s.run]) for t in TASK_NAMES] if (g["task"] == t).any()]
    data = pd.DataFrame(rows)
    order = [s.model for s in board]
    base = alt.Chart(data).encode(
        y=alt.Y("model:N", sort=order, title=None, axis=alt.Axis(labelLimit=160)),
        x=alt.X("value:Q", title=f"{METRIC_LABELS.get(metric, metric)} ×100"))
    bars = base.mark_bar().encode(color=alt.Color("model:N", sort=order, legend=None))
    text = base.mark_text(align="left", dx=2, fontSize=9).encode(text=alt.Text("value:Q", format=".1f"))
    return (bars + text).properties(width=190, height=alt.Step(14)).facet(
        column=alt.Column("task:N", title=None, sort=[t.upper() for t in TASK_NAMES])
    ).properties(title=f"{METRIC_LABELS.get(metric, metric)} ×100 by task")


def _trap_chart(board: list[Standing]) -> alt.Chart:
    data = pd.DataFrame({"model": [s.model for s in board], "share": [round(s.trap_share * 100, 1) for s in board]})
    base = alt.Chart(data).encode(y=alt.Y("model:N", sort=list(data["model"]), title=None,
                                          axis=alt.Axis(labelLimit=160)),
                                  x=alt.X("share:Q", title="% of queries", scale=alt.Scale(domain=[0, 100])))
    return (base.mark_bar(color="#d9822b") + base.mark_text(align="left", dx=2, fontSize=9).encode(
        text=alt.Text("share:Q", format=".1f"))).properties(
        width=220, height=alt.Step(14), title="Trap ranked above the first positive")


def _ci_chart(board: list[Standing], metric: str) -> alt.Chart:
    data = pd.DataFrame({"model": [s.model for s in board], "mean": [s.mean * 100 for s in board],
                         "low": [s.ci_low * 100 for s in board], "high": [s.ci_high * 100 for s in board]})
    base = alt.Chart(data).encode(y=alt.Y("model:N", sort=list(data["model"]), title=None,
                                          axis=alt.Axis(labelLimit=160)))
    rule = base.mark_rule(strokeWidth=3).encode(x=alt.X("low:Q", scale=alt.Scale(zero=False),
                                                        title=f"mean {METRIC_LABELS.get(metric, metric)} ×100 (95% CI)"),
                                                x2=alt.X2("high"))
    dot = base.mark_point(filled=True, size=50, color="black").encode(x=alt.X("mean:Q"))
    return (rule + dot).properties(width=220, height=alt.Step(14), title="Slice score with 95% interval")


CSS = """
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: sans-serif; font-size: 9pt; line-height: 1.3; margin: 0 auto; max-width: 186mm; color: #111; }
h1 { font-size: 14pt; margin: 0 0 2mm; } h2 { font-size: 10.5pt; margin: 3mm 0 1mm; }
table { border-collapse: collapse; width: 100%; font-size: 8pt; }
th, td { border-bottom: 1px solid #ccc; padding: 1px 4px; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; } td.n { white-space: nowrap; }
.constraints { width: auto; } .constraints td { border: none; padding: 0 6px 0 0; }
.rec { border: 1px solid #888; padding: 2mm; margin: 2mm 0; }
.charts { display: flex; flex-wrap: wrap; gap: 3mm; } .charts svg { max-width: 100%; height: auto; }
.note, .prov { font-size: 7.5pt; color: #333; } .prov li { margin: 0; }
section { break-inside: avoid; }
"""


def _esc(value: object) -> str:
    return html_lib.escape(str(value))


def _table(header: list[tuple[str, bool]], rows: list[list[str]]) -> str:
    head = "".join(f'<th class="n">{_esc(h)}</th>' if num else f"<th>{_esc(h)}</th>" for h, num in header)
    body = "".join("<tr>" + "".join(f'<td class="n">{c}</td>' if num else f"<td>{c}</td>"
                                    for c, (_, num) in zip(row, header)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _mark(s: Standing) -> str:
    if s.rank == 1:
        return "best"
    return ("▼ below best" if s.p_holm < ALPHA else "≈ not distinguishable") + f" ({p_text(s.p_holm)})"


def build_report(release: str, run_ids: Sequence[str] | None = None, scheme: str = "v2",
                 tasks: Sequence[str] = TASK_NAMES, languages: Sequence[str] = LANGUAGE_SCOPES,
                 budget_b: float | None = None, metric: str = "ndcg_at_10", anchor_exclusion: bool = True,
                 average: str = "tasks", evaluation: Evaluation | None = None,
                 n_permutations: int = PERMUTATIONS, now: datetime | None = None) -> str:
    """The stakeholder report as one self-contained HTML string (see the module docstring).

    ``run_ids`` default to every stored run of the release; ``evaluation`` may pass the runs already
    evaluated (``analyse_many`` with traps, the scheme and v2), as the app holds them. Raises
    ``CorebError`` for an unknown release, run, scheme, task or metric, or a run of another release.

    >>> html = build_report("demo_v2603", tasks=("t2c",), budget_b=1.0)   # not doctested
    >>> "<script" in html, html.count("<svg")
    (False, 3)
    """
    try:
        parsed = Scheme.parse(scheme)
    except ValueError as exc:
        raise CorebError(str(exc)) from None
    if metric not in METRICS:
        raise CorebError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}")
    unknown = [t for t in tasks if t not in TASK_NAMES]
    if unknown or not tasks:
        raise CorebError(f"unknown task {', '.join(unknown) or '(none)'}; choose from {', '.join(TASK_NAMES)}")
    store = Store(release)
    if run_ids:
        metas = {r: run_meta(r) for r in run_ids}
        other = [f"{r} ({m.release})" for r, m in metas.items() if m.release not in (None, release)]
        if other:
            raise CorebError(f"runs made on another release than {release}: {', '.join(other)}")
    else:
        metas = {m.run_id: m for m in sorted(list_runs(release), key=lambda m: m.created or "")}
        if not metas:
            raise CorebError(f"release {release} has no stored runs; make one with: python -m coreb_core run "
                             f"--model bm25 --release {release}")
    if evaluation is None:
        schemes = tuple(dict.fromkeys([parsed, V2, V1]))
        evaluation = analyse_many(store, {r: read_hits(r) for r in metas}, schemes, anchor_exclusion, traps=True)
    per_query = evaluation.per_query(parsed)
    rec = recommend(store, per_query, evaluation.traps, metas, tasks, languages, budget_b, average)
    frames = slice_frames(per_query, store, rec.ranked["run"].astype(str), tasks, languages, metric, average)
    board = standings(frames, rec, metas, n_permutations)
    published, _ = recommend_published(all_rows(), tasks, languages, budget_b, comparable_version(release))
    words = slice_words(tasks, languages, budget_b)
    label = METRIC_LABELS[metric]
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    semantics = "official CoREB semantics" if str(parsed) == "v2" else f"scheme {parsed}: {parsed.description}"

    constraints = [("Release", release), ("Scheme", f"{parsed} ({'official' if str(parsed) == 'v2' else 'not official'})"),
                   ("Tasks", ", ".join(t.upper() for t in tasks)),
                   ("Languages", "all" if set(LANGUAGE_SCOPES) <= set(languages) else ", ".join(languages)),
                   ("Metric", f"{label} ×100, {'mean of task means' if average == 'tasks' else 'query-weighted mean'}"),
                   ("Parameter limit", "none" if budget_b is None else f"{budget_b:g} B"),
                   ("C2C anchor", "excluded from rankings (official)" if anchor_exclusion else "kept (as MTEB)")]
    parts = ["<h1>CoREB model selection report</h1>",
             '<table class="constraints">' + "".join(
                 f"<tr><td><b>{_esc(k)}</b></td><td>{_esc(v)}</td></tr>" for k, v in constraints)
             + f"</table><p class=\"note\">Generated {_esc(stamp)}.</p>",
             f'<div class="rec"><b>Recommendation.</b> {_esc(recommendation_sentence(board, words, metric, str(parsed)))}'
             "</div>"]

    rows = [[str(s.rank), _esc(s.model), _esc(parameter_text(s.params_b)), str(s.queries),
             f"<b>{points(s.mean)}</b>" + ("*" if s.rank > 1 and s.p_holm < ALPHA else ""),
             f"{points(s.ci_low)}–{points(s.ci_high)}", "" if s.rank == 1 else f"{s.delta_vs_best * 100:+.1f}",
             _esc(_mark(s)), "" if s.rank == 1 else f"{s.wins}/{s.ties}/{s.losses}", points(s.trap_share)]
            for s in board]
    parts.append("<section><h2>Leaderboard (our runs on this release)</h2>" + _table(
        [("#", False), ("model", False), ("params", True), ("queries", True), (f"{label} ×100", True),
         ("95% CI", True), ("Δ vs best", True), ("vs best (Holm)", False), ("W/T/L vs best", True),
         ("trap %", True)], rows)
        + f'<p class="note">* significantly below the best run (paired randomization test on shared queries, '
          f"{n_permutations:,} sign flips, Holm-corrected across runs, α = {ALPHA}). 95% CI: percentile bootstrap "
          "over queries. trap %: queries with a trap (rel=1) ranked above the first positive (rel=2).</p>")
    if len(rec.excluded):
        parts.append('<p class="note">Left out: ' + "; ".join(
            f"{_esc(r['model'])}: {_esc(r['reason'])}" for _, r in rec.excluded.iterrows()) + "</p>")
    parts.append("</section>")

    if board:
        charts = [_ci_chart(board, metric), _trap_chart(board), _task_chart(frames, board, metric)]
        parts.append('<section><h2>Key charts</h2><div class="charts">'
                     + "".join(svg(c) for c in charts) + "</div></section>")

    top = published.head(PUBLISHED_ROWS)
    pub_rows = [[str(r["rank"]), _esc(r["model"]), _esc(parameter_text(r["params_b"])), points(r["mean_ndcg_at_10"]),
                 _esc(r["figures"])] for _, r in top.iterrows()]
    parts.append(f"<section><h2>Published models ({_esc(release_relation(release))}; nDCG@10)</h2>"
                 + (_table([("#", False), ("model", False), ("params", True), ("nDCG@10 ×100", True),
                            ("figures", False)], pub_rows) if pub_rows
                    else '<p class="note">None: the chosen languages cannot be applied to published figures.</p>')
                 + (f'<p class="note">Top {PUBLISHED_ROWS} of {len(published)} within the limit.</p>'
                    if len(published) > PUBLISHED_ROWS else "") + "</section>")

    prov = [f"<li>{_esc(s.model)}: evaluated here from run {_esc(s.run)}, {_esc(semantics)}, release "
            f"{_esc(release)}.</li>" for s in board]
    paper = "paper Table 3" if set(LANGUAGE_SCOPES) <= set(languages) else "paper Tables 3 and 15"
    prov.append(f"<li>Published models: published figure, {paper} (source {_esc(TABLE3.split(':', 1)[1])}); "
                "parameter counts from the project page; no per-query data, so no interval or test.</li>")
    parts.append('<section class="prov"><h2>Provenance of every number</h2><ul>' + "".join(prov) + "</ul></section>")
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>CoREB report · {_esc(release)}'
            f"</title><style>{CSS}</style></head><body>\n{body}\n</body></html>\n")


def check_out(path: Path) -> Path:
    """Fail early, before the slow evaluation, when the report cannot be written at ``path``: it is a
    folder, or its nearest existing parent is a file or not writable.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_out(folder / "new" / "r.html").name
    'r.html'
    >>> (folder / "f").write_text("")
    0
    >>> check_out(folder / "f" / "r.html")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: cannot write .../f/r.html: .../f is not a folder
    """
    return check_target(path, hint="name a file such as report.html")


def write_report(path: Path, html: str) -> Path:
    """Write the report atomically (a reader sees the old file or the whole new one); a CorebError
    when ``path`` is a folder or cannot be written.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_report(folder / "r.html", "<p>hi</p>").name
    'r.html'
    >>> write_report(folder, "<p>hi</p>")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: ... is a folder; name a file such as report.html
    """
    path = check_out(path)
    try:
        atomic_write_text(path, html)
    except OSError as exc:
        raise CorebError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path
