"""The rest of the standard library, fetched the first time a reader's sample imports a module of it.

The reader's browser starts Python with the standard library trimmed to what the engines use (the
build's ``python_stdlib.zip`` beside the snapshot): a third of Pyodide's own, which saves every
reader 1.7 MB before the engine is ready. A reader who edits a sample may import anything else the
standard library holds (``difflib``, ``statistics``, ``email.message``), so the worker installs this
finder last on ``sys.meta_path``. It answers only for the modules the build listed as left out, and
for the first of them it fetches Pyodide's whole library once, puts it on ``sys.path`` and lets
the ordinary machinery import from it from then on. A name the library never had is not its
business: an optional import that fails stays a fast ImportError, never a download.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable, Iterable
from importlib.machinery import ModuleSpec
from pathlib import Path

__all__ = ["RestOfTheStandardLibrary", "install"]


class RestOfTheStandardLibrary(importlib.abc.MetaPathFinder):
    """A finder for the modules in `modules` (dotted names), from the zip `fetch` returns, written to `path`."""

    def __init__(self, modules: Iterable[str], fetch: Callable[[], bytes], path: str) -> None:
        self.modules = frozenset(modules)
        self.fetch = fetch
        self.path = path
        self.fetched = False

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        if fullname not in self.modules:
            return None
        if not self.fetched:
            Path(self.path).write_bytes(self.fetch())
            sys.path.append(self.path)
            importlib.invalidate_caches()
            self.fetched = True
        # A module of a package the trimmed library holds (email.message, say) is looked for in that
        # package's folder of the whole library; a top-level one, at its root.
        package, _, _ = fullname.rpartition(".")
        where = f"{self.path}/{package.replace('.', '/')}" if package else self.path
        return importlib.machinery.PathFinder.find_spec(fullname, [where])


def install(modules: Iterable[str], fetch: Callable[[], object], path: str = "/lib/python_stdlib_rest.zip") -> RestOfTheStandardLibrary:
    """Put the finder last on sys.meta_path; `fetch` gives the whole library's bytes (in the browser, a
    JavaScript function whose Uint8Array comes to Python as a proxy with `to_bytes`)."""

    def as_bytes() -> bytes:
        got = fetch()
        return got.to_bytes() if hasattr(got, "to_bytes") else bytes(got)  # type: ignore[call-overload]

    finder = RestOfTheStandardLibrary(modules, as_bytes, path)
    sys.meta_path.append(finder)
    return finder
