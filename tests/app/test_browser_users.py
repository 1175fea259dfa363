"""Issue 24's severity-1 lines, clicked in chromium as the app's users click them (CoREB-mini, the session's
default BM25 and MiniLM runs, on a copy of the app cache):

- the downloaded HTML report states the Model selection page's verdict, in the same words;
- a run started on Run retrieval goes on while its user moves to other pages, its progress shows in every
  page's sidebar, it can be cancelled there, and once done it is listed under Runs without a reload.

(The third severity-1 line, MTEB results apart from the v2 columns, is tests/app/test_browser_real.py.)
"""
from __future__ import annotations

import html as html_lib
import re
import shutil
import urllib.parse

import pytest

from bench.page_drawn import PAGE_DRAWN_JS
from tests.browser import PAGE_LOAD_MS, chromium, serve, wait_for_script
from tests.builders import ARTIFACTS

SIDEBAR = '[data-testid="stSidebar"]'
MENU = f'{SIDEBAR} [data-testid="stPageLink-NavLink"]'


@pytest.fixture(scope="module")
def user_cache(app_cache, tmp_path_factory):
    """A copy of the app cache without its vector cache, so that a MiniLM run encodes (about 20-30 s here) and
    there is time to move between pages while it runs."""
    root = tmp_path_factory.mktemp("users") / "cache"
    shutil.copytree(app_cache, root, symlinks=True, ignore=shutil.ignore_patterns("embeddings"))
    return root


@pytest.fixture(scope="module")
def served(user_cache, tmp_path_factory):
    with serve(user_cache, tmp_path_factory.mktemp("served") / "streamlit.log") as base:
        yield base


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with chromium(tmp_path_factory.mktemp("profile")) as context:
        yield context


def _menu(page, title: str) -> None:
    page.locator(MENU, has_text=title).first.click()
    wait_for_script(page, title)


def test_the_report_states_the_pages_verdict(served, browser, default_run_ids, tmp_path):
    """The issue's case: T2C, python + java, at most 0.6 B parameters. The page's verdict and the report's
    (the downloaded file) must be the same sentences; the report used to rank with its own code and say
    "choose …" where the page said "No clear winner"."""
    page = browser.new_page()
    runs = "&".join(f"runs={r}" for r in default_run_ids.values())
    page.goto(f"{served}/?release=demo_v2603&{runs}", wait_until="domcontentloaded")
    wait_for_script(page)
    _menu(page, "Model selection")
    # the constraints, as the page's own share link carries them
    url = urllib.parse.urlparse(page.url)
    query = {**urllib.parse.parse_qs(url.query), "sel_tasks": ["t2c"], "sel_langs": ["python,java"], "budget": ["0.6"]}
    page.goto(url._replace(query=urllib.parse.urlencode(query, doseq=True)).geturl(), wait_until="domcontentloaded")
    wait_for_script(page, "Model selection")
    page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)
    main = page.locator('[data-testid="stMain"]')
    verdict = main.locator('[data-testid="stMarkdownContainer"] p').filter(
        has_text=re.compile(r"^(Choose|No clear winner)")).first.inner_text().strip()
    evidence = main.locator('[data-testid="stText"]').first.inner_text().strip()
    assert "T2C (python, java)" in verdict and "at most 600 M parameters" in verdict
    page.screenshot(path=str(ARTIFACTS / "selection-verdict.png"))
    with page.expect_download(timeout=PAGE_LOAD_MS) as download:
        page.get_by_role("button", name="Download report (HTML)").click()
    report = tmp_path / "report.html"
    download.value.save_as(report)
    box = re.search(r'<div class="rec"><b>Recommendation.</b> (.*?)</div>', report.read_text(encoding="utf-8")).group(1)
    said = [html_lib.unescape(part).strip() for part in box.split("<br>")]
    assert said == [verdict, evidence]  # the page's verdict and evidence, word for word
    page.close()


def test_a_run_survives_page_changes_and_is_listed_when_done(served, browser, default_run_ids):
    page = browser.new_page()
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(f"{served}/?release=demo_v2603&runs={default_run_ids['bm25']}", wait_until="domcontentloaded")
    wait_for_script(page)
    sidebar = page.locator(SIDEBAR)
    before = sidebar.inner_text()

    def start_minilm() -> None:
        _menu(page, "Run retrieval")
        page.locator(".st-key-run_model").click()
        page.get_by_role("option", name="minilm", exact=True).click()
        wait_for_script(page, "Run retrieval")
        page.get_by_role("button", name="Run", exact=True).click()
        page.wait_for_function("() => document.querySelector('[data-testid=\"stSidebar\"]').innerText"
                               ".includes('Running in the background')", timeout=60_000)

    # 1. Cancel from another page's sidebar: nothing is stored.
    start_minilm()
    _menu(page, "Overview")
    page.wait_for_function("() => document.querySelector('[data-testid=\"stSidebar\"]').innerText"
                           ".includes('elapsed')", timeout=60_000)
    sidebar.get_by_role("button", name="Cancel this run").click()
    page.wait_for_function("() => document.querySelector('[data-testid=\"stSidebar\"]').innerText"
                           ".includes('was cancelled after')", timeout=120_000)
    assert "minilm · official · demo_v2603 (2)" not in sidebar.inner_text()

    # 2. Start again, leave for two other pages: the run goes on, its progress in each page's sidebar.
    start_minilm()
    for title in ("Overview", "Trap analysis"):
        _menu(page, title)
        page.wait_for_function("() => /elapsed/.test(document.querySelector('[data-testid=\"stSidebar\"]').innerText)"
                               " || /finished in/.test(document.querySelector('[data-testid=\"stSidebar\"]').innerText)",
                               timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "run-in-background.png"))
    # 3. Done while on Trap analysis: listed (and chosen) under Runs without a reload or a click.
    page.wait_for_function("() => document.querySelector('[data-testid=\"stSidebar\"]').innerText"
                           ".includes('finished in')", timeout=300_000)
    page.wait_for_function("() => document.querySelector('[data-testid=\"stSidebar\"]').innerText"
                           ".includes('minilm · official · demo_v2603 (2)')", timeout=30_000)
    text = sidebar.inner_text()
    assert "The run minilm · official · demo_v2603 (2) finished in" in text
    assert "minilm · official · demo_v2603 (2)" not in before
    assert page.locator("h1").first.inner_text().strip() == "Trap analysis"  # the user was not moved
    page.screenshot(path=str(ARTIFACTS / "run-finished-in-sidebar.png"))
    page.close()


def test_one_history_entry_per_visit_and_back_returns(served, browser, default_run_ids):
    """Issue 24: each page visit added 3-6 browser history entries, so Back seemed dead; and /overview, the
    Overview's own name, opened "Page not found". A revisit adds exactly one entry; Back returns to the page
    before, with the state."""
    page = browser.new_page()
    runs = "&".join(f"runs={r}" for r in default_run_ids.values())
    page.goto(f"{served}/overview?release=demo_v2603&task=c2t&{runs}", wait_until="domcontentloaded")
    wait_for_script(page, "Overview")
    page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)
    assert page.locator('[role="dialog"]').count() == 0, page.locator('[role="dialog"]').all_inner_texts()
    assert urllib.parse.urlparse(page.url).path == "/"  # the Overview is served at /
    chosen = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    assert chosen["task"] == ["c2t"] and sorted(chosen["runs"]) == sorted(default_run_ids.values())
    titles = ["Trap analysis", "Qrel deflation", "Data"]
    for title in titles:  # first visits: a page's own keys join the URL (at most two entries)
        before = page.evaluate("history.length")
        _menu(page, title)
        page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)  # every URL write is done
        assert page.evaluate("history.length") - before <= 2, title
    for title in titles + ["Overview"]:  # revisits: one entry each
        before = page.evaluate("history.length")
        _menu(page, title)
        page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)  # every URL write is done
        assert page.evaluate("history.length") - before == 1, title
    for expected in reversed(titles):  # Back: the page before, each time
        page.go_back()
        wait_for_script(page, expected)
        query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
        assert query["task"] == ["c2t"] and sorted(query["runs"]) == sorted(default_run_ids.values()), expected
    page.close()
