"""A reader whose connection asks to save data downloads no Python runtime until they ask for it.

Chromium says whether the connection asks to save data in `navigator.connection.saveData` (the
reader's data saver, or a network the system knows to be metered). The tests turn Chromium's own
data saver on, through its debugging protocol, before the page loads. The page then reads as always, the build's views still answer, and the panel
says why Python is not there and offers to start it; running a sample starts it too, since that is
asking for Python.
"""

from __future__ import annotations

import re

from playwright.sync_api import CDPSession, Page, expect

from lessonkit.registry import panel
from tests.browser.harness import RUNTIME, PanelPage, open_panel, wait_for_engine
from tests.browser.test_every_panel import another_value, set_control, settings

WORKER = re.compile(r".*/assets/lessonkit/worker\.js$")
SNAPSHOT = re.compile(r".*/assets/snapshots/lessonkit\.snapshot\.\d+\.gz$")


def saving_data(open_context) -> tuple[Page, list[str], CDPSession]:
    """A tab whose connection asks to save data, every request for the engine its context makes, and
    the debugging session that turned the data saver on (kept as long as the tab)."""
    context = open_context()
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url) if RUNTIME.match(request.url) or WORKER.match(request.url) else None)
    page = context.new_page()
    devtools = context.new_cdp_session(page)
    devtools.send("Emulation.setDataSaverOverride", {"dataSaverEnabled": True})
    return page, asked, devtools


def test_a_reader_who_only_reads_downloads_no_python_runtime_and_can_start_it(open_context, panel_paths):
    page, asked, _data_saver = saving_data(open_context)
    spec = panel("context-compression")  # finite: the build computed every view
    lesson = open_panel(page, spec.lesson, panel_paths[spec.lesson], engine=False)
    assert page.evaluate("() => navigator.connection.saveData") is True

    expect(lesson.panel).to_have_attribute("data-engine", "held")
    expect(lesson.panel.locator(".lk-engine-note")).to_have_text(spec.words.engine_held)
    lesson.choose("Policy", "Summarize older turns")
    lesson.expect_view(spec.view({**spec.defaults(), "policy": "summarize"}))
    expect(lesson.panel).to_have_attribute("data-answered-by", "build")
    expect(lesson.panel.locator(".lk-answered-by")).to_have_text(spec.words.answered_by_build_held)
    page.wait_for_load_state("networkidle")
    assert asked == [], f"the page downloaded the engine although the connection asks to save data: {asked}"

    lesson.button(spec.words.start_engine).click()
    wait_for_engine(lesson)
    assert [url for url in asked if WORKER.match(url)], "the reader asked for the engine and no worker started"
    assert [url for url in asked if "/assets/pyodide/" in url], asked
    lesson.button(spec.words.capture).click()  # a view with a baseline is never precomputed: Python answers it
    lesson.choose("Policy", "Evict oldest")
    baseline = {**spec.defaults(), "policy": "summarize"}
    lesson.expect_view(spec.view(spec.defaults(), baseline))
    expect(lesson.panel).to_have_attribute("data-answered-by", "live")
    # The engine the reader asked for starts without the build's snapshot, the largest of its files.
    expect(lesson.panel.locator(".lk-answered-by")).to_contain_text(
        "started normally, without the build's snapshot, because the connection asks to save data"
    )
    assert not [url for url in asked if SNAPSHOT.match(url)], asked


def test_a_setting_only_python_can_answer_says_why_it_waits_and_running_a_sample_starts_the_engine(open_context, panel_paths):
    page, asked, _data_saver = saving_data(open_context)
    # Working memory plays its timeline after a change of setting, and the view asserted at the end is
    # the one at its start: with motion reduced it stays there however long the engine takes to start.
    page.emulate_media(reduced_motion="reduce")
    spec = panel("working-memory")  # not finite: the build computed only the views of a first change
    lesson = open_panel(page, spec.lesson, panel_paths[spec.lesson], engine=False)
    expect(lesson.panel).to_have_attribute("data-engine", "held")

    first, second = settings(spec)[:2]
    params = {**spec.defaults(), first.name: another_value(first)}
    set_control(lesson, first, params[first.name])
    lesson.expect_view(spec.view(params))
    params[second.name] = another_value(second)
    set_control(lesson, second, params[second.name])
    expect(lesson.panel.locator(".lk-engine-note")).to_have_text(spec.words.engine_held_pending)
    assert asked == []

    page.get_by_role("button", name="Run sample 1", exact=True).click()
    expect(page.locator(".lk-sample-status").first).to_contain_text("ran in your browser", timeout=60_000)
    wait_for_engine(PanelPage(page, spec))
    lesson.expect_view(spec.view(params))
    assert [url for url in asked if WORKER.match(url)], asked
