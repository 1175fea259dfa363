"""Training data: the reranker protocol's samples of the sidebar's release (counts, a sample viewer with why each hard
negative is a trap, downloads), hard negatives mined from a run, and a reranker trained on them, as jobs on the job
board. Widgets only; the work is coreb_core.views.training and coreb_core.training."""
import functools
import io
from typing import NamedTuple

import altair as alt
import pandas as pd
import streamlit as st

from coreb_core.data.schema import TASK_NAMES
from coreb_core.data.store import list_releases
from coreb_core.present.charts import hbar
from coreb_core.present.format import code, plain
from coreb_core.present.labels import TASK_LABELS
from coreb_core.progress import Progress
from coreb_core.retrieval.jobs import WorkOutcome, WorkRequest
from coreb_core.training.mining import GRADES, PASSING, SAMPLES, TRIPLETS, K, MinedNegatives, write_mined_to
from coreb_core.training.protocol import ProtocolResult, train_and_rerank
from coreb_core.training.reranker import TrainingConfig
from coreb_core.training.sample_files import write_samples_to
from coreb_core.training.samples import (
    EASY,
    HARD,
    PROTOCOL_TRAIN,
    RULE_TEXT,
    RULES,
    SEED,
    default_rule,
    test_release_of,
)
from coreb_core.views import training
from ui.cache import runs_of, samples_view
from ui.chart_specs import draw
from ui.jobs import job_result, start_work, submit
from ui.sidebar import sidebar
from ui.state import one_of, remembered, write_url
from ui.widgets import download, guarded, run_label

RULE_LABELS = {"train": "train: every subtask", "test": "test: every subtask but c2t_match"}
ROLE_ICONS = {"positive": "✅", "hard negative": "⚠️", "easy negative": "·"}
GRADE_LABELS = {"trap": "trap (rel=1)", "judged_negative": "judged negative (rel=0)", "unjudged": "unjudged",
                "passing_trap": "passing_trap (correct, rel=1)",
                "passing_judged_negative": "passing_judged_negative (correct, rel=0)",
                "passing_unjudged": "passing_unjudged (correct, unjudged)"}

state = sidebar()
release = state.release
st.title("Training data")
st.caption("From error analysis to training data: CoREB's reranker protocol (train on release v202602, test on "
           "v202603; the two share no problem) builds one sample per (query, positive) of every query with a trap: "
           "the positive, up to 3 hard negatives (the query's rel=1 traps) and 29 easy negatives (unjudged documents "
           "of other problems). Mine a run's own confusions the same way, and train a reranker on them.")


@guarded
def section_samples() -> training.SamplesView:
    st.header("The protocol's samples")
    left, right = st.columns([2, 3])
    with left:
        rule = st.radio("Rule", RULES, key=remembered("training_rule", "rule", one_of(RULES), default_rule(release)),
                        format_func=RULE_LABELS.get, horizontal=True,
                        help="The article does not state its rule; its counts fix it. " + training.RULE_NOTE)
        write_url({"rule": None if rule == default_rule(release) else rule})
        with st.expander("Negatives per sample"):
            hard = st.number_input("Hard negatives (at most)", 0, 50, HARD, key="training_hard")
            easy = st.number_input("Easy negatives", 0, 500, EASY, key="training_easy")
            seed = st.number_input("Seed", 0, 2**31 - 1, SEED, key="training_seed",
                                   help="Which negatives; the same seed gives the same file, byte for byte.")
    view = samples_view(release, rule, int(hard), int(easy), int(seed))
    with right:
        st.metric(f"Samples of {release}, {rule} rule", f"{view.counts.total:,}",
                  help=RULE_TEXT[rule])
        by_task = pd.DataFrame({"task": [TASK_LABELS[t] for t in TASK_NAMES],
                                "samples": [view.counts.by_task[t] for t in TASK_NAMES]})
        draw(hbar, by_task, "task", "samples", x_title="samples", y_sort=None, value_format=",d",
             tooltip=["task", alt.Tooltip("samples:Q", format=",")])
    st.caption(f"Rule: {RULE_TEXT[rule]}. " + training.RULE_NOTE)
    if view.short_hard_note():  # the article says three hard negatives; not every query has three traps
        st.caption(plain(view.short_hard_note() + "."))
    st.caption(plain(view.passing_note()[:1].upper() + view.passing_note()[1:] + "."))
    with st.expander("Counts per task and subtask"):
        st.dataframe(view.counts.table(), hide_index=True, width="stretch",
                     column_config={"samples": st.column_config.NumberColumn(format="%d")})
    name = f"coreb_samples_{release}_{rule}_h{hard}_e{easy}_s{seed}"
    with st.container(horizontal=True):  # buttons at their own widths, side by side
        download("Download JSONL", lambda: _samples_bytes(view, False), f"{name}.jsonl", "application/jsonl",
                 key="training_samples_jsonl", building="Writing the samples as JSON lines…")
        download("Download parquet", lambda: _samples_bytes(view, True), f"{name}.parquet",
                 "application/vnd.apache.parquet", key="training_samples_parquet",
                 building="Writing the samples as parquet…")
    return view


def _samples_bytes(view: training.SamplesView, parquet: bool) -> bytes:
    buffer = io.BytesIO()
    write_samples_to(buffer, view.samples, parquet)
    return buffer.getvalue()


@guarded
def section_viewer(view: training.SamplesView) -> None:
    st.header("A sample")
    if not view.samples:
        st.info("No sample under this rule.")
        return
    tasks = [t for t in TASK_NAMES if view.counts.by_task[t]]
    left, right = st.columns([1, 3])
    with left:
        task = st.radio("Task", tasks, key=remembered("training_task", "stask", one_of(tasks), tasks[0],
                                                        allowed=tasks), format_func=TASK_LABELS.get)
    of_task = [s for s in view.samples if s.short_task == task]
    with right:
        index = st.number_input(f"Sample (1 to {len(of_task):,} of {TASK_LABELS[task]})", 1, len(of_task), 1,
                                key=f"training_sample_{task}")
    sample = of_task[int(index) - 1]
    write_url({"stask": task})
    st.markdown(f"**{plain(sample.query_id)}** · {plain(sample.subtask)} · 1 positive, "
                f"{len(sample.hard_neg)} hard, {len(sample.easy_neg)} easy negatives")
    with st.expander("Query", expanded=True):
        st.code(sample.query, language=None, wrap_lines=True)
    rows = training.sample_detail(release, sample)
    for row in rows[: 1 + len(sample.hard_neg)]:
        title = f"{ROLE_ICONS[row.role]} {row.role}: {row.passage.id}" + (f" — {row.why}" if row.why else "")
        with st.expander(plain(title)):
            st.code(row.passage.text, language=None, wrap_lines=True)
    st.dataframe(training.detail_frame(rows), hide_index=True, width="stretch", key="training_sample_table",
                 column_order=["role", "doc_id", "why", "text"],
                 column_config={"why": st.column_config.TextColumn("why a trap", width="medium"),
                                "text": st.column_config.TextColumn("first line", width="large")})
    st.caption("Why a trap: the trap kinds of the Trap analysis page, from the release's judgments. Easy negatives are "
               "unjudged documents of other problems, never the C2C anchor, never a text already in the sample.")


class MineChoice(NamedTuple):
    """The run to mine, negatives per query, whether correct code is kept (labelled), and the run's label."""

    run: str
    k: int
    keep: bool
    label: str


@guarded
def section_mine_configure() -> MineChoice | None:
    st.header("Mine hard negatives from a run")
    runs = runs_of(release)
    choices = [r for r in state.run_ids if r in runs] or list(runs)
    if not choices:
        st.info("No run of this release yet: make one on Run retrieval.")
        return None
    left, right = st.columns([3, 1])
    with left:
        run = st.selectbox("Run", choices, key="training_mine_run", format_func=lambda r: run_label(runs[r]))
    with right:
        k = st.number_input("Negatives per query (k)", 1, 100, K, key="training_mine_k")
    keep = st.checkbox("Keep correct code, labelled", key="training_mine_keep",
                       help="Keep the documents the executed view makes relevant (passing code of the query's own "
                            "problem in a positive's language, unjudged or graded a trap by the release), labelled "
                            "passing_trap, passing_judged_negative or passing_unjudged, for analysis. Left out by "
                            "default: they are correct answers. Only the samples format can hold the label.")
    return MineChoice(run, int(k), keep, run_label(runs[run]))


@guarded
def section_mine_job(choice: MineChoice | None) -> None:
    if choice is None:
        return
    go = st.button("Mine", type="primary", key="training_mine_go",
                   help="Its top k documents that are not positives (a rel=2 document never is one; the C2C anchor "
                        "neither; passing code of the query's own problem in a positive's language is left out), each "
                        "marked trap, judged negative or unjudged. Runs as a job.")
    if go:
        request = WorkRequest("mine", f"mining {choice.k} hard negatives per query from {choice.label}", release)
        work = functools.partial(_mine, choice.run, choice.k, choice.keep, test_release_of(release))
        submit("training_mine_job", lambda: start_work(request, work))


@guarded
def section_mined() -> None:
    test_release = test_release_of(release)  # CoREB's release_v2603, or CoREB-mini's demo_v2603
    mined = job_result("training_mine_job")
    if not isinstance(mined, training.MinedView) or mined.mined.release != release:
        if release == test_release:
            st.info(plain(f"{release} is the test release: negatives mined from its runs are for analysis, not "
                          "training; train-reranker refuses them."))
        return
    m, grades = mined.mined, mined.mined.grade_counts()
    if mined.of_test_release:
        st.warning(plain(mined.test_release_note() + "."))
    st.markdown(plain(" ".join(line for line in mined.lines() if line != mined.test_release_note())))
    shown = [g for g in GRADES if m.keep_correct or not g.startswith(PASSING)]
    chart = pd.DataFrame({"grade": [GRADE_LABELS[g] for g in shown], "negatives": [grades[g] for g in shown]})
    left, right = st.columns([3, 2])
    with left:
        draw(hbar, chart, "grade", "negatives", x_title="distinct (query, negative) pairs", y_sort=None,
             value_format=",d", tooltip=["grade", alt.Tooltip("negatives:Q", format=",")])
    with right:
        counted = m.correct_kept() if m.keep_correct else m.left_out()
        column = "correct code kept" if m.keep_correct else "correct code left out"
        st.dataframe(pd.DataFrame({"task": [TASK_LABELS[t] for t in TASK_NAMES],
                                   column: [counted[t] for t in TASK_NAMES]}),
                     hide_index=True, width="stretch", key="training_mined_correct",
                     column_config={column: st.column_config.NumberColumn(format="%d")})
    name = f"coreb_mined_{m.run_id}_k{m.k}" + ("_keep_correct" if m.keep_correct else "")
    formats = [(SAMPLES, False), (SAMPLES, True)] if m.keep_correct else [(TRIPLETS, False), (TRIPLETS, True),
                                                                         (SAMPLES, False)]
    with st.container(horizontal=True):
        for fmt, parquet in formats:
            ext = "parquet" if parquet else "jsonl"
            download(f"{fmt} ({ext})", functools.partial(_mined_bytes, m, fmt, parquet), f"{name}_{fmt}.{ext}",
                     "application/vnd.apache.parquet" if parquet else "application/jsonl",
                     key=f"training_mined_{fmt}_{ext}", building="Writing the mined negatives…")
    st.caption("Triplets: anchor, positive, negative_1 … negative_k, the table sentence-transformers trains on "
               "(util.mine_hard_negatives' n-tuple; samples with fewer than k negatives are left out). Samples: the "
               "protocol's schema, each negative with its rank in the run and its grade. Correct code left out: "
               "documents the executed view makes relevant (passing code of the query's own problem in a positive's "
               "language) ranked above a kept negative: each would have been a false negative."
               + (" Kept here, labelled passing_…: no triplets, which have no place for a label." if m.keep_correct
                  else ""))


def _mine(run: str, k: int, keep: bool, test_release: str, progress: Progress) -> WorkOutcome:
    return WorkOutcome(result=training.mined(run, k, progress=progress, keep_correct=keep, test_release=test_release))


def _mined_bytes(m: MinedNegatives, fmt: str, parquet: bool) -> bytes:
    buffer = io.BytesIO()
    write_mined_to(buffer, m, fmt, parquet)
    return buffer.getvalue()


class TrainChoice(NamedTuple):
    """A training on another release and the run of this release its reranker reranks."""

    train_release: str
    first_stage: str
    first_label: str
    base: str
    depth: int
    config: TrainingConfig


@guarded
def section_train_configure() -> TrainChoice | None:
    st.header("Train a reranker, the protocol's way")
    st.caption("A cross-encoder from the chosen weights (minilm: the bundled all-MiniLM-L6-v2 with a fresh head), "
               "trained with sentence-transformers' CrossEncoderTrainer (LambdaLoss over each sample's list) on the "
               "training release's samples, then reranking the top documents of a run of this release. Training "
               "refuses samples not tied to one other cached release, or sharing a problem with this one (the leak "
               "guard fails closed). On two CPU cores a step of 8 samples takes "
               "about 8 s and reranking about 50 pairs a second; the job runs in the background with a Cancel button.")
    runs = runs_of(release)
    others = [r for r in list_releases() if r != release]
    if not others or not runs:
        st.info("Training needs another cached release to train on (the protocol: release_v2602 for release_v2603) "
                "and a run of this release to rerank.")
        return None
    c1, c2, c3 = st.columns(3)
    with c1:
        train_release = st.selectbox("Train on", others, index=others.index(PROTOCOL_TRAIN)
                                     if PROTOCOL_TRAIN in others else 0, key="training_train_release")
        base = st.text_input("Base weights", "minilm", key="training_base",
                             help="minilm, a local transformers folder on the server, or a cached hub name")
    with c2:
        first = st.selectbox("First stage to rerank", list(runs), key="training_first_stage",
                             format_func=lambda r: run_label(runs[r]),
                             index=next((i for i, r in enumerate(runs) if runs[r].kind == "retrieval"), 0))
        depth = st.number_input("Rerank depth", 1, 1000, 10, key="training_depth",
                                help="Its first stage must store at least this many per query (top-k).")
    with c3:
        steps = st.number_input("Training steps", 1, 100_000, 32, key="training_steps")
        batch = st.number_input("Samples per step", 1, 256, 8, key="training_batch")
    with st.expander("More training settings"):
        m1, m2 = st.columns(2)
        max_length = m1.number_input("Tokens per (query, document) pair", 16, 8192, 256, key="training_max_length")
        held_out = m2.number_input("Held-out samples (the loss before and after)", 1, 10_000, 64,
                                   key="training_held_out", help="Whole queries, never trained on.")
    config = TrainingConfig(max_steps=int(steps), batch_size=int(batch), max_length=int(max_length),
                            eval_samples=int(held_out))
    return TrainChoice(train_release, first, run_label(runs[first]), base, int(depth), config)


@guarded
def section_train_job(choice: TrainChoice | None) -> None:
    if choice is not None and st.button("Train and rerank", type="primary", key="training_go"):
        title = (f"training a reranker from {choice.base} on {choice.train_release}, then reranking "
                 f"{choice.first_label}")
        work = functools.partial(_protocol, choice.train_release, choice.first_stage, choice.base, choice.config,
                                 choice.depth)
        submit("training_job", lambda: start_work(WorkRequest("train", title, release), work))


@guarded
def section_trained() -> None:
    result = job_result("training_job")
    if not isinstance(result, ProtocolResult):
        return
    t = result.training
    st.success(plain(f"Trained {t.out.name} on {t.trained:,} samples of {t.release} ({t.steps} steps, "
                     f"{t.seconds:.0f} s): held-out loss {t.loss_before:.4f} before, {t.loss_after:.4f} after. "
                     f"The reranked run is listed under Runs; Compare runs → Reranker stage and the Overview's "
                     "reranker table show it beside the article's rerankers."))
    st.caption("Source: " + code(str(t.out)) + " (its coreb_reranker.json records the samples, settings and losses).")


def _protocol(train_release: str, first: str, base: str, config: TrainingConfig, depth: int,
              progress: Progress) -> WorkOutcome:
    result = train_and_rerank(train_release, first, base, config, depth, progress=progress)
    return WorkOutcome(run_id=result.reranked_run, output=str(result.reranker), result=result)


view = section_samples()
if view is not None:
    section_viewer(view)
section_mine_job(section_mine_configure())
section_mined()
section_train_job(section_train_configure())
section_trained()
