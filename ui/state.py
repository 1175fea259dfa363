"""What the sidebar chose: release, scheme, runs, task and anchor exclusion."""
from __future__ import annotations

from typing import NamedTuple

from coreb_core.evaluation.schemes import Scheme


class State(NamedTuple):
    release: str
    scheme: Scheme
    run_ids: list[str]
    task: str
    anchor_exclusion: bool
