"""Qrel deflation: how much CoREB's v1 rules overstate each run against v2, per task and subtask, and why."""
import altair as alt
import streamlit as st

from coreb_core.analysis.deflation import (COMPUTED, FILE, deflation_table, headline, scheme_definitions, slope_data,
                                  top_drop_queries)
from coreb_core.data.schema import TASK_NAMES
from coreb_core.errors import CorebError
from coreb_core.evaluation.schemes import C2T_LABEL0_NOTE, Scheme
from ui.cache import run_tables, runs_of, store
from ui.display import ARTICLE_CLAIM, WHERE_IT_COMES_FROM, WHY_V2_DEFLATES, deflation_sentence
from ui.labels import TASK_LABELS
from ui.navigation import open_inspector
from ui.sidebar import sidebar
from ui.widgets import csv_download, run_label, show_error

state = sidebar()
st.title("Qrel deflation")

if not state.run_ids:
    st.info("Pick one or more runs in the sidebar.")
    st.stop()

anchor = "C2C anchor excluded" if state.anchor_exclusion else "C2C anchor kept"
try:
    release_store = store(state.release)
    has_file = "v1" in release_store.extra_qrels
    tables = run_tables(state._replace(scheme=Scheme.parse("file:v1")) if has_file else state)
except CorebError as exc:
    show_error(exc)
    st.stop()

runs = runs_of(state.release)
labels = {r: run_label(runs[r]) if r in runs else r for r in state.run_ids}
by_task = deflation_table(release_store, tables, "task", labels=labels)

# The answer first: per run and task, how much the v1 rules overstate v2 (x100, one decimal).
for finding in headline(by_task):
    st.markdown(deflation_sentence(finding, labels.get(finding.run, finding.run)))
for task in TASK_NAMES:
    if task in set(by_task["task"]):
        st.write(WHERE_IT_COMES_FROM[task])
st.caption(ARTICLE_CLAIM + " " + C2T_LABEL0_NOTE)

source = (f"Source: our runs on `{state.release}` · nDCG@10 under scheme `v1` (CoREB's v1 rules, rebuilt from the "
          f"v2 release)" + (", `file:v1` (the release's stored v1 qrel files, compared on the queries both have)"
                            if has_file else "") + f" and `v2` (official) · {anchor}")
with st.expander("How each view is defined"):
    st.dataframe(scheme_definitions(), hide_index=True)
    st.write(WHY_V2_DEFLATES)
if not has_file:
    st.info("This release stores no real v1 qrel files, so only the v1 rules rebuilt from the v2 release are shown.")

st.subheader("Per run and task")
st.caption(source + " · queries = scored by both · drop = v1 − v2, relative_drop = drop / v1")
st.dataframe(by_task, hide_index=True,
             column_config={c: st.column_config.NumberColumn(format="%.4f") for c in
                            ("v1", "v2", "drop", "relative_drop")})
csv_download(by_task, f"deflation_by_task_{state.release}")

slopes = slope_data(by_task)
chart = (alt.Chart(slopes).mark_line(point=True).encode(
    x=alt.X("scheme:N", title=None, sort=["v1", "v2"], axis=alt.Axis(labelAngle=0)),
    y=alt.Y("ndcg_at_10:Q", title="nDCG@10"),
    color=alt.Color("label:N", title="run"),
    strokeDash=alt.StrokeDash("v1_source:N", title="v1 from", sort=[COMPUTED, FILE]),
    detail="line:N",
    tooltip=["label:N", "task:N", "v1_source:N", "scheme:N", alt.Tooltip("ndcg_at_10:Q", format=".4f"),
             "queries:Q"],
).properties(width=220, height=280).facet(column=alt.Column("task:N", title=None)))
st.altair_chart(chart)
st.caption(source + " · one line per run, task and v1 source")

st.subheader(f"Per subtask: {TASK_LABELS[state.task]}")
by_subtask = deflation_table(release_store, tables, "subtask", task=state.task, labels=labels)
st.caption(source)
st.dataframe(by_subtask, hide_index=True,
             column_config={c: st.column_config.NumberColumn(format="%.4f") for c in
                            ("v1", "v2", "drop", "relative_drop")})
csv_download(by_subtask, f"deflation_by_subtask_{state.release}_{state.task}")
if len(by_subtask):
    bars = alt.Chart(by_subtask[by_subtask["v1_source"] == COMPUTED]).mark_bar().encode(
        x=alt.X("drop:Q", title="v1 − v2 nDCG@10 (v1 rules)"),
        y=alt.Y("subtask:N", title=None),
        yOffset="label:N",
        color=alt.Color("label:N", title="run"),
        tooltip=["label:N", "subtask:N", alt.Tooltip("v1:Q", format=".4f"), alt.Tooltip("v2:Q", format=".4f"),
                 alt.Tooltip("drop:Q", format=".4f"), "queries:Q"],
    )
    st.altair_chart(bars, width="stretch")

st.subheader(f"Queries behind the drop: {TASK_LABELS[state.task]}")
per_run = st.slider("Queries per run", 1, 50, 10, key="deflation_per_run")
top = top_drop_queries(tables.traps, state.task, per_run, store=release_store, labels=labels)
st.caption(f"Source: our runs on `{state.release}` · per-query nDCG@10 under `v1` (v1 rules) and `v2` · {anchor}"
           + " · per query v1 − v2 nDCG@10; contribution = its part of the run's mean drop; "
             "share_of_drop = its part of the run's total drop on the task. Select a row to open the inspector.")
if top.empty:
    st.info("No query of this task scores higher under v1 than under v2 for the chosen runs.")
else:
    picked = st.dataframe(top, hide_index=True, on_select="rerun",
                          selection_mode="single-row", key="deflation_top")
    csv_download(top, f"deflation_top_queries_{state.release}_{state.task}")
    rows = picked.selection.rows if picked is not None else []
    if rows:
        open_inspector(state, str(top.iloc[rows[0]]["query_id"]))
