"""`make serve`: the page an author is writing reloads by itself when it changes, and refuses nothing.

The test runs what `make serve` runs, `mkdocs serve --strict` on a free loopback port, on a copy of
the project whose configuration is the course's own (`INHERIT: mkdocs.yml`: theme, overrides,
hooks, Content-Security-Policy, plugins) over pages of the test's own: the pages the configuration
names, and one lesson, since the course's path needs a first lesson. Building those takes seconds
where the whole course takes a minute, and the real pages are never touched.
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_authoring_guide import copy_project

ROOT = Path(__file__).resolve().parents[2]
# The configuration names these pages (llms.txt's sections) and the course's path needs one lesson.
PAGES = {
    "index.md": "# Live reload\n\nThe page as first served.\n",
    "how-it-works.md": "# How these lessons work\n\nA page the configuration names.\n",
    "glossary.md": "# Glossary\n\nA page the configuration names.\n",
    "authoring.md": "# For authors\n\nA page the configuration names.\n",
    "lessons/context-compression.md": "# Context compression\n\nThe course's first lesson, by its id.\n",
}
CONFIG = "INHERIT: mkdocs.yml\ndocs_dir: pages\nnav:\n  - Home: index.md\n  - Lessons: []\n"
EDITED = "The page as the author just saved it."
# mkdocs serve builds, serves and, after an edit, builds again: on a loaded two-core machine a build
# of these pages has taken well under a minute.
BUILD_S = 180
RELOAD_MS = BUILD_S * 1000
# Ctrl-C stops mkdocs serve in well under a second; a loaded machine is given far more.
STOP_S = 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def hear_ctrl_c() -> None:
    """In the child, before mkdocs starts: Ctrl-C stops it, however the test run was started.

    A shell without job control (a script's `make test &`, a CI runner's) starts a background job
    with SIGINT ignored, every child inherits that, and a Python started with SIGINT ignored never
    raises KeyboardInterrupt: mkdocs would sit out the stop's whole wait, deaf to the Ctrl-C an
    author's terminal would deliver."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Served:
    """`mkdocs serve` running on a project: its origin, and every line it has logged."""

    def __init__(self, project: Path) -> None:
        self.project = project
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        self.lines: list[str] = []
        self._serving: queue.Queue[bool] = queue.Queue()
        env = {**os.environ, "PYTHONPATH": str(project / "src"), "NO_MKDOCS_2_WARNING": "1"}
        command = [sys.executable, "-m", "mkdocs", "serve", "--strict", "--dev-addr", f"127.0.0.1:{self.port}", "-f", "serve.yml"]
        self.process = subprocess.Popen(
            command, cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, preexec_fn=hear_ctrl_c
        )
        threading.Thread(target=self._read, name="mkdocs-serve-log", daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stderr:
            self.lines.append(line.rstrip())
            if "Serving on " in line:
                self._serving.put(True)
        self._serving.put(False)  # mkdocs exited

    def wait_until_serving(self) -> None:
        try:
            serving = self._serving.get(timeout=BUILD_S)
        except queue.Empty:
            serving = False
        if not serving:
            pytest.fail("mkdocs serve did not start serving:\n" + "\n".join(self.lines[-40:]), pytrace=False)

    def stop(self) -> None:
        # Ctrl-C, as an author stops it: mkdocs then removes the temporary site it served.
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=STOP_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail(f"mkdocs serve did not stop within {STOP_S} s of Ctrl-C:\n" + "\n".join(self.lines[-20:]), pytrace=False)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    project = tmp_path / "lessonkit"
    copy_project(project)
    for name, text in PAGES.items():
        (project / "pages" / name).parent.mkdir(parents=True, exist_ok=True)
        (project / "pages" / name).write_text(text, encoding="utf-8")
    (project / "serve.yml").write_text(CONFIG, encoding="utf-8")
    running = Served(project)
    try:
        running.wait_until_serving()
        yield running
    finally:
        running.stop()


def test_under_make_serve_an_edited_page_reloads_by_itself_and_the_policy_refuses_nothing(served, open_context):
    page = open_context(origin=served.origin).new_page()
    # The live-reload script logs this once it runs; a policy that refused it never would.
    with page.expect_console_message(lambda message: message.text == "Enabled live reload"):
        page.goto("/")
    expect(page.get_by_text("The page as first served.")).to_be_visible()
    page.evaluate("window.lkBeforeTheEdit = true")

    (served.project / "pages" / "index.md").write_text(PAGES["index.md"].replace("The page as first served.", EDITED), encoding="utf-8")

    expect(page.get_by_text(EDITED)).to_be_visible(timeout=RELOAD_MS)
    # A new document, not the old one changed in place.
    assert page.evaluate("window.lkBeforeTheEdit") is None
