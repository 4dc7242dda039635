"""The benchmark's table: every figure with its spread, its ratio to the reference and its target."""

from __future__ import annotations

import math
import re
import statistics
from pathlib import Path
from typing import Any

# Targets, as the issue sets them: ratios to the reference measured in the same run, or absolutes.
COLD_TARGET = 0.2  # cold time to interactive, lessons with finite settings
PYTHON_TARGET = 0.5  # in-page Python ready (a sample ran, or the engine is ready)
INTERACTION_P95_MS = 16.0
SECOND_TARGET = 0.05  # the second lesson of a visit
LINEAR_SLACK = 1.5  # "linear": a fixture k times larger costs at most 1.5 k times as much


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


def table(results: dict[str, Any]) -> str:
    """The Markdown table printed by `make bench` and shown in the README."""
    ref = results["reference"]["stats"]["median"]
    rows: list[tuple[str, ...]] = []

    def timed(what: str, page: str, summary: dict[str, Any], target: float | None, target_text: str = "") -> None:
        median = summary.get("median")
        ok = None if target is None or median is None else median / ref <= target
        rows.append(
            (
                what,
                page,
                ms(median),
                spread(summary),
                ratio(median, ref),
                target_text or (f"≤ {target:g}×" if target is not None else ""),
                verdict(ok) if target is not None else "",
            )
        )

    rows.append(
        (
            "**reference**: Pyodide booted in a worker, wheel unpacked, `import lessonkit`",
            "—",
            ms(ref),
            spread(results["reference"]["stats"]),
            "1×",
            "",
            "",
        )
    )
    for page in results["pages"]:
        label, lesson = page["label"], page["is_lesson"]
        finite = page["finite"]
        cold_target = COLD_TARGET if lesson and finite else None
        note = "" if cold_target is not None else (f"none: {page['views']:,} settings" if lesson else "none: demo")
        timed(
            f"cold: navigation start → the reader's first change, made once its control is there ({page['first_change']})",
            label,
            page["cold"]["changed"],
            None,
        )
        timed("cold: navigation start → first change's real result in the status", label, page["cold"]["interactive"], cold_target, note)
        if page.get("samples"):
            timed(
                "cold: navigation start → Run sample 1 printed its output",
                label,
                page["samples"]["ran"],
                PYTHON_TARGET if lesson else None,
                "" if lesson else "none: demo",
            )
        timed(
            "cold: navigation start → panel's engine ready",
            label,
            page["cold"]["engine"],
            PYTHON_TARGET if lesson and not page.get("samples") else None,
            "" if lesson and not page.get("samples") else ("see the sample row" if lesson else "none: demo"),
        )
        inter = page["interaction"]
        if inter.get("latencies_ms"):
            values = inter["latencies_ms"]
            p50, p95 = percentile(values, 50), percentile(values, 95)
            counted = f"{len(values)} changes, each to a view not seen before, of {inter['views']:,} views"
            rows.append(("interaction (engine ready): control change → status, p50", label, ms(p50), counted, ratio(p50, ref), "", ""))
            rows.append(
                (
                    "interaction (engine ready): control change → status, p95",
                    label,
                    ms(p95),
                    f"max {ms(max(values))}; {halves(values)}",
                    ratio(p95, ref),
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
            kinds = ", ".join(f"{kind} {size(value)}" for kind, value in sorted(cold_bytes["by_kind"].items()) if kind != "page")
            rows.append(("bytes, cold load, all", label, size(cold_bytes["total"]), f"runtime: {kinds or 'none'}", "", "", ""))
            rows.append(("bytes, cold load, without the Python runtime", label, size(cold_bytes["without_runtime"]), "", "", "", ""))
        if page["repeat"].get("bytes") is not None:
            rows.append(("bytes, repeat visit in a new tab", label, size(page["repeat"]["bytes"]), "", "", "", ""))
    for pair in results["second"]:
        timed("second lesson: click on the page's link → first change's real result", pair["label"], pair["interactive"], SECOND_TARGET)
        timed("second lesson: click → panel's engine ready", pair["label"], pair["engine"], None)
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

    header = ("what", "page", "median", "spread (min – max)", "× reference", "target", "")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def machine_line(machine: dict[str, Any]) -> str:
    load = machine["load_average"]
    shared = " — a shared machine, busy with other work" if max(load["start"][0], load["end"][0]) >= 0.5 * machine["cores"] else ""
    return (
        f"Measured {machine['date']} at commit {machine.get('commit') or '?'}: {machine['cores']} cores ({machine['cpu']}), "
        f"{machine['memory_gb']:.0f} GB memory, Chromium {machine['chromium']}, Pyodide {machine['pyodide']}, "
        f"Python {machine['python']}; load average {load['start'][0]:.2f} at the start and {load['end'][0]:.2f} at the end{shared}."
    )


README_START = "<!-- bench:start -->"
README_END = "<!-- bench:end -->"


def update_readme(readme: Path, results: dict[str, Any]) -> None:
    """Replace the table between the README's bench markers (under "## Measured") with this run's."""
    text = readme.read_text(encoding="utf-8")
    block = f"{README_START}\n{machine_line(results['machine'])}\n\n{results['table']}\n{README_END}"
    if README_START in text:
        text = re.sub(re.escape(README_START) + ".*?" + re.escape(README_END), lambda _: block, text, flags=re.S)
    else:
        raise ValueError(f"{readme} has no {README_START} … {README_END} markers under its Measured section")
    readme.write_text(text, encoding="utf-8")
