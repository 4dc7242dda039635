"""Where a page's source is and when it last changed, from the local repository at build time.

Material's own "edit" and "last updated" need a repository host (whose header widget then asks that
host's API for stars and forks) or a plugin that may reach out; the course asks nothing of a
network. The date is the last commit touching the page's source file, read with ``git log``; a
file not yet committed says so. The "Edit" link points at the source file in the repository:
under ``LESSONKIT_EDIT_URL`` when it is set (a repository host's edit address, such as
``https://example.org/lessonkit/edit/main/``), else under the address git's ``origin`` remote names
(read from the local configuration, not asked of the host). A checkout with neither names the file
without a link: a ``file:`` link would not open from a served page.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any


def last_changed(root: Path, path: Path) -> str | None:
    """The date (YYYY-MM-DD) of the last commit touching `path`, or None outside git or before a commit."""
    return _git(root, "log", "-1", "--format=%cs", "--", str(path)) or None


def _git(root: Path, *args: str) -> str:
    try:
        result = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return result.stdout.strip() if result.returncode == 0 else ""


@lru_cache(maxsize=8)
def edit_base(root: Path) -> str | None:
    """The address under which a source file's path opens it for editing, if the repository has one."""
    configured = os.environ.get("LESSONKIT_EDIT_URL", "").strip()
    if configured:
        return configured.rstrip("/") + "/"
    origin = _git(root, "remote", "get-url", "origin")
    scp = re.fullmatch(r"[\w.-]+@(?P<host>[\w.-]+):(?P<path>.+?)(?:\.git)?", origin)
    if scp:
        origin = f"https://{scp['host']}/{scp['path']}"
    if not origin.startswith("https://"):
        return None
    branch = _git(root, "symbolic-ref", "--short", "refs/remotes/origin/HEAD").removeprefix("origin/") or "main"
    return f"{origin.removesuffix('.git')}/edit/{branch}/"


def edit_url(root: Path, relative: str) -> str | None:
    base = edit_base(root)
    return base + relative if base else None


def footer(root: Path, docs: Path, file: Any, escape: Callable[..., str]) -> str:
    """The page's closing lines: its source file, an Edit link to it, and the date it last changed."""
    source = Path(file.abs_src_path) if file.abs_src_path else None
    # A notebook is rendered from the executed copy the build made; its source is the one in docs/.
    relative = (docs / file.src_uri).resolve().relative_to(root).as_posix() if (docs / file.src_uri).exists() else None
    if relative is None:
        return ""
    changed = last_changed(root, root / relative) if source else None
    when = f"Last updated {escape(changed)} (from git)" if changed else "Not yet committed to git"
    url = edit_url(root, relative)
    edit = (
        f'<a class="lk-page-edit" href="{escape(url, quote=True)}">Edit this page</a>'
        if url
        else f"Edit this page: <code>{escape(relative)}</code> in your checkout"
    )
    return (
        '\n<aside class="lk-page-meta" aria-label="About this page">'
        f"<p>Source: <code>{escape(relative)}</code> · {edit} · {when}</p></aside>\n"
    )
