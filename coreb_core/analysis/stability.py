"""Stability across releases: does a model lose to the same kinds of traps on v2602 as on v2603?

The releases are problem-disjoint (no query or document is shared), so the comparison is by kind, not by
document. For one model's run on each release, the *trap-win rate per judged trap* of a group is the share
of its judged traps (in queries that have a positive) that the run ranks above the query's best positive
(``coreb_core.analysis.traps.wins``' definition, and ``kind_shares``' ``win_rate``). Per task and group (trap kind, bug kind where the
corpus records one, subtask): both rates, their difference (second release − first) with Newcombe's
95% interval, and the two-proportion z-test's p-value. An interval that excludes 0 says the rate moved
between releases more than sampling explains.

Example (CoREB-mini: a BM25 run on each release):

    >>> from coreb_core.analysis.traps.wins import trap_wins
    >>> from coreb_core.data.store import Store
    >>> from coreb_core.retrieval.pipeline import run_retrieval
    >>> from coreb_core.runs.folders import read_hits
    >>> old = Store("demo_v2602", root)
    >>> first = trap_wins(old, {"bm25": read_hits(run_retrieval("bm25", "demo_v2602", root=root).run_id)})
    >>> second = trap_wins(store, {"bm25": read_hits(bm25)})
    >>> shift = release_stability(first, second)
    >>> shift.by_kind.query("task == 't2c'")[["kind", "traps_a", "rate_a", "traps_b", "rate_b"]].round(3)
                   kind  traps_a  rate_a  traps_b  rate_b
    5  failing_solution     1217   0.214     1222   0.201
    6    wrong_language      717   0.251      712   0.261
    >>> shift.by_subtask.columns.tolist()[:4]
    ['task', 'subtask', 'traps_a', 'wins_a']
"""
from __future__ import annotations

from typing import Literal, NamedTuple

import numpy as np
import pandas as pd

from coreb_core.analysis.proportions import difference_interval, two_proportion_p
from coreb_core.analysis.traps.wins import TrapWins
from coreb_core.errors import CorebError, check_choice
from coreb_core.runs.meta import RunMeta

StabilityLevel = Literal["kind", "bug", "subtask"]
STABILITY_LEVELS: tuple[StabilityLevel, ...] = ("kind", "bug", "subtask")
COLUMNS = ["traps_a", "wins_a", "rate_a", "traps_b", "wins_b", "rate_b", "difference", "low", "high", "p_value"]


class ReleaseStability(NamedTuple):
    """``release_stability``'s result: run ``a`` on ``release_a`` against run ``b`` on ``release_b``.

    Each frame has one row per task and group value (``kind``, ``bug`` or ``subtask``): traps_a, wins_a,
    rate_a, the same for b, difference (rate_b − rate_a), low, high (Newcombe 95%), p_value (two-sided
    two-proportion z-test). A group absent from one release has 0 traps there and NaN rates. ``by_bug``
    is empty where neither corpus records bug kinds (the real CoREB does not).
    """

    run_a: str
    release_a: str
    run_b: str
    release_b: str
    by_kind: pd.DataFrame
    by_bug: pd.DataFrame
    by_subtask: pd.DataFrame

    def level(self, name: StabilityLevel) -> pd.DataFrame:
        """The frame of one of ``STABILITY_LEVELS``."""
        return {"kind": self.by_kind, "bug": self.by_bug, "subtask": self.by_subtask}[
            check_choice(name, STABILITY_LEVELS, "level")]


def counterpart(meta: RunMeta, others: list[RunMeta]) -> RunMeta | None:
    """The run of ``others`` (another release's) to set beside ``meta``: the newest of the same model,
    profile and kind, or None.

    >>> a = RunMeta(run_id="bm25__release_v2603__x", model="bm25", release="release_v2603", kind="retrieval")
    >>> old = [RunMeta(run_id="bm25__release_v2602__1", model="bm25", release="release_v2602", kind="retrieval",
    ...                created="2026-12-01T00:00:00"),
    ...        RunMeta(run_id="bm25__release_v2602__2", model="bm25", release="release_v2602", kind="retrieval",
    ...                created="2026-12-02T00:00:00"),
    ...        RunMeta(run_id="minilm__release_v2602__1", model="minilm", release="release_v2602", kind="retrieval")]
    >>> counterpart(a, old).run_id, counterpart(RunMeta(run_id="j", model="jina", kind="retrieval"), old)
    ('bm25__release_v2602__2', None)
    """
    same = [m for m in others if (m.model, m.profile, m.kind) == (meta.model, meta.profile, meta.kind)
            and m.release != meta.release]
    return max(same, key=lambda m: m.created or "") if same else None


def model_difference(a: RunMeta, b: RunMeta) -> str | None:
    """Why runs ``a`` and ``b`` are not one model (model, profile and kind, as ``counterpart`` matches them),
    or None: a change between them would be the model's, not the release's.

    >>> bm25 = RunMeta(run_id="r1", model="bm25", release="demo_v2602", kind="retrieval")
    >>> model_difference(bm25, RunMeta(run_id="r2", model="bm25", release="demo_v2603", kind="retrieval"))
    >>> model_difference(bm25, RunMeta(run_id="r3", model="minilm", profile="official", release="demo_v2603",
    ...                                kind="retrieval"))
    'run r1 is bm25, run r3 is minilm (profile official)'
    >>> model_difference(RunMeta(run_id="t1", kind="imported"), RunMeta(run_id="t2", kind="imported"))
    'run t1 records no model'
    """
    def words(m: RunMeta) -> str:
        return " ".join([str(m.model)] + [f"(profile {m.profile})"] * bool(m.profile)
                        + [f"({m.kind})"] * bool(m.kind and m.kind != "retrieval"))

    for m in (a, b):
        if not m.model:
            return f"run {m.run_id} records no model"
    if (a.model, a.profile, a.kind) != (b.model, b.profile, b.kind):
        return f"run {a.run_id} is {words(a)}, run {b.run_id} is {words(b)}"
    return None


def _counts(wins: TrapWins, level: str) -> pd.DataFrame:
    traps = wins.traps[wins.traps["query_has_positive"].to_numpy(dtype=bool)]
    traps = traps[traps[level].notna()]
    frame = pd.DataFrame({"task": traps["task"].astype(str).to_numpy(), level: traps[level].astype(str).to_numpy(),
                          "wins": traps["wins"].to_numpy(dtype=np.int64)})
    return frame.groupby(["task", level], sort=True).agg(traps=("wins", "size"), wins=("wins", "sum"))


def rate_shift(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """Two count tables (index: the groups; columns ``traps``, ``wins``) side by side, with both rates,
    their difference b − a, Newcombe's 95% interval and the z-test's p-value.

    >>> a = pd.DataFrame({"traps": [70], "wins": [56]}, index=pd.Index(["near_miss"], name="kind"))
    >>> b = pd.DataFrame({"traps": [80], "wins": [48]}, index=pd.Index(["near_miss"], name="kind"))
    >>> rate_shift(b, a)[["kind", "rate_a", "rate_b", "difference", "low", "high"]].round(4)
            kind  rate_a  rate_b  difference     low    high
    0  near_miss     0.6     0.8         0.2  0.0524  0.3339
    """
    both = a.add_suffix("_a").join(b.add_suffix("_b"), how="outer").fillna(0)
    ta, wa = both["traps_a"].to_numpy(np.int64), both["wins_a"].to_numpy(np.int64)
    tb, wb = both["traps_b"].to_numpy(np.int64), both["wins_b"].to_numpy(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate_a, rate_b = np.where(ta > 0, wa / ta, np.nan), np.where(tb > 0, wb / tb, np.nan)
    low, high = difference_interval(wb, tb, wa, ta)
    out = both.index.to_frame(index=False)
    for name, values in zip(COLUMNS, (ta, wa, rate_a, tb, wb, rate_b, rate_b - rate_a, low, high,
                                      two_proportion_p(wa, ta, wb, tb) if len(ta) else np.zeros(0))):
        out[name] = values
    return out


def release_stability(a: TrapWins, b: TrapWins) -> ReleaseStability:
    """Trap-win rates of one run on each of two releases, by kind, bug kind and subtask (module docstring).
    ``a`` and ``b`` hold one run each; a one-line ``CorebError`` otherwise, or when both are one release.
    """
    for wins in (a, b):
        if wins.queries["run"].nunique() != 1:
            raise CorebError("release stability compares one run per release: pass the trap wins of one run each")
    if a.release == b.release:
        raise CorebError(f"both runs are on {a.release}: stability compares two releases")
    frames = {level: rate_shift(_counts(a, level), _counts(b, level)) for level in STABILITY_LEVELS}
    return ReleaseStability(str(a.queries["run"].iloc[0]), a.release, str(b.queries["run"].iloc[0]), b.release,
                            frames["kind"], frames["bug"], frames["subtask"])
