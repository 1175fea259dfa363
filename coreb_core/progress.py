"""Progress reporting shared by the CLI (tqdm) and the app (st.progress): a callable taking a
message and a fraction in [0, 1].

Example:
    >>> def report(message: str, fraction: float) -> None:
    ...     print(f"{fraction:.0%} {message}")
    >>> report("encoded 512/1024 texts", 0.5)
    50% encoded 512/1024 texts
    >>> silent("nobody listens", 1.0)
"""
from __future__ import annotations

import sys
import threading
import time
from typing import Any, Callable, TypeVar

Progress = Callable[[str, float], None]
T = TypeVar("T")


def silent(message: str, fraction: float) -> None:
    """The default ``Progress``: report nothing.

    >>> silent("encoded 512/1024 texts", 0.5) is None
    True
    """
    return None


class TqdmProgress:
    """A tqdm bar on stderr driven by (message, fraction) calls.

    >>> bar = TqdmProgress("encode")
    >>> bar("encoded 512/1024 texts", 0.5); bar.bar.n
    500
    >>> bar.close()
    """

    def __init__(self, desc: str) -> None:
        self.desc = desc
        self.bar: Any = None  # drawn at the first report, so input refused before any work prints one line only

    def __call__(self, message: str, fraction: float) -> None:
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=1000, desc=self.desc, unit="‰", file=sys.stderr, mininterval=0.3,
                            bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining} {postfix}")
        self.bar.n = int(round(1000 * min(max(fraction, 0.0), 1.0)))
        self.bar.set_postfix_str(message[:60], refresh=False)
        self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def part_of(progress: Progress, prefix: str, start: float, width: float) -> Progress:
    """``progress`` for one part of a longer piece of work: ``prefix`` before each message, and the part's
    fractions (0..1) mapped into ``start`` .. ``start + width`` of the whole.

    >>> seen = []
    >>> half = part_of(lambda m, f: seen.append((m, f)), "c2t: ", 0.5, 0.5)
    >>> half("documents 3/4", 0.5); seen
    [('c2t: documents 3/4', 0.75)]
    """
    return lambda message, fraction: progress(f"{prefix}{message}", start + width * fraction)


def call_with_heartbeat(work: Callable[[], T], progress: Progress, message: str, fraction: float,
                        every: float = 1.0) -> T:
    """Run ``work()`` and call ``progress`` every ``every`` seconds until it returns, with the seconds
    spent so far in the message: a model load is one long call that reports nothing itself, and the
    app's elapsed time would stand still meanwhile.

    ``work`` runs in a worker thread and ``progress`` in the calling thread, so a callback that may only
    be called from its own thread (a Streamlit page's progress bar) keeps working; ``work``'s exception
    is raised here.

    >>> seen = []
    >>> call_with_heartbeat(lambda: time.sleep(0.25) or 42, lambda m, f: seen.append((m, f)), "loading", 0.0, every=0.1)
    42
    >>> seen[0], len(seen) >= 3, seen[-1][0]
    (('loading', 0.0), True, 'loading (0 s)')
    """
    done = threading.Event()
    box: dict[str, object] = {}

    def worker() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # raised again in the calling thread
            box["error"] = exc
        finally:
            done.set()

    start = time.perf_counter()
    progress(message, fraction)
    threading.Thread(target=worker, name="coreb-heartbeat-work", daemon=True).start()
    while not done.wait(every):
        progress(f"{message} ({time.perf_counter() - start:.0f} s)", fraction)
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]
