"""Compare runs: paired tests with Holm correction, win/tie/loss, bootstrap intervals, per-query Δ."""
from itertools import combinations

import altair as alt
import streamlit as st

from coreb_core.analysis.comparison import coverage, metric_columns, split_runs
from coreb_core.data.measures import metric_label
from coreb_core.errors import CorebError
from coreb_core.present.charts import interval_dots, outcome_histogram
from coreb_core.present.display import (
    VERDICT_COLUMNS,
    pct_columns,
    text_preview,
    verdict_sentence,
    verdict_table,
)
from coreb_core.present.format import plain
from coreb_core.present.labels import TASK_LABELS
from ui.cache import compare_tests, run_pair_deltas, run_tables, runs_of
from ui.chart_specs import draw
from ui.navigation import open_inspector
from ui.sidebar import sidebar
from ui.state import one_of, remembered, some_of, stop_page, write_url
from ui.widgets import csv_download, provenance, run_label, show_error

state = sidebar()
st.title("Compare runs")

runs = runs_of(state.release)
labels = {r: run_label(m) for r, m in runs.items()}
if len(runs) < 2:
    st.info("Comparing needs at least two stored runs of this release. Add one on Run retrieval.")
    stop_page()

left, right = st.columns([3, 1])
default = [r for r in state.run_ids if r in runs]
picked = left.multiselect("Runs to compare", list(runs), format_func=labels.get,
                          key=remembered("compare_runs", "compare", some_of(list(runs)),
                                         default if len(default) >= 2 else list(runs)[-2:], allowed=list(runs)))
if len(picked) < 2:
    st.info("Pick two or more runs.")
    stop_page()

try:
    tables = run_tables(state._replace(run_ids=list(picked)))
except CorebError as exc:
    show_error(exc)
    stop_page()
per_query_all = tables.per_query(state.scheme)
metrics = metric_columns(per_query_all)
metric = right.selectbox("Metric", metrics, key=remembered("compare_metric", "metric", one_of(metrics),
                                                          "ndcg_at_10" if "ndcg_at_10" in metrics else metrics[0],
                                                          allowed=metrics))
per_query = split_runs(per_query_all, state.task, picked)

pairs, ci, verdicts, headline = compare_tests(state, picked, metric, labels)
# The result first, in words: the two best runs' verdict (every pair's verdict is in the table below).
with st.container(border=True):
    st.markdown(plain(verdict_sentence(headline, labels)) if headline else "No pair to compare.")

cover = coverage(per_query)
source = provenance(state, f"{TASK_LABELS[state.task]} · `{metric}`")
st.caption(f"{cover['shared']} queries are in every picked run and {cover['dropped']} of {cover['any']} were "
           "dropped (not shared by all). Each pair below is compared on the queries both of its runs share.")

st.subheader("Every pair: Δ of the better run, 95% CI, p after Holm correction, wins / ties / losses")
st.caption(source + f" · Δ = mean {metric_label(metric)} ×100 of the better run minus the other on their shared "
           "queries; 95% CI: percentile bootstrap of the paired differences (10,000 resamples, seed 0); p: two-sided "
           f"paired randomization test (10,000 sign flips, seed 0), Holm-corrected across the {len(pairs)} pair(s). "
           "The CSV also has run ids, both means and the paired t-test.")
table = verdict_table(pairs, verdicts, labels)
st.dataframe(table, hide_index=True, placeholder="—", column_order=[*VERDICT_COLUMNS, "shared"], column_config={
    "better": st.column_config.TextColumn("better run"), "other": st.column_config.TextColumn("vs"),
    "delta_points": st.column_config.NumberColumn("Δ (points)", format="%.1f"),
    "delta_ci": st.column_config.TextColumn("95% CI of Δ"), "p_holm_text": st.column_config.TextColumn("p (Holm)"),
    "verdict": st.column_config.TextColumn("verdict"), "record": st.column_config.TextColumn("wins / ties / losses"),
    "shared": st.column_config.NumberColumn("shared queries")}, key="compare_pairs")
csv_download(table, f"compare_pairs_{state.release}_{state.task}_{metric}")

st.subheader("Per run: mean and bootstrap 95% interval")
st.caption(source + " · percentile bootstrap over queries (10,000 resamples, seed 0), each run on its own queries")
ci_points = pct_columns(ci, ["mean", "ci_low", "ci_high"])  # x100, one decimal, as on every page
st.dataframe(ci_points, hide_index=True, placeholder="—", column_order=["label", "queries", "mean", "ci_low", "ci_high"],
             column_config={"label": st.column_config.TextColumn("run"),
                            "mean": st.column_config.NumberColumn(f"mean {metric_label(metric)} ×100", format="%.1f"),
                            "ci_low": st.column_config.NumberColumn("95% CI low", format="%.1f"),
                            "ci_high": st.column_config.NumberColumn("95% CI high", format="%.1f")},
             key="compare_ci")
csv_download(ci, f"compare_intervals_{state.release}_{state.task}_{metric}")
if len(ci):
    draw(interval_dots, ci_points, "label", "mean", "ci_low", "ci_high",
         x_title=f"{metric_label(metric)} ×100 (95% interval)",
         tooltip=["label", "queries", alt.Tooltip("mean:Q", format=".1f"), alt.Tooltip("ci_low:Q", format=".1f"),
                  alt.Tooltip("ci_high:Q", format=".1f")])

st.subheader("Per-query Δ for one pair")
# Each pair oriented better − other, as the headline and the table above tell it; the headline's pair first.
oriented = {frozenset((v.a, v.b)): (v.a, v.b) for v in verdicts}
pair_options = [oriented.get(frozenset(p), p) for p in combinations(picked, 2)]
if headline:
    pair_options.sort(key=lambda p: p != (headline.a, headline.b))
pair_by_text = {",".join(p): p for p in pair_options}
a, b = st.selectbox("Pair (a − b)", pair_options, format_func=lambda p: f"{labels[p[0]]}  −  {labels[p[1]]}",
                    key=remembered("compare_pair", "pair", lambda raw: pair_by_text.get(raw[-1]), pair_options[0],
                                   allowed=pair_options))
write_url({"compare": list(picked), "metric": metric, "pair": f"{a},{b}"})
deltas = run_pair_deltas(state._replace(run_ids=list(picked)), a, b, metric)
st.caption(source + f" · {len(deltas)} queries shared by the pair")
shown_deltas = pct_columns(deltas, ["delta", f"{metric} (a)", f"{metric} (b)"])  # points, as above
draw(outcome_histogram, shown_deltas, "delta", "outcome", x_title=f"Δ {metric_label(metric)} ×100 (a − b)",
     outcome_title=f"for a = {labels[a]}",
     outcomes={"win": "#2e7d32", "tie": "#9e9e9e", "loss": "#c62828"})
st.caption("Queries sorted by Δ (largest first). Select a row to open it in the inspector.")
chosen = st.dataframe(shown_deltas.assign(query=text_preview(deltas["query"])), hide_index=True, placeholder="—",
                      on_select="rerun", selection_mode="single-row",
                      key="compare_deltas", width="stretch",
                      column_order=["query_id", "delta", "outcome", f"{metric} (a)", f"{metric} (b)", "subtask", "query"],
                      column_config={"query_id": st.column_config.TextColumn("Query", width=230),
                                     "delta": st.column_config.NumberColumn("Δ ×100 (a − b)", format="%.1f",
                                                                            width=80),
                                     "outcome": st.column_config.TextColumn("Outcome for a", width=100),
                                     f"{metric} (a)": st.column_config.NumberColumn("a ×100", format="%.1f", width=70),
                                     f"{metric} (b)": st.column_config.NumberColumn("b ×100", format="%.1f", width=70),
                                     "subtask": st.column_config.TextColumn("Subtask", width=190),
                                     "query": st.column_config.TextColumn("Query text", width=340)})
csv_download(deltas, f"compare_deltas_{state.release}_{state.task}_{metric}")
rows = chosen.selection.rows if chosen is not None else []
if rows:
    open_inspector(state._replace(run_ids=list(picked)), str(deltas.iloc[rows[0]]["query_id"]))
