"""The rest of the standard library comes once, the first time a module of it is imported, and never
for a name it does not hold (lessonkit.stdlib_on_demand)."""

from __future__ import annotations

import importlib
import io
import sys
import zipfile

import pytest

from lessonkit.stdlib_on_demand import install


def whole_library() -> bytes:
    """A stand-in for Pyodide's whole library: a module, a package with a module, and a module of a package the trimmed one holds."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("lk_rest_module.py", "ANSWER = 42\n")
        archive.writestr("lk_rest_package/__init__.py", "")
        archive.writestr("lk_rest_package/part.py", "NAME = 'part'\n")
        archive.writestr("json/lk_rest_extra.py", "FROM = 'the whole library'\n")
    return buffer.getvalue()


@pytest.fixture
def rest(tmp_path):
    fetched = []

    def fetch() -> bytes:
        fetched.append(1)
        return whole_library()

    modules = ["lk_rest_module", "lk_rest_package", "lk_rest_package.part", "json.lk_rest_extra"]
    finder = install(modules, fetch, str(tmp_path / "rest.zip"))
    yield fetched
    sys.meta_path.remove(finder)
    if finder.path in sys.path:
        sys.path.remove(finder.path)
    for name in modules:
        sys.modules.pop(name, None)


def test_the_first_module_of_the_rest_fetches_the_whole_library_once_and_the_next_come_from_it(rest):
    assert importlib.import_module("lk_rest_module").ANSWER == 42
    assert importlib.import_module("lk_rest_package.part").NAME == "part"
    # A module of a package the trimmed library holds (json here) comes from that package's folder of the whole one.
    assert importlib.import_module("json.lk_rest_extra").FROM == "the whole library"
    assert rest == [1]


def test_a_name_the_library_never_had_is_a_plain_import_error_and_fetches_nothing(rest):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("lk_no_such_module")
    assert rest == []
