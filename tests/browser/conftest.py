"""Drive the built site in Debian's Chromium as a reader would.

One HTTP server and one browser serve the whole session (Pyodide boots in each fresh page, which
is the slow part); every test gets its own browser context, so storage, downloads and media
emulation never leak between tests. Each context also proves the offline promise: a request to
any other origin is recorded (and the browser lets none leave the machine), and every console
error or uncaught page error is collected; both must be empty when the test ends.

Controls are found the way a screen reader user finds them, by role and accessible name, exactly
as the lesson words them; expectations come from the lesson's own engine, imported here. The
harness knows no lesson: `PanelPage` drives any panel from its spec, and each lesson's scenarios
live in a folder of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from lessonkit.authoring.local_site import find_chromium, launch_chromium, served
from lessonkit.panel import Panel
from lessonkit.registry import panel, panel_ids
from tests.browser.harness import Reader, Watch, placed_panels, site_pages, watched_context

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"

HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # tryfirst: the marker must be on the items before `-m "not browser"` deselects by it.
    in_browser = [HERE in Path(item.path).resolve().parents for item in items]
    for item, browser in zip(items, in_browser, strict=True):
        if browser:
            item.add_marker(pytest.mark.browser)
    # The browser tests run last. Playwright's sync API keeps an asyncio loop running from its first
    # use to the end of the session, and tests that call asyncio.run() (google-adk's Runner, in the
    # compaction tests) fail inside a running loop.
    # Among them, the files that take longest go first (`make test` hands out one file at a time to
    # two workers): the tour of every page, started last, would leave one worker idle while the
    # other finished it.
    browser_items = [item for item, browser in zip(items, in_browser, strict=True) if browser]
    browser_items.sort(key=lambda item: LONGEST_FIRST.index(item.path.name) if item.path.name in LONGEST_FIRST else len(LONGEST_FIRST))
    items[:] = [item for item, browser in zip(items, in_browser, strict=True) if not browser] + browser_items


# The browser test files that take longest on the machine the course is built for, longest first.
LONGEST_FIRST = ("test_every_page_for_everyone.py", "test_authoring_guide.py", "test_offline.py")


# --- the site and the browser, once per session -------------------------------------------------


@pytest.fixture(scope="session")
def site_dir() -> Path:
    page = SITE / "index.html"
    if not page.is_file():
        pytest.fail(f"the built site is missing ({page} not found): run make site", pytrace=False)
    return SITE


@pytest.fixture(scope="session")
def site_url(site_dir: Path) -> Iterator[str]:
    with served(site_dir) as origin:
        yield origin


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as running:
        yield running


# Every request to another origin is recorded by its context's watch (harness.watched_context), and
# this browser lets none of them leave the machine: each goes to a proxy on this machine that is not
# there, and fails at once. Loopback, where the tests serve the site, never goes through a proxy.
# (Aborting them in Playwright instead sent every request of every page through the driver, which
# cost about a third of the CPU of a reader's visit.)
ONLY_THIS_MACHINE = ("--proxy-server=http://127.0.0.1:9",)


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if find_chromium(playwright) is None:
        pytest.fail("no Chromium to drive: run make browser, which installs one or says how", pytrace=False)
    browser = launch_chromium(playwright, args=ONLY_THIS_MACHINE)
    yield browser
    browser.close()


# --- one context per test, watched for foreign requests and errors -------------------------------


@pytest.fixture
def open_context(browser: Browser, site_url: str) -> Iterator[Callable[..., BrowserContext]]:
    """A factory of watched contexts: new_context options (java_script_enabled=False, say), and
    `expected_errors`, patterns of the console errors a test provokes on purpose."""
    opened: list[tuple[BrowserContext, Watch]] = []

    def open_(expected_errors: tuple[str, ...] = (), origin: str | None = None, **options: Any) -> BrowserContext:
        # `origin`: another server's root (a sub-path, other headers) or "file://"; the site's by default.
        origin = origin or site_url
        watch = Watch(origin, expected_errors)
        context = watched_context(browser, origin, watch, **options)
        opened.append((context, watch))
        return context

    yield open_
    for context, _ in opened:
        context.close()
    problems = [problem for _, watch in opened for problem in watch.problems()]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


# --- one reader who keeps the course open, across tests ------------------------------------------


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    # Kept on the test, so the reader's fixture can tell whether the test that used a tab failed.
    report = yield
    item.stash.setdefault(FAILED, False)
    if report.failed:
        item.stash[FAILED] = True
    return report


FAILED = pytest.StashKey[bool]()


def keep_a_reader(browser: Browser, site_url: str, site_dir: Path, panel_paths: dict[str, str], *, clock: bool = False) -> Reader:
    watch = Watch(site_url)
    context = watched_context(browser, site_url, watch)
    if clock:
        # Before any page opens: the clock runs as the real one does until a test pauses it.
        context.clock.install()
    # Home is where a reader passes between two visits: a page with no panel, so the lesson's panel closes.
    home = next(path for path in site_pages(site_dir) if path not in panel_paths.values())
    return Reader(context, watch, home)


def a_test_with(kept: Reader, request: pytest.FixtureRequest) -> Iterator[Reader]:
    kept.watch.clear()
    yield kept
    problems = kept.watch.problems()
    if problems or request.node.stash.get(FAILED, False):
        kept.forget()
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture(scope="session")
def kept_reader(browser: Browser, site_url: str, site_dir: Path, panel_paths: dict[str, str]) -> Iterator[Reader]:
    kept = keep_a_reader(browser, site_url, site_dir, panel_paths)
    yield kept
    kept.context.close()


@pytest.fixture
def reader(kept_reader: Reader, request: pytest.FixtureRequest) -> Iterator[Reader]:
    """The reader who keeps the course open (harness.Reader): `reader.visit(lesson, path)` is the
    lesson's panel, fresh, with its engine already running."""
    yield from a_test_with(kept_reader, request)


@pytest.fixture(scope="session")
def kept_clocked_reader(browser: Browser, site_url: str, site_dir: Path, panel_paths: dict[str, str]) -> Iterator[Reader]:
    kept = keep_a_reader(browser, site_url, site_dir, panel_paths, clock=True)
    yield kept
    kept.context.close()


@pytest.fixture
def clocked_reader(kept_clocked_reader: Reader, request: pytest.FixtureRequest) -> Iterator[Reader]:
    """A reader who keeps the course open in a context on Playwright's clock, for tests that depend on
    elapsed time: it runs as the real one does for the visit, the test pauses it and moves it
    (`page.clock.run_for`), and it runs on again after the test, whatever the test did."""
    try:
        yield from a_test_with(kept_clocked_reader, request)
    finally:
        kept_clocked_reader.context.clock.resume()


@pytest.fixture
def page(open_context: Callable[..., BrowserContext]) -> Page:
    return open_context().new_page()


@pytest.fixture(scope="session")
def panel_paths(site_dir: Path) -> dict[str, str]:
    return placed_panels(site_dir)


@pytest.fixture(scope="session")
def pages(site_dir: Path) -> list[str]:
    """Every page of the built site, whichever lessons it holds."""
    return site_pages(site_dir)


@pytest.fixture(params=panel_ids())
def panel_on_page(request: pytest.FixtureRequest, panel_paths: dict[str, str]) -> tuple[Panel, str]:
    """Each panel the registry holds, with the path of the page the build placed it on."""
    lesson = request.param
    assert lesson in panel_paths, f"the panel {lesson!r} is registered but no page of the built site holds it"
    return panel(lesson), panel_paths[lesson]
