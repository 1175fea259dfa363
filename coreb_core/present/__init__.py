"""Presentation without Streamlit: how numbers and verdicts are written for a person. The pages (through
``ui``), the HTML report and the CLI all print through here, so one verdict reads the same everywhere.

Layer: above ``analysis`` (it words what analysis returns), below the entry points (cli, report) and ``ui``.
"""
