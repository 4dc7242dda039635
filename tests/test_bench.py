"""`make bench` measures the code the tests check, in the browser the tests drive.

Tests never time anything (bench/ does); these hold the benchmark to the same Chromium and the same
modules as the suite, so the bench cannot fail where the tests pass, nor measure other code.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from lessonkit.authoring.local_site import find_chromium

BENCH = Path(__file__).resolve().parents[1] / "bench"


class Launched(Exception):
    """Raised by the recording Playwright once the bench has asked it for a browser."""


class RecordingPlaywright:
    """Playwright's launchers, recording how the bench asks for a browser instead of starting one."""

    def __init__(self) -> None:
        self.chromium = self
        self.launches: list[dict] = []

    def launch_persistent_context(self, user_data_dir, **options):
        self.launches.append(options)
        raise Launched


def test_every_module_of_the_bench_is_imported_under_the_bench_package_as_the_tests_import_it():
    run = importlib.import_module("bench.run")
    engine = importlib.import_module("bench.engine")  # what tests/test_engine_growth.py imports
    assert run.engine_cost is engine
    from_bench = {name for name, module in list(sys.modules.items()) if BENCH in Path(getattr(module, "__file__", None) or "/").parents}
    assert from_bench >= {"bench.run", "bench.engine", "bench.browser", "bench.pages", "bench.report"}
    assert not [name for name in from_bench if name != "bench" and not name.startswith("bench.")], from_bench


def test_the_benchs_repeat_visits_launch_the_chromium_the_tests_find(tmp_path, monkeypatch):
    from bench.browser import Browser
    from bench.pages import PanelPage

    # A Chromium somewhere other than Debian's path, as on a machine with only Playwright's own.
    chromium = tmp_path / "chromium"
    chromium.write_bytes(b"")
    monkeypatch.setenv("LESSONKIT_CHROMIUM", str(chromium))
    playwright = RecordingPlaywright()
    bench = Browser(playwright, None, "http://127.0.0.1:1", tmp_path, log=lambda line: None)
    lesson = PanelPage("/lessons/context-compaction/", "context-compaction", {}, "Context compaction", 0, [], True)
    with pytest.raises(Launched):
        bench.repeat(lesson)
    assert [launch["executable_path"] for launch in playwright.launches] == [str(find_chromium())]
