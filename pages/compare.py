"""Compare runs: paired tests (every pair or against a baseline; Holm, Bonferroni or BH), win/tie/loss, bootstrap
intervals, per-query Δ, and the queries whose two rankings differ most (tau-AP, weighted tau)."""
from itertools import combinations

import altair as alt
import streamlit as st

from coreb_core.analysis.comparison import coverage, metric_columns, split_runs
from coreb_core.analysis.slices import DEFAULT_QUANTILES, SLICE_BYS
from coreb_core.data.measures import metric_label
from coreb_core.errors import CorebError
from coreb_core.present.charts import interval_dots, line_chart, outcome_histogram
from coreb_core.present.display import (
    CONTRAST_LABELS,
    CORRECTION_NAMES,
    CORRECTION_SHORT,
    VERDICT_SHOWN,
    pct_columns,
    text_preview,
    verdict_sentence,
    verdict_table,
)
from coreb_core.present.format import plain
from coreb_core.present.labels import SLICE_LABELS, TASK_LABELS, TRAP_KIND_LABELS
from coreb_core.views import traps
from ui.cache import (
    cached,
    compare_tests,
    run_contrasts,
    run_difficulty,
    run_pair_deltas,
    run_rerank_errors,
    run_tables,
    runs_of,
    scope_of,
)
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
# A run made for other tasks (`--tasks c2c`) scores no query of this one: say so, rather than show empty tables.
unscored = [r for r in picked if per_query[r].empty]
if unscored:
    st.warning(plain(f"{', '.join(labels[r] for r in unscored)} scored no {TASK_LABELS[state.task]} query (made for "
                     "other tasks): a pair with it shares no query to compare. Pick runs that cover this task, or "
                     "choose another task in the sidebar."))
if len(picked) - len(unscored) < 2:
    write_url({"compare": list(picked), "metric": metric})
    stop_page()

# PyTerrier's baseline=: each other run against it, or every pair; the correction across those comparisons.
NO_BASELINE = ""
base_col, correction_col = st.columns([1, 1])
baselines = [NO_BASELINE, *picked]
baseline = base_col.selectbox("Baseline", baselines, format_func=lambda r: labels.get(r, "none (every pair)"),
                              key=remembered("compare_baseline", "baseline", one_of(baselines), NO_BASELINE,
                                             allowed=baselines),
                              help="With a baseline, each other run is compared against it only (as PyTerrier's "
                                   "baseline=); without one, every pair of runs.")
corrections = list(CORRECTION_NAMES)
correction = correction_col.radio("Correction", corrections, format_func=CORRECTION_SHORT.get, horizontal=True,
                                  key=remembered("compare_correction", "correction", one_of(corrections), "holm",
                                                 allowed=corrections),
                                  help="For the many comparisons: Holm and Bonferroni bound the chance of any false "
                                       "positive; BH (Benjamini–Hochberg) bounds their expected share.")
pairs, ci, verdicts, headline = compare_tests(state, picked, metric, labels, baseline or None, correction)
# The result first, in words: the two best runs' verdict (every pair's verdict is in the table below).
with st.container(border=True):
    st.markdown(plain(verdict_sentence(headline, labels)) if headline else "No pair to compare.")

cover = coverage(per_query)
source = provenance(state, f"{TASK_LABELS[state.task]} · `{metric}`")
st.caption(f"{cover['shared']} queries are in every picked run and {cover['dropped']} of {cover['any']} were "
           "dropped (not shared by all). Each pair below is compared on the queries both of its runs share.")

which = f"Each run against {labels[baseline]}" if baseline else "Every pair"
named, short = CORRECTION_NAMES[correction], CORRECTION_SHORT[correction]
st.subheader(f"{which}: Δ of the better run, 95% CI, p after {named} correction, wins / ties / losses")
st.caption(source + f" · Δ = mean {metric_label(metric)} ×100 of the better run minus the other on their shared "
           "queries; 95% CI: percentile bootstrap of the paired differences (10,000 resamples, seed 0); p: two-sided "
           f"paired randomization test (10,000 sign flips, seed 0), {named}-corrected across the {len(pairs)} "
           "pair(s); beside it the paired t-test's p, corrected the same way. The CSV also has run ids, both means, "
           "the uncorrected and the Holm-corrected p-values.")
table = verdict_table(pairs, verdicts, labels)
st.dataframe(table, hide_index=True, placeholder="—", column_order=[*VERDICT_SHOWN, "shared"], column_config={
    "better": st.column_config.TextColumn("better run"), "other": st.column_config.TextColumn("vs"),
    "delta_points": st.column_config.NumberColumn("Δ (points)", format="%.1f"),
    "delta_ci": st.column_config.TextColumn("95% CI of Δ"),
    "p_text": st.column_config.TextColumn(f"p ({short})"),
    "p_ttest_text": st.column_config.TextColumn(f"t-test p ({short})"),
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
# A pair without a verdict (a baseline was chosen) goes by the runs' means, so that choosing one keeps the pairs.
oriented = {frozenset((v.a, v.b)): (v.a, v.b) for v in verdicts}
means = dict(zip(ci["run"], ci["mean"])) if len(ci) else {}
pair_options = [oriented.get(frozenset(p), tuple(sorted(p, key=lambda r: -means.get(r, 0.0))))
                for p in combinations(picked, 2)]
if headline:
    pair_options.sort(key=lambda p: p != (headline.a, headline.b))
pair_by_text = {",".join(p): p for p in pair_options}
a, b = st.selectbox("Pair (a − b)", pair_options, format_func=lambda p: f"{labels[p[0]]}  −  {labels[p[1]]}",
                    key=remembered("compare_pair", "pair", lambda raw: pair_by_text.get(raw[-1]), pair_options[0],
                                   allowed=pair_options))
write_url({"compare": list(picked), "metric": metric, "pair": f"{a},{b}", "baseline": baseline or None,
           "correction": correction})
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

st.subheader("Contrasting queries: where the two rankings differ most")
pick_col, measure_col, k_col = st.columns([3, 2, 1])
ca, cb = pick_col.selectbox("Runs to contrast", pair_options,
                            format_func=lambda p: f"{labels[p[0]]}  vs  {labels[p[1]]}",
                            key=remembered("compare_contrast", "contrast", lambda raw: pair_by_text.get(raw[-1]),
                                           pair_options[0], allowed=pair_options))
measures = list(CONTRAST_LABELS)
measure = measure_col.radio("Rank correlation", measures, format_func=CONTRAST_LABELS.get, horizontal=True,
                            key=remembered("compare_contrast_by", "contrast_by", one_of(measures), measures[0],
                                           allowed=measures))
depths = [5, 10, 20, 50, 100]
k = k_col.selectbox("Top k", depths, key=remembered("compare_contrast_k", "contrast_k", one_of(depths), 10,
                                                    allowed=depths))
write_url({"contrast": f"{ca},{cb}", "contrast_by": measure, "contrast_k": str(k)})
contrasts = run_contrasts(state._replace(run_ids=list(picked)), ca, cb, metric, k, measure, 20)
st.caption(source + f" · {CONTRAST_LABELS[measure]} of each query's two top-{k} lists over their union (1 = the same "
           "order, −1 = reversed; a difference near the top costs more). A document missing from one run's top k is "
           "placed below that run's list, in the other run's order and in its reverse: the value is the mean of both. "
           f"{contrasts.queries} queries compared, mean {contrasts.mean:.3f}; the {len(contrasts.rows)} lowest are "
           f"listed. a = {labels[ca]}, b = {labels[cb]}; shared = documents in both top {k}; Δ {metric_label(metric)} "
           "×100 = a − b. Select a row to open it in the inspector.")
shown_contrasts = pct_columns(contrasts.rows.drop(columns=["outcome"], errors="ignore"),
                              ["delta", f"{metric} (a)", f"{metric} (b)"])
picked_contrast = st.dataframe(
    shown_contrasts.assign(query=text_preview(contrasts.rows["query"]) if "query" in contrasts.rows else ""),
    hide_index=True, placeholder="—",
    on_select="rerun", selection_mode="single-row", key="compare_contrasts", width="stretch",
    column_order=["query_id", measure, "overlap", "delta", f"{metric} (a)", f"{metric} (b)", "subtask", "query"],
    column_config={"query_id": st.column_config.TextColumn("Query", width=230),
                   measure: st.column_config.NumberColumn(CONTRAST_LABELS[measure], format="%.3f", width=90),
                   "overlap": st.column_config.NumberColumn("shared", width=60),
                   "delta": st.column_config.NumberColumn("Δ ×100 (a − b)", format="%.1f", width=100),
                   f"{metric} (a)": st.column_config.NumberColumn("a ×100", format="%.1f", width=70),
                   f"{metric} (b)": st.column_config.NumberColumn("b ×100", format="%.1f", width=70),
                   "subtask": st.column_config.TextColumn("Subtask", width=190),
                   "query": st.column_config.TextColumn("Query text", width=270)})
contrast_rows = picked_contrast.selection.rows if picked_contrast is not None else []

# ------------------------------------------------------------------ by text length
chosen_state = state._replace(run_ids=list(picked))
st.subheader("By text length")
slice_by = st.radio("Slice by", list(SLICE_BYS), horizontal=True, format_func=SLICE_LABELS.get,
                    key=remembered("compare_slice_by", "slice_by", one_of(list(SLICE_BYS))))
write_url({"slice_by": slice_by})
cut = cached(traps.slices, spinner="Slicing by text length…")(scope_of(chosen_state),
                                                             quantiles=DEFAULT_QUANTILES).by(slice_by)
cut = cut[cut["task"] == state.task]
st.caption(provenance(state, f"nDCG@10 ×100 under v2 per quartile of {SLICE_LABELS[slice_by]} (characters; the same "
                             "bins for every run: this task's queries with a positive); Trap analysis has the "
                             "shares of queries lost to a trap and the length duels"))
if not cut.empty:
    lengths = cut.assign(run_label=cut["run"].map(labels).fillna(cut["run"]), bin_text=cut["bin"].astype(str),
                         range_text=[f"{int(lo):,}–{int(hi):,} chars" for lo, hi in zip(cut["low"], cut["high"])],
                         ndcg_pts=cut["mean"] * 100)
    draw(line_chart, lengths, "bin_text", "ndcg_pts", "run_label", x_title=f"{SLICE_LABELS[slice_by]} quartile "
         "(1 = shortest)", y_title="nDCG@10 ×100 (v2)", series_title="Run",
         tooltip=["run_label", "bin_text", "range_text", "queries", alt.Tooltip("ndcg_pts", format=".1f")])

# ------------------------------------------------------------------ per-problem difficulty
st.subheader("Per-problem difficulty")
try:
    hard = run_difficulty(chosen_state, metric)
except CorebError as exc:
    show_error(exc)
    stop_page()
st.caption(provenance(state, f"{metric_label(metric)} per problem on {state.task}: each run's mean over the problem's "
                             "queries; mean = the mean of the runs' means; spread = best − worst run; hardest for = "
                             "the run furthest below the problem's mean. Select a row to open the problem's worst "
                             "query in the inspector."))
for r in hard.correlations.itertuples():
    st.markdown(f"Spearman's rho of {labels.get(r.a, r.a)} and {labels.get(r.b, r.b)} over {r.problems} problems: "
                f"**{r.spearman:.2f}** (1 = the same problems are hard for both).")
problems = hard.problems.assign(hardest_label=hard.problems["hardest_run"].map(labels))
picked_problem = st.dataframe(pct_columns(problems, ["mean", "spread"]), hide_index=True, placeholder="—",
                              on_select="rerun", selection_mode="single-row", key="compare_problems", width="stretch",
                              height=300,
                              column_order=["problem_id", "mean", "spread", "hardest_label", "queries", "worst_query"],
                              column_config={
                                  "problem_id": st.column_config.TextColumn("Problem", width=170),
                                  "mean": st.column_config.NumberColumn(f"{metric_label(metric)} ×100", format="%.1f",
                                                                        width=110),
                                  "spread": st.column_config.NumberColumn("Spread ×100", format="%.1f", width=90),
                                  "hardest_label": st.column_config.TextColumn("Hardest for", width=220),
                                  "queries": st.column_config.NumberColumn("Queries", width=70),
                                  "worst_query": st.column_config.TextColumn("Worst query", width=230)})
csv_download(hard.per_run, f"compare_problems_{state.release}_{state.task}_{metric}")
problem_rows = picked_problem.selection.rows if picked_problem is not None else []

# ------------------------------------------------------------------ reranker stage
st.subheader("Reranker stage")
reranked = [r for r in picked if runs[r].kind == "rerank" and runs[r].first_stage in runs]
if not reranked:
    st.info("None of the compared runs is a reranked run whose first stage is stored here (`python -m coreb_core run "
            "--rerank …` makes one).")
else:
    rerank_id = st.selectbox("Reranked run", reranked, format_func=labels.get,
                             key=remembered("compare_rerank", "rerank", one_of(reranked), allowed=reranked))
    write_url({"rerank": rerank_id})
    errors = run_rerank_errors(rerank_id, state.anchor_exclusion)
    summary = errors.summary[errors.summary["task"] == state.task]
    for r in summary.itertuples():
        st.markdown(f"Against its first stage {labels.get(errors.first_stage, errors.first_stage)} (top "
                    f"{errors.depth} reranked): a positive within reach for **{r.ceiling} of {r.with_positive}** "
                    f"queries ({r.ceiling_share * 100:.1f}%); **{r.broken} broken** (a trap promoted over a positive "
                    f"the first stage had right), **{r.rescued} rescued**, net {r.net:+d}.")
    kinds = errors.by_kind[errors.by_kind["task"] == state.task]
    st.dataframe(kinds.assign(kind_label=kinds["kind"].map(TRAP_KIND_LABELS).fillna(kinds["kind"])),
                 hide_index=True, width="stretch", key="compare_rerank_kinds",
                 column_order=["kind_label", "broken", "rescued", "net"],
                 column_config={"kind_label": st.column_config.TextColumn("Trap kind", width="medium")})
    csv_download(errors.queries, f"compare_rerank_{state.release}_{state.task}")

# Last: opening the inspector leaves this page, so every choice above is in the URL first.
if rows:
    open_inspector(state._replace(run_ids=list(picked)), str(deltas.iloc[rows[0]]["query_id"]))
if contrast_rows:
    open_inspector(state._replace(run_ids=[ca, cb]), str(contrasts.rows.iloc[contrast_rows[0]]["query_id"]))
if problem_rows:
    open_inspector(chosen_state, str(problems.iloc[problem_rows[0]]["worst_query"]))
