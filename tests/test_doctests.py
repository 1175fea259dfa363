"""Every docstring example in coreb_core runs as written and prints what it shows.

Data-free modules run as they are. Modules whose examples need data (``DATA_MODULES``) run each docstring
in a fresh copy of a small cache, with three names every such example may use without defining
(``docs/architecture.md`` says so too):

- ``root``: a cache folder with both CoREB-mini releases and one BM25 run on demo_v2603 (also
  ``COREB_CACHE``, so functions that default to the configured cache read it);
- ``store``: ``Store("demo_v2603", root)`` (opened only for a docstring that names it: 40 ms each);
- ``bm25``: that BM25 run's id.

An example that takes minutes (a MiniLM encode, the real release) is marked ``# doctest: +SKIP`` and still
defines or imports every name it uses."""
import doctest
import importlib
import shutil

import pytest

MODULES = ["coreb_core.retrieval.openvino_encoder", "coreb_core.data.measures", "coreb_core.evaluation.kernels", "coreb_core.evaluation.judged_pairs", "coreb_core.evaluation.schemes",
           "coreb_core.evaluation.significance", "coreb_core.evaluation.official", "coreb_core.errors", "coreb_core.paths", "coreb_core.progress",
           "coreb_core.atomic", "coreb_core.kernel_input", "coreb_core.runs.hits", "coreb_core.runs.meta", "coreb_core.runs.cost", "coreb_core.retrieval.meter", "coreb_core.runs.folders", "coreb_core.runs.trec",
           "coreb_core.retrieval.models", "coreb_core.retrieval.search",
           "coreb_core.data.schema", "coreb_core.results.published", "coreb_core.data.mini.judge",
           "coreb_core.retrieval.profiles", "coreb_core.retrieval.device", "coreb_core.retrieval.embeddings",
           "coreb_core.retrieval.encode", "coreb_core.results.imported", "coreb_core.data.mini.check_problem", "coreb_core.cli.registry", "coreb_core.cli.main",
           "coreb_core.input_paths", "coreb_core.text", "coreb_core.analysis.proportions", "coreb_core.present.display", "coreb_core.present.format", "ui.widgets",
           "coreb_core.present.numbers", "coreb_core.present.selection", "coreb_core.present.csv_cells",
           "coreb_core.analysis.article", "ui.jobs", "ui.state", "ui.navigation", "ui.warmup",
           "coreb_core.present.trap_patterns", "coreb_core.views.output", "ui.columns",
           "coreb_core.present.inspection", "coreb_core.present.labels", "coreb_core.training.reranker",
           "coreb_core.training.protocol", "coreb_core.retrieval.protocol_steps", "coreb_core.present.waterfall",
           "coreb_core.retrieval.compression", "coreb_core.retrieval.sweep_ray", "coreb_core.retrieval.api_encoders",
           "coreb_core.retrieval.api_estimate", "coreb_core.retrieval.pair_cut",
           "coreb_core.analysis.tiers", "coreb_core.present.tiers", "coreb_core.analysis.relabel", "ui.judging"]

DATA_MODULES = ["coreb_core", "coreb_core.defaults", "coreb_core.report", "coreb_core.retrieval.jobs",
                "coreb_core.retrieval.pipeline", "coreb_core.retrieval.sweep", "coreb_core.retrieval.runner_encoder", "coreb_core.evaluation.compile",
                "coreb_core.evaluation.export", "coreb_core.evaluation.evaluate", "coreb_core.evaluation.join",
                "coreb_core.evaluation.stored_joins", "coreb_core.views.relabel",
                "coreb_core.data.statistics", "coreb_core.data.store", "coreb_core.data.judgments", "coreb_core.data.ingest", "coreb_core.data.sources",
                "coreb_core.data.mini.build", "coreb_core.data.sql_console", "coreb_core.results.uploads",
                "coreb_core.analysis.traps.kinds", "coreb_core.analysis.rerank_errors",
                "coreb_core.analysis.traps.breakdown", "coreb_core.analysis.leaderboard",
                "coreb_core.analysis.selection", "coreb_core.analysis.console_tables", "coreb_core.analysis.embedding_map",
                "coreb_core.analysis.inspection", "coreb_core.analysis.deflation", "coreb_core.analysis.traps.surface",
                "coreb_core.analysis.traps.wins", "coreb_core.analysis.comparison", "coreb_core.analysis.mteb_parity",
                "coreb_core.analysis.difficulty", "coreb_core.analysis.traps.agreement", "coreb_core.analysis.stability",
                "coreb_core.analysis.slices", "coreb_core.analysis.rank_contrast",
                "coreb_core.views.scope", "coreb_core.views.inputs", "coreb_core.views.traps",
                "coreb_core.views.stability", "coreb_core.views.compare", "coreb_core.views.contrasts",
                "coreb_core.views.difficulty", "coreb_core.views.overview", "coreb_core.views.deflation", "coreb_core.views.selection", "coreb_core.views.published", "coreb_core.views.inspector", "coreb_core.views.data", "coreb_core.views.scores",
                "coreb_core.training.samples", "coreb_core.training.sample_files", "coreb_core.training.mining",
                "coreb_core.views.training", "coreb_core.analysis.hubs", "coreb_core.views.hubs",
                "coreb_core.analysis.audit", "coreb_core.views.audit", "coreb_core.analysis.generator_rules",
                "coreb_core.analysis.integrity",
                "coreb_core.views.integrity", "coreb_core.views.retrieval", "coreb_core.data.slice_keys", "coreb_core.analysis.waterfall",
                "coreb_core.views.waterfall", "coreb_core.analysis.compression", "coreb_core.views.compression", "coreb_core.views.tiers"]

FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no runnable example"
    assert result.failed == 0


@pytest.fixture(scope="session")
def doctest_cache(mini_data, tmp_path_factory):
    """``root`` of the data modules' examples: CoREB-mini and one BM25 run on demo_v2603 (seconds)."""
    from coreb_core.paths import datasets_dir
    from coreb_core.retrieval.pipeline import run_retrieval

    root = tmp_path_factory.mktemp("doctest") / "cache"
    # The releases alone: other tests store runs and imported results in the session's CoREB-mini.
    shutil.copytree(datasets_dir(mini_data), datasets_dir(root))
    run_retrieval("bm25", "demo_v2603", root=root)
    return root


def test_every_module_with_examples_is_doctested():
    """A new module's examples are run too: each coreb_core module with an example is in one of the lists."""
    import pathlib

    package = pathlib.Path(importlib.import_module("coreb_core").__file__).parent
    with_examples = {".".join(("coreb_core", *p.relative_to(package).with_suffix("").parts)).removesuffix(".__init__")
                     for p in package.rglob("*.py") if ">>>" in p.read_text()}
    covered = set(MODULES) | set(DATA_MODULES) | {"coreb_core.present.charts"}  # charts: tests/ui/test_charts.py
    assert with_examples - covered == set()


@pytest.mark.parametrize("name", DATA_MODULES)
def test_data_examples_run(name, doctest_cache, tmp_path, monkeypatch):
    from coreb_core.data.store import Store
    from coreb_core.runs.folders import list_runs

    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    failures = []
    for i, test in enumerate(t for t in doctest.DocTestFinder().find(module) if t.examples):
        root = shutil.copytree(doctest_cache, tmp_path / str(i))  # each docstring its own cache: no order
        monkeypatch.setenv("COREB_CACHE", str(root))
        test.globs.update(root=root)
        # Opening a Store takes about 40 ms (373 docstrings): only for the examples that name it
        if "store" in test.docstring:
            test.globs.update(store=Store("demo_v2603", root))
        if "bm25" in test.docstring:
            test.globs.update(bm25=list_runs("demo_v2603", root)[0].run_id)
        runner.run(test, out=failures.append)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0, f"{name} has no runnable example"
    assert result.failed == 0, "".join(failures)
