"""Judgments (``coreb_core.data.judgments``, the ``judge`` verb, the judgment form of ``ui/judging.py``) given what a
researcher should not be able to store: ids the release does not hold (a document of the other release, a text
document for a T2C query), grades other than exactly 0, 1 or 2, annotators' names carrying terminal escapes, NUL,
bidi overrides, line breaks or spreadsheet formulas, notes with control characters. Each is refused with one line
naming the field, exit status 2 on the command line, an error line in the app, and nothing stored: the cache is
byte-identical. Judging is new with issue 45, so each docstring's "was:" is what an unchecked store would have done.
"""
from __future__ import annotations

import pytest

from coreb_core.data.judgments import judge, list_judgments
from coreb_core.data.store import Store
from coreb_core.errors import CorebError
from coreb_core.paths import judgments_file
from tests.hostile.conftest import refuses, shows_error, unchanged

RELEASE = "demo_v2603"
T2C = "q_t2c_canonical_retro_any_0001"
C2T = "q_c2t_full_retro_any_0001"
GRADE_LINE = "grade: must be 0, 1 or 2 (0 not relevant, 1 trap or partial, 2 relevant), not "


@pytest.fixture
def judged(own_cache):
    """``own_cache`` (a private CoREB-mini as COREB_CACHE) with one judgment already stored, so that a refusal is
    seen to leave an existing judgments file as it was; returns (cache, a code document judged by the T2C query)."""
    with Store(RELEASE, own_cache) as store:
        doc = store.sql("SELECT min(doc_id) FROM qrels WHERE query_id = ?", [T2C]).fetchone()[0]
    judge(RELEASE, T2C, doc, 2, "ada", root=own_cache)
    return own_cache, doc


def other_release_doc(root) -> str:
    """A code document id of demo_v2602 that demo_v2603 does not hold (found with SQL over both releases)."""
    with Store("demo_v2602", root) as old, Store(RELEASE, root) as new:
        ids = {d for (d,) in new.sql("SELECT doc_id FROM documents").fetchall()}
        only_old = [d for (d,) in old.sql("SELECT doc_id FROM documents WHERE corpus = 'code' ORDER BY doc_id").fetchall()
                    if d not in ids]
    assert only_old
    return only_old[0]


# value, what the one line says: every refused field of judge()
REFUSED = {
    "grade 3": ({"grade": 3}, GRADE_LINE + "3"),
    "grade -1": ({"grade": -1}, GRADE_LINE + "-1"),
    "grade 2.5": ({"grade": 2.5}, GRADE_LINE + "2.5"),
    "grade '2.5'": ({"grade": "2.5"}, GRADE_LINE + "'2.5'"),
    "grade 'two'": ({"grade": "two"}, GRADE_LINE + "'two'"),
    "grade True": ({"grade": True}, GRADE_LINE + "True"),
    "grade nan": ({"grade": float("nan")}, GRADE_LINE + "nan"),
    "grade 2.0": ({"grade": 2.0}, GRADE_LINE + "2.0"),
    "grade None": ({"grade": None}, GRADE_LINE + "None"),
    "annotator ESC": ({"annotator": "ada\x1b[31m"}, "annotator: holds U+001B, a control or invisible character"),
    "annotator NUL": ({"annotator": "ada\x00"}, "annotator: holds U+0000, a control or invisible character"),
    "annotator RLO": ({"annotator": "ada\u202egnp"}, "annotator: holds U+202E, a control or invisible character"),
    "annotator newline": ({"annotator": "ada\nbob"}, "annotator: holds U+000A, a control or invisible character"),
    "annotator zero-width": ({"annotator": "a\u200bda"}, "annotator: holds U+200B, a control or invisible character"),
    "annotator HYPERLINK": ({"annotator": '=HYPERLINK("http://evil.example","x")'},
                            "annotator: starts with '=', which a spreadsheet reads as a formula"),
    "annotator +1": ({"annotator": "+1"}, "annotator: starts with '+', which a spreadsheet reads as a formula"),
    "annotator @x": ({"annotator": "@x"}, "annotator: starts with '@', which a spreadsheet reads as a formula"),
    "annotator -x": ({"annotator": "-x"}, "annotator: starts with '-', which a spreadsheet reads as a formula"),
    "annotator tab": ({"annotator": "\tada"}, "annotator: starts with '\\t', which a spreadsheet reads as a formula"),
    "annotator CR": ({"annotator": "\rada"}, "annotator: starts with '\\r', which a spreadsheet reads as a formula"),
    "annotator empty": ({"annotator": ""}, "annotator: empty; give your name or initials"),
    "annotator spaces": ({"annotator": "   "}, "annotator: empty; give your name or initials"),
    "annotator 65 chars": ({"annotator": "a" * 65}, "annotator: 65 characters; at most 64"),
    "annotator trailing space": ({"annotator": "ada "}, "annotator: 'ada ' starts or ends with a space"),
    "annotator not text": ({"annotator": 7}, "annotator: must be text, not 7"),
    "note BEL": ({"note": "see\x07"}, "note: holds U+0007, a control or invisible character (line breaks and tabs "
                                      "are kept)"),
    "note ESC": ({"note": "\x1b]0;owned\x07"}, "note: holds U+001B"),
    "note 2001 chars": ({"note": "n" * 2001}, "note: 2,001 characters; at most 2,000"),
    "query unknown": ({"query_id": "q_t2c_nope_9999"}, f"query: unknown query id 'q_t2c_nope_9999' in release {RELEASE}"),
    "query NFD look-alike": ({"query_id": "q_t2c_canonical_retro_any_0001\u0301"},
                             "query: unknown query id 'q_t2c_canonical_retro_any_0001\\u0301' in release demo_v2603"),
    "doc unknown": ({"doc_id": "code_v202603_99999"}, f"doc: unknown document id 'code_v202603_99999' in release "
                                                      f"{RELEASE}"),
    "doc text for t2c": ({"doc_id": "text_v202603_00001"}, "doc: 'text_v202603_00001' is a text document; a t2c "
                                                           "query judges code documents"),
    "doc code for c2t": ({"query_id": C2T}, "is a code document; a c2t query judges text documents"),
    "release not cached": ({"release": "no_such_release"}, "release 'no_such_release' is not in the cache"),
    "release leaving the cache": ({"release": "../../etc"}, "release '../../etc' is not in the cache"),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_judge_refuses_with_one_line_naming_the_field(judged, case):
    """was: (no checks) an ESC or a bidi override stored as an annotator's name reaches every terminal and CSV that
    lists judgments; a formula name runs in the spreadsheet that opens an export; a grade 3 or 2.5 makes a qrel no
    evaluator reads; an id of the other release or a text document for a T2C query is a judgment of nothing."""
    root, doc = judged
    change, line = REFUSED[case]
    call = {"release": RELEASE, "query_id": T2C, "doc_id": doc, "grade": 1, "annotator": "bob", "note": None,
            **change}
    with unchanged(root), pytest.raises(CorebError) as refused:
        judge(call["release"], call["query_id"], call["doc_id"], call["grade"], call["annotator"], call["note"], root)
    message = str(refused.value)
    assert "\n" not in message and line in message
    assert len(list_judgments(RELEASE, root)) == 1


def test_a_document_of_the_other_release_is_unknown(judged):
    """was: (no checks) ``code_v202602_…``, a document only demo_v2602 holds, stored as a judgment of demo_v2603."""
    root, _ = judged
    doc = other_release_doc(root)
    with unchanged(root), pytest.raises(CorebError) as refused:
        judge(RELEASE, T2C, doc, 2, "bob", root=root)
    assert str(refused.value) == f"doc: unknown document id '{doc}' in release {RELEASE}"
    assert judge("demo_v2602", T2C, doc, 2, "bob", root=root).release == "demo_v2602"  # where it belongs: stored


def test_refused_without_a_judgments_file_creates_none(own_cache):
    """was: (no checks) the file created by a refused first judgment."""
    with unchanged(own_cache), pytest.raises(CorebError):
        judge(RELEASE, T2C, "text_v202603_00001", 2, "ada", root=own_cache)
    assert not judgments_file(own_cache).exists()


CLI_REFUSED = [
    (["--grade", "3"], GRADE_LINE + "'3'"),
    (["--grade", "2.5"], GRADE_LINE + "'2.5'"),
    (["--grade", "-1"], GRADE_LINE + "'-1'"),
    (["--grade", "two"], GRADE_LINE + "'two'"),
    (["--annotator", "\x1b[31mred"], "annotator: holds U+001B"),
    (["--annotator", "=HYPERLINK(\"http://x\")"], "annotator: starts with '='"),
    (["--annotator", "a" * 65], "annotator: 65 characters; at most 64"),
    (["--note", "beep\x07"], "note: holds U+0007"),
    (["--doc", "text_v202603_00001"], "doc: 'text_v202603_00001' is a text document"),
    (["--query", "\x1b[2Jq"], "query: unknown query id '\\x1b[2Jq'"),
]


@pytest.mark.parametrize("extra,line", CLI_REFUSED, ids=[" ".join(a).encode("unicode_escape").decode()[:40]
                                                           for a, _ in CLI_REFUSED])
def test_judge_verb_refuses_with_one_error_line(judged, capsys, extra, line):
    """was: (no verb) the same checks on the command line: one ``error:`` line, exit 2, no traceback, nothing stored;
    an ESC in an id is printed escaped."""
    root, doc = judged
    args = {"--release": RELEASE, "--query": T2C, "--doc": doc, "--grade": "1", "--annotator": "bob"}
    args.update(dict(zip(extra[::2], extra[1::2])))
    with unchanged(root):
        shown = refuses(["judge", *[x for pair in args.items() for x in pair]], capsys, line)
    assert "\x1b" not in shown


def test_judgments_export_refuses_a_device_and_the_cache(judged, capsys, tmp_path):
    """was: (no verb) ``--out /dev/null`` replaced by a regular file (as root), an export written into the cache."""
    root, _ = judged
    with unchanged(root):
        refuses(["judgments", "--release", RELEASE, "--export", "trec", "--out", "/dev/null"], capsys,
                "/dev/null: not a regular file")
        refuses(["judgments", "--release", RELEASE, "--export", "coreb", "--out", str(root / "qrels")], capsys,
                "inside the cache folder")
        refuses(["judgments", "--release", RELEASE, "--export", "trec"], capsys, "--export and --out go together")
        refuses(["judgments", "--release", "no_such_release"], capsys, "release 'no_such_release' is not in the cache")


def test_a_damaged_judgments_file_is_one_line(own_cache, capsys):
    """was: (no file) a judgments file that is not a DuckDB database: a DuckDB traceback."""
    judgments_file(own_cache).write_bytes(b"not a database\n" * 100)
    with unchanged(own_cache):
        refuses(["judgments", "--release", RELEASE], capsys, f"the judgments file {judgments_file(own_cache)}")


FORM = """
from ui.judging import judgment_form
judgment_form({release!r}, {query!r}, {doc!r})
"""


def test_the_form_shows_a_refusal_as_an_error_line(judged):
    """was: (no form) a refusal in the app would be an exception box; it is one error line under the form, nothing
    is stored, and a valid judgment then saves and is listed with the pair's agreement."""
    from streamlit.testing.v1 import AppTest

    root, doc = judged
    at = AppTest.from_string(FORM.format(release=RELEASE, query=T2C, doc=doc), default_timeout=60).run()
    assert not at.exception
    at.radio[0].set_value(2)
    at.text_input[0].set_value("=HYPERLINK(\"http://evil.example\")")
    with unchanged(root):
        at.button[0].click().run()
    shows_error(at, "annotator: starts with '=', which a spreadsheet reads as a formula")
    at.radio[0].set_value(1)
    at.text_input[0].set_value("bob")
    at.button[0].click().run()
    assert not at.exception and not at.error
    assert [j.annotator for j in list_judgments(RELEASE, root)] == ["ada", "bob"]
    table = at.dataframe[-1].value
    assert table[["Annotator", "Grade", "Status"]].values.tolist() == [["bob", "1 · trap or partial", "applied"],
                                                                      ["ada", "2 · relevant", "superseded"]]
    assert "Agreement of ada and bob: 1 shared pair, 0% the same grade, Cohen kappa 0.00" in [c.value for c in at.caption]
    assert at.session_state["judging_annotator"] == "bob"
