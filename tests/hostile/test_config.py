"""The shipped server configuration: what `make run` (and a bare `streamlit run app.py`) serves."""
from __future__ import annotations

import pytest
import tomllib

from tests.builders import REPO


def test_served_on_loopback_with_bounded_uploads_and_no_deploy_menu():
    """Was: no .streamlit/config.toml, so `streamlit run app.py` listened on every interface and took
    200 MB per file, any number of files."""
    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"
    assert 0 < config["server"]["maxUploadSize"] <= 100
    assert config["client"]["toolbarMode"] == "minimal"
    assert config["browser"]["gatherUsageStats"] is False
    assert "make run" in (REPO / "app.py").read_text().split('"""')[1]


@pytest.mark.parametrize("files, message", [
    ([(f"r{i}.trec", b"") for i in range(501)], "501 files uploaded at once: at most 500"),
    ([("a.parquet", b"x" * (600 << 20)), ("b.parquet", b"x" * (600 << 20))], "1,200 MiB uploaded at once: at most 1,024 MiB"),
])
def test_an_upload_batch_is_bounded_before_anything_is_written(tmp_path, files, message):
    """Was: any number of files, any total size, each written to disk."""
    from coreb_core.errors import CorebError
    from coreb_core.results.uploads import save_uploads

    with pytest.raises(CorebError, match=message):
        save_uploads(files, tmp_path / "up")
    assert not (tmp_path / "up").exists()
