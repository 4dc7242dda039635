"""The built page tells each sample its block id, and Sybil runs each sample under that same id.

So a reader's edit (run in the page under the page's block id), the build and the tests all give
a sample the same `__name__` and the same session.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from sybil import Sybil

from lessonkit.authoring.samples import find_samples
from lessonkit.authoring.sybil_parsers import TALLY, parse_samples
from tests.course_build import CourseBuild

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LESSONS = sorted((DOCS / "lessons").glob("*.md"))


class SampleWrappers(HTMLParser):
    """The (block id, session) of every <div class="lk-sample"> in a page, in page order."""

    def __init__(self) -> None:
        super().__init__()
        self.samples: list[tuple[str | None, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        found = dict(attrs)
        if tag == "div" and "lk-sample" in (found.get("class") or "").split():
            self.samples.append((found.get("data-block-id"), found.get("data-session")))


@pytest.fixture(scope="module")
def built_site(course_build: CourseBuild) -> Path:
    return course_build.site


def built_samples(site: Path, lesson: Path) -> list[tuple[str | None, str | None]]:
    parser = SampleWrappers()
    parser.feed((site / "lessons" / lesson.stem / "index.html").read_text(encoding="utf-8"))
    return parser.samples


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_the_built_page_carries_each_editable_samples_block_id_and_session(built_site, lesson):
    shown = [sample for sample in find_samples(lesson.read_text(encoding="utf-8")) if sample.editable]
    assert shown, f"{lesson.name} has no editable samples"
    assert built_samples(built_site, lesson) == [(sample.block_id, sample.session or "") for sample in shown]


@pytest.fixture
def untallied():
    """Samples run here are not the docs' own check: the report's count of samples run stays the docs'."""
    kept = TALLY.copy()
    yield
    TALLY.clear()
    TALLY.update(kept)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.stem)
def test_sybil_runs_each_sample_under_the_block_id_and_session_the_built_page_gives_it(built_site, lesson, untallied):
    examples = list(Sybil(parsers=[parse_samples], path=str(DOCS)).parse(lesson))
    for example in examples:
        example.evaluate()
    under_sybil = [(example.parsed.block_id, example.parsed.session or "") for example in examples if example.parsed.editable]
    assert under_sybil == built_samples(built_site, lesson)
