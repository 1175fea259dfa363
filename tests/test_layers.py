"""The tree shows the architecture: imports point down the layers, nobody imports another module's
private names, and the library never imports Streamlit, ui/ or pages/.

Layers, bottom up: foundation (errors, paths, input_paths, text, progress, atomic) -> data -> runs -> results -> retrieval ->
evaluation -> analysis -> present (words, Streamlit-free) -> views (one per question a page or verb answers)
-> entry points (cli, defaults, report) -> ui -> pages / app.py."""
import ast
from pathlib import Path

import pytest

from tests.builders import REPO

RANK = {"errors": 0, "paths": 0, "input_paths": 0, "text": 0, "progress": 0, "atomic": 0, "data": 1, "runs": 2, "results": 2.5, "retrieval": 3, "training": 3.5,
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
