"""Why our number is not the leaderboard's, for one model on one release (``analysis.waterfall``): the Overview's
"MTEB → CoREB protocol" section and the ``waterfall`` verb. The chain of runs is found among the release's stored
runs by their recorded encoding (``retrieval.protocol_steps``); ``make_missing`` makes the ones not stored. Beside
the steps: the model's MTEB result file (imported) and its published leaderboard figure, where the cache has them:
for a model whose weights do not load here (Qwen3-Embedding), those two ends are all there is to show."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coreb_core.analysis.waterfall import ChainRun, Waterfall, protocol_waterfall
from coreb_core.data.measures import NDCG_10
from coreb_core.data.schema import TASK_NAMES
from coreb_core.errors import CorebError
from coreb_core.progress import Progress, silent
from coreb_core.results.published import published_version
from coreb_core.retrieval.models import ModelSpec, resolve
from coreb_core.retrieval.protocol_steps import EncodingStep, encoding_steps
from coreb_core.runs.meta import RunMeta
from coreb_core.text import terminal_safe
from coreb_core.views.inputs import Inputs
from coreb_core.views.output import records

LEADERBOARD_TABLE = "paper_table3_{version}_retrieval"
MTEB_VERSION = "v202603"


@dataclass(frozen=True)
class WaterfallView:
    """The waterfall (None when no run of the model is stored), the steps still to make, and the two published ends
    per task: ``mteb`` (the model's imported MTEB file) and ``leaderboard`` (the paper's Table 3), when known."""

    release: str
    model: str
    waterfall: Waterfall | None
    to_make: tuple[str, ...]
    ends: dict[str, dict[str, float]]  # task -> {"mteb": x, "leaderboard": y}

    def to_json(self) -> dict[str, Any]:
        """``waterfall --json``: the steps per task (nDCG@10 as a fraction, its change from the step before)."""
        fall = self.waterfall
        return {"release": self.release, "model": self.model,
                "steps": records(fall.table) if fall is not None else [],
                "missing": list(fall.missing) if fall is not None else [], "to_make": list(self.to_make),
                "published_ends": self.ends}

    def lines(self) -> list[str]:
        out = [f"{self.model} on {self.release}: from MTEB's protocol to CoREB's, nDCG@10 (×100) per step"]
        fall = self.waterfall
        if fall is None:
            out.append("  no run of this model is stored on this release: "
                       f"make them with `waterfall --release {self.release} --model {self.model} --make`")
        else:
            for task, part in fall.table.groupby("task", sort=False):
                out.append(f"  {task}:")
                for r in part.itertuples():
                    change = "" if math.isnan(r.change) else f" ({r.change * 100:+.1f})"
                    same = "  [changes nothing for this model]" if r.same else ""
                    out.append(f"    {r.step:<10} {r.ndcg_at_10 * 100:5.1f}{change}  {terminal_safe(r.description)}"
                               f"{same}")
                out.append(f"    {'total':<10} {fall.total(str(task)) * 100:+5.1f}")
            if fall.missing:
                out.append(f"  steps without a stored run (folded into the next): {', '.join(fall.missing)}")
        for task, ends in self.ends.items():
            words = "; ".join(f"{k} {v * 100:.1f}" for k, v in ends.items())
            out.append(f"  published {task}: {words}")
        if self.to_make:
            out.append(f"  to make: {', '.join(self.to_make)} (`waterfall … --make`)")
        return out


def _newest(metas: list[RunMeta], step: EncodingStep) -> RunMeta | None:
    found = [m for m in metas if step.matches(m.encoding)]
    return max(found, key=lambda m: m.created or "") if found else None


def _chain(spec: ModelSpec, metas: list[RunMeta], inputs: Inputs, device: str) -> tuple[list[ChainRun], list[str]]:
    """The chain of stored runs and the steps with no stored run (names)."""
    if spec.kind != "dense":
        newest = max(metas, key=lambda m: m.created or "")
        return [ChainRun("scoring", "", inputs.hits(newest.run_id), newest.run_id)], []
    steps = encoding_steps(spec, device)
    found = {s.name: _newest(metas, s) for s in steps}
    to_make = [s.name for s in steps if not s.same and found[s.name] is None]
    card, official = found["card"], found["encoder"]
    if card is None:  # the scoring steps on the official run; the encoding steps cannot be split
        if official is None:
            return [], to_make
        return [ChainRun("scoring", "", inputs.hits(official.run_id), official.run_id)], to_make
    chain = [ChainRun("scoring", steps[0].change, inputs.hits(card.run_id), card.run_id)]
    for step in steps[1:]:
        meta = found[step.name]
        chain.append(ChainRun(step.name, step.change, inputs.hits(meta.run_id) if meta else None,
                              meta.run_id if meta else None, step.same))
    return chain, to_make


def published_ends(rows: list[dict[str, Any]], spec: ModelSpec, release: str) -> dict[str, dict[str, float]]:
    """Per task, the model's MTEB file value (imported) and its leaderboard value (published), where known.

    >>> row = {"source_kind": "mteb", "model": "Qwen/Qwen3-Embedding-8B", "task_short": "c2c",
    ...        "metric": "ndcg_at_10", "value": 0.549}
    >>> published_ends([row], resolve("qwen3-embedding-8b"), "release_v2603")["c2c"]
    {'mteb': 0.549, 'leaderboard': 0.32}
    """
    from coreb_core.results.published import published_rows

    version = published_version(release)
    table = f"published:{LEADERBOARD_TABLE.format(version=version)}" if version else None
    out: dict[str, dict[str, float]] = {}
    for row in [*rows, *published_rows()]:
        task, value = row.get("task_short"), row.get("value")
        if row.get("metric") != NDCG_10.column or task not in TASK_NAMES or not isinstance(value, float):
            continue
        # MTEB's CoREB tasks are release_v2603's rows (its descriptive statistics match them): its files end no
        # other release's waterfall.
        if row.get("source_kind") == "mteb" and row.get("model") == spec.name and version == MTEB_VERSION:
            out.setdefault(task, {})["mteb"] = value
        elif table and row.get("source") == table and spec.leaderboard_name and row.get("model") == spec.leaderboard_name:
            out.setdefault(task, {})["leaderboard"] = value
    return {t: dict(sorted(out[t].items(), key=lambda kv: kv[0] != "mteb")) for t in TASK_NAMES if t in out}


def build(release: str, model: str, *, device: str = "cpu", task: str | None = None,
          run_ids: tuple[str, ...] | None = None, inputs: Inputs | None = None) -> WaterfallView:
    """The waterfall of ``model``'s stored runs on ``release`` (of one task, or every one; among ``run_ids`` when
    given: the page passes the release's runs, so that a new run rebuilds its cached view).

    >>> view = build("demo_v2603", "bm25", inputs=Inputs(root))
    >>> [(r["step"], r["change"] and round(r["change"] * 100, 1)) for r in view.to_json()["steps"] if r["task"] == "c2t"]
    [('mteb', None), ('graded', -3.0), ('anchor', 0.0)]
    """
    inputs = inputs or Inputs()
    spec = resolve(model)
    if spec.kind == "api":
        raise CorebError(f"{spec.id} is an API model: the waterfall's steps change a local model's encoding (prompts, "
                         "length), which its API does not expose, so it has no waterfall")
    store = inputs.store(release)
    metas = [m for m in inputs.runs_of(release).values() if m.model == spec.id and m.kind in (None, "retrieval")
             and (run_ids is None or m.run_id in run_ids)]
    ends = {t: v for t, v in published_ends(inputs.result_rows, spec, release).items() if task in (None, t)}
    if not metas:
        steps = [] if spec.kind != "dense" else [s.name for s in encoding_steps(spec, device) if not s.same]
        return WaterfallView(release, spec.id, None, tuple(steps) or ("scoring",), ends)
    chain, to_make = _chain(spec, metas, inputs, device)
    fall = protocol_waterfall(store, spec.id, chain) if chain else None
    if task is not None and fall is not None:
            fall = fall._replace(table=fall.table[fall.table["task"] == task].reset_index(drop=True))
    return WaterfallView(release, spec.id, fall, tuple(to_make), ends)


def make_missing(release: str, model: str, *, device: str = "cpu", tasks: tuple[str, ...] = TASK_NAMES,
                 progress: Progress = silent, root: Path | None = None) -> list[str]:
    """Run (encode, search, store) every encoding step of ``model`` not stored on ``release``, for ``tasks``; the new
    run ids. Each run is an ordinary stored run, named "<model> · waterfall: <step>"."""
    from coreb_core.retrieval.pipeline import run_retrieval

    spec = resolve(model)
    inputs = Inputs(root)
    metas = [m for m in inputs.runs_of(release).values() if m.model == spec.id]
    if spec.kind != "dense":
        return [] if metas else [run_retrieval(spec.id, release, tasks, root=root, progress=progress).run_id]
    made = []
    for step in encoding_steps(spec, device):
        if step.same or _newest(metas, step) is not None:
            continue
        made.append(run_retrieval(spec.id, release, tasks, device=device, root=root, progress=progress,
                                  encoding=step.encoding, label=f"{spec.id} · waterfall: {step.name}").run_id)
    return made
