"""`make serve` as an author uses it: pages open without a console error, and an edit reloads the page.

`mkdocs serve` writes a live-reload script into every page it serves. The page's policy allows no
inline script but those it lists by hash, so the server's script must be listed too, under `serve`
only. The test serves a copy of the project exactly as `make serve` does, opens a page in
Chromium, edits the page's Markdown, and waits for the page to show the new text by itself.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.harness import Watch
from tests.browser.test_authoring_guide import copy_project

# A full build of the course, then a rebuild after the edit, on a busy two-core machine.
BUILD_S = 240


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def served_for_authoring(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    project = tmp_path_factory.mktemp("serve") / "lessonkit"
    copy_project(project)
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(project / "src"), "NO_MKDOCS_2_WARNING": "1"}
    # The command `make serve` runs, in the copy.
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--strict", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + BUILD_S
        said = []
        for line in server.stderr:  # the server says when it serves; the build comes first
            said.append(line)
            if "Serving on" in line:
                break
            assert time.monotonic() < deadline, "mkdocs serve did not start serving in time:\n" + "".join(said[-20:])
        else:
            pytest.fail("mkdocs serve stopped before it served:\n" + "".join(said[-40:]))
        # Keep reading what the server says, so its pipe never fills and blocks it.
        drain = subprocess.Popen(["cat"], stdin=server.stderr, stdout=subprocess.DEVNULL)
        yield f"http://127.0.0.1:{port}", project
        drain.terminate()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_under_make_serve_a_page_opens_without_errors_and_reloads_itself_when_its_source_changes(served_for_authoring, browser: Browser):
    origin, project = served_for_authoring
    watch = Watch(origin)
    context = browser.new_context(base_url=origin)
    context.on("request", lambda request: watch.request(request.url))
    context.on("console", watch.console)
    context.on("weberror", lambda error: watch.page_error(error.error))
    page = context.new_page()
    page.goto("/how-it-works/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    # The server's live-reload script, at the end of the body, has run by the load event: the
    # policy let it define its poller.
    assert page.evaluate("() => typeof window.livereload") == "function", "the page's policy refused the live-reload script"
    source = project / "docs" / "how-it-works.md"
    source.write_text(source.read_text(encoding="utf-8") + "\n\nThis sentence was written while the page was open.\n", encoding="utf-8")
    expect(page.get_by_text("This sentence was written while the page was open.")).to_be_visible(timeout=BUILD_S * 1000)
    context.close()
    assert not watch.problems(), "\n".join(watch.problems())
