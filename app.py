"""CoREB error analysis: `streamlit run app.py`. Pages live in pages/; analysis lives in coreb_core."""
import streamlit as st

from coreb_core.errors import CorebError
from coreb_core.store import list_releases

st.set_page_config(page_title="CoREB error analysis", layout="wide")

if not list_releases():
    # First launch on a fresh clone: build the bundled CoREB-mini so every page has data.
    from coreb_core.mini.build import build_demo

    bar = st.progress(0.0, text="First launch: building the bundled CoREB-mini benchmark…")
    try:
        build_demo(progress=lambda msg, frac: bar.progress(min(frac, 1.0), text=f"Building CoREB-mini — {msg}"))
    except CorebError as exc:
        st.error(f"Could not build CoREB-mini: {exc}")
    bar.empty()

navigation = st.navigation([
    st.Page("pages/data.py", title="Data", icon=":material/database:", default=True),
])
navigation.run()
