"""Runnable samples in the page, and the page read with JavaScript off.

Expected outputs come from running the same code in the test process through the very runner
the build and the browser worker use (lessonkit.samples), under the build's block ids and sessions.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from lessonkit.authoring.samples import find_samples
from lessonkit.samples import PageSamples, module_name

LESSON_SOURCE = Path(__file__).resolve().parents[4] / "docs" / "lessons" / "context-compression.md"


def all_samples() -> list:
    return find_samples(LESSON_SOURCE.read_text(encoding="utf-8"))


def shown_samples() -> list:
    """The samples that show their source: the ones a reader can edit and run (sample 1, 2, ...)."""
    return [sample for sample in all_samples() if sample.shows_source]


def run_page(until: int | None = None) -> tuple[PageSamples, list[str]]:
    """The lesson's samples run in page order as the build ran them (up to shown sample `until`,
    excluded): the runner, with their sessions, and the output of every shown sample."""
    page, outputs = PageSamples(), []
    for sample in all_samples():
        if until is not None and sample.shows_source and len(outputs) == until:
            break
        # Generated content runs too: a later sample may rely on what it left in its session.
        output = page.run(sample.code, sample.block_id, sample.session)
        if sample.shows_source:
            outputs.append(output.strip())
    return page, outputs


def build_outputs() -> list[str]:
    return run_page()[1]


def run_as_sample(number: int, code: str) -> str:
    """What `code` prints when a reader runs it as shown sample `number` (1, 2, ...) in a fresh page."""
    page, _ = run_page(until=number - 1)
    sample = shown_samples()[number - 1]
    return page.run(code, sample.block_id, sample.session).strip()


def test_an_edited_sample_runs_in_the_page_and_its_output_replaces_the_old_one(lesson_page):
    page = lesson_page.page
    sample = page.locator(".lk-sample").first
    built_output = build_outputs()[0]
    expect(sample).to_contain_text(built_output)

    # The lesson's highlighted code shows first; the reader opens the editor to change it.
    page.get_by_role("button", name="Edit sample 1", exact=True).click()
    code = page.get_by_role("textbox", name="Code of sample 1", exact=True)
    expect(sample.filter(has=code)).to_have_count(1)
    assert code.input_value().strip() == shown_samples()[0].code.strip()

    edited = 'from lessonkit.lessons.context_compression import replay\nprint(replay(24, "summarize").final.retained)\n'
    expected = run_as_sample(1, edited)
    assert expected and expected not in built_output
    code.fill(edited)
    page.get_by_role("button", name="Run sample 1", exact=True).click()
    expect(sample.locator(".result")).to_have_text(expected)
    expect(sample).not_to_contain_text(built_output)

    code.fill('raise ValueError("no region was ever chosen")\n')
    page.get_by_role("button", name="Run sample 1", exact=True).click()
    # The traceback names the sample's block and shows its line, as the build would.
    frame = f'File "{shown_samples()[0].block_id}", line 1, in <module>\n    raise ValueError("no region was ever chosen")'
    expect(sample.locator(".result")).to_contain_text(frame)
    expect(sample.locator(".result")).to_contain_text("ValueError: no region was ever chosen")
    expect(sample).not_to_contain_text(expected)


def test_an_edited_sample_printing_its_name_prints_the_build_name_and_sees_its_session(lesson_page):
    page = lesson_page.page
    second = shown_samples()[1]
    sample = page.locator(".lk-sample").nth(1)
    # The page knows the block id the build ran this sample under, hence its __name__.
    expect(sample).to_have_attribute("data-block-id", second.block_id)
    expect(sample).to_have_attribute("data-session", second.session)

    page.get_by_role("button", name="Edit sample 2", exact=True).click()
    code = page.get_by_role("textbox", name="Code of sample 2", exact=True)
    edited = "print(__name__)\nprint(moment.tokens)\n"  # `moment` comes from sample 1, in the same session
    expected = run_as_sample(2, edited)
    assert expected.split("\n")[0] == module_name(second.block_id)
    code.fill(edited)
    page.get_by_role("button", name="Run sample 2", exact=True).click()
    expect(sample.locator(".result")).to_have_text(expected)


def test_without_javascript_the_page_shows_the_status_and_every_sample_output(open_context, engine):
    page = open_context(java_script_enabled=False).new_page()
    page.goto("/lessons/context-compression/")

    panel = page.get_by_role("region", name=f"Experiment: {engine.panel.title}", exact=True)
    expect(panel.get_by_role("status")).to_have_text(engine.view().status)
    expect(panel).to_contain_text("Retained messages")
    samples = page.locator(".lk-sample")
    outputs = build_outputs()
    expect(samples).to_have_count(len(outputs))
    for index, output in enumerate(outputs):
        expect(samples.nth(index)).to_contain_text(output)
    # Nothing interactive pretends to work: the controls come with JavaScript.
    expect(page.get_by_role("slider", name="Timeline", exact=True)).to_have_count(0)
