"""CoREB error analysis: `streamlit run app.py`. Pages live in pages/; analysis lives in coreb_core."""
import streamlit as st

from coreb_core.defaults import ensure_defaults, needs_defaults
from coreb_core.errors import CorebError
from ui.navigation import PAGE_SPECS
from ui.state import keep_widget_state

st.set_page_config(page_title="CoREB error analysis", layout="wide")
keep_widget_state()  # before any page: the sidebar's and pages' choices survive moving between pages

if needs_defaults():
    # First launch on a fresh clone: CoREB-mini and two default runs, so every page has data.
    bar = st.progress(0.0, text="First launch: building CoREB-mini and the default runs…")
    try:
        ensure_defaults(progress=lambda msg, frac: bar.progress(min(max(frac, 0.0), 1.0), text=f"First launch — {msg}"))
    except CorebError as exc:
        st.error(f"Could not prepare the bundled benchmark: {exc}")
    bar.empty()

PAGES = [st.Page(p.script, title=p.title, icon=p.icon, url_path=p.url_path, default=p.default) for p in PAGE_SPECS]
st.navigation(PAGES).run()
