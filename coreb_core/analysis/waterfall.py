"""Why our number is not the leaderboard's: a waterfall from MTEB's protocol to CoREB's, one change at a time, each
step's change in nDCG@10 per task.

The steps, in order (each scored with the official evaluator; ``coreb_core.retrieval.protocol_steps`` for the
encoding half):

1. ``mteb``: the start. MTEB's protocol: the model encoded as its card says, scored on the positives-only qrels
   (a query without a positive, C2T's 190 ``c2t_match`` label-0 pairs, is left out) with the C2C anchor kept in the
   ranked list (scheme ``mteb``);
2. ``graded``: the graded qrels (scheme ``v2``): the traps are judged, and a query without a positive counts, as 0;
3. ``anchor``: the C2C anchor excluded from its own ranked list, as the official evaluator does;
4. ``prompts``, ``length``, ``precision``, ``encoder``: the encoding steps, each its own stored run, scored as in 3.
   The last is the official profile: the leaderboard's protocol.

A step that changes nothing for the model (``same``) adds 0 and needs no run; an encoding step whose run is not
stored is folded into the next stored one, whose change then names both (``missing`` lists them). Without the card's
run the scoring steps are taken on the official run (the encoding steps are then missing).

Example (CoREB-mini, the BM25 run of ``root``: a lexical run has the scoring steps only):
    >>> from coreb_core.runs.folders import read_hits
    >>> fall = protocol_waterfall(store, "bm25", [ChainRun("scoring", "", read_hits(bm25), bm25)])
    >>> fall.table.query("task == 'c2t'")[["step", "queries", "ndcg_at_10", "change"]].round(4)
         step  queries  ndcg_at_10  change
    6    mteb      312      0.4157     NaN
    7  graded      336      0.3860 -0.0297
    8  anchor      336      0.3860  0.0000
"""
from __future__ import annotations

from typing import NamedTuple

import pandas as pd

from coreb_core.data.measures import NDCG_10
from coreb_core.data.schema import TASK_NAMES
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.evaluation.evaluate import evaluate
from coreb_core.evaluation.schemes import MTEB, V2, Scheme

COLUMN = NDCG_10.column  # the one measure every step is scored on (the papers' headline)
SCORING_STEPS: tuple[tuple[str, str, Scheme, bool], ...] = (
    ("mteb", "MTEB's protocol: positives-only qrels (queries without a positive left out), C2C anchor kept",
     MTEB, False),
    ("graded", "qrels: positives only → graded (traps judged; a query without a positive counts, as 0)", V2, False),
    ("anchor", "C2C anchor: kept → excluded from its own ranked list", V2, True),
)


class ChainRun(NamedTuple):
    """One run of the chain: ``name`` (``scoring`` for the run the scoring steps use: the card's when stored; an
    encoding step's name otherwise), the change in words, its hits (None: not stored) and id."""

    name: str
    change: str
    hits: pd.DataFrame | None
    run_id: str | None
    same: bool = False


class Waterfall(NamedTuple):
    """``table``: one row per task and step, in step order: step, description (the change in words), run (the run scored), scheme,
    anchor_excluded, queries, ndcg_at_10, change (from the step before; NaN at the start), same (the step changes
    nothing for this model). ``missing``: encoding steps without a stored run (folded into the next)."""

    release: str
    model: str
    table: pd.DataFrame
    missing: tuple[str, ...]

    def total(self, task: str) -> float:
        """The end minus the start for one task."""
        rows = self.table[self.table["task"] == task]
        return float(rows[COLUMN].iloc[-1] - rows[COLUMN].iloc[0])


def _means(store: Store, hits: pd.DataFrame, scheme: Scheme, anchor_exclusion: bool) -> pd.DataFrame:
    per_query = evaluate(store, hits, scheme, anchor_exclusion=anchor_exclusion)
    return per_query.groupby("task")[COLUMN].agg(["size", "mean"]).rename(columns={"size": "queries", "mean": COLUMN})


def protocol_waterfall(store: Store, model: str, chain: list[ChainRun]) -> Waterfall:
    """The waterfall of ``chain``: its first run gets the scoring steps, every later one is an encoding step
    (module docstring). Runs that are None are folded into the next one; ``same`` steps add a zero row."""
    if not chain or chain[0].hits is None:
        raise CorebError("the waterfall needs a stored run to score MTEB's protocol on")
    rows, missing, pending = [], [], []
    previous: pd.DataFrame | None = None

    def add(step: str, change: str, run: str | None, scheme: Scheme, excluded: bool, means: pd.DataFrame,
            same: bool) -> None:
        nonlocal previous
        for task in (t for t in TASK_NAMES if t in means.index):
            before = previous.loc[task, COLUMN] if previous is not None and task in previous.index else None
            value = means.loc[task, COLUMN]
            rows.append({"step": step, "description": change, "run": run, "scheme": str(scheme), "anchor_excluded": excluded,
                         "task": task, "queries": int(means.loc[task, "queries"]), COLUMN: float(value),
                         "change": float(value - before) if before is not None else float("nan"), "same": same})
        previous = means

    first = chain[0]
    for step, change, scheme, excluded in SCORING_STEPS:
        add(step, change, first.run_id, scheme, excluded, _means(store, first.hits, scheme, excluded), False)
    for link in chain[1:]:
        if link.same and previous is not None:
            add(link.name, link.change, None, V2, True, previous, True)
            continue
        if link.hits is None:
            missing.append(link.name)
            pending.append(link.change)
            continue
        change = " + ".join([*pending, link.change])
        name = " + ".join([*missing[len(missing) - len(pending):], link.name])
        pending = []
        add(name, change, link.run_id, V2, True, _means(store, link.hits, V2, True), False)
    frame = pd.DataFrame(rows)
    order = {step: n for n, step in enumerate(dict.fromkeys(frame["step"]))}
    frame = frame.sort_values(["task", "step"], key=lambda c: c.map(order) if c.name == "step" else c.map(
        {t: n for n, t in enumerate(TASK_NAMES)})).reset_index(drop=True)
    return Waterfall(store.release, model, frame, tuple(missing))
