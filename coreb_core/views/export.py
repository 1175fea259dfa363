"""A stored run written in another format (the ``export`` verb): TREC, the official runner's JSON, an MTEB result."""
from __future__ import annotations

from pathlib import Path

from coreb_core.evaluation.export import OFFICIAL_K, OFFICIAL_TOP_K, export_run, trec_depth


def export(run_id: str, fmt: str, out: Path | str, root: Path | None = None) -> Path:
    """Write the stored run ``run_id`` in ``fmt`` (one of ``evaluation.export.FORMATS``) at ``out``; the file or
    folder written (``export_run``: refused in one line when ``out`` cannot take it)."""
    return export_run(run_id, fmt, out, root)


def depth_warning(run_id: str, fmt: str, root: Path | None = None) -> str:
    """What a TREC export of a run stored shallower than the official runner's top 1000 must say ("" otherwise): the
    cutoffs deeper than its lists (@1000 recall and MAP) scored from the file are not the official runner's."""
    if fmt != "trec":
        return ""
    depth = trec_depth(run_id, root)
    deeper = [k for k in OFFICIAL_K if k > depth]
    if not deeper:
        return ""
    cutoffs = ", ".join(f"@{k}" for k in deeper)
    return (f"the run holds each query's top {int(depth)} only (then its judged documents); the official runner "
            f"keeps the top {OFFICIAL_TOP_K}, so measures at {cutoffs} scored from this file (recall, MAP, nDCG) "
            f"differ from the official runner's (a run made with run --top-k {OFFICIAL_TOP_K} matches them)")
