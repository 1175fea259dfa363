"""Retrieval runs in the background: a run started from the app goes on while its user moves between
pages, any page can show its progress and cancel it, and its end is seen by every session.

One ``JobBoard`` per server process and cache folder (``board()``); a job is one ``run_retrieval`` call
in its own thread. A job reports ``JobState`` snapshots (typed, no Streamlit); cancelling sets an event
that the job's progress callback turns into ``RunCancelled`` at the next report (every encoded batch,
every second of a model load), and ``write_run`` stores a run only when it is complete, so a cancelled
run leaves nothing behind. One job runs at a time: two encoders would share the same cores.

The first launch's default MiniLM run is a job like any other (``origin`` "default", submitted by
``coreb_core.defaults``): it waits for the first page before it loads anything, shows its progress in the
same place and can be cancelled the same way.

Example (CoREB-mini and a BM25 run in ``root``; a second BM25 run, seconds):
    >>> job = board(root).submit(RunRequest("bm25", "demo_v2603"), root=root)
    >>> board(root).wait(job).status, board(root).state(job).run_id
    ('done', 'bm25__demo_v2603__...')
"""
from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, NamedTuple

from coreb_core.data.schema import TASKS
from coreb_core.errors import CorebError
from coreb_core.paths import cache_root, runs_dir
from coreb_core.retrieval.profiles import DEFAULT_PROFILE, load_encoder
from coreb_core.runs.hits import DEFAULT_TOP_K

RUNNING, DONE, FAILED, CANCELLED = "running", "done", "failed", "cancelled"
USER, DEFAULT = "user", "default"  # who asked for a job: a user, or the first launch's default runs
ETA_WINDOW_S = 60.0  # the time left is extrapolated from the progress made over the last minute
ETA_MIN_SPAN_S = 3.0  # and only once the work has moved for this long (a model load does not count)
ETA_MIN_FRACTION = 0.002  # and by this much (a step's share is in proportion to its work: small is not noise)
# What is shown (``EtaSmoother``, issue 48): the pace (seconds per unit of work left) may change by at most x2 within
# ETA_WINDOW_S (steps finishing still shorten the time left as they come), easing toward the measured pace over
# ETA_EASE_S; a range while the last minute's pace and the whole run's disagree by more than ETA_RANGE_SPREAD.
ETA_MAX_CHANGE = 2.0
ETA_EASE_S = 20.0
ETA_RANGE_SPREAD = 1.25
ETA_EARLY_SPREAD = 1.5  # in the first minute of progress one pace is all there is: a range of /1.5 to x1.5 at least


class RunCancelled(Exception):
    """Raised inside a job's thread when its user cancelled it."""


class RunRequest(NamedTuple):
    """What to run: the arguments of ``run_retrieval``."""

    model: str
    release: str
    tasks: tuple[str, ...] = tuple(TASKS)
    device: str = "auto"
    batch_size: int = 64
    top_k: int = DEFAULT_TOP_K
    profile: str = DEFAULT_PROFILE


class WorkRequest(NamedTuple):
    """Work other than a retrieval run (mining hard negatives, training a reranker): its kind, the title the job
    board shows and the release it belongs to. ``submit_work`` runs it.

    >>> WorkRequest("train", "training a reranker from minilm", "release_v2602").title
    'training a reranker from minilm'
    """

    kind: str
    title: str
    release: str


class WorkOutcome(NamedTuple):
    """What a finished piece of work made: a stored run (listed under Runs), a file or folder it wrote, and any
    result its page reads back (``JobBoard.result``)."""

    run_id: str | None = None
    output: str | None = None
    result: object = None


class JobState(NamedTuple):
    """A snapshot of one job, for display: ``fraction`` in 0..1, seconds as floats, ``eta_s`` None while
    there is no honest estimate yet (a model still loading, or too little progress to extrapolate)."""

    job_id: str
    request: RunRequest | WorkRequest
    status: str  # RUNNING, DONE, FAILED or CANCELLED
    message: str
    fraction: float
    elapsed_s: float
    eta_s: float | None
    run_id: str | None  # set when DONE
    error: str | None  # one line, set when FAILED
    origin: str = USER  # USER or DEFAULT
    warnings: tuple[str, ...] = ()  # one line each, set when DONE (damaged embedding-cache shards re-encoded)
    output: str | None = None  # set when DONE: what a piece of work wrote (a reranker's folder)
    # While the estimate is uncertain (the last minute's pace and the whole run's disagree): the range of time left
    # (None: no range, ``eta_s`` alone is honest)
    eta_low_s: float | None = None
    eta_high_s: float | None = None

    @property
    def finished(self) -> bool:
        return self.status != RUNNING


def eta_from(samples: list[tuple[float, float]], now: float) -> float | None:
    """Seconds left at ``now``, from (time, fraction) samples: the pace over the minute before the last step
    (so a fast start, vectors from the cache, or a slow model load does not skew it for long), counted down
    between steps so it never stands still; once a step is later than that pace said, the pace as if it
    landed now (a slowing run is told so at once).

    >>> eta_from([(0.0, 0.0), (10.0, 0.1), (20.0, 0.2)], 20.0)   # 1% a second: 80 s left
    80.0
    >>> eta_from([(0.0, 0.0), (10.0, 0.1), (20.0, 0.2)], 30.0)   # ten seconds later, no new step: 70 s
    70.0
    >>> eta_from([(0.0, 0.0), (10.0, 0.1), (20.0, 0.2)], 120.0)  # overdue: 0.2 in 120 s, 0.8 left
    480.0
    >>> eta_from([(0.0, 0.5), (1.0, 0.5)], 1.0) is None           # no movement yet: no estimate
    True
    >>> eta_from([(0.0, 0.0), (10.0, 0.6), (100.0, 0.7), (160.0, 0.8)], 160.0)  # the last minute's pace
    120.0
    >>> eta_from([(0.0, 0.0), (1.0, 0.0), (40.0, 0.0), (50.0, 0.1)], 50.0)  # a 40 s model load is not counted
    90.0
    >>> eta_from([(0.0, 0.0), (30.0, 0.0), (100.0, 0.1), (200.0, 0.2)], 200.0)  # steps further apart than a minute
    800.0
    """
    if not samples:
        return None
    t_last, f_last = samples[-1]
    earlier = [i for i, (t, _) in enumerate(samples) if t <= t_last - ETA_WINDOW_S]
    # the window reaches at least one step back (steps further apart than the window still give a pace)
    i = min(earlier[-1] if earlier else 0, max(0, len(samples) - 2))
    while i + 1 < len(samples) and samples[i + 1][1] == samples[i][1]:  # from the end of a plateau (a model load)
        i += 1
    base_t, base_f = samples[i]
    span, moved = t_last - base_t, f_last - base_f
    if span < ETA_MIN_SPAN_S or moved < ETA_MIN_FRACTION:
        return None
    left = (1.0 - f_last) * span / moved - max(0.0, now - t_last)
    if left <= 0:  # later than the pace said: the pace as if the next step landed now
        left = (1.0 - f_last) * (now - base_t) / moved
    return round(max(0.0, left), 1)


def _paces(samples: list[tuple[float, float]], now: float) -> tuple[float, float] | None:
    """(the last minute's pace, the whole run's pace) in seconds per unit of work, as ``eta_from`` measures them
    (from the end of a plateau such as a model load; a step later than the pace said counts as landing now); None
    while there is too little progress to tell."""
    if not samples:
        return None
    t_last, f_last = samples[-1]

    def plateau_end(i: int) -> int:  # a model load, or vectors still coming: the pace starts after it
        while i + 1 < len(samples) and samples[i + 1][1] == samples[i][1]:
            i += 1
        return i

    earlier = [i for i, (t, _) in enumerate(samples) if t <= t_last - ETA_WINDOW_S]
    i = plateau_end(min(earlier[-1] if earlier else 0, max(0, len(samples) - 2)))
    start = plateau_end(0)
    out = []
    for t0, f0 in (samples[i], samples[start]):
        span, moved = t_last - t0, f_last - f0
        if span < ETA_MIN_SPAN_S or moved < ETA_MIN_FRACTION:
            return None
        pace = span / moved
        if (1.0 - f_last) * pace < now - t_last:  # overdue: as if the next step landed now
            pace = (now - t0) / moved
        out.append(pace)
    return out[0], out[1]


def _plateau_end_time(samples: list[tuple[float, float]]) -> float:
    """When the work first moved (the end of a model load): the time of the first plateau's last sample."""
    i = 0
    while i + 1 < len(samples) and samples[i + 1][1] == samples[i][1]:
        i += 1
    return samples[i][0]


class Eta(NamedTuple):
    """The time left shown: ``seconds``, and a range (``low``, ``high``) while it is uncertain (else None)."""

    seconds: float
    low: float | None = None
    high: float | None = None


class EtaSmoother:
    """The time left a job shows, from its (time, fraction) samples: the measured pace (``_paces``) eased in over
    ETA_EASE_S and never changed by more than ETA_MAX_CHANGE within ETA_WINDOW_S, so a burst of load (or the app's
    own pages computing) moves it gradually; work done still shortens it as each step lands. A range while the last
    minute's pace and the whole run's disagree. Thread-safe (every page of every session reads it).

    >>> eta = EtaSmoother()
    >>> eta.update([(0.0, 0.0), (10.0, 0.1), (20.0, 0.2)], 20.0)   # 1% a second: 80 s left; 20 s of pace: a range
    Eta(seconds=80.0, low=53.3, high=120.0)
    >>> eta.update([(0.0, 0.0), (10.0, 0.1), (20.0, 0.2), (30.0, 0.21)], 30.0).seconds  # 10x slower: eased in
    88.7
    """

    def __init__(self) -> None:
        self._pace: float | None = None
        self._at = 0.0
        self._lock = threading.Lock()
        # (time, shown seconds per unit of work left) over the last ETA_WINDOW_S: what is shown next must stay
        # within ETA_MAX_CHANGE of every one of them (the countdown between steps included)
        self._shown: list[tuple[float, float]] = []

    def update(self, samples: list[tuple[float, float]], now: float) -> Eta | None:
        with self._lock:
            paces = _paces(samples, now)
            if paces is None:
                return None
            recent, whole = paces
            if self._pace is None:
                self._pace = recent
            else:
                dt = max(0.0, now - self._at)
                eased = self._pace * (recent / self._pace) ** min(1.0, dt / ETA_EASE_S)
                limit = ETA_MAX_CHANGE ** (dt / ETA_WINDOW_S)
                self._pace = min(max(eased, self._pace / limit), self._pace * limit)
            self._at = max(self._at, now)
            t_last, f_last = samples[-1]
            work = 1.0 - f_last
            # counted down between steps, at most half-way (a late step is not "0 s left")
            since = max(0.0, now - t_last)

            def left(pace: float) -> float:
                return max(pace * work - min(since, 0.5 * pace * work), 0.0)

            shown = left(self._pace)
            self._shown = [(t, v) for t, v in self._shown if t >= now - ETA_WINDOW_S]
            if work > 0 and self._shown:
                lowest, highest = min(v for _, v in self._shown), max(v for _, v in self._shown)
                bound = 0.99 * ETA_MAX_CHANGE  # a margin for the rounding to 0.1 s (1 % of an estimate from 10 s)
                shown = min(max(shown / work, highest / bound), lowest * bound) * work
            if work > 0:
                self._shown.append((now, shown / work))
            shown = round(shown, 1)
            low, high = min(recent, whole, self._pace), max(recent, whole, self._pace)
            if t_last - _plateau_end_time(samples) < ETA_WINDOW_S:  # less than a minute of pace measured
                low, high = min(low, self._pace / ETA_EARLY_SPREAD), max(high, self._pace * ETA_EARLY_SPREAD)
            if high > ETA_RANGE_SPREAD * low:
                return Eta(shown, round(min(left(low), shown), 1), round(max(left(high), shown), 1))
            return Eta(shown)


@dataclass
class _Job:
    job_id: str
    request: RunRequest | WorkRequest
    started: float = field(default_factory=time.monotonic)
    message: str = "starting"
    fraction: float = 0.0
    samples: list[tuple[float, float]] = field(default_factory=list)
    status: str = RUNNING
    run_id: str | None = None
    error: str | None = None
    warnings: tuple[str, ...] = ()
    output: str | None = None
    result: object = None
    finished: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None
    origin: str = USER
    eta: EtaSmoother = field(default_factory=EtaSmoother)

    def report(self, message: str, fraction: float) -> None:
        """The job's ``Progress``: records the step, and stops the run here when it was cancelled."""
        if self.cancel.is_set():
            raise RunCancelled(self.job_id)
        t = time.monotonic() - self.started
        fraction = max(self.fraction, min(max(float(fraction), 0.0), 1.0))
        # a sample per step forward, and one a second while standing still (so a plateau's end is known)
        if not self.samples or fraction > self.samples[-1][1] or t - self.samples[-1][0] >= 1.0:
            self.samples.append((t, fraction))
            del self.samples[:-2000]
        self.message, self.fraction = message, fraction

    def state(self) -> JobState:
        elapsed = (self.finished or time.monotonic()) - self.started
        samples = list(self.samples)  # one snapshot: the fraction shown is the one the time left was computed for
        fraction = samples[-1][1] if samples and self.status == RUNNING else self.fraction
        eta = None if self.status != RUNNING else self.eta.update(samples, elapsed)
        return JobState(self.job_id, self.request, self.status, self.message, fraction, elapsed,
                        eta.seconds if eta else None, self.run_id, self.error, self.origin, self.warnings, self.output,
                        eta.low if eta else None, eta.high if eta else None)


Loader = Callable  # (spec, encoding, device) -> encoder


class JobBoard:
    """This process's retrieval jobs for one cache folder: submit, read, cancel, wait."""

    def __init__(self) -> None:
        self._jobs: dict[str, _Job] = {}
        self._lock = threading.Lock()
        self._encoders: dict[str, object] = {}

    def submit(self, request: RunRequest, root: Path | None = None, loader: Loader | None = None,
               origin: str = USER, after: threading.Event | None = None, after_timeout_s: float = 30.0) -> str:
        """Start ``request`` in a background thread; its job id. A one-line ``CorebError`` when a job is
        still running (one at a time: they would share the same cores). With ``after``, the thread waits for
        that event (at most ``after_timeout_s``) before it loads anything; it counts as running meanwhile."""
        root = root or cache_root()  # pinned now: the thread must not follow a later change of COREB_CACHE
        job = self._new_job(request, origin)
        if after is not None:
            job.message = "waiting for the first page to render"
        job.thread = threading.Thread(target=self._work, args=(job, root, loader or self._shared_loader,
                                                               after, after_timeout_s),
                                      name=f"coreb-run-{job.job_id}", daemon=True)
        job.thread.start()
        return job.job_id

    def submit_work(self, request: WorkRequest, work: Callable[[Callable[[str, float], None]], WorkOutcome]) -> str:
        """Start ``work(progress)`` in a background thread, as a job like a run: progress, time left, Cancel (a
        cancel raises ``RunCancelled`` from ``progress``: the work must leave nothing half-written). Its job id;
        a ``CorebError`` when a job is still running.

        >>> b = JobBoard()
        >>> job = b.submit_work(WorkRequest("demo", "counting", "demo_v2603"), lambda progress: WorkOutcome(output="42"))
        >>> b.wait(job).output, b.result(job)
        ('42', None)
        """
        job = self._new_job(request, USER)
        job.thread = threading.Thread(target=self._run_work, args=(job, work), name=f"coreb-work-{job.job_id}",
                                      daemon=True)
        job.thread.start()
        return job.job_id

    def _new_job(self, request: RunRequest | WorkRequest, origin: str) -> _Job:
        with self._lock:
            busy = [j for j in self._jobs.values() if j.status == RUNNING]
            if busy:
                r = busy[0].request
                what = r.title if isinstance(r, WorkRequest) else f"a run of {r.model} on {r.release}"
                raise CorebError(f"{what} is still in progress; wait for it or cancel it")
            job = _Job(uuid.uuid4().hex[:12], request, origin=origin)
            self._jobs[job.job_id] = job
            return job

    @staticmethod
    def _run_work(job: _Job, work: Callable[[Callable[[str, float], None]], WorkOutcome]) -> None:
        try:
            outcome = work(job.report)
        except RunCancelled:
            job.status, job.message = CANCELLED, "cancelled: nothing was written"
        except Exception as exc:  # noqa: BLE001 (a background thread has nobody to raise to: the app shows it)
            job.status, job.error = FAILED, " ".join(str(exc).split()) or type(exc).__name__
        else:
            job.run_id, job.output, job.result = outcome.run_id, outcome.output, outcome.result
            job.status, job.message, job.fraction = DONE, "done", 1.0
        finally:
            job.finished = time.monotonic()

    def result(self, job_id: str) -> object:
        """What a finished piece of work handed back for its page (None while it runs, or for a run)."""
        job = self._jobs.get(job_id)
        return job.result if job is not None and job.status == DONE else None

    def _shared_loader(self, spec, encoding, device):
        """Encoders load once per process and stay loaded (seconds to minutes to load); the last four."""
        if spec.kind == "api":  # built in no time; a fresh one reads the key as set now and counts its own retries
            return load_encoder(spec, encoding, device)
        key = repr((spec, encoding, device))
        if key not in self._encoders:
            if len(self._encoders) >= 4:
                self._encoders.pop(next(iter(self._encoders)))
            self._encoders[key] = load_encoder(spec, encoding, device)
        return self._encoders[key]

    def _work(self, job: _Job, root: Path | None, loader: Loader, after: threading.Event | None,
              after_timeout_s: float) -> None:
        from coreb_core.retrieval.pipeline import run_retrieval

        r = job.request
        assert isinstance(r, RunRequest)  # submit takes only runs (submit_work the rest)
        try:
            if after is not None:
                after.wait(after_timeout_s)
                job.started = time.monotonic()  # its time counts from its start, not from the wait
                job.report("starting", 0.0)  # a cancel during the wait stops it here
            result = run_retrieval(r.model, r.release, r.tasks, r.device, r.batch_size, r.top_k, progress=job.report,
                                   root=root, model_loader=loader, profile=r.profile)
        except RunCancelled:
            job.status, job.message = CANCELLED, "cancelled: nothing was stored"
        except Exception as exc:  # noqa: BLE001 (a background thread has nobody to raise to: the app shows it)
            job.status, job.error = FAILED, " ".join(str(exc).split()) or type(exc).__name__
        else:
            job.run_id, job.status, job.message, job.fraction = result.run_id, DONE, "done", 1.0
            job.warnings = result.warnings
        finally:
            job.finished = time.monotonic()

    def states(self) -> list[JobState]:
        """Every job of this process, oldest first."""
        return [j.state() for j in list(self._jobs.values())]

    def state(self, job_id: str) -> JobState:
        """One job's snapshot; a ``CorebError`` for an unknown id."""
        if job_id not in self._jobs:
            raise CorebError(f"no retrieval job {job_id!r} in this server")
        return self._jobs[job_id].state()

    def running(self) -> list[JobState]:
        return [s for s in self.states() if s.status == RUNNING]

    def cancel(self, job_id: str) -> None:
        """Ask a job to stop at its next progress report (a finished job is left as it is)."""
        if job_id in self._jobs:
            self._jobs[job_id].cancel.set()

    def wait(self, job_id: str, timeout: float | None = None) -> JobState:
        """Block until the job ends (or ``timeout`` seconds pass); its snapshot."""
        thread = self._jobs[job_id].thread
        if thread is not None:
            thread.join(timeout)
        return self.state(job_id)


def sweep_job(models: list[str], releases: list[str], profiles: list[str], root: Path,
              progress: Callable[[str, float], None]) -> WorkOutcome:
    """A sweep (``coreb_core.retrieval.sweep``) as the job board's work: one job, its progress the share of the runs
    made and the run under way; a cancel stops it after the run under way (which stores nothing) and ends the job
    cancelled. Its result is the ``SweepResult``, its output the summary line.

    Example (CoREB-mini and a BM25 run on demo_v2603 in ``root``):

    >>> outcome = sweep_job(["bm25"], ["demo_v2603", "demo_v2602"], ["official"], root, lambda m, f: None)
    >>> [row.status for row in outcome.result.rows], outcome.output
    (['skipped', 'stored'], '2 runs: 1 stored, 1 skipped, 0 failed in ... s')
    """
    from coreb_core.retrieval.sweep import FAILED as ITEM_FAILED
    from coreb_core.retrieval.sweep import SKIPPED, STORED, ProgressEvents, sweep

    stop = threading.Event()
    result = sweep(models, releases, profiles, root=root, events=ProgressEvents(progress, stop), stop=stop)
    if stop.is_set():
        raise RunCancelled("sweep")
    return WorkOutcome(output=f"{len(result.rows)} runs: {result.count(STORED)} stored, {result.count(SKIPPED)} "
                              f"skipped, {result.count(ITEM_FAILED)} failed in {result.seconds:.1f} s", result=result)


_BOARDS: dict[str, JobBoard] = {}
_BOARDS_LOCK = threading.Lock()


def board(root: Path | None = None) -> JobBoard:
    """This process's job board for the cache folder ``root`` (the configured cache by default).

    >>> board(Path("/nonexistent-cache")) is board(Path("/nonexistent-cache"))
    True
    """
    key = str(runs_dir(root).resolve())
    with _BOARDS_LOCK:
        return _BOARDS.setdefault(key, JobBoard())
