"""What the reader keeps and compares: notes (and a prediction from before the exercises), a baseline, the exports, a larger
workspace, and wide content that scrolls sideways on a phone, by keyboard too."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.harness import assert_same_engine_data

PREDICTION = "M5 fits at nine words; at eight the tray is empty and M10 cannot take its place."
NOTE = "Budget 8: M5 skipped (9 words, 8 left); M10 excluded, no shared term. Coverage 0 of 1."
PHONE = {"width": 390, "height": 844}


def download_json(lesson_page, button: str) -> tuple[str, Any]:
    with lesson_page.page.expect_download() as started:
        lesson_page.button(button).click()
    download = started.value
    assert download.failure() is None, f"{button} failed: {download.failure()}"
    return download.suggested_filename, json.loads(Path(download.path()).read_text(encoding="utf-8"))


def baseline_of(text: str) -> re.Pattern[str]:
    return re.compile(r"Baseline:?\s*" + re.escape(text))


def test_a_prediction_written_before_the_exercises_is_kept_said_and_exported_with_the_notes(lesson_page):
    # The lesson once had a free Prediction field; its exercises ask instead. What a reader wrote
    # there is still theirs: the panel says it is kept, and Export notes carries it.
    lesson_page.page.evaluate("(text) => localStorage.setItem('lessonkit:working-memory:text:prediction', text)", PREDICTION)
    lesson_page.notes.fill(NOTE)

    lesson_page.reload()

    expect(lesson_page.panel).to_contain_text("What you wrote in prediction on an earlier visit is still kept in this browser")

    expect(lesson_page.notes).to_have_value(NOTE)
    name, exported = download_json(lesson_page, "Export notes")
    assert name == "working-memory-notes.json"
    assert exported["notes"] == NOTE
    assert exported["retired_fields"] == {"prediction": PREDICTION}


def test_the_retrieval_export_holds_the_exact_values_the_table_rounds(lesson_page, engine):
    lesson_page.set(**engine.walkthrough, word_budget=8)
    lesson_page.seek(20)
    view = engine.view(20, **engine.walkthrough, word_budget=8)
    lesson_page.expect_view(view)

    name, exported = download_json(lesson_page, "Export retrieval JSON")

    assert name == engine.panel.words.export_file
    expected = engine.as_json(view.export)
    assert_same_engine_data(exported, expected, "export")
    m5 = next(record for record in exported["records"] if record["id"] == "M5")
    exact = engine.retrieve(**engine.walkthrough, word_budget=8).candidate("M5").cosine
    assert math.isclose(m5["cosine"], exact, rel_tol=1e-12)
    assert lesson_page.cells("M5")["Cosine"] == f"{exact:.3f}" != str(m5["cosine"])
    assert exported["inspection"]["stage"] == 3 and exported["selected"] == []


def test_a_baseline_is_captured_compared_replaced_and_cleared(lesson_page, engine):
    nine = {**engine.walkthrough, "word_budget": 9}
    eight = {**engine.walkthrough, "word_budget": 8}
    lesson_page.set(**nine)
    lesson_page.inspect_final_stage()
    captured = engine.view(engine.final, **nine)
    lesson_page.expect_view(captured)

    lesson_page.button("Capture baseline").click()
    expect(lesson_page.button("Replace baseline")).to_be_visible()
    expect(lesson_page.panel).to_contain_text(baseline_of(captured.baseline))

    lesson_page.set(word_budget=8)
    lesson_page.inspect_final_stage()
    current = engine.view(engine.final, baseline=engine.params(engine.final, **nine), **eight)
    lesson_page.expect_view(current)
    expect(lesson_page.selected_context).to_contain_text("Baseline selected")
    expect(lesson_page.selected_context.locator("dd").filter(has_text=re.compile("^M5$"))).to_have_count(1)
    assert lesson_page.tray_ids() == []

    lesson_page.button("Replace baseline").click()
    expect(lesson_page.panel).to_contain_text(baseline_of(current.baseline))
    expect(lesson_page.panel).not_to_contain_text(captured.baseline)

    lesson_page.button("Clear baseline").click()
    expect(lesson_page.button("Capture baseline")).to_be_visible()
    expect(lesson_page.selected_context).not_to_contain_text("Baseline selected")


def test_expand_experiment_and_exit_full_screen(lesson_page, engine):
    lesson_page.button("Next stage").click()
    view = engine.view(10)
    lesson_page.expect_view(view)

    lesson_page.button("Expand experiment").click()
    expect(lesson_page.button("Exit full screen")).to_be_visible()
    lesson_page.expect_view(view)

    lesson_page.button("Exit full screen").click()
    expect(lesson_page.button("Expand experiment")).to_be_visible()
    lesson_page.expect_view(view)


def _scrolls_sideways_by_keyboard(region) -> None:
    assert region.evaluate("element => element.scrollWidth > element.clientWidth + 20"), "nothing to scroll on a phone"
    assert region.get_attribute("tabindex") == "0"
    region.focus()
    expect(region).to_be_focused()
    start = region.evaluate("element => element.scrollLeft")
    for _ in range(4):
        region.press("ArrowRight")
    # Scrolling may be smooth: wait until it has moved rather than reading it at once.
    region.page.wait_for_function("([element, start]) => element.scrollLeft > start", arg=[region.element_handle(), start])


def test_on_a_phone_the_cards_the_diagram_and_the_table_scroll_sideways_by_keyboard(open_context, lesson_opener, engine):
    page = open_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    lesson_page = lesson_opener(page)
    lesson_page.inspect_final_stage()
    # The view is redrawn when it arrives: scroll the one that stays.
    lesson_page.expect_view(engine.view(engine.final))

    for region in (lesson_page.cards, lesson_page.diagram, lesson_page.table):
        _scrolls_sideways_by_keyboard(region)
    # The diagram keeps its labels readable: it is not shrunk to the phone's width.
    width = lesson_page.diagram.locator("svg").evaluate("svg => svg.getBoundingClientRect().width")
    assert width > PHONE["width"]
