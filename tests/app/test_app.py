"""The Streamlit app opens, shows what is in the cache, and prepares a fresh clone on first launch."""

from streamlit.testing.v1 import AppTest

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
    assert [s.value for s in at.subheader][:1] == ["release_v2603"]
    counts = dict(zip(at.dataframe[0].value["config"], at.dataframe[0].value["rows"]))
    assert counts == dump.EXPECTED_ROWS


def test_first_launch_builds_coreb_mini_and_default_runs(cache):
    from coreb_core.runs.run import list_runs

    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=600).run()
    assert not at.exception
    assert (cache / "coreb" / "demo_v2603" / "text2code_qrels_v1.parquet").exists()
    assert sorted(m["model"] for m in list_runs("demo_v2603", cache)) == ["bm25", "minilm"]
    at.switch_page("pages/data.py").run()
    assert [s.value for s in at.subheader][:2] == ["demo_v2602", "demo_v2603"]
    # a later launch starts from the cache: nothing is rebuilt
    again = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    assert not again.exception and len(list_runs("demo_v2603", cache)) == 2
