"""Text and small tables the pages show, without Streamlit: the model picker's table, error lines,
and Markdown escaping of data shown in messages.

Example:
    >>> plain("*not bold*")
    '\\\\*not bold\\\\*'
"""
from __future__ import annotations

import re
from typing import Any

import pandas as pd

from coreb_core.data.schema import TASKS
from coreb_core.data.sql_console import one_line
from coreb_core.errors import CorebError, DataError, file_error
from coreb_core.retrieval.models import registry_table


def model_table() -> pd.DataFrame:
    """The registry as the model picker shows it: id, kind, name, params_b, re_runnable, why_not.

    >>> row = model_table().set_index("id").loc["voyage-code-3"]
    >>> row["kind"], bool(row["re_runnable"]), row["why_not"]
    ('api', True, None)
    """
    rows = registry_table()
    frame = pd.DataFrame([{k: r[k] for k in ("id", "kind", "name", "revision", "params_b", "re_runnable",
                                             "trust_remote_code", "card_note")} for r in rows])
    frame["why_not"] = [None if r["re_runnable"] else "it cannot be re-run here" for r in rows]
    return frame


def api_blocked(model: str) -> str | None:
    """Why an API model cannot start here and now (its key's environment variable is not set), or None.
    Names the variable, never a value.

    >>> import os
    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"VOYAGE_API_KEY": "k"}):
    ...     api_blocked("voyage-code-3") is None
    True
    """
    from coreb_core.retrieval.api_encoders import PROVIDERS, api_key
    from coreb_core.retrieval.models import resolve

    spec = resolve(model)
    try:
        api_key(PROVIDERS[spec.provider or ""], spec.id)
    except CorebError as exc:
        return f"{exc}: set it in the environment of the app's server and restart it (docs/api-models.md)."
    return None


def prompt_table(model: str, profile: str) -> pd.DataFrame:
    """The prompts a run of ``model`` under ``profile`` applies, per task and side, with their source
    (columns task, query, document, source; empty for a model without an encoder).

    >>> prompt_table("jina-code-0.5b", "card").iloc[2].to_dict()
    {'task': 'c2t', 'query': 'Find the most relevant comment given the following code snippet:\\n',
     'document': 'Candidate comment:\\n',
     'source': "jina-code-embeddings model card, INSTRUCTION_CONFIG['code2nl'] (query / passage)"}
    >>> prompt_table("bm25", "card").empty
    True
    """
    from coreb_core.retrieval.models import resolve
    from coreb_core.retrieval.profiles import encoding_for

    spec = resolve(model)
    if spec.kind != "dense":
        return pd.DataFrame(columns=["task", "query", "document", "source"])
    encoding = encoding_for(spec, profile, "cpu")
    return pd.DataFrame([{"task": task, **encoding.prompt(task)._asdict()} for task in TASKS])


def ndcg_frame(ndcg_at_10: dict[str, float]) -> pd.DataFrame:
    """task, ndcg_at_10 (task order t2c, c2c, c2t) from evaluation.score_run.

    >>> ndcg_frame({"c2t": 0.5, "t2c": 0.25})
      task  ndcg_at_10
    0  t2c        0.25
    1  c2t        0.50
    """
    return pd.DataFrame([{"task": t, "ndcg_at_10": float(ndcg_at_10[t])} for t in TASKS if t in ndcg_at_10])


def error_lines(exc: Exception) -> list[str]:
    """One line per problem: each DataProblem of a DataError, an OSError as its path and reason, else
    the message's lines joined.

    >>> from coreb_core.errors import DataProblem
    >>> error_lines(DataError([DataProblem("a.jsonl", 3, "query_id", "missing")]))
    ["a.jsonl: row 3: field 'query_id': missing"]
    >>> error_lines(ValueError("line one\\nline two"))
    ['line one line two']
    >>> error_lines(PermissionError(13, "Permission denied", "/srv/cache/runs"))
    ['/srv/cache/runs: Permission denied']
    """
    if isinstance(exc, DataError) and exc.problems:
        return [str(p) for p in exc.problems]
    if isinstance(exc, OSError):
        exc = file_error(exc)
    return [one_line(str(exc))]


# Markdown punctuation; '&' (an entity such as &amp; would become '&'); ':' before a word (Streamlit's
# :red[colour], :material/icons: and :emoji: shortcodes, and bare http:// links); a list marker or '='
# opening a line.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>|~$#!&])|:(?=\S)|(?m:^(\s*)([-+=]|\d+[.)]))")


def _escape(match: re.Match) -> str:
    if match.group(1):
        return "\\" + match.group(1)
    if match.group(3):
        return match.group(2) + match.group(3)[:-1] + "\\" + match.group(3)[-1]
    return "\\:"


def release_words(release: str) -> str:
    """A release named in a sentence: "release X", but the hub's own names already say it.

    >>> release_words("demo_v2603"), release_words("release_v2603")
    ('release demo_v2603', 'release_v2603')
    """
    return release if release.lower().startswith("release") else f"release {release}"


def plain(text: Any) -> str:
    """Backslash-escape Markdown so that data shown in st.error/st.success, captions and sentences
    stays literal text (Streamlit renders Markdown in all of them).

    >>> plain("file_a.jsonl: row 3: *bold*")
    'file\\\\_a.jsonl: row 3: \\\\*bold\\\\*'
    >>> print(plain(":red[x] $x^2$ &amp; http://x"))
    \\:red\\[x\\] \\$x^2\\$ \\&amp; http\\://x
    >>> print(plain("- not a list"), plain("1. nor this"))
    \\- not a list 1\\. nor this
    """
    return _MD_SPECIAL.sub(_escape, str(text))


def code(text: Any) -> str:
    """An inline code span showing ``text`` literally, fenced with more backticks than it holds.

    >>> print(code("demo_v2603"), code("a`b"))
    `demo_v2603` `` a`b ``
    """
    text = str(text)
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if "`" in text else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def without_release(name: str, release: str) -> str:
    """A run's name without its trailing `` · <release>`` (where the release is shown beside it already).

    >>> without_release("bm25s-mteb · release_v2603", "release_v2603"), without_release("my run", "release_v2603")
    ('bm25s-mteb', 'my run')
    >>> without_release("minilm · official · release_v2603 (2)", "release_v2603")
    'minilm · official (2)'
    """
    suffix = f" · {release}"
    if name.endswith(suffix):
        return name[: -len(suffix)]
    head, sep, number = name.rpartition(" (")  # a numbered name: "… · release (2)"
    if sep and head.endswith(suffix) and number.endswith(")") and number[:-1].isdigit():
        return f"{head[: -len(suffix)]} ({number}"
    return name
