"""`make bench` measures the code the tests check, in the browser the tests drive.

Tests never time anything (bench/ does); these hold the benchmark to the same Chromium and the same
modules as the suite, so the bench cannot fail where the tests pass, nor measure other code.
"""

from __future__ import annotations

import importlib
import sys
import time
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


# -- the host: compression by type, bytes counted where they leave -------------------------------


@pytest.mark.parametrize(
    "name", ["index.html", "main.css", "engine.js", "runtime.json", "logo.svg", "llms.txt", "page.md", "pyodide.asm.wasm"]
)
def test_the_host_gzips_text_scripts_json_svg_and_webassembly(name):
    from bench.host import gzipped_on_the_wire

    assert gzipped_on_the_wire(name)


@pytest.mark.parametrize(
    "name",
    [
        "lessonkit.snapshot.gz",
        "python_stdlib.zip",
        "lessonkit-0.1.0-py3-none-any.whl",
        "site.tar",
        "favicon.png",
        "photo.jpg",
        "font.woff2",
    ],
)
def test_the_host_sends_archives_images_fonts_and_compressed_files_as_stored(name):
    from bench.host import gzipped_on_the_wire

    assert not gzipped_on_the_wire(name)


def test_the_hosts_rule_reads_the_type_as_a_header_gives_it():
    from bench.host import compressible

    assert compressible("text/html; charset=utf-8")
    assert compressible("application/manifest+json")
    assert compressible("application/wasm")
    assert not compressible("application/octet-stream")
    assert not compressible("application/gzip")


@pytest.fixture
def small_site(tmp_path):
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "index.html").write_text("<!doctype html><title>home</title>" + "<p>the same words again</p>" * 400, encoding="utf-8")
    (site / "assets" / "engine.wasm").write_bytes(b"\0asm" + bytes(20_000))
    (site / "assets" / "lessonkit-0.1.0-py3-none-any.whl").write_bytes(bytes(range(256)) * 40)
    return site


def _get(connection, method, path, headers=None):
    connection.request(method, path, headers=headers or {})
    response = connection.getresponse()
    return response, response.read()


def test_the_host_counts_the_compressed_body_it_sent_per_request_and_no_body_for_head_or_304(small_site):
    import http.client
    from urllib.parse import urlsplit

    from bench.host import count, hosted

    with hosted(small_site) as (origin, ledger):
        # One connection for every request: the host keeps it alive, as HTTP/1.1 hosts do.
        connection = http.client.HTTPConnection(urlsplit(origin).netloc, timeout=10)
        page, page_body = _get(connection, "GET", "/", {"Accept-Encoding": "gzip, deflate, br"})
        plain, plain_body = _get(connection, "GET", "/index.html")
        wasm, wasm_body = _get(connection, "GET", "/assets/engine.wasm", {"Accept-Encoding": "gzip"})
        wheel, wheel_body = _get(connection, "GET", "/assets/lessonkit-0.1.0-py3-none-any.whl", {"Accept-Encoding": "gzip"})
        head, head_body = _get(connection, "HEAD", "/assets/engine.wasm", {"Accept-Encoding": "gzip"})
        again, again_body = _get(connection, "GET", "/", {"Accept-Encoding": "gzip", "If-Modified-Since": page.headers["Last-Modified"]})
        connection.close()
        # The host writes a request into its ledger once the response has gone out: the last one may
        # be a moment behind the client's read.
        deadline = time.monotonic() + 10
        while len(ledger.since()) < 6 and time.monotonic() < deadline:
            time.sleep(0.01)
        sent = ledger.since()

    assert page.headers["Content-Encoding"] == "gzip" and wasm.headers["Content-Encoding"] == "gzip"
    assert wasm.headers["Content-Type"] == "application/wasm"
    assert plain.headers["Content-Encoding"] is None  # a client that does not ask for gzip gets the file
    assert wheel.headers["Content-Encoding"] is None
    assert head.status == 200 and head_body == b"" and again.status == 304 and again_body == b""
    assert [(each.method, each.path, each.status) for each in sent] == [
        ("GET", "/", 200),
        ("GET", "/index.html", 200),
        ("GET", "/assets/engine.wasm", 200),
        ("GET", "/assets/lessonkit-0.1.0-py3-none-any.whl", 200),
        ("HEAD", "/assets/engine.wasm", 200),
        ("GET", "/", 304),
    ]
    assert [each.body for each in sent] == [len(page_body), len(plain_body), len(wasm_body), len(wheel_body), 0, 0]
    assert len(page_body) < (small_site / "index.html").stat().st_size // 5
    assert len(wheel_body) == (small_site / "assets" / "lessonkit-0.1.0-py3-none-any.whl").stat().st_size
    assert all(each.head > 0 and each.complete for each in sent)
    counted = count(sent)
    assert counted["total"] == len(page_body) + len(plain_body) + len(wasm_body) + len(wheel_body)
    assert counted["by_path"]["/"] == len(page_body)
