"""Every page of the app, served by a real `streamlit run` and opened in a real browser.

Playwright (from PyPI) drives Debian's chromium (`apt-get install chromium`; never `playwright install`).
The server reads the session's CoREB-mini cache with its default runs (the `app_cache` fixture), so
nothing is rebuilt. Each page is opened by its URL path (read from app.py's PAGES; the default page at /), must render a title
and the sidebar, must not be blank and must show no Streamlit error box; a screenshot of each lands in
tests/artifacts/<url_path>.png (git-ignored).
"""
from __future__ import annotations

import shutil
import time
import urllib.parse
from pathlib import Path

import pytest

from bench.page_drawn import PAGE_DRAWN_JS
from tests.browser import (
    PAGE_LOAD_MS,
    app_pages,
    check_page,
    chromium,
    click_first_row,
    global_state,
    log_tail,
    menu_link,
    open_page,
    serve,
    wait_for_script,
)
from tests.builders import ARTIFACTS


@pytest.fixture(scope="module")
def browser_cache(app_cache, tmp_path_factory) -> Path:
    """A copy of the app cache with a third run (BM25 again: "bm25 · demo_v2603 (2)"), so the pages are also
    drawn with three runs, the most the inspector puts side by side (its lists are narrowest then). A copy:
    the pages tests after this module see the app cache's two default runs."""
    from coreb_core.defaults import DEFAULT_RELEASE
    from coreb_core.retrieval.pipeline import run_retrieval

    root = tmp_path_factory.mktemp("browser") / "cache"
    shutil.copytree(app_cache, root, symlinks=True)
    run_retrieval("bm25", DEFAULT_RELEASE, root=root)
    return root


@pytest.fixture(scope="module")
def three_run_ids(browser_cache, app_cache) -> list[str]:
    """The browser cache's three runs of the default release, oldest first: the app cache's two, then the BM25
    run added here (by membership, not by time: a fast first launch stores MiniLM in the same second)."""
    from coreb_core.defaults import DEFAULT_RELEASE
    from coreb_core.runs.folders import list_runs

    old = {m.run_id for m in list_runs(DEFAULT_RELEASE, app_cache)}
    runs = sorted(list_runs(DEFAULT_RELEASE, browser_cache), key=lambda m: (m.run_id not in old, m.created or ""))
    assert len(runs) == 3
    return [m.run_id for m in runs]


@pytest.fixture(scope="module")
def served(browser_cache, tmp_path_factory):
    """One `streamlit run app.py` on 127.0.0.1 for this module's tests: (base URL, log path)."""
    log = tmp_path_factory.mktemp("served") / "streamlit.log"
    with serve(browser_cache, log) as base:
        yield base, log


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Debian's chromium through Playwright, one persistent context for the module, 1400x1000."""
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as context:
        yield context


def test_every_page_renders_in_chromium(served, browser):
    base, log = served
    pages = app_pages()
    assert len(pages) >= 8, pages
    failures: dict[str, list[str]] = {}
    page = browser.new_page()
    js_errors: list[str] = []
    page.on("pageerror", lambda exc: js_errors.append(str(exc)))
    # Deep links first, the default page (/) last: the first request to a fresh server must be a
    # deep link, as when a shared URL is opened after a restart. (A `pages/` folder beside app.py
    # makes Streamlit serve such a first request as an old-style multipage app.)
    for url_path, title, default in sorted(pages, key=lambda p: p[2]):
        js_errors.clear()
        start = time.perf_counter()
        try:
            problems = check_page(page, base, url_path, default, [t for _, t, _ in pages])
        except Exception as exc:  # a timeout: keep going, report every page
            try:
                page.screenshot(path=str(ARTIFACTS / f"{url_path}.png"), full_page=True)
            except Exception:
                pass
            problems = [f"{type(exc).__name__}: {str(exc).splitlines()[0]}"]
        problems += [f"JavaScript error: {e}" for e in js_errors]
        print(f"{url_path:>12}: {time.perf_counter() - start:5.1f}s "
              f"{'OK' if not problems else 'FAILED'}  {ARTIFACTS / (url_path + '.png')}")
        if problems:
            failures[f"{title} (/{url_path})"] = problems
    page.close()
    if failures:
        report = "\n".join(f"{name}:\n  " + "\n  ".join(p) for name, p in failures.items())
        pytest.fail(f"{len(failures)} of {len(pages)} pages failed in chromium:\n{report}\n\n"
                    f"streamlit log (tail):\n{log_tail(log)}", pytrace=False)


def test_menu_navigation_keeps_the_global_state(served, browser, default_run_ids):
    """Choose non-default global state, then move the way users do: every page from the sidebar menu,
    browser back and forward, a reload. The state must never change (it used to flip the release, the
    runs and anchor exclusion on the first menu click)."""
    base, log = served
    page = browser.new_page()
    bm25 = default_run_ids["bm25"]
    page.goto(f"{base}/?release=demo_v2603&scheme=v1&task=c2t&anchor=0&runs={bm25}", wait_until="domcontentloaded")
    wait_for_script(page)
    chosen = global_state(page)
    assert chosen == {"release": ["demo_v2603"], "scheme": ["v1"], "task": ["c2t"], "anchor": ["0"], "runs": [bm25]}
    visited = []
    for _, title, _ in app_pages()[1:] + app_pages()[:1]:
        menu_link(page, title).click()
        wait_for_script(page, title)
        visited.append(title)
        assert global_state(page) == chosen, f"after clicking {visited} in the menu"
        assert page.locator('[data-testid="stException"]').count() == 0, f"{title}: exception box"
    page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)
    page.screenshot(path=str(ARTIFACTS / "state-after-menu.png"), full_page=False)
    # Back, forward and reload land on a URL the app wrote (its state in it), so no title to wait for.
    page.go_back()
    wait_for_script(page)
    assert global_state(page) == chosen, "after browser back"
    page.go_forward()
    wait_for_script(page)
    assert global_state(page) == chosen, "after browser forward"
    page.reload()
    wait_for_script(page)
    assert global_state(page) == chosen, "after a reload"
    # The sidebar shows it too: the one chosen run by name (its chip leaves out the release chosen above it), not the
    # other default run. (Its widgets can still be drawing when the script has finished: wait for the chip.)
    page.wait_for_function("""() => document.querySelector('[data-testid="stSidebar"] '
        + '[data-testid="stMultiSelectTagsContainer"]')?.innerText.trim() === 'bm25'""", timeout=30_000)
    assert "minilm" not in page.locator('[data-testid="stSidebar"]').inner_text()
    page.close()


CHART_PAGES = ("overview", "traps", "deflation", "compare", "selection")
CHARTS_SETTLED_JS = """() => {
    const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')];
    const drawn = charts.length > 0 && charts.every(e => {
        const c = e.querySelector('canvas, svg.marks');
        return c && c.getBoundingClientRect().height > 0 && e.getBoundingClientRect().height > 0; });
    const now = performance.now(), seen = window.__chartsSeen;
    if (!drawn) { window.__chartsSeen = null; return false; }
    if (!seen || seen.count !== charts.length) { window.__chartsSeen = {count: charts.length, since: now}; return false; }
    return now - seen.since > 700;
}"""


@pytest.mark.parametrize("width", [1600, 1000])
def test_charts_are_readable_sizes(served, browser, default_run_ids, width):
    """At 1600 and at 1000 px wide every chart on the chart pages is drawn at least 160 px tall and fits
    the page's width (no chart squashed into a strip or pushed off screen); at 1600 px no table on them scrolls
    sideways."""
    base, _ = served
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": 1000})
    runs = "&".join(f"runs={r}" for r in default_run_ids.values())
    problems = []
    default = next(u for u, _, d in app_pages() if d)
    for url_path in CHART_PAGES:
        path = "" if url_path == default else url_path  # st.navigation serves the default page at /
        page.goto(f"{base}/{path}?release=demo_v2603&task=t2c&{runs}", wait_until="domcontentloaded")
        wait_for_script(page)
        # The last elements and vega-embed's drawing come after the script is done (later still on a loaded
        # machine): wait until the page has charts, each with its canvas (or svg) drawn and a height, and their
        # number has held for 0.7 s.
        page.wait_for_function(CHARTS_SETTLED_JS, timeout=60_000, polling=100)
        boxes = page.evaluate("""() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
            .map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })""")
        if not boxes:
            problems.append(f"/{url_path}: no chart drawn")
        for w, h in boxes:
            if h < 160 or w > width or w < 200:
                problems.append(f"/{url_path}: a chart drawn {w:.0f} x {h:.0f} px at {width} px")
        page.screenshot(path=str(ARTIFACTS / f"charts-{url_path}-{width}.png"), full_page=True)
        if width == 1600:  # and no table scrolls sideways (test_tables_fit_the_page_at_1600 does the other pages)
            problems += wide_tables(page, f"/{url_path}")[0]
    page.close()
    assert not problems, "\n".join(problems)


# Every visible table: its grid drawn (a scroller per table) and no wider than its box. Tables in closed tabs
# and closed expanders are not drawn, so only visible ones count (checkVisibility: a closed <details> hides them).
TABLE_WIDTHS_JS = """() => [...document.querySelectorAll('[data-testid="stDataFrame"]')]
    .filter(f => f.checkVisibility() && f.getBoundingClientRect().width > 0)
    .map(f => { const s = f.querySelector('.dvn-scroller');
                return s ? [s.scrollWidth, s.clientWidth] : null; })"""


def wide_tables(page, label: str) -> tuple[list[str], int]:
    """On the page as it is (its script done): the tables that scroll sideways, and how many were drawn.
    Every page checked has a table; a page that reruns once after its first run (the inspector) has none
    for a moment, so wait for the first visible one."""
    # Any visible one: the first in the document may sit in a closed expander (Playwright waits on the first only).
    page.wait_for_function("""() => [...document.querySelectorAll('[data-testid="stDataFrame"]')]
        .some(f => f.checkVisibility() && f.getBoundingClientRect().width > 0)""", timeout=PAGE_LOAD_MS)
    page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)
    # Grids draw when scrolled into view. Scrolled by the page's own JS, one at a time: Playwright's
    # scroll_into_view_if_needed waits for the element to be stable and once timed out on /data in CI.
    count = page.locator('[data-testid="stDataFrame"]').count()
    for i in range(count):
        page.evaluate("""i => {
            const f = document.querySelectorAll('[data-testid="stDataFrame"]')[i];
            if (f && f.checkVisibility()) f.scrollIntoView({block: 'center'});
        }""", i)
    page.wait_for_function(f"() => !({TABLE_WIDTHS_JS})().includes(null)", timeout=60_000)
    widths = page.evaluate(TABLE_WIDTHS_JS)
    return [f"{label}: table {n + 1} is {scroll} px wide in a {client} px box"
            for n, (scroll, client) in enumerate(widths) if scroll > client + 1], len(widths)


def test_tables_fit_the_page_at_1600(served, browser, default_run_ids, three_run_ids):
    """At 1600 px no table scrolls sideways: the identifying and deciding columns are all in view. The chart
    pages are checked by test_charts_are_readable_sizes[1600]; here the others, the inspector also in its
    "largest Δ" mode, whose Δ sat off-screen, and with three runs' lists side by side."""
    base, _ = served
    page = browser.new_page()
    page.set_viewport_size({"width": 1600, "height": 1000})
    runs = "&".join(f"runs={r}" for r in default_run_ids.values())
    three = "&".join(f"runs={r}" for r in three_run_ids)
    # The pages with tables beyond the chart pages (Run retrieval shows none until an import or a model is chosen).
    visits = [("inspector", ""), ("data", ""), ("inspector", "&filter=largest+%CE%94+nDCG%4010+between+two+runs"),
              ("inspector", "&query=q_t2c_canonical_retro_cpp_0020&" + three)]
    problems, seen = [], 0
    for path, extra in visits:
        try:
            page.goto(f"{base}/{path}?release=demo_v2603&task=t2c&{runs if 'runs=' not in extra else ''}{extra}",
                      wait_until="domcontentloaded")
            wait_for_script(page)
            found, drawn = wide_tables(page, f"/{path}{extra}")
            if "query=" in extra:  # three lists side by side, each with its runs' markers
                assert page.get_by_text("C · bm25 · demo_v2603 (2)").count() == 1
                page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)
                page.screenshot(path=str(ARTIFACTS / "inspector-three-runs.png"), full_page=False)
        except Exception as exc:  # a timeout: say which page, keep going
            page.screenshot(path=str(ARTIFACTS / f"tables-{path}-failed.png"))
            problems.append(f"/{path}{extra}: {type(exc).__name__}: {str(exc).splitlines()[0]}")
            continue
        problems += found
        seen += drawn
    page.close()
    assert not problems, "\n".join(problems)
    assert seen >= 8, f"only {seen} tables drawn"


def test_a_row_click_opens_the_inspector_and_back_returns(served, browser, default_run_ids):
    """Trap analysis → click a worst-query row → the inspector shows that query → "Back" returns to
    Trap analysis with the same global state."""
    base, _ = served
    runs = "&".join(f"runs={r}" for r in default_run_ids.values())
    page = open_page(browser, f"{base}/traps?release=demo_v2603&task=c2c&anchor=1&{runs}")
    before = global_state(page)
    click_first_row(page, "trap_worst_table")  # the worst queries table
    page.wait_for_url(lambda url: "/inspector" in url, timeout=PAGE_LOAD_MS)
    wait_for_script(page, "Query inspector")
    query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    assert query.get("query") and query["query"][0].startswith("q_c2c_"), page.url
    assert query.get("from") == ["traps"]
    assert query["query"][0] in page.locator('[data-testid="stMain"]').inner_text()
    page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)
    page.screenshot(path=str(ARTIFACTS / "inspector-from-traps.png"), full_page=False)
    page.get_by_role("button", name="← Back to Trap analysis").click()
    page.wait_for_url(lambda url: "/traps" in url, timeout=PAGE_LOAD_MS)
    wait_for_script(page, "Trap analysis")
    assert global_state(page) == before
    assert page.locator("h1").first.inner_text().strip() == "Trap analysis"
    page.close()
