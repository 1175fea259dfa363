"""``Inputs``: where a view reads what it is built from, and the intermediate results several views share.

The CLI builds a view with a fresh ``Inputs`` (each input read once per command); the app passes its own
subclass (``ui/cache.py``), which answers the same questions from its per-server caches, so the page and the verb
compute one thing in one way and differ only in how long they keep it."""
from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any, Mapping

import pandas as pd

from coreb_core.analysis.hubs import hubs
from coreb_core.analysis.traps.wins import TrapWins, trap_wins
from coreb_core.data.schema import APP_GROUPINGS
from coreb_core.data.store import Store
from coreb_core.evaluation.evaluate import Evaluation, analyse_many
from coreb_core.evaluation.schemes import V1, V2
from coreb_core.evaluation.stored_joins import StoredRun
from coreb_core.runs.folders import list_runs, read_hits, run_meta
from coreb_core.runs.meta import RunMeta, run_name
from coreb_core.views.scope import Scope


def warm_kernels() -> None:
    """Load the compiled evaluation kernels (compiling them when their cache is missing): the app's warm-up, so the
    first page that scores does not pay for it."""
    from coreb_core.evaluation.compile import compile_kernels

    compile_kernels()


def scope_evaluation(store: Store, hits: Mapping[str, pd.DataFrame | StoredRun], scope: Scope) -> Evaluation:
    """The scope's runs scored once for every view: per-query metrics under the scope's scheme, v2 and v1, the trap
    table and the app's group means (``analyse_many``). Runs by reference (``StoredRun``) score from their
    cached joins."""
    schemes = tuple(dict.fromkeys([scope.scheme, V2, V1]))
    return analyse_many(store, hits, schemes, scope.anchor_exclusion, traps=True, groupings=APP_GROUPINGS)


def scope_trap_wins(store: Store, hits: dict[str, pd.DataFrame], scope: Scope) -> TrapWins:
    """Every judged trap and scored query of the scope's runs, every task (``trap_wins``; the scheme does not enter:
    a trap win compares grades 1 and 2 as judged)."""
    return trap_wins(store, hits, scope.anchor_exclusion)


class Inputs:
    """A view's inputs, each read or computed once per instance.

    >>> inputs = Inputs(root)
    >>> scope = Scope.of("demo_v2603", [bm25], root=root)
    >>> inputs.evaluation(scope) is inputs.evaluation(scope), inputs.evaluation(scope).schemes
    (True, ('v2', 'v1'))
    >>> int(inputs.trap_wins(scope).traps.query("task == 't2c'")["wins"].sum())
    432
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = root
        self._stores: dict[str, Store] = {}
        self._hits: dict[str, pd.DataFrame] = {}
        self._evaluations: dict[tuple, Evaluation] = {}
        self._wins: dict[tuple, TrapWins] = {}
        self._hubs: dict[tuple, dict[str, int]] = {}

    def store(self, release: str) -> Store:
        """The release's Store (one per release and instance)."""
        if release not in self._stores:
            self._stores[release] = Store(release, self.root)
        return self._stores[release]

    def hits(self, run_id: str) -> pd.DataFrame:
        """A stored run's hits."""
        if run_id not in self._hits:
            self._hits[run_id] = read_hits(run_id, self.root)
        return self._hits[run_id]

    def runs_hits(self, scope: Scope) -> dict[str, pd.DataFrame]:
        """Run id -> hits, for every run of the scope, in its order."""
        return {run_id: self.hits(run_id) for run_id in scope.run_ids}

    def meta(self, run_id: str) -> RunMeta:
        """A stored run's provenance (``run.json``)."""
        return run_meta(run_id, self.root)

    def names(self, scope: Scope) -> dict[str, str]:
        """Run id -> the name shown for it (``run_name``), for every run of the scope."""
        return {run_id: run_name(self.meta(run_id)) for run_id in scope.run_ids}

    def runs_of(self, release: str) -> dict[str, RunMeta]:
        """Run id -> provenance of every stored run of ``release``, oldest first."""
        return {m.run_id: m for m in sorted(list_runs(release, self.root), key=lambda m: m.created or "")}

    @cached_property
    def result_rows(self) -> list[dict[str, Any]]:
        """Every stored number with its provenance: imported results and the bundled published figures."""
        from coreb_core.results.imported import all_rows

        return all_rows(self.root)

    def evaluation(self, scope: Scope) -> Evaluation:
        """``scope_evaluation`` of the scope, once per instance."""
        key = (scope.release, scope.version, scope.run_ids, str(scope.scheme), scope.anchor_exclusion)
        if key not in self._evaluations:
            stored = {run_id: StoredRun(run_id, self.root) for run_id in scope.run_ids}
            self._evaluations[key] = scope_evaluation(self.store(scope.release), stored, scope)
        return self._evaluations[key]

    def hubs(self, scope: Scope, run_id: str, task: str, k: int = 10, top: int = 10) -> dict[str, int]:
        """Doc id -> top-``k`` lists holding it, for the ``top`` hubs of one run on ``task`` (``analysis.hubs``), once
        per instance: the inspector marks them."""
        key = (scope.release, scope.version, run_id, task, scope.anchor_exclusion, k, top)
        if key not in self._hubs:
            table = hubs(self.store(scope.release), {run_id: self.hits(run_id)}, task, k, top, scope.anchor_exclusion)
            self._hubs[key] = dict(zip(table["doc_id"], table["lists"].astype(int)))
        return self._hubs[key]

    def trap_wins(self, scope: Scope) -> TrapWins:
        """``scope_trap_wins`` of the scope, once per instance."""
        key = (scope.release, scope.version, scope.run_ids, scope.anchor_exclusion)
        if key not in self._wins:
            self._wins[key] = scope_trap_wins(self.store(scope.release), self.runs_hits(scope), scope)
        return self._wins[key]
