"""A sweep: one retrieval run per (model, release, profile), resumable and spread over the machine's devices.

Each item of the matrix is a ``SweepItem``. Before any work, every model, release and device is checked (a
one-line CorebError for the first bad one). An item whose run is already stored with the same identity
(``RunIdentity``: model, release, profile, the release's corpus fingerprint, tasks, top-k, and for a dense model
its encoder and prompts) is skipped; the others are made by ``run_item``, one at a time per device (a worker
thread per device pulling from one queue). A failing item is recorded with its one-line error and never stops
the others; it leaves no run (``write_run`` stores a run only once complete), so the next call retries it.
``coreb_core.retrieval.sweep_ray`` hands the same ``run_item`` to Ray tasks instead of threads.

Example (CoREB-mini and a BM25 run on demo_v2603 in ``root``):
    >>> result = sweep(["bm25"], ["demo_v2603", "demo_v2602"], root=root)
    >>> [(row.item.release, row.status) for row in result.rows]
    [('demo_v2603', 'skipped'), ('demo_v2602', 'stored')]
    >>> [row.status for row in sweep(["bm25"], ["demo_v2603", "demo_v2602"], root=root).rows]
    ['skipped', 'skipped']
"""
from __future__ import annotations

import json
import queue
import threading
import time
from pathlib import Path
from typing import Callable, Iterable, NamedTuple, Sequence

from coreb_core.atomic import remove_stale_cache_temps
from coreb_core.data.schema import TASKS
from coreb_core.data.store import Store, check_cached
from coreb_core.errors import CorebError
from coreb_core.paths import cache_root
from coreb_core.progress import Progress, silent
from coreb_core.retrieval.device import accelerator_possible, check_device
from coreb_core.retrieval.models import resolve
from coreb_core.retrieval.pipeline import corpus_fingerprint, run_retrieval
from coreb_core.retrieval.profiles import (
    DEFAULT_PROFILE,
    check_profile,
    encoder_identity,
    encoding_for,
    run_encoder_identity,
)
from coreb_core.runs.folders import list_runs, run_meta
from coreb_core.runs.hits import DEFAULT_TOP_K
from coreb_core.runs.meta import RunMeta

STORED, SKIPPED, FAILED = "stored", "skipped", "failed"  # what a sweep did with one item


class SweepItem(NamedTuple):
    """One run of a sweep: a model (its registry id), a release, an encoding profile (None: a lexical model,
    which has no encoder and so one run whatever the profiles asked).

    >>> SweepItem("minilm", "demo_v2603", "card").title, SweepItem("bm25", "demo_v2603", None).title
    ('minilm · card on demo_v2603', 'bm25 on demo_v2603')
    """

    model: str
    release: str
    profile: str | None

    @property
    def title(self) -> str:
        """How progress lines and the summary name the item (as the job board names a run)."""
        return f"{self.model}{f' · {self.profile}' if self.profile else ''} on {self.release}"


class SweepRow(NamedTuple):
    """What became of one item: ``status`` STORED (made now), SKIPPED (a run with its identity was stored) or
    FAILED (``error``: one line; nothing stored). ``seconds``: the run's wall time here (0 when skipped);
    ``texts_per_s``: the stored run's measured speed (None: not measured, e.g. every vector came from the cache)."""

    item: SweepItem
    status: str
    seconds: float
    texts_per_s: float | None
    run_id: str | None
    device: str | None
    error: str | None = None

    def to_json(self) -> dict:
        """A JSON-ready row (the CLI's ``--json``).

        >>> SweepRow(SweepItem("bm25", "v", None), "skipped", 0.0, 123.4, "r1", None).to_json()["status"]
        'skipped'
        """
        return {"model": self.item.model, "release": self.item.release, "profile": self.item.profile,
                "status": self.status, "seconds": round(self.seconds, 3), "texts_per_s": self.texts_per_s,
                "run_id": self.run_id, "device": self.device, "error": self.error}


class SweepResult(NamedTuple):
    """Every item's row, in the order of the matrix (models, then releases, then profiles), and the sweep's
    wall time."""

    rows: list[SweepRow]
    seconds: float

    def count(self, status: str) -> int:
        """How many items ended with ``status``.

        >>> SweepResult([SweepRow(SweepItem("bm25", "v", None), "failed", 1.0, None, None, "cpu", "boom")], 1.0).count("failed")
        1
        """
        return sum(row.status == status for row in self.rows)


class RunIdentity(NamedTuple):
    """What makes two retrieval runs the same run: a stored run with an item's identity is not made again.
    A dense model's vectors depend on its encoder (model, revision, profile, backend, length, precision) and
    prompts; a lexical model's on nothing but the texts."""

    model: str
    release: str
    profile: str | None
    corpus_fingerprint: str
    tasks: tuple[str, ...]
    top_k: int
    encoder: str | None
    prompts: str | None


def _prompts_key(prompts: dict) -> str:
    """The query and document prompts per task, as one string (their ``source`` notes left out: words only)."""
    return json.dumps({task: [p.get("query", ""), p.get("document", "")] for task, p in sorted(prompts.items())})


def run_identity(meta: RunMeta) -> RunIdentity | None:
    """A stored run's identity; None for a run no sweep would make (reranked, imported, or lacking provenance).

    >>> meta = RunMeta("r1", kind="retrieval", model="bm25", release="v", corpus_fingerprint="abc",
    ...                tasks=("t2c", "c2c"), top_k=100)
    >>> run_identity(meta)
    RunIdentity(model='bm25', release='v', profile=None, corpus_fingerprint='abc', tasks=('c2c', 't2c'), top_k=100, encoder=None, prompts=None)
    >>> run_identity(RunMeta("r2", kind="rerank", model="bm25+rerank")) is None
    True
    """
    if meta.kind != "retrieval" or not (meta.model and meta.release and meta.corpus_fingerprint and meta.tasks
                                        and meta.top_k):
        return None
    encoder = run_encoder_identity(meta.model_spec, meta.encoding)
    prompts = _prompts_key(meta.prompts or {}) if encoder else None
    return RunIdentity(meta.model, meta.release, meta.profile, meta.corpus_fingerprint, tuple(sorted(meta.tasks)),
                       meta.top_k, encoder, prompts)


def item_identity(item: SweepItem, fingerprint: str, device: str) -> RunIdentity:
    """The identity the run of ``item`` on ``device`` will have (the device sets a dense model's precision).

    >>> item_identity(SweepItem("bm25", "v", None), "abc", "cpu").encoder is None
    True
    >>> item_identity(SweepItem("minilm", "v", "official"), "abc", "cpu").encoder
    '99a0389adacecf3a9531'
    """
    tasks = tuple(sorted(TASKS))
    if item.profile is None:
        return RunIdentity(item.model, item.release, None, fingerprint, tasks, DEFAULT_TOP_K, None, None)
    spec = resolve(item.model)
    if spec.kind == "api":  # as ``run_identity`` reads an API run: its vectors depend on the model alone
        return RunIdentity(item.model, item.release, item.profile, fingerprint, tasks, DEFAULT_TOP_K, None, None)
    encoding = encoding_for(spec, item.profile, device)
    prompts = _prompts_key({t: encoding.prompt(t)._asdict() for t in TASKS})
    return RunIdentity(item.model, item.release, item.profile, fingerprint, tasks, DEFAULT_TOP_K,
                       encoder_identity(spec, encoding), prompts)


API_PROFILE = "official"


def plan_items(models: Iterable[str], releases: Iterable[str], profiles: Iterable[str] = (DEFAULT_PROFILE,)
               ) -> list[SweepItem]:
    """The sweep's matrix, models first: each model resolved (an alias and its id are one model), a lexical model
    once per release whatever the profiles, an API model once per release under the official profile, each item once.
    A one-line CorebError for an unknown model, an API model without the official profile among the profiles, an
    unknown profile, or an empty list.

    >>> plan_items(["bm25", "minilm"], ["v1"], ["official", "card"])
    [SweepItem(model='bm25', release='v1', profile=None), SweepItem(model='minilm', release='v1', profile='official'), SweepItem(model='minilm', release='v1', profile='card')]
    >>> plan_items(["nomodel"], ["v1"])   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    coreb_core.errors.CorebError: unknown model 'nomodel': use one of ...
    """
    models, releases, profiles = list(models), list(releases), list(profiles)
    for what, given in (("model", models), ("release", releases), ("profile", profiles)):
        if not given:
            raise CorebError(f"give at least one {what}")
    profiles = [check_profile(p) for p in dict.fromkeys(profiles)]
    items: list[SweepItem] = []
    for name in models:
        spec = resolve(name)
        # An API model encodes one way (the official profile: no prompt, the provider's task types).
        own = profiles if spec.kind == "dense" else [API_PROFILE] if spec.kind == "api" else [None]
        if spec.kind == "api" and API_PROFILE not in profiles:
            raise CorebError(f"{spec.id} is an API model: it runs under the {API_PROFILE} profile only")
        for release in dict.fromkeys(releases):
            for profile in own:
                item = SweepItem(spec.id, release, profile)
                if item not in items:
                    items.append(item)
    return items


def cuda_count() -> int:
    """CUDA devices torch sees (0 without an NVIDIA driver: torch is then not imported).

    >>> cuda_count() >= 0
    True
    """
    if not accelerator_possible():
        return 0
    try:
        import torch
    except ImportError:
        return 0
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def default_devices() -> tuple[str, ...]:
    """Every GPU of this machine (``cuda:0`` … ``cuda:N-1``), else the CPU.

    >>> default_devices() in (("cpu",),) or default_devices()[0] == "cuda:0"
    True
    """
    return tuple(f"cuda:{n}" for n in range(cuda_count())) or ("cpu",)


def check_devices(devices: Sequence[str] | None) -> tuple[str, ...]:
    """The devices to spread runs over: each named once and present on this machine (``cuda:N`` needs N GPUs or
    more, ``mps`` a Mac); ``auto`` stands for what ``default_devices`` finds. None or empty: ``default_devices``.
    A one-line CorebError before any work otherwise (torch would fail only once a model loads).

    >>> check_devices(["cpu"])
    ('cpu',)
    >>> check_devices(["cpu", "cpu"])
    Traceback (most recent call last):
    coreb_core.errors.CorebError: device 'cpu' is given twice
    """
    if not devices:
        return default_devices()
    checked: list[str] = []
    for device in devices:
        check_device(device)
        if device in checked:
            raise CorebError(f"device {device!r} is given twice")
        checked.append(device)
    out: list[str] = []
    for device in checked:
        if device == "auto":
            out += [d for d in default_devices() if d not in out]
        elif device.startswith("cuda"):
            n = cuda_count()
            index = int(device.split(":")[1]) if ":" in device else 0
            if index >= n:
                seen = f"this machine has {n} CUDA device(s)" if n else "torch sees no CUDA device on this machine"
                raise CorebError(f"device {device!r} does not exist: {seen}")
            out.append(device)
        elif device == "mps":
            import platform

            if platform.system() != "Darwin":
                raise CorebError("device 'mps' does not exist: it is Apple silicon's GPU, and this is not a Mac")
            out.append(device)
        else:
            out.append(device)
    return tuple(dict.fromkeys(out))


def check_releases(releases: Iterable[str], root: Path | None = None) -> dict[str, str]:
    """Release -> its corpus fingerprint, for each release (a one-line CorebError for one not cached).

    >>> check_releases(["demo_v2603"], root)
    {'demo_v2603': '879c0891d40d7aaf'}
    """
    out: dict[str, str] = {}
    for release in dict.fromkeys(releases):
        check_cached(release, root)
        with Store(release, root) as store:
            out[release] = corpus_fingerprint(store)
    return out


def stored_identities(releases: Iterable[str], root: Path | None = None) -> dict[RunIdentity, str]:
    """Identity -> run id of every complete stored run of ``releases`` (the newest when several share one)."""
    found: dict[RunIdentity, tuple[str, str]] = {}
    for release in releases:
        for meta in list_runs(release, root):
            identity = run_identity(meta)
            if identity is not None and (identity not in found or (meta.created or "") >= found[identity][1]):
                found[identity] = (meta.run_id, meta.created or "")
    return {identity: run_id for identity, (run_id, _) in found.items()}


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def run_item(item: SweepItem, device: str, root: Path, progress: Progress = silent) -> SweepRow:
    """Make the run of ``item`` on ``device`` into the cache folder ``root``: the one run function of both the
    local sweep and its Ray tasks. Any error becomes a FAILED row (nothing was stored: ``write_run`` is atomic).

    >>> run_item(SweepItem("bm25", "demo_v2603", None), "cpu", root).status
    'stored'
    >>> run_item(SweepItem("bm25", "no_such_release", None), "cpu", root).error   # doctest: +ELLIPSIS
    "release 'no_such_release' is not in the cache ..."
    """
    start = time.perf_counter()
    used = device if item.profile else "cpu"  # a lexical model computes on the CPU whichever lane runs it
    try:
        result = run_retrieval(item.model, item.release, device=device, progress=progress, root=root,
                               profile=item.profile or DEFAULT_PROFILE)
        cost = run_meta(result.run_id, root).cost
    except Exception as exc:  # noqa: BLE001 (one item's failure is its row, never the sweep's end)
        return SweepRow(item, FAILED, time.perf_counter() - start, None, None, used, _one_line(exc))
    speed = cost.texts_per_s if cost is not None else None
    return SweepRow(item, STORED, time.perf_counter() - start, round(speed, 1) if speed else None, result.run_id,
                    used)


class SweepEvents:
    """What a sweep reports as it goes; every method does nothing here (subclass what you show). The sweep calls
    them one at a time (under a lock), from its worker threads."""

    def planned(self, skipped: list[SweepRow], pending: list[SweepItem]) -> None:
        """Before any run: the items found stored already, and those to make."""

    def started(self, item: SweepItem, device: str) -> None:
        """An item's run begins on ``device``."""

    def step(self, item: SweepItem, message: str, fraction: float) -> None:
        """An item's run reports progress (``fraction`` of that run, 0..1)."""

    def ended(self, row: SweepRow) -> None:
        """An item's run ended: stored or failed."""


class _Serialised(SweepEvents):
    """``events`` called one at a time: worker threads report concurrently."""

    def __init__(self, events: SweepEvents) -> None:
        self.events, self.lock = events, threading.Lock()

    def planned(self, skipped: list[SweepRow], pending: list[SweepItem]) -> None:
        with self.lock:
            self.events.planned(skipped, pending)

    def started(self, item: SweepItem, device: str) -> None:
        with self.lock:
            self.events.started(item, device)

    def step(self, item: SweepItem, message: str, fraction: float) -> None:
        with self.lock:
            self.events.step(item, message, fraction)

    def ended(self, row: SweepRow) -> None:
        with self.lock:
            self.events.ended(row)


# Makes the pending runs: (index in the matrix, item) pairs, the cache folder and the events -> rows by index. The
# local one is ``local_executor``'s; ``sweep_ray.ray_executor`` is Ray's.
Executor = Callable[[list[tuple[int, SweepItem]], Path, SweepEvents], dict[int, SweepRow]]


def _item_progress(events: SweepEvents, item: SweepItem) -> Progress:
    """One run's ``Progress``, reported as that item's step."""
    return lambda message, fraction: events.step(item, message, fraction)


def local_executor(devices: Sequence[str], stop: threading.Event | None = None) -> Executor:
    """Runs on this machine: a worker thread per device, each making one run at a time from one queue (the CPU:
    one worker). With ``stop`` set, no worker starts another run (a run under way ends first)."""

    def execute(pending: list[tuple[int, SweepItem]], root: Path, events: SweepEvents) -> dict[int, SweepRow]:
        todo: queue.SimpleQueue[tuple[int, SweepItem]] = queue.SimpleQueue()
        for entry in pending:
            todo.put(entry)
        rows: dict[int, SweepRow] = {}

        def worker(device: str) -> None:
            while not (stop is not None and stop.is_set()):
                try:
                    index, item = todo.get_nowait()
                except queue.Empty:
                    return
                events.started(item, device)
                row = run_item(item, device, root, _item_progress(events, item))
                rows[index] = row
                events.ended(row)

        threads = [threading.Thread(target=worker, args=(d,), name=f"coreb-sweep-{d}", daemon=True)
                   for d in devices[:max(1, len(pending))]]
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():  # a timed join: Ctrl-C still reaches the main thread
                thread.join(0.5)
        return rows

    return execute


def sweep(models: Iterable[str], releases: Iterable[str], profiles: Iterable[str] = (DEFAULT_PROFILE,),
          devices: Sequence[str] | None = None, root: Path | None = None, events: SweepEvents | None = None,
          executor: Executor | None = None, identity_devices: Sequence[str] | None = None,
          stop: threading.Event | None = None) -> SweepResult:
    """Make every run of the matrix (``plan_items``) that is not stored yet; a row per item, in the matrix's order.

    Everything is checked before any work (models, profiles, releases cached, devices present: a one-line
    CorebError). Runs go to ``executor`` (default: ``local_executor(devices)``); ``identity_devices`` are the
    devices whose precision a stored dense run may have been made in to count (default: ``devices``). Once ``stop``
    is set, no further run starts locally (the items left are FAILED, "not started").
    """
    start = time.perf_counter()
    items = plan_items(models, releases, profiles)
    checked = check_devices(devices) if executor is None else tuple(identity_devices or ("cpu",))
    root = Path(root or cache_root())
    fingerprints = check_releases([item.release for item in items], root)
    remove_stale_cache_temps(root)  # what a killed sweep left (a run's .tmp- folder, a shard's .tmp), once checked
    events = _Serialised(events or SweepEvents())
    stored = stored_identities(fingerprints, root)
    rows: dict[int, SweepRow] = {}
    pending: list[tuple[int, SweepItem]] = []
    for index, item in enumerate(items):
        # A dense run made on any of the sweep's devices counts (their precision may differ: CPU float32, CUDA half).
        found = [stored[i] for i in {item_identity(item, fingerprints[item.release], d) for d in checked}
                 if i in stored]
        if found:
            meta = run_meta(found[0], root)
            speed = meta.cost.texts_per_s if meta.cost is not None else None
            rows[index] = SweepRow(item, SKIPPED, 0.0, round(speed, 1) if speed else None, found[0], meta.device)
        else:
            pending.append((index, item))
    events.planned([rows[i] for i in sorted(rows)], [item for _, item in pending])
    if pending:
        rows.update((executor or local_executor(checked, stop))(pending, root, events))
    missing = [i for i, _ in pending if i not in rows]  # stopped before they started
    for index in missing:
        rows[index] = SweepRow(items[index], FAILED, 0.0, None, None, None, "not started: the sweep was stopped")
    return SweepResult([rows[i] for i in range(len(items))], time.perf_counter() - start)


class ProgressEvents(SweepEvents):
    """A whole sweep as one ``Progress`` (a job on the app's job board): the fraction of the runs to make that is
    done, and a message naming the run under way. When ``progress`` raises (the job was cancelled), ``stop`` is set
    so no further run starts, and the run under way fails at its next step, storing nothing.

    >>> seen, stop = [], threading.Event()
    >>> events = ProgressEvents(lambda m, f: seen.append((m, round(f, 2))), stop)
    >>> events.planned([], [SweepItem("bm25", "v", None), SweepItem("bm25", "w", None)])
    >>> events.started(SweepItem("bm25", "v", None), "cpu"); events.step(SweepItem("bm25", "v", None), "t2c", 0.5)
    >>> seen[-1]
    ('[1/2] bm25 on v: t2c', 0.25)
    """

    def __init__(self, progress: Progress, stop: threading.Event) -> None:
        self.progress, self.stop = progress, stop
        self.total, self.done = 0, 0
        self.number: dict[SweepItem, int] = {}
        self.current: dict[SweepItem, float] = {}

    def _report(self, message: str) -> None:
        fraction = (self.done + sum(self.current.values())) / max(1, self.total)
        try:
            self.progress(message, min(1.0, fraction))
        except BaseException:
            self.stop.set()
            raise

    def _quietly(self, message: str) -> None:
        """Between runs a cancel only stops the sweep: nothing is under way to fail."""
        try:
            self._report(message)
        except Exception:  # noqa: BLE001 (``stop`` is set: the sweep ends after the runs under way)
            pass

    def planned(self, skipped: list[SweepRow], pending: list[SweepItem]) -> None:
        self.total = len(pending)
        self._quietly(f"{len(skipped)} runs stored already, {len(pending)} to make")

    def started(self, item: SweepItem, device: str) -> None:
        self.number[item] = len(self.number) + 1
        self.current[item] = 0.0
        self._quietly(f"[{self.number[item]}/{self.total}] {item.title}: started on {device}")

    def step(self, item: SweepItem, message: str, fraction: float) -> None:
        self.current[item] = min(max(fraction, 0.0), 1.0)
        self._report(f"[{self.number.get(item, 0)}/{self.total}] {item.title}: {message}")

    def ended(self, row: SweepRow) -> None:
        self.current.pop(row.item, None)
        self.done += 1
        self._quietly(f"[{self.number.get(row.item, 0)}/{self.total}] {row.item.title}: {row.status}")
