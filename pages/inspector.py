"""Query inspector: one query, its problem, each run's ranked list, and where its positives and traps sit."""
import pandas as pd
import streamlit as st

from coreb_core.errors import CorebError
from coreb_core.analysis.inspection import (candidates, document_language, document_text, facet_values, judged_positions,
                                   outranking_pairs, query_details, query_hits, ranked_list, unified_diff)
from ui.cache import hits, run_tables, runs_of, store
from ui.display import with_grades
from ui.labels import TASK_LABELS
from ui.sidebar import sidebar
from ui.state import url_param, write_url
from ui.widgets import csv_download, provenance, run_label, show_error

MAX_RUNS = 3
LIST_COLUMNS = ["rank", "grade", "doc_id", "score", "pass_fail", "tests", "language", "model", "problem_id", "text"]


state = sidebar()
st.title("Query inspector")
s = store(state.release)
runs = runs_of(state.release)
labels = {rid: run_label(runs[rid]) for rid in state.run_ids if rid in runs}
try:
    tables = run_tables(state) if state.run_ids else None
except CorebError as exc:
    show_error(exc)
    st.stop()

# ------------------------------------------------------------------ find a query
url_query = url_param("query")
with st.expander("Find a query", expanded=url_query is None):
    facets = facet_values(s, state.task)
    c1, c2, c3 = st.columns([2, 2, 1])
    text = c1.text_input("Search id or text", key="insp_text", placeholder="e.g. 0003, circular, def main")
    subtask = c2.selectbox("Subtask", [None] + facets["subtask"], format_func=lambda v: "all" if v is None else v,
                           key="insp_subtask")
    language = c3.selectbox("Target language", [None] + facets["target_language"],
                            format_func=lambda v: "all" if v is None else v, key="insp_lang")
    modes = ["no run filter", "trap above positive in a run", "largest Δ nDCG@10 between two runs"]
    mode = st.radio("Run filter", modes, horizontal=True, key="insp_mode")
    trap_run = delta_runs = None
    if mode == modes[1] and state.run_ids:
        trap_run = st.selectbox("Run", state.run_ids, format_func=labels.get, key="insp_trap_run")
    elif mode == modes[2]:
        if len(state.run_ids) < 2:
            st.info("Choose two runs in the sidebar to compare.")
        else:
            d1, d2 = st.columns(2)
            a = d1.selectbox("Run a", state.run_ids, format_func=labels.get, key="insp_run_a")
            b = d2.selectbox("Run b", [r for r in state.run_ids if r != a], format_func=labels.get, key="insp_run_b")
            delta_runs = (a, b)
    try:
        found = candidates(s, state.task, text, subtask, language, trap_run=trap_run,
                           traps=tables.traps if tables else None,
                           per_query=tables.per_query(state.scheme) if tables else None, delta_runs=delta_runs)
    except CorebError as exc:
        show_error(exc)
        st.stop()
    st.caption(f"{len(found)} queries of {state.task}" +
               (f" · Δ = nDCG@10 (scheme {state.scheme}) of run a − run b" if delta_runs else "") +
               " · select a row to inspect it")
    picked = st.dataframe(found, hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row",
                          height=260)
    csv_download(found, f"inspector_queries_{state.release}_{state.task}")
    rows = picked.selection.rows
    if rows and rows[0] < len(found):
        chosen = str(found["query_id"].iloc[rows[0]])
        if st.session_state.get("insp_applied") != chosen:
            st.session_state["insp_applied"] = chosen
            write_url({"query": chosen})
            url_query = chosen

query_id = url_query or (str(found["query_id"].iloc[0]) if len(found) else None)
if query_id is None:
    st.info("No query matches these filters.")
    st.stop()
write_url({"query": query_id})
try:
    q = query_details(s, query_id)
except CorebError as exc:
    show_error(exc)
    st.stop()

# ------------------------------------------------------------------ the query and its problem
st.subheader("Query")
st.text(f"{q.query_id} · {TASK_LABELS[q.task]} · {q.subtask} · target language: {q.target_language or 'any'}"
        + (f" · anchor: {q.anchor_language} ({q.anchor_code_id})" if q.anchor_language else "")
        + (f" · match label: {q.label}" if q.label is not None else ""))
if q.task != state.task:
    st.warning(f"This query belongs to {q.task}, not to the task chosen in the sidebar.")
if q.query_is_code:
    st.code(q.query, language=q.anchor_language or "text", line_numbers=True)
else:
    st.code(q.query, language="text", wrap_lines=True)
st.text(f"Problem: {q.problem_id or 'unknown'}" + (f" · {q.problem_title}" if q.problem_title else ""))
if q.problem_statement or q.problem_abbreviated:
    with st.expander("Problem statement (text corpus)"):
        short, full = st.tabs(["abbreviated", "full"])
        short.code(q.problem_abbreviated or "(no abbreviated text)", language="text", wrap_lines=True)
        full.code(q.problem_statement or "(no statement)", language="text", wrap_lines=True)

if not state.run_ids:
    st.info("Choose runs in the sidebar to see their ranked lists.")
    st.stop()

# ------------------------------------------------------------------ ranked lists
st.subheader("Ranked lists")
shown = state.run_ids
if len(shown) > MAX_RUNS:
    shown = st.multiselect("Runs side by side (up to 3)", state.run_ids, default=state.run_ids[:MAX_RUNS],
                           max_selections=MAX_RUNS, format_func=labels.get, key="insp_shown")
top = st.slider("Top", min_value=1, max_value=100, value=10, key="insp_top")
st.caption(provenance(state, "grades from the graded qrels; ranks as scored (query id dropped"
                             + (", C2C anchor dropped" if state.anchor_exclusion else "") + ")"))
rows_by_run = {labels[r]: query_hits(hits(r), q.query_id) for r in shown}
columns = st.columns(max(len(shown), 1))
for column, rid in zip(columns, shown):
    with column:
        st.text(labels[rid])
        rows = rows_by_run[labels[rid]]
        if rows.empty:
            st.info("This run has no list for this query.")
            continue
        listing = with_grades(ranked_list(s, q, rows, state.anchor_exclusion, top), 1)  # grade badge after rank
        st.dataframe(listing[LIST_COLUMNS], hide_index=True, width="stretch", column_config={
            "score": st.column_config.NumberColumn(format="%.4f")})
        csv_download(listing, f"inspector_list_{q.query_id}_{rid}")

# ------------------------------------------------------------------ every positive and trap
st.subheader("Where every positive and trap sits")
st.caption(provenance(state, "rank in each run, also beyond the top 100 (runs store every judged document); "
                             "empty = not stored"))
positions = with_grades(judged_positions(s, q, rows_by_run, state.anchor_exclusion), 0)
st.dataframe(positions, hide_index=True, width="stretch")
csv_download(positions, f"inspector_positions_{q.query_id}")

# ------------------------------------------------------------------ trap vs positive diff
st.subheader("Trap vs the positive it outranked")
diff_run = st.selectbox("Run", list(rows_by_run), key="insp_diff_run")
try:
    pairs = outranking_pairs(positions, diff_run)
except CorebError as exc:
    show_error(exc)
    st.stop()
if pairs.empty:
    st.info("In this run no trap ranks above a positive of this query.")
    st.stop()


def _pair_label(i: int) -> str:
    p = pairs.iloc[i]
    positive_rank = "not stored" if pd.isna(p.positive_rank) else f"rank {int(p.positive_rank)}"
    return f"trap {p.trap} (rank {int(p.trap_rank)}) above positive {p.positive} ({positive_rank})"


pair_index = st.selectbox("Pair", range(len(pairs)), format_func=_pair_label, key="insp_pair")
view = st.radio("View", ["unified diff", "side by side"], horizontal=True, key="insp_diff_view")
pair = pairs.iloc[pair_index]
trap_text = document_text(s, q, pair.trap)
positive_text = document_text(s, q, pair.positive)
if view == "unified diff":
    diff = unified_diff(trap_text, positive_text, f"trap {pair.trap}", f"positive {pair.positive}")
    st.code(diff or "(identical texts)", language="diff")
else:
    left, right = st.columns(2)
    left.text(f"trap {pair.trap}")
    left.code(trap_text, language=document_language(s, pair.trap) or "text", wrap_lines=q.task == "c2t")
    right.text(f"positive {pair.positive}")
    right.code(positive_text, language=document_language(s, pair.positive) or "text", wrap_lines=q.task == "c2t")
