"""Compressed embeddings of one dense run of the scope (``analysis.compression``): the Trap analysis page's
"Compressed embeddings" section and the ``compress`` verb. nDCG@10 is v2's whatever the scope's scheme (as labelled);
the scope's anchor rule applies."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from coreb_core.analysis.compression import Compression, compression
from coreb_core.errors import CorebError
from coreb_core.retrieval.compression import PRECISIONS
from coreb_core.text import terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records
from coreb_core.views.scope import Scope


@dataclass(frozen=True)
class CompressionView:
    """The variants of ``run`` beside it, with its name to print."""

    scope: Scope
    run: str
    name: str
    result: Compression

    def to_json(self) -> dict:
        """``compress --json``: per variant and task, nDCG@10 (0..1), its change, the share of queries lost to a
        trap (0..1) and its change, bytes per vector; ``reproduces``: full width float32 scores as the run."""
        r = self.result
        return {"release": self.scope.release, "run": self.run, "width": r.width, "top_k": r.top_k,
                "anchor_exclusion": self.scope.anchor_exclusion, "reproduces": r.reproduces,
                "int8_calibration": "per-dimension min and max of the task's document vectors (queries clipped)",
                "binary_score": "dims - 2 * Hamming distance (faiss.hammings)",
                "rows": records(r.table)}

    def lines(self) -> list[str]:
        r = self.result
        out = [f"compressed embeddings of {terminal_safe(self.name)} on {self.scope.release} ({r.width} dimensions, "
               f"top {r.top_k}): nDCG@10 (v2) and the queries with a positive lost to a trap, per variant; "
               f"{r.width} · float32 {'reproduces' if r.reproduces else 'DOES NOT reproduce'} the run's scores"]
        for task, part in r.table.groupby("task", sort=False):
            out.append(f"  {task}:")
            for row in part.itertuples():
                label = f"{row.dims} · {row.precision}" + (" (the run)" if row.full else "")
                change = "" if row.full else (f" ({row.ndcg_change * 100:+.1f})")
                lost_change = "" if row.full else f" ({row.lost_change * 100:+.1f})"
                out.append(f"    {label:<22} {row.bytes_per_vector:>5,} B  nDCG@10 {row.ndcg_at_10 * 100:5.1f}{change:<9}"
                           f" lost to a trap {row.lost:,} of {row.with_positive:,} ({row.lost_share * 100:.1f}%)"
                           f"{lost_change}")
        return out


def build(scope: Scope, *, run: str, dims: tuple[int, ...] | None = None, precisions: Iterable[str] = PRECISIONS,
          task: str | None = None, inputs: Inputs | None = None) -> CompressionView:
    """The variants of the scope's dense run ``run`` on ``task`` (default: every task it searched).

    >>> build(Scope.of("demo_v2603", [bm25], root=root), run=bm25, inputs=Inputs(root))
    Traceback (most recent call last):
    coreb_core.errors.CorebError: bm25 · demo_v2603 has no encoder (model bm25): compressed embeddings need a dense run
    """
    inputs = inputs or Inputs()
    if run not in scope.run_ids:
        raise CorebError(f"run {run} is not among the chosen runs")
    meta = inputs.meta(run)
    result = compression(inputs.store(scope.release), meta, dims, tuple(precisions), None if task is None else (task,),
                         scope.anchor_exclusion, inputs.root, inputs.hits(run))
    return CompressionView(scope, run, inputs.names(scope)[run], result)
