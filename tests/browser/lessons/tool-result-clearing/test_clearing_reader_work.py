"""What the reader keeps: a baseline named in the lesson's words and drawn beside the next setting,
the run's export, and links: one that opens the experiment on a setting, one it refuses by name.

(Notes are every lesson's alike and proven so in tests/browser/test_nothing_lost.py and
test_accessibility.py; export at the opening setting and a copied link in test_every_panel.py.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from lessonkit.checks import Refused
from lessonkit.lessons.tool_result_clearing import Clearing
from lessonkit.lessons.tool_result_clearing.panel import PLACEHOLDERS
from lessonkit.panel import Choice, Toggle


def download_json(lesson_page, button: str) -> tuple[str, Any]:
    with lesson_page.page.expect_download() as started:
        lesson_page.button(button).click()
    download = started.value
    assert download.failure() is None, f"{button} failed: {download.failure()}"
    return download.suggested_filename, json.loads(Path(download.path()).read_text(encoding="utf-8"))


def described(engine, params: dict[str, Any]) -> str:
    """A baseline's settings as the panel names them: each control by its label, the moment in requests."""
    words, parts = engine.panel.words, []
    for control in engine.panel.controls:
        value = params[control.name]
        if isinstance(control, Toggle):
            parts.append(f"{control.label} {words.setting_on if value else words.setting_off}")
        elif isinstance(control, Choice):
            parts.append(f"{control.label} {next(option.label for option in control.options if option.value == value)}")
        else:
            parts.append(f"{control.label} {value} {control.unit}")
    time = params[engine.timeline.name]
    return ", ".join([*parts, words.baseline_at.format(time=time, unit=engine.timeline.clock_unit)])


def test_a_captured_baseline_names_its_setting_and_is_drawn_beside_the_next_until_cleared(lesson_page, reader, engine):
    batched = engine.presets["batched"]
    lesson_page.number("Clear at least").fill(str(batched.clear_at_least))
    lesson_page.seek(9)
    captured_params = engine.params_of(batched, time=9)
    captured = engine.view_of(batched, time=9)
    lesson_page.expect_view(captured)
    lesson_page.button("Capture baseline").click()
    expect(lesson_page.button("Replace baseline")).to_be_visible()
    baseline, now = lesson_page.panel.locator(".lk-compare .lk-then"), lesson_page.panel.locator(".lk-compare .lk-now")
    expect(baseline).to_have_text(f"Baseline: {captured.baseline} ({described(engine, captured_params)})")

    # The reader leaves and comes back: the experiment opens on its first setting, and the baseline,
    # kept in storage, is still named and its run drawn beside it.
    lesson_page = reader.come_back(lesson_page)
    baseline, now = lesson_page.panel.locator(".lk-compare .lk-then"), lesson_page.panel.locator(".lk-compare .lk-now")
    lesson_page.expect_view(engine.view(baseline=captured_params))
    expect(baseline).to_have_text(f"Baseline: {captured.baseline} ({described(engine, captured_params)})")
    chart = lesson_page.panel.get_by_role("img", name="Prompt tokens per model request")
    expect(chart.locator("text", has_text=re.compile(r"^Baseline$"))).to_have_count(1)
    expect(chart).to_have_accessible_description(re.compile(r"the captured baseline's prompts as sent are drawn too"))
    expect(now).to_have_text(f"Now: {engine.view().baseline}")

    lesson_page.button("Clear baseline").click()
    expect(lesson_page.button("Capture baseline")).to_be_visible()
    lesson_page.expect_view(engine.view())
    expect(chart.locator("text", has_text=re.compile(r"^Baseline$"))).to_have_count(0)


def test_export_run_json_holds_every_request_of_the_setting_and_the_request_shown_apart(lesson_page, engine):
    setting = Clearing(**{**engine.presets["plan-kept"].fields, "clear_tool_inputs": True})
    lesson_page.checkbox("Exclude update_plan").check()
    lesson_page.checkbox("Clear tool inputs").check()
    run = engine.run(setting)
    shown = run.calls_again[0].number + 1
    lesson_page.seek(shown)
    view = engine.view_of(setting, time=shown)
    lesson_page.expect_view(view)

    name, exported = download_json(lesson_page, "Export run JSON")

    assert name == engine.panel.words.export_file
    # Exactly the engine's: Python in the page and Python here must compute the same run (DESIGN.md).
    assert exported == engine.as_json(view.export)
    assert [request["request"] for request in exported["requests"]] == [request.number for request in run.requests]
    assert [again["request"] for again in exported["calls_again"]] == [request.number for request in run.calls_again]
    assert exported["setting"]["exclude_tools"] == ["update_plan"] and exported["setting"]["clear_tool_inputs"] is True
    assert exported["totals"]["this_setting"]["sent"] == run.totals.sent
    assert exported["inspection"] == {"timeline": shown, "request": shown}
    assert all("inspection" not in request for request in exported["requests"])


def test_a_link_with_a_setting_opens_the_experiment_on_it_control_by_control(lesson_from_a_link, engine):
    setting = Clearing(
        trigger=12000,
        clear_at_least=2000,
        keep=2,
        clear_tool_inputs=True,
        exclude_tools=("run_tests", "search"),
        placeholder=PLACEHOLDERS[1],
    )
    params = engine.params_of(setting, caching=False, time=14)
    # As the panel writes a link: every parameter, the placeholder's brackets and semicolon escaped.
    lesson_page = lesson_from_a_link(
        urlencode({name: str(value).lower() if isinstance(value, bool) else value for name, value in params.items()})
    )

    lesson_page.expect_view(engine.panel.view(params))
    for label, value in (("Trigger", setting.trigger), ("Clear at least", setting.clear_at_least), ("Keep", setting.keep)):
        expect(lesson_page.number(label)).to_have_value(str(value))
    assert lesson_page.chosen("Placeholder") == setting.placeholder
    expect(lesson_page.checkbox("Clear tool inputs")).to_be_checked()
    for tool in engine.tools:
        expect(lesson_page.checkbox(f"Exclude {tool}")).to_be_checked(checked=tool in setting.exclude_tools)
    expect(lesson_page.checkbox("Prompt cache")).not_to_be_checked()
    expect(lesson_page.timeline).to_have_value("14")


def test_a_link_the_experiment_cannot_use_is_refused_by_name_with_what_is_allowed(lesson_from_a_link, engine):
    keep = next(control for control in engine.panel.controls if control.name == "keep")
    too_many = keep.maximum + 1  # more results than the session's history can ever hold
    past_the_end = engine.timeline.end + 1
    lesson_page = lesson_from_a_link(f"keep={too_many}&exclude_update_plan=yes&time={past_the_end}")

    with pytest.raises(Refused) as refused:
        engine.panel.check(engine.params(keep=too_many, exclude_update_plan="yes", time=past_the_end))
    reason = str(refused.value)
    assert [problem.name for problem in refused.value.problems] == ["keep", "exclude_update_plan", "time"]
    expect(lesson_page.panel).to_contain_text(engine.panel.words.link_refused.format(reason=reason))
    # The experiment starts from its defaults, and says so rather than guessing.
    lesson_page.expect_view(engine.view())
    expect(lesson_page.number("Keep")).to_have_value(str(engine.params()["keep"]))
    expect(lesson_page.checkbox("Exclude update_plan")).not_to_be_checked()
    expect(lesson_page.timeline).to_have_value("0")
