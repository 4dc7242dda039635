"""Nobody left out: every panel works by keyboard alone, announces what changes once, and never plays
by itself for a reader who asked for reduced motion. Parametrized over every panel the site holds.
(Every page's axe-core audit and reflow are read from the session's tour, in
test_every_page_for_everyone.py.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from lessonkit.panel import Choice, Text, Toggle
from tests.browser.test_every_panel import ROLES, another_value, set_control, settings
from tests.browser.tour import let_frames_pass

# The keyboard alone, from the top of the page to an exported result.


# The target is marked once, and each Tab is followed by one look at the focused element: finding
# the target again by role and name at every press would cost a search of the whole page each time.
MARK = "data-lk-tab-target"


def tab_to(page: Page, target: Locator, limit: int = 150) -> None:
    target.evaluate("(element, mark) => element.setAttribute(mark, '')", MARK)
    try:
        for _ in range(limit):
            if page.evaluate("(mark) => Boolean(document.activeElement?.hasAttribute(mark))", MARK):
                return
            page.keyboard.press("Tab")
    finally:
        page.evaluate("(mark) => document.querySelectorAll(`[${mark}]`).forEach((element) => element.removeAttribute(mark))", MARK)
    raise AssertionError(f"Tab never reached {target}")


def key_towards(control: Any, current: Any, wanted: Any) -> tuple[str, int]:
    """The key and how many presses move `control` from `current` to `wanted`, as a reader would."""
    if isinstance(control, Choice):
        values = [option.value for option in control.options]
        steps = values.index(wanted) - values.index(current)
        return ("ArrowDown" if steps > 0 else "ArrowUp"), abs(steps)
    if isinstance(control, Toggle):
        return "Space", int(current != wanted)
    steps = round((wanted - current) / control.step)
    up = "ArrowUp" if control.kind == "number" else "ArrowRight"
    down = "ArrowDown" if control.kind == "number" else "ArrowLeft"
    return (up if steps > 0 else down), abs(steps)


def download(page: Page, button: Locator) -> Any:
    tab_to(page, button)
    with page.expect_download() as started:
        page.keyboard.press("Enter")
    return json.loads(Path(started.value.path()).read_text(encoding="utf-8"))


def test_each_panel_is_driven_end_to_end_by_keyboard_alone(reader, panel_on_page):
    spec, path = panel_on_page
    panel_page = reader.visit(spec.lesson, path, reduced_motion=True)
    page = panel_page.page
    page.locator("body").focus()
    params = spec.defaults()
    for control in spec.controls:
        field = panel_page.control(ROLES[control.kind], control.label)
        if isinstance(control, Text):
            tab_to(page, field)
            page.keyboard.type(f"My {control.label.lower()}: it changes.")
            continue
        if not field.is_enabled():  # a field its toggle leaves off is skipped by Tab, as it should be
            continue
        tab_to(page, field)
        key, presses = key_towards(control, params[control.name], another_value(control))
        for _ in range(presses):
            page.keyboard.press(key)
        params[control.name] = another_value(control)
        panel_page.expect_view(spec.view(params))
    if spec.timeline:
        tab_to(page, panel_page.button(spec.playback.play))
        page.keyboard.press("Enter")  # reduced motion: Play steps to the next mark after 0 and stays
        params[spec.timeline.name] = next(mark.at for mark in spec.timeline.marks if mark.at > 0)
        panel_page.expect_view(spec.view(params))
        tab_to(page, panel_page.timeline)
        page.keyboard.press("End")
        params[spec.timeline.name] = spec.timeline.end
        panel_page.expect_view(spec.view(params))
    tab_to(page, panel_page.button(spec.words.capture))
    page.keyboard.press("Enter")
    expect(panel_page.button(spec.words.replace)).to_be_focused()
    exported = download(page, panel_page.button(spec.words.export))
    assert exported == json.loads(json.dumps(spec.view(params, params).export))
    tab_to(page, panel_page.notes)
    page.keyboard.type("Read by keyboard alone.")
    notes = download(page, panel_page.button(spec.words.export_notes))
    assert notes["notes"] == "Read by keyboard alone."


# Live regions: each change is said once, and the clock's ticks are never said.

RECORD_ANNOUNCEMENTS = """(panel) => {
    const regions = [...panel.querySelectorAll('[role="status"], [role="alert"], [aria-live]')];
    window.lkSaid = regions.map(() => []);
    window.lkListener = new MutationObserver((records) => {
        const touched = new Set(records.map((record) => regions.findIndex((region) => region.contains(record.target))));
        for (const index of touched) if (index >= 0) window.lkSaid[index].push(regions[index].textContent);
    });
    for (const region of regions) window.lkListener.observe(region, { childList: true, subtree: true, characterData: true });
}"""


def test_status_changes_are_announced_once_and_not_at_every_tick_of_playback(reader, panel_on_page):
    spec, path = panel_on_page
    if not spec.timeline:
        pytest.skip(f"{spec.lesson} has no playback")
    # Every write fails, as a full storage's would: a message about the notes then stays on screen
    # while the reader plays, and must not be said again at every view.
    panel_page = reader.visit(spec.lesson, path, storage="full")
    page = panel_page.page
    panel_page.notes.fill("Kept on screen only.")
    expect(panel_page.panel).to_contain_text("could not be saved in this browser")
    panel_page.choose_fastest_speed()
    # The playback is heard in real time from the third mark before the end: two marks and the end
    # to pass, and every tick between them (playing a whole lesson through is its scenarios' test).
    start = spec.timeline.marks[-3].at if len(spec.timeline.marks) >= 3 else 0
    panel_page.seek(start)
    panel_page.expect_view(spec.view({**spec.defaults(), spec.timeline.name: start}))
    passed = [mark for mark in spec.timeline.marks if mark.at > start]
    panel_page.panel.evaluate(RECORD_ANNOUNCEMENTS)
    # A timeline moved from its start plays on from there: its button says Resume.
    panel_page.button(spec.playback.resume if start else spec.playback.play).click()
    expect(panel_page.button(spec.playback.replay)).to_be_visible(timeout=60_000)
    panel_page.expect_view(spec.view({**spec.defaults(), spec.timeline.name: spec.timeline.end}))
    said = page.evaluate("() => { window.lkListener.disconnect(); return window.lkSaid; }")
    status = said[0]
    assert len(status) <= len(passed), f"the status was rewritten {len(status)} times for {len(passed)} marks passed"
    for texts in said:
        repeats = [text for before, text in zip(texts, texts[1:], strict=False) if before == text]
        assert not repeats, f"a live region said the same thing again: {repeats[0]!r}"


# Reduced motion: nothing plays by itself.


def test_with_reduced_motion_nothing_plays_by_itself(reader, panel_on_page):
    spec, path = panel_on_page
    if not spec.timeline:
        pytest.skip(f"{spec.lesson} has no playback")
    panel_page = reader.visit(spec.lesson, path, reduced_motion=True)
    page = panel_page.page
    expect(panel_page.panel).to_contain_text(spec.playback.stepping_hint)
    control = settings(spec)[0]
    set_control(panel_page, control, another_value(control))  # some lessons play again on any change
    let_frames_pass(page, 30)
    expect(panel_page.timeline).to_have_value("0")
    panel_page.button(spec.playback.play).click()
    first = next(mark.at for mark in spec.timeline.marks if mark.at > 0)  # a mark at 0 is where it already is
    expect(panel_page.timeline).to_have_value(f"{first:g}")
    expect(panel_page.button(spec.playback.pause)).to_have_count(0)
    let_frames_pass(page, 30)
    expect(panel_page.timeline).to_have_value(f"{first:g}")
