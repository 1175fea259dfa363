"""Data never becomes markup: texts holding HTML and Markdown appear verbatim in code, text and
dataframe elements of the inspector, never in markdown-rendering elements."""
import pytest

from tests import dump
from tests.builders import app_test

SCRIPT = "<script>alert(1)</script>"
MARKDOWN = "**bold** [link](http://x)"
PAYLOAD = f"{SCRIPT} {MARKDOWN}"
MARKUP_TYPES = {"markdown", "caption", "title", "header", "subheader", "latex", "error", "info", "warning",
                "success", "exception", "toast", "expandable", "tab"}
FORBIDDEN = (SCRIPT, "alert(1)", "**bold**", "[link](http://x)")


def _evil_rows():
    rows = dump.rows()
    for r in rows["code_corpus"]:
        r["code"] = f"# {PAYLOAD}\n" + r["code"]
    for r in rows["text_corpus"]:
        r["text"] = f"{PAYLOAD} {r['text']}"
        if r.get("abbreviated_text"):
            r["abbreviated_text"] = f"{PAYLOAD} {r['abbreviated_text']}"
    for r in rows["text2code_queries"]:
        r["query"] = f"{PAYLOAD} {r['query']}"
    for r in rows["code2text_queries"]:
        r["query"] = f"# {PAYLOAD}\n{r['query']}"
    return rows


@pytest.fixture
def evil_cache(tmp_path, cache):
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from coreb_core.data.store import Store
    from coreb_core.runs.folders import new_run_id, write_run
    from coreb_core.runs.hits import hits_from_lists

    import_release(read_local(dump.write_parquet_folder(tmp_path / "evil", _evil_rows()))[2], "tiny", cache)
    with Store("tiny", cache) as store:
        task_of = dict(store.sql("SELECT query_id, task FROM queries").fetchall())
        code = [r[0] for r in store.sql("SELECT code_id FROM code_corpus ORDER BY code_id").fetchall()]
        text = [r[0] for r in store.sql("SELECT text_id FROM text_corpus ORDER BY text_id").fetchall()]
    # Traps first (code 3, the noise texts), so a trap outranks a positive and the diff section renders.
    lists = {q: [(d, 1.0 if d.endswith(("00003", "noise1")) else 0.5 - i / 100)
                 for i, d in enumerate(text if t == "c2t" else code)] for q, t in task_of.items()}
    run_id = new_run_id("evil", "tiny")
    write_run(hits_from_lists(task_of, lists, "test"), {"run_id": run_id, "release": "tiny", "model": "evil",
                                                         "created": "2026-01-01T00:00:00", "kind": "retrieval"}, cache)
    return cache


def _walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


def _markup_texts(at):
    out = []
    for node in _walk(at._tree):
        if getattr(node, "type", None) in MARKUP_TYPES:
            for attr in ("value", "body", "label", "message"):
                value = getattr(node, attr, None)
                if isinstance(value, str):
                    out.append(value)
    return out


@pytest.mark.parametrize("query_id, task", [("q_t2c_canonical_retro_any_0001", "t2c"),
                                            ("q_c2t_full_retro_any_0001", "c2t")])
@pytest.mark.parametrize("view", ["unified diff", "side by side"])
def test_inspector_shows_markup_verbatim(evil_cache, query_id, task, view):
    at = app_test("inspector.py", evil_cache, {"release": "tiny", "task": task, "query": query_id}).run()
    assert not at.exception
    at.radio(key="insp_diff_view").set_value(view).run()
    assert not at.exception
    markup = _markup_texts(at)
    assert markup, "the page renders captions and headers"
    for text in markup:
        for bad in FORBIDDEN:
            assert bad not in text, (bad, text)
    codes = [c.value for c in at.code]
    # The query, the problem statement and the documents show in code elements, verbatim.
    assert any(c.startswith(f"{PAYLOAD} " if task == "t2c" else f"# {PAYLOAD}") for c in codes)
    assert any(c.startswith(f"{PAYLOAD} Sum of two integers.") for c in codes)
    assert sum(PAYLOAD in c for c in codes) >= 3 + (view == "side by side")
    # And in dataframe cells (candidate queries, ranked lists).
    cells = [str(v) for d in at.dataframe for col in d.value.columns for v in d.value[col]]
    assert sum(PAYLOAD in v for v in cells) >= 2
    assert not at.get("html")


def test_traps_page_on_evil_release(evil_cache):
    at = app_test("traps.py", evil_cache, {"release": "tiny", "task": "t2c"}).run()
    assert not at.exception
    for text in _markup_texts(at):
        for bad in FORBIDDEN:
            assert bad not in text
    shown = at.dataframe[0].value
    # Code 3 (the trap) scores 1.0 for every t2c query: a trap above the first positive and at rank 1 everywhere.
    assert shown["share_trap_above_positive"].tolist() == [100.0, 100.0]  # percent, one decimal
    assert shown["share_trap_at_1"].tolist() == [100.0, 100.0]
