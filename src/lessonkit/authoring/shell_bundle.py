"""The shell reaches the page as one file: each module script the pages load, bundled by the build.

The shell is written as small ES modules, one concept each (overrides/assets/lessonkit/). Served as
written, a page that brings a panel to life asks for twenty-odd of them at once, and a request
costs a round trip on a slow link, where the reader's first change waits for the last of them and
Lighthouse counts them all before the page's first paint (bench/FINDINGS.md). So the build bundles
each module script that mkdocs.yml gives the pages (`extra_javascript` of type `module`: the shell,
the course's "Copy for AI") with esbuild, pinned in package.json, into a file of the same name in
the same place, and removes from the site every module now inside a bundle: nothing asks for it,
and the service worker would keep it for nothing.

Whitespace and syntax are minified, names are kept, so the browser's own tools still read the shell
with its functions' names. The workers and the classic scripts (worker.js, table-reader.js,
early.js, unstarted.js) are not modules of the page and stay as written.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

ESBUILD_OPTIONS = (
    "--bundle",
    "--format=esm",
    "--minify-whitespace",
    "--minify-syntax",
    # The shell's words keep their typographic quotes and dashes as written, not as escapes.
    "--charset=utf8",
    "--log-level=warning",
)


def module_scripts(config: Any) -> list[str]:
    """The module scripts mkdocs.yml gives every page, by their path in the site."""
    return [str(script.path) for script in config["extra_javascript"] if getattr(script, "type", None) == "module"]


def bundle_modules(root: Path, sources: Path, site: Path, entries: list[str]) -> list[Path]:
    """Each of `entries` (paths relative to `sources` and to `site`) written into `site` with every
    module it imports inside it; the modules a bundle took in, removed from `site`. Returns the
    removed files."""
    esbuild = root / "node_modules" / ".bin" / "esbuild"
    if not esbuild.is_file():
        raise FileNotFoundError(f"the build bundles the shell with esbuild, and {esbuild} is missing: run npm ci (make does)")
    taken_in: set[Path] = set()
    with tempfile.TemporaryDirectory() as scratch:
        for entry in entries:
            source = sources / entry
            if not source.is_file():
                raise FileNotFoundError(f"mkdocs.yml loads the module {entry} on every page, and {source} does not exist")
            metafile = Path(scratch) / "meta.json"
            command = [str(esbuild), str(source), *ESBUILD_OPTIONS, f"--outfile={site / entry}", f"--metafile={metafile}"]
            result = subprocess.run(command, cwd=root, capture_output=True, text=True)
            if result.returncode != 0:
                raise RuntimeError(f"the module {entry} could not be bundled: {result.stderr.strip()[-2000:]}")
            # The metafile names every file the bundle read, relative to the folder esbuild ran in.
            taken_in |= {(root / path).resolve() for path in json.loads(metafile.read_text())["inputs"]}
    # A module that is itself loaded by the pages stays, as its own bundle.
    taken_in -= {(sources / entry).resolve() for entry in entries}
    removed = []
    for module in sorted(taken_in):
        shipped = site / module.relative_to(sources.resolve())
        if shipped.is_file():
            shipped.unlink()
            removed.append(shipped)
    return removed
