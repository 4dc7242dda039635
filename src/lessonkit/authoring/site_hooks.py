"""MkDocs hooks that put the browser runtime into the built site.

- Each runnable sample that shows its source is wrapped in ``<div class="lk-sample">`` carrying its session, so the
  page shell can make it editable and run it in the worker with the same namespaces as the build.
- After the build, the pinned Pyodide is copied from node_modules and a fresh lessonkit wheel is
  built straight into the site, with a manifest telling the worker their names. Building the
  wheel here (not in a separate step) means `mkdocs serve` always ships the engine being edited.
"""

from __future__ import annotations

import html
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from lessonkit.authoring.samples import find_samples

PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def on_pre_build(config: Any) -> None:
    # `mkdocs serve` rebuilds in one long process: forget the engine modules so an edited engine
    # renders the page, not the one imported at start-up. Build tools stay (MkDocs holds them).
    for name in [name for name in sys.modules if name.startswith("lessonkit.") and not name.startswith("lessonkit.authoring")]:
        del sys.modules[name]


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    pieces, last = [], 0
    for sample in find_samples(markdown):
        if not sample.shows_source:  # generated content (a table, a figure), not a sample to edit
            continue
        sample.check_editable(page.file.src_uri if page else "page")
        session = html.escape(sample.session or "", quote=True)
        pieces += [
            markdown[last : sample.start],
            f'<div class="lk-sample" data-session="{session}" markdown="1">\n\n',
            markdown[sample.start : sample.end],
            "\n\n</div>",
        ]
        last = sample.end
    return "".join(pieces) + markdown[last:]


def _root(config: Any) -> Path:
    return Path(config["config_file_path"]).resolve().parent


def copy_pyodide(root: Path, target: Path) -> str:
    source = root / "node_modules" / "pyodide"
    missing = [name for name in PYODIDE_FILES if not (source / name).is_file()]
    if missing:
        raise FileNotFoundError(
            f"Pyodide is not installed: {', '.join(missing)} missing from {source}. Run `npm ci` (or `make serve`)."
        )
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(source / name, target / name)
    return json.loads((source / "package.json").read_text())["version"]


def build_wheel(root: Path, target: Path) -> str:
    from hatchling.builders.wheel import WheelBuilder

    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    return Path(next(WheelBuilder(str(root)).build(directory=str(target), versions=["standard"]))).name


def on_post_build(config: Any) -> None:
    root, site = _root(config), Path(config["site_dir"])
    assets = site / "assets"
    pyodide_version = copy_pyodide(root, assets / "pyodide")
    wheel = build_wheel(root, assets / "wheels")
    manifest = {"pyodide": "../pyodide/", "pyodide_version": pyodide_version, "wheel": f"../wheels/{wheel}"}
    (assets / "lessonkit").mkdir(parents=True, exist_ok=True)
    (assets / "lessonkit" / "runtime.json").write_text(json.dumps(manifest, indent=2) + "\n")


def on_post_page(output: str, page: Any, config: Any) -> str:
    from mkdocs.utils import get_relative_url

    from lessonkit.authoring.page_panels import link_panel_stylesheets

    return link_panel_stylesheets(output, page.url, get_relative_url)
