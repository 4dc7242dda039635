"""The Chromium the tests and the benchmark drive: launched with every feature Playwright turns off
still off, since the launch's own --disable-features switch is the only one Chromium reads."""

from __future__ import annotations

import re
from pathlib import Path

import playwright

from lessonkit.authoring.local_site import BROWSER_UI_NEVER_SHOWN, CHROMIUM_ARGS

DRIVER = Path(playwright.__file__).parent / "driver" / "package" / "lib"
# playwright-core's chromiumSwitches: `disabledFeatures = [ "Name", // why ... ]`, as its bundle writes it.
PLAYWRIGHTS_LIST = re.compile(r"\bdisabledFeatures = \[(?P<names>.*?)\]", re.DOTALL)
NAME = re.compile(r'^\s*"(?P<name>[^"]+)"', re.MULTILINE)


def playwrights_disabled_features() -> list[str]:
    for script in sorted(DRIVER.rglob("*.js")):
        found = PLAYWRIGHTS_LIST.search(script.read_text(encoding="utf-8", errors="replace"))
        if found:
            return NAME.findall(found["names"])
    raise AssertionError(f"no list of disabled features in Playwright's driver under {DRIVER}: has its layout changed?")


def test_the_launch_turns_off_every_feature_playwright_turns_off_and_the_browser_ui_no_window_shows():
    theirs = playwrights_disabled_features()
    assert "PaintHolding" in theirs, theirs  # the list read is Playwright's, not some other
    switches = [arg for arg in CHROMIUM_ARGS if arg.startswith("--disable-features=")]
    assert len(switches) == 1, switches
    named = set(switches[0].removeprefix("--disable-features=").split(","))
    missing = sorted(set(theirs) - named)
    assert not missing, f"Playwright turns off {missing} too: add them to PLAYWRIGHTS_DISABLED_FEATURES in local_site.py"
    assert set(BROWSER_UI_NEVER_SHOWN) <= named
