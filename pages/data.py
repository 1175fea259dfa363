"""Data page: the releases in the cache, their row counts and judgments per task."""
import pandas as pd
import streamlit as st

from coreb_core.errors import CorebError
from coreb_core.store import info

st.title("Data")
try:
    report = info()
except CorebError as exc:
    st.error(str(exc))
    st.stop()

if not report["releases"]:
    st.info(f"No release is cached in `{report['cache']}`. Build the bundled benchmark with "
            "`python -m coreb_core demo`, or import the real CoREB with `python -m coreb_core import-data DIR`.")
    st.stop()

for release, data in report["releases"].items():
    st.subheader(release)
    left, right = st.columns(2)
    rows = pd.DataFrame({"config": list(data["rows"]), "rows": list(data["rows"].values())})
    left.dataframe(rows, hide_index=True)
    tasks = pd.DataFrame([{"task": t, **c} for t, c in data["tasks"].items()])
    right.dataframe(tasks, hide_index=True)
