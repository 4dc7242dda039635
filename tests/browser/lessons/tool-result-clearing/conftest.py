"""The tool result clearing lesson in the browser: its page, and its engine as the source of every expectation."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from lessonkit.lessons.tool_result_clearing import Clearing, Run, lesson, replay
from lessonkit.lessons.tool_result_clearing.panel import LESSON, PANEL, PRICING, exclude_name
from lessonkit.panel import View
from tests.browser.harness import STEP_MS, PanelPage, Reader, as_json

LESSON_PATH = "/lessons/tool-result-clearing/"


class Engine:
    """The lesson's own engine and panel, in the test process: where every expectation comes from."""

    panel = PANEL
    as_json = staticmethod(as_json)
    presets = lesson().presets
    session = lesson().session
    tools = lesson().session.tools
    timeline = PANEL.timeline

    @staticmethod
    def params(**changes: Any) -> dict[str, Any]:
        return {**PANEL.defaults(), **changes}

    @classmethod
    def params_of(cls, setting: Clearing, *, caching: bool = True, time: int = 0) -> dict[str, Any]:
        """The panel's parameters that build `setting` (one checkbox per tool for `exclude_tools`)."""
        excluded = {exclude_name(tool): tool in setting.exclude_tools for tool in cls.tools}
        fields = {name: getattr(setting, name) for name in ("trigger", "clear_at_least", "keep", "placeholder", "clear_tool_inputs")}
        return cls.params(**fields, **excluded, caching=caching, time=time)

    @classmethod
    def view(cls, baseline: dict | None = None, **changes: Any) -> View:
        """What the panel must show for the defaults with these changes (parameter names and values)."""
        return PANEL.view(cls.params(**changes), baseline)

    @classmethod
    def view_of(cls, setting: Clearing, *, caching: bool = True, time: int = 0, baseline: dict | None = None) -> View:
        return PANEL.view(cls.params_of(setting, caching=caching, time=time), baseline)

    @classmethod
    def run(cls, setting: Clearing | None, *, caching: bool = True) -> Run:
        """The session replayed as the panel replays it: the lesson's session and the panel's prices."""
        return replay(cls.session, setting, caching=caching, pricing=PRICING)


# The view the panel shows is exactly the HTML the engine's view function wrote: both are parsed by
# the page, so they are compared as the browser serializes them. Two things on screen are not the
# view's: a <details> the reader opened stays open across views (panel.js), and on the build's first
# view the theme gives each code block a copy button (and the block an id to point it at).
SHOWS_VIEW = """(html) => {
    const box = document.querySelector("section.lk-panel .lk-view");
    if (!box) return false;
    const shown = box.cloneNode(true);
    shown.querySelectorAll("details[open]").forEach((details) => details.removeAttribute("open"));
    shown.querySelectorAll("nav.md-code__nav").forEach((copy) => copy.remove());
    shown.querySelectorAll('pre[id^="__code_"]').forEach((code) => code.removeAttribute("id"));
    const wanted = document.createElement("div");
    wanted.innerHTML = html;
    return shown.innerHTML === wanted.innerHTML;
}"""


class LessonPage(PanelPage):
    """The clearing panel, with the lesson's own ways of writing a setting and reading a request."""

    def number(self, label: str) -> Locator:
        """Trigger, Clear at least or Keep."""
        return self.control("spinbutton", label)

    def checkbox(self, label: str) -> Locator:
        """Clear tool inputs, Exclude <tool> or Prompt cache."""
        return self.control("checkbox", label)

    def expect_view(self, view: View) -> None:
        """The status says what the engine says, and the view below it is the engine's, to the last element."""
        expect(self.status).to_have_text(view.status)
        try:
            self.page.wait_for_function(SHOWS_VIEW, arg=str(view.html), timeout=STEP_MS)
        except PlaywrightTimeoutError:
            shown = self.panel.locator(".lk-view").inner_text()
            raise AssertionError(f"the view is not the engine's for the status {view.status!r}; it reads:\n{shown[:3000]}") from None

    def verdicts(self) -> list[tuple[str, str]]:
        """Each tool result of the inspected request's prompt, and the rule that decided it, in the table's order."""
        rows = self.panel.locator(".lk-verdicts tbody tr[data-id]")
        return [(row.get_attribute("data-id") or "", row.get_attribute("data-rule") or "") for row in rows.all()]

    def cleared_rows(self) -> Locator:
        return self.panel.locator(".lk-verdicts tr.lk-cleared")

    def verdict_row(self, result: str) -> Locator:
        return self.panel.locator(f'.lk-verdicts tr[data-id="{result}"]')

    def finding(self, name: str) -> Locator:
        """The value of one finding about the inspected request ("Cleared", "Cache", ...)."""
        term = self.panel.locator("dl.lk-findings dt", has_text=re.compile(f"^{re.escape(name)}$"))
        return term.locator("xpath=following-sibling::dd[1]")

    def calls_again(self) -> list[str]:
        """The requests the list of calls made again names, in order."""
        return [item.get_attribute("data-request") or "" for item in self.panel.locator("ol.lk-again-list > li").all()]

    def totals(self) -> Locator:
        return self.panel.get_by_role("table", name="The whole session, in teaching tokens", exact=True)

    def totals_row(self, measure: str) -> list[str]:
        """One row of the totals table: the measure, then this setting, clearing off and the cache switched."""
        row = self.totals().locator("tbody tr").filter(has=self.page.get_by_role("cell", name=measure, exact=True))
        return [cell.strip() for cell in row.locator("td").all_inner_texts()]

    def exact_state(self) -> Any:
        return self.state_in("Exact state JSON of this request")


@pytest.fixture
def lesson_page(reader: Reader) -> LessonPage:
    """The lesson as a newcomer finds it, in the tab the reader keeps open (its engine already running)."""
    return reader.visit(LESSON, LESSON_PATH, as_=LessonPage)


@pytest.fixture
def lesson_from_a_link(reader: Reader) -> Callable[[str], LessonPage]:
    """For tests that reach the lesson by a link of their own: its fragment, the experiment's state."""
    return lambda fragment: reader.visit(LESSON, LESSON_PATH, fragment=fragment, as_=LessonPage)


@pytest.fixture(scope="session")
def engine() -> type[Engine]:
    return Engine
