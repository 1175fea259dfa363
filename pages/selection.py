"""Model selection: choose tasks, languages and a parameter budget; get a ranked, evidenced
recommendation. Layout only: the analysis is coreb_core.analysis.selection."""
import altair as alt
import streamlit as st

from coreb_core.errors import CorebError
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.runs.results import all_rows
from coreb_core.analysis.selection import PUBLISHED_ONLY, recommend, recommend_published
from coreb_core.report import build_report
from ui.cache import run_tables, runs_of, store
from ui.display import selection_points, summary_markdown, winner_sentence
from ui.labels import TASK_LABELS
from ui.sidebar import sidebar
from ui.state import url_float, url_list, url_param, write_url
from ui.widgets import csv_download, provenance, show_error

from coreb_core.paths import release_dir
from ui.cache import tables as cached_tables


@st.cache_data(show_spinner="Ranking runs (bootstrap intervals)…", max_entries=64)
def _recommend(release: str, version: str, run_ids: tuple, scheme: str, anchor: bool, tasks: tuple,
               languages: tuple, budget, average: str):
    """The bootstrap behind the recommendation is the page's slow part: computed once per choice."""
    tables = cached_tables(release, version, run_ids, scheme, anchor)
    return recommend(store(release), tables.per_query(scheme), tables.traps, runs_of(release), list(tasks),
                     list(languages), budget, average)


state = sidebar()
st.title("Model selection")

ss = st.session_state
printable = st.toggle("Printable one-page view", key="sel_print", value=url_param("print") == "1",
                      help="Hides the controls and lays the evidence out compactly; print it from the browser.")
if printable:
    tasks, languages = url_list("sel_tasks", TASK_NAMES), url_list("sel_langs", LANGUAGE_SCOPES)
    budget = url_float("budget")
    average = "queries" if url_param("avg") == "queries" else "tasks"
else:
    for key, allowed in (("sel_tasks", TASK_NAMES), ("sel_langs", LANGUAGE_SCOPES)):
        if key not in ss:
            ss[key] = url_list(key, allowed)
    if "sel_limit" not in ss:
        ss.sel_limit = url_float("budget") is not None
        ss.sel_budget = url_float("budget") if url_float("budget") is not None else 1.0
    if "sel_avg" not in ss:
        ss.sel_avg = "queries" if url_param("avg") == "queries" else "tasks"
    c1, c2 = st.columns(2)
    tasks = c1.multiselect("Tasks that matter", list(TASK_NAMES), key="sel_tasks", format_func=TASK_LABELS.get)
    languages = c2.multiselect("Languages that matter", list(LANGUAGE_SCOPES), key="sel_langs",
                               help="T2C: the language constraint ('any' = unconstrained queries). C2C and C2T: the "
                                    "language of the query code.")
    c3, c4, c5 = st.columns([1, 1, 2])
    limit = c3.toggle("Limit parameters", key="sel_limit")
    budget_value = c4.number_input("Budget (billions)", min_value=0.0, step=0.5, format="%.4g", key="sel_budget",
                                   disabled=not limit)
    budget = float(budget_value) if limit else None
    average = c5.radio("Average", ["tasks", "queries"], key="sel_avg", horizontal=True,
                       format_func={"tasks": "mean of tasks (as the README's Avg)",
                                    "queries": "query-weighted (as paper Table 3)"}.get)
write_url({"sel_tasks": ",".join(tasks), "sel_langs": ",".join(languages), "avg": average,
           "print": "1" if printable else "0", "budget": None if budget is None else f"{budget:g}"})

if not tasks or not languages:
    st.warning("Choose at least one task and one language.")
    st.stop()
if not state.run_ids:
    st.info("Choose one or more runs in the sidebar (or create one on Run retrieval).")
    st.stop()
try:
    tables = run_tables(state)
    scheme = str(state.scheme)
    metas = runs_of(state.release)
    rec = _recommend(state.release, str(release_dir(state.release).resolve()), tuple(state.run_ids), scheme,
                     state.anchor_exclusion, tuple(tasks), tuple(languages), budget, average)
    published, published_excluded = recommend_published(all_rows(), tasks, languages, budget)
except CorebError as exc:
    show_error(exc)
    st.stop()

sentence = winner_sentence(rec, scheme)
summary = summary_markdown(rec, published, scheme, state.release)
# The library's fractions, printed x100 (one decimal) in every table, chart and CSV.
ranked, published = selection_points(rec.ranked), selection_points(published)
columns = {"mean_ndcg_at_10": st.column_config.NumberColumn("mean nDCG@10 ×100", format="%.1f"),
           "ci_low": st.column_config.NumberColumn("95% CI low", format="%.1f"),
           "ci_high": st.column_config.NumberColumn("95% CI high", format="%.1f"),
           "trap_share": st.column_config.NumberColumn("trap above 1st positive (%)", format="%.1f"),
           "params_b": st.column_config.NumberColumn("params (B)", format="%.4g"),
           **{task: st.column_config.NumberColumn(task.upper(), format="%.1f") for task in TASK_NAMES}}

st.subheader("Recommendation")
with st.container(border=True):
    st.text(sentence)
st.caption(provenance(state, "mean nDCG@10 ×100 over the chosen queries; 95% percentile bootstrap interval over "
                             "queries (10,000 resamples); trap share from the graded qrels (rel=1 above the first "
                             "rel=2)"))
if printable:
    st.dataframe(ranked.drop(columns=["evidence"]), hide_index=True, width="stretch",
                 column_config=columns)
    if len(rec.excluded):
        st.dataframe(rec.excluded, hide_index=True, width="stretch")
    st.caption(f"Published models ({PUBLISHED_ONLY}: real CoREB v202603, not this release; no interval)")
    st.dataframe(published.drop(columns=["evidence"]), hide_index=True, width="stretch",
                 column_config=columns)
    st.download_button("Download summary (markdown)", summary.encode("utf-8"), file_name="coreb_selection.md",
                       mime="text/markdown", key="sel-summary")
    csv_download(ranked, "selection_ranked")
    csv_download(published, "selection_published")
    st.stop()

st.subheader("Our runs, ranked")
st.dataframe(ranked, hide_index=True, width="stretch", column_config=columns)
csv_download(ranked, "selection_ranked")
if len(ranked):
    ci = ranked.assign(label=ranked["rank"].astype(str) + ". " + ranked["model"].astype(str))
    base = alt.Chart(ci).encode(y=alt.Y("label:N", sort=list(ci["label"]), title=None))
    bars = base.mark_rule(strokeWidth=3).encode(x=alt.X("ci_low:Q", title="mean nDCG@10 ×100 (95% CI)",
                                                      scale=alt.Scale(zero=False)),
                                                x2="ci_high:Q", tooltip=["model", "run", "mean_ndcg_at_10",
                                                                         "ci_low", "ci_high", "queries"])
    dots = base.mark_point(size=80, filled=True).encode(x="mean_ndcg_at_10:Q")
    st.altair_chart((bars + dots).properties(height=alt.Step(36), title="Our runs on the chosen slices"),
                    width="stretch")
    st.caption(provenance(state, "bars: bootstrap 95% interval; dots: mean"))
if len(rec.excluded):
    st.caption("Left out of the ranking")
    st.dataframe(rec.excluded, hide_index=True, width="stretch")
    csv_download(rec.excluded, "selection_excluded")

st.subheader(f"Published models ({PUBLISHED_ONLY})")
st.caption("Real CoREB v202603 as printed (paper Table 3; Table 15 for C2C by anchor language), not this release: "
           "no per-query data, so no interval and no trap share; parameters from the project page.")
st.dataframe(published, hide_index=True, width="stretch", column_config=columns)
csv_download(published, "selection_published")
if len(published_excluded):
    with st.expander(f"{len(published_excluded)} published models left out"):
        st.dataframe(published_excluded.drop(columns=["run"]), hide_index=True, width="stretch")
        csv_download(published_excluded, "selection_published_excluded")

st.download_button("Download summary (markdown)", summary.encode("utf-8"), file_name="coreb_selection.md",
                   mime="text/markdown", key="sel-summary")
st.download_button("Download report (HTML)", key="sel-report", file_name=f"coreb_report_{state.release}.html",
                   mime="text/html", help="One self-contained file (charts inline) that prints to two A4 pages.",
                   data=lambda: build_report(state.release, state.run_ids, scheme, tasks, languages, budget,
                                             anchor_exclusion=state.anchor_exclusion, average=average,
                                             evaluation=tables).encode("utf-8"))
