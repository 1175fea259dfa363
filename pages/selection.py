"""Model selection: choose tasks, languages, a parameter budget and speed or memory limits; get a ranked,
evidenced recommendation and accuracy against measured cost. Layout only: the analysis is
coreb_core.analysis.selection."""
import math

import pandas as pd
import streamlit as st

from coreb_core import report
from coreb_core.analysis.selection import PUBLISHED_ONLY, parameter_text
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.present.charts import interval_dots, labelled_scatter
from coreb_core.present.display import PRINTABLE_CSS, official_verdict_sentence, selection_points
from coreb_core.present.format import plain
from coreb_core.present.labels import TASK_LABELS
from coreb_core.present.numbers import interval_text
from coreb_core.present.selection import (
    cost_points,
    evidence_sentence,
    left_out_sentence,
    published_empty_text,
    recommendation_sentence,
    selection_header,
    summary_markdown,
)
from coreb_core.present.tiers import method_words, rank_range, selection_tier_sentence
from coreb_core.results.published import release_relation
from coreb_core.views import published, relabel, selection
from coreb_core.views.relabel import READINGS
from ui.cache import cached, runs_of, scope_of
from ui.chart_specs import draw
from ui.sidebar import sidebar
from ui.state import kept, stop_page, url_float, url_list, url_param, write_url
from ui.widgets import csv_download, download, guarded, provenance, run_label


def _leave_printable() -> None:
    st.session_state.sel_print = False


def _url_limit(name: str) -> float | None:
    """A cost limit from the URL: a finite number above 0, else none (a hand-edited URL is not an error)."""
    value = url_float(name)
    return value if value is not None and value > 0 and math.isfinite(value) else None


state = sidebar()
st.title("Model selection")

ss = st.session_state
if "sel_print" not in ss:
    ss.sel_print = url_param("print") == "1"
printable = st.toggle("Printable one-page view", key=kept("sel_print"),
                      help="Hides the controls and the sidebar and lays the evidence out compactly; print it from "
                           "the browser.")
if printable:
    st.html(PRINTABLE_CSS)
    st.button("Leave the printable view", key="sel_print_exit", on_click=_leave_printable)
    tasks, languages = url_list("sel_tasks", TASK_NAMES), url_list("sel_langs", LANGUAGE_SCOPES)
    budget = url_float("budget")
    max_ms, max_gb = _url_limit("max_ms"), _url_limit("max_gb")
    average = "queries" if url_param("avg") == "queries" else "tasks"
else:
    for key, allowed in (("sel_tasks", TASK_NAMES), ("sel_langs", LANGUAGE_SCOPES)):
        if key not in ss:
            ss[key] = url_list(key, allowed)
    if "sel_limit" not in ss:
        ss.sel_limit = url_float("budget") is not None
        ss.sel_budget = url_float("budget") if url_float("budget") is not None else 1.0
    for key, param, default in (("sel_ms", "max_ms", 5.0), ("sel_gb", "max_gb", 2.0)):
        if f"{key}_on" not in ss:
            ss[f"{key}_on"] = _url_limit(param) is not None
            ss[key] = _url_limit(param) or default
    if "sel_avg" not in ss:
        ss.sel_avg = "queries" if url_param("avg") == "queries" else "tasks"
    # Short chips (T2C, not "Text → code (T2C)"), and room for the six languages: long chips were cut at 1280 px.
    c1, c2 = st.columns([2, 3])
    tasks = c1.multiselect("Tasks that matter", list(TASK_NAMES), key=kept("sel_tasks"), format_func=str.upper,
                           help=" · ".join(TASK_LABELS[t] for t in TASK_NAMES))
    languages = c2.multiselect("Languages that matter", list(LANGUAGE_SCOPES), key=kept("sel_langs"),
                               help="T2C: the language constraint ('any' = unconstrained queries). C2C and C2T: the "
                                    "language of the query code.")
    c3, c4, c5 = st.columns([1, 1, 2])
    limit = c3.toggle("Limit parameters", key=kept("sel_limit"))
    budget_value = c4.number_input("Budget (billions)", min_value=0.0, step=0.5, format="%.4g", key=kept("sel_budget"),
                                   disabled=not limit)
    budget = float(budget_value) if limit else None
    # Cost limits: what each run measured while it was made (run.json's cost); unmeasured runs are left out
    c6, c7, c8, c9 = st.columns([1, 1, 1, 1])
    ms_on = c6.toggle("Limit speed", key=kept("sel_ms_on"),
                      help="Milliseconds per text as the run measured them (encoding, or BM25's index and search). "
                           "Runs that measured no speed (older, imported, served by the embedding cache) are left out.")
    ms_value = c7.number_input("ms per text at most", min_value=0.001, step=1.0, format="%.4g", key=kept("sel_ms"),
                               disabled=not ms_on)
    gb_on = c8.toggle("Limit memory", key=kept("sel_gb_on"),
                      help="Peak memory the run measured: the process's resident set (RSS high-water mark), or "
                           "torch's allocated GPU memory on CUDA. Runs that measured none are left out.")
    gb_value = c9.number_input("peak GB at most", min_value=0.001, step=0.5, format="%.4g", key=kept("sel_gb"),
                               disabled=not gb_on)
    max_ms = float(ms_value) if ms_on else None
    max_gb = float(gb_value) if gb_on else None
    average = c5.radio("Average", ["tasks", "queries"], key=kept("sel_avg"), horizontal=True,
                       format_func=lambda a: {"tasks": "mean of tasks (as the README's Avg)",
                                              "queries": "query-weighted (as paper Table 3)"}[a])
write_url({"sel_tasks": ",".join(tasks), "sel_langs": ",".join(languages), "avg": average,
           "print": "1" if printable else "0", "budget": None if budget is None else f"{budget:g}",
           "max_ms": None if max_ms is None else f"{max_ms:g}", "max_gb": None if max_gb is None else f"{max_gb:g}"})

if not tasks or not languages:
    st.warning("Choose at least one task and one language.")
    stop_page()
if not state.run_ids:
    st.info("Choose one or more runs in the sidebar (or create one on Run retrieval).")
    stop_page()
scope = scope_of(state)
scheme, metas = str(state.scheme), runs_of(state.release)
view = guarded(cached(selection.build, spinner="Ranking runs (bootstrap intervals, paired tests)…"))(
    scope, tasks=tuple(tasks), languages=tuple(languages), budget_b=budget, average=average,
    max_ms_per_text=max_ms, max_memory_gb=max_gb)
# The published standings on the same slice, composed once: the table below and the report's read this view
figures = guarded(cached(published.build, results=True))(scope, tasks=tuple(tasks), languages=tuple(languages),
                                                         budget_b=budget)
if view is None or figures is None:  # refused (shown above): the verdict, the tables and the report all read them
    stop_page()
rec = view.recommendation
published_excluded = figures.excluded

names = {run: run_label(meta) for run, meta in metas.items()}
summary = summary_markdown(rec, figures.ranked, scheme, state.release, names)


def _for_display(frame):
    """x100 points (the library's fractions), the run's name and its parameters in words; the ids and
    the numeric params_b stay in the data (CSV) but are not shown."""
    out = selection_points(frame)
    if "ci_low" in frame.columns:  # one narrow column: the table fits 1400 px wide too
        out["ci"] = [interval_text(lo, hi) for lo, hi in zip(frame["ci_low"], frame["ci_high"])]
    if "rank_low" in frame.columns:
        out["ranks"] = [rank_range(lo, hi) for lo, hi in zip(frame["rank_low"], frame["rank_high"])]
    if "run" in out.columns:
        out.insert(1, "name", [names.get(r, m) for r, m in zip(out["run"], out["model"])])
    out["parameters"] = out["params_b"].map(parameter_text)
    return out


ranked, published_shown = _for_display(rec.ranked), _for_display(figures.ranked)
excluded = _for_display(rec.excluded)
columns = {"rank": st.column_config.NumberColumn("#", width=40),
           "name": st.column_config.TextColumn("run"), "model": st.column_config.TextColumn("model"),
           "mean": st.column_config.NumberColumn("nDCG@10 ×100", format="%.1f", width=100,
                                                            help="mean nDCG@10 ×100 over the chosen slices"),
           "ci": st.column_config.TextColumn("95% CI", width=90, help="bootstrap 95% interval of the mean"),
           "trap_share": st.column_config.NumberColumn("trap share (%)", format="%.1f", width=110,
                                                       help="of the queries with a positive, those lost to a "
                                                            "trap (a rel=1 above every rel=2), %"),
           "parameters": st.column_config.TextColumn("parameters", width=90),
           "tier": st.column_config.NumberColumn("tier", width=45,
                                                 help="rank tier: runs without a significant difference (all pairs, "
                                                      "Holm) always share one"),
           "ranks": st.column_config.TextColumn("rank 95%", width=75,
                                                help="2.5–97.5 percentile of the run's rank over bootstrap resamples "
                                                     "of the queries"),
           "queries": st.column_config.NumberColumn("queries", width=62),
           "texts_per_s": st.column_config.NumberColumn("texts/s", format="%.0f", width=70,
                                                        help="texts encoded (or indexed and scored, BM25) per second, "
                                                             "as the run measured; empty: not measured"),
           "peak_memory_gb": st.column_config.NumberColumn("peak GB", format="%.2f", width=70,
                                                           help="peak memory the run measured (process RSS; GPU "
                                                                "memory on CUDA); empty: not measured"),
           **{task: st.column_config.NumberColumn(task.upper(), format="%.1f", width=60) for task in TASK_NAMES}}
# Only the chosen tasks' columns: the others are empty by construction.
ranked_order = ["rank", "tier", "name", "mean", "ci", "ranks", *tasks, "trap_share", "parameters", "texts_per_s",
                "peak_memory_gb", "queries"]
published_order = ["rank", "model", "mean", *tasks, "parameters", "figures"]
excluded_order = ["name", "parameters", "reason"]

st.markdown(f"#### {plain(selection_header(rec, scheme, state.release))}")
with st.container(border=True):
    st.markdown(plain(recommendation_sentence(rec, names)))
    st.text(evidence_sentence(rec, scheme, names))
    if rec.tiers is not None and rec.standings:  # which other runs the first cannot be told apart from
        st.text(selection_tier_sentence(rec.tiers, rec.standings[0].run, names))
    if rec.left_out:  # beside the verdict: a run missing from the ranking is part of what it says
        st.text(" ".join(left_out_sentence(x, names) for x in rec.left_out))
    if str(state.scheme) in READINGS:  # corrected labels: the official verdict on the same slice, beside it
        official = guarded(cached(relabel.official_verdict))(
            scope, tasks=tuple(tasks), languages=tuple(languages), budget_b=budget, average=average,
            max_ms_per_text=max_ms, max_memory_gb=max_gb)
        if official is not None:
            st.markdown(official_verdict_sentence(official))
st.caption(provenance(state, "mean nDCG@10 ×100 over the chosen queries; 95% percentile bootstrap interval over "
                             "queries (10,000 resamples); lead: paired randomization test on the queries both runs "
                             "scored, Holm-corrected across the first run's comparisons; trap share: of the queries "
                             "with a positive, those lost to a trap (a rel=1 above every rel=2)"))

st.subheader("Our runs, ranked")
st.dataframe(ranked, hide_index=True, placeholder="—", width="stretch", column_config=columns,
             column_order=ranked_order)
if len(ranked):
    ci = ranked.assign(label=ranked["rank"].astype(str) + ". " + ranked["name"].astype(str))
    draw(interval_dots, ci, "label", "mean", "ci_low", "ci_high", x_title="mean nDCG@10 ×100 (95% CI)",
         tooltip=["name", "run", "mean", "ci_low", "ci_high", "parameters", "queries"],
         title="Our runs on the chosen slices")
    st.caption(provenance(state, "bars: bootstrap 95% interval; dots: mean"))
if rec.tiers is not None:
    st.caption(method_words(rec.tiers))
if len(ranked) and not printable:  # the printable page keeps one chart; the cost is in its table and evidence
    st.subheader("Accuracy against measured cost")
    costs, unmeasured = cost_points(rec, names)
    if len(costs):
        draw(labelled_scatter, costs, "texts_per_s", "mean", "name", x_title="texts per second, as measured (log scale)",
             y_title=f"mean nDCG@10 ×100 (scheme {scheme})", series="series", series_title="Model · device",
             tooltip=["name", "run", "mean", "texts_per_s", "ms_per_text", "peak_memory_gb"], log_x=True)
    st.caption(provenance(state, "accuracy against measured cost: each run's speed as it measured it while it was made "
                                 "(texts encoded per second; BM25: texts indexed and scored per second) on its own "
                                 "machine and device; peak memory in the tooltip")
               + (f". Not drawn, speed not measured: {', '.join(plain(n) for n in unmeasured)}." if unmeasured else ""))
if len(excluded):
    st.caption("Left out of the ranking (why: beside the verdict above).")
    st.dataframe(excluded, hide_index=True, placeholder="—", width="stretch", column_config=columns, column_order=excluded_order)

st.subheader(f"Published models ({PUBLISHED_ONLY})")
relation = release_relation(figures.release, figures.version)
st.caption(f"{relation[:1].upper()}{relation[1:]}, as printed ({figures.table}"
           + ("; Table 15 for C2C by anchor language" if figures.version == "v202603" else "") + "): "
           "no per-query data, so no interval and no trap share; parameters from the project page.")
if len(published_shown):
    st.dataframe(published_shown, hide_index=True, placeholder="—", width="stretch", column_config=columns,
                 column_order=published_order)
else:
    st.info(published_empty_text(published_excluded))
if len(published_excluded) and not printable:
    with st.expander(f"{len(published_excluded)} published models left out"):
        st.dataframe(_for_display(published_excluded), hide_index=True, placeholder="—", width="stretch", column_config=columns,
                     column_order=["model", "parameters", "reason"])

shown = (view, figures)  # the two views this page shows (both built: it stopped above otherwise), for the report
# A row that wraps, each button as wide as its label (five equal columns cut the labels at 1280 px: issue 34).
with st.container(horizontal=True):
    st.download_button("Download summary (markdown)", summary.encode("utf-8"), file_name="coreb_selection.md",
                       mime="text/markdown", key="sel-summary", on_click="ignore")
    download("Download report (HTML)", key="sel-report", file_name=f"coreb_report_{state.release}.html",
             mime="text/html", help="One self-contained file (charts inline) that prints to two A4 pages.",
             building="Building the report (HTML): the verdict, tables and charts of this selection…",
             make=lambda: report.html(*shown).encode("utf-8"))  # renders them: computes nothing
    csv_download(ranked, "selection_ranked", label="Download ranking (CSV)")
    csv_download(published_shown, "selection_published", label="Download published models (CSV)")
    if len(rec.excluded) or len(published_excluded):
        csv_download(pd.concat([excluded, _for_display(published_excluded)], ignore_index=True),
                     "selection_excluded", label="Download left-out models (CSV)")
