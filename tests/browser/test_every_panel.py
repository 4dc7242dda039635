"""Promises every panel on the site keeps, whichever lesson it belongs to.

Each test runs once per panel the site declares (`lessonkit.registry.panel_ids()`), on the page the build
placed it on. Controls are found from the panel's own spec, by role and accessible name; what the
page must show comes from the panel's engine in this process. Lesson scenarios live in each
lesson's folder; these are the platform's promises.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from lessonkit.panel import Choice, Number, Panel, Range, Text, Toggle
from lessonkit.registry import panel, panel_ids
from tests.browser.harness import PanelPage, as_json, assert_same_engine_data, wait_for_engine

ROLES = {"choice": "combobox", "toggle": "checkbox", "number": "spinbutton", "range": "slider", "text": "textbox"}


@pytest.fixture(params=panel_ids())
def declared(request: pytest.FixtureRequest, panel_paths: dict[str, str]) -> tuple[Panel, str]:
    lesson = request.param
    assert lesson in panel_paths, f"the panel {lesson!r} is registered but no page of the built site holds it"
    return panel(lesson), panel_paths[lesson]


def another_value(control: Any) -> Any:
    """A valid value other than the default, as a reader would pick it."""
    if isinstance(control, Choice):
        return next(option.value for option in reversed(control.options) if option.value != control.default)
    if isinstance(control, Toggle):
        return not control.default
    step_up = control.default + control.step
    return control.check(step_up if step_up <= control.maximum else control.default - control.step)


def set_control(panel_page: PanelPage, control: Any, value: Any) -> None:
    locator = panel_page.control(ROLES[control.kind], control.label)
    if isinstance(control, Choice):
        locator.select_option(label=next(option.label for option in control.options if option.value == value))
    elif isinstance(control, Toggle):
        locator.set_checked(value)
    else:
        locator.fill(f"{value:g}")


def shown_value(panel_page: PanelPage, control: Any) -> Any:
    locator = panel_page.control(ROLES[control.kind], control.label)
    if isinstance(control, Choice):
        label = locator.evaluate("select => select.selectedOptions[0].label")
        return next(option.value for option in control.options if option.label == label)
    if isinstance(control, Toggle):
        return locator.is_checked()
    return control.check(float(locator.input_value()))


def settings(spec: Panel) -> list[Any]:
    """The panel's settings in an order a reader can change every one of them in: what a toggle
    enables is changed while the toggle is on, so before a toggle that starts on is switched off."""
    controls = [control for control in spec.controls if not isinstance(control, Text)]
    ordered: list[Any] = []
    for control in controls:
        if control in ordered:
            continue
        enabled = [other for other in controls if other.name in getattr(control, "enables", ()) and other not in ordered]
        ordered += [*enabled, control] if isinstance(control, Toggle) and control.default else [control, *enabled]
    return ordered


def changed_params(spec: Panel) -> dict[str, Any]:
    return {**spec.defaults(), **{control.name: another_value(control) for control in settings(spec)}}


def test_every_control_is_found_by_its_name_and_reached_by_keyboard(reader, declared):
    spec, path = declared
    panel_page = reader.visit(spec.lesson, path)
    page = panel_page.page
    targets = [panel_page.control(ROLES[control.kind], control.label) for control in spec.controls]
    if spec.timeline:
        playback = spec.playback
        targets += [
            panel_page.timeline,
            panel_page.button(playback.play),
            panel_page.button(playback.restart),
            panel_page.combobox(playback.speed),
        ]
        if playback.next:
            targets.append(panel_page.button(playback.next))
    words = spec.words
    targets += [panel_page.button(name) for name in (words.capture, words.export, words.copy_link, words.expand, words.export_notes)]
    targets.append(panel_page.notes)
    for index, target in enumerate(targets):
        expect(target).to_have_count(1)
        target.evaluate("(element, index) => element.dataset.lkTarget = String(index)", index)
    enabled = {index for index, target in enumerate(targets) if target.is_enabled()}

    targets[0].focus()
    reached = set()
    for _ in range(len(targets) * 3):
        reached.add(page.evaluate("() => document.activeElement && document.activeElement.dataset.lkTarget"))
        page.keyboard.press("Tab")
    missed = [targets[index] for index in sorted(enabled) if str(index) not in reached]
    assert not missed, (
        f"not reached by Tab: {[m.evaluate('e => e.labels && e.labels[0] ? e.labels[0].textContent : e.textContent') for m in missed]}"
    )


def test_changing_each_control_shows_the_engines_view_of_the_new_settings(reader, declared):
    spec, path = declared
    panel_page = reader.visit(spec.lesson, path, reduced_motion=True)  # nothing plays by itself: the moment stays at 0
    params = spec.defaults()
    statuses = {spec.view(params).status}
    for control in settings(spec):
        params[control.name] = another_value(control)
        set_control(panel_page, control, params[control.name])
        expected = spec.view(params)  # a change rewinds to the start
        panel_page.expect_view(expected)
        statuses.add(expected.status)
        if spec.timeline:
            # A panel's first moment may not depend on its settings (all records are stored before
            # any filter runs), so the settings' effect is read at the last mark too.
            last = spec.timeline.marks[-1].at
            panel_page.seek(last)
            at_last = spec.view({**params, spec.timeline.name: last})
            panel_page.expect_view(at_last)
            statuses.add(at_last.status)
    assert len(statuses) > 1, "no change of any control changed the status"


def test_the_page_reads_with_javascript_off(open_context, declared):
    spec, path = declared
    # A context of its own: JavaScript is on or off for a whole context, and the reader's has it on.
    page = open_context(java_script_enabled=False).new_page()
    page.goto(path)
    region = page.get_by_role("region", name=f"Experiment: {spec.title}", exact=True)
    start = spec.view(spec.defaults())
    expect(region.get_by_role("status")).to_have_text(start.status)
    expect(region.locator(".lk-view")).not_to_be_empty()
    expect(region).to_contain_text(spec.words.static_note)
    # Nothing interactive pretends to work: the controls come with JavaScript.
    for control in spec.controls:
        expect(region.get_by_role(ROLES[control.kind], name=control.label, exact=True)).to_have_count(0)


def test_export_downloads_the_engines_export_of_what_is_shown(reader, declared):
    spec, path = declared
    panel_page = reader.visit(spec.lesson, path)
    with panel_page.page.expect_download() as started:
        panel_page.button(spec.words.export).click()
    download = started.value
    assert download.suggested_filename == spec.words.export_file
    exported = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    # Python in the page computed it: a view the page shows comes without its export.
    assert_same_engine_data(exported, as_json(spec.view(spec.defaults()).export), "export")


def test_a_copied_link_reopens_the_experiment_in_exactly_that_state(reader, declared):
    spec, path = declared
    panel_page = reader.visit(spec.lesson, path, reduced_motion=True)
    params = changed_params(spec)
    for control in settings(spec):
        set_control(panel_page, control, params[control.name])
    if spec.timeline:
        params[spec.timeline.name] = spec.timeline.marks[1].at
        panel_page.seek(params[spec.timeline.name])
    expected = spec.view(params)
    panel_page.expect_view(expected)

    panel_page.button(spec.words.copy_link).click()
    expect(panel_page.panel).to_contain_text("The link to this experiment is copied")
    link = panel_page.page.evaluate("() => navigator.clipboard.readText()")
    address, _, fragment = link.partition("#")
    assert fragment and spec.lesson not in fragment, link
    assert address == panel_page.page.url.partition("#")[0], f"the link {link} leads to another page than the experiment's"

    # The reader follows the link: the panel they left is closed, storage forgotten, and the one the
    # link opens is built anew, with nothing but the link to tell it the settings and the moment.
    reopened = reader.visit(spec.lesson, path, fragment=fragment, reduced_motion=True)
    reopened.expect_view(expected)
    for control in settings(spec):
        assert shown_value(reopened, control) == params[control.name], control.label
    if spec.timeline:
        expect(reopened.timeline).to_have_value(f"{params[spec.timeline.name]:g}")


# Every write of the page's address the shell makes ("#budget=36&..."), in order, from now on.
COUNT_ADDRESS_WRITES = """() => {
  const replace = history.replaceState.bind(history);
  window.lkAddressWrites = [];
  history.replaceState = (state, unused, url) => {
    if (String(url).startsWith("#")) window.lkAddressWrites.push(String(url));
    return replace(state, unused, url);
  };
}"""

# The writes counted, and the count stops (History's own method again): the reader keeps the tab for the next tests.
ADDRESS_WRITES = """() => {
  delete history.replaceState;
  return window.lkAddressWrites;
}"""

# A reader's changes, made in one go inside the page (one task, so no pause can fall between them):
# [name, kind, value], a choice's value being its option's label.
CHANGE_ALL = """(changes) => {
  for (const [name, kind, value] of changes) {
    const element = document.querySelector(`section.lk-panel [name="${CSS.escape(name)}"]`);
    if (kind === "choice") element.value = [...element.options].find((option) => option.textContent.trim() === value).value;
    else if (kind === "toggle") element.checked = value;
    else element.value = String(value);
    element.dispatchEvent(new Event("input", { bubbles: true }));
    element.dispatchEvent(new Event("change", { bubbles: true }));
  }
}"""


def in_page_changes(spec: Panel, params: dict[str, Any]) -> list[list[Any]]:
    changes = []
    for control in settings(spec):
        value = params[control.name]
        if isinstance(control, Choice):
            value = next(option.label for option in control.options if option.value == value)
        elif not isinstance(control, Toggle):
            value = f"{value:g}"
        changes.append([control.name, control.kind, value])
    return changes


def test_a_burst_of_changes_is_written_to_the_address_once_and_the_address_reopens_them(reader, declared):
    spec, path = declared
    panel_page = reader.visit(spec.lesson, path, reduced_motion=True)
    page = panel_page.page
    # The panel's arrival wrote nothing (a write always leaves a "#"), and every write from here on is counted.
    assert "#" not in page.url, f"the address was written before any change: {page.url}"
    page.evaluate(COUNT_ADDRESS_WRITES)
    params = changed_params(spec)
    page.evaluate(CHANGE_ALL, in_page_changes(spec, params))
    expected = spec.view(params)
    panel_page.expect_view(expected)

    expect(page).to_have_url(re.compile(r"#.+"))
    writes = page.evaluate(ADDRESS_WRITES)
    assert len(writes) == 1, f"{len(settings(spec))} changes in a row wrote the address {len(writes)} times: {writes}"

    reopened = reader.visit(spec.lesson, path, fragment=page.url.split("#", 1)[1], reduced_motion=True)
    reopened.expect_view(expected)
    for control in settings(spec):
        assert shown_value(reopened, control) == params[control.name], control.label


def test_a_link_followed_straight_after_a_change_leaves_the_change_for_back_to_find(reader, declared):
    spec, path = declared
    panel_page = reader.visit(spec.lesson, path)
    page = panel_page.page
    params = changed_params(spec)
    # The changes and the click in one task: the address has had no pause to be written in.
    page.evaluate(
        "(changes) => { (" + CHANGE_ALL + ")(changes); document.querySelector('.md-header a.md-logo').click(); }",
        in_page_changes(spec, params),
    )
    expect(panel_page.panel).to_have_count(0)  # the site's home page, which has no experiment
    page.go_back()
    back = PanelPage(page, spec)
    wait_for_engine(back)
    back.expect_view(spec.view(params))
    for control in settings(spec):
        assert shown_value(back, control) == params[control.name], control.label


def test_a_link_the_experiment_cannot_use_is_refused_by_name_and_the_defaults_are_used(reader, declared):
    spec, path = declared
    first = settings(spec)[0]
    # A lone percent sign, as a hand-edited link may hold: refused as written, not thrown on.
    panel_page = reader.visit(spec.lesson, path, fragment=f"{first.name}=not-a-setting%")
    expect(panel_page.panel).to_contain_text(f"parameter '{first.name}' is \"not-a-setting%\"; allowed: {first.allowed()}")
    panel_page.expect_view(spec.view(spec.defaults()))
    assert shown_value(panel_page, first) == spec.defaults()[first.name]


def test_a_number_out_of_range_is_refused_visibly_and_the_experiment_keeps_the_last_value(reader, declared):
    spec, path = declared
    numbers = [control for control in spec.controls if isinstance(control, Number)]
    if not numbers:
        pytest.skip(f"{spec.lesson} has no number field")
    number = numbers[0]
    panel_page = reader.visit(spec.lesson, path)
    for control in settings(spec):  # a number a toggle enables must be switched on first
        if isinstance(control, Toggle) and number.name in control.enables:
            set_control(panel_page, control, True)
    field = panel_page.control("spinbutton", number.label)
    field.fill(f"{number.maximum + number.step:g}")
    field.press("Enter")
    expect(panel_page.panel).to_contain_text(f"{number.label} must be {number.allowed()}")
    expect(field).to_have_attribute("aria-invalid", "true")


def test_each_range_speaks_its_value(reader, declared):
    spec, path = declared
    ranges = [control for control in spec.controls if isinstance(control, Range)]
    if not ranges:
        pytest.skip(f"{spec.lesson} has no range")
    panel_page = reader.visit(spec.lesson, path)
    for control in ranges:
        slider = panel_page.control("slider", control.label)
        unit = f" {control.unit}" if control.unit else ""
        expect(slider).to_have_attribute("aria-valuetext", f"{control.default:g}{unit}")
