"""Runnable samples in the page, and the page read with JavaScript off.

Expected outputs come from running the same code in the test process through the very function
the browser worker calls (lessonkit.runtime.run), with the same session namespaces as the build.
"""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import expect

from lessonkit import runtime
from lessonkit.authoring.samples import find_samples

LESSON_SOURCE = Path(__file__).resolve().parents[3] / "docs" / "lessons" / "context-compression.md"


def run_here(code: str, session: str | None = None) -> dict:
    return json.loads(runtime.run(code, session))


def shown_samples() -> list:
    """The samples that show their source: the ones a reader can edit and run (sample 1, 2, ...)."""
    return [sample for sample in find_samples(LESSON_SOURCE.read_text(encoding="utf-8")) if "source" in sample.options]


def build_outputs() -> list[str]:
    """The output of every shown sample, run in page order with shared sessions, as the build ran them."""
    outputs = []
    for sample in find_samples(LESSON_SOURCE.read_text(encoding="utf-8")):
        # Generated content runs too: a later sample may rely on what it left in its session.
        ran = run_here(sample.code, f"browser-tests:{sample.session}" if sample.session else None)
        assert ran["error"] is None, f"sample at line {sample.line} fails in the test process:\n{ran['error']}"
        if "source" in sample.options:
            outputs.append(ran["output"].strip())
    return outputs


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

    edited = 'from lessonkit.compression import replay\nprint(replay(24, "summarize").final.retained)\n'
    expected = run_here(edited)["output"].strip()
    assert expected and expected not in built_output
    code.fill(edited)
    page.get_by_role("button", name="Run sample 1", exact=True).click()
    expect(sample.locator(".result")).to_have_text(expected)
    expect(sample).not_to_contain_text(built_output)

    code.fill('raise ValueError("no region was ever chosen")\n')
    page.get_by_role("button", name="Run sample 1", exact=True).click()
    expect(sample.locator(".result")).to_contain_text("ValueError: no region was ever chosen")
    expect(sample).not_to_contain_text(expected)


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
