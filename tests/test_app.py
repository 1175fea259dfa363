"""The Streamlit app opens and shows what is in the cache."""
from pathlib import Path

from streamlit.testing.v1 import AppTest

import dump

REPO = Path(__file__).resolve().parent.parent


def test_data_page_lists_cached_release(tmp_path, cache):
    from coreb_core.ingest import import_release
    from coreb_core.sources import read_local

    src = dump.write_parquet_folder(tmp_path / "src", dump.rows())
    import_release(read_local(src)[2], "release_v2603", cache)
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    assert not at.exception
    assert [s.value for s in at.subheader] == ["release_v2603"]
    counts = dict(zip(at.dataframe[0].value["config"], at.dataframe[0].value["rows"]))
    assert counts == dump.EXPECTED_ROWS


def test_first_launch_builds_coreb_mini(cache):
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=300).run()
    assert not at.exception
    assert [s.value for s in at.subheader] == ["demo_v2602", "demo_v2603"]
    assert (cache / "coreb" / "demo_v2603" / "text2code_qrels_v1.parquet").exists()
