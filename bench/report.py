"""The benchmark's tables: every figure with its spread, its ratio to the reference of its network
and its target, per network; Lighthouse's scores per page; the engines and the build."""

from __future__ import annotations

import math
import re
import statistics
from pathlib import Path
from typing import Any

# Targets, as the issue sets them: ratios to the reference measured on the same network in the
# same run, or absolutes.
COLD_TARGET = 0.2  # cold: the reader's first change shows its real result, every lesson
ENGINE_TARGET = 0.5  # cold: the panel's engine ready
ENGINE_FLOOR = 1.0  # ... and never slower than the bare boot
PYTHON_TARGET = 0.5  # in-page Python ready (Run sample 1 printed)
INTERACTION_P95_MS = 16.0
SECOND_TARGET = 0.05  # the second lesson of a visit
LINEAR_SLACK = 1.5  # "linear": a fixture k times larger costs at most 1.5 k times as much
LIGHTHOUSE_PERFORMANCE = 98  # at least, on every page
LIGHTHOUSE_TBT_MS = 150.0  # at most
LIGHTHOUSE_KEPT = 100  # accessibility, best practices and SEO, on every page


def stats(values: list[float]) -> dict[str, Any]:
    values = [value for value in values if value is not None]
    if not values:
        return {"n": 0}
    return {"n": len(values), "median": statistics.median(values), "min": min(values), "max": max(values)}


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile: the value at or below which p % of the values lie."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def halves(latencies: list[float]) -> str:
    """The p95 of the walk's first half and of its second: the walk begins the moment Python is
    ready, while the browser is still optimizing Pyodide's WebAssembly, and that is where the tail
    of the whole walk has been; the split shows in every run whether it still is."""
    middle = len(latencies) // 2
    if middle == 0:
        return "too few changes to split"
    first, rest = latencies[:middle], latencies[middle:]
    return f"p95 of changes 1–{middle}: {ms(percentile(first, 95))}, of {middle + 1}–{len(latencies)}: {ms(percentile(rest, 95))}"


def ms(value: float | None) -> str:
    if value is None:
        return "—"
    if value == 0:
        return "0 ms"
    if value >= 1000:
        return f"{value / 1000:.2f} s"
    if value >= 10:
        return f"{value:.0f} ms"
    return f"{value:.1f} ms" if value >= 1 else f"{value:.2f} ms"


def size(value: int) -> str:
    if value >= 1e6:
        return f"{value / 1e6:.2f} MB"
    return f"{value / 1e3:.0f} kB"


def ratio(value: float | None, reference: float) -> str:
    if value is None or not reference:
        return "—"
    shown = value / reference
    if shown < 0.001:
        return "< 0.001×"
    return f"{shown:.3f}×" if shown < 0.1 else f"{shown:.2f}×"


def verdict(ok: bool | None) -> str:
    return "—" if ok is None else ("pass" if ok else "**miss**")


def spread(summary: dict[str, Any]) -> str:
    if not summary.get("n"):
        return "no run succeeded: see bench/results.json"
    return f"{ms(summary['min'])} – {ms(summary['max'])} (n={summary['n']})"


HEADER = ("what", "page", "median", "spread (min – max)", "× reference", "target", "")


def _markdown(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _median(summary: dict[str, Any] | None) -> float | None:
    return (summary or {}).get("median")


def _within(value: float | None, reference: float | None, target: float) -> bool | None:
    return None if value is None or not reference else value / reference <= target


def _runtime(by_kind: dict[str, int]) -> str:
    return ", ".join(f"{kind} {size(value)}" for kind, value in sorted(by_kind.items()) if kind != "page") or "none"


def _reference_bytes(net: dict[str, Any]) -> int | None:
    found = net["reference"].get("bytes")
    return None if not found else found.get("before", found["total"])


def _cell(value: float | None, reference: float | None, target: float | None = None) -> str:
    """A summary cell: the median, its ratio to the network's reference, and the verdict on its target."""
    if value is None:
        return "—"
    shown = f"{ms(value)}, {ratio(value, reference or 0)}"
    return shown if target is None else f"{shown} {verdict(_within(value, reference, target))}"


def summary(results: dict[str, Any]) -> str:
    """One row per network and page: what a reader waits for, as medians and ratios to the bare boot
    on that network, and the bytes the host sent, with the issue's targets."""
    rows: list[tuple[str, ...]] = []
    for net in results["networks"]:
        ref = _median(net["reference"]["stats"])
        ref_bytes = net["reference"].get("bytes")
        rows.append(
            (
                net["label"],
                "**bare boot** (the reference)",
                ms(ref),
                "",
                "",
                "",
                size(ref_bytes["before"]) if ref_bytes else "—",
                size(ref_bytes["total"]) if ref_bytes else "—",
            )
        )
        arriving = {pair["to"]: pair for pair in net.get("second", [])}
        for page in net["pages"]:
            lesson = page["is_lesson"]
            cold_bytes = page["cold"].get("bytes") or {}
            before = cold_bytes.get("before")
            allowed = _reference_bytes(net)
            before_cell = "—" if before is None else size(before)
            if before is not None and lesson and allowed is not None:
                before_cell += f" {verdict(before <= allowed)}"
            pair = arriving.get(page["path"])
            second = "—"
            if pair is not None:
                came = pair["label"].split(" → ")[0]
                second = f"from {came}: {_cell(_median(pair['interactive']), ref, SECOND_TARGET)}"
            sample = page.get("samples")
            rows.append(
                (
                    net["label"],
                    page["label"],
                    _cell(_median(page["cold"]["engine"]), ref, ENGINE_TARGET if lesson else None),
                    _cell(_median(page["cold"]["interactive"]), ref, COLD_TARGET if lesson else None),
                    _cell(_median(sample["ran"]), ref, PYTHON_TARGET if lesson else None) if sample else "—",
                    second,
                    before_cell,
                    size(cold_bytes["total"]) if cold_bytes else "—",
                )
            )
    header = (
        "network",
        "page",
        f"engine ready (≤ {ENGINE_TARGET:g}×)",
        f"first change's real result (≤ {COLD_TARGET:g}×)",
        f"Run sample 1 (≤ {PYTHON_TARGET:g}×)",
        f"second lesson of a visit, click → result (≤ {SECOND_TARGET:g}×)",
        "bytes before engine ready (≤ the bare boot's)",
        "bytes, cold load",
    )
    return _markdown(header, rows)


def network_table(results: dict[str, Any], net: dict[str, Any]) -> str:
    """Every figure of one network, with its spread."""
    ref = net["reference"]["stats"].get("median")
    rows: list[tuple[str, ...]] = []

    def timed(what: str, page: str, summary: dict[str, Any], target: float | None, target_text: str = "") -> None:
        median = summary.get("median")
        ok = _within(median, ref, target) if target is not None else None
        rows.append(
            (
                what,
                page,
                ms(median),
                spread(summary),
                ratio(median, ref or 0),
                target_text or (f"≤ {target:g}×" if target is not None else ""),
                verdict(ok) if target is not None else "",
            )
        )

    rows.append(
        (
            "**reference**: Pyodide booted in a worker, wheel unpacked, `import lessonkit`",
            "—",
            ms(ref),
            spread(net["reference"]["stats"]),
            "1×",
            "",
            "",
        )
    )
    ref_bytes = net["reference"].get("bytes")
    if ref_bytes:
        rows.append(
            (
                "**reference**: bytes sent by the host",
                "—",
                size(ref_bytes["total"]),
                f"runtime: {_runtime(ref_bytes['by_kind'])}",
                "",
                "",
                "",
            )
        )
    paced = net["reference"].get("throttle")
    if paced:
        rows.append(
            (
                "network emulation: the reference worker's own downloads, first request → last byte",
                "—",
                ms(paced["took_ms"]),
                f"{size(paced['bytes'])} need at least {ms(paced['least_ms'])} at {net['mbit']:g} Mbit/s",
                "",
                "paced by the emulation",
                verdict(paced["paced"]),
            )
        )
    allowed = _reference_bytes(net)
    for page in net["pages"]:
        label, lesson = page["label"], page["is_lesson"]
        timed(
            f"cold: navigation start → the reader's first change, made once its control is there ({page['first_change']})",
            label,
            page["cold"]["changed"],
            None,
        )
        timed(
            "cold: navigation start → first change's real result in the status",
            label,
            page["cold"]["interactive"],
            COLD_TARGET if lesson else None,
            "" if lesson else "none: demo",
        )
        if page.get("samples"):
            timed(
                "cold: navigation start → Run sample 1 printed its output",
                label,
                page["samples"]["ran"],
                PYTHON_TARGET if lesson else None,
                "" if lesson else "none: demo",
            )
        engine = page["cold"]["engine"]
        timed(
            "cold: navigation start → panel's engine ready",
            label,
            engine,
            ENGINE_TARGET if lesson else None,
            f"≤ {ENGINE_TARGET:g}× (never over {ENGINE_FLOOR:g}×)" if lesson else "none: demo",
        )
        inter = page.get("interaction")
        if inter is not None:
            if inter.get("latencies_ms"):
                values = inter["latencies_ms"]
                p50, p95 = percentile(values, 50), percentile(values, 95)
                counted = f"{len(values)} changes, each to a view not seen before, of {inter['views']:,} views"
                rows.append(
                    ("interaction (engine ready): control change → status, p50", label, ms(p50), counted, ratio(p50, ref or 0), "", "")
                )
                rows.append(
                    (
                        "interaction (engine ready): control change → status, p95",
                        label,
                        ms(p95),
                        f"max {ms(max(values))}; {halves(values)}",
                        ratio(p95, ref or 0),
                        f"≤ {INTERACTION_P95_MS:g} ms",
                        verdict(p95 <= INTERACTION_P95_MS),
                    )
                )
            else:
                rows.append(("interaction (engine ready)", label, "not measured", inter.get("error", ""), "", "", ""))
        if page["repeat"]["runs"]:
            timed("repeat visit, new tab of the same context: → first change's real result", label, page["repeat"]["interactive"], None)
            timed("repeat visit, new tab: → panel's engine ready", label, page["repeat"]["engine"], None)
        cold_bytes = page["cold"]["bytes"]
        if cold_bytes:
            if cold_bytes.get("before") is not None:
                rows.append(
                    (
                        "bytes sent before the engine was ready (requests made before it)",
                        label,
                        size(cold_bytes["before"]),
                        "",
                        "",
                        f"≤ the reference's {size(allowed)}" if lesson and allowed is not None else "",
                        verdict(cold_bytes["before"] <= allowed) if lesson and allowed is not None else "",
                    )
                )
            rows.append(
                ("bytes, cold load, all", label, size(cold_bytes["total"]), f"runtime: {_runtime(cold_bytes['by_kind'])}", "", "", "")
            )
            rows.append(("bytes, cold load, without the Python runtime", label, size(cold_bytes["without_runtime"]), "", "", "", ""))
        bars = page["cold"].get("progress", [])
        for bar in bars[:1]:
            rows.append(progress_row(bar, label))
        if bars:
            # The worker's choice, load by load: the snapshot, or the ordinary start when it came too slowly.
            left_out = sum(1 for bar in bars if bar.get("snapshot_left_out"))
            started = f"restored from the snapshot in {len(bars) - left_out} of {len(bars)} cold loads, started without it in {left_out}"
            rows.append(("cold: how the engine started", label, started, "", "", "", ""))
        if page["repeat"].get("bytes") is not None:
            rows.append(("bytes, repeat visit in a new tab", label, size(page["repeat"]["bytes"]), "", "", "", ""))
        reads = page.get("reads")
        if reads:
            if reads.get("error"):
                rows.append(
                    ("a reader who only reads, saveData on: Python runtime downloaded", label, "not measured", reads["error"], "", "", "")
                )
            else:
                rows.append(
                    (
                        "a reader who only reads, saveData on: Python runtime downloaded",
                        label,
                        size(reads["runtime_bytes"]),
                        f"page loaded, then {reads['quiet_s']:g} s without a request; engine {reads['engine_state']}",
                        "",
                        "0 bytes",
                        verdict(reads["runtime_bytes"] == 0),
                    )
                )
    if net.get("keeping"):
        rows.append(keeping_row(net["keeping"], net["label"]))
    if net.get("counting"):
        rows.extend(counting_rows(net["counting"], net["label"], ref))
    for pair in net.get("second", []):
        timed("second lesson: click on the page's link → first change's real result", pair["label"], pair["interactive"], SECOND_TARGET)
        timed("second lesson: click → panel's engine ready", pair["label"], pair["engine"], None)
        if pair.get("bytes"):
            rows.append(("bytes, second lesson, from the click", pair["label"], size(pair["bytes"]["total"]), "", "", "", ""))
    return _markdown(HEADER, rows)


def progress_row(bar: dict[str, Any], label: str) -> tuple[str, ...]:
    """The engine's download bar in one cold load: it must move, end at its total, and that total must
    be the bytes of the files the engine downloads (what the host sent of them, before compression)."""
    what = "engine download bar, cold load (first run)"
    if not bar.get("moves"):
        return (what, label, "never shown", "", "", "moves, ends at its total", verdict(False))
    whole = bar["last"] == bar["total"] == bar["declared"] == bar["sent_as_files"] and bar["files_sent"] == bar["files_declared"]
    # Left out when it came too slowly to be worth it: the bar counts the files the engine started with.
    left_out = f"; the snapshot was left out after {size(bar['snapshot_sent'])} of it on the wire" if bar.get("snapshot_left_out") else ""
    return (
        what,
        label,
        f"moved {bar['moves']} times, ended at {size(bar['last'])} of {size(bar['total'])}",
        f"the total is the {bar['files_declared']} files' bytes; the host sent {bar['files_sent']} of them, "
        f"{size(bar['sent_as_files'])} as files, {size(bar['sent'])} on the wire{left_out}",
        "",
        "moves; ends at its total; total = the files' bytes",
        verdict(bar["moves"] >= 3 and whole),
    )


def keeping_row(kept: dict[str, Any], network: str) -> tuple[str, ...]:
    """The course kept for reading offline after a first visit: when, from the engine's ready, and
    what the host sent for it, apart from the visit. It must begin only once the engine is ready."""
    what = f"course kept offline after a first visit to {kept['lesson']}: engine ready → kept"
    if kept.get("error"):
        return (what, network, "not measured", kept["error"], "", "", "")
    early = kept.get("asked_before_ready") or []
    return (
        what,
        network,
        ms(kept["after_ready_ms"]),
        f"{kept['files']} files, {size(kept['bytes']['total'])} on the wire for {size(kept['course_bytes'])} of files, "
        "counted apart from the visit",
        "",
        "begins after the engine's ready",
        verdict(not early),
    )


def counting_rows(counting: dict[str, Any], network: str, reference: float | None) -> list[tuple[str, ...]]:
    """The first count in real tokens a reader asks of a running engine: from the press until the
    count shows, its spread and its ratio to the reference, and the bytes it cost (the encoding's
    ranks, fetched then and never for the engine's start)."""
    what = f"first real count ({counting.get('encoding') or 'real tokens'}), {counting['lesson']}: press → count shown"
    if not counting["counted"].get("n"):
        return [(what, network, "not measured", "; ".join(counting["errors"][:1]), "", "", "")]
    median = counting["counted"].get("median")
    rows = [(what, network, ms(median), spread(counting["counted"]), ratio(median, reference or 0), "", "")]
    if counting.get("bytes"):
        rows.append(("bytes, first real count, from the press", network, size(counting["bytes"]["total"]), "", "", "", ""))
    return rows


def lighthouse_table(found: dict[str, Any]) -> str:
    """Lighthouse's four scores, TBT, LCP and DOM size per page, against the issue's targets."""
    rows: list[tuple[str, ...]] = []
    for page in found["pages"]:
        scores = page.get("scores")
        if not scores:
            rows.append((page["path"], "failed", "", "", "", "", "", "", page.get("error", "")))
            continue
        misses = []
        performance = scores.get("performance")
        if performance is None or performance < LIGHTHOUSE_PERFORMANCE:
            misses.append(f"performance {performance} < {LIGHTHOUSE_PERFORMANCE}")
        tbt = page.get("tbt_ms")
        if tbt is None or tbt > LIGHTHOUSE_TBT_MS:
            misses.append(f"TBT {ms(tbt)} > {ms(LIGHTHOUSE_TBT_MS)}")
        for name in ("accessibility", "best-practices", "seo"):
            if scores.get(name) != LIGHTHOUSE_KEPT:
                misses.append(f"{name} {scores.get(name)} < {LIGHTHOUSE_KEPT}")
        dom = page.get("dom_elements")
        rows.append(
            (
                page["path"],
                str(performance),
                str(scores.get("accessibility")),
                str(scores.get("best-practices")),
                str(scores.get("seo")),
                ms(tbt),
                ms(page.get("lcp_ms")),
                "—" if dom is None else f"{dom:,.0f}",
                "pass" if not misses else "**miss**: " + "; ".join(misses),
            )
        )
    header = (
        "page",
        f"performance (≥ {LIGHTHOUSE_PERFORMANCE})",
        "accessibility",
        "best practices",
        "SEO",
        f"total blocking time (≤ {ms(LIGHTHOUSE_TBT_MS)})",
        "largest contentful paint",
        "DOM elements",
        "targets",
    )
    return _markdown(header, rows)


def lighthouse_line(found: dict[str, Any]) -> str:
    indices = [page["benchmark_index"] for page in found["pages"] if page.get("benchmark_index")]
    measured = f"; its CPU benchmark of this machine gave {min(indices):.0f}–{max(indices):.0f}" if indices else ""
    return (
        f"Lighthouse {found['version']} over every page ({len(found['pages'])}), served by the bench's host: {found['settings']}{measured}."
    )


def everywhere_table(results: dict[str, Any]) -> str:
    """The engines in CPython and the build: ratios to the first network's reference."""
    first = results["networks"][0] if results["networks"] else None
    ref = (first["reference"]["stats"].get("median") if first else None) or 0
    rows: list[tuple[str, ...]] = []
    for engine, data in results["engine"].items():
        scales = data["scales"]
        base = scales[0]
        if "median_s" not in base:
            rows.append((f"engine recompute in CPython: {engine}", data["recompute"], "failed", str(base), "", "", ""))
            continue
        rows.append(
            (
                f"engine recompute in CPython: {engine}, fixture 1× ({base['size']} items)",
                data["recompute"],
                ms(base["median_s"] * 1000),
                f"{ms(base['min_s'] * 1000)} – {ms(base['max_s'] * 1000)} (n={base['repeats']})",
                ratio(base["median_s"] * 1000, ref),
                "",
                "",
            )
        )
        grown, ok = [], True
        for row in scales[1:]:
            if "growth" in row:
                fastest = ms(row["min_s"] * 1000)
                work = row.get("work", {})
                modelled = f" ({work['what']}: {work['count']:,}, {work['growth']:.0f}× as many)" if "growth" in work else ""
                grown.append(f"{row['scale']}×: {ms(row['median_s'] * 1000)} (fastest {fastest}), growth {row['growth']:.0f}×{modelled}")
                ok = ok and row["growth"] <= LINEAR_SLACK * row["scale"]
            elif "over_limit_s" in row:
                least = row["over_limit_s"] / base["min_s"]
                grown.append(f"{row['scale']}×: over {row['over_limit_s']:g} s, growth > {least:.0f}×")
                ok = ok and least <= LINEAR_SLACK * row["scale"]
            elif "skipped" in row:
                grown.append(f"{row['scale']}×: not run ({row['skipped']})")
            else:
                grown.append(f"{row['scale']}×: failed")
                ok = False
        rows.append(
            (
                f"engine recompute in CPython: {engine}, fixtures k× larger",
                "; ".join(grown),
                "",
                "",
                "",
                f"linear: growth ≤ {LINEAR_SLACK:g}·k",
                verdict(ok),
            )
        )
    build = results["build"]
    if build["seconds"] is not None:
        rows.append(
            (
                "build: `mkdocs build --strict` (what `make site` runs)",
                "—",
                ms(build["seconds"] * 1000),
                "n=1",
                ratio(build["seconds"] * 1000, ref),
                "",
                "",
            )
        )
    return _markdown(HEADER, rows)


def next_pyodide_table(results: dict[str, Any]) -> str | None:
    """The next Pyodide's bare boot beside the course's, network by network, from the same rounds;
    None when it was not measured."""
    measured = [(net, net.get("pyodide_next")) for net in results["networks"] if net.get("pyodide_next")]
    if not measured:
        return None
    pinned = results.get("machine", {}).get("pyodide", "the course's")
    header = (
        "network",
        f"Pyodide {pinned}",
        f"Pyodide {measured[0][1]['version']}",
        "× the course's",
        "bytes, course's",
        "bytes, next",
        "",
    )
    rows: list[tuple[str, ...]] = []
    for net, next_boots in measured:
        ours, theirs = net["reference"]["stats"], next_boots["stats"]
        ours_bytes, theirs_bytes = net["reference"].get("bytes"), next_boots.get("bytes")
        rows.append(
            (
                net["label"],
                f"{ms(_median(ours))}; {spread(ours)}",
                f"{ms(_median(theirs))}; {spread(theirs)}" if theirs.get("n") else "failed",
                ratio(_median(theirs), _median(ours) or 0) if theirs.get("n") else "",
                size(ours_bytes["total"]) if ours_bytes else "",
                size(theirs_bytes["total"]) if theirs_bytes else "",
                "; ".join(next_boots.get("errors", [])[:1]),
            )
        )
    return _markdown(header, rows)


def table(results: dict[str, Any]) -> str:
    """Everything `make bench` prints and the README shows: the summary per network and page, each
    network's figures, Lighthouse's, then the engines' and the build's."""
    parts = [f"**Per network and page** (medians; ratios to the bare boot on the same network):\n\n{summary(results)}"]
    for net in results["networks"]:
        parts.append(f"**{net['label']}**, every figure:\n\n{network_table(results, net)}")
    if results.get("lighthouse"):
        parts.append(f"**Lighthouse**: {lighthouse_line(results['lighthouse'])}\n\n{lighthouse_table(results['lighthouse'])}")
    else:
        parts.append("**Lighthouse**: not run (`--no-lighthouse`).")
    next_pyodide = next_pyodide_table(results)
    if next_pyodide:
        parts.append(
            "**The next Pyodide** against the course's, the same bare boot (booted in a worker, the wheel unpacked,"
            f" `import lessonkit`) in the same rounds:\n\n{next_pyodide}"
        )
    first = results["networks"][0]["label"] if results["networks"] else "no network"
    parts.append(f"**Engines in CPython and the build** (ratios to the reference on {first}):\n\n{everywhere_table(results)}")
    return "\n\n".join(parts)


def loopback_only(results: dict[str, Any]) -> bool:
    return [net["name"] for net in results["networks"]] == ["loopback"]


def networks_line(results: dict[str, Any]) -> str:
    """Which networks the run measured on, how, and from what host; a run on loopback alone says so."""
    served = (
        "Served by the bench's host (gzip for text, scripts and WebAssembly; archives and compressed files as stored), "
        "bytes counted where the host sent them, the engine worker's included."
    )
    if loopback_only(results):
        return (
            "**Loopback only**: this run measured no emulated network, and on loopback bytes cost nothing; a reader's "
            "network is slower (`make bench` without `--networks` measures on 40 Mbit/s and 10 Mbit/s links too). " + served
        )
    labels = ", ".join(net["label"] for net in results["networks"])
    return f"Networks: {labels}; emulated by Chromium for the page and its workers alike. " + served


def machine_line(machine: dict[str, Any]) -> str:
    load = machine["load_average"]
    seen = [load["start"][0], load["end"][0], *load.get("after_chromium", [])[:1]]
    shared = " — a shared machine, busy with other work" if max(seen) >= 0.5 * machine["cores"] else ""
    return (
        f"Measured {machine['date']} at commit {machine.get('commit') or '?'}: {machine['cores']} cores ({machine['cpu']}), "
        f"{machine['memory_gb']:.0f} GB memory, Chromium {machine['chromium']}, Pyodide {machine['pyodide']}, "
        f"Python {machine['python']}; load average {load['start'][0]:.2f} at the start"
        + (f", {load['after_chromium'][0]:.2f} after the loads in Chromium" if load.get("after_chromium") else "")
        + f" and {load['end'][0]:.2f} at the end{shared}."
    )


README_START = "<!-- bench:start -->"
README_END = "<!-- bench:end -->"


def update_readme(readme: Path, results: dict[str, Any]) -> None:
    """Replace the table between the README's bench markers (under "## Measured") with this run's."""
    text = readme.read_text(encoding="utf-8")
    block = f"{README_START}\n{machine_line(results['machine'])}\n{networks_line(results)}\n\n{results['table']}\n{README_END}"
    if README_START in text:
        text = re.sub(re.escape(README_START) + ".*?" + re.escape(README_END), lambda _: block, text, flags=re.S)
    else:
        raise ValueError(f"{readme} has no {README_START} … {README_END} markers under its Measured section")
    readme.write_text(text, encoding="utf-8")
