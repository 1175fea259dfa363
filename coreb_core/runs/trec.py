"""TREC run files in: six columns per line, read as pytrec_eval reads them (the rank column ignored), every bad
line named with its file, line and field.

Example:
    >>> is_trec_line("q1 Q0 d1 1 0.9 bm25")
    True
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from coreb_core.errors import DataError, DataProblem
from coreb_core.input_paths import check_file
from coreb_core.runs.hits import MAX_RANK, hits_from_lists

INTEGER = re.compile(r"^-?[0-9]+$")  # ASCII only: str.isdigit() also accepts '²', which int() refuses
# A score as trec_eval writes and reads it: ASCII decimal or scientific notation, or nan/inf (refused as not
# finite). float() alone would also take Arabic-Indic digits ('١٠'), '1_0' and surrounding spaces.
NUMBER = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|nan|inf|infinity)", re.IGNORECASE)


def parse_score(text: str) -> float | None:
    """A TREC score column as a float, or None when it is no ASCII number.

    >>> parse_score("0.9"), parse_score("-1.5e-3"), parse_score("1_0"), parse_score("١٠"), parse_score("0x10")
    (0.9, -0.0015, None, None, None)
    >>> parse_score("nan"), parse_score("-Infinity")
    (nan, -inf)
    """
    return float(text) if NUMBER.fullmatch(text) else None


def is_trec_line(line: str) -> bool:
    """Whether ``line`` reads as a TREC run line: six columns, the fifth (the score) a number. A file
    whose first line is not one is not a TREC run, and none of its lines is quoted in an error.

    >>> is_trec_line("q1 Q0 d1 1 0.9 bm25"), is_trec_line("# written by the deploy tool on host")
    (True, False)
    """
    parts = line.split()
    return len(parts) == 6 and parse_score(parts[4]) is not None


def read_trec_run(path: Path, task_of: dict[str, str]) -> pd.DataFrame:
    """Read ``qid Q0 docid rank score tag`` lines. Order comes from the scores (descending, ties by doc
    id descending), and the rank column is ignored, as trec_eval ignores it (``hits_from_lists``). A rank
    that is no 32-bit whole number is refused (one line naming file, row and field). A FIFO, a device or
    a file over the size limit is refused unopened; a file whose first line is not a TREC line is
    refused without quoting it.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "run.trec"
    >>> _ = path.write_text("q1 Q0 d1 1 0.9 bm25\\nq1 Q0 d2 2 0.4 bm25\\n")
    >>> read_trec_run(path, {"q1": "t2c"})
      task query_id doc_id  rank  score  in_top_k
    0  t2c       q1     d1     1    0.9      True
    1  t2c       q1     d2     2    0.4      True
    """
    problems: list[DataProblem] = []
    lists: dict[str, list[tuple]] = {}  # doc, score and the file's rank (checked, then ignored)
    seen: set[tuple[str, str]] = set()
    check_file(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError([DataProblem(str(path), "-", "-", f"cannot read run file ({exc.strerror or type(exc).__name__})")]) from None
    except UnicodeDecodeError as exc:
        raise DataError([DataProblem(str(path), "-", "-", f"not UTF-8 text (byte {exc.start})")]) from None
    first = next(((n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()), None)
    if first and not is_trec_line(first[1]):
        raise DataError([DataProblem(str(path), first[0], "-", "not a TREC run: expected 6 columns, "
                                                                "qid Q0 docid rank score tag, the score a number")])
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 6:
            # The line itself is not quoted: it need not be a run line at all.
            problems.append(DataProblem(str(path), number, "-",
                                        f"expected 6 columns (qid Q0 docid rank score tag), found {len(parts)}"))
            continue
        qid, _, doc, rank, score, _ = parts
        # trec_eval ignores the column (so do we), but a rank that is no number means a broken line
        given = int(rank) if INTEGER.match(rank) else None
        if given is None or abs(given) > MAX_RANK:
            problems.append(DataProblem(str(path), number, "rank", f"must be a 32-bit whole number (at most {MAX_RANK})",
                                        rank))
            continue
        value = parse_score(score)
        if value is None:
            problems.append(DataProblem(str(path), number, "score", "not a number (ASCII decimal or scientific "
                                                                    "notation)", score))
            continue
        if not np.isfinite(value):
            problems.append(DataProblem(str(path), number, "score", "must be finite", score))
            continue
        if (qid, doc) in seen:
            problems.append(DataProblem(str(path), number, "docid", "duplicate document for this query", doc))
            continue
        seen.add((qid, doc))
        lists.setdefault(qid, []).append((doc, value, given))
    if not lists and not problems:
        problems.append(DataProblem(str(path), "-", "-", "file has no run lines"))
    if problems:
        raise DataError(problems[:20])
    return hits_from_lists(task_of, lists, str(path))
