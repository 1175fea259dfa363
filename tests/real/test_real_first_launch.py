"""The first launch uses the real CoREB when it can: ``COREB_DATA=DIR`` imports a local copy (every release
of a folder of release folders) and the default runs go to release_v2603; with nothing set and the hub
offline, CoREB-mini stays the default (tests/app/test_app.py)."""
from __future__ import annotations

import pytest

from tests.conftest import REAL_DATA, real_release_folder


def test_coreb_data_imports_every_real_release_and_runs_bm25_on_v2603(tmp_path, monkeypatch):
    from coreb_core.data.store import list_releases
    from coreb_core.defaults import FIRST_MODELS, default_release, ensure_defaults, needs_defaults
    from coreb_core.runs.folders import list_runs

    real_release_folder("release_v2603")
    root = tmp_path / "cache"
    monkeypatch.setenv("COREB_DATA", str(REAL_DATA))
    messages = []
    assert needs_defaults(root)
    created = ensure_defaults(progress=lambda m, f: messages.append(m), root=root, models=FIRST_MODELS)
    assert list_releases(root) == ["release_v2602", "release_v2603"]  # no CoREB-mini built
    assert default_release(list_releases(root)) == "release_v2603"
    assert [m.model for m in list_runs("release_v2603", root)] == ["bm25"] and len(created) == 1
    assert any("importing release_v2603" in m for m in messages)
    assert not needs_defaults(root)


def test_a_bad_coreb_data_is_an_error_naming_it(tmp_path, monkeypatch):
    from coreb_core.defaults import ensure_defaults
    from coreb_core.errors import CorebError

    monkeypatch.setenv("COREB_DATA", str(tmp_path / "nowhere"))
    with pytest.raises(CorebError, match="nowhere"):
        ensure_defaults(root=tmp_path / "cache", models=())
    assert not (tmp_path / "cache" / "coreb").exists() or not any((tmp_path / "cache" / "coreb").iterdir())
