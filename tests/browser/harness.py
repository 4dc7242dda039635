"""The browser harness: a watched page, and any panel on the site driven by its spec.

Nothing here knows a lesson. `Watch` records what a self-hosted, working page must never do;
`PanelPage` finds a panel's controls by role and accessible name, from the panel's own spec.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from lessonkit import tokens
from lessonkit.authoring.local_site import SiteHandler, served
from lessonkit.panel import Panel, View
from lessonkit.registry import panel

ENGINE_BOOT_MS = 60_000
# Generous, because CI machines are slow; expect() returns as soon as the page agrees.
STEP_MS = 20_000

expect.set_options(timeout=STEP_MS)

# Playwright's window, unless a test asks for another.
WINDOW = {"width": 1280, "height": 720}


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

    def clear(self) -> None:
        """Forget what was seen so far: a context kept across tests answers for each test alone."""
        self.foreign_requests.clear()
        self.errors.clear()

    def problems(self) -> list[str]:
        problems = []
        if self.foreign_requests:
            listed = "\n  ".join(self.foreign_requests)
            problems.append(f"the page asked another origin than {self.origin} (aborted):\n  {listed}")
        if self.errors:
            listed = "\n  ".join(self.errors)
            problems.append(f"the page reported errors:\n  {listed}")
        return problems


# Every document of a watched context reports a refusal of its Content-Security-Policy as a console
# error, which the watch then counts; Chromium's own "Refused to …" messages are errors too.
REPORT_POLICY_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`Content-Security-Policy violation: ${event.effectiveDirective} refused ${event.blockedURI || "inline code"}`
    + ` (${event.sourceFile || location.href}:${event.lineNumber})`);
});
"""


def watched_context(browser: Browser, origin: str, watch: Watch, **options: Any) -> BrowserContext:
    """A context whose every request to another origin is recorded in `watch`, and whose every
    console error or uncaught error is recorded there too. The tests' browser lets no request leave
    the machine (conftest.ONLY_THIS_MACHINE), so one recorded here has gone nowhere."""
    base = {} if origin.startswith("file:") else {"base_url": origin + "/"}
    # The course's service worker would keep the whole course (25 MB) in every context, once its
    # engine is ready: only the tests of keeping it (test_offline.py) let it, with service_workers="allow".
    options.setdefault("service_workers", "block")
    context = browser.new_context(accept_downloads=True, **base, **options)
    if not origin.startswith("file:"):
        # "Copy link to this experiment" writes to the clipboard, as it would for a reader who allowed it.
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    context.set_default_timeout(STEP_MS)
    context.add_init_script(REPORT_POLICY_VIOLATIONS)
    context.on("request", lambda request: watch.request(request.url))
    context.on("console", watch.console)
    # The context-wide "pageerror": uncaught errors of every page the context opens.
    context.on("weberror", lambda web_error: watch.page_error(web_error.error))
    return context


def site_pages(site: Path) -> list[str]:
    """The path of every page of the built site, "/" first: "/", "/authoring/", "/lessons/…/"."""
    return sorted("/" + "".join(f"{part}/" for part in index.parent.relative_to(site).parts) for index in site.rglob("index.html"))


@contextmanager
def serve(directory: Path, *, prefix: str = "", headers: dict[str, str] | None = None) -> Iterator[str]:
    """Serve `directory` on 127.0.0.1 under `prefix` ("/lessonkit", as a project site is), sending
    `headers` with every file but the pages; yields the site's root URL, e.g. http://127.0.0.1:40123/lessonkit."""
    prefix = prefix.rstrip("/")

    class Handler(SiteHandler):
        def translate_path(self, path: str) -> str:
            if not (path == prefix or path.startswith(prefix + "/")):
                return str(directory / "no such file outside the site's path")
            return super().translate_path(path[len(prefix) :] or "/")

        def end_headers(self) -> None:
            page = self.path.split("?")[0].endswith(("/", ".html"))
            for name, value in (headers or {}).items():
                if not page:
                    self.send_header(name, value)
            super().end_headers()

    with served(directory, Handler) as origin:
        yield origin + prefix


PANEL_SECTION = re.compile(r'<section class="lk-panel"[^>]*?data-lesson="([^"]+)"')


def placed_panels(site: Path) -> dict[str, str]:
    """Every panel the built site holds, by lesson id, with the path of its page."""
    found: dict[str, str] = {}
    for index in sorted(site.rglob("index.html")):
        for lesson in PANEL_SECTION.findall(index.read_text(encoding="utf-8")):
            found[lesson] = "/" + "".join(f"{part}/" for part in index.parent.relative_to(site).parts)
    return found


class PanelPage:
    """A page holding one panel, addressed by roles and accessible names, as a screen reader would."""

    def __init__(self, page: Page, panel: Panel) -> None:
        self.page = page
        self.spec = panel
        # The panel's own section, by its lesson; inside it, every control is found by role and name.
        # Found by role itself, the region cost every step a walk of the whole page's accessibility
        # tree, which on the longest lesson pages was most of the step. That the section is the region
        # a screen reader lists, by the panel's name, is checked once per panel (tour.Visit.boot).
        self.panel = page.locator(f'section.lk-panel[data-lesson="{panel.lesson}"]')
        self.region = page.get_by_role("region", name=panel.words.region.format(title=panel.title), exact=True)

    def state_in(self, summary: str) -> Any:
        """The JSON shown under the `<details>` summarized `summary` ("Exact state JSON of this arrival"), opened first."""
        details = self.panel.locator("details").filter(has_text=summary)
        if not details.evaluate("element => element.open"):
            details.get_by_text(summary, exact=True).click()
        return json.loads(details.locator("pre").inner_text())

    def control(self, role: str, name: str) -> Locator:
        return self.panel.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]

    def button(self, name: str) -> Locator:
        return self.control("button", name)

    def combobox(self, name: str) -> Locator:
        return self.control("combobox", name)

    @property
    def timeline(self) -> Locator:
        assert self.spec.timeline, f"the panel {self.spec.lesson} has no timeline"
        return self.control("slider", self.spec.timeline.label)

    @property
    def notes(self) -> Locator:
        return self.control("textbox", self.spec.words.notes)

    @property
    def status(self) -> Locator:
        return self.panel.get_by_role("status")

    def choose(self, combobox: str, option: str) -> None:
        self.combobox(combobox).select_option(label=option)

    def chosen(self, combobox: str) -> str:
        return self.combobox(combobox).evaluate("select => select.selectedOptions[0].label")

    def choose_fastest_speed(self) -> str:
        assert self.spec.playback
        speed = self.combobox(self.spec.playback.speed)
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

    @property
    def real_count(self) -> Locator:
        """The line that says, once the reader asked, what the model reads here in real tokens."""
        return self.panel.locator(".lk-real-count")

    def count_real_tokens(self) -> None:
        """Press "Count in real tokens", as a reader asks for the panel's texts in real tokens."""
        toggle = self.button(self.spec.words.real_tokens)
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")

    def expect_real_count(self, params: dict[str, Any]) -> None:
        """The count shown is CPython's count of what the panel's model reads at `params`."""
        reading = self.spec.reading(params)
        counted = sum(tokens.count(text) for text in reading.texts)
        expect(self.real_count).to_have_attribute("data-tokens", str(counted))
        expect(self.real_count).to_contain_text(f"In real tokens, {reading.what}: {counted:,} {tokens.DEFAULT} tokens")

    def expect_view(self, view: View) -> None:
        expect(self.status).to_have_text(view.status)

    # Recording every moment the timeline showed between two points of a test, to prove it never
    # ran backwards. Each change of the slider's spoken value (aria-valuetext, which starts with
    # the seconds) is a DOM mutation, so a MutationObserver misses none, however short-lived.

    def start_recording_time(self) -> None:
        self.timeline.evaluate(
            """slider => {
                window.__lkTimes = [slider.valueAsNumber];
                window.__lkObserver = new MutationObserver(records => {
                    for (const record of records) window.__lkTimes.push(parseFloat(record.target.getAttribute("aria-valuetext")));
                });
                window.__lkObserver.observe(slider, { attributes: true, attributeFilter: ["aria-valuetext"] });
            }"""
        )

    def stop_recording_time(self) -> list[float]:
        return self.page.evaluate(
            """() => {
                window.__lkObserver.takeRecords().forEach(r => window.__lkTimes.push(parseFloat(r.target.getAttribute("aria-valuetext"))));
                window.__lkObserver.disconnect();
                return window.__lkTimes;
            }"""
        )


# Pyodide, the engine's snapshot and the lessonkit wheel. A context that holds them back (a route
# that never answers) keeps Python from starting at all, as a link too slow to bring them would:
# only the build's views can answer, and the browser spends nothing on an engine the test does not use.
RUNTIME = re.compile(r".*/assets/(pyodide|snapshots|wheels)/[^/]+$")


def hold_back_the_engine(context: BrowserContext) -> None:
    context.route(RUNTIME, lambda route: None)


def wait_for_engine(panel_page: PanelPage) -> None:
    # Stop waiting as soon as the engine gives up too, and say why it did.
    expect(panel_page.panel).to_have_attribute("data-engine", re.compile(r"^(ready|failed)$"), timeout=ENGINE_BOOT_MS)
    if panel_page.panel.get_attribute("data-engine") != "ready":
        pytest.fail(f"the Python engine did not start: {panel_page.panel.inner_text()[:1000]}", pytrace=False)


Opened = TypeVar("Opened", bound=PanelPage)


def pause_the_clock(panel_page: Opened) -> Opened:
    """`panel_page` with its time in the test's hands, on a context whose clock was installed: paused
    a second from now, it moves only through `page.clock.run_for`."""
    # Playwright's Python API takes a number as Unix time in seconds (a page's Date.now() is in
    # milliseconds: given as such, the clock leapt some 55,000 years ahead, once per test).
    panel_page.page.clock.pause_at(panel_page.page.evaluate("Date.now()") / 1_000 + 1)
    return panel_page


def open_panel(
    page: Page, lesson: str, path: str, *, engine: bool = True, fragment: str = "", as_: type[Opened] = PanelPage, until: str = "load"
) -> Opened:
    """Open the page holding `lesson`'s panel, driven as `as_` (a lesson's own PanelPage); with `engine`,
    wait until Pyodide answers it. `until`: the navigation's own wait, as Playwright's goto names it."""
    page.goto(path + (f"#{fragment}" if fragment else ""), wait_until=until)  # type: ignore[arg-type]
    panel_page = as_(page, panel(lesson))
    expect(panel_page.panel).to_be_visible()
    if engine:
        wait_for_engine(panel_page)
    return panel_page


# Following a link inside the site, as a reader's click on it would: Material's instant navigation
# takes the click, fetches the page and swaps its content in place, and the window (and with it the
# engine's worker) stays.
FOLLOW = """(href) => {
    const link = Object.assign(document.createElement("a"), { href });
    document.body.append(link);
    link.click();
    link.remove();
}"""


# A browser whose storage is full, or switched off for the site, as a visit can ask for: the
# storage the panel opens as it starts is what the window holds then, so breaking it in the reader's
# window before the link is followed is what a page loaded that way finds. Kept aside, and put back
# before the reader's next visit.
BROKEN_STORAGE = ("full", "switched off")
BREAK_STORAGE = """(how) => {
    window.__lkStorage = { setItem: Storage.prototype.setItem, local: Object.getOwnPropertyDescriptor(window, "localStorage") };
    if (how === "full") {
        // Every write fails, as a full storage's would.
        Storage.prototype.setItem = function () { throw new DOMException("The quota has been exceeded.", "QuotaExceededError"); };
    } else {
        // Merely touching localStorage throws, as it does where the reader has switched storage off.
        Object.defineProperty(window, "localStorage", { configurable: true, get() {
            throw new DOMException("Access is denied for this document.", "SecurityError");
        } });
    }
}"""
MEND_STORAGE = """() => {
    const kept = window.__lkStorage;
    if (!kept) return;
    Storage.prototype.setItem = kept.setItem;
    if (kept.local) Object.defineProperty(window, "localStorage", kept.local);
    else delete window.localStorage;
    delete window.__lkStorage;
}"""


class Reader:
    """A reader who keeps the course open in one tab per lesson, for the whole test session.

    Booting Python is what a fresh page pays for (about 2.5 s here); a reader who follows the site's
    links pays it once. `visit` gives each test its lesson as a newcomer finds it, without a boot:
    from the lesson's tab it follows a link home (a page with no panel, so the lesson's panel closes),
    forgets what the last test wrote in the browser's storage, and follows a link back to the lesson
    (with `fragment`, a link to one state of the experiment). The panel is then built anew, as on any
    arrival; only the engine is kept. A new tab opens home and arrives the same way.

    One watched context holds the tabs, so a test is failed by what happened during it alone (see
    `Watch.clear`). A tab whose test failed is closed (`forget`): the next test boots a fresh one.
    """

    def __init__(self, context: BrowserContext, watch: Watch, home: str) -> None:
        self.context = context
        self.watch = watch
        self.home = home
        self.tabs: dict[str, Page] = {}

    def visit(
        self,
        lesson: str,
        path: str,
        *,
        fragment: str = "",
        reduced_motion: bool = False,
        stored: dict[str, str] | None = None,
        storage: str = "",
        viewport: dict[str, int] | None = None,
        engine: bool = True,
        as_: type[Opened] = PanelPage,
    ) -> Opened:
        """`lesson`'s panel on `path`, fresh and (with `engine`) answered by a running engine, as `as_`
        drives it; `stored`: what the site's storage holds as the panel starts (a reader's earlier
        notes or baseline, say); `storage`: "full" or "switched off" (BROKEN_STORAGE) for this visit;
        `viewport`: the window's size, 1280 × 720 unless given."""
        target = path + (f"#{fragment}" if fragment else "")
        tab = self.tabs.get(lesson)
        if tab is None or tab.is_closed():
            tab = self.tabs[lesson] = self.context.new_page()
            tab.goto(self.home)  # a page of the site, whose storage the items go into
        else:
            self._go_home(tab)
        # Once the panel has closed, nothing is left to write what the last test did back into
        # storage; what the panel reads as it starts is set now, as a reader's settings would be.
        tab.evaluate(MEND_STORAGE)
        tab.evaluate(
            "(items) => { localStorage.clear(); sessionStorage.clear(); for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }",
            stored or {},
        )
        if storage:
            assert storage in BROKEN_STORAGE, f"storage can be {BROKEN_STORAGE}, not {storage!r}"
            tab.evaluate(BREAK_STORAGE, storage)
        tab.emulate_media(reduced_motion="reduce" if reduced_motion else "no-preference")
        tab.set_viewport_size(viewport or WINDOW)
        panel_page = as_(tab, panel(lesson))
        tab.evaluate(FOLLOW, target)
        expect(panel_page.panel).to_be_visible()
        if engine:
            wait_for_engine(panel_page)
        return panel_page

    def _go_home(self, tab: Page) -> None:
        # The tab the reader looks at: a browser gives a tab in the background no animation frames.
        tab.bring_to_front()
        tab.evaluate(FOLLOW, self.home)
        tab.wait_for_function("(home) => location.pathname === new URL(home, location.href).pathname", arg=self.home)
        expect(tab.locator("section.lk-panel")).to_have_count(0)

    def come_back(self, panel_page: Opened) -> Opened:
        """The reader leaves `panel_page`'s lesson by the site's links and follows one back, with
        everything the browser's storage holds kept: the panel starts anew from what it finds there."""
        tab, spec = panel_page.page, panel_page.spec
        path = tab.evaluate("() => location.pathname")
        self._go_home(tab)
        again = type(panel_page)(tab, spec)
        tab.evaluate(FOLLOW, path)
        expect(again.panel).to_be_visible()
        return again

    def forget(self) -> None:
        for tab in self.tabs.values():
            if not tab.is_closed():
                tab.close()
        self.tabs.clear()


def as_json(value: Any) -> Any:
    """Engine data as it reads after a JSON round trip (tuples become lists)."""
    return json.loads(json.dumps(value))


def assert_same_engine_data(got: Any, want: Any, where: str = "") -> None:
    """Data the engine computed in the browser equals the engine's data here, floats to 12
    significant digits: Pyodide's libm may differ from the test machine's in the last bit of a
    logarithm (retrieval's IDF), and everything else must be exactly the same."""
    if isinstance(want, float) and isinstance(got, (int, float)):
        assert math.isclose(got, want, rel_tol=1e-12), f"{where}: {got} != {want}"
    elif isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), f"{where}: keys {sorted(got)} != {sorted(want)}"
        for key, value in want.items():
            assert_same_engine_data(got[key], value, f"{where}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {got!r} != {want!r}"
        for index, (each, wanted) in enumerate(zip(got, want, strict=True)):
            assert_same_engine_data(each, wanted, f"{where}[{index}]")
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"
