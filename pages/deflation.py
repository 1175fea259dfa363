"""Qrel deflation: how much CoREB's v1 rules overstate each run against v2, per task and subtask, and why.

The page is a list of sections (each a function, below) over ``coreb_core.views.deflation`` and ``relabel``; a
refusal in one is shown there and never hides the next."""
import altair as alt
import streamlit as st

from coreb_core.analysis.deflation import FILE, READINGS
from coreb_core.data.schema import TASK_NAMES
from coreb_core.evaluation.schemes import C2T_LABEL0_NOTE, DESCRIPTIONS
from coreb_core.present.charts import dumbbell, hbar
from coreb_core.present.display import (
    ARTICLE_CLAIM,
    WHERE_IT_COMES_FROM,
    WHY_V2_DEFLATES,
    deflation_sentence,
    pct_columns,
    points_column,
    relabel_sentence,
    text_preview,
)
from coreb_core.present.labels import TASK_LABELS
from coreb_core.views import deflation, relabel
from coreb_core.views.scope import Scope
from ui.cache import APP_INPUTS, cached, runs_of, scope_of
from ui.chart_specs import draw
from ui.navigation import open_inspector
from ui.sidebar import sidebar
from ui.state import State, one_of, remembered, stop_page, write_url
from ui.widgets import csv_download, guarded, run_label

# The v1 rules' T2C sentence has two readings (docs/semantics.md): the paper's and the official generator code's.
READING_NAMES = {"v1": "paper: every solution of the problem (v1)",
                 "v1_gen": "generator code: passing solutions only on canonical and full retro (v1_gen)"}
# Under the generator's reading T2C's v1 relevant documents are the ones its generator makes v2 positives.
T2C_GENERATOR = ("T2C (generator's reading): v1 counts the passing solutions on canonical and full retro and every "
                 "solution on search, in the query's language: the documents the generator makes v2 positives, so "
                 "T2C's drop is 0 wherever a release's qrels follow its generator (release_v2603 does).")
# Run name, group and the deciding drop first; the run id stays in the CSV download.
DEFLATION_COLUMNS = {by: ["label", *([] if by == "task" else ["subtask"]), "task", "v1_source", "drop", "v1", "v2",
                          "relative_drop", "queries", "queries_v2"] for by in ("task", "subtask")}
POINT_COLUMNS = ["v1", "v2", "drop", "relative_drop"]
PER_RUN_OPTIONS = list(range(1, 51))


def as_points(frame):
    """v1, v2, the drop and drop / v1 x100, one decimal, like the sentences above; the CSV keeps the fractions."""
    return pct_columns(frame, [c for c in POINT_COLUMNS if c in frame.columns])


def deflation_config() -> dict:
    return {
        "label": st.column_config.TextColumn("Run", width=180),
        "subtask": st.column_config.TextColumn("Subtask", width=170),
        "task": st.column_config.TextColumn("Task", width="small"),
        "v1_source": st.column_config.TextColumn("v1 from", width=200),
        **{c: st.column_config.NumberColumn(f"{c} ×100", format="%.1f", width=80) for c in ("v1", "v2")},
        "drop": st.column_config.NumberColumn("drop (points)", format="%.1f", width=100),
        "relative_drop": st.column_config.NumberColumn("drop / v1 (%)", format="%.1f", width=90),
        "queries": st.column_config.NumberColumn("Queries (both)", width="small"),
        "queries_v2": st.column_config.NumberColumn("Queries (v2)", width="small"),
    }


def anchor_words(state: State) -> str:
    return "C2C anchor excluded" if state.anchor_exclusion else "C2C anchor kept"


def source_words(state: State, scope: Scope, reading: str) -> str:
    has_file = str(scope.scheme) == "file:v1"
    return (f"Source: our runs on `{state.release}` · nDCG@10 under scheme `{reading}` (CoREB's v1 rules, "
            + ("the generator code's reading, " if reading == "v1_gen" else "") + "rebuilt from the v2 release)"
            + (", `file:v1` (the release's stored v1 qrel files, compared on the queries both have)" if has_file
               else "") + f" and `v2` (official) · {anchor_words(state)}")


def per_run_key() -> str:
    """The slider's key: it sits with its table at the bottom; its value (kept, or from the URL) is read at the top."""
    return remembered("deflation_per_run", "per_run", one_of(PER_RUN_OPTIONS), 10)


@guarded
def section_reading() -> str:
    reading = st.radio("v1 rules for T2C", list(READINGS), format_func=lambda r: READING_NAMES[r], horizontal=True,
                       key=remembered("deflation_reading", "reading", one_of(list(READINGS)), "v1"),
                       help="CoREB's paper says every solution of the queried problem was relevant in v1; the "
                            "official generator's code takes the passing solutions only for canonical and full "
                            "retro. C2C and C2T are the same under both.")
    write_url({"reading": None if reading == "v1" else reading})
    return reading


AVERAGE_CHOICES = {"tasks": "mean of task means", "queries": "query-weighted"}


@guarded
def section_answer(scope: Scope, state: State, labels: dict[str, str], reading: str) -> deflation.DeflationView:
    # One default average everywhere (docs/semantics.md): the mean of task means, as Model selection ranks; the
    # query-weighted one (paper Table 3's Overall) one click away
    average = st.radio("Overall", list(AVERAGE_CHOICES), format_func=AVERAGE_CHOICES.__getitem__, horizontal=True,
                       key=remembered("deflation_average", "average", one_of(list(AVERAGE_CHOICES)), "tasks"),
                       help="mean of task means: each task weighs the same (Model selection, select, tiers and the "
                            "report rank so); query-weighted: each query weighs the same (paper Table 3's Overall)")
    write_url({"average": None if average == "tasks" else average})
    tables = cached(deflation.build)(scope, task=state.task, per_run=st.session_state[per_run_key()],
                                     reading=reading, labels=labels, average=average)
    # The answer first: per run, how much the v1 rules overstate v2 over every task, then per task (x100).
    for finding in tables.findings:
        st.markdown(deflation_sentence(finding, labels.get(finding.run, finding.run)))
    for note in tables.order_notes:  # where the two averages, or v1 and v2, order two runs differently
        st.markdown(note)
    for task in TASK_NAMES:
        if task in set(tables.by_task["task"]):
            st.write(T2C_GENERATOR if task == "t2c" and reading == "v1_gen" else WHERE_IT_COMES_FROM[task])
    st.caption(ARTICLE_CLAIM + " " + C2T_LABEL0_NOTE)
    with st.expander("How each view is defined"):
        st.dataframe(tables.definitions, hide_index=True, placeholder="—")
        st.write(WHY_V2_DEFLATES)
    if str(scope.scheme) != "file:v1":
        st.info("This release stores no real v1 qrel files, so only the v1 rules rebuilt from the v2 release are "
                "shown.")
    return tables


@guarded
def section_by_task(tables: deflation.DeflationView, state: State, source: str) -> None:
    st.subheader("Per run and task")
    st.caption(source + " · queries = scored by both · drop = v1 − v2, relative_drop = drop / v1")
    st.dataframe(as_points(tables.by_task), hide_index=True, placeholder="—", width="stretch",
                 column_order=DEFLATION_COLUMNS["task"], column_config=deflation_config())
    csv_download(tables.by_task, f"deflation_by_task_{state.release}")
    slopes = tables.slopes
    # One row per task, run and v1 source: its v1 and v2 scores joined (a facet per task did not fit 1000 px).
    slopes = slopes.assign(value=points_column(slopes["ndcg_at_10"]),
                           row=slopes["task"].str.upper() + " · " + slopes["label"]
                           + slopes["v1_source"].map(lambda s: f" · v1 from {s}" if s == FILE else ""))
    draw(dumbbell, slopes, "row", "value", "scheme", x_title="nDCG@10 ×100", y_title=None,
         end_title="scheme", end_order=["v1", "v2"], y_sort=slopes["row"].drop_duplicates().tolist(),
         tooltip=["label:N", "task:N", "v1_source:N", "scheme:N",
                  alt.Tooltip("value:Q", title="nDCG@10 ×100", format=".1f"), "queries:Q"])
    st.caption(source + " · one row per run, task and v1 source, nDCG@10 ×100")


@guarded
def section_by_subtask(tables: deflation.DeflationView, state: State, source: str, reading: str) -> None:
    st.subheader(f"Per subtask: {TASK_LABELS[state.task]}")
    by_subtask = tables.by_subtask
    st.caption(source)
    st.dataframe(as_points(by_subtask), hide_index=True, placeholder="—", width="stretch",
                 column_order=DEFLATION_COLUMNS["subtask"], column_config=deflation_config())
    csv_download(by_subtask, f"deflation_by_subtask_{state.release}_{state.task}")
    if len(by_subtask):
        computed = as_points(tables.rebuilt_subtasks).assign(drop_points=lambda f: f["drop"])
        draw(hbar, computed, "subtask", "drop_points", x_title=f"v1 − v2 nDCG@10 ×100 ({reading} rules)",
             color="label", color_title="run", y_sort="ascending", bar_px=16,
             tooltip=["label:N", "subtask:N", alt.Tooltip("v1:Q", title="v1 ×100", format=".1f"),
                      alt.Tooltip("v2:Q", title="v2 ×100", format=".1f"),
                      alt.Tooltip("drop:Q", title="drop (points)", format=".1f"), "queries:Q"])


@st.fragment
@guarded
def section_top_queries(scope: Scope, state: State, labels: dict[str, str], reading: str) -> None:
    # A fragment: the slider changes this table only (the view is cached per count; the tables above do not read it).
    st.subheader(f"Queries behind the drop: {TASK_LABELS[state.task]}")
    per_run = st.slider("Queries per run", 1, 50, key=per_run_key())
    write_url({"per_run": str(per_run)})
    top = cached(deflation.build)(scope, task=state.task, per_run=per_run, reading=reading, labels=labels).top
    st.caption(f"Source: our runs on `{state.release}` · per-query nDCG@10 under `{reading}` (v1 rules) and `v2` · "
               f"{anchor_words(state)} · per query v1 − v2 nDCG@10; contribution = its part of the run's mean drop; "
               "share_of_drop = its part of the run's total drop on the task. Select a row to open the inspector.")
    if top.empty:
        st.info("No query of this task scores higher under v1 than under v2 for the chosen runs.")
        return
    # Run, query and the deciding drop first; ranks and counts after; run id and task only in the CSV.
    shown_top = pct_columns(top, ["v1_minus_v2_ndcg_at_10", "share_of_drop", "v1_ndcg_at_10", "v2_ndcg_at_10",
                                  "cumulative_share"])  # x100, one decimal, as on every page
    picked = st.dataframe(shown_top.assign(query=text_preview(top["query"])), hide_index=True, placeholder="—",
                          on_select="rerun", width="stretch",
                          selection_mode="single-row", key="deflation_top",
                          column_order=["label", "query_id", "v1_minus_v2_ndcg_at_10", "share_of_drop",
                                        "v1_ndcg_at_10", "v2_ndcg_at_10",
                                        "traps_above_first_positive", "first_positive_rank", "subtask", "query"],
                          column_config={
                              "label": st.column_config.TextColumn("Run", width=180),
                              "query_id": st.column_config.TextColumn("Query id", width=190),
                              "v1_minus_v2_ndcg_at_10": st.column_config.NumberColumn("v1 − v2 (points)",
                                                                                      format="%.1f", width="small"),
                              "share_of_drop": st.column_config.NumberColumn("Share of drop (%)", format="%.1f",
                                                                             width="small"),
                              "v1_ndcg_at_10": st.column_config.NumberColumn("v1 ×100", format="%.1f", width="small"),
                              "v2_ndcg_at_10": st.column_config.NumberColumn("v2 ×100", format="%.1f", width="small"),
                              "cumulative_share": st.column_config.NumberColumn("Cumulative (%)", format="%.1f",
                                                                                width="small"),
                              "traps_above_first_positive": st.column_config.NumberColumn("Traps above 1st pos.",
                                                                                          width="small"),
                              "first_positive_rank": st.column_config.NumberColumn("1st positive rank", format="%d",
                                                                                   width="small"),
                              "subtask": st.column_config.TextColumn("Subtask", width=120),
                              "query": st.column_config.TextColumn("Query", width=140)})
    csv_download(top, f"deflation_top_queries_{state.release}_{state.task}")
    rows = picked.selection.rows if picked is not None else []
    if rows:
        open_inspector(state, str(top.iloc[rows[0]]["query_id"]))


@st.fragment
@guarded
def section_corrected_labels(state: State, labels: dict[str, str]) -> None:
    """v2 against the labels corrected by execution or by judgment (coreb_core.views.relabel): per run and task, the
    rank, tier and verdict moves, and the queries that move most."""
    st.subheader("Corrected labels: v2 vs executed or judged")
    names = {"executed": "verified by execution (executed)", "judged": "your judgments applied (judged)"}
    key = remembered("deflation_labels", "labels", one_of(list(names)), "executed")
    reading = st.radio("Labels", list(names), key=key, format_func=lambda r: names[r], horizontal=True,
                       help=DESCRIPTIONS["executed"] + "\n\n" + DESCRIPTIONS["judged"])
    write_url({"labels": None if reading == "executed" else reading})
    view = cached(relabel.build, spinner="Scoring every run under both labels…")(
        Scope.of(state.release, state.run_ids, reading, state.anchor_exclusion))
    st.markdown(relabel_sentence(view, labels))
    shown = pct_columns(view.tasks.assign(label=view.tasks["run"].map(labels)), ["base", "other", "delta"])
    st.dataframe(shown, hide_index=True, width="stretch",
                 column_order=["label", "task", "base", "other", "delta", "moved", "up", "down", "queries"],
                 column_config={"label": st.column_config.TextColumn("Run", width=180),
                                "task": st.column_config.TextColumn("Task", width="small"),
                                "base": st.column_config.NumberColumn("v2 ×100", format="%.1f", width="small"),
                                "other": st.column_config.NumberColumn(f"{reading} ×100", format="%.1f",
                                                                       width="small"),
                                "delta": st.column_config.NumberColumn("change (points)", format="%+.1f",
                                                                       width="small"),
                                "moved": st.column_config.NumberColumn("Queries moved", format="localized", width="small"),
                                "up": st.column_config.NumberColumn("Up", format="localized", width="small"),
                                "down": st.column_config.NumberColumn("Down", format="localized", width="small"),
                                "queries": st.column_config.NumberColumn("Queries", format="localized", width="small")})
    st.caption(f"Source: our runs on `{state.release}` · nDCG@10 under `v2` (official) and `{reading}` (not official: "
               f"{DESCRIPTIONS[reading]}) · {anchor_words(state)}")
    moved = view.queries
    if moved.empty:
        st.info(f"No query scores differently under {reading} for the chosen runs.")
        return
    shown_moved = pct_columns(moved.assign(label=moved["run"].map(labels)), ["base", "other", "delta"])
    picked = st.dataframe(shown_moved, hide_index=True, width="stretch", on_select="rerun",
                          selection_mode="single-row", key="deflation_relabel_queries",
                          column_order=["label", "task", "query_id", "base", "other", "delta"],
                          column_config={"label": st.column_config.TextColumn("Run", width=180),
                                         "query_id": st.column_config.TextColumn("Query id", width=200),
                                         "base": st.column_config.NumberColumn("v2 ×100", format="%.1f"),
                                         "other": st.column_config.NumberColumn(f"{reading} ×100", format="%.1f"),
                                         "delta": st.column_config.NumberColumn("change (points)", format="%+.1f")})
    csv_download(moved, f"relabel_{reading}_queries_{state.release}")
    rows = picked.selection.rows if picked is not None else []
    if rows:
        open_inspector(state, str(moved.iloc[rows[0]]["query_id"]))


state = sidebar()
st.title("Qrel deflation")
if not state.run_ids:
    st.info("Pick one or more runs in the sidebar.")
    stop_page()
runs = runs_of(state.release)
labels = {r: run_label(runs[r]) if r in runs else r for r in state.run_ids}
reading = section_reading() or "v1"
scope = guarded(deflation.v1_scope)(scope_of(state), inputs=APP_INPUTS)
tables = section_answer(scope, state, labels, reading) if scope is not None else None
if scope is not None and tables is not None:  # refused (shown above): the tables below read the same view
    section_by_task(tables, state, source_words(state, scope, reading))
    section_by_subtask(tables, state, source_words(state, scope, reading), reading)
    section_top_queries(scope, state, labels, reading)
section_corrected_labels(state, labels)
