"""Background retrieval runs on every page: the sidebar shows each running job's progress with a Cancel
button, refreshed every second, and reruns the whole page once a job ends, so the finished run is
listed under Runs at once. The jobs themselves are ``coreb_core.retrieval.jobs`` (no Streamlit)."""
from __future__ import annotations

from typing import Callable

import pandas as pd
import streamlit as st

from coreb_core.errors import CorebError
from coreb_core.present.format import error_lines, plain, release_words
from coreb_core.present.numbers import duration_text
from coreb_core.retrieval.jobs import CANCELLED, DEFAULT, DONE, FAILED, JobState, RunRequest, WorkRequest, board
from coreb_core.retrieval.sweep import SweepResult

SEEN_KEY = "jobs_seen"  # job ids whose end this session has already acted on
MINE_KEY = "jobs_mine"  # job ids this session started (their finished run is chosen under Runs)
OUTCOME_KEY = "jobs_outcome"  # the last ended job this session should hear about


def job_title(request: RunRequest | WorkRequest) -> str:
    """``minilm · official on demo_v2603`` (BM25 has no profile); other work says what it is.

    >>> job_title(RunRequest("minilm", "demo_v2603", profile="card")), job_title(RunRequest("bm25", "demo_v2603"))
    ('minilm · card on demo_v2603', 'bm25 on demo_v2603')
    >>> job_title(WorkRequest("mine", "mining hard negatives from bm25 · demo_v2603", "demo_v2603"))
    'mining hard negatives from bm25 · demo_v2603'
    """
    if isinstance(request, WorkRequest):
        return request.title
    model = request.model if request.model.startswith("bm25") else f"{request.model} · {request.profile}"
    return f"{model} on {request.release}"


def sweep_title(models: list[str], releases: list[str], profiles: list[str]) -> str:
    """The job board's title of a sweep.

    >>> sweep_title(["bm25", "minilm"], ["demo_v2603"], ["official", "card"])
    'sweep of bm25, minilm on demo_v2603 (official, card)'
    """
    return f"sweep of {', '.join(models)} on {', '.join(releases)} ({', '.join(profiles)})"


def sweep_table(result: SweepResult) -> pd.DataFrame:
    """A finished sweep's summary, a row per run (as the command line's ``sweep`` prints it).

    >>> from coreb_core.retrieval.sweep import SweepItem, SweepRow
    >>> row = SweepRow(SweepItem("bm25", "v", None), "stored", 1.25, 5000.0, "r1", "cpu")
    >>> sweep_table(SweepResult([row], 1.3)).columns.tolist()
    ['model', 'profile', 'release', 'status', 'seconds', 'texts/s', 'run', 'error']
    """
    return pd.DataFrame([{"model": r.item.model, "profile": r.item.profile, "release": r.item.release,
                          "status": r.status, "seconds": round(r.seconds, 1), "texts/s": r.texts_per_s,
                          "run": r.run_id, "error": r.error} for r in result.rows],
                        columns=["model", "profile", "release", "status", "seconds", "texts/s", "run", "error"])


def range_text(low: float, high: float) -> str:
    """A range of time left, rounded outward to what it can claim: whole minutes from 90 s, else 10 s steps.

    >>> range_text(100.0, 400.0), range_text(20.0, 61.0), range_text(50.0, 200.0)
    ('1 to 7 min', '20 to 70 s', '50 s to 4 min')
    """
    import math

    def minutes(x: float, up: bool) -> int:
        return max(1, math.ceil(x / 60) if up else math.floor(x / 60))

    if high < 90:
        return f"{int(low // 10) * 10} to {math.ceil(high / 10) * 10} s"
    lo = f"{minutes(low, False)}" if low >= 90 else f"{int(low // 10) * 10} s"
    return f"{lo} to {minutes(high, True)} min"


def progress_line(state: JobState) -> str:
    """What a running job is doing, how long it has run and how long it has left.

    >>> s = JobState("j", RunRequest("minilm", "v"), "running", "t2c: documents 3/8", 0.3, 72.0, 130.0, None, None)
    >>> progress_line(s)
    't2c: documents 3/8 · 72 s elapsed · about 2 min 10 s left'
    >>> progress_line(s._replace(eta_s=None))
    't2c: documents 3/8 · 72 s elapsed · estimating time left'
    >>> progress_line(s._replace(eta_low_s=100.0, eta_high_s=400.0))   # uncertain: the range, in whole minutes
    't2c: documents 3/8 · 72 s elapsed · about 1 to 7 min left'
    """
    if state.eta_s is None:
        tail = "estimating time left"
    elif state.eta_low_s is not None and state.eta_high_s is not None:
        tail = f"about {range_text(state.eta_low_s, state.eta_high_s)} left"
    else:
        tail = f"about {duration_text(state.eta_s)} left"
    return f"{state.message} · {duration_text(state.elapsed_s)} elapsed · {tail}"


def outcome_text(state: JobState, name: str | None = None) -> str:
    """How a job ended, in one line (``name``: the stored run's name, when it is known).

    >>> s = JobState("j", RunRequest("bm25", "v"), "done", "done", 1.0, 3.2, None, "bm25__v__x", None)
    >>> outcome_text(s, "bm25 · v")
    'The run bm25 · v finished in 3 s; it is listed under Runs for release v.'
    >>> outcome_text(s._replace(status="cancelled"))
    'The run of bm25 on v was cancelled after 3 s; nothing was stored.'
    """
    what = job_title(state.request)
    if isinstance(state.request, WorkRequest):
        done = (f"Done in {duration_text(state.elapsed_s)}: {what}"
                + (f"; the run {name} is listed under Runs." if name else "."))
        return {DONE: done, CANCELLED: f"Cancelled after {duration_text(state.elapsed_s)}: {what}; nothing was "
                                       "written."}.get(state.status, f"Failed: {what}: {state.error}")
    if state.status == DONE:
        return (f"The run {name or what} finished in {duration_text(state.elapsed_s)}; it is listed under Runs for "
                f"{release_words(state.request.release)}.")
    if state.status == CANCELLED:
        return f"The run of {what} was cancelled after {duration_text(state.elapsed_s)}; nothing was stored."
    return f"The run of {what} failed: {state.error}"


def start_job(request: RunRequest) -> str:
    """Start a run in the background for this session (``CorebError`` when one is already running)."""
    job_id = board().submit(request)
    st.session_state.setdefault(MINE_KEY, set()).add(job_id)
    st.session_state.pop(OUTCOME_KEY, None)  # the last run's ending is old news once another starts
    return job_id


def note_ended_jobs() -> None:
    """Before the sidebar draws its runs: for each job that ended since this session last looked, remember
    its outcome, and choose its run under Runs when this session started it (or it is the first launch's
    default run, which every open session waited for). A new session takes the jobs that ended before it
    as seen."""
    ss = st.session_state
    ended = [s for s in board().states() if s.finished]
    if SEEN_KEY not in ss:
        ss[SEEN_KEY] = {s.job_id for s in ended}
        return
    for s in ended:
        if s.job_id in ss[SEEN_KEY]:
            continue
        ss[SEEN_KEY].add(s.job_id)
        if s.job_id in ss.get(MINE_KEY, set()) or s.origin == DEFAULT:
            ss[OUTCOME_KEY] = s
            if s.status == DONE and ss.get("release") == s.request.release and isinstance(ss.get("runs"), list) \
                    and s.run_id not in ss["runs"]:
                ss["runs"] = [*ss["runs"], s.run_id]


def show_jobs(names: dict[str, str]) -> None:
    """In the sidebar: the outcome of this session's last ended job, and every running job with its
    progress and a Cancel button (``names``: run id -> name, for the outcome line)."""
    ss = st.session_state
    outcome: JobState | None = ss.get(OUTCOME_KEY)
    if outcome is not None:
        text = plain(outcome_text(outcome, names.get(outcome.run_id or "")))
        (st.sidebar.success if outcome.status == DONE else st.sidebar.error if outcome.status == FAILED
         else st.sidebar.warning)(text)
        for warning in outcome.warnings:  # a damaged embedding-cache shard: dropped, its texts encoded again
            st.sidebar.warning(plain(warning))
    if board().running():
        with st.sidebar:
            _running_jobs()


@st.fragment(run_every=1.0)
def _running_jobs() -> None:
    """Every second while a job runs: its progress; once none runs, the whole page again (the new run is
    then listed under Runs, and the outcome said)."""
    running = board().running()
    if not running:
        st.rerun(scope="app")
    for s in running:
        st.caption(f"Running in the background: **{plain(job_title(s.request))}**")
        st.progress(s.fraction, text=plain(progress_line(s)))
        what = "run" if isinstance(s.request, RunRequest) else "job"
        st.button(f"Cancel this {what}", key=f"job_cancel_{s.job_id}", on_click=board().cancel, args=(s.job_id,),
                  help=f"Stops the {what} at its next step; nothing half-written is kept (a run or a trained "
                       "reranker is stored only when it is complete).")


def start_work(request: WorkRequest, work) -> str:
    """Start other work (mining, training) in the background for this session, as ``start_job`` starts a run."""
    job_id = board().submit_work(request, work)
    st.session_state.setdefault(MINE_KEY, set()).add(job_id)
    st.session_state.pop(OUTCOME_KEY, None)
    return job_id


def submit(key: str, start: Callable[[], str]) -> None:
    """Start a job (``start`` returns its id: ``start_job`` or ``start_work``) as this session's job under ``key``,
    its refusal shown here line by line; then draw the page again: the sidebar shows the job's progress and Cancel."""
    try:
        st.session_state[key] = start()
    except CorebError as exc:
        for line in error_lines(exc):
            st.error(plain(line))
    else:
        st.rerun()


def session_job(key: str) -> JobState | None:
    """This session's job under ``key`` (``submit``), while the job board still knows it."""
    job = st.session_state.get(key)
    return board().state(job) if job in {s.job_id for s in board().states()} else None


def job_result(key: str) -> object | None:
    """The result of this session's job under ``key`` once it is done; its error shown here when it failed."""
    s = session_job(key)
    if s is not None and s.status == FAILED:
        st.error(plain(s.error or "failed"))
    return board().result(s.job_id) if s is not None and s.status == DONE else None
