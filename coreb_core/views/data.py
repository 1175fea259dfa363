"""The Data page's questions: a release's statistics, and the read-only SQL console over the release and the
chosen runs' hits and per-query metrics (the ``sql`` verb's console too)."""
from __future__ import annotations

import pandas as pd

from coreb_core.analysis.console_tables import console_tables
from coreb_core.data.sql_console import SqlConsole
from coreb_core.data.statistics import release_statistics
from coreb_core.views.inputs import Inputs
from coreb_core.views.scope import Scope


def statistics(scope: Scope, *, inputs: Inputs | None = None) -> dict[str, pd.DataFrame]:
    """``release_statistics`` of the scope's release (its runs do not enter)."""
    inputs = inputs or Inputs()
    return release_statistics(inputs.store(scope.release))


def console(scope: Scope, *, inputs: Inputs | None = None) -> SqlConsole:
    """A console over the release with the tables ``hits`` and ``metrics`` of the scope's runs (per-query metrics under
    the scope's scheme, v2 and v1, as the evaluation holds them). The caller closes it.

    >>> with console(Scope.of("demo_v2603", [bm25], root=root), inputs=Inputs(root)) as sql:
    ...     int(sql.query("SELECT count(DISTINCT run_id) AS n FROM hits").frame["n"].iloc[0])
    1
    """
    inputs = inputs or Inputs()
    evaluation = inputs.evaluation(scope) if scope.run_ids else None
    tables = console_tables(inputs.runs_hits(scope), inputs.names(scope), evaluation)
    return SqlConsole(inputs.store(scope.release), extra_tables=tables.as_dict())
