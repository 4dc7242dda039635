"""The context compaction lesson in the browser: its page, and its engine as the source of every expectation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Locator

from lessonkit.lessons.context_compaction import Compaction, Run, lesson, simulate
from lessonkit.lessons.context_compaction.panel import LESSON, PANEL
from lessonkit.panel import View
from tests.browser.harness import PanelPage, Reader, as_json

LESSON_PATH = "/lessons/context-compaction/"


class Engine:
    """The lesson's own engine and panel, in the test process: where every expectation comes from."""

    panel = PANEL
    as_json = staticmethod(as_json)
    presets = lesson().presets

    @staticmethod
    def params(**changes: Any) -> dict[str, Any]:
        return {**PANEL.defaults(), **changes}

    @classmethod
    def view(cls, baseline: dict | None = None, **changes: Any) -> View:
        """What the panel must show for the defaults with these changes (parameter names and values)."""
        return PANEL.view(cls.params(**changes), baseline)

    @staticmethod
    def run(setting: Compaction, summarizer: str = "model") -> Run:
        return simulate(setting, summarizer)


class LessonPage(PanelPage):
    """The compaction panel, with the lesson's own ways of writing a setting and reading a request."""

    def written(self, field: str) -> Locator:
        """The checkbox that writes `field` into the setting or leaves it out."""
        return self.control("checkbox", field)

    def value(self, field: str) -> Locator:
        return self.control("spinbutton", field)

    def write(self, field: str, value: int | None) -> None:
        """Write `field` with `value`, or leave it out with None, as a reader does: checkbox, then number."""
        self.written(field).set_checked(value is not None)
        if value is not None:
            self.value(field).fill(str(value))

    @property
    def alert(self) -> Locator:
        return self.panel.get_by_role("alert")

    def seen_ids(self) -> list[str]:
        return [row.get_attribute("data-id") or "" for row in self.panel.locator("ol.lk-seen-list > li[data-id]").all()]

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


@pytest.fixture
def still_lesson_page(reader: Reader) -> LessonPage:
    """The lesson for a reader who asks for reduced motion: nothing plays by itself, every moment stays put."""
    return reader.visit(LESSON, LESSON_PATH, reduced_motion=True, as_=LessonPage)


@pytest.fixture(scope="session")
def engine() -> type[Engine]:
    return Engine
