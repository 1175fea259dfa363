"""Data: statistics of every cached release, or (section "SQL console") a read-only SQL console over the
release and the chosen runs' hits and per-query metrics, or (section "Audit queue") the qrels audit queue. Layout
only: the counts, the console and the queue are coreb_core.views.data, .audit and .integrity. The page is a list of
sections (each a function); a refusal in one is shown there and never hides the next."""
import altair as alt
import streamlit as st

from coreb_core.data.sql_console import EXAMPLE_QUERIES, SQL_BYTE_CAP, SQL_CELL_CAP, SQL_ROW_CAP
from coreb_core.data.store import list_releases
from coreb_core.paths import datasets_dir
from coreb_core.present.charts import hbar
from coreb_core.present.format import plain
from coreb_core.views import audit, data, integrity
from coreb_core.views.scope import Scope
from ui.cache import cached, release_version, scope_of, sql_console
from ui.chart_specs import draw
from ui.judging import judgment_form
from ui.sidebar import sidebar
from ui.state import State, remembered, write_url
from ui.widgets import csv_download, guarded

SECTIONS = ("Release statistics", "SQL console", "Audit queue")
SECTION_URL = {"SQL console": "sql", "Audit queue": "audit"}
AUDIT_COLUMNS = {"query_id": st.column_config.TextColumn("Query", width=230),
                 "doc_id": st.column_config.TextColumn("Document", width=180),
                 "class": st.column_config.TextColumn("Class", width=150),
                 "grade": st.column_config.TextColumn("Grade", width="small"),
                 "runs": st.column_config.NumberColumn("Runs", width="small"),
                 "of_runs": st.column_config.NumberColumn("Of", width="small"),
                 "best_rank": st.column_config.NumberColumn("Best rank", width="small"),
                 "passed": st.column_config.CheckboxColumn("Passes", width="small", help="the solution passes its tests"),
                 "task": st.column_config.TextColumn("Task", width="small"),
                 "language": st.column_config.TextColumn("Language", width="small"),
                 "subtask": st.column_config.TextColumn("Subtask", width=150),
                 "problem_id": st.column_config.TextColumn("Problem", width=110)}
VERDICT_COLOURS = alt.Scale(domain=["pass", "fail", "unknown"], range=["#4c78a8", "#e45756", "#bab0ac"])


def choose_section() -> str:
    """The section shown (kept across pages, and in the URL: a shared link can open the console or the queue)."""
    section = st.segmented_control("Section", SECTIONS, required=True, label_visibility="collapsed",
                                   key=remembered("data_section", "section",
                                                  lambda raw: {v: k for k, v in SECTION_URL.items()}.get(raw[-1],
                                                                                                         SECTIONS[0]),
                                                  SECTIONS[0], allowed=SECTIONS))
    write_url({"section": SECTION_URL.get(str(section))})
    return str(section)


@st.fragment
@guarded
def section_audit(state: State) -> None:
    st.caption("Candidates for a maintainer of the qrels: unjudged documents of a query's own problem, in a language "
               "the official generator allows the query (T2C its constraint; C2C its target languages, the anchor's "
               "for mono_lang), that the sidebar's runs rank above every positive of the query within their top 10. "
               "Each has its class by the generator's own rules: *would be rel=2* (its positive rule selects the "
               "document: a missed positive), *trap beyond the cap* (a hard negative its draw of 3 left out), *would "
               "be rel=1* (a pool of 3 or fewer the qrels left it out of), *other*. Would-be positives first, then "
               "passing solutions, then the ones most runs put there.")
    include_traps = st.toggle("Also the re-gradable traps (rel=1 passing solutions)", key="data_audit_traps",
                              help="Traps of the query's problem that pass their tests, in a language it allows, "
                                   "ranked above every positive: *trap by the rule* where the generator's pool holds "
                                   "them.")
    if not state.run_ids:
        st.info("Choose one or more runs in the sidebar: the queue is what they rank above the positives.")
        return
    view = cached(audit.build, spinner="Reading every run's top 10 against the judgments…")(
        scope_of(state), include_traps=include_traps)
    queue, totals = view.queue, view.totals()
    st.markdown(f"**{totals.candidates:,} candidates** on {plain(state.release)}: **{totals.would_be_positive:,} would "
                f"be rel=2** by the generator's rules, {totals.passing:,} passing solutions; {totals.by_every_run:,} "
                f"put above every positive by all {len(state.run_ids)} chosen runs.")
    picked = st.dataframe(queue.assign(**{"class": audit.class_words(queue)}), hide_index=True, width="stretch",
                          key="data_audit_table", on_select="rerun", selection_mode="single-row",
                          column_order=["task", "query_id", "doc_id", "class", "grade", "runs", "of_runs", "best_rank",
                                        "passed", "language", "subtask", "problem_id"],
                          column_config=AUDIT_COLUMNS)
    csv_download(queue, f"audit_queue_{state.release}")
    rows = picked.selection.rows
    if rows and rows[0] < len(queue):  # judge the selected candidate
        judgment_form(state.release, *map(str, queue.iloc[rows[0]][["query_id", "doc_id"]]))
    st.caption(f"Source: the chosen runs on `{state.release}` · their first 10 stored documents per query, the query's "
               "own id and (anchor excluded) the C2C anchor left out · judgments of the cached qrels. Also: "
               "`python -m coreb_core audit`.")


@st.fragment
@guarded
def section_console(state: State) -> None:
    ss = st.session_state
    runs_note = (f"{len(state.run_ids)} run(s) chosen in the sidebar" if state.run_ids
                 else "no run chosen in the sidebar, so hits and metrics are empty")
    st.caption("One read-only SELECT (or WITH … SELECT) over a private in-memory copy of the sidebar's release "
               f"`{state.release}`: the eight config tables (code_corpus, text_corpus, text2code_queries, …, "
               "code2text_qrels), the views queries, qrels, documents, judgments, qrels_v1 where stored, and the "
               "run tables **hits** (run_id, run_name, task, query_id, doc_id, rank, score) and **metrics** "
               f"(run_id, run_name, scheme, task, query_id, ndcg_at_10, …: the evaluator's per-query numbers, "
               f"anchor exclusion {'on' if state.anchor_exclusion else 'off'}) for the {runs_note}. No writes, no "
               f"files, no network; at most {SQL_ROW_CAP:,} rows and {SQL_BYTE_CAP / 1e6:g} MB come back, cells cut at "
               f"{SQL_CELL_CAP:,} characters.")
    example = st.selectbox("Start from an example", list(EXAMPLE_QUERIES), key="sql_example")
    if ss.get("sql_example_shown") != example:
        ss["sql_example_shown"] = example
        ss["sql_text"] = EXAMPLE_QUERIES[example]
    sql = st.text_area("SQL", key="sql_text", height=220)
    if st.button("Run query", type="primary", key="sql_go"):
        ss.pop("sql_result", None)
        # a refusal (ConsoleError included) is one line, shown here by ``guarded``
        ss["sql_result"] = (state.release, sql_console(state).query(sql))
    if "sql_result" in ss:
        shown_release, result = ss["sql_result"]
        if result.notes():
            notes = "; ".join(result.notes())
            st.warning(plain(f"{notes[0].upper()}{notes[1:]}."))
        st.dataframe(result.frame, hide_index=True)
        csv_download(result.frame, "sql-result")
        st.caption(f"Source: SQL console over cached `{shown_release}` · {len(result.frame):,} rows · "
                   f"{result.seconds * 1000:.0f} ms.")


@guarded
def section_schema(state: State) -> None:
    with st.expander("Tables and columns"):
        schema = sql_console(state).schema()
        st.dataframe(schema, hide_index=True)
        csv_download(schema, f"{state.release}-schema")
        st.caption(f"Source: the console's copy of `{state.release}` and the chosen runs.")


@guarded
def section_statistics(state: State, release: str) -> None:
    st.subheader(plain(release))
    stats = cached(data.statistics, spinner="Counting…")(Scope(release, release_version(release), (), state.scheme,
                                                               True))
    source = f"Source: cached `{release}`"
    left, right = st.columns(2)
    with left:
        st.dataframe(stats["rows"], hide_index=True)  # first dataframe of the page: rows per config
        csv_download(stats["rows"], f"{release}-rows")
        st.caption(f"{source} · rows per config.")
    with right:
        st.dataframe(stats["judgments"], hide_index=True)
        csv_download(stats["judgments"], f"{release}-judgments")
        st.caption(f"{source} · queries, positives (rel=2), traps (rel=1), judged negatives (rel=0) per task.")
    sub_tab, doc_tab = st.tabs(["Queries per subtask", "Documents per language and verdict"])
    with sub_tab:
        sub = stats["subtasks"]
        draw(hbar, sub, "subtask", "queries", x_title="queries", color="task", color_title="task",
             stack=True, y_sort=None, value_format=",d", tooltip=["task", "subtask", "queries"])
        st.dataframe(sub, hide_index=True)
        csv_download(sub, f"{release}-subtasks")
        st.caption(f"{source} · queries per subtask.")
    with doc_tab:
        code, text = stats["code"], stats["text"]
        draw(hbar, code, "language", "documents", x_title="code documents", color="verdict", color_title="verdict",
             stack=True, y_sort="ascending", value_format=",d", tooltip=["language", "verdict", "documents"],
             color_scale=VERDICT_COLOURS)
        c1, c2 = st.columns(2)
        with c1:
            st.dataframe(code, hide_index=True)
            csv_download(code, f"{release}-code-documents")
            st.caption(f"{source} · code corpus per language; verdict from meta.passed (measured by running tests).")
        with c2:
            st.dataframe(text, hide_index=True)
            csv_download(text, f"{release}-text-documents")
            st.caption(f"{source} · text corpus: problem descriptions and noise descriptions.")


@st.fragment
@guarded
def section_integrity(releases: list[str]) -> None:
    st.subheader("Release integrity")
    left, right = st.columns(2)
    first = left.selectbox("Train on", releases, index=1, key="data_integrity_first")
    second = right.selectbox("Test on", releases, index=0, key="data_integrity_second")
    if first == second:
        st.info("Choose two different releases.")
        return
    check = integrity.build(first, second)
    head, *rest = check.lines()
    (st.success if check.check.passed else st.error)(plain(head))
    for line in rest:
        st.markdown(plain(line.strip()))
    st.caption("Source: the cached releases · source problems of their queries and documents · texts compared "
               "once case and whitespace are normalised (an exact test: a renamed variable is not caught). "
               "Also: `python -m coreb_core integrity`.")


def section_releases(state: State) -> None:
    """Every cached release's statistics, the sidebar's first (the one the user is looking at), then their
    integrity."""
    st.caption("Counts are rows of the cached parquet; positives are rel=2 judgments, traps rel=1, judged negatives "
               "rel=0 (the graded v2 qrels). No scoring scheme applies.")
    releases = [state.release, *[r for r in list_releases() if r != state.release]]
    for release in releases:
        section_statistics(state, release)
    if len(releases) >= 2:
        section_integrity(releases)


state = sidebar()
st.title("Data")
st.caption(f"Releases cached in `{datasets_dir()}`, and an **SQL console** over the sidebar's release with the "
           "chosen runs' hits and per-query metrics.")
chosen = choose_section()
if chosen == "Audit queue":
    section_audit(state)
elif chosen == "SQL console":
    section_console(state)
    section_schema(state)
else:
    section_releases(state)
