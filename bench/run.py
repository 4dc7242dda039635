"""`make bench`: the site measured on the networks readers have, against a reference taken on the
same network in the same run.

The site is served by the bench's own host (bench/host.py), which compresses as static hosts do and
counts every byte it sends. Each network (bench/network.py: loopback, 40 Mbit/s with 20 ms, 10
Mbit/s with 50 ms) is emulated by Chromium itself, for the page and its workers alike; `--networks`
chooses among them. On each, the reference is the bare cost of Python in this browser on this
machine over that network: a page of the benchmark's own (bench/reference/, served beside the site
under /__bench__/) that boots the site's pinned Pyodide in a Web Worker, unpacks the lessonkit wheel
and imports lessonkit, nothing else. Every time is also given as a ratio to the reference of its own
network, so figures from a slow or busy machine still compare.

Measured on each network, for every page of the built site with a panel (lessons, and the authors'
demo, labelled):

- cold: from navigation start (fresh context, empty cache) until the reader's first change, made as
  soon as its control exists, shows the engine's real answer in the status; when the panel's
  engine is ready; and the bytes the host sent for the load: before the engine was ready, in all,
  and without the Python runtime;
- samples: from navigation start until "Run sample 1", clicked as soon as it exists, printed;
- repeat visit: the same lesson in a new tab of the same context (HTTP cache warm);
- second lesson: each cold load of the first page goes on: a click on its link to the next panel
  page, until that page's first change shows its real answer;
- a reader who only reads, on a connection that asks to save data: what the page downloads;
- the first count in real tokens, on the first lesson once its engine is ready: from the press of
  "Count in real tokens" until the count shows, and the bytes it costs (the encoding's ranks).

On the first network only (loopback, unless --networks leaves it out), since the network no longer
enters once the engine is ready: interaction, from each control event to the status it causes, over
changes to views the page has not seen (p50, p95, and the p95 of each half of the walk).
Once: Lighthouse over every page of the site (bench/audits.py), the engine cost in CPython at 1x,
10x and 100x fixtures, and the build's time.

Reference runs and cold runs alternate round by round (in an order rotated each round), so a change
in the machine's load touches both.
Writes bench/results.json; with --readme, also the README's "Measured" table.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from bench import audits, host, pyodide_next, report
from bench import engine as engine_cost
from bench.browser import PYTHON_RUNTIME, Browser, Load
from bench.network import NETWORKS, Network, chosen
from bench.pages import PanelPage, every_page, scan, walk
from lessonkit.authoring.local_site import launch_chromium

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "site"
RESULTS = ROOT / "bench" / "results.json"


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def build() -> dict[str, Any]:
    """Time `mkdocs build --strict`, what `make site` runs, in a subprocess: the whole build, with
    nothing an earlier build kept of the engine put back (LESSONKIT_ENGINE_CACHE=off)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "LESSONKIT_ENGINE_CACHE": "off"}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"the site did not build:\n{done.stderr[-3000:]}")
    return {"seconds": seconds, "command": "mkdocs build --strict"}


def machine(browser_version: str, pyodide: str, load_start: tuple[float, ...], load_after_chromium: tuple[float, ...]) -> dict[str, Any]:
    cpu = "unknown CPU"
    memory = 0.0
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text().splitlines()
        cpu = next(line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name"))
        kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
        memory = kb / 1024 / 1024
    except (OSError, StopIteration, ValueError):
        pass
    try:
        git = ["git", "rev-parse", "--short", "HEAD"]
        commit = subprocess.run(git, cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = None
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit,
        "cores": os.cpu_count(),
        "cpu": cpu,
        "memory_gb": memory,
        "chromium": browser_version,
        "pyodide": pyodide,
        "python": platform.python_version(),
        "load_average": {"start": list(load_start), "after_chromium": list(load_after_chromium), "end": list(os.getloadavg())},
    }


def loads(runs: list[Load]) -> list[dict[str, Any]]:
    return [{k: v for k, v in vars(run).items() if k != "bytes"} for run in runs]


def first_bytes(runs: list[Load]) -> dict[str, Any] | None:
    for run in runs:
        if run.bytes:
            return run.bytes
    return None


def measure(args: argparse.Namespace) -> dict[str, Any]:
    load_start = os.getloadavg()
    networks = chosen(args.networks)
    results: dict[str, Any] = {"settings": vars(args)}
    if args.no_build:
        results["build"] = {"seconds": None, "command": "skipped (--no-build)"}
    else:
        log("build: mkdocs build --strict")
        results["build"] = build()
    site = Path(args.site).resolve() if args.site else SITE
    panels = scan(site)
    if not panels:
        raise SystemExit(f"no page of {site} has a panel: build the site first (make site)")
    if not args.no_lighthouse and not audits.installed():
        raise SystemExit(f"Lighthouse is not installed in {audits.PACKAGE}: run `make bench`, or pass --no-lighthouse")
    log("pages: " + ", ".join(f"{page.path} ({page.label})" for page in panels))

    log("engine cost in CPython (each scale in its own process)")
    results["engine"] = engine_cost.measure(limit_s=args.engine_limit, log=log)

    results["host"] = host.described()
    results["networks"] = []
    if not pyodide_next.installed():
        log(f"the next Pyodide is not installed in {pyodide_next.PACKAGE}: run `make bench` to measure it beside the course's")
    with host.hosted(site) as (origin, ledger), sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        bench = Browser(playwright, chromium, origin, site, log, ledger)
        for first, network in enumerate(networks):
            bench.network = network
            log(f"network: {network.label}")
            results["networks"].append(on_network(bench, panels, network, args, interaction=first == 0))
        version = chromium.version
        chromium.close()
        load_after_chromium = os.getloadavg()
        pyodide = next((ref.get("pyodide") for net in results["networks"] for ref in net["reference"]["runs"]), None) or "?"
        if args.no_lighthouse:
            results["lighthouse"] = None
        else:
            results["lighthouse"] = lighthouse(origin, site)
    results["machine"] = machine(version, pyodide, load_start, load_after_chromium)
    return results


def on_network(bench: Browser, panels: list[PanelPage], network: Network, args: argparse.Namespace, interaction: bool) -> dict[str, Any]:
    """Every measurement of one network, the reference's runs alternating with the pages' loads."""
    reference: list[dict[str, Any]] = []
    cold: dict[str, list[Load]] = {page.lesson: [] for page in panels}
    samples: dict[str, list[Load]] = {page.lesson: [] for page in panels}
    phase = time.perf_counter()
    # Each round measures the reference and every page once, in an order rotated round by
    # round, so neither the reference nor any page always runs just after the heaviest teardown.
    # The second lesson of a visit continues the cold loads of the pair's first page.
    pair = first_pair(panels)
    seconds: list[Load] = []
    jobs: list[tuple[str, PanelPage | None]] = [("reference", None)]
    # The next Pyodide's bare boot, in the same rounds as the course's (bench/pyodide_next.py).
    next_boots: list[dict[str, Any]] = []
    if pyodide_next.installed():
        jobs.append(("next", None))
    for page in panels:
        jobs.append(("cold", page))
        if page.samples:
            jobs.append(("samples", page))
    for round_number in range(1, args.runs + 1):
        shift = (round_number - 1) % len(jobs)
        log(f"round {round_number}/{args.runs} on {network.label}")
        for job, page in jobs[shift:] + jobs[:shift]:
            if job == "next":
                ref = attempt_reference(bench, pyodide_next.PATH)
                next_boots.append(ref)
                log(
                    f"  reference with Pyodide {pyodide_next.version()}: "
                    + (f"imported at {ref['importedAt']:.0f} ms, {ref['bytes']['total']:,} bytes" if ref.get("ok") else ref["error"])
                )
            elif page is None:
                ref = bench.reference()
                reference.append(ref)
                median_ref = sorted(r["importedAt"] for r in reference)[len(reference) // 2]
                # Wait for an engine long enough for a slow boot, not forever for one that starts lazily.
                bench.engine_wait_ms = max(15_000, 4 * median_ref)
                paced = ref.get("throttle")
                pacing = (
                    f", its worker's downloads took {paced['took_ms']:.0f} ms, at least {paced['least_ms']:.0f} ms here" if paced else ""
                )
                log(f"  reference: imported at {ref['importedAt']:.0f} ms, {ref['bytes']['total']:,} bytes{pacing}")
            elif job == "cold":
                then = pair[1] if pair and page is pair[0] else None
                try:
                    run, following = bench.cold(page, then)
                except PlaywrightError as error:
                    run, following = Load(error=_first_line(error)), None
                cold[page.lesson].append(run)
                log(
                    f"  {page.lesson}: cold interactive {_ms(run.interactive_ms)}, engine {run.engine_state} {_ms(run.engine_ms)}"
                    + (f", {run.bytes['before']:,} bytes before it" if run.bytes and "before" in run.bytes else "")
                    + (f" — {run.error}" if run.error else "")
                )
                if then is not None:
                    following = following or Load(error="the first page's cold load failed")
                    seconds.append(following)
                    log(
                        f"  → {then.lesson} by its link: interactive {_ms(following.interactive_ms)} after the click"
                        + (f" — {following.error}" if following.error else "")
                    )
            else:
                run = attempt(bench.samples, page)
                samples[page.lesson].append(run)
                log(f"  {page.lesson}: Run sample 1 printed at {_ms(run.sample_ms)}" + (f" — {run.error}" if run.error else ""))

    phase = _phase(f"reference and cold rounds on {network.label}", phase)
    interactions: dict[str, Any] = {}
    if interaction:
        for page in panels:
            steps, views = walk(page, args.changes if not page.finite or page.views > 2 * args.changes else 2 * args.changes)
            measured = [step for step in steps if step.measured]
            log(f"interaction {page.lesson}: {len(steps)} changes, {len(measured)} timed")
            try:
                result = bench.interaction(page, steps)
            except PlaywrightError as error:
                result = {"error": _first_line(error)}
            result.update(changes=len(steps), unique=len(measured), views=views)
            interactions[page.lesson] = result
            if result.get("errors"):
                log(f"  {len(result['errors'])} changes never showed their status, e.g. {result['errors'][0]}")
        phase = _phase("interaction", phase)

    repeats: dict[str, list[Load]] = {page.lesson: [] for page in panels}
    reads: dict[str, Load] = {}
    for page in panels:
        if not page.is_lesson:
            continue  # a demo of the platform: its cold loads and interaction say enough
        repeats[page.lesson] = [attempt(bench.repeat, page) for _ in range(args.repeat_runs)]
        log(f"repeat visit {page.lesson}: " + ", ".join(_ms(run.interactive_ms) for run in repeats[page.lesson]))
        reads[page.lesson] = attempt(bench.reads, page)
        read = reads[page.lesson]
        log(
            f"reading {page.lesson} with saveData: {_runtime_bytes(read):,} bytes of Python runtime, engine {read.engine_state}"
            + (f" — {read.error}" if read.error else "")
        )
    _phase(f"repeat visits and readers on {network.label}", phase)

    # Once per network: the course kept for reading offline after a first visit to the first lesson.
    keeping = None
    first_lesson = next((page for page in panels if page.is_lesson), None)
    if first_lesson is not None:
        kept = attempt(bench.keeping, first_lesson)
        keeping = {
            "lesson": first_lesson.lesson,
            "engine_ms": kept.engine_ms,
            "error": kept.error,
            "bytes": kept.bytes,
            **kept.extra,
        }
        log(
            f"keeping the course offline after {first_lesson.lesson}: "
            + (kept.error or f"{_ms(kept.extra['after_ready_ms'])} after the engine's ready, {kept.bytes['total']:,} bytes on the wire")
        )

    # Once per network: real tokens, the first count a reader asks of a running engine (its ranks come then).
    counting = None
    if first_lesson is not None:
        counts = [attempt(bench.first_count, first_lesson) for _ in range(args.count_runs)]
        counting = {
            "lesson": first_lesson.lesson,
            "runs": [{"counted_ms": run.extra.get("counted_ms"), "tokens": run.extra.get("tokens"), "error": run.error} for run in counts],
            "counted": report.stats([run.extra["counted_ms"] for run in counts if "counted_ms" in run.extra]),
            "bytes": next((run.bytes for run in counts if run.bytes and not run.error), None),
            "encoding": next((run.extra["encoding"] for run in counts if "encoding" in run.extra), None),
            "errors": [run.error for run in counts if run.error],
        }
        log(
            f"first real count on {first_lesson.lesson}: "
            + ", ".join(_ms(run.extra.get("counted_ms")) for run in counts)
            + (f", {counting['bytes']['total']:,} bytes on the wire" if counting["bytes"] else "")
            + (f" — {counting['errors'][0]}" if counting["errors"] else "")
        )

    return {
        "name": network.name,
        "label": network.label,
        "mbit": network.mbit,
        "latency_ms": network.latency_ms,
        "reference": {
            "what": "navigation start → the site's Pyodide booted in a Web Worker, the lessonkit wheel unpacked, `import lessonkit` done",
            "runs": reference,
            "stats": report.stats([r["importedAt"] for r in reference]),
            "bytes": reference[0]["bytes"] if reference else None,
            "throttle": next((r["throttle"] for r in reference if r.get("throttle")), None),
        },
        "pyodide_next": (
            {
                "version": pyodide_next.version(),
                "runs": next_boots,
                "stats": report.stats([r["importedAt"] for r in next_boots if r.get("ok")]),
                "bytes": next((r["bytes"] for r in next_boots if r.get("ok")), None),
                "errors": [r["error"] for r in next_boots if not r.get("ok")],
            }
            if next_boots
            else None
        ),
        "pages": [
            page_results(
                page, cold[page.lesson], samples[page.lesson], interactions.get(page.lesson), repeats[page.lesson], reads.get(page.lesson)
            )
            for page in panels
        ],
        "keeping": keeping,
        "counting": counting,
        "second": (
            [
                {
                    "label": f"{pair[0].label} → {pair[1].label}",
                    "from": pair[0].path,
                    "to": pair[1].path,
                    "runs": loads(seconds),
                    "interactive": report.stats([run.interactive_ms for run in seconds]),
                    "engine": report.stats([run.engine_ms for run in seconds if run.engine_state == "ready"]),
                    "bytes": first_bytes(seconds),
                }
            ]
            if pair
            else []
        ),
    }


def lighthouse(origin: str, site: Path) -> dict[str, Any]:
    """Lighthouse over every page of the built site, one page after the other, served by the bench's host."""
    pages = []
    started = time.perf_counter()
    for path in every_page(site):
        found = audits.audit(origin + path)
        found["path"] = path
        pages.append(found)
        shown = found.get("scores") or {}
        log(
            f"lighthouse {path}: "
            + (found["error"] if "error" in found and not shown else ", ".join(f"{name} {value}" for name, value in shown.items()))
            + (f", TBT {found['tbt_ms']:.0f} ms, LCP {found['lcp_ms']:.0f} ms" if found.get("tbt_ms") is not None else "")
        )
    _phase("lighthouse", started)
    return {"version": audits.version(), "settings": "mobile, simulated throttling (Lighthouse's defaults)", "pages": pages}


def page_results(
    page: PanelPage, cold: list[Load], samples: list[Load], interaction: dict[str, Any] | None, repeat: list[Load], reads: Load | None
) -> dict[str, Any]:
    repeat_bytes = first_bytes(repeat)
    return {
        "lesson": page.lesson,
        "path": page.path,
        "label": page.label,
        "is_lesson": page.is_lesson,
        "views": page.views,
        "finite": page.finite,
        "first_change": next((run.extra["first_change"] for run in cold if "first_change" in run.extra), None),
        "cold": {
            "runs": loads(cold),
            "progress": [run.extra["progress"] for run in cold if run.extra.get("progress")],
            "interactive": report.stats([run.interactive_ms for run in cold]),
            "changed": report.stats([run.changed_ms for run in cold if run.interactive_ms is not None]),
            "engine": report.stats([run.engine_ms for run in cold if run.engine_state == "ready"]),
            "bytes": first_bytes(cold),
        },
        "samples": {"runs": loads(samples), "ran": report.stats([run.sample_ms for run in samples])} if samples else None,
        "interaction": interaction,
        "repeat": {
            "runs": loads(repeat),
            "interactive": report.stats([run.interactive_ms for run in repeat]),
            "engine": report.stats([run.engine_ms for run in repeat if run.engine_state == "ready"]),
            "bytes": repeat_bytes["total"] if repeat_bytes else None,
            "files": repeat_bytes["files"] if repeat_bytes else None,
        },
        "reads": (
            {
                "save_data": reads.extra.get("save_data"),
                "quiet_s": reads.extra.get("quiet_s"),
                "engine_state": reads.engine_state,
                "runtime_bytes": _runtime_bytes(reads),
                "bytes": reads.bytes,
                "error": reads.error,
            }
            if reads is not None
            else None
        ),
    }


def first_pair(panels: list[PanelPage]) -> tuple[PanelPage, PanelPage] | None:
    """The visit measured for "the second lesson": the first two consecutive panel pages in the
    site's order, the second reached by a link on the first; two lessons if the site has them."""
    found = [(a, b) for a, b in zip(panels, panels[1:], strict=False) if a.link_to(b) is not None]
    lessons = [(a, b) for a, b in found if a.is_lesson and b.is_lesson]
    return (lessons or found or [None])[0]


def attempt(measurement: Any, *pages: PanelPage) -> Load:
    """One run; a run that fails (a control that never appears, say) is recorded, not fatal."""
    try:
        return measurement(*pages)
    except PlaywrightError as error:
        return Load(error=_first_line(error))


def attempt_reference(bench: Browser, pyodide: str) -> dict[str, Any]:
    """A bare boot with another Pyodide; one that fails (a release that no longer boots this way) is
    recorded with its error, not fatal: the course's own figures do not depend on it."""
    try:
        return bench.reference(pyodide, module=True)
    except (PlaywrightError, RuntimeError) as error:
        return {"ok": False, "error": _first_line(error)}


def _first_line(error: Exception) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def _phase(name: str, started: float) -> float:
    now = time.perf_counter()
    log(f"({name}: {now - started:.0f} s)")
    return now


def _runtime_bytes(load: Load) -> int:
    """The bytes of the Python runtime a load downloaded: Pyodide, the snapshot and the wheel. The
    build's views are not the runtime: they are its answers, which a reader who only reads gets."""
    if not load.bytes:
        return 0
    return sum(load.bytes["by_kind"].get(kind, 0) for kind in PYTHON_RUNTIME)


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--networks",
        default=",".join(network.name for network in NETWORKS),
        help="the networks to measure on, comma-separated, among "
        + ", ".join(f"{n.name} ({n.label})" for n in NETWORKS)
        + " (default: all)",
    )
    parser.add_argument("--runs", type=int, default=3, help="cold loads per page, and reference runs, on each network (default 3)")
    parser.add_argument("--repeat-runs", type=int, default=2, help="repeat visits per lesson on each network (default 2)")
    parser.add_argument("--count-runs", type=int, default=2, help="first counts in real tokens on each network (default 2)")
    parser.add_argument("--changes", type=int, default=100, help="timed changes to unseen views per page, at least (default 100)")
    parser.add_argument("--engine-limit", type=float, default=engine_cost.LIMIT_S, help="seconds allowed per engine and fixture scale")
    parser.add_argument("--no-build", action="store_true", help="measure the site already built, without timing a build")
    parser.add_argument("--site", help="measure this built site instead of ./site (implies nothing about --no-build)")
    parser.add_argument("--no-lighthouse", action="store_true", help="leave out Lighthouse (a few minutes over every page)")
    parser.add_argument("--readme", action="store_true", help="also write the table into the README's Measured section")
    args = parser.parse_args()
    try:
        chosen(args.networks)
    except ValueError as error:
        parser.error(str(error))

    started = time.perf_counter()
    results = measure(args)
    results["table"] = report.table(results)
    results["seconds"] = time.perf_counter() - started
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(report.machine_line(results["machine"]))
    print(report.networks_line(results))
    print()
    print(results["table"])
    print()
    print(f"Written to {RESULTS.relative_to(ROOT)} in {results['seconds']:.0f} s.")
    if args.readme:
        report.update_readme(ROOT / "README.md", results)
        print("README.md: Measured table updated.")


if __name__ == "__main__":
    main()
