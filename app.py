"""CoREB error analysis: `streamlit run app.py`. Pages live in pages/; analysis lives in coreb_core."""
import streamlit as st

st.set_page_config(page_title="CoREB error analysis", layout="wide")

navigation = st.navigation([
    st.Page("pages/data.py", title="Data", icon=":material/database:", default=True),
])
navigation.run()
