"""Counts describing one cached release (the Data page's statistics).

Example (CoREB-mini in ``root``):
    >>> from coreb_core.data.store import Store
    >>> release_statistics(Store("demo_v2603", root))["judgments"].set_index("task").loc["t2c", "traps"]
    np.int64(1934)
"""
from __future__ import annotations

import pandas as pd

from coreb_core.data.schema import TASKS
from coreb_core.data.store import Store


def release_statistics(store: Store) -> dict[str, pd.DataFrame]:
    """Counts describing one release, from the Store's views.

    ``rows`` (config, rows), ``judgments`` (task, queries, positives = rel 2, traps = rel 1, judged
    negatives = rel 0; Store.judgment_counts), ``subtasks`` (task, subtask, queries), ``code``
    (language, verdict pass/fail/unknown, documents) and ``text`` (kind description/noise, documents).

    Example (CoREB-mini in ``root``):

    >>> stats = release_statistics(Store("demo_v2603", root))
    >>> stats["judgments"]
      task  queries  positives  traps  judged_negatives
    0  t2c      720       2802   1934                 0
    1  c2c      144        360    432                 0
    2  c2t      336        312    888                 0
    >>> stats["text"]
              kind  documents
    0  description         24
    1        noise         96
    """
    rows = pd.DataFrame(list(store.row_counts().items()), columns=["config", "rows"])
    counts = store.judgment_counts()
    judgments = pd.DataFrame([{"task": t, **counts.get(t, {"queries": 0, "positives": 0, "traps": 0,
                                                            "judged_negatives": 0})} for t in TASKS])
    subtasks = store.df("SELECT task, subtask, count(*) AS queries FROM queries GROUP BY ALL ORDER BY task, subtask")
    code = store.df("""
        SELECT language, CASE WHEN passed THEN 'pass' WHEN NOT passed THEN 'fail' ELSE 'unknown' END AS verdict,
               count(*) AS documents
        FROM documents WHERE corpus = 'code' GROUP BY ALL ORDER BY language, verdict DESC""")
    text = store.df("""
        SELECT CASE WHEN is_noise THEN 'noise' ELSE 'description' END AS kind, count(*) AS documents
        FROM documents WHERE corpus = 'text' GROUP BY ALL ORDER BY kind""")
    return {"rows": rows, "judgments": judgments, "subtasks": subtasks, "code": code, "text": text}
