"""The Streamlit app opens, shows what is in the cache, and prepares a fresh clone on first launch."""

from streamlit.testing.v1 import AppTest

from coreb_core.present.format import plain  # release names are shown as text: their "_" escaped for Markdown
from tests import dump
from tests.builders import REPO


def test_data_page_lists_cached_release(tmp_path, cache):
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local

    src = dump.write_parquet_folder(tmp_path / "src", dump.rows())
    import_release(read_local(src)[2], "release_v2603", cache)
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    assert not at.exception
    at.switch_page("pages/data.py").run()
    assert not at.exception
    assert [s.value for s in at.subheader][:1] == [plain("release_v2603")]
    counts = dict(zip(at.dataframe[0].value["config"], at.dataframe[0].value["rows"]))
    assert counts == dump.EXPECTED_ROWS


def test_first_launch_builds_coreb_mini_and_default_runs(first_launch, monkeypatch):
    """The first page waits only for CoREB-mini and the BM25 run; MiniLM is built after it, as a background
    job on the job board, while the page says so. (The launch itself, a real one on an empty cache, is the session
    fixture ``first_launch``: its cache is every other test's CoREB-mini.)"""
    from coreb_core.runs.folders import list_runs

    cache, at = first_launch.cache, first_launch.app
    monkeypatch.setenv("COREB_CACHE", str(cache))
    assert not at.exception
    assert (cache / "coreb" / "demo_v2603" / "text2code_qrels_v1.parquet").exists()
    assert first_launch.models_at_first_page == ["bm25"]
    assert [t.value for t in at.title][:1] == ["Overview"]  # the page rendered before MiniLM was built
    assert any("minilm default run is being built" in i.value and "appears under Runs" in i.value for i in at.info)
    assert [b.label for b in at.sidebar.button] == ["Cancel this run"]  # the job board's, as for a user's run
    build = first_launch.default_job
    assert build.request.model == "minilm" and build.origin == "default" and build.status == "done"
    assert first_launch.models_after_builds == ["bm25", "minilm"]
    runs = list_runs("demo_v2603", cache)
    assert build.run_id in {m.run_id for m in runs}
    at.run()
    assert not at.exception and not any("being built" in i.value for i in at.info)
    assert at.multiselect(key="runs").value == [r.run_id for r in runs]  # the session now shows both
    assert any("finished in" in s.value for s in at.sidebar.success)
    at.switch_page("pages/data.py").run()
    assert [s.value for s in at.subheader][:2] == [plain("demo_v2603"), plain("demo_v2602")]  # the sidebar's first
    # a later launch starts from the cache: nothing is rebuilt
    again = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    assert not again.exception and list_runs("demo_v2603", cache) == runs


def test_the_later_default_run_is_one_background_job(cache, mini_data):
    """start_later_default: one job on the job board per process and cache, waiting for the first page,
    its state readable meanwhile and its run stored at the end (BM25 stands in for MiniLM); a release that
    has the run gets no job."""
    import shutil

    from coreb_core.defaults import first_page_rendered, later_default, start_later_default
    from coreb_core.retrieval.jobs import DEFAULT, board
    from coreb_core.runs.folders import list_runs

    shutil.copytree(mini_data / "coreb" / "demo_v2603", cache / "coreb" / "demo_v2603")  # CoREB-mini alone
    job = start_later_default(cache, model="bm25")
    state = board(cache).state(job)
    assert (state.request.model, state.origin, state.finished) == ("bm25", DEFAULT, False)
    assert start_later_default(cache, model="bm25") == job == later_default(cache)  # once per process
    first_page_rendered()
    done = board(cache).wait(job, 600)
    assert (done.status, done.error, done.message, done.fraction) == ("done", None, "done", 1.0)
    assert [m.run_id for m in list_runs("demo_v2603", cache)] == [done.run_id]
    assert done.elapsed_s > 0


def test_no_script_relies_on_streamlit_magic():
    """.streamlit/config.toml turns magic off (its AST rewrite cost every new session 0.2 s): no page may
    hold a bare expression that magic would have written to the page (a docstring at the top is fine)."""
    import ast

    import tomllib

    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["magicEnabled"] is False
    bare = []
    for script in [REPO / "app.py", *sorted((REPO / "pages").glob("*.py"))]:
        tree = ast.parse(script.read_text())
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if not isinstance(body, list):
                continue
            for i, statement in enumerate(body):
                if not isinstance(statement, ast.Expr) or isinstance(statement.value, (ast.Call, ast.Await)):
                    continue
                docstring = (i == 0 and isinstance(statement.value, ast.Constant)
                             and isinstance(statement.value.value, str))
                if not docstring:
                    bare.append(f"{script.name}:{statement.lineno}")
    assert bare == []


def test_the_server_watches_no_files():
    """Issue 34: a file watcher over the project (``.venv`` and ``data_cache/`` included) printed thousands of
    "Inotify queue overflowed" lines during a long run; the served app watches nothing."""
    import tomllib

    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text())
    assert config["server"]["fileWatcherType"] == "none"
