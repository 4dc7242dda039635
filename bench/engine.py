"""Benchmark: how long the engine takes to answer the panel, in CPython.

Every view the compression panel can show (4 budgets x 2 policies x 2 fidelities x 9 arrivals) is
computed from a cold cache and then again; the figures say whether answering from the engine can
keep up with a reader dragging the timeline. Run with `make bench`.
"""

from __future__ import annotations

import itertools
import json
import statistics
import sys
import time

from lessonkit import compression
from lessonkit.panels import panel


def every_params():
    fixture = compression.lesson()
    times = [0.0, *(turn.arrives_at for turn in fixture.turns)]
    for budget, policy, fidelity, moment in itertools.product(fixture.budgets, compression.POLICIES, compression.FIDELITIES, times):
        yield {"budget": budget, "policy": policy, "fidelity": fidelity, "time": moment}


def measure(repeats: int = 5) -> dict[str, float]:
    compression_panel = panel("context-compression")
    params = list(every_params())
    per_view = []
    for _ in range(repeats):
        for each in params:
            started = time.perf_counter()
            json.dumps(compression_panel.view(each).to_json())
            per_view.append(time.perf_counter() - started)
    return {
        "views": len(params),
        "median_view_ms": statistics.median(per_view) * 1000,
        "p95_view_ms": statistics.quantiles(per_view, n=20)[-1] * 1000,
        "all_views_s": sum(per_view) / repeats,
    }


if __name__ == "__main__":
    json.dump(measure(), sys.stdout, indent=2)
    print()
