"""`make browser` (and so `make test`): find a Chromium to drive, install one if there is none, or stop at once.

What it does, in order:

1. A Chromium is already there (``LESSONKIT_CHROMIUM``'s, Debian's at /usr/bin/chromium, or
   Playwright's own): say which, and carry on.
2. ``LESSONKIT_CHROMIUM`` names a file that is not there: stop. The reader chose that browser;
   installing another would test something they did not ask for.
3. As root with apt: install Debian's chromium (``apt-get update``, ``apt-get install chromium``).
4. Otherwise, or if apt could not: ``playwright install chromium``, which downloads Playwright's own
   build for this user (a machine that cannot download fails it at once).
5. Neither worked: stop with the one command that will, and exit 2.

The decisions are a pure function of what the machine offers (`Machine`), so every path, the ones
this machine cannot take included, is tested without installing anything.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lessonkit.authoring.local_site import CHROMIUM, find_chromium, playwrights_own

APT_INSTALL = ("apt-get", "install", "-y", "-qq", "chromium")
PLAYWRIGHT_INSTALL = (sys.executable, "-m", "playwright", "install", "chromium")


class NoChromium(Exception):  # noqa: N818 - the domain's word for the situation
    """No Chromium, and no way this process can get one: the message ends with the command that will."""

    def __init__(self, reason: str, command: str) -> None:
        self.reason, self.command = reason, command
        super().__init__(reason)

    def __str__(self) -> str:
        return f"{self.reason}\nRun:\n    {self.command}\nthen make test again."


def _run(command: Sequence[str]) -> bool:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print("make browser:", " ".join(command), flush=True)
    try:
        return subprocess.run(list(command), env=env, timeout=900).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@dataclass
class Machine:
    """What this machine offers, and how to act on it; the tests give a pretend one."""

    named: str = field(default_factory=lambda: os.environ.get("LESSONKIT_CHROMIUM", "").strip())
    is_root: bool = field(default_factory=lambda: hasattr(os, "geteuid") and os.geteuid() == 0)
    has_apt: bool = field(default_factory=lambda: shutil.which("apt-get") is not None)
    find: Callable[[], Path | None] = find_chromium
    run: Callable[[Sequence[str]], bool] = _run


def ensure_chromium(machine: Machine) -> Path:
    """The Chromium the browser tests will drive, installing one if this machine can; else NoChromium."""
    found = machine.find()
    if found is not None:
        return found
    if machine.named:
        raise NoChromium(
            f"LESSONKIT_CHROMIUM is {machine.named}, which is not a file; the browser tests drive only that Chromium.",
            "unset LESSONKIT_CHROMIUM",
        )
    if machine.is_root and machine.has_apt:
        if machine.run(("apt-get", "update", "-qq")) and machine.run(APT_INSTALL) and (found := machine.find()):
            return found
    elif machine.run(PLAYWRIGHT_INSTALL) and (found := machine.find()):
        return found
    if machine.has_apt:
        command = "apt-get update && apt-get install -y chromium" if machine.is_root else "sudo apt-get install -y chromium"
        reason = f"No Chromium at {CHROMIUM}, and {'apt-get could not install it' if machine.is_root else 'installing it needs root'}."
        if not machine.is_root:
            reason += " Playwright's own could not be downloaded either."
    else:
        command = f"{sys.executable} -m playwright install chromium"
        reason = "No Chromium here, and Playwright's own could not be downloaded (is this machine offline?)."
    raise NoChromium(reason, command)


def main() -> int:
    try:
        chromium = ensure_chromium(Machine())
    except NoChromium as stop:
        print(f"make browser: {stop}", file=sys.stderr)
        return 2
    which = "Playwright's own" if chromium == playwrights_own() else ("Debian's" if chromium == CHROMIUM else "LESSONKIT_CHROMIUM's")
    print(f"make browser: the browser tests drive {which} Chromium, {chromium}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
