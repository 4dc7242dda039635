"""The working memory lesson in the browser: its page, driven through the lesson's own control names,
and its engine as the source of every expectation."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from lessonkit.lessons import working_memory as retrieval
from lessonkit.lessons.working_memory.panel import INSPECTION_SECONDS, LESSON, PANEL, STAGE_SECONDS
from lessonkit.panel import View
from tests.browser.harness import PanelPage, Reader, as_json, open_panel, pause_the_clock

LESSON_PATH = "/lessons/working-memory/"
FINAL = INSPECTION_SECONDS

# The lesson's walk-through starts here: the timeout question, Team A, working context, 168 hours,
# recency zero and at most three records (engine values, not labels).
WALKTHROUGH = {"question": "timeout", "tenant": "team-a", "store": "working", "max_age_hours": 168, "recency_weight": 0, "max_records": 3}


class Engine:
    """The lesson's own engine and panel, in the test process: where every expectation comes from."""

    panel = PANEL
    final = FINAL
    walkthrough = WALKTHROUGH
    stage_seconds = STAGE_SECONDS
    marks = tuple(mark.at for mark in PANEL.timeline.marks)
    as_json = staticmethod(as_json)

    @staticmethod
    def params(time: float = 0, **settings: Any) -> dict[str, Any]:
        return {**PANEL.defaults(), **settings, "time": time}

    @classmethod
    def view(cls, time: float = 0, baseline: dict | None = None, **settings: Any) -> View:
        """What the panel must show for these settings (engine values) at this inspection time."""
        return PANEL.view(cls.params(time, **settings), baseline)

    @staticmethod
    def outcomes(view: View) -> dict[str, str]:
        """The Outcome column of a view's record table, by record ID, as its text reads."""
        found = {}
        for record_id, row in re.findall(r'<tr data-id="(M\d+)"[^>]*>(.*?)</tr>', view.html, re.DOTALL):
            cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)
            found[record_id] = html.unescape(re.sub(r"<[^>]+>", "", cells[-1]))
        return found

    @staticmethod
    def retrieve(**settings: Any) -> retrieval.Retrieval:
        return retrieval.retrieve(**{**retrieval.DEFAULTS, **settings})

    @staticmethod
    def record(record_id: str) -> retrieval.MemoryRecord:
        return retrieval.lesson().record(record_id)


def _labels() -> dict[str, Any]:
    return {control.name: control for control in PANEL.controls}


class LessonPage(PanelPage):
    """The working memory panel, set and read as a reader would, by the lesson's words."""

    def set(self, **settings: Any) -> None:
        """Set controls from engine values, through their accessible names, in the spec's order."""
        controls = _labels()
        for name, value in settings.items():
            control = controls[name]
            if control.kind == "choice":
                self.choose(control.label, next(o.label for o in control.options if o.value == value))
            elif control.kind == "toggle":
                self.control("checkbox", control.label).set_checked(value)
            elif control.kind == "number":
                self.control("spinbutton", control.label).fill(f"{value:g}")
            elif control.kind == "range":
                self.control("slider", control.label).fill(f"{value:g}")
            else:
                raise ValueError(f"{name} is not a setting")

    def inspect_final_stage(self) -> None:
        self.seek(FINAL)

    @property
    def table(self) -> Locator:
        return self.control("region", "Inspect every record")

    @property
    def selected_context(self) -> Locator:
        return self.control("region", "Selected context")

    @property
    def cards(self) -> Locator:
        return self.control("region", "Memory cards")

    @property
    def diagram(self) -> Locator:
        return self.control("region", "Records through the four stages")

    def row(self, record_id: str) -> Locator:
        return self.table.locator(f'tbody tr[data-id="{record_id}"]')

    def table_ids(self) -> list[str]:
        return [row.get_attribute("data-id") or "" for row in self.table.locator("tbody tr[data-id]").all()]

    def cells(self, record_id: str) -> dict[str, str]:
        """A record's row, by column heading."""
        headings = [cell.inner_text().strip() for cell in self.table.locator("thead th").all()]
        values = [cell.inner_text().strip() for cell in self.row(record_id).locator("td").all()]
        return dict(zip(headings, values, strict=True))

    def expect_playing(self, playing: bool) -> None:
        """Pause is offered only while the inspection plays; Play whenever it does not."""
        expect(self.button("Pause" if playing else "Play")).to_be_visible()
        expect(self.button("Play" if playing else "Pause")).to_have_count(0)

    def tray_ids(self) -> list[str]:
        return [item.get_attribute("data-id") or "" for item in self.selected_context.locator("li[data-id]").all()]


def open_lesson(page: Page, *, engine: bool = True, fragment: str = "") -> LessonPage:
    return open_panel(page, LESSON, LESSON_PATH, engine=engine, fragment=fragment, as_=LessonPage)


@pytest.fixture
def lesson_page(reader: Reader) -> LessonPage:
    """The lesson as a newcomer finds it, in the tab the reader keeps open (its engine already running)."""
    return reader.visit(LESSON, LESSON_PATH, as_=LessonPage)


@pytest.fixture
def lesson_on_a_clock(clocked_reader: Reader) -> LessonPage:
    """The lesson with its page's time in the test's hands: from here on it moves only through run_for."""
    return pause_the_clock(clocked_reader.visit(LESSON, LESSON_PATH, as_=LessonPage))


@pytest.fixture
def lesson_with_reduced_motion(reader: Reader) -> LessonPage:
    """The lesson for a reader who asked for reduced motion."""
    return reader.visit(LESSON, LESSON_PATH, reduced_motion=True, as_=LessonPage)


@pytest.fixture
def lesson_opener() -> Callable[..., LessonPage]:
    """For tests that must prepare the page (media emulation, a fake clock) before the lesson loads."""
    return open_lesson


@pytest.fixture(scope="session")
def engine() -> type[Engine]:
    return Engine
