"""Every public function of lessonkit.tokens states its parameters, errors and an example, and the
examples run as written: the same promise the API reference's test makes of the documented modules
(tests/course/test_api_reference.py), held here for a package that has no reference page yet."""

from __future__ import annotations

import doctest
import importlib
import inspect
import re
from pathlib import Path

import pytest

from lessonkit.authoring.api_links import public_functions

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "lessonkit" / "tokens"
MODULES = sorted(f"lessonkit.tokens.{path.stem}".removesuffix(".__init__") for path in PACKAGE.glob("*.py"))
FUNCTIONS = [(module, name) for module in MODULES for name in public_functions(module)]


def test_the_package_documents_functions_to_check():
    assert {"lessonkit.tokens", "lessonkit.tokens.pattern", "lessonkit.tokens.rank_files"} <= set(MODULES)
    assert {("lessonkit.tokens", "encode"), ("lessonkit.tokens", "decode"), ("lessonkit.tokens", "count")} <= set(FUNCTIONS)


@pytest.mark.parametrize(("module", "name"), FUNCTIONS, ids=lambda value: value)
def test_every_public_function_states_its_parameters_errors_and_an_example(module, name):
    function = inspect.unwrap(getattr(importlib.import_module(module), name))
    doc = inspect.getdoc(function) or ""
    parameters = [p for p in inspect.signature(function).parameters if p not in ("self", "cls")]
    raises = bool(re.search(r"^\s+raise \w", inspect.getsource(function), re.MULTILINE))
    missing = [
        section
        for section, needed in (("Args:", bool(parameters)), ("Raises:", raises), ("Examples:", True))
        if needed and f"\n{section}\n" not in f"\n{doc}\n"
    ]
    assert not missing, f"{module}.{name}'s docstring lacks {', '.join(missing)}"
    undocumented = [p for p in parameters if not re.search(rf"^\s+\*{{0,2}}{re.escape(p)}:", doc, re.MULTILINE)]
    assert not undocumented, f"{module}.{name}'s Args: leave out {', '.join(undocumented)}"


@pytest.mark.parametrize("module", MODULES)
def test_the_examples_run_as_written(module):
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {module} failed (run python -m doctest)"
