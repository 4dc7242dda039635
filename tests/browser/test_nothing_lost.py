"""Nothing the reader wrote is lost: notes, their own text fields (a prediction) and baselines,
for every panel on the site.

They survive a reload; corrupt stored data is warned about, kept as it was and offered for export;
a full storage and a storage switched off entirely leave the text on screen with a warning, and
export still works; each lesson keeps its own; and what a reader wrote is shown as text, never as
HTML.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from lessonkit.panel import Panel, Text
from tests.browser.harness import PanelPage

# Every test uses the reader's kept tab. A full storage and one switched off are the tab's storage
# broken before the link to the lesson is followed (Reader.visit's `storage`): the panel opens the
# window's storage as it starts, so it finds it broken as a page loaded that way would.


def key(spec: Panel, name: str) -> str:
    return f"lessonkit:{spec.lesson}:{name}"


def text_fields(spec: Panel) -> list[Text]:
    return [control for control in spec.controls if isinstance(control, Text)]


def write_everything(panel_page: PanelPage) -> dict[str, str]:
    """Type a note and every text field, and capture a baseline; returns what was typed, by field name."""
    spec = panel_page.spec
    typed = {"notes": f"Notes on {spec.title}: the window keeps what fits."}
    panel_page.notes.fill(typed["notes"])
    for field in text_fields(spec):
        typed[field.name] = f"{field.label}: three of six."
        panel_page.control("textbox", field.label).fill(typed[field.name])
    panel_page.button(spec.words.capture).click()
    expect(panel_page.button(spec.words.replace)).to_be_visible()
    return typed


def expect_on_screen(panel_page: PanelPage, typed: dict[str, str]) -> None:
    spec = panel_page.spec
    expect(panel_page.notes).to_have_value(typed["notes"])
    for field in text_fields(spec):
        expect(panel_page.control("textbox", field.label)).to_have_value(typed[field.name])
    expect(panel_page.panel).to_contain_text(spec.view(spec.defaults()).baseline)


def exported_notes(panel_page: PanelPage) -> Any:
    with panel_page.page.expect_download() as started:
        panel_page.button(panel_page.spec.words.export_notes).click()
    return json.loads(Path(started.value.path()).read_text(encoding="utf-8"))


def expect_exported(panel_page: PanelPage, typed: dict[str, str]) -> Any:
    exported = exported_notes(panel_page)
    assert exported["lesson"] == panel_page.spec.lesson
    assert exported["notes"] == typed["notes"]
    for field in text_fields(panel_page.spec):
        assert exported["fields"][field.name]["text"] == typed[field.name]
    return exported


def test_notes_text_fields_and_a_baseline_survive_a_reload(reader, panel_on_page):
    spec, path = panel_on_page
    panel_page = reader.visit(spec.lesson, path, engine=False)
    typed = write_everything(panel_page)

    panel_page.page.reload()  # a new document, which boots the engine again: the reader's next visit waits for it

    reloaded = PanelPage(panel_page.page, spec)
    expect_on_screen(reloaded, typed)
    expect(reloaded.button(spec.words.replace)).to_be_visible()


def test_a_corrupt_saved_baseline_is_warned_about_kept_as_it_was_and_exported(reader, panel_on_page):
    spec, path = panel_on_page
    panel_page = reader.visit(spec.lesson, path, stored={key(spec, "baseline"): "{not json"}, engine=False)

    expect(panel_page.panel).to_contain_text("The saved baseline for this lesson could not be read")
    expect(panel_page.panel).to_contain_text(f"{spec.words.export_notes} includes it")
    assert exported_notes(panel_page)["unreadable"] == {key(spec, "baseline"): "{not json"}

    panel_page.button(spec.words.capture).click()  # a new baseline replaces it: the old text is set aside first
    expect(panel_page.panel).to_contain_text("The unreadable baseline was kept under")
    kept = panel_page.page.evaluate(
        "(prefix) => Object.keys(localStorage).filter((k) => k.startsWith(prefix)).map((k) => localStorage.getItem(k))",
        key(spec, "baseline:corrupt:"),
    )
    assert kept == ["{not json"]
    assert "{not json" in exported_notes(panel_page)["unreadable"].values()


def test_a_full_storage_keeps_what_was_written_on_screen_with_a_warning_and_export_works(reader, panel_on_page):
    spec, path = panel_on_page
    panel_page = reader.visit(spec.lesson, path, storage="full", engine=False)

    typed = write_everything(panel_page)

    expect(panel_page.panel).to_contain_text("Your notes could not be saved in this browser: QuotaExceededError")
    expect(panel_page.panel).to_contain_text("The baseline could not be saved in this browser: QuotaExceededError")
    expect_on_screen(panel_page, typed)
    expect_exported(panel_page, typed)


def test_a_storage_switched_off_entirely_keeps_what_was_written_on_screen_with_a_warning_and_export_works(reader, panel_on_page):
    spec, path = panel_on_page
    panel_page = reader.visit(spec.lesson, path, storage="switched off", engine=False)
    expect(panel_page.panel).to_contain_text("Your notes can't be kept in this browser: SecurityError")

    typed = write_everything(panel_page)

    expect(panel_page.panel).to_contain_text("The baseline could not be saved in this browser: SecurityError")
    expect_on_screen(panel_page, typed)
    expect_exported(panel_page, typed)


def test_each_lesson_keeps_its_own_notes(reader, panel_paths):
    # Every lesson is open (in a tab of its own) before anything is written: each visit empties the
    # storage all the tabs share, which would take the notes written in the tabs before it.
    panel_pages = {lesson: reader.visit(lesson, path, engine=False) for lesson, path in sorted(panel_paths.items())}
    for lesson, panel_page in panel_pages.items():
        panel_page.page.bring_to_front()
        panel_page.notes.fill(f"Only about {lesson}.")
    # Each lesson is left and reached again by the site's links, its panel started anew from storage
    # (a reload, which boots Python again, is the test above).
    for lesson, panel_page in panel_pages.items():
        expect(reader.come_back(panel_page).notes).to_have_value(f"Only about {lesson}.")


MARKUP = '<img src="lk-missing.png" onerror="window.lkRan = 1"><script>window.lkRan = 2</script><b>bold?</b>'


def test_markup_in_notes_fields_and_a_stored_baseline_stays_inert_text(reader, panel_on_page):
    spec, path = panel_on_page
    items = {
        key(spec, "notes"): MARKUP,
        key(spec, "baseline"): json.dumps({"lesson": spec.lesson, "text": MARKUP, "params": spec.defaults()}),
    }
    items |= {key(spec, f"text:{field.name}"): MARKUP for field in text_fields(spec)}
    panel_page = reader.visit(spec.lesson, path, stored=items, engine=False)

    expect(panel_page.notes).to_have_value(MARKUP)
    for field in text_fields(spec):
        expect(panel_page.control("textbox", field.label)).to_have_value(MARKUP)
    expect(panel_page.panel).to_contain_text(MARKUP)  # the baseline's text, shown as the characters it is
    made = panel_page.page.evaluate(
        "() => [...document.querySelectorAll('img, script, b')].filter((e) => /lk-missing|lkRan|bold\\?/.test(e.outerHTML)).length"
    )
    assert made == 0, "the reader's markup became elements"
    assert panel_page.page.evaluate("() => window.lkRan") is None


def test_a_saved_baseline_whose_settings_no_longer_fit_keeps_its_text_and_names_every_setting(reader, panel_on_page):
    spec, path = panel_on_page
    first, second = [control for control in spec.controls if not isinstance(control, Text)][:2]
    stale = {**spec.defaults(), first.name: "not-a-setting", second.name: "not-a-setting"}
    stored = {key(spec, "baseline"): json.dumps({"lesson": spec.lesson, "text": "An older run.", "params": stale})}
    panel_page = reader.visit(spec.lesson, path, stored=stored)

    # Both settings are named, in the panel's order: a reader fixing only the first would be told again.
    expect(panel_page.panel).to_contain_text(
        f"The saved baseline's settings no longer fit this experiment (parameter '{first.name}' is \"not-a-setting\"; "
        f"allowed: {first.allowed()}; parameter '{second.name}' is \"not-a-setting\"; allowed: {second.allowed()}); "
        "its text is kept but its run is not drawn."
    )
    expect(panel_page.panel).to_contain_text("An older run.")
    panel_page.expect_view(spec.view(spec.defaults()))
