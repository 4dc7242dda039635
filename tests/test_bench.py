"""`make bench` measures the code the tests check, in the browser the tests drive.

Tests never time anything (bench/ does); these hold the benchmark to the same Chromium and the same
modules as the suite, so the bench cannot fail where the tests pass, nor measure other code.
"""

from __future__ import annotations

import gzip
import importlib
import json
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
        "lessonkit.snapshot.2.gz",
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


def _sent(path, body, arrived, method="GET"):
    from bench.host import Sent

    return Sent(method, path, 200, "", "", body, 100, arrived, arrived + 1, True, "empty")


def test_bytes_before_a_moment_are_those_of_the_requests_that_arrived_by_then():
    from bench.browser import wire

    sent = [
        _sent("/lessons/a/", 20_000, 1000.0),
        _sent("/assets/pyodide/pyodide.asm.wasm", 2_800_000, 1000.5),
        _sent("/assets/pyodide/pyodide.asm.wasm", 0, 1000.4, method="HEAD"),
        _sent("/assets/snapshots/lessonkit.snapshot.gz", 5_800_000, 1000.6),
        _sent("/assets/wheels/lessonkit-0.1.0-py3-none-any.whl", 100_000, 1000.6),
        _sent("/assets/lessonkit/views/context-compression.json.gz", 37_000, 1003.0),  # after the engine was ready
    ]
    counted = wire(sent, before_ms=1002_000.0)
    assert counted["total"] == 8_757_000
    assert counted["before"] == 8_720_000
    assert counted["without_runtime"] == 20_000
    assert counted["by_kind"] == {"page": 20_000, "pyodide": 2_800_000, "snapshot": 5_800_000, "wheel": 100_000, "views": 37_000}
    assert counted["requests"] == 6 and counted["head"] == 600
    assert "before" not in wire(sent)


# -- the networks ---------------------------------------------------------------------------------


def test_each_emulated_network_sends_its_throughput_in_bytes_per_second_both_ways():
    from bench.network import NETWORKS, chosen

    assert [network.name for network in NETWORKS] == ["loopback", "cable", "4g"]
    loopback, cable, mobile = NETWORKS
    assert loopback.conditions() is None and not loopback.emulated
    assert cable.conditions() == {"offline": False, "latency": 20, "downloadThroughput": 5_000_000, "uploadThroughput": 5_000_000}
    assert mobile.conditions() == {"offline": False, "latency": 50, "downloadThroughput": 1_250_000, "uploadThroughput": 1_250_000}
    assert mobile.least_seconds(5_000_000) == 4.0
    assert chosen("4g, loopback") == (loopback, mobile)
    with pytest.raises(ValueError, match="among loopback, cable, 4g"):
        chosen("dialup")


def test_the_emulation_is_said_to_pace_the_worker_only_when_its_downloads_took_as_long_as_their_bytes_need():
    from bench.browser import throttle
    from bench.network import LOOPBACK, NETWORKS

    mobile = NETWORKS[2]
    downloads = [{"start": 100.0, "end": 2100.0, "encoded": 2_500_000}, {"start": 120.0, "end": 4600.0, "encoded": 3_125_000}]
    paced = throttle(downloads, mobile)
    assert paced == {"bytes": 5_625_000, "took_ms": 4500.0, "least_ms": 4500.0, "paced": True}
    quick = [{"start": 100.0, "end": 500.0, "encoded": 5_625_000}]
    assert throttle(quick, mobile)["paced"] is False
    assert throttle(downloads, LOOPBACK) is None


# -- the report and the README ---------------------------------------------------------------------


def _stats(median):
    return {"n": 3, "median": median, "min": median * 0.9, "max": median * 1.1}


def _bytes(before, total):
    return {
        "total": total,
        "before": before,
        "without_runtime": 150_000,
        "by_kind": {"page": 150_000, "pyodide": total - 150_000},
        "files": [],
    }


def test_the_host_serves_the_next_pyodide_beside_the_site_under_its_own_path_compressed_as_the_sites_own(small_site, tmp_path, monkeypatch):
    import http.client
    from urllib.parse import urlsplit

    from bench import host, pyodide_next

    files = tmp_path / "pyodide-next"
    files.mkdir()
    (files / "pyodide.asm.wasm").write_bytes(b"\0asm" + bytes(30_000))
    monkeypatch.setattr(host, "BESIDE_THE_SITE", ((pyodide_next.PATH, files), (host.BENCH_PREFIX, host.REFERENCE)))
    with host.hosted(small_site) as (origin, _):
        connection = http.client.HTTPConnection(urlsplit(origin).netloc, timeout=10)
        wasm, wasm_body = _get(connection, "GET", pyodide_next.PATH + "pyodide.asm.wasm", {"Accept-Encoding": "gzip"})
        page, _ = _get(connection, "GET", host.BENCH_PREFIX + "index.html")
        site_file, _ = _get(connection, "GET", "/assets/engine.wasm")
        absent, _ = _get(connection, "GET", pyodide_next.PATH + "engine.wasm")
        connection.close()
    assert wasm.status == 200 and wasm.headers["Content-Type"] == "application/wasm" and wasm.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(wasm_body) == (files / "pyodide.asm.wasm").read_bytes()
    assert page.status == 200 and site_file.status == 200  # the reference page and the site are where they were
    assert absent.status == 404  # a site file is not found under the next Pyodide's path


def _network(name, label, mbit, reference_ms, engine_ms):
    from bench.network import NETWORKS

    lesson = {
        "lesson": "context-compression",
        "path": "/lessons/context-compression/",
        "label": "context-compression",
        "is_lesson": True,
        "views": 144,
        "finite": True,
        "first_change": "Context budget → 36",
        "cold": {
            "runs": [],
            "changed": _stats(300.0),
            "interactive": _stats(reference_ms * 0.1),
            "engine": _stats(engine_ms),
            "bytes": _bytes(11_640_000, 11_680_000),
        },
        "samples": {"runs": [], "ran": _stats(engine_ms + 50)},
        "interaction": None,
        "repeat": {"runs": [], "interactive": {"n": 0}, "engine": {"n": 0}, "bytes": None, "files": None},
        "reads": {
            "save_data": True,
            "quiet_s": 3.0,
            "engine_state": "none",
            "runtime_bytes": 0,
            "bytes": _bytes(0, 150_000),
            "error": None,
        },
    }
    network = next(network for network in NETWORKS if network.name == name)
    return {
        "name": name,
        "label": label,
        "mbit": mbit,
        "latency_ms": network.latency_ms,
        "reference": {
            "runs": [],
            "stats": _stats(reference_ms),
            "bytes": _bytes(5_620_000, 5_620_000),
            "throttle": None if mbit is None else {"bytes": 5_620_000, "took_ms": 4_600.0, "least_ms": 4_496.0, "paced": True},
        },
        "pages": [lesson],
        "second": [],
    }


def _results(networks, lighthouse=None):
    return {
        "networks": networks,
        "engine": {},
        "build": {"seconds": None},
        "lighthouse": lighthouse,
        "machine": {
            "date": "2026-12-02 10:00 UTC",
            "commit": "abc1234",
            "cores": 2,
            "cpu": "a CPU",
            "memory_gb": 8,
            "chromium": "156",
            "pyodide": "0.29.5",
            "python": "3.11.7",
            "load_average": {"start": [0.2, 0, 0], "after_chromium": [0.3, 0, 0], "end": [0.25, 0, 0]},
        },
    }


README = "# lessonkit\n\n## Measured\n\nHow it is measured.\n\n<!-- bench:start -->\nan old table\n<!-- bench:end -->\n\nAfter the table.\n"


def _readme_after(tmp_path, results):
    from bench import report

    results["table"] = report.table(results)
    readme = tmp_path / "README.md"
    readme.write_text(README, encoding="utf-8")
    report.update_readme(readme, results)
    return readme.read_text(encoding="utf-8")


def test_the_readme_shows_every_network_with_its_own_reference_and_ratios(tmp_path):
    networks = [
        _network("loopback", "loopback (no emulation)", None, 2000.0, 1000.0),
        _network("cable", "40 Mbit/s, 20 ms", 40, 3000.0, 3300.0),
        _network("4g", "10 Mbit/s, 50 ms (4G)", 10, 6500.0, 10_500.0),
    ]
    text = _readme_after(tmp_path, _results(networks))

    assert "an old table" not in text and text.startswith("# lessonkit\n") and text.endswith("After the table.\n")
    assert "Loopback only" not in text
    assert "Networks: loopback (no emulation), 40 Mbit/s, 20 ms, 10 Mbit/s, 50 ms (4G)" in text
    labels = ("| loopback (no emulation) |", "| 40 Mbit/s, 20 ms |", "| 10 Mbit/s, 50 ms (4G) |")
    summary = [line for line in text.splitlines() if line.startswith(labels) and "| context-compression |" in line]
    assert summary == [
        "| loopback (no emulation) | context-compression | 1.00 s, 0.50× pass | 200 ms, 0.10× pass | 1.05 s, 0.53× **miss** | — | 11.64 MB **miss** | 11.68 MB |",
        "| 40 Mbit/s, 20 ms | context-compression | 3.30 s, 1.10× **miss** | 300 ms, 0.10× pass | 3.35 s, 1.12× **miss** | — | 11.64 MB **miss** | 11.68 MB |",
        "| 10 Mbit/s, 50 ms (4G) | context-compression | 10.50 s, 1.62× **miss** | 650 ms, 0.10× pass | 10.55 s, 1.62× **miss** | — | 11.64 MB **miss** | 11.68 MB |",
    ]
    assert "| 10 Mbit/s, 50 ms (4G) | **bare boot** (the reference) | 6.50 s |  |  |  | 5.62 MB | 5.62 MB |" in text
    for label in ("loopback (no emulation)", "40 Mbit/s, 20 ms", "10 Mbit/s, 50 ms (4G)"):
        assert f"**{label}**, every figure:" in text
    assert (
        "| network emulation: the reference worker's own downloads, first request → last byte | — | 4.60 s | 5.62 MB need at least 4.50 s at 10 Mbit/s |"
        in text
    )
    assert "| a reader who only reads, saveData on: Python runtime downloaded | context-compression | 0 kB |" in text
    assert "**Lighthouse**: not run (`--no-lighthouse`)." in text


def test_a_run_on_loopback_alone_says_that_it_is_one(tmp_path):
    text = _readme_after(tmp_path, _results([_network("loopback", "loopback (no emulation)", None, 2000.0, 1000.0)]))

    assert "**Loopback only**: this run measured no emulated network" in text
    assert "Networks:" not in text
    assert "40 Mbit/s" in text  # where it says how to measure the others


def test_lighthouse_rows_hold_every_page_to_its_scores_and_total_blocking_time(tmp_path):
    from bench.audits import scores

    def report_of(performance, tbt, seo=1.0):
        categories = {"performance": performance, "accessibility": 1.0, "best-practices": 1.0, "seo": seo}
        return {
            "lighthouseVersion": "12.2.3",
            "categories": {name: {"score": score} for name, score in categories.items()},
            "audits": {
                "total-blocking-time": {"numericValue": tbt},
                "largest-contentful-paint": {"numericValue": 1234.5},
                "dom-size": {"numericValue": 1001},
            },
            "environment": {"benchmarkIndex": 800.0},
        }

    pages = [
        {**scores(report_of(0.99, 40.0)), "path": "/"},
        {**scores(report_of(0.87, 390.0, seo=0.92)), "path": "/lessons/context-compression/"},
    ]
    assert pages[0]["scores"] == {"performance": 99, "accessibility": 100, "best-practices": 100, "seo": 100}
    lighthouse = {"version": "12.2.3", "settings": "mobile, simulated throttling (Lighthouse's defaults)", "pages": pages}
    text = _readme_after(tmp_path, _results([_network("loopback", "loopback (no emulation)", None, 2000.0, 1000.0)], lighthouse))

    assert "Lighthouse 12.2.3 over every page (2), served by the bench's host: mobile, simulated throttling" in text
    assert "| / | 99 | 100 | 100 | 100 | 40 ms | 1.23 s | 1,001 | pass |" in text
    assert (
        "| /lessons/context-compression/ | 87 | 100 | 100 | 92 | 390 ms | 1.23 s | 1,001 | **miss**: performance 87 < 98; TBT 390 ms > 150 ms; seo 92 < 100 |"
        in text
    )


def _bar(**changed):
    whole = 18_200_000
    return {
        "moves": 40,
        "last": whole,
        "total": whole,
        "declared": whole,
        "files_sent": 7,
        "files_declared": 7,
        "sent": 11_400_000,
        "sent_as_files": whole,
    } | changed


def test_the_download_bar_passes_only_when_it_moved_and_ended_at_the_bytes_of_every_file_the_engine_downloads():
    from bench.report import progress_row

    assert progress_row(_bar(), "4G")[-1] == "pass"
    assert "on the wire" in progress_row(_bar(), "4G")[3]
    assert progress_row(_bar(last=9_000_000), "4G")[-1] == "**miss**"  # stopped short
    assert progress_row(_bar(files_sent=6, sent_as_files=18_000_000), "4G")[-1] == "**miss**"  # a file never came
    assert progress_row(_bar(moves=1), "4G")[-1] == "**miss**"  # jumped, did not move
    assert progress_row({"moves": 0}, "4G")[2:] == ("never shown", "", "", "moves, ends at its total", "**miss**")


def test_the_engines_downloads_are_read_from_the_builds_manifest_as_the_hosts_paths(tmp_path):
    from bench.browser import engine_downloads

    manifest = tmp_path / "assets" / "lessonkit" / "runtime.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(json.dumps({"downloads": {"../pyodide/pyodide.asm.wasm": 8_647_684, "../wheels/lessonkit.whl": 109_739}}))
    assert engine_downloads(tmp_path) == {"/assets/pyodide/pyodide.asm.wasm": 8_647_684, "/assets/wheels/lessonkit.whl": 109_739}


def test_a_reader_who_only_reads_is_counted_the_python_runtime_alone_not_the_builds_views():
    from bench.browser import Load
    from bench.run import _runtime_bytes

    read = Load(bytes={"total": 190_000, "without_runtime": 150_000, "by_kind": {"page": 150_000, "views": 40_000}})
    assert _runtime_bytes(read) == 0
    read.bytes["by_kind"] |= {"pyodide": 5_510_000, "snapshot": 5_860_000}
    assert _runtime_bytes(read) == 11_370_000


def _kept(**changed):
    return {
        "lesson": "context-compression",
        "engine_ms": 1200.0,
        "kept_ms": 2500.0,
        "after_ready_ms": 1300.0,
        "files": 128,
        "asked_before_ready": [],
        "course_bytes": 25_164_419,
        "bytes": {"total": 14_000_000},
        "error": None,
    } | changed


def test_keeping_the_course_offline_passes_only_when_it_began_after_the_engines_ready():
    from bench.report import keeping_row

    row = keeping_row(_kept(), "4G")
    assert row[2] == "1.30 s"
    assert "128 files" in row[3] and "counted apart from the visit" in row[3]
    assert row[-1] == "pass"
    assert keeping_row(_kept(asked_before_ready=["/service-worker.js"]), "4G")[-1] == "**miss**"  # competed with the visit
    assert keeping_row(_kept(error="the course was not kept within 300 s"), "4G")[2:4] == (
        "not measured",
        "the course was not kept within 300 s",
    )


def test_the_first_real_count_is_given_with_its_ratio_to_the_reference_and_the_bytes_of_its_ranks():
    from bench.report import counting_rows

    counting = {
        "lesson": "context-compaction",
        "encoding": "o200k_base",
        "counted": _stats(980.0),
        "bytes": _bytes(0, 1_692_528),
        "errors": [],
    }
    timed, sent = counting_rows(counting, "4G", 6500.0)
    assert timed[:5] == (
        "first real count (o200k_base), context-compaction: press → count shown",
        "4G",
        "980 ms",
        "882 ms – 1.08 s (n=3)",
        "0.15×",
    )
    assert sent[:3] == ("bytes, first real count, from the press", "4G", "1.69 MB")
    failed = {**counting, "counted": {"n": 0}, "bytes": None, "errors": ["the count never showed"]}
    assert counting_rows(failed, "4G", 6500.0) == [
        (
            "first real count (o200k_base), context-compaction: press → count shown",
            "4G",
            "not measured",
            "the count never showed",
            "",
            "",
            "",
        )
    ]


def test_the_next_pyodides_bare_boot_is_shown_beside_the_courses_with_its_ratio_and_bytes_per_network(tmp_path):
    loopback = _network("loopback", "loopback (no emulation)", None, 2000.0, 1000.0)
    cable = _network("cable", "40 Mbit/s, 20 ms", 40, 3000.0, 3300.0)
    loopback["pyodide_next"] = {
        "version": "314.0.8",
        "runs": [],
        "stats": _stats(2300.0),
        "bytes": _bytes(6_560_000, 6_560_000),
        "errors": [],
    }
    cable["pyodide_next"] = {
        "version": "314.0.8",
        "runs": [],
        "stats": {"n": 0},
        "bytes": None,
        "errors": ["Classic web workers are not supported"],
    }
    text = _readme_after(tmp_path, _results([loopback, cable]))

    assert "**The next Pyodide** against the course's" in text
    assert "| network | Pyodide 0.29.5 | Pyodide 314.0.8 | × the course's | bytes, course's | bytes, next |  |" in text
    rows = [line for line in text.splitlines() if line.startswith(("| loopback (no emulation) | 2.00 s", "| 40 Mbit/s, 20 ms | 3.00 s"))]
    assert rows[0].startswith("| loopback (no emulation) | 2.00 s; 1.80 s – 2.20 s (n=3) | 2.30 s; 2.07 s – 2.53 s (n=3) | 1.15× |")
    assert rows[0].endswith("| 5.62 MB | 6.56 MB |  |")
    assert "| failed |  | 5.62 MB |  | Classic web workers are not supported |" in rows[1]


def test_without_the_next_pyodide_the_readme_says_nothing_of_it(tmp_path):
    text = _readme_after(tmp_path, _results([_network("loopback", "loopback (no emulation)", None, 2000.0, 1000.0)]))
    assert "The next Pyodide" not in text
