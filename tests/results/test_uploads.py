"""coreb_core.results.uploads: uploaded files saved safely; datasets validated before they reach the cache."""
import pytest

from coreb_core.data.store import list_releases
from coreb_core.errors import DataError
from coreb_core.present.format import error_lines
from coreb_core.results.uploads import import_dataset, save_uploads
from tests import dump
from tests.builders import bad_jsonl


def test_save_uploads_refuses_paths(tmp_path):
    assert [p.name for p in save_uploads([("a.parquet", b"x")], tmp_path / "u")] == ["a.parquet"]
    with pytest.raises(DataError, match="file names may hold only"):
        save_uploads([("../evil.parquet", b"x")], tmp_path / "u")


def test_import_dataset_validates(tmp_path, cache):
    with pytest.raises(DataError) as err:
        import_dataset(bad_jsonl(tmp_path), "r", root=cache)
    lines = error_lines(err.value)
    assert len(lines) == 2
    assert lines[0].endswith("text2code_qrels.jsonl: row 2: field 'relevance': grade must be 0, 1 or 2: 5")
    assert lines[1].endswith("code2code_qrels.jsonl: row 3: field 'relevance': grade must be 0, 1 or 2: 7")
    assert all("\n" not in line for line in lines)
    assert list_releases(cache) == []
    name, counts = import_dataset(dump.write_parquet_folder(tmp_path / "good", dump.rows()), "r", root=cache)
    assert name == "r" and counts == dump.EXPECTED_ROWS and list_releases(cache) == ["r"]
