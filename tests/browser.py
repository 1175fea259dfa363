"""The real browser the app's browser tests drive: a served app, Debian's chromium through Playwright, and the
checks every page gets. Helpers only; the tests are tests/app/test_browser*.py.

Playwright (from PyPI) drives Debian's chromium (`apt-get install chromium`; never `playwright install`).
"""
from __future__ import annotations

import contextlib
import html as html_lib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

from bench.page_drawn import CHROMIUM_ARGS, LAST_CHANGE_INIT_JS, PAGE_DRAWN_JS
from tests.builders import ARTIFACTS, REPO

SERVER_START_S = 90
PAGE_LOAD_MS = 180_000  # a page's first render scores the runs; 2 slow cores, every page in one server
NAV_WAIT_MS = 15_000  # the sidebar's page links after the script is done


def app_pages() -> list[tuple[str, str, bool]]:
    """(url_path, title, default) of every page of the app, in navigation order."""
    from ui.navigation import PAGE_SPECS

    return [(p.url_path, p.title, p.default) for p in PAGE_SPECS]


def chromium_path() -> str:
    path = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
    if path is None:
        pytest.fail("Debian's chromium is not installed, and this test must drive a real browser. Install it with "
                    "`apt-get update && apt-get install -y chromium` (as root; .ci/run does this on CI). "
                    "Do not run `playwright install`.", pytrace=False)
    return path


PORT_RANGE_ENV = "COREB_TEST_PORTS"


def port_range() -> range | None:
    """``$COREB_TEST_PORTS`` ("20000-20999"), the ports this pytest process may serve on, or None (any port).
    `make test` runs its two slow passes side by side and gives each a range of its own, below the kernel's
    ephemeral ports (32768-60999 on Linux): a port one process picked cannot be taken by the other before its
    server binds it, nor by an outgoing connection."""
    spec = os.environ.get(PORT_RANGE_ENV, "").strip()
    if not spec:
        return None
    low, _, high = spec.partition("-")
    try:
        ports = range(int(low), int(high or low) + 1)
    except ValueError:
        raise ValueError(f"{PORT_RANGE_ENV}={spec!r}: expected LOW-HIGH, e.g. 20000-20999") from None
    if not ports or ports.start < 1024 or ports.stop > 65536:
        raise ValueError(f"{PORT_RANGE_ENV}={spec!r}: expected 1024 <= LOW <= HIGH <= 65535")
    return ports


_next_port: dict[range, int] = {}


def binds(port: int) -> bool:
    """Whether a socket can bind ``port`` on 127.0.0.1 now."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port on 127.0.0.1 that binds now: the next free one of ``$COREB_TEST_PORTS`` (taken in turn, so a server
    that has just stopped is not reused at once), else one the system assigns."""
    ports = port_range()
    if ports is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
    start = _next_port.get(ports, ports.start)
    for i in range(len(ports)):
        port = ports.start + (start - ports.start + i) % len(ports)
        if binds(port):
            _next_port[ports] = port + 1 if port + 1 < ports.stop else ports.start
            return port
    raise RuntimeError(f"no free port in {PORT_RANGE_ENV}={os.environ[PORT_RANGE_ENV]}")


def log_tail(log: Path, n: int = 60) -> str:
    lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    return "\n".join(lines[-n:])


def wait_healthy(proc: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"streamlit exited with status {proc.returncode} before serving:\n{log_tail(log)}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail(f"streamlit did not answer {url}/_stcore/health within {SERVER_START_S}s:\n{log_tail(log)}")


def check_page(page, base: str, url_path: str, default: bool, titles: list[str]) -> list[str]:
    """Open one page, wait until its script has run, screenshot it; return what is wrong with it."""
    # st.navigation serves the default page at the root: its url_path answers "Page not found".
    expected_path = "" if default else url_path
    page.goto(f"{base}/{expected_path}", wait_until="domcontentloaded")
    # The script has started, produced its title and finished (or failed).
    page.wait_for_selector('[data-testid="stSidebar"]', state="attached", timeout=PAGE_LOAD_MS)
    page.wait_for_function(
        """() => {
            const app = document.querySelector('[data-testid="stApp"]');
            const done = app && app.getAttribute('data-test-script-state') === 'notRunning';
            return done && (document.querySelector('h1') || document.querySelector('[data-testid="stException"]'));
        }""", timeout=PAGE_LOAD_MS, polling=200)
    # Tables, charts and code blocks are drawn from lazily loaded code after the script is done: screenshot
    # the page once it is drawn (the bench's definition: every visible chart and table drawn, 1 s unchanged).
    page.wait_for_function(PAGE_DRAWN_JS, timeout=PAGE_LOAD_MS, polling=200)
    # The sidebar's page links come in their own message and can paint after the script is done (CI once
    # read [] here): wait a while for them, and report what is there if they never come.
    try:
        page.wait_for_function(
            """n => document.querySelectorAll(
                '[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]').length >= n""",
            arg=len(titles), timeout=NAV_WAIT_MS, polling=100)
    except Exception:
        pass
    page.screenshot(path=str(ARTIFACTS / f"{url_path}.png"), full_page=True)

    return page_problems(page, expected_path, titles)


def page_problems(page, expected_path: str, titles: list[str]) -> list[str]:
    """What is wrong with the page as it is drawn: a URL other than ``expected_path``, error boxes, no title,
    a blank main area, a "not found" dialog, a menu other than ``titles``."""
    problems: list[str] = []
    path = urllib.parse.urlparse(page.url).path.strip("/")
    if path != expected_path:
        problems.append(f"the URL path became /{path}, not /{expected_path} (page not found?)")
    boxes = page.evaluate("""() => {
        const exc = [...document.querySelectorAll('[data-testid="stException"]')];
        const err = [...document.querySelectorAll('[data-testid="stAlertContentError"]')]
            .filter(e => !e.closest('[data-testid="stException"]'));
        return exc.concat(err).map(e => e.innerText);
    }""")
    for text in boxes:
        lines = [ln for ln in text.strip().splitlines() if ln.strip() not in ("Copy", "Ask Google", "Ask ChatGPT")]
        problems.append("Streamlit error box: " + "\n".join(lines))
    h1 = [t.strip() for t in page.locator("h1").all_inner_texts() if t.strip()]
    if not h1:
        problems.append("no page title (h1)")
    main = page.locator('[data-testid="stMain"]')
    main_text = (main.inner_text() if main.count() else page.locator("body").inner_text()).strip()
    if len(main_text) < 5:
        problems.append(f"blank page: main area text is {main_text!r}")
    for dialog in page.locator('[role="dialog"]').all():
        text = " ".join(dialog.inner_text().split())
        if "not found" in text.lower():
            problems.append(f"dialog: {text}")
    nav = [[line.strip() for line in t.splitlines() if line.strip()][-1:]
           for t in page.locator('[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"]').all_inner_texts()]
    nav = [n[0] for n in nav if n]
    if nav != titles:
        problems.append(f"the sidebar navigation lists {nav}, not app.py's pages {titles}"
                        + (" (Streamlit served the pages/ folder as an old-style multipage app)" if "common" in nav else ""))
    return problems


def wait_for_script(page, title: str | None = None) -> None:
    """Until the page's script has run to its end (a title or an exception box is on the page). After a
    move within the app (a menu click, back, forward) pass the new page's ``title``: for a moment the old
    page is still shown, finished, with its own title, and the new one has not yet written its URL."""
    page.wait_for_function(
        """title => {
            const app = document.querySelector('[data-testid="stApp"]');
            const done = app && app.getAttribute('data-test-script-state') === 'notRunning';
            const h1 = document.querySelector('h1');
            if (document.querySelector('[data-testid="stException"]')) return done;
            return done && h1 && (title === null || h1.innerText.trim() === title);
        }""", arg=title, timeout=PAGE_LOAD_MS, polling=200)


def open_page(browser, url: str, width: int = 1600, height: int = 1000):
    """A new tab of ``browser`` at ``width`` x ``height`` on ``url``, once its script has run."""
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url, wait_until="domcontentloaded")
    wait_for_script(page)
    return page


def click_first_row(page, key: str) -> None:
    """Select the first data row of the table whose widget key is ``key``, as a user clicks it: below the header
    row (35 px), in the row-selection column at the left."""
    grid = page.locator(f'.st-key-{key} [data-testid="stDataFrame"]')
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 12, box["y"] + 35 + 17)


GLOBAL_KEYS = ("release", "scheme", "task", "anchor", "runs")


def global_state(page) -> dict[str, list[str]]:
    """The sidebar's global choices as the URL carries them (the sidebar writes them on every run)."""
    query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    return {k: sorted(query.get(k, [])) for k in GLOBAL_KEYS}


@contextlib.contextmanager
def serve(cache: Path, log: Path, env: dict | None = None) -> Iterator[str]:
    """One `streamlit run app.py` on 127.0.0.1 over ``cache`` (its output in ``log``): yields the base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "COREB_CACHE": str(cache), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "PYTHONUNBUFFERED": "1", **(env or {})}
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.address", "127.0.0.1",
           "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false",
           "--server.fileWatcherType", "none"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_healthy(proc, base, log)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


# CSS animations and transitions off: headless chromium draws every frame of a spinner or a fade while a test waits
# (the suite's browser tests wait on 2 busy cores for minutes); nothing a test checks is an animation.
NO_ANIMATIONS_JS = """document.addEventListener('DOMContentLoaded', () => { const style = document.createElement('style');
    style.textContent = '*, *::before, *::after { animation: none !important; transition: none !important; }';
    document.head.appendChild(style); });"""


@contextlib.contextmanager
def chromium(profile: Path) -> Iterator:
    """Debian's chromium through Playwright: one persistent context (profile folder ``profile``), 1400x1000."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile), executable_path=executable, headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1400, "height": 1000})
        context.add_init_script(LAST_CHANGE_INIT_JS)  # for PAGE_DRAWN_JS: the time of the page's last change
        if os.environ.get("COREB_TEST_ANIMATIONS") != "1":
            context.add_init_script(NO_ANIMATIONS_JS)
        try:
            yield context
        finally:
            context.close()


SIDEBAR = '[data-testid="stSidebar"]'
MENU = f'{SIDEBAR} [data-testid="stPageLink-NavLink"]'


def menu_link(page, title: str):
    """The sidebar menu's link to the page titled exactly ``title`` (``has_text`` alone matches any link holding the
    words, case aside: "Data" would find "Training data" first)."""
    return page.locator(MENU).filter(has=page.locator(f"text={json.dumps(title)}")).first


def menu(page, title: str) -> None:
    """Click ``title`` in the sidebar menu and wait for its script."""
    menu_link(page, title).click()
    wait_for_script(page, title)


def start_run(page, option: str) -> None:
    """Run retrieval from the menu: the model listed as ``option`` (an API model's reads "<id> (API)"), Run; returns
    once the sidebar shows it running."""
    menu(page, "Run retrieval")
    page.locator(".st-key-run_model").click()
    page.get_by_role("option", name=option, exact=True).click()
    wait_for_script(page, "Run retrieval")
    page.get_by_role("button", name="Run", exact=True).click()
    page.wait_for_function("() => document.querySelector('[data-testid=\"stSidebar\"]').innerText"
                           ".includes('Running in the background')", timeout=60_000)


def selection_url(page, **constraints: str) -> str:
    """The page's own URL with the Model selection constraints added, as its share link carries them."""
    url = urllib.parse.urlparse(page.url)
    query = {**urllib.parse.parse_qs(url.query), **{k: [v] for k, v in constraints.items()}}
    return url._replace(query=urllib.parse.urlencode(query, doseq=True)).geturl()


def verdict_and_evidence(page) -> tuple[str, str]:
    """Model selection's verdict sentence and the evidence line under it, as shown."""
    main = page.locator('[data-testid="stMain"]')
    verdict = main.locator('[data-testid="stMarkdownContainer"] p').filter(
        has_text=re.compile(r"^(Choose|No clear winner)")).first.inner_text().strip()
    return verdict, main.locator('[data-testid="stText"]').first.inner_text().strip()


def tier_line(page) -> str:
    """Model selection's rank-tier sentence under the evidence (issue 36: the report's box carries it too)."""
    texts = page.locator('[data-testid="stMain"] [data-testid="stText"]').all_inner_texts()
    return next(t.strip() for t in texts if t.strip().startswith(("The recommended run is", "No run is recommended")))


def reports_verdict(path) -> list[str]:
    """The downloaded report's recommendation box: its verdict and evidence sentences."""
    box = re.search(r'<div class="rec"><b>Recommendation.</b> (.*?)</div>', path.read_text(encoding="utf-8")).group(1)
    return [html_lib.unescape(part).strip() for part in box.split("<br>")]
