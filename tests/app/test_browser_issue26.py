"""Issue 26's analyses as a user reaches them in chromium (CoREB-mini, the session's default BM25 and MiniLM runs):
from the sidebar menu to Trap analysis, a click on a trap that beats both runs opens the inspector on its query,
where that trap reads "2 of 2"; the inspector's "lost to a trap by several runs" filter lists the queries both runs
lose; Compare runs states the per-problem Spearman correlation. Screenshots: tests/artifacts/issue26-*.png."""
from __future__ import annotations

import re
import urllib.parse

import pytest

from bench.page_drawn import PAGE_DRAWN_JS
from tests.browser import PAGE_LOAD_MS, chromium, serve, wait_for_script
from tests.builders import ARTIFACTS

SIDEBAR = '[data-testid="stSidebar"]'
MENU = f'{SIDEBAR} [data-testid="stPageLink-NavLink"]'


@pytest.fixture(scope="module")
def served(app_cache, tmp_path_factory):
    with serve(app_cache, tmp_path_factory.mktemp("served26") / "streamlit.log") as base:
        yield base


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with chromium(tmp_path_factory.mktemp("profile26")) as context:
        yield context


@pytest.fixture(scope="module")
def library(app_cache, default_run_ids):
    """What coreb_core says of the two default runs on demo_v2603, T2C."""
    from coreb_core.analysis.agreement import trap_agreement
    from coreb_core.analysis.difficulty import problem_difficulty
    from coreb_core.analysis.trap_wins import trap_wins
    from coreb_core.data.store import Store
    from coreb_core.evaluation.evaluate import analyse_many
    from coreb_core.runs.folders import read_hits

    store = Store("demo_v2603", app_cache)
    hits = {r: read_hits(r, app_cache) for r in default_run_ids.values()}
    agreement = trap_agreement(trap_wins(store, hits))
    hard = problem_difficulty(store, analyse_many(store, hits).per_query("v2"), task="t2c")
    return agreement, hard


def _menu(page, title: str) -> None:
    page.locator(MENU, has_text=title).first.click()
    wait_for_script(page, title)


def _first_row(page, key: str) -> None:
    grid = page.locator(f'.st-key-{key} [data-testid="stDataFrame"]')
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 12, box["y"] + 35 + 17)  # below the header row, in the row-selection column


def test_a_trap_beating_both_runs_opens_the_inspector(served, browser, default_run_ids, library):
    agreement, hard = library
    page = browser.new_page()
    page.set_viewport_size({"width": 1600, "height": 1000})
    runs = "&".join(f"runs={r}" for r in default_run_ids.values())
    page.goto(f"{served}/?release=demo_v2603&task=t2c&{runs}", wait_until="domcontentloaded")
    wait_for_script(page)
    _menu(page, "Trap analysis")
    page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)
    beating_all, lost_by_all = agreement.beating_all("t2c")
    main = page.locator('[data-testid="stMain"]')
    assert f"t2c: {beating_all} traps beat all 2 runs; all 2 runs lose {lost_by_all} queries to a trap." in \
        main.inner_text()
    page.get_by_text("Agreement across runs").first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "issue26-traps-agreement.png"), full_page=False)
    _first_row(page, "trap_agree_table")
    page.wait_for_url(lambda url: "/inspector" in url, timeout=PAGE_LOAD_MS)
    wait_for_script(page, "Query inspector")
    query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["query"][0]
    # The table lists traps beating every run, most-beating first: its first row is one of them.
    beats = agreement.beats_of(query)
    assert any(b == n == 2 for b, n in beats.values()), (query, beats)
    page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)
    positions = page.locator('.st-key-insp_pos_' + query + ' [data-testid="stDataFrame"]')
    positions.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "issue26-inspector-beats.png"), full_page=False)
    # The "Beats" column is drawn in the grid's canvas; its CSV (the same frame) is what a user downloads, so
    # the check reads the column header in the grid's accessible table.
    assert page.locator(f'.st-key-insp_pos_{query} [role="columnheader"]', has_text="Beats").count() == 1

    # The finder's filter: the queries both runs lose, each with "Runs lost" 2.
    page.get_by_text("Find a query").first.click()
    page.get_by_text("lost to a trap by several runs").click()
    wait_for_script(page, "Query inspector")
    expected = agreement.queries_lost_by(2)
    t2c = [q for q in expected if q.startswith("q_t2c")]
    page.wait_for_function(f"""() => document.querySelector('[data-testid="stMain"]').innerText
        .includes('{len(t2c)} queries of t2c')""", timeout=PAGE_LOAD_MS)
    page.screenshot(path=str(ARTIFACTS / "issue26-inspector-lost-by.png"), full_page=False)
    assert urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query).get("lost_by") == ["2"]

    # Compare runs: the per-problem Spearman correlation, as the library computes it.
    _menu(page, "Compare runs")
    page.get_by_text("Per-problem difficulty").first.scroll_into_view_if_needed()
    page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)
    page.screenshot(path=str(ARTIFACTS / "issue26-compare-difficulty.png"), full_page=False)
    text = page.locator('[data-testid="stMain"]').inner_text()
    shown = re.findall(r"Spearman's rho of .+? over (\d+) problems: (-?[0-9.]+)", text)
    assert shown == [(str(r.problems), f"{r.spearman:.2f}") for r in hard.correlations.itertuples()]
    page.close()
