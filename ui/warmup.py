"""Warm the server once: import the heavy libraries and load the compiled evaluation kernels in a background
thread, while the first request is busy elsewhere (on a first launch, building CoREB-mini and the BM25 run).

On 2 cores the first Overview otherwise pays, in its own thread, about 2 s for altair, 0.5-1 s for loading
the numba kernels from their cache and about 1 s for pandas' Styler; started at the top of app.py, that work
overlaps the first launch's build instead of following it.
"""
from __future__ import annotations

import threading

_started = threading.Event()


def _warm() -> None:
    import altair  # noqa: F401  every chart page
    import pandas.io.formats.style  # noqa: F401  the inspector's coloured rows

    from coreb_core.views.inputs import warm_kernels

    warm_kernels()  # loads the cached kernels (compiles them if the cache is missing)


def start_warmup() -> bool:
    """Start the warm-up once per server process; True when this call started it.

    >>> isinstance(start_warmup(), bool)
    True
    """
    if _started.is_set():
        return False
    _started.set()
    threading.Thread(target=_warm, name="coreb-warmup", daemon=True).start()
    return True
