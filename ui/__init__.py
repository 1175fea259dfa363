"""Streamlit-side helpers shared by the pages: navigation, sidebar state in the URL, cached data,
widgets and labels. The only place besides pages/ and app.py that imports Streamlit; every number
comes from coreb_core."""
