"""Drive the built site in Debian's Chromium as a reader would.

One HTTP server and one browser serve the whole session (Pyodide boots in each fresh page, which
is the slow part); every test gets its own browser context, so storage, downloads and media
emulation never leak between tests. Each context also proves the offline promise: a request to
any other origin is recorded and aborted, and every console error or uncaught page error is
collected; both must be empty when the test ends.

Controls are found the way a screen reader user finds them, by role and accessible name, exactly
as the lesson words them; expectations come from the lesson's own engine, imported here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Playwright, expect, sync_playwright

from lessonkit import compression
from lessonkit.authoring.local_site import CHROMIUM, launch_chromium, served
from lessonkit.panel import View
from lessonkit.panels.compression import PANEL

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
LESSON_PATH = "/lessons/context-compression/"
ENGINE_BOOT_MS = 60_000
# Generous, because CI machines are slow; expect() returns as soon as the page agrees.
STEP_MS = 20_000

expect.set_options(timeout=STEP_MS)

HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # tryfirst: the marker must be on the items before `-m "not browser"` deselects by it.
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.browser)


# --- the site and the browser, once per session -------------------------------------------------


@pytest.fixture(scope="session")
def site_dir() -> Path:
    page = SITE / LESSON_PATH.strip("/") / "index.html"
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


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing: install Debian's chromium: apt-get install -y chromium", pytrace=False)
    browser = launch_chromium(playwright)
    yield browser
    browser.close()


# --- one context per test, watched for foreign requests and errors -------------------------------


class Watch:
    """What a context did that a self-hosted, working page must never do."""

    def __init__(self, origin: str, expected_errors: tuple[str, ...] = ()) -> None:
        self.origin = origin
        # Errors a test provokes on purpose (a missing file, say), as regular expressions.
        self.expected = [re.compile(pattern) for pattern in expected_errors]
        self.foreign_requests: list[str] = []
        self.errors: list[str] = []

    def _unexpected(self, text: str) -> bool:
        return not any(pattern.search(text) for pattern in self.expected)

    def is_foreign(self, url: str) -> bool:
        if url.startswith(("data:", "blob:", "about:")):
            return False
        return not (url == self.origin or url.startswith(self.origin + "/"))

    def request(self, url: str) -> None:
        if self.is_foreign(url) and url not in self.foreign_requests:
            self.foreign_requests.append(url)

    def console(self, message: Any) -> None:
        if message.type == "error" and self._unexpected(message.text):
            url = (message.location or {}).get("url")
            self.errors.append(f"console error: {message.text}" + (f" (from {url})" if url else ""))

    def page_error(self, error: Any) -> None:
        if self._unexpected(str(error)):
            self.errors.append(f"uncaught page error: {error}")

    def problems(self) -> list[str]:
        problems = []
        if self.foreign_requests:
            listed = "\n  ".join(self.foreign_requests)
            problems.append(f"the page asked another origin than {self.origin} (aborted):\n  {listed}")
        if self.errors:
            listed = "\n  ".join(self.errors)
            problems.append(f"the page reported errors:\n  {listed}")
        return problems


@pytest.fixture
def open_context(browser: Browser, site_url: str) -> Iterator[Callable[..., BrowserContext]]:
    """A factory of watched contexts: new_context options (java_script_enabled=False, say), and
    `expected_errors`, patterns of the console errors a test provokes on purpose."""
    opened: list[tuple[BrowserContext, Watch]] = []

    def open_(expected_errors: tuple[str, ...] = (), **options: Any) -> BrowserContext:
        watch = Watch(site_url, expected_errors)
        context = browser.new_context(accept_downloads=True, base_url=site_url, **options)
        context.set_default_timeout(STEP_MS)
        context.on("request", lambda request: watch.request(request.url))
        context.on("console", watch.console)
        # The context-wide "pageerror": uncaught errors of every page the context opens.
        context.on("weberror", lambda web_error: watch.page_error(web_error.error))
        # A regular expression (not a callable) lets the browser itself skip same-origin requests.
        foreign = re.compile(r"^(?!" + re.escape(site_url) + r"(?:/|$)|data:|blob:|about:)")

        def abort(route: Any) -> None:
            watch.request(route.request.url)
            route.abort()

        context.route(foreign, abort)
        opened.append((context, watch))
        return context

    yield open_
    for context, _ in opened:
        context.close()
    problems = [problem for _, watch in opened for problem in watch.problems()]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture
def page(open_context: Callable[..., BrowserContext]) -> Page:
    return open_context().new_page()


# --- the lesson page, as a reader sees it ----------------------------------------------------------


class Engine:
    """The lesson's own engine, in the test process: where every expectation comes from."""

    panel = PANEL

    @staticmethod
    def view(budget: int = 24, policy: str = "evict", fidelity: str = "preserve", time: float = 0) -> View:
        """What the panel must show for these settings (engine values, not labels)."""
        return PANEL.view({"budget": budget, "policy": policy, "fidelity": fidelity, "time": time})

    @staticmethod
    def replay(budget: int, policy: str, fidelity: str = "preserve") -> Any:
        return compression.replay(budget, policy, fidelity)

    @staticmethod
    def as_json(value: Any) -> Any:
        """The engine's data as it reads after a JSON round trip (tuples become lists)."""
        return json.loads(json.dumps(value))


class LessonPage:
    """The compression lesson, addressed by roles and accessible names."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.panel = page.get_by_role("region", name=f"Experiment: {PANEL.title}", exact=True)

    # controls

    def control(self, role: str, name: str) -> Locator:
        return self.page.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]

    def button(self, name: str) -> Locator:
        return self.control("button", name)

    def combobox(self, name: str) -> Locator:
        return self.control("combobox", name)

    @property
    def timeline(self) -> Locator:
        return self.control("slider", "Timeline")

    @property
    def notes(self) -> Locator:
        return self.control("textbox", "Notes")

    @property
    def status(self) -> Locator:
        return self.panel.get_by_role("status")

    def choose(self, combobox: str, option: str) -> None:
        self.combobox(combobox).select_option(label=option)

    def chosen(self, combobox: str) -> str:
        return self.combobox(combobox).evaluate("select => select.selectedOptions[0].label")

    def choose_fastest_speed(self) -> str:
        speed = self.combobox("Speed")
        fastest = speed.locator("option").last.inner_text().strip()
        speed.select_option(label=fastest)
        return fastest

    def seek(self, seconds: float) -> None:
        self.timeline.fill(f"{seconds:g}")

    def time(self) -> float:
        return float(self.timeline.input_value())

    def reload(self) -> None:
        self.page.reload()
        wait_for_engine(self)

    # what the panel shows

    def expect_view(self, view: View) -> None:
        expect(self.status).to_have_text(view.status)

    def rows(self) -> Locator:
        return self.panel.locator("li[data-id]")

    def retained_ids(self) -> list[str]:
        return [row.get_attribute("data-id") or "" for row in self.rows().all()]

    def evidence_ids(self) -> list[str]:
        return [row.get_attribute("data-id") or "" for row in self.panel.locator("li.lk-evidence[data-id]").all()]

    def exact_state(self) -> Any:
        details = self.panel.locator("details").filter(has_text="Exact state JSON of this arrival")
        if not details.evaluate("element => element.open"):
            details.get_by_text("Exact state JSON of this arrival", exact=True).click()
        return json.loads(details.locator("pre").inner_text())

    # recording the timeline between two moments, to prove it never ran backwards

    def start_recording_time(self) -> None:
        self.timeline.evaluate(
            """slider => {
                window.__lkTimes = [slider.valueAsNumber];
                window.__lkTimer = setInterval(() => window.__lkTimes.push(slider.valueAsNumber), 5);
            }"""
        )

    def stop_recording_time(self) -> list[float]:
        return self.page.evaluate("() => { clearInterval(window.__lkTimer); return window.__lkTimes; }")


def wait_for_engine(lesson: LessonPage) -> None:
    # Stop waiting as soon as the engine gives up too, and say why it did.
    expect(lesson.panel).to_have_attribute("data-engine", re.compile(r"^(ready|failed)$"), timeout=ENGINE_BOOT_MS)
    if lesson.panel.get_attribute("data-engine") != "ready":
        pytest.fail(f"the Python engine did not start: {lesson.panel.inner_text()[:1000]}", pytrace=False)


def open_lesson(page: Page, *, engine: bool = True) -> LessonPage:
    """Open the lesson; with `engine`, wait until Pyodide answers the panel."""
    page.goto(LESSON_PATH)
    lesson = LessonPage(page)
    expect(lesson.panel).to_be_visible()
    if engine:
        wait_for_engine(lesson)
    return lesson


@pytest.fixture
def lesson_page(page: Page) -> LessonPage:
    return open_lesson(page)


@pytest.fixture
def lesson_opener() -> Callable[..., LessonPage]:
    """For tests that must prepare the page (media emulation, say) before the lesson loads."""
    return open_lesson


@pytest.fixture(scope="session")
def engine() -> type[Engine]:
    return Engine
