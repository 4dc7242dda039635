"""The page's samples and the page read with JavaScript off.

The source's Terse, written against google-adk, is shown with what the build printed but offers no
editor: the browser's Python has no google-adk. The engine's rule-based summarizer beside it runs
in the page. Expected outputs come from the very runner the build and the worker use.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from lessonkit.authoring.samples import find_samples
from lessonkit.samples import PageSamples

LESSON_SOURCE = Path(__file__).resolve().parents[4] / "docs" / "lessons" / "context-compaction.md"
SAMPLES = find_samples(LESSON_SOURCE.read_text(encoding="utf-8"))
EDITABLE = [sample for sample in SAMPLES if sample.editable]
BUILD_ONLY = [sample for sample in SAMPLES if sample.shows_source and not sample.editable]


def output_of(sample, code: str | None = None) -> str:
    """What `sample` prints (with `code` in its place) after the earlier samples of its session have run.

    The google-adk samples are not run here: they run in the build and under Sybil, and this process
    already has an event loop running (Playwright's), which their asyncio.run refuses.
    """
    page = PageSamples()
    for earlier in SAMPLES[: SAMPLES.index(sample)]:
        if sample.session and earlier.session == sample.session:
            page.run(earlier.code, earlier.block_id, earlier.session)
    return page.run(sample.code if code is None else code, sample.block_id, sample.session).strip()


def built_output(page, marker: str) -> str:
    """What the build printed for the sample whose code holds `marker`: the block right after its code."""
    return page.locator(".highlight", has_text=marker).locator("xpath=following-sibling::*[1]").inner_text().strip()


def test_the_adk_samples_show_their_code_and_output_but_offer_no_editor(lesson_page):
    page = lesson_page.page
    assert len(BUILD_ONLY) == 2
    expect(page.locator(".lk-sample")).to_have_count(len(EDITABLE))
    expect(page.get_by_role("button", name="Edit sample", exact=False)).to_have_count(len(EDITABLE))
    for marker in ("class Terse(BaseEventsSummarizer):", "def summarize_first_turns(last_turn):"):
        shown = page.locator(".highlight", has_text=marker)
        expect(shown).to_have_count(1)
        expect(shown.locator("xpath=ancestor::div[contains(@class, 'lk-sample')]")).to_have_count(0)
    assert built_output(page, "def summarize_first_turns(last_turn):").startswith("user: Hi, I was charged twice")


def test_the_rule_based_equivalent_runs_and_is_edited_in_the_page(lesson_page):
    page = lesson_page.page
    equivalent = next(sample for sample in EDITABLE if "Terse().summarize" in sample.code)
    number = EDITABLE.index(equivalent) + 1
    wrapper = page.locator(".lk-sample").nth(number - 1)
    built = output_of(equivalent)
    # The same lines the source's Terse printed from ADK events at build time, then the engine's weight of them.
    assert built.split("\n")[:-1] == built_output(page, "def summarize_first_turns(last_turn):").split("\n")
    expect(wrapper).to_contain_text(built.split("\n")[-1])

    page.get_by_role("button", name=f"Edit sample {number}", exact=True).click()
    code = page.get_by_role("textbox", name=f"Code of sample {number}", exact=True)
    edited = equivalent.code.replace("event.turn <= 2", "event.turn <= 1")
    expected = output_of(equivalent, edited)
    assert expected != built
    code.fill(edited)
    page.get_by_role("button", name=f"Run sample {number}", exact=True).click()
    expect(wrapper.locator(".result")).to_have_text(expected)


def test_without_javascript_the_page_shows_the_status_and_every_sample_output(open_context, engine):
    page = open_context(java_script_enabled=False).new_page()
    page.goto("/lessons/context-compaction/")

    panel = page.get_by_role("region", name=f"Experiment: {engine.panel.title}", exact=True)
    expect(panel.get_by_role("status")).to_have_text(engine.view().status)
    expect(panel).to_contain_text("compaction=Compaction(after_tokens=3000, keep_recent_events=6))")
    article = page.locator("article")
    for sample in EDITABLE:
        for line in output_of(sample).split("\n")[:3]:
            expect(article).to_contain_text(line.strip())
    expect(article).to_contain_text("support_bot: You're right: invoice INV-3310 was charged on the 1st")  # the ADK Terse's output
    expect(page.get_by_role("checkbox", name="after_tokens", exact=True)).to_have_count(0)
