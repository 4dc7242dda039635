"""`make bench` measures the code the tests check, in the browser the tests drive.

Tests never time anything (bench/ does); these hold the benchmark to the same Chromium and the same
modules as the suite, so the bench cannot fail where the tests pass, nor measure other code.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_every_module_of_the_bench_is_imported_under_the_bench_package_as_the_tests_import_it():
    run = importlib.import_module("bench.run")
    engine = importlib.import_module("bench.engine")  # what tests/test_engine_growth.py imports
    assert run.engine_cost is engine
    from_bench = {name for name, module in list(sys.modules.items()) if BENCH in Path(getattr(module, "__file__", None) or "/").parents}
    assert from_bench >= {"bench.run", "bench.engine", "bench.browser", "bench.pages", "bench.report"}
    assert not [name for name in from_bench if name != "bench" and not name.startswith("bench.")], from_bench

