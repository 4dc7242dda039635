"""What the build makes from the engine, kept between builds: the snapshot, its standard library, the views.

Making them is most of a build of the course (Node boots Pyodide twice, and every panel's engine runs
over its settings), and they depend on nothing but the engine: the wheel (the engines, their panels
and fixtures; hatchling writes the same bytes for the same sources), Pyodide, and the code that makes
them. So a build keeps them under ``.cache/lessonkit-engine/<engine>/``, and the next build from the
same engine puts them back instead of making them again: `mkdocs serve` after each edit of a page,
and every start of `make serve` or `make site` while the engine is unchanged. An edited engine or
fixture makes another wheel, so they are made anew.

``LESSONKIT_ENGINE_CACHE=off`` makes a build make everything itself and keep nothing: the test run's
own build does, since it proves that the course builds from nothing with the network cut.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

# The code that makes the kept files, besides the wheel: the Node scripts, the views' maker, and the
# hooks that trim the standard library and call them.
MAKERS = ("snapshot.mjs", "snapshot_memory.mjs", "engine_stdlib.mjs", "precompute.py", "site_hooks.py")
SWITCH = "LESSONKIT_ENGINE_CACHE"
# Engines kept: an author who switches to another branch and back finds theirs still there.
KEPT = 3
LISTED = "files.json"


def engine_key(wheel: Path, pyodide_version: str) -> str:
    """What the snapshot, its standard library and the views are made from: the wheel, Pyodide's
    version, and the code that makes them (MAKERS)."""
    digest = hashlib.sha256()
    makers = [Path(__file__).with_name(name).read_bytes() for name in MAKERS]
    for part in (wheel.read_bytes(), pyodide_version.encode(), *makers):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def switched_on(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether builds keep and reuse what they make from the engine: yes unless LESSONKIT_ENGINE_CACHE is "off".

    Raises:
        ValueError: LESSONKIT_ENGINE_CACHE is set to anything but "on" or "off".
    """
    value = environ.get(SWITCH, "on")
    if value not in ("on", "off"):
        raise ValueError(f"{SWITCH} is {value!r}: it can be 'on' (the default: keep and reuse the engine's build) or 'off'")
    return value == "on"


class KeptEngine:
    """The engines' build products under one folder (a project's ``.cache/lessonkit-engine``), by engine."""

    def __init__(self, folder: Path, *, on: bool = True) -> None:
        self.folder = folder
        self.on = on

    def put_back(self, engine: str, assets: Path) -> bool:
        """Copy what was kept for `engine` into the site's `assets`; False when nothing was."""
        kept = self.folder / engine
        if not self.on or not (kept / LISTED).is_file():
            return False
        for name in json.loads((kept / LISTED).read_text(encoding="utf-8")):
            (assets / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(kept / name, assets / name)
        os.utime(kept)  # the most recently used engine is the last to go
        return True

    def keep(self, engine: str, assets: Path, files: list[Path]) -> None:
        """Keep `files` (inside `assets`) for `engine`, then forget all but the KEPT most recently used engines."""
        if not self.on:
            return
        names = [path.relative_to(assets).as_posix() for path in files]
        # Written aside and then moved into place in one step: a build stopped halfway, or another
        # build of the same engine at the same time, never leaves a folder with some files missing.
        making = self.folder / f".making-{engine}-{os.getpid()}"
        shutil.rmtree(making, ignore_errors=True)
        for name in names:
            (making / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(assets / name, making / name)
        (making / LISTED).write_text(json.dumps(names), encoding="utf-8")
        try:
            making.rename(self.folder / engine)
        except OSError:  # another build kept the same engine first: its files are these
            shutil.rmtree(making, ignore_errors=True)
        self._forget_abandoned()
        engines = sorted((path for path in self.folder.iterdir() if not path.name.startswith(".")), key=lambda path: path.stat().st_mtime)
        for old in engines[:-KEPT]:
            shutil.rmtree(old, ignore_errors=True)

    def _forget_abandoned(self) -> None:
        # A build stopped while it copied (killed, or its machine went down) leaves its .making-
        # folder behind. One whose process is gone is no one's: it goes. A live one is another
        # build at work, and stays.
        for folder in self.folder.glob(".making-*"):
            pid = folder.name.rsplit("-", 1)[-1]
            if pid.isdigit() and not _running(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)


def _running(pid: int) -> bool:
    """Whether process `pid` is alive on this machine (signal 0 checks, and sends nothing)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, and another user's
        return True
    return True
