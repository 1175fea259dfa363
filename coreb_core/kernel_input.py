"""The one way an array goes into a numba kernel (the evaluation's and the hits builder's): below every layer, so the
runs layer's builder and the evaluation's kernels share it."""
from __future__ import annotations

import numpy as np


def kernel_input(values, dtype) -> np.ndarray:
    """``values`` as a contiguous, read-only array of ``dtype``: numba compiles one version per
    (dtype, layout, read-only flag), so every kernel input goes through here and the versions
    compiled ahead (``coreb_core.evaluation.compile``) are the ones real runs use. No copy when
    ``values`` already has that dtype and layout.

    >>> a = kernel_input([1, 2], np.int64); a.dtype, a.flags.writeable
    (dtype('int64'), False)
    """
    out = np.ascontiguousarray(values, dtype=dtype).view()
    out.flags.writeable = False
    return out
