"""No module of lessonkit imports itself back, however far round: each concept builds on the ones before it.

Every import counts, at the top of a module or inside a function, and under ``TYPE_CHECKING`` too: a
cycle hidden behind a lazy import is still two concepts that cannot be read one before the other.
A package importing its own modules is not a cycle, nor a module's import of the package it is in.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src"


def module_names(root: Path) -> dict[str, Path]:
    """Every module under `root`/lessonkit by its dotted name; a package by its own name."""
    found = {}
    for path in sorted((root / "lessonkit").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The lessonkit modules that module `name` imports, anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            # `from package import module` imports the module; `from module import name` the module.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        imported.update(target for target in targets if target in modules)
    # Python imports a module's packages first; those edges say where a module lives, not what it uses.
    return {target for target in imported if target != name and not name.startswith(f"{target}.")}


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = module_names(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def test_no_module_of_lessonkit_imports_itself_back():
    try:
        tuple(TopologicalSorter(import_graph(SOURCE)).static_order())
    except CycleError as error:
        pytest.fail(f"an import cycle in src/lessonkit: {' -> '.join(error.args[1])}")


def test_the_graph_sees_lazy_and_type_checking_imports(tmp_path):
    package = tmp_path / "lessonkit"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "setting.py").write_text("def start():\n    from lessonkit.session import run\n")
    (package / "session.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from lessonkit import setting\n")
    graph = import_graph(tmp_path)
    assert graph["lessonkit.setting"] == {"lessonkit.session"} and graph["lessonkit.session"] == {"lessonkit.setting"}
    with pytest.raises(CycleError):
        tuple(TopologicalSorter(graph).static_order())
