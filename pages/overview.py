"""Overview: our runs, imported results and published figures side by side; heatmaps and charts of
our runs. Layout only: every frame comes from coreb_core.views.overview. The page is a list of sections (each a
function); a refusal in one is shown there and never hides the next."""
import pandas as pd
import streamlit as st

from coreb_core.analysis.article import ARTICLE_RERANKER_RANGES
from coreb_core.analysis.leaderboard import PUBLISHED_TASK_SOURCES
from coreb_core.data.schema import LANGUAGE_SCOPES, TASK_NAMES
from coreb_core.evaluation.schemes import C2T_LABEL0_NOTE
from coreb_core.present.charts import heatmap, interval_dots, labelled_scatter, line_chart, waterfall_bars
from coreb_core.present.display import pct_columns, points_column
from coreb_core.present.format import code, plain
from coreb_core.present.labels import chip_label
from coreb_core.present.numbers import points
from coreb_core.present.tiers import method_words, rank_range, tiers_sentence
from coreb_core.present.waterfall import waterfall_rows, waterfall_sentence
from coreb_core.results.imported import short_source
from coreb_core.results.published import QUERY_WEIGHTED, TASK_MEAN, published_version
from coreb_core.views import overview, tiers, waterfall
from coreb_core.views.scope import Scope
from ui.cache import cached, runs_of, scope_of
from ui.chart_specs import draw
from ui.sidebar import sidebar
from ui.state import State, flag, one_of, remembered, some_of, stop_page, write_url
from ui.widgets import csv_download, guarded, provenance, run_label

# Models whose two published ends (MTEB's file, the leaderboard) the waterfall shows without a run: the article's
# Qwen3 C2C finding, which flips with the protocol.
WATERFALL_PUBLISHED = ("qwen3-embedding-0.6b", "qwen3-embedding-4b", "qwen3-embedding-8b")
WATERFALL_END_WORDS = {"mteb": "MTEB's result file", "leaderboard": "the leaderboard (paper Table 3)"}
LANGUAGE_ORDER = {language: i for i, language in enumerate(LANGUAGE_SCOPES)}
TIER_SCORES = {"tasks": "Overall (tasks)", "queries": "Overall (queries)", **{t: t.upper() for t in TASK_NAMES}}


@guarded
def section_leaderboard(scope: Scope, state: State, labels: dict[str, str]) -> overview.Standings:
    st.subheader("Leaderboard: nDCG@10 ×100 per task")
    left, right = st.columns([3, 1])
    sources = left.multiselect("Published sources", list(PUBLISHED_TASK_SOURCES),
                               format_func=lambda s: chip_label(PUBLISHED_TASK_SOURCES[s]),
                               help="Per-task tables of the real CoREB: the paper's Table 3 (v202603) or 14 (v202602), "
                                    "the project page at commit b312b5b, the dataset README; each with its release.",
                               key=remembered("ov_sources", "sources", some_of(list(PUBLISHED_TASK_SOURCES)),
                                              list(overview.default_sources(state.release))))
    with_imported = right.toggle("Imported results", key=remembered("ov_imported", "imported", flag, True),
                                 help="MTEB trees and official-runner outputs brought in with import-results.")
    write_url({"sources": ",".join(sources), "imported": "1" if with_imported else "0"})
    tables = cached(overview.standings, results=True)(scope, sources=tuple(sources), with_imported=with_imported,
                                                       labels=labels)
    shown = pct_columns(tables.board, [*TASK_NAMES, QUERY_WEIGHTED, TASK_MEAN])  # fractions printed x100, one decimal
    # Identifying and deciding columns first: the run's name (not its id), then the overall score; release and
    # run id stay in the CSV download only, so the table fits a 1600 px page without scrolling.
    shown.insert(0, "name", shown["run"].map(labels).fillna(shown["model"]))
    version = published_version(state.release)
    ours = f"this app on {state.release}" + (f" = {version}" if version else "")
    shown.loc[shown["kind"] == "our run", "source"] = ours  # the id is in the run column
    shown["source"] = shown["source"].map(short_source)  # an imported file's folder, never the server's path
    # Pixel widths that add up to the main area at 1600 px (1,140 px), so nothing scrolls sideways; "—" where a
    # row has no figure (published rows print one kind of overall only).
    st.dataframe(shown, hide_index=True, placeholder="—",
                 width="stretch",
                 column_order=["name", QUERY_WEIGHTED, *TASK_NAMES, TASK_MEAN, "kind", "source", "scheme"],
                 column_config={
                     "name": st.column_config.TextColumn("Run / model", width=210,
                                                         help="Our runs by name (the id is in the CSV download)."),
                     **{task: st.column_config.NumberColumn(task.upper(), format="%.1f", width=60) for task in TASK_NAMES},
                     QUERY_WEIGHTED: st.column_config.NumberColumn(
                         "Overall (queries)", format="%.1f", width=120,
                         help="Query-weighted mean over every query of the release: the kind paper Table 3/14 and the "
                              "project page print (task weights = query counts, e.g. T2C 1,123 · C2T 1,200 · C2C 278 "
                              "on v2603)."),
                     TASK_MEAN: st.column_config.NumberColumn(
                         "Overall (tasks)", format="%.1f", width=110,
                         help="Plain mean of T2C, C2C and C2T: the kind the README's Avg prints."),
                     "kind": st.column_config.TextColumn("Kind", width=85),
                     "source": st.column_config.TextColumn("Source", width=240),
                     "scheme": st.column_config.TextColumn("Scheme", width=170),
                 })
    st.caption(provenance(state, "our rows: this app's evaluator on this release; imported rows: official-runner "
                                 "outputs (C2C anchor kept; MTEB's results have their own block below, on MTEB's scale); "
                                 "published rows: "
                                 "real CoREB, labelled by paper table / project page / README, each overall in the column "
                                 "of its kind. "
                                 + (f"This release is the published {version}: our rows and that version's published "
                                    "rows are like with like. " if version else
                                    "Figures on different releases are not comparable. ") + C2T_LABEL0_NOTE))
    csv_download(shown, "leaderboard")
    for run_id, tasks in cached(overview.coverages)(scope).items():  # a run (file) that leaves judged queries out
        for covered in tasks.values():
            if covered.warning():
                st.warning(f"{plain(labels.get(run_id, run_id))} · {plain(covered.warning())}")

    if len(tables.mteb):
        # MTEB's CoREB tasks score on another scale: their own block, never the v2 columns above.
        st.subheader("Imported MTEB results: MTEB's scale, not v2")
        mteb = pct_columns(tables.mteb, [*TASK_NAMES, TASK_MEAN]).assign(source=lambda f: f["source"].map(short_source))
        st.dataframe(mteb, hide_index=True, placeholder="—", width="stretch",
                     column_order=["model", "published_name", *TASK_NAMES, TASK_MEAN, "revision", "source"],
                     column_config={
                         "model": st.column_config.TextColumn("MTEB model", width=260),
                         "published_name": st.column_config.TextColumn(
                             "Paper's name", width=140, help="The model's name in the paper's tables (leaderboard above)."),
                         **{task: st.column_config.NumberColumn(task.upper(), format="%.1f", width=60)
                            for task in TASK_NAMES},
                         TASK_MEAN: st.column_config.NumberColumn("Mean of tasks", format="%.1f", width=110),
                         "revision": st.column_config.TextColumn("Revision", width=110),
                         "source": st.column_config.TextColumn("Source", width=240)})
        st.caption("Source: imported MTEB result files, nDCG@10 ×100 of the retrieval tasks on MTEB's scale: "
                   + plain(str(tables.mteb["scheme"].iloc[0])) + ". Not comparable with the v2 columns above (the same "
                   "model scores higher here); the paper's name links a row to its published v2 figures.")
        csv_download(tables.mteb, "mteb_results")
    return tables


@guarded
def section_tiers(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("Rank tiers: which differences are real")
    if len(state.run_ids) < 2:
        st.info("Rank tiers compare two or more runs: choose more in the sidebar.")
        return
    on = st.radio("Score", list(TIER_SCORES), format_func=TIER_SCORES.__getitem__, horizontal=True,
                  key=remembered("ov_tiers", "tiers_on", one_of(list(TIER_SCORES)), "tasks"),
                  help="The leaderboard's overall columns, or one task. Only the queries every run scored count.")
    write_url({"tiers_on": on})
    view = cached(tiers.build, spinner="Testing every pair of runs and resampling queries…")(
        scope, task=on if on in TASK_NAMES else None, average="queries" if on == "queries" else "tasks")
    t = view.tiers
    st.markdown(plain(tiers_sentence(t, labels)))
    table = t.table()
    table.insert(2, "name", table["run"].map(labels).fillna(table["run"]))
    table["points"] = points_column(table["mean"])
    table["ranks"] = [rank_range(lo, hi) for lo, hi in zip(table["rank_low"], table["rank_high"])]
    st.dataframe(table, hide_index=True, width="stretch",
                 column_order=["tier", "rank", "name", "points", "ranks", "dropped"],
                 column_config={"tier": st.column_config.NumberColumn("Tier", width=50),
                                "rank": st.column_config.NumberColumn("Rank", width=50),
                                "name": st.column_config.TextColumn("Run", width=260),
                                "points": st.column_config.NumberColumn(f"{TIER_SCORES[on]} ×100", format="%.1f",
                                                                        width=130,
                                                                        help="over the queries every run scored"),
                                "ranks": st.column_config.TextColumn("Rank, 95% interval", width=130),
                                "dropped": st.column_config.NumberColumn(
                                    "Queries dropped", width=120, help="this run's queries not every run scored")})
    chart = table.assign(label=table["rank"].astype(str) + ". " + table["name"].astype(str))
    draw(interval_dots, chart, "label", "rank", "rank_low", "rank_high", x_title="Rank (1 = best): 95% interval",
         tooltip=["name", "tier", "rank", "rank_low", "rank_high", "points"], title="Rank intervals")
    st.caption(provenance(state, method_words(t)))
    csv_download(table.drop(columns=["points", "ranks"]), "rank_tiers")


@guarded
def section_mteb_parity(scope: Scope, state: State, labels: dict[str, str]) -> None:
    parity = cached(overview.mteb_side_by_side, results=True)(scope)
    if not len(parity):
        return
    st.subheader("Our re-runs of MTEB's models beside MTEB's result files")
    # Three decimals of points: MTEB's files carry five decimals of a fraction, so equal means equal here.
    st.dataframe(parity.assign(**{c: parity[c] * 100 for c in ("ours", "mteb", "difference")}), hide_index=True,
                 width="stretch",
                 column_order=["model", "mteb_model", "task", "metric", "queries", "ours", "mteb", "difference"],
                 column_config={"ours": st.column_config.NumberColumn("ours ×100", format="%.3f"),
                                "mteb": st.column_config.NumberColumn("MTEB ×100", format="%.3f"),
                                "difference": st.column_config.NumberColumn("ours − MTEB", format="%.3f"),
                                "queries": st.column_config.NumberColumn("queries", format="%d")})
    st.caption(f"Source: our runs on {code(state.release)} · scheme `mteb` (positives only, queries without a "
               "positive left out) · C2C anchor kept · rounded to MTEB's 5 decimals; MTEB: the imported result "
               "files (" + ", ".join(plain(short_source(s)) for s in sorted(set(parity["mteb_source"]))) + ")")
    csv_download(parity, "mteb_parity")


@guarded
def section_waterfall(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("Why our number is not the leaderboard's: MTEB's protocol → CoREB's, step by step")
    metas = runs_of(state.release)
    models = list(dict.fromkeys(m.model for r, m in metas.items() if r in state.run_ids and m.model
                                and m.kind in (None, "retrieval")))
    models += [m for m in WATERFALL_PUBLISHED if m not in models]
    left, right = st.columns([2, 1])
    model = left.selectbox("Model", models, key=remembered("ov_fall_model", "fall_model", one_of(models),
                                                            models[0], allowed=models),
                           help="A model of the sidebar's runs (its steps are scored here), or one whose MTEB file "
                                "and leaderboard figure are known (Qwen3-Embedding: its weights do not load here)")
    task = right.radio("Task", TASK_NAMES, horizontal=True, format_func=str.upper,
                       key=remembered("ov_fall_task", "fall_task", one_of(list(TASK_NAMES)), state.task))
    write_url({"fall_model": model, "fall_task": task})
    view = cached(waterfall.build, results=True)(state.release, model=model, task=task, run_ids=tuple(sorted(metas)))
    ends = view.ends.get(task, {})
    fall = view.waterfall
    if fall is None or not (fall.table["task"] == task).any():
        if ends:
            st.markdown(" · ".join(f"{WATERFALL_END_WORDS[k]}: **{points(v)}**" for k, v in ends.items()))
        st.info(f"No run of {model} is stored on this release, so its steps cannot be scored. Make them with "
                f"`python -m coreb_core waterfall --release {state.release} --model {model} --make` where its weights "
                "load (one encode of the release per step).")
        return
    st.markdown(waterfall_sentence(fall.table, task, ends))
    rows = waterfall_rows(fall.table, task)
    draw(waterfall_bars, rows, "title", "start", "end", x_title="nDCG@10 ×100", label="label",
         title=f"{model} · {state.release} · {task.upper()}")
    st.dataframe(rows, hide_index=True, width="stretch", column_order=["title", "label", "description"],
                 column_config={"title": st.column_config.TextColumn("Step", width="medium"),
                                "label": st.column_config.TextColumn("nDCG@10 ×100", width="small"),
                                "description": st.column_config.TextColumn("What changes", width="large")})
    missing = f" Steps without a stored run, folded into the next: {', '.join(fall.missing)}." if fall.missing else ""
    make = (f" Make the missing steps with `python -m coreb_core waterfall --release {state.release} --model {model} "
            "--make`." if view.to_make else "")
    st.caption("Each step is scored with the official evaluator: MTEB's protocol is scheme `mteb` (positives only, "
               "queries without a positive left out) with the C2C anchor kept, on the card-profile run; then the "
               "graded qrels, the anchor excluded, and the encoding steps, each its own stored run."
               + missing + make)
    csv_download(fall.table, f"waterfall_{state.release}_{model}")


@guarded
def section_heatmaps(scope: Scope, state: State, labels: dict[str, str], tables: overview.Standings) -> None:
    st.subheader("Our runs by subtask and by language")
    for by, title, frame in (("subtask", "Subtask", tables.by_subtask),
                             ("language", "Task · target language", tables.by_language)):
        frame = frame.rename(columns={"ndcg_at_10": "ndcg_at_10_raw"}).assign(value=points_column(frame["ndcg_at_10"]))
        # Runs are the columns (few, named in full); subtasks or task · language cells the rows (many).
        cells = frame.sort_values(["task", by], key=lambda c: c.map(LANGUAGE_ORDER).fillna(len(LANGUAGE_ORDER))
                                  if c.name == "language" else c)["cell"].drop_duplicates().tolist()
        draw(heatmap, frame, x="run_label", y="cell", value="value", x_title="Run", y_title=title,
             legend_title="nDCG@10 ×100", x_sort=list(labels.values()), y_sort=cells,
             tooltip=("run_label", "task", by, "queries", "value"), title=f"nDCG@10 ×100 by {by}")
        st.caption(provenance(state, f"mean nDCG@10 per {by} over the evaluated queries"
                                     + ("; C2C has no target language ('any')" if by == "language" else "")))
        csv_download(frame.drop(columns=["cell"]), f"ndcg10_by_{by}")


@guarded
def section_language_pairs(scope: Scope, state: State, labels: dict[str, str]) -> None:
    first = state.run_ids[0]
    st.subheader("C2C: anchor language → language of the positives")
    k = st.select_slider("Cutoff k", options=[1, 3, 5, 10, 20, 100], key=remembered("ov_k", "cutoff", one_of([1, 3, 5, 10, 20, 100]), 10))
    write_url({"cutoff": str(k)})
    pairs = cached(overview.language_pairs)(scope, run=first, k=k)
    pairs.insert(pairs.columns.get_loc("k"), "value", points_column(pairs["recall_at_k"]))
    if len(pairs):
        draw(heatmap, pairs, x="target_language", y="anchor_language", value="value",
             x_title="Target language (positives)", y_title="Anchor language (query code)",
             legend_title=f"Recall@{k} ×100", x_sort=list(LANGUAGE_SCOPES),
             y_sort=list(LANGUAGE_SCOPES),
             tooltip=("anchor_language", "target_language", "queries", "positives", "found", "value"),
             title=f"Recall@{k} of positives per language pair: {labels.get(first, first)}")
        st.caption(provenance(state, f"run {plain(labels.get(first, first))}; positives = rel=2 of the graded qrels whatever the scheme; per pair "
                                     f"the mean over C2C queries of the share of their positives in that language "
                                     f"ranked ≤ {k}"))
        csv_download(pairs, "c2c_language_pairs")
    else:
        st.info("The first selected run has no C2C queries.")


@guarded
def section_efficiency(scope: Scope, state: State, labels: dict[str, str], tables: overview.Standings) -> None:
    st.subheader("Parameter efficiency")
    efficiency = pct_columns(tables.efficiency, ["overall"])
    if len(efficiency):
        draw(labelled_scatter, efficiency, "params_b", "overall", "model",
             x_title="Parameters (billions, symlog)",
             y_title="Overall nDCG@10 ×100 (query-weighted)", series="kind",
             series_title="Source", log_x=True,
             tooltip=["model", "kind", "params_b", "overall", "source", "scheme"])
        st.caption(provenance(state, "published points: project page 1a0d779 (real CoREB v202603, the query-weighted "
                                     "overall nDCG@10 of paper Table 3); our points: runs whose model spec records "
                                     "params_b, overall query-weighted the same way on this release"))
        csv_download(efficiency, "parameter_efficiency")


@guarded
def section_language_gradient(scope: Scope, state: State, labels: dict[str, str]) -> None:
    st.subheader("T2C by target language")
    no_search = st.toggle("Exclude the search subtask (as the paper's average)",
                          key=remembered("ov_nosearch", "nosearch", flag, True))
    write_url({"nosearch": "1" if no_search else "0"})
    gradient = pct_columns(cached(overview.language_gradient, results=True)(scope, exclude_search=no_search,
                                                                              labels=labels), ["value"])
    if len(gradient):
        draw(line_chart, gradient, "language", "value", "series", x_title="Target language (language constraint)",
             y_title="T2C nDCG@10 ×100", series_title="Series", style="kind", style_title="Source",
             x_sort=list(LANGUAGE_SCOPES),
             tooltip=["series", "kind", "language", "value", "queries", "source"])
        st.caption(provenance(state, "published: paper, average over models, search excluded; our runs: mean nDCG@10 "
                                     "per target language"))
        csv_download(gradient, "t2c_by_language")
    article_figures = cached(overview.article, results=True)(scope, labels=labels)
    for r in article_figures.ranges:  # printed as one range for a group of languages: said, not plotted as a point
        st.caption(f"The paper prints {' and '.join(r.languages)} together as a range: "
                   f"{r.low * 100:.1f}–{r.high * 100:.1f} (average of models, search excluded; v202603).")


@guarded
def section_article(scope: Scope, state: State, labels: dict[str, str]) -> None:
    article_figures = cached(overview.article, results=True)(scope, labels=labels)
    st.subheader("The article's figures beside this release")
    st.caption("What the CoREB paper and project page print (real CoREB v202603), each beside what the chosen runs give "
               f"on {code(state.release)}. Published figures are as printed; ours are this app's evaluator.")
    t4, n1, rr, order_tab = st.tabs(["T2C by subtask (Table 4)", "C2C nDCG@1, anchor excluded", "Rerankers",
                                     "Task order"])
    with t4:
        both = pd.concat([article_figures.table4.assign(kind="published (paper Table 4, v202603)"),
                          article_figures.our_t2c.assign(kind=f"our run on {state.release}")], ignore_index=True)
        st.dataframe(pct_columns(both, ["canonical", "full", "search"]), hide_index=True, width="stretch",
                     column_order=["model", "canonical", "full", "search", "kind"],
                     column_config={k: st.column_config.NumberColumn(f"{k} ×100", format="%.1f", width=100)
                                    for k in ("canonical", "full", "search")})
        st.caption("T2C nDCG@10 ×100 by subtask family. The paper's search column is 0.0–1.5 for every model: a "
                   "search query's positives are the solutions that pass or fail as asked, which the embeddings do "
                   "not tell apart. " + provenance(state, "ours: mean over each family's queries"))
    with n1:
        rule = "excluded (as the paper)" if state.anchor_exclusion else "kept (sidebar): the anchor is rank 1, so 0"
        both = pd.concat([article_figures.ndcg1.assign(kind="published (paper, v202603)"),
                          article_figures.our_ndcg1.assign(kind=f"our run on {state.release}, anchor {rule}")],
                         ignore_index=True)
        st.dataframe(pct_columns(both, ["ndcg_at_1"]), hide_index=True, width="stretch",
                     column_order=["model", "ndcg_at_1", "kind"],
                     column_config={"ndcg_at_1": st.column_config.NumberColumn("C2C nDCG@1 ×100", format="%.1f")})
        st.caption("C2C nDCG@1: is the first document a verified solution of the same problem? The paper reports it with "
                   "the query's own code (the anchor) left out; with the anchor kept every query scores 0. "
                   + provenance(state, "ours: mean over the C2C queries"))
    with rr:
        unit = st.radio("Unit", ["% of the first stage", "nDCG@10 change ×100"], horizontal=True,
                        key="overview_reranker_unit", help="The project page prints the first; the article's finding 5 "
                                                           "the second")
        points = unit != "% of the first stage"
        columns = [f"{t}_delta" if points else t for t in TASK_NAMES]
        table = article_figures.rerankers.copy()
        if points:
            table[columns] = table[columns] * 100
        st.dataframe(table, hide_index=True, width="stretch",
                     column_order=["model", *columns, *([] if points else ["mean"]), "source"],
                     column_config={**{c: st.column_config.NumberColumn(
                                           f"{t.upper()} Δ {'×100' if points else '%'}", format="%+.1f", width=90)
                                       for c, t in zip(columns, TASK_NAMES)},
                                    "mean": st.column_config.NumberColumn("mean Δ %", format="%+.1f", width=90)})
        ranges = "; ".join(f"{t.upper()} {lo * 100:+.1f} to {hi * 100:+.1f}"
                           for t, (lo, hi) in ARTICLE_RERANKER_RANGES.items())
        st.caption("Each reranker reorders a first stage's top documents. Published: C2LLM-7B's top 128 (project page, "
                   "final numbers, v202603; its change in nDCG@10 is the page's percent of C2LLM-7B's paper Table 3 "
                   f"score). The article's finding 5, nDCG@10 change ×100 over four rerankers: {ranges}. Ours: reranked "
                   "runs among the sidebar's runs, against the first stage their run records, scored "
                   + provenance(state, "mean over each task's queries") + ". Train one: Training data page, or "
                   "`python -m coreb_core train-reranker`, then `run --rerank`.")
    with order_tab:
        o = article_figures.order
        st.markdown(f"The article says every model scores **{' > '.join(t.upper() for t in o.order)}**. In paper Table 3 "
                    f"(v202603) **{o.holding} of {o.models}** models do; the exceptions: "
                    + plain("; ".join(o.exceptions) or "none") + ".")
        st.caption("Source: paper Table 3, nDCG@10 per task, v202603. Our runs' order is in the leaderboard above.")


state = sidebar()
st.title("Overview")

metas = runs_of(state.release)
if not state.run_ids:
    st.info("Choose one or more runs in the sidebar (or create one on Run retrieval).")
    stop_page()
labels = {r: run_label(metas[r]) for r in state.run_ids if r in metas}
scope = scope_of(state)
tables = section_leaderboard(scope, state, labels)
section_tiers(scope, state, labels)
section_mteb_parity(scope, state, labels)
if tables is not None:
    section_heatmaps(scope, state, labels, tables)
section_language_pairs(scope, state, labels)
if tables is not None:
    section_efficiency(scope, state, labels, tables)
section_language_gradient(scope, state, labels)
section_waterfall(scope, state, labels)
section_article(scope, state, labels)
