"""A release's meta fields: self-contradicting test results (a pass rate of 1.5, 25 tests passed of 20), a
code row without ``passed``, a hub export without its ``meta_passed`` column, ``meta_*`` values whose type
has drifted from the real rows' (a string where they hold numbers or booleans), and a nested ``meta`` beside
the flat ``meta_*`` columns that disagrees with them. Each is refused with one line naming the file, row
and field, exit status 2, and the cache stays byte-identical; the same rows without the fault import.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from coreb_core.data.store import Store
from coreb_core.present.format import plain
from tests import dump
from tests.builders import app_test
from tests.hostile.conftest import flat_hub_release, refuses, shows_error, unchanged


def _nested(tmp_path: Path, change) -> Path:
    """The tiny release as runner JSONL files (nested ``meta``), after ``change(rows)``."""
    rows = dump.rows()
    change(rows)
    return dump.write_jsonl(tmp_path / "jsonl", rows)


def _passed(cache: Path, release: str) -> dict[str, bool | None]:
    with Store(release, cache) as store:
        return dict(store.sql("SELECT doc_id, passed FROM documents WHERE corpus = 'code'").fetchall())


# ---------------------------------------------------------------- test results that contradict themselves

def test_pass_rate_above_one(tmp_path, tiny_cache, capsys):
    """was: stored as given; the cache held a solution that passed 150% of its tests."""
    folder = _nested(tmp_path, lambda r: r["code_corpus"][1]["meta"].update(pass_rate=1.5))
    with unchanged(tiny_cache):
        line = refuses(["import-data", str(folder), "--release", "x"], capsys,
                       "code_corpus_v2.jsonl: row 2: field 'meta.pass_rate'", "must be between 0 and 1")
    assert line.endswith(": 1.5")


def test_more_tests_passed_than_run(tmp_path, tiny_cache, capsys):
    """was: stored as given (test_passed 25 of test_total 20), shown as "25/20" in the trap reasons."""
    folder = _nested(tmp_path, lambda r: r["code_corpus"][2]["meta"].update(test_passed=25, test_total=20))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "code_corpus_v2.jsonl: row 3: field 'meta.test_passed'", "must not exceed meta.test_total (20): 25")


def test_negative_test_count(tmp_path, tiny_cache, capsys):
    """was: stored as given (test_total -4)."""
    folder = _nested(tmp_path, lambda r: r["code_corpus"][0]["meta"].update(test_total=-4))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "code_corpus_v2.jsonl: row 1: field 'meta.test_total'", "must not be negative")


# ---------------------------------------------------------------- required meta

def test_code_row_without_passed(tmp_path, tiny_cache, capsys):
    """was: imported; the solution's ``passed`` became NULL, so it was neither a passing nor a failing one."""
    folder = _nested(tmp_path, lambda r: r["code_corpus"][3]["meta"].pop("passed"))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "code_corpus_v2.jsonl: row 4: field 'meta.passed'", "required meta field is missing")


def test_hub_export_without_its_meta_passed_column(tmp_path, tiny_cache, capsys):
    """was: imported without a word; every code document got ``passed = NULL`` (all 1,744 on the real v2603)."""
    def drop(rows):
        for row in rows["code_corpus"]:
            del row["meta_passed"]

    folder = flat_hub_release(tmp_path, drop)
    with unchanged(tiny_cache):
        line = refuses(["import-data", str(folder), "--release", "x"], capsys,
                       "code_corpus.jsonl: row -: field 'meta.passed'", "missing from every row")
    assert "row 1:" not in line  # one line for the file, not one per row


def test_query_without_its_problem(tmp_path, tiny_cache, capsys):
    """was: imported; the query's problem_id became NULL, so no trap or v1 judgment could be linked to it."""
    folder = flat_hub_release(tmp_path, lambda r: r["code2text_queries"][1].update(meta_source_problem_id=None))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "code2text_queries.jsonl: row 2: field 'meta.source_problem_id'", "required meta field is missing")


# ---------------------------------------------------------------- drifted types

@pytest.mark.parametrize(("field", "value", "kind"), [
    ("meta_pass_rate", "1.0", "a finite number, not str"),
    ("meta_test_total", "4", "a whole number, not str"),
    ("meta_passed", "false", "true or false, not str"),
    ("meta_passed", 0, "true or false, not int"),
    ("meta_source_problem_id", 3487, "a string, not int"),
], ids=["pass_rate-string", "test_total-string", "passed-string", "passed-zero", "problem-number"])
def test_flat_meta_value_of_a_drifted_type(tmp_path, tiny_cache, capsys, field, value, kind):
    """was: imported without a word; the store's TRY_CAST read "false" as true-or-NULL and "1.0" as a number."""
    folder = flat_hub_release(tmp_path, lambda r: r["code_corpus"][4].update({field: value}))
    with unchanged(tiny_cache):
        line = refuses(["import-data", str(folder), "--release", "x"], capsys,
                       f"code_corpus.jsonl: row 5: field 'meta.{field.removeprefix('meta_')}'", f"must be {kind}")
    assert line.endswith(f": {value!r}")


def test_noise_flag_of_a_drifted_type(tmp_path, tiny_cache, capsys):
    """was: imported; a noise text flagged "yes" was read by the store as NULL, i.e. not noise."""
    folder = flat_hub_release(tmp_path, lambda r: r["text_corpus"][2].update(meta_is_noise_sample="yes"))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "text_corpus.jsonl: row 3: field 'meta.is_noise_sample'", "must be true or false, not str")


# ---------------------------------------------------------------- two sources for one field

def test_nested_meta_that_contradicts_the_flat_columns(tmp_path, tiny_cache, capsys):
    """was: the nested meta silently won: a failing solution (``meta_passed`` false) was stored as passing."""
    folder = flat_hub_release(tmp_path, lambda r: r["code_corpus"][2].update(meta={"passed": True}))
    with unchanged(tiny_cache):
        refuses(["import-data", str(folder), "--release", "x"], capsys,
                "code_corpus.jsonl: row 3: field 'meta.passed'", "meta_passed and meta.passed disagree",
                "(False against True)")


def test_nested_meta_that_repeats_the_flat_columns_imports(tmp_path, tiny_cache, capsys):
    """was: a nested null hid the flat value (``pass_rate`` stored as null). A nested meta that agrees with the
    flat columns, or adds a field of its own, is no conflict: it imports, each document keeping its ``passed``."""
    def repeat(rows):
        rows["code_corpus"][2]["meta"] = {"passed": False, "note": "re-run"}
        rows["code_corpus"][0]["meta"] = json.dumps({"passed": True, "pass_rate": None})  # a null hides nothing

    folder = flat_hub_release(tmp_path, repeat)
    from coreb_core.cli import main

    assert main(["import-data", str(folder), "--release", "x"]) == 0, capsys.readouterr().err
    passed = _passed(tiny_cache, "x")
    assert passed == {f"code_v202601_{n:05d}": n != 3 for n in range(1, 7)}
    with Store("x", tiny_cache) as store:
        meta = json.loads(store.sql("SELECT meta FROM documents WHERE doc_id = 'code_v202601_00001'").fetchone()[0])
    assert meta["pass_rate"] == 1.0  # the flat value, not the nested null


# ---------------------------------------------------------------- the app

def test_run_page_upload_without_passed_shows_the_line(tmp_path, tiny_cache):
    """was: the upload imported and the page reported success."""
    folder = _nested(tmp_path, lambda r: r["code_corpus"][3]["meta"].pop("passed"))
    files = [(p.name, p.read_bytes(), "application/octet-stream") for p in sorted(folder.iterdir())]
    at = app_test("run_retrieval.py", tiny_cache, {"release": "tiny"}).run()
    assert not at.exception
    with unchanged(tiny_cache):
        at.text_input(key="ds_release").set_value("x")
        at.get("file_uploader")[0].set_value(files)
        at.run()
        at.button(key="ds_up").click().run()
    shows_error(at, plain("code_corpus_v2.jsonl: row 4: field 'meta.passed'"), "required meta field is missing")
    assert not at.success
