"""Run retrieval: re-run a model on a cached release, and import datasets and results. Widgets only;
the work is coreb_core.retrieval.pipeline, coreb_core.results.uploads, coreb_core.results.imported; texts come from
coreb_core.present.format."""
import altair as alt
import pandas as pd
import streamlit as st

from coreb_core.data.schema import TASKS
from coreb_core.data.store import list_releases
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import score_run
from coreb_core.input_paths import check_input_path
from coreb_core.paths import cache_root
from coreb_core.present.charts import hbar
from coreb_core.present.display import points_column
from coreb_core.present.format import (
    api_blocked,
    error_lines,
    model_table,
    ndcg_frame,
    plain,
    prompt_table,
    release_words,
)
from coreb_core.present.labels import TASK_LABELS
from coreb_core.present.numbers import duration_text
from coreb_core.results.imported import import_results
from coreb_core.results.uploads import import_dataset, import_uploaded_dataset, import_uploaded_results
from coreb_core.retrieval.device import cuda_status
from coreb_core.retrieval.jobs import DONE, FAILED, RunRequest, WorkRequest, board, sweep_job
from coreb_core.retrieval.pipeline import estimate_api_run
from coreb_core.retrieval.profiles import DEFAULT_PROFILE, PROFILES
from coreb_core.retrieval.sweep import SweepResult
from coreb_core.runs.cost import cost_words
from coreb_core.runs.folders import run_meta, update_run
from coreb_core.runs.hits import DEFAULT_TOP_K
from coreb_core.runs.meta import parse_tags
from coreb_core.text import capped
from ui.cache import runs_of
from ui.chart_specs import draw
from ui.jobs import job_title, start_job, start_work, sweep_table, sweep_title
from ui.sidebar import sidebar
from ui.widgets import csv_download, path_or_upload, run_label, run_tooltip

PROFILE_LABELS = {"official": "official (as the leaderboard was made)", "card": "card (the model's own prompts)"}
PROFILE_HELP = {
    "official": "Encodes as coreb_runner 0.1.0 made the published CoREB numbers: transformers AutoModel, no prompts, "
                "512 tokens, mean pooling (or the model's own sentence embedding), float32. Compare with the leaderboard.",
    "card": "Encodes as the model's card says: sentence-transformers with the model's own pooling, its published "
            "prompts verbatim per task and side, its length. Compare with the model's own reports. "
            "The registry table below says where each prompt was found.",
}

state = sidebar()
ss = st.session_state
st.title("Run retrieval")
st.caption("Encode a release with a model (vectors are cached, so a re-run only encodes what changed), search "
           "exactly, store the run with its provenance and score it. The new run appears at once under Runs in the "
           "sidebar of every page, when the sidebar shows the release it was made on.")


@st.cache_resource(show_spinner=False)
def _cuda() -> tuple[bool, str]:
    return cuda_status()


models = model_table()
LOCAL = "local folder…"
left, right = st.columns(2)
with left:
    choice = st.selectbox("Model", list(models["id"]) + [LOCAL], key="run_model",
                          format_func=lambda m: m if m == LOCAL or models.set_index("id").loc[m, "kind"] != "api"
                          else f"{m} (API)")
    blocked = None
    if choice == LOCAL:
        model = st.text_input("Local sentence-transformers folder (path on the server)", key="run_local_path").strip()
        if not model:
            blocked = "Give the path of a sentence-transformers folder (it holds modules.json or config.json)."
    else:
        model = choice
        row = models.set_index("id").loc[choice]
        if not row["re_runnable"]:
            blocked = f"{choice}: {row['why_not']}."
            st.info(blocked)
        elif row["kind"] == "api":
            blocked = api_blocked(choice)
            if blocked:
                st.info(blocked)
    profile = st.radio("Encoding profile", list(PROFILES), index=PROFILES.index(DEFAULT_PROFILE), horizontal=True,
                       key="run_profile", format_func=PROFILE_LABELS.get,
                       help="It is part of the run's label, its provenance and its cached vectors.")
    st.caption(PROFILE_HELP[profile])
    if choice != LOCAL and row["kind"] == "dense":
        with st.expander(f"Prompts that {choice} gets under the {profile} profile"):
            st.dataframe(prompt_table(choice, profile), hide_index=True, placeholder="—")
            st.caption("Source: coreb_core.retrieval.profiles (official: none, as coreb_runner) and the registry's card "
                       "prompts, each with where it was found; an empty prompt means none is published or applied.")
    with st.expander("The model registry"):
        st.dataframe(models, hide_index=True, placeholder="—")
        csv_download(models, "model-registry")
        st.caption("Source: coreb_core.retrieval.models registry (hub name, revision and prompts of each model).")
    release = state.release  # one release selector: the sidebar's
    st.markdown(f"Release: **{plain(release)}** (the sidebar's; change it there)")
    tasks = st.multiselect("Tasks", list(TASKS), default=list(TASKS), key="run_tasks", format_func=lambda t: TASK_LABELS[t])
    if choice != LOCAL and row["kind"] == "api" and tasks:
        if profile != DEFAULT_PROFILE:
            blocked = blocked or f"{choice} is an API model: it has the {DEFAULT_PROFILE} profile only."
        try:  # what the run will send and cost, before it starts (texts the embedding cache lacks)
            estimate = estimate_api_run(choice, release, tuple(t for t in TASKS if t in tasks))
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

clicked = st.button("Run", type="primary", disabled=blocked is not None, key="run_go",
                    help="The run goes on in the background while you use other pages; its progress and a Cancel "
                         "button are in the sidebar of every page.")
if clicked:
    try:
        ss["run_job"] = start_job(RunRequest(model, release, tuple(t for t in TASKS if t in tasks), device,
                                             int(batch_size), int(top_k), profile))
    except CorebError as exc:
        for line in error_lines(exc):
            st.error(plain(line))
    else:
        st.rerun()  # the sidebar now shows the job's progress

job = ss.get("run_job")
state_ = board().state(job) if job in {s.job_id for s in board().states()} else None
if state_ is not None and not state_.finished:
    st.info(f"Running {plain(job_title(state_.request))} in the background: its progress and a Cancel button are "
            "in the sidebar, on every page. You can leave this page; the run goes on.",
            icon=":material/hourglass_top:")
elif state_ is not None and state_.status == FAILED:
    for line in (state_.error or "").split("; "):
        st.error(plain(line))
elif state_ is not None and state_.status == DONE and state_.run_id is not None:
    st.header("Last run")
    last_meta = run_meta(state_.run_id)  # read again: it may have been renamed since
    last_release = state_.request.release
    st.subheader(plain(run_label(last_meta)), help=run_tooltip(last_meta), anchor=False)
    where = (f"It is now listed under Runs in the sidebar for {release_words(last_release)}."
             if state.release == last_release else
             f"It was made on {release_words(last_release)}; switch the sidebar's Release to {last_release} "
             "to find it under Runs.")
    st.caption(f"{duration_text(state_.elapsed_s)}, {last_meta.texts_encoded or 0} texts encoded (the rest came from "
               f"the vector cache); measured cost: {cost_words(last_meta.cost)}. " + where)
    scores = ndcg_frame(score_run(state_.run_id))
    shown = scores.assign(ndcg_at_10=points_column(scores["ndcg_at_10"]))  # x100, one decimal, as on every page
    draw(hbar, shown, "task", "ndcg_at_10", x_title="nDCG@10 ×100", y_sort=list(TASKS), value_format=".1f",
         tooltip=["task", alt.Tooltip("ndcg_at_10:Q", title="nDCG@10 ×100", format=".1f")])
    st.dataframe(shown, hide_index=True, placeholder="—",
                 column_config={"ndcg_at_10": st.column_config.NumberColumn("nDCG@10 ×100", format="%.1f")})
    csv_download(scores, f"ndcg-{state_.run_id}", label="Download nDCG@10 (CSV, fractions)")
    run_profile = state_.request.profile if isinstance(state_.request, RunRequest) else None
    st.caption(f"Source: this run on `{last_release}` · encoding profile `{run_profile}` "
               "(BM25 has none) · scheme `v2` (official) · C2C anchor excluded · mean over each task's evaluated "
               "queries.")

st.header("Sweep")
st.caption("Many runs as one job: one per model, release and profile (a lexical model has no profile: one run), one "
           "at a time per GPU of this server, else on the CPU. A run already stored with the same identity is skipped, "
           "one that fails is reported and made again by the next sweep; a cancel stops it after the run under way, "
           "which stores nothing. The command line's `python -m coreb_core sweep` does the same, also on a Ray "
           "cluster (docs/sweep.md).")
runnable = [m for m in models["id"] if models.set_index("id").loc[m, "re_runnable"]]
s1, s2, s3 = st.columns(3)
sweep_models = s1.multiselect("Models", runnable, default=[m for m in ("bm25",) if m in runnable], key="sweep_models")
cached = list_releases()
sweep_releases = s2.multiselect("Releases", cached, default=[r for r in (release,) if r in cached], key="sweep_releases")
sweep_profiles = s3.multiselect("Profiles (dense models)", list(PROFILES), default=[DEFAULT_PROFILE],
                                key="sweep_profiles", format_func=lambda p: PROFILE_LABELS[p])
if st.button("Start the sweep", disabled=not (sweep_models and sweep_releases and sweep_profiles), key="sweep_go",
             help="It goes on in the background; its progress (the run under way, the runs done) and a Cancel "
                  "button are in the sidebar of every page."):
    chosen_sweep = (list(sweep_models), list(sweep_releases), list(sweep_profiles), cache_root())
    try:
        ss["sweep_job"] = start_work(WorkRequest("sweep", sweep_title(*chosen_sweep[:3]), release),
                                     lambda progress: sweep_job(*chosen_sweep, progress))
    except CorebError as exc:
        for line in error_lines(exc):
            st.error(plain(line))
    else:
        st.rerun()
sweep_state = board().state(ss["sweep_job"]) if ss.get("sweep_job") in {s.job_id for s in board().states()} else None
if sweep_state is not None and sweep_state.status == DONE and isinstance(board().result(sweep_state.job_id),
                                                                        SweepResult):
    swept = board().result(sweep_state.job_id)
    assert isinstance(swept, SweepResult)
    st.dataframe(sweep_table(swept), hide_index=True, placeholder="—")
    st.caption(plain(sweep_state.output or ""))
elif sweep_state is not None and sweep_state.status == FAILED:
    st.error(plain(sweep_state.error or ""))

st.header("Name and tags")
st.caption("Runs are shown by name everywhere; by default <model> · <profile> · <release>, numbered when repeated. "
           "Tags are free text, for your own grouping. Also from the command line: "
           "`python -m coreb_core runs rename RUN_ID NAME` and `python -m coreb_core runs tag RUN_ID TAG …`.")
if "run_renamed" in ss:
    st.success(ss.pop("run_renamed"))
named = runs_of(state.release)
if not named:
    st.info(f"No runs on {release_words(state.release)} yet.")
else:
    ids = list(named)
    if ss.get("rename_run") not in named:  # default: the last run when it is on this release, else the newest
        last_id = state_.run_id if state_ is not None else None
        ss["rename_run"] = last_id if last_id in named else ids[-1]
    chosen = st.selectbox(f"Run on {state.release} (the sidebar's release)", ids, key="rename_run",
                          format_func=lambda r: run_label(named[r]), help=run_tooltip(named[ss["rename_run"]]))
    meta = named[chosen]
    with st.form("rename_form", border=False):
        new_name = st.text_input("Name", meta.name or run_label(meta), max_chars=80, key=f"rename_name_{chosen}")
        new_tags = st.text_input("Tags (comma-separated)", ", ".join(meta.tags or ()), key=f"rename_tags_{chosen}")
        saved = st.form_submit_button("Save name and tags")
    if saved:
        try:
            meta = update_run(chosen, new_name, parse_tags(new_tags))
        except CorebError as exc:
            for line in error_lines(exc):
                st.error(plain(line))
        else:
            # Rerun, so that the sidebar and this page list the run under its new name at once.
            tags = ", ".join(meta.tags or ()) or "none"
            ss["run_renamed"] = f"Saved: {plain(run_label(meta))} (tags: {plain(tags)})."
            st.rerun()

st.divider()
st.header("Import a dataset")
st.caption("A local copy of CoREB: a hub copy (release_v26XX/<config>-…parquet), a folder of <config>.parquet, "
           "or the official runner's JSONL files. Everything is validated before anything is written; on any "
           "problem the cache stays exactly as it was.")
ds_name = st.text_input("Release name in the cache", key="ds_release",
                        help="Letters, digits, '_', '-', '.'. Optional for a hub copy (its folder names the release).")
ds_split = st.text_input("Hub release folder to read (a hub copy with several releases)", key="ds_split")
ds = path_or_upload("ds", "Folder path", "Import folder", "The eight config files (parquet or JSONL)",
                    "Import uploaded files", path_tab="Folder on the server")
if ds.path_clicked or ds.upload_clicked:
    try:
        with st.spinner("Validating and importing…"):
            if ds.path_clicked:
                name, counts = import_dataset(check_input_path(ds.path), ds_name, ds_split)
            else:
                name, counts = import_uploaded_dataset([(f.name, f.getvalue()) for f in ds.files], ds_name, ds_split)
    except (CorebError, OSError) as exc:  # OSError: an unreadable file, a read-only cache
        for line in error_lines(exc):
            st.error(plain(line))
    else:
        st.success(f"Imported release {plain(name)}: it is now in the Release list of the sidebar.")
        imported = pd.DataFrame(list(counts.items()), columns=["config", "rows"])
        st.dataframe(imported, hide_index=True, placeholder="—")
        csv_download(imported, f"imported-{name}")
        st.caption("Source: the imported files, rows per config as read.")

st.header("Import results")
st.caption("MTEB results trees, official runner output (<task>.json, <task>_predictions.json), TREC run files "
           "or runs exported by this project. Ranked lists become runs re-scored here under every scheme; "
           "a bad file is skipped with its reason and the rest still imports.")
c1, c2, c3 = st.columns(3)
res_release = state.release if c1.toggle(f"Ranked lists belong to {state.release}", value=True, key="res_has_lists",
                                         help="The sidebar's release. Off: metrics files only (MTEB scores, "
                                              "runner JSON), no ranked lists to re-score.") else ""
res_task = c2.selectbox("Task of a TREC file", [""] + list(TASKS), key="res_task",
                        format_func=lambda t: t or "(all tasks in the file)")
res_model = c3.text_input("Model label (optional)", key="res_model")
res = path_or_upload("res", "File or folder path", "Import path", "Result files", "Import uploaded results")
if res.path_clicked or res.upload_clicked:
    bar = st.progress(0.0, text="Importing: listing the files…")

    def said(message: str, fraction: float) -> None:
        bar.progress(fraction, text=f"Importing: {message}")

    try:
        if res.path_clicked:
            report_ = import_results(check_input_path(res.path), res_release or None, res_task or None,
                                     res_model.strip() or None, progress=said)
        else:
            report_ = import_uploaded_results([(f.name, f.getvalue()) for f in res.files], res_release,
                                              res_task, res_model.strip(), progress=said)
    except (CorebError, OSError) as exc:
        bar.empty()
        for line in error_lines(exc):
            st.error(plain(line))
    else:
        bar.empty()
        if report_.imported:
            st.success(f"Imported {report_.imported} file(s): {report_.rows} number(s) stored, "
                       f"{len(report_.runs)} run(s) created.")
        else:  # every file was skipped: no success message above the reasons (the CLI exits 2 here)
            st.error("Nothing was imported: no file held a number or a ranked list to store. The reasons follow.")
        if report_.runs:
            names = [run_label(run_meta(r)) for r in report_.runs]
            st.dataframe(pd.DataFrame({"name": names}), hide_index=True, placeholder="—")
            csv_download(pd.DataFrame({"name": names, "run_id": report_.runs}), "imported-runs",
                         "Download the new runs' names and ids (CSV)")
        skipped = capped(report_.skipped)  # a folder like /etc: 20 reasons and a count, not a thousand boxes
        for line in skipped.shown + ([skipped.more] if skipped.more else []):
            st.error(plain(line))
