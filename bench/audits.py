"""Lighthouse over every page of the built site, as served by the bench's host.

Lighthouse is pinned in bench/lighthouse/ (its own package.json and lock, apart from the course's,
so `make test` never installs it; `make bench` does). Each page gets one run with Lighthouse's
defaults: the mobile form factor and its simulated throttling (a slow 4G link and a 4x slower CPU,
applied to a trace taken on this machine). Kept from each run: the four category scores, total
blocking time, largest contentful paint and the number of DOM elements.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from lessonkit.authoring.local_site import find_chromium

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "lighthouse"
CLI = PACKAGE / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu"
LIMIT_S = 300


def version() -> str:
    """The Lighthouse that bench/lighthouse/package.json pins."""
    return json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))["dependencies"]["lighthouse"]


def installed() -> bool:
    return CLI.is_file()


def audit(url: str) -> dict[str, Any]:
    """One Lighthouse run over `url`: its scores (0-100), TBT and LCP (ms) and DOM size, or its error."""
    chromium = find_chromium()
    if chromium is None:
        return {"error": "no Chromium to run Lighthouse with: run make browser"}
    command = [
        "node",
        str(CLI),
        url,
        "--output=json",
        "--output-path=stdout",
        "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}",
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=LIMIT_S, env={**os.environ, "CHROME_PATH": str(chromium)})
    except subprocess.TimeoutExpired:
        return {"error": f"Lighthouse gave no answer within {LIMIT_S} s"}
    if done.returncode:
        return {"error": (done.stderr.strip().splitlines() or [f"Lighthouse exited with {done.returncode}"])[-1]}
    return scores(json.loads(done.stdout))


def scores(report: dict[str, Any]) -> dict[str, Any]:
    """What the bench keeps of a Lighthouse report (its JSON output)."""
    audits = report.get("audits", {})

    def numeric(name: str) -> float | None:
        value = audits.get(name, {}).get("numericValue")
        return None if value is None else float(value)

    categories = report.get("categories", {})
    found: dict[str, Any] = {
        "scores": {name: _percent(categories.get(name, {}).get("score")) for name in CATEGORIES},
        "tbt_ms": numeric("total-blocking-time"),
        "lcp_ms": numeric("largest-contentful-paint"),
        "dom_elements": numeric("dom-size"),
        "lighthouse": report.get("lighthouseVersion"),
        # Lighthouse's measure of this machine's CPU at the time (about 1000 or more on a quick
        # desktop; its throttling assumes one): a busy machine scores its pages lower.
        "benchmark_index": (report.get("environment") or {}).get("benchmarkIndex"),
    }
    if report.get("runtimeError"):
        found["error"] = report["runtimeError"].get("message") or report["runtimeError"].get("code")
    warnings = report.get("runWarnings") or []
    if warnings:
        found["warnings"] = warnings
    return found


def _percent(score: float | None) -> int | None:
    return None if score is None else round(score * 100)
