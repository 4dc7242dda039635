"""The course built by `mkdocs build --strict` from this checkout, with the network cut where this
machine allows it: once per test run (the `course_build` fixture in tests/conftest.py), for every
test that reads a built site rather than the one `make site` left in site/."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parents[1]
MKDOCS = Path(sys.executable).parent / "mkdocs"


@dataclass(frozen=True)
class CourseBuild:
    site: Path
    offline: bool  # built with the network cut, which proves the build needs none


def network_off_prefix() -> list[str]:
    """`unshare --net` when this machine lets us cut the network for one command (root, Linux)."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "--net", "true"], capture_output=True).returncode == 0:
        return [unshare, "--net", "--"]
    return []


def build(site: Path, prefix: list[str] = (), **env: str) -> None:
    # This checkout's engine, whatever an editable install elsewhere points at.
    environment = {"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT / "src"), **env}
    result = subprocess.run(
        [*prefix, str(MKDOCS), "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=environment,
    )
    assert result.returncode == 0, f"mkdocs build --strict failed{' with the network off' if prefix else ''}:\n{result.stderr}"


# The day the test run's own build says it was made: another day than `make site`'s build of the same
# checkout (today), so that comparing the two shows that a build's date changes only what is dated.
ANOTHER_DAY = "1000000000"  # 2001-09-09


def build_course(site: Path) -> CourseBuild:
    prefix = network_off_prefix()
    # Everything made here, from nothing: what earlier builds kept of the engine is not read.
    build(site, prefix, SOURCE_DATE_EPOCH=ANOTHER_DAY, LESSONKIT_ENGINE_CACHE="off")
    return CourseBuild(site, offline=bool(prefix))
