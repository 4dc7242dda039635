"""Views the build computes ahead of time, so a reader's first change never waits for Python.

Where a panel's settings are a finite set (choices, toggles and timeline marks), the build runs
the same engine over every one of them and ships the views, gzip-compressed, beside the shell.
The page answers from them at once while Pyodide boots, and says so; a test compares every
shipped view with the live engine. Settings that are not in the set still go to the worker.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from lessonkit.panel import Panel


def views_of(panel: Panel) -> list[list[dict]]:
    """Every view of a finite panel, as [params, view] pairs with no baseline; without their
    exports, which were half the table and which Python computes when a reader exports."""
    return [[params, panel.view(params).to_json(export=False)] for params in panel.every_params()]


def write_views(panel: Panel, assets: Path) -> Path:
    """Write the panel's views where its spec says; mtime 0, so the same commit gives the same bytes.

    Each view is stored as its own JSON text, [params, text]: the page reads the table while it is
    still starting, and 144 strings read many times faster than 144 views' worth of objects; the
    shell reads a view's text only when a reader asks for it (engine.js)."""
    target = assets / "lessonkit" / str(panel.precomputed)
    target.parent.mkdir(parents=True, exist_ok=True)
    views = [[params, _compact(view)] for params, view in views_of(panel)]
    body = _compact({"lesson": panel.lesson, "views": views})
    target.write_bytes(gzip.compress(body.encode("utf-8"), compresslevel=9, mtime=0))
    return target


def read_views(path: Path) -> dict:
    """A shipped table with its views read back from their text: {"lesson", "views": [[params, view], ...]}."""
    table = json.loads(gzip.decompress(path.read_bytes()))
    return {**table, "views": [[params, json.loads(text)] for params, text in table["views"]]}


def _compact(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
