"""What the reader keeps: a baseline drawn beside the next setting, the run's export, a link that
reopens a refused setting with its refusal, and a larger workspace."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect


def download_json(lesson_page, button: str) -> tuple[str, Any]:
    with lesson_page.page.expect_download() as started:
        lesson_page.button(button).click()
    download = started.value
    assert download.failure() is None, f"{button} failed: {download.failure()}"
    return download.suggested_filename, json.loads(Path(download.path()).read_text(encoding="utf-8"))


def test_a_captured_baseline_is_drawn_beside_the_next_setting(lesson_page, engine):
    captured = engine.view()
    lesson_page.expect_view(captured)
    lesson_page.button("Capture baseline").click()
    expect(lesson_page.button("Replace baseline")).to_be_visible()

    lesson_page.choose("Summarizer", "Rule-based (Terse)")
    lesson_page.expect_view(engine.view(summarizer="terse"))
    expect(lesson_page.panel).to_contain_text(re.compile(r"Baseline:?\s*" + re.escape(captured.baseline)))
    chart = lesson_page.panel.get_by_role("img", name="Prompt tokens per model request")
    expect(chart.locator("text", has_text=re.compile(r"^Baseline$"))).to_have_count(1)
    expect(chart.locator("text", has_text=re.compile(r"^With compaction$"))).to_have_count(1)

    lesson_page.button("Clear baseline").click()
    expect(chart.locator("text", has_text=re.compile(r"^Baseline$"))).to_have_count(0)


def test_export_run_json_holds_the_whole_run_and_the_request_shown_apart(lesson_page, engine):
    lesson_page.seek(16)
    view = engine.view(time=16)
    lesson_page.expect_view(view)

    name, exported = download_json(lesson_page, "Export run JSON")

    assert name == "context-compaction-run.json"
    assert exported == engine.as_json(view.export)
    assert [request["request"] for request in exported["requests"]] == list(range(1, 25))
    assert exported["inspection"] == {"time_s": 16, "request": 16}


def test_a_link_to_a_refused_setting_reopens_it_with_its_refusal(lesson_from_a_link, engine):
    lesson_page = lesson_from_a_link("set_overlap=true&overlap=0&time=5")

    view = engine.view(set_overlap=True, overlap=0, time=5)
    lesson_page.expect_view(view)
    expect(lesson_page.alert).to_have_text(view.refusal)
    assert lesson_page.alert.inner_text() == view.refusal
    expect(lesson_page.written("overlap")).to_be_checked()
    expect(lesson_page.value("overlap")).to_have_value("0")


def test_expand_experiment_enlarges_the_workspace_and_exit_restores_it(lesson_page, engine):
    lesson_page.seek(10)
    view = engine.view(time=10)
    lesson_page.expect_view(view)

    lesson_page.button("Expand experiment").click()
    expect(lesson_page.button("Exit full screen")).to_be_visible()
    lesson_page.expect_view(view)

    lesson_page.button("Exit full screen").click()
    expect(lesson_page.button("Expand experiment")).to_be_visible()
    lesson_page.expect_view(view)
