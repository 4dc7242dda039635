"""The lesson page itself: first in the course, readable with JavaScript off, and its cosine sample
editable and runnable in place.

Expected outputs come from running the page's samples in the test process through the runner the
build and the browser worker use (lessonkit.samples), under the build's block ids and sessions.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from lessonkit.authoring.samples import find_samples
from lessonkit.samples import PageSamples

LESSON_SOURCE = Path(__file__).resolve().parents[4] / "docs" / "lessons" / "working-memory.md"


def run_page(edit: tuple[int, str] | None = None) -> list[str]:
    """The output of every shown sample, run in page order as the build runs them; `edit` replaces
    the code of shown sample number n (1, 2, ...) as a reader's edit would."""
    page, outputs = PageSamples(), []
    for sample in find_samples(LESSON_SOURCE.read_text(encoding="utf-8")):
        code = sample.code
        if sample.shows_source and edit and len(outputs) + 1 == edit[0]:
            code = edit[1]
        output = page.run(code, sample.block_id, sample.session)
        if sample.shows_source:
            outputs.append(output.strip())
    return outputs


def test_the_lesson_comes_first_in_the_course(page):
    page.goto("/")
    cards = page.locator(".grid.cards li a")
    expect(cards.first).to_have_text("Working memory")
    navigation = page.get_by_role("navigation", name="Navigation").first
    lessons = navigation.locator("a.md-nav__link[href*='lessons/']")
    expect(lessons.first).to_contain_text("Working memory")


def test_without_javascript_the_page_shows_the_first_stage_and_every_sample_output(open_context, engine):
    page = open_context(java_script_enabled=False).new_page()
    page.goto("/lessons/working-memory/")

    panel = page.get_by_role("region", name=f"Experiment: {engine.panel.title}", exact=True)
    expect(panel.get_by_role("status")).to_have_text(engine.view().status)
    expect(panel.get_by_role("region", name="Memory cards", exact=True).locator("li[data-id]")).to_have_count(10)
    outputs = run_page()
    samples = page.locator(".lk-sample")
    expect(samples).to_have_count(len(outputs))
    for index, output in enumerate(outputs):
        expect(samples.nth(index)).to_contain_text(output)
    expect(page.get_by_role("slider", name="Inspection time", exact=True)).to_have_count(0)


def test_the_cosine_sample_recomputes_another_record_when_edited_in_the_page(lesson_page):
    page = lesson_page.page
    sample_number = next(number for number, output in enumerate(run_page(), 1) if "cosine by hand" in output)
    sample = page.locator(".lk-sample").nth(sample_number - 1)
    page.get_by_role("button", name=f"Edit sample {sample_number}", exact=True).click()
    code = page.get_by_role("textbox", name=f"Code of sample {sample_number}", exact=True)
    edited = code.input_value().replace('lesson().record("M5")', 'lesson().record("M10")').replace("candidate('M5')", "candidate('M10')")
    assert "M10" in edited
    expected = run_page(edit=(sample_number, edited))[sample_number - 1]
    assert "cosine by hand:   0.000000" in expected

    code.fill(edited)
    page.get_by_role("button", name=f"Run sample {sample_number}", exact=True).click()

    expect(sample.locator(".result")).to_have_text(expected)
