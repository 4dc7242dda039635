"""The course kept for reading offline: the build's list of its own files, for the service worker.

A reader who has opened the course once can follow its navigation to any lesson, run the lesson's
experiment and samples, and search, with no network. The service worker (``overrides/service-worker.js``,
which MkDocs copies to the site's root so that its scope is the whole course) keeps every file of
one build in one cache named for that build. This hook, the last to run, writes into it what it
must keep: every file the build wrote, each with its bytes and its SHA-256, and the build's version,
a digest of them all. So a new build is a new service worker (its text changes with any file) and a
new cache, filled whole before it replaces the old one; a file whose digest is not the one listed
(a host halfway through a deploy) fails the fill, and the reader keeps the version they had.

Under `mkdocs serve` the worker is written as `serving`: it keeps nothing, and it clears a course a
browser kept from a built site on the same address, so `make serve` always shows pages as they are now.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

SERVICE_WORKER = "service-worker.js"
# Where the build writes the course into the worker's text: the one line the source declares it on
# (`null` there), which keeps its marker once written, so a course can be written again.
_PLACEHOLDER = re.compile(r"^const COURSE = (?:null|\{.*\}); // lessonkit-course$", re.MULTILINE)
# A host writes its own address into the sitemap (the course's test host does too): kept, never checked.
REWRITTEN_BY_HOSTS = frozenset({"sitemap.xml"})
# Source maps are for a developer's tools, which a reader offline does not open.
NOT_KEPT = (".map",)
# The tokenizer's rank files, megabytes that only a real token count reads: kept with the course they
# would be downloaded by every reader after a first visit. The worker keeps each in the build's cache
# once a count has fetched it (the course's `on_demand`, checked against its digest like the rest).
ON_DEMAND = ("assets/tokens/",)


def digest(body: bytes) -> str:
    """A file's SHA-256 as the worker compares it: "sha256-" and base64, as in a script's integrity."""
    return "sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode("ascii")


def address(path: str) -> str:
    """A file's address relative to the site's root, as the course's links ask for it: a page by its folder."""
    if path == "index.html":
        return "./"
    return path[: -len("index.html")] if path.endswith("/index.html") else path


def course_files(site: Path) -> list[tuple[str, int, str | None]]:
    """Every file a reader offline may ask for, in address order: (address, bytes, digest or None)."""
    return _files(site, on_demand=False)


# Not on_…: MkDocs takes a hook module's every on_… function for an event.
def files_on_demand(site: Path) -> list[tuple[str, int, str | None]]:
    """The files a reader's use fetches (the `ON_DEMAND` folders): kept once fetched, never to fill the course."""
    return _files(site, on_demand=True)


def _files(site: Path, *, on_demand: bool) -> list[tuple[str, int, str | None]]:
    files = []
    for path in sorted(site.rglob("*")):
        name = path.relative_to(site).as_posix()
        if not path.is_file() or name == SERVICE_WORKER or name.endswith(NOT_KEPT) or name.startswith(ON_DEMAND) != on_demand:
            continue
        body = path.read_bytes()
        files.append((address(name), len(body), None if name in REWRITTEN_BY_HOSTS else digest(body)))
    return sorted(files)


def course(site: Path, *, serving: bool = False) -> dict[str, Any]:
    """What the service worker keeps of the build in `site`: its version, its files, their bytes."""
    files, on_demand = course_files(site), files_on_demand(site)
    # Every file the build made, kept at once or on demand: a new rank file is a new build too.
    version = hashlib.sha256("\n".join(f"{name} {size} {sha}" for name, size, sha in files + on_demand).encode("utf-8")).hexdigest()[:16]
    return {
        "version": version,
        "serving": serving,
        "bytes": sum(size for _, size, _ in files),
        "files": [list(file) for file in files],
        "on_demand": [list(file) for file in on_demand],
    }


def write_service_worker(site: Path, *, serving: bool = False) -> dict[str, Any]:
    """Write the course into the site's service worker; the course it wrote."""
    worker = site / SERVICE_WORKER
    if not worker.is_file():
        raise FileNotFoundError(f"{worker} is missing: MkDocs copies overrides/{SERVICE_WORKER} to the site's root, and it is not there")
    text = worker.read_text(encoding="utf-8")
    if not _PLACEHOLDER.search(text):
        raise ValueError(f"{worker}: no line `const COURSE = null; // lessonkit-course` for the build to write the course on")
    kept = course(site, serving=serving)
    filled = _PLACEHOLDER.sub(lambda _: f"const COURSE = {json.dumps(kept, separators=(',', ':'))}; // lessonkit-course", text, count=1)
    worker.write_text(filled, encoding="utf-8")
    return kept


def written_course(site: Path) -> dict[str, Any]:
    """The course a built site's service worker keeps, read back from its text."""
    text = (site / SERVICE_WORKER).read_text(encoding="utf-8")
    found = re.search(r"^const COURSE = (\{.*\}); // lessonkit-course$", text, re.MULTILINE)
    if not found:
        raise ValueError(f"{site / SERVICE_WORKER}: the build wrote no course into it")
    return json.loads(found.group(1))


# MkDocs hooks (mkdocs.yml lists this module last, after every file is written).

_command = "build"


def on_startup(command: str, dirty: bool) -> None:
    global _command
    _command = command


def on_post_build(config: Any) -> None:
    write_service_worker(Path(config["site_dir"]), serving=_command == "serve")
