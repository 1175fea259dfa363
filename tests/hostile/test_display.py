"""Strings from data and files shown as text: run names and ids holding Markdown (links, colour, LaTeX,
emoji, HTML) render literally in the app's captions and sentences, and terminal escapes in model names,
run names and file names never reach the terminal raw from ``results``, ``import-results``, ``runs list``
or an error line.

"Renders literally" is checked by rendering the element's Markdown the way Streamlit does
(CommonMark with GFM tables and strikethrough, via markdown-it, plus Streamlit's own ``$…$`` LaTeX,
``:colour[…]`` and ``:shortcode:`` syntax) and comparing its text with the string.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from tests.builders import app_test, every_document_run
from tests.hostile.conftest import refuses, unchanged

ESC = "\x1b"
EVIL_TERMINAL = f"evil{ESC}[2J{ESC}]0;owned{ESC}\\"
# A run name (at most 80 characters, one line) holding every Markdown construct Streamlit renders.
MARKUP_NAME = "**b** _i_ [l](http://x) $x^2$ :red[r] :smile: <b>h</b> &amp; ~~s~~ `c`"
UNESCAPED = re.compile(r"(?<!\\)(?:\\\\)*(\$|:[a-z]+(?:-[a-z]+)*\[|:[a-z_/]+:)")


def rendered_text(markdown: str) -> str:
    """The text a reader sees for ``markdown`` in a Streamlit element; Streamlit's own extensions
    (LaTeX, colour, icons and emoji), where left unescaped, show as ``⟦markup⟧`` so that a comparison fails."""
    from markdown_it import MarkdownIt

    marked = UNESCAPED.sub(lambda m: m.group(0)[: -len(m.group(1))] + "⟦markup⟧", markdown)
    out = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(marked)
    return html.unescape(re.sub(r"<[^>]+>", "", out)).strip()


def test_rendered_text_tells_markup_from_text():
    from coreb_core.present.format import plain

    assert rendered_text("**b** [l](http://x)") == "b l"
    assert "⟦markup⟧" in rendered_text("$x^2$") and "⟦markup⟧" in rendered_text(":red[r]")
    assert rendered_text(plain(MARKUP_NAME)) == MARKUP_NAME
    assert rendered_text(plain("- a list? 1. no")) == "- a list? 1. no"


@pytest.fixture
def evil_runs(tiny_cache) -> Path:
    """The tiny release with one run whose id holds ``__`` (Markdown bold) and whose name holds every
    Markdown construct."""
    from coreb_core.runs.folders import rename_run

    cache = tiny_cache
    run_id = every_document_run(cache, "tiny", "evil_model")
    rename_run(run_id, MARKUP_NAME, cache)
    return cache


def _markdown_texts(at) -> list[str]:
    return [e.value for kind in ("markdown", "caption", "error", "warning", "info", "success")
            for e in getattr(at, kind)]


def test_overview_caption_names_the_run_literally(evil_runs):
    """was: "run evil_model__tiny__…" in the C2C caption, ``__tiny__`` rendered bold (the id as Markdown)."""
    at = app_test("overview.py", evil_runs, {"release": "tiny"}).run()
    assert not at.exception
    captions = [c.value for c in at.caption if "positives = rel=2" in c.value]
    assert captions, [c.value for c in at.caption]
    assert MARKUP_NAME in rendered_text(captions[0]), captions[0]


def test_deflation_sentence_names_the_run_literally(evil_runs):
    """was: the run's name pasted into the page's Markdown sentence (bold, a link, LaTeX, colour)."""
    at = app_test("deflation.py", evil_runs, {"release": "tiny"}).run()
    assert not at.exception
    sentences = [m.value for m in at.markdown if "overstates" in m.value]
    assert sentences
    for sentence in sentences:
        assert rendered_text(sentence).startswith(f"{MARKUP_NAME} · "), sentence


def test_no_page_renders_the_run_name_as_markup(evil_runs):
    """The pages whose sentences name runs (already escaped before): every markdown-rendering element
    shows the name only as text."""
    for page in ("compare.py", "selection.py"):
        at = app_test(page, evil_runs, {"release": "tiny"}).run()
        assert not at.exception, page
        for text in _markdown_texts(at):
            if "**b**" in text or "\\*\\*b\\*\\*" in text:
                assert MARKUP_NAME in rendered_text(text), (page, text)


# ---------------------------------------------------------------- terminal escapes

def _cli(argv: list[str], capsys) -> tuple[int, str, str]:
    from coreb_core.cli import main

    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_model_name_with_escapes_in_results(tiny, tmp_path, capsys):
    """was: ``results`` printed an MTEB model_meta.json name raw (clear screen, retitle the terminal)."""
    task = tmp_path / "in" / "mteb" / "org__model" / "abc"
    task.mkdir(parents=True)
    (task / "model_meta.json").write_text(json.dumps({"name": EVIL_TERMINAL, "revision": "abc"}))
    (task / "CorebT2CRetrieval.json").write_text(json.dumps({"task_name": "CorebT2CRetrieval", "scores": {
        "test": [{"hf_subset": "default", "main_score": 0.4, "ndcg_at_10": 0.4}]}}))
    code, out, err = _cli(["import-results", str(tmp_path / "in" / "mteb")], capsys)
    assert code == 0 and ESC not in out + err
    code, out, err = _cli(["results", "--no-published"], capsys)
    assert code == 0 and ESC not in out + err
    assert "evil\\x1b[2J\\x1b]0;owned\\x1b\\" in out


def test_file_name_with_escapes_in_import_results(tiny, tmp_path, capsys):
    """was: the skipped line printed the file name raw, and the run made from a TREC file was listed
    by ``runs list`` under a name holding the raw escapes."""
    folder = tmp_path / "in" / "res"
    folder.mkdir()
    (folder / f"{EVIL_TERMINAL}.txt").write_text("not a result\n")
    (folder / f"{EVIL_TERMINAL}.trec").write_text("q_t2c_search_python_0002 Q0 code_v202601_00001 1 2.0 mine\n")
    code, out, err = _cli(["import-results", str(folder), "--release", "tiny"], capsys)
    assert code == 0 and ESC not in out + err and "1 runs" in out
    assert "evil\\x1b[2J" in err
    code, out, err = _cli(["runs", "list"], capsys)
    assert code == 0 and ESC not in out + err and "evil\\x1b[2J" in out


def test_error_line_with_escapes(tiny, tmp_path, capsys):
    """was: an error naming a file printed the name's escapes raw."""
    bad = tmp_path / "in" / f"{EVIL_TERMINAL}.trec"
    bad.write_text("q_t2c_search_python_0002 Q0 code_v202601_00001 1 nan mine\n")
    with unchanged(tiny):
        line = refuses(["eval", "--release", "tiny", "--run-file", str(bad)], capsys, "must be finite")
    assert ESC not in line and "evil\\x1b[2J" in line
