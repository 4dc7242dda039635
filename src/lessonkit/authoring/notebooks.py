"""The companion notebooks: executed at build time, their claims checked, then rendered.

A notebook in ``docs/notebooks/`` is committed without outputs. Its Markdown cells state figures as
a lesson's prose does, ``[[twelve|len(runs)]]``, with the expression evaluated in the notebook's
own namespace once every cell has run. ``execute`` runs the notebook in a fresh kernel (offline: the
kernel is a local process; the engine is this checkout's), evaluates every claim in that kernel,
and returns the executed notebook with each claim written as the number it states. The build
renders that copy with mkdocs-jupyter and offers it for download; the tests call the same function,
so a figure the engine no longer produces fails both.

Executing costs a kernel start and matplotlib's import: a copy is kept under ``.cache/`` keyed by
the notebook and by every engine source and fixture, so an unchanged course reuses it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lessonkit.authoring.claims import CLAIM_ATTRIBUTES, MARKER, NOT_A_CLAIM, Claim, bare_numbers, find_claims, parse_number

log = logging.getLogger("mkdocs.plugins.lessonkit.notebooks")
CACHE = Path(".cache") / "lessonkit-notebooks"
CLAIM_TITLE = "Checked against the lesson's engine when the course is built"
# Enough for the slowest sweep on a 2-core machine; a notebook that takes longer should sweep less.
CELL_TIMEOUT_S = 300


class NotebookClaimMismatch(AssertionError):
    pass


@dataclass(frozen=True)
class NotebookClaim:
    cell: int
    claim: Claim
    value: Any

    @property
    def where(self) -> str:
        return f"cell {self.cell}, line {self.claim.line}"

    def problem(self) -> str | None:
        stated = parse_number(self.claim.text)
        if isinstance(self.value, bool) or not isinstance(self.value, (int, float)):
            return f"{self.where}: {self.claim.expr} gave {self.value!r}, not a number, for {self.claim.text!r}"
        if not math.isclose(stated, self.value, rel_tol=0, abs_tol=1e-9):
            return f"{self.where}: the notebook says {self.claim.text!r} but {self.claim.expr} is {self.value!r}"
        return None


@dataclass(frozen=True)
class Executed:
    notebook: Any  # an nbformat NotebookNode, outputs included and claims resolved
    claims: tuple[NotebookClaim, ...]
    unmarked: tuple[str, ...]  # bare numbers in Markdown cells, "cell N, line L: text"


IMPORTS = re.compile(r"^\s*(?:from\s+(lessonkit(?:\.\w+)*)\s+import|import\s+(lessonkit(?:\.\w+)*))", re.MULTILINE)


def _module_file(package: Path, name: str) -> Path | None:
    path = package.joinpath(*name.split(".")[1:])
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _sources(notebook: Path, root: Path) -> list[Path]:
    """What a notebook's run depends on: the lessonkit modules it imports, and theirs, their data, and
    the build tools that check and write its claims. A new lesson's engine is not among them,
    so adding a lesson does not make every notebook run again."""
    package = root / "src" / "lessonkit"
    code = "\n".join(
        cell.get("source", "") if isinstance(cell.get("source"), str) else "".join(cell["source"])
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "code"
    )
    found: set[Path] = {package / "__init__.py"}
    todo = [name for match in IMPORTS.finditer(code) for name in match.groups() if name]
    while todo:
        path = _module_file(package, todo.pop())
        if path is not None and path not in found:
            found.add(path)
            todo += [name for match in IMPORTS.finditer(path.read_text(encoding="utf-8")) for name in match.groups() if name]
    # An engine names its fixture as a string ("compaction", or LESSON = "working-memory").
    sources = "\n".join(path.read_text(encoding="utf-8") for path in found)
    data = [path for path in (root / "fixtures").glob("*.json") if f'"{path.stem}"' in sources]
    tools = [package / "authoring" / "notebooks.py", package / "authoring" / "claims.py", package / "authoring" / "prose.py"]
    return sorted([*found, *tools, *data])


def cache_key(notebook: Path, root: Path) -> str:
    digest = hashlib.sha256(notebook.read_bytes())
    digest.update(sys.version.encode())
    for path in _sources(notebook, root):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    # Whether each page it links to exists decides which of its links are links (see site_links); the
    # pages it does not link to play no part, so a new lesson's pages leave every other notebook's copy good.
    for target, exists in linked_pages(notebook, root / "docs"):
        digest.update(f"{target} {exists}".encode())
    return digest.hexdigest()[:24]


def linked_pages(notebook: Path, docs: Path) -> list[tuple[str, bool]]:
    """Each page of the course the notebook's Markdown cells link to, as a path under `docs`, and
    whether this checkout has it."""
    if not notebook.is_relative_to(docs):
        return []  # not a page of the course: its links are not written as the site's (see site_links)
    targets = {
        linked_page(notebook, docs, match["target"])
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "markdown"
        for match in LINK.finditer(cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"]))
    }
    return [(target, (docs / target).is_file()) for target in sorted(targets)]


def linked_page(notebook: Path, docs: Path, link: str) -> str:
    """The page a link in `notebook` leads to, as a path under `docs`: links are relative to the notebook's folder."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(notebook.relative_to(docs).as_posix()), link))


def markdown_claims(notebook: Any) -> list[tuple[int, Claim]]:
    cells = enumerate(notebook.cells)
    return [(index, claim) for index, cell in cells if cell.cell_type == "markdown" for claim in find_claims(cell.source)]


def _probe(expressions: list[str]) -> str:
    # Runs in the kernel after the notebook: each value as JSON, or its repr when JSON has no word for it.
    return (
        "import json as _lk_json\n"
        f"_lk_values = [eval(_lk_expr) for _lk_expr in {expressions!r}]\n"
        "print(_lk_json.dumps([v if isinstance(v, (int, float, bool)) else repr(v) for v in _lk_values]))\n"
    )


LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<target>[^)\s#]+\.(?:md|ipynb))(?P<anchor>#[^)\s]*)?\)")


def site_links(source: str, notebook: Path, docs: Path) -> str:
    """A Markdown cell's links to other pages of the course, as the site's addresses seen from the notebook's page.

    The notebook is written with links between source files (``../lessons/x.md``), as a lesson is;
    mkdocs-jupyter renders them verbatim, so the build writes each as the page's address. A link to
    a page this build does not have (a lesson not yet merged) becomes its text, and the build says so.
    """
    page_dir = posixpath.join(notebook.relative_to(docs).with_suffix("").as_posix(), "")

    def address(match: Any) -> str:
        target = linked_page(notebook, docs, match["target"])
        if not (docs / target).is_file():
            log.info("%s links to %s, which this build does not have: shown as text", notebook.name, target)
            return match["text"]
        stem = target.rsplit(".", 1)[0]
        url = posixpath.join(posixpath.dirname(stem), "") if stem.endswith("index") else stem + "/"
        return f"[{match['text']}]({posixpath.relpath(url, page_dir) + '/'}{match['anchor'] or ''})"

    return LINK.sub(address, source)


def _resolved(source: str) -> str:
    def written(match: Any) -> str:
        text = match["text"].strip()
        if match["expr"].strip() == NOT_A_CLAIM:
            return text
        attributes = "".join(f' {name}="{value}"' for name, value in {**CLAIM_ATTRIBUTES, "title": CLAIM_TITLE}.items())
        return f"<span{attributes}>{text}</span>"

    return MARKER.sub(written, source)


def execute(path: Path, root: Path) -> Executed:
    """Run the notebook at `path` in a fresh kernel with this checkout's engine; check its claims there."""
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    claims = [(cell, claim) for cell, claim in markdown_claims(notebook) if claim.bound]
    unmarked = tuple(
        f"cell {index}, line {number.line}: {number.text!r}"
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "markdown"
        for number in bare_numbers(cell.source)
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(root / "src"), *filter(None, [env.get("PYTHONPATH")])])
    env.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    # The kernel talks to the build over Unix sockets in a folder of its own, not TCP on loopback: a
    # build with the network cut (unshare --net, where even loopback is down) still runs notebooks.
    sockets = Path(tempfile.mkdtemp(prefix="lessonkit-kernel-"))
    manager = KernelManager(kernel_name="python3", transport="ipc", ip=str(sockets / "kernel"))
    # A cell's prints arrive in as many pieces as the kernel happened to flush: merged, the same cell
    # gives the same output on every run, and two builds of one commit the same pages.
    client = NotebookClient(
        notebook, km=manager, timeout=CELL_TIMEOUT_S, coalesce_streams=True, resources={"metadata": {"path": str(root)}}
    )
    client.reset_execution_trackers()
    values: list[Any] = []
    try:
        # The kernel's own chatter (it notices its parent leave at shutdown) would bury the build's
        # messages; a kernel that cannot start still fails the build, through the cell it cannot run.
        with client.setup_kernel(env=env, stderr=subprocess.DEVNULL):
            for index, cell in enumerate(notebook.cells):
                client.execute_cell(cell, index, execution_count=client.code_cells_executed + 1)
            if claims:
                probe = nbformat.v4.new_code_cell(_probe([claim.expr for _, claim in claims]))
                notebook.cells.append(probe)
                try:
                    client.execute_cell(probe, len(notebook.cells) - 1)
                finally:
                    notebook.cells.pop()
                printed = "".join(output.get("text", "") for output in probe.outputs if output.get("name") == "stdout")
                values = json.loads(printed)
    finally:
        shutil.rmtree(sockets, ignore_errors=True)
    docs = root / "docs"
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = _resolved(cell.source)
            if path.resolve().is_relative_to(docs.resolve()):  # a page of the site, linking to its neighbours
                cell.source = site_links(cell.source, path.resolve(), docs.resolve())
    checked = tuple(NotebookClaim(cell, claim, value) for (cell, claim), value in zip(claims, values, strict=True))
    return Executed(notebook, checked, unmarked)


def build_copy(path: Path, root: Path) -> Path:
    """The executed, claim-checked copy of the notebook at `path`, from the cache when nothing changed."""
    import nbformat

    target = root / CACHE / cache_key(path, root) / path.name
    if target.is_file():
        return target
    executed = execute(path, root)
    problems = [problem for claim in executed.claims if (problem := claim.problem())] + [
        f"{where} is a number that is neither a claim nor marked with [[...|-]]" for where in executed.unmarked
    ]
    if problems:
        raise NotebookClaimMismatch(f"{path}:\n  " + "\n  ".join(problems))
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(executed.notebook, target)
    # Copies made from older sources will not be asked for again.
    for stale in (root / CACHE).glob(f"*/{path.name}"):
        if stale != target:
            stale.unlink()
            if not any(stale.parent.iterdir()):
                stale.parent.rmdir()
    return target


def download_link(name: str) -> str:
    """The notebook page's offer of its executed notebook, which mkdocs-jupyter copies beside the page."""
    return (
        f'<p class="lk-notebook-download"><a href="{name}" download>Download this notebook ({name})</a>, '
        'executed when this site was built; <a href="../">how to run it</a>.</p>\n'
    )


def prepare(files: Any, config: Any, root: Path) -> Any:
    """Point each companion notebook's page at its executed copy, for mkdocs-jupyter to render and offer."""
    from concurrent.futures import ThreadPoolExecutor

    pages = [file for file in files if file.src_uri.startswith("notebooks/") and file.src_uri.endswith(".ipynb")]
    # Each kernel is its own process, and most of a run is its start-up: run the notebooks side by side.
    with ThreadPoolExecutor(max_workers=max(1, len(pages))) as pool:
        copies = list(pool.map(lambda file: build_copy(Path(file.abs_src_path), root), pages))
    for file, copy in zip(pages, copies, strict=True):
        file.abs_src_path = str(copy)
    return files
