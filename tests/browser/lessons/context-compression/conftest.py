"""The context compression lesson in the browser: its page, and its engine as the source of every expectation."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator

from lessonkit.lessons import context_compression as compression
from lessonkit.lessons.context_compression.panel import LESSON, PANEL
from lessonkit.panel import View
from tests.browser.harness import PanelPage, Reader, as_json, pause_the_clock

LESSON_PATH = "/lessons/context-compression/"


class Engine:
    """The lesson's own engine, in the test process: where every expectation comes from."""

    panel = PANEL
    marks = tuple(mark.at for mark in PANEL.timeline.marks)
    as_json = staticmethod(as_json)

    @staticmethod
    def view(budget: int = 24, policy: str = "evict", fidelity: str = "preserve", time: float = 0, baseline: dict | None = None) -> View:
        """What the panel must show for these settings (engine values, not labels)."""
        return PANEL.view({"budget": budget, "policy": policy, "fidelity": fidelity, "time": time}, baseline)

    @staticmethod
    def replay(budget: int, policy: str, fidelity: str = "preserve") -> Any:
        return compression.replay(budget, policy, fidelity)


class LessonPage(PanelPage):
    """The compression panel, with the lesson's own ways of reading the window."""

    def rows(self) -> Locator:
        return self.panel.locator("li[data-id]")

    def retained_ids(self) -> list[str]:
        return [row.get_attribute("data-id") or "" for row in self.rows().all()]

    def evidence_ids(self) -> list[str]:
        return [row.get_attribute("data-id") or "" for row in self.panel.locator("li.lk-evidence[data-id]").all()]

    def gone_ids(self) -> list[str]:
        return [row.get_attribute("data-gone") or "" for row in self.panel.locator("li[data-gone]").all()]

    def exact_state(self) -> Any:
        return self.state_in("Exact state JSON of this arrival")


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


@pytest.fixture(scope="session")
def engine() -> type[Engine]:
    return Engine
