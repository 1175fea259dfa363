"""When a Streamlit page counts as drawn in a real browser: the one definition that the app bench
(``bench/app_bench.py``) and the browser tests (``tests/browser.py``) both import, with the chromium flags they
both launch with. Plain JavaScript strings for Playwright's ``wait_for_function``; nothing here imports
Playwright or the app.

Example:
    >>> PAGE_DRAWN_JS.startswith("() => {") and str(QUIET_MS) in PAGE_DRAWN_JS
    True
"""
from __future__ import annotations

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The script has run to its end and drawn its title (or failed).
SCRIPT_DONE_JS = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    const done = app && app.getAttribute('data-test-script-state') === 'notRunning';
    return done && (document.querySelector('h1') || document.querySelector('[data-testid="stException"]'));
}"""
# Installed in every new tab before Streamlit's code: the time of the page's latest change outside the sidebar
# (a background run's progress there changes every second, and the page would never count as drawn meanwhile).
LAST_CHANGE_INIT_JS = """(() => { window.__lastChange = 0;
    const inSidebar = n => { const e = n.nodeType === 1 ? n : n.parentElement;
                             return !!(e && e.closest && e.closest('[data-testid="stSidebar"]')); };
    new MutationObserver(records => { if (records.some(r => !inSidebar(r.target))) window.__lastChange = performance.now(); })
        .observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); })();"""
# The page is drawn: its script is done, every visible chart has its marks and every visible table its canvas
# (both come from lazily loaded code, after the script's last message), and nothing has changed for QUIET_MS.
# Returns the time of the last change (ms since the navigation started), else null.
QUIET_MS = 1000
PAGE_DRAWN_JS = """() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return null;
    if (!document.querySelector('h1, [data-testid="stException"]')) return null;
    const visible = e => e.checkVisibility() && e.getBoundingClientRect().height > 0;
    const drawn = (testid, inner) => [...document.querySelectorAll(`[data-testid="${testid}"]`)]
        .every(e => !visible(e) || e.querySelector(inner));
    if (!drawn('stVegaLiteChart', 'canvas, svg.marks') || !drawn('stDataFrame', 'canvas')) return null;
    return performance.now() - window.__lastChange >= %d ? window.__lastChange : null;
}""" % QUIET_MS
