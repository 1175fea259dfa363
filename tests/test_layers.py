"""The tree shows the architecture: imports point down the layers, nobody imports another module's
private names, and the library never imports Streamlit, ui/ or pages/.

Layers, bottom up: foundation (errors, paths, input_paths, text, progress, atomic) -> data -> runs -> results -> retrieval ->
evaluation -> analysis -> present (words, Streamlit-free) -> views (one per question a page or verb answers)
-> entry points (cli, defaults, report) -> ui -> pages / app.py."""
import ast
from pathlib import Path

import pytest

from tests.builders import REPO

RANK = {"errors": 0, "paths": 0, "input_paths": 0, "text": 0, "progress": 0, "atomic": 0, "kernel_input": 0, "data": 1, "runs": 2, "results": 2.5, "retrieval": 3, "training": 3.5,
        "evaluation": 4, "analysis": 5, "present": 5.5, "views": 5.7, "cli": 6, "defaults": 6, "report": 6, "__main__": 7, "__init__": 0}


def layer(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] == "ui":
        return 8
    if parts[0] == "pages":
        return 9
    if parts[0] == "coreb_core" and len(parts) > 1:
        return RANK.get(parts[1])
    return None


def sources() -> list[Path]:
    files = [p for p in (REPO / "coreb_core").rglob("*.py") if "problems" not in p.parts]
    return files + sorted((REPO / "ui").glob("*.py")) + sorted((REPO / "pages").glob("*.py")) + [REPO / "app.py"]


def imports(path: Path) -> list[tuple[int, str, list[str]]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name, []) for a in node.names]
    return found


def module_of(path: Path) -> str:
    return ".".join(path.relative_to(REPO).with_suffix("").parts)


def test_every_module_has_a_layer():
    assert [module_of(p) for p in sources() if layer(module_of(p)) is None and p.name != "app.py"] == []


def test_imports_point_down():
    upward = [f"{module_of(p)}:{line} imports {mod}" for p in sources() for line, mod, _ in imports(p)
              if p.name != "app.py" and layer(mod) is not None and layer(mod) > layer(module_of(p))]
    assert upward == []


def test_no_private_names_cross_modules():
    private = [f"{module_of(p)}:{line} {mod}.{name}" for p in sources() for line, mod, names in imports(p)
               for name in names if name.startswith("_") and layer(mod) is not None]
    assert private == []


@pytest.mark.parametrize("forbidden", ["streamlit", "ui", "pages"])
def test_the_library_stays_free_of_the_app(forbidden):
    hits = [f"{module_of(p)}:{line}" for p in sources() if module_of(p).startswith("coreb_core")
            for line, mod, _ in imports(p) if mod == forbidden or mod.startswith(forbidden + ".")]
    assert hits == []


def test_pages_hold_only_page_scripts():
    # A helper module in pages/ would be listed as a page by Streamlit's fallback navigation.
    from ui.navigation import PAGE_SPECS

    assert sorted(p.name for p in (REPO / "pages").glob("*.py")) == sorted(Path(s.script).name for s in PAGE_SPECS)


def test_the_guard_sees_a_violation():
    assert layer("coreb_core.analysis.traps.breakdown") > layer("coreb_core.data.store")
    assert layer("ui.cache") > layer("coreb_core.cli") and layer("pages.overview") > layer("ui.cache")
    assert layer("coreb_core.analysis.selection") < layer("coreb_core.present.selection") < layer("coreb_core.report")
    # the view layer: above the analyses and their words, below every front end
    assert layer("coreb_core.present.trap_patterns") < layer("coreb_core.views.traps") < layer("coreb_core.cli.traps")
    assert layer("coreb_core.views.scope") < layer("coreb_core.report") < layer("ui.cache")


def test_the_public_api_names_what_its_modules_define():
    import importlib

    import coreb_core

    assert coreb_core.__all__ == sorted(coreb_core.PUBLIC)
    for name, module in coreb_core.PUBLIC.items():
        assert getattr(importlib.import_module(module), name) is getattr(coreb_core, name), name
    assert coreb_core.Store.__module__ == "coreb_core.data.store"


# ------------------------------------------------------------------ front ends take only types and constants below views
# The CLI, the report, ui/ and the pages ask views (coreb_core/views/*) for every number; from the analyses and the
# evaluation they may import only what names a thing: a class (NamedTuple, Enum, dataclass), a type alias, or an
# UPPER_CASE constant. A function imported from there is a computation that skipped its view.
FRONT_END_ALLOWED: frozenset[str] = frozenset()  # "module.name" exceptions; keep it empty
BELOW_VIEWS = ("coreb_core.analysis", "coreb_core.evaluation")


def front_ends() -> list[Path]:
    return ([*sorted((REPO / "coreb_core" / "cli").rglob("*.py")), REPO / "coreb_core" / "report.py",
             *sorted((REPO / "ui").glob("*.py")), *sorted((REPO / "pages").glob("*.py")), REPO / "app.py"])


def names_only(module: str, name: str) -> bool:
    """Whether ``module.name`` names a thing (class, type alias, UPPER_CASE constant) rather than computes one."""
    import importlib
    import inspect
    import re
    import typing

    obj = getattr(importlib.import_module(module), name)
    if isinstance(obj, type) or typing.get_origin(obj) is not None:
        return True
    return bool(re.fullmatch(r"[A-Z][A-Z0-9_]*", name)) and not inspect.isroutine(obj) and not inspect.ismodule(obj)


def front_end_violations(source: str, where: str) -> list[str]:
    """``where:line module.name`` for each name ``source`` imports from below the views that computes rather
    than names; a whole module imported from there counts too (its functions would be reachable)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(BELOW_VIEWS):
            found += [f"{where}:{node.lineno} {node.module}.{a.name}" for a in node.names
                      if f"{node.module}.{a.name}" not in FRONT_END_ALLOWED and not names_only(node.module, a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module == "coreb_core":
            found += [f"{where}:{node.lineno} coreb_core.{a.name} (a whole layer)" for a in node.names
                      if a.name in ("analysis", "evaluation")]
        elif isinstance(node, ast.Import):
            found += [f"{where}:{node.lineno} {a.name} (a whole module)" for a in node.names
                      if a.name.startswith(BELOW_VIEWS)]
    return found


@pytest.mark.parametrize("path", front_ends(), ids=lambda p: str(p.relative_to(REPO)))
def test_front_ends_import_only_types_and_constants_from_below_the_views(path):
    assert front_end_violations(path.read_text(encoding="utf-8"), str(path.relative_to(REPO))) == []


def test_the_front_end_rule_sees_a_violation():
    source = ("from coreb_core.analysis.selection import TABLE3, Standing, recommend\n"
              "from coreb_core.evaluation.significance import Correction, compare_pair\n"
              "from coreb_core.evaluation.schemes import V2\n"
              "import coreb_core.analysis.tiers\n"
              "from coreb_core.views.selection import build\n"
              "def f():\n    from coreb_core.analysis.tiers import AVERAGES, Average, rank_tiers\n"
              "from coreb_core import Store, evaluation\n")
    assert front_end_violations(source, "x.py") == [
        "x.py:1 coreb_core.analysis.selection.recommend", "x.py:2 coreb_core.evaluation.significance.compare_pair",
        "x.py:4 coreb_core.analysis.tiers (a whole module)", "x.py:8 coreb_core.evaluation (a whole layer)",
        "x.py:7 coreb_core.analysis.tiers.rank_tiers"]
