"""Compare runs: paired tests (every pair or against a baseline; Holm, Bonferroni or BH), win/tie/loss, bootstrap
intervals, per-query Δ, and the queries whose two rankings differ most (tau-AP, weighted tau).

The page is a list of sections (each a function, below); a refusal in one is shown there and never hides the next.
Every number comes from ``coreb_core.views`` (compare, contrasts, difficulty, rerank, traps), as the verbs print
it. Opening the inspector leaves the page, so the sections return the query picked and the page opens it last,
once every choice is in the URL."""
from itertools import combinations
from typing import Callable

import altair as alt
import streamlit as st

from coreb_core.analysis.slices import DEFAULT_QUANTILES, SLICE_BYS
from coreb_core.data.measures import NDCG_10, Measure
from coreb_core.evaluation.significance import Correction
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
from coreb_core.runs.meta import RunMeta
from coreb_core.views import compare, contrasts, difficulty, rerank, traps
from coreb_core.views.scope import Scope
from ui.cache import cached, runs_of, scope_of
from ui.chart_specs import draw
from ui.columns import col, columns
from ui.navigation import open_inspector
from ui.sidebar import sidebar
from ui.state import State, one_of, remembered, some_of, stop_page, write_url
from ui.widgets import csv_download, guarded, provenance, run_label

Pair = tuple[str, str]
Opened = tuple[State, str] | None  # the inspector to open last: the state to open it with and the query


@guarded
def section_tests(scope: Scope, state: State, labels: dict[str, str], metric: Measure, source: str
                  ) -> compare.CompareView | None:
    # PyTerrier's baseline=: each other run against it, or every pair; the correction across those comparisons.
    no_baseline, picked = "", list(scope.run_ids)
    base_col, correction_col = st.columns([1, 1])
    baselines = [no_baseline, *picked]
    baseline = base_col.selectbox("Baseline", baselines, format_func=lambda r: labels.get(r, "none (every pair)"),
                                  key=remembered("compare_baseline", "baseline", one_of(baselines), no_baseline,
                                                 allowed=baselines),
                                  help="With a baseline, each other run is compared against it only (as PyTerrier's "
                                       "baseline=); without one, every pair of runs.")
    corrections = list(CORRECTION_NAMES)
    correction = correction_col.radio("Correction", corrections, format_func=lambda c: CORRECTION_SHORT[c],
                                      horizontal=True,
                                      key=remembered("compare_correction", "correction", one_of(corrections), "holm",
                                                     allowed=corrections),
                                      help="For the many comparisons: Holm and Bonferroni bound the chance of any "
                                           "false positive; BH (Benjamini–Hochberg) bounds their expected share.")
    write_url({"baseline": baseline or None, "correction": correction})
    tested = cached(compare.tests, spinner="Running paired tests and bootstrap…")(
        scope, task=state.task, metric=metric, baseline=baseline or None)
    view = compare.corrected(tested, Correction.parse(correction))
    # The result first, in words: the two best runs' verdict (every pair's verdict is in the table below).
    with st.container(border=True):
        st.markdown(plain(verdict_sentence(view.headline, labels)) if view.headline else "No pair to compare.")

    cover = compare.coverage(cached(compare.per_query)(scope, task=state.task))
    st.caption(f"{cover.shared:,} queries are in every picked run and {cover.dropped:,} of {cover.any:,} were "
               "dropped (not shared by all). Each pair below is compared on the queries both of its runs share.")
    which = f"Each run against {labels[baseline]}" if baseline else "Every pair"
    named, short = CORRECTION_NAMES[correction], CORRECTION_SHORT[correction]
    st.subheader(f"{which}: Δ of the better run, 95% CI, p after {named} correction, wins / ties / losses")
    st.caption(source + f" · Δ = mean {metric} ×100 of the better run minus the other on their shared "
               "queries; 95% CI: percentile bootstrap of the paired differences (10,000 resamples, seed 0); p: two-sided "
               f"paired randomization test (10,000 sign flips, seed 0), {named}-corrected across the {len(view.pairs)} "
               "pair(s); beside it the paired t-test's p, corrected the same way. The CSV also has run ids, both means, "
               "the uncorrected and the Holm-corrected p-values.")
    table = verdict_table(view.pairs, view.verdicts, labels)
    st.dataframe(table, hide_index=True, placeholder="—", column_order=[*VERDICT_SHOWN, "shared"], column_config={
        "better": st.column_config.TextColumn("better run"), "other": st.column_config.TextColumn("vs"),
        "delta_points": st.column_config.NumberColumn("Δ (points)", format="%.1f"),
        "delta_ci": st.column_config.TextColumn("95% CI of Δ"),
        "p_text": st.column_config.TextColumn(f"p ({short})"),
        "p_ttest_text": st.column_config.TextColumn(f"t-test p ({short})"),
        "verdict": st.column_config.TextColumn("verdict"), "record": st.column_config.TextColumn("wins / ties / losses"),
        "shared": st.column_config.NumberColumn("shared queries")}, key="compare_pairs")
    csv_download(table, f"compare_pairs_{state.release}_{state.task}_{metric.column}")
    return view


@guarded
def section_intervals(view: compare.CompareView, state: State, metric: Measure, source: str) -> None:
    ci = view.tests.intervals
    st.subheader("Per run: mean and bootstrap 95% interval")
    st.caption(source + " · percentile bootstrap over queries (10,000 resamples, seed 0), each run on its own queries")
    ci_points = pct_columns(ci, ["mean", "ci_low", "ci_high"])  # x100, one decimal, as on every page
    st.dataframe(ci_points, hide_index=True, placeholder="—",
                 column_order=["label", "queries", "mean", "ci_low", "ci_high"],
                 column_config={"label": st.column_config.TextColumn("run"),
                                "mean": st.column_config.NumberColumn(f"mean {metric} ×100",
                                                                      format="%.1f"),
                                "ci_low": st.column_config.NumberColumn("95% CI low", format="%.1f"),
                                "ci_high": st.column_config.NumberColumn("95% CI high", format="%.1f")},
                 key="compare_ci")
    csv_download(ci, f"compare_intervals_{state.release}_{state.task}_{metric.column}")
    if len(ci):
        draw(interval_dots, ci_points, "label", "mean", "ci_low", "ci_high",
             x_title=f"{metric} ×100 (95% interval)",
             tooltip=["label", "queries", alt.Tooltip("mean:Q", format=".1f"), alt.Tooltip("ci_low:Q", format=".1f"),
                      alt.Tooltip("ci_high:Q", format=".1f")])


def pair_options(view: compare.CompareView | None, picked: list[str]) -> list[Pair]:
    """Each pair oriented better − other, as the headline and the table tell it; the headline's pair first. A pair
    without a verdict (a baseline was chosen) goes by the runs' means, so that choosing one keeps the pairs."""
    verdicts = view.verdicts if view else []
    ci = view.tests.intervals if view else None
    oriented = {frozenset((v.a, v.b)): (v.a, v.b) for v in verdicts}
    means = dict(zip(ci["run"], ci["mean"])) if ci is not None and len(ci) else {}
    options = [oriented.get(frozenset(p), tuple(sorted(p, key=lambda r: -means.get(r, 0.0))))
               for p in combinations(picked, 2)]
    headline = view.headline if view is not None else None
    if headline is not None:
        options.sort(key=lambda p: p != (headline.a, headline.b))
    return options  # type: ignore[return-value]


@guarded
def section_deltas(scope: Scope, state: State, labels: dict[str, str], metric: Measure, source: str,
                   options: list[Pair]) -> Opened:
    st.subheader("Per-query Δ for one pair")
    by_text = {",".join(p): p for p in options}
    a, b = st.selectbox("Pair (a − b)", options, format_func=lambda p: f"{labels[p[0]]}  −  {labels[p[1]]}",
                        key=remembered("compare_pair", "pair", lambda raw: by_text.get(raw[-1]), options[0],
                                       allowed=options))
    write_url({"pair": f"{a},{b}"})
    deltas = cached(compare.deltas)(scope, task=state.task, a=a, b=b, metric=metric)
    st.caption(source + f" · {len(deltas)} queries shared by the pair")
    shown_deltas = pct_columns(deltas, ["delta", f"{metric.column} (a)", f"{metric.column} (b)"])  # points, as above
    draw(outcome_histogram, shown_deltas, "delta", "outcome", x_title=f"Δ {metric} ×100 (a − b)",
         outcome_title=f"for a = {labels[a]}",
         outcomes={"win": "#2e7d32", "tie": "#9e9e9e", "loss": "#c62828"})
    st.caption("Queries sorted by Δ (largest first). Select a row to open it in the inspector.")
    chosen = st.dataframe(shown_deltas.assign(query=text_preview(deltas["query"])), hide_index=True, placeholder="—",
                          on_select="rerun", selection_mode="single-row",
                          key="compare_deltas", width="stretch",
                          column_order=["query_id", "delta", "outcome", f"{metric.column} (a)", f"{metric.column} (b)", "subtask",
                                        "query"],
                          column_config=columns(
                              query_id=col("query_id", width=230),
                              delta=col("delta", width=80, format="%.1f"),
                              outcome=st.column_config.TextColumn("Outcome for a", width=100),
                              **{f"{metric.column} (a)": st.column_config.NumberColumn("a ×100", format="%.1f", width=70),
                                 f"{metric.column} (b)": st.column_config.NumberColumn("b ×100", format="%.1f", width=70)},
                              subtask=col("subtask", width=190), query=col("query", width=340)))
    csv_download(deltas, f"compare_deltas_{state.release}_{state.task}_{metric.column}")
    rows = chosen.selection.rows if chosen is not None else []
    return (state._replace(run_ids=list(scope.run_ids)), str(deltas.iloc[rows[0]]["query_id"])) if rows else None


@guarded
def section_contrasts(scope: Scope, state: State, labels: dict[str, str], metric: Measure, source: str,
                      options: list[Pair]) -> Opened:
    st.subheader("Contrasting queries: where the two rankings differ most")
    by_text = {",".join(p): p for p in options}
    pick_col, measure_col, k_col = st.columns([3, 2, 1])
    ca, cb = pick_col.selectbox("Runs to contrast", options,
                                format_func=lambda p: f"{labels[p[0]]}  vs  {labels[p[1]]}",
                                key=remembered("compare_contrast", "contrast", lambda raw: by_text.get(raw[-1]),
                                               options[0], allowed=options))
    measures = list(CONTRAST_LABELS)
    measure = measure_col.radio("Rank correlation", measures, format_func=lambda m: CONTRAST_LABELS[m],
                                horizontal=True,
                                key=remembered("compare_contrast_by", "contrast_by", one_of(measures), measures[0],
                                               allowed=measures))
    depths = [5, 10, 20, 50, 100]
    k = k_col.selectbox("Top k", depths, key=remembered("compare_contrast_k", "contrast_k", one_of(depths), 10,
                                                        allowed=depths))
    write_url({"contrast": f"{ca},{cb}", "contrast_by": measure, "contrast_k": str(k)})
    found = cached(contrasts.build, spinner="Contrasting the two rankings…")(
        scope, task=state.task, a=ca, b=cb, metric=metric, k=k, measure=measure, limit=20).found
    st.caption(source + f" · {CONTRAST_LABELS[measure]} of each query's two top-{k} lists over their union (1 = the "
               "same order, −1 = reversed; a difference near the top costs more). A document missing from one run's "
               "top k is placed below that run's list, in the other run's order and in its reverse: the value is the "
               f"mean of both. {found.queries:,} queries compared, mean {found.mean:.3f}; the {len(found.rows)} lowest "
               f"are listed. a = {labels[ca]}, b = {labels[cb]}; shared = documents in both top {k}; Δ "
               f"{metric} ×100 = a − b. Select a row to open it in the inspector.")
    shown = pct_columns(found.rows.drop(columns=["outcome"], errors="ignore"),
                        ["delta", f"{metric.column} (a)", f"{metric.column} (b)"])
    picked_contrast = st.dataframe(
        shown.assign(query=text_preview(found.rows["query"]) if "query" in found.rows else ""),
        hide_index=True, placeholder="—",
        on_select="rerun", selection_mode="single-row", key="compare_contrasts", width="stretch",
        column_order=["query_id", measure, "overlap", "delta", f"{metric.column} (a)", f"{metric.column} (b)", "subtask", "query"],
        column_config=columns(
            query_id=col("query_id", width=230),
            overlap=st.column_config.NumberColumn("shared", width=60),
            delta=col("delta", width=100, format="%.1f"),
            subtask=col("subtask", width=190), query=col("query", width=270),
            **{measure: st.column_config.NumberColumn(CONTRAST_LABELS[measure], format="%.3f", width=90),
               f"{metric.column} (a)": st.column_config.NumberColumn("a ×100", format="%.1f", width=70),
               f"{metric.column} (b)": st.column_config.NumberColumn("b ×100", format="%.1f", width=70)}))
    rows = picked_contrast.selection.rows if picked_contrast is not None else []
    return (state._replace(run_ids=[ca, cb]), str(found.rows.iloc[rows[0]]["query_id"])) if rows else None


@st.fragment
@guarded
def section_lengths(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("By text length")
    slice_by = st.radio("Slice by", list(SLICE_BYS), horizontal=True, format_func=lambda s: SLICE_LABELS[s],
                        key=remembered("compare_slice_by", "slice_by", one_of(list(SLICE_BYS))))
    write_url({"slice_by": slice_by})
    cut = cached(traps.slices, spinner="Slicing by text length…")(scope, quantiles=DEFAULT_QUANTILES).by(slice_by)
    cut = cut[cut["task"] == state.task]
    st.caption(provenance(state, f"nDCG@10 ×100 under v2 per quartile of {SLICE_LABELS[slice_by]} (characters; the "
                                 "same bins for every run: this task's queries with a positive); Trap analysis has the "
                                 "shares of queries lost to a trap and the length duels"))
    if not cut.empty:
        lengths = cut.assign(run_label=cut["run"].map(labels).fillna(cut["run"]), bin_text=cut["bin"].astype(str),
                             range_text=[f"{int(lo):,}–{int(hi):,} chars" for lo, hi in zip(cut["low"], cut["high"])],
                             ndcg_pts=cut["mean"] * 100)
        draw(line_chart, lengths, "bin_text", "ndcg_pts", "run_label", x_title=f"{SLICE_LABELS[slice_by]} quartile "
             "(1 = shortest)", y_title="nDCG@10 ×100 (v2)", series_title="Run",
             tooltip=["run_label", "bin_text", "range_text", "queries", alt.Tooltip("ndcg_pts", format=".1f")])


@guarded
def section_difficulty(scope: Scope, state: State, labels: dict[str, str], metric: Measure) -> Opened:
    st.subheader("Per-problem difficulty")
    hard = cached(difficulty.build, spinner="Ranking problems…")(scope, task=state.task, metric=metric).hard
    st.caption(provenance(state, f"{metric} per problem on {state.task}: each run's mean over the "
                                 "problem's queries; mean = the mean of the runs' means; spread = best − worst run; "
                                 "hardest for = the run furthest below the problem's mean. Select a row to open the "
                                 "problem's worst query in the inspector."))
    for r in hard.correlations.itertuples():
        st.markdown(f"Spearman's rho of {labels.get(r.a, r.a)} and {labels.get(r.b, r.b)} over {r.problems} problems: "
                    f"**{r.spearman:.2f}** (1 = the same problems are hard for both).")
    problems = hard.problems.assign(hardest_label=hard.problems["hardest_run"].map(labels))
    picked_problem = st.dataframe(pct_columns(problems, ["mean", "spread"]), hide_index=True, placeholder="—",
                                  on_select="rerun", selection_mode="single-row", key="compare_problems",
                                  width="stretch", height=300,
                                  column_order=["problem_id", "mean", "spread", "hardest_label", "queries",
                                                "worst_query"],
                                  column_config=columns(
                                      problem_id=st.column_config.TextColumn("Problem", width=170),
                                      mean=st.column_config.NumberColumn(f"{metric} ×100",
                                                                         format="%.1f", width=110),
                                      spread=st.column_config.NumberColumn("Spread ×100", format="%.1f", width=90),
                                      hardest_label=st.column_config.TextColumn("Hardest for", width=220),
                                      queries=col("queries", width=70),
                                      worst_query=st.column_config.TextColumn("Worst query", width=230)))
    csv_download(hard.per_run, f"compare_problems_{state.release}_{state.task}_{metric.column}")
    rows = picked_problem.selection.rows if picked_problem is not None else []
    return (state._replace(run_ids=list(scope.run_ids)), str(problems.iloc[rows[0]]["worst_query"])) if rows else None


@guarded
def section_reranker(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("Reranker stage")
    runs = runs_of(state.release)
    reranked = [r for r in scope.run_ids if runs[r].kind == "rerank" and runs[r].first_stage in runs]
    if not reranked:
        st.info("None of the compared runs is a reranked run whose first stage is stored here (`python -m coreb_core "
                "run --rerank …` makes one).")
        return
    rerank_id = st.selectbox("Reranked run", reranked, format_func=lambda r: labels[r],
                             key=remembered("compare_rerank", "rerank", one_of(reranked), allowed=reranked))
    write_url({"rerank": rerank_id})
    view = cached(rerank.build, spinner="Setting the reranked run beside its first stage…")(
        scope.with_runs([rerank_id]))
    errors = view.errors
    summary = errors.summary[errors.summary["task"] == state.task]
    for r in summary.itertuples():
        first = errors.first_stage or ""
        st.markdown(f"Against its first stage {plain(labels.get(first, first))} (top "
                    f"{errors.depth} reranked): a positive within reach for **{r.ceiling} of {r.with_positive}** "
                    f"queries ({r.ceiling_share * 100:.1f}%); **{r.broken} broken** (a trap promoted over a positive "
                    f"the first stage had right), **{r.rescued} rescued**, net {r.net:+d}."
                    + (f" {plain(view.delta_words(state.task))}." if view.delta_words(state.task) else ""))
    if view.training:
        st.caption("Reranker " + plain(view.training_words()) + ". " + provenance(state, "nDCG@10 as the leaderboard"))
    kinds = errors.by_kind[errors.by_kind["task"] == state.task]
    st.dataframe(kinds.assign(kind_label=kinds["kind"].map(TRAP_KIND_LABELS).fillna(kinds["kind"])),
                 hide_index=True, width="stretch", key="compare_rerank_kinds",
                 column_order=["kind_label", "broken", "rescued", "net"], column_config=columns("kind_label"))
    csv_download(errors.queries, f"compare_rerank_{state.release}_{state.task}")


def measure_in(measures: list[Measure]) -> Callable[[list[str]], Measure | None]:
    """A ``remembered`` parser: the URL's measure in any spelling (``nDCG@10``, ``ndcg_at_10``) when offered."""
    def parse(raw: list[str]) -> Measure | None:
        try:
            found = Measure.parse(raw[-1])
        except ValueError:
            return None
        return found if found in measures else None
    return parse


@guarded
def section_runs(state: State, runs: dict[str, RunMeta], labels: dict[str, str]) -> tuple[Scope, Measure] | None:
    """The runs to compare and the measure: None (said why) when fewer than two runs score this task."""
    if len(runs) < 2:
        st.info("Comparing needs at least two stored runs of this release. Add one on Run retrieval.")
        return None
    left, right = st.columns([3, 1])
    default = [r for r in state.run_ids if r in runs]
    picked = left.multiselect("Runs to compare", list(runs), format_func=lambda r: labels[r],
                              key=remembered("compare_runs", "compare", some_of(list(runs)),
                                             default if len(default) >= 2 else list(runs)[-2:], allowed=list(runs)))
    if len(picked) < 2:
        st.info("Pick two or more runs.")
        return None
    scope = scope_of(state).with_runs(picked)
    per_query = cached(compare.per_query)(scope, task=state.task)
    measures = compare.measures_of(per_query)
    metric = right.selectbox("Metric", measures, format_func=str,
                             key=remembered("compare_metric", "metric", measure_in(measures),
                                            NDCG_10 if NDCG_10 in measures else measures[0], allowed=measures))
    write_url({"compare": list(picked), "metric": str(metric)})
    # A run made for other tasks (`--tasks c2c`) scores no query of this one: say so, rather than show empty tables.
    unscored = [r for r in picked if per_query[r].empty]
    if unscored:
        st.warning(plain(f"{', '.join(labels[r] for r in unscored)} scored no {TASK_LABELS[state.task]} query (made "
                         "for other tasks): a pair with it shares no query to compare. Pick runs that cover this "
                         "task, or choose another task in the sidebar."))
    return (scope, metric) if len(picked) - len(unscored) >= 2 else None


state = sidebar()
st.title("Compare runs")
runs = runs_of(state.release)
labels = {r: run_label(m) for r, m in runs.items()}
chosen = section_runs(state, runs, labels)
if chosen is None:  # fewer than two runs to compare (said above): nothing below can be computed
    stop_page()
scope, metric = chosen
source = provenance(state, f"{TASK_LABELS[state.task]} · {metric}")
view = section_tests(scope, state, labels, metric, source)
if view is not None:
    section_intervals(view, state, metric, source)
options = pair_options(view, list(scope.run_ids))
opened = [section_deltas(scope, state, labels, metric, source, options),
          section_contrasts(scope, state, labels, metric, source, options)]
section_lengths(scope, state, labels)
opened.append(section_difficulty(scope, state, labels, metric))
section_reranker(scope, state, labels)

# Last: opening the inspector leaves this page, so every choice above is in the URL first.
for choice in opened:
    if choice is not None:
        open_inspector(*choice)
