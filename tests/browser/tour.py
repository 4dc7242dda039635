"""One tour of the whole course, taken once per test session, which every "every page" check reads.

A reader's visit to each page is what the checks share, and loading a page and booting its panel's
engine (about 2.5 s) is what they cost: the tour pays for each once. It serves the built site under
a sub-path ("/lessonkit", as a project site is served), with the site's policy sent as a header on
every file besides each page's own `<meta>` policy (a worker, the engine's included, is governed by
its file's header only). One watched context visits every page in turn, in one tab that starts each
visit blank, at the window's size and with no scheme asked for (a tab for each page cost a renderer
process for each), and on each page:

- opens it (loaded, its heading shown), and reads the policy it declares;
- on a panel's page, waits for its engine, which boots in its worker under the header policy, and
  reads the panel's starting view, the engine's view of its defaults;
- audits it with axe-core in the light and in the dark scheme: every rule in the light one, and in
  the dark one the rules that read colours (a scheme changes the page's colours and nothing else; the
  palette toggle's label is the one other difference, and it is the same on every page, so the
  dark scheme gets every rule on the first page);
- on a panel's page, changes every setting at 320 px wide, as a reader on a small screen would;
- looks for anything running past the right edge at 320 px and at 640 px (200% zoom of a 1280 px
  window), then gives the window its size back;
- on a panel's page, seeks the timeline to its end and audits the panel in that state too (the rest of
  the page has not changed), in both schemes;
- then does what a reader does: runs the first sample, searches, and switches the scheme. Search
  runs in Material's worker under the page's policy, so it is tried once under each policy the
  pages declare (four in the course), on the first page that declares it.

Each step has a watch of its own (foreign requests, console and uncaught errors recorded),
so a problem is told with the page and the step where it happened. Findings are kept by kind, one
test per kind reads them. A step that cannot be done (a timeout, say) ends the page's visit: its
error is that step's finding, and every check the page then missed is a finding of its kind too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from lessonkit.authoring.csp import header_policy
from lessonkit.registry import panel
from tests.browser.axe import COLOUR_RULES, described, serious_violations
from tests.browser.harness import WINDOW, PanelPage, Watch, placed_panels, serve, site_pages, wait_for_engine, watched_context
from tests.browser.test_every_panel import another_value, set_control, settings

SUB_PATH = "/lessonkit"

SCHEMES = {"light": "default", "dark": "slate"}  # as Material names them on <body>
VIEWPORTS = {"320 px wide": {"width": 320, "height": 640}, "200% zoom": {"width": 640, "height": 400}}
NARROW = "320 px wide"

# The kinds of findings, one test each: OPENS, POLICY, "axe light", "axe dark", "reflow 320 px wide",
# "reflow 200% zoom" and USE.
OPENS = "opens cleanly"
POLICY = "policy"
USE = "search, samples and scheme"
KINDS = (OPENS, POLICY, *(f"axe {scheme}" for scheme in SCHEMES), *(f"reflow {size}" for size in VIEWPORTS), USE)
USING = "running a sample, searching, switching scheme"

PANEL = "section.lk-panel"

POLICY_DECLARED = re.compile(r"^default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-")


@dataclass
class Tour:
    """What the tour found, by kind: each finding names its page and its step."""

    pages: list[str]
    found: dict[str, list[str]] = field(default_factory=lambda: {kind: [] for kind in KINDS})
    # The policies search was tried under, as the pages declare them.
    searched: set[str] = field(default_factory=set)

    def findings(self, kind: str) -> list[str]:
        return self.found[kind]


@dataclass(frozen=True)
class Step:
    name: str
    kind: str
    run: Callable[[], list[str]]


# A page that stops drawing frames would keep a wait on them pending for ever, and the suite with
# it: each wait fails after this long instead, naming the page. It returns a `done` that also stops
# the clock, so a wait that ended leaves no timer behind in the page.
FRAMES_STOPPED = (
    "(done, fail) => { const guard = setTimeout(() => fail(new Error(`no animation frame for 20 s on ${location.pathname}`)), 20000);"
    " return () => { clearTimeout(guard); done(); }; }"
)

# Two frames, then until nothing moves: a count of frames, not a span of time. What a resize or an
# opened disclosure changes is laid out by the second frame; a transition or animation still running
# then (none does under the tour's reduced motion, today) would show its colours half-way, so the
# audit waits for it, though never past a second's worth of frames.
SETTLE = f"""() => new Promise((resolve, fail) => {{
    const done = ({FRAMES_STOPPED})(resolve, fail);
    const moving = () => document.getAnimations().some((animation) => animation.playState === "running");
    const step = (k) => requestAnimationFrame(() => (k > 58 || (k >= 2 && !moving()) ? done() : step(k + 1)));
    step(1);
}})"""


def settle(page: Page) -> None:
    """Let the page lay out what just changed, and finish any transition it started (see SETTLE)."""
    page.evaluate(SETTLE)


def let_frames_pass(page: Page, frames: int) -> None:
    """Let the page render `frames` frames, in which anything that moves by itself would have moved."""
    page.evaluate(
        f"(n) => new Promise((resolve, fail) => {{ const done = ({FRAMES_STOPPED})(resolve, fail);"
        " const step = (k) => k ? requestAnimationFrame(() => step(k - 1)) : done(); step(n); })",
        frames,
    )


def audit(page: Page, where: str, rules: tuple[str, ...] = (), within: str = "") -> list[str]:
    page.evaluate("() => document.querySelectorAll('details').forEach((details) => { details.open = true; })")
    settle(page)
    violations = serious_violations(page, rules, within)
    return [f"{where}: {line}" for line in described(violations).splitlines()] if violations else []


# axe-core's own list of the rules that read colours and run by default (not its AAA contrast rule):
# if an upgrade adds one, the dark scheme's audit must run it too.
AXE_COLOUR_RULES = (
    """() => axe.getRules(["cat.color"]).filter((rule) => !rule.tags.includes("wcag2aaa")).map((rule) => rule.ruleId).sort()"""
)


# Elements that run past the right edge of the page, except inside an element meant to scroll
# sideways (code blocks, wide tables and charts): those scroll in place, the page does not.
OVERFLOWING = """() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (element) => {
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
            if (["auto", "scroll"].includes(getComputedStyle(up).overflowX)) return true;
        }
        return false;
    };
    const shown = (element) => getComputedStyle(element).visibility !== "hidden" && element.getClientRects().length > 0;
    const past = [...document.body.querySelectorAll("*")].filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.right > width + 0.5 && box.left < width && shown(element) && !scrolls(element);
    });
    return {
        page: document.documentElement.scrollWidth - width,
        elements: past.slice(0, 10).map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join(".")}`),
    };
}"""


class Visit:
    """One page, in one tab, step by step."""

    def __init__(self, page: Page, path: str, lesson: str | None, tour: Tour) -> None:
        self.page = page
        self.path = path
        self.panel = PanelPage(page, panel(lesson)) if lesson else None
        self.params: dict[str, Any] = self.panel.spec.defaults() if self.panel else {}
        self.tour = tour
        # Every rule in the dark scheme too on the tour's first page (see the module's docstring).
        self.every_rule_in_the_dark = path == tour.pages[0]
        self.declared = ""

    def steps(self) -> list[Step]:
        steps = [Step("opening", OPENS, self.open), Step("reading its policy", POLICY, self.policy)]
        if not self.panel:
            return [*steps, *self.audits(), *self.reflows(), Step(USING, USE, self.use)]
        # What a host that sends the policy as a header asks of the engine's worker: the engine boots
        # under it, then answers every setting changed and the timeline's end.
        return [
            *steps,
            Step("booting its engine under the header policy", POLICY, self.boot),
            *self.audits("starting state"),
            Step(f"changing every setting at {NARROW}", POLICY, self.change_every_setting),
            *self.reflows("every setting changed"),
            Step("seeking the timeline to its end", POLICY, self.seek_to_the_end),
            # Only the panel changed since the starting state's audits: the rest of the page is not audited twice.
            *self.audits("every setting changed, at the end", within=PANEL),
            Step(USING, USE, self.use),
        ]

    def audits(self, state: str = "", within: str = "") -> list[Step]:
        return [Step(", ".join(filter(None, ("axe", scheme, state))), f"axe {scheme}", self.auditor(scheme, within)) for scheme in SCHEMES]

    def reflows(self, state: str = "") -> list[Step]:
        return [Step(", ".join(filter(None, (f"at {size}", state))), f"reflow {size}", self.reflower(size)) for size in VIEWPORTS]

    def open(self) -> list[str]:
        # goto waits for the page's load event: its stylesheets, scripts and images are in. Nothing
        # waits for the network to go quiet, which on a panel's page is the engine's download: the
        # boot step waits for the engine itself, and each step's watch sees every later request.
        self.page.goto(self.path.lstrip("/"))  # relative to the sub-path
        expect(self.page.locator("h1").first).to_be_visible()
        return []

    def policy(self) -> list[str]:
        declared = self.declared = self.page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content") or ""
        return [] if POLICY_DECLARED.search(declared) else [f"the page declares the policy {declared!r}"]

    def boot(self) -> list[str]:
        assert self.panel
        expect(self.panel.panel).to_be_visible()
        # The panel is the region a screen reader lists by its name (every other test finds it by its lesson).
        expect(self.panel.region).to_have_attribute("data-lesson", self.panel.spec.lesson)
        wait_for_engine(self.panel)
        # The panel opens on the engine's view of its defaults, which every later step starts from.
        self.panel.expect_view(self.panel.spec.view(self.params))
        return []

    def show_scheme(self, scheme: str) -> None:
        self.page.emulate_media(color_scheme=scheme)
        # Material reads the reader's preference once, as the page loads, and keeps the palette it
        # chose (in storage, for every page): its toggle is what switches a page already open.
        body = self.page.locator("body")
        if body.get_attribute("data-md-color-scheme") != SCHEMES[scheme]:
            self.page.locator("form[data-md-component=palette] label:not([hidden])").click()
        expect(body).to_have_attribute("data-md-color-scheme", SCHEMES[scheme])

    def auditor(self, scheme: str, within: str = "") -> Callable[[], list[str]]:
        def audited() -> list[str]:
            self.show_scheme(scheme)
            if scheme == "light":
                return audit(self.page, "axe-core", within=within)
            if not self.every_rule_in_the_dark or within:
                return audit(self.page, "axe-core (its colour rules)", COLOUR_RULES, within=within)
            # Once per tour, where the dark scheme gets every rule: the colour rules it runs elsewhere are axe-core's own.
            found = audit(self.page, "axe-core")
            colours = self.page.evaluate(AXE_COLOUR_RULES)
            if colours != sorted(COLOUR_RULES):
                found.append(f"axe-core's colour rules are {colours}, and the dark scheme's audits run {sorted(COLOUR_RULES)}")
            return found

        return audited

    def reflower(self, size: str) -> Callable[[], list[str]]:
        def reflowed() -> list[str]:
            self.page.set_viewport_size(VIEWPORTS[size])
            settle(self.page)
            overflow = self.page.evaluate(OVERFLOWING)
            self.page.set_viewport_size(WINDOW)
            if overflow["page"] > 0 or overflow["elements"]:
                return [f"the page is {overflow['page']} px wider than the screen; past its edge: {overflow['elements']}"]
            return []

        return reflowed

    def change_every_setting(self) -> list[str]:
        assert self.panel
        self.page.set_viewport_size(VIEWPORTS[NARROW])  # a panel must work on a small screen, not only fit it
        for control in settings(self.panel.spec):
            self.params[control.name] = another_value(control)
            set_control(self.panel, control, self.params[control.name])
        self.panel.expect_view(self.panel.spec.view(self.params))
        return []

    def seek_to_the_end(self) -> list[str]:
        assert self.panel
        timeline = self.panel.spec.timeline
        if timeline:
            self.params[timeline.name] = timeline.end
            self.panel.seek(timeline.end)
        self.panel.expect_view(self.panel.spec.view(self.params))
        return []

    def use(self) -> list[str]:
        page = self.page
        samples = page.get_by_role("button", name=re.compile(r"^Run sample \d+$"))
        if samples.count():
            samples.first.click()
            expect(page.locator(".lk-sample-status").first).to_contain_text("ran in your browser")
        # Material's search runs in a worker of its own, and its palette toggle in an inline script.
        if self.declared not in self.tour.searched:
            self.tour.searched.add(self.declared)
            search = page.get_by_role("textbox", name="Search").first
            search.click()
            expect(page.locator(".md-search-result__meta")).to_have_text("Type to start searching")
            search.press_sequentially("context", delay=20)
            expect(page.locator(".md-search-result__item").first).to_be_visible()
            search.press("Escape")
            # While the search is open the theme folds the header's options to no width, the palette
            # toggle among them: a click on it would wait for it in vain.
            expect(page.locator("#__search"), "Escape left the search open").not_to_be_checked()
        before = page.evaluate("() => document.body.dataset.mdColorScheme")
        page.locator("form[data-md-component=palette] label:not([hidden])").click()
        expect(page.locator("body")).not_to_have_attribute("data-md-color-scheme", before)
        # The palette chosen is kept for every page: the next page opens as a newcomer finds it.
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        return []


class Guide:
    """Takes one watched context through the site, its watch cleared for every step of every page."""

    def __init__(self, browser: Browser, root: str) -> None:
        self.root = root
        self.watch = Watch(root)
        # Watched with the sub-path as the origin: a request anywhere else on the host is foreign too.
        self.context = watched_context(browser, root, self.watch, reduced_motion="reduce")
        self.tab = self.context.new_page()

    def visit(self, path: str, lesson: str | None, tour: Tour) -> None:
        page = self.tab
        # As a new tab would be: the last page's visit may have stopped with a scheme or a size of its own.
        page.emulate_media(color_scheme="null")
        page.set_viewport_size(WINDOW)
        steps = Visit(page, path, lesson, tour).steps()
        try:
            for index, step in enumerate(steps):
                self.watch.clear()
                where = f"{path} ({step.name})"
                try:
                    found = step.run()
                except (Exception, pytest.fail.Exception) as error:
                    said = "\n  ".join(str(error).splitlines()[:7])  # then Playwright's outline of the whole page
                    tour.found[step.kind].append(f"{where}: the tour could not go on:\n  {said}")
                    for missed in steps[index + 1 :]:
                        tour.found[missed.kind].append(f"{path} ({missed.name}): not checked, the tour stopped at {step.name!r}")
                    return
                finally:
                    tour.found[step.kind] += [f"{where}: {problem}" for problem in self.watch.problems()]
                tour.found[step.kind] += [f"{where}: {finding}" for finding in found]
        finally:
            self.watch.clear()
            page.goto("about:blank")  # leaving the page, as closing its tab did: its unload is the page's own
            tour.found[OPENS] += [f"{path} (leaving it): {problem}" for problem in self.watch.problems()]


def take_tour(browser: Browser, site: Path) -> Tour:
    lessons = {path: lesson for lesson, path in placed_panels(site).items()}
    tour = Tour(site_pages(site))
    with serve(site, prefix=SUB_PATH, headers={"Content-Security-Policy": header_policy()}) as root:
        guide = Guide(browser, root)
        try:
            for path in tour.pages:
                guide.visit(path, lessons.get(path), tour)
        finally:
            guide.context.close()  # before the server stops: a request it could no longer answer would be an error
    return tour


# A module that imports the fixture holds a definition of it of its own: the tour itself is kept
# here, so it is taken once per session (per worker) however many modules read it.
_TAKEN: dict[Path, Tour] = {}


@pytest.fixture(scope="session", name="tour")
def the_tour(browser: Browser, site_dir: Path) -> Tour:
    """The session's tour of every page of the built site (see this module's docstring)."""
    if site_dir not in _TAKEN:
        _TAKEN[site_dir] = take_tour(browser, site_dir)
    return _TAKEN[site_dir]
