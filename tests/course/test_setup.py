"""Two commands are the whole set-up: `make test` finds or installs a Chromium, or stops at once with
the one command to run; `make serve` says which Python and Node it needs when they are missing or old."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lessonkit.authoring.browser_setup import APT_INSTALL, PLAYWRIGHT_INSTALL, Machine, NoChromium, ensure_chromium

ROOT = Path(__file__).parents[2]
MAKE = shutil.which("make")
CHROMIUM = Path("/usr/bin/chromium")


def machine(*, installed=(), named="", is_root=False, has_apt=True, installs=()):
    """A pretend machine: `installed` are the Chromiums there now; running a command in `installs` puts one there."""
    present = list(installed)
    ran = []

    def run(command):
        ran.append(tuple(command))
        if tuple(command) in installs:
            present.append(CHROMIUM if command[0] == "apt-get" else Path("/home/reader/.cache/ms-playwright/chrome"))
            return True
        return tuple(command) == ("apt-get", "update", "-qq")

    return Machine(named=named, is_root=is_root, has_apt=has_apt, find=lambda: present[0] if present else None, run=run), ran


def test_a_chromium_already_there_is_used_and_nothing_is_installed():
    pretend, ran = machine(installed=[CHROMIUM])
    assert ensure_chromium(pretend) == CHROMIUM
    assert ran == []


def test_as_root_with_apt_debians_chromium_is_installed():
    pretend, ran = machine(is_root=True, installs={APT_INSTALL})
    assert ensure_chromium(pretend) == CHROMIUM
    assert ran == [("apt-get", "update", "-qq"), APT_INSTALL]


def test_a_user_gets_playwrights_own_chromium_where_it_can_be_downloaded():
    pretend, ran = machine(is_root=False, installs={PLAYWRIGHT_INSTALL})
    assert ensure_chromium(pretend).name == "chrome"
    assert ran == [PLAYWRIGHT_INSTALL]


def test_a_user_who_cannot_download_is_told_the_one_command_that_installs_debians():
    pretend, ran = machine(is_root=False, has_apt=True)
    with pytest.raises(NoChromium) as stop:
        ensure_chromium(pretend)
    assert stop.value.command == "sudo apt-get install -y chromium"
    assert ran == [PLAYWRIGHT_INSTALL]


def test_root_whose_apt_fails_is_told_the_apt_command_to_run_once_it_can():
    pretend, _ = machine(is_root=True, has_apt=True)
    with pytest.raises(NoChromium) as stop:
        ensure_chromium(pretend)
    assert stop.value.command == "apt-get update && apt-get install -y chromium"


def test_without_apt_or_a_download_the_command_is_playwrights_install():
    pretend, _ = machine(is_root=False, has_apt=False)
    with pytest.raises(NoChromium) as stop:
        ensure_chromium(pretend)
    assert stop.value.command.endswith("-m playwright install chromium")


def test_a_chromium_the_reader_named_that_is_missing_stops_without_installing_another():
    pretend, ran = machine(named="/opt/nowhere/chromium", is_root=True)
    with pytest.raises(NoChromium) as stop:
        ensure_chromium(pretend)
    assert ran == [] and stop.value.command == "unset LESSONKIT_CHROMIUM"
    assert "LESSONKIT_CHROMIUM is /opt/nowhere/chromium, which is not a file" in str(stop.value)


def test_make_browser_stops_at_once_with_the_one_command_when_no_chromium_can_be_had():
    # Simulated: the Chromium named is missing. The real setup runs, and must not build or install first.
    env = {**os.environ, "LESSONKIT_CHROMIUM": "/opt/nowhere/chromium"}
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "lessonkit.authoring.browser_setup"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-3:] == ["Run:", "    unset LESSONKIT_CHROMIUM", "then make test again."]
    assert time.monotonic() - started < 30


def test_make_browser_names_the_chromium_it_found():
    result = subprocess.run([sys.executable, "-m", "lessonkit.authoring.browser_setup"], cwd=ROOT, capture_output=True, text=True)
    if result.returncode == 2:
        pytest.skip(f"this machine has no Chromium: {result.stderr.strip()}")
    assert result.returncode == 0 and "the browser tests drive" in result.stdout


def fake_tool(folder: Path, name: str, script: str) -> None:
    path = folder / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)


@pytest.fixture
def bare_path(tmp_path: Path) -> Path:
    """A PATH with only what make's recipes need from outside the shell, and no Python or Node."""
    folder = tmp_path / "bin"
    folder.mkdir()
    return folder


def make_tools(folder: Path, python: str = "python3") -> subprocess.CompletedProcess[str]:
    assert MAKE
    return subprocess.run(
        [MAKE, "--no-print-directory", "-s", "tools", f"PYTHON={python}"],
        cwd=ROOT,
        env={"PATH": str(folder)},
        capture_output=True,
        text=True,
    )


def test_make_says_which_python_it_needs_when_there_is_none(bare_path):
    result = make_tools(bare_path)
    assert result.returncode != 0
    assert "lessonkit needs Python 3.11 or later, and python3 is not installed" in result.stdout


def test_make_says_which_python_it_needs_when_it_is_too_old(bare_path):
    fake_tool(bare_path, "python3", 'case "$1" in --version) echo "Python 3.9.2";; *) exit 1;; esac\n')
    result = make_tools(bare_path)
    assert "lessonkit needs Python 3.11 or later, and python3 is Python 3.9.2" in result.stdout


def test_make_says_which_node_it_needs_when_there_is_none(bare_path):
    (bare_path / "python3").symlink_to(sys.executable)
    result = make_tools(bare_path)
    assert result.returncode != 0
    assert "lessonkit needs Node 20 or later with npm" in result.stdout


def test_make_says_which_node_it_needs_when_it_is_too_old(bare_path):
    (bare_path / "python3").symlink_to(sys.executable)
    fake_tool(bare_path, "npm", "exit 0\n")
    fake_tool(bare_path, "node", 'case "$1" in --version) echo "v18.19.0";; *) exit 1;; esac\n')
    result = make_tools(bare_path)
    assert "lessonkit needs Node 20 or later, and node is v18.19.0" in result.stdout


def test_make_finds_nothing_missing_on_a_machine_that_has_both():
    assert MAKE
    result = subprocess.run(
        [MAKE, "--no-print-directory", "-s", "tools", f"PYTHON={sys.executable}"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
