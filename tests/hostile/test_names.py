"""Names, tags and ids that look like others: a zero-width space, a right-to-left override and the other
bidirectional controls in a run name or tag, an NFD name beside its NFC twin, a full-width look-alike
(``ｂｍ２５ · demo_v2603`` beside ``bm25 · demo_v2603``), NFD ids typed for NFC ones (and printed so that
the difference shows), and a tag starting with ``-`` on the command line.
"""
from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import numpy as np
import pytest

from tests.builders import app_test
from tests.hostile.conftest import refuses, shows_error, unchanged

NFC_CAFE, NFD_CAFE = "caf\u00e9", "cafe\u0301"


def _write(root: Path, run_id: str, **meta) -> str:
    from coreb_core.runs.folders import write_run
    from coreb_core.runs.hits import hits_from_scores
    from coreb_core.runs.meta import RunMeta

    hits = hits_from_scores("t2c", ["q1"], ["d1", "d2"], np.array([[0.5, 0.9]]))
    return write_run(hits, RunMeta(run_id, **meta), root)


@pytest.fixture
def two_runs(cache) -> Path:
    """Two BM25 runs of demo_v2603 (named ``bm25 · demo_v2603`` and ``… (2)``) in an otherwise empty cache."""
    _write(cache, "r1", model="bm25", release="demo_v2603", created="2026-12-01T00:00:00")
    _write(cache, "r2", model="bm25", release="demo_v2603", created="2026-12-02T00:00:00")
    return cache


@pytest.mark.parametrize("char", ["\u200b", "\u200d", "\ufeff", "\u202e", "\u202a", "\u2066", "\u2069",
                                  "\u200e", "\u200f", "\u061c"])
def test_rename_refuses_an_invisible_or_bidi_character_naming_its_code_point(two_runs, capsys, char):
    """was: ``runs rename r2 'bm25 · demo_v2603<U+200B>'`` accepted: two names that print identically."""
    point = f"U+{ord(char):04X}"
    with unchanged(two_runs):
        line = refuses(["runs", "rename", "r2", f"bm25{char} · demo_v2603"], capsys, "run name", point)
    assert char not in line  # escaped, never printed raw


def test_tag_refuses_an_invisible_or_bidi_character(two_runs, capsys):
    """was: ``runs tag r1 'gpu<U+202E>txt.exe'`` stored a tag that prints reversed."""
    with unchanged(two_runs):
        refuses(["runs", "tag", "r1", "gpu\u202etxt.exe"], capsys, "tag", "U+202E")
        refuses(["runs", "tag", "r1", "base\u200bline"], capsys, "tag", "U+200B")


def test_an_nfd_name_is_stored_as_nfc_and_its_twin_is_refused(two_runs, capsys):
    """was: NFD ``café`` stored as given, and NFC ``café`` then accepted for another run: two runs whose names
    look the same."""
    from coreb_core.cli import main
    from coreb_core.runs.folders import run_meta

    assert main(["runs", "rename", "r1", f"bm25 {NFD_CAFE}"]) == 0
    capsys.readouterr()
    assert run_meta("r1", two_runs).name == f"bm25 {NFC_CAFE}"
    with unchanged(two_runs):
        refuses(["runs", "rename", "r2", f"bm25 {NFC_CAFE}"], capsys, "already used by run r1")


def test_a_full_width_look_alike_name_is_refused_naming_both(two_runs, capsys):
    """was: ``ｂｍ２５ · demo_v2603`` accepted beside ``bm25 · demo_v2603``."""
    with unchanged(two_runs):
        line = refuses(["runs", "rename", "r2", "\uff42\uff4d\uff12\uff15 · demo_v2603"], capsys,
                       "'\uff42\uff4d\uff12\uff15 · demo_v2603' looks like 'bm25 · demo_v2603'", "run r1",
                       "release demo_v2603")
    assert line.endswith("choose another")


def test_a_look_alike_of_a_name_stored_in_nfd_before_the_change_is_refused_and_shown_escaped(two_runs, capsys):
    """was: an NFC ``bm25 café`` accepted beside a run whose stored name is the NFD ``bm25 café``."""
    path = two_runs / "runs" / "r1" / "run.json"
    stored = json.loads(path.read_text())
    path.write_text(json.dumps({**stored, "name": f"bm25 {NFD_CAFE}"}))  # as an older version wrote it
    with unchanged(two_runs):
        refuses(["runs", "rename", "r2", f"bm25 {NFC_CAFE}"], capsys,
                "name 'bm25 caf\\xe9' looks like 'bm25 cafe\\u0301'")


def test_names_and_tags_stored_before_the_change_still_load_and_can_be_untagged(two_runs):
    """was: a tag stored in NFD could not be removed by typing it (in NFC, as keyboards do)."""
    from coreb_core.runs.folders import list_runs, run_meta, tag_run, update_run

    path = two_runs / "runs" / "r1" / "run.json"
    stored = json.loads(path.read_text())
    path.write_text(json.dumps({**stored, "name": "old\u200bname", "tags": [NFD_CAFE, "keep"]}))
    assert [m.name for m in list_runs("demo_v2603", two_runs)][0] == "old\u200bname"  # loads as stored
    assert tag_run("r1", ["new"], root=two_runs).tags == (NFD_CAFE, "keep", "new")  # kept, not refused
    assert update_run("r1", "old\u200bname", [NFD_CAFE, "keep"], two_runs).name == "old\u200bname"  # unchanged: kept
    assert tag_run("r1", remove=[NFC_CAFE], root=two_runs).tags == ("keep",)
    assert run_meta("r1", two_runs).tags == ("keep",)


def test_a_tag_starting_with_a_dash_can_be_given(two_runs, capsys):
    """was: ``runs tag r1 -draft`` refused ("the following arguments are required: tags") with no way to give it
    but ``--``; now ``--tag=-draft`` works too, and a bare ``runs tag r1`` says how."""
    from coreb_core.cli import main
    from coreb_core.runs.folders import run_meta

    assert main(["runs", "tag", "r1", "baseline", "--tag=-draft", "--tag", "+x"]) == 0
    assert main(["runs", "tag", "r1", "--", "-v2"]) == 0
    capsys.readouterr()
    assert run_meta("r1", two_runs).tags == ("baseline", "-draft", "+x", "-v2")
    assert main(["runs", "tag", "r1", "--untag", "--tag=-draft"]) == 0
    assert run_meta("r1", two_runs).tags == ("baseline", "+x", "-v2")
    capsys.readouterr()
    with unchanged(two_runs):
        refuses(["runs", "tag", "r1"], capsys, "--tag=-x", "after --")


def test_an_nfd_run_id_is_printed_escaped(two_runs, capsys):
    """was: ``error: not a run id: 'code_é01'``, which reads like the NFC id; the combining accent is now shown."""
    with unchanged(two_runs):
        refuses(["runs", "rename", "code_e\u030101", "x"], capsys, "not a run id: 'code_e\\u030101'")


@pytest.fixture
def accented(cache) -> Path:
    """The tiny release, its T2C search query's id holding an NFC ``é``."""
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from tests import dump

    rows = dump.rows()
    old = rows["text2code_queries"][1]["query_id"]
    rows["text2code_queries"][1]["query_id"] = f"q_t2c_{NFC_CAFE}_0002"
    rows["text2code_qrels"] = [{**r, "query_id": f"q_t2c_{NFC_CAFE}_0002"} if r["query_id"] == old else r
                               for r in rows["text2code_qrels"]]
    import_release(read_local(dump.write_parquet_folder(cache.parent / "src", rows))[2], "tiny", cache)
    return cache


def test_the_inspector_finds_a_query_id_given_in_nfd(accented):
    """was: ``query 'q_t2c_café_0002' is not in release tiny`` for the NFD form of a stored NFC id."""
    from coreb_core.analysis.inspection import query_details
    from coreb_core.data.store import Store

    nfd_id = unicodedata.normalize("NFD", f"q_t2c_{NFC_CAFE}_0002")
    with Store("tiny", accented) as store:
        assert query_details(store, nfd_id).query_id == f"q_t2c_{NFC_CAFE}_0002"
    at = app_test("inspector.py", accented, {"release": "tiny", "task": "t2c", "query": nfd_id}).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any(t.value.startswith(f"q_t2c_{NFC_CAFE}_0002 · ") for t in at.text), [t.value for t in at.text]


def test_a_document_link_with_the_query_id_in_nfd_opens_the_document(accented):
    """was: the query opened but ``doc=`` was dropped: the page compared the link's NFD id with the stored NFC
    id byte for byte, so a copied link in the other normal form lost the open document."""
    from coreb_core.retrieval.pipeline import run_retrieval
    from tests import dump

    run_id = run_retrieval("bm25", "tiny", tasks=("t2c",), root=accented).run_id
    nfc_id = f"q_t2c_{NFC_CAFE}_0002"
    old_id = dump.rows()["text2code_queries"][1]["query_id"]
    doc = next(r["doc_id"] for r in dump.rows()["text2code_qrels"] if r["query_id"] == old_id)
    at = app_test("inspector.py", accented, {"release": "tiny", "task": "t2c", "runs": run_id,
                                             "query": unicodedata.normalize("NFD", nfc_id), "doc": doc}).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any(t.value.startswith(f"{doc} · ") for t in at.text), [t.value for t in at.text]
    assert at.button(key=f"insp_close_{nfc_id}") is not None


def test_an_unknown_query_id_is_printed_escaped(accented):
    """was: ``query 'q_t2c_cafè_0002' is not in release tiny``: an unknown id shown exactly like a known one."""
    at = app_test("inspector.py", accented, {"release": "tiny", "task": "t2c",
                                             "query": "q_t2c_cafe\u0300_0002"}).run()
    from coreb_core.present.format import plain

    shows_error(at, plain("query 'q_t2c_cafe\\u0300_0002' is not in release tiny"))


def test_the_run_page_refuses_invisible_and_look_alike_names(tiny_cache):
    """was: the Run page's "Name and tags" form saved ``bm25<U+202E> · tiny`` and ``ｂｍ２５ · tiny``."""
    from coreb_core.runs.folders import run_meta

    _write(tiny_cache, "r1", model="bm25", release="tiny", created="2026-12-01T00:00:00")
    _write(tiny_cache, "r2", model="bm25", release="tiny", created="2026-12-02T00:00:00")
    at = app_test("run_retrieval.py", tiny_cache, {"release": "tiny"}).run()
    assert not at.exception
    at.selectbox(key="rename_run").set_value("r2").run()
    with unchanged(tiny_cache):
        at.text_input(key="rename_name_r2").set_value("bm25\u202e · tiny")
        next(b for b in at.button if b.label == "Save name and tags").click().run()
        shows_error(at, "U+202E")
        at.text_input(key="rename_name_r2").set_value("\uff42\uff4d\uff12\uff15 · tiny")
        next(b for b in at.button if b.label == "Save name and tags").click().run()
        shows_error(at, "looks like", "bm25 · tiny")
    assert run_meta("r2", tiny_cache).name == "bm25 · tiny (2)"
