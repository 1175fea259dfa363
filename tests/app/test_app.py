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
    """The first page waits only for CoREB-mini and the BM25 run; MiniLM is built after it, in a background
    thread, while the page says so. (The launch itself, a real one on an empty cache, is the session
    fixture ``first_launch``: its cache is every other test's CoREB-mini.)"""
    from coreb_core.runs.folders import list_runs

    cache, at = first_launch.cache, first_launch.app
    monkeypatch.setenv("COREB_CACHE", str(cache))
    assert not at.exception
    assert (cache / "coreb" / "demo_v2603" / "text2code_qrels_v1.parquet").exists()
    assert first_launch.models_at_first_page == ["bm25"]
    assert [t.value for t in at.title][:1] == ["Overview"]  # the page rendered before MiniLM was built
    assert any("minilm default run is being built" in i.value and "appears under Runs" in i.value for i in at.info)
    [build] = first_launch.builds
    assert build.model == "minilm" and build.done and build.error is None
    assert first_launch.models_after_builds == ["bm25", "minilm"]
    runs = list_runs("demo_v2603", cache)
    assert build.run_id in {m.run_id for m in runs}
    at.run()
    assert not at.exception and not any("being built" in i.value for i in at.info)
    at.switch_page("pages/data.py").run()
    assert [s.value for s in at.subheader][:2] == [plain("demo_v2603"), plain("demo_v2602")]  # the sidebar's first
    # a later launch starts from the cache: nothing is rebuilt
    again = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    assert not again.exception and list_runs("demo_v2603", cache) == runs


def test_later_default_runs_build_in_the_background_once(cache, mini_cache):
    """start_later_defaults: one background build per process and cache, started once the first page
    rendered, its state readable meanwhile and its run stored at the end (BM25 stands in for MiniLM)."""
    import shutil

    from coreb_core.defaults import first_page_rendered, later_defaults, start_later_defaults
    from coreb_core.runs.folders import list_runs

    shutil.copytree(mini_cache / "coreb" / "demo_v2603", cache / "coreb" / "demo_v2603")
    builds = start_later_defaults(cache, models=("bm25",))
    assert [b.model for b in builds] == ["bm25"] and not builds[0].done
    assert start_later_defaults(cache, models=("bm25",)) is builds is later_defaults(cache)  # once per process
    first_page_rendered()
    [build] = builds
    assert build.wait(600).done and build.error is None and build.message == "done" and build.fraction == 1.0
    assert [m.run_id for m in list_runs("demo_v2603", cache)] == [build.run_id]
    assert build.elapsed() == build.finished - build.started > 0


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
