"""The stakeholder report: one self-contained HTML file a person can keep, mail and print.

It names the constraints (release, scheme, tasks, languages, metric, parameter limit, anchor
exclusion), states the recommendation with its evidence, ranks the runs with significance marks
(paired randomization test of each run against the best, Holm-corrected), shows the key charts as
inline SVG (altair rendered by vl-convert: no script, no font or stylesheet fetched) and says
where every number comes from. Print CSS keeps it to at most two A4 pages.

It computes nothing: ``html`` renders a ``SelectionView`` (the verdict, standings and tiers, as the Model selection
page and ``select`` show them) and a ``PublishedView`` (the published standings on the same slice), built once by
whoever asks (the page from its cache, the ``report`` verb as ``select`` builds them), in the way ranx's ``Report``
renders results computed once.

Example (CoREB-mini and a BM25 run in the cache folder ``root``; the report is written beside it, as a
path inside the cache is refused):

    >>> from coreb_core.views import published, selection
    >>> from coreb_core.views.scope import Scope
    >>> scope = Scope.of("demo_v2603", [bm25])
    >>> chosen = selection.build(scope, tasks=("t2c",), budget_b=1.0)
    >>> page = html(chosen, published.build(scope, tasks=("t2c",), budget_b=1.0))
    >>> write_report(root.parent / "report.html", page).name
    'report.html'
"""
from __future__ import annotations

import html as html_lib
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

import altair as alt
import pandas as pd

from coreb_core.analysis.comparison import SIGNIFICANCE_LEVEL
from coreb_core.analysis.selection import TABLE3, Standing
from coreb_core.atomic import atomic_write_text, check_target
from coreb_core.data.measures import metric_label
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.errors import CorebError
from coreb_core.present import charts
from coreb_core.present.numbers import points, shown_difference, signed_points
from coreb_core.present.selection import (
    average_order_sentence,
    evidence_sentence,
    is_tie,
    left_out_sentence,
    parameter_text,
    recommendation_sentence,
    resolution_flips,
    versus_first_words,
)
from coreb_core.present.tiers import flips_words, method_words, rank_interval_words, selection_tier_sentence
from coreb_core.results.published import release_relation
from coreb_core.runs.cost import cost_words
from coreb_core.text import p_text
from coreb_core.views.published import PublishedView
from coreb_core.views.selection import SelectionView

PUBLISHED_ROWS = 5  # published models shown: enough to place our runs, short enough for two pages


def svg(chart: alt.TopLevelMixin) -> str:
    """An altair chart as inline SVG markup: rendered offline by vl-convert, XML namespaces dropped
    (HTML5 needs none) so the page names no URL at all.

    >>> "<svg" in svg(alt.Chart(pd.DataFrame({"a": [1]})).mark_bar().encode(x="a:Q"))
    True
    """
    import vl_convert as vlc

    markup = vlc.vegalite_to_svg(chart.to_dict())
    return re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", markup)


PRINT_WIDTH_PX = 170  # each chart's plot width: two fit side by side on an A4 page with their labels
PRINT_ROW_PX = 18  # a row per run: the charts stay short enough for two pages


def _task_chart(ranked: pd.DataFrame, board: Sequence[Standing], metric_name: str) -> alt.LayerChart:
    """Each ranked run's mean per chosen task (``Recommendation.ranked``'s task columns; a task the run has no query
    in is empty there and left out)."""
    per_task = ranked.set_index("run")
    rows = [{"model": s.model, "task": t.upper(), "value": round(float(per_task.loc[s.run, t]) * 100, 1)}
            for s in board for t in TASK_NAMES if pd.notna(per_task.loc[s.run, t])]
    label = f"{metric_name} ×100"
    return charts.heatmap(pd.DataFrame(rows), "task", "model", "value", x_title=None, y_title=None,
                          legend_title=label, x_sort=[t.upper() for t in TASK_NAMES], y_sort=[s.model for s in board],
                          title=f"{label} by task", cell_px=PRINT_ROW_PX, width=PRINT_WIDTH_PX,
                          legend=False)  # its gradient would be an url(#…) reference; the cells carry values


def _trap_chart(board: Sequence[Standing]) -> alt.Chart | alt.LayerChart:
    data = pd.DataFrame({"model": [s.model for s in board], "share": [round(s.trap_share * 100, 1) for s in board]})
    return charts.hbar(data, "model", "share", x_title="% of queries", y_sort=list(data["model"]),
                       color_scale=None, title="Trap ranked above the first positive", bar_px=PRINT_ROW_PX,
                       width=PRINT_WIDTH_PX)


def _ci_chart(board: Sequence[Standing], metric_name: str) -> alt.LayerChart:
    data = pd.DataFrame({"model": [s.model for s in board], "mean": [s.mean * 100 for s in board],
                         "low": [s.ci_low * 100 for s in board], "high": [s.ci_high * 100 for s in board]})
    return charts.interval_dots(data, "model", "mean", "low", "high",
                                x_title=f"mean {metric_name} ×100 (95% CI)", y_sort=list(data["model"]),
                                title="Slice score with 95% interval", row_px=PRINT_ROW_PX, width=PRINT_WIDTH_PX)


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


def _mark(s: Standing, flips: int) -> str:
    if s.rank == 1 or not s.compared:
        return versus_first_words(s, flips)  # "best", or "not compared: no query in common"
    return ("▼ below best" if s.significant else "≈ not distinguishable") + f" ({p_text(s.p_holm, flips)})"


def html(selection: SelectionView, published: PublishedView, now: datetime | None = None) -> str:
    """The stakeholder report of a selection as one self-contained HTML string (see the module docstring): it renders
    the two views and computes nothing, so it states the verdict of whoever built them (the page passes its own,
    ``report`` builds them as ``select`` does). ``published`` must be asked for the selection's release and slice
    (tasks, languages, parameter limit); ``now`` is the time it says it was generated (default: now, UTC).

    Example (CoREB-mini and a BM25 run in the cache folder ``root``):

    >>> from coreb_core.views import published as published_view, selection as selection_view
    >>> from coreb_core.views.scope import Scope
    >>> scope = Scope.of("demo_v2603", [bm25])
    >>> chosen = selection_view.build(scope, tasks=("t2c",), budget_b=1.0)
    >>> page = html(chosen, published_view.build(scope, tasks=("t2c",), budget_b=1.0))
    >>> "<script" in page, page.count("<svg")
    (False, 3)
    >>> html(chosen, published_view.build(scope, tasks=("c2c",), budget_b=1.0))
    Traceback (most recent call last):
    ValueError: the published standings are for another slice than the selection: build both from one choice
    """
    scope, rec = selection.scope, selection.recommendation
    if (published.release, published.tasks, published.languages, published.budget_b) != (
            scope.release, rec.tasks, rec.languages, rec.budget_b):
        raise ValueError("the published standings are for another slice than the selection: build both from one choice")
    release, scheme, board, metric = scope.release, scope.scheme, rec.standings, rec.metric
    label = metric_label(metric)
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    official = str(scheme) == "v2"
    semantics = "official CoREB semantics" if official else f"scheme {scheme}: {scheme.description}"
    all_languages = set(LANGUAGE_SCOPES) <= set(rec.languages)

    constraints = [("Release", release), ("Scheme", f"{scheme} ({'official' if official else 'not official'})"),
                   ("Tasks", ", ".join(t.upper() for t in rec.tasks)),
                   ("Languages", "all" if all_languages else ", ".join(rec.languages)),
                   ("Metric", f"{label} ×100, {'mean of task means' if rec.average == 'tasks' else 'query-weighted mean'}"),
                   ("Parameter limit", "none" if rec.budget_b is None else f"{rec.budget_b:g} B"),
                   *([("Speed limit", f"{rec.max_ms_per_text:g} ms per text")] if rec.max_ms_per_text else []),
                   *([("Memory limit", f"{rec.max_memory_gb:g} GB peak")] if rec.max_memory_gb else []),
                   ("C2C anchor", "excluded from rankings (official)" if scope.anchor_exclusion else "kept (as MTEB)")]
    parts = ["<h1>CoREB model selection report</h1>",
             '<table class="constraints">' + "".join(
                 f"<tr><td><b>{_esc(k)}</b></td><td>{_esc(v)}</td></tr>" for k, v in constraints)
             + f"</table><p class=\"note\">Generated {_esc(stamp)}.</p>",
             f'<div class="rec"><b>Recommendation.</b> {_esc(recommendation_sentence(rec))}<br>'
             f"{_esc(evidence_sentence(rec, str(scheme)))}"
             + (f"<br>{_esc(tier_words)}" if (tier_words := selection_tier_sentence(
                 rec.tiers, board[0].run if board else "", {s.run: s.model for s in board},
                 recommended=not is_tie(rec))) else "")
             + (f"<br>{_esc(order)}" if (order := average_order_sentence(rec)) else "")
             + (f"<br>{_esc(above)}" if (above := published.above_sentence(rec)) else "") + "</div>"]

    places = {r.run: r for r in rec.tiers.runs} if rec.tiers is not None else {}
    rows = [[str(s.rank), _esc(s.model), str(places[s.run].tier) if s.run in places else "–",
             rank_interval_words(places[s.run]) if s.run in places else "–",
             _esc(parameter_text(s.params_b)), str(s.queries),
             f"<b>{points(s.mean)}</b>" + ("*" if s.significant else ""),
             f"{points(s.ci_low)}–{points(s.ci_high)}", "" if s.rank == 1 else signed_points(shown_difference(s.mean, board[0].mean) / 100),
             _esc(_mark(s, resolution_flips(rec))), "" if s.rank == 1 else f"{s.wins}/{s.ties}/{s.losses}", points(s.trap_share)]
            for s in board]
    parts.append("<section><h2>Leaderboard (our runs on this release)</h2>" + _table(
        [("#", False), ("model", False), ("tier", True), ("rank 95%", True), ("params", True), ("queries", True),
         (f"{label} ×100", True),
         ("95% CI", True), ("Δ vs best", True), ("vs best (Holm)", False), ("W/T/L vs best", True),
         ("trap %", True)], rows)
        + f'<p class="note">* significantly below the best run (paired randomization test on shared queries, '
          f"{flips_words(selection.n_permutations)}, Holm-corrected across runs, α = {SIGNIFICANCE_LEVEL}). 95% CI: "
          "percentile bootstrap over queries. trap %: share of queries lost to a trap, i.e. of the queries with a "
          "positive (rel=2), those with a trap (rel=1) ranked above every positive."
        + (f" {_esc(method_words(rec.tiers))}" if rec.tiers is not None else "") + "</p>")
    if rec.left_out:
        parts.append('<p class="note">' + " ".join(_esc(left_out_sentence(x)) for x in rec.left_out) + "</p>")
    parts.append("</section>")

    if board:
        drawn = [_ci_chart(board, label), _trap_chart(board), _task_chart(rec.ranked, board, label)]
        parts.append('<section><h2>Key charts</h2><div class="charts">'
                     + "".join(svg(c) for c in drawn) + "</div></section>")

    top = published.ranked.head(PUBLISHED_ROWS)
    pub_rows = [[str(r["rank"]), _esc(r["model"]), _esc(parameter_text(r["params_b"])), points(r["mean"]),
                 _esc(r["figures"])] for _, r in top.iterrows()]
    parts.append(f"<section><h2>Published models ({_esc(release_relation(release, published.version))}; nDCG@10)</h2>"
                 + (_table([("#", False), ("model", False), ("params", True), ("nDCG@10 ×100", True),
                            ("figures", False)], pub_rows) if pub_rows
                    else '<p class="note">None: the chosen languages cannot be applied to published figures.</p>')
                 + (f'<p class="note">Top {PUBLISHED_ROWS} of {len(published.ranked)} within the limit.</p>'
                    if len(published.ranked) > PUBLISHED_ROWS else "") + "</section>")

    prov = [f"<li>{_esc(s.model)}: evaluated here from run {_esc(s.run)}, {_esc(semantics)}, release "
            f"{_esc(release)}; measured cost: {_esc(cost_words(s.cost))}.</li>" for s in board]
    paper = "paper Table 3" if all_languages else "paper Tables 3 and 15"
    prov.append(f"<li>Published models: published figure, {paper} (source {_esc(TABLE3.split(':', 1)[1])}); "
                "parameter counts from the project page; no per-query data, so no interval or test.</li>")
    parts.append('<section class="prov"><h2>Provenance of every number</h2><ul>' + "".join(prov) + "</ul></section>")
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>CoREB report · {_esc(release)}'
            f"</title><style>{CSS}</style></head><body>\n{body}\n</body></html>\n")


def check_out(path: Path | str) -> Path:
    """Fail early, before the slow evaluation, when the report cannot be written at ``path``: it is a
    folder, a FIFO or a device, inside the cache folder, or its nearest existing parent is a file or not
    writable (``atomic.check_target``).

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
