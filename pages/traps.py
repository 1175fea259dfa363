"""Trap analysis: how often rel=1 hard negatives beat the positives, per run and query group.

The page is a list of sections (each a function, below); a refusal in one is shown there and never hides the next.
Every number comes from ``coreb_core.views.traps`` (and ``stability``, ``embedding_map``), as ``traps`` prints it."""
import altair as alt
import pandas as pd
import streamlit as st

from coreb_core.analysis.slices import SLICE_BYS
from coreb_core.analysis.stability import STABILITY_LEVELS
from coreb_core.analysis.traps.breakdown import LEVELS, MEASURES
from coreb_core.present.charts import (
    hbar,
    heatmap,
    interval_dots,
    interval_lines,
    line_chart,
    map_scatter,
    quantile_boxes,
    size_lines,
)
from coreb_core.present.display import (
    MAP_COLOURS,
    fraction_ranges,
    gap_labels,
    map_labels,
    pct_columns,
    points_column,
    surface_sentence,
)
from coreb_core.present.format import plain
from coreb_core.present.labels import (
    DENOMINATORS,
    LOST_SHARE,
    PASS_BIN_LABELS,
    SLICE_LABELS,
    TASK_LABELS,
    TRAP_KIND_LABELS,
    WIN_RATE,
)
from coreb_core.present.trap_patterns import agreement_sentence, duel_sentence, jaccard_sentence, shift_text
from coreb_core.runs.meta import run_name
from coreb_core.views import compression, embedding_map, hubs, stability, traps
from coreb_core.views.hubs import hub_kind_words
from coreb_core.views.scope import Scope
from ui.cache import APP_INPUTS, cached, runs_of, scope_of
from ui.chart_specs import draw
from ui.columns import col, columns
from ui.navigation import open_inspector
from ui.sidebar import sidebar
from ui.state import State, one_of, remembered, stop_page, write_url
from ui.widgets import csv_download, guarded, provenance, run_label

METADATA = "metadata field"
DEFAULT_SLICE = "query.anchor_model"
METADATA_HELP = ("query.FIELD: the query's own column or meta field; anchor.FIELD: its anchor code's (C2C, C2T); "
                 "positive.FIELD: its rel=2 documents' (one shared value, else 'mixed'; a number is their mean). "
                 "Numbers with many values are cut into equal-count bins.")
WIN = "a trap win = a rel=1 trap ranked above the query's best positive (evaluator ranks)"


@guarded
def section_breakdown(scope: Scope, state: State, labels: dict[str, str]) -> None:
    fields = cached(traps.slice_choices)(scope)
    options = [*LEVELS, METADATA]
    level = st.radio("Group by", options, horizontal=True,
                     key=remembered("trap_level", "level", one_of(options), allowed=options))
    if level == METADATA:  # any column of the query, its anchor or its positives (coreb_core.data.slice_keys)
        level = st.selectbox("Metadata field", fields, help=METADATA_HELP,
                             key=remembered("trap_slice", "slice", one_of(fields),
                                            default=DEFAULT_SLICE if DEFAULT_SLICE in fields else fields[0],
                                            allowed=fields))
        write_url({"level": METADATA, "slice": level})
    else:
        write_url({"level": level, "slice": None})
    table = cached(traps.breakdown)(scope, task=state.task, level=level)
    st.subheader(f"{TASK_LABELS[state.task]}: traps per run and {level}")
    st.caption(provenance(state, "trap measures use the release's graded qrels (rel=2 positive, rel=1 trap)"))
    if table.empty:
        st.info("The chosen runs score no query of this task.")
        return
    measure = st.selectbox("Chart measure", list(MEASURES), format_func=lambda m: MEASURES[m],
                           key=remembered("trap_measure", "measure", one_of(list(MEASURES))))
    write_url({"measure": measure})
    chart_data = table.assign(run_label=table["run"].map(labels).fillna(table["run"]))
    tooltip = ["run_label", "task", "group", "queries", alt.Tooltip("share_trap_above_positive", format=".1%"),
               alt.Tooltip("traps_in_top_10_per_query", format=".2f"), alt.Tooltip("share_trap_at_1", format=".1%"),
               alt.Tooltip("ndcg_at_10", title="nDCG@10 (v2)", format=".3f")]
    # one decimal, as the table below prints the same shares (37.9, not 38%)
    value_format = ".2f" if measure == "traps_in_top_10_per_query" else ".1%"
    title = f"{MEASURES[measure]} · {state.release} · {state.task}"
    if level == "task":
        draw(hbar, chart_data, "run_label", measure, x_title=MEASURES[measure], value_format=value_format,
             tooltip=tooltip, title=title)
    else:
        draw(heatmap, chart_data, x="run_label", y="group", value=measure, x_title="Run", y_title=level,
             legend_title=MEASURES[measure], value_format=value_format, x_sort=list(labels.values()),
             tooltip=tooltip, scheme="orangered", title=title)
    # Run name, group and the deciding share first; the run id stays in the CSV download.
    st.dataframe(pct_columns(chart_data, ["share_trap_above_positive", "share_trap_at_1", "ndcg_at_10"]),
                 hide_index=True, placeholder="—", width="stretch",
                 column_order=["run_label", "group", "share_trap_above_positive", "traps_in_top_10_per_query",
                               "share_trap_at_1", "ndcg_at_10", "queries", "queries_with_positive",
                               "queries_trap_above_positive"],
                 column_config=columns(
                     "run_label", "queries",
                     group=st.column_config.TextColumn(level if "." in level else level.capitalize(), width="medium"),
                     share_trap_above_positive=st.column_config.NumberColumn(
                         "Lost to a trap (%)", format="%.1f", width="small",
                         help=f"{LOST_SHARE}: of the queries with a positive, those where a trap ranks above every "
                              "positive"),
                     traps_in_top_10_per_query=st.column_config.NumberColumn("Traps in top 10 / query", format="%.2f",
                                                                             width="small"),
                     share_trap_at_1=st.column_config.NumberColumn("Trap at rank 1 (%)", format="%.1f",
                                                                   width="small"),
                     ndcg_at_10=st.column_config.NumberColumn("nDCG@10 ×100 (v2)", format="%.1f", width="small"),
                     queries_with_positive=st.column_config.NumberColumn("With a positive", width="small"),
                     queries_trap_above_positive=st.column_config.NumberColumn("Lost to a trap", width="small")))
    csv_download(table, f"traps_{state.release}_{state.task}_"
                        f"{level.replace(' × ', '_x_').replace(' ', '_').replace('.', '_')}")


@guarded
def section_worst(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("Worst queries")
    st.caption("Most traps above the first positive, then lowest nDCG@10 (v2). Select a row to open it in the "
               "query inspector.")
    left, right = st.columns([3, 1])
    only_run = left.selectbox("Run", [None] + list(labels), format_func=lambda r: "all chosen runs" if r is None
                              else labels[r], key=remembered("trap_worst_run", "worst_run", one_of(list(labels))))
    limit = right.number_input("Rows", min_value=5, max_value=500, step=5,
                               key=remembered("trap_worst_limit", "rows", one_of(list(range(5, 501, 5))), 25))
    write_url({"worst_run": only_run, "rows": str(int(limit))})
    worst = cached(traps.worst)(scope, task=state.task, run=only_run, limit=int(limit))
    st.caption(provenance(state, "nDCG@10 under v2, ranks as scored"))
    # The run's name, the query and the deciding counts first; problem id and the run id only in the CSV.
    worst_shown = worst.assign(run_label=worst["run"].map(labels).fillna(worst["run"]))
    event = st.dataframe(worst_shown, hide_index=True, placeholder="—", width="stretch", on_select="rerun",
                         selection_mode="single-row", key="trap_worst_table",
                         column_order=["run_label", "query_id", "traps_above_first_positive", "first_positive_rank",
                                       "ndcg_at_10", "first_trap_rank", "traps_in_top_10", "trap_at_1", "subtask",
                                       "target_language"],
                         column_config=columns(
                             "traps_above_first_positive", "first_positive_rank", "trap_at_1", "target_language",
                             run_label=col("run_label", width=190), query_id=col("query_id", width=200),
                             ndcg_at_10=st.column_config.NumberColumn("nDCG@10 ×100 (v2)", format="%.1f",
                                                                      width="small"),
                             first_trap_rank=st.column_config.NumberColumn("1st trap rank", format="%d",
                                                                           width="small"),
                             traps_in_top_10=st.column_config.NumberColumn("Traps in top 10", width="small"),
                             subtask=col("subtask", width=150)))
    csv_download(worst, f"trap_worst_{state.release}_{state.task}")
    if event.selection.rows:
        open_inspector(state, worst["query_id"].iloc[event.selection.rows[0]])


@guarded
def section_kinds(scope: Scope, state: State, labels: dict[str, str]) -> None:
    why = cached(traps.why, spinner="Classifying trap wins…")(scope, task=state.task)
    st.subheader("Why traps win: kinds")
    st.caption(provenance(state, f"{WIN}; kinds from the release's corpus facts (test results, language, noise flag)"))
    by_task = why.kinds_by_task
    if by_task.empty:
        st.info("No trap of this task is ranked by the chosen runs.")
        return
    kinds = by_task.assign(run_label=by_task["run"].map(labels).fillna(by_task["run"]),
                           kind_label=by_task["kind"].map(TRAP_KIND_LABELS).fillna(by_task["kind"]))
    shown = kinds[kinds["trap_wins"] > 0]
    if shown.empty:
        st.info("No trap outranks a positive in the chosen runs.")
    else:
        draw(hbar, shown, "run_label", "share_of_wins", x_title="share of the run's trap wins",
             color="kind_label", color_title="Trap kind", stack=True, value_format=".0%",
             y_sort=list(labels.values()),
             tooltip=["run_label", "kind_label", "trap_wins", alt.Tooltip("share_of_wins", format=".1%"),
                      "judged", alt.Tooltip("win_rate", format=".1%"), "traps_in_top_k", "queries_with_win",
                      "queries"],
             title=f"Trap wins by kind · {state.release} · {state.task}")
    by_subtask = why.kinds_by_subtask
    table = by_subtask.assign(run_label=by_subtask["run"].map(labels).fillna(by_subtask["run"]),
                              kind_label=by_subtask["kind"].map(TRAP_KIND_LABELS).fillna(by_subtask["kind"]))
    st.dataframe(pct_columns(table, ["share_of_wins", "win_rate", "share_of_top_k"]), hide_index=True,
                 placeholder="—", width="stretch", key="trap_kinds_table",
                 # "queries" (with a positive) is in the table above and the CSV: eleven columns scroll at 1600 px
                 column_order=["run_label", "subtask", "kind_label", "trap_wins", "share_of_wins", "judged",
                               "win_rate", "traps_in_top_k", "share_of_top_k", "queries_with_win"],
                 column_config=columns(
                     "run_label", "subtask", "kind_label", "trap_wins", "share_of_wins",
                     traps_in_top_k=st.column_config.NumberColumn("In top-k", width="small"),
                     share_of_top_k=st.column_config.NumberColumn("Share of top-k traps (%)", format="%.1f",
                                                                  width="small"),
                     judged=col("judged", help="of the queries with a positive"),
                     win_rate=st.column_config.NumberColumn(f"{WIN_RATE.capitalize()} (%)", format="%.1f",
                                                            width="small"),
                     queries_with_win=st.column_config.NumberColumn("Queries lost to a trap", width="small")))
    csv_download(by_subtask, f"trap_kinds_{state.release}_{state.task}")
    bugs = why.bugs
    if not bugs.empty:
        st.caption(f"The corpus records the bug of each failing solution (CoREB-mini): wins and {WIN_RATE} per bug "
                   "kind.")
        bugs_shown = bugs.assign(run_label=bugs["run"].map(labels).fillna(bugs["run"]))
        st.dataframe(pct_columns(bugs_shown, ["share_of_wins", "win_rate"]), hide_index=True, placeholder="—",
                     width="stretch", key="trap_bugs_table",
                     column_order=["run_label", "bug", "trap_wins", "share_of_wins", "judged", "win_rate"],
                     column_config=columns(
                         "run_label", "trap_wins", "share_of_wins", "judged",
                         bug=st.column_config.TextColumn("Bug", width="small"),
                         win_rate=st.column_config.NumberColumn(f"{WIN_RATE.capitalize()} (%)", format="%.1f",
                                                                width="small")))


@guarded
def section_near_miss(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("Near-miss curve")
    st.caption(provenance(state, "P(a failing solution outranks its query's best positive) by its test pass "
                                 "fraction; bars: Wilson 95% intervals; queries with a positive"))
    curve = cached(traps.why, spinner="Classifying trap wins…")(scope, task=state.task).near_miss
    if curve.empty:
        st.info("No failing solution with test counts among this task's traps (C2T traps are texts).")
        return
    plotted = curve.assign(run_label=curve["run"].map(labels).fillna(curve["run"]),
                           pass_percent=points_column((curve["bin_low"] + curve["bin_high"]) / 2),
                           bin_text=fraction_ranges(curve["bin_low"], curve["bin_high"]),
                           probability_pts=points_column(curve["probability"]), low_pts=points_column(curve["low"]),
                           high_pts=points_column(curve["high"]),
                           pass_bin_label=curve["pass_bin"].map(PASS_BIN_LABELS))
    draw(interval_lines, plotted, "pass_percent", "probability_pts", "low_pts", "high_pts", "run_label",
         x_title="tests passed by the failing solution (%, bin middle)", x_domain=(0, 100),
         y_title="outranks the best positive (%)", series_title="Run",
         tooltip=["run_label", "bin_text", "pass_bin_label", "failing", "outranking",
                  alt.Tooltip("probability_pts", format=".1f"),
                  alt.Tooltip("low_pts", format=".1f"), alt.Tooltip("high_pts", format=".1f")])
    csv_download(curve, f"trap_near_miss_{state.release}_{state.task}")


@guarded
def section_margins(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("Margins")
    st.caption(provenance(state, "trap-win queries: best positive rank − best trap rank, and best trap score − best "
                                 "positive score (each run's own score scale: compare within a run)"))
    why = cached(traps.why, spinner="Classifying trap wins…")(scope, task=state.task)
    margins = why.margins.assign(run_label=why.margins["run"].map(labels).fillna(why.margins["run"]))
    if not (margins["queries"] > 0).any():
        st.info("No trap outranks a listed positive in the chosen runs.")
        return
    # One above the other: side by side, each box chart was too narrow to read at 1000 px.
    # Both on a symlog axis: rank gaps run from 1 to hundreds, and score margins differ by model (BM25 ~2,
    # cosine ~0.06), so on a linear axis one run's box would be a sliver.
    for measure, title, constant in (("rank_gap", "rank gap (places the best positive is below; log scale)", 1.0),
                                     ("score_margin", "score margin (best trap − best positive; log scale)", 0.01)):
        rows = margins[(margins["measure"] == measure) & (margins["queries"] > 0)]
        draw(quantile_boxes, rows, "run_label", low="q10", q1="q25", median="median", q3="q75", high="q90",
             x_title=title, y_sort=list(labels.values()), log_x=True,
             log_constant=constant,
             tooltip=["run_label", "queries", "unmeasured",
                      *[alt.Tooltip(c, format=".4g") for c in
                        ("q10", "q25", "median", "q75", "q90", "mean")]])
    gaps = why.rank_gaps
    gaps = gaps.assign(run_label=gaps["run"].map(labels).fillna(gaps["run"]),
                       gap=gap_labels(gaps["gap_low"], gaps["gap_high"]))
    draw(heatmap, gaps, x="gap", y="run_label", value="share", x_title="rank gap (places)",
         y_title="Run", legend_title="share of the run's trap-win queries", value_format=".0%",
         x_sort=list(dict.fromkeys(gaps["gap"])), y_sort=list(labels.values()),
         tooltip=["run_label", "gap", "queries", alt.Tooltip("share", format=".1%")],
         scheme="orangered")
    st.dataframe(margins, hide_index=True, placeholder="—", width="stretch", key="trap_margins_table",
                 column_order=["run_label", "measure", "queries", "unmeasured", "q10", "q25", "median", "q75", "q90",
                               "mean"],
                 column_config=columns(
                     "run_label",
                     measure=st.column_config.TextColumn("Measure", width="small"),
                     queries=st.column_config.NumberColumn("Trap-win queries", width="small"),
                     unmeasured=st.column_config.NumberColumn("No listed positive", width="small"),
                     **{c: st.column_config.NumberColumn(c, format="%.4g", width="small")
                        for c in ("q10", "q25", "median", "q75", "q90", "mean")}))
    csv_download(margins, f"trap_margins_{state.release}_{state.task}")


@guarded
def section_agreement(scope: Scope, state: State, labels: dict[str, str]) -> None:
    # One after the other, not in tabs: a chart in a closed tab is drawn 0 px tall until the tab is opened.
    st.subheader("Agreement across runs")
    st.caption(provenance(state, f"{WIN}; per trap, the chosen runs it beats (of those that scored its query); per "
                                 "pair of runs, the Jaccard index of the queries each loses to a trap"))
    agreement = cached(traps.agreement)(scope)
    beating_all, lost_by_all = agreement.beating_all(state.task)
    st.markdown(agreement_sentence(state.task, beating_all, lost_by_all, len(agreement.runs)))
    counts = agreement.counts[agreement.counts["task"] == state.task]
    if counts.empty:
        st.info("No trap of this task is judged in a query the chosen runs scored.")
    else:
        counted = counts.assign(beats_label=[f"beats {b} of {n}" for b, n in zip(counts["beats"], counts["of"])])
        draw(hbar, counted, "beats_label", "traps", x_title="traps", y_title=None, value_format=",.0f",
             y_sort=list(counted["beats_label"]), tooltip=["beats_label", "traps"],
             title=f"Traps by how many chosen runs they beat · {state.release} · {state.task}")
    pairs = agreement.pairs[agreement.pairs["task"] == state.task]
    for r in pairs.itertuples():
        st.markdown(jaccard_sentence(state.task, labels.get(r.run_a, r.run_a), labels.get(r.run_b, r.run_b), r.both,
                                     r.either, r.jaccard))
    if len(agreement.runs) < 2:
        st.info("Choose two or more runs in the sidebar to see which traps beat every one of them.")
    every = agreement.traps_beating_all(state.task)
    every = every.assign(kind_label=every["kind"].map(TRAP_KIND_LABELS).fillna(every["kind"]))
    st.caption(f"Traps that beat every chosen run ({len(every)}; the first 200 shown). Select a row to open its "
               "query in the inspector, where the filter \"lost by at least k runs\" finds the rest.")
    picked = st.dataframe(every.head(200), hide_index=True, width="stretch", on_select="rerun",
                          selection_mode="single-row", key="trap_agree_table",
                          column_order=["query_id", "doc_id", "kind_label", "subtask", "beats", "of"],
                          column_config=columns(
                              "subtask",
                              query_id=col("query_id", width=220),
                              doc_id=st.column_config.TextColumn("Trap", width=200),
                              kind_label=st.column_config.TextColumn("Kind", width="medium"),
                              beats=st.column_config.NumberColumn("Beats", width="small"),
                              of=st.column_config.NumberColumn("Of runs", width="small")))
    csv_download(every, f"trap_agreement_{state.release}_{state.task}")
    if picked.selection.rows:
        open_inspector(state, str(every["query_id"].iloc[picked.selection.rows[0]]))


@st.fragment
@guarded
def section_hubs(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("Hubs: documents in many queries' top 10")
    k = st.number_input("List length (k)", 1, 100, key=remembered("trap_hubs_k", "hubs_k", one_of(list(range(1, 101))),
                                                                   10), width=160)
    write_url({"hubs_k": None if int(k) == 10 else str(int(k))})
    view = cached(hubs.build, spinner="Counting the documents in every top-k list…")(scope, task=state.task, k=int(k))
    table = view.table.assign(run_label=view.table["run"].map(labels).fillna(view.table["run"]),
                              kind_label=view.table["trap_kind"].map(TRAP_KIND_LABELS).fillna(""),
                              what=hub_kind_words(view.table))
    if table.empty:
        st.info("No run lists a query of this task.")
        return
    first = table.iloc[0]
    st.markdown(f"**{plain(first['doc_id'])}** ({plain(first['what'])}) is in the top {int(k)} of "
                f"**{int(first['lists']):,} of {int(first['queries']):,}** {state.task.upper()} queries for "
                f"{plain(first['run_label'])}; it is a positive for {int(first['positive'])} of them and a trap for "
                f"{int(first['trap'])}, and its problem has {int(first['problem_queries'])} {state.task.upper()} queries.")
    st.dataframe(table, hide_index=True, width="stretch", key="trap_hubs_table",
                 column_order=["run_label", "doc_id", "lists", "share", "positive", "trap", "unjudged", "kind_label",
                               "what", "length", "problem_queries", "hub_in_runs"],
                 column_config={
                     "run_label": st.column_config.TextColumn("Run", width=140),
                     "doc_id": st.column_config.TextColumn("Document", width=170),
                     "lists": st.column_config.NumberColumn("In lists", format="%d", width=60),
                     "share": st.column_config.NumberColumn("Share", format="percent", width=60),
                     "positive": st.column_config.NumberColumn("Positive", width=60),
                     "trap": st.column_config.NumberColumn("Trap", width=50),
                     "unjudged": st.column_config.NumberColumn("Unjudged", width=70),
                     "kind_label": st.column_config.TextColumn("Trap kind", width=120),
                     "what": st.column_config.TextColumn("Document is", width=150),
                     "length": st.column_config.NumberColumn("Chars", format="%d", width=60),
                     "problem_queries": st.column_config.NumberColumn("Problem's queries", width=70,
                                                                     help="Queries of this task on its problem"),
                     "hub_in_runs": st.column_config.NumberColumn("Hub of runs", width=60,
                                                                 help="Among the 10 biggest hubs of this many runs")})
    csv_download(view.table, f"trap_hubs_{state.release}_{state.task}_k{int(k)}")
    st.caption(provenance(state, f"a run's top {int(k)} of a query: its first {int(k)} stored documents, the query's "
                                 "own id and (anchor excluded) the C2C anchor left out; the grades are the document's "
                                 "for each of those queries; hub of runs: among the top 10 hubs of that many runs"))


@guarded
def section_across_releases(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("Across releases")
    pairs_across = stability.counterparts(scope, inputs=APP_INPUTS)
    if not pairs_across:
        st.info("None of the chosen runs has a run of the same model and profile on another cached release. "
                "Make one on Run retrieval (choose the other release there), then come back.")
        return
    left, right = st.columns([3, 2])
    across = list(pairs_across)
    run_id = left.selectbox("Run", across, format_func=lambda r: f"{labels[r]} ↔ {run_name(pairs_across[r])}",
                            key=remembered("trap_across_run", "across_run", one_of(across), allowed=across))
    stability_level = right.radio("By", list(STABILITY_LEVELS), horizontal=True,
                                  key=remembered("trap_across_level", "across_by", one_of(list(STABILITY_LEVELS))))
    write_url({"across_run": run_id, "across_by": stability_level})
    # the older release first: b − a reads as the change from the older release to the newer
    first, second = sorted((runs_of(scope.release)[run_id], pairs_across[run_id]), key=lambda m: m.made_on())
    pair = stability.TwoReleases.of(first.run_id, second.run_id, scope.anchor_exclusion)
    view = cached(stability.build, spinner="Comparing releases…")(pair, task=state.task)
    shift, rows = view.shift, view.level(stability_level)
    st.caption(f"{WIN_RATE.capitalize()} = share of judged traps (in queries with a positive) ranked above the "
               f"best positive. a = {shift.release_a}, b = {shift.release_b}: the releases share no problem, so they "
               "are compared by kind, not by document. Bars: b − a with Newcombe's 95% interval; an interval "
               "that misses 0 moved more than sampling explains (two-proportion z-test p in the table).")
    if rows.empty:
        st.info(f"Neither release records a {stability_level} for this task's traps.")
        return
    group_labels = (rows[stability_level].map(TRAP_KIND_LABELS).fillna(rows[stability_level])
                    if stability_level == "kind" else rows[stability_level])
    shown = rows.assign(group=group_labels.astype(str), diff_pts=rows["difference"] * 100,
                        low_pts=rows["low"] * 100, high_pts=rows["high"] * 100,
                        rate_a_pts=rows["rate_a"] * 100, rate_b_pts=rows["rate_b"] * 100,
                        change=[shift_text(d, lo, hi) for d, lo, hi in
                                zip(rows["difference"], rows["low"], rows["high"])])
    measurable = shown.dropna(subset=["diff_pts"])
    if not measurable.empty:
        draw(interval_dots, measurable, "group", "diff_pts", "low_pts", "high_pts",
             x_title=f"{WIN_RATE}, {shift.release_b} − {shift.release_a} (points)",
             tooltip=["group", "wins_a", "traps_a", "wins_b", "traps_b", "change"], with_zero=True,
             title=f"{labels[run_id]}: change by {stability_level} · {state.task}")
    st.dataframe(shown, hide_index=True, width="stretch", key="trap_across_table",
                 column_order=["group", "rate_a_pts", "wins_a", "traps_a", "rate_b_pts", "wins_b", "traps_b",
                               "change", "p_value"],
                 column_config={
                     "group": st.column_config.TextColumn(stability_level.capitalize(), width="medium"),
                     "rate_a_pts": st.column_config.NumberColumn(f"Rate {shift.release_a} ×100", format="%.1f"),
                     "wins_a": st.column_config.NumberColumn("Wins a", width="small"),
                     "traps_a": st.column_config.NumberColumn("Traps a", width="small"),
                     "rate_b_pts": st.column_config.NumberColumn(f"Rate {shift.release_b} ×100", format="%.1f"),
                     "wins_b": st.column_config.NumberColumn("Wins b", width="small"),
                     "traps_b": st.column_config.NumberColumn("Traps b", width="small"),
                     "change": st.column_config.TextColumn("b − a", width="large"),
                     "p_value": st.column_config.NumberColumn("p", format="%.3g", width="small")})
    csv_download(view.level(stability_level),
                 f"trap_stability_{shift.release_a}_{shift.release_b}_{state.task}_{stability_level}")


@st.fragment
@guarded
def section_slices(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("By text length")
    left, right = st.columns([2, 1])
    slice_by = left.radio("Slice by", list(SLICE_BYS), horizontal=True, format_func=lambda s: SLICE_LABELS[s],
                          key=remembered("trap_slice_by", "slice_by", one_of(list(SLICE_BYS))))
    quantiles = int(right.number_input("Bins", min_value=2, max_value=10, step=1,
                                       key=remembered("trap_slice_bins", "bins", one_of(list(range(2, 11))), 4)))
    write_url({"slice_by": slice_by, "bins": str(quantiles)})
    cut = cached(traps.slices, spinner="Slicing by text length…")(scope, quantiles=quantiles)
    sliced = cut.by(slice_by)
    sliced = sliced[sliced["task"] == state.task]
    st.caption(provenance(state, f"{SLICE_LABELS[slice_by]} in characters, {quantiles} equal-count bins of this "
                                 "task's queries with a positive (the same bins for every run); nDCG@10 under v2; "
                                 f"{LOST_SHARE} = of the bin's queries, those where a trap ranks above every positive; "
                                 "Wilson 95% intervals"))
    if sliced.empty:
        st.info("The chosen runs score no query of this task.")
    else:
        plotted = sliced.assign(run_label=sliced["run"].map(labels).fillna(sliced["run"]),
                                range_text=[f"{int(lo):,}–{int(hi):,} chars" for lo, hi in
                                            zip(sliced["low"], sliced["high"])],
                                rate_pts=sliced["trap_win_rate"] * 100, low_pts=sliced["rate_low"] * 100,
                                high_pts=sliced["rate_high"] * 100, ndcg_pts=sliced["mean"] * 100)
        draw(interval_lines, plotted, "bin", "rate_pts", "low_pts", "high_pts", "run_label",
             x_title=f"{SLICE_LABELS[slice_by]} bin (1 = shortest)", y_title="queries lost to a trap (%)",
             x_domain=(0.5, quantiles + 0.5),
             series_title="Run", tooltip=["run_label", "bin", "range_text", "queries", "trap_wins",
                                          alt.Tooltip("rate_pts", format=".1f"), alt.Tooltip("ndcg_pts", format=".1f")])
        draw(line_chart, plotted.assign(bin_text=plotted["bin"].astype(str)), "bin_text", "ndcg_pts", "run_label",
             x_title=f"{SLICE_LABELS[slice_by]} bin (1 = shortest)", y_title="nDCG@10 ×100 (v2)", series_title="Run",
             tooltip=["run_label", "bin_text", "range_text", "queries", alt.Tooltip("ndcg_pts", format=".1f")])
    for r in cut.duels[cut.duels["task"] == state.task].itertuples():
        st.markdown(duel_sentence(state.task, labels.get(r.run, r.run), r.decided, r.longer_first, r.longer_low,
                                  r.longer_high))


@guarded
def section_surface(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("Surface bias")
    st.caption("A trap win is a query where a trap ranks above every positive (ranks as scored); a correct ordering "
               "the opposite. For each, the word overlap of the query with the best trap and with the best positive: "
               "token Jaccard over the tokens BM25 sees (identifiers split at camelCase and snake_case, lower-cased). "
               "If traps won on shared words, the trap would have the higher overlap far more often in the trap wins "
               "than in the correct orderings.")
    surface = cached(traps.surface, spinner="Measuring lexical overlap…")(scope)
    findings = surface.findings(state.task)
    for finding in findings:
        st.markdown(surface_sentence(finding, labels.get(finding.run, finding.run)))
    if not findings:
        st.info("No query of this task is decided either way by the chosen runs.")
        return
    shares = surface.summary[surface.summary["task"] == state.task]
    run_names = shares["run"].map(labels).fillna(shares["run"])
    bars = pd.concat([
        pd.DataFrame({"run_label": run_names, "queries": "trap wins", "share": points_column(shares["share_wins_trap_higher"]),
                      "low": points_column(shares["wins_low"]), "high": points_column(shares["wins_high"]),
                      "n": shares["trap_wins"]}),
        pd.DataFrame({"run_label": run_names, "queries": "correct orderings",
                      "share": points_column(shares["share_correct_trap_higher"]), "low": points_column(shares["correct_low"]),
                      "high": points_column(shares["correct_high"]), "n": shares["correct"]})], ignore_index=True)
    draw(hbar, bars.dropna(subset=["share"]), "run_label", "share",
         x_title="Queries where the trap shares more words with the query (×100)",
         color="queries", color_title="Among", y_sort=list(labels.values()),
         tooltip=["run_label", "queries", "n", alt.Tooltip("share", format=".1f"),
                  alt.Tooltip("low", title="95% low", format=".1f"),
                  alt.Tooltip("high", title="95% high", format=".1f")],
         title=f"Surface bias · {state.release} · {state.task}")
    st.caption(provenance(state, "Wilson 95% intervals in the tooltip; p from a two-proportion z-test"))


def dense_runs_or_say(scope: Scope, needs: str) -> list[str]:
    """The scope's dense runs; when there is none, a note that says what needs one."""
    dense = embedding_map.dense_runs(scope, inputs=APP_INPUTS)
    if not dense:
        st.info(f"{needs} a dense run among the chosen runs (BM25, imported and reranked runs have no vectors).")
    return dense


@st.fragment
@guarded
def section_embedding_map(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("Embedding map")
    dense = dense_runs_or_say(scope, "The embedding map needs")
    if not dense:
        return
    left, middle, right = st.columns([2, 3, 1])
    map_run = left.selectbox("Dense run", dense, format_func=lambda r: labels[r],
                             key=remembered("trap_map_run", "map_run", one_of(dense), allowed=dense))
    surface = cached(traps.surface, spinner="Measuring lexical overlap…")(scope)
    options = embedding_map.map_queries(scope, surface, run=map_run, task=state.task, inputs=APP_INPUTS)
    if not options:
        st.info("This task has no query in this release.")
        return
    map_query = middle.selectbox("Query (the run's trap wins first)", options,
                                 key=remembered("trap_map_query", "map_query", one_of(options), allowed=options))
    neighbours = right.number_input("Nearest others", min_value=0, max_value=50, step=1,
                                    key=remembered("trap_map_neighbours", "neighbours", one_of(list(range(51))), 10))
    write_url({"map_run": map_run, "map_query": map_query, "neighbours": str(int(neighbours))})
    emap = cached(embedding_map.build, spinner="Reading cached vectors…")(scope, run=map_run, query_id=map_query,
                                                                          neighbours=int(neighbours))
    shown = emap.points.assign(
        is_query=emap.points["role"] == "query",
        label=map_labels(emap.points["role"], emap.points["kind"]))
    first, second = emap.explained_variance
    draw(map_scatter, shown, "x", "y", color="label", color_title="Grade · kind", shape="role",
         shape_title="Role", marked="is_query", x_title=f"PCA 1 ({first:.0%} of the variance)",
         y_title=f"PCA 2 ({second:.0%})", palette=MAP_COLOURS,
         tooltip=["doc_id", "label", "language", alt.Tooltip("similarity", format=".3f"),
                  alt.Tooltip("rank", format=".0f"), "snippet"],
         title=f"{map_query} · {labels[map_run]}")
    st.caption(f"PCA of the run's cached vectors (L2-normalised, nothing re-encoded) of the query (large), its "
               f"judged documents and its {int(neighbours)} nearest other documents; the two axes show "
               f"{first + second:.0%} of these points' variance. A linear projection: distances "
               "along the axes are kept, the rest is flattened (UMAP: see the README).")


@st.fragment
@guarded
def section_compression(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("Compressed embeddings")
    dense = dense_runs_or_say(scope, "Compressed embeddings need")
    if not dense:
        return
    run = st.selectbox("Dense run", dense, format_func=lambda r: labels[r], width=320,
                       key=remembered("trap_compress_run", "compress_run", one_of(dense), allowed=dense))
    write_url({"compress_run": run})
    view = cached(compression.build, spinner="Searching the run's cached vectors again, compressed…")(scope, run=run)
    result = view.result
    part = result.table[result.table["task"] == state.task]
    if part.empty:
        st.info("This run did not search this task.")
        return
    full = part[part["full"]].iloc[0]
    smallest = part.sort_values(["bytes_per_vector", "ndcg_at_10"], ascending=[True, False]).iloc[0]
    st.markdown(f"At its full {result.width} dimensions in float32 ({int(full['bytes_per_vector']):,} bytes a vector), "
                f"{plain(labels[run])} scores nDCG@10 **{full['ndcg_at_10'] * 100:.1f}** on {state.task.upper()} and "
                f"loses **{full['lost_share']:.1%}** of its queries to a trap. Its smallest variant, "
                f"{int(smallest['dims'])} dimensions in {smallest['precision']} ({int(smallest['bytes_per_vector']):,} "
                f"bytes), scores **{smallest['ndcg_at_10'] * 100:.1f}** ({smallest['ndcg_change'] * 100:+.1f}) and "
                f"loses **{smallest['lost_share']:.1%}** ({smallest['lost_change'] * 100:+.1f} points).")
    shown = part.assign(variant=[f"{d} · {p}" for d, p in zip(part["dims"], part["precision"])])
    tooltip = ["variant", "bytes_per_vector", alt.Tooltip("ndcg_at_10", format=".3f"),
               alt.Tooltip("lost_share", format=".1%")]
    left, right = st.columns(2)
    with left:
        draw(size_lines, shown, "bytes_per_vector", "ndcg_at_10", "precision", x_title="Bytes per vector",
             y_title="nDCG@10 (v2)", series_title="Precision", tooltip=tooltip)
    with right:
        draw(size_lines, shown, "bytes_per_vector", "lost_share", "precision", x_title="Bytes per vector",
             y_title="Lost to a trap", series_title="Precision", percent=True, tooltip=tooltip)
    st.dataframe(shown, hide_index=True, width="stretch", key="trap_compress_table",
                 column_order=["variant", "bytes_per_vector", "ndcg_at_10", "ndcg_change", "lost", "with_positive",
                               "lost_share", "lost_change"],
                 column_config={
                     "variant": st.column_config.TextColumn("Dimensions · precision", width=160),
                     "bytes_per_vector": st.column_config.NumberColumn("Bytes per vector", format="%d", width=90),
                     "ndcg_at_10": st.column_config.NumberColumn("nDCG@10", format="%.3f", width=80),
                     "ndcg_change": st.column_config.NumberColumn("Δ nDCG@10", format="%+.3f", width=80),
                     "lost": st.column_config.NumberColumn("Lost to a trap", format="%d", width=80),
                     "with_positive": st.column_config.NumberColumn("Of queries", format="%d", width=80,
                                                                    help="Queries with a positive"),
                     "lost_share": st.column_config.NumberColumn("Share lost", format="percent", width=80),
                     "lost_change": st.column_config.NumberColumn("Δ share (points)", format="%+.3f", width=90,
                                                                  help="Change of the share lost, as a fraction")})
    csv_download(result.table, f"compression_{state.release}_{run}")
    st.caption(provenance(state, f"the run's own vectors from the embedding cache (nothing re-encoded), the first d "
                                 "dimensions renormalised; int8 calibrated on the task's documents (sentence-transformers' "
                                 "quantize_embeddings), binary scored by Hamming distance; hits made as the run's (top "
                                 f"{result.top_k}, ties by doc id); nDCG@10 under v2; {result.width} · float32 "
                                 f"{'reproduces' if result.reproduces else 'does NOT reproduce'} the run's scores"))


state = sidebar()
st.title("Trap analysis")
st.caption("Traps are rel=1 hard negatives: failing solutions of the same problem, correct solutions that break "
           "the subtask's constraint, or (C2T) noise descriptions. " + DENOMINATORS + " Traps in the top 10 and a "
           "trap at rank 1 need no positive: they are over every evaluated query.")
if not state.run_ids:
    st.info("Choose at least one run in the sidebar.")
    stop_page()

runs = runs_of(state.release)
labels = {rid: run_label(runs[rid]) for rid in state.run_ids if rid in runs}
scope = scope_of(state)
section_breakdown(scope, state, labels)
section_worst(scope, state, labels)
section_kinds(scope, state, labels)
section_near_miss(scope, state, labels)
section_margins(scope, state, labels)
# ================================================================ Across runs, releases and text lengths
st.divider()
section_agreement(scope, state, labels)
section_hubs(scope, state, labels)
section_across_releases(scope, state, labels)
section_slices(scope, state, labels)
# ================================================================ Why traps win: surface bias, embedding map, compression
st.divider()
section_surface(scope, state, labels)
section_embedding_map(scope, state, labels)
section_compression(scope, state, labels)
