"""Hostile deep links: every page opened with every URL parameter the app reads (found in the source of pages/
and ui/, so a new parameter is covered when it is added) set to an unknown id, a script tag, an empty value,
100 KB, a NUL byte and an NFD-normalised name; once with the page's own parameters hostile (the sidebar's valid),
once with the sidebar's hostile. Cache: CoREB-mini with a BM25 run on every task, one made with ``--tasks c2c``
(on T2C a pair with it shares no query) and MTEB's BM25 recipe (issue 31, items 3, 14 and 9)."""
from __future__ import annotations

import re
import shutil
import time
import unicodedata

import pytest
from streamlit.testing.v1 import AppTest

from tests.builders import REPO, app_test
from tests.hostile.conftest import unchanged
from ui.navigation import PAGE_SPECS

RELEASE = "demo_v2603"
SIDEBAR = ("release", "scheme", "task", "anchor", "runs")
HUGE = "x" * 100_000
PAYLOADS = {"unknown": "nope_1", "script": "<script>alert(1)</script>", "empty": "", "huge": HUGE, "nul": "a\x00b",
            "nfd": unicodedata.normalize("NFD", "café_é")}
PAGES = sorted(p.name for p in (REPO / "pages").glob("*.py"))
# How the app reads a parameter: url_param("name"), url_values / url_list / url_float, or a remembered widget key.
_READS = re.compile(r"""(?:url_param|url_values|url_list|url_float)\(\s*"(\w+)"|remembered\(\s*"\w+",\s*"(\w+)\"""")
# Parameters read under a name held in a variable (pages/selection.py: ``for key, allowed in …: url_list(key, …)``).
_BY_VARIABLE = {"sel_tasks", "sel_langs"}


def read_parameters() -> set[str]:
    """Every URL parameter name the pages and the ui layer read."""
    names = set(_BY_VARIABLE)
    for path in [*(REPO / "pages").glob("*.py"), *(REPO / "ui").glob("*.py")]:
        names |= {a or b for a, b in _READS.findall(path.read_text())}
    return names


PARAMETERS = read_parameters()
PAGE_PARAMETERS = sorted(PARAMETERS - set(SIDEBAR))


@pytest.fixture(scope="module")
def linked(mini_data, tmp_path_factory):
    """A cache with three runs of demo_v2603 (BM25 and MTEB's BM25 on every task, then BM25 on C2C only), their ids."""
    from coreb_core.retrieval.pipeline import run_retrieval

    root = tmp_path_factory.mktemp("deep-links") / "cache"
    shutil.copytree(mini_data, root, symlinks=True, ignore=shutil.ignore_patterns("runs", "embeddings", "results"))
    runs = [run_retrieval("bm25", RELEASE, root=root).run_id, run_retrieval("bm25s-mteb", RELEASE, root=root).run_id]
    time.sleep(1.1)  # run.json's "created" has whole seconds: the C2C-only run is the newest, last in every list
    runs.append(run_retrieval("bm25", RELEASE, tasks=("c2c",), root=root).run_id)
    return root, runs


def echoed(at) -> list[str]:
    """Every text the page drew."""
    kinds = ("error", "warning", "info", "success", "markdown", "caption", "text", "code", "title", "subheader")
    return [str(e.value) for kind in kinds for e in at.get(kind)]


def open_link(root, page: str, params: dict):
    at = app_test(page, root, params, timeout=180).run()
    assert not at.exception, f"{page} {sorted(params)}: {[e.value for e in at.exception]}"
    # A value from a link is never drawn in full (a 100 KB id once filled the inspector's error box).
    assert not any("x" * 1000 in text for text in echoed(at)), f"{page} echoed a 100 KB value"
    return at


def test_the_catalogue_reads_the_parameters_of_the_issue():
    """was: no catalogue; the parameters the issue names must be among those found in the source."""
    assert {"runs", "compare", "baseline", "correction", "pair", "contrast", "slice_by", "rerank", "metric", "query",
            "task", "release", "scheme"} <= PARAMETERS
    assert len(PARAMETERS) >= 40


def page_payloads(turn: int) -> dict[str, str]:
    """Every page parameter hostile, the payloads dealt round: parameter i gets payload (i + turn) mod 6, so that over
    the six turns each parameter gets each payload once."""
    kinds = list(PAYLOADS)
    return {name: PAYLOADS[kinds[(i + turn) % len(kinds)]] for i, name in enumerate(PAGE_PARAMETERS)}


def test_the_turns_give_every_parameter_every_payload():
    dealt = [page_payloads(turn) for turn in range(len(PAYLOADS))]
    assert all(sorted(d[name] for d in dealt) == sorted(PAYLOADS.values()) for name in PAGE_PARAMETERS)


@pytest.mark.parametrize("turn", range(len(PAYLOADS)))
@pytest.mark.parametrize("page", PAGES)
def test_hostile_page_parameters(linked, page, turn):
    """was: with one run in the sidebar, the Compare page raised KeyError: 'query' (an exception box) from
    compare=, baseline=, correction=, pair=, contrast=, slice_by=, rerank= or metric= with a script payload:
    it fell back to the release's two newest runs, and the C2C-only one shares no T2C query with the other.
    Each page six times, every page parameter hostile each time (``page_payloads``: each gets every payload once),
    with one run in the sidebar on even turns and three on odd ones (each a fallback every hostile value takes)."""
    root, runs = linked
    sidebar_runs = 1 if turn % 2 == 0 else 3
    with unchanged(root):
        at = open_link(root, page, {"release": RELEASE, "task": "t2c", "runs": runs[:sidebar_runs],
                                    **page_payloads(turn)})
    if page == "compare.py":  # the fallback pair includes the C2C-only run: the page says so
        assert any("scored no Text → code (T2C) query" in w.value for w in at.warning)


# The shared sidebar alone (ui/sidebar.py), as every page calls it first: the state it returns, as text.
SIDEBAR_ONLY = "import streamlit as st\nfrom ui.sidebar import sidebar\nst.text(repr(sidebar()))\n"


def sidebar_state(root, params: dict) -> str:
    """The sidebar's state (release, scheme, runs, task, anchor) for a link with ``params``; no exception, nothing
    echoed in full, the cache untouched."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_string(SIDEBAR_ONLY, default_timeout=180)
    for k, v in params.items():
        at.query_params[k] = v
    with unchanged(root):
        at.run()
    assert not at.exception, f"sidebar {sorted(params)}: {[e.value for e in at.exception]}"
    assert not any("x" * 1000 in text for text in echoed(at)), "the sidebar echoed a 100 KB value"
    return at.text[-1].value


@pytest.mark.parametrize("payload", list(PAYLOADS))
def test_hostile_sidebar_parameters_fall_back_to_the_defaults(linked, monkeypatch, payload):
    """was: (no failure found on the sidebar's parameters; kept so that none appears) each hostile value of each
    sidebar parameter gives the default release, scheme, runs, task and anchor: the state of a link with none. Pages
    read these parameters only through the sidebar (the pages' own are ``PAGE_PARAMETERS``), so a page opened with
    them sees the default state; ``test_hostile_sidebar_parameters`` opens every page so."""
    root, _ = linked
    monkeypatch.setenv("COREB_CACHE", str(root))
    default = sidebar_state(root, {})
    assert "demo_v2603" in default
    assert sidebar_state(root, {name: PAYLOADS[payload] for name in SIDEBAR}) == default


@pytest.mark.parametrize("page", PAGES)
def test_hostile_sidebar_parameters(linked, page):
    """Every page opened with hostile sidebar parameters: each payload in one run (runs= carries all six, each other
    parameter one). That each falls back to the default state: the test above, on the sidebar every page calls."""
    root, _ = linked
    params = {"release": PAYLOADS["huge"], "scheme": PAYLOADS["script"], "task": PAYLOADS["nul"],
              "anchor": PAYLOADS["nfd"], "runs": list(PAYLOADS.values())}
    assert set(params) == set(SIDEBAR)
    with unchanged(root):
        open_link(root, page, params)


@pytest.mark.parametrize("page", ["compare.py", "traps.py", "inspector.py"])
def test_unknown_runs_on_t2c(linked, page):
    """was: ``runs=nope_1`` beside the C2C-only run opened Compare on T2C with a pair that shared no query:
    KeyError: 'query'."""
    root, runs = linked
    at = open_link(root, page, {"release": RELEASE, "task": "t2c", "runs": ["nope_1", runs[2], runs[0]]})
    if page == "compare.py":
        assert any("scored no Text → code (T2C) query" in w.value for w in at.warning)


def test_inspector_bounds_a_100kb_query_id_and_drops_it_from_the_links(linked, monkeypatch):
    """was: the inspector echoed a 100 KB ``query=`` value in full in its error, and app.py's eight menu links
    carried it on (100 KB each)."""
    root, runs = linked
    monkeypatch.setenv("COREB_CACHE", str(root))
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=180)
    at.query_params.update({"release": RELEASE, "task": "t2c", "runs": runs[:1]})
    at.run()
    at.query_params["query"] = HUGE
    with unchanged(root):
        at.switch_page("pages/inspector.py").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "(100,000 characters) is not in release demo" in errors[0], errors
    assert len(errors[0]) < 200
    assert "query" not in at.query_params  # the menu's links carry the URL: not the unknown id
    links = [str(p.proto) for p in at.get("page_link")]
    assert len(links) == len(PAGE_SPECS) and all(len(link) < 5_000 for link in links)

