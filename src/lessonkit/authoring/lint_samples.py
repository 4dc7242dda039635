"""Lint the Python samples of the course's pages with ruff, as the code they are when they run.

Samples of one session run in one namespace, in page order, so they are linted together: a name
defined in an earlier sample is not "undefined" in a later one. A finding is reported at the
page's own line, so an author fixes it where they wrote it.

Usage: python -m lessonkit.authoring.lint_samples docs/   (exit status 1 when ruff finds anything)
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from lessonkit.authoring.samples import Sample, find_samples


def programs(markdown: str) -> list[list[Sample]]:
    """The samples of a page grouped as they run: one group per session, one per sessionless sample."""
    sessions: dict[str, list[Sample]] = defaultdict(list)
    groups: list[list[Sample]] = []
    for sample in find_samples(markdown):
        if sample.session:
            if sample.session not in sessions:
                groups.append(sessions[sample.session])
            sessions[sample.session].append(sample)
        else:
            groups.append([sample])
    return groups


def lint_group(page: Path, group: list[Sample], ruff: str) -> list[str]:
    # One program; remember which page line each of its lines came from (the fence's body starts a line below it).
    lines, origin = [], []
    for sample in group:
        for offset, line in enumerate(sample.code.splitlines(), start=1):
            lines.append(line)
            origin.append(sample.line + offset)
    result = subprocess.run(
        # E402: a session's later sample may import what it needs, as a notebook's later cell does.
        [ruff, "check", "--output-format", "json", "--extend-ignore", "E402", "--stdin-filename", f"{page.stem}_sample.py", "-"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
    )
    if result.returncode not in (0, 1):
        raise RuntimeError(f"ruff failed on {page}: {result.stderr.strip()}")
    return [
        f"{page}:{origin[finding['location']['row'] - 1]}: {finding['code']} {finding['message']}"
        for finding in json.loads(result.stdout or "[]")
    ]


def main(folders: list[str]) -> int:
    ruff = str(Path(sys.executable).parent / "ruff")
    findings = [
        finding
        for folder in folders
        for page in sorted(Path(folder).rglob("*.md"))
        for group in programs(page.read_text(encoding="utf-8"))
        for finding in lint_group(page, group, ruff)
    ]
    print("\n".join(findings) if findings else "lessonkit: the Python samples in the pages pass ruff")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:] or ["docs"]))
