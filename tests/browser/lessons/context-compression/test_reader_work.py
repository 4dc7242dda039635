"""What the reader keeps: notes, a baseline to compare against, exports, and a larger workspace."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

NOTE = "At 30 s eviction keeps T3's mention of Mumbai but drops T2, the user's source."


def download_json(lesson_page, button: str) -> tuple[str, Any]:
    with lesson_page.page.expect_download() as started:
        lesson_page.button(button).click()
    download = started.value
    assert download.failure() is None, f"{button} failed: {download.failure()}"
    text = Path(download.path()).read_text(encoding="utf-8")
    try:
        return download.suggested_filename, json.loads(text)
    except json.JSONDecodeError as error:
        raise AssertionError(f"{button} downloaded {download.suggested_filename!r}, which is not JSON: {error}\n{text[:500]}") from None


def baseline_of(text: str) -> re.Pattern[str]:
    """The captured text as the panel labels it, apart from the current view's own text."""
    return re.compile(r"Baseline:?\s*" + re.escape(text))


def strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings_in(item)]
    if isinstance(value, list):
        return [text for item in value for text in strings_in(item)]
    return []


def test_notes_survive_a_reload(lesson_page):
    expect(lesson_page.notes).to_have_value("")
    lesson_page.notes.fill(NOTE)

    lesson_page.reload()

    expect(lesson_page.notes).to_have_value(NOTE)


def test_exported_notes_are_json_holding_what_the_reader_wrote(lesson_page):
    lesson_page.notes.fill(NOTE)

    name, notes = download_json(lesson_page, "Export notes")

    assert name.endswith(".json"), name
    assert NOTE in strings_in(notes), f"the exported notes do not hold the text typed: {notes!r}"


def test_fixture_export_holds_every_arrival_and_labels_the_inspection_apart(lesson_page, engine):
    lesson_page.choose("Policy", "Summarize older turns")
    lesson_page.seek(30)
    view = engine.view(24, "summarize", "preserve", 30)
    lesson_page.expect_view(view)

    name, exported = download_json(lesson_page, "Export fixture JSON")

    assert name == engine.panel.words.export_file
    arrivals = exported["arrivals"]
    assert [arrival["arrival"] for arrival in arrivals] == list(range(9)), "every computed arrival, from arrival 0"
    assert exported["inspection"] == {"time_s": 30, "arrival": 4}
    assert all("inspection" not in arrival for arrival in arrivals)
    for key, value in engine.as_json(view.export).items():
        assert exported[key] == value, f"exported {key!r} differs from the engine's"


def test_fixture_export_is_the_whole_run_even_at_time_zero(lesson_page, engine):
    view = engine.view()

    _, exported = download_json(lesson_page, "Export fixture JSON")

    assert len(exported["arrivals"]) == 9
    assert exported["inspection"] == {"time_s": 0, "arrival": 0}
    assert exported["arrivals"] == engine.as_json(view.export)["arrivals"]


def test_a_captured_baseline_stays_beside_the_current_status_until_cleared(lesson_page, engine):
    lesson_page.seek(30)
    captured = engine.view(24, "evict", "preserve", 30)
    lesson_page.expect_view(captured)
    lesson_page.button("Capture baseline").click()
    expect(lesson_page.button("Replace baseline")).to_be_visible()
    expect(lesson_page.button("Capture baseline")).to_have_count(0)

    lesson_page.choose("Policy", "Summarize older turns")
    lesson_page.seek(60)
    current = engine.view(24, "summarize", "preserve", 60)
    lesson_page.expect_view(current)
    expect(lesson_page.panel).to_contain_text(baseline_of(captured.baseline))

    lesson_page.reload()
    expect(lesson_page.panel).to_contain_text(baseline_of(captured.baseline))
    expect(lesson_page.button("Replace baseline")).to_be_visible()

    lesson_page.choose("Policy", "Summarize older turns")
    lesson_page.seek(60)
    lesson_page.expect_view(current)
    lesson_page.button("Replace baseline").click()
    expect(lesson_page.panel).to_contain_text(baseline_of(current.baseline))
    expect(lesson_page.panel).not_to_contain_text(captured.baseline)

    lesson_page.button("Clear baseline").click()
    expect(lesson_page.panel).not_to_contain_text(baseline_of(current.baseline))
    expect(lesson_page.button("Capture baseline")).to_be_visible()
    lesson_page.reload()
    expect(lesson_page.panel).not_to_contain_text(baseline_of(current.baseline))
    expect(lesson_page.button("Capture baseline")).to_be_visible()


def test_expand_experiment_enlarges_the_workspace_and_exit_restores_it(lesson_page, engine):
    lesson_page.seek(30)
    view = engine.view(time=30)
    lesson_page.expect_view(view)

    lesson_page.button("Expand experiment").click()
    expect(lesson_page.button("Exit full screen")).to_be_visible()
    expect(lesson_page.button("Expand experiment")).to_have_count(0)
    lesson_page.expect_view(view)

    lesson_page.button("Exit full screen").click()
    expect(lesson_page.button("Expand experiment")).to_be_visible()
    expect(lesson_page.button("Exit full screen")).to_have_count(0)
    lesson_page.expect_view(view)
