"""Where a query, its judged documents and its nearest other documents sit under a dense run (the Trap analysis
page's Embedding map), from the embedding cache: nothing is re-encoded."""
from __future__ import annotations

from coreb_core.analysis.embedding_map import EmbeddingMap, embedding_map
from coreb_core.analysis.traps.surface import TRAP_WIN, SurfaceBias
from coreb_core.retrieval.profiles import run_encoder_identity
from coreb_core.views.inputs import Inputs
from coreb_core.views.scope import Scope


def dense_runs(scope: Scope, *, inputs: Inputs | None = None) -> list[str]:
    """The scope's runs that have vectors (BM25, imported and reranked runs have none)."""
    inputs = inputs or Inputs()
    metas = inputs.runs_of(scope.release)
    return [r for r in scope.run_ids if r in metas and run_encoder_identity(metas[r].model_spec, metas[r].encoding)]


def map_queries(scope: Scope, surface: SurfaceBias, *, run: str, task: str, inputs: Inputs | None = None) -> list[str]:
    """The task's queries to map: the run's trap wins first (where a map explains most), then every other one."""
    inputs = inputs or Inputs()
    pairs = surface.pairs
    won = pairs[(pairs["run"] == run) & (pairs["task"] == task) & (pairs["outcome"] == TRAP_WIN)]["query_id"]
    facts = inputs.store(scope.release).query_facts
    every = facts[facts["task"] == task]["query_id"]
    return sorted(won) + sorted(set(every) - set(won))


def build(scope: Scope, *, run: str, query_id: str, neighbours: int = 10, inputs: Inputs | None = None
          ) -> EmbeddingMap:
    """``embedding_map`` of one query under the dense run ``run`` (PCA of its cached vectors)."""
    inputs = inputs or Inputs()
    return embedding_map(inputs.store(scope.release), inputs.meta(run), query_id, neighbours, scope.anchor_exclusion,
                         hits=inputs.hits(run), root=inputs.root)
