"""Every number in a lesson's prose is a claim or marked as not one."""

from pathlib import Path

import pytest

from lessonkit.authoring.claims import bare_numbers, find_claims

LESSONS = sorted((Path(__file__).parents[1] / "docs" / "lessons").glob("*.md"))


def test_there_are_lessons_to_check():
    assert LESSONS


@pytest.mark.parametrize("page", LESSONS, ids=lambda page: page.name)
def test_every_number_in_the_prose_is_bound_or_marked(page):
    unmarked = bare_numbers(page.read_text(encoding="utf-8"))
    assert not unmarked, "unbound numbers (write [[text|expr]] or [[text|-]]): " + ", ".join(f"line {n.line}: {n.text!r}" for n in unmarked)


@pytest.mark.parametrize("page", LESSONS, ids=lambda page: page.name)
def test_each_lesson_binds_at_least_one_claim(page):
    assert any(claim.bound for claim in find_claims(page.read_text(encoding="utf-8")))
