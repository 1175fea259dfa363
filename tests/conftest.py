"""Shared fixtures: private caches, the app's real first launch once per session (it builds CoREB-mini,
the BM25 run and the one MiniLM encode of the session), its first launch on the real export (``COREB_DATA``),
the tiny hand-made release, the default runs. Plain helpers and builders (``run_cli``, ``app_test``,
``tiny_hits``, …) live in ``tests/builders.py``."""
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# Imports by path may read only under the import roots (coreb_core/input_paths.py). Tests import from
# temporary folders and from the shared test data beside the repository; hostile tests set their own.
_REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("COREB_IMPORT_ROOTS", os.pathsep.join([tempfile.gettempdir(), str(_REPO), str(_REPO.parent / "shared")]))


# The real benchmark, every row of both releases as ``datasets`` returns them (shared/coreb_real/README.md).
REAL_DATA = _REPO.parent / "shared" / "coreb_real"


def real_release_folder(release: str) -> Path:
    """``shared/coreb_real/<release>``, or the test is skipped with a one-line reason when it is absent."""
    folder = REAL_DATA / release
    if not (folder / "code_corpus.jsonl").is_file():
        pytest.skip(f"the real CoREB export is absent ({folder})")
    return folder


@dataclass
class RealFirstLaunch:
    """What the app's first launch did with ``COREB_DATA`` naming the real export (the folder of release folders):
    ``needed_before`` / ``needed_after`` are ``needs_defaults`` before and after it, ``releases`` the releases cached
    then, ``default_release`` the one the pages open on, ``models`` the runs of that release then, ``created`` the
    run ids it returned and ``messages`` its progress lines."""
    cache: Path
    needed_before: bool
    needed_after: bool
    releases: list[str]
    default_release: str | None
    models: list[str]
    created: list[str]
    messages: list[str]


@pytest.fixture(scope="session")
def real_first_launch(tmp_path_factory) -> RealFirstLaunch:
    """The app's first launch on the real release, once per session: ``COREB_DATA`` set to the real export, then
    what app.py does before its first page, ``ensure_defaults(models=FIRST_MODELS)`` (both releases imported, the
    BM25 run on release_v2603). Not its later default: app.py then submits MiniLM as a background job
    (``start_later_default``), which would encode the whole real release for many minutes; it is left unsubmitted
    here (the MiniLM first launch is ``first_launch``, on CoREB-mini). tests/real/test_real_first_launch.py asserts
    on what it did; ``real_cache`` adds to its cache."""
    from coreb_core.data.store import list_releases
    from coreb_core.defaults import DATA_ENV, FIRST_MODELS, default_release, ensure_defaults, needs_defaults
    from coreb_core.runs.folders import list_runs

    real_release_folder("release_v2603")
    root = tmp_path_factory.mktemp("real-cache")
    messages: list[str] = []
    with pytest.MonkeyPatch.context() as env:
        env.setenv(DATA_ENV, str(REAL_DATA))
        before = needs_defaults(root)
        created = ensure_defaults(progress=lambda m, f: messages.append(m), root=root, models=FIRST_MODELS)
        releases = list_releases(root)
        release = default_release(releases)
        models = [m.model for m in list_runs(release, root)] if release else []
        after = needs_defaults(root)
    return RealFirstLaunch(root, before, after, releases, release, models, created, messages)


@pytest.fixture(scope="session")
def real_cache(real_first_launch) -> Path:
    """The real first launch's cache (both real releases, its BM25 run on release_v2603), with a bm25s-mteb run on
    release_v2603 (seconds) and MTEB's published bm25s result files (shared/mteb_results) added: the real-data
    tests share it and add nothing to it."""
    from coreb_core.retrieval.pipeline import run_retrieval

    root = real_first_launch.cache
    run_retrieval("bm25s-mteb", "release_v2603", root=root)
    mteb = _REPO.parent / "shared" / "mteb_results" / "mteb__baseline-bm25s"
    if mteb.is_dir():
        from coreb_core.results.imported import import_results

        import_results(mteb, root=root)
    return root


@pytest.fixture(scope="session")
def real_runs(real_cache) -> dict[str, str]:
    """The real cache's runs on release_v2603: model name -> run id (bm25, bm25s-mteb)."""
    from coreb_core.runs.folders import list_runs

    return {m.model: m.run_id for m in list_runs("release_v2603", real_cache)}


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A private, empty data_cache for one test."""
    root = tmp_path / "cache"
    root.mkdir()
    monkeypatch.setenv("COREB_CACHE", str(root))
    return root


@dataclass
class FirstLaunch:
    """What the app's real first launch on an empty cache did: ``app`` is its first session after its first
    run (the Overview, drawn before MiniLM was built), ``models_at_first_page`` the runs stored by then, and
    ``default_job`` the MiniLM default run built after that page as a background job, waited for (and
    ``models_after_builds`` the runs stored then)."""
    cache: Path
    app: object  # streamlit.testing.v1.AppTest
    models_at_first_page: list[str]
    default_job: object  # coreb_core.retrieval.jobs.JobState, once ended
    models_after_builds: list[str]


@pytest.fixture(scope="session")
def first_launch(tmp_path_factory) -> FirstLaunch:
    """`streamlit run app.py` on a fresh clone, once per session (AppTest): CoREB-mini and the BM25 run
    before the first page, the MiniLM run after it. Its cache is the session's CoREB-mini (``mini_cache``)
    and its MiniLM run the session's one cold encode (``minilm_cold_and_warm``): building them twice cost
    the suite a minute and a half. tests/app/test_app.py asserts on what it did."""
    from streamlit.testing.v1 import AppTest

    from coreb_core.defaults import DEFAULT_RELEASE, later_default
    from coreb_core.retrieval.jobs import board
    from coreb_core.runs.folders import list_runs

    root = tmp_path_factory.mktemp("first-launch")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("COREB_CACHE", str(root))
        app = AppTest.from_file(str(_REPO / "app.py"), default_timeout=600).run()
        models = [m.model for m in list_runs(DEFAULT_RELEASE, root)]
        job = later_default(root)
        assert job is not None, "the first launch submitted no MiniLM default job"
        default_job = board(root).wait(job, 900)  # its thread reads the cache folder it was started with
        after = sorted(m.model for m in list_runs(DEFAULT_RELEASE, root))
    return FirstLaunch(root, app, models, default_job, after)


@pytest.fixture(scope="session")
def mini_cache(first_launch) -> Path:
    """Both CoREB-mini releases (and the default runs), as the session's first launch built them."""
    return first_launch.cache


@pytest.fixture(scope="session")
def mini_data(tmp_path_factory) -> Path:
    """Both CoREB-mini releases and nothing else, built in seconds: the fast loop's data (``make test-fast``).
    Tests that need the first launch's default runs use ``mini_cache`` / ``app_cache`` instead."""
    from coreb_core.data.mini.build import RELEASES, build_release

    root = tmp_path_factory.mktemp("mini-data")
    for release in RELEASES:  # the recorded Python verdicts, as the app's first launch takes them
        build_release(release, root=root, execute_python=False)
    return root


@pytest.fixture(scope="session")
def lexical_cache(mini_data, tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """Both CoREB-mini releases and two lexical runs on demo_v2603 (bm25, bm25s-mteb; seconds each), in a cache of
    their own: the fast loop's runs for tests that set a page beside a verb. Returns (root, model -> run id)."""
    import shutil

    from coreb_core.paths import datasets_dir
    from coreb_core.retrieval.pipeline import run_retrieval

    root = tmp_path_factory.mktemp("lexical") / "cache"
    shutil.copytree(datasets_dir(mini_data), datasets_dir(root))
    return root, {model: run_retrieval(model, "demo_v2603", root=root).run_id for model in ("bm25", "bm25s-mteb")}


@pytest.fixture
def lexical_copy(lexical_cache, tmp_path, monkeypatch) -> tuple[Path, str]:
    """A private copy of ``lexical_cache`` (both CoREB-mini releases and its runs) as COREB_CACHE, for the tests whose
    jobs add runs, rerankers or mined files. Returns (root, the BM25 run id)."""
    import shutil

    from coreb_core.paths import datasets_dir, runs_dir

    root = tmp_path / "cache"
    shutil.copytree(datasets_dir(lexical_cache[0]), datasets_dir(root), ignore=shutil.ignore_patterns(".versions"))
    shutil.copytree(runs_dir(lexical_cache[0]), runs_dir(root))
    monkeypatch.setenv("COREB_CACHE", str(root))
    return root, lexical_cache[1]["bm25"]


@pytest.fixture(scope="session")
def fake_dense(mini_data, tmp_path_factory) -> tuple[Path, str, str]:
    """CoREB-mini, a "minilm" run encoded by the ``Trigrams`` stand-in (seconds, 64 dimensions, its vectors in the
    embedding cache) and a BM25 run on demo_v2603, in a cache of their own. Returns (root, dense run id, bm25 run id)."""
    import shutil

    from coreb_core.paths import datasets_dir
    from coreb_core.retrieval.pipeline import run_retrieval
    from tests.builders import Trigrams

    root = tmp_path_factory.mktemp("fake-dense") / "cache"
    shutil.copytree(datasets_dir(mini_data), datasets_dir(root))
    dense = run_retrieval("minilm", "demo_v2603", root=root, model_loader=lambda *a: Trigrams()).run_id
    return root, dense, run_retrieval("bm25", "demo_v2603", root=root).run_id


@pytest.fixture(scope="session")
def fake_dense_runs(fake_dense) -> dict[str, str]:
    """Model -> run id in ``fake_dense``: BM25 and the dense run ``minilm`` encoded by the ``Trigrams`` stand-in."""
    return {"bm25": fake_dense[2], "minilm": fake_dense[1]}


@pytest.fixture(scope="session")
def fake_dense_metas(fake_dense) -> dict:
    """Model -> RunMeta in ``fake_dense``: BM25 and the stand-in dense run ``minilm``."""
    from coreb_core.runs.folders import run_meta

    root, dense, bm25 = fake_dense
    return {"bm25": run_meta(bm25, root), "minilm": run_meta(dense, root)}


@pytest.fixture(scope="session")
def unmeasured_cost_cache(lexical_cache, tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A copy of ``lexical_cache`` (each run measured its cost) with bm25s-mteb's cost removed, as a run made before
    runs recorded one: the cost limits' tests (verb and page) see one measured and one unmeasured run."""
    import json
    import shutil

    from coreb_core.paths import runs_dir

    root, runs = lexical_cache
    copy = tmp_path_factory.mktemp("cost") / "cache"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("joins"))
    path = runs_dir(copy) / runs["bm25s-mteb"] / "run.json"
    data = json.loads(path.read_text())
    del data["cost"]
    path.write_text(json.dumps(data))
    return copy, runs


@pytest.fixture
def tiny_store(tmp_path):
    """The hand-made dump of tests/dump.py, cached and opened as a Store."""
    from coreb_core.data.ingest import import_release
    from coreb_core.data.sources import read_local
    from coreb_core.data.store import Store
    from tests import dump

    root = tmp_path / "tiny-cache"
    import_release(read_local(dump.write_parquet_folder(tmp_path / "tiny", dump.rows()))[2], "tiny", root)
    with Store("tiny", root) as store:
        yield store


@pytest.fixture(scope="session")
def minilm_cold_and_warm(first_launch, tmp_path_factory):
    """A private copy of the releases with two identical MiniLM runs (default profile): the cold one is the
    first launch's, which encoded into an empty embedding cache (its vectors are copied along), and the warm
    one, run here, must encode nothing."""
    import shutil

    from coreb_core.paths import runs_dir
    from coreb_core.retrieval.pipeline import RetrievalResult, run_retrieval
    from coreb_core.runs.folders import run_meta

    build = first_launch.default_job
    assert build.request.model == "minilm" and build.status == "done", f"the first launch's MiniLM run: {build}"
    root = tmp_path_factory.mktemp("retrieval-cache")
    shutil.copytree(first_launch.cache / "coreb", root / "coreb", symlinks=True)
    shutil.copytree(first_launch.cache / "embeddings", root / "embeddings")
    shutil.copytree(runs_dir(first_launch.cache) / build.run_id, runs_dir(root) / build.run_id)
    meta = run_meta(build.run_id, root)
    cold = RetrievalResult(build.run_id, meta.release, meta.texts_encoded, build.elapsed_s)
    warm = run_retrieval("minilm", "demo_v2603", root=root)
    return root, cold, warm


@pytest.fixture(scope="session")
def minilm_card_c2c(minilm_cold_and_warm):
    """A MiniLM C2C run under the ``card`` profile in ``minilm_cold_and_warm``'s cache, whose embedding cache
    held only the official vectors before it (so it encoded every text). Encoded once per session: the Run
    page's profile test reuses these vectors (tests/app/test_page_run.py)."""
    from coreb_core.retrieval.pipeline import run_retrieval

    return run_retrieval("minilm", "demo_v2603", tasks=("c2c",), root=minilm_cold_and_warm[0], profile="card")


@pytest.fixture(scope="session")
def app_cache(mini_cache) -> Path:
    """The mini cache with the first-launch default runs (bm25, minilm on demo_v2603), made by the session's
    real first launch (``first_launch``)."""
    from coreb_core.defaults import DEFAULT_MODELS, DEFAULT_RELEASE
    from coreb_core.runs.folders import list_runs

    have = sorted(m.model for m in list_runs(DEFAULT_RELEASE, mini_cache) if m.kind == "retrieval")
    assert set(DEFAULT_MODELS) <= set(have), f"the first launch left the runs {have}"
    return mini_cache


@pytest.fixture(scope="session")
def default_runs(app_cache) -> dict:
    """Model -> RunMeta of the first-launch default runs (the app cache's default release). Session-wide:
    no test adds runs to the app cache (the Run page tests work on a copy)."""
    from coreb_core.defaults import DEFAULT_RELEASE
    from tests.builders import retrieval_runs

    return retrieval_runs(DEFAULT_RELEASE, app_cache)


@pytest.fixture(scope="session")
def default_run_ids(default_runs) -> dict[str, str]:
    """Model -> run id of the default runs."""
    return {model: meta.run_id for model, meta in default_runs.items()}


# The markers of the passes, set from what a test needs, so that no test has to remember them: ``browser`` (a
# served app in chromium), ``real`` (the real CoREB export), ``dense`` (the session's MiniLM first launch and its
# runs), ``slow`` (any of them: the two slow passes of ``make test``), and ``mini`` (CoREB-mini itself: the
# ``mini_data`` session fixture or one built on it). ``make test-fast`` runs ``-m "not slow and not mini"``: the
# tests on hand-made data, in under two minutes; ``make test`` runs every test.
DENSE_FIXTURES = {"first_launch", "mini_cache", "app_cache", "default_runs", "default_run_ids",
                  "minilm_cold_and_warm", "minilm_card_c2c", "minilm_runs"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(str(item.fspath))
        kinds = set()
        if path.name.startswith("test_browser") or "chromium" in item.name or "prints_offline" in item.name:
            kinds.add("browser")
        if "real" in path.parts or {"real_first_launch", "real_cache"} & set(item.fixturenames):
            kinds.add("real")
        if DENSE_FIXTURES & set(item.fixturenames):
            kinds.add("dense")
        if {"real", "dense"} <= kinds:  # `make test` builds each family's session fixtures in a process of its own
            raise pytest.UsageError(f"{item.nodeid} uses both the real release (real_first_launch) and the MiniLM first "
                                    "launch: the slow passes `-m 'slow and real'` and `-m 'slow and not real'` "
                                    "would build the first launch twice")
        slow = {"slow"} if kinds else set()
        if not kinds and "mini_data" in item.fixturenames:
            kinds.add("mini")
        for kind in sorted(kinds | slow):
            item.add_marker(getattr(pytest.mark, kind))
