"""A lesson is one id and one folder: the id names every file the lesson has, spelled one way.

The registry finds the lessons in `src/lessonkit/lessons/`; for each, this checks the places that
DESIGN.md and the authors' guide promise, so a lesson that is half-moved or misnamed fails here,
naming the file to add.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lessonkit.fixtures import read_fixture
from lessonkit.registry import lesson_ids, package_name, panel

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(params=lesson_ids())
def lesson(request: pytest.FixtureRequest) -> str:
    return request.param


def test_a_lessons_package_is_its_id_with_underscores_and_holds_its_panel(lesson):
    folder = ROOT / "src" / Path(*package_name(lesson).split("."))
    assert folder.name == lesson.replace("-", "_")
    assert (folder / "__init__.py").is_file() and (folder / "panel.py").is_file()
    assert panel(lesson).lesson == lesson


def test_a_lessons_fixture_is_named_by_its_id_and_declares_it(lesson):
    assert (ROOT / "fixtures" / f"{lesson}.json").is_file()
    assert read_fixture(lesson).text("lesson") == lesson


@pytest.mark.parametrize(
    "where",
    [
        "docs/lessons/{id}.md",
        "docs/notebooks/{id}.ipynb",
        "docs/reference/{id}.md",
        "overrides/assets/lessonkit/lessons/{id}.css",
        "tests/lessons/{id}",
        "tests/browser/lessons/{id}",
    ],
)
def test_every_file_of_a_lesson_is_named_by_its_id(lesson, where):
    path = ROOT / where.format(id=lesson)
    assert path.exists(), f"the lesson {lesson} has no {where.format(id=lesson)}"


def test_a_lessons_panel_names_its_own_stylesheet(lesson):
    assert panel(lesson).stylesheet == f"lessons/{lesson}.css"


def test_no_file_of_the_project_is_named_by_a_lessons_old_names():
    # The names the lessons had before each became one folder: nothing may be found by them again.
    old = ("compaction_session", "compaction.json", "panels")
    found = [
        str(path.relative_to(ROOT))
        for folder in ("src", "tests", "fixtures", "docs")
        for path in (ROOT / folder).rglob("*")
        if any(part.startswith(old) for part in path.relative_to(ROOT).parts)
    ]
    assert not found
