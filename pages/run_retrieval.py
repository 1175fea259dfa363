"""Run retrieval: re-run a model on a cached release (configure → the background job → its results), sweep many,
name and tag runs, and import datasets and results. Layout only: the work is coreb_core.retrieval (jobs, pipeline),
coreb_core.results (imports) and the finished run's scores coreb_core.views.retrieval. The page is a list of sections
(each a function); a refusal in one is shown there and never hides the next."""
from typing import NamedTuple

import altair as alt
import pandas as pd
import streamlit as st

from coreb_core.data.schema import TASKS
from coreb_core.data.store import list_releases
from coreb_core.errors import CorebError
from coreb_core.input_paths import check_input_path
from coreb_core.paths import cache_root
from coreb_core.present.charts import hbar
from coreb_core.present.display import points_column
from coreb_core.present.format import api_blocked, error_lines, model_table, plain, prompt_table, release_words
from coreb_core.present.labels import TASK_LABELS
from coreb_core.present.numbers import duration_text
from coreb_core.results.imported import import_results
from coreb_core.results.uploads import import_dataset, import_uploaded_dataset, import_uploaded_results
from coreb_core.retrieval.device import cuda_status
from coreb_core.retrieval.jobs import DONE, FAILED, JobState, RunRequest, WorkRequest, board, sweep_job
from coreb_core.retrieval.pipeline import estimate_api_run
from coreb_core.retrieval.profiles import DEFAULT_PROFILE, PROFILES
from coreb_core.retrieval.sweep import SweepResult
from coreb_core.runs.cost import cost_words
from coreb_core.runs.folders import run_meta, update_run
from coreb_core.runs.hits import DEFAULT_TOP_K
from coreb_core.runs.meta import parse_tags
from coreb_core.text import capped
from coreb_core.views.retrieval import new_run
from ui.cache import runs_of
from ui.chart_specs import draw
from ui.jobs import job_title, session_job, start_job, start_work, submit, sweep_table, sweep_title
from ui.sidebar import sidebar
from ui.state import State
from ui.widgets import csv_download, guarded, path_or_upload, run_label, run_tooltip

PROFILE_LABELS = {"official": "official (as the leaderboard was made)", "card": "card (the model's own prompts)"}
PROFILE_HELP = {
    "official": "Encodes as coreb_runner 0.1.0 made the published CoREB numbers: transformers AutoModel, no prompts, "
                "512 tokens, mean pooling (or the model's own sentence embedding), float32. Compare with the leaderboard.",
    "card": "Encodes as the model's card says: sentence-transformers with the model's own pooling, its published "
            "prompts verbatim per task and side, its length. Compare with the model's own reports. "
            "The registry table below says where each prompt was found.",
}
LOCAL = "local folder…"


class Configured(NamedTuple):
    """The run the configuration section describes, and why it cannot start (None when it can)."""

    request: RunRequest
    blocked: str | None


@st.cache_resource(show_spinner=False)
def _cuda() -> tuple[bool, str]:
    return cuda_status()


@guarded
def section_configure(state: State) -> Configured:
    models = model_table()
    left, right = st.columns(2)
    with left:
        choice = st.selectbox("Model", list(models["id"]) + [LOCAL], key="run_model",
                              format_func=lambda m: m if m == LOCAL or models.set_index("id").loc[m, "kind"] != "api"
                              else f"{m} (API)")
        blocked = None
        kind = None
        if choice == LOCAL:
            model = st.text_input("Local sentence-transformers folder (path on the server)",
                                  key="run_local_path").strip()
            if not model:
                blocked = "Give the path of a sentence-transformers folder (it holds modules.json or config.json)."
        else:
            model = choice
            row = models.set_index("id").loc[choice]
            kind = row["kind"]
            if not row["re_runnable"]:
                blocked = f"{choice}: {row['why_not']}."
                st.info(blocked)
            elif kind == "api":
                blocked = api_blocked(choice)
                if blocked:
                    st.info(blocked)
        profile = st.radio("Encoding profile", list(PROFILES), index=PROFILES.index(DEFAULT_PROFILE), horizontal=True,
                           key="run_profile", format_func=PROFILE_LABELS.get,
                           help="It is part of the run's label, its provenance and its cached vectors.")
        st.caption(PROFILE_HELP[profile])
        if kind == "dense":
            with st.expander(f"Prompts that {choice} gets under the {profile} profile"):
                st.dataframe(prompt_table(choice, profile), hide_index=True, placeholder="—")
                st.caption("Source: coreb_core.retrieval.profiles (official: none, as coreb_runner) and the registry's "
                           "card prompts, each with where it was found; an empty prompt means none is published or "
                           "applied.")
        with st.expander("The model registry"):
            st.dataframe(models, hide_index=True, placeholder="—")
            csv_download(models, "model-registry")
            st.caption("Source: coreb_core.retrieval.models registry (hub name, revision and prompts of each model).")
        release = state.release  # one release selector: the sidebar's
        st.markdown(f"Release: **{plain(release)}** (the sidebar's; change it there)")
        chosen = st.multiselect("Tasks", list(TASKS), default=list(TASKS), key="run_tasks",
                                format_func=lambda t: TASK_LABELS[t])
        tasks = tuple(t for t in TASKS if t in chosen)
        if kind == "api" and tasks:
            if profile != DEFAULT_PROFILE:
                blocked = blocked or f"{choice} is an API model: it has the {DEFAULT_PROFILE} profile only."
            try:  # what the run will send and cost, before it starts (texts the embedding cache lacks)
                estimate = estimate_api_run(choice, release, tasks)
            except CorebError as exc:
                st.caption(plain(str(exc)))
            else:
                if estimate is not None:
                    st.caption(plain(f"Token and cost estimate: {estimate.words()}"))
    with right:
        device = st.radio("Device", ["auto", "cpu", "cuda"], horizontal=True, key="run_device")
        has_cuda, cuda_line = _cuda()
        st.caption(("✅ " if has_cuda else "") + cuda_line)
        batch_size = st.number_input("Batch size", 1, 4096, 64, key="run_batch")
        top_k = st.number_input("Top-k stored per query", 10, 10_000, DEFAULT_TOP_K, key="run_top_k",
                                help="Judged documents and the C2C anchor are stored wherever they rank.")
    if not tasks:
        blocked = blocked or "Choose at least one task."
    return Configured(RunRequest(model, release, tasks, device, int(batch_size), int(top_k), profile), blocked)


@guarded
def section_job(configured: Configured | None) -> JobState | None:
    """The Run button, and this session's run while it goes on or once it failed; the run itself is returned."""
    clicked = st.button("Run", type="primary", disabled=configured is None or configured.blocked is not None,
                        key="run_go", help="The run goes on in the background while you use other pages; its "
                                           "progress and a Cancel button are in the sidebar of every page.")
    if clicked and configured is not None:
        submit("run_job", lambda: start_job(configured.request))
    job = session_job("run_job")
    if job is not None and not job.finished:
        st.info(f"Running {plain(job_title(job.request))} in the background: its progress and a Cancel button are "
                "in the sidebar, on every page. You can leave this page; the run goes on.",
                icon=":material/hourglass_top:")
    elif job is not None and job.status == FAILED:
        for line in (job.error or "").split("; "):
            st.error(plain(line))
    return job


@guarded
def section_results(state: State, job: JobState | None) -> None:
    if job is None or job.status != DONE or job.run_id is None:
        return
    st.header("Last run")
    last = new_run(job.run_id)  # read again: it may have been renamed since
    last_release = job.request.release
    st.subheader(plain(run_label(last.meta)), help=run_tooltip(last.meta), anchor=False)
    where = (f"It is now listed under Runs in the sidebar for {release_words(last_release)}."
             if state.release == last_release else
             f"It was made on {release_words(last_release)}; switch the sidebar's Release to {last_release} "
             "to find it under Runs.")
    st.caption(f"{duration_text(job.elapsed_s)}, {last.meta.texts_encoded or 0} texts encoded (the rest came from "
               f"the vector cache); measured cost: {cost_words(last.meta.cost)}. " + where)
    shown = last.scores.assign(ndcg_at_10=points_column(last.scores["ndcg_at_10"]))  # x100, one decimal
    draw(hbar, shown, "task", "ndcg_at_10", x_title="nDCG@10 ×100", y_sort=list(TASKS), value_format=".1f",
         tooltip=["task", alt.Tooltip("ndcg_at_10:Q", title="nDCG@10 ×100", format=".1f")])
    st.dataframe(shown, hide_index=True, placeholder="—",
                 column_config={"ndcg_at_10": st.column_config.NumberColumn("nDCG@10 ×100", format="%.1f")})
    csv_download(last.scores, f"ndcg-{job.run_id}", label="Download nDCG@10 (CSV, fractions)")
    run_profile = job.request.profile if isinstance(job.request, RunRequest) else None
    st.caption(f"Source: this run on `{last_release}` · encoding profile `{run_profile}` "
               "(BM25 has none) · scheme `v2` (official) · C2C anchor excluded · mean over each task's evaluated "
               "queries.")


@st.fragment
@guarded
def section_sweep(state: State) -> None:
    """Configure a sweep and start it (its progress is the sidebar's, which draws the page again when it ends)."""
    st.header("Sweep")
    st.caption("Many runs as one job: one per model, release and profile (a lexical model has no profile: one run), "
               "one at a time per GPU of this server, else on the CPU. A run already stored with the same identity is "
               "skipped, one that fails is reported and made again by the next sweep; a cancel stops it after the run "
               "under way, which stores nothing. The command line's `python -m coreb_core sweep` does the same, also "
               "on a Ray cluster (docs/sweep.md).")
    models = model_table()
    runnable = [m for m in models["id"] if models.set_index("id").loc[m, "re_runnable"]]
    s1, s2, s3 = st.columns(3)
    sweep_models = s1.multiselect("Models", runnable, default=[m for m in ("bm25",) if m in runnable],
                                  key="sweep_models")
    releases = list_releases()
    sweep_releases = s2.multiselect("Releases", releases, default=[r for r in (state.release,) if r in releases],
                                    key="sweep_releases")
    sweep_profiles = s3.multiselect("Profiles (dense models)", list(PROFILES), default=[DEFAULT_PROFILE],
                                    key="sweep_profiles", format_func=lambda p: PROFILE_LABELS[p])
    if st.button("Start the sweep", disabled=not (sweep_models and sweep_releases and sweep_profiles), key="sweep_go",
                 help="It goes on in the background; its progress (the run under way, the runs done) and a Cancel "
                      "button are in the sidebar of every page."):
        chosen = (list(sweep_models), list(sweep_releases), list(sweep_profiles), cache_root())
        submit("sweep_job", lambda: start_work(WorkRequest("sweep", sweep_title(*chosen[:3]), state.release),
                                               lambda progress: sweep_job(*chosen, progress)))


@guarded
def section_sweep_results() -> None:
    sweep = session_job("sweep_job")
    if sweep is not None and sweep.status == DONE and isinstance(board().result(sweep.job_id), SweepResult):
        swept = board().result(sweep.job_id)
        assert isinstance(swept, SweepResult)
        st.dataframe(sweep_table(swept), hide_index=True, placeholder="—")
        st.caption(plain(sweep.output or ""))
    elif sweep is not None and sweep.status == FAILED:
        st.error(plain(sweep.error or ""))


@guarded
def section_names(state: State, job: JobState | None) -> None:
    ss = st.session_state
    st.header("Name and tags")
    st.caption("Runs are shown by name everywhere; by default <model> · <profile> · <release>, numbered when repeated. "
               "Tags are free text, for your own grouping. Also from the command line: "
               "`python -m coreb_core runs rename RUN_ID NAME` and `python -m coreb_core runs tag RUN_ID TAG …`.")
    if "run_renamed" in ss:
        st.success(ss.pop("run_renamed"))
    named = runs_of(state.release)
    if not named:
        st.info(f"No runs on {release_words(state.release)} yet.")
        return
    ids = list(named)
    if ss.get("rename_run") not in named:  # default: the last run when it is on this release, else the newest
        last_id = job.run_id if job is not None else None
        ss["rename_run"] = last_id if last_id in named else ids[-1]
    chosen = st.selectbox(f"Run on {state.release} (the sidebar's release)", ids, key="rename_run",
                          format_func=lambda r: run_label(named[r]), help=run_tooltip(named[ss["rename_run"]]))
    meta = named[chosen]
    with st.form("rename_form", border=False):
        new_name = st.text_input("Name", meta.name or run_label(meta), max_chars=80, key=f"rename_name_{chosen}")
        new_tags = st.text_input("Tags (comma-separated)", ", ".join(meta.tags or ()), key=f"rename_tags_{chosen}")
        saved = st.form_submit_button("Save name and tags")
    if not saved:
        return
    try:
        meta = update_run(chosen, new_name, parse_tags(new_tags))
    except CorebError as exc:
        for line in error_lines(exc):
            st.error(plain(line))
        return
    # Rerun, so that the sidebar and this page list the run under its new name at once.
    tags = ", ".join(meta.tags or ()) or "none"
    ss["run_renamed"] = f"Saved: {plain(run_label(meta))} (tags: {plain(tags)})."
    st.rerun()


@guarded
def section_import_dataset() -> None:
    st.header("Import a dataset")
    st.caption("A local copy of CoREB: a hub copy (release_v26XX/<config>-…parquet), a folder of <config>.parquet, "
               "or the official runner's JSONL files. Everything is validated before anything is written; on any "
               "problem the cache stays exactly as it was.")
    ds_name = st.text_input("Release name in the cache", key="ds_release",
                            help="Letters, digits, '_', '-', '.'. Optional for a hub copy (its folder names the "
                                 "release).")
    ds_split = st.text_input("Hub release folder to read (a hub copy with several releases)", key="ds_split")
    ds = path_or_upload("ds", "Folder path", "Import folder", "The eight config files (parquet or JSONL)",
                        "Import uploaded files", path_tab="Folder on the server")
    if not (ds.path_clicked or ds.upload_clicked):
        return
    try:
        with st.spinner("Validating and importing…"):
            if ds.path_clicked:
                name, counts = import_dataset(check_input_path(ds.path), ds_name, ds_split)
            else:
                name, counts = import_uploaded_dataset([(f.name, f.getvalue()) for f in ds.files], ds_name, ds_split)
    except (CorebError, OSError) as exc:  # OSError: an unreadable file, a read-only cache
        for line in error_lines(exc):
            st.error(plain(line))
        return
    st.success(f"Imported release {plain(name)}: it is now in the Release list of the sidebar.")
    imported = pd.DataFrame(list(counts.items()), columns=["config", "rows"])
    st.dataframe(imported, hide_index=True, placeholder="—")
    csv_download(imported, f"imported-{name}")
    st.caption("Source: the imported files, rows per config as read.")


@guarded
def section_import_results(state: State) -> None:
    st.header("Import results")
    st.caption("MTEB results trees, official runner output (<task>.json, <task>_predictions.json), TREC run files "
               "or runs exported by this project. Ranked lists become runs re-scored here under every scheme; "
               "a bad file is skipped with its reason and the rest still imports.")
    c1, c2, c3 = st.columns(3)
    release = state.release if c1.toggle(f"Ranked lists belong to {state.release}", value=True, key="res_has_lists",
                                         help="The sidebar's release. Off: metrics files only (MTEB scores, "
                                              "runner JSON), no ranked lists to re-score.") else ""
    task = c2.selectbox("Task of a TREC file", [""] + list(TASKS), key="res_task",
                        format_func=lambda t: t or "(all tasks in the file)")
    model = c3.text_input("Model label (optional)", key="res_model")
    res = path_or_upload("res", "File or folder path", "Import path", "Result files", "Import uploaded results")
    if not (res.path_clicked or res.upload_clicked):
        return
    bar = st.progress(0.0, text="Importing: listing the files…")

    def said(message: str, fraction: float) -> None:
        bar.progress(fraction, text=f"Importing: {message}")

    try:
        if res.path_clicked:
            report = import_results(check_input_path(res.path), release or None, task or None, model.strip() or None,
                                    progress=said)
        else:
            report = import_uploaded_results([(f.name, f.getvalue()) for f in res.files], release, task,
                                             model.strip(), progress=said)
    except (CorebError, OSError) as exc:
        for line in error_lines(exc):
            st.error(plain(line))
        return
    finally:
        bar.empty()
    if report.imported:
        st.success(f"Imported {report.imported} file(s): {report.rows} number(s) stored, "
                   f"{len(report.runs)} run(s) created.")
    else:  # every file was skipped: no success message above the reasons (the CLI exits 2 here)
        st.error("Nothing was imported: no file held a number or a ranked list to store. The reasons follow.")
    if report.runs:
        names = [run_label(run_meta(r)) for r in report.runs]
        st.dataframe(pd.DataFrame({"name": names}), hide_index=True, placeholder="—")
        csv_download(pd.DataFrame({"name": names, "run_id": report.runs}), "imported-runs",
                     "Download the new runs' names and ids (CSV)")
    skipped = capped(report.skipped)  # a folder like /etc: 20 reasons and a count, not a thousand boxes
    for line in skipped.shown + ([skipped.more] if skipped.more else []):
        st.error(plain(line))


state = sidebar()
st.title("Run retrieval")
st.caption("Encode a release with a model (vectors are cached, so a re-run only encodes what changed), search "
           "exactly, store the run with its provenance and score it. The new run appears at once under Runs in the "
           "sidebar of every page, when the sidebar shows the release it was made on.")
job = section_job(section_configure(state))
section_results(state, job)
section_sweep(state)
section_sweep_results()
section_names(state, job)
st.divider()
section_import_dataset()
section_import_results(state)
