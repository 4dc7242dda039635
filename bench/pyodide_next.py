"""The next Pyodide, measured beside the course's own in the same run: its bare boot on every network.

The course pins Pyodide 0.29.5 (package.json). Whether the next release would start the engine
sooner is a question for measurement, not for its release notes: `make bench` installs the release
pinned in bench/pyodide-next/package.json (apart from the course's own packages, as Lighthouse is),
the bench's host serves it beside the site under /__bench__/pyodide-next/, and each round of every
network boots it with the same reference page, the same wheel and the same `import lessonkit` as the
course's Pyodide. Nothing of the course loads it.
"""

from __future__ import annotations

import json
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent / "pyodide-next"
FILES = PACKAGE / "node_modules" / "pyodide"
# Where the bench's host serves FILES: under its own prefix, which the build never writes.
PATH = "/__bench__/pyodide-next/"


def installed() -> bool:
    return (FILES / "package.json").is_file() and (FILES / "pyodide.asm.wasm").is_file()


def version() -> str:
    """The release installed, as its package says; the pin in bench/pyodide-next/package.json when none is."""
    if installed():
        return json.loads((FILES / "package.json").read_text(encoding="utf-8"))["version"]
    return json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))["dependencies"]["pyodide"]
