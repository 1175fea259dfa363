"""Query inspector: one query, its problem, each run's ranked list, and where its positives and traps sit. Layout
only: every table and text comes from coreb_core.views.inspector (and the trap agreement of coreb_core.views.traps).
The page is a list of sections (each a function); a refusal in one is shown there and never hides the next."""
from typing import NamedTuple

import pandas as pd
import streamlit as st

from coreb_core.analysis.inspection import QueryDetails
from coreb_core.errors import CorebError
from coreb_core.present.display import UNJUDGED_BADGE, pct_columns
from coreb_core.present.inspection import trap_reason_text
from coreb_core.present.labels import TASK_LABELS
from coreb_core.text import nfc_forms
from coreb_core.views import inspector, traps
from ui.cache import cached, runs_of, scope_of
from ui.inspection import back_params, back_target, row_colours
from ui.judging import judgment_form
from ui.sidebar import sidebar
from ui.state import (
    State,
    drop_url_buffer,
    keep_url,
    one_of,
    remembered,
    url_float,
    url_param,
    url_params,
    url_values,
    write_url,
)
from ui.widgets import csv_download, guarded, provenance, run_label

MAX_RUNS = 3
RUN_LETTERS = "ABC"
# Shown in each ranked list: rank, grade, document, where the other runs put it, why a trap, score. Language,
# tests, model, problem and text are in the open document's view and the CSV. Pixel widths that fit two lists
# side by side in the main area at 1600 px (560 px each, the selection column included); three lists get about
# 365 px each, so they keep the rank, the grade's symbol (the row's colour says it too), the document and where
# the other two runs put it; why a trap and the score are in the table of judged documents and beside the open one.
LIST_COLUMNS = ["rank", "grade", "doc_id", "why", "hub", "score"]
COMPACT_COLUMNS = ["rank", "grade_symbol", "doc_id"]
ELSEWHERE_PX = 62  # "#9 ↓4", "#186", "=", "—": where another run ranks the same document
RANK_PX = 56  # a rank column of the table of judged documents ("rank A", up to 3 digits)
FINDER_FACTS = ["task", "problem_id", "subtask", "target_language", "anchor_language", "query"]
DIFF_VIEWS = ["unified diff", "side by side"]
FINDER_MODES = ["no run filter", "trap above positive in a run", "largest Δ nDCG@10 between two runs",
                "lost to a trap by several runs"]


class Shown(NamedTuple):
    """What the ranked lists section chose, for the sections below it: the runs side by side, their letters, their
    lists and the open document."""

    runs: list[str]
    letters: dict[str, str]
    lists: inspector.QueryLists
    doc: str | None


def section_back() -> None:
    """The way back to the page that opened the inspector (its ``from`` URL parameter), as that page was."""
    origin = back_target(url_param("from"))
    if origin is None:
        return
    keep_url(["from", *back_params(url_params())])  # the calling page's keys stay in the URL for the button
    if st.button(f"← Back to {origin.title}", key="insp_back"):
        # The page as it was: the global state and its own URL parameters, none of the inspector's.
        params = back_params(url_params())
        drop_url_buffer()
        st.switch_page(origin.script, query_params=params)


@guarded
def section_finder(state: State, labels: dict[str, str]) -> tuple[str | None, str | None]:
    """The query to inspect and the one asked for (the URL's, else the one this session last inspected for the
    task: menu moves clear the URL; a selected row of the finder's table replaces it); without one asked for, the
    first the filters find."""
    last_query = st.session_state.setdefault("insp_query_by_task", {})
    url_query = url_param("query") or last_query.get(state.task)
    with st.expander("Find a query", expanded=url_query is None):
        facets = cached(inspector.facets)(scope_of(state), task=state.task)
        c1, c2, c3 = st.columns([2, 2, 1])
        text = c1.text_input("Search id or text", key=remembered("insp_text", "find", lambda raw: raw[-1][:200]),
                             placeholder="e.g. 0003, circular, def main")
        subtask = c2.selectbox("Subtask", [None, *facets["subtask"]], format_func=lambda v: "all" if v is None else v,
                               key=remembered("insp_subtask", "subtask", one_of(facets["subtask"])))
        language = c3.selectbox("Target language", [None, *facets["target_language"]],
                                format_func=lambda v: "all" if v is None else v,
                                key=remembered("insp_lang", "lang", one_of(facets["target_language"])))
        mode = st.radio("Run filter", FINDER_MODES, horizontal=True,
                        key=remembered("insp_mode", "filter", one_of(FINDER_MODES)))
        write_url({"find": text, "subtask": subtask, "lang": language,
                   "filter": mode if mode != FINDER_MODES[0] else None})
        trap_run: str | None = None
        delta_runs: tuple[str, str] | None = None
        if mode == FINDER_MODES[1] and state.run_ids:
            trap_run = st.selectbox("Run", state.run_ids, format_func=lambda r: labels[r], key="insp_trap_run")
        elif mode == FINDER_MODES[2]:
            if len(state.run_ids) < 2:
                st.info("Choose two runs in the sidebar to compare.")
            else:
                d1, d2 = st.columns(2)
                a = d1.selectbox("Run a", state.run_ids, format_func=lambda r: labels[r], key="insp_run_a")
                b = d2.selectbox("Run b", [r for r in state.run_ids if r != a], format_func=lambda r: labels[r],
                                 key="insp_run_b")
                delta_runs = (a, b)
        lost_by = None
        if mode == FINDER_MODES[3] and state.run_ids:
            lost_by = int(st.number_input(f"Lost by at least (of {len(state.run_ids)} chosen runs)", min_value=1,
                                          max_value=len(state.run_ids), step=1,
                                          key=remembered("insp_lost_by", "lost_by",
                                                         one_of(list(range(1, len(state.run_ids) + 1))),
                                                         len(state.run_ids))))
            write_url({"lost_by": str(lost_by)})
        finder = cached(inspector.finder)(scope_of(state), task=state.task, text=text, subtask=subtask,
                                          language=language, trap_run=trap_run, delta_runs=delta_runs)
        found = finder.found
        if lost_by is not None:  # queries that many chosen runs lose to a trap (Trap analysis: agreement)
            agreement = cached(traps.agreement)(scope_of(state))
            found = agreement.lost_rows(found, lost_by)
            finder = inspector.QueryFinder(found, agreement.lost_rows(finder.shown, lost_by))
        st.caption(f"{len(found)} queries of {state.task}" +
                   (f" · Δ = nDCG@10 (scheme {state.scheme}) of run a − run b" if delta_runs else "") +
                   " · select a row to inspect it")
        # The query and the deciding numbers (Δ, traps) first; task and problem id only in the CSV. Pixel widths
        # that fit the expander at 1600 px.
        deciding = [c for c in found.columns if c not in FINDER_FACTS and c != "query_id"]
        fractions = [c for c in deciding if c not in ("traps_above_first_positive", "runs_lost")]  # Δ, nDCG: x100
        picked = st.dataframe(pct_columns(finder.shown, fractions), hide_index=True, placeholder="—",
                              width="stretch", on_select="rerun", selection_mode="single-row", height=260,
                              column_order=["query_id", *deciding, *FINDER_FACTS[2:]],
                              column_config={"query_id": st.column_config.TextColumn("Query", width=230),
                                             "traps_above_first_positive": st.column_config.NumberColumn(
                                                 "Traps above 1st positive", width=95),
                                             "runs_lost": st.column_config.NumberColumn(
                                                 "Runs lost", width=80,
                                                 help="chosen runs that rank a trap above every positive"),
                                             "subtask": st.column_config.TextColumn("Subtask", width=190),
                                             "target_language": st.column_config.TextColumn("Target", width=75),
                                             "anchor_language": st.column_config.TextColumn("Anchor", width=75),
                                             "query": st.column_config.TextColumn("Query text", width=200),
                                             **{c: st.column_config.NumberColumn(f"{c} ×100", format="%.1f", width=95)
                                                for c in fractions}})
        csv_download(found, f"inspector_queries_{state.release}_{state.task}")
        rows = picked.selection.rows
        if rows and rows[0] < len(found):
            chosen = str(found["query_id"].iloc[rows[0]])
            if st.session_state.get("insp_applied") != chosen:
                st.session_state["insp_applied"] = chosen
                write_url({"query": chosen, "doc": None})
                url_query = chosen
    query_id = url_query or (str(found["query_id"].iloc[0]) if len(found) else None)
    if query_id is None:
        st.info("No query matches these filters.")
    return query_id, url_query


@guarded
def section_query(state: State, query_id: str) -> QueryDetails:
    try:
        q = cached(inspector.query)(scope_of(state), query_id=query_id)
    except CorebError:
        # An unknown id (from a link) is neither carried on into the page links nor remembered for the task.
        write_url({"query": None, "doc": None})
        raise
    write_url({"query": query_id})
    st.session_state["insp_query_by_task"][state.task] = query_id
    st.subheader("Query")
    st.text(f"{q.query_id} · {TASK_LABELS[q.task]} · {q.subtask} · target language: {q.target_language or 'any'}"
            + (f" · anchor: {q.anchor_language} ({q.anchor_code_id})" if q.anchor_language else "")
            + (f" · match label: {q.label}" if q.label is not None else ""))
    if q.task != state.task:
        st.warning(f"This query belongs to {q.task}, not to the task chosen in the sidebar.")
    _query_code(st, q)
    st.text(f"Problem: {q.problem_id or 'unknown'}" + (f" · {q.problem_title}" if q.problem_title else ""))
    if q.problem_statement or q.problem_abbreviated:
        with st.expander("Problem statement (text corpus)"):
            short, full = st.tabs(["abbreviated", "full"])
            short.code(q.problem_abbreviated or "(no abbreviated text)", language="text", wrap_lines=True)
            full.code(q.problem_statement or "(no statement)", language="text", wrap_lines=True)
    return q


def _query_code(where, q: QueryDetails) -> None:
    if q.query_is_code:
        where.code(q.query, language=q.anchor_language or "text", line_numbers=True)
    else:
        where.code(q.query, language="text", wrap_lines=True)


@guarded
def section_lists(state: State, q: QueryDetails, labels: dict[str, str], url_query: str | None) -> Shown | None:
    """The chosen runs' ranked lists side by side (up to three), and the open document: one per query; a click on
    any listed row (the newest click wins) opens it."""
    if not state.run_ids:
        st.info("Choose runs in the sidebar to see their ranked lists.")
        return None
    st.subheader("Ranked lists")
    ss = st.session_state
    shown = state.run_ids
    if len(shown) > MAX_RUNS:
        if "insp_shown" not in ss or not set(ss.insp_shown) <= set(state.run_ids):
            ss.insp_shown = ([r for r in url_values("shown") if r in state.run_ids][:MAX_RUNS]
                             or state.run_ids[:MAX_RUNS])
        shown = st.multiselect("Runs side by side (up to 3)", state.run_ids, max_selections=MAX_RUNS,
                               format_func=lambda r: labels[r], key="insp_shown") or state.run_ids[:1]
    if "insp_top" not in ss:
        ss.insp_top = min(max(int(url_float("k") or 10), 1), 100)
    top = st.slider("Top", min_value=1, max_value=100, key="insp_top")
    letters = dict(zip(shown, RUN_LETTERS))
    st.caption(provenance(state, "grades from the graded qrels; ranks as scored (query id dropped"
                                 + (", C2C anchor dropped" if state.anchor_exclusion else "") + "); "
                                 "rows: green = positive, amber = trap, blue = the open document; "
                                 f"“in B” = where run B ranks the same document (a rank alone: below its top {top}; "
                                 "— = not in its stored top 100); select a row to open it"
                                 + ("; three runs: compact lists (grade symbol ✓ ⚠ ✗ ○); why a trap is in the table "
                                    "below and beside the open document, scores in the CSV" if len(shown) == MAX_RUNS
                                    else "")))
    lists = cached(inspector.lists)(scope_of(state).with_runs(shown), query_id=q.query_id,
                                    labels={r: labels[r] for r in shown}, letters={r: letters[r] for r in shown},
                                    top=top)
    if ss.get("insp_doc_for") != q.query_id:
        # the link's query id may be the stored id in another normal form (NFD): it names the same query
        same = url_query is not None and q.query_id in nfc_forms(url_query)
        ss.insp_doc_for, ss.insp_doc = q.query_id, (url_param("doc") if same else None)
    clickable = {f"insp_list_{q.query_id}_{rid}": frame for rid, frame in lists.listings.items()}
    clickable[f"insp_pos_{q.query_id}"] = lists.positions
    for key, frame in clickable.items():
        rows = ss[key].selection.rows if key in ss else []
        clicked = str(frame["doc_id"].iloc[rows[0]]) if rows and rows[0] < len(frame) else None
        if clicked and ss.get(f"{key}_applied") != clicked:
            ss[f"{key}_applied"], ss.insp_doc = clicked, clicked
    doc = ss.insp_doc if ss.insp_doc in set(lists.ranks.index) | set(lists.positions["doc_id"]) else None
    write_url({"doc": doc, "k": str(top), "shown": list(shown) if len(state.run_ids) > MAX_RUNS else None})
    for column, rid in zip(st.columns(max(len(shown), 1)), shown):
        with column:
            st.text(f"{letters[rid]} · {labels[rid]}")
            if rid not in lists.listings:
                st.info("This run has no list for this query.")
                continue
            _listing(lists.listings[rid], compact=len(shown) == MAX_RUNS, doc=doc,
                     key=f"insp_list_{q.query_id}_{rid}", name=f"inspector_list_{q.query_id}_{rid}")
    return Shown(list(shown), letters, lists, doc)


def _listing(listing: pd.DataFrame, compact: bool, doc: str | None, key: str, name: str) -> None:
    config = {"rank": st.column_config.NumberColumn("#", width=40),
              "grade": st.column_config.TextColumn("Grade", width=88),
              "grade_symbol": st.column_config.TextColumn("", width=30, help="Grade: ✓ positive, ⚠ trap, ✗ judged "
                                                          "negative, ○ unjudged, ⚓ the C2C anchor (the query's own "
                                                          "code, kept)"),
              "doc_id": st.column_config.TextColumn("Document", width=135),
              "why": st.column_config.TextColumn("Why a trap", width=110),
              "hub": st.column_config.NumberColumn("Hub", width=36, help="A hub of this run: one of its 10 documents "
                                                   "in the most top-10 lists of this task, and in how many (Trap "
                                                   "analysis → Hubs)"),
              "score": st.column_config.NumberColumn("Score", width=50)}
    others = [c for c in listing.columns if c.startswith("in ")]
    view = (listing.assign(grade_symbol=listing["grade"].str.split().str[0])[COMPACT_COLUMNS + others]
            if compact else listing[LIST_COLUMNS[:3] + others + LIST_COLUMNS[3:]])
    styled = view.style.apply(lambda _: row_colours(listing["relevance"], listing["doc_id"], doc, view.shape[1])
                              .set_axis(view.index).set_axis(view.columns, axis=1), axis=None)
    st.dataframe(styled.format({"score": "{:.4f}"}), hide_index=True, placeholder="—", width="stretch",
                 on_select="rerun", selection_mode="single-row", key=key,
                 column_config={**config, **{c: st.column_config.TextColumn(c, width=ELSEWHERE_PX) for c in others}})
    csv_download(listing, name)


@guarded
def section_document(state: State, q: QueryDetails, labels: dict[str, str], shown: Shown) -> None:
    st.subheader("Document beside the query")
    doc = shown.doc
    if doc is None:
        st.caption("Select a row of a ranked list, or of the table below, to open its full code or text here.")
        return
    lists = shown.lists
    left, right = st.columns(2)
    left.text(f"Query {q.query_id}")
    _query_code(left, q)
    judged = dict(zip(lists.positions["doc_id"], lists.positions["grade"]))
    where = [f"{shown.letters[r]}: " + ("not stored" if doc not in lists.ranks.index
                                        or pd.isna(lists.ranks.at[doc, labels[r]])
                                        else f"#{int(lists.ranks.at[doc, labels[r]])}") for r in shown.runs]
    right.text(f"{doc} · {judged.get(doc, UNJUDGED_BADGE)} · " + ", ".join(where))
    if doc in lists.reasons:
        right.text(f"Why a trap: {trap_reason_text(lists.reasons[doc])}")
    rule = lists.rule_words(doc)
    if rule is not None:  # the generator's own rules (generator_rules): what the qrels would make of it
        right.text(f"By the generator's rules: {rule}"
                   + ("; relevant under executed (passing code of the problem)" if doc in lists.executed else ""))
    opened = cached(inspector.document)(scope_of(state), query_id=q.query_id, doc_id=doc)
    right.code(opened.text, language=opened.language or "text", wrap_lines=q.task == "c2t",
               line_numbers=q.task != "c2t")
    if right.button("Close document", key=f"insp_close_{q.query_id}"):
        st.session_state.insp_doc = None
        write_url({"doc": None})
        st.rerun()
    with right:
        judgment_form(state.release, q.query_id, doc)


@guarded
def section_positions(state: State, q: QueryDetails, labels: dict[str, str], shown: Shown) -> None:
    st.subheader("Where every positive and trap sits")
    st.caption(provenance(state, "rank in each run, also beyond the top 100 (runs store every judged document); "
                                 "empty = not stored; select a row to open it"))
    positions, letters = shown.lists.positions, shown.letters
    rank_columns = {f"rank · {labels[r]}": r for r in shown.runs}
    # The reason gets what the other columns leave of the main area at 1600 px (1,140 px; 30 for row selection).
    px = {"grade": 85, "doc_id": 175, "language": 70, "pass_fail": 60, "tests": 60, "model": 105, "beats": 62}
    why_px = 1130 - 30 - sum(px.values()) - RANK_PX * len(rank_columns)
    # "beats k of n": how many of the chosen runs each trap beats (Trap analysis: agreement across runs).
    beats = cached(traps.agreement)(scope_of(state)).beats_of(q.query_id)
    positions_shown = positions.assign(beats=[f"{beats[d][0]} of {beats[d][1]}" if d in beats else None
                                              for d in positions["doc_id"]])
    st.dataframe(positions_shown, hide_index=True, placeholder="—", width="stretch", on_select="rerun",
                 selection_mode="single-row", key=f"insp_pos_{q.query_id}",
                 column_order=["grade", "doc_id", *rank_columns, "beats", "why", "language", "pass_fail", "tests",
                               "model"],
                 column_config={"grade": st.column_config.TextColumn("Grade", width=px["grade"]),
                                "doc_id": st.column_config.TextColumn("Document", width=px["doc_id"]),
                                **{c: st.column_config.NumberColumn(f"rank {letters[r]}", format="%d", width=RANK_PX,
                                                                    help=f"{letters[r]} · {labels[r]}")
                                   for c, r in rank_columns.items()},
                                "beats": st.column_config.TextColumn("Beats", width=px["beats"],
                                                                     help="a trap: how many of the chosen runs rank "
                                                                          "it above every positive"),
                                "why": st.column_config.TextColumn("Why a trap", width=why_px),
                                "language": st.column_config.TextColumn("Language", width=px["language"]),
                                "pass_fail": st.column_config.TextColumn("Tests", width=px["pass_fail"]),
                                "tests": st.column_config.TextColumn("Passed", width=px["tests"]),
                                "model": st.column_config.TextColumn("Solution", width=px["model"])})
    csv_download(positions, f"inspector_positions_{q.query_id}")


@st.fragment
@guarded
def section_diff(state: State, q: QueryDetails, labels: dict[str, str], shown: Shown) -> None:
    st.subheader("Trap vs a positive, same language where the query has one")
    lists = shown.lists
    # Widgets keyed by query id: a new query starts from its own runs and traps, never the last query's.
    diff_run = st.selectbox("Run", [labels[r] for r in shown.runs], key=f"insp_diff_run_{q.query_id}")
    outranking = lists.outranking(diff_run)
    if not outranking:
        st.info("In this run no trap ranks above a positive of this query.")
        return
    trap = st.selectbox("Trap (ranked above a positive)", outranking, key=f"insp_pair_{q.query_id}_{diff_run}",
                        format_func=lambda t: f"trap {t} (rank {lists.trap_rank(diff_run, t)}) · "
                                              f"{trap_reason_text(lists.reasons.get(t))}")
    pair = lists.pair(diff_run, trap)
    positive_rank = "not stored" if pd.isna(pair.positive_rank) else f"rank {int(pair.positive_rank)}"
    if pair.same_language:
        st.caption(f"Paired with positive {pair.positive} ({positive_rank})"
                   + (f", also in {pair.trap_language}" if pair.trap_language else "")
                   + ("" if pair.outranked else "; it ranks above the trap"))
    else:
        st.info(f"No positive in {pair.trap_language or 'the trap’s language'}; showing the "
                f"{pair.positive_language or 'text'} one ({pair.positive}, {positive_rank}).")
    if "insp_diff_view" not in st.session_state:
        st.session_state.insp_diff_view = DIFF_VIEWS[1] if url_param("view") == "side" else DIFF_VIEWS[0]
    diff_view = st.radio("View", DIFF_VIEWS, horizontal=True, key="insp_diff_view")
    write_url({"view": "side" if diff_view == DIFF_VIEWS[1] else "unified"})
    diff = cached(inspector.trap_diff)(scope_of(state), query_id=q.query_id, trap=pair.trap, positive=pair.positive)
    if diff_view == DIFF_VIEWS[0]:
        st.code(diff.unified or "(identical texts)", language="diff")
        return
    for column, document, role in zip(st.columns(2), (diff.trap, diff.positive), ("trap", "positive")):
        column.text(f"{role} {document.doc_id}")
        column.code(document.text, language=document.language or "text", wrap_lines=q.task == "c2t")


state = sidebar()
section_back()
st.title("Query inspector")
runs = runs_of(state.release)
labels = {rid: run_label(runs[rid]) for rid in state.run_ids if rid in runs}
query_id, asked = section_finder(state, labels) or (None, None)
q = section_query(state, query_id) if query_id is not None else None
shown = section_lists(state, q, labels, asked) if q is not None else None
if q is not None and shown is not None:
    section_document(state, q, labels, shown)
    section_positions(state, q, labels, shown)
    section_diff(state, q, labels, shown)
