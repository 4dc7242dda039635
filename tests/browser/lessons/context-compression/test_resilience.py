"""When something goes wrong the reader is told why, keeps the page, and loses nothing they wrote."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import expect

ENGINE_BOOT_MS = 60_000
BASELINE_KEY = "lessonkit:context-compression:baseline"
NOTE = "T2 is the only user-backed source of the region."


def test_a_worker_that_cannot_start_says_why_keeps_the_page_and_can_be_retried(open_context, lesson_opener, engine):
    context = open_context(expected_errors=(r"404",))
    context.route(re.compile(r".*/assets/wheels/.*\.whl$"), lambda route: route.fulfill(status=404, body="gone"))
    lesson = lesson_opener(context.new_page(), engine=False)

    expect(lesson.panel).to_have_attribute("data-engine", "failed", timeout=ENGINE_BOOT_MS)
    expect(lesson.panel).to_contain_text("The Python engine could not start")
    expect(lesson.panel).to_contain_text("the lessonkit wheel could not be fetched")
    # The static view the build computed stays readable.
    expect(lesson.status).to_have_text(engine.view().status)

    context.unroute(re.compile(r".*/assets/wheels/.*\.whl$"))
    lesson.button("Retry starting the engine").click()
    expect(lesson.panel).to_have_attribute("data-engine", "ready", timeout=ENGINE_BOOT_MS)
    lesson.seek(30)
    expect(lesson.status).to_have_text(engine.view(time=30).status)


def test_a_corrupt_saved_baseline_is_reported_and_kept_not_wiped(open_context, lesson_opener):
    context = open_context()
    # Only in the site's documents: the blank page a new tab starts on has no storage of its own.
    context.add_init_script(f"if (location.protocol.startsWith('http')) localStorage.setItem({json.dumps(BASELINE_KEY)}, '{{not json');")
    lesson = lesson_opener(context.new_page())

    expect(lesson.panel).to_contain_text("not valid JSON")
    lesson.button("Capture baseline").click()

    stored = lesson.page.evaluate(
        "() => Object.keys(localStorage).filter(k => k.startsWith('lessonkit:context-compression:baseline:corrupt:'))"
        ".map(k => localStorage.getItem(k))"
    )
    assert stored == ["{not json"], "the unreadable baseline was not kept aside before being replaced"


def test_when_storage_is_full_the_notes_stay_on_screen_and_still_export(open_context, lesson_opener):
    context = open_context()
    # Every write fails as a full storage would, from the first keystroke on.
    context.add_init_script(
        "Storage.prototype.setItem = function () { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };"
    )
    lesson = lesson_opener(context.new_page())

    lesson.notes.fill(NOTE)

    expect(lesson.panel).to_contain_text("Your notes could not be saved in this browser")
    expect(lesson.notes).to_have_value(NOTE)
    with lesson.page.expect_download() as started:
        lesson.button("Export notes").click()
    exported = json.loads(Path(started.value.path()).read_text(encoding="utf-8"))
    assert exported["notes"] == NOTE
