"""CoREB error analysis: `make run` (serves it on http://127.0.0.1:8501 only: .streamlit/config.toml sets the
address). Pages live in pages/; analysis lives in coreb_core."""
import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.navigation.page import StreamlitPage

from coreb_core.present.format import plain, release_words
from ui.navigation import PAGE_SPECS
from ui.state import PageStopped, buffer_url, drop_url_buffer, flush_url, keep_widget_state, menu_links, url_params
from ui.warmup import start_warmup

start_warmup()  # once per server: heavy imports and the evaluation kernels load beside the first request
st.set_page_config(page_title="CoREB error analysis", layout="wide")
keep_widget_state()  # before any page: the sidebar's and pages' choices survive moving between pages

# Streamlit serves the default page at / and reserves its url_path, yet answers "Page not found" to it; so the
# default page gets a name nobody types (HOME_PATH) and its own name is an alias that opens it.
HOME_PATH = "home"
PAGES = [st.Page(p.script, title=p.title, icon=p.icon, url_path=HOME_PATH if p.default else p.url_path,
                 default=p.default) for p in PAGE_SPECS]
DEFAULT_PAGE = next(page for page, spec in zip(PAGES, PAGE_SPECS) if spec.default)


def _open_default_page() -> None:
    """``/overview`` opens the Overview at ``/``, with the link's parameters."""
    params = {k: (v[0] if len(v) == 1 else v) for k, v in url_params().items() if v}
    drop_url_buffer()
    st.switch_page(DEFAULT_PAGE, query_params=params)


ALIASES = [st.Page(_open_default_page, title=spec.title, url_path=spec.url_path) for spec in PAGE_SPECS if spec.default]
# The menu is ours (page links at the top of the sidebar) and Streamlit's is hidden
# (.streamlit/config.toml: client.showSidebarNavigation = false): Streamlit's own menu would list the
# files of pages/ on a fresh server's first request, before st.navigation has run.
page = st.navigation(PAGES + ALIASES, position="hidden")
menu = st.sidebar.container()  # filled after the page has run: its links carry the page's final URL state

from coreb_core.defaults import (  # noqa: E402
    FIRST_MODELS,
    ensure_defaults,
    first_page_rendered,
    later_default,
    needs_defaults,
    start_later_default,
)
from coreb_core.errors import CorebError  # noqa: E402
from coreb_core.retrieval.jobs import FAILED, RunRequest, board  # noqa: E402


def first_launch() -> None:
    """First launch on a fresh clone: the data (COREB_DATA's copy of the real CoREB, the hub, or CoREB-mini) and the
    BM25 run (seconds), then the page; the MiniLM run is then a background job (start_later_default), shown with
    its progress and Cancel in the sidebar like any run a user starts."""
    bar = st.progress(0.0, text="First launch: caching the benchmark and the BM25 default run…")
    try:
        def first_launch_progress(msg: str, frac: float) -> None:
            bar.progress(min(max(frac, 0.0), 1.0), text=f"First launch — {msg}")

        ensure_defaults(progress=first_launch_progress, models=FIRST_MODELS)
        start_later_default()
    except CorebError as exc:
        st.error(f"Could not prepare the bundled benchmark: {plain(exc)}")
    bar.empty()


def later_default_notice() -> None:
    """While the MiniLM default run is built in the background (or after it failed), a line above every page."""
    job = later_default()
    if job is None:
        return
    default_job = board().state(job)
    request = default_job.request
    model = request.model if isinstance(request, RunRequest) else request.title
    if not default_job.finished:
        st.info(f"The {model} default run is being built in the background (progress and Cancel "
                f"in the sidebar); it appears under Runs in the sidebar ({release_words(default_job.request.release)}) "
                "when done.", icon=":material/hourglass_top:")
    elif default_job.status == FAILED:
        st.warning(f"The {model} default run could not be built: {plain(default_job.error)}. "
                   "Build it from the Run retrieval page.")


def run_page(page: StreamlitPage, menu: DeltaGenerator) -> None:
    """Run the page with its URL parameters written once, at the end of its run (one history entry a visit), then
    fill the menu, whose links carry the page's final URL state."""
    buffer_url()
    try:
        page.run()
    except PageStopped:  # the page ended early (stop_page): its URL state and the menu still follow
        pass
    finally:
        # The menu's links carry the state, so a click pushes one history entry with the next page's URL whole
        # (a bare link pushed the path alone, then the page its parameters: Back landed on the same page).
        links = menu_links(flush_url(), page.url_path, [p.url_path for p in PAGES])
        with menu:
            for p in PAGES:
                st.page_link(p, label=p.title, icon=p.icon, query_params=links[p.url_path])


if needs_defaults():
    first_launch()
later_default_notice()
run_page(page, menu)
first_page_rendered()  # the MiniLM default run may start loading now
