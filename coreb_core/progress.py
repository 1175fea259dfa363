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
from typing import Callable

Progress = Callable[[str, float], None]


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
        from tqdm import tqdm

        self.bar = tqdm(total=1000, desc=desc, unit="‰", file=sys.stderr, mininterval=0.3,
                        bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining} {postfix}")

    def __call__(self, message: str, fraction: float) -> None:
        self.bar.n = int(round(1000 * min(max(fraction, 0.0), 1.0)))
        self.bar.set_postfix_str(message[:60], refresh=False)
        self.bar.refresh()

    def close(self) -> None:
        self.bar.close()
