"""The first launch uses the real CoREB when it can: ``COREB_DATA=DIR`` imports a local copy (every release
of a folder of release folders) and the default runs go to release_v2603; with nothing set and the hub
offline, CoREB-mini stays the default (tests/app/test_app.py)."""
from __future__ import annotations

import pytest


def test_coreb_data_imports_every_real_release_and_runs_bm25_on_v2603(real_first_launch):
    """The session's real first launch (``real_first_launch``: COREB_DATA, then ensure_defaults as app.py calls it)."""
    launch = real_first_launch
    assert launch.needed_before
    assert launch.releases == ["release_v2602", "release_v2603"]  # no CoREB-mini built
    assert launch.default_release == "release_v2603"
    assert launch.models == ["bm25"] and len(launch.created) == 1
    assert any("importing release_v2603" in m for m in launch.messages)
    assert not launch.needed_after


def test_a_bad_coreb_data_is_an_error_naming_it(tmp_path, monkeypatch):
    from coreb_core.defaults import ensure_defaults
    from coreb_core.errors import CorebError

    monkeypatch.setenv("COREB_DATA", str(tmp_path / "nowhere"))
    with pytest.raises(CorebError, match="nowhere"):
        ensure_defaults(root=tmp_path / "cache", models=())
    assert not (tmp_path / "cache" / "coreb").exists() or not any((tmp_path / "cache" / "coreb").iterdir())
