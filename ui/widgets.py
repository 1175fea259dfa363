"""Small widgets every page uses: errors shown as lines, CSV downloads, provenance captions, run labels."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from coreb_core.runs.run import RunMeta, run_name
from ui.format import plain
from ui.state import State


def run_label(meta: RunMeta) -> str:
    when = str(meta.created or "")[5:16].replace("T", " ")
    kind = "" if meta.kind in (None, "retrieval") else f" ({meta.kind})"
    return f"{run_name(meta)}{kind} · {when} · …{meta.run_id[-6:]}"


def show_error(exc: BaseException) -> None:
    """An error the user caused, one box per line, its text shown literally (ids and paths may hold
    Markdown characters)."""
    for line in str(exc).splitlines() or [type(exc).__name__]:
        st.error(plain(line))


def csv_download(frame: pd.DataFrame, name: str, label: str = "Download CSV") -> None:
    st.download_button(label, frame.to_csv(index=False).encode("utf-8"), file_name=f"{name}.csv", mime="text/csv",
                       key=f"csv-{name}")


def provenance(state: State, extra: str = "") -> str:
    """The one-line caption every number on a page carries."""
    anchor = "C2C anchor excluded" if state.anchor_exclusion else "C2C anchor kept"
    return f"Source: our runs on `{state.release}` · scheme `{state.scheme}` · {anchor}{' · ' + extra if extra else ''}"
