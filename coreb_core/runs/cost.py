"""What a run cost to make, as measured while it was made (``RunCost``, the ``cost`` block of ``run.json``).

A dense run times the model's encoding of the texts its embedding cache lacked, documents and queries apart
(the model's load is timed on its own, in ``timings_s``); a lexical run (BM25) times indexing and scoring.
Memory is the process's resident-set high-water mark over the run (``peak_rss_gb``; on Linux the mark is
reset when the run starts, elsewhere it is the process's lifetime peak: ``rss_scope`` says which) and, on
CUDA, torch's peak of allocated GPU memory. Runs stored before costs were recorded, imported and reranked
runs have no cost: "not measured", never zero.

Example:
    >>> cost = RunCost("encode", "cpu", "fp32", texts=1000, seconds=4.0, documents=800, documents_s=3.5,
    ...                queries=200, queries_s=0.5, peak_rss_gb=1.25)
    >>> cost.texts_per_s, cost.ms_per_text, cost.peak_memory_gb, cost.speed_measured
    (250.0, 4.0, 1.25, True)
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping, NamedTuple

from coreb_core.errors import CorebError

ENCODE, LEXICAL = "encode", "lexical"  # what ``seconds`` times: a model's encoding, or BM25's index and search
COST_KINDS = (ENCODE, LEXICAL)
RSS_SCOPES = ("run", "process")  # the RSS peak: reset at the run's start, or the process's lifetime peak


class RunCost(NamedTuple):
    """One run's measured cost. ``texts`` and ``seconds``: the texts the model encoded and the seconds it
    took (lexical: the texts indexed and scored, and the seconds to index and score them); ``cached``: the
    texts whose vectors came from the embedding cache instead (not timed). Sizes in GB are 10^9 bytes.

    >>> RunCost("encode", "cpu", "fp32", texts=0, seconds=0.0, cached=5000).texts_per_s is None  # all cached
    True
    """

    kind: str  # ENCODE or LEXICAL
    device: str  # cpu, cuda, cuda:1, mps
    precision: str  # float32, bfloat16, … ("none" for BM25)
    texts: int
    seconds: float
    cached: int = 0
    documents: int = 0  # of ``texts``: documents (the corpus), and the seconds they took (lexical: 0, one call)
    documents_s: float = 0.0
    queries: int = 0
    queries_s: float = 0.0
    batch_size: int | None = None
    threads: int | None = None  # torch's intra-op threads (None: torch was not used)
    cpus: int | None = None  # CPUs the process could use
    peak_rss_gb: float | None = None
    rss_scope: str | None = None  # RSS_SCOPES
    gpu_peak_gb: float | None = None  # torch.cuda.max_memory_allocated over the run (CUDA only)
    # What a busy machine does not change (issue 48): the CPU seconds of the timed steps (the run's thread and the
    # native threads computing for it, ``meter.run_cpu_seconds``), and the 1-minute load average at the run's
    # start and end. None: a run stored before they were recorded ("wall only, load unknown").
    cpu_s: float | None = None
    load_start: float | None = None
    load_end: float | None = None

    @property
    def cores_used(self) -> int:
        """The cores the timed work could keep busy: torch's threads (BM25: 1), at most the CPUs the process had."""
        return max(1, min(self.threads or 1, self.cpus or self.threads or 1))

    @property
    def load(self) -> float | None:
        """The higher of the load averages at the run's start and end (None: not recorded)."""
        known = [x for x in (self.load_start, self.load_end) if x is not None]
        return max(known) if known else None

    @property
    def busy(self) -> bool:
        """Whether the run was measured at a load above its machine's core count (its wall time is not the model's).

        >>> RunCost("encode", "cpu", "fp32", 10, 1.0, cpus=2, load_start=1.1, load_end=7.4).busy
        True
        """
        return self.load is not None and self.cpus is not None and self.load > self.cpus

    @property
    def speed_basis(self) -> str:
        """What ``speed_ms`` counts: "cpu" (CPU seconds: a run on the CPU that recorded them) or "wall" (a GPU
        run, whose work the CPU time does not see; or a run stored before CPU seconds were recorded)."""
        cpu = self.cpu_s is not None and self.cpu_s > 0 and self.device == "cpu"
        return "cpu" if cpu and self.speed_measured else "wall"

    @property
    def per(self) -> str:
        """The unit of ``speed_ms``: a text the model encoded, or (lexical) a query indexed for and searched."""
        return "query" if self.kind == LEXICAL and self.queries else "text"  # no query count recorded: per text

    @property
    def speed_ms(self) -> float | None:
        """The speed Model selection ranks and limits by: milliseconds per text encoded (lexical: per query, the
        index built and searched), in CPU time where it was recorded on the CPU (core-milliseconds: with T
        threads on a quiet machine the wall time is about this over T), else wall time. None: not measured.

        >>> RunCost("encode", "cpu", "fp32", 100, 4.0, cpu_s=1.0).speed_ms   # 4 s wall on a busy machine, 1 CPU-s
        10.0
        >>> RunCost("lexical", "cpu", "none", 1200, 0.6, queries=200).speed_ms   # per query, wall (no CPU seconds)
        3.0
        """
        if not self.speed_measured:
            return None
        seconds = self.cpu_s if self.speed_basis == "cpu" and self.cpu_s is not None else self.seconds
        count = self.queries if self.kind == LEXICAL and self.queries else self.texts
        return 1000.0 * seconds / count

    @property
    def speed_measured(self) -> bool:
        """Whether ``texts_per_s`` is a speed of the model (or of BM25): some texts were encoded and timed."""
        return self.texts > 0 and self.seconds > 0

    @property
    def texts_per_s(self) -> float | None:
        """Texts per second over every timed text (None: nothing was encoded, e.g. every vector was cached)."""
        return self.texts / self.seconds if self.speed_measured else None

    @property
    def ms_per_text(self) -> float | None:
        """Milliseconds per text (the inverse of ``texts_per_s``).

        >>> round(RunCost("lexical", "cpu", "none", texts=3, seconds=0.006).ms_per_text, 6)
        2.0
        """
        return 1000.0 * self.seconds / self.texts if self.speed_measured else None

    @property
    def peak_memory_gb(self) -> float | None:
        """The memory figure a budget is checked against: the GPU peak on CUDA, else the process's RSS peak; None
        when the run loaded no model (every vector came from the cache): its peak is not the model's.

        >>> RunCost("encode", "cuda", "fp32", 10, 1.0, peak_rss_gb=3.0, gpu_peak_gb=0.5).peak_memory_gb
        0.5
        >>> RunCost("encode", "cpu", "fp32", 0, 0.0, cached=10, peak_rss_gb=0.7).peak_memory_gb is None
        True
        """
        if not self.speed_measured and self.kind == ENCODE:
            return None
        if self.device.startswith("cuda") and self.gpu_peak_gb is not None:
            return self.gpu_peak_gb
        return self.peak_rss_gb

    def rates(self) -> dict[str, float | None]:
        """Texts per second overall, for documents and for queries (None where nothing was timed).

        >>> RunCost("encode", "cpu", "fp32", 10, 2.0, documents=10, documents_s=2.0).rates()
        {'texts_per_s': 5.0, 'documents_per_s': 5.0, 'queries_per_s': None}
        """
        def rate(n: int, s: float) -> float | None:
            return round(n / s, 3) if n > 0 and s > 0 else None

        return {"texts_per_s": rate(self.texts, self.seconds), "documents_per_s": rate(self.documents, self.documents_s),
                "queries_per_s": rate(self.queries, self.queries_s)}

    def to_json(self) -> dict[str, Any]:
        """The ``cost`` object of ``run.json``: the fields (None ones left out) and the rates, for readers of the file.

        >>> RunCost("lexical", "cpu", "none", 4, 2.0).to_json()["texts_per_s"]
        2.0
        """
        out = {k: v for k, v in self._asdict().items() if v is not None}
        return {**out, **{k: v for k, v in self.rates().items() if v is not None}}

    @classmethod
    def from_json(cls, data: object, source: str | Path = "run.json") -> "RunCost":
        """Read the ``cost`` object; a one-line CorebError naming ``source`` and the field (``cost.seconds``) for
        a missing field, a wrong type or a negative or non-finite number. The rates are derived, not read.

        >>> RunCost.from_json({"kind": "lexical", "device": "cpu", "precision": "none", "texts": 4, "seconds": 2}).seconds
        2.0
        >>> RunCost.from_json({"kind": "lexical", "device": "cpu", "precision": "none", "texts": 4, "seconds": "2"},
        ...                   "runs/r1/run.json")
        Traceback (most recent call last):
        coreb_core.errors.CorebError: runs/r1/run.json: field 'cost.seconds' is str, expected a number
        """
        if not isinstance(data, Mapping):
            raise CorebError(f"{source}: field 'cost' is {type(data).__name__}, expected an object")
        values: dict[str, Any] = {}
        for name in cls._fields:
            value = data.get(name)
            where = f"{source}: field 'cost.{name}'"
            if value is None:
                if name in _REQUIRED:
                    raise CorebError(f"{where} is missing")
                continue
            kind = _KINDS[name]
            if kind is str:
                if not isinstance(value, str):
                    raise CorebError(f"{where} is {type(value).__name__}, expected text")
                allowed = {"kind": COST_KINDS, "rss_scope": RSS_SCOPES}.get(name)
                if allowed and value not in allowed:
                    raise CorebError(f"{where} is {value[:40]!r}, expected one of {', '.join(allowed)}")
            else:
                ok = (isinstance(value, int) if kind is int else isinstance(value, (int, float)))
                if isinstance(value, bool) or not ok:
                    wanted = "a whole number" if kind is int else "a number"
                    raise CorebError(f"{where} is {type(value).__name__}, expected {wanted}")
                if not math.isfinite(value) or value < 0:
                    raise CorebError(f"{where} is {value!r}, expected a finite number, 0 or more")
                value = float(value) if kind is float else value
            values[name] = value
        return cls(**values)


_REQUIRED = ("kind", "device", "precision", "texts", "seconds")
_KINDS: dict[str, type] = {name: {"kind": str, "device": str, "precision": str, "rss_scope": str, "texts": int,
                                  "cached": int, "documents": int, "queries": int, "batch_size": int, "threads": int,
                                  "cpus": int}.get(name, float)
                           for name in RunCost._fields}


def rate_text(value: float | None) -> str:
    """Texts per second (or any measured figure) as printed: whole numbers from 100 up, three significant digits
    below.

    >>> rate_text(12345.6), rate_text(42.123), rate_text(None)
    ('12,346', '42.1', 'not measured')
    """
    if value is None:
        return "not measured"
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def speed_words(cost: RunCost) -> str:
    """The ranked speed with its unit and basis, and the load it was measured at (marked above the core count).

    >>> speed_words(RunCost("encode", "cpu", "fp32", 1000, 60.0, threads=1, cpus=2, cpu_s=30.0,
    ...                     load_start=0.4, load_end=0.6))
    '30 CPU-ms per text (1 core; load 0.6 on 2 cores)'
    >>> speed_words(RunCost("encode", "cpu", "fp32", 1000, 60.0, cpus=2, cpu_s=30.0, load_start=7.2, load_end=6.0))
    '30 CPU-ms per text (1 core; BUSY: measured at load 7.2 on 2 cores)'
    >>> speed_words(RunCost("encode", "cpu", "fp32", 1000, 4.0))   # stored before CPU seconds were recorded
    '4 ms per text (wall only, load unknown)'
    >>> speed_words(RunCost("lexical", "cpu", "none", 7000, 0.5, queries=200, cpus=2, cpu_s=0.5, load_start=0.5))
    '2.5 CPU-ms per query (index and search, no encoder; 1 core; load 0.5 on 2 cores)'
    """
    ms = cost.speed_ms
    if ms is None:
        return "speed not measured"
    unit = f"{'CPU-' if cost.speed_basis == 'cpu' else ''}ms per {cost.per}"
    notes = ["index and search, no encoder"] if cost.kind == LEXICAL else []
    if cost.speed_basis == "cpu":
        notes.append(f"{cost.cores_used} core{'s' if cost.cores_used > 1 else ''}")
    if cost.load is None:
        notes.append("wall only, load unknown" if cost.speed_basis == "wall" else "load unknown")
    else:
        cores = f"{cost.cpus} cores" if cost.cpus else "unknown cores"
        notes.append(f"BUSY: measured at load {cost.load:.1f} on {cores}" if cost.busy
                     else f"{'wall; ' if cost.speed_basis == 'wall' else ''}load {cost.load:.1f} on {cores}")
    return f"{rate_text(ms)} {unit} ({'; '.join(notes)})"


def cost_brief(cost: RunCost | None) -> str:
    """A run's cost in a table cell or a listing line: the ranked speed (its basis and load) and peak memory.

    >>> cost_brief(RunCost("lexical", "cpu", "none", 6964, 2.28, queries=1200, peak_rss_gb=0.687))
    '1.9 ms per query (index and search, no encoder; wall only, load unknown) · 0.69 GB'
    >>> cost_brief(RunCost("encode", "cpu", "float32", 0, 0.0, cached=10, peak_rss_gb=1.0)), cost_brief(None)
    ('cached (speed, memory not measured)', 'cost not measured')
    """
    if cost is None:
        return "cost not measured"
    if not cost.speed_measured and cost.cached:
        return "cached (speed, memory not measured)"
    memory = "memory not measured" if cost.peak_memory_gb is None else f"{cost.peak_memory_gb:.2f} GB"
    return f"{speed_words(cost)} · {memory}"


def cost_words(cost: RunCost | None) -> str:
    """A run's cost in a few words, for a listing, a verdict and the CLI: the ranked speed, the wall rate as
    measured, the device and the peak memory.

    >>> cost_words(RunCost("encode", "cpu", "fp32", 1000, 4.0, peak_rss_gb=1.234))
    '4 ms per text (wall only, load unknown); 250 texts/s wall on cpu, fp32; peak memory 1.23 GB (process RSS)'
    >>> cost_words(RunCost("encode", "cuda", "fp16", 0, 0.0, cached=900, peak_rss_gb=2.0))
    'vectors from the embedding cache (speed not measured) on cuda, fp16; no model loaded (process peak 2.00 GB)'
    >>> cost_words(None)
    'cost not measured'
    """
    if cost is None:
        return "cost not measured"
    if cost.speed_measured:
        # an encoder's wall rate beside it, as measured; a lexical run's texts/s would read as an encoding speed
        wall = "" if cost.kind == LEXICAL else f"; {rate_text(cost.texts_per_s)} texts/s wall"
        speed = f"{speed_words(cost)}{wall}"
    else:
        speed = "vectors from the embedding cache (speed not measured)" if cost.cached else "speed not measured"
    where = f"on {cost.device}" + ("" if cost.kind == LEXICAL else f", {cost.precision}")
    memory = cost.peak_memory_gb
    gpu = cost.device.startswith("cuda") and cost.gpu_peak_gb is not None
    if memory is not None:
        mem = f"peak memory {memory:.2f} GB ({'GPU, allocated by torch' if gpu else 'process RSS'})"
    elif cost.peak_rss_gb is not None and cost.cached:  # no model was loaded: the peak is not the model's
        mem = f"no model loaded (process peak {cost.peak_rss_gb:.2f} GB)"
    else:
        mem = "memory not measured"
    return f"{speed} {where}; {mem}"
