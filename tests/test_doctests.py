"""The docstring examples of the data-free modules (any layer) run as written and print what they show."""
import doctest
import importlib

import pytest

MODULES = ["coreb_core.data.measures", "coreb_core.evaluation.kernels", "coreb_core.evaluation.judged_pairs", "coreb_core.evaluation.schemes",
           "coreb_core.evaluation.significance", "coreb_core.evaluation.official", "coreb_core.errors", "coreb_core.paths", "coreb_core.progress",
           "coreb_core.atomic", "coreb_core.runs.hits", "coreb_core.runs.meta", "coreb_core.runs.folders", "coreb_core.runs.trec",
           "coreb_core.retrieval.models", "coreb_core.retrieval.search",
           "coreb_core.data.schema", "coreb_core.results.published", "coreb_core.data.mini.judge",
           "coreb_core.retrieval.profiles", "coreb_core.retrieval.device", "coreb_core.retrieval.embeddings",
           "coreb_core.retrieval.encode", "coreb_core.results.imported", "coreb_core.data.mini.check_problem", "coreb_core.cli",
           "coreb_core.input_paths", "coreb_core.text", "coreb_core.analysis.proportions", "coreb_core.present.display", "coreb_core.present.format", "ui.widgets",
           "coreb_core.retrieval.jobs", "coreb_core.present.numbers", "coreb_core.present.selection",
           "coreb_core.analysis.article", "ui.jobs"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no runnable example"
    assert result.failed == 0
