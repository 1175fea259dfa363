"""Measuring a run's cost while it is made: its peak memory, and what it ran on (``MemoryMeter``), its CPU seconds
(``run_cpu_seconds``) and the machine's load (``load_average``).

CPU seconds are what a busy machine does not change much: a single-threaded encode takes about the same CPU time
beside two busy processes as alone, while its wall time doubles (see ``RunCost.speed_ms``).

Peak memory is the resident-set high-water mark (``VmHWM`` on Linux), not ``tracemalloc``: torch's and
numpy's buffers are allocated outside Python's allocator. On Linux the mark is reset when the run starts
(writing 5 to ``/proc/self/clear_refs``), so it is this run's peak, the loaded model included; elsewhere
``getrusage`` gives the process's lifetime peak (``rss_scope`` "process"). Two runs made at once in one
process (the app's jobs) share one mark. On CUDA, torch's peak of allocated memory, reset at the start too.

Example:
    >>> meter = MemoryMeter("cpu")
    >>> rss, scope, gpu = meter.peaks()
    >>> rss > 0, scope in ("run", "process"), gpu
    (True, True, None)
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

GB = 1e9  # bytes: sizes are reported in GB of 10^9 bytes

_STATUS, _CLEAR = Path("/proc/self/status"), Path("/proc/self/clear_refs")


def _hwm_bytes() -> int | None:
    """``VmHWM`` of /proc/self/status in bytes (None where there is no such file)."""
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024  # kB
    except (OSError, ValueError, IndexError):
        return None
    return None


def _reset_hwm() -> bool:
    """Reset the process's RSS high-water mark to its current RSS (Linux 4.0+); False where it cannot."""
    try:
        _CLEAR.write_text("5")
        return True
    except OSError:
        return False


def _lifetime_peak_bytes() -> int:
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB on Linux


def cpus_available() -> int:
    """The CPUs this process may run on (its affinity, where the system tells it; else the machine's count).

    >>> cpus_available() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def torch_threads() -> int | None:
    """torch's intra-op thread count when torch is loaded (a BM25 run never loads it: None)."""
    torch = sys.modules.get("torch")
    return int(torch.get_num_threads()) if torch is not None else None


def load_average() -> float | None:
    """The 1-minute load average (runnable processes, all cores together); None where the system has none.

    >>> value = load_average(); value is None or value >= 0
    True
    """
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


_TASKS = Path("/proc/self/task")


def _task_cpu_s(tid: str) -> float:
    """One thread's user + system CPU seconds (/proc/self/task/<tid>/stat; 0 if it has ended)."""
    try:
        fields = (_TASKS / tid / "stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime (fields 14, 15)
    except (OSError, ValueError, IndexError):
        return 0.0


def run_cpu_seconds() -> float:
    """CPU seconds spent so far on this thread's work: its own CPU time plus that of the process's native threads
    (torch's and the BLAS pools, which compute for it), leaving out the process's *other Python threads* (the
    app's pages, drawn while a run encodes, would otherwise be counted as the model's). Where ``/proc`` has no
    threads (not Linux): the whole process's CPU time.

    >>> a = run_cpu_seconds(); sum(range(10**6)); run_cpu_seconds() >= a
    499999500000
    True
    """
    import threading

    try:
        tids = [t.name for t in _TASKS.iterdir()]
    except OSError:
        return time.process_time()
    me = threading.get_native_id()
    others = {t.native_id for t in threading.enumerate() if t.native_id is not None and t.native_id != me}
    return time.thread_time() + sum(_task_cpu_s(t) for t in tids if int(t) != me and int(t) not in others)


class MemoryMeter:
    """Started at a run's beginning; ``peaks()`` at its end gives (peak RSS GB, scope, GPU peak GB or None)."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.scope = "run" if _reset_hwm() and _hwm_bytes() is not None else "process"
        torch = sys.modules.get("torch")  # not imported yet: its peak counts from its first allocation anyway
        if device.startswith("cuda") and torch is not None and torch.cuda.is_available():
            torch.cuda.reset_peak_memory_stats(device)

    def peaks(self) -> tuple[float, str, float | None]:
        rss = _hwm_bytes() if self.scope == "run" else None
        rss = rss if rss is not None else _lifetime_peak_bytes()
        gpu = None
        torch = sys.modules.get("torch")
        if self.device.startswith("cuda") and torch is not None and torch.cuda.is_available():
            gpu = round(torch.cuda.max_memory_allocated(self.device) / GB, 3)
        return round(rss / GB, 3), self.scope, gpu
