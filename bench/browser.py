"""Benchmark: the lesson in Debian's Chromium, as a reader meets it.

- engine ready: from navigation start until the panel reports its Python engine ready
  (Pyodide booted from the site, the lessonkit wheel installed);
- first view: the status the build rendered, which is on screen before any Python runs;
- view round trip: from a change of Context budget to the status showing the engine's answer,
  for settings the page has not seen yet (so the worker computes each one).

Run with `make bench` after `make site`.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from lessonkit.authoring.local_site import launch_chromium, served

SITE = Path(__file__).resolve().parents[1] / "site"
LESSON = "/lessons/context-compression/"
LOADS = 5

# Records when the panel's engine state changes, on the page's own clock (ms since navigation).
WATCH_ENGINE = """
new MutationObserver(() => {
  const panel = document.querySelector("section.lk-panel");
  if (panel && panel.dataset.engine === "ready" && !window.__lkReadyAt) window.__lkReadyAt = performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-engine"] });
"""

ROUND_TRIP = """
async ([label, option]) => {
  const select = [...document.querySelectorAll("select")].find(s => s.labels[0] && s.labels[0].textContent.trim() === label);
  const status = document.querySelector("section.lk-panel [role=status]");
  const before = status.textContent;
  const started = performance.now();
  const changed = new Promise(resolve => new MutationObserver((_, observer) => {
    if (status.textContent !== before) { observer.disconnect(); resolve(performance.now() - started); }
  }).observe(status, { childList: true, characterData: true, subtree: true }));
  select.selectedIndex = [...select.options].findIndex(o => o.textContent.trim() === option);
  select.dispatchEvent(new Event("change", { bubbles: true }));
  return changed;
}
"""


def measure() -> dict[str, float]:
    ready, first_status, round_trips = [], [], []
    with served(SITE) as origin, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for _ in range(LOADS):
            context = browser.new_context()
            context.add_init_script(WATCH_ENGINE)
            page = context.new_page()
            page.goto(origin + LESSON)
            first_status.append(page.evaluate("() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"))
            page.wait_for_function("() => window.__lkReadyAt", timeout=60_000, polling=100)
            ready.append(page.evaluate("() => window.__lkReadyAt"))
            # Seek away from 0 first so every budget change asks for a view the page has not cached.
            page.get_by_role("slider", name="Timeline").fill("60")
            page.wait_for_timeout(200)
            for budget in ("36", "48", "64"):
                round_trips.append(page.evaluate(ROUND_TRIP, ["Context budget", budget]))
            context.close()
        browser.close()
    return {
        "page_loads": LOADS,
        "status_on_screen_ms_median": statistics.median(first_status),
        "engine_ready_ms_median": statistics.median(ready),
        "engine_ready_ms_max": max(ready),
        "view_round_trips": len(round_trips),
        "view_round_trip_ms_median": statistics.median(round_trips),
        "view_round_trip_ms_max": max(round_trips),
    }


if __name__ == "__main__":
    json.dump(measure(), sys.stdout, indent=2)
    print()
