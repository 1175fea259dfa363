"""Model selection: choose tasks, languages, a parameter budget and speed or memory limits; get a ranked,
evidenced recommendation and accuracy against measured cost. Layout only: every table comes from
coreb_core.views.selection and published. The page is a list of sections (each a function); a refusal in one is shown
there and never hides the next."""
import math
from typing import NamedTuple

import pandas as pd
import streamlit as st

from coreb_core import report
from coreb_core.analysis.selection import COST_COLUMNS, PUBLISHED_ONLY, Average, Recommendation
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.present.charts import interval_dots, labelled_scatter
from coreb_core.present.display import PRINTABLE_CSS, official_verdict_sentence
from coreb_core.present.format import plain
from coreb_core.present.labels import TASK_LABELS
from coreb_core.present.selection import (
    average_order_sentence,
    cost_points,
    evidence_sentence,
    is_tie,
    left_out_sentence,
    lexical_speed_words,
    published_empty_text,
    recommendation_sentence,
    selection_header,
    shown_ranking,
    summary_markdown,
)
from coreb_core.present.tiers import method_words, selection_tier_sentence
from coreb_core.results.published import release_relation
from coreb_core.views import published, relabel, selection
from coreb_core.views.relabel import READINGS
from coreb_core.views.scope import Scope
from ui.cache import cached, runs_of, scope_of
from ui.chart_specs import draw
from ui.sidebar import sidebar
from ui.state import State, kept, stop_page, url_float, url_list, url_param, write_url
from ui.widgets import csv_download, download, guarded, provenance, run_label


class Choices(NamedTuple):
    """What the user asked: the slice, the limits and how tasks are averaged (from the widgets or, printable, the URL)."""

    tasks: tuple[str, ...]
    languages: tuple[str, ...]
    budget: float | None
    max_ms: float | None
    max_gb: float | None
    average: Average

    def url(self, printable: bool) -> dict[str, str | None]:
        return {"sel_tasks": ",".join(self.tasks), "sel_langs": ",".join(self.languages), "avg": self.average,
                "print": "1" if printable else "0",
                "budget": None if self.budget is None else f"{self.budget:g}",
                "max_ms": None if self.max_ms is None else f"{self.max_ms:g}",
                "max_gb": None if self.max_gb is None else f"{self.max_gb:g}"}


def _leave_printable() -> None:
    st.session_state.sel_print = False


def _url_limit(name: str) -> float | None:
    """A cost limit from the URL: a finite number above 0, else none (a hand-edited URL is not an error)."""
    value = url_float(name)
    return value if value is not None and value > 0 and math.isfinite(value) else None


def _url_average() -> Average:
    return "queries" if url_param("avg") == "queries" else "tasks"


def _seed_widgets() -> None:
    """A new session's widgets start from the URL (a shared link); later runs keep their own values."""
    ss = st.session_state
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
        ss.sel_avg = _url_average()


@guarded
def section_printable() -> bool:
    if "sel_print" not in st.session_state:
        st.session_state.sel_print = url_param("print") == "1"
    printable = st.toggle("Printable one-page view", key=kept("sel_print"),
                          help="Hides the controls and the sidebar and lays the evidence out compactly; print it from "
                               "the browser.")
    if printable:
        st.html(PRINTABLE_CSS)
        st.button("Leave the printable view", key="sel_print_exit", on_click=_leave_printable)
    return printable


@guarded
def section_choices(printable: bool) -> Choices:
    # Not a fragment: every section below reads these choices, and the URL carries them.
    if printable:  # no controls: the choices the URL holds
        choices = Choices(tuple(url_list("sel_tasks", TASK_NAMES)), tuple(url_list("sel_langs", LANGUAGE_SCOPES)),
                          url_float("budget"), _url_limit("max_ms"), _url_limit("max_gb"), _url_average())
        write_url(choices.url(printable))
        return choices
    _seed_widgets()
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
    averages: list[Average] = ["tasks", "queries"]
    average = c5.radio("Average", averages, key=kept("sel_avg"), horizontal=True,
                       format_func=lambda a: {"tasks": "mean of tasks (as the README's Avg)",
                                              "queries": "query-weighted (as paper Table 3)"}[a])
    choices = Choices(tuple(tasks), tuple(languages), float(budget_value) if limit else None,
                      float(ms_value) if ms_on else None, float(gb_value) if gb_on else None, average or "tasks")
    write_url(choices.url(printable))
    return choices


def selection_columns() -> dict:
    return {
        "rank": st.column_config.NumberColumn("#", width=40),
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
        "texts_per_s": st.column_config.NumberColumn("texts/s", format="%.1f", width=70,
                                                     help="texts encoded per CPU-second (a busy machine does not "
                                                          "change it); runs stored before CPU time was recorded, GPU "
                                                          "runs and API models: per wall second ('timed by'). Empty: "
                                                          "not measured, or a lexical run (see ms/query)"),
        "ms_per_query": st.column_config.NumberColumn("ms/query", format="%.2f", width=70,
                                                      help="lexical runs (no encoder): milliseconds per query to "
                                                           "index the corpus and search, CPU time where recorded"),
        "speed_basis": st.column_config.TextColumn("timed by", width=60,
                                                   help="cpu: CPU time (the load does not change it); wall: wall "
                                                        "time (a GPU run, an API model, or a run stored before CPU "
                                                        "time was recorded: load unknown)"),
        "busy": st.column_config.CheckboxColumn("busy", width=45,
                                                help="measured at a load above the machine's core count: its wall "
                                                     "time is not the model's (the CPU-time figure still is)"),
        "peak_memory_gb": st.column_config.NumberColumn("peak GB", format="%.2f", width=70,
                                                        help="peak memory the run measured (process RSS; GPU "
                                                             "memory on CUDA); empty: not measured"),
        **{task: st.column_config.NumberColumn(task.upper(), format="%.1f", width=60) for task in TASK_NAMES}}


@guarded
def section_verdict(scope: Scope, state: State, choices: Choices, names: dict[str, str]
                    ) -> tuple[selection.SelectionView, published.PublishedView]:
    c = choices
    view = cached(selection.build, spinner="Ranking runs (bootstrap intervals, paired tests)…")(
        scope, tasks=c.tasks, languages=c.languages, budget_b=c.budget, average=c.average,
        max_ms_per_text=c.max_ms, max_memory_gb=c.max_gb)
    # The published standings on the same slice, composed once: the table below and the report's read this view
    figures = cached(published.build, results=True)(scope, tasks=c.tasks, languages=c.languages, budget_b=c.budget)
    rec, scheme = view.recommendation, str(state.scheme)
    st.markdown(f"#### {plain(selection_header(rec, scheme, state.release))}")
    with st.container(border=True):
        st.markdown(plain(recommendation_sentence(rec, names)))
        st.text(evidence_sentence(rec, scheme, names))
        if rec.tiers is not None and rec.standings:  # which other runs the first cannot be told apart from
            st.text(selection_tier_sentence(rec.tiers, rec.standings[0].run, names, recommended=not is_tie(rec)))
        if rec.left_out:  # beside the verdict: a run missing from the ranking is part of what it says
            st.text(" ".join(left_out_sentence(x, names) for x in rec.left_out))
        if order := average_order_sentence(rec, names):  # the other average orders runs differently
            st.text(order)
        if above := figures.above_sentence(rec):  # a choice among our runs names the published models above it
            st.text(above)
        if scheme in READINGS:  # corrected labels: the official verdict on the same slice, beside it
            official = guarded(cached(relabel.official_verdict))(
                scope, tasks=c.tasks, languages=c.languages, budget_b=c.budget, average=c.average,
                max_ms_per_text=c.max_ms, max_memory_gb=c.max_gb)
            if official is not None:
                st.markdown(official_verdict_sentence(official))
    st.caption(provenance(state, "mean nDCG@10 ×100 over the chosen queries; 95% percentile bootstrap interval over "
                                 "queries (10,000 resamples); lead: paired randomization test on the queries both runs "
                                 "scored, Holm-corrected across the first run's comparisons; trap share: of the queries "
                                 "with a positive, those lost to a trap (a rel=1 above every rel=2)"))
    return view, figures


@guarded
def section_ranked(rec: Recommendation, state: State, choices: Choices, names: dict[str, str]) -> None:
    st.subheader("Our runs, ranked")
    # the measured costs are a table of their own, in the cost section: with them this one scrolled sideways at 1600 px
    ranked = shown_ranking(rec.ranked, names).drop(columns=list(COST_COLUMNS), errors="ignore")
    st.dataframe(ranked, hide_index=True, placeholder="—", width="stretch", column_config=selection_columns(),
                 column_order=["rank", "tier", "name", "mean", "ci", "ranks", *choices.tasks, "trap_share",
                               "parameters", "queries"])
    if len(ranked):
        ci = ranked.assign(label=ranked["rank"].astype(str) + ". " + ranked["name"].astype(str))
        draw(interval_dots, ci, "label", "mean", "ci_low", "ci_high", x_title="mean nDCG@10 ×100 (95% CI)",
             tooltip=["name", "run", "mean", "ci_low", "ci_high", "parameters", "queries"],
             title="Our runs on the chosen slices")
        st.caption(provenance(state, "bars: bootstrap 95% interval; dots: mean"))
    if rec.tiers is not None:
        st.caption(method_words(rec.tiers))


@guarded
def section_cost(rec: Recommendation, state: State, names: dict[str, str]) -> None:
    st.subheader("Accuracy against measured cost")
    costs, unmeasured = cost_points(rec, names)
    if len(costs):
        draw(labelled_scatter, costs, "texts_per_s", "mean", "name",
             x_title="texts encoded per CPU-second (wall second where no CPU time was recorded; log scale)",
             y_title=f"mean nDCG@10 ×100 (scheme {state.scheme})", series="series", series_title="Model · device",
             tooltip=["name", "run", "mean", "texts_per_s", "ms_per_text", "load", "peak_memory_gb"], log_x=True)
    lexical = lexical_speed_words(rec, names)
    st.caption(provenance(state, "accuracy against measured cost: each encoder run's speed as it measured it while it "
                                 "was made, in CPU time (a busy machine does not change it; \"(busy)\": measured at "
                                 "a load above the core count) on its own machine and device; peak memory in the "
                                 "tooltip")
               + (f". Not drawn (no encoding speed): {', '.join(plain(n) for n in unmeasured)}." if unmeasured else "")
               + (f" Lexical runs, per query: {'; '.join(plain(x) for x in lexical)}." if lexical else ""))
    shown = shown_ranking(rec.ranked, names)
    st.dataframe(shown[[c for c in ("rank", "name", "run", "mean", *COST_COLUMNS) if c in shown.columns]],
                 hide_index=True, placeholder="—", width="stretch", column_config=selection_columns(),
                 column_order=["rank", "name", "mean", "texts_per_s", "ms_per_query", "speed_basis", "busy",
                               "peak_memory_gb"])


@guarded
def section_left_out(rec: Recommendation, names: dict[str, str]) -> None:
    st.caption("Left out of the ranking (why: beside the verdict above).")
    st.dataframe(shown_ranking(rec.excluded, names), hide_index=True, placeholder="—", width="stretch",
                 column_config=selection_columns(), column_order=["name", "parameters", "reason"])


@guarded
def section_published(figures: published.PublishedView, choices: Choices, printable: bool) -> None:
    st.subheader(f"Published models ({PUBLISHED_ONLY})")
    relation = release_relation(figures.release, figures.version)
    st.caption(f"{relation[:1].upper()}{relation[1:]}, as printed ({figures.table}"
               + ("; Table 15 for C2C by anchor language" if figures.version == "v202603" else "") + "): "
               "no per-query data, so no interval and no trap share; parameters from the project page.")
    shown = shown_ranking(figures.ranked, {})
    if len(shown):
        st.dataframe(shown, hide_index=True, placeholder="—", width="stretch", column_config=selection_columns(),
                     column_order=["rank", "model", "mean", *choices.tasks, "parameters", "figures"])
    else:
        st.info(published_empty_text(figures.excluded))
    if len(figures.excluded) and not printable:
        with st.expander(f"{len(figures.excluded)} published models left out"):
            st.dataframe(shown_ranking(figures.excluded, {}), hide_index=True, placeholder="—", width="stretch",
                         column_config=selection_columns(), column_order=["model", "parameters", "reason"])


@guarded
def section_downloads(view: selection.SelectionView, figures: published.PublishedView, state: State,
                      names: dict[str, str]) -> None:
    rec = view.recommendation
    summary = summary_markdown(rec, figures.ranked, str(state.scheme), state.release, names)
    ranked, published_shown = shown_ranking(rec.ranked, names), shown_ranking(figures.ranked, {})
    # A row that wraps, each button as wide as its label (five equal columns cut the labels at 1280 px: issue 34).
    with st.container(horizontal=True):
        st.download_button("Download summary (markdown)", summary.encode("utf-8"), file_name="coreb_selection.md",
                           mime="text/markdown", key="sel-summary", on_click="ignore")
        download("Download report (HTML)", key="sel-report", file_name=f"coreb_report_{state.release}.html",
                 mime="text/html", help="One self-contained file (charts inline) that prints to two A4 pages.",
                 building="Building the report (HTML): the verdict, tables and charts of this selection…",
                 make=lambda: report.html(view, figures).encode("utf-8"))  # renders them: computes nothing
        csv_download(ranked, "selection_ranked", label="Download ranking (CSV)")
        csv_download(published_shown, "selection_published", label="Download published models (CSV)")
        if len(rec.excluded) or len(figures.excluded):
            csv_download(pd.concat([shown_ranking(rec.excluded, names), shown_ranking(figures.excluded, {})],
                                   ignore_index=True), "selection_excluded", label="Download left-out models (CSV)")


state = sidebar()
st.title("Model selection")
printable = bool(section_printable())
choices = section_choices(printable)
if choices is None or not choices.tasks or not choices.languages:
    st.warning("Choose at least one task and one language.")
    stop_page()
if not state.run_ids:
    st.info("Choose one or more runs in the sidebar (or create one on Run retrieval).")
    stop_page()
names = {run: run_label(meta) for run, meta in runs_of(state.release).items()}
views = section_verdict(scope_of(state), state, choices, names)
if views is None:  # refused (shown above): the tables and the report all read these two views
    stop_page()
view, figures = views
section_ranked(view.recommendation, state, choices, names)
if len(view.recommendation.ranked) and not printable:  # the printable page keeps one chart
    section_cost(view.recommendation, state, names)
if len(view.recommendation.excluded):
    section_left_out(view.recommendation, names)
section_published(figures, choices, printable)
section_downloads(view, figures, state, names)
